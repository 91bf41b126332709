import Foundation
import GRDB
import GRDBSQLite
import PetFiles
import PetModel
import PetStoreCore

/// The SQLite engine of the store (`StoreEngine`; `Store` is the repository protocols written once over it):
/// one IMMEDIATE transaction per write, attachments as files beside the database, the FTS5 search index,
/// the packed weight series read by hand, the undo triggers, SQLite's own checks and the bulk import.
public struct SQLiteRepository: StoreEngine {
    let database: AppDatabase
    public let now: @Sendable () -> Date

    /// The command line writes are recorded under for `undo`; nil: not recorded.
    public let undoCommand: String?

    public init(_ database: AppDatabase, now: @escaping @Sendable () -> Date = { Date() }, undoCommand: String? = nil) {
        self.database = database
        self.now = now
        self.undoCommand = undoCommand
    }

    var dbQueue: DatabaseQueue { database.dbQueue }
    var attachments: AttachmentStore? { database.attachmentsDirectory.map(AttachmentStore.init(directory:)) }

    // MARK: Transactions and errors

    /// A write transaction (IMMEDIATE). SQLite's busy handler waits for other processes; the few busy
    /// answers it cannot wait out (WAL recovery, a read lock to upgrade) are retried within the same budget.
    func write<T>(recording: Bool = true, _ body: (Database) throws -> T) throws -> T {
        try refuseWritesWhenDamaged()
        var attempt = 0
        let command = recording ? UndoName.command ?? undoCommand : nil
        while true {
            do {
                return try dbQueue.write { db in
                    let group = try command.map { try UndoLog.open(db, command: $0, at: nowSeconds) }
                    let result = try body(db)
                    try SearchIndex.refresh(db)
                    if let group { try UndoLog.close(db, group: group) }
                    return result
                }
            } catch let e as DatabaseError {
                if (e.resultCode == .SQLITE_BUSY || e.resultCode == .SQLITE_LOCKED) && database.busy.waitOnce(tries: attempt + 20) {
                    attempt += 1
                    continue
                }
                throw map(e)
            }
        }
    }

    /// One deferred read transaction. Not GRDB's `read`, which turns `PRAGMA query_only` on and off around it: a flag
    /// pragma expires every prepared statement of the connection (SQLite's `OP_Expire`), so each read prepared again,
    /// through GRDB's authorizer, every cached statement it ran (issue 44: 2,800 re-prepares for `petlog serve`'s
    /// home page). The store's statements in a read are refused when they would write (`SQLiteExecutor.readOnly`).
    /// With read connections on (`readConcurrently`, the server), the transaction is on a free one of them.
    func read<T>(_ body: (Database) throws -> T) throws -> T {
        func transaction(_ queue: DatabaseQueue) throws -> T {
            try queue.inDatabase { db in
                var result: T?
                try db.inTransaction(.deferred) { result = try body(db); return .commit }
                return result!  // safe: inTransaction returns only after the body set it (a throw leaves by the catch)
            }
        }
        do {
            if let result = try database.readers.with(transaction) { return result }
            return try transaction(dbQueue)
        } catch let e as DatabaseError {
            throw map(e)
        }
    }

    /// Nothing more goes into a file known to be damaged (see `AppDatabase.damageMarker`).
    func refuseWritesWhenDamaged() throws {
        if let damage = database.knownDamage { throw StoreError.damaged(path: database.path ?? "", detail: damage) }
    }

    /// A store error for `e`; corruption met here is confirmed and remembered, so later writes are refused.
    func map(_ e: DatabaseError) -> StoreError {
        let error = Self.map(e, path: database.path ?? ":memory:")
        if case .damaged(_, let detail) = error { database.noteCorruption(detail) }
        return error
    }

    /// `error` as a store error when it is an SQLite error that escaped the repository's own mapping (a
    /// safety net for the CLI, so no raw SQLite text reaches a user); nil for any other error.
    public static func storeError(from error: Error, path: String) -> StoreError? {
        (error as? DatabaseError).map { map($0, path: path) }
    }

    /// The one place SQLite errors become store errors, naming the file they concern.
    static func map(_ e: DatabaseError, path: String) -> StoreError {
        switch e.resultCode {
        case .SQLITE_BUSY, .SQLITE_LOCKED: return .busy
        case .SQLITE_CONSTRAINT: return .constraint(e.message ?? "constraint")
        case .SQLITE_NOTADB: return .notAPetlogDatabase(path: path)
        case .SQLITE_CORRUPT: return .damaged(path: path, detail: e.message ?? "")
        case .SQLITE_FULL: return .file(path: path, .noSpace)
        case .SQLITE_READONLY: return .readOnly(path: path)
        case .SQLITE_PERM, .SQLITE_AUTH: return .file(path: path, .permissionDenied)
        case .SQLITE_IOERR: return .file(path: path, .ioError)
        case .SQLITE_CANTOPEN:
            let dir = (path as NSString).deletingLastPathComponent
            if access(path, R_OK) != 0 && FileSecurity.exists(path) { return .file(path: path, .permissionDenied) }
            if access(dir.isEmpty ? "." : dir, W_OK | X_OK) != 0 { return .file(path: path, .permissionDenied) }
            return .file(path: path, OutputError.Cause(errno: EIO))
        default: return .io(e.message ?? "SQLite \(e.resultCode.rawValue)")
        }
    }

