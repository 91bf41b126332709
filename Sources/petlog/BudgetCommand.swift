import ArgumentParser
import Foundation
import Localization
import PetModel
import PetStoreCore
import PetViews

/// `petlog budget …`: spending budgets per month or for a stretch of days, for the household or a pet.
struct BudgetGroup: ParsableCommand {
    @OptionGroup(title: Help.s(.helpGlobalOptionsTitle)) var global: GlobalOptions
    static var configuration: CommandConfiguration { CommandConfiguration(
        commandName: "budget", abstract: Help.s(.helpBudgetGroupAbstract),
        subcommands: [Set.self, List.self, Show.self, Edit.self, Delete.self]
    ) }

    struct Set: ParsableCommand {
        @OptionGroup(title: Help.s(.helpGlobalOptionsTitle)) var global: GlobalOptions
        static var configuration: CommandConfiguration { CommandConfiguration(
            abstract: Help.s(.helpBudgetGroupSetAbstract),
            discussion: Help.s(.helpBudgetGroupSetDiscussion)) }
        @Argument(help: ArgumentHelp(Help.s(.helpBudgetGroupSetWords))) var words: [String] = []
        @Flag(help: ArgumentHelp(Help.s(.helpBudgetGroupSetMonthly))) var monthly = false
        @Option(help: ArgumentHelp(Help.s(.helpBudgetGroupSetFrom))) var from: String?
        @Option(help: ArgumentHelp(Help.s(.helpBudgetGroupSetTo))) var to: String?
        @Option(help: ArgumentHelp(Help.s(.helpBudgetGroupSetCategory))) var category: String?
        @Flag(help: ArgumentHelp(Help.s(.helpBudgetGroupSetPerPet))) var perPet = false
        @Option(help: ArgumentHelp(Help.s(.helpBudgetGroupSetName))) var name: String?
        @Option(help: ArgumentHelp(Help.s(.helpBudgetGroupSetPlace))) var place: String?
        @Option(help: ArgumentHelp(Help.s(.helpBudgetGroupSetPeople))) var people: String?
        @OptionGroup var money: CurrencyOption

        func run() throws {
            try Session.run(global) { s in
                let home = try s.homeCurrency(money.currency)
                guard (1...3).contains(words.count) else { throw UsageError(message: s.t(.errBudgetArguments)) }
                // [PET] AMOUNT [CURRENCY], read as `expense` reads it: the words are an amount, else the
                // first names the pet (a pet's name is never only digits); what is wrong is said of the
                // words that are wrong (`-5 USD` is below zero, not a pet "-5" with an amount "USD").
                let (pet, amount) = try MoneyText.petAndAmount(words, defaultCurrency: home, language: s.l10n.language.rawValue)
                let amountText = (pet == nil ? words : Array(words.dropFirst())).joined(separator: " ")
                guard amount.minorUnits > 0 else {
                    if amount.minorUnits < 0 { throw ParseError.negativeAmount(amountText) }
                    throw UsageError(message: s.t(.errBudgetNotPositive(value: amountText)), code: Failure.dataError)
                }
                let period: Budget.Period
                switch (from, to) {
                case (nil, nil): period = .monthly
                case (let f?, let t?):
                    if monthly { throw UsageError(message: s.t(.errExclusive(flags: "--monthly, --from/--to"))) }
                    let first = try TimeParser.day(f, context: s.time), last = try TimeParser.day(t, context: s.time)
                    if last < first { throw UsageError(message: s.t(.errBudgetEndsBeforeStart(to: last.description, from: first.description)), code: Failure.dataError) }
                    period = .days(from: first, through: last)
                default: throw UsageError(message: s.t(.errBudgetNeedsBoth))
                }
                let code = try category.map { try CareNames.shipped.categoryEntry($0) }
                let budget = Budget(amount: amount, period: period, category: code, perPet: perPet,
                                    name: try name.map { try Budget.label($0, field: "--name") },
                                    place: try place.map { try Budget.label($0, field: "--place") },
                                    people: try people.map { try Budget.people($0) })
                let repo = try s.repository()
                let (stored, replaced) = try repo.setBudget(BudgetDraft(pet: pet.map(PetRef.init), budget: budget))
                let activePets = try repo.pets(includeArchived: false).count
                if s.json { try s.terminal.json(BudgetJSON(stored, activePets: activePets)); return }
                let what = s.budgetText.describe(stored, activePets: activePets)
                s.terminal.line(replaced ? s.t(.budgetReplaced(id: String(stored.id), what: what)) : s.t(.budgetSaved(id: String(stored.id), what: what)))
            }
        }
    }

