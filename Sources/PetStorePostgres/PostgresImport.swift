import Foundation
import NIOCore
import PetModel
import PetStoreCore

/// The PostgreSQL side of an import (`ImportWriter`): rows gathered per table in COPY's text format and
/// sent with `COPY … FROM STDIN` a few megabytes at a time, the next batch made while the server stores
/// the last. The foreign keys are checked at commit, so the order in which the tables go out does not
/// matter. A bulk load (`begin(bulk: true)`) also has the server drop the record tables' foreign keys and
/// secondary indexes and make them again at the end (`bulk_begin`/`bulk_end`, schema pg2): one check of a
/// key over the whole table instead of one per row.
final class PostgresImportWriter: ImportWriter {
    let link: PostgresLink
    /// Bytes of one table's rows gathered before they go out.
    let batchBytes = 4 << 20
    var records = CopyRows()
    var details: [RecordKind: CopyRows] = [:]
    var items = CopyRows()
    /// A bulk load turns the triggers off, `weight_chunk`'s too (schema pg6): the pets it brings weights to,
    /// whose packed series it drops itself before the triggers come back.
    var bulk = false
    var weightPets = Set<Int64>()
    var lastWeightPet: Int64?
    /// Weights this import brought each pet (the last pet's run counted in `lastWeightRun` until another comes):
    /// a pet given a chunk's worth or more has its series packed after the import (`petsToPack`).
    var weightCounts: [Int64: Int] = [:]
    var lastWeightRun = 0

    init(link: PostgresLink) { self.link = link }

    func clearUndo() throws { try PostgresUndo.clear(link) }

    func begin(bulk: Bool) throws {
        try link.execute("SET CONSTRAINTS ALL DEFERRED", [SQLValue]())
        if bulk { try link.execute("SELECT petlog.bulk_begin()", [SQLValue]()) }
        self.bulk = bulk
    }

    static let recordColumns = ["id", "pet_id", "kind", "at", "utc_offset", "note", "starred", "created_at", "updated_at"]

    func insertRecord(id: Int64, petId: Int64?, kind: RecordKind, at: Int64, utcOffset: Int, note: String?, starred: Bool, created: Int64, updated: Int64) throws {
        if kind == .weight, let petId {
            if petId == lastWeightPet {
                lastWeightRun += 1
            } else {
                if let last = lastWeightPet { weightCounts[last, default: 0] += lastWeightRun }
                if bulk { weightPets.insert(petId) }
                lastWeightPet = petId
                lastWeightRun = 1
            }
        }
        records.append([.int(id), SQLValue(petId), .text(kind.rawValue), .int(at), .int(Int64(utcOffset)), SQLValue(note), SQLValue(starred), .int(created), .int(updated)])
        if records.bytes >= batchBytes { try flushRecords() }
    }

    func insertDetail(_ detail: RecordDetail, id: Int64) throws {
        details[detail.kind, default: CopyRows()].append(RecordDetailTables.values(detail, id: id))
        if case .expense(let e) = detail {
            for (i, item) in e.items.enumerated() { items.append([.int(id), .int(Int64(i)), .text(item)]) }
        }
        if (details[detail.kind]?.bytes ?? 0) >= batchBytes { try flush(detail.kind) }
    }

    func recordExists(_ id: Int64) throws -> Bool {
        try flushRecords()
        return try link.int("SELECT count(*) FROM record WHERE id = ?", [id]) ?? 0 > 0
    }

    func insertWeights(_ w: ImportWeights, rows: [Int32], petIds: [Int64], firstId: Int64, now: Int64, progress: (Int) -> Void) throws {
        var id = firstId
        for (n, r) in rows.enumerated() {
            let i = Int(r)
            let written = w.written(i, now: now)
            try insertRecord(id: id, petId: petIds[Int(w.pet[i])], kind: .weight, at: w.at[i], utcOffset: Int(w.utcOffset[i]), note: nil, starred: false,
                             created: written.created, updated: written.updated)
            try insertDetail(.weight(Weight(mass: Mass(grams: Int(w.grams[i])), bodyCondition: BodyConditionScore(Int(w.bodyCondition[i])))), id: id)
            id += 1
            if n % 20_000 == 0 { progress(n) }
        }
    }

    func flushRecords() throws {
        try send("record", columns: Self.recordColumns, rows: &records)
    }

    func flush(_ kind: RecordKind) throws {
        try flushRecords()
        guard var rows = details[kind] else { return }
        try send(kind.rawValue, columns: RecordDetailTables.columns(kind).components(separatedBy: ", "), rows: &rows)
        details[kind] = rows
        if kind == .expense { try send("expense_item", columns: ["record_id", "position", "name"], rows: &items) }
    }

    func send(_ table: String, columns: [String], rows: inout CopyRows) throws {
        guard rows.count > 0 else { return }
        try link.copy(into: table, columns: columns, data: rows.take())
    }

    func finishRecords(bulk: Bool) throws {
        try flushRecords()
        for kind in RecordKind.allCases { try flush(kind) }
        if bulk {
            try PostgresWeightSeries.drop(link, pets: weightPets.sorted())
            try link.execute("SELECT petlog.bulk_end()", [SQLValue]())
            try PostgresSearch.rebuild(link)
        } else {
            try PostgresSearch.refresh(link)
        }
    }

    /// The pets this import brought `PostgresWeightSeries.chunkPoints` weights or more (none of the bench's
    /// shelter, whose pets have at most 1,806 each).
    var petsToPack: [Int64] {
        var counts = weightCounts
        if let last = lastWeightPet { counts[last, default: 0] += lastWeightRun }
        return counts.filter { $0.value >= PostgresWeightSeries.chunkPoints }.keys.sorted()
    }

