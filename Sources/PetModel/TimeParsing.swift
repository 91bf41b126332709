import Foundation

/// "Now" and the local time zone, injected so that parsing and day grouping are testable.
public struct TimeContext: Sendable {
    public var now: Date
    public var timeZone: TimeZone

    public init(now: Date = Date(), timeZone: TimeZone = .current) {
        self.now = now
        self.timeZone = timeZone
    }

    public var calendar: Calendar {
        var c = Calendar(identifier: .gregorian)
        c.timeZone = timeZone
        return c
    }

    /// The local calendar day of an instant. Outside the supported years (a record written by an
    /// older petlog or another tool) the day is worked out by arithmetic, never by a trap.
    public func localDate(of date: Date) -> LocalDate {
        let c = calendar.dateComponents([.era, .year, .month, .day], from: date)
        if c.era == 1, let y = c.year, let m = c.month, let d = c.day, let day = LocalDate(year: y, month: m, day: d) { return day }
        let days = ((date.timeIntervalSince1970 + Double(timeZone.secondsFromGMT(for: date))) / 86_400).rounded(.down)
        return LocalDate(dayNumber: days.isNaN ? 0 : Int(max(-1e9, min(1e9, days))))
    }

    /// `date` when its local day is one petlog keeps (1800–9999), else `dateOutOfRange(raw)`.
    func checked(_ date: Date, _ raw: String) throws -> Date {
        guard localDate(of: date).isSupported else { throw ParseError.dateOutOfRange(raw) }
        return date
    }

    public var today: LocalDate { localDate(of: now) }

    /// The instant a local wall-clock time names (the earlier one when clocks go back). A day the
    /// calendar cannot place (arithmetic may leave the supported years) is placed by arithmetic with
    /// the zone's offset then, never by a trap.
    public func instant(_ day: LocalDate, hour: Int = 0, minute: Int = 0, second: Int = 0) -> Date {
        var comps = DateComponents()
        comps.year = day.year; comps.month = day.month; comps.day = day.day
        comps.hour = hour; comps.minute = minute; comps.second = second
        if day.isSupported, let date = calendar.date(from: comps) { return date }
        let local = Double(day.dayNumber) * 86_400 + Double(hour * 3600 + minute * 60 + second)
        let guess = Date(timeIntervalSince1970: local)
        return guess.addingTimeInterval(-Double(timeZone.secondsFromGMT(for: guess)))
    }

    /// Local wall-clock fields of an instant in this zone, for any instant a file may hold: outside
    /// the supported years they are worked out by arithmetic (see `localDate(of:)`).
    public func clock(of date: Date) -> (day: LocalDate, hour: Int, minute: Int, second: Int) {
        let c = calendar.dateComponents([.era, .year, .month, .day, .hour, .minute, .second], from: date)
        if c.era == 1, let y = c.year, let m = c.month, let d = c.day, let day = LocalDate(year: y, month: m, day: d),
           let h = c.hour, let mi = c.minute, let s = c.second {
            return (day, h, mi, s)
        }
        let local = date.timeIntervalSince1970 + Double(timeZone.secondsFromGMT(for: date))
        let seconds = local.isNaN ? 0 : max(-8.64e13, min(8.64e13, local)).rounded(.down)
        let days = (seconds / 86_400).rounded(.down)
        let rest = Int(seconds - days * 86_400)
        return (LocalDate(dayNumber: Int(days)), rest / 3600, rest % 3600 / 60, rest % 60)
    }

    public func startOfDay(_ day: LocalDate) -> Date { instant(day) }

    /// Seconds east of UTC at an instant in this zone.
    public func utcOffset(at date: Date) -> Int { timeZone.secondsFromGMT(for: date) }
}

/// A stretch of time typed as `30d`, `2w`, `12h`, `6m` (months), `1y`.
public enum Span: Equatable, Sendable {
    case seconds(Int)
    case days(Int)
    case months(Int)

    /// The largest number a span counts (100,000 of its unit).
    public static let maximumCount = 100_000

    /// `shown` is the text errors name, when `raw` is part of it (the `3h` of `-3h`).
    public static func parse(_ raw: String, allowCalendarUnits: Bool = true, shown: String? = nil) throws -> Span {
        let text = TimeWords.canonical(raw)
        let digits = text.prefix(while: { $0.asciiDigit != nil })
        let unit = text.dropFirst(digits.count)
        let known = ["min", "h", "d", "w"] + (allowCalendarUnits ? ["m", "y"] : [])
        if let n = strictInt(digits), n > maximumCount, known.contains(String(unit)) {
            throw ParseError.spanTooLong(shown ?? raw, max: maximumCount)
        }
        if digits.count > 18, digits.allSatisfy({ $0.asciiDigit != nil }), known.contains(String(unit)) {
            throw ParseError.spanTooLong(shown ?? raw, max: maximumCount)
        }
        guard let n = strictInt(digits), n > 0, n <= maximumCount else { throw ParseError.badDuration(shown ?? raw) }
        switch unit {
        case "min": return .seconds(n * 60)
        case "h": return .seconds(n * 3600)
        case "d": return .days(n)
        case "w": return .days(n * 7)
        case "m" where allowCalendarUnits: return .months(n)
        case "y" where allowCalendarUnits: return .months(n * 12)
        default: throw ParseError.badDuration(shown ?? raw)
        }
    }

