import Foundation
import GRDB
import PetFiles
import PetModel
import PetStoreCore

/// How a command opens the database file.
public struct OpenOptions: Sendable {
    /// Create the file (and its folder) when missing. Read commands never do: a mistyped `--db` is an error.
    public var create: Bool
    /// Called once, when a wait for another process's lock has lasted about two seconds.
    public var onWaiting: (@Sendable () -> Void)?
    /// The longest petlog waits for other processes, in total, before giving up as busy.
    public var busyTimeout: TimeInterval
    /// Only read the file, whatever its schema version: no migration, no change of any kind (a backup being
    /// restored).
    public var readOnly: Bool
    /// A file made now is removed by a Ctrl-C (SIGINT, SIGTERM, SIGHUP) until `AppDatabase.keepOnSignal`:
    /// an interrupted first command (a big import) leaves no new database behind.
    public var removeOnSignal: Bool

    public init(create: Bool = false, readOnly: Bool = false, busyTimeout: TimeInterval = 30, removeOnSignal: Bool = false,
                onWaiting: (@Sendable () -> Void)? = nil) {
        self.create = create
        self.readOnly = readOnly
        self.busyTimeout = busyTimeout
        self.removeOnSignal = removeOnSignal
        self.onWaiting = onWaiting
    }
}

/// Owns the SQLite connection and the migrator: opening refuses newer files untouched, backs up
/// before migrating, and sets WAL + a bounded wait so concurrent petlog processes wait, not fail.
public struct AppDatabase: Sendable {
    let dbQueue: DatabaseQueue
    /// Where attachments live (`<file name>.attachments/` beside the file); nil for in-memory databases.
    public let attachmentsDirectory: URL?
    public let path: String?
    /// What opening did that the user should be told (creation, migration backup, attachments moved).
    public private(set) var notices: [StoreNotice] = []
    let busy: BusyBudget
    /// Set when the file was opened by `openDamaged`, only to be read: what was seen of the damage before
    /// any page was read.
    var damageAtOpen: DamageAtOpen? = nil
    /// A file this process made: the rows it was made with (`removeIfNeverWritten` tells them from a write).
    var seededRows: [String: Int] = [:]
    /// Read-only connections beside `dbQueue` for the reads of `petlog serve` (off for the CLI): `ReadConnections`.
    let readers = ReadConnections()

