import Foundation
import GRDB
import XCTest
import PetModel
@testable import PetFiles
@testable import PetStoreCore
@testable import PetStoreSQLite

/// `weight_chunk` (schema v9, `WeightSeriesCache`): the series a chart reads from the packed chunks and the
/// tables after them is, after every kind of change, the series the tables alone give — two pets, ties at one
/// instant, weights logged at other offsets — and `check` finds a cache that says otherwise.
final class WeightSeriesCacheTests: XCTestCase {
    var database: AppDatabase!
    var repo: SQLiteRepository!
    let t0 = Date(timeIntervalSince1970: 1_795_395_600)
    var coco: Int64 = 0, nabi: Int64 = 0

    override func setUpWithError() throws {
        database = try AppDatabase.inMemory()
        repo = SQLiteRepository(database, now: { Date(timeIntervalSince1970: 1_795_395_600) }, undoCommand: "petlog test")
        coco = try repo.addPet(PetDraft(name: "Coco", species: .dog)).id
        nabi = try repo.addPet(PetDraft(name: "Nabi", species: .cat)).id
    }

    @discardableResult
    func weigh(_ pet: String, _ grams: Int, minutesAgo: Double, offset: Int = 32_400) throws -> Int64 {
        try repo.addRecord(pets: [.name(pet)], RecordDraft(at: t0.addingTimeInterval(-minutesAgo * 60), utcOffset: offset, note: nil,
                                                            detail: .weight(Weight(mass: Mass(grams: grams)))))[0].id
    }

    /// The series from the tables alone (the query every store had before the cache).
    func fromTables(_ pet: Int64, since: Date? = nil, until: Date? = nil, days: DayWindow? = nil) throws -> WeightColumns {
        try repo.read { db in try repo.core(db).weightSeries(pet: pet, since: since, until: until, days: days) }
    }

    func chunks(_ pet: Int64? = nil) throws -> Int {
        try database.dbQueue.read { db in
            try Int.fetchOne(db, sql: "SELECT count(*) FROM weight_chunk WHERE ?1 IS NULL OR pet_id = ?1", arguments: [pet]) ?? 0
        }
    }

    /// Packs both pets' series into chunks of `size` points, as a chart does with 4,096.
    func pack(_ size: Int = 3) throws {
        try database.dbQueue.write { db in
            for pet in [coco, nabi] { try WeightSeriesCache.fill(db, pet: pet, chunkPoints: size) }
        }
    }

    /// Whole series, windows that cut through chunks, and whole local days: the cache's answer is the tables'.
    func assertSame(_ what: String, file: StaticString = #filePath, line: UInt = #line) throws {
        for pet in [coco, nabi] {
            XCTAssertEqual(try repo.weightSeries(pet: pet, since: nil, until: nil), try fromTables(pet), what, file: file, line: line)
            for (a, b) in [(-3000.0, nil), (nil, -61.0), (-2000.0, -30.0), (-10.0, -9.0)] as [(Double?, Double?)] {
                let since = a.map { t0.addingTimeInterval($0 * 60) }, until = b.map { t0.addingTimeInterval($0 * 60) }
                XCTAssertEqual(try repo.weightSeries(pet: pet, since: since, until: until), try fromTables(pet, since: since, until: until),
                               "\(what), window \(String(describing: a))–\(String(describing: b))", file: file, line: line)
            }
            let day = RecordClock.day(t0.addingTimeInterval(-1440 * 60), utcOffset: 32_400)
            let days = DayWindow(first: day, end: day.adding(days: 1))
            XCTAssertEqual(try repo.weightSeries(pet: pet, since: nil, until: nil, days: days), try fromTables(pet, days: days), what, file: file, line: line)
        }
        XCTAssertEqual(try repo.check(), [], what, file: file, line: line)
    }

    /// Seven weights of Coco (two ties at one instant, three offsets) and four of Nabi, interleaved in time.
    func seed() throws -> [Int64] {
        var ids: [Int64] = []
        for (g, m, o) in [(4000, 3000.0, 32_400), (4100, 1440.0, 32_400), (4050, 1440.0, -18_000), (4020, 1000.0, 0),
                          (3990, 100.0, 32_400), (3980, 60.0, 19_800), (3970, 10.0, 32_400)] as [(Int, Double, Int)] {
            ids.append(try weigh("Coco", g, minutesAgo: m, offset: o))
        }
        for (g, m) in [(3000, 2000.0), (3010, 1440.0), (3020, 50.0), (3030, 5.0)] as [(Int, Double)] { try weigh("Nabi", g, minutesAgo: m) }
        // Other kinds of the same pet stay out of the series.
        _ = try repo.addRecord(pets: [.name("Coco")], RecordDraft(at: t0.addingTimeInterval(-120), utcOffset: 0, note: "x",
                                                                   detail: .diary(Diary(text: "not a weight"))))
        try pack()
        XCTAssertEqual(try chunks(coco), 2, "7 points: two whole chunks of 3, the seventh read from the tables")
        XCTAssertEqual(try chunks(nabi), 1)
        try assertSame("packed")
        return ids
    }

