import Foundation

/// Spending grouped by local day, as a receipt book lists a month: each day's entries and totals,
/// and the whole span's totals, per currency as spent and converted into one currency.
public struct SpendingDays: Equatable, Sendable {
    public struct Day: Equatable, Sendable {
        public var day: LocalDate
        /// In time order.
        public var entries: [SpendingEntry]
        /// Each entry converted at its day's rate; nil where no rate is known.
        public var converted: [Money?]
        public var total: SpendingTotal
    }

    public var days: [Day]
    public var total: SpendingTotal
    public var currency: Currency

    /// `entries` in any order; grouped by each entry's own local day, days in order, entries in time order.
    public init(_ entries: [SpendingEntry], in currency: Currency, rates: RateTable, context: TimeContext) {
        self.currency = currency
        let sorted = entries.sorted { ($0.at, $0.recordId) < ($1.at, $1.recordId) }
        var groups: [(LocalDate, [SpendingEntry])] = []
        for e in sorted {
            let d = e.localDay
            if groups.last?.0 == d { groups[groups.count - 1].1.append(e) } else { groups.append((d, [e])) }
        }
        days = groups.map { day, list in
            Day(day: day, entries: list, converted: list.map { $0.converted(to: currency, rates: rates) },
                total: SpendingTotal(list, in: currency, rates: rates, context: context))
        }
        total = SpendingTotal(sorted, in: currency, rates: rates, context: context)
    }

    /// Newest first: the days, and each day's entries, in reverse (`expense list --reverse`).
    public mutating func reverse() {
        days = days.reversed().map { d in
            Day(day: d.day, entries: d.entries.reversed(), converted: d.converted.reversed(), total: d.total)
        }
    }
}
