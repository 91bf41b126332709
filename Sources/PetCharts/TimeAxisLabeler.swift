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
