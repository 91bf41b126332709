import Foundation
import GRDB

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
    init(table: String, id: Int64, column: String, text: String) {
        self.init(table: table, id: id, column: column, value: "'\(text.count > 60 ? text.prefix(60) + "…" : Substring(text))'")
    }

    public var description: String { "\(table) #\(id) \(column): \(value)" }
}

extension Row {
    /// The text in `column` as `T`. A value `parse` refuses (or a missing one) is thrown, never replaced
    /// by a default: a default would hide the damage and write it back on the next edit.
    func decode<T>(_ column: String, table: String, id: Int64, _ parse: (String) -> T?) throws -> T {
        let stored: DatabaseValue = self[column]
        guard let text = String.fromDatabaseValue(stored) else {
            throw InvalidStoredValue(table: table, id: id, column: column, value: stored.isNull ? "NULL" : "\(stored)")
        }
        guard let value = parse(text) else { throw InvalidStoredValue(table: table, id: id, column: column, text: text) }
        return value
    }

    /// As `decode`, where the column may be NULL (nil); any other value must parse.
    func decodeIfPresent<T>(_ column: String, table: String, id: Int64, _ parse: (String) -> T?) throws -> T? {
        let stored: DatabaseValue = self[column]
        if stored.isNull { return nil }
        return try decode(column, table: table, id: id, parse)
    }
}
