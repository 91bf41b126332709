import Foundation
import GRDB
import PetStoreCore

extension SQLiteRepository {
    /// The file's data version (it moves when another connection, such as a CLI command, commits) and the rows
    /// this connection has changed since it opened (its own writes, which the data version does not count). Read on
    /// the writing connection, also when reads go to the read connections: both counts are that connection's own.
    public func changeMarker() throws -> String? {
        do {
            return try dbQueue.inDatabase { db in
                let row = try Row.fetchOne(db, sql: "SELECT total_changes(), (SELECT data_version FROM pragma_data_version)")
                return row.map { "\($0[0] as Int64? ?? 0).\($0[1] as Int64? ?? 0)" }
            }
        } catch let e as DatabaseError {
            throw map(e)
        }
    }

    /// Up to `connections` read-only connections to the file for the reads from now on (`ReadConnections`); false
    /// for a database in memory, a file opened read-only or immutable, or one known to be damaged.
    public func readConcurrently(connections: Int) -> Bool {
        guard connections > 0, let path = database.path, database.knownDamage == nil, !dbQueue.configuration.readonly,
              (try? dbQueue.inDatabase({ db in try String.fetchOne(db, sql: "PRAGMA journal_mode") })) == "wal" else { return false }
        database.readers.open(count: connections, path: path, busy: database.busy)
        return true
    }
}
