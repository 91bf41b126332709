import Foundation
import PetFiles
import PetModel

/// The store's logic for pets, records and medication courses, written once over `SQLExecutor`: the
/// SQLite repository runs it inside its IMMEDIATE transactions, the PostgreSQL one inside SERIALIZABLE
/// ones. Every statement here is plain SQL both engines read the same way (`?` placeholders, no
/// engine's own functions); what only one engine has (SQLite's FTS5 search, its raw weight reader, its
/// undo triggers) stays in that engine's repository.
public struct StoreCore {
    public let sql: any SQLExecutor
    /// The clock writes are stamped with.
    public let now: @Sendable () -> Date
    /// PostgreSQL's records name the role that wrote them (`written_by`); a SQLite file has no such column.
    public let rolesWrite: Bool

    public init(_ sql: any SQLExecutor, now: @escaping @Sendable () -> Date, rolesWrite: Bool = false) {
        self.sql = sql
        self.now = now
        self.rolesWrite = rolesWrite
    }

    public var nowSeconds: Int64 { now().unixSeconds() }

    // MARK: Pets

    public static let petColumns = "id, name, name_key, species, breed, sex, neutered, born, microchip, color, notes, archived_on, archive_reason, created_at, updated_at, allergies, conditions, vet_contact, emergency_contacts, insurance"

    /// The pet a row of `pet` describes; a value petlog never writes is thrown as `InvalidStoredValue`, never replaced.
    public static func pet<R: StoredRow>(_ row: R) throws -> Pet {
        let id = row.int64("id") ?? 0
        func parsed<T>(_ column: String, _ parse: (String) -> T?) throws -> T { try row.decode(column, table: "pet", id: id, parse) }
        func optional<T>(_ column: String, _ parse: (String) -> T?) throws -> T? { try row.decodeIfPresent(column, table: "pet", id: id, parse) }
        func seconds(_ column: String) throws -> Date {
            Date(timeIntervalSince1970: Double(try row.required(row.int64(column), column, table: "pet", id: id)))
        }
        return Pet(id: id, name: try row.required(row.text("name"), "name", table: "pet", id: id),
                   species: try parsed("species", Species.init(rawValue:)), breed: row.text("breed"),
                   sex: try parsed("sex", Sex.init(rawValue:)), neutered: try row.required(row.bool("neutered"), "neutered", table: "pet", id: id),
                   born: try optional("born") { try? PartialDate.parse($0) }, microchip: row.text("microchip"),
                   color: row.text("color"), notes: row.text("notes"),
                   archivedOn: try optional("archived_on") { LocalDate.parseISO(Substring($0)) },
                   archiveReason: try optional("archive_reason", ArchiveReason.init(rawValue:)),
                   health: PetHealth(allergies: try optional("allergies") { PetHealth.parseList($0, field: "allergy") } ?? [],
                                     conditions: try optional("conditions") { PetHealth.parseList($0, field: "condition") } ?? [],
                                     vetContact: try optional("vet_contact", PetHealth.parseContact),
                                     emergencyContacts: try optional("emergency_contacts", PetHealth.parseContacts) ?? [],
                                     insurance: try optional("insurance", PetHealth.parseInsurance)),
                   createdAt: try seconds("created_at"), updatedAt: try seconds("updated_at"))
    }

    public func pets(where clause: String, _ arguments: [any SQLBindable]) throws -> [Pet] {
        try sql.rows("SELECT \(Self.petColumns) FROM pet \(clause)", arguments).map(Self.pet)
    }

    /// Finds a pet by id, or by name among active pets first, then archived ones; suggests a close name.
    public func resolve(_ ref: PetRef, activeOnly: Bool = false) throws -> Pet {
        switch ref {
        case .id(let id):
            guard let pet = try pets(where: "WHERE id = ?", [id]).first else {
                throw StoreError.petNotFound(String(id), suggestion: nil)
            }
            if activeOnly && pet.isArchived { throw StoreError.petArchived(pet.name) }
            return pet
        case .name(let name):
            let found = try pets(where: "WHERE name_key = ? ORDER BY archived_on IS NOT NULL, archived_on DESC, id DESC", [TextField.nameKey(name)])
            if let pet = found.first {
                let active = found.filter { !$0.isArchived }
                if active.count > 1 {
                    throw StoreError.ambiguousPetName(name, candidates: active.map { "#\($0.id) \($0.species.rawValue)\($0.born.map { " \($0)" } ?? "")" })
                }
                if activeOnly && pet.isArchived { throw StoreError.petArchived(pet.name) }
                return pet
            }
            let names = try sql.rows("SELECT name FROM pet ORDER BY archived_on IS NOT NULL, id", [SQLValue]()).compactMap { $0[0].text }
            throw StoreError.petNotFound(name, suggestion: NameSuggestion.closest(to: name, among: names))
        }
    }

    /// The active pet whose name folds to the same key as `name`, if any: (id, name).
    func activePet(named name: String) throws -> (id: Int64, name: String)? {
        guard let row = try sql.row("SELECT id, name FROM pet WHERE name_key = ? AND archived_on IS NULL ORDER BY id LIMIT 1", [TextField.nameKey(name)]),
              let id = row[0].int, let n = row[1].text else { return nil }
        return (id, n)
    }