    var nowSeconds: Int64 { now().unixSeconds() }

    // MARK: Transactions for the store

    /// SQLite keeps no writer's role in its records.
    public var rolesWrite: Bool { false }

    /// The store (`Store`, the logic written once for both engines) on this transaction's connection.
    func store(_ db: Database, writing: Bool) -> Store { Store(self, in: SQLiteExecutor(db), writing: writing) }

    public func readTransaction<T>(_ body: (any SQLExecutor) throws -> T) throws -> T { try read { db in try body(SQLiteExecutor(db, readOnly: true)) } }
    public func writeTransaction<T>(recording: Bool, _ body: (any SQLExecutor) throws -> T) throws -> T {
        try write(recording: recording) { db in try body(SQLiteExecutor(db)) }
    }

    /// Files first (content-addressed, so a retry reuses them), removed again if the transaction fails;
    /// after the commit, the files set aside that no record refers to any more move to the quarantine folder.
    public func writeTransaction<T>(storing paths: [String], _ body: (any SQLExecutor, [String: Attachment]) throws -> (result: T, setAside: [String])) throws -> T {
        var stored: [String: Attachment] = [:]
        var created: [URL] = []
        if !paths.isEmpty {
            guard let store = attachments else { throw StoreError.io("no attachment directory") }
            do {
                for path in paths where stored[path] == nil {
                    let (a, c) = try store.store(sourcePath: path, position: 0)
                    stored[path] = a
                    if let c { created.append(c) }
                }
            } catch {
                Self.removeCreated(created)
                throw error
            }
        }
        let written: (result: T, setAside: [String])
        do {
            written = try write { db in try body(SQLiteExecutor(db), stored) }
        } catch {
            Self.removeCreated(created)
            throw error
        }
        if let store = attachments, let path = database.path {
            let aside = written.setAside.map { store.url(for: $0).path }.filter { FileManager.default.fileExists(atPath: $0) }
            if !aside.isEmpty { _ = try AttachmentStore.quarantine(aside.sorted(), root: store.directory, databasePath: path, now: now()) }
        }
        return written.result
    }

    /// The file in the attachments folder, read 1 MiB at a time; not held when nothing is at its path (a
    /// database without a folder holds none). Something there that is not a regular file, or that cannot be
    /// read, is thrown: a problem to name, not a missing photo.
    public func readAttachment(sha256: String, _ body: (Data) throws -> Void) throws -> (held: Bool, name: String) {
        guard let source = attachments?.url(for: sha256).path else { return (false, sha256) }
        guard FileSecurity.exists(source) else { return (false, source) }
        var info = stat()
        guard stat(source, &info) == 0, info.st_mode & S_IFMT == S_IFREG, let input = FileHandle(forReadingAtPath: source) else {
            throw StoreError.attachmentUnreadable(path: source)
        }
        defer { try? input.close() }
        while true {
            let piece: Data
            do { piece = try input.read(upToCount: 1 << 20) ?? Data() } catch { throw StoreError.attachmentUnreadable(path: source) }
            if piece.isEmpty { return (true, source) }
            try body(piece)
        }
    }

    /// The file itself, in the attachments folder (`scratch` is not needed).
    public func readableAttachment(sha256: String, scratch: () throws -> String) -> String? {
        attachments?.url(for: sha256).path
    }

    /// Files stored for a write that did not happen, and their folder when it is left empty.
    static func removeCreated(_ created: [URL]) {
        for url in created {
            try? FileManager.default.removeItem(at: url)
            rmdir(url.deletingLastPathComponent().path)
        }
    }

    /// Indexes the noted rows when more wait than a write brings up to date (`SearchIndex.backlogLimit`: a big
    /// import leaves its text for the first search), in a write of its own that is not recorded for `undo`.
    /// Where that write cannot happen (a read-only file, a damaged one) the search reads those rows from the
    /// tables instead, as it does any noted change: the answer is the same, only slower.
    func catchUpSearchIndex() {
        guard database.knownDamage == nil, ((try? read { db in try SearchIndex.backlog(db) }) ?? 0) > SearchIndex.backlogLimit else { return }
        _ = try? write(recording: false) { db in try SearchIndex.refresh(db, everything: true) }
    }

    /// Pets whose name, breed, colour, microchip or notes contain the text (any case), through `search_index`.
    public func searchPets(_ text: String) throws -> [Pet] {
        catchUpSearchIndex()
        let needle = TextField.nameKey(text)
        var arguments: [String: (any DatabaseValueConvertible)?] = ["q": needle]
        let ids = SearchIndex.matching(sign: -1, arguments: &arguments, folded: needle)
        return try read { db in
            try Row.fetchAll(db, sql: "SELECT \(Store.petColumns) FROM pet WHERE id IN (\(ids)) ORDER BY archived_on IS NOT NULL, name_key, id",
                             arguments: StatementArguments(arguments)).map(Store.pet)
        }
    }

