import Foundation
import Localization
import PetModel
import PetStoreCore
import PetViews

extension Session {
    /// The most days `--daily` lists (ten years).
    static let dailyMaxDays = 3_660

    /// `budget show ID --daily`: each day of the budget's span as of `day` with its spending, the running
    /// total and what is left (per pet with --per-pet, per person with two or more people).
    mutating func showBudgetDaily(id: Int64, on day: LocalDate) throws {
        let repo = try repository()
        let b = try budget(id)
        let (first, last) = try dailySpan(b, asOf: day)
        let activePets = try repo.pets(includeArchived: false).count
        let pets = Budget.headcount(petBudget: b.petId != nil, activePets: activePets)
        let days = try MoneyViews.budgetDays(repo, b, first: first, last: last, on: day, activePets: activePets, time: time)
        if json { try terminal.json(BudgetDailyJSON(b, days, on: day, pets: pets)); return }
        terminal.lines(budgetText.daily(b, days, activePets: activePets, on: day))
    }

    mutating func budget(_ id: Int64) throws -> StoredBudget {
        guard let b = try repository().budgets().first(where: { $0.id == id }) else { throw StoreError.budgetNotFound(id) }
        return b
    }

    /// The budget's days as of `day`, refused past `dailyMaxDays` (a budget day by day, listed or charted).
    func dailySpan(_ b: StoredBudget, asOf day: LocalDate) throws -> (first: LocalDate, last: LocalDate) {
        let (first, last) = b.budget.span(asOf: day)
        let length = last.dayNumber - first.dayNumber + 1
        guard length <= Session.dailyMaxDays else {
            throw UsageError(message: t(.errBudgetDailyTooLong(id: String(b.id), n: Display.count(length), max: Display.count(Session.dailyMaxDays))), code: Failure.dataError)
        }
        return (first, last)
    }
}
