import Foundation
import GRDB
import XCTest
import PetlogTestSupport
import PetModel
@testable import PetFiles
@testable import PetStoreCore
@testable import PetStoreSQLite

/// `search_index` (schema v5): what `search` finds through it, and that it follows every write — the
/// repository's, `undo`'s and another program's — with `check` noticing when it does not. What a user
/// finds runs on both stores; the index's own rows, and writes past petlog, are SQLite's (the server
/// searches its own columns, PostgresSupport).
final class SearchIndexTests: StoreTestCase {
    /// The SQLite file's database (nil on the server).
    var database: AppDatabase!
    var repo: (any PetlogStore)!
    let t0 = Date(timeIntervalSince1970: 1_795_395_600)

    override func setUpWithError() throws {
        let now: @Sendable () -> Date = { Date(timeIntervalSince1970: 1_795_395_600) }
        guard !onServer else { return repo = try makeStore(now: now, undoCommand: "petlog test") }
        database = try AppDatabase.inMemory()
        repo = Store(SQLiteRepository(database, now: now, undoCommand: "petlog test"))
    }

    func draft(_ detail: RecordDetail, note: String? = nil, minutesAgo: Double = 0) -> RecordDraft {
        RecordDraft(at: t0.addingTimeInterval(-minutesAgo * 60), utcOffset: 32_400, note: note, detail: detail)
    }

    func found(_ text: String) throws -> [Int64] { try repo.search(text, limit: 100).map(\.id).sorted() }

