import Foundation
import GRDB
import XCTest
import PetlogTestSupport
import PetModel
@testable import PetFiles
@testable import PetStoreCore
@testable import PetTransfer
@testable import PetStoreSQLite

/// The pieces under `petlog import`/`export`: the CSV reader and writer, local times, and the
/// importer's all-or-nothing, duplicate and id rules.
final class TransferTests: StoreTestCase {
    func rows(_ text: String) throws -> [[String?]] {
        var r = CSVReader(bytes: Array(text.utf8), file: "t.csv")
        var out: [[String?]] = []
        while try r.next() { out.append(try (0..<r.count).map { try r.string($0) }) }
        return out
    }

    func testCSVReaderFollowsRFC4180() throws {
        XCTAssertEqual(try rows("a,b\r\n1,\"x, \"\"y\"\"\"\r\n\"multi\nline\",\n"),
                       [["a", "b"], ["1", "x, \"y\""], ["multi\nline", nil]])
        XCTAssertEqual(try rows("\u{FEFF}h\n\n2\n"), [["h"], ["2"]], "BOM and blank lines skipped")
        var r = CSVReader(bytes: Array("h\n\"a\nb\"\nc\n".utf8), file: "t.csv")
        _ = try r.next(); _ = try r.next(); _ = try r.next()
        XCTAssertEqual(r.line, 4, "a quoted line break counts")
        XCTAssertThrowsError(try rows("h\n\"open\n")) { e in
            XCTAssertEqual(e as? ImportError, ImportError(file: "t.csv", line: 2, problem: .unterminatedQuote))
        }
        XCTAssertThrowsError(try rows("h\nab\"c\n")) { e in XCTAssertEqual((e as? ImportError)?.problem, .malformedRow) }
        XCTAssertThrowsError(try { var r = CSVReader(bytes: [0x61, 0xFF, 0x0A], file: "u.csv"); _ = try r.next(); _ = try r.string(0) }()) { e in
            XCTAssertEqual((e as? ImportError)?.problem, .invalidUTF8)
        }
    }

    func testCSVReaderNumbersAndTimesFromBytes() throws {
        var r = CSVReader(bytes: Array("22.05,2024-02-29T06:32:56,2023-02-29,1e3,-1,2024-01-01 25:00\n".utf8), file: "t.csv")
        XCTAssertTrue(try r.next())
        XCTAssertEqual(r.decimal(0)?.digits, 2205)
        XCTAssertEqual(r.decimal(0)?.scale, 2)
        XCTAssertEqual(r.localDateTime(1), 1709188376)
        XCTAssertNil(r.localDateTime(2), "not a leap year")
        XCTAssertNil(r.decimal(3))
        XCTAssertNil(r.integer(4))
        XCTAssertNil(r.localDateTime(5))
    }

    func testFormulaGuardIsUndoneExactly() throws {
        for text in ["=SUM(A1)", "+1", "-5 g", "@x", "\tx", "\rx", "'=x", "''=x", "'plain", "plain", "'", "", "a=b"] {
            let cell = CSVText.cell(text: text)
            let back = try rows(cell.isEmpty ? "\"\"\n" : cell + "\n").first?.first ?? nil
            XCTAssertEqual(CSVText.restore(back ?? ""), text, "\(text) → \(cell)")
            if let f = text.first, "=+-@\t\r".contains(f) { XCTAssertTrue(cell.hasPrefix("'") || cell.hasPrefix("\"'"), cell) }
        }
    }

    func testLocalTimesAcrossDaylightSaving() {
        var c = LocalTimeConverter(timeZone: TimeZone(identifier: "America/New_York")!)
        // 2024-03-10 01:30 EST (−5 h), 03:30 EDT (−4 h); 2024-11-03 01:30 happens twice: the earlier (EDT).
        let day = Int64(LocalDate(year: 2024, month: 3, day: 10)!.dayNumber) * 86400
        XCTAssertEqual(c.instant(local: day + 5400).offset, -18000)
        XCTAssertEqual(c.instant(local: day + 12600).offset, -14400)
        let fall = Int64(LocalDate(year: 2024, month: 11, day: 3)!.dayNumber) * 86400
        XCTAssertEqual(c.instant(local: fall + 5400).offset, -14400)
        XCTAssertEqual(c.instant(local: fall + 43200).offset, -18000)
        XCTAssertEqual(RFC3339.format(seconds: c.instant(local: fall + 43200).at, offset: -18000), "2024-11-03T12:00:00-05:00")
    }

