import Foundation
import PetModel

/// What an import writes the engine's own way: SQLite's prepared statements and raw weight blocks,
/// PostgreSQL's multi-row statements. The matching (pets, records already there, ids, doses and split
/// expenses) is `StoreCore.importRows`, once for both.
public protocol ImportWriter {
    /// Before the records: `bulk` when the load is big against what is there (SQLite drops and later
    /// rebuilds the record indexes).
    func begin(bulk: Bool) throws
    /// `created`, `updated`: when the record was first written and last changed (the file's, else the import's time).
    func insertRecord(id: Int64, petId: Int64?, kind: RecordKind, at: Int64, utcOffset: Int, note: String?, starred: Bool, created: Int64, updated: Int64) throws
    func insertDetail(_ detail: RecordDetail, id: Int64) throws
    /// A record with this id is already stored.
    func recordExists(_ id: Int64) throws -> Bool
    /// The rows `rows` of a spreadsheet's weights as records `firstId`, `firstId + 1` … (written at `now`
    /// unless `ImportWeights.written` says otherwise).
    func insertWeights(_ w: ImportWeights, rows: [Int32], petIds: [Int64], firstId: Int64, now: Int64, progress: (Int) -> Void) throws
    /// After the records and before the budgets: indexes back, the search text made, references checked.
    func finishRecords(bulk: Bool) throws
    /// At the very end: anything the engine needs once the rows are in (PostgreSQL's id sequences).
    func finish() throws
    /// A bulk load is not recorded for `undo`, which then cannot reach past it.
    func clearUndo() throws
}

extension StoreCore {
    /// The rows from which an import is a big load (`ImportWriter.begin(bulk:)`, and on SQLite the rollback
    /// journal of a first load into an empty file).
    public static let bulkLoadMinimum = 50_000

