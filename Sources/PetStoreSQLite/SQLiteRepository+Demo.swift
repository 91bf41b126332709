import Foundation
import GRDB
import PetModel
import PetStoreCore

extension SQLiteRepository {
    public func seedDemo(_ batch: ImportBatch, budgets: [Budget], rates: [EuroRate]) throws -> ImportSummary {
        try writeWithoutForeignKeys { db in
            try store(db, writing: true).seedDemo(batch, budgets: budgets, rates: rates, writer: SQLiteImportWriter(repository: self, db: db))
        }
    }
}
