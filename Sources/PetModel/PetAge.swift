extension Pet {
    /// Whole months from the earliest day the pet can have been born to `day`, or to the day it was
    /// archived when that came first; nil when the birth is unknown or after that day.
    public func ageInMonths(on day: LocalDate) -> Int? {
        guard let born else { return nil }
        let end = archivedOn.map { min($0, day) } ?? day
        let start = born.earliestDay
        var months = (end.year - start.year) * 12 + (end.month - start.month)
        if end.day < start.day { months -= 1 }
        return months < 0 ? nil : months
    }
}
