import Foundation
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
/// old way meanwhile, so it never misses them. More noted rows than a write indexes itself (a big
/// import's, `backlogLimit`) wait for the first `search`, which indexes them before it reads. `check`
/// compares the index with the tables, noted rows left aside, and `check --repair` rebuilds it.
public enum SearchIndex {
    /// Trigrams: a query shorter than this is matched by scanning the index's folded text instead.
    public static let minimumLength = 3

    /// Fields joined with a separator no folded query contains, so a match never spans two fields of
    /// different tables (within one table they are joined with a space, as `search` always did).
    static let separator = "char(31)"

    /// Record keys, their text as stored (`source`) and folded (`body`), for the records `recordFilter`
    /// and pets `petFilter` select. `check` compares `source` with the tables without folding anything again.
    public static func source(records recordFilter: String, pets petFilter: String, kinds: [RecordKindTable] = RecordKindTable.searched) -> String {
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
    /// The records whose column of listed codes (`RecordKindTable.listedCodes`: a grooming's `tasks`,
    /// `bath,nails`) holds a code with a name containing `text` (`목욕`, `シャンプー` find `bath`): one query
    /// per such kind and its codes; `placeholder` binds the i-th code of the whole list.
    public static func listedCodes(_ text: String, placeholder: (Int, String) -> String) -> [(sql: String, codes: [String])] {
        var out: [(String, [String])] = []
        var n = 0
        for k in RecordKindTable.all {
            guard let (column, containing) = k.listedCodes else { continue }
            let codes = containing(text)
            guard !codes.isEmpty else { continue }
            // Codes are lower-case letters only (the schemas check it), so LIKE has no wildcard to meet; both stores have it.
            let tests = codes.map { code -> String in
                defer { n += 1 }
                return "',' || \(column) || ',' LIKE '%,' || \(placeholder(n, code)) || ',%'"
            }
            out.append(("SELECT record_id FROM \(k.table) WHERE \(column) IS NOT NULL AND (" + tests.joined(separator: " OR ") + ")", codes))
        }
        return out
    }

    public static let everyRecord = "r.note IS NOT NULL OR r.kind IN (\(RecordKindTable.searched.map { "'\($0.table)'" }.joined(separator: ", "))) OR r.id IN (SELECT record_id FROM attachment)"
    public static let everything = source(records: everyRecord, pets: "1")

    /// The rows of the changed records and pets.
    public static let stale = source(records: "r.id IN (SELECT key FROM search_stale WHERE key > 0)",
                              pets: "p.id IN (SELECT -key FROM search_stale WHERE key < 0)")

    /// An FTS5 phrase: the folded query in double quotes, its own quotes doubled.
    public static func phrase(_ folded: String) -> String {
        "\"" + folded.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }
}
