/// A spending budget: an amount for a month (every month) or for a stretch of days (a surgery's
/// recovery, a trip with the pet), for the household or some pets, for every category or one.
public struct Budget: Equatable, Sendable {
    public enum Period: Equatable, Sendable {
        case monthly
        /// From the first day through the last, both included.
        case days(from: LocalDate, through: LocalDate)
    }

    public var amount: Money
    public var period: Period
    /// nil: every category.
    public var category: String?
    /// `--per-pet`: the amount is shared by the pets it covers, and figures are shown per pet (the
    /// headcount of a travel budget).
    public var perPet: Bool

    public init(amount: Money, period: Period, category: String? = nil, perPet: Bool = false) {
        self.amount = amount; self.period = period; self.category = category; self.perPet = perPet
    }

    /// The days the budget covers as of `day`: its own stretch, or the calendar month of `day`.
    public func span(asOf day: LocalDate) -> (first: LocalDate, last: LocalDate) {
        switch period {
        case .monthly:
            let first = day.firstOfMonth
            return (first, first.adding(months: 1).adding(days: -1))
        case .days(let from, let through):
            return (from, through)
        }
    }
}

/// One expense as a budget sees it: its local day, amount and category.
public struct SpendingItem: Equatable, Sendable {
    public var day: LocalDate
    public var money: Money
    public var category: String

    public init(day: LocalDate, money: Money, category: String) {
        self.day = day; self.money = money; self.category = category
    }
}

/// Where a budget stands on a day: spent, left, days left and what may be spent per remaining day.
public struct BudgetStatus: Equatable, Sendable {
    public var first: LocalDate
    public var last: LocalDate
    /// The budget, per pet when `perPet`.
    public var amount: Money
    /// Spent in the span up to and including the as-of day, converted to the budget's currency, per pet when `perPet`.
    public var spent: Money
    /// amount − spent; negative when over budget.
    public var left: Money
    /// Days from the as-of day through the last, both included (0 once the span is over; the whole
    /// span before it starts).
    public var daysLeft: Int
    /// `left / daysLeft`, rounded down to the minor unit; nil when nothing is left or no day is.
    public var perDay: Money?
    /// Spent by category, largest first (ties by name), in the budget's currency.
    public var byCategory: [(category: String, spent: Money)]
    /// Expenses in another currency that could not be converted (no rate for their day): not counted.
    public var unconverted: Int
    public var isOver: Bool { left.minorUnits < 0 }

    public static func == (a: BudgetStatus, b: BudgetStatus) -> Bool {
        a.first == b.first && a.last == b.last && a.amount == b.amount && a.spent == b.spent && a.left == b.left
            && a.daysLeft == b.daysLeft && a.perDay == b.perDay && a.unconverted == b.unconverted
            && a.byCategory.map(\.category) == b.byCategory.map(\.category) && a.byCategory.map(\.spent) == b.byCategory.map(\.spent)
    }

    /// `budget` on `asOf` over `items` (already limited to the pets it covers); `pets` is how many
    /// pets it covers (for `perPet`); other currencies convert at the rate of each expense's day.
    public init(budget: Budget, items: [SpendingItem], asOf: LocalDate, pets: Int = 1, rates: RateTable = RateTable([])) {
        let (first, last) = budget.span(asOf: asOf)
        let currency = budget.amount.currency
        var total: Int64 = 0
        var categories: [String: Int64] = [:]
        var unconverted = 0
        for item in items where item.day >= first && item.day <= min(last, asOf) {
            if let category = budget.category, item.category != category { continue }
            guard let money = rates.convert(item.money, to: currency, on: item.day) else { unconverted += 1; continue }
            total = total.addingSaturated(money.minorUnits)
            categories[item.category, default: 0] = categories[item.category, default: 0].addingSaturated(money.minorUnits)
        }
        let headcount = Int64(budget.perPet ? max(1, pets) : 1)
        // Per pet, amounts are divided and rounded down, so a share never promises more than there is.
        let amount = budget.amount.minorUnits / headcount
        let spent = total / headcount
        self.first = first
        self.last = last
        self.amount = Money(minorUnits: amount, currency: currency)
        self.spent = Money(minorUnits: spent, currency: currency)
        self.left = Money(minorUnits: amount - spent, currency: currency)
        if asOf > last {
            daysLeft = 0
        } else {
            daysLeft = last.dayNumber - max(first, asOf).dayNumber + 1
        }
        perDay = daysLeft > 0 && amount - spent > 0 ? Money(minorUnits: (amount - spent) / Int64(daysLeft), currency: currency) : nil
        byCategory = categories.map { ($0.key, Money(minorUnits: $0.value / headcount, currency: currency)) }
            .sorted { ($0.1.minorUnits, $1.0) > ($1.1.minorUnits, $0.0) }
        self.unconverted = unconverted
    }
}