    /// Opens the database at `path`; creates it only with `options.create`.
    public static func open(path: String, options: OpenOptions = OpenOptions(create: true)) throws -> AppDatabase {
        let url = URL(fileURLWithPath: FileSecurity.absolute(path))
        let dir = url.deletingLastPathComponent()
        var info = stat()
        let existed = stat(path, &info) == 0
        if !existed {
            // (A link to nothing names no database either.)
            if lstat(path, &info) != 0, errno == ENOTDIR || errno == EACCES {
                throw StoreError.file(path: path, OutputError.Cause(errno: errno, folder: OutputFile.folder(of: path)))
            }
            guard options.create else { throw StoreError.databaseMissing(path: path) }
            try FileSecurity.makePrivateDirectory(dir)
        }
        // Made whole under a temporary name and linked into place (`OutputFile.create`), so a petlog killed
        // while making it leaves no file, never an empty one; of several processes starting a new file at
        // once, one links it and says it made it, the others find it made.
        var created = false
        var seeded: [String: Int] = [:]
        if !existed {
            do {
                seeded = try OutputFile.create(path, staysRegistered: options.removeOnSignal) { partial in
                    try withSideFiles(of: partial, shown: path) {
                        do {
                            let budget = BusyBudget(limit: options.busyTimeout, onWaiting: nil)
                            let queue = try openQueue(path: partial, readOnly: false, busy: budget)
                            let fresh = AppDatabase(dbQueue: queue, attachmentsDirectory: nil, path: partial, busy: budget)
                            try fresh.prepareFile(applied: [])
                            // The schema is in the WAL: copied into the file here, checked. The checkpoint that
                            // closing runs drops its errors (a full disk), and the WAL goes with the side files.
                            try queue.writeWithoutTransaction { db in _ = try db.checkpoint(.truncate) }
                            let rows = try queue.read(rowCounts)
                            try queue.close()
                            return rows
                        } catch let e as DatabaseError {
                            throw SQLiteRepository.map(e, path: path)
                        } catch let e as StoreError {
                            throw e.naming(path, insteadOf: partial)
                        }
                    }
                }
                created = true
                if options.removeOnSignal {
                    // The file itself was registered as it was linked; SQLite's files beside it and the
                    // attachments folder go with it.
                    for suffix in ["-wal", "-shm", "-journal"] { TemporaryFiles.register(path + suffix) }
                    TemporaryFiles.register(attachmentsDirectory(forDatabase: path).path)
                }
            } catch let e as OutputError where e.cause == .exists {
                created = false
            } catch let e as OutputError {
                throw StoreError.file(path: path, e.cause)
            }
        }
        // A directory, FIFO or device is refused before SQLite touches it (and leaves a -journal beside /dev/null).
        if existed, stat(path, &info) == 0, info.st_mode & S_IFMT != S_IFREG {
            let type = info.st_mode & S_IFMT
            throw StoreError.file(path: path, type == S_IFDIR ? .isDirectory : type == S_IFIFO ? .isFIFO : .isDevice)
        }
        if existed && access(path, R_OK) != 0 { throw StoreError.file(path: path, .permissionDenied) }
        // SQLite takes an empty file for an empty database and would write a new one into it: only a
        // command that writes may do that; a read leaves the file as it is.
        if existed, info.st_size == 0, !options.create { throw StoreError.databaseEmpty(path: path) }
        let busy = BusyBudget(limit: options.busyTimeout, onWaiting: options.onWaiting)
        // A file or folder this user may not write is opened read-only, so reads still work there.
        let writable = !options.readOnly && (!existed || (access(path, W_OK) == 0 && access(dir.path, W_OK) == 0))
        let queue = try openQueue(path: path, readOnly: !writable, busy: busy)
        if created { FileSecurity.restrict(path) }
        var database = AppDatabase(dbQueue: queue, attachmentsDirectory: attachmentsDirectory(forDatabase: path), path: path, busy: busy)
        if created {
            database.notices.append(.created(path: path))
            database.seededRows = seeded
        }
        // Read first, write nothing, so a refused file stays byte-identical.
        var applied: [String]
        do {
            applied = try database.appliedMigrationsChecked()
        } catch StoreError.notAPetlogDatabase {
            // Perhaps another process is creating this file right now (it migrates holding the folder lock):
            // wait for that lock, then look again.
            try DirectoryLock(directory: dir.path, busy: busy).release()
            applied = try database.appliedMigrationsChecked()
        }
        if applied.count < Schema.migrator.migrations.count && !options.readOnly {
            guard writable else { throw StoreError.readOnly(path: path) }
            // One process migrates; the others wait for it, then find the work done.
            let lock = try DirectoryLock(directory: dir.path, busy: busy)
            defer { lock.release() }
            applied = try database.appliedMigrationsChecked()
            if !applied.isEmpty && applied.count < Schema.migrator.migrations.count {
                let backup = try database.migrationBackupPath()
                try database.backup(to: backup)
                database.notices.append(.migrated(backup: backup))
            }
            try database.prepareFile(applied: applied)
        } else if writable {
            try database.prepareFile(applied: applied)
        }
        if writable, let moved = try AttachmentStore.adoptSharedFolder(database: database) {
            database.notices.append(moved)
        }
        return database
    }

