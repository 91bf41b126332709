import Foundation
import XCTest
#if canImport(Glibc)
import Glibc
#endif

/// Eight petlog processes writing at once lose nothing and never show the user a busy error.
///
/// Eight chains of `petlog` invocations, each writing its own pet's weights and meals one after
/// another for a bounded time, start together on a file that does not exist yet (so they also race to
/// create and migrate it), while a ninth chain runs `backup`, `check` and `log`. Every invocation
/// must exit 0 with an empty stderr (no "database is locked", no busy exit 75), every write must print
/// its `#id`, and the file must then hold exactly the acknowledged records, each with its values.
/// `PETLOG_CONCURRENCY_SECONDS` changes how long the writers run (default 6).
final class ConcurrencyTests: CLITestCase {
    /// One invocation: what it was meant to write, if anything.
    struct Expected {
        var pet: String
        var at: String
        var weightGrams: Int?
        var food: String?
    }

    func testEightWritersAtOnceLoseNothingAndNeverReportBusy() throws {
        let writers = 8
        let seconds = ProcessInfo.processInfo.environment["PETLOG_CONCURRENCY_SECONDS"].flatMap { Double($0) } ?? 6
        XCTAssertFalse(FileManager.default.fileExists(atPath: dbPath))
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
        var backups: [String] = []
        func readStep(_ i: Int) -> [String] {
            switch i % 3 {
            case 0:
                backups.append(home.appendingPathComponent("backup-\(i).sqlite").path)
                return ["backup", "-o", backups.last!]
            case 1: return ["check"]
            default: return ["log", "--limit", "20"]
            }
        }

        var running: [PetlogChild?] = try (0..<writers).map { try start(step($0, 0).0) }
        var expected: [Int: Expected] = [:]   // by child number, for writes
        var childNumber: [Int] = Array(1...writers)
        var steps = Array(repeating: 0, count: writers)
        var reader: PetlogChild? = nil
        var readerSteps = 0
        var acknowledged: [Int64: Expected] = [:]
        var latencies: [Double] = []
        var invocations = 0
        let startedAt = PetlogChild.nanoseconds()
        let deadline = startedAt + UInt64(seconds * 1e9)

        func finish(_ c: PetlogChild, _ e: Expected?) {
            invocations += 1
            latencies.append(c.elapsedMilliseconds)
            XCTAssertEqual(c.exitCode, 0, "\(c.commandLine): exit \(String(describing: c.exitCode)), \(c.stderr)")
            XCTAssertEqual(c.stderr, "", "\(c.commandLine) wrote to stderr")
            guard let e else { return }
            let ids = c.printedRecordIds
            XCTAssertEqual(ids.count, 1, "\(c.commandLine): \(c.stdout)")
            if let id = ids.first {
                XCTAssertNil(acknowledged[id], "#\(id) acknowledged twice: \(c.commandLine)")
                acknowledged[id] = e
            }
        }

        while running.contains(where: { $0 != nil }) || reader != nil {
            let now = PetlogChild.nanoseconds()
            for k in 0..<writers {
                guard let c = running[k], c.poll() else { continue }
                finish(c, expected[childNumber[k]])
                running[k] = nil
                steps[k] += 1
                // A broken build fails every invocation: a few are enough to say so.
                if now < deadline && steps[k] < 1440 && (testRun?.totalFailureCount ?? 0) < 10 {
                    let (args, e) = step(k, steps[k])
                    running[k] = try start(args)
                    childNumber[k] = spawned
                    expected[spawned] = e
                }
            }
            if let r = reader, r.poll() {
                finish(r, nil)
                reader = nil
            }
            // The reader starts once the file exists, and stops with the writers.
            if reader == nil && now < deadline && steps.allSatisfy({ $0 > 0 }) {
                reader = try start(readStep(readerSteps))
                readerSteps += 1
            }
            usleep(1000)
        }
        let elapsed = Double(PetlogChild.nanoseconds() - startedAt) / 1e9

        // Exactly the acknowledged records, each where and what it was written.
        let records = try XCTUnwrap(try json("log") as? [[String: Any]])
        XCTAssertEqual(records.count, acknowledged.count, "records in the file vs acknowledged writes")
        var seen = Set<Int64>()
        for r in records {
            let id = try XCTUnwrap((r["id"] as? NSNumber)?.int64Value)
            seen.insert(id)
            guard let e = acknowledged[id] else { XCTFail("#\(id) in the file was never acknowledged: \(r)"); continue }
            XCTAssertEqual(r["pet"] as? String, e.pet, "#\(id)")
            XCTAssertEqual(r["at"] as? String, e.at, "#\(id)")
            if let g = e.weightGrams {
                XCTAssertEqual(((r["weight"] as? [String: Any])?["grams"] as? NSNumber)?.intValue, g, "#\(id)")
            } else {
                XCTAssertEqual((r["meal"] as? [String: Any])?["food"] as? String, e.food, "#\(id)")
            }
        }
        XCTAssertEqual(Set(acknowledged.keys).subtracting(seen), [], "acknowledged but lost")
        let pets = try XCTUnwrap(try json("pet", "list") as? [[String: Any]])
        XCTAssertEqual(Set(pets.compactMap { $0["name"] as? String }), Set((0..<writers).map { "W\($0)" }))
        XCTAssertEqual(try run(["check"]).status, 0)
        for b in backups {
            let r = try run(["--db", b, "check"], useDefaultDB: true)
            XCTAssertEqual(r.status, 0, "backup \(b): \(r.stdout)\(r.stderr)")
        }
        XCTAssertGreaterThan(acknowledged.count, writers * 3, "the writers hardly wrote")

        let sorted = latencies.sorted()
        print(String(format: "ConcurrencyTests: %ld invocations (%ld acknowledged writes, %ld reads/backups) in %.1f s, %.1f writes/s; "
                     + "latency median %.0f ms, p95 %.0f ms, max %.0f ms",
                     invocations, acknowledged.count, readerSteps, elapsed, Double(acknowledged.count) / elapsed,
                     sorted[sorted.count / 2], sorted[sorted.count * 95 / 100], sorted.last ?? 0))
    }
}
