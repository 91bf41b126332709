import Foundation
import GRDB
import PetModel
import PetStoreCore

extension SQLiteRepository {
    /// With the foreign keys off, as an import into an empty file.
    public func bulkTransaction<T>(_ body: (any SQLExecutor, any ImportWriter) throws -> T) throws -> T {
        try writeWithoutForeignKeys { db in try body(SQLiteExecutor(db), SQLiteImportWriter(repository: self, db: db)) }
    }
}
