/// The two stretches of days `stats` compares. A whole month is compared with the whole previous
/// month; the current month, still under way, is compared with the same days of the previous month
/// (Nov 1–23 against Oct 1–23), so a month three weeks in is not set against a full one. When the
/// previous month is shorter than the days so far, it is taken whole (Mar 1–30 against Feb 1–28).
/// The month's last day is still under way: Nov 1–30 on Nov 30 is set against Oct 1–30, Feb 1–29 on a
/// leap day against Jan 1–29.
public struct ComparedPeriods: Equatable, Sendable {
    /// This stretch's first and last day (inclusive); the first is always the first of the month.
    public var first: LocalDate, last: LocalDate
    /// The previous month's stretch (inclusive).
    public var previousFirst: LocalDate, previousLast: LocalDate
    /// Whether this month is still under way (today is one of its days, the last included), so only its
    /// days so far and the same days before count.
    public var isPartial: Bool

    /// The month asked about (any day of it) as of `today`.
    public init(month: LocalDate, today: LocalDate) {
        first = month.firstOfMonth
        let monthEnd = first.adding(months: 1).adding(days: -1)
        previousFirst = first.adding(months: -1)
        let previousEnd = first.adding(days: -1)
        isPartial = today >= first && today <= monthEnd
        if isPartial {
            last = today
            previousLast = min(previousFirst.adding(days: today.day - 1), previousEnd)
        } else {
            last = monthEnd
            previousLast = previousEnd
        }
    }

    /// Whether `day` is in this stretch.
    public func containsThis(_ day: LocalDate) -> Bool { day >= first && day <= last }
    /// Whether `day` is in the previous month's stretch.
    public func containsPrevious(_ day: LocalDate) -> Bool { day >= previousFirst && day <= previousLast }
}
