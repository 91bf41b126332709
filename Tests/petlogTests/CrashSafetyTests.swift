#if os(Linux)
import Foundation
import XCTest
import PetlogTestSupport
import Glibc
@testable import PetFiles
@testable import PetStoreCore
@testable import PetStoreSQLite

/// SIGKILL at any moment loses no acknowledged record and leaves a file that `petlog check` accepts.
///
/// Hundreds of trials on one database, each killing petlog at a seeded random moment of its life:
/// mostly during a row of `weight` writes (the one running when the moment comes is killed),
/// sometimes during `pet add`, `backup`, or `demo` (one big transaction into a fresh file). After
/// each kill, `check` must exit 0 and print nothing (the next open recovers the WAL), and every
/// record petlog acknowledged (exit 0 and its `#id` line) must read back with the values written.
/// `PETLOG_CRASH_SEED` replays a seed; `PETLOG_CRASH_TRIALS` changes the number of trials.
final class CrashSafetyTests: CLITestCase {
    override class var onOneStoreOnly: String? { "SIGKILL against SQLite's commit and WAL recovery (the server's is ServerLoadTests' restart)" }
    struct StoppedAtFailingTrial: Error { var seed: UInt64; var trial: Int }

    /// What the trials did, printed at the end so a run shows where its kills landed.
    struct Tally {
        var trials: [String: Int] = [:]
        var killed = 0, killedBeforeOpen = 0, endedBeforeKill = 0
        var acknowledged = 0, committedUnacknowledged = 0, printedThenKilled = 0
        var walLeftBehind = 0
        var backupsVerified = 0, killedBackupsLeftNothing = 0, demosCommitted = 0, demosRolledBack = 0, importsCommitted = 0, importsRolledBack = 0
    }

    /// A write's slot gives it a time (one minute per slot from 2026-11-01 00:00 KST) and a weight
    /// (2000 g + slot), so any record read back can be matched to the invocation that wrote it.
    static func at(_ slot: Int) -> String {
        String(format: "2026-11-%02ld %02ld:%02ld", 1 + slot / 1440, slot % 1440 / 60, slot % 60)
    }
    static func rfc3339(_ slot: Int) -> String {
        String(format: "2026-11-%02ldT%02ld:%02ld:00+09:00", 1 + slot / 1440, slot % 1440 / 60, slot % 60)
    }
    static func grams(_ slot: Int) -> Int { 2000 + slot }

    var seed: UInt64 = 0
    var rng = SplitMix64(seed: 0)
    var tally = Tally()
    var slot = 0
    /// Acknowledged (or printed) weight record id → its slot.
    var acknowledged: [Int64: Int] = [:]
    var spawned = 0
    /// The last writes that ran to the end (never one aimed at): ms from start to opening the file, and to exit.
    var recentWrites: [(open: Double, end: Double)] = []
    /// Medians of `recentWrites`: how long a write lives now, and how much of it after the open. They follow
    /// the machine's load, so the kill window keeps covering the part of a write that touches the file.
    var life: Double { recentWrites.map(\.end).sorted()[recentWrites.count / 2] }
    var fileLife: Double { recentWrites.map { $0.end - $0.open }.sorted()[recentWrites.count / 2] }

    /// When to kill: some time after the process started, or after it opened its database file.
    enum Moment {
        case afterStart(Double)
        case afterOpen(Double)
        var label: String {
            switch self {
            case .afterStart(let ms): return String(format: "%.1f ms after start", ms)
            case .afterOpen(let ms): return String(format: "%.1f ms after opening the file", ms)
            }
        }
    }

    func uniform() -> Double { Double(rng.next() >> 11) / Double(1 << 53) }

    /// Starts petlog; `watch` forgets earlier opens first, so the next one seen is this process's.
    func spawn(_ args: [String], watch: OpenWatch? = nil) throws -> PetlogChild {
        spawned += 1
        watch?.drain()
        let prefix = home.appendingPathComponent("child-\(spawned)").path
        return try PetlogChild(binary: Self.binary.path, arguments: args, home: home.path, outputPrefix: prefix)
    }