    /// The queue for `path`; read-only when the file or its folder cannot be written. A read-only WAL file
    /// whose `-shm` cannot be created is opened immutable (nobody can write it from here either).
    static func openQueue(path: String, readOnly: Bool, busy: BusyBudget, configuration given: Configuration? = nil) throws -> DatabaseQueue {
        var config = given ?? configuration(busy: busy)
        config.readonly = readOnly
        do {
            let queue = try DatabaseQueue(path: path, configuration: config)
            // A read-only WAL file needs its -shm, which only a writer of the folder can make: probe once.
            if readOnly { _ = try queue.read { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM sqlite_master") } }
            return queue
        } catch let e as DatabaseError where readOnly && (e.resultCode == .SQLITE_CANTOPEN || e.resultCode == .SQLITE_READONLY) {
            do {
                return try DatabaseQueue(path: "file:" + uriEscaped(path) + "?immutable=1", configuration: config)
            } catch {
                throw classify(error, path: path)
            }
        } catch {
            throw classify(error, path: path)
        }
    }

    static func uriEscaped(_ path: String) -> String {
        var allowed = CharacterSet.urlPathAllowed
        allowed.remove(charactersIn: "?#%")
        return path.addingPercentEncoding(withAllowedCharacters: allowed) ?? path
    }

    /// An error met while opening, as a store error naming the file.
    static func classify(_ error: Error, path: String) -> Error {
        guard let e = error as? DatabaseError else { return error }
        return SQLiteRepository.map(e, path: path)
    }

    /// The applied migrations, refusing a file from a newer petlog or one that is not petlog's.
    func appliedMigrationsChecked() throws -> [String] {
        let migrator = Schema.migrator
        let path = self.path ?? ":memory:"
        do {
            return try dbQueue.read { db -> [String] in
                // Another process may have created or migrated the file since this connection last looked.
                db.clearSchemaCache()
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
        } catch {
            throw Self.classify(error, path: path)
        }
    }

    /// `FILE.before-v3-1763888400.bak`, with a counter when a backup of that second exists.
    func migrationBackupPath() throws -> String {
        guard let path else { throw StoreError.io("in-memory database") }
        let base = path + ".before-\(Schema.currentVersion)-\(Int(Date().timeIntervalSince1970))"
        var candidate = base + ".bak"
        var n = 1
        while FileManager.default.fileExists(atPath: candidate) {
            n += 1
            candidate = base + "-\(n).bak"
        }
        return candidate
    }

    /// A private in-memory database, for tests.
    public static func inMemory() throws -> AppDatabase {
        let busy = BusyBudget(limit: 30, onWaiting: nil)
        let queue = try DatabaseQueue(configuration: configuration(busy: busy))
        let database = AppDatabase(dbQueue: queue, attachmentsDirectory: nil, path: nil, busy: busy)
        try database.prepareFile(applied: [])
        return database
    }

    private func prepareFile(applied: [String]) throws {
        do {
            try dbQueue.writeWithoutTransaction { db in
                if let path {
                    if try String.fetchOne(db, sql: "PRAGMA journal_mode") != "wal" { try enterWAL(db) }
                    if FileSecurity.exists(path + "-journal") { try removeStaleJournal(db, path: path) }
                }
                try db.execute(sql: "PRAGMA synchronous = FULL")
            }
            if applied.count < Schema.migrator.migrations.count {
                try Schema.migrator.migrate(dbQueue)
            }
        } catch let e as DatabaseError {
            throw SQLiteRepository.map(e, path: path ?? ":memory:")
        }
    }

    /// Puts the file in WAL mode, petlog's mode for every file. That needs the write lock, and SQLite answers
    /// busy at once when another process holds it, without its busy handler: as for a write, the wait is
    /// petlog's own, within the same budget (with its notice). A file is out of WAL mode while a first big
    /// import runs in a rollback journal (`SQLiteRepository.firstLoadJournal`), so another petlog opening it
    /// then waits for that import as it would for any writer.
    func enterWAL(_ db: Database) throws {
        var tries = 0
        while true {
            do {
                _ = try String.fetchOne(db, sql: "PRAGMA journal_mode = WAL")
                return
            } catch let e as DatabaseError where (e.resultCode == .SQLITE_BUSY || e.resultCode == .SQLITE_LOCKED) && busy.waitOnce(tries: tries + 20) {
                tries += 1
            }
        }
    }

    /// Removes a rollback journal that SQLite left beside a file in WAL mode. A first import killed before its
    /// journal was synced (`SQLiteRepository.firstLoadJournal`) leaves one whose header is still zero: SQLite
    /// finds it not hot (none of its pages reached the file) and leaves it where it is. A hot one was rolled back
    /// by this connection's first read. Under a read of the file in WAL mode no other connection can be writing
    /// a rollback journal (leaving WAL mode takes the file to oneself), so the one there is nobody's.
    func removeStaleJournal(_ db: Database, path: String) throws {
        try db.inTransaction(.deferred) {
            if try String.fetchOne(db, sql: "PRAGMA journal_mode") == "wal",
               try Int.fetchOne(db, sql: "SELECT count(*) FROM sqlite_master") != nil {
                unlink(path + "-journal")
            }
            return .commit
        }
    }

    /// The schema versions applied to this file.
    public func appliedMigrations() throws -> [String] {
        try dbQueue.read { db in try Schema.migrator.appliedMigrations(db) }
    }
}
