import Foundation
import XCTest

/// A shelter's busy half minute on one PostgreSQL database: 8 staff logging weights as fast as petlog
/// runs, one more reading the timeline, and the server restarted once in the middle. Every weight petlog
/// acknowledged (exit 0) is stored exactly once; a command caught by the restart says so (exit 69 or 75)
/// and its writer goes on. Prints p50/p99 of `weight` and writes them to .build/server-load.txt.
/// In `make soak` (30 s); `PETLOG_LOAD_SECONDS` shortens it. Over loopback TCP (127.0.0.1).
final class ServerLoadTests: CLITestCase {
    func testEightWritersAndAReaderThroughAServerRestart() throws {
        let server = try TestServer.shared()
        let name = try server.createDatabase()
        let seconds = Double(ProcessInfo.processInfo.environment["PETLOG_LOAD_SECONDS"] ?? "") ?? 30
        _ = try TestServer.shell(["/usr/lib/postgresql/15/bin/psql", "-X", "-q", "-h", server.folder, "-p", server.port, "-U", "postgres", "-d", name,
                                  "-c", "DROP ROLE IF EXISTS staff; CREATE ROLE staff LOGIN PASSWORD 'load-test' SUPERUSER"])
        let url = "postgres://staff@127.0.0.1:\(server.port)/\(name)?sslmode=disable"
        let env = ["PGPASSWORD": "load-test"]
        for w in 0..<8 {
            let r = try run(["--db", url, "pet", "add", "Pet\(w)", "--species", "dog"], env: env, useDefaultDB: true)
            XCTAssertEqual(r.status, 0, r.stderr)
        }
        // Real time for the records (no pinned clock), so 8 writers never stamp two records alike.
        let binary = Self.binary, homePath = home.path
        let baseEnv = ["HOME": homePath, "PATH": "/usr/bin:/bin", "LANG": "C.UTF-8", "TZ": "UTC"].merging(env) { a, _ in a }
        @Sendable func petlog(_ args: [String]) -> (status: Int32, ms: Double) {
            let p = Process()
            p.executableURL = binary
            p.arguments = ["--db", url] + args
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
                    let r = petlog(["weight", "Pet\(w)", "\(3000 + n % 500)g", "--note", note])
                    results.add(writer: note, status: r.status, ms: r.ms)
                    if r.status != 0 { usleep(200_000) }
                }
            }
        }
        DispatchQueue.global().async(group: group) {
            while Date() < deadline {
                let r = petlog(["log", "--limit", "20"])
                results.addRead(status: r.status)
                usleep(100_000)
            }
        }
        // The restart, half-way.
        Thread.sleep(forTimeInterval: seconds / 2)
        let restart = try TestServer.shell(["bash", TestServer.script, "restart", server.folder], capture: false)
        XCTAssertEqual(restart.status, 0, "server restart")
        group.wait()

        // Every acknowledged weight is stored once; none is stored twice.
        let stored = try TestServer.shell(["/usr/lib/postgresql/15/bin/psql", "-X", "-q", "-A", "-t", "-h", server.folder, "-p", server.port,
                                           "-U", "postgres", "-d", name, "-c", "SELECT note FROM petlog.record WHERE kind = 'weight'"])
        var counts: [String: Int] = [:]
        for line in stored.stdout.split(separator: "\n") { counts[String(line), default: 0] += 1 }
        let acknowledged = results.acknowledged
        let lost = acknowledged.filter { counts[$0] == nil }
        let duplicated = counts.filter { $0.value > 1 }.map(\.key)
        XCTAssertGreaterThan(acknowledged.count, 100, "the writers wrote")
        XCTAssertEqual(lost, [], "acknowledged and lost")
        XCTAssertEqual(duplicated, [], "stored twice")
        XCTAssertEqual(results.unexpectedFailures, [], "a failure other than the restart's 69/75")
        XCTAssertGreaterThan(results.reads, 10)
        let ms = results.latencies.sorted()
        guard !ms.isEmpty else { return }
        let p50 = ms[ms.count / 2], p99 = ms[min(ms.count - 1, ms.count * 99 / 100)]
        let summary = String(format: "server load: %d weights acknowledged in %.0f s by 8 writers (%d refused during the restart), 0 lost, 0 duplicated; weight p50 %.0f ms, p99 %.0f ms; %d reads",
                             acknowledged.count, seconds, results.refused, p50, p99, results.reads)
        print(summary)
        try? (summary + "\n").write(toFile: URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent(".build/server-load.txt").path, atomically: true, encoding: .utf8)
        try server.dropDatabase(name)
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
