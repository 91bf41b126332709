import Foundation

/// A calendar day with no time zone: follow-up dates, due dates, birthdays.
public struct LocalDate: Hashable, Comparable, Sendable, Codable, CustomStringConvertible {
    public var year: Int
    public var month: Int
    public var day: Int

    /// The years a LocalDate can be made in (and stored and parsed back as `YYYY-MM-DD`).
    public static let supportedYears = 1800...9999

    public init?(year: Int, month: Int, day: Int) {
        guard LocalDate.supportedYears.contains(year), (1...12).contains(month),
              (1...LocalDate.daysIn(month: month, year: year)).contains(day) else { return nil }
        self.year = year
        self.month = month
        self.day = day
    }

    public static func daysIn(month: Int, year: Int) -> Int {
        switch month {
        case 2: return (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
        case 4, 6, 9, 11: return 30
        default: return 31
        }
    }

    public static func < (a: LocalDate, b: LocalDate) -> Bool {
        (a.year, a.month, a.day) < (b.year, b.month, b.day)
    }

    /// `YYYY-MM-DD`, strictly: `2024-02-30` is an error, not March 1st.
    public static func parseISO(_ text: Substring) -> LocalDate? {
        // The stored form, ten ASCII bytes, read from its bytes (`due` reads thousands); anything else as below.
        if let read = text.utf8.withContiguousStorageIfAvailable(plainISO), let plain = read { return plain }
        let parts = text.split(separator: "-", omittingEmptySubsequences: false)
        guard parts.count == 3, parts[0].count == 4, parts[1].count == 2, parts[2].count == 2,
              let y = strictInt(parts[0]), let m = strictInt(parts[1]), let d = strictInt(parts[2]) else { return nil }
        return LocalDate(year: y, month: m, day: d)
    }

    /// `DDDD-DD-DD` in ASCII digits: the date it names (nil when there is no such day); nil of nil for any
    /// other text, which `parseISO` then reads character by character (with the same answer for this form).
    private static func plainISO(_ b: UnsafeBufferPointer<UInt8>) -> LocalDate?? {
        guard b.count == 10, b[4] == UInt8(ascii: "-"), b[7] == UInt8(ascii: "-") else { return nil }
        func number(_ start: Int, _ count: Int) -> Int? {
            var value = 0
            for i in start..<(start + count) {
                let d = Int(b[i]) - 48
                guard d >= 0, d <= 9 else { return nil }
                value = value * 10 + d
            }
            return value
        }
        guard let y = number(0, 4), let m = number(5, 2), let d = number(8, 2) else { return nil }
        return .some(LocalDate(year: y, month: m, day: d))
    }

    /// `2026-11` → 2026-11-01; a month outside 01–12, another shape or a year outside 1800–9999 is an error.
    public static func parseMonth(_ text: String) throws -> LocalDate {
        let parts = text.split(separator: "-", omittingEmptySubsequences: false)
        guard parts.count == 2, parts[0].count == 4, parts[1].count == 2,
              let y = strictInt(parts[0]), let m = strictInt(parts[1]), (1...12).contains(m) else { throw ParseError.badMonth(text) }
        guard (1800...9999).contains(y), let first = LocalDate(year: y, month: m, day: 1) else { throw ParseError.dateOutOfRange(text) }
        return first
    }

    public var description: String {
        String(format: "%04d-%02d-%02d", year, month, day)
    }

    /// Days since 1970-01-01 (proleptic Gregorian), for date arithmetic without a calendar object.
    public var dayNumber: Int {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yoe = y - era * 400
        let mp = (month + 9) % 12
        let doy = (153 * mp + 2) / 5 + day - 1
        let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
        return era * 146097 + doe - 719468
    }

    public init(dayNumber z0: Int) {
        let z = z0 + 719468
        let era = (z >= 0 ? z : z - 146096) / 146097
        let doe = z - era * 146097
        let yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
        let mp = (5 * doy + 2) / 153
        let d = doy - (153 * mp + 2) / 5 + 1
        let m = mp < 10 ? mp + 3 : mp - 9
        self.year = yoe + era * 400 + (m <= 2 ? 1 : 0)
        self.month = m
        self.day = d
    }

    /// Whether the year is within `supportedYears`; arithmetic (`adding`) may leave the range, parsers may not.
    public var isSupported: Bool { LocalDate.supportedYears.contains(year) }

    public func adding(days: Int) -> LocalDate { LocalDate(dayNumber: dayNumber + days) }

    /// Adds calendar months, clamping the day (Jan 31 + 1 month = Feb 28/29). Like `adding(days:)` it
    /// may leave `supportedYears` (check `isSupported`); it never answers the same day, so a month
    /// loop always ends.
    public func adding(months: Int) -> LocalDate {
        let total = year * 12 + (month - 1) + months
        let y = total >= 0 ? total / 12 : (total - 11) / 12
        let m = total - y * 12 + 1
        return LocalDate(unchecked: y, m, min(day, LocalDate.daysIn(month: m, year: y)))
    }

    /// The first day of this date's month.
    public var firstOfMonth: LocalDate { LocalDate(unchecked: year, month, 1) }

    /// A day from fields that may not name one (a value built in code, not parsed): month and day are
    /// clamped into range; the year is kept, so `isSupported` still tells.
    public init(clamping year: Int, month: Int, day: Int) {
        let m = min(12, max(1, month))
        self.init(unchecked: year, m, min(LocalDate.daysIn(month: m, year: year), max(1, day)))
    }

    private init(unchecked year: Int, _ month: Int, _ day: Int) {
        self.year = year
        self.month = month
        self.day = day
    }

    /// ISO weekday: 1 = Monday … 7 = Sunday.
    public var isoWeekday: Int { ((dayNumber % 7) + 7 + 3) % 7 + 1 }
}

func strictInt(_ s: Substring) -> Int? {
    guard !s.isEmpty, s.count <= 9, s.allSatisfy({ $0.asciiDigit != nil }) else { return nil }
    return Int(s)
}

/// A birth date known to the day, the month or only the year (`2019-04-02`, `2019-04`, `2019`).
public struct PartialDate: Equatable, Sendable, Codable, CustomStringConvertible {
    public enum Precision: String, Sendable, Codable { case day, month, year }
    public var year: Int
    public var month: Int?
    public var day: Int?

