import Foundation
import XCTest
import PetStoreCore
import PetStoreSQLite
import PetStorePostgres

/// The stores a test can run on.
public enum TestStore: String, Sendable, CaseIterable {
    case sqlite
    case postgres

    public var name: String { self == .sqlite ? "SQLite" : "PostgreSQL" }

    /// The stores each test of a `StoreTestCase` runs on, in this order: `PETLOG_TEST_STORE=sqlite` or
    /// `postgres` picks one; without it, SQLite and, where PostgreSQL 15 is installed, PostgreSQL too.
    public static var chosen: [TestStore] {
        switch ProcessInfo.processInfo.environment["PETLOG_TEST_STORE"] {
        case "sqlite": return [.sqlite]
        case "postgres": return [.postgres]
        default: return TestServer.installed ? [.sqlite, .postgres] : [.sqlite]
        }
    }
}

/// A suite that touches a store. Each of its tests runs on every store, by construction: once on
/// SQLite, then again on PostgreSQL (a fresh instance of the suite, its own setUp and tearDown, a
/// database of its own on the run's throwaway server), in the same test process, under the same test
/// name. A failure says which store it happened on (`[on PostgreSQL] …`).
///
/// There is no list of store suites anywhere: derive from this class (end-to-end suites derive from
/// `CLITestCase`, which does) and make the store with `makeStore()` (or run petlog with `dbPath`).
/// A suite that has nothing to test on a second store says why in `onOneStoreOnly`; a single test
/// about the SQLite file itself starts with `try requireDatabaseFile()`.
///
/// How: swift-corelibs-xctest builds each test from its method's closure (`init(name:testClosure:)`)
/// and runs `invokeTest()` once per instance (its teardown blocks may run only once), so the second
/// store gets a second instance made from the same closure; XCTest's assertions report to the test
/// case that is running, this one, and the instance on the second store forwards what it records.
open class StoreTestCase: XCTestCase {
    /// The store this instance runs its test on.
    public private(set) var testStore: TestStore = TestStore.chosen.first ?? .sqlite
    /// Whether the test runs on the PostgreSQL server.
    public var onServer: Bool { testStore == .postgres }

    private let method: String
    private let closure: XCTestCaseClosure
    /// The instance whose test run this one (on the second store) reports to.
    private weak var reportsTo: StoreTestCase?
    /// While the second store's instance runs: its store, for the failures it records here.
    private var secondStore: TestStore?

    public required init(name: String, testClosure: @escaping XCTestCaseClosure) {
        method = name
        closure = testClosure
        super.init(name: name, testClosure: testClosure)
    }

    /// Why this whole suite runs on one store only (SQLite, or servers of its own), or nil: it is about
    /// the SQLite file itself, or about something no store takes part in. A single test about the file
    /// says so with `requireDatabaseFile()` instead.
    open class var onOneStoreOnly: String? { nil }

    /// The stores this suite's tests run on.
    public static var stores: [TestStore] {
        guard onOneStoreOnly != nil else { return TestStore.chosen }
        return [.sqlite]
    }

    /// Tests of this suite that run on the first store only, by method name, each with why: their subject
    /// is how petlog draws, words or parses something (a PDF's layout, the same bytes twice, help text,
    /// argument order), not what a store keeps or gives back; what the store gives those views is run on
    /// both stores by the suite's other tests and compared across stores by `ServerStoreTests`. No second
    /// instance is made for them (no second database, no second setUp). `StoreSuitesTests` checks that
    /// each name is a test of the suite with a reason, and that docs/testing.md lists the suite.
    open class var firstStoreOnly: [String: String] { [:] }

    /// The stores the test `method` runs on.
    static func stores(for method: String) -> [TestStore] {
        let test = method.split(separator: ".").last.map(String.init) ?? method
        return firstStoreOnly[test] == nil ? stores : Array(stores.prefix(1))
    }

    open override func setUpWithError() throws {
        try super.setUpWithError()
        if let reason = Self.onOneStoreOnly, TestStore.chosen == [.postgres] {
            throw XCTSkip("\(Self.self) runs on SQLite only: \(reason)")
        }
    }

    open override func invokeTest() {
        if reportsTo != nil { return super.invokeTest() }
        let stores = Self.stores(for: method)
        testStore = stores[0]
        var start = Date()
        super.invokeTest()
        Self.noteTime(name, testStore, since: start)
        // A test skipped on the first store may be about the second one (a race only a server has): it
        // runs there all the same; a skip there (a tool not installed) is said in the log.
        for store in stores.dropFirst() {
            let again = type(of: self).init(name: method, testClosure: closure)
            again.testStore = store
            again.reportsTo = self
            secondStore = store
            start = Date()
            again.invokeTest()
            Self.noteTime(name, store, since: start)
            secondStore = nil
        }
    }

