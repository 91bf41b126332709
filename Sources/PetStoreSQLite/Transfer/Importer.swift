import Foundation
import GRDB
import GRDBSQLite
import PetModel
import PetStoreCore

/// Writes an `ImportBatch` in one IMMEDIATE transaction: all of it or nothing.
///
/// - Pets: `existing` refs resolve to active pets; others match a pet with the same name, species and
///   birth date (archived ones too), else are added.
/// - Records already there are skipped, so importing a file twice adds nothing: same pet, kind, instant
///   and main value (grams, food, score, code, text, vaccine, medication, amount…; `DuplicateKey`),
///   counted, so a file's two identical rows stay two and a second import of it adds neither.
/// - Into an empty database the file's ids are kept (so export → import → export is byte-identical);
///   otherwise records get new ids and doses follow their medication's new id.
/// - Weights go through reused prepared statements with raw bound values; for a big load into a
///   smaller database the record indexes are dropped and rebuilt once (a sort instead of random inserts).
/// - A big load into a file that holds no record runs in a rollback journal, not the WAL
///   (`writeWithoutForeignKeys(loading:)`): each new page is written once instead of twice.
extension SQLiteRepository {
    /// The batch is consumed (see `StoreCore.importRows`): handed down without a copy, its records and
    /// weights are released before the record indexes are rebuilt.
    public func importBatch(_ batch: consuming ImportBatch, progress: ImportProgress?) throws -> ImportSummary {
        var summary = ImportSummary()
        // Attachment files first (content-addressed; removed again if the transaction fails).
        var created: [URL] = []
        do {
            (summary.attachmentsAdded, summary.attachmentsMissing) = try copyAttachments(batch, created: &created)
            let rows = batch.rowCount
            // The closure cannot consume a captured value: it takes it out of this slot instead.
            var handed = Optional(consume batch)
            return try writeWithoutForeignKeys(loading: rows) { db in
                guard let batch = handed.take() else { throw StoreError.io("the import batch was already written") }
                return try importRows(consume batch, db: db, summary: summary, progress: progress)
            }
        } catch {
            created.forEach { try? FileManager.default.removeItem(at: $0) }
            throw error
        }
    }

    /// `write`, with foreign keys unenforced for this connection: the importer only ever uses pet ids it
    /// resolved or inserted and record ids it inserted, and skipping SQLite's parent lookups per row saves
    /// a fifth of a big load. Doses and attachments, whose references come from the file, are checked before commit.
    ///
    /// `rows` is how many rows the write brings: a big load (`Store.bulkLoadMinimum` rows or more) into
    /// a file that holds no record yet runs in a rollback journal (`firstLoadJournal`).
    func writeWithoutForeignKeys<T>(loading rows: Int = 0, _ body: (Database) throws -> T) throws -> T {
        try refuseWritesWhenDamaged()
        do {
            return try dbQueue.writeWithoutTransaction { db in
                try db.execute(sql: "PRAGMA foreign_keys = OFF")
                defer { try? db.execute(sql: "PRAGMA foreign_keys = ON") }
                let journaled = try rows >= StoreCore.bulkLoadMinimum && firstLoadJournal(db)
                defer { if journaled { returnToWAL(db) } }
                var result: T?
                try db.inTransaction(.immediate) {
                    result = try body(db)
                    return .commit
                }
                guard let result else { throw StoreError.io("the import transaction ended without a result") }
                return result
            }
        } catch let e as DatabaseError {
            throw map(e)
        }
    }

    /// Puts a file that holds no record in rollback-journal mode for its first big load; whether it did.
    ///
    /// In WAL mode every page of a load is written twice: into the WAL at commit, then into the file at the
    /// checkpoint. A rollback journal keeps only the pages that existed when the transaction began — in a file
    /// without records, the schema's few dozen — and SQLite cuts the file back to its old size when it rolls
    /// back, so the load's pages are written once and a kill or a failure at any moment still leaves the file
    /// as it was (the next open rolls the journal back: the file without records, as before the import).
    ///
    /// SQLite leaves WAL mode only for a connection that has the file to itself: when another process has it
    /// open (a reader, a waiting writer) the change is refused at once and the load stays in the WAL, as any
    /// other write. While the load runs in the journal, another petlog that opens the file waits for it as
    /// for any writer (its open asks for WAL mode again, which needs the write lock), within its usual budget.
    func firstLoadJournal(_ db: Database) throws -> Bool {
        guard database.path != nil, try Bool.fetchOne(db, sql: "SELECT NOT EXISTS (SELECT 1 FROM record)") == true else { return false }
        do {
            return try String.fetchOne(db, sql: "PRAGMA journal_mode = DELETE") == "delete"
        } catch let e as DatabaseError where e.resultCode == .SQLITE_BUSY || e.resultCode == .SQLITE_LOCKED {
            return false
        }
    }

    /// Back to WAL mode after a load in a rollback journal, committed or not (waiting, as any open does, for
    /// another process that holds the write lock meanwhile). Should that fail (the lock kept past the wait's
    /// budget), the file is still whole and the next petlog that opens it puts it back in WAL mode
    /// (`AppDatabase.prepareFile`), so a committed import is not failed for it.
    func returnToWAL(_ db: Database) {
        try? database.enterWAL(db)
    }