    /// Length in seconds for fixed spans; months count as 30 days only where a fixed length is needed.
    public var approximateSeconds: Int {
        switch self {
        case .seconds(let s): return s
        case .days(let d): return d * 86_400
        case .months(let m): return m * 30 * 86_400
        }
    }

    public func added(to date: Date, in context: TimeContext) -> Date {
        switch self {
        case .seconds(let s): return date.addingTimeInterval(Double(s))
        case .days(let d): return context.calendar.date(byAdding: .day, value: d, to: date) ?? date.addingTimeInterval(Double(approximateSeconds))
        case .months(let m): return context.calendar.date(byAdding: .month, value: m, to: date) ?? date.addingTimeInterval(Double(approximateSeconds))
        }
    }

    public func subtracted(from date: Date, in context: TimeContext) -> Date {
        switch self {
        case .seconds(let s): return date.addingTimeInterval(-Double(s))
        // The calendar answers nil only far outside the years petlog keeps: count fixed lengths there.
        case .days(let d): return context.calendar.date(byAdding: .day, value: -d, to: date) ?? date.addingTimeInterval(-Double(approximateSeconds))
        case .months(let m): return context.calendar.date(byAdding: .month, value: -m, to: date) ?? date.addingTimeInterval(-Double(approximateSeconds))
        }
    }

    public func added(to day: LocalDate) -> LocalDate {
        switch self {
        case .seconds(let s): return day.adding(days: s / 86_400)
        case .days(let d): return day.adding(days: d)
        case .months(let m): return day.adding(months: m)
        }
    }
}

/// Strict parsers for the times and days users type.
public enum TimeParser {
    /// When something happened: `now`, `today`, `yesterday`, `-2d`, `-3h`, `08:30`, `yesterday 18:00`,
    /// `2026-11-20`, `2026-11-20 08:30`, `2026-11-20T08:30:15`, optionally with `Z` or `+09:00`.
    /// A day without a time of day means 12:00 local, so it stays on that day in nearby zones.
    public static func instant(_ raw: String, context: TimeContext) throws -> Date {
        try instantAndPrecision(raw, context: context).date
    }

    /// When something happened, as `instant` reads it, refused when it is in the future
    /// (`RecordDating`): an instant may be at most now plus the tolerance, a day without a time today.
    public static func observed(_ raw: String, context: TimeContext) throws -> Date {
        let (date, dayOnly) = try instantAndPrecision(raw, context: context)
        return try context.checkObserved(date, dayOnly: dayOnly, raw: raw)
    }

    /// `instant`, and whether the text named a day without a time of day (then 12:00 local).
    public static func instantAndPrecision(_ raw: String, context: TimeContext) throws -> (date: Date, dayOnly: Bool) {
        let text = TimeWords.canonical(raw)
        switch text {
        case "now", "today": return (context.now, false)
        case "yesterday": return (Span.days(1).subtracted(from: context.now, in: context), false)
        // A day ahead: `observed` refuses it as in the future, plans (`med start --at tomorrow`) take it.
        case "tomorrow": return (try context.checked(Span.days(1).added(to: context.now, in: context), raw), false)
        default: break
        }
        if text.hasPrefix("-") {
            let span = try Span.parse(String(text.dropFirst()), allowCalendarUnits: false, shown: raw)
            return (try context.checked(span.subtracted(from: context.now, in: context), raw), false)
        }
        // Split date and time: "2026-11-20T08:30", "2026-11-20 08:30", "yesterday 18:00", "08:30".
        var datePart: Substring
        var timePart: Substring?
        if let space = text.firstIndex(of: " "), ["today", "yesterday", "tomorrow"].contains(text[..<space]) {
            datePart = text[..<space]
            timePart = text[text.index(after: space)...]
        } else if text.count > 10, let sep = text.index(text.startIndex, offsetBy: 10, limitedBy: text.endIndex),
                  text[sep] == "t" || text[sep] == " " {
            datePart = text[..<sep]
            timePart = text[text.index(after: sep)...]
        } else if text.contains(":") {
            datePart = "today"
            timePart = Substring(text)
        } else {
            datePart = Substring(text)
        }
        let day: LocalDate
        switch datePart {
        case "today": day = context.today
        case "yesterday": day = context.today.adding(days: -1)
        case "tomorrow": day = context.today.adding(days: 1)
        default:
            guard let d = LocalDate.parseISO(datePart) else { throw ParseError.badDate(raw) }
            day = d
        }
        guard var time = timePart else { return (try context.checked(context.instant(day, hour: 12), raw), true) }
        // Optional explicit offset.
        var explicitOffset: Int?
        if time.hasSuffix("z") {
            explicitOffset = 0
            time = time.dropLast()
        } else if let signIndex = time.lastIndex(where: { $0 == "+" || $0 == "-" }) {
            let offText = time[time.index(after: signIndex)...]
            let comps = offText.split(separator: ":", omittingEmptySubsequences: false)
            guard comps.count == 2, comps[0].count == 2, comps[1].count == 2,
                  let oh = strictInt(comps[0]), let om = strictInt(comps[1]), oh <= 18, om < 60 else { throw ParseError.badTime(raw) }
            explicitOffset = (oh * 3600 + om * 60) * (time[signIndex] == "-" ? -1 : 1)
            time = time[..<signIndex]
        }
        let hms = time.split(separator: ":", omittingEmptySubsequences: false)
        guard (2...3).contains(hms.count), hms.allSatisfy({ $0.count == 2 }),
              let h = strictInt(hms[0]), let m = strictInt(hms[1]), h < 24, m < 60 else { throw ParseError.badTime(raw) }
        var s = 0
        if hms.count == 3 {
            guard let sec = strictInt(hms[2]), sec < 60 else { throw ParseError.badTime(raw) }
            s = sec
        }
        if let off = explicitOffset {
            guard let zone = TimeZone(secondsFromGMT: off) else { throw ParseError.badTime(raw) } // beyond ±18:00
            let fixed = TimeContext(now: context.now, timeZone: zone)
            return (try context.checked(fixed.instant(day, hour: h, minute: m, second: s), raw), false)
        }
        return (try context.checked(context.instant(day, hour: h, minute: m, second: s), raw), false)
    }

