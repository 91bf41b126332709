import Foundation

/// A record's own clock: its instant read at the UTC offset where it happened (README "Dates and
/// times"). Every view that groups or filters by day, every budget and every rate lookup asks this,
/// so a record keeps its day whoever reads it from wherever.
public enum RecordClock {
    /// The record's local day: the day on its own clock.
    public static func day(_ at: Date, utcOffset: Int) -> LocalDate {
        RecordDating.day(at: at.unixSeconds(), utcOffset: utcOffset)
    }

    /// Wall-clock fields on the record's own clock.
    public static func clock(_ at: Date, utcOffset: Int) -> (day: LocalDate, hour: Int, minute: Int, second: Int) {
        fixed(utcOffset).clock(of: at)
    }

    /// A context whose zone is the fixed offset (clamped to the ±18 h every store allows).
    public static func fixed(_ utcOffset: Int, now: Date = Date()) -> TimeContext {
        let zone = TimeZone(secondsFromGMT: max(-64_800, min(64_800, utcOffset))) ?? TimeZone(secondsFromGMT: 0) ?? .gmt
        return TimeContext(now: now, timeZone: zone)
    }

    /// The instants of `records` whose local day lies in `days` (`[first, end)`): the bounds a store
    /// uses to find them, `r.at >= first - offset` and `r.at < end - offset`, in local epoch seconds.
    public static func localSeconds(_ day: LocalDate) -> Int64 { Int64(day.dayNumber) * 86_400 }
}

/// A span of local days, `[first, end)`, matched against each record's own day.
public struct DayWindow: Equatable, Sendable {
    public var first: LocalDate?
    public var end: LocalDate?
    public init(first: LocalDate? = nil, end: LocalDate? = nil) { self.first = first; self.end = end }

    public func contains(_ day: LocalDate) -> Bool {
        (first.map { day >= $0 } ?? true) && (end.map { day < $0 } ?? true)
    }
}

extension PetRecord {
    /// The day on the record's own clock.
    public var localDay: LocalDate { RecordClock.day(at, utcOffset: utcOffset) }
}

extension SpendingEntry {
    /// The day on the expense's own clock: its day in every budget and the day of its exchange rate.
    public var localDay: LocalDate { RecordClock.day(at, utcOffset: utcOffset) }
}
