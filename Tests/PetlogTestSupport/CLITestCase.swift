import Foundation
import XCTest

/// Runs the built `petlog` binary in a temporary HOME with its own database, as a user would.
///
/// Every test runs on both stores (`StoreTestCase`): on SQLite `dbPath` is a file in HOME, on
/// PostgreSQL a database of the test's own on the run's throwaway server, and `dbPath` is its
/// `postgres://` address; the test does not change. A test about the database file itself (its bytes,
/// its folder, sqlite3) says so with `try requireDatabaseFile()`; a suite about something no store
/// takes part in says why in `onOneStoreOnly`.
open class CLITestCase: StoreTestCase {
    public var home: URL!
    /// The test's database: a file, or on PostgreSQL a `postgres://` address.
    public var dbPath: String { serverDatabase.map(TestServer.url) ?? home.appendingPathComponent("data/petlog.sqlite").path }
    /// The test's database on the server.
    public var serverDatabase: String?

    /// A count as petlog prints it in English: digits grouped by threes (`2,012`).
    public func grouped(_ n: Int) -> String {
        let digits = Array(String(n))
        return String(digits.enumerated().flatMap { i, d in (i > 0 && (digits.count - i) % 3 == 0) ? [",", d] : [d] })
    }

    public struct Result {
        public var status: Int32
        public var stdout: String
        public var stderr: String
        /// Ended by a signal (a Swift trap is SIGILL or SIGTRAP), not by exit().
        public var crashed = false
        public init(status: Int32, stdout: String, stderr: String, crashed: Bool = false) {
            self.status = status; self.stdout = stdout; self.stderr = stderr; self.crashed = crashed
        }
    }

    /// `$PETLOG_BIN`, else the `petlog` built beside this test executable (`.build/<triple>/debug/`).
    public static var binary: URL {
        if let b = ProcessInfo.processInfo.environment["PETLOG_BIN"], !b.isEmpty { return URL(fileURLWithPath: b) }
        let testExecutable = URL(fileURLWithPath: ProcessInfo.processInfo.arguments[0]).resolvingSymlinksInPath()
        var dir = testExecutable.deletingLastPathComponent()
        for _ in 0..<4 where !FileManager.default.isExecutableFile(atPath: dir.appendingPathComponent("petlog").path) {
            dir = dir.deletingLastPathComponent()
        }
        return dir.appendingPathComponent("petlog")
    }

