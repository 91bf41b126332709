import Foundation
import Hummingbird
import HummingbirdTesting
import Localization
import PetCharts
import PetModel
import PetStoreCore
import PetStoreSQLite
import PetViews
import PetlogTestSupport
import XCTest
@testable import PetServe

/// What the server keeps between requests (issue 44): the store's change marker moves with every committed write,
/// this connection's and (on a file) another process's, and never with a read; the pages and the chart kept under it
/// follow every write; a read transaction still refuses a write.
final class StoreCacheTests: ServeTestCase, @unchecked Sendable {
    static let utc = TimeZone(identifier: "UTC")!
    /// The database file (SQLite): another connection to it stands for a CLI command writing beside the server.
    var path: String?

    override func setUpWithError() throws {
        try super.setUpWithError()
        let folder = NSTemporaryDirectory() + "petlog-cache-test-" + UUID().uuidString
        addTeardownBlock { try? FileManager.default.removeItem(atPath: folder) }
        store = try XCTUnwrap(try makeStoreKeepingFiles(in: folder) as? SharedStore.Served)
        path = onServer ? nil : folder + "/petlog.sqlite"
        let now = Date()
        server = PetServer(store: SharedStore(store), settings: ServeSettings(timeZone: Self.utc, now: { now }))
    }

    func presentation(_ language: Language) -> PresentationContext { server.presentation(language) }
    func body(_ r: TestResponse) -> Data { Data(buffer: r.body) }
    /// A weight as the home page writes it.
    func shown(_ grams: Int) -> String { presentation(.en).format.mass(Mass(grams: grams)) }

    func weigh(_ store: any PetlogStore, _ pet: Pet, grams: Int, daysAgo: Double) throws {
        _ = try store.addRecord(pets: [.id(pet.id)], RecordDraft(at: Date(timeIntervalSinceNow: -daysAgo * 86_400), utcOffset: 0,
                                                                 detail: .weight(Weight(mass: Mass(grams: grams)))))
    }

    func testTheMarkerMovesWithEveryCommittedWriteAndNotWithReads() throws {
        let first = try XCTUnwrap(try store.changeMarker(), "both engines have a marker")
        _ = try store.pets(includeArchived: false)
        _ = try store.records(RecordQuery(limit: 5))
        // (A server's snapshot also moves with other databases' writes, which the test run makes beside this one.)
        if !onServer { XCTAssertEqual(try store.changeMarker(), first, "reads leave it") }
        let coco = try addPet("Coco")
        let second = try XCTUnwrap(try store.changeMarker())
        XCTAssertNotEqual(second, first, "this connection's write moves it")
        try weigh(store, coco, grams: 4100, daysAgo: 1)
        XCTAssertNotEqual(try store.changeMarker(), second)
        if let path {
            let before = try store.changeMarker()
            let other = Store(SQLiteRepository(try AppDatabase.open(path: path)))
            try weigh(other, coco, grams: 4200, daysAgo: 0.5)
            XCTAssertNotEqual(try store.changeMarker(), before, "another process's write moves it")
        }
    }

    func testAReadTransactionRefusesAWrite() throws {
        let coco = try addPet("Coco")
        guard let engine = (store as? Store)?.engine else { return XCTFail("a Store") }
        XCTAssertThrowsError(try engine.readTransaction { try $0.execute("DELETE FROM pet", [] as [SQLValue]) })
        XCTAssertEqual(try store.pets(includeArchived: true).map(\.id), [coco.id], "nothing deleted")
    }

