import Foundation
import PetFiles
import PetModel

/// Dated records of every kind (`RecordsRepository`), written once over the engine.
extension Store {
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

    /// The pets are resolved first (a wrong name is said before any file is read), then the files are
    /// stored and the records written.
    public func addRecord(pets named: [PetRef], _ draft: RecordDraft) throws -> [PetRecord] {
        let (items, linkingSplit) = try read { s in try s.items(pets: named, draft) }
        return try write(storing: items.flatMap(\.1.attachmentPaths)) { s, stored in
            (try s.insert(items, linkingSplit: linkingSplit, attachment: stored), [])
        }
    }

    public func addRecords(_ items: [(PetRef?, RecordDraft)]) throws -> [PetRecord] {
        try write(storing: items.flatMap(\.1.attachmentPaths)) { s, stored in (try s.insert(items, linkingSplit: false, attachment: stored), []) }
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
        return try ids.map { try record(id: $0) }
    }

    public func record(id: Int64) throws -> PetRecord {
        try read { s in
            guard let r = try s.loadRecords("WHERE r.id = ?", [id]).first else { throw StoreError.recordNotFound(id) }
            return r
        }
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
        // Built into an array sized once, not grown by `compactMap`: the copies of a growing array of `due`'s 4,470
        // records were 3.6 MB of new pages, each a page fault (issue 44; a record was 444 bytes then).
        var out: [PetRecord] = []
        out.reserveCapacity(rows.count)
        for row in rows {
            guard let id = row[0].int, let detail = details[id] else { continue }
            out.append(PetRecord(id: id, petId: row[1].int, petName: row[9].text,
                                 at: Date(timeIntervalSince1970: Double(row[3].int ?? 0)), utcOffset: Int(row[4].int ?? 0),
                                 note: row[5].text, starred: row[6].int == 1,
                                 createdAt: Date(timeIntervalSince1970: Double(row[7].int ?? 0)),
                                 updatedAt: Date(timeIntervalSince1970: Double(row[8].int ?? 0)),
                                 detail: detail, attachments: files[id] ?? [], writtenBy: row[10].text))
        }
        return out
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
        try read { s in
            var (clause, args) = try s.whereClause(query)
            clause += query.newestFirst ? " ORDER BY r.at DESC, r.id DESC" : " ORDER BY r.at, r.id"
            if let l = query.limit { clause += " LIMIT \(l)" }
            return try s.loadRecords(clause, args)
        }
    }

    public func count(_ query: RecordQuery) throws -> Int {
        try read { s in
            let (clause, args) = try s.whereClause(query)
            return Int(try s.sql.int("SELECT count(*) FROM record r \(clause)", args) ?? 0)
        }
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
        try read { s in
            guard let head = try s.sql.int("SELECT split_of FROM expense WHERE record_id = ?", [recordId]) else { return [] }
            return try s.loadRecords("WHERE r.id IN (SELECT record_id FROM expense WHERE split_of = ?) ORDER BY r.id", [head])
        }
    }

