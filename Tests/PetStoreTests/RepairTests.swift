import Foundation
import GRDB
import XCTest
import PetlogTestSupport
import PetModel
@testable import PetFiles
@testable import PetStoreCore
@testable import PetStoreSQLite
@testable import PetStorePostgres

/// `check` names a broken record by its id and kind, as data, and `repair` acts on those (never on the text
/// printed for people), on both stores.
final class RepairTests: StoreTestCase {
    var repo: (any PetlogStore)!
    let t0 = Date(timeIntervalSince1970: 1_795_395_600)

    override func setUpWithError() throws {
        repo = try makeStore(now: { Date(timeIntervalSince1970: 1_795_395_600) })
    }

    /// Runs `sql` on the store's database behind petlog's back (damage made by another program).
    func behindTheStore(_ sql: String, _ arguments: [SQLValue]) throws {
        switch (repo as? Store)?.engine {
        case let sqlite as SQLiteRepository:
            try sqlite.database.dbQueue.write { db in _ = try SQLiteExecutor(db).execute(sql, arguments) }
        case let server as PostgresRepository:
            try server.link.execute(sql, arguments)
        default:
            XCTFail("unknown store \(type(of: repo))")
        }
    }

    func testRepairRemovesTheRecordsTheProblemsNameByIdNotByText() throws {
        _ = try repo.addPet(PetDraft(name: "Coco", species: .dog))
        let ids = try repo.addRecords([
            (.name("Coco"), RecordDraft(at: t0, utcOffset: 32_400, note: nil, detail: .weight(Weight(mass: Mass(grams: 5000))))),
            (.name("Coco"), RecordDraft(at: t0.addingTimeInterval(-60), utcOffset: 32_400, note: nil, detail: .diary(Diary(text: "x")))),
            (.name("Coco"), RecordDraft(at: t0.addingTimeInterval(-120), utcOffset: 32_400, note: nil, detail: .weight(Weight(mass: Mass(grams: 5100))))),
        ]).map(\.id)
        try behindTheStore("DELETE FROM diary WHERE record_id = ?", [.int(ids[1])])

        let problems = try repo.check()
        XCTAssertEqual(problems.map(\.kind), [.orphanRecord])
        XCTAssertEqual(problems.first?.record, StoreProblem.RecordKey(id: ids[1], kind: .diary))
        XCTAssertEqual(problems.first?.detail, "#\(ids[1]) diary")

        // The text is for people: one that names another record changes nothing about what is repaired.
        var problem = try XCTUnwrap(problems.first)
        problem.detail = "#\(ids[2]) weight"
        let report = try repo.repair([problem])
        XCTAssertEqual(report.fixed, 1)
        XCTAssertEqual(try repo.check(), [])
        XCTAssertThrowsError(try repo.record(id: ids[1]))
        XCTAssertEqual(try repo.record(id: ids[0]).id, ids[0])
        XCTAssertEqual(try repo.record(id: ids[2]).id, ids[2], "the record the text names is kept")

        // And a problem that carries no record removes none, whatever its text says.
        let textOnly = StoreProblem(kind: .orphanRecord, detail: "#\(ids[0]) weight")
        XCTAssertEqual(try repo.repair([textOnly]).fixed, 0)
        XCTAssertEqual(try repo.record(id: ids[0]).id, ids[0])
    }
}