    func testHomeAndTheChartFollowEveryWrite() async throws {
        _ = try store.addAccount(name: "mina", role: .viewer, passwordHash: Self.hash)
        let coco = try addPet("Coco")
        try weigh(store, coco, grams: 4000, daysAgo: 30)
        let app = Application(router: server.router())
        try await app.test(.router) { client in
            let (cookie, _) = try await self.signIn(client, "mina")
            func get(_ uri: String) async throws -> Data {
                let r = try await client.execute(uri: uri, method: .get, headers: self.headers(cookie: cookie))
                XCTAssertEqual(r.status, .ok, uri)
                return self.body(r)
            }
            func expectedChart() throws -> Data {
                let p = self.presentation(.en)
                let window = TimeWindow(since: p.time.startOfDay(p.time.localDate(of: try TimeParser.since("1y", context: p.time))))
                let chart = try ChartComposer(store: self.store, context: p, size: PetServer.chartSize, theme: .light).weight(pets: [.id(coco.id)], window: window, smoothing: nil)
                return try PetServer.rendered("w.svg") { path in
                    guard case .line(let spec) = chart.drawing() else { return XCTFail("a weight chart is a line chart") }
                    try ChartRenderer.render(spec, to: path, format: .svg)
                }
            }
            let chart1 = try await get("/pets/\(coco.id)/weight.svg?since=1y")
            let again = try await get("/pets/\(coco.id)/weight.svg?since=1y")
            XCTAssertEqual(again, chart1, "the same drawing while nothing changed")
            var home = String(decoding: try await get("/"), as: UTF8.self)
            XCTAssertTrue(home.contains(self.shown(4000)))
            // The server's own connection writes (as a web form would).
            try self.weigh(self.store, coco, grams: 4500, daysAgo: 2)
            let chart2 = try await get("/pets/\(coco.id)/weight.svg?since=1y")
            XCTAssertNotEqual(chart2, chart1)
            XCTAssertEqual(chart2, try expectedChart())
            home = String(decoding: try await get("/"), as: UTF8.self)
            XCTAssertTrue(home.contains(self.shown(4500)))
            // Another process writes the file (a CLI command beside the server).
            if let path = self.path {
                let other = Store(SQLiteRepository(try AppDatabase.open(path: path)))
                try self.weigh(other, coco, grams: 4800, daysAgo: 1)
                let chart3 = try await get("/pets/\(coco.id)/weight.svg?since=1y")
                XCTAssertNotEqual(chart3, chart2)
                XCTAssertEqual(chart3, try expectedChart())
                home = String(decoding: try await get("/"), as: UTF8.self)
                XCTAssertTrue(home.contains(self.shown(4800)))
            }
            XCTAssertGreaterThan(self.server.cache.count, 0, "the chart and home's values are kept")
        }
    }

    func testAPetsPageFollowsEveryWriteAndWorksOutItsInstantPerRequest() async throws {
        let clock = Guarded(Date())
        let folder = NSTemporaryDirectory() + "petlog-cache-test-" + UUID().uuidString
        addTeardownBlock { try? FileManager.default.removeItem(atPath: folder) }
        store = try XCTUnwrap(try makeStoreKeepingFiles(in: folder, now: { clock.withLockedValue { $0 } }) as? SharedStore.Served)
        server = PetServer(store: SharedStore(store), settings: ServeSettings(timeZone: Self.utc, now: { clock.withLockedValue { $0 } }))
        _ = try store.addAccount(name: "mina", role: .viewer, passwordHash: Self.hash)
        let coco = try addPet("Coco")
        try weigh(store, coco, grams: 4000, daysAgo: 30)
        // A course that runs to the end of today (the store's clock and zone decide, as `med list` does).
        let today = TimeContext(now: clock.withLockedValue { $0 }, timeZone: .current).today
        _ = try store.addRecord(pets: [.id(coco.id)], RecordDraft(at: Date(timeIntervalSinceNow: -86_400), utcOffset: 0,
                                                                 detail: .medication(Medication(name: "Apoquel", dose: "16mg", endsOn: today))))
        try await Application(router: server.router()).test(.router) { client in
            let (cookie, _) = try await self.signIn(client, "mina")
            func page() async throws -> String {
                let r = try await client.execute(uri: "/pets/\(coco.id)", method: .get, headers: self.headers(cookie: cookie))
                XCTAssertEqual(r.status, .ok)
                return String(decoding: self.body(r), as: UTF8.self)
            }
            var shown = try await page()
            XCTAssertTrue(shown.contains(self.shown(4000)))
            let running = "<dt>\(L10n(.en).text(.colMedications))</dt><dd><bdi>Apoquel 16mg</bdi></dd>"
            XCTAssertTrue(shown.contains(running), "the course runs today")
            let again = try await page()
            XCTAssertEqual(again, shown, "the same page while nothing changed")
            // The server's own connection writes.
            try self.weigh(self.store, coco, grams: 4500, daysAgo: 2)
            shown = try await page()
            XCTAssertTrue(shown.contains(self.shown(4500)))
            // Another process writes the file (a CLI command beside the server).
            if let path = self.path.map({ _ in folder + "/petlog.sqlite" }) {
                let other = Store(SQLiteRepository(try AppDatabase.open(path: path)))
                try self.weigh(other, coco, grams: 4800, daysAgo: 1)
                shown = try await page()
                XCTAssertTrue(shown.contains(self.shown(4800)))
            }
            // Two days on, nothing written: the course is over at the request's instant.
            clock.withLockedValue { $0 = $0.addingTimeInterval(2 * 86_400) }
            shown = try await page()
            XCTAssertFalse(shown.contains(running), "a course past its last day is not among the facts")
        }
    }

