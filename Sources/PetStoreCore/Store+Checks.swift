import Foundation
import PetFiles
import PetModel

/// What `check` reads the same way on both engines, on the store of the engine's check transaction.
extension Store {
    /// Every stored value a read would refuse, row by row, decoded by the readers' own code. Tables whose
    /// columns are all numbers or free text (weight, stool, symptom, dose) have nothing to refuse and are skipped.
    public static func invalidValues(in sql: any SQLExecutor) throws -> [InvalidStoredValue] {
        var found: [InvalidStoredValue] = []
        func collect(_ decode: () throws -> Void) throws {
            do { try decode() } catch let e as InvalidStoredValue { found.append(e) }
        }
        func each(_ text: String, _ body: (SQLRow) throws -> Void) throws {
            var columns: [String] = []
            try sql.forEachRow(text, [SQLValue](), columns: { columns = $0 }) { try body(SQLRow(columns: columns, values: $0)) }
        }
        try each("SELECT \(Self.petColumns) FROM pet ORDER BY id") { row in try collect { _ = try Self.pet(row) } }
        // The CHECK on kinds keeps this empty unless it was bypassed; the filter keeps a million rows cheap.
        let kinds = RecordKindTable.kindList
        try each("SELECT id, kind FROM record WHERE kind NOT IN (\(kinds)) ORDER BY id") { row in
            try collect { _ = try row.decode("kind", table: "record", id: row.int64("id") ?? 0, RecordKind.init(rawValue:)) }
        }
        for kind in RecordKind.allCases where ![.weight, .stool, .symptom, .dose].contains(kind) {
            try each("SELECT * FROM \(kind.rawValue) ORDER BY record_id") { row in try collect { _ = try RecordDetailTables.detail(kind: kind, row: row) } }
        }
        // A split expense: every share names a first share that is an expense naming itself, in the same currency.
        try each("""
            SELECT e.record_id, e.split_of FROM expense e LEFT JOIN expense h ON h.record_id = e.split_of
            WHERE e.split_of IS NOT NULL AND (h.record_id IS NULL OR h.split_of IS NULL OR h.split_of <> h.record_id OR h.currency <> e.currency)
            ORDER BY e.record_id
            """) { row in
            found.append(InvalidStoredValue(table: "expense", id: row.int64("record_id") ?? 0, column: "split_of", value: String(row.int64("split_of") ?? 0)))
        }
        try each("SELECT day, currency, rate FROM exchange_rate ORDER BY currency, day") { row in
            let day = row.text("day") ?? "", rate = row.text("rate") ?? "", currency = row.text("currency") ?? ""
            if LocalDate.parseISO(Substring(day)) == nil || ExactDecimal(rate) == nil || Currency.named(currency) == nil && currency.count != 3 {
                found.append(InvalidStoredValue(table: "exchange_rate", id: 0, column: "rate", text: "\(currency) \(day) \(rate)"))
            }
        }
        try each("SELECT * FROM budget ORDER BY id") { row in
            let id = row.int64("id") ?? 0
            try collect {
                _ = try row.decode("currency", table: "budget", id: id, Currency.named)
                _ = try row.decodeIfPresent("first_day", table: "budget", id: id) { LocalDate.parseISO(Substring($0)) }
                _ = try row.decodeIfPresent("last_day", table: "budget", id: id) { LocalDate.parseISO(Substring($0)) }
            }
            // A name or place as `budget set` takes it: one line, no control characters, not padded.
            for column in ["name", "place"] where !row.isNull(column) {
                try collect {
                    _ = try row.decode(column, table: "budget", id: id) { text in (try? Budget.label(text, field: column)).flatMap { $0 == text ? $0 : nil } }
                }
            }
        }
        return found
    }

    /// Record headers whose kind's detail row is missing ("#12 weight"), in id order.
    public static func recordsWithoutDetail(in sql: any SQLExecutor) throws -> [StoreProblem.RecordKey] {
        try sql.rows(Self.recordsWithoutDetailSQL, [SQLValue]()).compactMap {
            guard let id = $0[0].int, let kind = $0[1].text.flatMap(RecordKind.init(rawValue:)) else { return nil }
            return StoreProblem.RecordKey(id: id, kind: kind)
        }
    }

    /// One anti-join (`NOT EXISTS`) per known kind, on the detail table's `record_id` key: both engines read
    /// it as a join that needs no memory to be fast (PostgreSQL: a merge or hash anti join; SQLite: one key
    /// lookup a record). The former `id IN (SELECT record_id …)` inside a CASE was a subplan per record,
    /// which PostgreSQL re-scanned for each record once the detail table no longer fit `work_mem` (a check
    /// of 1M weights did not end in 10 minutes). Unknown kinds are not matched here (`invalidValues` names them).
    public static let recordsWithoutDetailSQL = "SELECT id, kind FROM (" + RecordKind.allCases.map {
        "SELECT r.id, r.kind FROM record r WHERE r.kind = '\($0.rawValue)' AND NOT EXISTS (SELECT 1 FROM \($0.rawValue) d WHERE d.record_id = r.id)"
    }.joined(separator: " UNION ALL ") + ") AS orphan ORDER BY id"
}
