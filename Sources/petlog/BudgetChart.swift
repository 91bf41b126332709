import Foundation
import Localization
import PetCharts
import PetModel
import PetStoreCore

/// `chart expenses --budget ID --json` (docs/json.md), written by `JSONView`.
struct BudgetChartJSON: Encodable {
    struct Stack: Encodable { var category: String; var minor: [Int64] }
    struct Line: Encodable {
        var id: Int64
        var amountMinor: Int64
        var currency: String
        /// The daily share in the chart's currency (nil: no rate to convert the budget).
        var dailyMinor: Int64?
        enum CodingKeys: String, CodingKey { case id, amountMinor = "amount_minor", currency, dailyMinor = "daily_minor" }
        func encode(to encoder: Encoder) throws {
            var c = encoder.container(keyedBy: CodingKeys.self)
            try c.encode(id, forKey: .id); try c.encode(amountMinor, forKey: .amountMinor); try c.encode(currency, forKey: .currency)
            try c.encode(dailyMinor, forKey: .dailyMinor)
        }
    }
    var currency: String
    var days: [String]
    var stacks: [Stack]
    var unconverted: Int
    var ahead: BudgetDailyJSON.Amount
    var aheadCount: Int
    var budget: Line

    enum CodingKeys: String, CodingKey { case currency, days, stacks, unconverted, ahead, budget }
    enum AheadKeys: String, CodingKey { case converted, count }
    func encode(to encoder: Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(currency, forKey: .currency); try c.encode(days, forKey: .days); try c.encode(stacks, forKey: .stacks)
        try c.encode(unconverted, forKey: .unconverted); try c.encode(budget, forKey: .budget)
        var a = c.nestedContainer(keyedBy: AheadKeys.self, forKey: .ahead)
        try a.encode(ahead, forKey: .converted); try a.encode(aheadCount, forKey: .count)
    }
}

extension Session {
    /// `chart expenses --budget ID`: the budget's days (a trip's, or a monthly budget's month as of
    /// today) stacked by category, in the budget's currency unless `--currency` says another, with the
    /// budget's share of a day as the line.
    mutating func budgetChart(id: Int64, currency option: String?, out: ChartGroup.Output) throws {
        let repo = try repository()
        guard let b = try repo.budgets().first(where: { $0.id == id }) else { throw StoreError.budgetNotFound(id) }
        let size = try out.chartSize(self)
        let format = try out.format(self)
        let currency = try option.map { try homeCurrency($0) } ?? b.budget.amount.currency
        let today = time.today
        let (first, last) = b.budget.span(asOf: today)
        guard last.dayNumber - first.dayNumber + 1 <= Session.dailyMaxDays else {
            throw UsageError(message: t(.errBudgetDailyTooLong(id: String(id), n: Display.count(last.dayNumber - first.dayNumber + 1),
                                                              max: Display.count(Session.dailyMaxDays))), code: Failure.dataError)
        }
        let entries = try repo.spending(SpendingQuery(pets: b.petId.map { [PetRef.id($0)] } ?? [], days: DayWindow(first: first, end: last.adding(days: 1))))
        let currencies = Set(entries.map(\.money.currency.code) + [currency.code, b.budget.amount.currency.code])
        let rates = currencies.count > 1 ? try repo.rateTable(currencies: currencies.sorted(), from: first, through: last) : RateTable([])
        let spending = BudgetDaySpending(entries.map { $0.item(time) }, budget: b.budget, asOf: today, currency: currency, rates: rates)
        let counted = entries.filter { e in b.budget.category.map { $0 == e.category } ?? true }
        let unconvertedPurchases = Set(counted.filter { rates.convert($0.money, to: currency, on: $0.localDay) == nil }.map(\.purchaseId)).count
        let nothingConverted = spending.isEmpty && unconvertedPurchases > 0
        if unconvertedPurchases > 0 && !(nothingConverted && !json) {
            terminal.error(t(.chartUnconverted(count: Display.count(unconvertedPurchases), currency: currency.code)))
        }
        let ahead = SpendingAhead(counted, in: currency, rates: rates, now: time.now)
        let share = spending.dailyShare(of: b.budget.amount, rates: rates)
        if json {
            try terminal.json(BudgetChartJSON(
                currency: currency.code, days: spending.days.map(\.description),
                stacks: spending.categories.map { .init(category: $0.code, minor: $0.minorUnits) },
                unconverted: spending.unconverted, ahead: .init(ahead.converted), aheadCount: ahead.purchases,
                budget: .init(id: b.id, amountMinor: b.budget.amount.minorUnits, currency: b.budget.amount.currency.code, dailyMinor: share?.minorUnits)))
            return
        }
        let label = budgetLabel(b.budget)
        let what = label.isEmpty ? "#\(b.id) " + budgetWho(b) : label
        let title = t(.chartBudgetDaysTitle(what: Terminal.sanitize(what), currency: currency.code))
        let n = Display.count(spending.days.count)
        let lineLabel: String = share.map { share in
            b.budget.amount.currency == currency
                ? t(.chartBudgetDailyShare(amount: self.format.money(share), total: self.format.money(b.budget.amount), n: n))
                : t(.chartBudgetDailyShareConverted(amount: self.format.money(share), total: self.format.money(b.budget.amount), n: n,
                                                    currency: currency.code, date: self.format.longDate(last)))
        } ?? ""
        let labels = spending.days.map { self.format.shortDay($0) }
        let codes = spending.categories.map(\.code)
        let stacks = spending.categories.map { c in
            BarStack(label: categoryName(c.code), color: .palette(MonthlySpending.colorSlot(c.code, among: codes)), values: spending.majorUnits(c))
        }
        let nothing = nothingConverted
            ? t(.chartNothingConverted(currency: currency.code, count: Display.count(unconvertedPurchases)))
            : t(.chartNothingToPlot(first: labels.first ?? "", last: labels.last ?? ""))
        guard let format, let path = out.output else {
            if spending.isEmpty { terminal.line(nothing); return }
            printBars(title: title, categories: labels, stacks: stacks,
                      totalTexts: spending.dayTotals.map { self.format.money(Money(minorUnits: $0, currency: currency)) })
            if share != nil { terminal.line(lineLabel) }
            printAhead(ahead)
            return
        }
        if ahead.purchases > 0 {
            terminal.error(t(.spendingAheadNote(amount: self.format.money(ahead.converted), n: Display.count(ahead.purchases))))
        }
        let reference = share.map { s in
            BarReferenceLine(label: lineLabel, values: spending.days.map { _ in currency.majorUnits(s.minorUnits) })
        }
        let formatter = self.format
        let spec = BarChartSpec(title: title, yLabel: currency.code, categories: labels, stacks: stacks, size: size,
                                theme: out.dark ? .dark : .light, language: l10n.language.rawValue, noDataText: nothing,
                                valueFormatter: { v in formatter.chartMoney(v, currency) }, referenceLine: reference)
        try writeChart(path) { try ChartRenderer.render(spec, to: $0, format: format) }
    }
}
