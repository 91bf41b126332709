import Foundation

/// One value bound to or read from a statement: the column types petlog's schema uses, on either store.
public enum SQLValue: Sendable, Equatable, Hashable {
    case null
    case int(Int64)
    case double(Double)
    case text(String)
    case bytes([UInt8])

    public var int: Int64? { if case .int(let v) = self { return v }; return nil }
    public var text: String? { if case .text(let v) = self { return v }; return nil }
    public var double: Double? {
        switch self { case .double(let v): return v; case .int(let v): return Double(v); default: return nil }
    }
    public var isNull: Bool { self == .null }
}

extension SQLValue: ExpressibleByIntegerLiteral, ExpressibleByStringLiteral, ExpressibleByNilLiteral {
    public init(integerLiteral value: Int64) { self = .int(value) }
    public init(stringLiteral value: String) { self = .text(value) }
    public init(nilLiteral: ()) { self = .null }
    public init(_ value: Int64?) { self = value.map(SQLValue.int) ?? .null }
    public init(_ value: Int?) { self = value.map { .int(Int64($0)) } ?? .null }
    public init(_ value: String?) { self = value.map(SQLValue.text) ?? .null }
    public init(_ value: Double?) { self = value.map(SQLValue.double) ?? .null }
    public init(_ value: Bool) { self = .int(value ? 1 : 0) }
}

/// A result row: values by position, and by column name (as the statement named them).
public struct SQLRow: Sendable, Equatable {
    public let columns: [String]
    public let values: [SQLValue]
    public init(columns: [String], values: [SQLValue]) { self.columns = columns; self.values = values }

    public subscript(_ index: Int) -> SQLValue { values[index] }
    public subscript(_ name: String) -> SQLValue {
        columns.firstIndex(of: name).map { values[$0] } ?? .null
    }
}

/// What store logic needs of a database inside one transaction, on SQLite or PostgreSQL. SQL is written
/// once with `?` placeholders (the PostgreSQL executor numbers them `$1`, `$2` …, outside string literals).
public protocol SQLExecutor {
    /// Every row of `sql`.
    func rows(_ sql: String, _ arguments: [SQLValue]) throws -> [SQLRow]
    /// Runs `sql` for its effect; the rows it changed.
    @discardableResult
    func execute(_ sql: String, _ arguments: [SQLValue]) throws -> Int
    /// Runs an INSERT into a table with an `id` key and returns the new row's id.
    func insertReturningId(_ sql: String, _ arguments: [SQLValue]) throws -> Int64
    /// Each row of `sql` as values, in order, without holding them all (a million weights, a table's
    /// CSV); `columns` hears the column names once, before the first row.
    func forEachRow(_ sql: String, _ arguments: [SQLValue], columns: (([String]) -> Void)?, _ body: ([SQLValue]) throws -> Void) throws
    /// The names of the columns `sql` gives (when it gives no row, too).
    func columns(_ sql: String) throws -> [String]
}

extension SQLExecutor {
    public func row(_ sql: String, _ arguments: [SQLValue] = []) throws -> SQLRow? { try rows(sql, arguments).first }
    public func int(_ sql: String, _ arguments: [SQLValue] = []) throws -> Int64? { try row(sql, arguments)?[0].int }
}

/// `?` placeholders numbered `$1`, `$2` … for PostgreSQL, leaving string literals, quoted names and
/// comments alone.
public enum PlaceholderNumbering {
    public static func numbered(_ sql: String) -> String {
        var out = ""
        out.reserveCapacity(sql.utf8.count + 8)
        var n = 0
        var quote: Character?
        var lineComment = false
        var previous: Character = " "
        for c in sql {
            if lineComment {
                if c == "\n" { lineComment = false }
            } else if let q = quote {
                if c == q { quote = nil }
            } else if c == "'" || c == "\"" {
                quote = c
            } else if c == "-" && previous == "-" {
                lineComment = true
            } else if c == "?" {
                n += 1
                out += "$\(n)"
                previous = c
                continue
            }
            out.append(c)
            previous = c
        }
        return out
    }
}

/// A Swift value a statement binds: the store logic writes `[id, grams, note]` and each becomes its `SQLValue`.
public protocol SQLBindable { var sqlValue: SQLValue { get } }
extension SQLValue: SQLBindable { public var sqlValue: SQLValue { self } }
extension Int64: SQLBindable { public var sqlValue: SQLValue { .int(self) } }
extension Int: SQLBindable { public var sqlValue: SQLValue { .int(Int64(self)) } }
extension Double: SQLBindable { public var sqlValue: SQLValue { .double(self) } }
extension String: SQLBindable { public var sqlValue: SQLValue { .text(self) } }
extension Bool: SQLBindable { public var sqlValue: SQLValue { .int(self ? 1 : 0) } }
extension Optional: SQLBindable where Wrapped: SQLBindable {
    public var sqlValue: SQLValue { self?.sqlValue ?? .null }
}

extension SQLExecutor {
    public func rows(_ sql: String, _ arguments: [any SQLBindable]) throws -> [SQLRow] { try rows(sql, arguments.map(\.sqlValue)) }
    @discardableResult
    public func execute(_ sql: String, _ arguments: [any SQLBindable]) throws -> Int { try execute(sql, arguments.map(\.sqlValue)) }
    public func insertReturningId(_ sql: String, _ arguments: [any SQLBindable]) throws -> Int64 {
        try insertReturningId(sql, arguments.map(\.sqlValue))
    }
    public func row(_ sql: String, _ arguments: [any SQLBindable]) throws -> SQLRow? { try rows(sql, arguments).first }
    public func forEachRow(_ sql: String, _ arguments: [any SQLBindable], columns: (([String]) -> Void)? = nil,
                           _ body: ([SQLValue]) throws -> Void) throws {
        try forEachRow(sql, arguments.map(\.sqlValue), columns: columns, body)
    }
    public func int(_ sql: String, _ arguments: [any SQLBindable]) throws -> Int64? { try row(sql, arguments)?[0].int }
}

/// `?, ?, ?` for an IN list of `count` values (no values: `NULL`, which matches nothing).
func questionMarks(_ count: Int) -> String {
    count == 0 ? "NULL" : Array(repeating: "?", count: count).joined(separator: ", ")
}

/// The SQL of a range check both schemas write from the domain's own ranges (`Score.range`), so a
/// scale is said once: `BETWEEN 1 AND 7`.
public enum SQLRange {
    public static func between(_ range: ClosedRange<Int>) -> String { "BETWEEN \(range.lowerBound) AND \(range.upperBound)" }
}