    /// Writes an `ImportBatch` (in the caller's transaction: all of it or nothing).
    ///
    /// - Pets: `existing` refs resolve to active pets; others match a pet with the same name, species and
    ///   birth date (archived ones too), else are added.
    /// - Records already there are skipped, so importing a file twice adds nothing: same pet, kind, instant
    ///   and main value (grams, food, score, code, text, vaccine, medication, amount…; `DuplicateKey`),
    ///   counted, so a file's two identical rows stay two and a second import of it adds neither.
    /// - Into an empty database the file's ids are kept (so export → import → export is byte-identical);
    ///   otherwise records get new ids and doses follow their medication's new id.
    ///
    /// The batch is consumed: its records and weights are let go once they are written, before
    /// `finishRecords` (SQLite's index sorts then have the memory they held). A caller that passes its last
    /// use of the batch (`consume batch`) holds no other reference to them.
    public func importRows(_ batch: consuming ImportBatch, writer: some ImportWriter, summary start: ImportSummary, progress: ImportProgress?) throws -> ImportSummary {
        var summary = start
        try writer.clearUndo()
        let emptyDatabase = try sql.int("SELECT (SELECT count(*) FROM pet) + (SELECT count(*) FROM record)", [SQLValue]()) == 0
        if batch.needsEmptyDatabase && !emptyDatabase { throw StoreError.constraint("not empty") }
        // A household moved into an empty database keeps its namespace (and so its FHIR addresses).
        if emptyDatabase, let namespace = batch.namespace {
            try sql.execute("UPDATE household SET namespace = ? WHERE id = 1", [.text(namespace)])
        }
        let t = nowSeconds

        // Pets.
        var petIds: [Int64] = []
        var preexisting = Set<Int64>()
        for p in batch.pets {
            if let ref = p.existing {
                let pet = try resolve(ref, activeOnly: true)
                petIds.append(pet.id); preexisting.insert(pet.id); summary.petsMatched += 1
                continue
            }
            // Into an empty database only a pet of this file could match, and those are skipped below anyway.
            let match = emptyDatabase ? nil : try sql.int("""
                SELECT id FROM pet WHERE name_key = ? AND species = ? AND \(p.born == nil ? "born IS NULL" : "born = ?")
                ORDER BY archived_on IS NOT NULL, id LIMIT 1
                """, [TextField.nameKey(p.name), p.species.rawValue] + (p.born.map { [$0.description] } ?? []))
            if let id = match, !petIds.contains(id) {
                petIds.append(id); preexisting.insert(id); summary.petsMatched += 1
                continue
            }
            let columns = "name, name_key, species, breed, sex, neutered, born, microchip, color, notes, archived_on, archive_reason, created_at, updated_at, "
                + "allergies, conditions, vet_contact, emergency_contacts, insurance"
            let values: [any SQLBindable] = [p.name, TextField.nameKey(p.name), p.species.rawValue, p.breed, p.sex.rawValue, p.neutered, p.born?.description,
                                             p.microchip, p.color, p.notes, p.archivedOn?.description, p.archiveReason?.rawValue,
                                             p.createdAt ?? t, p.updatedAt ?? p.createdAt ?? t] + Self.storedHealth(p.health)
            petIds.append(try insertRow("pet", id: emptyDatabase ? p.fileId : nil, columns, values))
            summary.petsAdded += 1
        }

        // What is already there, for the pets that were (new pets have nothing yet).
        var known: [DuplicateKey: Int] = [:]  // how many of each are already there
        var knownMedications: [DuplicateKey: Int64] = [:]
        let householdExpenses = batch.records.contains { $0.pet == nil }
        if !preexisting.isEmpty || householdExpenses {
            try loadDuplicateKeys(pets: preexisting, household: householdExpenses, into: &known, medications: &knownMedications)
        }

        let total = batch.rowCount
        var done = 0
        let existingRecords = Int(try sql.int("SELECT count(*) FROM record", [SQLValue]()) ?? 0)
        let bulk = total >= Self.bulkLoadMinimum && total > existingRecords
        try writer.begin(bulk: bulk)
        var nextId = (try sql.int("SELECT max(id) FROM record", [SQLValue]()) ?? 0) + 1
        let keepIds = emptyDatabase

        // Records of every kind (ids ascending in petlog files, so a medication precedes its doses).
        var idMap: [Int64: Int64] = [:]
        if keepIds, let maxFileId = batch.records.compactMap(\.fileId).max() { nextId = max(nextId, maxFileId + 1) }
        if keepIds, let maxFileId = batch.weights.fileId.max() { nextId = max(nextId, maxFileId + 1) }
        // With the file's ids kept (an empty database), an id was met before exactly when a record has it
        // already: asked of the table for an id not above the largest so far, instead of a set and a map
        // of every id (50 MiB for a shelter).
        var largestKeptId: Int64 = 0
        func fileIdMet(_ f: Int64) throws -> Int64? {
            if keepIds { return try f <= largestKeptId && writer.recordExists(f) ? f : nil }
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
            let written = r.written(now: t)
            try writer.insertRecord(id: id, petId: petId, kind: detail.kind, at: r.at, utcOffset: r.utcOffset, note: r.note, starred: r.starred,
                                    created: written.created, updated: written.updated)
            try writer.insertDetail(detail, id: id)
            for a in r.attachments { try insertAttachmentRow(a, recordId: id) }
            if case .medication = detail, let key { knownMedications[key] = id }
            summary.recordsAdded += 1
            done += 1
            if done % 10_000 == 0 { progress?(done, total) }
        }
        // A petlog JSON file's weights go in file order among its other records, through the same steps:
        // one by one, or a run of them at once through the writer's weight path (`insertWeights`: raw
        // blocks, the no-op triggers off) when the run's ids are the next ids in a row, as a household's
        // weights between two other records mostly are and a shelter's 868,890 all are.
        // The weights move out of the batch (`w` holds the only reference) and are dropped once written.
        var w = batch.weights
        batch.weights = ImportWeights()
        var nextWeight = 0
        func addWeights(upTo records: Int) throws {
            guard w.inFileOrder else { return }
            var end = nextWeight
            while end < w.count, Int(w.recordsBefore[end]) <= records { end += 1 }
            while nextWeight < end {
                let run = weightRun(from: nextWeight, to: end)
                if run - nextWeight >= Self.weightRunMinimum {
                    try addWeightRun(nextWeight..<run)
                    nextWeight = run
                } else {
                    let i = nextWeight
                    nextWeight += 1
                    let written = w.written(i, now: t)
                    try add(ImportRecord(location: w.location(i), fileId: w.fileId[i], pet: Int(w.pet[i]), at: w.at[i],
                                         utcOffset: Int(w.utcOffset[i]), detail: w.detail(i), createdAt: written.created, updatedAt: written.updated))
                }
            }
        }
        /// Where the run of weights from `start` that can go in at once ends: with the file's ids kept, while
        /// each id is the one after the last and the first is above every id kept so far (so no id can repeat
        /// one already written); with new ids, any run (its ids are the next ones).
        func weightRun(from start: Int, to end: Int) -> Int {
            guard keepIds else { return end }
            guard known.isEmpty, w.fileId[start] > largestKeptId else { return start }
            var i = start + 1
            while i < end, w.fileId[i] == w.fileId[i - 1] + 1 { i += 1 }
            return i
        }
        /// The weights `run` as `add` would write them one by one: those already there counted and left out,
        /// the others given their ids in order (the file's, when kept; a spreadsheet's have none).
        func addWeightRun(_ run: Range<Int>) throws {
            let keep = keepIds && w.inFileOrder
            var rows: [Int32] = []
            rows.reserveCapacity(run.count)
            for i in run {
                if !known.isEmpty {
                    let key = DuplicateKey(pet: petIds[Int(w.pet[i])], at: w.at[i], detail: w.detail(i))
                    if let n = known[key], n > 0 {
                        known[key] = n - 1
                        summary.recordsAlreadyThere += 1
                        continue
                    }
                }
                if !keep && w.inFileOrder { idMap[w.fileId[i]] = nextId + Int64(rows.count) }
                rows.append(Int32(i))
            }
            let first = keep ? w.fileId[run.lowerBound] : nextId
            let before = done
            try writer.insertWeights(w, rows: rows, petIds: petIds, firstId: first, now: t) { n in progress?(before + n, total) }
            if keep { largestKeptId = max(largestKeptId, w.fileId[run.upperBound - 1]) } else { nextId += Int64(rows.count) }
            summary.recordsAdded += rows.count
            done += rows.count
        }
        for n in batch.records.indices {
            try addWeights(upTo: n)
            try add(batch.records[n])
        }
        try addWeights(upTo: batch.records.count)
        batch.records = []

        // A spreadsheet's weights, the bulk of any real import, after its records: all of them, less those
        // already there (counted, see `DuplicateKey`), under new ids.
        if w.count > 0 && !w.inFileOrder { try addWeightRun(0..<w.count) }
        w = ImportWeights()
        try writer.finishRecords(bulk: bulk)

        // Budgets (one per scope: a budget already set for the same scope is kept) and rates (a stored
        // rate for the same day and currency is replaced by the file's).
        for b in batch.budgets {
            var first: String?, last: String?
            if case .days(let f, let l) = b.budget.period { first = f.description; last = l.description }
            let petId = b.pet.map { petIds[$0] }
            let exists = try sql.int("""
                SELECT count(*) FROM budget WHERE coalesce(pet_id, 0) = ? AND coalesce(category, '') = ? AND coalesce(first_day, '') = ? AND coalesce(last_day, '') = ?
                """, [petId ?? 0, b.budget.category ?? "", first ?? "", last ?? ""]) ?? 0 > 0
            if exists { continue }
            let columns = "pet_id, amount_minor, currency, first_day, last_day, category, per_pet, name, place, people, created_at, updated_at"
            let values: [any SQLBindable] = [petId, b.budget.amount.minorUnits, b.budget.amount.currency.code, first, last, b.budget.category, b.budget.perPet,
                                             b.budget.name, b.budget.place, b.budget.people.map(Int64.init), t, t]
            _ = try insertRow("budget", id: keepIds ? b.fileId : nil, columns, values)
            summary.budgetsAdded += 1
        }
        for r in batch.rates {
            let stored = try sql.row("SELECT rate FROM exchange_rate WHERE currency = ? AND day = ?", [r.currency, r.day.description])?[0].text
            if stored == r.rate.description { continue }
            try sql.execute("""
                INSERT INTO exchange_rate (day, currency, rate) VALUES (?, ?, ?) ON CONFLICT (currency, day) DO UPDATE SET rate = excluded.rate
                """, [r.day.description, r.currency, r.rate.description])
            summary.ratesAdded += 1
        }
        try writer.finish()
        progress?(total, total)
        return summary
    }