    public func addPet(_ draft: PetDraft) throws -> Pet {
        guard let name = draft.name, let species = draft.species else { throw StoreError.constraint("name and species are required") }
        if let existing = try activePet(named: name) { throw StoreError.duplicatePetName(existing.name) }
        let t = nowSeconds
        let health = try draft.health.applied(to: PetHealth())
        let stored = Self.storedHealth(health)
        let id = try sql.insertReturningId("""
            INSERT INTO pet (name, name_key, species, breed, sex, neutered, born, microchip, color, notes, created_at, updated_at,
                             allergies, conditions, vet_contact, emergency_contacts, insurance)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
            """, [name, TextField.nameKey(name), species.rawValue, draft.breed ?? nil, (draft.sex ?? .unknown).rawValue, draft.neutered ?? false,
                  (draft.born ?? nil)?.description, draft.microchip ?? nil, draft.color ?? nil, draft.notes ?? nil, t, t] + stored)
        return try resolve(.id(id))
    }

    public func pets(includeArchived: Bool) throws -> [Pet] {
        try pets(where: (includeArchived ? "" : "WHERE archived_on IS NULL ") + "ORDER BY archived_on IS NOT NULL, name_key, id", [SQLValue]())
    }

    /// Writes every field of `pet` back.
    func store(_ pet: Pet) throws {
        try sql.execute("""
            UPDATE pet SET name = ?, name_key = ?, species = ?, breed = ?, sex = ?, neutered = ?, born = ?, microchip = ?, color = ?,
                           notes = ?, archived_on = ?, archive_reason = ?, updated_at = ?,
                           allergies = ?, conditions = ?, vet_contact = ?, emergency_contacts = ?, insurance = ? WHERE id = ?
            """, [pet.name, TextField.nameKey(pet.name), pet.species.rawValue, pet.breed, pet.sex.rawValue, pet.neutered, pet.born?.description,
                  pet.microchip, pet.color, pet.notes, pet.archivedOn?.description, pet.archiveReason?.rawValue, nowSeconds] + Self.storedHealth(pet.health) + [pet.id])
    }

    /// The values of the columns `allergies, conditions, vet_contact, emergency_contacts, insurance`.
    static func storedHealth(_ h: PetHealth) -> [any SQLBindable] {
        [PetHealth.storedList(h.allergies), PetHealth.storedList(h.conditions), h.vetContact?.text,
         PetHealth.storedList(h.emergencyContacts.map(\.text)), h.insurance?.text]
    }