    func testOneCallerMakesAValueTheOthersWaitForIt() {
        let cache = StoreCache()
        let callers = 8
        let started = DispatchSemaphore(value: 0)
        let made = Guarded(0)
        let got = Guarded([Int]())
        let finished = DispatchGroup()
        // A thread each (not a pool's few), so that all of them ask at once.
        for _ in 0..<callers {
            finished.enter()
            Thread {
                started.signal()
                let value = cache.value("due", marker: "1", cost: { _ in 8 }) { () -> Int in
                    made.withLockedValue { $0 += 1 }
                    // The others have asked by now (or soon): each of them would make it again without the turn.
                    for _ in 1..<callers { _ = started.wait(timeout: .now() + 2) }
                    return 42
                }
                got.withLockedValue { $0.append(value) }
                finished.leave()
            }.start()
        }
        finished.wait()
        XCTAssertEqual(made.withLockedValue { $0 }, 1, "made once")
        XCTAssertEqual(got.withLockedValue { $0 }, Array(repeating: 42, count: callers))
        XCTAssertEqual(cache.value("due", marker: "2", cost: { _ in 8 }) { 7 }, 7, "another marker makes its own")
    }

    /// On a file the server's reads go to read-only connections of their own: a read goes on while the writing
    /// connection is inside a write, sees only what was committed before it, and sees each commit at once.
    func testReadConnectionsReadBesideAWriteAndSeeEachCommitAtOnce() throws {
        guard let path else {
            XCTAssertFalse(SharedStore(store).concurrent, "one server connection: calls in turn")
            return
        }
        let shared = SharedStore(store, readConnections: 2)
        XCTAssertTrue(shared.concurrent)
        XCTAssertFalse(SharedStore(Store(SQLiteRepository(try AppDatabase.inMemory())), readConnections: 2).concurrent, "in memory: one connection")
        let coco = try addPet("Coco")
        guard let engine = (store as? Store)?.engine else { return XCTFail("a Store") }
        let inside = DispatchSemaphore(value: 0), release = DispatchSemaphore(value: 0), done = DispatchSemaphore(value: 0)
        DispatchQueue.global().async {
            _ = try? engine.writeTransaction(recording: false) { sql -> Int in
                _ = try sql.execute("UPDATE pet SET name = ? WHERE id = ?", [SQLValue.text("Momo"), SQLValue.int(coco.id)])
                inside.signal()
                _ = release.wait(timeout: .now() + 30)
                return 0
            }
            done.signal()
        }
        XCTAssertEqual(inside.wait(timeout: .now() + 30), .success)
        // The writing connection is busy with its transaction; the read must not wait for it (else it would wait here
        // until the write ends: the reader below gives up after a while and says so).
        let names = Guarded<[String]?>(nil), read = DispatchSemaphore(value: 0)
        DispatchQueue.global().async {
            names.withLockedValue { $0 = try? shared.run { try $0.pets(includeArchived: true).map(\.name) } }
            read.signal()
        }
        let readBeside = read.wait(timeout: .now() + 20) == .success
        release.signal()
        XCTAssertEqual(done.wait(timeout: .now() + 30), .success)
        if !readBeside { _ = read.wait(timeout: .now() + 30) }
        XCTAssertTrue(readBeside, "the read went on beside the write")
        XCTAssertEqual(names.withLockedValue { $0 }, ["Coco"], "only what was committed")
        XCTAssertEqual(try shared.run { try $0.pets(includeArchived: true).map(\.name) }, ["Momo"], "the commit, seen at once")
        // Another process's commit, seen at once too.
        let other = Store(SQLiteRepository(try AppDatabase.open(path: path)))
        try weigh(other, coco, grams: 4200, daysAgo: 1)
        XCTAssertEqual(try shared.run { try $0.records(RecordQuery(pets: [.id(coco.id)], kinds: [.weight])).count }, 1)
    }

    func testTheCacheKeepsWithinItsLimitAndDropsEverythingOnANewMarker() {
        let cache = StoreCache(limit: 1000)
        cache.keep("a", "a", cost: 200, marker: "1")
        cache.keep("b", "b", cost: 200, marker: "1")
        XCTAssertEqual(cache.value("a", marker: "1") as String?, "a")
        XCTAssertNil(cache.value("a", marker: "2") as String?, "another marker finds nothing")
        cache.keep("too dear", "c", cost: 300, marker: "1")
        XCTAssertNil(cache.value("c", marker: "1") as String?, "more than a quarter of the limit is not kept")
        for i in 0..<10 { cache.keep(i, "n\(i)", cost: 200, marker: "1") }
        XCTAssertLessThanOrEqual(cache.count, 5)
        XCTAssertEqual(cache.value("n9", marker: "1") as Int?, 9, "the newest stay")
        XCTAssertNil(cache.value("a", marker: "1") as String?, "the least recently used went")
        cache.keep("x", "x", cost: 1, marker: "2")
        XCTAssertEqual(cache.count, 1, "a new marker drops what the old one kept")
        XCTAssertNil(cache.value("x", marker: nil) as String?, "no marker, nothing kept")
    }
}
