import Foundation
import GRDB
import XCTest
import PetlogTestSupport
import PetModel
@testable import PetFiles
@testable import PetStoreCore
@testable import PetStoreSQLite

/// Values petlog never writes, put straight into the file: every read refuses them naming table, id and
/// column (never a default in their place), and `check` lists each one.
final class InvalidStoredValueTests: XCTestCase, OnOneStore {
    static let onOneStore = "SQLite: the values are written past petlog with SQLite's CHECKs switched off for the statement (PRAGMA ignore_check_constraints); a server's CHECK constraints cannot be set aside for one statement, so there petlog never meets such a value"
    var dir: URL!
    var path: String { dir.appendingPathComponent("pets.sqlite").path }
    let now = Date(timeIntervalSince1970: 1_795_395_600)

    override func setUpWithError() throws {
        dir = FileManager.default.temporaryDirectory.appendingPathComponent("petlog-invalid-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(at: dir)
    }

    func store() throws -> Store {
        let fixed = now
        return Store(SQLiteRepository(try AppDatabase.open(path: path), now: { fixed }))
    }

    /// Writes with a plain SQLite connection, as a hand edit would; `ignoringChecks` for columns the schema CHECKs.
    func tamper(_ sql: String, ignoringChecks: Bool = false) throws {
        let queue = try DatabaseQueue(path: path)
        try queue.writeWithoutTransaction { db in
            // As another program may write it: the sqlite3 shell enforces no foreign keys (v7's kind list is one).
            if ignoringChecks { try db.execute(sql: "PRAGMA ignore_check_constraints = ON; PRAGMA foreign_keys = OFF") }
            try db.execute(sql: sql)
        }
    }

    func add(_ detail: RecordDetail, to repo: Store) throws -> Int64 {
        try repo.addRecord(pets: [.name("Coco")], RecordDraft(at: now.addingTimeInterval(-3600), utcOffset: 32_400, detail: detail))[0].id
    }

    func expect(_ expected: InvalidStoredValue, from read: () throws -> Void, file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertThrowsError(try read(), file: file, line: line) { error in
            XCTAssertEqual(error as? InvalidStoredValue, expected, file: file, line: line)
        }
    }

    func testAnUnknownSpeciesIsRefusedByEveryPetReadAndListedByCheck() throws {
        let repo = try store()
        let coco = try repo.addPet(PetDraft(name: "Coco", species: .dog))
        try tamper("UPDATE pet SET species = 'dragon' WHERE id = \(coco.id)")
        let bad = InvalidStoredValue(table: "pet", id: coco.id, column: "species", value: "'dragon'")
        expect(bad) { _ = try repo.pets(includeArchived: true) }
        expect(bad) { _ = try repo.pet(.name("Coco")) }
        expect(bad) { _ = try repo.pet(.id(coco.id)) }
        XCTAssertEqual(try repo.check(), [StoreProblem(kind: .invalidValue, detail: "pet #\(coco.id) species: 'dragon'")])
    }

    func testABirthDayThatDoesNotParseIsNotDropped() throws {
        let repo = try store()
        let coco = try repo.addPet(PetDraft(name: "Coco", species: .dog, born: PartialDate(year: 2019, month: 4)))
        try tamper("UPDATE pet SET born = '2019-13' WHERE id = \(coco.id)")
        expect(InvalidStoredValue(table: "pet", id: coco.id, column: "born", value: "'2019-13'")) { _ = try repo.pets(includeArchived: false) }
    }

    func testRecordDetailsOutsideTheSchemaAreRefusedAndListed() throws {
        let repo = try store()
        _ = try repo.addPet(PetDraft(name: "Coco", species: .dog))
        let meal = try add(.meal(Meal(food: "kibble", type: .meal, amount: Amount(value: 80, unit: .g))), to: repo)
        let course = try add(.medication(Medication(name: "Heartgard", times: [480, 1200])), to: repo)
        let shot = try add(.vaccination(Vaccination(vaccine: "rabies", nextDue: LocalDate(year: 2027, month: 1, day: 5))), to: repo)
        let walk = try add(.diary(Diary(text: "walk", mood: .happy)), to: repo)
        XCTAssertEqual(try repo.check(), [])

        try tamper("UPDATE meal SET type = 'brunch' WHERE record_id = \(meal)", ignoringChecks: true)
        try tamper("UPDATE medication SET times = 'soon' WHERE record_id = \(course)")
        try tamper("UPDATE vaccination SET next_due = '2027-02-30' WHERE record_id = \(shot)")
        try tamper("UPDATE diary SET mood = 'elated' WHERE record_id = \(walk)")

        expect(InvalidStoredValue(table: "meal", id: meal, column: "type", value: "'brunch'")) { _ = try repo.record(id: meal) }
        expect(InvalidStoredValue(table: "medication", id: course, column: "times", value: "'soon'")) {
            _ = try repo.medications(pets: [], includeStopped: true)
        }
        expect(InvalidStoredValue(table: "vaccination", id: shot, column: "next_due", value: "'2027-02-30'")) {
            _ = try repo.records(RecordQuery(kinds: [.vaccination]))
        }
        expect(InvalidStoredValue(table: "diary", id: walk, column: "mood", value: "'elated'")) { _ = try repo.search("walk", limit: 5) }
        // SQLite's integrity check also names the table whose CHECK the meal type breaks; these name the rows.
        let found = try repo.check()
        XCTAssertEqual(found.filter { $0.kind == .invalidValue }.map(\.detail).sorted(), [
            "diary #\(walk) mood: 'elated'", "meal #\(meal) type: 'brunch'",
            "medication #\(course) times: 'soon'", "vaccination #\(shot) next_due: '2027-02-30'",
        ])
        XCTAssertEqual(found.filter { $0.kind != .invalidValue }.map(\.detail), ["CHECK constraint failed in meal"])
        XCTAssertFalse(StoreProblem(kind: .invalidValue, detail: "").repairable, "only the user knows what the value should be")
    }

    func testACurrencyPetlogDoesNotKnowIsNotGivenTwoMinorDigits() throws {
        let repo = try store()
        _ = try repo.addPet(PetDraft(name: "Coco", species: .dog))
        let food = try add(.expense(Expense(money: Money(minorUnits: 48_000, currency: .krw), category: "food")), to: repo)
        let visit = try add(.visit(Visit(clinic: "Happy Paws", cost: Money(minorUnits: 55_000, currency: .krw))), to: repo)
        try tamper("UPDATE expense SET currency = 'XYZ' WHERE record_id = \(food)")
        try tamper("UPDATE visit SET cost_currency = 'ABC' WHERE record_id = \(visit)")
        expect(InvalidStoredValue(table: "expense", id: food, column: "currency", value: "'XYZ'")) { _ = try repo.record(id: food) }
        expect(InvalidStoredValue(table: "visit", id: visit, column: "cost_currency", value: "'ABC'")) { _ = try repo.record(id: visit) }
        XCTAssertEqual(try repo.check().map(\.detail), ["visit #\(visit) cost_currency: 'ABC'", "expense #\(food) currency: 'XYZ'"])
    }

    func testAKindOutsideTheListIsRefusedNotSkipped() throws {
        let repo = try store()
        _ = try repo.addPet(PetDraft(name: "Coco", species: .dog))
        let id = try add(.weight(Weight(mass: Mass(grams: 4000))), to: repo)
        try tamper("UPDATE record SET kind = 'swim' WHERE id = \(id)", ignoringChecks: true)
        expect(InvalidStoredValue(table: "record", id: id, column: "kind", value: "'swim'")) { _ = try repo.records(RecordQuery()) }
        XCTAssertTrue(try repo.check().contains(StoreProblem(kind: .invalidValue, detail: "record #\(id) kind: 'swim'")))
    }

    func testALongValueIsCutShortInTheMessage() throws {
        let repo = try store()
        let coco = try repo.addPet(PetDraft(name: "Coco", species: .dog))
        let long = String(repeating: "x", count: 200)
        try tamper("UPDATE pet SET species = '\(long)' WHERE id = \(coco.id)")
        expect(InvalidStoredValue(table: "pet", id: coco.id, column: "species", value: "'" + String(repeating: "x", count: 60) + "…'")) {
            _ = try repo.pet(.id(coco.id))
        }
    }
}
