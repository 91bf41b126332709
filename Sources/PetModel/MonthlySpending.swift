/// Spending per calendar month by category, converted to one currency: the bars of `chart expenses`.
/// Every entry is converted at the rate of its own day (`RateTable`: through the euro, exact, one
/// rounding to the target's minor units); an entry with no rate for its day is left out and counted,
/// never guessed. Sums are exact integers of minor units.
public struct MonthlySpending: Equatable, Sendable {
    /// One category's spending, one amount per month in minor units of `currency`.
    public struct Category: Equatable, Sendable {
        public var code: String
        public var minorUnits: [Int64]
    }

    public var currency: Currency
    /// The first day of each month, from the first day's month through the last day's month.
    public var months: [LocalDate]
    /// Categories spent on, in `order(_:)`: the listed categories in their fixed order, then the
    /// owner's own words alphabetically, then `other` (so a category keeps its colour from chart to chart).
    public var categories: [Category]
    /// Entries left out because no rate converts them on their day.
    public var unconverted: Int
    /// Entries outside the months (before the first or after the last day).
    public var outside: Int

    /// The listed expense categories, in the order the chart stacks them (bottom up).
    public static let listedOrder = ["food", "treats", "vet", "medication", "grooming", "insurance", "supplies", "boarding", "transport"]

    public init(_ items: [SpendingItem], currency: Currency, rates: RateTable, from first: LocalDate, through last: LocalDate) {
        self.currency = currency
        let firstMonth = first.firstOfMonth
        var months: [LocalDate] = []
        var m = firstMonth
        while m <= last { months.append(m); m = m.adding(months: 1) }
        self.months = months
        var sums: [String: [Int64]] = [:]
        var unconverted = 0, outside = 0
        for item in items {
            guard item.day >= first && item.day <= last else { outside += 1; continue }
            guard let money = item.converted(to: currency, rates: rates) else { unconverted += 1; continue }
            let i = (item.day.year - firstMonth.year) * 12 + item.day.month - firstMonth.month
            var row = sums[item.category] ?? [Int64](repeating: 0, count: months.count)
            row[i] = row[i].addingSaturated(money.minorUnits)
            sums[item.category] = row
        }
        self.unconverted = unconverted
        self.outside = outside
        categories = Self.order(Array(sums.keys)).map { Category(code: $0, minorUnits: sums[$0] ?? []) }
    }

    /// A category's colour slot, the same in every chart and language whatever else was spent on: a
    /// listed category its place in `listedOrder`, `other` the next, the owner's own words after it
    /// (alphabetically among those charted).
    public static func colorSlot(_ code: String, among codes: [String]) -> Int {
        if let i = listedOrder.firstIndex(of: code) { return i }
        if code == "other" { return listedOrder.count }
        let own = Set(codes.filter { !listedOrder.contains($0) && $0 != "other" }).sorted()
        return listedOrder.count + 1 + (own.firstIndex(of: code) ?? 0)
    }

    /// Category codes in chart order: listed ones first in `listedOrder`, then others alphabetically, `other` last.
    public static func order(_ codes: [String]) -> [String] {
        func rank(_ c: String) -> (Int, String) {
            if let i = listedOrder.firstIndex(of: c) { return (i, "") }
            return c == "other" ? (listedOrder.count + 1, "") : (listedOrder.count, c)
        }
        return Set(codes).sorted { rank($0) < rank($1) }
    }

    /// A category's amounts in major units (12.5 dollars), for drawing.
    public func majorUnits(_ category: Category) -> [Double] {
        category.minorUnits.map { currency.majorUnits($0) }
    }

    /// Each month's total in minor units.
    public var monthTotals: [Int64] {
        months.indices.map { i in categories.reduce(Int64(0)) { $0.addingSaturated($1.minorUnits[i]) } }
    }

    public var isEmpty: Bool { categories.isEmpty }

    /// A monthly budget per month in `currency`: the amount itself when in `currency`, else converted at
    /// the rate of the month's last day (the last published rate on or before it); nil for a month with
    /// no rate.
    public func budgetLine(_ amount: Money, rates: RateTable) -> [Money?] {
        months.map { m in rates.convert(amount, to: currency, on: m.adding(months: 1).adding(days: -1)) }
    }
}

extension Currency {
    /// Minor units as a number of major units (1250 cents → 12.5), for charts only (never for sums).
    public func majorUnits(_ minor: Int64) -> Double {
        var divisor = 1.0
        for _ in 0..<minorDigits { divisor *= 10 }
        return Double(minor) / divisor
    }
}

extension MonthlySpending {
    /// The budget `chart expenses` draws: the monthly budget for every category of the one pet charted
    /// (`pets` holds its id), or of the household when no pet is named; nil with several pets or none set.
    public static func chartBudget(_ budgets: [StoredBudget], pets: [Int64]) -> Money? {
        guard pets.count <= 1 else { return nil }
        return budgets.first { $0.petId == pets.first && $0.budget.period == .monthly && $0.budget.category == nil }?.budget.amount
    }
}