    public var precision: Precision { day != nil ? .day : (month != nil ? .month : .year) }

    public static func parse(_ raw: String) throws -> PartialDate {
        let text = Substring(raw.trimmingCharacters(in: .whitespaces))
        let parts = text.split(separator: "-", omittingEmptySubsequences: false)
        switch parts.count {
        case 1:
            guard parts[0].count == 4, let y = strictInt(parts[0]), (1900...9999).contains(y) else { throw ParseError.badDate(raw) }
            return PartialDate(year: y)
        case 2:
            guard parts[0].count == 4, parts[1].count == 2, let y = strictInt(parts[0]), let m = strictInt(parts[1]),
                  (1900...9999).contains(y), (1...12).contains(m) else { throw ParseError.badDate(raw) }
            return PartialDate(year: y, month: m)
        default:
            guard let d = LocalDate.parseISO(text), d.year >= 1900 else { throw ParseError.badDate(raw) }
            return PartialDate(year: d.year, month: d.month, day: d.day)
        }
    }

    public init(year: Int, month: Int? = nil, day: Int? = nil) {
        self.year = year
        self.month = month
        self.day = day
    }

    /// The earliest day the birth could have been (used for age and schedules).
    public var earliestDay: LocalDate { LocalDate(clamping: year, month: month ?? 1, day: day ?? 1) }

    public var description: String {
        var s = String(format: "%04d", year)
        if let m = month { s += String(format: "-%02d", m) }
        if let d = day { s += String(format: "-%02d", d) }
        return s
    }
}