    /// The identity sequences past the ids the file kept, so the next `pet add` or record gets a free one.
    func finish() throws {
        for table in ["pet", "record", "budget", "attachment"] {
            try link.execute("SELECT setval(pg_get_serial_sequence('petlog.\(table)', 'id'), coalesce((SELECT max(id) FROM \(table)), 0) + 1, false)",
                             [SQLValue]())
        }
    }
}

/// Rows in COPY's text format: a tab between fields, a newline after each row, `\N` for NULL, and the
/// backslash, tab, newline and carriage return escaped; numbers as PostgreSQL reads them back exactly
/// (a double's shortest round-trip form), bytes as `bytea` hex.
struct CopyRows {
    private(set) var buffer = ByteBuffer()
    private(set) var count = 0
    static let hex = Array("0123456789abcdef".utf8)
    var bytes: Int { buffer.readableBytes }

    mutating func append(_ values: [SQLValue]) {
        for (i, v) in values.enumerated() {
            if i > 0 { buffer.writeInteger(UInt8(ascii: "\t")) }
            switch v {
            case .null: buffer.writeStaticString("\\N")
            case .int(let n): writeInteger(n)
            case .double(let d): buffer.writeString(d.isFinite ? "\(d)" : d.isNaN ? "NaN" : d < 0 ? "-Infinity" : "Infinity")
            case .text(let t): writeEscaped(t.utf8)
            case .bytes(let b):
                buffer.writeStaticString("\\\\x")
                for byte in b { buffer.writeInteger(Self.hex[Int(byte >> 4)]); buffer.writeInteger(Self.hex[Int(byte & 15)]) }
            }
        }
        buffer.writeInteger(UInt8(ascii: "\n"))
        count += 1
    }

    /// Decimal digits straight into the buffer (no String for each of a million numbers).
    private mutating func writeInteger(_ n: Int64) {
        if n < 0 {
            guard n != .min else { buffer.writeString(String(n)); return }
            buffer.writeInteger(UInt8(ascii: "-"))
        }
        var v = n.magnitude
        var digits: (UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0)   // 32 bytes: room for 20 digits
        var count = 0
        withUnsafeMutableBytes(of: &digits) { d in
            repeat {
                d[31 - count] = UInt8(ascii: "0") + UInt8(v % 10)
                v /= 10
                count += 1
            } while v > 0
            buffer.writeBytes(UnsafeRawBufferPointer(rebasing: d[(32 - count)...]))
        }
    }

    private mutating func writeEscaped(_ text: String.UTF8View) {
        for c in text {
            switch c {
            case UInt8(ascii: "\\"): buffer.writeStaticString("\\\\")
            case UInt8(ascii: "\t"): buffer.writeStaticString("\\t")
            case UInt8(ascii: "\n"): buffer.writeStaticString("\\n")
            case UInt8(ascii: "\r"): buffer.writeStaticString("\\r")
            default: buffer.writeInteger(c)
            }
        }
    }

    /// The rows so far, handed over; this starts empty again.
    mutating func take() -> ByteBuffer {
        defer { buffer = ByteBuffer(); count = 0 }
        return buffer
    }
}

extension PostgresRepository {
    /// Attachment files come from the export's folder into the database (chunks), in the same transaction.
    public func importBatch(_ batch: consuming ImportBatch, progress: ImportProgress?) throws -> ImportSummary {
        let batch = batch
        let writer = PostgresImportWriter(link: link)
        let summary = try write(recording: false) { store in
            var summary = ImportSummary()
            (summary.attachmentsAdded, summary.attachmentsMissing) = try storeAttachments(batch)
            return try store.importRows(batch, writer: writer, summary: summary, progress: progress)
        }
        packImportedSeries(writer.petsToPack)
        return summary
    }

    public func bulkTransaction<T>(_ body: (any SQLExecutor, any ImportWriter) throws -> T) throws -> T {
        let writer = PostgresImportWriter(link: link)
        let result = try write(recording: false) { store in try body(store.sql, writer) }
        packImportedSeries(writer.petsToPack)
        return result
    }

    /// The series of the pets an import brought a chunk's worth of weights or more, packed right after it
    /// commits, each in a write of its own as a chart packs (`packWeightSeries`: the table lock before the
    /// snapshot, so a writer outside petlog is ordered against it), so that the pet's first chart reads chunks
    /// (issue 44: the first chart of a 1M-point pet took 7.95 s, reading the whole series from the tables and
    /// then packing it). A role that may not write the chunks, or a pack that fails, leaves them to a chart.
    func packImportedSeries(_ pets: [Int64]) {
        guard !pets.isEmpty, (try? read({ _ in try PostgresWeightSeries.prepare(link).mayWrite })) == true else { return }
        for pet in pets { try? packWeightSeries(pet: pet) }
    }

    /// The files the batch's records name, from its attachment folders, each checked against its SHA-256;
    /// how many were added, and how many were in neither place. Those rows go in all the same (unless
    /// `attachmentsRequired`), without chunks, as the SQLite store keeps a row whose file is missing:
    /// `check` lists them, and a later import that finds the files stores them.
    func storeAttachments(_ batch: ImportBatch) throws -> (added: Int, missing: Int) {
        try Store.importAttachments(batch, holds: { try link.int("SELECT count(*) FROM attachment_chunk WHERE sha256 = ?", [$0]) ?? 0 > 0 }) { path in
            (try PostgresAttachments.store(path: path, link: link).sha256, true)
        }
    }
}
