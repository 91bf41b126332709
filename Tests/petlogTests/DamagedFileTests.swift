import Foundation
import XCTest
import PetlogTestSupport

/// What outside testers did to a real petlog file (issue 27): cut it short, wrote random bytes over pages in
/// its middle or over its header. `check` names the file and the damage in a few lines (all of it with
/// `--verbose` or `--json`), and `check --repair` copies what can be read into a new file beside it.
final class DamagedFileTests: CLITestCase {
    override class var onOneStoreOnly: String? { "about a damaged SQLite file" }
    func petlog(_ db: String, _ args: String...) throws -> Result { try run(["--db", db] + args, useDefaultDB: true) }

    /// A demo household in a file of its own, checkpointed (no -wal beside it), and its page size.
    func demoFile() throws -> (path: String, pageSize: Int) {
        try requireDatabaseFile()
        try ok("demo", "--end", "2026-11-20")
        let sqlite = try launch(URL(fileURLWithPath: "/usr/bin/sqlite3"), [dbPath, "PRAGMA wal_checkpoint(TRUNCATE);", "PRAGMA page_size;"])
        XCTAssertEqual(sqlite.status, 0, sqlite.stderr)
        let pageSize = try XCTUnwrap(Int(sqlite.stdout.split(separator: "\n").last ?? ""))
        XCTAssertEqual((try? Data(contentsOf: URL(fileURLWithPath: dbPath + "-wal")))?.count ?? 0, 0, "checkpointed")
        return (dbPath, pageSize)
    }

    /// A copy of `source` named `name` in HOME, changed by `damage`.
    func damagedCopy(of source: String, _ name: String, _ damage: (FileHandle) throws -> Void) throws -> String {
        let path = home.appendingPathComponent(name).path
        try FileManager.default.copyItem(atPath: source, toPath: path)
        let handle = try FileHandle(forUpdating: URL(fileURLWithPath: path))
        try damage(handle)
        try handle.close()
        return path
    }

    /// Bytes that look like nothing (a fixed seed: the same damage every run).
    func noise(_ count: Int, seed: UInt64) -> Data {
        var state = seed
        return Data((0..<count).map { _ in
            state = state &* 6364136223846793005 &+ 1442695040888963407
            return UInt8(truncatingIfNeeded: state >> 33)
        })
    }

    func size(_ path: String) throws -> Int { (try FileManager.default.attributesOfItem(atPath: path)[.size] as? NSNumber)?.intValue ?? -1 }

    /// The problem count of `check`'s first line, and that line names the file as damaged.
    func summary(_ r: Result, of path: String, file: StaticString = #filePath, line: UInt = #line) throws -> Int {
        XCTAssertEqual(r.status, 65, r.stdout + r.stderr, file: file, line: line)
        XCTAssertEqual(r.stderr, "", "check itself reports, never the refusal other commands give", file: file, line: line)
        let first = String(r.stdout.split(separator: "\n").first ?? "")
        XCTAssertTrue(first.hasPrefix("\(path) is damaged: "), first, file: file, line: line)
        return try XCTUnwrap(Int(first.split(separator: " ").dropLast().last ?? ""), first, file: file, line: line)
    }

