import Foundation
import XCTest
import PetStoreCore
import PetStorePostgres

/// The throwaway PostgreSQL 15 of a test run (`scripts/pg-test-server.sh`), one database per test.
///
/// One server serves the whole run: `swift test --parallel` runs each test in a process of its own,
/// and starting a cluster (initdb, a TLS key, pg_ctl start) takes 3–7 s on a loaded 2-core machine, so
/// the first test process that needs it starts it in a folder named after the process that runs the
/// tests (`swift test`, the parent of every test process), under a file lock, and the others find it
/// there. A watcher started with it stops it and removes the folder when that process exits.
/// `PETLOG_TEST_PG_RUN=NAME` names the run instead (then the server stays until `pg-test-server.sh stop`).
public final class TestServer: @unchecked Sendable {
    /// The server's folder: its socket, its cluster, its logs.
    public let folder: String
    public let port: String
    /// The folder, as PetStoreTests named it.
    public var directory: String { folder }

    private static let lock = NSLock()
    nonisolated(unsafe) private static var started: TestServer?

    public static let bin = "/usr/lib/postgresql/15/bin/"
    public static var installed: Bool { FileManager.default.isExecutableFile(atPath: bin + "initdb") }

    /// A database's address over the socket, as the superuser.
    public static func url(_ database: String) -> String {
        guard let s = started else { return "" }
        return "postgres://postgres@/\(database)?host=\(s.folder)&port=\(s.port)"
    }

    /// The superuser over the socket (trusted).
    public var superuserURL: String { "postgres://postgres@/postgres?host=\(folder)&port=\(port)" }

    /// The run's server: found, or started by this process.
    public static func shared() throws -> TestServer {
        lock.lock(); defer { lock.unlock() }
        if let s = started { return s }
        guard installed else { throw XCTSkip("PostgreSQL 15 is not installed here (make setup installs postgresql-15)") }
        let env = ProcessInfo.processInfo.environment
        let run = env["PETLOG_TEST_PG_RUN"].flatMap { $0.isEmpty ? nil : $0 } ?? "p\(getppid())"
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("petlog-pg-run-\(run)").path
        // One process starts it; the others wait on the lock and find it.
        let fd = open(folder + ".lock", O_CREAT | O_RDWR, 0o600)
        guard fd >= 0 else { throw XCTSkip("cannot open \(folder).lock") }
        defer { close(fd) }
        while flock(fd, LOCK_EX) == -1 && errno == EINTR {}
        let portFile = folder + ".port"
        if let port = try? String(contentsOfFile: portFile, encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines),
           !port.isEmpty, isRunning(folder) {
            started = TestServer(folder: folder, port: port)
            return started!
        }
        _ = try? shell(["bash", "-c", "bash \"$0\" stop \"$1\" >/dev/null 2>&1; rm -rf \"$1\"", script, folder], capture: false)
        let port = try start(folder)
        try port.write(toFile: portFile, atomically: true, encoding: .utf8)
        if env["PETLOG_TEST_PG_RUN"].map({ $0.isEmpty }) ?? true {
            // Stopped and removed when the test run's process ends (`tail --pid` waits for it).
            _ = try shell(["bash", "-c", "setsid bash -c 'tail --pid=\"$0\" -f /dev/null; bash \"$1\" stop \"$2\"; rm -rf \"$2\" \"$2.lock\" \"$2.port\" \"$2.out\" \"$2.roles.lock\"' \"$0\" \"$1\" \"$2\" </dev/null >/dev/null 2>&1 &",
                           String(getppid()), script, folder], capture: false)
        }
        started = TestServer(folder: folder, port: port)
        return started!
    }

    /// A server of the test's own (started now, stopped when `body` returns): for a test that must see
    /// the whole cluster as it starts (roles belong to the cluster, not to one database).
    public static func own<T>(_ body: (TestServer) throws -> T) throws -> T {
        guard installed else { throw XCTSkip("PostgreSQL 15 is not installed here (make setup installs postgresql-15)") }
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("petlog-pg-own-\(UUID().uuidString.prefix(8))").path
        defer { _ = try? shell(["bash", "-c", "bash \"$0\" stop \"$1\" >/dev/null 2>&1; rm -rf \"$1\" \"$1.out\"", script, folder], capture: false) }
        return try body(TestServer(folder: folder, port: try start(folder)))
    }