    public func editPet(_ ref: PetRef, _ draft: PetDraft) throws -> Pet {
        var pet = try resolve(ref)
        if let n = draft.name {
            if !pet.isArchived, let other = try activePet(named: n), other.id != pet.id { throw StoreError.duplicatePetName(n) }
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
        pet.health = try draft.health.applied(to: pet.health)
        try store(pet)
        return try resolve(.id(pet.id))
    }

    public func archivePet(_ ref: PetRef, reason: ArchiveReason, on day: LocalDate) throws -> Pet {
        let pet = try resolve(ref)
        if pet.isArchived { throw StoreError.petArchived(pet.name) }
        try sql.execute("UPDATE pet SET archived_on = ?, archive_reason = ?, updated_at = ? WHERE id = ?",
                        [day.description, reason.rawValue, nowSeconds, pet.id])
        return try resolve(.id(pet.id))
    }

    public func unarchivePet(_ ref: PetRef) throws -> Pet {
        let pet = try resolve(ref)
        guard pet.isArchived else { throw StoreError.petNotArchived(pet.name) }
        if try activePet(named: pet.name) != nil { throw StoreError.duplicatePetName(pet.name) }
        try sql.execute("UPDATE pet SET archived_on = NULL, archive_reason = NULL, updated_at = ? WHERE id = ?", [nowSeconds, pet.id])
        return try resolve(.id(pet.id))
    }

    /// Deletes the pet and every record of it (the foreign keys cascade); the pet and how many records went.
    public func removePet(_ ref: PetRef) throws -> (Pet, Int) {
        let pet = try resolve(ref)
        let count = try sql.int("SELECT count(*) FROM record WHERE pet_id = ?", [pet.id]) ?? 0
        try sql.execute("DELETE FROM pet WHERE id = ?", [pet.id])
        return (pet, Int(count))
    }

    // MARK: Records

    /// Writes one record (header, detail, attachment rows); its id.
    public func insert(_ draft: RecordDraft, petId: Int64?, attachments: [Attachment]) throws -> Int64 {
        let t = nowSeconds
        try RecordDating.check(draft.detail, at: draft.at.unixSeconds(), utcOffset: draft.utcOffset, now: t)
        let id = try sql.insertReturningId("""
            INSERT INTO record (pet_id, kind, at, utc_offset, note, starred, created_at, updated_at) VALUES (?, ?, ?, ?, ?, 0, ?, ?)
            """, [petId, draft.detail.kind.rawValue, draft.at.unixSeconds(), draft.utcOffset, draft.note, t, t])
        try RecordDetailTables.insert(draft.detail, id: id, sql: sql)
        for a in attachments { try insertAttachmentRow(a, recordId: id) }
        return id
    }

    /// The attachment row of `a` (its position, file hash, name, type and size) on record `recordId`: the one
    /// insert that logging, importing and `edit --receipt/--photo/--attach` share.
    func insertAttachmentRow(_ a: Attachment, recordId: Int64) throws {
        try sql.execute("INSERT INTO attachment (record_id, position, sha256, original_name, media_type, size) VALUES (?, ?, ?, ?, ?, ?)",
                        [recordId, a.position, a.sha256, a.originalName, a.mediaType, a.size])
    }

    /// What adding `draft` for the pets `named` writes: a pet named twice (`Coco,coco`, or by name and by
    /// id) gets one record; an expense for several pets is split among them (`ExpenseSplit`), never copied
    /// to each, and its shares are linked (`linkingSplit`).
    public func items(pets named: [PetRef], _ draft: RecordDraft) throws -> (items: [(PetRef?, RecordDraft)], linkingSplit: Bool) {
        var refs = named
        if named.count > 1 {
            var seen = Set<Int64>()
            refs = try named.map { try resolve($0, activeOnly: true).id }.filter { seen.insert($0).inserted }.map { PetRef.id($0) }
        }
        if refs.count > 1, case .expense(let e) = draft.detail {
            let shares = ExpenseSplit.shares(of: e.money, among: refs.count)
            return (zip(refs, shares).map { ref, share -> (PetRef?, RecordDraft) in
                var d = draft
                var part = e
                part.money = share
                d.detail = .expense(part)
                return (ref, d)
            }, true)
        }
        return (refs.isEmpty ? [(nil, draft)] : refs.map { ($0, draft) }, false)
    }

    /// Writes the drafts (each to its pet, or none), the files already stored by `attachment(path)`;
    /// `linkingSplit`: the records are the shares of one expense and each names the first as `split_of`.
    public func insert(_ items: [(PetRef?, RecordDraft)], linkingSplit: Bool, attachment: (String) throws -> Attachment) throws -> [PetRecord] {
        var ids: [Int64] = []
        for (ref, draft) in items {
            let pet = try ref.map { try resolve($0, activeOnly: true) }
            // The same file given twice (the same path, or another path with the same content) is one
            // photo of the record: the first name given is kept, the positions stay dense.
            var seen = Set<String>()
            let files = try draft.attachmentPaths.map { try attachment($0) }
                .filter { seen.insert($0.sha256).inserted }
                .enumerated().map { i, a -> Attachment in
                    var a = a
                    a.position = i
                    return a
                }
            ids.append(try insert(draft, petId: pet?.id, attachments: files))
        }
        if linkingSplit, let head = ids.first {
            try sql.execute("UPDATE expense SET split_of = ? WHERE record_id IN (\(questionMarks(ids.count)))", [head] + ids)
        }
        return try ids.map { try loadRecord(id: $0) }
    }

    public func loadRecord(id: Int64) throws -> PetRecord {
        guard let r = try loadRecords("WHERE r.id = ?", [id]).first else { throw StoreError.recordNotFound(id) }
        return r
    }

    /// Loads headers matching `clause` (WHERE, ORDER BY, LIMIT over `record r`), then each kind's details and the attachments in batches.
    public func loadRecords(_ clause: String, _ arguments: [any SQLBindable]) throws -> [PetRecord] {
        // Columns by position (0 id, 1 pet_id, 2 kind, 3 at, 4 utc_offset, 5 note, 6 starred, 7 created_at,
        // 8 updated_at, 9 pet_name, 10 written_by).
        let rows = try sql.rows("""
            SELECT r.id, r.pet_id, r.kind, r.at, r.utc_offset, r.note, r.starred, r.created_at, r.updated_at, p.name AS pet_name,
                   \(rolesWrite ? "r.written_by" : "NULL") AS written_by
            FROM record r LEFT JOIN pet p ON p.id = r.pet_id \(clause)
            """, arguments)
        var idsByKind: [RecordKind: [Int64]] = [:]
        var allIds: [Int64] = []
        allIds.reserveCapacity(rows.count)
        for row in rows {
            let id = row[0].int ?? 0
            allIds.append(id)
            idsByKind[try row.decode("kind", table: "record", id: id, RecordKind.init(rawValue:)), default: []].append(id)
        }
        var details: [Int64: RecordDetail] = [:]
        for (kind, ids) in idsByKind {
            let loaded = try RecordDetailTables.load(kind: kind, ids: ids, sql: sql)
            // One kind (`due`'s thousands of vaccinations): the table as it came, not merged entry by entry.
            if details.isEmpty { details = loaded } else { details.merge(loaded) { a, _ in a } }
        }
        var files: [Int64: [Attachment]] = [:]
        if try sql.int("SELECT EXISTS (SELECT 1 FROM attachment)", [SQLValue]()) == 1 {
            for chunk in stride(from: 0, to: allIds.count, by: 500).map({ Array(allIds[$0..<min($0 + 500, allIds.count)]) }) {
                for row in try sql.rows("""
                    SELECT record_id, position, sha256, original_name, media_type, size FROM attachment
                    WHERE record_id IN (\(questionMarks(chunk.count))) ORDER BY position
                    """, chunk) {
                    let id = row.int64("record_id") ?? 0
                    func text(_ c: String) throws -> String { try row.required(row.text(c), c, table: "attachment", id: id) }
                    files[id, default: []].append(Attachment(sha256: try text("sha256"), originalName: try text("original_name"),
                                                             mediaType: try text("media_type"),
                                                             size: try row.required(row.int64("size"), "size", table: "attachment", id: id),
                                                             position: try row.required(row.int("position"), "position", table: "attachment", id: id)))
                }
            }
        }
        return rows.compactMap { row in
            guard let id = row[0].int, let detail = details[id] else { return nil }
            return PetRecord(id: id, petId: row[1].int, petName: row[9].text,
                             at: Date(timeIntervalSince1970: Double(row[3].int ?? 0)), utcOffset: Int(row[4].int ?? 0),
                             note: row[5].text, starred: row[6].int == 1,
                             createdAt: Date(timeIntervalSince1970: Double(row[7].int ?? 0)),
                             updatedAt: Date(timeIntervalSince1970: Double(row[8].int ?? 0)),
                             detail: detail, attachments: files[id] ?? [], writtenBy: row[10].text)
        }
    }

    /// The records `ids` names, in that order (any number: read 500 at a time).
    public func loadRecords(ids: [Int64]) throws -> [PetRecord] {
        var byId: [Int64: PetRecord] = [:]
        for chunk in stride(from: 0, to: ids.count, by: 500).map({ Array(ids[$0..<min($0 + 500, ids.count)]) }) {
            for r in try loadRecords("WHERE r.id IN (\(questionMarks(chunk.count)))", chunk) { byId[r.id] = r }
        }
        return ids.compactMap { byId[$0] }
    }

    public func records(_ query: RecordQuery) throws -> [PetRecord] {
        var (clause, args) = try whereClause(query)
        clause += query.newestFirst ? " ORDER BY r.at DESC, r.id DESC" : " ORDER BY r.at, r.id"
        if let l = query.limit { clause += " LIMIT \(l)" }
        return try loadRecords(clause, args)
    }

    public func count(_ query: RecordQuery) throws -> Int {
        let (clause, args) = try whereClause(query)
        return Int(try sql.int("SELECT count(*) FROM record r \(clause)", args) ?? 0)
    }

    /// The conditions that keep the records of `record r` whose own local day (`RecordClock.day`: the
    /// instant read at its stored offset) lies in `window`. The local start of day L is reached when
    /// `at >= L - utc_offset`, compared so that no stored instant is added to (±2⁶³ stays in range);
    /// the plain bounds widened by the largest offset (18 h) let the index on `at` narrow the scan.
    static func dayClauses(_ window: DayWindow, into clauses: inout [String], _ args: inout [any SQLBindable]) {
        let (sql, values) = dayBounds(window)
        clauses += sql
        args += values.map { $0 as any SQLBindable }
    }

    /// The clauses over `record r` keeping records whose own local day is in `window`, with their
    /// arguments (the plain `at` bound first, so an index on `at` still narrows the scan).
    public static func dayBounds(_ window: DayWindow) -> (clauses: [String], args: [Int64]) {
        var clauses: [String] = []
        var args: [Int64] = []
        if let f = window.first {
            let local = RecordClock.localSeconds(f)
            clauses.append("r.at >= ? AND r.at >= CAST(? AS BIGINT) - r.utc_offset")
            args += [local - 64_800, local]
        }
        if let e = window.end {
            let local = RecordClock.localSeconds(e)
            clauses.append("r.at < ? AND r.at < CAST(? AS BIGINT) - r.utc_offset")
            args += [local + 64_800, local]
        }
        return (clauses, args)
    }

    /// The WHERE clause of a query over `record r` (limit and order aside).
    func whereClause(_ query: RecordQuery) throws -> (String, [any SQLBindable]) {
        var clauses: [String] = []
        var args: [any SQLBindable] = []
        if !query.pets.isEmpty {
            let ids = try query.pets.map { try resolve($0).id }
            clauses.append("r.pet_id IN (\(questionMarks(ids.count)))")
            args += ids
        }
        if !query.kinds.isEmpty {
            clauses.append("r.kind IN (\(questionMarks(query.kinds.count)))")
            args += query.kinds.map(\.rawValue)
            // Lets SQLite use `record_events_at` (every kind but weights) for a span of time.
            if !query.kinds.contains(.weight) { clauses.append("r.kind <> 'weight'") }
        }
        if let s = query.since { clauses.append("r.at >= ?"); args.append(s.unixSeconds(.up)) }
        if let u = query.until { clauses.append("r.at < ?"); args.append(u.unixSeconds(.up)) }
        if let w = query.days { Self.dayClauses(w, into: &clauses, &args) }
        if query.starredOnly { clauses.append("r.starred = 1") }
        return (clauses.isEmpty ? "" : "WHERE " + clauses.joined(separator: " AND "), args)
    }

    /// The shares of the split expense `recordId` belongs to, in order (none when it is not split).
    public func splitShares(of recordId: Int64) throws -> [PetRecord] {
        guard let head = try sql.int("SELECT split_of FROM expense WHERE record_id = ?", [recordId]) else { return [] }
        return try loadRecords("WHERE r.id IN (SELECT record_id FROM expense WHERE split_of = ?) ORDER BY r.id", [head])
    }

    public func updateRecord(id: Int64, _ change: (PetRecord) throws -> RecordUpdate) throws -> PetRecord {
        let current = try loadRecord(id: id)
        let u = try change(current)
        var petId = current.petId
        if let ref = u.pet { petId = try resolve(ref, activeOnly: true).id }
        let at = u.at.map { $0.unixSeconds() } ?? current.at.unixSeconds()
        let note: String? = u.note ?? current.note
        let offset = u.utcOffset ?? current.utcOffset
        if u.at != nil || u.detail != nil {
            try RecordDating.check(u.detail ?? current.detail, at: at, utcOffset: offset, now: nowSeconds)
        }
        try sql.execute("UPDATE record SET pet_id = ?, at = ?, utc_offset = ?, note = ?, updated_at = ? WHERE id = ?",
                        [petId, at, offset, note, nowSeconds, id])
        if case .expense(let old) = current.detail, let head = old.splitOf {
            // One purchase split among pets: the time and the expense's terms change for every share;
            // an amount typed here is the new total, split again in the shares' order.
            let shares = try splitShares(of: id)
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
                try RecordDetailTables.delete(kind: .expense, id: share.id, sql: sql)
                try RecordDetailTables.insert(.expense(detail), id: share.id, sql: sql)
                if share.id != id, u.at != nil || u.utcOffset != nil {
                    try sql.execute("UPDATE record SET at = ?, utc_offset = ?, updated_at = ? WHERE id = ?", [at, offset, nowSeconds, share.id])
                }
            }
        } else if let d = u.detail {
            guard d.kind == current.kind else { throw StoreError.constraint("kind cannot change") }
            try RecordDetailTables.delete(kind: current.kind, id: id, sql: sql)
            try RecordDetailTables.insert(d, id: id, sql: sql)
        }
        return try loadRecord(id: id)
    }

