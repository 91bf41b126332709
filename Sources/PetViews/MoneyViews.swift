import Foundation
import PetModel
import PetStoreCore

/// The store reads behind `expense list`, `calendar --spending`, `budget show` and `budget show --daily`, shared by
/// the CLI and `petlog serve`: which rows a view needs and which rates convert them (the views themselves are in PetModel).
public enum MoneyViews {
    /// The rates needed to convert `entries` into `target` (only their currencies and their own local days).
    public static func rates(_ store: any PetlogStore, for entries: [SpendingEntry], to target: Currency) throws -> RateTable {
        let currencies = Set(entries.map(\.money.currency.code)).union([target.code])
        let days = entries.map(\.localDay)
        guard currencies.count > 1, let first = days.min(), let last = days.max() else { return RateTable([]) }
        return try store.rateTable(currencies: currencies.sorted(), from: first, through: last)
    }

    /// Where `b` stands on `day`: its spending (the pet's records for a pet's budget; everything, the
    /// household's own expenses included, for the household's) converted at each expense's day's rate.
    public static func budgetStatus(_ store: any PetlogStore, _ b: StoredBudget, on day: LocalDate, activePets: Int, time: TimeContext) throws -> BudgetStatus {
        let (first, last) = b.budget.span(asOf: day)
        let through = min(last, day)
        let pets = Budget.headcount(petBudget: b.petId != nil, activePets: activePets)
        guard through >= first else { return BudgetStatus(budget: b.budget, items: [], asOf: day, pets: pets) }
        let query = SpendingQuery(pets: b.petId.map { [PetRef.id($0)] } ?? [], days: DayWindow(first: first, end: through.adding(days: 1)))
        let entries = try store.spending(query)
        let rates = try rates(store, for: entries, to: b.budget.amount.currency)
        return BudgetStatus(budget: b.budget, items: entries.map { $0.item(time) }, asOf: day, pets: pets, rates: rates)
    }

    /// `budget show ID --daily`'s figures: each day of the budget's span (`first…last`) as of `day`.
    public static func budgetDays(_ store: any PetlogStore, _ b: StoredBudget, first: LocalDate, last: LocalDate, on day: LocalDate,
                                  activePets: Int, time: TimeContext) throws -> BudgetDays {
        let pets = Budget.headcount(petBudget: b.petId != nil, activePets: activePets)
        let query = SpendingQuery(pets: b.petId.map { [PetRef.id($0)] } ?? [], days: DayWindow(first: first, end: last.adding(days: 1)))
        let entries = try store.spending(query)
        let rates = try rates(store, for: entries, to: b.budget.amount.currency)
        return BudgetDays(budget: b.budget, items: entries.map { $0.item(time) }, asOf: day, pets: pets, rates: rates)
    }

    /// `budget show`'s budgets on `day` (monthly ones, stretches that contain it, upcoming ones, those ended in
    /// the last 31 days), each with where it stands.
    public static func shownBudgets(_ store: any PetlogStore, on day: LocalDate, time: TimeContext) throws -> (budgets: [(StoredBudget, BudgetStatus)], activePets: Int) {
        let activePets = try store.pets(includeArchived: false).count
        var shown: [(StoredBudget, BudgetStatus)] = []
        for b in try store.budgets() where b.budget.isShown(on: day) {
            shown.append((b, try budgetStatus(store, b, on: day, activePets: activePets, time: time)))
        }
        return (shown, activePets)
    }

    /// The days of `first`'s month as `expense list --month` and `calendar --spending` show them, in `home`.
    public static func month(_ store: any PetlogStore, first: LocalDate, home: Currency, time: TimeContext)
        throws -> (days: SpendingDays, daily: DailySpending, ahead: SpendingAhead) {
        let entries = try store.spending(SpendingQuery(pets: [], days: DayWindow(first: first, end: first.adding(months: 1))))
        let rates = try rates(store, for: entries, to: home)
        return (SpendingDays(entries, in: home, rates: rates, context: time),
                DailySpending(entries, month: first, in: home, rates: rates, context: time),
                SpendingAhead(entries, in: home, rates: rates, now: time.now))
    }
}
