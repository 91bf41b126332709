import ArgumentParser
import Foundation
import Localization
import PetModel
import PetStoreCore
import PetViews

/// `petlog expense …`: log an expense (the default subcommand) and list spending by day.
struct ExpenseGroup: ParsableCommand {
    static var configuration: CommandConfiguration { CommandConfiguration(
        commandName: "expense", abstract: Help.s(.helpExpenseGroupAbstract),
        subcommands: [ExpenseAddCommand.self, ExpenseListCommand.self, ExpenseScanCommand.self], defaultSubcommand: ExpenseAddCommand.self) }
}

struct ExpenseAddCommand: ParsableCommand {
    @OptionGroup(title: Help.s(.helpGlobalOptionsTitle)) var global: GlobalOptions
    static var configuration: CommandConfiguration { CommandConfiguration(
        commandName: "add",
        abstract: Help.s(.helpExpenseAddCommandAbstract),
        discussion: Help.s(.helpExpenseAddCommandDiscussion)) }
    @Argument(help: ArgumentHelp(Help.s(.helpExpenseAddCommandWords))) var words: [String]
    @Option(help: ArgumentHelp(Help.s(.helpExpenseAddCommandPets))) var pets: String?
    @OptionGroup var fields: ExpenseFieldOptions
    @Option(help: ArgumentHelp(Help.s(.helpExpenseAddCommandItems))) var items: String?
    @Option(help: ArgumentHelp(Help.s(.helpExpenseAddCommandReceipt))) var receipt: [String] = []
    @OptionGroup var money: CurrencyOption
    @OptionGroup var record: RecordOptions

    func run() throws {
        try Session.run(global) { s in
            let home = try s.homeCurrency(money.currency)
            let (petText, amount) = try MoneyText.petAndAmount(words, defaultCurrency: home)
            guard amount.minorUnits > 0 else { throw ParseError.amountNotPositive((petText == nil ? words : Array(words.dropFirst())).joined(separator: " ")) }
            if petText != nil && pets != nil { throw UsageError(message: s.t(.errExclusive(flags: "PET, --pets"))) }
            let expense = Expense(
                money: amount,
                category: try fields.categoryCode() ?? "other",
                merchant: try fields.merchantText(),
                payment: fields.payment,
                items: try items.map { raw in
                    let list = Expense.parseItems(raw)
                    guard !list.isEmpty else { throw ParseError.emptyText(field: "items") }
                    return try list.map { try TextField.label($0, field: "items") }
                } ?? [])
            try s.checkImages(receipt, pdf: true)
            let (at, offset) = try s.when(record.at, for: .expense)
            let draft = RecordDraft(at: at, utcOffset: offset, note: try record.noteText(), detail: .expense(expense), attachmentPaths: receipt)
            let refs = (pets ?? petText).map(PetModelText.pets) ?? []
            let records = try s.repository().addRecord(pets: refs, draft)
            try s.printAdded(records)
            s.noteUnconvertible(amount.currency, home: home)
            if records.count > 1, !s.json {
                s.terminal.line(s.t(.expenseSplitDone(total: s.format.money(amount), count: Display.count(records.count))))
            }
        }
    }
}

/// The expense's own options, shared by `expense` and `expense scan` (where they correct what was read).
struct ExpenseFieldOptions: ParsableArguments {
    @Option(help: ArgumentHelp(Help.s(.helpExpenseFieldOptionsCategory)))
    var category: String?
    @Flag(help: ArgumentHelp(Help.s(.helpExpenseFieldOptionsAsWritten))) var asWritten = false
    @Option(help: ArgumentHelp(Help.s(.helpExpenseFieldOptionsMerchant))) var merchant: String?
    @Flag(help: ArgumentHelp(Help.s(.helpExpenseFieldOptionsCard))) var card = false
    @Flag(help: ArgumentHelp(Help.s(.helpExpenseFieldOptionsCash))) var cash = false

    func validate() throws {
        if card && cash { throw ValidationError(GlobalSettings.forRefusals(CommandLine.arguments).l10n.text(.errExclusive(flags: "--card, --cash"))) }
    }

    /// The category as stored: a listed code, or the owner's word (`--as-written`); nil when not given.
    func categoryCode() throws -> String? { try category.map { try CareNames.shipped.categoryEntry($0, asWritten: asWritten) } }
    func merchantText() throws -> String? { try merchant.map { try TextField.label($0, field: "merchant") } }
    var payment: Payment? { card ? .card : cash ? .cash : nil }
}