    /// `check` says a few lines; `--verbose` and `--json` give every one of the `count` problems.
    func expectFewLinesAndAllOnRequest(_ path: String, file: StaticString = #filePath, line: UInt = #line) throws -> (said: String, count: Int) {
        let check = try petlog(path, "check")
        let count = try summary(check, of: path, file: file, line: line)
        let lines = check.stdout.split(separator: "\n")
        XCTAssertLessThanOrEqual(lines.count, 8, check.stdout, file: file, line: line)
        XCTAssertTrue(lines.allSatisfy { $0.utf8.count < 300 }, check.stdout, file: file, line: line)
        XCTAssertTrue(check.stdout.contains("petlog check --repair"), check.stdout, file: file, line: line)
        if count > 5 { XCTAssertTrue(check.stdout.contains("and \(count - 5) more"), check.stdout, file: file, line: line) }
        let verbose = try petlog(path, "check", "--verbose")
        XCTAssertEqual(verbose.stdout.split(separator: "\n").filter { $0.hasPrefix("  ") }.count, count, verbose.stdout, file: file, line: line)
        let json = try petlog(path, "check", "--json")
        XCTAssertEqual(json.status, 65, file: file, line: line)
        let all = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [[String: Any]], file: file, line: line)
        XCTAssertEqual(all.count, count, file: file, line: line)
        XCTAssertTrue(FileManager.default.fileExists(atPath: path + ".damaged"), "check leaves the marker", file: file, line: line)
        return (check.stdout, count)
    }

    /// `check --repair`: a new file beside `path` (which stays as it was) that passes `check`; its path.
    func expectRecoveredCopy(_ path: String, file: StaticString = #filePath, line: UInt = #line) throws -> (copy: String, said: String) {
        let before = try Data(contentsOf: URL(fileURLWithPath: path))
        let repair = try petlog(path, "check", "--repair")
        XCTAssertEqual(repair.status, 65, "the file itself is still damaged: " + repair.stdout + repair.stderr, file: file, line: line)
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: path)), before, "never repaired in place", file: file, line: line)
        XCTAssertFalse(FileManager.default.fileExists(atPath: path + "-wal") || FileManager.default.fileExists(atPath: path + "-shm"),
                       "nothing made beside a file that is only read", file: file, line: line)
        let name = (path as NSString).lastPathComponent
        let copyName = try XCTUnwrap(try FileManager.default.contentsOfDirectory(atPath: home.path)
            .first { $0.hasPrefix(name + ".recovered-") && $0.hasSuffix(".sqlite") }, repair.stdout, file: file, line: line)
        let copy = home.appendingPathComponent(copyName).path
        XCTAssertTrue(repair.stdout.hasPrefix("Recovered "), repair.stdout, file: file, line: line)
        XCTAssertTrue(repair.stdout.contains(copy), repair.stdout, file: file, line: line)
        XCTAssertTrue(repair.stdout.contains("mv \(path) "), "how to put it in place: " + repair.stdout, file: file, line: line)
        let copyCheck = try petlog(copy, "check")
        XCTAssertEqual(copyCheck.status, 0, copyCheck.stdout + copyCheck.stderr, file: file, line: line)
        XCTAssertEqual(copyCheck.stdout, "", file: file, line: line)
        return (copy, repair.stdout)
    }

    func records(_ db: String) throws -> Int {
        let r = try petlog(db, "log", "--since", "3y", "--json")
        XCTAssertEqual(r.status, 0, r.stderr)
        return (try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [Any])?.count ?? -1
    }

    func testATruncatedFileIsCheckedAndWhatIsLeftIsRecovered() throws {
        let (source, pageSize) = try demoFile()
        let all = try records(source)
        let full = try size(source)
        // The cuts fall in the rows, past the schema's own pages: a new file's tables (and each migration's) have
        // their root pages first, so a cut among them keeps no record however the schema grows.
        let roots = try launch(URL(fileURLWithPath: "/usr/bin/sqlite3"), [source, "SELECT max(rootpage) FROM sqlite_master"])
        let schemaBytes = (Int(roots.stdout.trimmingCharacters(in: .whitespacesAndNewlines)) ?? 0) * pageSize
        XCTAssertLessThan(schemaBytes, full / 2, "the demo's rows fill most of the file")
        func cut(_ percent: Int) -> Int { schemaBytes + (full - schemaBytes) * percent / 100 }
        let cuts = [("cut-early.sqlite", cut(15)), ("cut-later.sqlite", cut(35)), ("page.sqlite", cut(25) / pageSize * pageSize)]
        for (name, length) in cuts {
            let path = try damagedCopy(of: source, name) { try $0.truncate(atOffset: UInt64(length)) }
            let (said, _) = try expectFewLinesAndAllOnRequest(path)
            XCTAssertTrue(said.contains("file cut short: \(length) bytes"), said)
            XCTAssertFalse(said.contains("See petlog check"), said)
            let (copy, repaired) = try expectRecoveredCopy(path)
            let kept = try records(copy)
            XCTAssertGreaterThan(kept, 0, name)
            XCTAssertLessThan(kept, all, name)
            XCTAssertTrue(repaired.contains("Recovered \(grouped(kept)) records of 3 pets from \(path) into \(copy)"), repaired)
        }
        // In every language.
        let ko = try petlog(home.appendingPathComponent("cut-early.sqlite").path, "--lang", "ko", "check")
        XCTAssertTrue(ko.stdout.contains("파일이 손상되었습니다: 문제"), ko.stdout)
        let ja = try petlog(home.appendingPathComponent("cut-early.sqlite").path, "--lang", "ja", "check")
        XCTAssertTrue(ja.stdout.contains("は破損しています: 問題"), ja.stdout)
    }

    func testGarbledPagesInTheMiddleAreSummedUpAndTheRestRecovered() throws {
        let (source, pageSize) = try demoFile()
        let all = try records(source)
        let pages = try size(source) / pageSize
        let path = try damagedCopy(of: source, "garbled.sqlite") { handle in
            for (i, page) in stride(from: pages / 2 - 8, to: pages / 2 + 8, by: 2).enumerated() {
                try handle.seek(toOffset: UInt64(page * pageSize))
                try handle.write(contentsOf: noise(pageSize, seed: UInt64(i + 1)))
            }
        }
        let (said, count) = try expectFewLinesAndAllOnRequest(path)
        XCTAssertGreaterThan(count, 5, "more problems than the few shown: " + said)
        let (copy, _) = try expectRecoveredCopy(path)
        let kept = try records(copy)
        XCTAssertGreaterThan(kept, all / 2)
        XCTAssertLessThan(kept, all)
    }

    func testAFileWhoseHeaderIsOverwrittenIsReadThroughARebuiltOne() throws {
        let (source, _) = try demoFile()
        let all = try records(source)
        let path = try damagedCopy(of: source, "header.sqlite") { try $0.write(contentsOf: noise(100, seed: 27)) }
        XCTAssertEqual(try petlog(path, "pet", "list").status, 65, "other commands refuse it")
        let check = try petlog(path, "check")
        _ = try summary(check, of: path)
        XCTAssertTrue(check.stdout.contains("database header (the first 100 bytes) unreadable"), check.stdout)
        XCTAssertFalse(check.stdout.contains("not a petlog database"), check.stdout)
        let (copy, _) = try expectRecoveredCopy(path)
        XCTAssertEqual(try records(copy), all, "only the header was lost")
        XCTAssertEqual(try petlog(copy, "pet", "list", "--json").stdout, try petlog(source, "pet", "list", "--json").stdout)
        XCTAssertFalse(try FileManager.default.contentsOfDirectory(atPath: home.path).contains { $0.contains("mending") }, "no private copy left")
    }

    func testAFileOfWhichNothingCanBeReadSaysSoAndPointsToABackup() throws {
        let (source, pageSize) = try demoFile()
        // The first page alone: the header, and a schema whose other pages are gone.
        let path = try damagedCopy(of: source, "stub.sqlite") { try $0.truncate(atOffset: UInt64(pageSize)) }
        let check = try petlog(path, "check")
        XCTAssertGreaterThan(try summary(check, of: path), 0)
        let repair = try petlog(path, "check", "--repair")
        XCTAssertEqual(repair.status, 66, repair.stdout + repair.stderr)
        XCTAssertTrue(repair.stdout.contains("Nothing in \(path) can be read"), repair.stdout)
        XCTAssertTrue(repair.stdout.contains("petlog --db \(path) restore BACKUP"), repair.stdout)
        XCTAssertFalse(try FileManager.default.contentsOfDirectory(atPath: home.path).contains { $0.contains(".recovered-") }, "no empty copy left")
        XCTAssertEqual(try size(path), pageSize)

        // A file that never was SQLite's is still not a petlog database, damaged or not.
        let photo = home.appendingPathComponent("photo.jpg").path
        try (Data([0xFF, 0xD8, 0xFF, 0xE0]) + noise(20_000, seed: 5)).write(to: URL(fileURLWithPath: photo))
        let notOurs = try petlog(photo, "check")
        XCTAssertEqual(notOurs.status, 65)
        XCTAssertTrue(notOurs.stderr.contains("not a petlog database"), notOurs.stderr)
    }
}
