import Foundation
import XCTest
import PetModel
@testable import PetStore

/// The demo goes in through the import batch: ids as planned, doses on their own courses, and only into an empty file.
final class DemoHouseholdTests: XCTestCase {
    let now = Date(timeIntervalSince1970: 1_795_395_600)
    let demo = DemoHousehold(seed: 42, end: LocalDate(year: 2026, month: 11, day: 20)!, timeZone: TimeZone(identifier: "Asia/Seoul")!)

    func store() throws -> SQLiteRepository {
        let fixed = now
        return SQLiteRepository(try AppDatabase.inMemory(), now: { fixed })
    }

    func testPetsAndRecordsGetTheIdsPlannedAndDosesTheirCourse() throws {
        let repo = try store()
        let counts = try demo.seed(into: repo)
        XCTAssertEqual(try repo.pets(includeArchived: true).map { "\($0.id) \($0.name) \($0.species.rawValue)" }.sorted(),
                       ["1 Coco dog", "2 Nabi cat", "3 Mochi ferret"])
        let records = try repo.records(RecordQuery())
        XCTAssertEqual(records.map(\.id).sorted(), Array(1...Int64(counts.records)))
        let byId = Dictionary(uniqueKeysWithValues: records.map { ($0.id, $0) })
        var doses = 0
        for r in records {
            guard case .dose(let d) = r.detail else { continue }
            doses += 1
            let course = try XCTUnwrap(byId[d.medicationId], "dose #\(r.id)")
            XCTAssertEqual(course.kind, .medication)
            XCTAssertEqual(course.petId, r.petId)
            XCTAssertLessThan(course.id, r.id)
        }
        XCTAssertGreaterThan(doses, 20)
        XCTAssertFalse(records.contains { $0.at > now }, "nothing later than the store's clock")
        XCTAssertTrue(records.contains { $0.starred })
        XCTAssertTrue(records.contains { $0.petId == nil }, "household expenses")
        XCTAssertEqual(records.map(\.createdAt).max(), now)
    }

    func testAFileWithAnythingInItIsRefusedAndLeftAlone() throws {
        let repo = try store()
        _ = try repo.addRecord(pets: [], RecordDraft(at: now, utcOffset: 0, detail: .expense(Expense(money: Money(minorUnits: 100, currency: .krw),
                                                                                                          category: "food"))))
        XCTAssertThrowsError(try demo.seed(into: repo)) { XCTAssertEqual($0 as? StoreError, .constraint("not empty")) }
        XCTAssertEqual(try repo.count(RecordQuery()), 1)
        XCTAssertEqual(try repo.pets(includeArchived: true), [])
    }
}