    func batch(weights: [(Int64, Int)], symptom: Bool = false) -> ImportBatch {
        var b = ImportBatch()
        b.pets = [ImportPet(location: SourceLocation(file: "p.csv", line: 2), fileId: 7, name: "Penny", species: .dog)]
        for (at, g) in weights { b.weights.append(pet: 0, at: at, utcOffset: 0, grams: g) }
        if symptom {
            b.records.append(ImportRecord(location: SourceLocation(file: "s.csv", line: 2), pet: 0, at: 100, utcOffset: 0,
                                          detail: .symptom(Symptom(code: "vomiting", isListed: true, severity: 2))))
        }
        return b
    }

    func testImportCountsDuplicatesAndKeepsIdsOnlyIntoAnEmptyDatabase() throws {
        let repo = try makeStore()
        var s = try repo.importBatch(batch(weights: [(10, 4000), (10, 4000), (20, 4100)], symptom: true))
        XCTAssertEqual(s.recordsAdded, 4, "two identical rows of one file stay two")
        XCTAssertEqual(s.petsAdded, 1)
        XCTAssertEqual(try repo.pet(.id(7)).name, "Penny", "the file's id, into an empty database")
        s = try repo.importBatch(batch(weights: [(10, 4000), (10, 4000), (10, 4000), (20, 4100), (30, 4200)], symptom: true))
        XCTAssertEqual(s.recordsAdded, 2, "one more 4000 at 10 and the new one at 30")
        XCTAssertEqual(s.recordsAlreadyThere, 4)
        XCTAssertEqual(s.petsMatched, 1)
        XCTAssertEqual(try repo.count(RecordQuery()), 6)
        XCTAssertEqual(try repo.check(), [])
    }

    func testAFailingImportWritesNothing() throws {
        let repo = try makeStore()
        _ = try repo.importBatch(batch(weights: [(10, 4000)]))
        var b = batch(weights: [(50, 4000)])
        b.records.append(ImportRecord(location: SourceLocation(file: "x.json", line: 9), fileId: 3, pet: 0, at: 60, utcOffset: 0,
                                      detail: .dose(Dose(medicationId: 99, medicationName: "?"))))
        XCTAssertThrowsError(try repo.importBatch(b)) { e in
            XCTAssertEqual(e as? ImportError, ImportError(file: "x.json", line: 9, problem: .unknownMedication(99)))
        }
        XCTAssertEqual(try repo.count(RecordQuery()), 1)
        XCTAssertEqual(try repo.pets(includeArchived: true).count, 1)
    }

    func testBigLoadsRebuildTheIndexesTheSchemaDefines() throws {
        let database = try AppDatabase.inMemory()
        let before = try database.dbQueue.read { db in try String.fetchAll(db, sql: "SELECT sql FROM sqlite_master WHERE type = 'index' AND sql IS NOT NULL ORDER BY name") }
        let repo = Store(SQLiteRepository(database))
        let s = try repo.importBatch(batch(weights: (0..<60_000).map { (Int64($0) * 60, 4000 + $0 % 50) }))
        XCTAssertEqual(s.recordsAdded, 60_000)
        let after = try database.dbQueue.read { db in try String.fetchAll(db, sql: "SELECT sql FROM sqlite_master WHERE type = 'index' AND sql IS NOT NULL ORDER BY name") }
        XCTAssertEqual(after, before)
        XCTAssertEqual(try repo.check(), [])
        try database.dbQueue.read { db in
            let plan = try Row.fetchAll(db, sql: "EXPLAIN QUERY PLAN SELECT * FROM record WHERE pet_id = 7 AND kind = 'weight' AND at > 5")
                .map { $0["detail"] as String? ?? "" }.joined()
            XCTAssertTrue(plan.contains("record_pet_kind_at"), plan)
        }
    }
}
