import Foundation
import XCTest
import PetlogTestSupport

/// A shelter's busy half minute on one PostgreSQL database: 8 staff logging weights as fast as petlog
/// runs, one more reading the timeline, and the server restarted once in the middle. Every weight petlog
/// acknowledged (exit 0) is stored exactly once; a command caught by the restart says so (exit 69 or 75)
/// and its writer goes on. Prints p50/p99 of `weight` and writes them to .build/server-load.txt.
/// In `make soak` (30 s); `PETLOG_LOAD_SECONDS` shortens it. Over loopback TCP (127.0.0.1).
final class ServerLoadTests: CLITestCase {
    override class var onOneStoreOnly: String? { "runs the load against the server itself (make test skips it; run it alone)" }
    func testEightWritersAndAReaderThroughAServerRestart() throws {
        let seconds = Double(ProcessInfo.processInfo.environment["PETLOG_LOAD_SECONDS"] ?? "") ?? 30
        // Two client hosts and a server host where the machine allows it (root, `ip netns`), else loopback.
        let hosts = try LoadHosts.make(home: home)
        defer { hosts.tearDown() }
        let psql = ["/usr/lib/postgresql/15/bin/psql", "-X", "-q", "-A", "-t", "-h", hosts.folder, "-p", hosts.port, "-U", "postgres"]
        _ = try TestServer.shell(psql + ["-d", "postgres", "-c", "CREATE DATABASE load"])
        _ = try TestServer.shell(psql + ["-d", "load", "-c", "DROP ROLE IF EXISTS staff; CREATE ROLE staff LOGIN PASSWORD 'load-test' SUPERUSER"])
        let env = ["PGPASSWORD": "load-test"]
        for w in 0..<8 {
            let r = try launch(URL(fileURLWithPath: hosts.prefix(w).first ?? Self.binary.path),
                               Array(hosts.prefix(w).dropFirst()) + (hosts.prefix(w).isEmpty ? [] : [Self.binary.path])
                               + ["--db", hosts.url(w), "pet", "add", "Pet\(w)", "--species", "dog"], env: env)
            XCTAssertEqual(r.status, 0, r.stderr)
        }
        // Real time for the records (no pinned clock), so 8 writers never stamp two records alike.
        let binary = Self.binary.path, homePath = home.path
        let baseEnv = ["HOME": homePath, "PATH": "/usr/bin:/bin", "LANG": "C.UTF-8", "TZ": "UTC"].merging(env) { a, _ in a }
        let prefixes = (0..<8).map { hosts.prefix($0) }, urls = (0..<8).map { hosts.url($0) }
        @Sendable func petlog(_ w: Int, _ args: [String]) -> (status: Int32, ms: Double) {
            let p = Process()
            let command = prefixes[w] + [binary, "--db", urls[w]] + args
            p.executableURL = URL(fileURLWithPath: command[0])
            p.arguments = Array(command.dropFirst())
            p.environment = baseEnv
            p.standardOutput = FileHandle.nullDevice
            p.standardError = FileHandle.nullDevice
            let start = Date()
            guard (try? p.run()) != nil else { return (-1, 0) }
            p.waitUntilExit()
            return (p.terminationStatus, Date().timeIntervalSince(start) * 1000)
        }
        let results = LoadResults()
        let deadline = Date().addingTimeInterval(seconds)
        let group = DispatchGroup()
        for w in 0..<8 {
            DispatchQueue.global().async(group: group) {
                var n = 0
                while Date() < deadline {
                    n += 1
                    let note = "w\(w)-\(n)"
                    let r = petlog(w, ["weight", "Pet\(w)", "\(3000 + n % 500)g", "--note", note])
                    results.add(writer: note, status: r.status, ms: r.ms)
                    if r.status != 0 { usleep(200_000) }
                }
            }
        }
        DispatchQueue.global().async(group: group) {
            while Date() < deadline {
                let r = petlog(7, ["log", "--limit", "20"])
                results.addRead(status: r.status)
                usleep(100_000)
            }
        }
        // The restart, half-way.
        Thread.sleep(forTimeInterval: seconds / 2)
        XCTAssertEqual(try hosts.server("restart").status, 0, "server restart")
        group.wait()

        // Every acknowledged weight is stored once; none is stored twice.
        let stored = try TestServer.shell(psql + ["-d", "load", "-c", "SELECT note FROM petlog.record WHERE kind = 'weight'"])
        var counts: [String: Int] = [:]
        for line in stored.stdout.split(separator: "\n") { counts[String(line), default: 0] += 1 }
        let acknowledged = results.acknowledged
        let lost = acknowledged.filter { counts[$0] == nil }
        let duplicated = counts.filter { $0.value > 1 }.map(\.key)
        XCTAssertGreaterThan(acknowledged.count, 100, "the writers wrote")
        XCTAssertEqual(lost, [], "acknowledged and lost")
        XCTAssertEqual(duplicated, [], "stored twice")
        XCTAssertEqual(results.unexpectedFailures, [], "a failure other than the restart's 69/75")
        XCTAssertGreaterThan(results.reads, Int(seconds / 4), "the reader read all along")
        let ms = results.latencies.sorted()
        guard !ms.isEmpty else { return }
        let p50 = ms[ms.count / 2], p99 = ms[min(ms.count - 1, ms.count * 99 / 100)]
        let summary = String(format: "server load (%@): %d weights acknowledged in %.0f s by 8 writers (%d refused during the restart), %d lost, %d duplicated; weight p50 %.0f ms, p99 %.0f ms; %d reads",
                             hosts.kind, acknowledged.count, seconds, results.refused, lost.count, duplicated.count, p50, p99, results.reads)
        print(summary)
        try? (summary + "\n").write(toFile: URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent(".build/server-load.txt").path, atomically: true, encoding: .utf8)
    }
}