    public func deleteRecord(id: Int64) throws -> PetRecord {
        let r = try loadRecord(id: id)
        try sql.execute("DELETE FROM record WHERE id = ?", [id])
        // A split expense is one purchase: its other shares go with it.
        if case .expense(let e) = r.detail, let head = e.splitOf {
            try sql.execute("DELETE FROM record WHERE id IN (SELECT record_id FROM expense WHERE split_of = ?)", [head])
        }
        // Doses of a deleted course go with it (the dose rows cascade; their headers are removed here).
        try sql.execute("DELETE FROM record WHERE kind = 'dose' AND id NOT IN (SELECT record_id FROM dose)", [SQLValue]())
        return r
    }

    public func setStarred(id: Int64, _ starred: Bool) throws -> PetRecord {
        _ = try loadRecord(id: id)
        try sql.execute("UPDATE record SET starred = ?, updated_at = ? WHERE id = ?", [starred, nowSeconds, id])
        return try loadRecord(id: id)
    }

    /// Each pet's last weight in `[since, until)` whose own local day is in `days` when given (the latest
    /// time, then the highest id), with its name.
    public func lastWeights(pets refs: [PetRef], since: Date, until: Date, days: DayWindow? = nil) throws -> [Int64: (name: String, mass: Mass)] {
        try lastWeights(pets: refs, since: since, until: until, windows: [days])[0]
    }