struct ExpenseListCommand: ParsableCommand {
    @OptionGroup(title: Help.s(.helpGlobalOptionsTitle)) var global: GlobalOptions
    static var configuration: CommandConfiguration { CommandConfiguration(
        commandName: "list",
        abstract: Help.s(.helpExpenseListCommandAbstract)) }
    @Argument(help: ArgumentHelp(Help.s(.helpExpenseListCommandPet)), completion: .petNames) var pet: String?
    @Option(help: ArgumentHelp(Help.s(.helpExpenseListCommandMonth))) var month: String?
    @Option(help: ArgumentHelp(Help.s(.helpExpenseListCommandDay))) var day: String?
    @Flag(help: ArgumentHelp(Help.s(.helpExpenseListCommandStarred))) var starred = false
    @Flag(help: ArgumentHelp(Help.s(.helpExpenseListCommandReverse))) var reverse = false
    @Flag(name: .customLong("no-visits"), help: ArgumentHelp(Help.s(.helpExpenseListCommandNoVisits))) var noVisits = false
    @OptionGroup var money: CurrencyOption

    func run() throws {
        try Session.run(global) { s in
            if month != nil && day != nil { throw UsageError(message: s.t(.errExclusive(flags: "--month, --day"))) }
            let first = try s.monthStart(month)
            let home = try s.homeCurrency(money.currency)
            let refs = pet.map(PetModelText.pets) ?? []
            // One day (the calendar's day, as the receipt book opened it), one month, or with --starred
            // alone every month.
            let oneDay = try day.map { try TimeParser.day($0, context: s.time) }
            let span: ExpenseListSpan = oneDay.map { .day($0) } ?? (starred && month == nil ? .everything : .month(first))
            let window: DayWindow? = switch span {
            case .day(let d): DayWindow(first: d, end: d.adding(days: 1))
            case .month(let m): DayWindow(first: m, end: m.adding(months: 1))
            case .everything: nil
            }
            let entries = try s.repository().spending(SpendingQuery(
                pets: refs, days: window, includeVisits: !noVisits, starredOnly: starred))
            let rates = try s.rates(for: entries, to: home)
            var days = SpendingDays(entries, in: home, rates: rates, context: s.time)
            if reverse { days.reverse() }
            let ahead = SpendingAhead(entries, in: home, rates: rates, now: s.time.now)
            if s.json {
                try s.terminal.json(ExpenseListJSON(days, now: s.time.now, ahead: ahead, span: span))
                return
            }
            s.printSpendingDays(days, span: span, showPet: refs.count != 1, ahead: ahead)
        }
    }
}