    open override func setUpWithError() throws {
        home = FileManager.default.temporaryDirectory.appendingPathComponent("petlog-e2e-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: home, withIntermediateDirectories: true)
        try super.setUpWithError()
        XCTAssertTrue(FileManager.default.isExecutableFile(atPath: Self.binary.path), "build petlog first: \(Self.binary.path)")
        // On the server a copy of the run's migrated template: petlog's first open there migrates nothing.
        if onServer { serverDatabase = try TestServer.shared().createMigratedDatabase() }
    }

    /// On the server, the test's database becomes an empty one (no `petlog` schema yet), for a test about
    /// what petlog's first open of a server database makes or leaves behind (setUp's comes migrated).
    public func startWithAnEmptyServerDatabase() throws {
        guard let migrated = serverDatabase else { return }
        let server = try TestServer.shared()
        serverDatabase = try server.createDatabase()
        try? server.dropDatabase(migrated)
    }

    open override func tearDownWithError() throws {
        try? FileManager.default.removeItem(at: home)
        if let name = serverDatabase { try? TestServer.shared().dropDatabase(name) }
    }

    /// `petlog demo ARGS` into the test's database, for a suite whose setUp starts from the demo household. On
    /// the server the test's database becomes a copy of a demo database made once per run with the same
    /// arguments by the same binary (a demo is the same household for the same seed and end day, with a
    /// namespace of its own here as a new database has; writing it took 2–4.5 s a test there); on SQLite
    /// it is the command itself.
    public func demoHousehold(_ args: String..., file: StaticString = #filePath, line: UInt = #line) throws {
        guard let migrated = serverDatabase else {
            let r = try run(["demo"] + args)
            XCTAssertEqual(r.status, 0, "petlog demo \(args.joined(separator: " ")): \(r.stderr)", file: file, line: line)
            return
        }
        let server = try TestServer.shared()
        let binary = (try? FileManager.default.attributesOfItem(atPath: Self.binary.path)) ?? [:]
        let key = (["demo"] + args + ["\((binary[.modificationDate] as? Date)?.timeIntervalSince1970 ?? 0)", "\(binary[.size] ?? 0)"])
            .joined(separator: "\u{1}")
        // FNV-1a: a short stable name for the arguments and the binary.
        let hash = key.utf8.reduce(UInt64(0xcbf2_9ce4_8422_2325)) { ($0 ^ UInt64($1)) &* 0x100_0000_01b3 }
        let template = try server.template("petlog_demo_" + String(hash, radix: 16), from: try server.migratedTemplate()) { database in
            let r = try run(["--db", TestServer.url(database), "demo"] + args, useDefaultDB: true)
            guard r.status == 0 else { throw TestServerError.failed("petlog demo \(args.joined(separator: " ")): \(r.stderr)") }
        }
        serverDatabase = try server.createDatabase(copying: template)
        try? server.dropDatabase(migrated)
    }

    @discardableResult
    public func run(_ args: [String], env extra: [String: String] = [:], useDefaultDB: Bool = false, stdin: String? = nil) throws -> Result {
        try launch(Self.binary, useDefaultDB ? args : ["--db", dbPath] + args, env: extra, stdin: stdin)
    }

    /// Runs `executable` in HOME with the tests' environment (Seoul, C.UTF-8, a pinned now, `petlog-ocr` behind the
    /// run's cache of readings) plus `extra`.
    /// stdout and stderr are read at the same time (a child that fills one pipe while the test waits on
    /// the other would hang both); `stdin` is written, then closed; without it stdin is empty.
    public func launch(_ executable: URL, _ args: [String], env extra: [String: String] = [:], stdin: String? = nil) throws -> Result {
        let p = Process()
        p.executableURL = executable
        p.arguments = args
        var env = ["HOME": home.path, "PATH": "/usr/bin:/bin", "TZ": "Asia/Seoul", "LANG": "C.UTF-8", "PETLOG_NOW": "2026-11-23T10:00:00+09:00"]
        env.merge(Self.ocrCache) { _, new in new }
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

    /// `petlog-ocr` (built beside the tested `petlog`) behind the run's cache of readings (`OCRTestCache`);
    /// `PETLOG_TEST_NO_OCR_CACHE=1` in the test's environment runs the helper itself every time.
    public static let ocrCache: [String: String] = {
        let real = binary.deletingLastPathComponent().appendingPathComponent("petlog-ocr")
        guard ProcessInfo.processInfo.environment["PETLOG_TEST_NO_OCR_CACHE"] != "1", FileManager.default.isExecutableFile(atPath: real.path) else { return [:] }
        return OCRTestCache.environment(real: real)
    }()

    /// A pseudo-terminal driver in Tests/PetlogTestSupport/pty: `run-in-pty.py` runs a command with its
    /// standard output on a terminal of a given width; `complete-in-pty.py` types into a shell and presses TAB.
    public static func ptyDriver(_ name: String) -> URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("pty/\(name)")
    }

    /// What a terminal `columns` wide shows of `args` (petlog's own binary first, as given), as its user
    /// sees it (CR LF as LF); the command asks the terminal for its width (COLUMNS is not set).
    public func onTerminal(columns: Int = 80, _ args: [String], env: [String: String] = [:]) throws -> Result {
        try launch(URL(fileURLWithPath: "/usr/bin/python3"), [Self.ptyDriver("run-in-pty.py").path, String(columns)] + args, env: env)
    }

    /// The standard output of a program in /usr/bin (poppler's pdffonts, pdftotext …); the test is skipped
    /// where it is not installed.
    public func tool(_ name: String, _ args: [String]) throws -> String {
        let path = "/usr/bin/\(name)"
        guard FileManager.default.isExecutableFile(atPath: path) else { throw XCTSkip("\(name) not installed") }
        return try launch(URL(fileURLWithPath: path), args).stdout
    }

    /// The text of a PDF, by pdftotext (the test is skipped where it is not installed).
    public func pdfText(_ path: String) throws -> String {
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/pdftotext") else { throw XCTSkip("pdftotext not installed") }
        return try launch(URL(fileURLWithPath: "/usr/bin/pdftotext"), [path, "-"]).stdout
    }

    /// Runs a Python script with `args`; skips the test when one of `modules` is not installed.
    public func python(_ script: String, _ args: [String] = [], needs modules: [String] = []) throws -> Result {
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
    public func ok(_ args: String..., file: StaticString = #filePath, line: UInt = #line) throws -> String {
        let r = try run(args)
        XCTAssertEqual(r.status, 0, "petlog \(args.joined(separator: " ")): \(r.stderr)", file: file, line: line)
        return r.stdout
    }

    /// The records a command prints with `--json` (it must exit 0).
    public func records(_ args: [String], env: [String: String] = [:]) throws -> [[String: Any]] {
        let r = try run(args + ["--json"], env: env)
        XCTAssertEqual(r.status, 0, r.stderr)
        return try XCTUnwrap(JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [[String: Any]], r.stdout)
    }

    /// A JSON record's detail object: the one under its kind's key.
    public func detail(_ record: [String: Any]) -> [String: Any] {
        (record[record["kind"] as? String ?? ""] as? [String: Any]) ?? [:]
    }

    public func json(_ args: String..., file: StaticString = #filePath, line: UInt = #line) throws -> Any {
        let r = try run(args + ["--json"])
        XCTAssertEqual(r.status, 0, r.stderr, file: file, line: line)
        return try JSONSerialization.jsonObject(with: Data(r.stdout.utf8))
    }

    /// A command's `--json` output read into `type` (it must exit 0); a key missing or of another type
    /// fails with its path.
    public func decoded<T: Decodable>(_ type: T.Type, _ args: [String], env: [String: String] = [:],
                                      file: StaticString = #filePath, line: UInt = #line) throws -> T {
        let r = try run(args + ["--json"], env: env)
        XCTAssertEqual(r.status, 0, "petlog \(args.joined(separator: " ")): \(r.stderr)", file: file, line: line)
        return try JSONOutput.decode(type, r.stdout)
    }

    /// The records a command prints with `--json`, typed.
    public func recordsOut(_ args: String..., env: [String: String] = [:], file: StaticString = #filePath, line: UInt = #line) throws -> [RecordOut] {
        try decoded([RecordOut].self, args, env: env, file: file, line: line)
    }

    /// The bytes of a database file with its WAL and rollback journal; what stands at a path that is
    /// not a regular file (a folder, a FIFO) is named, never read.
    public func fileHash(_ path: String) throws -> Data {
        // On a server: every table's rows (one psql run, where two petlog runs read the export and the undo
        // history before); a database elsewhere, as its export and its undo history say it.
        if PostgresURL.isURL(path) {
            if TestServer.installed, let server = try? TestServer.shared(), let name = server.databaseName(path) {
                return Data(try server.contentDigest(name).utf8)
            }
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
    /// another file than the test's own. `unchangedFrom` is the database's `fileHash` taken before, for a
    /// run of refusals that must all leave it as it was (on a server each hash is two petlog runs).
    @discardableResult
    public func expectRefused(_ args: [String], code: Int32, mentions: String, db: String? = nil, env: [String: String] = [:],
                       unchangedFrom known: Data? = nil, file: StaticString = #filePath, line: UInt = #line) throws -> Result {
        let path = db ?? dbPath
        let before = try known ?? fileHash(path)
        let r = try run(db.map { ["--db", $0] + args } ?? args, env: env, useDefaultDB: db != nil)
        checkRefusal(r, code: code, mentions: mentions, "\(args)", file: file, line: line)
        XCTAssertEqual(try fileHash(path), before, "database changed by \(args)", file: file, line: line)
        return r
    }

    /// A JSON export's text without its household namespace: the same data in another database (made from
    /// CSV tables, which do not carry the namespace) has its own.
    public func withoutNamespace(_ path: String) throws -> String {
        try String(contentsOfFile: path, encoding: .utf8)
            .replacingOccurrences(of: #""namespace": "[0-9a-f]{32}", "#, with: "", options: .regularExpression)
    }

    public func checkRefusal(_ r: Result, code: Int32, mentions: String, _ what: String, file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertFalse(r.crashed, "\(what) crashed (signal \(r.status)): \(r.stderr.prefix(600))", file: file, line: line)
        XCTAssertEqual(r.status, code, "\(what): \(r.stderr.prefix(600))", file: file, line: line)
        XCTAssertEqual(r.stdout, "", "\(what) printed on stdout", file: file, line: line)
        XCTAssertEqual(r.stderr.split(separator: "\n", omittingEmptySubsequences: false).count, 2, "\(what): one line: \(r.stderr.prefix(600))", file: file, line: line)
        XCTAssertTrue(r.stderr.hasSuffix("\n") && r.stderr.hasPrefix("petlog: "), "\(what): \(r.stderr.prefix(600))", file: file, line: line)
        XCTAssertTrue(r.stderr.contains(mentions), "\(what): \(r.stderr) should mention \(mentions)", file: file, line: line)
    }
}

public enum PostgresURL {
    public static func isURL(_ s: String) -> Bool { s.hasPrefix("postgres://") || s.hasPrefix("postgresql://") }
}
