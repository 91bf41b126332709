#if os(Linux)
import Foundation
import XCTest
import PetlogTestSupport
import Glibc
@testable import PetFiles
@testable import PetStoreCore
@testable import PetStoreSQLite

/// Eight petlog processes writing at once lose nothing and never show the user a busy error, even
/// when some of them are killed mid-write.
///
/// Eight chains of `petlog` invocations, each writing its own pet's weights and meals one after
/// another for a bounded time, start together on a file that does not exist yet (so they also race to
/// create and migrate it), while a ninth chain runs `backup`, `check` and `log`. Every invocation
/// must exit 0 with an empty stderr (no "database is locked", no busy exit 75), every write must print
/// its `#id`, and the file must then hold exactly the acknowledged records, each with its values.
/// The second test also SIGKILLs a random writer every 50–250 ms (seeded): the others must not notice.
/// `PETLOG_CONCURRENCY_SECONDS` changes how long the writers run (default 6 and 5).
final class ConcurrencyTests: CLITestCase {
    override class var onOneStoreOnly: String? { "SQLite's locking between processes (the server's is ServerLoadTests')" }
    static let writers = 8

    /// What one write was meant to put in the file.
    struct Expected {
        var pet: String
        var at: String
        var weightGrams: Int?
        var food: String?
    }

    struct Outcome {
        var acknowledged: [Int64: Expected] = [:]
        /// Writes killed before they printed an id: each may or may not be in the file.
        var killedWrites: [Expected] = []
        var backups: [String] = []
        var invocations = 0, reads = 0, killedHoldingTheWriteLock = 0
        /// Reads refused because no writer had created the file yet (reads never create it).
        var readsBeforeTheFile = 0
        /// `pet add`s that said they created the file: exactly one may.
        var creationNotices = 0
        var latencies: [Double] = []
        var seconds = 0.0

        var summary: String {
            let sorted = latencies.sorted()
            return String(format: "%ld invocations (%ld acknowledged writes, %ld killed, %ld reads/backups) in %.1f s, %.1f writes/s; "
                          + "latency median %.0f ms, p95 %.0f ms, max %.0f ms; %ld kills hit the holder of the WAL write lock",
                          invocations, acknowledged.count, killedWrites.count, reads, seconds, Double(acknowledged.count) / seconds,
                          sorted[sorted.count / 2], sorted[sorted.count * 95 / 100], sorted.last ?? 0, killedHoldingTheWriteLock)
        }
    }

    var seconds: Double? { ProcessInfo.processInfo.environment["PETLOG_CONCURRENCY_SECONDS"].flatMap { Double($0) } }

    func testEightWritersAtOnceLoseNothingAndNeverReportBusy() throws {
        var none: SplitMix64? = nil
        let o = try runChains(seconds: seconds ?? 6, killer: &none)
        try verify(o)
        XCTAssertGreaterThan(o.acknowledged.count, Self.writers * 3, "the writers hardly wrote")
        print("ConcurrencyTests: " + o.summary)
    }

    func testWritersKilledMidWriteDisturbNoOtherWriter() throws {
        let seed = ProcessInfo.processInfo.environment["PETLOG_CRASH_SEED"].flatMap { UInt64($0) } ?? UInt64.random(in: 1...UInt64(UInt32.max))
        print("ConcurrencyTests: seed \(seed) (replay with PETLOG_CRASH_SEED=\(seed))")
        var killer: SplitMix64? = SplitMix64(seed: seed)
        let o = try runChains(seconds: seconds ?? 5, killer: &killer)
        let committed = try verify(o)
        XCTAssertGreaterThan(o.killedWrites.count, 5, "seed \(seed): hardly any write was killed")
        print("ConcurrencyTests: seed \(seed): " + o.summary + "; \(committed) killed writes had committed")
    }

