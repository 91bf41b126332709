import Foundation
import GRDB
import PetStoreCore

/// The SQLite executor: GRDB's `Database` inside the repository's transaction, statements cached.
public struct SQLiteExecutor: SQLExecutor {
    let db: Database
    public init(_ db: Database) { self.db = db }

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
        let statement = try db.cachedStatement(sql: sql)
        let columns = statement.columnNames
        return try Row.fetchAll(statement, arguments: Self.arguments(arguments)).map { row in
            SQLRow(columns: columns, values: row.databaseValues.map(Self.value))
        }
    }

    @discardableResult
    public func execute(_ sql: String, _ arguments: [SQLValue]) throws -> Int {
        try db.cachedStatement(sql: sql).execute(arguments: Self.arguments(arguments))
        return db.changesCount
    }

    public func insertReturningId(_ sql: String, _ arguments: [SQLValue]) throws -> Int64 {
        try db.cachedStatement(sql: sql).execute(arguments: Self.arguments(arguments))
        return db.lastInsertedRowID
    }

    public func forEachRow(_ sql: String, _ arguments: [SQLValue], columns: (([String]) -> Void)?, _ body: ([SQLValue]) throws -> Void) throws {
        let statement = try db.cachedStatement(sql: sql)
        columns?(statement.columnNames)
        let cursor = try Row.fetchCursor(statement, arguments: Self.arguments(arguments))
        while let row = try cursor.next() { try body(row.databaseValues.map(Self.value)) }
    }

    public func columns(_ sql: String) throws -> [String] { try db.cachedStatement(sql: sql).columnNames }
}
