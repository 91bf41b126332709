import Foundation
import XCTest

/// Runs the built `petlog` binary in a temporary HOME with its own database, as a user would.
///
/// The same tests run against both stores: with `PETLOG_TEST_STORE=postgres` (the second pass of
/// `make test`) each test gets a database of its own on a throwaway PostgreSQL server, and `dbPath` is
/// its `postgres://` address; a test about the database file itself (its bytes, its folder, sqlite3)
/// says so with `try requireDatabaseFile()` and is skipped there.
class CLITestCase: XCTestCase {
    var home: URL!
    /// The test's database: a file, or on the server pass a `postgres://` address.
    var dbPath: String { serverDatabase.map(TestServer.url) ?? home.appendingPathComponent("data/petlog.sqlite").path }
    /// The server pass's database for this test.
    var serverDatabase: String?

    /// Which store this run tests.
    static var onServer: Bool { ProcessInfo.processInfo.environment["PETLOG_TEST_STORE"] == "postgres" }

    /// Skips a test about the SQLite file itself on the server pass.
    func requireDatabaseFile() throws {
        if Self.onServer { throw XCTSkip("about the database file; the server pass runs the rest") }
    }

    /// Why this whole suite is not run again on the server pass, or nil: every suite runs on both stores
    /// by construction (`make test` runs the whole module twice), and one that has nothing to test there
    /// says why here: it is about the SQLite file itself, or about something no store takes part in.
    /// A single test about the file says so with `requireDatabaseFile()` instead.
    class var notOnServerPass: String? { nil }

    /// A count as petlog prints it in English: digits grouped by threes (`2,012`).
    func grouped(_ n: Int) -> String {
        let digits = Array(String(n))
        return String(digits.enumerated().flatMap { i, d in (i > 0 && (digits.count - i) % 3 == 0) ? [",", d] : [d] })
    }

    struct Result {
        var status: Int32
        var stdout: String
        var stderr: String
        /// Ended by a signal (a Swift trap is SIGILL or SIGTRAP), not by exit().
        var crashed = false
    }

    /// `$PETLOG_BIN`, else the `petlog` built beside this test executable (`.build/<triple>/debug/`).
    static var binary: URL {
        if let b = ProcessInfo.processInfo.environment["PETLOG_BIN"], !b.isEmpty { return URL(fileURLWithPath: b) }
        let testExecutable = URL(fileURLWithPath: ProcessInfo.processInfo.arguments[0]).resolvingSymlinksInPath()
        var dir = testExecutable.deletingLastPathComponent()
        for _ in 0..<4 where !FileManager.default.isExecutableFile(atPath: dir.appendingPathComponent("petlog").path) {
            dir = dir.deletingLastPathComponent()
        }
        return dir.appendingPathComponent("petlog")
    }

