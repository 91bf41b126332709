import Foundation

/// When records may be dated (README, Decisions: "Dates"). What happened (an observation, a dose, a
/// visit, a vaccination given) is dated at most now plus `futureTolerance`, a day without a time at
/// most today; a birth is not after today; a day counted from a record's date (`--until`, `--next`,
/// `--follow-up`) is not before that date. Medication courses may start later and expenses may be
/// booked ahead, so they are only held to the years petlog keeps.
public enum RecordDating {
    /// Clocks of two devices (a phone that logged, a laptop that imports) disagree by a few minutes.
    public static let futureTolerance: TimeInterval = 600

    /// Kinds that record something that happened, so they cannot be in the future.
    public static func isObservation(_ kind: RecordKind) -> Bool { kind.isObservation }

    /// The store's and the importer's rule, with no time zone at hand: an observation's local day (by
    /// its own offset) is not after the local day of now plus the tolerance at that offset. It is what
    /// the command line's rule implies for every value it accepts, so it holds for what it writes too.
    public static func isAcceptable(_ kind: RecordKind, at: Int64, utcOffset: Int, now: Int64) -> Bool {
        guard isObservation(kind) else { return true }
        let latest = now.addingSaturated(Int64(futureTolerance))
        return localDay(at, utcOffset) <= localDay(latest, utcOffset)
    }

    /// The local day of a stored instant by its own offset.
    public static func day(at: Int64, utcOffset: Int) -> LocalDate {
        LocalDate(dayNumber: Int(max(-1_000_000_000, min(1_000_000_000, localDay(at, utcOffset)))))
    }

    /// Both rules for a record about to be stored: `inFuture` or `beforeStart`.
    public static func check(_ detail: RecordDetail, at: Int64, utcOffset: Int, now: Int64) throws {
        guard isAcceptable(detail.kind, at: at, utcOffset: utcOffset, now: now) else {
            throw futureError(at: at, utcOffset: utcOffset, now: now)
        }
        try checkOwnDates(detail, day: day(at: at, utcOffset: utcOffset))
    }

    /// `inFuture` naming the record's day and the latest day allowed.
    public static func futureError(at: Int64, utcOffset: Int, now: Int64) -> ParseError {
        let day = Self.day(at: at, utcOffset: utcOffset)
        let today = Self.day(at: now.addingSaturated(Int64(futureTolerance)), utcOffset: utcOffset)
        return ParseError.inFuture(day.description, limit: DatingLimit(today))
    }

    static func localDay(_ t: Int64, _ offset: Int) -> Int64 {
        let local = t.addingSaturated(Int64(offset))
        let (q, r) = local.quotientAndRemainder(dividingBy: 86_400)
        return r < 0 ? q - 1 : q
    }

    /// A record's own dates in order: a vaccination's next due day, a visit's follow-up and a course's
    /// last day are not before the day of the record (`day`, its local day).
    public static func checkOwnDates(_ detail: RecordDetail, day: LocalDate) throws {
        func check(_ later: LocalDate?, _ field: String) throws {
            if let later, later < day { throw ParseError.beforeStart(field: field, value: later.description, start: day.description) }
        }
        switch detail {
        case .vaccination(let v): try check(v.nextDue, "--next")
        case .visit(let v): try check(v.followUp, "--follow-up")
        case .medication(let m): try check(m.endsOn, "--until")
        default: try check(detail.nextSession, "--next")
        }
    }
}

/// The latest a record may be dated: a day, or a day and a time of day on the writer's clock; the CLI
/// shows the time in the language's pattern (`2026-11-23 10:10 AM`, `2026-11-23 오전 10:10`, `2026-11-23 10:10`).
public struct DatingLimit: Equatable, Sendable, CustomStringConvertible {
    public var day: LocalDate
    public var hour: Int?
    public var minute: Int?
    public init(_ day: LocalDate, hour: Int? = nil, minute: Int? = nil) { self.day = day; self.hour = hour; self.minute = minute }
    /// `2026-11-23` or `2026-11-23 10:10` (24-hour), for logs and tests.
    public var description: String {
        guard let hour, let minute else { return day.description }
        return String(format: "%@ %02d:%02d", day.description, hour, minute)
    }
}

extension TimeContext {
    /// `date` when an observation may carry it (see `RecordDating`), else `inFuture` naming the limit.
    /// `dayOnly`: typed as a day without a time (stored at 12:00), which may be today at most.
    public func checkObserved(_ date: Date, dayOnly: Bool, raw: String) throws -> Date {
        if dayOnly {
            guard localDate(of: date) <= today else { throw ParseError.inFuture(raw, limit: DatingLimit(today)) }
        } else {
            let latest = now.addingTimeInterval(RecordDating.futureTolerance)
            guard date <= latest else {
                let c = clock(of: latest)
                throw ParseError.inFuture(raw, limit: DatingLimit(c.day, hour: c.hour, minute: c.minute))
            }
        }
        return date
    }

    /// A birth date known to the day, month or year is refused when its earliest day is after today.
    public func checkBorn(_ born: PartialDate, raw: String) throws -> PartialDate {
        guard born.earliestDay <= today else { throw ParseError.inFuture(raw, limit: DatingLimit(today)) }
        return born
    }
}