    /// Each pet's last weight in each of `windows` (days as in `lastWeights(pets:since:until:days:)`), all
    /// read in one statement: `stats` asks for two months, and the second seek of a pet finds the pages
    /// the first one read (two statements cost a third more, the pages read twice).
    public func lastWeights(pets refs: [PetRef], windows: [DayWindow]) throws -> [[Int64: (name: String, mass: Mass)]] {
        try lastWeights(pets: refs, since: nil, until: nil, windows: windows)
    }

    /// `since`/`until` nil: no plain bound on that side beyond the window's own (a window without a side
    /// is bounded by ±9.2e18 there, as it always was).
    func lastWeights(pets refs: [PetRef], since: Date?, until: Date?, windows: [DayWindow?]) throws -> [[Int64: (name: String, mass: Mass)]] {
        guard !windows.isEmpty else { return [] }
        var args: [any SQLBindable] = []
        // One backward seek per pet and window in `record_pet_kind_at`, not a walk over the span's weights.
        // Only the bounds that narrow are written: given `r.at < 9.2e18` beside the window's own upper bound,
        // SQLite's planner took the wide one for the index range and walked back over every later weight
        // of the pet to reach the window (`stats` of November in a file running to December: twice the time).
        let columns = windows.enumerated().map { i, days in
            var clauses: [String] = []
            let lower = since ?? (days?.first == nil ? Date(timeIntervalSince1970: -9.2e18) : nil)
            let upper = until ?? (days?.end == nil ? Date(timeIntervalSince1970: 9.2e18) : nil)
            if let lower { clauses.append("r.at >= ?"); args.append(lower.unixSeconds(.up)) }
            if let upper { clauses.append("r.at < ?"); args.append(upper.unixSeconds(.up)) }
            if let days { Self.dayClauses(days, into: &clauses, &args) }
            return """
                (SELECT w.grams FROM record r JOIN weight w ON w.record_id = r.id
                 WHERE r.pet_id = p.id AND r.kind = 'weight'\(clauses.map { " AND " + $0 }.joined())
                 ORDER BY r.at DESC, r.id DESC LIMIT 1) AS grams\(i)
                """
        }
        var filter = ""
        if !refs.isEmpty {
            let ids = try refs.map { try resolve($0).id }
            filter = " WHERE p.id IN (\(questionMarks(ids.count)))"
            args += ids
        }
        let found = (0..<windows.count).map { "grams\($0) IS NOT NULL" }.joined(separator: " OR ")
        var out = Array(repeating: [Int64: (name: String, mass: Mass)](), count: windows.count)
        for row in try sql.rows("""
            SELECT * FROM (SELECT p.id, p.name, \(columns.joined(separator: ", ")) FROM pet p\(filter)) AS last WHERE \(found)
            """, args) {
            guard let id = row[0].int, let name = row[1].text else { continue }
            for i in windows.indices {
                if let grams = row[2 + i].int { out[i][id] = (name, Mass(grams: Int(grams))) }
            }
        }
        return out
    }