extension Session {
    func printSpendingDays(_ days: SpendingDays, span: ExpenseListSpan, showPet: Bool, ahead: SpendingAhead) {
        switch span {
        case .month(let m): terminal.line(terminal.styled(t(.expenseListTitle(month: format.monthLabel(m))), .bold))
        case .day(let d): terminal.line(terminal.styled(t(.expenseListTitle(month: format.longDate(d))), .bold))
        case .everything: terminal.line(terminal.styled(t(.expenseListStarredTitle), .bold))
        }
        guard !days.days.isEmpty else {
            switch span {
            case .month: terminal.line(t(.expenseListEmpty))
            case .day: terminal.line(t(.expenseListEmptyDay))
            case .everything: terminal.line(t(.expenseListEmptyStarred))
            }
            return
        }
        let home = days.currency
        let idWidth = days.days.flatMap(\.entries).map { String($0.recordId).count }.max() ?? 1
        func totalText(_ total: SpendingTotal) -> String {
            total.isSingleCurrency ? format.money(total.converted)
                : total.currencies.map { format.money(Money(minorUnits: total.byCurrency[$0] ?? 0, currency: Currency.named($0) ?? home)) }.joined(separator: " + ")
        }
        let clocks = days.days.flatMap(\.entries).map { recordClock($0.at, utcOffset: $0.utcOffset) }
        let clockWidth = clocks.map(Terminal.width).max() ?? 5
        for day in days.days {
            terminal.line()
            terminal.line(terminal.styled("\(format.longDate(day.day)) \(format.weekday(day.day))", .bold) + "  " + totalText(day.total))
            for (group, converted) in purchases(day, merge: showPet) {
                let entry = group[0]
                var parts: [String] = []
                if showPet {
                    // A purchase shared by pets is one line: each pet with its share.
                    parts.append(group.count == 1 ? Terminal.sanitize(entry.petName ?? t(.expenseHousehold))
                        : group.map { Terminal.sanitize($0.petName ?? t(.expenseHousehold)) + " " + format.money($0.money) }.joined(separator: ", "))
                }
                var what = categoryName(entry.category)
                // A cost kept on another kind of record (a visit's) says which, unless the names are the same (grooming).
                if entry.source != .expense, wording.kindName(entry.source) != what { what += " (" + wording.kindName(entry.source) + ")" }
                parts.append(what)
                if let m = entry.merchant { parts.append(Terminal.sanitize(m)) }
                if !entry.items.isEmpty { parts.append(Terminal.sanitize(entry.items.joined(separator: ", "))) }
                if let p = entry.payment { parts.append(paymentName(p)) }
                if entry.splitOf != nil { parts.append(t(.expenseShared)) }
                if entry.isAhead(of: time.now) { parts.append(t(.expenseAhead)) }
                if entry.attachments > 0 { parts.append(t(.expenseReceipts(count: Display.count(entry.attachments)))) }
                let paid = Money(minorUnits: group.reduce(0) { $0.addingSaturated($1.money.minorUnits) }, currency: entry.money.currency)
                var amount = format.money(paid)
                if entry.money.currency != home {
                    amount += converted.map { " (≈ " + format.money($0) + ")" } ?? " (" + t(.expenseNoRate) + ")"
                }
                var line = "  " + terminal.styled(String(repeating: " ", count: idWidth - String(entry.recordId).count) + "#\(entry.recordId)", .dim)
                let clock = recordClock(entry.at, utcOffset: entry.utcOffset)
                line += "  " + String(repeating: " ", count: max(0, clockWidth - Terminal.width(clock))) + clock + "  " + amount + "  " + parts.joined(separator: " · ")
                if let n = entry.note { line += terminal.styled("  — " + Terminal.sanitize(n), .dim) }
                if entry.starred { line += " ★" }
                terminal.line(line)
            }
        }
        terminal.line()
        let total = days.total
        switch span {
        case .month(let m): terminal.line(terminal.styled(t(.expenseMonthTotal(month: format.monthLabel(m), total: totalText(total))), .bold))
        case .day(let d): terminal.line(terminal.styled(t(.expenseMonthTotal(month: format.longDate(d), total: totalText(total))), .bold))
        case .everything: terminal.line(terminal.styled(t(.expenseListTotal(total: totalText(total))), .bold))
        }
        printAhead(ahead)
        let foreign = days.days.flatMap { zip($0.entries, $0.converted) }.filter { $0.0.money.currency != home }
        if !total.isSingleCurrency && foreign.contains(where: { $0.1 != nil }) {
            terminal.line(t(.expenseConvertedTotal(currency: home.code, total: format.money(total.converted))))
        }
        if total.unconverted > 0 {
            terminal.line(terminal.styled(t(.expenseUnconverted(count: Display.count(total.unconverted), currency: home.code)), .yellow))
        }
    }

    /// A day's entries as purchases: with `merge`, the shares of one split purchase together (they
    /// share its time), converted as one (nil when any share has no rate); else one entry each.
    func purchases(_ day: SpendingDays.Day, merge: Bool) -> [([SpendingEntry], Money?)] {
        var order: [Int64] = [], groups: [Int64: ([SpendingEntry], Money?)] = [:]
        for (e, c) in zip(day.entries, day.converted) {
            let key = merge ? e.purchaseId : e.recordId
            if var g = groups[key] {
                g.0.append(e)
                g.1 = g.1.flatMap { sum in c.map { Money(minorUnits: sum.minorUnits.addingSaturated($0.minorUnits), currency: sum.currency) } }
                groups[key] = g
            } else {
                order.append(key); groups[key] = ([e], c)
            }
        }
        return order.compactMap { groups[$0] }
    }

    /// The line every month total carries when some of it is still ahead.
    func printAhead(_ ahead: SpendingAhead) {
        guard ahead.purchases > 0 else { return }
        terminal.wrapped(t(.spendingAheadNote(amount: format.money(ahead.converted), n: Display.count(ahead.purchases))))
    }

    func paymentName(_ p: Payment) -> String {
        switch p {
        case .cash: t(.paymentCash)
        case .card: t(.paymentCard)
        case .other: t(.paymentOther)
        }
    }
}

/// The `expense list --json` shape (docs/json.md).
/// What `expense list` lists: one month, one day, or (starred) every month.
typealias ExpenseListSpan = ExpenseListJSON.Span
