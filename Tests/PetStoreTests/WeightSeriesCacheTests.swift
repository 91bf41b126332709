import Foundation
import GRDB
import XCTest
import PetlogTestSupport
import PetModel
@testable import PetFiles
@testable import PetStoreCore
@testable import PetStoreSQLite
@testable import PetStorePostgres

/// The packed weight series (SQLite `weight_chunk`, schema v9, `WeightSeriesCache`; PostgreSQL `weight_chunk`,
/// schema pg6, `PostgresWeightSeries`): the series a chart reads from the packed chunks and the tables after
/// them is, after every kind of change, the series the tables alone give — two pets, ties at one instant,
/// weights logged at other offsets, raw SQL from outside petlog — and `check` finds a cache that says
/// otherwise. Runs on both stores (`StoreTestCase`).
final class WeightSeriesCacheTests: StoreTestCase {
    var repo: (any PetlogStore)!
    let t0 = Date(timeIntervalSince1970: 1_795_395_600)
    var coco: Int64 = 0, nabi: Int64 = 0

    var sqlite: SQLiteRepository? { (repo as? Store)?.engine as? SQLiteRepository }
    var server: PostgresRepository? { (repo as? Store)?.engine as? PostgresRepository }

    override func setUpWithError() throws {
        repo = try makeStore(now: { Date(timeIntervalSince1970: 1_795_395_600) }, undoCommand: "petlog test")
        coco = try repo.addPet(PetDraft(name: "Coco", species: .dog)).id
        nabi = try repo.addPet(PetDraft(name: "Nabi", species: .cat)).id
    }

    override func tearDown() {
        server?.link.close()
        repo = nil
    }

    @discardableResult
    func weigh(_ pet: String, _ grams: Int, minutesAgo: Double, offset: Int = 32_400) throws -> Int64 {
        try repo.addRecord(pets: [.name(pet)], RecordDraft(at: t0.addingTimeInterval(-minutesAgo * 60), utcOffset: offset, note: nil,
                                                            detail: .weight(Weight(mass: Mass(grams: grams)))))[0].id
    }

    /// The series from the tables alone (the query every store had before the cache).
    func fromTables(_ pet: Int64, since: Date? = nil, until: Date? = nil, days: DayWindow? = nil) throws -> WeightColumns {
        if let server {
            return try server.weightSeriesFromTables(pet: pet, lower: since.map { $0.unixSeconds(.up) } ?? Int64.min,
                                                     upper: until.map { $0.unixSeconds(.up) } ?? Int64.max, days: days)
        }
        let repo = try XCTUnwrap(sqlite)
        return try repo.read { db in try repo.store(db, writing: false).weightSeriesByRows(pet: pet, since: since, until: until, days: days) }
    }

    /// A statement as a program other than petlog would run it (psql; the SQLite file's own connection).
    func raw(_ sql: String) throws {
        if let server { try server.link.query(sql); return }
        try XCTUnwrap(sqlite).database.dbQueue.write { db in try db.execute(sql: sql) }
    }

    func int(_ sql: String) throws -> Int64? {
        if let server { return try server.link.query(sql).first?.first?.int }
        return try XCTUnwrap(sqlite).database.dbQueue.read { db in try Int64.fetchOne(db, sql: sql) }
    }

    func chunks(_ pet: Int64? = nil) throws -> Int {
        Int(try int("SELECT count(*) FROM weight_chunk" + (pet.map { " WHERE pet_id = \($0)" } ?? "")) ?? 0)
    }

