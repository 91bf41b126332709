import Foundation
import GRDB
import PetModel

/// The full-text index `search` reads (schema v5): one FTS5 row per record (rowid = record id) and per
/// pet (rowid = minus the pet id) holding the folded text a user can search, tokenized in trigrams so any
/// substring of three characters or more — Korean and Japanese included — is an index lookup.
///
/// The text is folded the way `search` folds its query (`TextField.nameKey`: NFKC, case), which only
/// petlog's connections can do (`petlog_fold`). So the triggers use nothing but SQLite: they note the
/// changed record or pet in `search_stale`, and every petlog write transaction ends by refreshing those
/// rows (`refresh`, from `SQLiteRepository.write` and the import). A change made by another program
/// (the sqlite3 shell) stays in `search_stale` until petlog's next write; `search` reads those rows the
/// old way meanwhile, so it never misses them. `check` compares the index with the tables and
/// `check --repair` rebuilds it.
public enum SearchIndex {
    /// Trigrams: a query shorter than this is matched by scanning the index's folded text instead.
    static let minimumLength = 3

    /// Fields joined with a separator no folded query contains, so a match never spans two fields of
    /// different tables (within one table they are joined with a space, as `search` always did).
    static let separator = "char(31)"

    /// Record keys, their text as stored (`source`) and folded (`body`), for the records `recordFilter`
    /// and pets `petFilter` select. `check` compares `source` with the tables without folding anything again.
    static func source(records recordFilter: String, pets petFilter: String, kinds: [RecordKindTable] = RecordKindTable.searched) -> String {
        "SELECT key, petlog_fold(source) AS body, source FROM (\(text(records: recordFilter, pets: petFilter, kinds: kinds)))"
    }

    /// The SQL spelling of the few things the two engines write differently.
    public enum Dialect: Sendable {
        case sqlite, postgres
        var separator: String { self == .sqlite ? "char(31)" : "chr(31)" }
        /// The values of `column` from `from` (rows of one record), joined with the separator in `order`.
        func joined(_ column: String, from: String, order: String) -> String {
            switch self {
            case .sqlite: return "(SELECT group_concat(\(column), \(separator)) FROM (SELECT \(column) FROM \(from) ORDER BY \(order)))"
            case .postgres: return "(SELECT string_agg(\(column), \(separator) ORDER BY \(order)) FROM \(from))"
            }
        }
    }

    /// Record keys and their text as stored, rows without any text left out. `wholeTables` (PostgreSQL,
    /// for rebuilding every row) reads each detail table once through a join instead of looking up each
    /// record's row: the same text, 1.4 s → 0.4 s for a shelter.
    /// `kinds`: the kinds whose detail text is read (all with text, unless a migration runs before a
    /// later kind's table exists).
    public static func text(records recordFilter: String, pets petFilter: String, dialect: Dialect = .sqlite, wholeTables: Bool = false,
                            kinds: [RecordKindTable] = RecordKindTable.searched) -> String {
        let separator = dialect.separator
        let joins = wholeTables && dialect == .postgres
        // The text of each kind's detail row, from its own table (unqualified columns).
        let items = dialect.joined("name", from: "expense_item WHERE \(joins ? "expense_item.record_id = expense.record_id" : "record_id = r.id")", order: "position")
        let details: [(table: String, text: String)] = kinds.compactMap { k in
            k.searchText.map { (k.table, $0(separator, items)) }
        }
        let kinds = details.map { d in
            joins ? "WHEN '\(d.table)' THEN k_\(d.table).t" : "WHEN '\(d.table)' THEN (SELECT \(d.text) FROM \(d.table) WHERE record_id = r.id)"
        }.joined(separator: " ")
        let files: String
        var from = "record r"
        if joins {
            files = "k_files.t"
            from += details.map { d in " LEFT JOIN (SELECT record_id, \(d.text) AS t FROM \(d.table)) k_\(d.table) ON k_\(d.table).record_id = r.id" }.joined()
            from += " LEFT JOIN (SELECT record_id, string_agg(original_name, \(separator) ORDER BY position) AS t FROM attachment GROUP BY record_id) k_files ON k_files.record_id = r.id"
        } else {
            files = dialect == .sqlite
                ? "(SELECT group_concat(original_name, \(separator)) FROM attachment WHERE record_id = r.id)"
                : dialect.joined("original_name", from: "attachment WHERE record_id = r.id", order: "position")
        }
        let trim = dialect == .sqlite ? "trim" : "btrim"
        return """
            SELECT key, source FROM (
              SELECT r.id AS key, coalesce(r.note, '') || \(separator) || coalesce(CASE r.kind \(kinds) END, '') || \(separator)
                || coalesce(\(files), '') AS source
              FROM \(from) WHERE \(recordFilter)
              UNION ALL
              SELECT -p.id, p.name || ' ' || coalesce(p.breed, '') || ' ' || coalesce(p.color, '') || ' ' || coalesce(p.microchip, '')
                || ' ' || coalesce(p.notes, '')
              FROM pet p WHERE \(petFilter)
            ) AS texts WHERE length(\(trim)(source, \(separator) || ' ')) > 0
            """
    }