    func indexRows() throws -> Int { try database.dbQueue.read { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM search_index") ?? 0 } }

    func testEveryFieldIsFoundByIndexAndByShortScanInAnyScript() throws {
        _ = try repo.addPet(PetDraft(name: "Coco", species: .dog))
        let add = { (d: RecordDetail, note: String?) throws -> Int64 in try self.repo.addRecord(pets: [.name("Coco")], self.draft(d, note: note))[0].id }
        let diary = try add(.diary(Diary(text: "강아지가 구토를 했다")), nil)
        let meal = try add(.meal(Meal(food: "Royal CANIN kibble", type: .meal, amount: nil)), "犬が嘔吐した")
        let visit = try add(.visit(Visit(clinic: "ÉCOLE Vétérinaire", diagnosis: "gastritis")), nil)
        let weight = try add(.weight(Weight(mass: Mass(grams: 5000))), "after the ｗａｌｋ")
        let plain = try add(.weight(Weight(mass: Mass(grams: 5100))), nil)
        let expense = try add(.expense(Expense(money: Money(minorUnits: 1200, currency: .krw), category: "food", merchant: "Pet Mart",
                                               items: ["chew stick", "shampoo"])), nil)
        XCTAssertEqual(try found("구토를"), [diary])
        XCTAssertEqual(try found("구토"), [diary], "two characters: the scan of the folded text")
        XCTAssertEqual(try found("嘔吐し"), [meal])
        XCTAssertEqual(try found("canin"), [meal])
        XCTAssertEqual(try found("école vét"), [visit])
        XCTAssertEqual(try found("GASTR"), [visit])
        XCTAssertEqual(try found("walk"), [weight], "compatibility forms are folded as the query is (NFKC)")
        XCTAssertEqual(try found("shampoo"), [expense])
        XCTAssertEqual(try found("pet mart"), [expense])
        XCTAssertEqual(try found("stick shampoo"), [], "no match across two items")
        XCTAssertEqual(try found("zz"), [])
        XCTAssertFalse(try found("e").isEmpty)
        // Weights without a note have nothing to search and no row.
        if !onServer { XCTAssertEqual(try database.dbQueue.read { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM search_index WHERE rowid = ?", arguments: [plain]) }, 0) }
        XCTAssertEqual(try repo.check(), [])
    }

    func testPetProfilesAreFoundByTheirText() throws {
        var draft = PetDraft(name: "Mochi", species: .cat)
        draft.breed = "Scottish Fold"
        draft.notes = "알레르기: 닭고기"
        let mochi = try repo.addPet(draft)
        _ = try repo.addPet(PetDraft(name: "Nabi", species: .cat))
        XCTAssertEqual(try repo.searchPets("scottish").map(\.id), [mochi.id])
        XCTAssertEqual(try repo.searchPets("닭고기").map(\.id), [mochi.id])
        XCTAssertEqual(try repo.searchPets("닭").map(\.id), [mochi.id])
        XCTAssertEqual(try repo.searchPets("nab").map(\.name), ["Nabi"])
        XCTAssertEqual(try found("mochi"), [], "pets are not records")
        _ = try repo.editPet(.id(mochi.id), PetDraft(notes: .some(nil)))
        XCTAssertEqual(try repo.searchPets("닭고기"), [])
        XCTAssertEqual(try repo.check(), [])
    }

    func testTheIndexFollowsEditsDeletesAndUndo() throws {
        _ = try repo.addPet(PetDraft(name: "Coco", species: .dog))
        let id = try repo.addRecord(pets: [.name("Coco")], draft(.diary(Diary(text: "blue collar")), note: "park"))[0].id
        XCTAssertEqual(try found("collar"), [id])
        _ = try repo.updateRecord(id: id) { _ in RecordUpdate(note: .some("beach"), detail: .diary(Diary(text: "red leash"))) }
        XCTAssertEqual(try found("collar"), [])
        XCTAssertEqual(try found("leash"), [id])
        XCTAssertEqual(try found("beach"), [id])
        XCTAssertNotNil(try repo.undo())
        XCTAssertEqual(try found("collar"), [id], "undo puts the old text back into the index")
        XCTAssertEqual(try found("leash"), [])
        XCTAssertEqual(try found("park"), [id])
        _ = try repo.deleteRecord(id: id)
        XCTAssertEqual(try found("collar"), [])
        if !onServer { XCTAssertEqual(try indexRows(), 1, "the pet's row only") }
        XCTAssertNotNil(try repo.undo())
        XCTAssertEqual(try found("collar"), [id])
        XCTAssertEqual(try repo.check(), [])
    }

    func testAnotherProgramsChangesAreFoundAndCheckRepairsAnIndexOutOfStep() throws {
        try requireDatabaseFile("SQLite's index tables and the triggers that note a write past petlog")
        _ = try repo.addPet(PetDraft(name: "Coco", species: .dog))
        let id = try repo.addRecord(pets: [.name("Coco")], draft(.diary(Diary(text: "blue collar"))))[0].id
        // Written past the repository (as the sqlite3 shell would): the triggers note it, nothing folds it yet.
        try database.dbQueue.write { db in try db.execute(sql: "UPDATE diary SET text = 'zebra stripes' WHERE record_id = ?", arguments: [id]) }
        XCTAssertEqual(try found("zebra"), [id])
        XCTAssertEqual(try found("collar"), [], "the stale row is not read from the index")
        XCTAssertEqual(try repo.check(), [], "a noted change waiting for the next write is not a problem")
        _ = try repo.setStarred(id: id, true)
        XCTAssertEqual(try database.dbQueue.read { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM search_stale") }, 0)
        XCTAssertEqual(try found("zebra"), [id])

        try database.dbQueue.write { db in
            try db.execute(sql: "DELETE FROM search_index WHERE rowid = ?", arguments: [id])
            try db.execute(sql: "INSERT INTO search_index (rowid, body) VALUES (999, 'ghost')")
        }
        let problems = try repo.check()
        XCTAssertEqual(problems.map(\.kind), [.searchIndex])
        XCTAssertEqual(problems.first?.detail, "search_index: 2 rows out of step")
        XCTAssertEqual(try repo.repair(problems).fixed, 1)
        XCTAssertEqual(try repo.check(), [])
        XCTAssertEqual(try found("zebra"), [id])
        XCTAssertEqual(try found("ghost"), [])
    }

    /// More noted rows than a write indexes itself (a big import's text) wait for the first search: they
    /// are found all the same before and after it, writes meanwhile do not index them, `check` does not call
    /// them a problem, and the search that indexes them is not an undoable change.
    func testABacklogOfNotedRowsIsIndexedByTheFirstSearch() throws {
        try requireDatabaseFile("SQLite's backlog table (search_stale)")
        let pet = try repo.addPet(PetDraft(name: "Coco", species: .dog))
        let kept = try repo.addRecord(pets: [.name("Coco")], draft(.diary(Diary(text: "blue collar")), minutesAgo: 1))[0].id
        let many = SearchIndex.backlogLimit + 10
        try database.dbQueue.write { db in
            for i in 0..<many {
                try db.execute(sql: "INSERT INTO record (pet_id, kind, at, utc_offset, created_at, updated_at) VALUES (?, 'diary', ?, 0, 0, 0)",
                               arguments: [pet.id, 1_700_000_000 + i])
                try db.execute(sql: "INSERT INTO diary (record_id, text) VALUES (?, ?)",
                               arguments: [db.lastInsertedRowID, i == 7 ? "ゼブラ stripes" : "walk \(i)"])
            }
        }
        func waiting() throws -> Int { try database.dbQueue.read { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM search_stale") ?? 0 } }
        XCTAssertEqual(try waiting(), many)
        _ = try repo.setStarred(id: kept, true)
        XCTAssertEqual(try waiting(), many, "a write leaves a big backlog to the next search")
        XCTAssertEqual(try indexRows(), 2, "the pet and the diary written through petlog")
        XCTAssertEqual(try repo.check(), [], "rows waiting for the index are not a problem")
        let undoable = try database.dbQueue.read { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM undo_group") ?? 0 }

        XCTAssertEqual(try found("ゼブラ").count, 1)
        XCTAssertEqual(try waiting(), 0, "the first search indexed them")
        XCTAssertEqual(try indexRows(), many + 2)
        XCTAssertEqual(try found("stripes").count, 1)
        XCTAssertEqual(try found("walk 4321").count, 1)
        XCTAssertEqual(try found("collar"), [kept])
        XCTAssertEqual(try repo.check(), [])
        XCTAssertEqual(try database.dbQueue.read { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM undo_group") ?? 0 }, undoable,
                       "indexing is not a change to undo")
    }

    func testTheASCIIFoldIsNameKey() {
        var samples = ["", " ", "Coco", "  MiXeD case\t\n", "\u{1F}note\u{1F}\u{1F}", "\u{0B}x\u{0C}", "a\u{1C}\u{1D}\u{1E}\u{7F}",
                       "Ünïcode", "ｗａｌｋ", "강아지", "\u{85}x", "x\u{A0}"]
        for b in UInt8(0)..<0x80 { samples.append("A" + String(UnicodeScalar(b)) + "z"); samples.append(String(UnicodeScalar(b)) + "Q" + String(UnicodeScalar(b))) }
        for text in samples { XCTAssertEqual(AppDatabase.fold(text), TextField.nameKey(text), text.debugDescription) }
    }

    func testCheckFindsARecordWithoutItsDetailInOnePass() throws {
        try requireDatabaseFile("deletes past petlog through SQLite (the server's: PostgresSchemaTests.testCheckQueriesAreAntiJoinsWithoutASubplanPerRow)")
        _ = try repo.addPet(PetDraft(name: "Coco", species: .dog))
        let ids = try repo.addRecords([(.name("Coco"), draft(.weight(Weight(mass: Mass(grams: 5000))))),
                                       (.name("Coco"), draft(.diary(Diary(text: "x")), minutesAgo: 1))]).map(\.id)
        try database.dbQueue.write { db in
            try db.execute(sql: "DELETE FROM weight WHERE record_id = ?", arguments: [ids[0]])
            try db.execute(sql: "DELETE FROM diary WHERE record_id = ?", arguments: [ids[1]])
        }
        let problems = try repo.check()
        XCTAssertEqual(problems, [.orphanRecord(.init(id: ids[0], kind: .weight)), .orphanRecord(.init(id: ids[1], kind: .diary))])
        XCTAssertEqual(problems.map(\.detail), ["#\(ids[0]) weight", "#\(ids[1]) diary"], "what check prints is unchanged")
    }
}