    // MARK: Medications

    public func careRecords(pets ids: [Int64]) throws -> [PetRecord] {
        guard !ids.isEmpty else { return [] }
        let list = questionMarks(ids.count)
        // Kinds that ask for a next session (a grooming's `--next`): their records, of pets that have one.
        let sessionKinds = RecordKindTable.all.compactMap { k in k.nextSession.map { (k.table, $0) } }
        let sessions = sessionKinds.map { table, column in """

              UNION ALL
              SELECT id FROM record WHERE pet_id IN (\(list)) AND kind = '\(table)' AND pet_id IN (
                SELECT f.pet_id FROM \(table) d JOIN record f ON f.id = d.record_id WHERE d.\(column) IS NOT NULL)
            """ }.joined()
        return try loadRecords("""
            WHERE r.id IN (
              SELECT id FROM record WHERE pet_id IN (\(list)) AND kind IN ('vaccination', 'medication', 'dose')
              UNION ALL
              SELECT id FROM record WHERE pet_id IN (\(list)) AND kind = 'visit' AND pet_id IN (
                SELECT f.pet_id FROM visit v JOIN record f ON f.id = v.record_id WHERE v.follow_up IS NOT NULL)\(sessions))
            ORDER BY r.at, r.id
            """, ids + ids + Array(repeating: ids, count: sessionKinds.count).flatMap { $0 })
    }

    /// Courses of the pets; without `includeStopped`, only those running at `activeAt` (default now):
    /// a course stopped or past its `--until` day is finished.
    public func courses(pets refs: [PetRef], includeStopped: Bool, activeAt: Date? = nil) throws -> [MedicationCourse] {
        let context = TimeContext(now: now(), timeZone: .current)
        let moment = activeAt ?? context.now
        var clause = "WHERE r.kind = 'medication'"
        var args: [any SQLBindable] = []
        if !refs.isEmpty {
            let ids = try refs.map { try resolve($0).id }
            clause += " AND r.pet_id IN (\(questionMarks(ids.count)))"
            args += ids
        }
        if !includeStopped { clause += " AND r.id IN (SELECT record_id FROM medication WHERE stopped_at IS NULL)" }
        clause += " ORDER BY p.name_key, r.at"
        return try loadRecords(clause, args).compactMap { r in
            guard case .medication(let m) = r.detail else { return nil }
            if !includeStopped && !CareAgenda.isActive(m, at: moment, context: context) { return nil }
            let row = try sql.row("""
                SELECT count(*) AS n, max(r.at) AS last FROM dose d JOIN record r ON r.id = d.record_id
                WHERE d.medication_id = ? AND d.skipped = 0
                """, [r.id])
            return MedicationCourse(record: r, medication: m, dosesGiven: Int(row?[0].int ?? 0),
                                    lastDose: row?[1].int.map { Date(timeIntervalSince1970: Double($0)) })
        }
    }

    /// The course running at `at` that `name` names: an exact name wins; else a prefix of exactly one
    /// course's name (several: refused with the candidates, never a silent pick).
    func activeCourse(pet: Pet, name: String, at: Date? = nil) throws -> MedicationCourse {
        let key = TextField.nameKey(name)
        let matches = try courses(pets: [.id(pet.id)], includeStopped: false, activeAt: at)
        if let exact = matches.last(where: { TextField.nameKey($0.medication.name) == key }) { return exact }
        let prefixed = matches.filter { TextField.nameKey($0.medication.name).hasPrefix(key) }
        if prefixed.count > 1 {
            throw StoreError.ambiguousMedication(pet: pet.name, name: name, candidates: prefixed.map(\.medication.name))
        }
        if let prefix = prefixed.first { return prefix }
        throw StoreError.medicationNotFound(pet: pet.name, name: name)
    }