    struct List: ParsableCommand {
        @OptionGroup(title: Help.s(.helpGlobalOptionsTitle)) var global: GlobalOptions
        static var configuration: CommandConfiguration { CommandConfiguration(abstract: Help.s(.helpBudgetGroupListAbstract)) }

        func run() throws {
            try Session.run(global) { s in
                let repo = try s.repository()
                let today = s.time.today
                // Under way first (monthly ones, then trips ending soonest), then upcoming (starting
                // soonest), then ended (latest first).
                let budgets = try repo.budgets().sorted { (a: StoredBudget, b: StoredBudget) -> Bool in
                    let x = a.budget.listOrder(on: today), y = b.budget.listOrder(on: today)
                    return (x.0, x.1, a.id) < (y.0, y.1, b.id)
                }
                let activePets = try repo.pets(includeArchived: false).count
                if s.json {
                    try s.terminal.json(budgets.map { BudgetJSON($0, activePets: activePets, .state(on: today)) })
                    return
                }
                s.terminal.lines(BudgetPresenter(s.presentation).list(budgets, activePets: activePets, on: today))
            }
        }
    }

    struct Show: ParsableCommand {
        @OptionGroup(title: Help.s(.helpGlobalOptionsTitle)) var global: GlobalOptions
        static var configuration: CommandConfiguration { CommandConfiguration(
            abstract: Help.s(.helpBudgetGroupShowAbstract),
            discussion: Help.s(.helpBudgetGroupShowDiscussion)) }
        @Argument(help: ArgumentHelp(Help.s(.helpBudgetGroupShowPet)), completion: .petNames) var pet: String?
        @Option(help: ArgumentHelp(Help.s(.helpBudgetGroupShowDate))) var date: String?
        @Flag(help: ArgumentHelp(Help.s(.helpBudgetGroupShowDaily))) var daily = false

        func run() throws {
            try Session.run(global) { s in
                let day = try date.map { try TimeParser.day($0, context: s.time) } ?? s.time.today
                if daily {
                    guard let raw = pet, let id = Int64(raw.trimmingCharacters(in: .whitespaces)), id > 0 else {
                        throw UsageError(message: s.t(.errBudgetDailyNeedsId(value: PlainText.sanitized(pet ?? ""))))
                    }
                    try s.showBudgetDaily(id: id, on: day)
                    return
                }
                let repo = try s.repository()
                let all = try repo.budgets()
                // A number that is a budget's id means that budget (as `budget list` numbers them), shown
                // whether or not it is in force; else the words name a pet (by name or id).
                let number = pet.flatMap { Int64($0.trimmingCharacters(in: .whitespaces)) }
                let chosen = number.flatMap { n in all.first { $0.id == n } }
                var petName: String?
                var petId: Int64?
                if chosen == nil, let raw = pet {
                    do {
                        let found = try repo.pet(PetRef(raw))
                        (petId, petName) = (found.id, found.name)
                    } catch StoreError.petNotFound where number != nil {
                        throw UsageError(message: s.t(.errBudgetOrPetNotFound(id: String(number ?? 0))), code: Failure.noInput)
                    }
                }
                let activePets = try repo.pets(includeArchived: false).count
                let budgets = chosen.map { [$0] } ?? all.filter { (petId == nil || $0.petId == petId) && $0.budget.isShown(on: day) }
                var shown: [(StoredBudget, BudgetStatus)] = []
                for b in budgets { shown.append((b, try s.budgetStatus(b, on: day, activePets: activePets))) }
                if s.json {
                    try s.terminal.json(BudgetShowJSON(date: day, budgets: shown.map { BudgetJSON($0, activePets: activePets, .status($1, on: day)) }))
                    return
                }
                s.terminal.lines(BudgetPresenter(s.presentation).show(shown, activePets: activePets, on: day, pet: petName.map(Terminal.sanitize)))
            }
        }
    }