    /// Lets `child` run until `moment`, then SIGKILLs it; returns whether it was killed (it may end first),
    /// and when it opened the database (ms after start), if it did before the end.
    @discardableResult
    func drive(_ child: PetlogChild, killAt moment: Moment?, watch: OpenWatch, learn: Bool = false) -> (killed: Bool, openedAt: Double?) {
        var deadline: UInt64?
        if case .afterStart(let ms) = moment { deadline = child.started + UInt64(ms * 1e6) }
        var openedAt: Double?
        while !child.poll() {
            let now = PetlogChild.nanoseconds()
            if openedAt == nil && watch.sawOpen() {
                openedAt = Double(now - child.started) / 1e6
                if case .afterOpen(let ms) = moment { deadline = now + UInt64(ms * 1e6) }
            }
            if let d = deadline, now >= d {
                child.killNow()
                if child.wasKilled {
                    tally.killed += 1
                    tally.killedBeforeOpen += openedAt == nil ? 1 : 0
                } else {
                    tally.endedBeforeKill += 1
                }
                return (child.wasKilled, openedAt)
            }
            usleep(200)
        }
        // A child that ran to its end before this loop looked (a busy machine) opened the file no later than
        // its end: the open is in the watch's queue still.
        if openedAt == nil && watch.sawOpen() { openedAt = child.elapsedMilliseconds }
        if moment != nil { tally.endedBeforeKill += 1 }
        if learn, moment == nil, child.exitCode == 0, let o = openedAt {
            recentWrites.append((o, child.elapsedMilliseconds))
            if recentWrites.count > 15 { recentWrites.removeFirst() }
        }
        return (false, openedAt)
    }

    func context(_ trial: Int, _ what: String) -> String { "seed \(seed) trial \(trial) (\(what))" }

    /// `check` on `db` must exit 0 and print nothing.
    func expectCheckPasses(db: String, _ context: String) throws {
        let r = try run(["--db", db, "check"], useDefaultDB: true)
        XCTAssertEqual(r.status, 0, "\(context): check exit \(r.status): \(r.stdout) \(r.stderr)")
        XCTAssertEqual(r.stdout + r.stderr, "", "\(context): check reported problems")
    }

    /// After a kill, the file may never have been made (petlog makes it once its input is read, and
    /// reads never make one): then `check` says so (exit 66) and still makes nothing. Else as above.
    @discardableResult
    func expectCheckPassesOrNeverMade(db: String, killed: Bool, _ context: String) throws -> Bool {
        guard killed, !FileManager.default.fileExists(atPath: db) else { try expectCheckPasses(db: db, context); return true }
        let r = try run(["--db", db, "check"], useDefaultDB: true)
        XCTAssertEqual(r.status, 66, "\(context): check of a file never made: \(r.stderr)")
        XCTAssertFalse(FileManager.default.fileExists(atPath: db), "\(context): check made \(db)")
        return false
    }

    func readJSON(_ args: [String], db: String, _ context: String) throws -> Any {
        let r = try run(["--db", db] + args + ["--json"], useDefaultDB: true)
        XCTAssertEqual(r.status, 0, "\(context): \(args) failed: \(r.stderr)")
        return try JSONSerialization.jsonObject(with: Data(r.stdout.utf8))
    }

    func walSize(_ db: String) -> Int {
        ((try? FileManager.default.attributesOfItem(atPath: db + "-wal"))?[.size] as? NSNumber)?.intValue ?? 0
    }

    /// The weight records from `firstSlot` on, checked against the slots that wrote them.
    func weights(since firstSlot: Int, db: String, _ context: String) throws -> [Int64: Int] {
        let records = try XCTUnwrap(try readJSON(["log", "Coco", "--since", Self.at(firstSlot)], db: db, context) as? [[String: Any]])
        var found: [Int64: Int] = [:]
        for r in records {
            let id = try XCTUnwrap((r["id"] as? NSNumber)?.int64Value, "\(context): \(r)")
            let grams = try XCTUnwrap(((r["weight"] as? [String: Any])?["grams"] as? NSNumber)?.intValue, "\(context): \(r)")
            let s = grams - 2000
            XCTAssertEqual(r["at"] as? String, Self.rfc3339(s), "\(context): record #\(id) has the time of another write")
            XCTAssertNil(found[id], "\(context): #\(id) twice")
            found[id] = s
        }
        return found
    }

