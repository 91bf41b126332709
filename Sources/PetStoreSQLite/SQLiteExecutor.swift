import Foundation
import GRDB
import GRDBSQLite
import PetStoreCore

/// The SQLite executor: GRDB's `Database` inside the repository's transaction, statements cached.
public struct SQLiteExecutor: SQLExecutor {
    let db: Database
    /// In a read transaction: a statement that would write is refused (as `PRAGMA query_only` refused it).
    let readOnly: Bool
    public init(_ db: Database, readOnly: Bool = false) { self.db = db; self.readOnly = readOnly }

    /// `sql`'s cached statement, refused in a read transaction when it would write.
    func statement(_ sql: String) throws -> Statement {
        let statement = try db.cachedStatement(sql: sql)
        if readOnly && !statement.isReadonly { throw StoreError.constraint("a write inside a read transaction") }
        return statement
    }

    static func arguments(_ values: [SQLValue]) -> StatementArguments {
        StatementArguments(values.map { v -> (any DatabaseValueConvertible)? in
            switch v {
            case .null: return nil
            case .int(let i): return i
            case .double(let d): return d
            case .text(let s): return s
            case .bytes(let b): return Data(b)
            }
        })
    }

    static func value(_ dbValue: DatabaseValue) -> SQLValue {
        switch dbValue.storage {
        case .null: return .null
        case .int64(let i): return .int(i)
        case .double(let d): return .double(d)
        case .string(let s): return .text(s)
        case .blob(let b): return .bytes([UInt8](b))
        }
    }

    public func rows(_ sql: String, _ arguments: [SQLValue]) throws -> [SQLRow] {
        let statement = try self.statement(sql)
        let columns = statement.columnNames
        guard statement.isReadonly else {
            return try Row.fetchAll(statement, arguments: Self.arguments(arguments)).map { row in
                SQLRow(columns: columns, values: row.databaseValues.map(Self.value))
            }
        }
        var out: [SQLRow] = []
        try step(statement, arguments) { out.append(SQLRow(columns: columns, values: $0)) }
        return out
    }

    /// A read-only statement's rows stepped with SQLite's own calls, each column read by position into
    /// an `SQLValue` (as `weightSeries` reads its series): going through GRDB's `Row` and `DatabaseValue`
    /// first cost about a quarter of `due` (issue 34). Text and blobs are read as GRDB reads them.
    func step(_ statement: Statement, _ arguments: [SQLValue], _ body: ([SQLValue]) throws -> Void) throws {
        try statement.setArguments(Self.arguments(arguments))
        let raw = statement.sqliteStatement
        defer { sqlite3_reset(raw) }
        let n = sqlite3_column_count(raw)
        while true {
            let code = sqlite3_step(raw)
            if code == SQLITE_DONE { return }
            guard code == SQLITE_ROW else {
                throw DatabaseError(resultCode: ResultCode(rawValue: code), message: String(cString: sqlite3_errmsg(db.sqliteConnection)),
                                    sql: statement.sql)
            }
            var values: [SQLValue] = []
            values.reserveCapacity(Int(n))
            for i in 0..<n { values.append(Self.column(raw, i)) }
            try body(values)
        }
    }

    static func column(_ raw: OpaquePointer, _ i: Int32) -> SQLValue {
        switch sqlite3_column_type(raw, i) {
        case SQLITE_NULL: return .null
        case SQLITE_INTEGER: return .int(sqlite3_column_int64(raw, i))
        case SQLITE_FLOAT: return .double(sqlite3_column_double(raw, i))
        case SQLITE_TEXT:
            guard let text = sqlite3_column_text(raw, i) else { return .text("") }
            return .text(String(cString: text))
        default:
            guard let blob = sqlite3_column_blob(raw, i) else { return .bytes([]) }
            let count = Int(sqlite3_column_bytes(raw, i))
            return .bytes([UInt8](UnsafeRawBufferPointer(start: blob, count: count)))
        }
    }

    @discardableResult
    public func execute(_ sql: String, _ arguments: [SQLValue]) throws -> Int {
        try self.statement(sql).execute(arguments: Self.arguments(arguments))
        return db.changesCount
    }

    public func insertReturningId(_ sql: String, _ arguments: [SQLValue]) throws -> Int64 {
        try self.statement(sql).execute(arguments: Self.arguments(arguments))
        return db.lastInsertedRowID
    }

    public func forEachRow(_ sql: String, _ arguments: [SQLValue], columns: (([String]) -> Void)?, _ body: ([SQLValue]) throws -> Void) throws {
        let statement = try self.statement(sql)
        columns?(statement.columnNames)
        guard statement.isReadonly else {
            let cursor = try Row.fetchCursor(statement, arguments: Self.arguments(arguments))
            while let row = try cursor.next() { try body(row.databaseValues.map(Self.value)) }
            return
        }
        try step(statement, arguments, body)
    }

    public func columns(_ sql: String) throws -> [String] { try db.cachedStatement(sql: sql).columnNames }
}
