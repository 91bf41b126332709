/// Spending in one currency per calendar month, by category: the bars of `chart expenses`.
public struct MonthlySpending: Equatable, Sendable {
    /// One category's spending, one amount (in major units: 12.5 dollars) per month.
    public struct Category: Equatable, Sendable {
        public var code: String
        public var amounts: [Double]
    }

    public var currency: String
    /// The first day of each month, from the first expense's month through the last day's month.
    public var months: [LocalDate]
    /// Categories spent on in `currency`, in code order.
    public var categories: [Category]
    /// Expenses left out because they are in another currency.
    public var otherCurrencyCount: Int

    public init(_ expenses: [(day: LocalDate, expense: Expense)], currency: String, from first: LocalDate, through last: LocalDate) {
        self.currency = currency
        let firstMonth = first.firstOfMonth
        var months: [LocalDate] = []
        var m = firstMonth
        while m <= last { months.append(m); m = m.adding(months: 1) }
        self.months = months
        let inCurrency = expenses.filter { $0.expense.money.currency.code == currency }
        otherCurrencyCount = expenses.count - inCurrency.count
        var divisor = 1.0
        for _ in 0..<(Currency.named(currency)?.minorDigits ?? 2) { divisor *= 10 }
        categories = Array(Set(inCurrency.map { $0.expense.category })).sorted().map { code in
            var amounts = [Double](repeating: 0, count: months.count)
            for (d, e) in inCurrency where e.category == code {
                let i = (d.year - firstMonth.year) * 12 + d.month - firstMonth.month
                if i >= 0 && i < amounts.count { amounts[i] += Double(e.money.minorUnits) / divisor }
            }
            return Category(code: code, amounts: amounts)
        }
    }

    /// The currency most expenses are in (on a tie, the first code in alphabetical order); nil with none.
    public static func mostUsedCurrency(_ expenses: [Expense]) -> String? {
        let counts = Dictionary(grouping: expenses, by: { $0.money.currency.code }).mapValues(\.count)
        return counts.max { ($0.value, $1.key) < ($1.value, $0.key) }?.key
    }
}
