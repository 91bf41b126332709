import Foundation
import GRDB
import PetModel
import PetStoreCore

extension SQLiteRepository {
    public func spending(_ query: SpendingQuery) throws -> [SpendingEntry] { try read { db in try core(db).spending(query) } }
    public func splitShares(of recordId: Int64) throws -> [PetRecord] { try read { db in try core(db).splitShares(of: recordId) } }
    public func setBudget(_ draft: BudgetDraft) throws -> (budget: StoredBudget, replaced: Bool) { try write { db in try core(db).setBudget(draft) } }
    public func budgets() throws -> [StoredBudget] { try read { db in try core(db).loadBudgets(id: nil) } }
    public func deleteBudget(id: Int64) throws -> StoredBudget { try write { db in try core(db).deleteBudget(id: id) } }
    public func editBudget(id: Int64, _ edit: BudgetEdit) throws -> (before: StoredBudget, after: StoredBudget) { try write { db in try core(db).editBudget(id: id, edit) } }
    public func storeRates(_ rates: [EuroRate], source: String, at: Date, localDay: LocalDate) throws -> RatesStoreSummary {
        try write { db in try core(db).storeRates(rates, source: source, at: at, localDay: localDay) }
    }
    public func rateTable(currencies: [String], from: LocalDate?, through: LocalDate?) throws -> RateTable {
        try read { db in try core(db).rateTable(currencies: currencies, from: from, through: through) }
    }
    public func rates(on day: LocalDate?) throws -> (day: LocalDate, rates: [EuroRate])? { try read { db in try core(db).rates(on: day) } }
    public func allRates() throws -> [EuroRate] { try read { db in try core(db).allRates() } }
    public func lastRatesFetch() throws -> RatesFetch? { try read { db in try core(db).lastRatesFetch() } }
}