    /// The files the batch's records name, copied in from its attachment folders; how many were added,
    /// and how many were in neither place (their rows go in all the same unless `attachmentsRequired`).
    func copyAttachments(_ batch: ImportBatch, created: inout [URL]) throws -> (added: Int, missing: Int) {
        let folder = attachments
        func files() throws -> AttachmentStore {
            guard let folder else { throw StoreError.io("no attachment directory") }
            return folder
        }
        var made: [URL] = []
        defer { created += made }
        return try Store.importAttachments(batch, holds: { FileManager.default.fileExists(atPath: try files().url(for: $0).path) }) { path in
            let (a, c) = try files().store(sourcePath: path, position: 0)
            if let c { made.append(c) }
            return (a.sha256, c != nil)
        }
    }

    func importRows(_ batch: consuming ImportBatch, db: Database, summary start: ImportSummary, progress: ImportProgress?) throws -> ImportSummary {
        try store(db, writing: true).importRows(consume batch, writer: SQLiteImportWriter(repository: self, db: db), summary: start, progress: progress)
    }

    /// Raw sqlite3: rows go in blocks of `block` per statement (multi-row VALUES, fewer steps and
    /// resets per row), the rest one by one; statements are prepared once and rebound, values bound as
    /// integers, the constant columns written into the SQL.
    func insertWeights(_ w: ImportWeights, rows: [Int32], petIds: [Int64], firstId: Int64, now t: Int64, db: Database,
                       progress: (Int) -> Void) throws {
        let connection = db.sqliteConnection
        func check(_ rc: Int32) throws {
            if rc != SQLITE_OK && rc != SQLITE_DONE {
                throw DatabaseError(resultCode: ResultCode(rawValue: rc), message: String(cString: sqlite3_errmsg(connection)))
            }
        }
        func prepare(_ rows: Int, _ sql: String, _ values: String) throws -> OpaquePointer? {
            var stmt: OpaquePointer?
            try check(sqlite3_prepare_v2(connection, sql + Array(repeating: values, count: rows).joined(separator: ","), -1, &stmt, nil))
            return stmt
        }
        let recordSQL = "INSERT INTO record (id, pet_id, kind, at, utc_offset, note, starred, created_at, updated_at) VALUES "
        // A petlog file's weights say when each was written (bound per row); a spreadsheet's are written now.
        let timed = !w.createdAt.isEmpty
        let recordValues = timed ? "(?, ?, 'weight', ?, ?, NULL, 0, ?, ?)" : "(?, ?, 'weight', ?, ?, NULL, 0, \(t), \(t))"
        let perRecord: Int32 = timed ? 6 : 4
        let weightSQL = "INSERT INTO weight (record_id, grams, body_condition) VALUES ", weightValues = "(?, ?, ?)"
        let block = 64
        let records = (block: try prepare(block, recordSQL, recordValues), one: try prepare(1, recordSQL, recordValues))
        let weights = (block: try prepare(block, weightSQL, weightValues), one: try prepare(1, weightSQL, weightValues))
        defer { [records.block, records.one, weights.block, weights.one].forEach { sqlite3_finalize($0) } }

        var id = firstId
        var start = 0
        while start < rows.count {
            let n = min(block, rows.count - start)
            let (r, g) = n == block ? (records.block, weights.block) : (records.one, weights.one)
            let count = n == block ? block : 1
            for k in 0..<count {
                let i = Int(rows[start + k]), rowId = id + Int64(k)
                let p = Int32(k) * perRecord, q = Int32(k * 3)
                sqlite3_bind_int64(r, p + 1, rowId)
                sqlite3_bind_int64(r, p + 2, petIds[Int(w.pet[i])])
                sqlite3_bind_int64(r, p + 3, w.at[i])
                sqlite3_bind_int64(r, p + 4, Int64(w.utcOffset[i]))
                if timed {
                    let written = w.written(i, now: t)
                    sqlite3_bind_int64(r, p + 5, written.created)
                    sqlite3_bind_int64(r, p + 6, written.updated)
                }
                sqlite3_bind_int64(g, q + 1, rowId)
                sqlite3_bind_int64(g, q + 2, Int64(w.grams[i]))
                if w.bodyCondition[i] > 0 { sqlite3_bind_int64(g, q + 3, Int64(w.bodyCondition[i])) } else { sqlite3_bind_null(g, q + 3) }
            }
            try check(sqlite3_step(r))
            sqlite3_reset(r)
            try check(sqlite3_step(g))
            sqlite3_reset(g)
            id += Int64(count)
            start += count
            if start % (block * 320) < count { progress(start) }
        }
    }
}

/// The SQLite side of an import (`ImportWriter`): prepared statements rebound per row
/// (`ImportStatements`), weights in raw blocks, and for a big load the record indexes dropped and
/// rebuilt once (a sort instead of random inserts) with the search index made in one statement.
final class SQLiteImportWriter: ImportWriter {
    let repository: SQLiteRepository
    let db: Database
    let statements: ImportStatements
    var indexes: [String] = []

