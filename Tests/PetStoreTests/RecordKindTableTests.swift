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
            case .text(let c), .integer(let c), .boolean(let c), .number(let c), .integerOrText(let c), .codes(let c), .items(let c), .lines(let c),
                 .pair(let c, _, _), .pairs(let c, _, _): return [c]
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

    /// A later kind's members say what `show ID` and `edit` need (issue 43): each value fits its JSON form,
    /// every column is in one member and the members go in the columns' order, each option is `--` and one
    /// member's only; a shipped kind has none (its fields and options are written by hand).
    func testALaterKindsMembersAreWhatShowAndEditRead() throws {
        for k in RecordKindTable.all {
            guard let members = k.members else { XCTAssertNil(k.jsonFields, k.table); continue }
            for m in members {
                let fits: Bool
                switch (m.value, m.form) {
                case (.text, .text), (.day, .text), (.money, .money), (.codes, .codes), (.meters, .integer), (.minutes, .integer): fits = true
                default: fits = false
                }
                XCTAssertTrue(fits, "\(k.table) \(m.key): \(m.value) in \(m.form)")
                XCTAssertFalse(m.label.isEmpty, "\(k.table) \(m.key)")
                if let option = m.option { XCTAssertTrue(option.hasPrefix("--") && option.count > 2, "\(k.table) \(option)") }
            }
            XCTAssertEqual(members.flatMap(\.columns), k.columns, "\(k.table): every column once, in order")
            let options = members.compactMap(\.option)
            XCTAssertEqual(options.count, Set(options).count, "\(k.table): an option of two members")
        }
        // Read back as the store reads a row: the values the columns hold, a value petlog never writes refused.
        let walk = RecordKindTable.of(.walk)
        XCTAssertEqual(try walk.detail(["distance_m": .int(3200)]), .walk(Walk(meters: 3200, minutes: nil)))
        XCTAssertEqual(try walk.detail(RecordKindTable.columnValues(.walk(Walk(meters: 10, minutes: 45)))), .walk(Walk(meters: 10, minutes: 45)))
        XCTAssertThrowsError(try walk.detail(["duration_min": .int(-5)])) { XCTAssertTrue($0 is InvalidStoredValue, "\($0)") }
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