    func testSIGKILLAtRandomMomentsLosesNoAcknowledgedRecord() throws {
        let env = ProcessInfo.processInfo.environment
        seed = env["PETLOG_CRASH_SEED"].flatMap { UInt64($0) } ?? UInt64.random(in: 1...UInt64(UInt32.max))
        let trials = env["PETLOG_CRASH_TRIALS"].flatMap { Int($0) } ?? 320
        XCTAssertLessThanOrEqual(trials, 10_000, "slots would pass PETLOG_NOW")
        rng = SplitMix64(seed: seed)
        print("CrashSafetyTests: seed \(seed) (replay with PETLOG_CRASH_SEED=\(seed)), \(trials) trials")
        let begin = PetlogChild.nanoseconds()

        try ok("pet", "add", "Coco", "--species", "dog")
        let watch = try OpenWatch(directory: home.appendingPathComponent("data").path)
        // Calibration: when a write opens the file and when it exits. Most of its life is start-up,
        // which touches no file; kills are aimed mostly at the part after the open.
        for _ in 0..<5 {
            slot += 1
            let c = try spawn(["--db", dbPath, "weight", "Coco", "\(Self.grams(slot))g", "--at", Self.at(slot)], watch: watch)
            XCTAssertNotNil(drive(c, killAt: nil, watch: watch, learn: true).openedAt, "no open of the database seen")
            XCTAssertEqual(c.exitCode, 0, c.stderr)
            acknowledged[try XCTUnwrap(c.printedRecordIds.first)] = slot
        }
        // The demo household is the same every time (seed 42, today pinned): one full run gives its size and times.
        let demoReference = home.appendingPathComponent("demo-reference")
        try FileManager.default.createDirectory(at: demoReference, withIntermediateDirectories: true)
        let demoWatch = try OpenWatch(directory: demoReference.path)
        let fullDemo = try spawn(["--db", demoReference.appendingPathComponent("p.sqlite").path, "demo"], watch: demoWatch)
        let demoOpened = try XCTUnwrap(drive(fullDemo, killAt: nil, watch: demoWatch).openedAt)
        XCTAssertEqual(fullDemo.exitCode, 0, fullDemo.stderr)
        let demoFileLife = fullDemo.elapsedMilliseconds - demoOpened
        let demoRecords = try demoRecordCount(db: demoReference.appendingPathComponent("p.sqlite").path, "demo reference")
        print(String(format: "CrashSafetyTests: a write lives %.1f ms, %.1f ms of it after opening the file; demo %.0f ms after (%ld records)",
                     life, fileLife, demoFileLife, demoRecords))
        // The same for an import of the small shelter tables (6,152 records, one transaction).
        let importReference = home.appendingPathComponent("import-reference")
        try FileManager.default.createDirectory(at: importReference, withIntermediateDirectories: true)
        let importWatch = try OpenWatch(directory: importReference.path)
        let fullImport = try spawn(["--db", importReference.appendingPathComponent("p.sqlite").path, "import", Self.shelter], watch: importWatch)
        let importOpened = try XCTUnwrap(drive(fullImport, killAt: nil, watch: importWatch).openedAt)
        XCTAssertEqual(fullImport.exitCode, 0, fullImport.stderr)
        let importFileLife = fullImport.elapsedMilliseconds - importOpened

        for trial in 1...trials {
            let pick = uniform()
            // One kill in ten at any moment of the life (start-up included), the rest after the open.
            let anyMoment = uniform() < 0.1
            let f = uniform()
            func moment(_ window: Double) -> Moment { anyMoment ? .afterStart(f * life) : .afterOpen(f * window) }
            switch pick {
            case ..<0.80: try weightTrial(trial, killAt: moment(fileLife), before: Int(uniform() * 3), watch: watch)
            case ..<0.88: try petAddTrial(trial, killAt: moment(fileLife), watch: watch)
            case ..<0.94: try backupTrial(trial, killAt: moment(1.3 * fileLife), watch: watch)
            case ..<0.97: try importTrial(trial, killAt: anyMoment ? .afterStart(f * (importOpened + importFileLife)) : .afterOpen(f * 1.05 * importFileLife))
            default: try demoTrial(trial, killAt: anyMoment ? .afterStart(f * (demoOpened + demoFileLife)) : .afterOpen(f * 1.05 * demoFileLife),
                                   expectedRecords: demoRecords)
            }
            // The first failing trial ends the run: later ones would only repeat it on a damaged file.
            if (testRun?.totalFailureCount ?? 0) > 0 { throw StoppedAtFailingTrial(seed: seed, trial: trial) }
        }

        // Last, everything at once: every acknowledged record since the first write is still there.
        let all = try weights(since: 0, db: dbPath, "final read")
        for (id, s) in acknowledged {
            XCTAssertEqual(all[id], s, "seed \(seed): acknowledged #\(id) (slot \(s)) missing at the end")
        }
        try expectCheckPasses(db: dbPath, "seed \(seed): final check")
        let seconds = Double(PetlogChild.nanoseconds() - begin) / 1e9
        print("CrashSafetyTests: seed \(seed), \(trials) trials in \(String(format: "%.1f", seconds)) s: \(tally.trials.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }.joined(separator: ", ")); "
              + "\(tally.killed) petlog processes killed (\(tally.killedBeforeOpen) before opening the file), \(tally.endedBeforeKill) ended before their moment; "
              + "\(tally.acknowledged) acknowledged writes read back, \(tally.committedUnacknowledged) killed after commit, "
              + "\(tally.printedThenKilled) killed after printing; \(tally.walLeftBehind) kills left a WAL with frames to recover; "
              + "\(tally.backupsVerified) backup files verified, \(tally.killedBackupsLeftNothing) killed backups left none; demo: \(tally.demosCommitted) committed, \(tally.demosRolledBack) rolled back; "
              + "import: \(tally.importsCommitted) committed, \(tally.importsRolledBack) rolled back; "
              + String(format: "a write lived %.1f ms, %.1f ms after the open, at the end", life, fileLife))
    }