    /// Runs the eight writer chains and the reader chain until `seconds` have passed; with a `killer`,
    /// SIGKILLs the running invocation of a random writer (never its `pet add`) every 50–250 ms.
    func runChains(seconds: Double, killer: inout SplitMix64?) throws -> Outcome {
        XCTAssertFalse(FileManager.default.fileExists(atPath: dbPath))
        var o = Outcome()
        var spawned = 0
        func start(_ args: [String]) throws -> PetlogChild {
            spawned += 1
            return try PetlogChild(binary: Self.binary.path, arguments: ["--db", dbPath] + args, home: home.path,
                                   outputPrefix: home.appendingPathComponent("child-\(spawned)").path)
        }
        // Writer k, step i: first its pet, then weights and every third step a meal, one minute apart on day k+1.
        func step(_ k: Int, _ i: Int) -> ([String], Expected?) {
            let pet = "W\(k)"
            if i == 0 { return (["pet", "add", pet, "--species", "dog"], nil) }
            let at = String(format: "2026-11-%02ld %02ld:%02ld", k + 1, i / 60, i % 60)
            let rfc = String(format: "2026-11-%02ldT%02ld:%02ld:00+09:00", k + 1, i / 60, i % 60)
            if i % 3 == 0 {
                let food = "kibble \(k)-\(i)"
                return (["meal", pet, food, "80g", "--at", at], Expected(pet: pet, at: rfc, food: food))
            }
            return (["weight", pet, "\(1000 + i)g", "--at", at], Expected(pet: pet, at: rfc, weightGrams: 1000 + i))
        }
        // The ninth chain only reads: online backups, checks and the timeline, while the writers write.
        func readStep(_ i: Int) -> [String] {
            switch i % 3 {
            case 0:
                o.backups.append(home.appendingPathComponent("backup-\(i).sqlite").path)
                return ["backup", "-o", o.backups.last!]
            case 1: return ["check"]
            default: return ["log", "--limit", "20"]
            }
        }
        func finish(_ c: PetlogChild, _ e: Expected?) {
            o.invocations += 1
            if c.wasKilled {
                // A printed id was committed; otherwise the write may or may not be there.
                if let id = c.printedRecordIds.first, let e { o.acknowledged[id] = e } else if let e { o.killedWrites.append(e) }
                return
            }
            o.latencies.append(c.elapsedMilliseconds)
            if !c.arguments.contains("add"), c.exitCode == 66, c.stderr.contains("there is no petlog database"), o.creationNotices == 0 {
                o.readsBeforeTheFile += 1
                return
            }
            XCTAssertEqual(c.exitCode, 0, "\(c.commandLine): exit \(String(describing: c.exitCode)), \(c.stderr)")
            if c.stderr == "petlog: created a new petlog database at \(dbPath)\n" && c.arguments.contains("add") {
                o.creationNotices += 1
            } else {
                XCTAssertEqual(c.stderr, "", "\(c.commandLine) wrote to stderr")
            }
            guard let e else { return }
            let ids = c.printedRecordIds
            XCTAssertEqual(ids.count, 1, "\(c.commandLine): \(c.stdout)")
            if let id = ids.first {
                XCTAssertNil(o.acknowledged[id], "#\(id) acknowledged twice: \(c.commandLine)")
                o.acknowledged[id] = e
            }
        }

        var running: [PetlogChild] = try (0..<Self.writers).map { try start(step($0, 0).0) }
        var expected: [Expected?] = Array(repeating: nil, count: Self.writers)
        var steps = Array(repeating: 0, count: Self.writers)
        var done = Array(repeating: false, count: Self.writers)
        var reader: PetlogChild? = nil
        let startedAt = PetlogChild.nanoseconds()
        let deadline = startedAt + UInt64(seconds * 1e9)
        var nextKill = startedAt + 100_000_000

        while done.contains(false) || reader != nil {
            let now = PetlogChild.nanoseconds()
            if killer != nil && now >= nextKill {
                // Every other kill goes to the writer holding SQLite's WAL write lock, if one does, so that
                // the others are waiting for a lock whose holder dies mid-transaction.
                let holder = killer!.next() % 2 == 0 ? Self.walWriteLockHolder(shm: dbPath + "-shm") : nil
                var k = Int(killer!.next() % UInt64(Self.writers))
                if let h = holder, let i = running.firstIndex(where: { $0.pid == h }) { k = i }
                if !done[k] && steps[k] > 0 {
                    running[k].killNow()
                    if running[k].wasKilled && running[k].pid == holder { o.killedHoldingTheWriteLock += 1 }
                }
                nextKill = now + (50 + killer!.next() % 200) * 1_000_000
            }
            for k in 0..<Self.writers where !done[k] && running[k].poll() {
                finish(running[k], expected[k])
                steps[k] += 1
                // A broken build fails every invocation: a few are enough to say so.
                if now < deadline && steps[k] < 1440 && (testRun?.totalFailureCount ?? 0) < 10 {
                    let (args, e) = step(k, steps[k])
                    running[k] = try start(args)
                    expected[k] = e
                } else {
                    done[k] = true
                }
            }
            if let r = reader, r.poll() {
                finish(r, nil)
                reader = nil
            }
            // The reader starts once the file exists, and stops with the writers.
            if reader == nil && now < deadline && steps.allSatisfy({ $0 > 0 }) {
                reader = try start(readStep(o.reads))
                o.reads += 1
            }
            usleep(1000)
        }
        o.seconds = Double(PetlogChild.nanoseconds() - startedAt) / 1e9
        return o
    }

