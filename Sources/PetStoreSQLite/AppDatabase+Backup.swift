import Foundation
import GRDB
import PetFiles
import PetModel
import PetStoreCore

extension AppDatabase {
    /// Copies the whole database through SQLite's online backup API into a new 0600 file, then checks
    /// the copy (`PRAGMA integrity_check`): a damaged source is refused, and no copy is left.
    ///
    /// The copy is made under a temporary name beside `destination` and linked into place only once
    /// complete and checked: a backup killed half-way leaves no file at `destination` (a half-written one
    /// would roll back to an empty file, which opens as a valid, empty petlog database).
    public func backup(to typed: String) throws {
        // Through a link to the file it names (never replacing the link); devices, FIFOs and folders
        // refused; an existing file refused, never replaced (OutputFile.create links the copy into place).
        if FileSecurity.exists(FileSecurity.absolute(try OutputFile.resolve(typed))) { throw StoreError.file(path: typed, .exists) }
        try OutputFile.create(typed) { partial in try Self.withSideFiles(of: partial, shown: typed) {
            do {
                let target = try DatabaseQueue(path: partial)
                try dbQueue.backup(to: target)
                let problems = try target.read { db in try String.fetchAll(db, sql: "PRAGMA integrity_check") }.filter { $0 != "ok" }
                try target.close()
                if !problems.isEmpty { throw StoreError.damaged(path: path ?? "", detail: problems.first ?? "") }
            } catch let e as DatabaseError {
                if e.resultCode == .SQLITE_CORRUPT || e.resultCode == .SQLITE_NOTADB { throw StoreError.damaged(path: path ?? "", detail: e.message ?? "") }
                throw SQLiteRepository.map(e, path: typed)
            }
        } }
    }
}
