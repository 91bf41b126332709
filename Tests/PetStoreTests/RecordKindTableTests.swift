import XCTest
import GRDB
import PetModel
@testable import PetFiles
@testable import PetStoreCore
@testable import PetStoreSQLite

/// The kind descriptors against the SQLite schema they describe.
final class RecordKindTableTests: XCTestCase {
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
