import Foundation

/// Calendar unit of the ticks on a time axis.
public enum TickUnit: Sendable, Equatable, CaseIterable {
    case hour, day, week, month, quarter, year
}

/// Tick positions people read easily: values on 1-2-5 steps, dates on calendar boundaries.
public enum NiceTicks {
    /// Ticks of a value axis; the axis runs from `lower` to `upper`, both ticks.
    public struct ValueTicks: Sendable, Equatable {
        public var step: Double
        public var values: [Double]
        public var lower: Double { values.first ?? 0 }
        public var upper: Double { values.last ?? 1 }
        /// Digits after the decimal point that show every tick exactly.
        public var fractionDigits: Int

        /// The value as a label: fixed digits, "-" for the minus sign, no "-0".
        public func label(_ value: Double) -> String {
            let v = abs(value) < step * 1e-9 ? 0 : value
            return String(format: "%.\(fractionDigits)f", v)
        }
    }

    /// The 1-2-5 step just at or above `rough`.
    public static func niceStep(atLeast rough: Double) -> Double {
        guard rough > 0, rough.isFinite else { return 1 }
        let magnitude = pow(10, floor(log10(rough)))
        for m in [1.0, 2, 5, 10] where m * magnitude >= rough * (1 - 1e-9) { return m * magnitude }
        return 10 * magnitude
    }

    /// At most `maxCount` ticks (3 at least: a range across zero needs them) on a 1-2-5 step
    /// covering `min...max`, with the fewest digits.
    /// A zero-width range is widened around its value; `includeZero` extends it to 0;
    /// `minimumStep` (e.g. 1 for counts) keeps steps from getting finer.
    public static func values(min lo: Double, max hi: Double, maxCount: Int,
                              includeZero: Bool = false, minimumStep: Double = 0) -> ValueTicks {
        var a = Swift.min(lo, hi), b = Swift.max(lo, hi)
        if !a.isFinite || !b.isFinite { a = 0; b = 1 }
        if includeZero { a = Swift.min(a, 0); b = Swift.max(b, 0) }
        if b - a < Swift.max(abs(a), abs(b)) * 1e-9 || b == a {
            let pad = a == 0 ? 1 : abs(a) * 0.05
            a -= pad; b += pad
            if includeZero && lo >= 0 { a = Swift.max(a, 0) }
        }
        let count = Swift.max(3, maxCount)
        var step = niceStep(atLeast: Swift.max((b - a) / Double(count - 1), minimumStep))
        while true {
            let first = (a / step).rounded(.down), last = (b / step).rounded(.up)
            if Int(last - first) + 1 <= count {
                let digits = Swift.max(0, Int(-floor(log10(step) + 1e-9)))
                let scale = pow(10, Double(digits))
                let ticks = stride(from: first, through: last, by: 1).map { k -> Double in
                    ((k * step) * scale).rounded() / scale
                }
                return ValueTicks(step: step, values: ticks, fractionDigits: digits)
            }
            step = niceStep(atLeast: step * 1.5)
        }
    }

    /// Ticks of a time axis: one unit and a multiple of it.
    public struct DateTicks: Sendable, Equatable {
        public var unit: TickUnit
        /// Units between ticks (e.g. 3 for every third hour, 2 for every second year).
        public var step: Int
        /// Tick times, Unix seconds, within the range asked for.
        public var times: [Double]
    }

    /// Candidate spacings, finest first, with their rough length in seconds.
    static let dateSteps: [(unit: TickUnit, step: Int, seconds: Double)] = {
        let hour = 3600.0, day = 86400.0
        var steps: [(TickUnit, Int, Double)] = [
            (.hour, 1, hour), (.hour, 3, 3 * hour), (.hour, 6, 6 * hour), (.hour, 12, 12 * hour),
            (.day, 1, day), (.day, 2, 2 * day), (.week, 1, 7 * day), (.week, 2, 14 * day),
            (.month, 1, 30.44 * day), (.month, 2, 60.9 * day),
            (.quarter, 1, 91.3 * day), (.quarter, 2, 182.6 * day),
        ]
        for years in [1, 2, 5, 10, 20, 50, 100, 200, 500, 1000] {
            steps.append((.year, years, Double(years) * 365.25 * day))
        }
        return steps
    }()

    /// The finest calendar spacing that gives at most `maxCount` ticks in `from...to`
    /// (Unix seconds), aligned to local calendar boundaries of `timeZone`
    /// (midnight, Mondays, first of month, January 1).
    public static func dates(from start: Double, to end: Double, maxCount: Int,
                             timeZone: TimeZone = .current) -> DateTicks {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        calendar.firstWeekday = 2
        let lo = Swift.min(start, end), hi = Swift.max(start, end)
        let limit = Swift.max(1, maxCount)
        for candidate in dateSteps where (hi - lo) / candidate.seconds <= Double(limit) + 1 {
            let times = ticks(candidate.unit, step: candidate.step, from: lo, to: hi, calendar: calendar)
            if times.count <= limit { return DateTicks(unit: candidate.unit, step: candidate.step, times: times) }
        }
        return DateTicks(unit: .year, step: 1000, times: [])
    }

    static func ticks(_ unit: TickUnit, step: Int, from lo: Double, to hi: Double,
                      calendar: Calendar) -> [Double] {
        let startDate = Date(timeIntervalSince1970: lo)
        let c = calendar.dateComponents([.year, .month, .day, .hour], from: startDate)
        var first: DateComponents
        let component: Calendar.Component
        var increment = step
        switch unit {
        case .hour:
            first = DateComponents(year: c.year, month: c.month, day: c.day,
                                   hour: (c.hour ?? 0) / step * step)
            component = .hour
        case .day:
            first = DateComponents(year: c.year, month: c.month, day: c.day)
            component = .day
        case .week:
            let monday = calendar.dateInterval(of: .weekOfYear, for: startDate)?.start ?? startDate
            let m = calendar.dateComponents([.year, .month, .day], from: monday)
            first = DateComponents(year: m.year, month: m.month, day: m.day)
            component = .day
            increment = 7 * step
        case .month, .quarter:
            let months = unit == .quarter ? 3 * step : step
            first = DateComponents(year: c.year, month: ((c.month ?? 1) - 1) / months * months + 1, day: 1)
            component = .month
            increment = months
        case .year:
            first = DateComponents(year: Int((Double(c.year ?? 1970) / Double(step)).rounded(.down)) * step,
                                   month: 1, day: 1)
            component = .year
        }
        guard let origin = calendar.date(from: first) else { return [] }
        var k = 0
        if unit == .day && step > 1 {
            // Even spacing across month ends: count days from a fixed date, not per month.
            let anchor = calendar.date(from: DateComponents(year: 2001, month: 1, day: 1)) ?? origin
            let days = calendar.dateComponents([.day], from: anchor, to: origin).day ?? 0
            k = -(((days % step) + step) % step)
        }
        var out: [Double] = []
        // Always offset from the origin (never cumulative), so months do not drift.
        while out.count <= 10_000, let date = calendar.date(byAdding: component, value: k, to: origin) {
            let t = date.timeIntervalSince1970
            if t > hi + 1e-6 { break }
            if t >= lo - 1e-6 { out.append(t) }
            k += increment
        }
        return out
    }
}
