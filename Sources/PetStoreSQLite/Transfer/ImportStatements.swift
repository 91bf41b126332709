import Foundation
import GRDB
import GRDBSQLite
import PetModel
import PetStoreCore

/// The import's inserts of records and their details: each statement prepared once per import and
/// rebound per row with raw values, as `insertWeights` does for the spreadsheet weights. GRDB's
/// `cachedStatement(…).execute(arguments:)` built an argument array and looked the statement up by
/// its SQL on every row, which was most of a record's write. The SQL is the kind's `RecordKindTable.insertSQL`
/// and the values `RecordDetailTables.values`, as everywhere else petlog writes a record.
final class ImportStatements {
    private let connection: SQLiteConnection?
    private var prepared: [RecordKind: SQLiteStatement] = [:]
    private var record: SQLiteStatement?
    private var item: SQLiteStatement?
    private var exists: SQLiteStatement?

    init(_ db: Database) { connection = db.sqliteConnection }

    deinit {
        for s in prepared.values { sqlite3_finalize(s) }
        sqlite3_finalize(record)
        sqlite3_finalize(item)
        sqlite3_finalize(exists)
    }

    private static let transient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)

    private func check(_ rc: Int32) throws {
        if rc != SQLITE_OK && rc != SQLITE_DONE {
            throw DatabaseError(resultCode: ResultCode(rawValue: rc), message: String(cString: sqlite3_errmsg(connection)))
        }
    }

    private func prepare(_ sql: String) throws -> SQLiteStatement {
        var s: SQLiteStatement?
        try check(sqlite3_prepare_v2(connection, sql, -1, &s, nil))
        guard let s else { throw DatabaseError(resultCode: .SQLITE_MISUSE, message: "empty statement") }
        return s
    }

    /// Binds with `bind`, runs once, and resets with the bindings cleared.
    private func run(_ s: SQLiteStatement, _ bind: (Binder) -> Void) throws {
        bind(Binder(statement: s))
        let rc = sqlite3_step(s)
        sqlite3_reset(s)
        sqlite3_clear_bindings(s)
        try check(rc)
    }

    struct Binder {
        let statement: SQLiteStatement
        func callAsFunction(_ i: Int32, _ v: Int64?) { if let v { sqlite3_bind_int64(statement, i, v) } else { sqlite3_bind_null(statement, i) } }
        func callAsFunction(_ i: Int32, _ v: Int?) { self(i, v.map(Int64.init)) }
        func callAsFunction(_ i: Int32, _ v: Bool) { sqlite3_bind_int64(statement, i, v ? 1 : 0) }
        func callAsFunction(_ i: Int32, _ v: Double?) { if let v { sqlite3_bind_double(statement, i, v) } else { sqlite3_bind_null(statement, i) } }
        func callAsFunction(_ i: Int32, _ v: SQLValue) {
            switch v {
            case .null: sqlite3_bind_null(statement, i)
            case .int(let x): sqlite3_bind_int64(statement, i, x)
            case .double(let x): sqlite3_bind_double(statement, i, x)
            case .text(let x): self(i, x)
            case .bytes(let x): _ = x.withUnsafeBytes { sqlite3_bind_blob(statement, i, $0.baseAddress, Int32($0.count), ImportStatements.transient) }
            }
        }
        func callAsFunction(_ i: Int32, _ v: String?) {
            guard let v else { sqlite3_bind_null(statement, i); return }
            _ = v.withCString { sqlite3_bind_text(statement, i, $0, -1, ImportStatements.transient) }
        }
    }

    /// Whether a record has the id `id` (for ids kept from the file).
    func recordExists(_ id: Int64) throws -> Bool {
        if exists == nil { exists = try prepare("SELECT 1 FROM record WHERE id = ?") }
        guard let s = exists else { return false }
        sqlite3_bind_int64(s, 1, id)
        let rc = sqlite3_step(s)
        sqlite3_reset(s)
        if rc == SQLITE_ROW { return true }
        try check(rc)
        return false
    }

    func insertRecord(id: Int64, petId: Int64?, kind: RecordKind, at: Int64, utcOffset: Int, note: String?, starred: Bool, created: Int64, updated: Int64) throws {
        if record == nil {
            record = try prepare("INSERT INTO record (id, pet_id, kind, at, utc_offset, note, starred, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)")
        }
        guard let s = record else { return }
        try run(s) { b in
            b(1, id); b(2, petId); b(3, kind.rawValue); b(4, at); b(5, utcOffset); b(6, note); b(7, starred); b(8, created); b(9, updated)
        }
    }

    func insertDetail(_ detail: RecordDetail, id: Int64) throws {
        let kind = detail.kind
        let s: SQLiteStatement
        if let p = prepared[kind] { s = p } else {
            s = try prepare(Self.sql(kind))
            prepared[kind] = s
        }
        try run(s) { b in
            for (i, v) in RecordDetailTables.values(detail, id: id).enumerated() { b(Int32(i + 1), v) }
        }
        if case .expense(let e) = detail {
            if !e.items.isEmpty && item == nil { item = try prepare("INSERT INTO expense_item (record_id, position, name) VALUES (?, ?, ?)") }
            for (i, name) in e.items.enumerated() {
                guard let itemStatement = item else { break }
                try run(itemStatement) { b in b(1, id); b(2, i); b(3, name) }
            }
        }
    }

    static func sql(_ kind: RecordKind) -> String { RecordKindTable.of(kind).insertSQL }
}
