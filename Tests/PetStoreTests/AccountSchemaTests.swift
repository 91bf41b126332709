import Foundation
import XCTest
import PetlogTestSupport
import GRDB
import PetModel
@testable import PetStoreCore
@testable import PetStoreSQLite
@testable import PetStorePostgres

/// `petlog serve`'s accounts, sessions and login failures (SQLite v14–v16, PostgreSQL pg11–pg13; a unique index is a unique key) are the same tables on both engines,
/// as `RecordKindTableTests.testBothMigrationsAgreeWithTheDescriptor` holds the kinds' tables to.
final class AccountSchemaTests: XCTestCase, OnOneStore {
    static let onOneStore = "both engines in each test: the SQLite file's account tables against the server's"

    /// Columns in order with which may be NULL, the primary and unique keys, the foreign keys with what a
    /// delete does, how many CHECKs; and what the CHECKs say: the same rows are kept and refused by both.
    func testServesAccountTablesAgreeOnBothEngines() throws {
        let db = try AppDatabase.inMemory()
        let l = try connect(try requireServer().newDatabase())
        try PostgresSchema.migrate(l)
        func file(_ sql: String, _ table: String) throws -> [String] {
            try db.dbQueue.read { db in try String.fetchAll(db, sql: sql, arguments: [table]) }
        }
        func server(_ sql: String, _ table: String) throws -> [String] {
            try l.query(sql, [.text(table)]).map { $0[0].text ?? "" }
        }
        for table in ["web_account", "web_session", "web_login_failure"] {
            // NOT NULL as SQLite enforces it: declared, or the rowid (an INTEGER PRIMARY KEY); a TEXT PRIMARY KEY of a rowid table takes a NULL.
            let columns = try file("SELECT name || CASE WHEN \"notnull\" OR (pk AND upper(type) = 'INTEGER') THEN ' NOT NULL' ELSE '' END FROM pragma_table_info(?) ORDER BY cid", table)
            XCTAssertFalse(columns.isEmpty, table)
            XCTAssertEqual(try server("""
                SELECT column_name || CASE WHEN is_nullable = 'NO' THEN ' NOT NULL' ELSE '' END FROM information_schema.columns
                WHERE table_schema = 'petlog' AND table_name = $1 ORDER BY ordinal_position
                """, table), columns, "\(table): columns")
            let keys = try file("SELECT 'PRIMARY KEY ' || group_concat(name, ',') FROM (SELECT name FROM pragma_table_info(?1) WHERE pk > 0 ORDER BY pk) "
                                + "UNION ALL SELECT 'UNIQUE ' || (SELECT group_concat(name, ',') FROM pragma_index_info(il.name)) "
                                + "FROM pragma_index_list(?1) il WHERE il.\"unique\" AND il.origin <> 'pk' ORDER BY 1", table)
            XCTAssertEqual(try server("""
                SELECT tc.constraint_type || ' ' || string_agg(k.column_name, ',' ORDER BY k.ordinal_position)
                FROM information_schema.table_constraints tc JOIN information_schema.key_column_usage k
                  ON k.constraint_schema = tc.constraint_schema AND k.constraint_name = tc.constraint_name
                WHERE tc.table_schema = 'petlog' AND tc.table_name = $1 AND tc.constraint_type IN ('PRIMARY KEY', 'UNIQUE')
                GROUP BY tc.constraint_name, tc.constraint_type ORDER BY 1
                """, table), keys, "\(table): keys")
            let foreign = try file("SELECT \"from\" || ' -> ' || \"table\" || '.' || \"to\" || ' ON DELETE ' || on_delete FROM pragma_foreign_key_list(?) ORDER BY 1", table)
            XCTAssertEqual(try server("""
                SELECT k.column_name || ' -> ' || c.table_name || '.' || c.column_name || ' ON DELETE ' || r.delete_rule
                FROM information_schema.referential_constraints r
                JOIN information_schema.key_column_usage k ON k.constraint_schema = r.constraint_schema AND k.constraint_name = r.constraint_name
                JOIN information_schema.constraint_column_usage c ON c.constraint_schema = r.constraint_schema AND c.constraint_name = r.constraint_name
                WHERE r.constraint_schema = 'petlog' AND k.table_name = $1 ORDER BY 1
                """, table), foreign, "\(table): foreign keys")
            let sql = try file("SELECT sql FROM sqlite_master WHERE type = 'table' AND name = ?", table).joined()
            XCTAssertEqual(try server("SELECT count(*)::text FROM pg_constraint WHERE conrelid = ('petlog.' || $1)::regclass AND contype = 'c'", table),
                           [String(sql.components(separatedBy: "CHECK (").count - 1)], "\(table): CHECKs")
        }
        XCTAssertEqual(try file("SELECT \"from\" || ' -> ' || \"table\" || '.' || \"to\" || ' ON DELETE ' || on_delete FROM pragma_foreign_key_list(?)", "web_session"),
                       ["account_id -> web_account.id ON DELETE CASCADE"])

        // The CHECKs, NOT NULLs and keys at work: each row inserted into both; kept (true) or refused (false).
        func text(_ n: Int, _ c: Character = "a") -> String { "'" + String(repeating: c, count: n) + "'" }
        func insert(_ table: String, _ columns: [String], _ base: (Int) -> [String: String], _ probes: [[String: String]]) throws -> [Bool] {
            var kept: [Bool] = []
            for (i, probe) in probes.enumerated() {
                let row = base(i).merging(probe) { _, typed in typed }
                let statement = "INSERT INTO \(table) (\(columns.joined(separator: ", "))) VALUES (\(columns.map { row[$0] ?? "NULL" }.joined(separator: ", ")))"
                let onFile = (try? db.dbQueue.write { try $0.execute(sql: statement) }) != nil
                let onServer = (try? l.query(statement)) != nil
                XCTAssertEqual(onServer, onFile, "the server \(onServer ? "keeps" : "refuses") what the file \(onFile ? "keeps" : "refuses"): \(statement)")
                kept.append(onFile)
            }
            return kept
        }
        let accounts = try insert("web_account", ["id", "name", "name_key", "role", "password_hash", "language", "created_at", "password_changed_at"], { i in
            ["id": String(i + 1), "name": "'Kim'", "name_key": "'key\(i + 1)'", "role": "'owner'", "password_hash": text(60), "created_at": "0", "password_changed_at": "0"]
        }, [[:], ["name": "''"], ["name": text(65)], ["name": text(64)], ["name": "NULL"], ["name_key": "'key1'"], ["name_key": "NULL"],
            ["role": "'admin'"], ["role": "'viewer'"], ["role": "NULL"], ["password_hash": text(59)], ["password_hash": "NULL"],
            ["language": "'fr'"], ["language": "'ja'"], ["created_at": "NULL"], ["password_changed_at": "NULL"], ["id": "1"]])
        XCTAssertEqual(accounts, [true, false, false, true, false, false, false, false, true, false, false, false, false, true, false, false, false])
        let sessions = try insert("web_session", ["token_hash", "account_id", "csrf", "created_at", "expires_at"], { i in
            ["token_hash": "'" + String(format: "%064d", i) + "'", "account_id": "1", "csrf": text(32), "created_at": "0", "expires_at": "10"]
        }, [[:], ["token_hash": text(63)], ["token_hash": "'" + String(format: "%064d", 0) + "'"], ["account_id": "999"], ["account_id": "NULL"],
            ["csrf": text(31)], ["csrf": text(128)], ["csrf": text(129)], ["csrf": "NULL"], ["expires_at": "0"], ["created_at": "NULL"], ["token_hash": "NULL"]])
        XCTAssertEqual(sessions, [true, false, false, false, false, false, true, false, false, false, false, false], "a session without a token hash: refused by both (v16)")
        let failures = try insert("web_login_failure", ["key_hash", "failures", "last_at"], { i in
            ["key_hash": "'" + String(format: "%064d", i) + "'", "failures": "1", "last_at": "0"]
        }, [[:], ["key_hash": "NULL"], ["key_hash": text(63)], ["key_hash": "'" + String(format: "%064d", 0) + "'"], ["failures": "0"], ["failures": "NULL"],
            ["failures": "50"], ["last_at": "NULL"]])
        XCTAssertEqual(failures, [true, false, false, false, false, false, true, false])
        // An account's sessions go with it, on both.
        try db.dbQueue.write { try $0.execute(sql: "DELETE FROM web_account WHERE id = 1") }
        try l.query("DELETE FROM web_account WHERE id = 1")
        XCTAssertEqual(try db.dbQueue.read { try Int.fetchOne($0, sql: "SELECT count(*) FROM web_session") }, 0)
        XCTAssertEqual(try l.query("SELECT count(*)::text FROM web_session").first?[0].text, "0")
    }

    /// The class of v16's fix: in the SQLite file every primary key's column refuses a NULL, as PostgreSQL's do
    /// (declared NOT NULL, the rowid, or a table WITHOUT ROWID), whichever table it is.
    func testEveryPrimaryKeyOfTheFileRefusesNull() throws {
        let db = try AppDatabase.inMemory()
        let nullable = try db.dbQueue.read { db in
            try String.fetchAll(db, sql: """
                SELECT m.name || '.' || c.name FROM sqlite_master m JOIN pragma_table_info(m.name) c
                WHERE m.type = 'table' AND m.name NOT LIKE 'sqlite\\_%' ESCAPE '\\' AND m.sql NOT LIKE '%WITHOUT ROWID%' AND m.sql NOT LIKE 'CREATE VIRTUAL%'
                  AND c.pk > 0 AND NOT c."notnull" AND NOT (upper(c.type) = 'INTEGER' AND (SELECT count(*) FROM pragma_table_info(m.name) WHERE pk > 0) = 1)
                ORDER BY 1
                """)
        }
        XCTAssertEqual(nullable, [])
    }
}
