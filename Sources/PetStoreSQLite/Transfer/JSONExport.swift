import Foundation
import GRDB
import GRDBSQLite
import PetFiles
import PetModel
import PetStoreCore

/// `petlog export` (JSON): the records are read in one pass, each table walked once in id order and
/// merged by record id (no `IN (…)` batches, no dictionary per batch); weights, which are most of a big
/// household's records, are stepped by hand with columns read by index, as `weightSeries` reads them.
/// The other kinds go through `RecordDetailTables.detail`, so every stored-value check stays the one
/// the rest of petlog reads with.
extension SQLiteRepository {
    public func exportJSON(to sink: OutputSink) throws -> Int {
        let store = Store(self)
        let writer = try PetlogJSONWriter(sink: sink, pets: try store.pets(includeArchived: true), namespace: try householdNamespace())
        try forEachRecordInOrder { try writer.write($0) }
        try writer.finish(budgets: try store.budgets(), rates: try store.allRates())
        return writer.recordCount
    }

    public func householdNamespace() throws -> String? {
        try read { db in try db.tableExists("household") ? try store(db, writing: false).storedNamespace() : nil }
    }

    /// Every record in id order, as `loadRecords` gives them (a record without its detail row is left
    /// out), in one read transaction.
    func forEachRecordInOrder(_ body: (PetRecord) throws -> Void) throws {
        try read { db in
            var names: [Int64: String] = [:]
            for row in try Row.fetchAll(db, sql: "SELECT id, name FROM pet") { names[row[0]] = row[1] }
            let headers = try RawRows(db, sql: """
                SELECT id, pet_id, kind, at, utc_offset, note, starred, created_at, updated_at FROM record ORDER BY id
                """)
            let weights = try RawRows(db, sql: "SELECT record_id, grams, body_condition FROM weight ORDER BY record_id")
            var weightId = try weights.step() ? weights.int(0) : Int64.max
            var others: [RecordKind: DetailCursor] = [:]
            for kind in RecordKind.allCases where kind != .weight { others[kind] = try DetailCursor(kind: kind, db: db) }
            let items = try RawRows(db, sql: "SELECT record_id, name FROM expense_item ORDER BY record_id, position")
            var itemId = try items.step() ? items.int(0) : Int64.max
            let files = try AttachmentRow.fetchCursor(db, sql: "SELECT * FROM attachment ORDER BY record_id, position")
            var file = try files.next()

            while try headers.step() {
                let id = headers.int(0)
                guard let kindText = headers.text(2) else { throw InvalidStoredValue(table: "record", id: id, column: "kind", value: "NULL") }
                guard let kind = RecordKind(rawValue: kindText) else { throw InvalidStoredValue(table: "record", id: id, column: "kind", text: kindText) }
                let detail: RecordDetail
                if kind == .weight {
                    while weightId < id { weightId = try weights.step() ? weights.int(0) : Int64.max }
                    guard weightId == id else { continue }
                    var bcs: BodyConditionScore?
                    if !weights.isNull(2) {
                        bcs = BodyConditionScore(Int(clamping: weights.int(2)))
                        if bcs == nil { throw InvalidStoredValue(table: "weight", id: id, column: "body_condition", value: String(weights.int(2))) }
                    }
                    detail = .weight(Weight(mass: Mass(grams: Int(weights.int(1))), bodyCondition: bcs))
                    weightId = try weights.step() ? weights.int(0) : Int64.max
                } else {
                    guard let cursor = others[kind], var found = try cursor.detail(for: id) else { continue }
                    if case .expense(var e) = found {
                        while itemId < id { itemId = try items.step() ? items.int(0) : Int64.max }
                        while itemId == id {
                            e.items.append(items.text(1) ?? "")
                            itemId = try items.step() ? items.int(0) : Int64.max
                        }
                        found = .expense(e)
                    }
                    detail = found
                }
                var attachments: [Attachment] = []
                while let f = file, f.recordId <= id {
                    if f.recordId == id { attachments.append(f.attachment) }
                    file = try files.next()
                }
                let petId: Int64? = headers.isNull(1) ? nil : headers.int(1)
                try body(PetRecord(id: id, petId: petId, petName: petId.flatMap { names[$0] },
                                   at: Date(timeIntervalSince1970: Double(headers.int(3))), utcOffset: Int(headers.int(4)),
                                   note: headers.text(5), starred: headers.int(6) != 0,
                                   createdAt: Date(timeIntervalSince1970: Double(headers.int(7))),
                                   updatedAt: Date(timeIntervalSince1970: Double(headers.int(8))),
                                   detail: detail, attachments: attachments))
            }
        }
    }
}

/// One kind's detail table in record id order, each row read into its detail as it is reached.
private final class DetailCursor {
    let kind: RecordKind
    let rows: RowCursor
    var pending: (id: Int64, detail: RecordDetail)?

    init(kind: RecordKind, db: Database) throws {
        self.kind = kind
        rows = try Row.fetchCursor(db, sql: kind == .dose
            ? "SELECT d.*, m.name AS medication_name FROM dose d JOIN medication m ON m.record_id = d.medication_id ORDER BY d.record_id"
            : "SELECT * FROM \(kind.rawValue) ORDER BY record_id")
        try advance()
    }

    func advance() throws {
        if let row = try rows.next() { pending = (row["record_id"], try RecordDetailTables.detail(kind: kind, row: row)) } else { pending = nil }
    }

    /// The detail of record `id`; ids must come in increasing order.
    func detail(for id: Int64) throws -> RecordDetail? {
        while let p = pending, p.id < id { try advance() }
        guard let p = pending, p.id == id else { return nil }
        try advance()
        return p.detail
    }
}

/// A statement stepped by hand, columns read by index (no `Row`, no lookup by name).
final class RawRows {
    private let statement: Statement
    private let raw: SQLiteStatement
    private let connection: SQLiteConnection?

    init(_ db: Database, sql: String) throws {
        statement = try db.makeStatement(sql: sql)
        raw = statement.sqliteStatement
        connection = db.sqliteConnection
    }

    deinit { sqlite3_reset(raw) }

    /// True with a row to read; false at the end.
    func step() throws -> Bool {
        let code = sqlite3_step(raw)
        if code == SQLITE_ROW { return true }
        if code == SQLITE_DONE { return false }
        throw DatabaseError(resultCode: ResultCode(rawValue: code), message: String(cString: sqlite3_errmsg(connection)))
    }

    func int(_ i: Int32) -> Int64 { sqlite3_column_int64(raw, i) }
    func double(_ i: Int32) -> Double { sqlite3_column_double(raw, i) }
    func isNull(_ i: Int32) -> Bool { sqlite3_column_type(raw, i) == SQLITE_NULL }

    func text(_ i: Int32) -> String? {
        guard let p = sqlite3_column_text(raw, i) else { return nil }
        return String(decoding: UnsafeBufferPointer(start: p, count: Int(sqlite3_column_bytes(raw, i))), as: UTF8.self)
    }
}
