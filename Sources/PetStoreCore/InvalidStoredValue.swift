import Foundation

/// A stored value the schema should never hold (edited by hand, or a damaged file): reads refuse it, `check` lists it.
public struct InvalidStoredValue: Error, Equatable, Sendable, CustomStringConvertible {
    public var table: String
    /// The row's id (`record_id` for a record's detail table).
    public var id: Int64
    public var column: String
    /// The value as SQLite holds it, quoted when it is text (`NULL` for a missing one).
    public var value: String

    public init(table: String, id: Int64, column: String, value: String) {
        self.table = table; self.id = id; self.column = column; self.value = value
    }

    /// For a text value: quoted, and cut short when long (enough of it to find it again).
    public init(table: String, id: Int64, column: String, text: String) {
        self.init(table: table, id: id, column: column, value: "'\(text.count > 60 ? text.prefix(60) + "…" : Substring(text))'")
    }

    public var description: String { "\(table) #\(id) \(column): \(value)" }
}

/// A stored row read column by column, whether GRDB's `Row` (SQLite) or an `SQLRow` (any `SQLExecutor`):
/// what the decoding of pets, records and their details is written against, once for both stores.
public protocol StoredRow {
    func int64(_ column: String) -> Int64?
    func double(_ column: String) -> Double?
    /// The value when it is text; nil for NULL or any other type.
    func text(_ column: String) -> String?
    func isNull(_ column: String) -> Bool
    /// The value as an error message shows it (`NULL`, `42`, `"text"`).
    func describe(_ column: String) -> String
}

extension StoredRow {
    public func int(_ column: String) -> Int? { int64(column).map { Int(truncatingIfNeeded: $0) } }
    public func bool(_ column: String) -> Bool? { int64(column).map { $0 != 0 } }

    /// A NOT NULL column's value: a missing one is thrown as the damage it is, never replaced by a default.
    public func required<T>(_ value: T?, _ column: String, table: String, id: Int64) throws -> T {
        guard let value else { throw InvalidStoredValue(table: table, id: id, column: column, value: describe(column)) }
        return value
    }

    /// The text in `column` as `T`. A value `parse` refuses (or a missing one) is thrown, never replaced
    /// by a default: a default would hide the damage and write it back on the next edit.
    public func decode<T>(_ column: String, table: String, id: Int64, _ parse: (String) -> T?) throws -> T {
        guard let text = text(column) else {
            throw InvalidStoredValue(table: table, id: id, column: column, value: describe(column))
        }
        guard let value = parse(text) else { throw InvalidStoredValue(table: table, id: id, column: column, text: text) }
        return value
    }

    /// As `decode`, where the column may be NULL (nil); any other value must parse.
    public func decodeIfPresent<T>(_ column: String, table: String, id: Int64, _ parse: (String) -> T?) throws -> T? {
        if isNull(column) { return nil }
        return try decode(column, table: table, id: id, parse)
    }
}

extension SQLRow: StoredRow {
    public func int64(_ column: String) -> Int64? { self[column].int }
    public func double(_ column: String) -> Double? { self[column].double }
    public func text(_ column: String) -> String? { self[column].text }
    public func isNull(_ column: String) -> Bool { self[column].isNull }
    public func describe(_ column: String) -> String {
        switch self[column] {
        case .null: return "NULL"
        case .int(let v): return String(v)
        case .double(let v): return String(v)
        case .text(let v): return "\"\(v)\""
        case .bytes(let b): return "<\(b.count) bytes>"
        }
    }
}