    public func updateRecord(id: Int64, _ change: (PetRecord) throws -> RecordUpdate) throws -> PetRecord {
        try write { s in
            let current = try s.record(id: id)
            let u = try change(current)
            var petId = current.petId
            if let ref = u.pet { petId = try s.resolve(ref, activeOnly: true).id }
            let at = u.at.map { $0.unixSeconds() } ?? current.at.unixSeconds()
            let note: String? = u.note ?? current.note
            let offset = u.utcOffset ?? current.utcOffset
            if u.at != nil || u.detail != nil {
                try RecordDating.check(u.detail ?? current.detail, at: at, utcOffset: offset, now: s.nowSeconds)
            }
            try s.sql.execute("UPDATE record SET pet_id = ?, at = ?, utc_offset = ?, note = ?, updated_at = ? WHERE id = ?",
                            [petId, at, offset, note, s.nowSeconds, id])
            if case .expense(let old) = current.detail, let head = old.splitOf {
                // One purchase split among pets: the time and the expense's terms change for every share;
                // an amount typed here is the new total, split again in the shares' order.
                let shares = try s.splitShares(of: id)
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
                    try RecordDetailTables.delete(kind: .expense, id: share.id, sql: s.sql)
                    try RecordDetailTables.insert(.expense(detail), id: share.id, sql: s.sql)
                    if share.id != id, u.at != nil || u.utcOffset != nil {
                        try s.sql.execute("UPDATE record SET at = ?, utc_offset = ?, updated_at = ? WHERE id = ?", [at, offset, s.nowSeconds, share.id])
                    }
                }
            } else if let d = u.detail {
                guard d.kind == current.kind else { throw StoreError.constraint("kind cannot change") }
                try RecordDetailTables.delete(kind: current.kind, id: id, sql: s.sql)
                try RecordDetailTables.insert(d, id: id, sql: s.sql)
            }
            return try s.record(id: id)
        }
    }

    public func deleteRecord(id: Int64) throws -> PetRecord {
        try write { s in
            let r = try s.record(id: id)
            try s.sql.execute("DELETE FROM record WHERE id = ?", [id])
            // A split expense is one purchase: its other shares go with it.
            if case .expense(let e) = r.detail, let head = e.splitOf {
                try s.sql.execute("DELETE FROM record WHERE id IN (SELECT record_id FROM expense WHERE split_of = ?)", [head])
            }
            // Doses of a deleted course go with it (the dose rows cascade; their headers are removed here).
            try s.sql.execute("DELETE FROM record WHERE kind = 'dose' AND id NOT IN (SELECT record_id FROM dose)", [SQLValue]())
            return r
        }
    }

    public func setStarred(id: Int64, _ starred: Bool) throws -> PetRecord {
        try write { s in
            _ = try s.record(id: id)
            try s.sql.execute("UPDATE record SET starred = ?, updated_at = ? WHERE id = ?", [starred, s.nowSeconds, id])
            return try s.record(id: id)
        }
    }

    /// Each pet's last weight in each of `windows`, all read in one statement: `stats` asks for two months,
    /// and the second seek of a pet finds the pages the first one read (two statements cost a third more, the
    /// pages read twice). `since`/`until` nil: no plain bound on that side beyond the window's own (a window
    /// without a side is bounded by ±9.2e18 there, as it always was).
    public func lastWeights(pets refs: [PetRef], since: Date?, until: Date?, windows: [DayWindow?]) throws -> [[Int64: (name: String, mass: Mass)]] {
        try read { s in
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
                let ids = try refs.map { try s.resolve($0).id }
                filter = " WHERE p.id IN (\(questionMarks(ids.count)))"
                args += ids
            }
            let found = (0..<windows.count).map { "grams\($0) IS NOT NULL" }.joined(separator: " OR ")
            var out = Array(repeating: [Int64: (name: String, mass: Mass)](), count: windows.count)
            for row in try s.sql.rows("""
                SELECT * FROM (SELECT p.id, p.name, \(columns.joined(separator: ", ")) FROM pet p\(filter)) AS last WHERE \(found)
                """, args) {
                guard let id = row[0].int, let name = row[1].text else { continue }
                for i in windows.indices {
                    if let grams = row[2 + i].int { out[i][id] = (name, Mass(grams: Int(grams))) }
                }
            }
            return out
        }
    }

    /// Through the engine's search index.
    public func search(_ text: String, limit: Int) throws -> [PetRecord] { try engine.searchRecords(text, limit: limit) }
    /// From the engine's packed chunks and the weights after them; when whole chunks' worth of weights wait
    /// after the last chunk and the engine may write them (not a read-only or damaged file, not a role that
    /// only reads), they are packed in a write of its own that is not recorded for `undo`, and a failure to
    /// pack leaves the chart as read. Whole days (`days`), and chunks that cannot answer, read the tables.
    public func weightSeries(pet: Int64, since: Date?, until: Date?, days: DayWindow?) throws -> WeightColumns {
        let lower = since.map { $0.unixSeconds(.up) } ?? Int64.min
        let upper = until.map { $0.unixSeconds(.up) } ?? Int64.max
        if days == nil, let packed = try engine.packedWeightSeries(pet: pet, lower: lower, upper: upper) {
            if packed.packMore { try? engine.packWeightSeries(pet: pet) }
            return packed.columns
        }
        return try engine.weightSeriesFromTables(pet: pet, lower: lower, upper: upper, days: days)
    }

    /// A pet's weights as two columns, oldest first, from the tables row by row (each engine reads the same
    /// rows its own faster way, `StoreEngine.weightSeriesFromTables`; its tests compare with this).
    public func weightSeriesByRows(pet: Int64, since: Date?, until: Date?, days: DayWindow?) throws -> WeightColumns {
        try read { s in
            let lower = since.map { $0.unixSeconds(.up) } ?? Int64.min
            let upper = until.map { $0.unixSeconds(.up) } ?? Int64.max
            let (dayClauses, dayArgs) = days.map(Self.dayBounds) ?? ([], [])
            var columns = WeightColumns()
            try s.sql.forEachRow("""
                SELECT r.at, w.grams FROM record r JOIN weight w ON w.record_id = r.id
                WHERE r.pet_id = ? AND r.kind = 'weight' AND r.at >= ? AND r.at < ?\(dayClauses.map { " AND " + $0 }.joined()) ORDER BY r.at, r.id
                """, [pet, lower, upper] + dayArgs.map { $0 as any SQLBindable }) { values in
                columns.append(at: values[0].int ?? 0, grams: values[1].int ?? 0)
            }
            return columns
        }
    }
}
