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
                // [PET] AMOUNT [CURRENCY]: two words are AMOUNT CURRENCY when the first is an amount (a pet's
                // name is never only digits), else PET AMOUNT.
                var rest = words
                var pet: String?
                if rest.count == 3 || (rest.count == 2 && (try? MoneyText.parse(rest[0], defaultCurrency: home)) == nil) {
                    pet = rest.removeFirst()
                }
                let amountText = rest.joined(separator: " ")
                let amount = try MoneyText.parse(amountText, defaultCurrency: home)
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
                let what = s.describe(stored, activePets: activePets)
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
                guard !budgets.isEmpty else { s.terminal.line(s.t(.budgetNone)); return }
                // The name column (name · place · people) only when a budget has one of them: a
                // household without trips sees the table as before.
                let named = budgets.contains { !s.budgetLabel($0.budget).isEmpty }
                s.terminal.table(
                    header: ["#"] + (named ? [s.t(.budgetColName)] : []) + [s.t(.budgetColFor), s.t(.budgetColAmount), s.t(.budgetColPeriod), s.t(.budgetColCategory), s.t(.budgetColState)],
                    rows: budgets.map { b -> [String] in
                        let pets = Display.count(Budget.headcount(petBudget: b.petId != nil, activePets: activePets))
                        let amount: String = s.format.money(b.budget.amount) + (b.budget.perPet ? " " + s.t(.budgetPerPet(n: pets)) : "")
                        let category: String = b.budget.category.map(s.categoryName) ?? s.t(.budgetAllCategories)
                        return [String(b.id)] + (named ? [s.budgetLabel(b.budget)] : [])
                            + [s.budgetWho(b), amount, s.budgetPeriod(b.budget), category, s.budgetState(b.budget, on: today)]
                    })
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
                let petId = try pet.map { try repo.pet(PetRef($0)).id }
                let activePets = try repo.pets(includeArchived: false).count
                let budgets = try repo.budgets().filter { (petId == nil || $0.petId == petId) && $0.budget.isShown(on: day) }
                var shown: [(StoredBudget, BudgetStatus)] = []
                for b in budgets { shown.append((b, try s.budgetStatus(b, on: day, activePets: activePets))) }
                if s.json {
                    try s.terminal.json(BudgetShowJSON(date: day, budgets: shown.map { BudgetJSON($0, activePets: activePets, .status($1, on: day)) }))
                    return
                }
                guard !shown.isEmpty else { s.terminal.line(s.t(.budgetNoneOn(date: s.format.longDate(day)))); return }
                for (i, (b, status)) in shown.enumerated() {
                    if i > 0 { s.terminal.line() }
                    s.terminal.line(s.terminal.styled("#\(b.id) " + s.describe(b, activePets: activePets), .bold))
                    for line in s.statusLines(b.budget, status, on: day, detailed: true) { s.terminal.line("  " + line) }
                }
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

        func run() throws {
            try Session.run(global) { s in
                // An empty value clears the field (as `edit --note ""`); anything else is checked as `budget set` checks it.
                func blank(_ t: String) -> Bool { t.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty }
                let edit = BudgetEdit(
                    name: try name.map { blank($0) ? .none : try Budget.label($0, field: "--name") },
                    place: try place.map { blank($0) ? .none : try Budget.label($0, field: "--place") },
                    people: try people.map { blank($0) ? .none : try Budget.people($0) })
                guard !edit.isEmpty else { throw UsageError(message: s.t(.errBudgetEditNothing)) }
                let repo = try s.repository()
                let (before, after) = try repo.editBudget(id: id, edit)
                let activePets = try repo.pets(includeArchived: false).count
                if s.json { try s.terminal.json(BudgetJSON(after, activePets: activePets)); return }
                let what = s.describe(after, activePets: activePets)
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
                s.terminal.line(s.t(.budgetDeleted(id: String(gone.id), what: s.describe(gone, activePets: activePets))))
            }
        }
    }
}

extension Session {
    /// Where `b` stands on `day`: its spending (the pet's records for a pet's budget; everything, the
    /// household's own expenses included, for the household's) converted at each expense's day's rate.
    mutating func budgetStatus(_ b: StoredBudget, on day: LocalDate, activePets: Int) throws -> BudgetStatus {
        let (first, last) = b.budget.span(asOf: day)
        let through = min(last, day)
        let pets = Budget.headcount(petBudget: b.petId != nil, activePets: activePets)
        guard through >= first else { return BudgetStatus(budget: b.budget, items: [], asOf: day, pets: pets) }
        let query = SpendingQuery(pets: b.petId.map { [PetRef.id($0)] } ?? [], days: DayWindow(first: first, end: through.adding(days: 1)))
        let entries = try repository().spending(query)
        let rates = try rates(for: entries, to: b.budget.amount.currency)
        return BudgetStatus(budget: b.budget, items: entries.map { $0.item(time) }, asOf: day, pets: pets, rates: rates)
    }

