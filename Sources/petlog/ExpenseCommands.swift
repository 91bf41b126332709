import ArgumentParser
import Foundation
import Localization
import PetFiles
import PetModel
import PetStoreCore
import PetTransfer
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
            let (petText, amount) = try MoneyText.petAndAmount(words, defaultCurrency: home, language: s.l10n.language.rawValue)
            guard amount.minorUnits > 0 else { throw ParseError.amountNotPositive((petText == nil ? words : Array(words.dropFirst())).joined(separator: " ")) }
            if petText != nil && pets != nil { throw UsageError(message: s.t(.errExclusive(flags: "PET, --pets"))) }
            let expense = Expense(
                money: amount,
                category: try fields.categoryCode() ?? "other",
                merchant: try fields.merchantText(),
                payment: try fields.paymentValue(),
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
    @Option(help: ArgumentHelp(Help.s(.helpExpenseFieldOptionsPayment))) var payment: Choice<Payment>?

    func validate() throws {
        try PaymentFlags.check(card: card, cash: cash, payment: payment)
    }

    /// The category as stored: a listed code, or the owner's word (`--as-written`); nil when not given.
    func categoryCode() throws -> String? { try category.map { try CareNames.shipped.categoryEntry($0, asWritten: asWritten) } }
    func merchantText() throws -> String? { try merchant.map { try TextField.label($0, field: "merchant") } }
    /// The payment as given: `--card`, `--cash` or `--payment WORD` (one of them).
    func paymentValue() throws -> Payment? { try PaymentFlags.value(card: card, cash: cash, payment: payment) }
}

/// The one set of payment flags `expense`, `expense scan` and `edit` take: `--card`, `--cash`, or
/// `--payment card|cash|transfer|other`; two of them are refused.
enum PaymentFlags {
    static func check(card: Bool, cash: Bool, payment: Choice<Payment>?) throws {
        let given = [card ? "--card" : nil, cash ? "--cash" : nil, payment.map { _ in "--payment" }].compactMap { $0 }
        if given.count > 1 { throw ValidationError(GlobalSettings.forRefusals(CommandLine.arguments).l10n.text(.errExclusive(flags: given.joined(separator: ", ")))) }
    }

    static func value(card: Bool, cash: Bool, payment: Choice<Payment>?) throws -> Payment? {
        if card { return .card }
        if cash { return .cash }
        return try payment?.value("--payment")
    }
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
    @Flag(help: ArgumentHelp(Help.s(.helpExpenseListCommandCsv))) var csv = false
    @Option(name: .shortAndLong, help: ArgumentHelp(Help.s(.helpExpenseListCommandOutput))) var output: String?
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
            if csv {
                // One sheet for a spreadsheet: to standard output, or through `OutputFile` (whole or not at all).
                if s.json { throw UsageError(message: s.t(.errExclusive(flags: "--csv, --json"))) }
                let text = ExpenseSheet.lines(days).map { $0 + "\r\n" }.joined()
                try OutputFile.write(to: output ?? OutputFile.standardOutput) { try $0.write(text) }
                return
            }
            if output != nil { throw UsageError(message: s.t(.errOutputNeedsCsv)) }
            if s.json {
                try s.terminal.json(ExpenseListJSON(days, now: s.time.now, ahead: ahead, span: span))
                return
            }
            s.terminal.lines(ExpenseListPresenter(s.presentation).lines(days, span: span, showPet: refs.count != 1, ahead: ahead))
        }
    }
}

extension Session {
    func paymentName(_ p: Payment) -> String { ScanProposalPresenter(presentation).paymentName(p) }
}

/// The `expense list --json` shape (docs/json.md).
/// What `expense list` lists: one month, one day, or (starred) every month.
typealias ExpenseListSpan = ExpenseListJSON.Span