    public func giveMedication(pets refs: [PetRef], name: String, at: Date, utcOffset: Int, note: String?, skipped: Bool) throws -> [PetRecord] {
        var ids: [Int64] = []
        for ref in refs {
            let pet = try resolve(ref, activeOnly: true)
            let course = try activeCourse(pet: pet, name: name, at: at)
            let draft = RecordDraft(at: at, utcOffset: utcOffset, note: note,
                                    detail: .dose(Dose(medicationId: course.record.id, medicationName: course.medication.name, skipped: skipped)))
            ids.append(try insert(draft, petId: pet.id, attachments: []))
        }
        return try ids.map { try loadRecord(id: $0) }
    }

    public func stopMedication(pet ref: PetRef, name: String, at: Date) throws -> PetRecord {
        let pet = try resolve(ref)
        let course = try activeCourse(pet: pet, name: name, at: min(at, now()))
        try sql.execute("UPDATE medication SET stopped_at = ? WHERE record_id = ?", [at.unixSeconds(), course.record.id])
        try sql.execute("UPDATE record SET updated_at = ? WHERE id = ?", [nowSeconds, course.record.id])
        return try loadRecord(id: course.record.id)
    }
}

// MARK: Series and exports, for a store without SQLite's raw readers

extension StoreCore {
    /// A pet's weights as two columns, oldest first (the SQLite store reads the same rows with the raw statement).
    public func weightSeries(pet: Int64, since: Date?, until: Date?, days: DayWindow?) throws -> WeightColumns {
        let lower = since.map { $0.unixSeconds(.up) } ?? Int64.min
        let upper = until.map { $0.unixSeconds(.up) } ?? Int64.max
        let (dayClauses, dayArgs) = days.map(Self.dayBounds) ?? ([], [])
        var columns = WeightColumns()
        try sql.forEachRow("""
            SELECT r.at, w.grams FROM record r JOIN weight w ON w.record_id = r.id
            WHERE r.pet_id = ? AND r.kind = 'weight' AND r.at >= ? AND r.at < ?\(dayClauses.map { " AND " + $0 }.joined()) ORDER BY r.at, r.id
            """, [pet, lower, upper] + dayArgs.map { $0 as any SQLBindable }) { values in
            columns.append(at: values[0].int ?? 0, grams: values[1].int ?? 0)
        }
        return columns
    }

    /// Every record in id order, `size` at a time, as `loadRecords` gives them.
    public func forEachRecordBatch(size: Int, _ body: ([PetRecord]) throws -> Void) throws {
        try Self.forEachRecordBatch(size: size, read: { try $0(self) }, body)
    }

    /// The records after `id` in id order, at most `limit`.
    public func records(after id: Int64, limit: Int) throws -> [PetRecord] {
        try loadRecords("WHERE r.id > ? ORDER BY r.id LIMIT \(limit)", [id])
    }

    /// Every record in id order, `size` at a time, each batch read by `read` (a repository's read
    /// transaction per batch, so `body` may use the store again between batches).
    public static func forEachRecordBatch(size: Int, read: ((StoreCore) throws -> [PetRecord]) throws -> [PetRecord],
                                          _ body: ([PetRecord]) throws -> Void) throws {
        var after: Int64 = 0
        while true {
            let batch = try read { try $0.records(after: after, limit: size) }
            guard let last = batch.last else { return }
            try body(batch)
            after = last.id
        }
    }

    /// The household's namespace (32 hex digits, random, made once per database): the FHIR export's
    /// addresses are derived from it. Nil in a database older than the table (read-only, not migrated).
    public func householdNamespace() throws -> String? {
        try sql.rows("SELECT namespace FROM household WHERE id = 1", [SQLValue]()).first?[0].text
    }

    /// The whole JSON export (docs/json.md) from one snapshot; the records written. The same bytes as
    /// the SQLite store's one-pass export of the same data.
    public func exportJSON(to sink: OutputSink) throws -> Int {
        let writer = try PetlogJSONWriter(sink: sink, pets: try pets(includeArchived: true), namespace: try householdNamespace())
        try forEachRecordBatch(size: 2000) { batch in for r in batch { try writer.write(r) } }
        try writer.finish(budgets: try loadBudgets(id: nil), rates: try allRates())
        return writer.recordCount
    }

    /// One table of `CSVExport.tables` as CSV into `sink`; its rows.
    public func writeCSV(_ table: CSVTable, to sink: OutputSink, bom: Bool) throws -> Int {
        var writer = CSVTableWriter(name: table.name, bom: bom)
        var columns: [String]?
        try sql.forEachRow(table.select, [SQLValue](), columns: { columns = $0 }) { values in
            if !writer.started { try writer.start(columns: columns ?? [], to: sink) }
            try writer.row(values, to: sink)
        }
        if !writer.started { try writer.start(columns: try sql.columns(table.select), to: sink) }
        return try writer.finish(to: sink)
    }
}

