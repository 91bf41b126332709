/// Symptom episodes per week from a first day through a last day (weeks start on Monday, or on Sunday
/// where the calendar's do: `week_start` and the locale; empty weeks count too), by severity 1–5 or by kind: the bars of `chart symptoms` and of the report.
public struct WeeklySymptomCounts: Equatable, Sendable {
    public enum Grouping: Sendable { case severity, kind }

    /// One bar series: a severity level, or one kind of symptom.
    public struct Series: Equatable, Sendable {
        /// The level 1–5 (by severity).
        public var severity: Int?
        /// The first symptom of the kind, to name it (by kind).
        public var kind: Symptom?
        /// Episodes per week, one per entry of `weeks`.
        public var counts: [Int]
    }

    /// The first day of each week (a Monday, or a Sunday with `weekStartsOnSunday`).
    public var weeks: [LocalDate]
    /// By severity only the levels seen, lowest first; by kind every kind given, in group-key order.
    public var series: [Series]

    public init(_ symptoms: [(day: LocalDate, symptom: Symptom)], from first: LocalDate, through last: LocalDate, by grouping: Grouping,
                weekStartsOnSunday: Bool = false) {
        // isoWeekday: Monday 1 … Sunday 7; days back to the week's first day.
        let back = weekStartsOnSunday ? first.isoWeekday % 7 : first.isoWeekday - 1
        let firstWeek = first.adding(days: -back)
        let weeks = stride(from: firstWeek.dayNumber, through: last.dayNumber, by: 7).map { LocalDate(dayNumber: $0) }
        func counts(_ include: (Symptom) -> Bool) -> [Int] {
            var values = [Int](repeating: 0, count: weeks.count)
            for (d, x) in symptoms where include(x) {
                let i = (d.dayNumber - firstWeek.dayNumber) / 7
                if d.dayNumber >= firstWeek.dayNumber && i < values.count { values[i] += 1 }
            }
            return values
        }
        self.weeks = weeks
        switch grouping {
        case .kind:
            let keys = Array(Set(symptoms.map { $0.symptom.groupKey })).sorted()
            series = keys.map { k in
                Series(severity: nil, kind: symptoms.first { $0.symptom.groupKey == k }?.symptom, counts: counts { $0.groupKey == k })
            }
        case .severity:
            series = (1...5).compactMap { level in
                let values = counts { $0.severity == level }
                return values.contains { $0 > 0 } ? Series(severity: level, kind: nil, counts: values) : nil
            }
        }
    }
}
