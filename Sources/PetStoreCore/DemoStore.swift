import Foundation
import PetModel

/// What `petlog demo` writes: a household (through the import path), its budgets and a month of
/// exchange rates, in one transaction, so a demo killed half-way leaves nothing behind.
public protocol DemoRepository: Sendable {
    /// The clock the store stamps its writes with (pinned by `PETLOG_NOW`); the demo stops at it.
    var now: @Sendable () -> Date { get }
    /// The batch (`needsEmptyDatabase`), then the household budgets and the rates, in one transaction.
    /// The rates are stored as any rate is; no fetch is logged (they were not fetched), so `rates update`
    /// still fetches today's.
    func seedDemo(_ batch: ImportBatch, budgets: [Budget], rates: [EuroRate]) throws -> ImportSummary
}

extension Store {
    /// The demo household (an import), its household budgets and the rates, in one of the engine's bulk writes.
    public func seedDemo(_ batch: ImportBatch, budgets: [Budget], rates: [EuroRate]) throws -> ImportSummary {
        try engine.bulkTransaction { sql, writer in
            let s = Store(engine, sql: sql, transaction: .write)
            let summary = try s.importRows(batch, writer: writer, summary: ImportSummary(), progress: nil)
            let t = s.nowSeconds
            for b in budgets {
                var first: String?, last: String?
                if case .days(let f, let l) = b.period { first = f.description; last = l.description }
                try sql.execute("""
                    INSERT INTO budget (pet_id, amount_minor, currency, first_day, last_day, category, per_pet, created_at, updated_at)
                    VALUES (NULL, ?, ?, ?, ?, ?, ?, ?, ?)
                    """, [b.amount.minorUnits, b.amount.currency.code, first, last, b.category, b.perPet, t, t])
            }
            for r in rates where r.currency != "EUR" {
                try sql.execute("""
                    INSERT INTO exchange_rate (day, currency, rate) VALUES (?, ?, ?) ON CONFLICT (currency, day) DO UPDATE SET rate = excluded.rate
                    """, [r.day.description, r.currency, r.rate.description])
            }
            return summary
        }
    }
}