    /// Starts a cluster in `folder`; its TCP port.
    static func start(_ folder: String) throws -> String {
        // Output through a file: the server the script starts would hold a pipe open for as long as it runs.
        let log = folder + ".out"
        let out = try shell(["bash", "-c", "bash \"$0\" start \"$1\" >\"$2\" 2>&1", script, folder, log], capture: false)
        let text = (try? String(contentsOfFile: log, encoding: .utf8)) ?? ""
        guard out.status == 0, let port = text.split(separator: " ").first(where: { $0.hasPrefix("PETLOG_PG_PORT=") })?.dropFirst(15) else {
            throw XCTSkip("no PostgreSQL 15 for the tests: \(text)")
        }
        return port.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// Whether the postmaster of the cluster in `folder` is alive.
    static func isRunning(_ folder: String) -> Bool {
        guard let text = try? String(contentsOfFile: folder + "/data/postmaster.pid", encoding: .utf8),
              let pid = text.split(separator: "\n").first.flatMap({ Int32($0) }) else { return false }
        return kill(pid, 0) == 0
    }

    private init(folder: String, port: String) { self.folder = folder; self.port = port }

    public static var script: String {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("scripts/pg-test-server.sh").path
    }

    public static var repoRoot: URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    }

    /// A new empty database with a name no other test process uses.
    public func createDatabase() throws -> String {
        let name = "t_" + UUID().uuidString.replacingOccurrences(of: "-", with: "").prefix(16).lowercased()
        let r = try Self.shell([Self.bin + "createdb", "-h", folder, "-p", port, "-U", "postgres", name])
        guard r.status == 0 else { throw TestServerError.failed("createdb: \(r.stderr)") }
        return name
    }

    /// A new database that already holds petlog's schema, with a namespace of its own: a copy of the run's
    /// migrated template (`CREATE DATABASE … TEMPLATE`, one `psql`), so a test's first petlog run does
    /// not migrate (0.3–0.6 s a test on this machine, and a refusal on an empty database migrated and
    /// rolled back every time). The migrations themselves run on empty databases in `PostgresSchemaTests`,
    /// `ServerStoreTests` and wherever a test asks for `createDatabase()`.
    public func createMigratedDatabase() throws -> String {
        try createDatabase(copying: try migratedTemplate())
    }

    /// A new database copied from `template` (a database of `template(_:from:make:)`), with a namespace of
    /// its own, as every new petlog database has.
    public func createDatabase(copying template: String) throws -> String {
        let name = "t_" + UUID().uuidString.replacingOccurrences(of: "-", with: "").prefix(16).lowercased()
        let r = try Self.shell([Self.bin + "psql", "-X", "-q", "-v", "ON_ERROR_STOP=1", "-h", folder, "-p", port, "-U", "postgres", "-d", "postgres",
                                "-c", "CREATE DATABASE \(name) TEMPLATE \(template)", "-c", "\\c \(name)",
                                "-c", "UPDATE petlog.household SET namespace = md5(random()::text || clock_timestamp()::text || pg_backend_pid()::text)"])
        guard r.status == 0 else { throw TestServerError.failed("createdb from \(template): \(r.stderr)") }
        return name
    }

    nonisolated(unsafe) private static var templates: Set<String> = []

    /// The run's template: an empty database migrated by this petlog's `PostgresSchema`. Named after the
    /// last migration, so a server kept between runs (`PETLOG_TEST_PG_RUN`) never hands out an old schema.
    func migratedTemplate() throws -> String {
        try template("petlog_template_" + (PostgresSchema.migrations.last?.id ?? "none"), from: nil) { database in
            let link = try PostgresLink(PostgresTarget.parse(Self.url(database, self), environment: [:]))
            defer { link.close() }
            try PostgresSchema.migrate(link)
        }
    }

    /// The template database `name`, made once per run (by the first test process that needs it, under a file
    /// lock): `make` fills a new database (empty, or a copy of the template `base`), which is then renamed
    /// (a process killed halfway leaves no template) and closed to connections, as `CREATE DATABASE …
    /// TEMPLATE` wants. For what many tests start from: the migrated schema, a demo household.
    public func template(_ name: String, from base: String?, make: (String) throws -> Void) throws -> String {
        Self.lock.lock()
        let known = Self.templates.contains(name)
        Self.lock.unlock()
        if known { return name }
        let fd = open(folder + "/template-\(name).lock", O_CREAT | O_RDWR, 0o600)
        guard fd >= 0 else { throw TestServerError.failed("cannot open \(folder)/template-\(name).lock") }
        defer { close(fd) }
        while flock(fd, LOCK_EX) == -1 && errno == EINTR {}
        let found = try psql("postgres", "SELECT count(*) FROM pg_database WHERE datname = '\(name)'")
        if found.stdout.trimmingCharacters(in: .whitespacesAndNewlines) != "1" {
            let making = try base.map { try createDatabase(copying: $0) } ?? createDatabase()
            do {
                try make(making)
            } catch {
                try? dropDatabase(making)
                throw TestServerError.failed("making the template \(name): \(error)")
            }
            let r = try psql("postgres", "ALTER DATABASE \(making) RENAME TO \(name)")
            guard r.status == 0 else { throw TestServerError.failed("the template \(name): \(r.stderr)") }
            _ = try psql("postgres", "ALTER DATABASE \(name) WITH IS_TEMPLATE true ALLOW_CONNECTIONS false")
        }
        Self.lock.lock()
        Self.templates.insert(name)
        Self.lock.unlock()
        return name
    }