    /// The shortest run of a JSON file's weights written through `insertWeights` (shorter ones go one by one:
    /// the weight path prepares its statements per call).
    static let weightRunMinimum = 256

    /// A row of `table` under the file's `id` (kept in an empty database), else under a new one; its id.
    func insertRow(_ table: String, id: Int64?, _ columns: String, _ values: [any SQLBindable]) throws -> Int64 {
        guard let id else { return try sql.insertReturningId("INSERT INTO \(table) (\(columns)) VALUES (\(questionMarks(values.count)))", values) }
        _ = try sql.execute("INSERT INTO \(table) (id, \(columns)) VALUES (?, \(questionMarks(values.count)))", [id] + values)
        return id
    }

    func loadDuplicateKeys(pets: Set<Int64>, household: Bool, into known: inout [DuplicateKey: Int], medications: inout [DuplicateKey: Int64]) throws {
        var filter: [String] = []
        if !pets.isEmpty { filter.append("r.pet_id IN (\(pets.sorted().map(String.init).joined(separator: ",")))") }
        if household { filter.append("r.pet_id IS NULL") }
        for kind in RecordKind.allCases {
            let text = "SELECT r.id, coalesce(r.pet_id, 0), r.at, \(DuplicateKey.valueSQL(kind)) FROM record r JOIN \(kind.rawValue) d ON d.record_id = r.id " +
                (kind == .dose ? "JOIN medication m ON m.record_id = d.medication_id " : "") + "WHERE r.kind = '\(kind.rawValue)' AND (\(filter.joined(separator: " OR ")))"
            try sql.forEachRow(text, [SQLValue](), columns: nil) { v in
                let key = DuplicateKey(pet: v[1].int ?? 0, kind: kind, at: v[2].int ?? 0, value: v[3].text ?? "")
                known[key, default: 0] += 1
                if kind == .medication { medications[key] = v[0].int }
            }
        }
    }
}
