import Foundation
import PetModel

/// Which spending a money view asks for.
public struct SpendingQuery: Sendable {
    /// Pets whose spending counts; empty: every pet and the household.
    public var pets: [PetRef]
    /// With `pets`, also the household's own expenses (no pet).
    public var includeHousehold: Bool
    public var since: Date?
    public var until: Date?
    /// Expenses only, or the costs of visits and groomings too (every spending figure counts them; `expense list --no-visits` does not).
    public var includeVisits: Bool
    public var starredOnly: Bool
    /// Spending whose own local day (by its stored offset) lies in the window: budgets, months, trips.
    public var days: DayWindow?

    public init(pets: [PetRef] = [], includeHousehold: Bool = false, since: Date? = nil, until: Date? = nil, days: DayWindow? = nil,
                includeVisits: Bool = true, starredOnly: Bool = false) {
        self.pets = pets; self.includeHousehold = includeHousehold; self.since = since; self.until = until; self.days = days
        self.includeVisits = includeVisits; self.starredOnly = starredOnly
    }
}

/// What `budget set` stores: whom it covers and its terms.
public struct BudgetDraft: Sendable {
    public var pet: PetRef?
    public var budget: Budget
    public init(pet: PetRef?, budget: Budget) { self.pet = pet; self.budget = budget }
}

/// What `budget edit` changes: each field given is set (`.some(nil)` clears it), the others are kept.
public struct BudgetEdit: Sendable, Equatable {
    public var name: String??
    public var place: String??
    public var people: Int??
    /// A stretch's new first and last day (both, checked by the caller: the last not before the first).
    public var days: BudgetDays.Span?
    public init(name: String?? = nil, place: String?? = nil, people: Int?? = nil, days: BudgetDays.Span? = nil) {
        self.name = name; self.place = place; self.people = people; self.days = days
    }
    public var isEmpty: Bool { name == nil && place == nil && people == nil && days == nil }
}

/// What storing a file of rates did.
public struct RatesStoreSummary: Equatable, Sendable {
    /// Rates new to the database, rates that replaced a different stored value, and the days the file covered.
    public var added: Int, changed: Int, days: Int
    public var firstDay: LocalDate?, lastDay: LocalDate?
}

/// Spending, budgets and exchange rates. Every method is one transaction.
public protocol MoneyRepository: Sendable {
    /// Expenses and visit costs in time order (oldest first, then by id).
    func spending(_ query: SpendingQuery) throws -> [SpendingEntry]
    /// The shares of a split expense, in order (the first share first).
    func splitShares(of recordId: Int64) throws -> [PetRecord]
    /// Sets a budget, replacing the one with the same scope (pet, category, period); `replaced` says so.
    func setBudget(_ draft: BudgetDraft) throws -> (budget: StoredBudget, replaced: Bool)
    func budgets() throws -> [StoredBudget]
    func deleteBudget(id: Int64) throws -> StoredBudget
    /// Changes a budget's name, place or people; the budget before and after.
    func editBudget(id: Int64, _ edit: BudgetEdit) throws -> (before: StoredBudget, after: StoredBudget)
    /// Stores rates (a rate already stored for the day and currency is replaced) and notes the fetch.
    func storeRates(_ rates: [EuroRate], source: String, at: Date, localDay: LocalDate) throws -> RatesStoreSummary
    /// Rates of `currencies` (all when empty) in force from `from` through `through`: every published
    /// day in that span and the last one before it.
    func rateTable(currencies: [String], from: LocalDate?, through: LocalDate?) throws -> RateTable
    /// The rates of the last published day on or before `day` (the newest when nil), and that day.
    func rates(on day: LocalDate?) throws -> (day: LocalDate, rates: [EuroRate])?
    /// The most recent fetch or import of rates.
    func lastRatesFetch() throws -> RatesFetch?
    /// Every stored rate, by day then currency (for export).
    func allRates() throws -> [EuroRate]
}
