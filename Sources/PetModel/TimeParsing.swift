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

    /// The instant a local wall-clock time names, by `WallClockRule` (the earlier one when clocks go
    /// back, moved forward by the gap when they jump ahead), by arithmetic for any day.
    public func instant(_ day: LocalDate, hour: Int = 0, minute: Int = 0, second: Int = 0) -> Date {
        let local = Int64(day.dayNumber) * 86_400 + Int64(hour * 3600 + minute * 60 + second)
        return Date(timeIntervalSince1970: Double(WallClockRule.resolve(local: local, in: timeZone).at))
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

    /// When something happened and the UTC offset of the clock it happened on: the typed offset when
    /// the text has one (`2026-11-20T08:00:00+09:00` keeps +09:00), else the context zone's at that instant.
    public static func moment(_ raw: String, context: TimeContext, observed: Bool = false) throws -> (date: Date, utcOffset: Int) {
        let m = try parsed(raw, context: context)
        let date = observed ? try context.checkObserved(m.date, dayOnly: m.dayOnly, raw: raw) : m.date
        return (date, m.offset ?? context.utcOffset(at: date))
    }

    /// `instant`, and whether the text named a day without a time of day (then 12:00 local).
    public static func instantAndPrecision(_ raw: String, context: TimeContext) throws -> (date: Date, dayOnly: Bool) {
        let m = try parsed(raw, context: context)
        return (m.date, m.dayOnly)
    }

    /// The instant, whether only a day was named, and the offset typed with it (nil when none was).
    static func parsed(_ raw: String, context: TimeContext) throws -> (date: Date, dayOnly: Bool, offset: Int?) {
        let text = TimeWords.canonical(raw)
        switch text {
        case "now", "today": return (context.now, false, nil)
        case "yesterday": return (Span.days(1).subtracted(from: context.now, in: context), false, nil)
        // A day ahead: `observed` refuses it as in the future, plans (`med start --at tomorrow`) take it.
        case "tomorrow": return (try context.checked(Span.days(1).added(to: context.now, in: context), raw), false, nil)
        default: break
        }
        if text.hasPrefix("-") {
            let span = try Span.parse(String(text.dropFirst()), allowCalendarUnits: false, shown: raw)
            return (try context.checked(span.subtracted(from: context.now, in: context), raw), false, nil)
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
        guard var time = timePart else { return (try context.checked(context.instant(day, hour: 12), raw), true, nil) }
        // A clock as the locale shows it: `2:32 pm`, `오후 2:32`, `午後2:32` (24-hour text is read as ever).
        var afternoon: Bool?
        for (marks, pm) in [(["a.m.", "am", "오전", "午前"], false), (["p.m.", "pm", "오후", "午後"], true)] {
            for mark in marks {
                if time.hasSuffix(mark) { time = time.dropLast(mark.count); afternoon = pm } else if time.hasPrefix(mark) { time = time.dropFirst(mark.count); afternoon = pm }
                if afternoon != nil { break }
            }
            if afternoon != nil { break }
        }
        if afternoon != nil {
            time = Substring(time.trimmingCharacters(in: .whitespaces))
            if time.first?.asciiDigit != nil, time.dropFirst().first == ":" { time = "0" + time }
        }
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
              var h = strictInt(hms[0]), let m = strictInt(hms[1]), h < 24, m < 60 else { throw ParseError.badTime(raw) }
        if let pm = afternoon {
            guard (1...12).contains(h) else { throw ParseError.badTime(raw) }
            h = h % 12 + (pm ? 12 : 0)
        }
        var s = 0
        if hms.count == 3 {
            guard let sec = strictInt(hms[2]), sec < 60 else { throw ParseError.badTime(raw) }
            s = sec
        }
        if let off = explicitOffset {
            guard let zone = TimeZone(secondsFromGMT: off) else { throw ParseError.badTime(raw) } // beyond ±18:00
            let fixed = TimeContext(now: context.now, timeZone: zone)
            return (try context.checked(fixed.instant(day, hour: h, minute: m, second: s), raw), false, off)
        }
        return (try context.checked(context.instant(day, hour: h, minute: m, second: s), raw), false, nil)
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

/// A `--since`/`--until` pair as a query asks it: a whole day (`2026-11-20`, `today`, `yesterday`)
/// bounds each record's own local day (`DayWindow`), so a record is inside the day it happened on
/// wherever it is read; a span back (`30d`) or an instant bounds the instants.
public struct TimeWindow: Sendable {
    public var since: Date?
    public var until: Date?
    public var days: DayWindow?

    public init(since: Date? = nil, until: Date? = nil, days: DayWindow? = nil) {
        self.since = since; self.until = until; self.days = days
    }

    public init(since rawSince: String?, until rawUntil: String?, context: TimeContext) throws {
        var days = DayWindow()
        if let raw = rawSince {
            if let d = try Self.wholeDay(raw, context: context) { days.first = d } else { since = try TimeParser.since(raw, context: context) }
        }
        if let raw = rawUntil {
            if let d = try Self.wholeDay(raw, context: context) { days.end = d.adding(days: 1) } else { until = try TimeParser.until(raw, context: context) }
        }
        self.days = days == DayWindow() ? nil : days
    }

    /// The first local day the window covers (`since` read in `context` when it is an instant).
    public func firstDay(_ context: TimeContext) -> LocalDate? { days?.first ?? since.map(context.localDate(of:)) }

    /// The last local day the window covers, when it ends.
    public func lastDay(_ context: TimeContext) -> LocalDate? {
        days?.end.map { $0.adding(days: -1) } ?? until.map { context.localDate(of: $0.addingTimeInterval(-1)) }
    }

    /// A day named by itself, `2026-11-20`, `today` or `yesterday`; nil for anything else.
    static func wholeDay(_ raw: String, context: TimeContext) throws -> LocalDate? {
        let text = TimeWords.canonical(raw)
        if let d = LocalDate.parseISO(Substring(text)) { return d }
        if text == "today" || text == "yesterday" { return try TimeParser.day(text, context: context) }
        return nil
    }
}

/// One wall-clock text gives one instant on every entry path (`--at`, `edit --at`, CSV and JSON
/// imports, scanned receipts): a local time that happens twice (clocks go back) is the earlier, a
/// local time that never happens (clocks jump ahead) is moved forward by the length of the gap, so
/// `02:30` on the night Chicago springs forward is 03:30 CDT.
public enum WallClockRule {
    /// The UTC instant (Unix seconds) and its offset for `local`, local wall-clock seconds read as if UTC.
    public static func resolve(local: Int64, in zone: TimeZone) -> (at: Int64, offset: Int) {
        func offset(_ t: Int64) -> Int { zone.secondsFromGMT(for: Date(timeIntervalSince1970: Double(t))) }
        let before = offset(local.addingSaturated(-86_400)), after = offset(local.addingSaturated(86_400))
        let valid = [before, after].filter { offset(local.addingSaturated(Int64(-$0))) == $0 }
        if let o = valid.max() { return (local.addingSaturated(Int64(-o)), o) } // the earlier instant of two
        // In a gap: read with the offset before it, which lands as far past the gap's start as the time
        // typed is, on the clock after it.
        let at = local.addingSaturated(Int64(-before))
        return (at, offset(at))
    }
}