    /// The pid holding a write lock on the WAL's write, checkpoint or recovery byte (120–122 of the
    /// `-shm` file, SQLite's unix VFS), from /proc/locks.
    static func walWriteLockHolder(shm: String) -> pid_t? {
        var st = stat()
        guard stat(shm, &st) == 0, let locks = try? String(contentsOfFile: "/proc/locks", encoding: .utf8) else { return nil }
        for line in locks.split(separator: "\n") {
            // "1: POSIX  ADVISORY  WRITE 14926 fe:00:16441549 120 120"; waiters have "->" after the number.
            let f = line.split(separator: " ")
            guard f.count >= 8, f[1] == "POSIX", f[3] == "WRITE", f[5].hasSuffix(":\(st.st_ino)"),
                  let start = Int(f[6]), (120...122).contains(start) else { continue }
            return pid_t(f[4])
        }
        return nil
    }

    /// The file holds every acknowledged record with its values, nothing that was not written, and
    /// passes `check`, like every backup taken meanwhile. Returns how many killed writes are in the file.
    @discardableResult
    func verify(_ o: Outcome) throws -> Int {
        XCTAssertEqual(o.creationNotices, 1, "one process made the file and said so")
        let records = try XCTUnwrap(try json("log") as? [[String: Any]])
        func key(_ pet: String?, _ at: String?) -> String { "\(pet ?? "?") \(at ?? "?")" }
        var killed = Dictionary(o.killedWrites.map { (key($0.pet, $0.at), $0) }) { a, _ in a }
        var seen = Set<Int64>()
        for r in records {
            let id = try XCTUnwrap((r["id"] as? NSNumber)?.int64Value)
            seen.insert(id)
            guard let e = o.acknowledged[id] ?? killed.removeValue(forKey: key(r["pet"] as? String, r["at"] as? String)) else {
                XCTFail("#\(id) in the file was never written (or twice): \(r)")
                continue
            }
            XCTAssertEqual(r["pet"] as? String, e.pet, "#\(id)")
            XCTAssertEqual(r["at"] as? String, e.at, "#\(id)")
            if let g = e.weightGrams {
                XCTAssertEqual(((r["weight"] as? [String: Any])?["grams"] as? NSNumber)?.intValue, g, "#\(id)")
            } else {
                XCTAssertEqual((r["meal"] as? [String: Any])?["food"] as? String, e.food, "#\(id)")
            }
        }
        XCTAssertEqual(Set(o.acknowledged.keys).subtracting(seen), [], "acknowledged but lost")
        XCTAssertLessThanOrEqual(records.count, o.acknowledged.count + o.killedWrites.count)
        if o.killedWrites.isEmpty { XCTAssertEqual(records.count, o.acknowledged.count, "records in the file vs acknowledged writes") }
        let pets = try XCTUnwrap(try json("pet", "list") as? [[String: Any]])
        XCTAssertEqual(Set(pets.compactMap { $0["name"] as? String }), Set((0..<Self.writers).map { "W\($0)" }))
        let check = try run(["check"])
        XCTAssertEqual(check.status, 0, check.stdout + check.stderr)
        for b in o.backups {
            let r = try run(["--db", b, "check"], useDefaultDB: true)
            XCTAssertEqual(r.status, 0, "backup \(b): \(r.stdout)\(r.stderr)")
        }
        return o.killedWrites.count - killed.count
    }
}
#endif
