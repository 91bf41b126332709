import Foundation
import XCTest
@testable import PetFiles
@testable import PetStoreCore
@testable import PetStoreSQLite
@testable import PetStorePostgres

/// A throwaway PostgreSQL 15 for the tests (scripts/pg-test-server.sh): started once per test process
/// when PostgreSQL is installed, stopped when the process ends; each test gets a database of its own.
/// Without PostgreSQL the tests that need it are skipped, saying why.
final class TestServer: @unchecked Sendable {
    static let shared: TestServer? = TestServer()
    nonisolated(unsafe) static var stopAtExit: String?

    let directory: String
    let port: Int
    private var counter = 0
    private let lock = NSLock()

    static var repoRoot: URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    }

    private init?() {
        guard FileManager.default.fileExists(atPath: "/usr/lib/postgresql/15/bin/initdb") else { return nil }
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("petlog-pg-\(getpid())").path
        let (status, out) = Self.script("start", dir)
        guard status == 0, let portText = out.split(separator: " ").first(where: { $0.hasPrefix("PETLOG_PG_PORT=") }),
              let port = Int(portText.dropFirst("PETLOG_PG_PORT=".count)) else { return nil }
        directory = dir
        self.port = port
        Self.stopAtExit = dir
        atexit {
            guard let dir = TestServer.stopAtExit else { return }
            TestServer.script("stop", dir)
            try? FileManager.default.removeItem(atPath: dir)
        }
    }

    /// Runs the server script with posix_spawn and waitpid (Foundation's `Process` waited forever for its
    /// exit when started from this type's lazy initializer); its standard output goes through a file.
    @discardableResult
    static func script(_ command: String, _ dir: String) -> (Int32, String) {
        let outFile = dir + ".\(command).out"
        let line = "bash '\(repoRoot.appendingPathComponent("scripts/pg-test-server.sh").path)' \(command) '\(dir)' > '\(outFile)'"
        var pid: pid_t = 0
        let argv: [UnsafeMutablePointer<CChar>?] = [strdup("/bin/bash"), strdup("-c"), strdup(line), nil]
        defer { argv.forEach { free($0) } }
        guard posix_spawn(&pid, "/bin/bash", nil, nil, argv, environ) == 0 else { return (127, "") }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) == -1 && errno == EINTR {}
        let out = (try? String(contentsOfFile: outFile, encoding: .utf8)) ?? ""
        try? FileManager.default.removeItem(atPath: outFile)
        let code: Int32 = (status & 0x7f) == 0 ? (status >> 8) & 0xff : 128 + (status & 0x7f)
        return (code, out.trimmingCharacters(in: .whitespacesAndNewlines))
    }

    /// The superuser over the socket (trusted).
    var superuserURL: String { "postgres://postgres@/postgres?host=\(directory)&port=\(port)" }

    /// A new empty database; its URL over the socket as the superuser.
    func newDatabase(_ name: String? = nil) throws -> String {
        lock.lock(); counter += 1; let n = counter; lock.unlock()
        let db = name ?? "t\(getpid())_\(n)"
        let admin = try PostgresLink(PostgresTarget.parse(superuserURL, environment: [:]))
        try admin.query("CREATE DATABASE \(db)")
        admin.close()
        return "postgres://postgres@/\(db)?host=\(directory)&port=\(port)"
    }

    func restart() { Self.script("restart", directory) }
}

func requireServer(file: StaticString = #filePath, line: UInt = #line) throws -> TestServer {
    guard let s = TestServer.shared else { throw XCTSkip("PostgreSQL 15 is not installed here (make setup installs postgresql-15)") }
    return s
}

/// The store the repository suites run on: a SQLite database in memory, or, with
/// `PETLOG_TEST_STORE=postgres` (the second pass of `make test`), a new database on the throwaway server.
/// One suite for both stores, not a copy.
enum StoreUnderTest {
    static var isServer: Bool { ProcessInfo.processInfo.environment["PETLOG_TEST_STORE"] == "postgres" }

    static func make(now: @escaping @Sendable () -> Date = { Date() }, undoCommand: String? = nil) throws -> any PetlogStore {
        guard isServer else { return Store(SQLiteRepository(try AppDatabase.inMemory(), now: now, undoCommand: undoCommand)) }
        let url = try requireServer().newDatabase()
        return Store(try PostgresRepository(PostgresTarget.parse(url, environment: [:]), now: now, undoCommand: undoCommand))
    }
}
