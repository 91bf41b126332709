import Foundation
import PetModel
import PetStore

/// The PostgreSQL side of an import (`ImportWriter`): rows gathered and written many to a statement
/// (a round trip per row would be most of the time), with the foreign keys checked at commit, so the
/// order in which the gathered tables go out does not matter.
final class PostgresImportWriter: ImportWriter {
    let link: PostgresLink
    /// Rows per statement: PostgreSQL takes at most 65,535 parameters in one.
    let rowsPerStatement = 1000
    var records: [SQLValue] = []
    var details: [RecordKind: [SQLValue]] = [:]
    var items: [SQLValue] = []

    init(link: PostgresLink) { self.link = link }

    func clearUndo() throws { try PostgresUndo.clear(link) }

    func begin(bulk: Bool) throws {
        try link.execute("SET CONSTRAINTS ALL DEFERRED", [SQLValue]())
    }

    static let recordColumns = "id, pet_id, kind, at, utc_offset, note, starred, created_at, updated_at"

    func insertRecord(id: Int64, petId: Int64?, kind: RecordKind, at: Int64, utcOffset: Int, note: String?, starred: Bool, now: Int64) throws {
        records += [.int(id), SQLValue(petId), .text(kind.rawValue), .int(at), .int(Int64(utcOffset)), SQLValue(note), SQLValue(starred), .int(now), .int(now)]
        if records.count >= rowsPerStatement * 9 { try flushRecords() }
    }

    func insertDetail(_ detail: RecordDetail, id: Int64) throws {
        let values = RecordDetailTables.values(detail, id: id)
        details[detail.kind, default: []] += values
        if case .expense(let e) = detail {
            for (i, item) in e.items.enumerated() { items += [.int(id), .int(Int64(i)), .text(item)] }
        }
        if details[detail.kind, default: []].count >= rowsPerStatement * RecordDetailTables.width(detail.kind) { try flush(detail.kind) }
    }

    func recordExists(_ id: Int64) throws -> Bool {
        try flushRecords()
        return try link.int("SELECT count(*) FROM record WHERE id = ?", [id]) ?? 0 > 0
    }

    func insertWeights(_ w: ImportWeights, rows: [Int32], petIds: [Int64], firstId: Int64, now: Int64, progress: (Int) -> Void) throws {
        var id = firstId
        for (n, r) in rows.enumerated() {
            let i = Int(r)
            try insertRecord(id: id, petId: petIds[Int(w.pet[i])], kind: .weight, at: w.at[i], utcOffset: Int(w.utcOffset[i]), note: nil, starred: false, now: now)
            try insertDetail(.weight(Weight(mass: Mass(grams: Int(w.grams[i])), bodyCondition: w.bodyCondition[i] > 0 ? Int(w.bodyCondition[i]) : nil)), id: id)
            id += 1
            if n % 20_000 == 0 { progress(n) }
        }
    }

    func flushRecords() throws {
        try insert("record", columns: Self.recordColumns, width: 9, values: &records)
    }

    func flush(_ kind: RecordKind) throws {
        try flushRecords()
        guard var values = details[kind], !values.isEmpty else { return }
        try insert(kind.rawValue, columns: RecordDetailTables.columns(kind), width: RecordDetailTables.width(kind), values: &values)
        details[kind] = []
        if kind == .expense { try insert("expense_item", columns: "record_id, position, name", width: 3, values: &items) }
    }

    func insert(_ table: String, columns: String, width: Int, values: inout [SQLValue]) throws {
        guard !values.isEmpty else { return }
        let rows = values.count / width
        let row = "(" + Array(repeating: "?", count: width).joined(separator: ", ") + ")"
        try link.execute("INSERT INTO \(table) (\(columns)) VALUES " + Array(repeating: row, count: rows).joined(separator: ", "), values)
        values.removeAll(keepingCapacity: true)
    }

    func finishRecords(bulk: Bool) throws {
        try flushRecords()
        for kind in RecordKind.allCases { try flush(kind) }
        if bulk { try PostgresSearch.rebuild(link) } else { try PostgresSearch.refresh(link) }
    }

    /// The identity sequences past the ids the file kept, so the next `pet add` or record gets a free one.
    func finish() throws {
        for table in ["pet", "record", "budget", "attachment"] {
            try link.execute("SELECT setval(pg_get_serial_sequence('petlog.\(table)', 'id'), coalesce((SELECT max(id) FROM \(table)), 0) + 1, false)",
                             [SQLValue]())
        }
    }
}

extension PostgresRepository {
    /// Attachment files come from the export's folder into the database (chunks), in the same transaction.
    public func importBatch(_ batch: ImportBatch, progress: ImportProgress?) throws -> ImportSummary {
        try write(recording: false) { core in
            var summary = ImportSummary()
            summary.attachmentsAdded = try storeAttachments(batch)
            return try core.importRows(batch, writer: PostgresImportWriter(link: link), summary: summary, progress: progress)
        }
    }

    public func seedDemo(_ batch: ImportBatch, budgets: [Budget], rates: [EuroRate]) throws -> ImportSummary {
        try write(recording: false) { core in
            try core.seedDemo(batch, budgets: budgets, rates: rates, writer: PostgresImportWriter(link: link))
        }
    }

    /// The files the batch's records name, from its attachment folders, each checked against its SHA-256.
    func storeAttachments(_ batch: ImportBatch) throws -> Int {
        var needed: [String: SourceLocation] = [:]
        for r in batch.records { for a in r.attachments where needed[a.sha256] == nil { needed[a.sha256] = r.location } }
        var added = 0
        for (sha, location) in needed.sorted(by: { $0.key < $1.key }) {
            if try link.int("SELECT count(*) FROM attachment_chunk WHERE sha256 = ?", [sha]) ?? 0 > 0 { continue }
            let candidates = batch.attachmentSources.flatMap { [$0.appendingPathComponent(sha), $0.appendingPathComponent(String(sha.prefix(2))).appendingPathComponent(sha)] }
            guard let source = candidates.first(where: { FileManager.default.fileExists(atPath: $0.path) }) else {
                throw ImportError(location: location, problem: .missingAttachment(sha))
            }
            let stored = try PostgresAttachments.store(path: source.path, link: link)
            guard stored.sha256 == sha else { throw ImportError(location: location, problem: .attachmentHashMismatch(sha)) }
            added += 1
        }
        return added
    }
}