    /// `before` writes run to completion, then one more is killed at `moment`; then `check` and a read-back.
    func weightTrial(_ trial: Int, killAt moment: Moment, before: Int, watch: OpenWatch) throws {
        tally.trials["weight", default: 0] += 1
        let what = context(trial, "weight after \(before) writes, kill \(moment.label)")
        let firstSlot = slot + 1
        var acked: [Int64: Int] = [:]
        var killedSlot: Int?
        for i in 0...before {
            slot += 1
            let c = try spawn(["--db", dbPath, "weight", "Coco", "\(Self.grams(slot))g", "--at", Self.at(slot)], watch: watch)
            if drive(c, killAt: i == before ? moment : nil, watch: watch, learn: true).killed {
                killedSlot = slot
                // Printed means committed (the line comes after the commit), even if the exit never came.
                if let id = c.printedRecordIds.first { acked[id] = slot; tally.printedThenKilled += 1 }
            } else {
                XCTAssertEqual(c.exitCode, 0, "\(what): \(c.commandLine): \(c.stderr)")
                XCTAssertEqual(c.stderr, "", "\(what): \(c.commandLine)")
                acked[try XCTUnwrap(c.printedRecordIds.first, "\(what): no #id: \(c.stdout)")] = slot
                tally.acknowledged += 1
            }
        }
        if killedSlot != nil && walSize(dbPath) > 0 { tally.walLeftBehind += 1 }
        try expectCheckPasses(db: dbPath, what)
        let found = try weights(since: firstSlot, db: dbPath, what)
        for (id, s) in acked {
            XCTAssertEqual(found[id], s, "\(what): acknowledged #\(id) (slot \(s)) lost")
            acknowledged[id] = s
        }
        // Anything else found was written by the killed invocation, committed before it died.
        for (id, s) in found where acked[id] == nil {
            XCTAssertEqual(s, killedSlot, "\(what): #\(id) (slot \(s)) is there but no invocation of this trial could have written it")
            tally.committedUnacknowledged += 1
        }
    }

    func petAddTrial(_ trial: Int, killAt moment: Moment, watch: OpenWatch) throws {
        tally.trials["pet add", default: 0] += 1
        let what = context(trial, "pet add, kill \(moment.label)")
        let name = "Pet\(trial)"
        let c = try spawn(["--db", dbPath, "pet", "add", name, "--species", "cat"], watch: watch)
        let killed = drive(c, killAt: moment, watch: watch).killed
        if !killed {
            XCTAssertEqual(c.exitCode, 0, "\(what): \(c.stderr)")
            XCTAssertTrue(c.stdout.contains(name), "\(what): \(c.stdout)")
        }
        if killed && walSize(dbPath) > 0 { tally.walLeftBehind += 1 }
        try expectCheckPasses(db: dbPath, what)
        if !killed || c.stdout.contains(name) {
            let pets = try XCTUnwrap(try readJSON(["pet", "list"], db: dbPath, what) as? [[String: Any]])
            XCTAssertTrue(pets.contains { $0["name"] as? String == name }, "\(what): acknowledged pet \(name) lost")
        }
    }

