import Foundation
import GRDB
import PetStoreCore

extension SQLiteRepository {
    /// The file's data version (it moves when another connection, such as a CLI command, commits) and the rows
    /// this connection has changed since it opened (its own writes, which the data version does not count).
    public func changeMarker() throws -> String? {
        try read { db in
            let row = try Row.fetchOne(db, sql: "SELECT total_changes(), (SELECT data_version FROM pragma_data_version)")
            return row.map { "\($0[0] as Int64? ?? 0).\($0[1] as Int64? ?? 0)" }
        }
    }
}
