import Foundation
import GRDB
import PetModel

/// Owns the SQLite connection and the migrator: opening refuses newer files untouched, backs up
/// before migrating, and sets WAL + a busy timeout so concurrent petlog processes wait, not fail.
public struct AppDatabase: Sendable {
    let dbQueue: DatabaseQueue
    /// Where attachments live (`attachments/` beside the file); nil for in-memory databases.
    public let attachmentsDirectory: URL?
    public let path: String?

    /// Opens (creating when missing) the database at `path`.
    public static func open(path: String) throws -> AppDatabase {
        let url = URL(fileURLWithPath: path)
        let dir = url.deletingLastPathComponent()
        try FileSecurity.makePrivateDirectory(dir)
        let existed = FileManager.default.fileExists(atPath: path)
        // A directory, FIFO or device is refused before SQLite touches it (and leaves a -journal beside /dev/null).
        var info = stat()
        if existed, stat(path, &info) == 0, info.st_mode & S_IFMT != S_IFREG {
            throw StoreError.cannotOpen(path: path, reason: "not a regular file")
        }
        let queue: DatabaseQueue
        do {
            queue = try DatabaseQueue(path: path, configuration: configuration())
        } catch let e as DatabaseError where e.resultCode == .SQLITE_NOTADB || e.resultCode == .SQLITE_CORRUPT {
            throw StoreError.notAPetlogDatabase(path: path)
        } catch {
            throw StoreError.cannotOpen(path: path, reason: "\(error)")
        }
        if !existed { FileSecurity.restrict(path) }
        let migrator = Schema.migrator
        // Read first, write nothing, so a refused file stays byte-identical.
        let applied: [String]
        do {
            applied = try queue.read { db -> [String] in
                let hasMigrations = try db.tableExists("grdb_migrations")
                if !hasMigrations {
                    let tables = try Int.fetchOne(db, sql: "SELECT count(*) FROM sqlite_master WHERE type = 'table'") ?? 0
                    if tables > 0 { throw StoreError.notAPetlogDatabase(path: path) }
                    return []
                }
                if try migrator.hasBeenSuperseded(db) {
                    throw StoreError.newerSchema(path: path, found: try String.fetchAll(db, sql: "SELECT identifier FROM grdb_migrations"))
                }
                return try migrator.appliedMigrations(db)
            }
        } catch let e as StoreError {
            throw e
        } catch let e as DatabaseError where e.resultCode == .SQLITE_NOTADB || e.resultCode == .SQLITE_CORRUPT {
            throw StoreError.notAPetlogDatabase(path: path)
        } catch {
            throw StoreError.cannotOpen(path: path, reason: "\(error)")
        }
        let database = AppDatabase(dbQueue: queue, attachmentsDirectory: dir.appendingPathComponent("attachments"), path: path)
        if !applied.isEmpty && applied.count < migrator.migrations.count {
            try database.backup(to: path + ".before-\(Schema.currentVersion)-\(Int(Date().timeIntervalSince1970)).bak")
        }
        try database.prepareFile(applied: applied)
        return database
    }

    /// A private in-memory database, for tests.
    public static func inMemory() throws -> AppDatabase {
        let queue = try DatabaseQueue(configuration: configuration())
        let database = AppDatabase(dbQueue: queue, attachmentsDirectory: nil, path: nil)
        try database.prepareFile(applied: [])
        return database
    }

    static func configuration() -> Configuration {
        var config = Configuration()
        config.foreignKeysEnabled = true
        config.busyMode = .timeout(30)
        config.prepareDatabase { db in
            db.add(function: DatabaseFunction("petlog_fold", argumentCount: 1, pure: true) { values in
                String.fromDatabaseValue(values[0]).map(TextField.nameKey)
            })
        }
        return config
    }

    private func prepareFile(applied: [String]) throws {
        do {
            try dbQueue.writeWithoutTransaction { db in
                if path != nil, try String.fetchOne(db, sql: "PRAGMA journal_mode") != "wal" {
                    try db.execute(sql: "PRAGMA journal_mode = WAL")
                }
                try db.execute(sql: "PRAGMA synchronous = FULL")
            }
            if applied.count < Schema.migrator.migrations.count {
                try migrateWithRetry()
            }
        } catch let e as DatabaseError {
            throw SQLiteRepository.map(e)
        }
    }

    /// Two processes opening a fresh file at once both try to migrate; the loser re-checks and moves on.
    private func migrateWithRetry() throws {
        var attempt = 0
        while true {
            do {
                try Schema.migrator.migrate(dbQueue)
                return
            } catch let e as DatabaseError where attempt < 3 && (e.resultCode == .SQLITE_ERROR || e.resultCode == .SQLITE_BUSY) {
                attempt += 1
                usleep(50_000)
                let done = try dbQueue.read { db in try Schema.migrator.hasCompletedMigrations(db) }
                if done { return }
            }
        }
    }

    /// Copies the whole database through SQLite's online backup API into a new 0600 file.
    ///
    /// The copy is made under a temporary name beside `destination` and linked into place only once
    /// complete: a backup killed half-way leaves no file at `destination` (a half-written one would
    /// roll back to an empty file, which opens as a valid, empty petlog database).
    public func backup(to destination: String) throws {
        if FileManager.default.fileExists(atPath: destination) {
            throw StoreError.io("\(destination) exists")
        }
        let url = URL(fileURLWithPath: destination)
        let directory = url.deletingLastPathComponent().path
        let partial = directory + "/.\(url.lastPathComponent).partial-\(getpid())"
        defer {
            unlink(partial)
            unlink(partial + "-journal")
        }
        unlink(partial)
        _ = FileManager.default.createFile(atPath: partial, contents: nil, attributes: [.posixPermissions: 0o600])
        let target = try DatabaseQueue(path: partial)
        try dbQueue.backup(to: target)
        try target.close()
        FileSecurity.restrict(partial)
        // link(2) refuses an existing name, so a file that appeared meanwhile is never replaced.
        if link(partial, destination) != 0 {
            let code = errno
            if code == EEXIST { throw StoreError.io("\(destination) exists") }
            guard code == EPERM || code == ENOTSUP || code == EOPNOTSUPP, rename(partial, destination) == 0 else {
                throw POSIXError(POSIXErrorCode(rawValue: code) ?? .EIO)
            }
        }
        // The new name is durable once the directory is.
        if let dir = FileHandle(forReadingAtPath: directory) {
            try? dir.synchronize()
            try? dir.close()
        }
    }

    /// The schema versions applied to this file.
    public func appliedMigrations() throws -> [String] {
        try dbQueue.read { db in try Schema.migrator.appliedMigrations(db) }
    }
}

/// Private files and folders: data dir 0700, every file petlog creates 0600, whatever the umask.
public enum FileSecurity {
    public static func makePrivateDirectory(_ url: URL) throws {
        var isDir: ObjCBool = false
        if FileManager.default.fileExists(atPath: url.path, isDirectory: &isDir) {
            if !isDir.boolValue { throw StoreError.cannotOpen(path: url.path, reason: "not a directory") }
            return
        }
        do {
            try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
            chmod(url.path, 0o700)
        } catch {
            throw StoreError.cannotOpen(path: url.path, reason: error.localizedDescription)
        }
    }

    public static func restrict(_ path: String) {
        chmod(path, 0o600)
    }
}
