import Foundation
import GRDB
import GRDBSQLite
import PetModel

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
extension SQLiteRepository {
    public func importBatch(_ batch: ImportBatch, progress: ImportProgress?) throws -> ImportSummary {
        var summary = ImportSummary()
        // Attachment files first (content-addressed; removed again if the transaction fails).
        var created: [URL] = []
        do {
            summary.attachmentsAdded = try copyAttachments(batch, created: &created)
            return try writeWithoutForeignKeys { db in try importRows(batch, db: db, summary: summary, progress: progress) }
        } catch {
            created.forEach { try? FileManager.default.removeItem(at: $0) }
            throw error
        }
    }

    /// `write`, with foreign keys unenforced for this connection: the importer only ever uses pet ids it
    /// resolved or inserted and record ids it inserted, and skipping SQLite's parent lookups per row saves
    /// a fifth of a big load. Doses and attachments, whose references come from the file, are checked before commit.
    func writeWithoutForeignKeys<T>(_ body: (Database) throws -> T) throws -> T {
        try refuseWritesWhenDamaged()
        do {
            return try dbQueue.writeWithoutTransaction { db in
                try db.execute(sql: "PRAGMA foreign_keys = OFF")
                defer { try? db.execute(sql: "PRAGMA foreign_keys = ON") }
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

    func copyAttachments(_ batch: ImportBatch, created: inout [URL]) throws -> Int {
        var needed: [String: SourceLocation] = [:]
        for r in batch.records { for a in r.attachments where needed[a.sha256] == nil { needed[a.sha256] = r.location } }
        guard !needed.isEmpty else { return 0 }
        guard let store = attachments else { throw StoreError.io("no attachment directory") }
        var added = 0
        for (sha, location) in needed.sorted(by: { $0.key < $1.key }) {
            if FileManager.default.fileExists(atPath: store.url(for: sha).path) { continue }
            let candidates = batch.attachmentSources.flatMap { [$0.appendingPathComponent(sha), $0.appendingPathComponent(String(sha.prefix(2))).appendingPathComponent(sha)] }
            guard let source = candidates.first(where: { FileManager.default.fileExists(atPath: $0.path) }) else {
                throw ImportError(location: location, problem: .missingAttachment(sha))
            }
            let (a, c) = try store.store(sourcePath: source.path, position: 0)
            if let c { created.append(c) }
            guard a.sha256 == sha else { throw ImportError(location: location, problem: .attachmentHashMismatch(sha)) }
            if c != nil { added += 1 }
        }
        return added
    }

    func importRows(_ batch: ImportBatch, db: Database, summary start: ImportSummary, progress: ImportProgress?) throws -> ImportSummary {
        var summary = start
        // A bulk load is not recorded for `undo`, which then cannot reach past it.
        try UndoLog.clear(db)
        let emptyDatabase = try Int.fetchOne(db, sql: "SELECT (SELECT count(*) FROM pet) + (SELECT count(*) FROM record)") == 0
        if batch.needsEmptyDatabase && !emptyDatabase { throw StoreError.constraint("not empty") }
        let t = nowSeconds

        // Pets.
        var petIds: [Int64] = []
        var preexisting = Set<Int64>()
        for p in batch.pets {
            if let ref = p.existing {
                let pet = try resolve(ref, db: db, activeOnly: true)
                petIds.append(pet.id); preexisting.insert(pet.id); summary.petsMatched += 1
                continue
            }
            let match = try Int64.fetchOne(db, PetRow.select(PetRow.Columns.id)
                .filter(PetRow.Columns.nameKey == TextField.nameKey(p.name) && PetRow.Columns.species == p.species.rawValue
                        && PetRow.Columns.born == p.born?.description)
                .order(PetRow.Columns.archivedOn != nil, PetRow.Columns.id))
            if let id = match, !petIds.contains(id) {
                petIds.append(id); preexisting.insert(id); summary.petsMatched += 1
                continue
            }
            var row = PetRow(id: emptyDatabase ? p.fileId : nil, name: p.name, species: p.species, breed: p.breed, sex: p.sex,
                             neutered: p.neutered, born: p.born, microchip: p.microchip, color: p.color, notes: p.notes,
                             archivedOn: p.archivedOn, archiveReason: p.archiveReason, createdAt: t, updatedAt: t)
            try row.insert(db)
            petIds.append(db.lastInsertedRowID)
            summary.petsAdded += 1
        }

        // What is already there, for the pets that were (new pets have nothing yet).
        var known: [DuplicateKey: Int] = [:]  // how many of each are already there
        var knownMedications: [DuplicateKey: Int64] = [:]
        let householdExpenses = batch.records.contains { $0.pet == nil }
        if !preexisting.isEmpty || householdExpenses {
            try loadDuplicateKeys(pets: preexisting, household: householdExpenses, db: db, into: &known, medications: &knownMedications)
        }

        let total = batch.rowCount
        var done = 0
        let existingRecords = try Int.fetchOne(db, sql: "SELECT count(*) FROM record") ?? 0
        let rebuild = total >= 50_000 && total > existingRecords
        var indexes: [String] = []
        if rebuild {
            // Room to sort the rebuilt indexes on both cores: 32 MiB of cache (128 MiB sorted no faster here and
            // kept a shelter import above 200 MiB).
            try db.execute(sql: "PRAGMA cache_size = -32768")
            try db.execute(sql: "PRAGMA threads = 2")
            indexes = try String.fetchAll(db, sql: "SELECT sql FROM sqlite_master WHERE type = 'index' AND tbl_name = 'record' AND name IN ('record_pet_kind_at', 'record_at', 'record_events_at')")
            for name in ["record_pet_kind_at", "record_at", "record_events_at"] { try db.execute(sql: "DROP INDEX IF EXISTS \(name)") }
        }
        var nextId = (try Int64.fetchOne(db, sql: "SELECT max(id) FROM record") ?? 0) + 1
        let keepIds = emptyDatabase

        // Records of every kind (ids ascending in petlog files, so a medication precedes its doses).
        var idMap: [Int64: Int64] = [:]
        if keepIds, let maxFileId = batch.records.compactMap(\.fileId).max() { nextId = max(nextId, maxFileId + 1) }
        if keepIds, let maxFileId = batch.weights.fileId.max() { nextId = max(nextId, maxFileId + 1) }
        let statements = ImportStatements(db)
        // With the file's ids kept (an empty database), an id was met before exactly when a record has it
        // already: asked of the table for an id not above the largest so far, instead of a set and a map
        // of every id (50 MiB for a shelter).
        var largestKeptId: Int64 = 0
        func fileIdMet(_ f: Int64) throws -> Int64? {
            if keepIds { return try f <= largestKeptId && statements.recordExists(f) ? f : nil }
            return idMap[f]
        }
        func add(_ r: ImportRecord) throws {
            let petId = r.pet.map { petIds[$0] }
            var detail = r.detail
            if case .dose(var d) = detail {
                guard let mapped = try fileIdMet(d.medicationId) else {
                    throw ImportError(location: r.location, problem: .unknownMedication(d.medicationId))
                }
                d.medicationId = mapped
                detail = .dose(d)
            }
            // Nothing to compare with when none of these pets had records (a first import): no keys.
            let key = known.isEmpty ? nil : DuplicateKey(pet: petId ?? 0, at: r.at, detail: detail)
            if let key, let n = known[key], n > 0 {
                known[key] = n - 1
                summary.recordsAlreadyThere += 1
                if case .medication = detail, let fileId = r.fileId { idMap[fileId] = knownMedications[key] }
                return
            }
            var id: Int64
            if keepIds, let f = r.fileId {
                guard try fileIdMet(f) == nil else { throw ImportError(location: r.location, problem: .duplicateId(f)) }
                largestKeptId = max(largestKeptId, f)
                id = f
            } else {
                id = nextId; nextId += 1
            }
            if !keepIds, let f = r.fileId { idMap[f] = id }
            // The shares of a split expense name the first share, which comes first in the file.
            if case .expense(var e) = detail, let head = e.splitOf {
                if head == r.fileId { e.splitOf = id } else {
                    guard let mapped = try fileIdMet(head) else { throw ImportError(location: r.location, problem: .unknownSplit(head)) }
                    e.splitOf = mapped
                }
                detail = .expense(e)
            }
            // Prepared once and rebound (`ImportStatements`), not `RecordRow.insert` (25-40 % slower on 60,000
            // diary records) nor a cached GRDB statement per row: this loop is what a big import is.
            try statements.insertRecord(id: id, petId: petId, kind: detail.kind, at: r.at, utcOffset: r.utcOffset, note: r.note, starred: r.starred, now: t)
            try statements.insertDetail(detail, id: id)
            for a in r.attachments {
                var row = AttachmentRow(a, record: id)
                try row.insert(db)
            }
            if case .medication = detail, let key { knownMedications[key] = id }
            summary.recordsAdded += 1
            done += 1
            if done % 10_000 == 0 { progress?(done, total) }
        }
        // A petlog JSON file's weights go in file order among its other records, through the same steps.
        let w = batch.weights
        var nextWeight = 0
        func addWeights(upTo records: Int) throws {
            try w.forEach(upTo: records, from: &nextWeight) { i in
                try add(ImportRecord(location: w.location(i), fileId: w.fileId[i], pet: Int(w.pet[i]), at: w.at[i],
                                     utcOffset: Int(w.utcOffset[i]), detail: w.detail(i)))
            }
        }
        for (n, r) in batch.records.enumerated() {
            try addWeights(upTo: n)
            try add(r)
        }
        try addWeights(upTo: batch.records.count)

        // Weights, the bulk of any real import.
        if batch.weights.count > 0 && !w.inFileOrder {
            let (added, skipped) = try insertWeights(batch.weights, petIds: petIds, known: known, firstId: nextId, now: t, db: db) { n in
                progress?(done + n, total)
            }
            summary.recordsAdded += added
            summary.recordsAlreadyThere += skipped
            done += batch.weights.count
        }
        for sql in indexes { try db.execute(sql: sql) }
        // The search index: one INSERT … SELECT over everything after a big load (the per-row path would
        // fold and index each record as its triggers noted it), else the rows the triggers noted.
        if rebuild { try SearchIndex.rebuild(db) } else { try SearchIndex.refresh(db) }

        // Budgets (one per scope: a budget already set for the same scope is kept) and rates (a stored
        // rate for the same day and currency is replaced by the file's).
        for b in batch.budgets {
            var first: String?, last: String?
            if case .days(let f, let l) = b.budget.period { first = f.description; last = l.description }
            let petId = b.pet.map { petIds[$0] }
            let exists = try Bool.fetchOne(db, sql: """
                SELECT EXISTS (SELECT 1 FROM budget WHERE coalesce(pet_id, 0) = ? AND coalesce(category, '') = ? AND coalesce(first_day, '') = ? AND coalesce(last_day, '') = ?)
                """, arguments: [petId ?? 0, b.budget.category ?? "", first ?? "", last ?? ""]) ?? false
            if exists { continue }
            try db.execute(sql: """
                INSERT INTO budget (id, pet_id, amount_minor, currency, first_day, last_day, category, per_pet, created_at, updated_at)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                """, arguments: [keepIds ? b.fileId : nil, petId, b.budget.amount.minorUnits, b.budget.amount.currency.code, first, last,
                                 b.budget.category, b.budget.perPet, t, t])
            summary.budgetsAdded += 1
        }
        for r in batch.rates {
            let stored = try String.fetchOne(db, sql: "SELECT rate FROM exchange_rate WHERE currency = ? AND day = ?", arguments: [r.currency, r.day.description])
            if stored == r.rate.description { continue }
            try db.execute(sql: "INSERT OR REPLACE INTO exchange_rate (day, currency, rate) VALUES (?, ?, ?)",
                           arguments: [r.day.description, r.currency, r.rate.description])
            summary.ratesAdded += 1
        }
        // Foreign keys are off for the load (see `writeWithoutForeignKeys`); the tables whose references
        // come from the file are checked here, and any violation rolls everything back.
        for table in ["dose", "attachment"] where try Int.fetchOne(db, sql: "SELECT count(*) FROM pragma_foreign_key_check('\(table)')") ?? 0 > 0 {
            throw StoreError.constraint("foreign key in \(table)")
        }

        progress?(total, total)
        return summary
    }

    /// Raw sqlite3: rows go in blocks of `block` per statement (multi-row VALUES, fewer steps and
    /// resets per row), the rest one by one; statements are prepared once and rebound, values bound as
    /// integers, the constant columns written into the SQL.
    func insertWeights(_ w: ImportWeights, petIds: [Int64], known: [DuplicateKey: Int], firstId: Int64, now t: Int64, db: Database,
                       progress: (Int) -> Void) throws -> (added: Int, skipped: Int) {
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
        let recordValues = "(?, ?, 'weight', ?, ?, NULL, 0, \(t), \(t))"
        let weightSQL = "INSERT INTO weight (record_id, grams, body_condition) VALUES ", weightValues = "(?, ?, ?)"
        let block = 64
        let records = (block: try prepare(block, recordSQL, recordValues), one: try prepare(1, recordSQL, recordValues))
        let weights = (block: try prepare(block, weightSQL, weightValues), one: try prepare(1, weightSQL, weightValues))
        defer { [records.block, records.one, weights.block, weights.one].forEach { sqlite3_finalize($0) } }

        // The rows to write: all of them, less those already there (counted, see `DuplicateKey`).
        var rows: [Int32] = []
        var skipped = 0
        var known = known.filter { $0.key.kind == .weight }
        if known.isEmpty {
            rows = Array(0..<Int32(w.count))
        } else {
            for i in 0..<w.count {
                let key = DuplicateKey(pet: petIds[Int(w.pet[i])], kind: .weight, at: w.at[i], value: String(w.grams[i]))
                if let n = known[key], n > 0 { known[key] = n - 1; skipped += 1 } else { rows.append(Int32(i)) }
            }
        }
        var id = firstId
        var start = 0
        while start < rows.count {
            let n = min(block, rows.count - start)
            let (r, g) = n == block ? (records.block, weights.block) : (records.one, weights.one)
            let count = n == block ? block : 1
            for k in 0..<count {
                let i = Int(rows[start + k]), rowId = id + Int64(k)
                let p = Int32(k * 4), q = Int32(k * 3)
                sqlite3_bind_int64(r, p + 1, rowId)
                sqlite3_bind_int64(r, p + 2, petIds[Int(w.pet[i])])
                sqlite3_bind_int64(r, p + 3, w.at[i])
                sqlite3_bind_int64(r, p + 4, Int64(w.utcOffset[i]))
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
        return (rows.count, skipped)
    }

    func loadDuplicateKeys(pets: Set<Int64>, household: Bool, db: Database, into known: inout [DuplicateKey: Int],
                           medications: inout [DuplicateKey: Int64]) throws {
        var filter: [String] = []
        if !pets.isEmpty { filter.append("r.pet_id IN (\(pets.sorted().map(String.init).joined(separator: ",")))") }
        if household { filter.append("r.pet_id IS NULL") }
        for kind in RecordKind.allCases {
            let sql = "SELECT r.id, coalesce(r.pet_id, 0), r.at, \(DuplicateKey.valueSQL(kind)) FROM record r JOIN \(kind.rawValue) d ON d.record_id = r.id " +
                (kind == .dose ? "JOIN medication m ON m.record_id = d.medication_id " : "") + "WHERE r.kind = '\(kind.rawValue)' AND (\(filter.joined(separator: " OR ")))"
            let rows = try Row.fetchCursor(db, sql: sql)
            while let row = try rows.next() {
                let key = DuplicateKey(pet: row[1], kind: kind, at: row[2], value: row[3] as String? ?? "")
                known[key, default: 0] += 1
                if kind == .medication { medications[key] = row[0] }
            }
        }
    }
}

/// When two records are the same one: pet, kind, instant and the kind's main value.
struct DuplicateKey: Hashable {
    var pet: Int64
    var kind: RecordKind
    var at: Int64
    var value: String

    init(pet: Int64, kind: RecordKind, at: Int64, value: String) {
        self.pet = pet; self.kind = kind; self.at = at; self.value = value
    }

    init(pet: Int64, at: Int64, detail: RecordDetail) {
        let value: String
        switch detail {
        case .weight(let w): value = String(w.mass.grams)
        case .meal(let m): value = m.food + "|" + m.type.rawValue
        case .stool(let s): value = String(s.score)
        case .urine(let u): value = u.amount?.rawValue ?? ""
        case .symptom(let s): value = s.code
        case .diary(let d): value = d.text
        case .visit(let v): value = (v.reason ?? "") + "|" + (v.clinic ?? "")
        case .vaccination(let v): value = v.vaccine
        case .medication(let m): value = m.name
        case .dose(let d): value = String(d.medicationId)
        case .expense(let e): value = "\(e.money.minorUnits)|\(e.money.currency.code)|\(e.category)"
        }
        self.init(pet: pet, kind: detail.kind, at: at, value: value)
    }

    /// The same value in SQL over `d` (the detail row).
    static func valueSQL(_ kind: RecordKind) -> String {
        switch kind {
        case .weight: return "CAST(d.grams AS TEXT)"
        case .meal: return "d.food || '|' || d.type"
        case .stool: return "CAST(d.score AS TEXT)"
        case .urine: return "coalesce(d.amount, '')"
        case .symptom: return "d.code"
        case .diary: return "d.text"
        case .visit: return "coalesce(d.reason, '') || '|' || coalesce(d.clinic, '')"
        case .vaccination: return "d.vaccine"
        case .medication: return "d.name"
        case .dose: return "CAST(d.medication_id AS TEXT)"
        case .expense: return "d.amount_minor || '|' || d.currency || '|' || d.category"
        }
    }
}
