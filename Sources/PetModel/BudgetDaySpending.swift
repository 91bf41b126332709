/// Spending per day by category, converted to one currency, over a budget's span: the bars of
/// `chart expenses --budget ID` (a trip's days, not calendar months). As `MonthlySpending`: each entry
/// converts at the rate of its own day, one without a rate is left out and counted, sums are exact
/// minor units, categories stack in `MonthlySpending.order` and keep their colours.
public struct BudgetDaySpending: Equatable, Sendable {
    public var currency: Currency
    /// Every day from the first through the last.
    public var days: [LocalDate]
    public var categories: [MonthlySpending.Category]
    /// Entries left out because no rate converts them on their day.
    public var unconverted: Int

    /// The entries of `budget`'s span as of `asOf` (its category only, when it has one), in `currency`.
    public init(_ items: [SpendingItem], budget: Budget, asOf: LocalDate, currency: Currency, rates: RateTable) {
        let (first, last) = budget.span(asOf: asOf)
        self.currency = currency
        var days: [LocalDate] = []
        var d = first
        while d <= last { days.append(d); d = d.adding(days: 1) }
        self.days = days
        var sums: [String: [Int64]] = [:]
        var unconverted = 0
        for item in items where item.day >= first && item.day <= last {
            if let category = budget.category, item.category != category { continue }
            guard let money = item.converted(to: currency, rates: rates) else { unconverted += 1; continue }
            let i = item.day.dayNumber - first.dayNumber
            var row = sums[item.category] ?? [Int64](repeating: 0, count: days.count)
            row[i] = row[i].addingSaturated(money.minorUnits)
            sums[item.category] = row
        }
        self.unconverted = unconverted
        categories = MonthlySpending.order(Array(sums.keys)).map { MonthlySpending.Category(code: $0, minorUnits: sums[$0] ?? []) }
    }

    public var isEmpty: Bool { categories.isEmpty }

    public func majorUnits(_ category: MonthlySpending.Category) -> [Double] {
        category.minorUnits.map { currency.majorUnits($0) }
    }

    /// Each day's total in minor units.
    public var dayTotals: [Int64] {
        days.indices.map { i in categories.reduce(Int64(0)) { $0.addingSaturated($1.minorUnits[i]) } }
    }

    /// The budget line: the whole budget's share of each day (its amount over its days, rounded down to
    /// the minor unit), in `currency` — the amount itself when in `currency`, else converted at the
    /// rate of the span's last day (the last published rate on or before it); nil without a rate.
    public func dailyShare(of amount: Money, rates: RateTable) -> Money? {
        guard let last = days.last, !days.isEmpty else { return nil }
        guard let converted = rates.convert(amount, to: currency, on: last) else { return nil }
        return Money(minorUnits: converted.minorUnits / Int64(days.count), currency: currency)
    }
}
