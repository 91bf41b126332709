/// Where a budget stands in time on a day, for `budget show`: a monthly budget is always current;
/// a stretch of days is upcoming before its first day, current through its last, then ended.
public enum BudgetStanding: Equatable, Sendable {
    case current
    /// Starts in `days` days (1: tomorrow).
    case upcoming(days: Int)
    /// Ended `days` days ago (1: its last day was yesterday).
    case ended(days: Int)

    /// How long after its last day `budget show` still shows a stretch's final figures.
    public static let recentlyEndedDays = 31

    public var code: String {
        switch self {
        case .current: "current"
        case .upcoming: "upcoming"
        case .ended: "ended"
        }
    }
}

extension Budget {
    public func standing(on day: LocalDate) -> BudgetStanding {
        guard case .days(let from, let through) = period else { return .current }
        if day < from { return .upcoming(days: from.dayNumber - day.dayNumber) }
        if day > through { return .ended(days: day.dayNumber - through.dayNumber) }
        return .current
    }

    /// `budget show` lists budgets in force on `day`, stretches that have not started yet, and
    /// stretches that ended at most `BudgetStanding.recentlyEndedDays` days before (their final figures);
    /// older ones only in `budget list`.
    public func isShown(on day: LocalDate) -> Bool {
        if case .ended(let days) = standing(on: day) { return days <= BudgetStanding.recentlyEndedDays }
        return true
    }

    /// How many pets share a `--per-pet` budget: one for a pet's budget, else the active pets (at least one).
    public static func headcount(petBudget: Bool, activePets: Int) -> Int {
        petBudget ? 1 : max(1, activePets)
    }

    /// Days left from `day` through the last day of the budget's span, `day` included (a monthly
    /// budget: through the month's last day).
    public func daysLeft(on day: LocalDate) -> Int {
        max(0, span(asOf: day).last.dayNumber - day.dayNumber + 1)
    }

    /// `budget list`'s order: under way (monthly first, then the trip ending soonest), upcoming
    /// (starting soonest), ended (the latest end first).
    public func listOrder(on day: LocalDate) -> (Int, Int) {
        switch standing(on: day) {
        case .current:
            if case .monthly = period { return (0, 0) }
            return (0, 1 + daysLeft(on: day))
        case .upcoming(let n): return (1, n)
        case .ended(let n): return (2, n)
        }
    }
}