    /// Packs both pets' series into chunks of `size` points, as a chart does with 4,096.
    func pack(_ size: Int = 3) throws {
        if let server {
            try server.link.transaction(.write) {
                for pet in [coco, nabi] { try PostgresWeightSeries.fill(server.link, pet: pet, chunkPoints: size) }
            }
            return
        }
        try XCTUnwrap(sqlite).database.dbQueue.write { db in
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
            // The server's chunks come a page at a time: pages of one chunk, and of two (a full last page, then an empty one).
            if let server {
                for page in [1, 2] {
                    let paged = try server.link.transaction(.read) {
                        try PostgresWeightSeries.read(server.link, pet: pet, lower: .min, upper: .max, pageChunks: page)
                    }
                    XCTAssertEqual(paged?.columns, try fromTables(pet), "\(what), pages of \(page) chunks", file: file, line: line)
                }
            }
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
        let lastAt = try XCTUnwrap(try int("SELECT max(last_at) FROM weight_chunk WHERE pet_id = \(coco)"))
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
        if server != nil {
            // On the server an import that brings a pet a chunk's worth of weights packs its series (issue 44).
            XCTAssertEqual(try chunks(coco), 2, "12,008 points: two whole chunks of 4,096 packed by the import")
        } else {
            XCTAssertEqual(try chunks(coco), 0, "a big load drops the chunks of the pets it brings weights to")
        }
        XCTAssertEqual(try chunks(nabi), 1, "and leaves the others")
        try assertSame("big import")
        if server != nil {
            XCTAssertEqual(try int("SELECT count(*) FROM pg_trigger WHERE tgname = 'series_weight_insert' AND tgenabled = 'O'"), 1, "the trigger is on again")
        } else {
            XCTAssertEqual(try int("SELECT count(*) FROM sqlite_master WHERE name = 'series_weight_insert'"), 1, "the trigger is made again")
        }
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
        try raw(server != nil ? "UPDATE weight_chunk SET data = decode(repeat('00', octet_length(data)), 'hex') WHERE pet_id = \(coco)"
                              : "UPDATE weight_chunk SET data = zeroblob(length(data)) WHERE pet_id = \(coco)")
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
        // The grams' low byte of the first point (little-endian in the file, big-endian on the server).
        if server != nil {
            try raw("UPDATE weight_chunk SET data = set_byte(data, 15, (get_byte(data, 15) + 1) % 256) WHERE pet_id = \(nabi)")
        } else {
            try XCTUnwrap(sqlite).database.dbQueue.write { db in
                var data = try XCTUnwrap(try Data.fetchOne(db, sql: "SELECT data FROM weight_chunk WHERE pet_id = ?", arguments: [nabi]))
                data[8] = data[8] &+ 1
                try db.execute(sql: "UPDATE weight_chunk SET data = ? WHERE pet_id = ?", arguments: [data, nabi])
            }
        }
        XCTAssertNotEqual(try repo.weightSeries(pet: nabi, since: nil, until: nil), try fromTables(nabi))
        problems = try repo.check()
        XCTAssertEqual(problems.map(\.kind), [.weightSeries])
        XCTAssertTrue(problems[0].repairable)
        _ = try repo.repair(problems)
        try assertSame("other grams repaired")
    }

    /// A read-only file (on a server: a role that may only read, as `petlog_volunteer`) reads its chunks and
    /// the weights after them, and writes nothing.
    func testAReadOnlyFileReadsTheSameSeries() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("series-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appendingPathComponent("pets.sqlite").path
        if server == nil {
            repo = Store(SQLiteRepository(try AppDatabase.open(path: path), now: { Date(timeIntervalSince1970: 1_795_395_600) }))
            coco = try repo.addPet(PetDraft(name: "Coco", species: .dog)).id
            nabi = try repo.addPet(PetDraft(name: "Nabi", species: .cat)).id
        }
        _ = try seed()
        _ = try repo.importBatch({
            var b = ImportBatch()
            b.pets = [ImportPet(location: SourceLocation(file: "p.csv", line: 2), name: "Coco", species: .dog)]
            for i in 0..<5000 { b.weights.append(pet: 0, at: Int64(t0.timeIntervalSince1970) + Int64(i), utcOffset: 0, grams: 4000 + i % 9) }
            return b
        }())
        if server != nil {
            // The server's import packed the 4,096 it brought (issue 44): that chunk goes, so a chart has them to pack.
            XCTAssertEqual(try chunks(coco), 3, "the import packs a chunk of 4,096")
            try raw("DELETE FROM weight_chunk WHERE pet_id = \(coco) AND points = 4096")
        }
        let want = try fromTables(coco)
        let readOnly: any PetlogStore
        if let server {
            let database = server.target.database, role = "reader_\(database)"
            try raw("CREATE ROLE \(role) LOGIN")
            try raw("GRANT USAGE ON SCHEMA petlog TO \(role)")
            try raw("GRANT SELECT ON ALL TABLES IN SCHEMA petlog TO \(role)")
            let url = "postgres://\(role)@/\(database)?host=\(try requireServer().directory)&port=\(try requireServer().port)"
            readOnly = Store(try PostgresRepository(PostgresTarget.parse(url, environment: [:])))
        } else {
            readOnly = Store(SQLiteRepository(try AppDatabase.open(path: path, options: OpenOptions(readOnly: true))))
        }
        XCTAssertEqual(try readOnly.weightSeries(pet: coco, since: nil, until: nil), want)
        XCTAssertEqual(try chunks(coco), 2, "nothing packed through the read-only store")
        XCTAssertEqual(try repo.weightSeries(pet: coco, since: nil, until: nil), want)
        XCTAssertEqual(try chunks(coco), 3, "the writable one packs a chunk of 4,096")
        XCTAssertEqual(try readOnly.weightSeries(pet: coco, since: nil, until: nil), want)
        ((readOnly as? Store)?.engine as? PostgresRepository)?.link.close()
    }

    /// Raw SQL from outside petlog (psql; another program on the file): an UPDATE of grams, of an instant, of
    /// the pet, a DELETE, an INSERT of a weight logged late, and a TRUNCATE on the server.
    func testRawSQLFromOutsidePetlogKeepsTheSeries() throws {
        let ids = try seed()
        try raw("UPDATE weight SET grams = grams + 7 WHERE record_id = \(ids[1])")
        try assertSame("grams updated by SQL")
        try pack()
        try raw("UPDATE record SET at = at - 86400 WHERE id = \(ids[4])")
        try assertSame("instant updated by SQL")
        try pack()
        try raw("UPDATE record SET pet_id = \(nabi) WHERE id = \(ids[0])")
        try assertSame("pet updated by SQL")
        try pack()
        try raw("DELETE FROM record WHERE id = \(ids[2])")
        try assertSame("deleted by SQL")
        try pack()
        try raw("UPDATE weight SET grams = grams + 1")
        XCTAssertEqual(try chunks(), 0, "every weight changed: every chunk goes")
        try assertSame("every weight updated by SQL")
        try pack()
        if server != nil {
            // A weight row inserted before its record (keys deferred, as `undo` does): the record's trigger drops the chunks.
            try server?.link.transaction(.write) {
                try raw("SET CONSTRAINTS ALL DEFERRED")
                try raw("INSERT INTO weight (record_id, grams) VALUES (900001, 4321)")
                try raw("INSERT INTO record (id, pet_id, kind, at, utc_offset, created_at, updated_at) VALUES (900001, \(coco), 'weight', \(Int64(t0.timeIntervalSince1970) - 2_000 * 60), 0, 0, 0)")
            }
            try assertSame("a weight whose record came after it")
            try pack()
            XCTAssertGreaterThan(try chunks(), 0)
            try raw("TRUNCATE weight_chunk")
            try pack()
            try raw("TRUNCATE record, weight, diary CASCADE")
            try raw("DELETE FROM search_text WHERE key > 0")   // the records' text; the pets' stays
            XCTAssertEqual(try chunks(), 0, "a TRUNCATE of the weights drops every chunk")
            try assertSame("truncated")
        }
    }

    /// On the server, a chart packing and a writer outside petlog (psql, READ COMMITTED) changing a weight at
    /// the same moment, both orders: the writer's change waits for the chart's chunks and drops them, or the
    /// chart waits for the writer's commit and packs its change. No clock: each side waits until the server
    /// shows the other one blocked.
    func testAChartPackingAndAWriterAtOnceLeaveNoWrongChunk() throws {
        guard let server else { throw XCTSkip("SQLite has one writer at a time: nothing to race") }
        let ids = try seed()
        try raw("TRUNCATE weight_chunk")
        let url = "postgres://postgres@/\(server.target.database)?host=\(try requireServer().directory)&port=\(try requireServer().port)"
        let outside = try PostgresLink(PostgresTarget.parse(url, environment: [:]))
        let packer = try PostgresLink(PostgresTarget.parse(url, environment: [:]))
        defer { outside.close(); packer.close() }
        // The sessions' ids first: a link runs one statement at a time, and each will be busy waiting.
        let outsidePid = try XCTUnwrap(try outside.query("SELECT pg_backend_pid()").first?.first?.int)
        let packerPid = try XCTUnwrap(try packer.query("SELECT pg_backend_pid()").first?.first?.int)
        func waitUntilBlocked(_ pid: Int64) throws {
            let blocked = try requireServer().waitUntil(server.target.database, "SELECT count(*) > 0 FROM pg_locks WHERE pid = \(pid) AND NOT granted", is: "true")
            if !blocked { XCTFail("the other side never waited") }
        }
        // 1. The chart holds the lock first: the writer's trigger waits, then drops what the chart packed.
        try packer.query("BEGIN ISOLATION LEVEL SERIALIZABLE")
        try PostgresWeightSeries.fill(packer, pet: coco, chunkPoints: 3)
        let done = DispatchSemaphore(value: 0)
        let writer = Thread {
            _ = try? outside.query("UPDATE weight SET grams = 3333 WHERE record_id = \(ids[0])")
            done.signal()
        }
        writer.start()
        try waitUntilBlocked(outsidePid)
        try packer.query("COMMIT")
        done.wait()
        try assertSame("the writer after the chart")
        XCTAssertEqual(try chunks(coco), 0, "the first point changed: the chart's chunks went")
        // 2. The writer changed a weight first, not yet committed: the chart waits, then packs the change.
        try outside.query("BEGIN")
        try outside.query("UPDATE weight SET grams = 3444 WHERE record_id = \(ids[1])")
        let packed = DispatchSemaphore(value: 0)
        let pet = coco
        let chart = Thread {
            _ = try? packer.transaction(.write) { try PostgresWeightSeries.fill(packer, pet: pet, chunkPoints: 3) }
            packed.signal()
        }
        chart.start()
        try waitUntilBlocked(packerPid)
        try outside.query("COMMIT")
        packed.wait()
        XCTAssertEqual(try chunks(coco), 2)
        XCTAssertEqual(try fromTables(coco).grams[1], 3444)
        try assertSame("the chart after the writer")
    }
}