    /// Everything a database on this server holds, table by table (each table's rows as text, sorted, in one
    /// md5), from one `psql` run: what `CLITestCase.fileHash` compares on a server. It reads every table of
    /// the `petlog` schema, derived ones (search index, weight chunks) and the undo history included.
    public func contentDigest(_ database: String) throws -> String {
        let r = try psql(database, """
            SELECT coalesce(string_agg(tablename || ' ' || (xpath('/row/h/text()', query_to_xml(format(
              'SELECT md5(coalesce(string_agg(t::text, chr(10) ORDER BY t::text), '''')) AS h FROM petlog.%I t', tablename),
              false, true, '')))[1]::text, chr(10) ORDER BY tablename), '')
            FROM pg_tables WHERE schemaname = 'petlog'
            """)
        guard r.status == 0 else { throw TestServerError.failed("digest of \(database): \(r.stderr)") }
        return r.stdout
    }

    /// The database of `url` when it is on this server (over its socket), else nil.
    public func databaseName(_ url: String) -> String? {
        guard let c = URLComponents(string: url), let items = c.queryItems,
              items.first(where: { $0.name == "host" })?.value == folder, items.first(where: { $0.name == "port" })?.value == port else { return nil }
        let name = String(c.path.dropFirst())
        return name.isEmpty ? nil : name
    }

    /// A new empty database; its URL over the socket as the superuser.
    public func newDatabase() throws -> String { Self.url(try createDatabase(), self) }

    static func url(_ database: String, _ s: TestServer) -> String {
        "postgres://postgres@/\(database)?host=\(s.folder)&port=\(s.port)"
    }

    public func dropDatabase(_ name: String) throws {
        _ = try Self.shell([Self.bin + "dropdb", "-h", folder, "-p", port, "-U", "postgres", "--force", name])
    }

    /// psql as the superuser on `database`; its output, unaligned.
    public func psql(_ database: String, _ sql: String) throws -> (status: Int32, stdout: String, stderr: String) {
        try Self.shell([Self.bin + "psql", "-X", "-q", "-A", "-t", "-v", "ON_ERROR_STOP=1", "-h", folder, "-p", port, "-U", "postgres", "-d", database, "-c", sql])
    }

    /// Waits until `query` (one value) reads `want` in `database`, inside the server: PostgreSQL tells no
    /// client when a session starts, waits for a lock or goes away, so one statement looks at its own
    /// statistics again every 50 ms (a fresh snapshot each time) and returns as soon as they say so.
    /// `guardSeconds` only keeps a broken test from hanging. True when `query` reads `want`.
    public func waitUntil(_ database: String, _ query: String, is want: String, guardSeconds: Int = 60) throws -> Bool {
        let literal = "'" + want.replacingOccurrences(of: "'", with: "''") + "'"
        _ = try psql(database, """
            DO $wait$ BEGIN
              FOR i IN 1..\(guardSeconds * 20) LOOP
                PERFORM pg_stat_clear_snapshot();
                EXIT WHEN (\(query))::text = \(literal);
                PERFORM pg_sleep(0.05);
              END LOOP;
            END $wait$
            """)
        return try psql(database, "SELECT (\(query))::text").stdout.trimmingCharacters(in: .whitespacesAndNewlines) == want
    }

    /// Holds the cluster's roles for the calling test until it ends: roles belong to the whole cluster,
    /// which the test processes of a run share, so tests that make roles (or `pg init-roles`) take turns.
    public func holdRoles(for test: XCTestCase) {
        let fd = open(folder + ".roles.lock", O_CREAT | O_RDWR, 0o600)
        guard fd >= 0 else { return }
        while flock(fd, LOCK_EX) == -1 && errno == EINTR {}
        test.addTeardownBlock { close(fd) }
    }

    /// Runs `args` with posix_spawn and waitpid, its output through a file: Foundation's `Process` could
    /// wait forever here (on a pipe a server started by the script holds open, or on its exit).
    @discardableResult
    public static func shell(_ args: [String], capture: Bool = true) throws -> (status: Int32, stdout: String, stderr: String) {
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

public enum TestServerError: Error, CustomStringConvertible {
    case failed(String)
    public var description: String { if case .failed(let s) = self { return s }; return "" }
}

/// The run's server, or the test is skipped where PostgreSQL 15 is not installed.
public func requireServer() throws -> TestServer { try TestServer.shared() }
