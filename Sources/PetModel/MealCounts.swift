import Foundation

/// Meals, snacks and treats, and water counted apart: the figures `stats` and the report share.
public struct MealCounts: Equatable, Sendable {
    /// Main meals (`meal`).
    public var meals = 0
    /// Snacks and treats together; water is never one.
    public var treats = 0
    public var water = 0
    /// Local days with at least one main meal logged: meals per day is over these, not the whole period.
    public var mealDays = 0

    public init() {}

    /// Main meals a day over the days meals were logged; nil with none.
    public var mealsPerDay: Double? { mealDays > 0 ? Double(meals) / Double(mealDays) : nil }

    public init(_ records: [PetRecord], context: TimeContext) {
        var days: Set<LocalDate> = []
        for r in records {
            guard case .meal(let m) = r.detail else { continue }
            switch m.type {
            case .meal: meals += 1; days.insert(r.localDay)
            case .snack, .treat: treats += 1
            case .water: water += 1
            }
        }
        mealDays = days.count
    }
}