    /// Every record with text to search: weights and other kinds without text only when they have a note or a file.
    /// The records of a kind whose list of codes (a grooming's `tasks`, `bath,nails`) holds one of `codes`,
    /// found by any of the codes' names (`목욕`, `シャンプー` find `bath`); `placeholder` binds the i-th code.
    public static func groomingTasks(_ codes: [String], placeholder: (Int, String) -> String) -> String? {
        guard !codes.isEmpty else { return nil }
        // Codes are lower-case letters only (the schemas check it), so LIKE has no wildcard to meet; both stores have it.
        let tests = codes.enumerated().map { "',' || tasks || ',' LIKE '%,' || \(placeholder($0.offset, $0.element)) || ',%'" }
        return "SELECT record_id FROM grooming WHERE tasks IS NOT NULL AND (" + tests.joined(separator: " OR ") + ")"
    }

    public static let everyRecord = "r.note IS NOT NULL OR r.kind IN (\(RecordKindTable.searched.map { "'\($0.table)'" }.joined(separator: ", "))) OR r.id IN (SELECT record_id FROM attachment)"
    static let everything = source(records: everyRecord, pets: "1")

    /// The rows of the changed records and pets.
    static let stale = source(records: "r.id IN (SELECT key FROM search_stale WHERE key > 0)",
                              pets: "p.id IN (SELECT -key FROM search_stale WHERE key < 0)")

    /// Brings the rows noted in `search_stale` up to date (the end of every petlog write transaction).
    static func refresh(_ db: Database) throws {
        guard try Bool.fetchOne(db, sql: "SELECT EXISTS (SELECT 1 FROM search_stale)") == true else { return }
        try db.execute(sql: """
            DELETE FROM search_index WHERE rowid IN (SELECT key FROM search_stale);
            INSERT INTO search_index (rowid, body, source) \(stale);
            DELETE FROM search_stale;
            """)
    }

    /// Fills the index from scratch in one statement (migration, big imports, `check --repair`). In a
    /// migration (`migrating`), only the kinds whose tables exist yet are read: v5 runs on files made
    /// before kinds that later migrations add, and their text is indexed when their own migration runs.
    static func rebuild(_ db: Database, migrating: Bool = false) throws {
        let source = migrating
            ? Self.source(records: everyRecord, pets: "1", kinds: try RecordKindTable.searched.filter { try db.tableExists($0.table) })
            : everything
        try db.execute(sql: """
            DELETE FROM search_index;
            INSERT INTO search_index (rowid, body, source) \(source);
            DELETE FROM search_stale;
            """)
    }

    /// Index rows that differ from the tables (missing, extra or made from other text), the noted changes
    /// not yet refreshed left aside. The stored text is compared, not the folded one: nothing is folded again.
    static func rowsOutOfStep(_ db: Database) throws -> Int {
        try Int.fetchOne(db, sql: """
            WITH want AS (\(text(records: everyRecord, pets: "1"))),
                 have AS (SELECT rowid AS key, source FROM search_index)
            SELECT count(*) FROM (
              SELECT key FROM (SELECT key, source FROM want EXCEPT SELECT key, source FROM have)
              UNION ALL
              SELECT key FROM (SELECT key, source FROM have EXCEPT SELECT key, source FROM want)
            ) WHERE key NOT IN (SELECT key FROM search_stale)
            """) ?? 0
    }

    /// An FTS5 phrase: the folded query in double quotes, its own quotes doubled.
    static func phrase(_ folded: String) -> String {
        "\"" + folded.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }

    /// Keys of the rows whose folded text contains `folded` (`:q`), of records (`sign` 1) or pets (-1):
    /// an index lookup from three characters, a scan of the folded text below that; rows changed by another
    /// program since petlog's last write are read from the tables.
    static func matching(sign: Int, arguments: inout [String: (any DatabaseValueConvertible)?], folded: String) -> String {
        let side = sign > 0 ? "> 0" : "< 0"
        let indexed: String
        if folded.unicodeScalars.count >= minimumLength {
            arguments["phrase"] = phrase(folded)
            indexed = "SELECT rowid AS key FROM search_index WHERE search_index MATCH :phrase"
        } else {
            indexed = "SELECT rowid AS key FROM search_index WHERE instr(body, :q) > 0"
        }
        let key = sign > 0 ? "key" : "-key"
        return """
            SELECT \(key) FROM (\(indexed) AND rowid \(side) AND rowid NOT IN (SELECT key FROM search_stale))
            UNION SELECT \(key) FROM (\(stale)) WHERE key \(side) AND instr(body, :q) > 0
            """
    }
}