extension StoreCore {
    /// Every stored value a read would refuse, row by row, decoded by the readers' own code. Tables whose
    /// columns are all numbers or free text (weight, stool, symptom, dose) have nothing to refuse and are skipped.
    public func invalidValues() throws -> [InvalidStoredValue] {
        var found: [InvalidStoredValue] = []
        func collect(_ decode: () throws -> Void) throws {
            do { try decode() } catch let e as InvalidStoredValue { found.append(e) }
        }
        func each(_ text: String, _ body: (SQLRow) throws -> Void) throws {
            var columns: [String] = []
            try sql.forEachRow(text, [SQLValue](), columns: { columns = $0 }) { try body(SQLRow(columns: columns, values: $0)) }
        }
        try each("SELECT \(Self.petColumns) FROM pet ORDER BY id") { row in try collect { _ = try Self.pet(row) } }
        // The CHECK on kinds keeps this empty unless it was bypassed; the filter keeps a million rows cheap.
        let kinds = RecordKindTable.kindList
        try each("SELECT id, kind FROM record WHERE kind NOT IN (\(kinds)) ORDER BY id") { row in
            try collect { _ = try row.decode("kind", table: "record", id: row.int64("id") ?? 0, RecordKind.init(rawValue:)) }
        }
        for kind in RecordKind.allCases where ![.weight, .stool, .symptom, .dose].contains(kind) {
            try each("SELECT * FROM \(kind.rawValue) ORDER BY record_id") { row in try collect { _ = try RecordDetailTables.detail(kind: kind, row: row) } }
        }
        // A split expense: every share names a first share that is an expense naming itself, in the same currency.
        try each("""
            SELECT e.record_id, e.split_of FROM expense e LEFT JOIN expense h ON h.record_id = e.split_of
            WHERE e.split_of IS NOT NULL AND (h.record_id IS NULL OR h.split_of IS NULL OR h.split_of <> h.record_id OR h.currency <> e.currency)
            ORDER BY e.record_id
            """) { row in
            found.append(InvalidStoredValue(table: "expense", id: row.int64("record_id") ?? 0, column: "split_of", value: String(row.int64("split_of") ?? 0)))
        }
        try each("SELECT day, currency, rate FROM exchange_rate ORDER BY currency, day") { row in
            let day = row.text("day") ?? "", rate = row.text("rate") ?? "", currency = row.text("currency") ?? ""
            if LocalDate.parseISO(Substring(day)) == nil || ExactDecimal(rate) == nil || Currency.named(currency) == nil && currency.count != 3 {
                found.append(InvalidStoredValue(table: "exchange_rate", id: 0, column: "rate", text: "\(currency) \(day) \(rate)"))
            }
        }
        try each("SELECT * FROM budget ORDER BY id") { row in
            let id = row.int64("id") ?? 0
            try collect {
                _ = try row.decode("currency", table: "budget", id: id, Currency.named)
                _ = try row.decodeIfPresent("first_day", table: "budget", id: id) { LocalDate.parseISO(Substring($0)) }
                _ = try row.decodeIfPresent("last_day", table: "budget", id: id) { LocalDate.parseISO(Substring($0)) }
            }
            // A name or place as `budget set` takes it: one line, no control characters, not padded.
            for column in ["name", "place"] where !row.isNull(column) {
                try collect {
                    _ = try row.decode(column, table: "budget", id: id) { text in (try? Budget.label(text, field: column)).flatMap { $0 == text ? $0 : nil } }
                }
            }
        }
        return found
    }

    /// Record headers whose kind's detail row is missing ("#12 weight"), in id order.
    public func recordsWithoutDetail() throws -> [StoreProblem.RecordKey] {
        try sql.rows(Self.recordsWithoutDetailSQL, [SQLValue]()).compactMap {
            guard let id = $0[0].int, let kind = $0[1].text.flatMap(RecordKind.init(rawValue:)) else { return nil }
            return StoreProblem.RecordKey(id: id, kind: kind)
        }
    }

    /// One anti-join (`NOT EXISTS`) per known kind, on the detail table's `record_id` key: both engines read
    /// it as a join that needs no memory to be fast (PostgreSQL: a merge or hash anti join; SQLite: one key
    /// lookup a record). The former `id IN (SELECT record_id …)` inside a CASE was a subplan per record,
    /// which PostgreSQL re-scanned for each record once the detail table no longer fit `work_mem` (a check
    /// of 1M weights did not end in 10 minutes). Unknown kinds are not matched here (`invalidValues` names them).
    public static let recordsWithoutDetailSQL = "SELECT id, kind FROM (" + RecordKind.allCases.map {
        "SELECT r.id, r.kind FROM record r WHERE r.kind = '\($0.rawValue)' AND NOT EXISTS (SELECT 1 FROM \($0.rawValue) d WHERE d.record_id = r.id)"
    }.joined(separator: " UNION ALL ") + ") AS orphan ORDER BY id"
}
