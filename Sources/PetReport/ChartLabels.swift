import Foundation
import Localization
import PetCharts
import PetModel

/// The words on charts in one language, for `chart` and the report alike: axis dates and the legend of
/// weekly symptom bars.
public struct ChartLabels: Sendable {
    let format: ValueFormatter
    let wording: RecordWording
    let timeZone: TimeZone

    public init(format: ValueFormatter, wording: RecordWording, timeZone: TimeZone) {
        self.format = format; self.wording = wording; self.timeZone = timeZone
    }

    /// Axis dates: 2026 / Nov 2026 / Nov 20 (ko: 2026년 11월, 11월 20일; ja: 2026年11月, 11月20日); hours
    /// on the language's clock, with their day (`TimeAxisLabeler.labels`).
    public var axisLabeler: TimeAxisLabeler {
        let format = self.format
        let tz = timeZone
        return TimeAxisLabeler(timeZone: tz) { date, unit in
            let c = TimeContext(now: date, timeZone: tz).clock(of: date)
            let day = c.day
            switch unit {
            case .year: return format.l10n.text(.chartAxisYear(y: String(day.year)))
            case .month, .quarter: return format.monthLabel(day)
            case .week, .day: return format.shortDay(day)
            // The clock every view of the language uses (2:32 PM · 오후 2:32 · 14:32); the axis adds the day.
            case .hour: return format.clock(hour: c.hour, minute: c.minute)
            }
        }
    }

    /// Weekly symptom counts as bars: one per severity level seen (coloured by level) or one per kind.
    public func symptomStacks(_ counts: WeeklySymptomCounts) -> [BarStack] {
        counts.series.enumerated().map { i, series in
            let values = series.counts.map(Double.init)
            if let level = series.severity {
                return BarStack(label: format.l10n.text(.fieldSeverity(severity: String(level))), color: .severity(level), values: values)
            }
            return BarStack(label: series.kind.map(wording.symptomName) ?? "", color: .palette(i), values: values)
        }
    }
}
