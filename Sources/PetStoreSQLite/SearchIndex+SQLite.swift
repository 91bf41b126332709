import Foundation
import GRDB
import PetModel
import PetStoreCore

/// The SQLite side of `SearchIndex`: the FTS5 table kept in step at the end of each write, rebuilt, compared
/// and queried through GRDB.
extension SearchIndex {
    /// The most noted rows a write brings up to date itself. A larger backlog — a big import's text, or
    /// many rows changed by another program — waits for the next `search` (`catchUp`), so an import does not
    /// pay for tokenizing every text it brought (a second of a shelter's load) and a later small write does
    /// not pay for it either. Until then `search` reads the waiting rows from the tables (`matching`) and
    /// `check` leaves them aside, as it does any noted change.
    static let backlogLimit = 5_000

    /// How many rows wait, counted up to `backlogLimit + 1`.
    static func backlog(_ db: Database) throws -> Int {
        try Int.fetchOne(db, sql: "SELECT count(*) FROM (SELECT 1 FROM search_stale LIMIT \(backlogLimit + 1))") ?? 0
    }

    /// Brings the rows noted in `search_stale` up to date (the end of every petlog write transaction), unless
    /// there are more than `backlogLimit` of them and `everything` is false.
    static func refresh(_ db: Database, everything: Bool = false) throws {
        let waiting = try backlog(db)
        guard waiting > 0, everything || waiting <= backlogLimit else { return }
        try db.execute(sql: """
            DELETE FROM search_index WHERE rowid IN (SELECT key FROM search_stale);
            INSERT INTO search_index (rowid, body, source) \(stale);
            DELETE FROM search_stale;
            """)
    }

    /// Fills the index from scratch in one statement (migration, big imports, `check --repair`). In a
    /// migration (`migrating`), only the kinds whose tables and columns exist yet are read: v5 runs on files
    /// made before kinds and columns that later migrations add (v12's diary title), and their text is
    /// indexed when their own migration runs.
    static func rebuild(_ db: Database, migrating: Bool = false) throws {
        let source = migrating
            ? Self.source(records: everyRecord, pets: "1", kinds: try RecordKindTable.searched.filter { kind in
                guard try db.tableExists(kind.table) else { return false }
                let have = Set(try db.columns(in: kind.table).map(\.name))
                return kind.columns.allSatisfy(have.contains)
            })
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
            ) AS wrong WHERE NOT EXISTS (SELECT 1 FROM search_stale s WHERE s.key = wrong.key)
            """) ?? 0
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