    /// With `PETLOG_TEST_TIMES=FILE` (`make test` sets it): one line per test and store, `test<TAB>store<TAB>seconds`,
    /// appended (each test process writes its own lines in one `write`), for the time each store takes
    /// (`swift test --parallel` shows no output of a test that passed, and its xUnit time is both stores').
    static func noteTime(_ test: String, _ store: TestStore, since start: Date) {
        guard let path = ProcessInfo.processInfo.environment["PETLOG_TEST_TIMES"], !path.isEmpty else { return }
        let line = "\(test)\t\(store.rawValue)\t\(String(format: "%.3f", Date().timeIntervalSince(start)))\n"
        let fd = open(path, O_WRONLY | O_CREAT | O_APPEND, 0o644)
        guard fd >= 0 else { return }
        _ = line.withCString { write(fd, $0, strlen($0)) }
        close(fd)
    }

    open override func recordFailure(withDescription description: String, inFile filePath: String, atLine lineNumber: Int, expected: Bool) {
        // What the second store's instance records itself (an error its test threw) goes to the run.
        if let first = reportsTo {
            first.secondStore = testStore
            return first.recordFailure(withDescription: description, inFile: filePath, atLine: lineNumber, expected: expected)
        }
        let store = secondStore ?? testStore
        let tag = Self.stores.count > 1 ? "[on \(store.name)] " : ""
        super.recordFailure(withDescription: tag + description, inFile: filePath, atLine: lineNumber, expected: expected)
    }

    /// Skips a test about the SQLite file itself (its bytes, its folder, sqlite3) on the PostgreSQL store.
    public func requireDatabaseFile(_ why: String = "about the database file") throws {
        guard onServer else { return }
        print("\(name) on PostgreSQL: skipped, \(why)")
        throw XCTSkip("\(why); runs on SQLite")
    }

    /// Runs the test once, on the first store only: for a test that picks its store itself (a load on a
    /// server database whichever store the suite runs on), where a second run would prove nothing new.
    /// (A test about drawing or wording is named in `firstStoreOnly` instead: no second setUp at all.)
    public func onFirstStoreOnly(_ why: String) throws {
        guard reportsTo != nil else { return }
        print("\(name) on \(testStore.name): not run again, \(why)")
        throw XCTSkip(why)
    }

    /// A store for the test: a SQLite database in memory, or a new database on the run's server (a copy of
    /// its migrated template; `PostgresSchemaTests` migrates empty ones).
    public func makeStore(now: @escaping @Sendable () -> Date = { Date() }, undoCommand: String? = nil) throws -> any PetlogStore {
        guard onServer else { return Store(SQLiteRepository(try AppDatabase.inMemory(), now: now, undoCommand: undoCommand)) }
        let server = try TestServer.shared()
        let name = try server.createMigratedDatabase()
        addTeardownBlock { try? server.dropDatabase(name) }
        return Store(try PostgresRepository(PostgresTarget.parse(TestServer.url(name), environment: [:]), now: now, undoCommand: undoCommand))
    }

    /// A store that keeps attachment files: on SQLite a database file in `folder` (nil: a private folder removed
    /// after the test) with its attachments beside it; on PostgreSQL the server's, as `makeStore`.
    public func makeStoreKeepingFiles(in folder: String? = nil, now: @escaping @Sendable () -> Date = { Date() },
                                      undoCommand: String? = nil) throws -> any PetlogStore {
        guard !onServer else { return try makeStore(now: now, undoCommand: undoCommand) }
        let folder = folder ?? {
            let made = NSTemporaryDirectory() + "petlog-test-store-" + UUID().uuidString
            addTeardownBlock { try? FileManager.default.removeItem(atPath: made) }
            return made
        }()
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        return Store(SQLiteRepository(try AppDatabase.open(path: folder + "/petlog.sqlite"), now: now, undoCommand: undoCommand))
    }
}

/// A suite that opens a store itself but is not a `StoreTestCase`: it is about one engine (the SQLite
/// file, its migrations, the PostgreSQL link) or compares the two engines inside each test. It says
/// which and why; `StoreSuitesTests` fails for a suite that opens a store and does neither.
public protocol OnOneStore {
    static var onOneStore: String { get }
}