    /// `under way, 6 days left`, `upcoming, starts in 27 days`, `ended Nov 29, 2026`; a monthly budget
    /// is always under way, with the days left in this month.
    func budgetState(_ budget: Budget, on day: LocalDate) -> String {
        switch budget.standing(on: day) {
        case .current: t(.budgetUnderWay(n: Display.count(budget.daysLeft(on: day))))
        case .upcoming(let n): t(.budgetUpcoming(n: Display.count(n)))
        case .ended: t(.budgetEnded(date: format.longDate(budget.span(asOf: day).last)))
        }
    }

    func budgetWho(_ b: StoredBudget) -> String { b.petId == nil ? t(.budgetHousehold) : (b.petName ?? "#\(b.petId ?? 0)") }

    func budgetPeriod(_ budget: Budget) -> String {
        switch budget.period {
        case .monthly: t(.budgetMonthly)
        case .days(let from, let through): t(.budgetSpan(from: format.longDate(from), to: format.longDate(through)))
        }
    }

    /// `Japan trip · Tokyo · 2 people`: what a budget is called, where and for how many; empty when none is said.
    func budgetLabel(_ budget: Budget) -> String {
        var parts: [String] = []
        if let name = budget.name { parts.append(PlainText.sanitized(name)) }
        if let place = budget.place { parts.append(PlainText.sanitized(place)) }
        if let people = budget.people { parts.append(t(.budgetPeople(n: Display.count(people)))) }
        // Japanese joins a name and its place with the katakana middle dot (`Japan trip・Tokyo`): the Latin
        // one set in a Japanese font hugs the next word in a chart's title.
        return parts.joined(separator: t(.budgetLabelJoin))
    }

    /// `Japan trip · Tokyo · 2 people · Household · US$2,000.00 · Dec 20 – 29 · all categories`;
    /// `Coco · ₩300,000 · monthly · vet · per pet (÷1)`.
    func describe(_ b: StoredBudget, activePets: Int) -> String {
        let label = budgetLabel(b.budget)
        var parts = (label.isEmpty ? [] : [label]) + [budgetWho(b), format.money(b.budget.amount), budgetPeriod(b.budget), b.budget.category.map(categoryName) ?? t(.budgetAllCategories)]
        if b.budget.perPet { parts.append(t(.budgetPerPet(n: Display.count(Budget.headcount(petBudget: b.petId != nil, activePets: activePets))))) }
        return parts.joined(separator: " · ")
    }

    /// Spent of amount with what is left (over budget in words, red on a terminal), days left with the
    /// allowance per day, and with `detailed` the span, the categories and the unconverted count.
    func statusLines(_ budget: Budget, _ st: BudgetStatus, on day: LocalDate, detailed: Bool, showDays: Bool = true) -> [String] {
        var lines: [String] = []
        let standing = budget.standing(on: day)
        if detailed {
            var span = t(.budgetSpan(from: format.longDate(st.first), to: format.longDate(st.last)))
            switch standing {
            case .current: break
            case .upcoming(let n): span += " · " + t(.budgetStartsIn(n: Display.count(n)))
            case .ended: span += " · " + t(.budgetEnded(date: format.longDate(st.last)))
            }
            lines.append(span)
        }
        let left = st.isOver
            ? terminal.styled(t(.budgetOver(over: format.money(Money(minorUnits: st.left.minorUnits == .min ? .max : -st.left.minorUnits, currency: st.left.currency)))), .red)
            : t(.budgetLeft(left: format.money(st.left)))
        lines.append(t(.budgetSpentOf(spent: format.money(st.spent), amount: format.money(st.amount))) + " · " + left)
        if case .ended = standing {} else if showDays {
            var days = t(.budgetDaysLeft(n: Display.count(st.daysLeft)))
            if let perDay = st.perDay { days += " · " + t(.budgetPerDay(amount: format.money(perDay))) }
            lines.append(days)
        }
        if let pp = st.perPerson {
            let left = pp.left.minorUnits < 0
                ? terminal.styled(t(.budgetOver(over: format.money(Money(minorUnits: pp.left.minorUnits == .min ? .max : -pp.left.minorUnits, currency: pp.left.currency)))), .red)
                : t(.budgetLeft(left: format.money(pp.left)))
            var line = t(.budgetPerPerson(n: Display.count(pp.people))) + ": " + t(.budgetSpentOf(spent: format.money(pp.spent), amount: format.money(pp.amount))) + " · " + left
            if case .ended = standing {} else if showDays, let perDay = pp.perDay { line += " · " + t(.budgetPerDay(amount: format.money(perDay))) }
            lines.append(line)
        }
        if detailed && !st.byCategory.isEmpty {
            lines.append(t(.budgetByCategory(list: st.byCategory.map { categoryName($0.category) + " " + format.money($0.spent) }.joined(separator: " · "))))
        }
        if st.unconverted > 0 { lines.append(t(.budgetUnconverted(n: Display.count(st.unconverted)))) }
        return lines
    }
}