    /// A calendar day: `2026-12-20`, `today`, `tomorrow`, `yesterday`, or a span ahead like `2w` / `+2w`.
    /// A span counts from `base`, the record's own day (a visit's `--follow-up 2w` is two weeks after
    /// the visit, not after today); without one, from today.
    public static func day(_ raw: String, from base: LocalDate? = nil, context: TimeContext) throws -> LocalDate {
        let text = TimeWords.canonical(raw)
        switch text {
        case "today": return context.today
        case "tomorrow": return context.today.adding(days: 1)
        case "yesterday": return context.today.adding(days: -1)
        default: break
        }
        if let d = LocalDate.parseISO(Substring(text)) { return d }
        if text.first?.asciiDigit != nil || text.hasPrefix("+") || text.hasPrefix("-") {
            let negative = text.hasPrefix("-")
            let body = text.hasPrefix("+") || negative ? String(text.dropFirst()) : text
            guard let span = try? Span.parse(body) else { throw ParseError.badDate(raw) }
            let origin = base ?? context.today
            let result = negative ? context.localDate(of: span.subtracted(from: context.instant(origin, hour: 12), in: context))
                                  : span.added(to: origin)
            guard result.isSupported else { throw ParseError.dateOutOfRange(raw) }
            return result
        }
        throw ParseError.badDate(raw)
    }

    /// The start of a `--since` window: a span back from now (`30d`, `1y`) or a day or instant.
    public static func since(_ raw: String, context: TimeContext) throws -> Date {
        let text = TimeWords.canonical(raw)
        if text.first?.asciiDigit != nil, !text.contains("-"), !text.contains(":") {
            return try context.checked(Span.parse(text).subtracted(from: context.now, in: context), raw)
        }
        if let d = LocalDate.parseISO(Substring(text)) { return context.startOfDay(d) }
        if text == "today" || text == "yesterday" {
            return context.startOfDay(try day(text, context: context))
        }
        return try instant(raw, context: context)
    }

    /// The end of an `--until` window: a day means through the end of that day.
    public static func until(_ raw: String, context: TimeContext) throws -> Date {
        let text = TimeWords.canonical(raw)
        if let d = LocalDate.parseISO(Substring(text)) { return context.startOfDay(d.adding(days: 1)) }
        if text == "today" || text == "yesterday" {
            return context.startOfDay(try day(text, context: context).adding(days: 1))
        }
        return try instant(raw, context: context)
    }
}

extension Date {
    /// Whole Unix seconds, clamped to what an Int64 holds: a stored 2⁶³ − 1 comes back as the Double
    /// 2⁶³, which `Int64(_:)` would trap on. NaN (never stored) gives 0.
    public func unixSeconds(_ rule: FloatingPointRoundingRule = .down) -> Int64 {
        let t = timeIntervalSince1970.rounded(rule)
        if t.isNaN { return 0 }
        if t >= 9.223372036854775807e18 { return .max }
        if t <= -9.223372036854775808e18 { return .min }
        return Int64(t)
    }
}
