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

    /// The attachments folder of the database file at `path`: `<file name>.attachments` beside it, so two
    /// databases in one folder never share one. Through a symbolic link, beside the file it names.
    public static func attachmentsDirectory(forDatabase path: String) -> URL {
        var real = FileSecurity.absolute(path)
        if let resolved = realpath(path, nil) {
            real = String(cString: resolved)
            free(resolved)
        }
        let url = URL(fileURLWithPath: real)
        return url.deletingLastPathComponent().appendingPathComponent(url.lastPathComponent + ".attachments")
    }

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

    static func configuration(busy: BusyBudget) -> Configuration {
        var config = Configuration()
        config.foreignKeysEnabled = true
        config.busyMode = .callback { tries in busy.waitOnce(tries: tries) }
        config.prepareDatabase { db in
            db.add(function: DatabaseFunction("petlog_fold", argumentCount: 1, pure: true) { values in
                String.fromDatabaseValue(values[0]).map(fold)
            })
        }
        return config
    }

    /// `TextField.nameKey` (NFKC, trimmed, case-folded), with ASCII text done byte by byte: NFKC leaves
    /// ASCII as it is and case folding maps A–Z to a–z, and Foundation's folding was most of the time
    /// `search_index` takes to fill (tested against `nameKey`).
    static func fold(_ text: String) -> String {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(text.utf8.count)
        for b in text.utf8 {
            if b >= 0x80 { return TextField.nameKey(text) }
            bytes.append(b >= 0x41 && b <= 0x5A ? b + 0x20 : b)
        }
        // The ASCII part of `whitespacesAndNewlines`: tab, line feed, vertical tab, form feed, return, space.
        func blank(_ b: UInt8) -> Bool { b == 0x20 || (b >= 0x09 && b <= 0x0D) }
        var low = 0, high = bytes.count
        while low < high && blank(bytes[low]) { low += 1 }
        while high > low && blank(bytes[high - 1]) { high -= 1 }
        return String(decoding: bytes[low..<high], as: UTF8.self)
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

    // MARK: Damage

    /// `FILE.damaged` beside the database: written when a command meets corruption that `PRAGMA quick_check`
    /// confirms, or when `check` finds damage; while it exists every write is refused, so nothing more goes
    /// into a damaged file. `check` removes it once the file passes.
    var damageMarker: String? { path.map { $0 + ".damaged" } }

    /// What the marker says, when the file is known to be damaged.
    public var knownDamage: String? {
        guard let marker = damageMarker, FileSecurity.exists(marker) else { return nil }
        return (try? String(contentsOfFile: marker, encoding: .utf8))?.trimmingCharacters(in: .whitespacesAndNewlines) ?? "damaged"
    }

    /// Confirms corruption a command met with `PRAGMA quick_check` and, if confirmed, marks the file.
    func noteCorruption(_ detail: String) {
        let confirmed: String?
        do {
            let lines = try dbQueue.read { db in try String.fetchAll(db, sql: "PRAGMA quick_check(1)") }
            confirmed = lines == ["ok"] ? nil : lines.first ?? detail
        } catch {
            confirmed = detail
        }
        if let confirmed { markDamaged(confirmed) }
    }

    func markDamaged(_ detail: String) {
        guard let marker = damageMarker, !FileSecurity.exists(marker) else { return }
        _ = FileManager.default.createFile(atPath: marker, contents: Data((detail + "\n").utf8), attributes: [.posixPermissions: 0o600])
    }

    func clearDamaged() {
        if let marker = damageMarker { unlink(marker) }
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

    /// The schema versions applied to this file.
    public func appliedMigrations() throws -> [String] {
        try dbQueue.read { db in try Schema.migrator.appliedMigrations(db) }
    }
}

/// The wait for other processes' locks: one budget per process (30 s by default), shared by SQLite's busy
/// handler, petlog's retries and the migration lock, with a notice once the wait passes two seconds.
final class BusyBudget: @unchecked Sendable {
    let limit: TimeInterval
    let onWaiting: (@Sendable () -> Void)?
    private let lock = NSLock()
    private var waited: TimeInterval = 0
    private var noticed = false

    init(limit: TimeInterval, onWaiting: (@Sendable () -> Void)?) {
        self.limit = limit
        self.onWaiting = onWaiting
    }

    /// Sleeps a little and says whether to try again (SQLite's busy handler: false gives up with SQLITE_BUSY).
    func waitOnce(tries: Int) -> Bool {
        let step: TimeInterval = tries < 10 ? 0.002 : (tries < 50 ? 0.01 : 0.05)
        lock.lock()
        let allowed = waited + step <= limit
        if allowed { waited += step }
        let notice = allowed && waited >= 2 && !noticed
        if notice { noticed = true }
        lock.unlock()
        guard allowed else { return false }
        if notice { onWaiting?() }
        usleep(useconds_t(step * 1_000_000))
        return true
    }
}

/// An exclusive `flock` on the database's folder, held while one process migrates the file. (Not on the
/// file itself: closing another descriptor of it would drop SQLite's own POSIX locks.)
struct DirectoryLock {
    let fd: Int32

    init(directory: String, busy: BusyBudget) throws {
        fd = Foundation.open(directory, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard fd >= 0 else { throw StoreError.file(path: directory, OutputError.Cause(errno: errno)) }
        var tries = 0
        while flock(fd, LOCK_EX | LOCK_NB) != 0 {
            guard errno == EWOULDBLOCK || errno == EINTR, busy.waitOnce(tries: tries) else {
                close(fd)
                throw StoreError.busy
            }
            tries += 1
        }
    }

    func release() {
        flock(fd, LOCK_UN)
        close(fd)
    }
}
