import Foundation
import GRDB
import GRDBSQLite
import PetModel

/// The SQLite implementation of the store protocols (`PetlogStore`): one IMMEDIATE transaction per call.
public struct SQLiteRepository: PetlogStore {
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
        let command = recording ? undoCommand : nil
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

    func read<T>(_ body: (Database) throws -> T) throws -> T {
        do {
            return try dbQueue.read { db in try body(db) }
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

    // MARK: Pets

    /// Finds a pet by id, or by name among active pets first, then archived ones; suggests a close name.
    func resolve(_ ref: PetRef, db: Database, activeOnly: Bool = false) throws -> Pet {
        switch ref {
        case .id(let id):
            guard let row = try PetRow.fetchOne(db, key: id) else {
                throw StoreError.petNotFound(String(id), suggestion: nil)
            }
            let pet = try row.pet()
            if activeOnly && pet.isArchived { throw StoreError.petArchived(pet.name) }
            return pet
        case .name(let name):
            let key = TextField.nameKey(name)
            let pets = try PetRow.filter(PetRow.Columns.nameKey == key)
                .order(PetRow.Columns.archivedOn != nil, PetRow.Columns.archivedOn.desc, PetRow.Columns.id.desc)
                .fetchAll(db).map { try $0.pet() }
            if let pet = pets.first {
                let active = pets.filter { !$0.isArchived }
                if active.count > 1 {
                    throw StoreError.ambiguousPetName(name, candidates: active.map { "#\($0.id) \($0.species.rawValue)\($0.born.map { " \($0)" } ?? "")" })
                }
                if activeOnly && pet.isArchived { throw StoreError.petArchived(pet.name) }
                return pet
            }
            let names = try String.fetchAll(db, PetRow.select(PetRow.Columns.name).order(PetRow.Columns.archivedOn != nil, PetRow.Columns.id))
            throw StoreError.petNotFound(name, suggestion: NameSuggestion.closest(to: name, among: names))
        }
    }

    /// The active pets whose name folds to the same key as `name`.
    static func activePets(named name: String) -> QueryInterfaceRequest<PetRow> {
        PetRow.filter(PetRow.Columns.nameKey == TextField.nameKey(name) && PetRow.Columns.archivedOn == nil)
    }

    public func addPet(_ draft: PetDraft) throws -> Pet {
        guard let name = draft.name, let species = draft.species else { throw StoreError.constraint("name and species are required") }
        return try write { db in
            if let existing = try String.fetchOne(db, Self.activePets(named: name).select(PetRow.Columns.name)) {
                throw StoreError.duplicatePetName(existing)
            }
            let t = nowSeconds
            var row = PetRow(name: name, species: species, breed: draft.breed ?? nil, sex: draft.sex ?? .unknown, neutered: draft.neutered ?? false,
                             born: draft.born ?? nil, microchip: draft.microchip ?? nil, color: draft.color ?? nil, notes: draft.notes ?? nil,
                             createdAt: t, updatedAt: t)
            try row.insert(db)
            return try resolve(.id(db.lastInsertedRowID), db: db)
        }
    }

    public func pets(includeArchived: Bool) throws -> [Pet] {
        try read { db in
            let all = includeArchived ? PetRow.all() : PetRow.filter(PetRow.Columns.archivedOn == nil)
            return try all.order(PetRow.Columns.archivedOn != nil, PetRow.Columns.nameKey, PetRow.Columns.id).fetchAll(db).map { try $0.pet() }
        }
    }

    public func pet(_ ref: PetRef) throws -> Pet {
        try read { db in try resolve(ref, db: db) }
    }

    public func editPet(_ ref: PetRef, _ draft: PetDraft) throws -> Pet {
        try write { db in
            var pet = try resolve(ref, db: db)
            if let n = draft.name {
                if !pet.isArchived, let other = try Int64.fetchOne(db, Self.activePets(named: n).select(PetRow.Columns.id)), other != pet.id {
                    throw StoreError.duplicatePetName(n)
                }
                pet.name = n
            }
            if let v = draft.species { pet.species = v }
            if let v = draft.breed { pet.breed = v }
            if let v = draft.sex { pet.sex = v }
            if let v = draft.neutered { pet.neutered = v }
            if let v = draft.born { pet.born = v }
            if let v = draft.microchip { pet.microchip = v }
            if let v = draft.color { pet.color = v }
            if let v = draft.notes { pet.notes = v }
            try PetRow(pet, updatedAt: nowSeconds).update(db)
            return try resolve(.id(pet.id), db: db)
        }
    }

    public func archivePet(_ ref: PetRef, reason: ArchiveReason, on day: LocalDate) throws -> Pet {
        try write { db in
            let pet = try resolve(ref, db: db)
            if pet.isArchived { throw StoreError.petArchived(pet.name) }
            _ = try PetRow.filter(key: pet.id).updateAll(db, PetRow.Columns.archivedOn.set(to: day.description),
                                                         PetRow.Columns.archiveReason.set(to: reason.rawValue),
                                                         PetRow.Columns.updatedAt.set(to: nowSeconds))
            return try resolve(.id(pet.id), db: db)
        }
    }

    public func unarchivePet(_ ref: PetRef) throws -> Pet {
        try write { db in
            let pet = try resolve(ref, db: db)
            guard pet.isArchived else { throw StoreError.petNotArchived(pet.name) }
            if try Self.activePets(named: pet.name).fetchCount(db) > 0 {
                throw StoreError.duplicatePetName(pet.name)
            }
            _ = try PetRow.filter(key: pet.id).updateAll(db, PetRow.Columns.archivedOn.set(to: nil), PetRow.Columns.archiveReason.set(to: nil),
                                                         PetRow.Columns.updatedAt.set(to: nowSeconds))
            return try resolve(.id(pet.id), db: db)
        }
    }

    public func removePet(_ ref: PetRef) throws -> (Pet, Int) {
        try write { db in
            let pet = try resolve(ref, db: db)
            let count = try RecordRow.filter(RecordRow.Columns.petId == pet.id).fetchCount(db)
            _ = try PetRow.deleteOne(db, key: pet.id)
            return (pet, count)
        }
    }

    // MARK: Records

    public func addRecord(pets named: [PetRef], _ draft: RecordDraft) throws -> [PetRecord] {
        // A pet named twice (`Coco,coco`, or by name and by id) gets one record, and one share.
        var refs = named
        if named.count > 1 {
            let ids = try read { db in try named.map { try resolve($0, db: db, activeOnly: true).id } }
            var seen = Set<Int64>()
            refs = ids.filter { seen.insert($0).inserted }.map { PetRef.id($0) }
        }
        // An expense for several pets is split among them (ExpenseSplit), never copied to each.
        if refs.count > 1, case .expense(let e) = draft.detail {
            let shares = ExpenseSplit.shares(of: e.money, among: refs.count)
            let items = zip(refs, shares).map { ref, share -> (PetRef?, RecordDraft) in
                var d = draft
                var part = e
                part.money = share
                d.detail = .expense(part)
                return (ref, d)
            }
            return try addRecords(items, linkingSplit: true)
        }
        return try addRecords(refs.isEmpty ? [(nil, draft)] : refs.map { ($0, draft) })
    }

    public func addRecords(_ items: [(PetRef?, RecordDraft)]) throws -> [PetRecord] {
        try addRecords(items, linkingSplit: false)
    }

    /// `linkingSplit`: the records are the shares of one expense; each names the first as `split_of`.
    func addRecords(_ items: [(PetRef?, RecordDraft)], linkingSplit: Bool) throws -> [PetRecord] {
        // Files first (content-addressed, so a retry reuses them); removed again if the transaction fails.
        var stored: [String: Attachment] = [:]
        var created: [URL] = []
        let paths = items.flatMap(\.1.attachmentPaths)
        if !paths.isEmpty {
            guard let store = attachments else { throw StoreError.io("no attachment directory") }
            do {
                for path in paths where stored[path] == nil {
                    let (a, c) = try store.store(sourcePath: path, position: 0)
                    stored[path] = a
                    if let c { created.append(c) }
                }
            } catch {
                created.forEach { try? FileManager.default.removeItem(at: $0) }
                throw error
            }
        }
        do {
            return try write { db in
                var ids: [Int64] = []
                for (ref, draft) in items {
                    let pet = try ref.map { try resolve($0, db: db, activeOnly: true) }
                    let files = try draft.attachmentPaths.enumerated().map { i, p -> Attachment in
                        // Every path was stored above; a miss would be a bug here, not bad input.
                        guard var a = stored[p] else { throw StoreError.attachmentUnreadable(path: p) }
                        a.position = i
                        return a
                    }
                    ids.append(try insert(draft, petId: pet?.id, attachments: files, db: db))
                }
                if linkingSplit, let head = ids.first {
                    try db.execute(sql: "UPDATE expense SET split_of = ? WHERE record_id IN (\(databaseQuestionMarks(count: ids.count)))",
                                   arguments: StatementArguments([head] + ids))
                }
                return try ids.map { try loadRecord(id: $0, db: db) }
            }
        } catch {
            created.forEach { try? FileManager.default.removeItem(at: $0) }
            throw error
        }
    }

    func insert(_ draft: RecordDraft, petId: Int64?, attachments: [Attachment], db: Database) throws -> Int64 {
        let t = nowSeconds
        try RecordDating.check(draft.detail, at: draft.at.unixSeconds(), utcOffset: draft.utcOffset, now: t)
        var header = RecordRow(petId: petId, kind: draft.detail.kind.rawValue, at: draft.at.unixSeconds(), utcOffset: draft.utcOffset,
                               note: draft.note, starred: false, createdAt: t, updatedAt: t)
        try header.insert(db)
        let id = db.lastInsertedRowID
        try RecordDetailTables.insert(draft.detail, id: id, db: db)
        for a in attachments {
            var row = AttachmentRow(a, record: id)
            try row.insert(db)
        }
        return id
    }

    func loadRecord(id: Int64, db: Database) throws -> PetRecord {
        guard let r = try loadRecords(sql: "WHERE r.id = ?", arguments: [id], db: db).first else { throw StoreError.recordNotFound(id) }
        return r
    }

    /// Loads headers matching `whereClause`, then each kind's details and the attachments in batches.
    func loadRecords(sql whereClause: String, arguments: StatementArguments, db: Database) throws -> [PetRecord] {
        // Columns by position (0 id, 1 pet_id, 2 kind, 3 at, 4 utc_offset, 5 note, 6 starred, 7 created_at,
        // 8 updated_at, 9 pet_name): by name, GRDB compares lowercased names for every value.
        let rows = try Row.fetchAll(db, sql: """
            SELECT r.id, r.pet_id, r.kind, r.at, r.utc_offset, r.note, r.starred, r.created_at, r.updated_at, p.name AS pet_name
            FROM record r LEFT JOIN pet p ON p.id = r.pet_id \(whereClause)
            """, arguments: arguments)
        var idsByKind: [RecordKind: [Int64]] = [:]
        for row in rows {
            let id: Int64 = row[0]
            idsByKind[try row.decode("kind", table: "record", id: id, RecordKind.init(rawValue:)), default: []].append(id)
        }
        var details: [Int64: RecordDetail] = [:]
        for (kind, ids) in idsByKind {
            details.merge(try RecordDetailTables.load(kind: kind, ids: ids, db: db)) { a, _ in a }
        }
        let allIds = rows.map { $0[0] as Int64 }
        var files: [Int64: [Attachment]] = [:]
        if try Int.fetchOne(db, sql: "SELECT EXISTS (SELECT 1 FROM attachment)") == 1 {
            for chunk in stride(from: 0, to: allIds.count, by: 500).map({ Array(allIds[$0..<min($0 + 500, allIds.count)]) }) {
                for a in try AttachmentRow.filter(chunk.contains(AttachmentRow.Columns.recordId)).order(AttachmentRow.Columns.position).fetchAll(db) {
                    files[a.recordId, default: []].append(a.attachment)
                }
            }
        }
        return rows.compactMap { row in
            let id: Int64 = row[0]
            guard let detail = details[id] else { return nil }
            return PetRecord(id: id, petId: row[1], petName: row[9],
                          at: Date(timeIntervalSince1970: Double(row[3] as Int64)), utcOffset: row[4],
                          note: row[5], starred: row[6],
                          createdAt: Date(timeIntervalSince1970: Double(row[7] as Int64)),
                          updatedAt: Date(timeIntervalSince1970: Double(row[8] as Int64)),
                          detail: detail, attachments: files[id] ?? [])
        }
    }

    public func record(id: Int64) throws -> PetRecord {
        try read { db in try loadRecord(id: id, db: db) }
    }

    public func records(_ query: RecordQuery) throws -> [PetRecord] {
        try read { db in
            var (sql, args) = try whereClause(query, db: db)
            sql += query.newestFirst ? " ORDER BY r.at DESC, r.id DESC" : " ORDER BY r.at, r.id"
            if let l = query.limit { sql += " LIMIT \(l)" }
            return try loadRecords(sql: sql, arguments: StatementArguments(args), db: db)
        }
    }

    public func count(_ query: RecordQuery) throws -> Int {
        try read { db in
            let (sql, args) = try whereClause(query, db: db)
            return try Int.fetchOne(db, sql: "SELECT count(*) FROM record r \(sql)", arguments: StatementArguments(args)) ?? 0
        }
    }

    /// The WHERE clause of a query over `record r` (limit and order aside).
    func whereClause(_ query: RecordQuery, db: Database) throws -> (String, [any DatabaseValueConvertible]) {
        var clauses: [String] = []
        var args: [any DatabaseValueConvertible] = []
        if !query.pets.isEmpty {
            let ids = try query.pets.map { try resolve($0, db: db).id }
            clauses.append("r.pet_id IN (\(databaseQuestionMarks(count: ids.count)))")
            args += ids
        }
        if !query.kinds.isEmpty {
            clauses.append("r.kind IN (\(databaseQuestionMarks(count: query.kinds.count)))")
            args += query.kinds.map(\.rawValue)
            // Lets SQLite use `record_events_at` (every kind but weights) for a span of time.
            if !query.kinds.contains(.weight) { clauses.append("r.kind <> 'weight'") }
        }
        if let s = query.since { clauses.append("r.at >= ?"); args.append(s.unixSeconds(.up)) }
        if let u = query.until { clauses.append("r.at < ?"); args.append(u.unixSeconds(.up)) }
        if query.starredOnly { clauses.append("r.starred = 1") }
        return (clauses.isEmpty ? "" : "WHERE " + clauses.joined(separator: " AND "), args)
    }

    public func updateRecord(id: Int64, _ change: (PetRecord) throws -> RecordUpdate) throws -> PetRecord {
        try write { db in
            let current = try loadRecord(id: id, db: db)
            let u = try change(current)
            var petId = current.petId
            if let ref = u.pet { petId = try resolve(ref, db: db, activeOnly: true).id }
            let at = u.at.map { $0.unixSeconds() } ?? current.at.unixSeconds()
            let note: String? = u.note ?? current.note
            if u.at != nil || u.detail != nil {
                try RecordDating.check(u.detail ?? current.detail, at: at, utcOffset: u.utcOffset ?? current.utcOffset, now: nowSeconds)
            }
            _ = try RecordRow.filter(key: id).updateAll(db, RecordRow.Columns.petId.set(to: petId), RecordRow.Columns.at.set(to: at),
                                                        RecordRow.Columns.utcOffset.set(to: u.utcOffset ?? current.utcOffset),
                                                        RecordRow.Columns.note.set(to: note), RecordRow.Columns.updatedAt.set(to: nowSeconds))
            if case .expense(let old) = current.detail, let head = old.splitOf {
                // One purchase split among pets: the time and the expense's terms change for every share;
                // an amount typed here is the new total, split again in the shares' order.
                let shares = try splitShares(of: id, db: db)
                let total = shares.reduce(Int64(0)) { sum, r in
                    if case .expense(let e) = r.detail { return sum.addingSaturated(e.money.minorUnits) }
                    return sum
                }
                var newTotal = Money(minorUnits: total, currency: old.money.currency)
                var terms = old
                if case .expense(let e)? = u.detail {
                    terms = e
                    if e.money != old.money { newTotal = e.money }
                }
                let parts = ExpenseSplit.shares(of: newTotal, among: shares.count)
                for (share, part) in zip(shares, parts) {
                    var detail = terms
                    detail.money = part
                    detail.splitOf = head
                    try RecordDetailTables.delete(kind: .expense, id: share.id, db: db)
                    try RecordDetailTables.insert(.expense(detail), id: share.id, db: db)
                    if share.id != id, u.at != nil || u.utcOffset != nil {
                        _ = try RecordRow.filter(key: share.id).updateAll(db, RecordRow.Columns.at.set(to: at),
                                                                          RecordRow.Columns.utcOffset.set(to: u.utcOffset ?? current.utcOffset),
                                                                          RecordRow.Columns.updatedAt.set(to: nowSeconds))
                    }
                }
            } else if let d = u.detail {
                guard d.kind == current.kind else { throw StoreError.constraint("kind cannot change") }
                try RecordDetailTables.delete(kind: current.kind, id: id, db: db)
                try RecordDetailTables.insert(d, id: id, db: db)
            }
            return try loadRecord(id: id, db: db)
        }
    }

    public func deleteRecord(id: Int64) throws -> PetRecord {
        try write { db in
            let r = try loadRecord(id: id, db: db)
            _ = try RecordRow.deleteOne(db, key: id)
            // A split expense is one purchase: its other shares go with it.
            if case .expense(let e) = r.detail, let head = e.splitOf {
                try db.execute(sql: "DELETE FROM record WHERE id IN (SELECT record_id FROM expense WHERE split_of = ?)", arguments: [head])
            }
            // Doses of a deleted course go with it (the dose rows cascade; their headers are removed here).
            try db.execute(sql: "DELETE FROM record WHERE kind = 'dose' AND id NOT IN (SELECT record_id FROM dose)")
            return r
        }
    }

    /// Every record in id order, a batch at a time (for export: memory stays flat on big files).
    public func forEachRecordBatch(size: Int = 2000, _ body: ([PetRecord]) throws -> Void) throws {
        var after: Int64 = 0
        while true {
            let batch = try read { db in
                try loadRecords(sql: "WHERE r.id > ? ORDER BY r.id LIMIT \(size)", arguments: [after], db: db)
            }
            guard let last = batch.last else { return }
            try body(batch)
            after = last.id
        }
    }

    public func setStarred(id: Int64, _ starred: Bool) throws -> PetRecord {
        try write { db in
            _ = try loadRecord(id: id, db: db)
            _ = try RecordRow.filter(key: id).updateAll(db, RecordRow.Columns.starred.set(to: starred), RecordRow.Columns.updatedAt.set(to: nowSeconds))
            return try loadRecord(id: id, db: db)
        }
    }

    /// Pets whose name, breed, colour, microchip or notes contain the text (any case), through `search_index`.
    public func searchPets(_ text: String) throws -> [Pet] {
        let needle = TextField.nameKey(text)
        var arguments: [String: (any DatabaseValueConvertible)?] = ["q": needle]
        let ids = SearchIndex.matching(sign: -1, arguments: &arguments, folded: needle)
        return try read { db in
            try PetRow.fetchAll(db, sql: "SELECT * FROM pet WHERE id IN (\(ids)) ORDER BY archived_on IS NOT NULL, name_key, id",
                                arguments: StatementArguments(arguments)).map { try $0.pet() }
        }
    }

    /// Records whose text contains the query (any case), newest first: an FTS5 trigram lookup in
    /// `search_index` (a scan of its folded text for queries under three characters), plus listed
    /// symptoms, vaccines and categories found by any of their names.
    public func search(_ text: String, limit: Int) throws -> [PetRecord] {
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
            listed("expense", "category", CareNames.shipped.categoryCodes(containing: text), "c"),
        ].compactMap { $0 }
        return try read { db in
            try loadRecords(sql: "WHERE r.id IN (\(sources.joined(separator: " UNION "))) ORDER BY r.at DESC, r.id DESC LIMIT \(limit)",
                            arguments: StatementArguments(arguments), db: db)
        }
    }

    public func lastWeights(pets refs: [PetRef], since: Date, until: Date) throws -> [Int64: (name: String, mass: Mass)] {
        try read { db in
            var args: [any DatabaseValueConvertible] = [since.unixSeconds(.up), until.unixSeconds(.up)]
            var filter = ""
            if !refs.isEmpty {
                let ids = try refs.map { try resolve($0, db: db).id }
                filter = " WHERE p.id IN (\(databaseQuestionMarks(count: ids.count)))"
                args += ids
            }
            // One backward seek per pet in `record_pet_kind_at`, not a walk over the span's weights.
            var out: [Int64: (name: String, mass: Mass)] = [:]
            for row in try Row.fetchAll(db, sql: """
                SELECT id, name, grams FROM (
                  SELECT p.id, p.name, (SELECT w.grams FROM record r JOIN weight w ON w.record_id = r.id
                                        WHERE r.pet_id = p.id AND r.kind = 'weight' AND r.at >= ?1 AND r.at < ?2
                                        ORDER BY r.at DESC, r.id DESC LIMIT 1) AS grams
                  FROM pet p\(filter)) WHERE grams IS NOT NULL
                """, arguments: StatementArguments(args)) {
                out[row["id"]] = (row["name"], Mass(grams: row["grams"]))
            }
            return out
        }
    }

    /// Reads the series with the raw statement: a million rows through GRDB's `Row` cost about twice
    /// as much, and this is the hot path of `chart weight` and the report.
    public func weightSeries(pet: Int64, since: Date?, until: Date?) throws -> WeightColumns {
        try read { db in
            let lower = since.map { $0.unixSeconds(.up) } ?? Int64.min
            let upper = until.map { $0.unixSeconds(.up) } ?? Int64.max
            let n = try Int.fetchOne(db, sql: "SELECT count(*) FROM record WHERE pet_id = ? AND kind = 'weight' AND at >= ? AND at < ?",
                                     arguments: [pet, lower, upper]) ?? 0
            var columns = WeightColumns()
            columns.times.reserveCapacity(n)
            columns.grams.reserveCapacity(n)
            let statement = try db.makeStatement(sql: """
                SELECT r.at, w.grams FROM record r JOIN weight w ON w.record_id = r.id
                WHERE r.pet_id = ? AND r.kind = 'weight' AND r.at >= ? AND r.at < ? ORDER BY r.at, r.id
                """)
            try statement.setArguments([pet, lower, upper])
            let raw = statement.sqliteStatement
            defer { sqlite3_reset(raw) }
            while true {
                let code = sqlite3_step(raw)
                if code == SQLITE_DONE { break }
                guard code == SQLITE_ROW else {
                    throw DatabaseError(resultCode: ResultCode(rawValue: code), message: String(cString: sqlite3_errmsg(db.sqliteConnection)))
                }
                columns.times.append(Double(sqlite3_column_int64(raw, 0)))
                columns.grams.append(Double(sqlite3_column_int64(raw, 1)))
            }
            return columns
        }
    }

    // MARK: Medications

    public func careRecords(pets ids: [Int64]) throws -> [PetRecord] {
        guard !ids.isEmpty else { return [] }
        return try read { db in
            let list = databaseQuestionMarks(count: ids.count)
            return try loadRecords(sql: """
                WHERE r.id IN (
                  SELECT id FROM record WHERE pet_id IN (\(list)) AND kind IN ('vaccination', 'medication', 'dose')
                  UNION ALL
                  SELECT id FROM record WHERE pet_id IN (\(list)) AND kind = 'visit' AND pet_id IN (
                    SELECT f.pet_id FROM visit v JOIN record f ON f.id = v.record_id WHERE v.follow_up IS NOT NULL))
                ORDER BY r.at, r.id
                """, arguments: StatementArguments(ids + ids), db: db)
        }
    }

    public func medications(pets refs: [PetRef], includeStopped: Bool) throws -> [MedicationCourse] {
        try read { db in try courses(pets: refs, includeStopped: includeStopped, db: db) }
    }

    /// Courses of the pets; without `includeStopped`, only those running at `activeAt` (default now):
    /// a course stopped or past its `--until` day is finished.
    func courses(pets refs: [PetRef], includeStopped: Bool, activeAt: Date? = nil, db: Database) throws -> [MedicationCourse] {
        let context = TimeContext(now: now(), timeZone: .current)
        let moment = activeAt ?? context.now
        var sql = "WHERE r.kind = 'medication'"
        var args: [any DatabaseValueConvertible] = []
        if !refs.isEmpty {
            let ids = try refs.map { try resolve($0, db: db).id }
            sql += " AND r.pet_id IN (\(databaseQuestionMarks(count: ids.count)))"
            args += ids
        }
        if !includeStopped { sql += " AND r.id IN (SELECT record_id FROM medication WHERE stopped_at IS NULL)" }
        sql += " ORDER BY p.name_key, r.at"
        return try loadRecords(sql: sql, arguments: StatementArguments(args), db: db).compactMap { r in
            guard case .medication(let m) = r.detail else { return nil }
            if !includeStopped && !CareAgenda.isActive(m, at: moment, context: context) { return nil }
            let row = try Row.fetchOne(db, sql: """
                SELECT count(*) AS n, max(r.at) AS last FROM dose d JOIN record r ON r.id = d.record_id
                WHERE d.medication_id = ? AND d.skipped = 0
                """, arguments: [r.id])
            return MedicationCourse(record: r, medication: m, dosesGiven: row?["n"] ?? 0,
                                    lastDose: (row?["last"] as Int64?).map { Date(timeIntervalSince1970: Double($0)) })
        }
    }

    /// The course running at `at` that `name` names: an exact name wins; else a prefix of exactly one
    /// course's name (several: refused with the candidates, never a silent pick).
    func activeCourse(pet: Pet, name: String, at: Date? = nil, db: Database) throws -> MedicationCourse {
        let key = TextField.nameKey(name)
        let matches = try courses(pets: [.id(pet.id)], includeStopped: false, activeAt: at, db: db)
        if let exact = matches.last(where: { TextField.nameKey($0.medication.name) == key }) { return exact }
        let prefixed = matches.filter { TextField.nameKey($0.medication.name).hasPrefix(key) }
        if prefixed.count > 1 {
            throw StoreError.ambiguousMedication(pet: pet.name, name: name, candidates: prefixed.map(\.medication.name))
        }
        if let prefix = prefixed.first { return prefix }
        throw StoreError.medicationNotFound(pet: pet.name, name: name)
    }

    public func giveMedication(pets refs: [PetRef], name: String, at: Date, utcOffset: Int, note: String?, skipped: Bool) throws -> [PetRecord] {
        try write { db in
            var ids: [Int64] = []
            for ref in refs {
                let pet = try resolve(ref, db: db, activeOnly: true)
                let course = try activeCourse(pet: pet, name: name, at: at, db: db)
                let draft = RecordDraft(at: at, utcOffset: utcOffset, note: note,
                                        detail: .dose(Dose(medicationId: course.record.id, medicationName: course.medication.name, skipped: skipped)))
                ids.append(try insert(draft, petId: pet.id, attachments: [], db: db))
            }
            return try ids.map { try loadRecord(id: $0, db: db) }
        }
    }

    public func stopMedication(pet ref: PetRef, name: String, at: Date) throws -> PetRecord {
        try write { db in
            let pet = try resolve(ref, db: db)
            let course = try activeCourse(pet: pet, name: name, at: min(at, now()), db: db)
            try db.execute(sql: "UPDATE medication SET stopped_at = ? WHERE record_id = ?",
                           arguments: [at.unixSeconds(), course.record.id])
            _ = try RecordRow.filter(key: course.record.id).updateAll(db, RecordRow.Columns.updatedAt.set(to: nowSeconds))
            return try loadRecord(id: course.record.id, db: db)
        }
    }
}