    /// A backup file must pass `check` and hold every record acknowledged before the backup started.
    func backupTrial(_ trial: Int, killAt moment: Moment, watch: OpenWatch) throws {
        tally.trials["backup", default: 0] += 1
        let what = context(trial, "backup, kill \(moment.label)")
        let target = home.appendingPathComponent("backup-\(trial).sqlite").path
        let before = acknowledged
        let c = try spawn(["--db", dbPath, "backup", "-o", target], watch: watch)
        let killed = drive(c, killAt: moment, watch: watch).killed
        if killed && walSize(dbPath) > 0 { tally.walLeftBehind += 1 }
        try expectCheckPasses(db: dbPath, what)
        // A file at the target must be a whole backup, whether the command finished or was killed:
        // whoever finds it later cannot tell which.
        if killed && !FileManager.default.fileExists(atPath: target) { tally.killedBackupsLeftNothing += 1; return }
        if !killed { XCTAssertEqual(c.exitCode, 0, "\(what): \(c.stderr)") }
        let which = what + (killed ? ", the file a killed backup left" : ", the backup file")
        try expectCheckPasses(db: target, which)
        let copied = try weights(since: 0, db: target, which)
        for (id, s) in before { XCTAssertEqual(copied[id], s, "\(which): acknowledged #\(id) missing from it") }
        tally.backupsVerified += 1
    }

    /// `demo` writes a whole household in one transaction into a new file: after a kill, all of it or none.
    func demoTrial(_ trial: Int, killAt moment: Moment, expectedRecords: Int) throws {
        tally.trials["demo", default: 0] += 1
        let what = context(trial, "demo, kill \(moment.label)")
        let dir = home.appendingPathComponent("demo-\(trial)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        let db = dir.appendingPathComponent("p.sqlite").path
        let watch = try OpenWatch(directory: dir.path)
        let c = try spawn(["--db", db, "demo"], watch: watch)
        let killed = drive(c, killAt: moment, watch: watch).killed
        if !killed { XCTAssertEqual(c.exitCode, 0, "\(what): \(c.stderr)") }
        if killed && walSize(db) > 0 { tally.walLeftBehind += 1 }
        let made = try expectCheckPassesOrNeverMade(db: db, killed: killed, what)
        let pets = made ? try XCTUnwrap(try readJSON(["pet", "list"], db: db, what) as? [[String: Any]]) : []
        if pets.isEmpty {
            XCTAssertTrue(killed && c.stdout.isEmpty, "\(what): demo acknowledged but its household is gone")
            tally.demosRolledBack += 1
        } else {
            XCTAssertEqual(try demoRecordCount(db: db, what), expectedRecords, "\(what): a partial household")
            tally.demosCommitted += 1
        }
    }

    static let shelter = ImportCommandTests.fixtures.appendingPathComponent("shelter-small").path

    /// `import` is one transaction into a new file: after a kill, importing the same folder again must
    /// find all 6,152 records already there, or none of them (then it adds them all).
    func importTrial(_ trial: Int, killAt moment: Moment) throws {
        tally.trials["import", default: 0] += 1
        let what = context(trial, "import, kill \(moment.label)")
        let dir = home.appendingPathComponent("import-\(trial)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        let db = dir.appendingPathComponent("p.sqlite").path
        let watch = try OpenWatch(directory: dir.path)
        let c = try spawn(["--db", db, "import", Self.shelter], watch: watch)
        let killed = drive(c, killAt: moment, watch: watch).killed
        if !killed { XCTAssertEqual(c.exitCode, 0, "\(what): \(c.stderr)") }
        if killed && walSize(db) > 0 { tally.walLeftBehind += 1 }
        try expectCheckPassesOrNeverMade(db: db, killed: killed, what)
        let again = try XCTUnwrap(try readJSON(["import", Self.shelter], db: db, what) as? [String: Any])
        let added = again["records_added"] as? Int, there = again["records_already_there"] as? Int
        if there == 6152 {
            XCTAssertEqual(added, 0, "\(what): \(again)")
            tally.importsCommitted += 1
        } else {
            XCTAssertTrue(killed && c.stdout.isEmpty, "\(what): import acknowledged but its records are gone")
            XCTAssertEqual(there, 0, "\(what): a partial import: \(again)")
            XCTAssertEqual(added, 6152, "\(what): \(again)")
            tally.importsRolledBack += 1
        }
    }

    /// Pets and records of a demo file, from `pet show`'s record counts.
    func demoRecordCount(db: String, _ context: String) throws -> Int {
        let pets = try XCTUnwrap(try readJSON(["pet", "list"], db: db, context) as? [[String: Any]])
        XCTAssertEqual(pets.count, 3, "\(context): \(pets.count) pets")
        var total = 0
        for p in pets {
            let name = try XCTUnwrap(p["name"] as? String)
            let shown = try XCTUnwrap(try readJSON(["pet", "show", name], db: db, context) as? [String: Any])
            total += try XCTUnwrap((shown["record_count"] as? NSNumber)?.intValue, "\(context): \(shown.keys)")
        }
        return total
    }
}
#endif
