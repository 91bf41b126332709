/// What a set of walk records adds up to: how many, how far and how long (`stats`, the vet report).
public struct WalkTotals: Equatable, Sendable {
    public var count = 0
    /// Metres and minutes over the walks that have them, and how many do.
    public var meters = 0, minutes = 0, measured = 0, timed = 0

    public init() {}

    /// The walks among `records` (other kinds are passed over).
    public init(_ records: [PetRecord]) {
        for r in records { if case .walk(let w) = r.detail { add(w) } }
    }

    public mutating func add(_ w: Walk) {
        count += 1
        if let m = w.meters { meters += m; measured += 1 }
        if let m = w.minutes { minutes += m; timed += 1 }
    }

    /// Minutes a walk, over the walks timed; nil when none was.
    public var averageMinutes: Double? { timed > 0 ? Double(minutes) / Double(timed) : nil }

    /// Walks a week over `days` days (a period of a report).
    public func perWeek(days: Int) -> Double { days > 0 ? Double(count) * 7 / Double(days) : 0 }
}

/// Minutes walked in each week from a first day through a last day (weeks as `WeeklySymptomCounts` counts
/// them: Monday, or Sunday where the calendar starts there; empty weeks count): `chart activity`'s bars.
public struct WeeklyWalkMinutes: Equatable, Sendable {
    /// The first day of each week.
    public var weeks: [LocalDate]
    public var minutes: [Int]
    /// Walks in each week (timed or not).
    public var walks: [Int]

    public init(_ walks: [(day: LocalDate, walk: Walk)], from first: LocalDate, through last: LocalDate, weekStartsOnSunday: Bool = false) {
        let back = weekStartsOnSunday ? first.isoWeekday % 7 : first.isoWeekday - 1
        let firstWeek = first.adding(days: -back)
        weeks = stride(from: firstWeek.dayNumber, through: last.dayNumber, by: 7).map { LocalDate(dayNumber: $0) }
        minutes = [Int](repeating: 0, count: weeks.count)
        self.walks = minutes
        for (d, w) in walks where d.dayNumber >= firstWeek.dayNumber {
            let i = (d.dayNumber - firstWeek.dayNumber) / 7
            guard i < weeks.count else { continue }
            minutes[i] += w.minutes ?? 0
            self.walks[i] += 1
        }
    }
}
