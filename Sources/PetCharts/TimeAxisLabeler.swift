import Foundation

/// Turns a tick time into its label; the caller supplies it so month names can be localized.
/// Ticks are placed on calendar boundaries of `timeZone`, which the closure should use too.
public struct TimeAxisLabeler: Sendable {
    public var timeZone: TimeZone
    public var label: @Sendable (Date, TickUnit) -> String

    public init(timeZone: TimeZone = .current, label: @escaping @Sendable (Date, TickUnit) -> String) {
        self.timeZone = timeZone
        self.label = label
    }

    /// The labels of a row of ticks in `unit`. An axis never shows hours without a date: hour ticks
    /// carry their day on the first tick and wherever the day changes (`Nov 20 6:00 AM`, `12:00 PM`, …),
    /// and a tick at midnight is the day alone.
    public func labels(_ times: [Double], unit: TickUnit) -> [String] {
        guard unit == .hour else { return times.map { label(Date(timeIntervalSince1970: $0), unit) } }
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        var previousDay: DateComponents?
        return times.map { t in
            let date = Date(timeIntervalSince1970: t)
            let c = calendar.dateComponents([.year, .month, .day, .hour, .minute, .second], from: date)
            let day = DateComponents(year: c.year, month: c.month, day: c.day)
            defer { previousDay = day }
            if c.hour == 0 && c.minute == 0 && c.second == 0 { return label(date, .day) }
            if day != previousDay { return label(date, .day) + " " + label(date, .hour) }
            return label(date, .hour)
        }
    }

    /// Numeric labels in any language: "2026" (year), "2026-11" (quarter, month),
    /// "11-20" (week, day, and hour ticks at midnight), "08:30" (hour).
    public static func numeric(timeZone: TimeZone = .current) -> TimeAxisLabeler {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        let fixed = calendar
        return TimeAxisLabeler(timeZone: timeZone) { date, unit in
            let c = fixed.dateComponents([.year, .month, .day, .hour, .minute], from: date)
            let y = c.year ?? 0, mo = c.month ?? 0, d = c.day ?? 0, h = c.hour ?? 0, mi = c.minute ?? 0
            func two(_ n: Int) -> String { n < 10 ? "0\(n)" : "\(n)" }
            switch unit {
            case .year: return "\(y)"
            case .quarter, .month: return "\(y)-\(two(mo))"
            case .week, .day: return "\(two(mo))-\(two(d))"
            case .hour: return h == 0 && mi == 0 ? "\(two(mo))-\(two(d))" : "\(two(h)):\(two(mi))"
            }
        }
    }
}
