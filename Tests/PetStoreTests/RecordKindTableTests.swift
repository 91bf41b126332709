import XCTest
import PetlogTestSupport
import GRDB
import PetModel
@testable import PetFiles
@testable import PetStoreCore
@testable import PetStoreSQLite
@testable import PetStorePostgres

/// The kind descriptors against the SQLite schema they describe.
final class RecordKindTableTests: XCTestCase, OnOneStore {
    static let onOneStore = "SQLite: the descriptors against the file's schema (the server's tables against the same descriptors: PostgresSchemaTests.testTheKindDescriptorsMatchTheServersTables)"
    func testEveryKindHasItsTableAndColumnsInTheSchema() throws {
        let db = try AppDatabase.inMemory()
        XCTAssertEqual(RecordKindTable.all.map(\.kind), RecordKind.allCases)
        for k in RecordKindTable.all {
            let columns = try db.columnNames(k.table)
            XCTAssertEqual(columns, ["record_id"] + k.columns, k.table)
            for child in k.children { XCTAssertFalse(try db.columnNames(child).isEmpty, child) }
            XCTAssertEqual(k.insertSQL.filter { $0 == "?" }.count, columns.count)
            XCTAssertEqual(RecordDetailTables.width(k.kind), columns.count)
        }
        XCTAssertEqual(RecordKindTable.kindList, "'weight', 'meal', 'stool', 'urine', 'symptom', 'diary', 'visit', 'vaccination', 'medication', 'dose', 'expense', 'grooming', 'walk'")
        XCTAssertEqual(RecordKindTable.searched.map(\.kind), [.meal, .symptom, .diary, .visit, .vaccination, .medication, .expense, .grooming])
        XCTAssertEqual(RecordKindTable.spent.map(\.kind), [.visit, .grooming])
        XCTAssertEqual(RecordKindTable.all.compactMap(\.nextSession), ["next_due"])
    }

    /// Each kind's codec carries exactly its table's columns: every column has a member in the JSON object
    /// (nothing of the record is left out of the export) and every member fills a column of the table,
    /// except what is read from elsewhere (a dose's course name, an expense's items).
    func testEveryKindsCodecCarriesExactlyItsColumns() {
        func columns(_ f: RecordKindTable.JSONRead.Form) -> [String] {
            switch f {
            case .text(let c), .integer(let c), .boolean(let c), .number(let c), .integerOrText(let c), .codes(let c), .items(let c): return [c]
            case .money(let minor, let currency): return [minor, currency]
            }
        }
        for k in RecordKindTable.all {
            let carried = k.jsonRead.flatMap { columns($0.form) }
            XCTAssertEqual(carried.count, Set(carried).count, "\(k.table): a column in two members")
            let elsewhere: Set<String> = k.kind == .dose ? ["medication"] : k.children.isEmpty ? [] : ["items"]
            XCTAssertEqual(Set(carried), Set(k.columns).union(elsewhere), k.table)
            if let json = k.jsonFields { XCTAssertEqual(json.map(\.key), json.map(\.key).sorted(), "\(k.table): keys in sorted order") }
        }
    }

    /// The two migrations and the descriptor agree on every kind: the kinds `record_kind` lists, each detail
    /// table's columns in order, and which of them may be NULL, on the SQLite file and on the server.
    func testBothMigrationsAgreeWithTheDescriptor() throws {
        let db = try AppDatabase.inMemory()
        let server = try requireServer()
        let l = try connect(try server.newDatabase())
        try PostgresSchema.migrate(l)
        let kinds = RecordKind.allCases.map(\.rawValue).sorted()
        XCTAssertEqual(try db.dbQueue.read { try String.fetchAll($0, sql: "SELECT kind FROM record_kind ORDER BY kind") }, kinds)
        XCTAssertEqual(try l.query("SELECT kind FROM record_kind ORDER BY kind").compactMap { $0[0].text }, kinds)
        for k in RecordKindTable.all {
            let file = try db.dbQueue.read { db in
                try Row.fetchAll(db, sql: "SELECT name, \"notnull\" OR pk FROM pragma_table_info(?) ORDER BY cid", arguments: [k.table])
                    .map { "\($0[0] as String)\(($0[1] as Int64) != 0 ? " NOT NULL" : "")" }
            }
            let onServer = try l.query("""
                SELECT column_name, is_nullable FROM information_schema.columns
                WHERE table_schema = 'petlog' AND table_name = $1 ORDER BY ordinal_position
                """, [.text(k.table)]).map { "\($0[0].text ?? "")\($0[1].text == "NO" ? " NOT NULL" : "")" }
            XCTAssertEqual(file.map { $0.components(separatedBy: " ")[0] }, ["record_id"] + k.columns, "\(k.table) in the SQLite schema")
            XCTAssertEqual(onServer, file, "\(k.table): the PostgreSQL schema and the SQLite schema differ")
        }
    }

    func testSchemaChecksAreWrittenFromTheDomainRanges() throws {
        let db = try AppDatabase.inMemory()
        XCTAssertTrue(try db.tableSQL("stool").contains("score BETWEEN 1 AND 7"))
        XCTAssertTrue(try db.tableSQL("weight").contains("body_condition BETWEEN 1 AND 9"))
        XCTAssertTrue(try db.tableSQL("symptom").contains("severity BETWEEN 1 AND 5"))
        XCTAssertEqual(SQLRange.between(StoolScore.range), "BETWEEN 1 AND 7")
    }
}

private extension AppDatabase {
    func columnNames(_ table: String) throws -> [String] {
        try dbQueue.read { db in try String.fetchAll(db, sql: "SELECT name FROM pragma_table_info(?) ORDER BY cid", arguments: [table]) }
    }
    func tableSQL(_ table: String) throws -> String {
        try dbQueue.read { db in try String.fetchOne(db, sql: "SELECT sql FROM sqlite_master WHERE type = 'table' AND name = ?", arguments: [table]) ?? "" }
    }
}
