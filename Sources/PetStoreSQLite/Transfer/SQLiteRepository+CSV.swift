import Foundation
import GRDB
import PetFiles
import PetModel
import PetStoreCore

extension SQLiteRepository {
    /// The tables `export --format csv` writes, in order (`--table` takes one of them).
    public static var csvTableNames: [String] { CSVExport.tableNames }
}