    init(repository: SQLiteRepository, db: Database) {
        self.repository = repository
        self.db = db
        statements = ImportStatements(db)
    }

    func clearUndo() throws { try UndoLog.clear(db) }

    func begin(bulk: Bool) throws {
        guard bulk else { return }
        // 128 MiB of cache for the load: the pages it writes stay in memory until the commit instead of
        // spilling into the WAL and being read back, and the two index sorts below run in memory instead
        // of through temporary files (the pets + weights import: 1.82 s CPU with 32 MiB, 1.57 s with 128).
        // The batch's rows are let go before the indexes are built (`StoreCore.importRows` consumes it),
        // so the JSON import of a shelter peaks at 167 MiB with it (docs/benchmarks.md, round 3).
        try db.execute(sql: "PRAGMA cache_size = -131072")
        try db.execute(sql: "PRAGMA threads = 2")
        // `record_events_at` stays: it holds no weight, the bulk of any big load, and keeping up its few other
        // rows costs less than the scan of the whole table that building it again would.
        let dropped = ["record_pet_kind_at", "record_at"]
        indexes = try String.fetchAll(db, sql: "SELECT sql FROM sqlite_master WHERE type = 'index' AND tbl_name = 'record' AND name IN ('record_pet_kind_at', 'record_at')")
        for name in dropped { try db.execute(sql: "DROP INDEX IF EXISTS \(name)") }
    }

    // Prepared once and rebound (`ImportStatements`), not `RecordRow.insert` (25-40 % slower on 60,000
    // diary records) nor a cached GRDB statement per row: this is what a big import is.
    func insertRecord(id: Int64, petId: Int64?, kind: RecordKind, at: Int64, utcOffset: Int, note: String?, starred: Bool, created: Int64, updated: Int64) throws {
        try statements.insertRecord(id: id, petId: petId, kind: kind, at: at, utcOffset: utcOffset, note: note, starred: starred, created: created, updated: updated)
    }

    func insertDetail(_ detail: RecordDetail, id: Int64) throws { try statements.insertDetail(detail, id: id) }

    func recordExists(_ id: Int64) throws -> Bool { try statements.recordExists(id) }

    /// The insert triggers of `record` and `weight` do nothing for these rows — the undo ones only act while a
    /// command is recorded (an import never is: `undo_active` is empty), the search one only for a record with a
    /// note (a plain weight has none) — yet SQLite runs each as a sub-program per row: a sixth of a big weight
    /// load. So for many rows they are dropped and made again from their own SQL, in the import's transaction.
    /// `series_weight_insert` drops a pet's packed chunks from a new weight's place on (`WeightSeriesCache`):
    /// with it dropped, the chunks of the pets the load brings weights to are dropped here instead, once.
    static let quietTriggers = ["undo_record_insert", "undo_weight_insert", "search_record_insert", "series_weight_insert"]

    func insertWeights(_ w: ImportWeights, rows: [Int32], petIds: [Int64], firstId: Int64, now: Int64, progress: (Int) -> Void) throws {
        var triggers: [String] = []
        if rows.count >= 10_000, try Bool.fetchOne(db, sql: "SELECT EXISTS (SELECT 1 FROM undo_active)") == false {
            let names = Self.quietTriggers.map { "'\($0)'" }.joined(separator: ", ")
            triggers = try String.fetchAll(db, sql: "SELECT sql FROM sqlite_master WHERE type = 'trigger' AND name IN (\(names)) ORDER BY name")
            for name in Self.quietTriggers { try db.execute(sql: "DROP TRIGGER IF EXISTS \(name)") }
            if try db.tableExists("weight_chunk"), try Bool.fetchOne(db, sql: "SELECT EXISTS (SELECT 1 FROM weight_chunk)") == true {
                var pets = Set<Int64>()
                for row in rows { pets.insert(petIds[Int(w.pet[Int(row)])]) }
                for pet in pets { try db.execute(sql: "DELETE FROM weight_chunk WHERE pet_id = ?", arguments: [pet]) }
            }
        }
        try repository.insertWeights(w, rows: rows, petIds: petIds, firstId: firstId, now: now, db: db, progress: progress)
        for sql in triggers { try db.execute(sql: sql) }
    }

    func finishRecords(bulk: Bool) throws {
        for sql in indexes { try db.execute(sql: sql) }
        // The search index: the rows the triggers noted. A big load's text (more than `backlogLimit` rows)
        // is left noted and indexed by the next `search`, which reads it from the tables until then.
        try SearchIndex.refresh(db)
    }

    func finish() throws {
        // Foreign keys are off for the load (see `writeWithoutForeignKeys`); the tables whose references
        // come from the file are checked here, and any violation rolls everything back.
        for table in ["dose", "attachment"] where try Int.fetchOne(db, sql: "SELECT count(*) FROM pragma_foreign_key_check('\(table)')") ?? 0 > 0 {
            throw StoreError.constraint("foreign key in \(table)")
        }
    }
}