/// Where the load test's server and writers run: a server namespace and two client namespaces joined by
/// veth pairs (10.77.1.0/24 and 10.77.2.0/24), writers 0–3 in one and 4–7 in the other; or, where
/// namespaces cannot be made (not root, no `ip`), a server of its own over loopback.
final class LoadHosts {
    let folder: String
    let port: String
    let kind: String
    private let namespaces: [String]
    private let serverEnv: [String]

    private init(folder: String, port: String, kind: String, namespaces: [String], serverEnv: [String]) {
        self.folder = folder; self.port = port; self.kind = kind; self.namespaces = namespaces; self.serverEnv = serverEnv
    }

    static func make(home: URL) throws -> LoadHosts {
        let folder = home.appendingPathComponent("pg").path
        let tag = String(getpid() % 100_000)
        let srv = "plsrv\(tag)", a = "pla\(tag)", b = "plb\(tag)"
        let ip = "/usr/sbin/ip"
        let steps: [[String]] = [
            [ip, "netns", "add", srv], [ip, "netns", "add", a], [ip, "netns", "add", b],
            [ip, "link", "add", "va\(tag)", "type", "veth", "peer", "name", "vas\(tag)"],
            [ip, "link", "add", "vb\(tag)", "type", "veth", "peer", "name", "vbs\(tag)"],
            [ip, "link", "set", "va\(tag)", "netns", a], [ip, "link", "set", "vas\(tag)", "netns", srv],
            [ip, "link", "set", "vb\(tag)", "netns", b], [ip, "link", "set", "vbs\(tag)", "netns", srv],
            [ip, "-n", srv, "addr", "add", "10.77.1.1/24", "dev", "vas\(tag)"], [ip, "-n", a, "addr", "add", "10.77.1.2/24", "dev", "va\(tag)"],
            [ip, "-n", srv, "addr", "add", "10.77.2.1/24", "dev", "vbs\(tag)"], [ip, "-n", b, "addr", "add", "10.77.2.2/24", "dev", "vb\(tag)"],
            [ip, "-n", srv, "link", "set", "lo", "up"], [ip, "-n", a, "link", "set", "lo", "up"], [ip, "-n", b, "link", "set", "lo", "up"],
            [ip, "-n", srv, "link", "set", "vas\(tag)", "up"], [ip, "-n", srv, "link", "set", "vbs\(tag)", "up"],
            [ip, "-n", a, "link", "set", "va\(tag)", "up"], [ip, "-n", b, "link", "set", "vb\(tag)", "up"],
        ]
        var made = getuid() == 0 && FileManager.default.isExecutableFile(atPath: ip)
        if made {
            for step in steps where try TestServer.shell(step).status != 0 { made = false; break }
            if !made { for ns in [srv, a, b] { _ = try? TestServer.shell([ip, "netns", "del", ns]) } }
        }
        let env = made ? ["PETLOG_PG_NETNS=\(srv)", "PETLOG_PG_LISTEN=10.77.1.1,10.77.2.1", "PETLOG_PG_CLIENTS=10.77.0.0/16"] : []
        let started = try TestServer.shell(["env"] + env + ["bash", TestServer.script, "start", folder])
        guard started.status == 0, let port = started.stdout.split(separator: " ").first(where: { $0.hasPrefix("PETLOG_PG_PORT=") })?.dropFirst(15) else {
            if made { for ns in [srv, a, b] { _ = try? TestServer.shell([ip, "netns", "del", ns]) } }
            throw XCTSkip("no PostgreSQL 15 for the load test: \(started.stdout)")
        }
        return LoadHosts(folder: folder, port: port.trimmingCharacters(in: .whitespacesAndNewlines),
                         kind: made ? "two client network namespaces and a server namespace, over veth" : "loopback",
                         namespaces: made ? [srv, a, b] : [], serverEnv: env)
    }

    /// `ip netns exec NS` for writer `w` (nothing over loopback).
    func prefix(_ w: Int) -> [String] {
        namespaces.isEmpty ? [] : ["/usr/sbin/ip", "netns", "exec", namespaces[w < 4 ? 1 : 2]]
    }

    func url(_ w: Int) -> String {
        let host = namespaces.isEmpty ? "127.0.0.1" : (w < 4 ? "10.77.1.1" : "10.77.2.1")
        return "postgres://staff@\(host):\(port)/load?sslmode=disable"
    }

    @discardableResult
    func server(_ command: String) throws -> (status: Int32, stdout: String, stderr: String) {
        try TestServer.shell(["env"] + serverEnv + ["bash", TestServer.script, command, folder])
    }

    func tearDown() {
        _ = try? server("stop")
        for ns in namespaces { _ = try? TestServer.shell(["/usr/sbin/ip", "netns", "del", ns]) }
    }
}

/// What the writers and the reader saw.
final class LoadResults: @unchecked Sendable {
    private let lock = NSLock()
    private(set) var acknowledged: [String] = []
    private(set) var latencies: [Double] = []
    private(set) var refused = 0
    private(set) var unexpectedFailures: [String] = []
    private(set) var reads = 0

    func add(writer note: String, status: Int32, ms: Double) {
        lock.lock(); defer { lock.unlock() }
        if status == 0 {
            acknowledged.append(note)
            latencies.append(ms)
        } else if status == 69 || status == 75 {
            refused += 1
        } else {
            unexpectedFailures.append("\(note): exit \(status)")
        }
    }

    func addRead(status: Int32) {
        lock.lock(); defer { lock.unlock() }
        if status == 0 { reads += 1 } else if status != 69 && status != 75 { unexpectedFailures.append("log: exit \(status)") }
    }
}
