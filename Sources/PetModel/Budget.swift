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
    /// `--name`: what the budget is for ("Japan trip"); nil: unnamed.
    public var name: String?
    /// `--place`: where the money is spent ("Tokyo"); nil: not said.
    public var place: String?
    /// `--people`: how many people share it (a trip's travellers); its figures are then also shown per
    /// person. nil: not said (the figures are the whole budget's).
    public var people: Int?

    /// The most people a budget can be shared by.
    public static let peopleRange = 1...1000

    public init(amount: Money, period: Period, category: String? = nil, perPet: Bool = false,
                name: String? = nil, place: String? = nil, people: Int? = nil) {
        self.amount = amount; self.period = period; self.category = category; self.perPet = perPet
        self.name = name; self.place = place; self.people = people
    }

    /// A budget's name or place: one line, 1–200 characters (`TextField.label`'s rules).
    public static func label(_ raw: String, field: String) throws -> String { try TextField.label(raw, field: field) }

    /// `--people N`: a whole number of people from 1 to 1,000.
    public static func people(_ raw: String) throws -> Int {
        let t = raw.trimmingCharacters(in: .whitespaces)
        guard !t.isEmpty, t.utf8.allSatisfy({ (0x30...0x39).contains($0) }), t.utf8.count <= 7, let n = Int(t) else {
            throw ParseError.outOfRange(field: "--people", value: raw, min: peopleRange.lowerBound, max: peopleRange.upperBound)
        }
        guard peopleRange.contains(n) else {
            throw ParseError.outOfRange(field: "--people", value: raw, min: peopleRange.lowerBound, max: peopleRange.upperBound)
        }
        return n
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
    /// The whole payment this is a share of (a split expense): converted whole, then split.
    public var share: PurchaseShare?
    /// The purchase this is part of (the first share's record for a split expense): counted once.
    public var purchase: Int64?

    public init(day: LocalDate, money: Money, category: String, share: PurchaseShare? = nil, purchase: Int64? = nil) {
        self.day = day; self.money = money; self.category = category; self.share = share; self.purchase = purchase
    }

    /// The item in `target` at its day's rate (a share as its part of the whole payment converted once).
    public func converted(to target: Currency, rates: RateTable) -> Money? {
        rates.convert(money, share: share, to: target, on: day)
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
    /// The currencies of what was left out (code order): all never published by the ECB (`TWD`) means
    /// `rates update` cannot help.
    public var unconvertedCurrencies: [String] = []
    /// With `people` (two or more), the whole budget's figures per person.
    public var perPerson: PerPerson?
    public var isOver: Bool { left.minorUnits < 0 }

    /// The whole budget (not a pet's share) divided by its people, each figure rounded down to the
    /// minor unit; `perDay` as the budget's own (nil when nothing is left or no day is).
    public struct PerPerson: Equatable, Sendable {
        public var people: Int
        public var amount: Money
        public var spent: Money
        public var left: Money
        public var perDay: Money?
    }

    public static func == (a: BudgetStatus, b: BudgetStatus) -> Bool {
        a.first == b.first && a.last == b.last && a.amount == b.amount && a.spent == b.spent && a.left == b.left
            && a.daysLeft == b.daysLeft && a.perDay == b.perDay && a.unconverted == b.unconverted && a.perPerson == b.perPerson
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
        var uncounted: Set<Int64> = []   // a split purchase without a rate is one expense left out
        var unconvertedCodes: Set<String> = []
        for item in items where item.day >= first && item.day <= min(last, asOf) {
            if let category = budget.category, item.category != category { continue }
            guard let money = item.converted(to: currency, rates: rates) else {
                if item.purchase.map({ uncounted.insert($0).inserted }) ?? true { unconverted += 1 }
                unconvertedCodes.insert(item.money.currency.code)
                continue
            }
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
        self.unconvertedCurrencies = unconvertedCodes.sorted()
        if let people = budget.people, people > 1 {
            let n = Int64(people)
            let whole = budget.amount.minorUnits / n, used = total / n
            perPerson = PerPerson(people: people, amount: Money(minorUnits: whole, currency: currency),
                                  spent: Money(minorUnits: used, currency: currency), left: Money(minorUnits: whole - used, currency: currency),
                                  perDay: daysLeft > 0 && whole - used > 0 ? Money(minorUnits: (whole - used) / Int64(daysLeft), currency: currency) : nil)
        }
    }
}

/// `budget show ID --daily`: every day of a budget's span with that day's spending and the running
/// total against the budget (per pet with `perPet`, and per person with two or more `people`, as
/// `BudgetStatus`). Expenses dated after the as-of day (booked ahead) are counted on their own day
/// and those days are marked `ahead`; the running total on the as-of day is `BudgetStatus.spent`.
public struct BudgetDays: Equatable, Sendable {
    /// A stretch's first and last day (both included).
    public struct Span: Equatable, Sendable {
        public var first: LocalDate
        public var last: LocalDate
        public init(first: LocalDate, last: LocalDate) { self.first = first; self.last = last }
    }

    public struct Day: Equatable, Sendable {
        public var day: LocalDate
        /// Spent on the day (converted; per pet with `perPet`).
        public var spent: Money
        /// Expenses counted on the day.
        public var count: Int
        /// Spent from the first day through this one.
        public var total: Money
        /// The budget minus `total`; negative when over.
        public var left: Money
        /// The same, per person (with two or more people).
        public var spentPerPerson: Money?
        public var totalPerPerson: Money?
        public var leftPerPerson: Money?
        /// After the as-of day: what is there was booked ahead.
        public var ahead: Bool
        public var isOver: Bool { left.minorUnits < 0 }
    }

    public var first: LocalDate
    public var last: LocalDate
    public var amount: Money
    public var amountPerPerson: Money?
    public var days: [Day]
    public var unconverted: Int
    /// The currencies of what was left out (code order): all never published by the ECB (`TWD`) means
    /// `rates update` cannot help.
    public var unconvertedCurrencies: [String] = []

    /// The span's figures day by day; `pets` and `rates` as for `BudgetStatus`.
    public init(budget: Budget, items: [SpendingItem], asOf: LocalDate, pets: Int = 1, rates: RateTable = RateTable([])) {
        let (first, last) = budget.span(asOf: asOf)
        let currency = budget.amount.currency
        var byDay: [LocalDate: (Int64, Int)] = [:]
        var unconverted = 0
        // A purchase split among pets is one expense of its day (and one left out without a rate).
        var counted: Set<Int64> = [], uncounted: Set<Int64> = []
        var unconvertedCodes: Set<String> = []
        for item in items where item.day >= first && item.day <= last {
            if let category = budget.category, item.category != category { continue }
            guard let money = item.converted(to: currency, rates: rates) else {
                if item.purchase.map({ uncounted.insert($0).inserted }) ?? true { unconverted += 1 }
                unconvertedCodes.insert(item.money.currency.code)
                continue
            }
            let old = byDay[item.day] ?? (0, 0)
            let new = item.purchase.map { counted.insert($0).inserted } ?? true
            byDay[item.day] = (old.0.addingSaturated(money.minorUnits), old.1 + (new ? 1 : 0))
        }
        let headcount = Int64(budget.perPet ? max(1, pets) : 1)
        let people: Int64? = budget.people.flatMap { $0 > 1 ? Int64($0) : nil }
        let amount = budget.amount.minorUnits / headcount
        func money(_ m: Int64) -> Money { Money(minorUnits: m, currency: currency) }
        var running: Int64 = 0
        var days: [Day] = []
        var day = first
        while day <= last {
            let (spent, count) = byDay[day] ?? (0, 0)
            running = running.addingSaturated(spent)
            var row = Day(day: day, spent: money(spent / headcount), count: count, total: money(running / headcount),
                          left: money(amount - running / headcount), ahead: day > asOf)
            if let people {
                row.spentPerPerson = money(spent / people)
                row.totalPerPerson = money(running / people)
                row.leftPerPerson = money(budget.amount.minorUnits / people - running / people)
            }
            days.append(row)
            day = day.adding(days: 1)
        }
        self.first = first
        self.last = last
        self.amount = money(amount)
        self.amountPerPerson = people.map { money(budget.amount.minorUnits / $0) }
        self.days = days
        self.unconverted = unconverted
        self.unconvertedCurrencies = unconvertedCodes.sorted()
    }
}