    struct Edit: ParsableCommand {
        @OptionGroup(title: Help.s(.helpGlobalOptionsTitle)) var global: GlobalOptions
        static var configuration: CommandConfiguration { CommandConfiguration(
            abstract: Help.s(.helpBudgetGroupEditAbstract),
            discussion: Help.s(.helpBudgetGroupEditDiscussion)) }
        @Argument(help: ArgumentHelp(Help.s(.helpBudgetGroupDeleteId))) var id: Int64
        @Option(help: ArgumentHelp(Help.s(.helpBudgetGroupSetName))) var name: String?
        @Option(help: ArgumentHelp(Help.s(.helpBudgetGroupSetPlace))) var place: String?
        @Option(help: ArgumentHelp(Help.s(.helpBudgetGroupSetPeople))) var people: String?
        @Option(help: ArgumentHelp(Help.s(.helpBudgetGroupSetFrom))) var from: String?
        @Option(help: ArgumentHelp(Help.s(.helpBudgetGroupSetTo))) var to: String?

        func run() throws {
            try Session.run(global) { s in
                // An empty value clears the field (as `edit --note ""`); anything else is checked as `budget set` checks it.
                func blank(_ t: String) -> Bool { t.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty }
                var edit = BudgetEdit(
                    name: try name.map { blank($0) ? .none : try Budget.label($0, field: "--name") },
                    place: try place.map { blank($0) ? .none : try Budget.label($0, field: "--place") },
                    people: try people.map { blank($0) ? .none : try Budget.people($0) })
                let firstDay = try from.map { try TimeParser.day($0, context: s.time) }, lastDay = try to.map { try TimeParser.day($0, context: s.time) }
                guard !edit.isEmpty || firstDay != nil || lastDay != nil else { throw UsageError(message: s.t(.errBudgetEditNothing)) }
                let repo = try s.repository()
                if firstDay != nil || lastDay != nil {
                    // A stretch's days move as `budget set` checks them: the last not before the first, and
                    // not onto another budget's same pet, category and days.
                    let all = try repo.budgets()
                    guard let current = all.first(where: { $0.id == id }) else { throw StoreError.budgetNotFound(id) }
                    guard case .days(let oldFirst, let oldLast) = current.budget.period else {
                        throw UsageError(message: s.t(.errBudgetEditMonthly(id: String(id))), code: Failure.dataError)
                    }
                    let first = firstDay ?? oldFirst, last = lastDay ?? oldLast
                    if last < first { throw UsageError(message: s.t(.errBudgetEndsBeforeStart(to: last.description, from: first.description)), code: Failure.dataError) }
                    if let other = all.first(where: { $0.id != id && $0.petId == current.petId && $0.budget.category == current.budget.category
                                                      && $0.budget.period == .days(from: first, through: last) }) {
                        throw UsageError(message: s.t(.errBudgetSameScope(other: String(other.id), from: first.description, to: last.description)), code: Failure.dataError)
                    }
                    edit.days = BudgetDays.Span(first: first, last: last)
                }
                let (before, after) = try repo.editBudget(id: id, edit)
                let activePets = try repo.pets(includeArchived: false).count
                if s.json { try s.terminal.json(BudgetJSON(after, activePets: activePets)); return }
                let what = s.budgetText.describe(after, activePets: activePets)
                s.terminal.line(before == after ? s.t(.budgetUnchanged(id: String(after.id), what: what)) : s.t(.budgetEdited(id: String(after.id), what: what)))
            }
        }
    }

    struct Delete: ParsableCommand {
        @OptionGroup(title: Help.s(.helpGlobalOptionsTitle)) var global: GlobalOptions
        static var configuration: CommandConfiguration { CommandConfiguration(abstract: Help.s(.helpBudgetGroupDeleteAbstract)) }
        @Argument(help: ArgumentHelp(Help.s(.helpBudgetGroupDeleteId))) var id: Int64

        func run() throws {
            try Session.run(global) { s in
                let repo = try s.repository()
                let gone = try repo.deleteBudget(id: id)
                let activePets = try repo.pets(includeArchived: false).count
                if s.json { try s.terminal.json(BudgetJSON(gone, activePets: activePets)); return }
                s.terminal.line(s.t(.budgetDeleted(id: String(gone.id), what: s.budgetText.describe(gone, activePets: activePets))))
            }
        }
    }
}

extension Session {
    /// Where `b` stands on `day`: its spending (the pet's records for a pet's budget; everything, the
    /// household's own expenses included, for the household's) converted at each expense's day's rate.
    mutating func budgetStatus(_ b: StoredBudget, on day: LocalDate, activePets: Int) throws -> BudgetStatus {
        try MoneyViews.budgetStatus(repository(), b, on: day, activePets: activePets, time: time)
    }

    /// Budgets in the session's words (`BudgetPresenter`).
    var budgetText: BudgetPresenter { BudgetPresenter(presentation) }
}
