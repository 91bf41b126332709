import Foundation
import GRDB
import PetFiles
import PetModel
import PetStoreCore

/// A database file this process makes: made whole under a temporary name with its side files
/// (`withSideFiles`), and removed again when the command that made it wrote nothing into it.
extension AppDatabase {
    /// Removes the file this process created (`StoreNotice.created`) when the command that made it failed
    /// before any of its writes committed: a new database appears only with its first write. Nothing is
    /// removed when any table holds a row the new file was not made with (`seededRows`: the kinds of
    /// record the schema lists), or when the file is not the one made. Returns whether it went.
    @discardableResult
    public func removeIfNeverWritten() -> Bool {
        guard let path, notices.contains(.created(path: path)) else { return false }
        // Under the write lock, so no other process commits between the look and the unlink; one that
        // opened the file meanwhile finds it gone when it writes (SQLite: SQLITE_READONLY_DBMOVED), never
        // a write into a file nobody can see.
        let seeded = seededRows
        let removed = (try? dbQueue.inDatabase { db -> Bool in
            try db.execute(sql: "BEGIN IMMEDIATE TRANSACTION")
            defer { try? db.execute(sql: "ROLLBACK") }
            let tables = try String.fetchAll(db, sql: """
                SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite%' AND name <> 'grdb_migrations'
                """)
            for t in tables {
                let table = t.quotedDatabaseIdentifier
                if let rows = seeded[t] {
                    if try Int.fetchOne(db, sql: "SELECT count(*) FROM \(table)") != rows { return false }
                } else if try Bool.fetchOne(db, sql: "SELECT EXISTS (SELECT 1 FROM \(table))") == true {
                    return false
                }
            }
            for suffix in ["", "-wal", "-shm", "-journal"] { unlink(path + suffix) }
            return true
        }) ?? false
        guard removed else { return false }
        try? dbQueue.close()
        if let folder = attachmentsDirectory { rmdir(folder.path) }
        return true
    }

    /// The files of a database made with `OpenOptions.removeOnSignal`: no longer removed by a signal.
    public func keepOnSignal() {
        guard let path else { return }
        for suffix in ["", "-wal", "-shm", "-journal"] { TemporaryFiles.unregister(path + suffix) }
        if let folder = attachmentsDirectory { TemporaryFiles.unregister(folder.path) }
    }

    /// Runs `body` on the database file being made at `partial`; SQLite's own files beside it
    /// (-journal, -wal, -shm) go afterwards too, and on a Ctrl-C (registered with `TemporaryFiles`).
    /// A WAL that still holds frames, or a rollback journal left, when `body` is done means the file is not
    /// whole (a checkpoint or commit that could not write it): refused naming `shown` (the user's path),
    /// never linked into place without them.
    static func withSideFiles<T>(of partial: String, shown: String, _ body: () throws -> T) throws -> T {
        let sides = ["-journal", "-wal", "-shm"].map { partial + $0 }
        sides.forEach(TemporaryFiles.register)
        defer {
            for side in sides {
                unlink(side)
                TemporaryFiles.unregister(side)
            }
        }
        let result = try body()
        var info = stat()
        if (stat(partial + "-wal", &info) == 0 && info.st_size > 0) || stat(partial + "-journal", &info) == 0 {
            throw StoreError.file(path: shown, OutputFile.diskFailure(errno: 0, folder: OutputFile.folder(of: partial)) ?? .ioError)
        }
        return result
    }

    /// The rows of each table that holds any in a file just made (the schema's own, such as `record_kind`),
    /// read before anyone else can see the file.
    static func rowCounts(_ db: Database) throws -> [String: Int] {
        var counts: [String: Int] = [:]
        let tables = try String.fetchAll(db, sql: """
            SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite%' AND name <> 'grdb_migrations'
            """)
        for t in tables {
            let n = try Int.fetchOne(db, sql: "SELECT count(*) FROM \(t.quotedDatabaseIdentifier)") ?? 0
            if n > 0 { counts[t] = n }
        }
        return counts
    }
}
