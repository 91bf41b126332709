/// A month's spending beside the previous month's, in one currency: what `stats` shows under its
/// other figures. Every entry converts at the rate of its own local day; an entry with no rate for
/// its day is counted in `unconverted` and left out of the amounts, never guessed.
public struct SpendingComparison: Equatable, Sendable {
    /// One category in both months, in minor units of `currency`.
    public struct CategoryLine: Equatable, Sendable {
        public var category: String
        public var this: Int64
        public var previous: Int64
        /// Percent change from the previous month (rounded half away from zero); nil when the previous month is zero.
        public var percent: Int? { SpendingComparison.percentChange(from: previous, to: this) }
    }

    /// What was spent in another currency, as spent, in both months.
    public struct ForeignLine: Equatable, Sendable {
        public var currency: Currency
        public var this: Int64
        public var previous: Int64
    }

    /// A merchant (a visit's clinic counts as one) this month: the converted amount and how many payments.
    public struct MerchantLine: Equatable, Sendable {
        /// As first written this month; names that differ only in case are one merchant.
        public var name: String
        public var amount: Int64
        public var count: Int
    }

    /// The first days of the two months.
    public var month: LocalDate, previousMonth: LocalDate
    public var currency: Currency
    /// Categories spent on in either month: this month's largest first, then the previous month's, then by code.
    public var categories: [CategoryLine]
    /// Converted totals of the two months.
    public var total: Int64, previousTotal: Int64
    /// Other currencies spent in either month, in code order.
    public var foreign: [ForeignLine]
    /// Entries with no rate for their day, per month.
    public var unconverted: Int, previousUnconverted: Int
    /// This month's merchants, largest converted amount first (then more payments, then by name), at most `merchantLimit`.
    public var merchants: [MerchantLine]

    public var totalPercent: Int? { Self.percentChange(from: previousTotal, to: total) }

    /// `entries` may span any days: each counts in the month of its local day, and only the two months count.
    /// With `periods`, only their days count (a month under way against the same days of the previous one).
    public init(_ entries: [SpendingEntry], month: LocalDate, in currency: Currency, rates: RateTable, context: TimeContext,
                merchantLimit: Int = 5, periods: ComparedPeriods? = nil) {
        self.month = month.firstOfMonth
        previousMonth = self.month.adding(months: -1)
        self.currency = currency
        let next = self.month.adding(months: 1)
        var this: [String: Int64] = [:], previous: [String: Int64] = [:]
        var seen: Set<String> = []
        var foreignThis: [String: Int64] = [:], foreignPrevious: [String: Int64] = [:]
        var unconverted = 0, previousUnconverted = 0
        var merchants: [String: MerchantLine] = [:]
        var merchantOrder: [String] = []
        var merchantPurchases: [String: Set<Int64>] = [:]
        var unconvertedPurchases: Set<Int64> = []
        for e in entries {
            let day = e.localDay
            if let periods, !periods.containsThis(day) && !periods.containsPrevious(day) { continue }
            guard day >= previousMonth && day < next else { continue }
            let isThis = day >= self.month
            seen.insert(e.category)
            if e.money.currency.code != currency.code {
                let code = e.money.currency.code
                if isThis { foreignThis[code] = foreignThis[code, default: 0].addingSaturated(e.money.minorUnits) }
                else { foreignPrevious[code] = foreignPrevious[code, default: 0].addingSaturated(e.money.minorUnits) }
            }
            guard let m = e.converted(to: currency, rates: rates) else {
                if unconvertedPurchases.insert(e.purchaseId).inserted { if isThis { unconverted += 1 } else { previousUnconverted += 1 } }
                continue
            }
            if isThis {
                this[e.category] = this[e.category, default: 0].addingSaturated(m.minorUnits)
                if let name = e.merchant?.trimmingCharacters(in: .whitespaces), !name.isEmpty {
                    let key = name.lowercased()
                    var line = merchants[key] ?? MerchantLine(name: name, amount: 0, count: 0)
                    if merchants[key] == nil { merchantOrder.append(key) }
                    line.amount = line.amount.addingSaturated(m.minorUnits)
                    // A split purchase is one payment, however many pets share it.
                    if merchantPurchases[key, default: []].insert(e.purchaseId).inserted { line.count += 1 }
                    merchants[key] = line
                }
            } else {
                previous[e.category] = previous[e.category, default: 0].addingSaturated(m.minorUnits)
            }
        }
        categories = seen.map { CategoryLine(category: $0, this: this[$0] ?? 0, previous: previous[$0] ?? 0) }
            .sorted { ($0.this, $0.previous, $1.category) > ($1.this, $1.previous, $0.category) }
        total = this.values.reduce(0) { $0.addingSaturated($1) }
        previousTotal = previous.values.reduce(0) { $0.addingSaturated($1) }
        foreign = Set(foreignThis.keys).union(foreignPrevious.keys).sorted().compactMap { code in
            Currency.named(code).map { ForeignLine(currency: $0, this: foreignThis[code] ?? 0, previous: foreignPrevious[code] ?? 0) }
        }
        self.unconverted = unconverted
        self.previousUnconverted = previousUnconverted
        self.merchants = Array(merchantOrder.compactMap { merchants[$0] }
            .sorted { ($0.amount, $0.count, $1.name) > ($1.amount, $1.count, $0.name) }
            .prefix(max(0, merchantLimit)))
    }