    /// Records whose text contains the query (any case), newest first: an FTS5 trigram lookup in
    /// `search_index` (a scan of its folded text for queries under three characters), plus listed
    /// symptoms and vaccines found by any of their names. An expense's category is matched as written
    /// (its code), never by the category's other words (`껌` does not find every `간식`): a category
    /// search is `search --category`.
    public func searchRecords(_ text: String, limit: Int) throws -> [PetRecord] {
        catchUpSearchIndex()
        let needle = TextField.nameKey(text)
        // A listed symptom or vaccine is found by any of its names (`구토` finds records stored as `vomiting`).
        var arguments: [String: (any DatabaseValueConvertible)?] = ["q": needle]
        func listed(_ table: String, _ column: String, _ codes: [String], _ prefix: String) -> String? {
            guard !codes.isEmpty else { return nil }
            for (i, c) in codes.enumerated() { arguments["\(prefix)\(i)"] = c }
            return "SELECT record_id FROM \(table) WHERE \(column) IN (" + codes.indices.map { ":\(prefix)\($0)" }.joined(separator: ", ") + ")"
        }
        let sources = [SearchIndex.matching(sign: 1, arguments: &arguments, folded: needle)] + [
            listed("symptom", "code", CareNames.shipped.symptomCodes(containing: text), "s"),
            listed("vaccination", "vaccine", CareNames.shipped.vaccineCodes(containing: text), "v"),
        ].compactMap { $0 } + SearchIndex.listedCodes(text) { i, code in arguments["k\(i)"] = code; return ":k\(i)" }.map(\.sql)
        return try read { db in
            let ids = try Int64.fetchAll(db, sql: """
                SELECT r.id FROM record r WHERE r.id IN (\(sources.joined(separator: " UNION "))) ORDER BY r.at DESC, r.id DESC LIMIT \(limit)
                """, arguments: StatementArguments(arguments))
            return try store(db, writing: false).loadRecords(ids: ids)
        }
    }

    /// The series from its packed chunks (`WeightSeriesCache`, schema v9) and the weights after them from
    /// the tables; nil without a cache to read (an older schema opened read-only) or with a chunk that does
    /// not decode. A read-only or damaged file never packs.
    public func packedWeightSeries(pet: Int64, lower: Int64, upper: Int64) throws -> (columns: WeightColumns, packMore: Bool)? {
        let (columns, waiting) = try read { db -> (WeightColumns, Int?) in
            var columns = WeightColumns()
            let waiting = try WeightSeriesCache.read(db, pet: pet, lower: lower, upper: upper, into: &columns)
            return (columns, waiting)
        }
        guard let waiting else { return nil }
        return (columns, waiting >= WeightSeriesCache.chunkPoints && database.knownDamage == nil)
    }

    public func packWeightSeries(pet: Int64) throws {
        _ = try write(recording: false) { db in try WeightSeriesCache.fill(db, pet: pet) }
    }

    /// With the raw statement: a million rows through GRDB's `Row` cost about twice as much.
    public func weightSeriesFromTables(pet: Int64, lower: Int64, upper: Int64, days: DayWindow?) throws -> WeightColumns {
        return try read { db in
            // Whole days are each weight's own local day (`RecordClock`).
            let (dayClauses, dayArgs) = days.map(Store.dayBounds) ?? ([], [])
            let where_ = "r.pet_id = ? AND r.kind = 'weight' AND r.at >= ? AND r.at < ?" + dayClauses.map { " AND " + $0 }.joined()
            let arguments = StatementArguments([pet, lower, upper] + dayArgs)
            // The columns grow as the rows come: counting them first was a second scan of the index
            // range (33 ms of CPU of a million-point chart), growing costs a few copies.
            var columns = WeightColumns()
            let statement = try db.makeStatement(sql: """
                SELECT r.at, w.grams FROM record r JOIN weight w ON w.record_id = r.id
                WHERE \(where_) ORDER BY r.at, r.id
                """)
            try statement.setArguments(arguments)
            let raw = statement.sqliteStatement
            defer { sqlite3_reset(raw) }
            while true {
                let code = sqlite3_step(raw)
                if code == SQLITE_DONE { break }
                guard code == SQLITE_ROW else {
                    throw DatabaseError(resultCode: ResultCode(rawValue: code), message: String(cString: sqlite3_errmsg(db.sqliteConnection)))
                }
                columns.append(at: sqlite3_column_int64(raw, 0), grams: sqlite3_column_int64(raw, 1))
            }
            return columns
        }
    }
}

/// An SQLite error the repository did not map itself reaches the CLI as the store error it means.
extension DatabaseError: EngineError {
    public func storeError(path: String) -> StoreError { SQLiteRepository.map(self, path: path) }
}