    override func setUpWithError() throws {
        home = FileManager.default.temporaryDirectory.appendingPathComponent("petlog-e2e-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: home, withIntermediateDirectories: true)
        if Self.onServer, let reason = Self.notOnServerPass { throw XCTSkip("\(Self.self) on the server pass: \(reason)") }
        XCTAssertTrue(FileManager.default.isExecutableFile(atPath: Self.binary.path), "build petlog first: \(Self.binary.path)")
        if Self.onServer { serverDatabase = try TestServer.shared().createDatabase() }
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(at: home)
        if let name = serverDatabase { try? TestServer.shared().dropDatabase(name) }
    }

    @discardableResult
    func run(_ args: [String], env extra: [String: String] = [:], useDefaultDB: Bool = false, stdin: String? = nil) throws -> Result {
        try launch(Self.binary, useDefaultDB ? args : ["--db", dbPath] + args, env: extra, stdin: stdin)
    }

    /// Runs `executable` in HOME with the tests' environment (Seoul, C.UTF-8, a pinned now) plus `extra`.
    /// stdout and stderr are read at the same time (a child that fills one pipe while the test waits on
    /// the other would hang both); `stdin` is written, then closed; without it stdin is empty.
    func launch(_ executable: URL, _ args: [String], env extra: [String: String] = [:], stdin: String? = nil) throws -> Result {
        let p = Process()
        p.executableURL = executable
        p.arguments = args
        var env = ["HOME": home.path, "PATH": "/usr/bin:/bin", "TZ": "Asia/Seoul", "LANG": "C.UTF-8", "PETLOG_NOW": "2026-11-23T10:00:00+09:00"]
        env.merge(extra) { _, new in new }
        p.environment = env
        p.currentDirectoryURL = home
        let out = Pipe(), err = Pipe(), input = Pipe()
        p.standardOutput = out
        p.standardError = err
        p.standardInput = input
        try p.run()
        let group = DispatchGroup()
        let errData = LockedData()
        DispatchQueue.global().async(group: group) { errData.set(err.fileHandleForReading.readDataToEndOfFile()) }
        DispatchQueue.global().async(group: group) {
            // A child that exits without reading its input makes this write fail (EPIPE); that is fine.
            if let stdin { try? input.fileHandleForWriting.write(contentsOf: Data(stdin.utf8)) }
            try? input.fileHandleForWriting.close()
        }
        let o = out.fileHandleForReading.readDataToEndOfFile()
        group.wait()
        p.waitUntilExit()
        return Result(status: p.terminationStatus, stdout: String(decoding: o, as: UTF8.self), stderr: String(decoding: errData.get(), as: UTF8.self),
                      crashed: p.terminationReason == .uncaughtSignal)
    }

    /// The standard output of a program in /usr/bin (poppler's pdffonts, pdftotext …); the test is skipped
    /// where it is not installed.
    func tool(_ name: String, _ args: [String]) throws -> String {
        let path = "/usr/bin/\(name)"
        guard FileManager.default.isExecutableFile(atPath: path) else { throw XCTSkip("\(name) not installed") }
        return try launch(URL(fileURLWithPath: path), args).stdout
    }

    /// The text of a PDF, by pdftotext (the test is skipped where it is not installed).
    func pdfText(_ path: String) throws -> String {
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/pdftotext") else { throw XCTSkip("pdftotext not installed") }
        return try launch(URL(fileURLWithPath: "/usr/bin/pdftotext"), [path, "-"]).stdout
    }

    /// Runs a Python script with `args`; skips the test when one of `modules` is not installed.
    func python(_ script: String, _ args: [String] = [], needs modules: [String] = []) throws -> Result {
        let env = URL(fileURLWithPath: "/usr/bin/env")
        // The user's own HOME and PATH: pip may have installed the modules under ~/.local.
        let own = ProcessInfo.processInfo.environment
        let paths = ["HOME": own["HOME"] ?? "/root", "PATH": own["PATH"] ?? "/usr/bin:/bin"]
        for m in modules where try launch(env, ["python3", "-c", "import \(m)"], env: paths).status != 0 {
            throw XCTSkip("python \(m) not installed (make setup installs it)")
        }
        return try launch(env, ["python3", "-c", script] + args, env: paths)
    }

    /// Runs and expects success.
    @discardableResult
    func ok(_ args: String..., file: StaticString = #filePath, line: UInt = #line) throws -> String {
        let r = try run(args)
        XCTAssertEqual(r.status, 0, "petlog \(args.joined(separator: " ")): \(r.stderr)", file: file, line: line)
        return r.stdout
    }

    /// The records a command prints with `--json` (it must exit 0).
    func records(_ args: [String], env: [String: String] = [:]) throws -> [[String: Any]] {
        let r = try run(args + ["--json"], env: env)
        XCTAssertEqual(r.status, 0, r.stderr)
        return try XCTUnwrap(JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [[String: Any]], r.stdout)
    }

    /// A JSON record's detail object: the one under its kind's key.
    func detail(_ record: [String: Any]) -> [String: Any] {
        (record[record["kind"] as? String ?? ""] as? [String: Any]) ?? [:]
    }

    func json(_ args: String..., file: StaticString = #filePath, line: UInt = #line) throws -> Any {
        let r = try run(args + ["--json"])
        XCTAssertEqual(r.status, 0, r.stderr, file: file, line: line)
        return try JSONSerialization.jsonObject(with: Data(r.stdout.utf8))
    }

    /// The bytes of a database file with its WAL and rollback journal; what stands at a path that is
    /// not a regular file (a folder, a FIFO) is named, never read.
    func fileHash(_ path: String) throws -> Data {
        // On a server: everything the database holds, as its export and its undo history say it.
        if PostgresURL.isURL(path) {
            return Data((try run(["--db", path, "export", "-o", "-"], useDefaultDB: true).stdout
                         + run(["--db", path, "undo", "--list"], useDefaultDB: true).stdout).utf8)
        }
        var all = Data()
        for suffix in ["", "-wal", "-journal"] {
            guard let type = (try? FileManager.default.attributesOfItem(atPath: path + suffix))?[.type] as? FileAttributeType else { continue }
            if type == .typeRegular {
                all += try Data(contentsOf: URL(fileURLWithPath: path + suffix))
            } else {
                all += Data("\(suffix):\(type.rawValue)".utf8)
            }
        }
        return all
    }

    /// A refusal as the README promises it: the sysexits `code` (no crash), nothing on stdout, exactly one
    /// line on stderr that contains `mentions`, and the database file byte-identical. `db` runs against
    /// another file than the test's own.
    @discardableResult
    func expectRefused(_ args: [String], code: Int32, mentions: String, db: String? = nil, env: [String: String] = [:],
                       file: StaticString = #filePath, line: UInt = #line) throws -> Result {
        let path = db ?? dbPath
        let before = try fileHash(path)
        let r = try run(db.map { ["--db", $0] + args } ?? args, env: env, useDefaultDB: db != nil)
        checkRefusal(r, code: code, mentions: mentions, "\(args)", file: file, line: line)
        XCTAssertEqual(try fileHash(path), before, "database changed by \(args)", file: file, line: line)
        return r
    }

    /// A JSON export's text without its household namespace: the same data in another database (made from
    /// CSV tables, which do not carry the namespace) has its own.
    func withoutNamespace(_ path: String) throws -> String {
        try String(contentsOfFile: path, encoding: .utf8)
            .replacingOccurrences(of: #""namespace": "[0-9a-f]{32}", "#, with: "", options: .regularExpression)
    }

    func checkRefusal(_ r: Result, code: Int32, mentions: String, _ what: String, file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertFalse(r.crashed, "\(what) crashed (signal \(r.status)): \(r.stderr.prefix(600))", file: file, line: line)
        XCTAssertEqual(r.status, code, "\(what): \(r.stderr.prefix(600))", file: file, line: line)
        XCTAssertEqual(r.stdout, "", "\(what) printed on stdout", file: file, line: line)
        XCTAssertEqual(r.stderr.split(separator: "\n", omittingEmptySubsequences: false).count, 2, "\(what): one line: \(r.stderr.prefix(600))", file: file, line: line)
        XCTAssertTrue(r.stderr.hasSuffix("\n") && r.stderr.hasPrefix("petlog: "), "\(what): \(r.stderr.prefix(600))", file: file, line: line)
        XCTAssertTrue(r.stderr.contains(mentions), "\(what): \(r.stderr) should mention \(mentions)", file: file, line: line)
    }
}

/// Bytes handed from a reading thread to the test.
final class LockedData: @unchecked Sendable {
    private let lock = NSLock()
    private var data = Data()
    func set(_ d: Data) { lock.lock(); data = d; lock.unlock() }
    func get() -> Data { lock.lock(); defer { lock.unlock() }; return data }
}

enum PostgresURL {
    static func isURL(_ s: String) -> Bool { s.hasPrefix("postgres://") || s.hasPrefix("postgresql://") }
}

/// The server pass's throwaway PostgreSQL 15 (`scripts/pg-test-server.sh`): started on first use in a
/// temporary folder, one database per test, stopped when the test process exits.
final class TestServer: @unchecked Sendable {
    let folder: String
    let port: String
    private static let lock = NSLock()
    nonisolated(unsafe) private static var started: TestServer?

    static func url(_ database: String) -> String {
        guard let s = started else { return "" }
        return "postgres://postgres@/\(database)?host=\(s.folder)&port=\(s.port)"
    }

    static func shared() throws -> TestServer {
        lock.lock(); defer { lock.unlock() }
        if let s = started { return s }
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("petlog-pg-\(UUID().uuidString.prefix(8))").path
        // Output through a file: the server the script starts would hold a pipe open for as long as it runs.
        let log = folder + ".out"
        let out = try shell(["bash", "-c", "bash \"$0\" start \"$1\" >\"$2\" 2>&1", script, folder, log], capture: false)
        let text = (try? String(contentsOfFile: log, encoding: .utf8)) ?? ""
        guard out.status == 0, let port = text.split(separator: " ").first(where: { $0.hasPrefix("PETLOG_PG_PORT=") })?.dropFirst(15) else {
            throw XCTSkip("no PostgreSQL 15 for the server pass: \(text)")
        }
        let s = TestServer(folder: folder, port: String(port.trimmingCharacters(in: .whitespacesAndNewlines)))
        started = s
        // Stopped and removed when the process ends (its folder holds a whole cluster).
        atexit {
            guard let s = TestServer.started else { return }
            _ = try? TestServer.shell(["bash", "-c", "bash \"$0\" stop \"$1\" >/dev/null 2>&1; rm -rf \"$1\" \"$1.out\"", TestServer.script, s.folder], capture: false)
        }
        return s
    }

    private init(folder: String, port: String) { self.folder = folder; self.port = port }

    static var script: String {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("scripts/pg-test-server.sh").path
    }

    func createDatabase() throws -> String {
        let name = "t_" + UUID().uuidString.replacingOccurrences(of: "-", with: "").prefix(16).lowercased()
        let r = try Self.shell(["/usr/lib/postgresql/15/bin/createdb", "-h", folder, "-p", port, "-U", "postgres", name])
        guard r.status == 0 else { throw XCTSkip("createdb failed: \(r.stderr)") }
        return name
    }

    func dropDatabase(_ name: String) throws {
        _ = try Self.shell(["/usr/lib/postgresql/15/bin/dropdb", "-h", folder, "-p", port, "-U", "postgres", "--force", name])
    }

    /// Runs `args` with posix_spawn and waitpid, its output through a file: Foundation's `Process` could
    /// wait forever here (on a pipe a server started by the script holds open, or on its exit).
    static func shell(_ args: [String], capture: Bool = true) throws -> (status: Int32, stdout: String, stderr: String) {
        let out = FileManager.default.temporaryDirectory.appendingPathComponent("petlog-shell-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: out) }
        let line = "\"$@\" >'\(out)' 2>&1"
        var pid: pid_t = 0
        let argv: [UnsafeMutablePointer<CChar>?] = (["/bin/bash", "-c", line, "bash"] + args).map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        // Nothing of the test process leaks into what the command starts: a server started (or restarted)
        // by it would hold open the pipes of petlog processes other threads of the test are reading, and
        // their `Process.waitUntilExit` would wait for an end of file that never comes.
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        for fd in (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd"))?.compactMap({ Int32($0) }) ?? [] where fd > 2 {
            posix_spawn_file_actions_addclose(&actions, fd)
        }
        guard posix_spawn(&pid, "/bin/bash", &actions, nil, argv, environ) == 0 else { return (127, "", "") }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) == -1 && errno == EINTR {}
        let text = (try? String(contentsOfFile: out, encoding: .utf8)) ?? ""
        return ((status & 0x7f) == 0 ? (status >> 8) & 0xff : 128 + (status & 0x7f), text, text)
    }
}