    func testEveryChangeLeavesTheSeriesOfTheTables() throws {
        let ids = try seed()
        // A new latest weight (the usual one) drops nothing.
        let latest = try weigh("Coco", 3960, minutesAgo: 1)
        XCTAssertEqual(try chunks(coco), 2, "a weight after the last chunk keeps every chunk")
        try assertSame("new latest weight")
        // A weight logged late (before the last chunk's end) drops the chunks from its place on.
        try weigh("Coco", 4010, minutesAgo: 1200)
        XCTAssertEqual(try chunks(coco), 1)
        XCTAssertEqual(try chunks(nabi), 1, "the other pet keeps its chunks")
        try assertSame("weight logged out of order")
        try pack()
        // A tie at a chunk's last instant sorts after the chunk's points (a higher id): nothing to drop.
        let lastAt = try database.dbQueue.read { db in try Int64.fetchOne(db, sql: "SELECT max(last_at) FROM weight_chunk WHERE pet_id = ?", arguments: [coco]) }!
        let before = try chunks(coco)
        try weigh("Coco", 4444, minutesAgo: (t0.timeIntervalSince1970 - Double(lastAt)) / 60)
        XCTAssertEqual(try chunks(coco), before)
        try assertSame("a tie at a chunk's last instant")
        try pack()
        // Edits: grams, time (earlier and later), the pet.
        _ = try repo.updateRecord(id: ids[1]) { _ in RecordUpdate(detail: .weight(Weight(mass: Mass(grams: 4199)))) }
        try assertSame("grams edited")
        try pack()
        _ = try repo.updateRecord(id: ids[5]) { _ in RecordUpdate(at: self.t0.addingTimeInterval(-5000 * 60), utcOffset: -36_000) }
        try assertSame("time moved earlier")
        try pack()
        _ = try repo.updateRecord(id: ids[0]) { _ in RecordUpdate(at: self.t0.addingTimeInterval(-2 * 60)) }
        try assertSame("time moved later")
        try pack()
        _ = try repo.updateRecord(id: ids[2]) { _ in RecordUpdate(pet: .name("Nabi")) }
        try assertSame("moved to the other pet")
        try pack()
        // Delete, then undo every change back to the packed start.
        _ = try repo.deleteRecord(id: ids[3])
        try assertSame("deleted")
        try pack()
        _ = try repo.deleteRecord(id: latest)
        try assertSame("the latest deleted")
        try pack()
        for _ in 0..<9 {   // the nine changes above
            XCTAssertNotNil(try repo.undo())
            try assertSame("undone")
            try pack()
            try assertSame("undone, packed again")
        }
        XCTAssertEqual(try fromTables(coco).grams, [4000, 4100, 4050, 4020, 3990, 3980, 3970])
        // Removing a pet removes its chunks.
        _ = try repo.removePet(.name("Nabi"))
        XCTAssertEqual(try chunks(nabi), 0)
        try assertSame("pet removed")
    }

