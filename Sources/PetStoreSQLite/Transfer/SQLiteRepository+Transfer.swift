import Foundation
import GRDB
import PetFiles
import PetModel
import PetStoreCore

extension SQLiteRepository {
    /// The tables `export --format csv` writes, in order (`--table` takes one of them).
    public static var csvTableNames: [String] { CSVExport.tableNames }

    /// The household's namespace (nil in a file older than its table): the JSON and FHIR exports name it.
    public func householdNamespace() throws -> String? {
        try read { db in try db.tableExists("household") ? try store(db, writing: false).storedNamespace() : nil }
    }
}
