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