    /// Imports: a few rows go in through the triggers, a big weight load (triggers dropped) drops the pets' chunks itself.
    func testImportsSmallAndBigKeepTheSeries() throws {
        _ = try seed()
        func batch(_ weights: [(Int64, Int)]) -> ImportBatch {
            var b = ImportBatch()
            b.pets = [ImportPet(location: SourceLocation(file: "p.csv", line: 2), name: "Coco", species: .dog)]
            for (at, g) in weights { b.weights.append(pet: 0, at: at, utcOffset: 0, grams: g) }
            return b
        }
        let base = Int64(t0.timeIntervalSince1970) - 4000 * 60
        _ = try repo.importBatch(batch([(base, 5000), (base + 60 * 1440, 5100)]))
        try assertSame("small import into the middle")
        try pack()
        let big = (0..<12_000).map { (base + Int64($0) * 7, 5000 + $0 % 40) }
        _ = try repo.importBatch(batch(big))
        XCTAssertEqual(try chunks(coco), 0, "a big load drops the chunks of the pets it brings weights to")
        XCTAssertEqual(try chunks(nabi), 1, "and leaves the others")
        try assertSame("big import")
        XCTAssertEqual(try database.dbQueue.read { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM sqlite_master WHERE name = 'series_weight_insert'") }, 1,
                       "the trigger is made again")
        // A chart packs whole chunks of 4,096 by itself, on a writable file.
        let all = try repo.weightSeries(pet: coco, since: nil, until: nil)
        XCTAssertEqual(all, try fromTables(coco))
        XCTAssertEqual(all.times.count, 7 + 2 + 11_999, "the big load's first row is the small one's, already there")
        XCTAssertEqual(try chunks(coco), 2, "12,008 points: two whole chunks of 4,096 after the first chart")
        try assertSame("packed by a chart")
        XCTAssertEqual(try repo.weightSeries(pet: coco, since: nil, until: nil), all)
    }

    /// A chunk that does not decode is passed over (the tables answer); one that decodes but says other grams is
    /// what `check` finds and `check --repair` drops.
    func testCheckFindsAndRepairRemovesAWrongCache() throws {
        _ = try seed()
        try database.dbQueue.write { db in try db.execute(sql: "UPDATE weight_chunk SET data = zeroblob(length(data)) WHERE pet_id = ?", arguments: [coco]) }
        XCTAssertEqual(try repo.weightSeries(pet: coco, since: nil, until: nil), try fromTables(coco), "a chunk that does not decode: the tables")
        var problems = try repo.check()
        XCTAssertEqual(problems.map(\.kind), [.weightSeries])
        XCTAssertEqual(problems.first?.detail, "weight_chunk: 2 rows out of step")
        _ = try repo.repair(problems)
        XCTAssertEqual(try chunks(coco), 0)
        XCTAssertEqual(try chunks(nabi), 1, "the right chunks stay")
        try assertSame("repaired")
        try pack()
        // Other grams at the right instants: the read cannot tell, `check` can.
        try database.dbQueue.write { db in
            var data = try Data.fetchOne(db, sql: "SELECT data FROM weight_chunk WHERE pet_id = ?", arguments: [nabi])!
            data[8] = data[8] &+ 1
            try db.execute(sql: "UPDATE weight_chunk SET data = ? WHERE pet_id = ?", arguments: [data, nabi])
        }
        XCTAssertNotEqual(try repo.weightSeries(pet: nabi, since: nil, until: nil), try fromTables(nabi))
        problems = try repo.check()
        XCTAssertEqual(problems.map(\.kind), [.weightSeries])
        XCTAssertTrue(problems[0].repairable)
        _ = try repo.repair(problems)
        try assertSame("other grams repaired")
    }

    /// A read-only file reads its chunks and the weights after them, and writes nothing.
    func testAReadOnlyFileReadsTheSameSeries() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("series-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appendingPathComponent("pets.sqlite").path
        database = try AppDatabase.open(path: path)
        repo = SQLiteRepository(database, now: { Date(timeIntervalSince1970: 1_795_395_600) })
        coco = try repo.addPet(PetDraft(name: "Coco", species: .dog)).id
        nabi = try repo.addPet(PetDraft(name: "Nabi", species: .cat)).id
        _ = try seed()
        _ = try repo.importBatch({
            var b = ImportBatch()
            b.pets = [ImportPet(location: SourceLocation(file: "p.csv", line: 2), name: "Coco", species: .dog)]
            for i in 0..<5000 { b.weights.append(pet: 0, at: Int64(t0.timeIntervalSince1970) + Int64(i), utcOffset: 0, grams: 4000 + i % 9) }
            return b
        }())
        let want = try fromTables(coco)
        let readOnly = SQLiteRepository(try AppDatabase.open(path: path, options: OpenOptions(readOnly: true)))
        XCTAssertEqual(try readOnly.weightSeries(pet: coco, since: nil, until: nil), want)
        XCTAssertEqual(try chunks(coco), 2, "nothing packed through the read-only file")
        XCTAssertEqual(try repo.weightSeries(pet: coco, since: nil, until: nil), want)
        XCTAssertEqual(try chunks(coco), 3, "the writable one packs a chunk of 4,096")
        XCTAssertEqual(try readOnly.weightSeries(pet: coco, since: nil, until: nil), want)
    }
}