    /// The change from `previous` to `this` in percent of `previous`, rounded half away from zero; nil
    /// when `previous` is zero (no percentage of nothing).
    public static func percentChange(from previous: Int64, to this: Int64) -> Int? {
        guard previous != 0 else { return nil }
        let (difference, o1) = this.subtractingReportingOverflow(previous)
        let (scaled, o2) = difference.multipliedReportingOverflow(by: 100)
        if o1 || o2 {
            let p = (Double(this) - Double(previous)) / Double(previous.magnitude) * 100
            return Int(max(-1e15, min(1e15, p.rounded())))
        }
        let d = Int64(previous.magnitude)
        let q = scaled / d, r = scaled % d
        // Half away from zero: |r| × 2 ≥ d moves one further from zero.
        if r.magnitude * 2 >= d.magnitude { return Int(q + (scaled < 0 ? -1 : 1)) }
        return Int(q)
    }
}

/// Spending per local day of one month in one currency: the `calendar --spending` grid.
public struct DailySpending: Equatable, Sendable {
    public struct Day: Equatable, Sendable {
        public var day: LocalDate
        /// Converted minor units.
        public var amount: Int64
        /// Purchases on the day (converted or not): a split expense counts once.
        public var entries: Int
        /// Purchases with no rate for the day.
        public var unconverted: Int
    }

    public var month: LocalDate
    public var currency: Currency
    /// Every day of the month, first to last.
    public var days: [Day]
    public var total: Int64
    public var unconverted: Int
    /// The day with the largest converted amount (the earliest on a tie); nil when nothing was spent.
    public var busiest: Day? {
        days.filter { $0.amount > 0 }.max { ($0.amount, $1.day) < ($1.amount, $0.day) }
    }

    public init(_ entries: [SpendingEntry], month: LocalDate, in currency: Currency, rates: RateTable, context: TimeContext) {
        self.month = month.firstOfMonth
        self.currency = currency
        let first = self.month, next = first.adding(months: 1)
        var days = (0..<(next.dayNumber - first.dayNumber)).map { Day(day: first.adding(days: $0), amount: 0, entries: 0, unconverted: 0) }
        var counted: Set<Int64> = [], uncounted: Set<Int64> = []
        for e in entries {
            let day = e.localDay
            guard day >= first && day < next else { continue }
            let i = day.dayNumber - first.dayNumber
            // The shares of one purchase fall on one day (they share its time): counted once.
            if counted.insert(e.purchaseId).inserted { days[i].entries += 1 }
            if let m = e.converted(to: currency, rates: rates) {
                days[i].amount = days[i].amount.addingSaturated(m.minorUnits)
            } else if uncounted.insert(e.purchaseId).inserted {
                days[i].unconverted += 1
            }
        }
        self.days = days
        total = days.reduce(0) { $0.addingSaturated($1.amount) }
        unconverted = days.reduce(0) { $0 + $1.unconverted }
    }
}

/// A money amount shortened to at most six terminal columns for a calendar cell, without the
/// currency (the grid names it once). Amounts are cut, not rounded, so a cell never shows more than
/// was spent: `15.5만` is at least 155,000. Up to 99,999 whole units the grouped digits are shown
/// (with the minor units below 1,000: `12.50`); above, thousands (`k`, `M`, `B`, `T`) in English and
/// ten-thousands (`만`, `억`, `조` / `万`, `億`, `兆`) in Korean and Japanese.
public enum CompactMoney {
    public enum Style: Sendable { case western, korean, japanese }

    public static func format(_ money: Money, style: Style) -> String {
        let minor = money.minorUnits
        let sign = minor < 0 ? "−" : ""
        let magnitude = minor.magnitude
        var scale: UInt64 = 1
        for _ in 0..<money.currency.minorDigits { scale *= 10 }
        let whole = magnitude / scale
        if money.currency.minorDigits > 0 && whole < 1000 {
            let fraction = String(magnitude % scale)
            return sign + String(whole) + "." + String(repeating: "0", count: money.currency.minorDigits - fraction.count) + fraction
        }
        if whole < 100_000 { return sign + grouped(whole) }
        let units: [(UInt64, String)]
        switch style {
        case .western: units = [(1_000_000_000_000, "T"), (1_000_000_000, "B"), (1_000_000, "M"), (1_000, "k")]
        case .korean: units = [(1_000_000_000_000, "조"), (100_000_000, "억"), (10_000, "만")]
        case .japanese: units = [(1_000_000_000_000, "兆"), (100_000_000, "億"), (10_000, "万")]
        }
        // safe to default: whole ≥ 100,000, so the smallest unit (1,000 or 10,000) always fits.
        let (unit, suffix) = units.first { whole >= $0.0 } ?? (1, "")
        let count = whole / unit
        // One decimal while the count is a single digit (two for ten-thousands: `15.5만`), cut.
        let decimalBelow: UInt64 = style == .western ? 10 : 100
        if count < decimalBelow {
            let tenth = (whole % unit) / (unit / 10)
            return sign + String(count) + (tenth > 0 ? "." + String(tenth) : "") + suffix
        }
        return sign + String(count) + suffix
    }

    public static func grouped(_ n: UInt64) -> String {
        let digits = Array(String(n))
        var out = ""
        for (i, c) in digits.enumerated() {
            if i > 0 && (digits.count - i) % 3 == 0 { out.append(",") }
            out.append(c)
        }
        return out
    }
}
