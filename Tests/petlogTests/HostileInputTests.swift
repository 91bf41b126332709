import Foundation
import XCTest
import PetlogTestSupport

/// Hostile input end to end: the corpus in HostileCorpus/refusals.jsonl (each case refused with one line,
/// a sysexits code, no crash, the database byte-identical), then the inputs whose right answer is
/// acceptance (they must round-trip and never put a control character on the terminal), files that are
/// not petlog databases, and arguments that are not UTF-8.
final class HostileInputTests: CLITestCase {
    static let corpus = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("HostileCorpus/refusals.jsonl")

    /// What a terminal must never receive from user text: C0 controls but newline, DEL, C1 (U+009B is
    /// CSI), line separators and bidi overrides/isolates.
    static func dangerous(_ s: Unicode.Scalar) -> Bool {
        switch s.value {
        case 0x0A: return false
        case 0x00...0x1F, 0x7F...0x9F, 0x2028, 0x2029, 0x202A...0x202E, 0x2066...0x2069: return true
        default: return false
        }
    }

    func assertTerminalSafe(_ r: Result, _ what: String, file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertFalse(r.crashed, "\(what) crashed: \(r.stderr.prefix(600))", file: file, line: line)
        for (name, text) in [("stdout", r.stdout), ("stderr", r.stderr)] {
            let bad = text.unicodeScalars.filter(Self.dangerous).map { String(format: "U+%04X", $0.value) }
            XCTAssertEqual(bad, [], "\(what) wrote control characters to \(name): \(text.prefix(300).debugDescription)", file: file, line: line)
        }
    }

    override func setUpWithError() throws {
        try super.setUpWithError()
        try ok("pet", "add", "Coco", "--species", "dog")
        try ok("weight", "Coco", "4.2kg", "--at", "-2d")
        try ok("med", "start", "Coco", "Apoquel", "--every", "12h", "--at", "-1d")
        XCTAssertEqual(mkfifo(home.appendingPathComponent("fifo").path, 0o600), 0)
    }

    struct Case: Decodable {
        var code: Int32
        var mentions: String
        var args: [String]
        var lang: String?
    }

    /// `{N c}` stands for the character c repeated N times (long names and notes); `{home}` for HOME.
    func expand(_ arg: String) -> String {
        let parts = arg.dropFirst().dropLast().split(separator: " ")
        if arg.hasPrefix("{"), arg.hasSuffix("}"), parts.count == 2, let n = Int(parts[0]) { return String(repeating: String(parts[1]), count: n) }
        return arg.replacingOccurrences(of: "{home}", with: home.path)
    }

    func testEveryCorpusCaseIsRefusedWithOneLineAndTheDatabaseUnchanged() throws {
        let lines = try String(contentsOf: Self.corpus, encoding: .utf8).split(separator: "\n")
        var count = 0
        // Every case must leave the database as it was before the first one: each is compared with that.
        let unchanged = try fileHash(dbPath)
        for (index, text) in lines.enumerated() where !text.hasPrefix("#") && !text.trimmingCharacters(in: .whitespaces).isEmpty {
            let c = try JSONDecoder().decode(Case.self, from: Data(text.utf8))
            // `backup` of a server is pg_dump's (exit 69, said before the path is looked at): a file's case.
            if onServer && c.args.first == "backup" { continue }
            let args = (c.lang.map { ["--lang", $0] } ?? []) + c.args.map(expand)
            let r = try expectRefused(args, code: c.code, mentions: expand(c.mentions), unchangedFrom: unchanged, line: UInt(index + 1))
            assertTerminalSafe(r, "corpus line \(index + 1)", line: UInt(index + 1))
            count += 1
        }
        XCTAssertGreaterThan(count, 150, "the corpus was not read")
        // Nothing refused left a trace: still one weight and one course.
        let log = try XCTUnwrap(try json("log") as? [[String: Any]])
        XCTAssertEqual(log.count, 2)
    }

    // MARK: - Accepted, round-tripped, shown safely

    func testEmojiWideAndCombiningTextRoundTrips() throws {
        let text = "산책 🐕‍🦺 散歩 👨‍👩‍👧 cafe\u{301} مرحبا ½ 𠀋"
        try ok("diary", "Coco", text, "--note", "메모 ✓ 確認")
        let records = try XCTUnwrap(json("log", "--kind", "diary") as? [[String: Any]])
        XCTAssertEqual((records.first?["diary"] as? [String: Any])?["text"] as? String, text.precomposedStringWithCanonicalMapping)
        XCTAssertEqual(records.first?["note"] as? String, "메모 ✓ 確認")
        let log = try ok("log")
        XCTAssertTrue(log.contains("🐕‍🦺") && log.contains("𠀋") && log.contains("café"), log)
        XCTAssertTrue(try ok("search", "散歩").contains("👨‍👩‍👧"))
    }

    /// Free text keeps what was typed; every command that shows it (tables, timelines, JSON) shows it
    /// without a single control character, so a note cannot retitle, clear or recolour the terminal.
    func testControlCharactersAreStoredButNeverReachTheTerminal() throws {
        let evil = "a\u{1B}]0;pwned\u{07}b\u{1B}[2J\u{1B}[31mc\u{9B}31m\u{7F}d\u{202E}e\u{2066}f\u{2028}g\rh\u{85}i"
        let bidiName = "Mo\u{202E}chi"  // a format character, not a control: a valid name, shown cleaned
        try ok("pet", "add", bidiName, "--species", "cat", "--notes", evil)
        try ok("diary", "Coco", evil, "--note", evil)
        try ok("visit", "Coco", "--diagnosis", evil, "--treatment", evil, "--follow-up", "1w", "--note", evil)
        try ok("symptom", "Coco", "sneezing", "--note", evil)
        try ok("weight", bidiName, "4kg", "--note", evil)
        let reads: [[String]] = [
            ["log"], ["log", "--json"], ["search", "pwned"], ["search", "pwned", "--json"], ["pet", "list"], ["pet", "list", "--json"],
            ["pet", "show", bidiName], ["pet", "show", bidiName, "--json"], ["pet", "show", "Coco"], ["med", "list"], ["due"], ["due", "--json"],
            ["chart", "weight", "Coco,\(bidiName)"], ["chart", "symptoms", "Coco"], ["stats"], ["calendar"], ["starred"],
        ]
        for args in reads {
            let r = try run(args)
            XCTAssertEqual(r.status, 0, "\(args): \(r.stderr)")
            assertTerminalSafe(r, "\(args)")
        }
        // Errors that echo user text are cleaned too.
        assertTerminalSafe(try run(["weight", evil, "4kg"]), "unknown pet")
        assertTerminalSafe(try run(["search", "\u{1B}[2J\u{9B}"]), "search")
        // Stored exactly as typed (NFC), and --json decodes back to it.
        let records = try XCTUnwrap(json("log", "--kind", "visit") as? [[String: Any]])
        let visit = try XCTUnwrap(records.first?["visit"] as? [String: Any])
        XCTAssertEqual(visit["diagnosis"] as? String, evil)
        XCTAssertEqual(records.first?["note"] as? String, evil)
        let pet = try XCTUnwrap(json("pet", "show", bidiName) as? [String: Any])
        XCTAssertEqual(pet["name"] as? String, bidiName)
        XCTAssertEqual(pet["notes"] as? String, evil)
    }

    /// `-o` and `--db` paths are echoed on stdout ("Wrote …"): an ESC in them reached the terminal raw.
    func testOutputPathsAreShownWithoutControlCharacters() throws {
        let dir = home.appendingPathComponent("out").path
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        for (args, file) in [(["chart", "weight", "Coco", "-o"], "w\u{1B}]0;t\u{07}\u{1B}[31m.png"),
                             (["report", "Coco", "-o"], "r\u{1B}[2J.pdf"),
                             (["backup", "-o"], "b\u{1B}[31m.sqlite"),
                             (["export", "-o"], "e\u{1B}[31m.json"),
                             (["export", "--format", "csv", "-o"], "c\u{1B}[2J")] where !(onServer && args[0] == "backup") {
            let path = dir + "/" + file
            let r = try run(args + [path])
            XCTAssertEqual(r.status, 0, "\(args): \(r.stderr)")
            assertTerminalSafe(r, "\(args)")
            XCTAssertTrue(FileManager.default.fileExists(atPath: path), "\(args) wrote the file under its real name")
        }
        let imported = try run(["import", dir + "/e\u{1B}[31m.json"])
        XCTAssertEqual(imported.status, 0, imported.stderr)
        assertTerminalSafe(imported, "import")
        let demo = home.appendingPathComponent("d\u{1B}[2J.sqlite").path
        let r = try run(["--db", demo, "demo"], useDefaultDB: true)
        XCTAssertEqual(r.status, 0, r.stderr)
        assertTerminalSafe(r, "demo")
    }

    /// The longest note petlog keeps is accepted whole; one character more is refused with the limit.
    /// (A 1 MB argument never reaches petlog: Linux refuses any single argv string over 128 KiB at exec.)
    func testTheLongestNoteRoundTripsAndTheLimitIsNamed() throws {
        let longest = String(repeating: "가", count: 10) + String(repeating: "x", count: 99_990)
        try ok("diary", "Coco", "long", "--note", longest)
        let records = try XCTUnwrap(json("log", "--kind", "diary") as? [[String: Any]])
        XCTAssertEqual(records.first?["note"] as? String, longest)
        try expectRefused(["diary", "Coco", "long", "--note", longest + "x"], code: 65, mentions: "100000")
        try expectRefused(["diary", "Coco", "long", "--note", longest + "x", "--lang", "ja"], code: 65, mentions: "100000文字以内")
    }

    /// Attachments are copied in by content and named by hash: a path that climbs out, or a file name
    /// with a newline, is just a file to read; what is not a regular readable file is refused.
    func testAttachmentPathTricks() throws {
        // A path that climbs out is just a file to read (a visit takes any file; a photo must be an image).
        try ok("visit", "Coco", "--attach", "../../etc/passwd")
        let odd = home.appendingPathComponent("new\nline\u{1B}[31m.jpg")
        try Data([0xFF, 0xD8, 0xFF, 0xE0]).write(to: odd)
        let added = try run(["diary", "Coco", "odd", "--photo", odd.path])
        XCTAssertEqual(added.status, 0, added.stderr)
        assertTerminalSafe(added, "diary --photo odd name")
        let records = try XCTUnwrap(json("log", "--kind", "diary,visit") as? [[String: Any]])
        let names = records.compactMap { ($0["attachments"] as? [[String: Any]])?.first?["name"] as? String }
        XCTAssertEqual(names, ["passwd", "new\nline\u{1B}[31m.jpg"])
        // Stored under attachments/<2 hex>/<sha256>, nowhere else (on a server: in the database).
        if onServer { return }
        let stored = try FileManager.default.subpathsOfDirectory(atPath: home.appendingPathComponent("data/petlog.sqlite.attachments").path)
        XCTAssertEqual(stored.filter { $0.count == 67 }.count, 2, "\(stored)")
        XCTAssertTrue(stored.allSatisfy { $0.range(of: "^[0-9a-f]{2}(/[0-9a-f]{64})?$", options: .regularExpression) != nil }, "\(stored)")
        assertTerminalSafe(try run(["log"]), "log")
        // Refused, with the database unchanged: covered by the corpus (folder, FIFO, /dev/zero, missing, "").
    }

    // MARK: - Files that are not petlog databases

    func copyOfDatabase(_ name: String) throws -> String {
        let copy = home.appendingPathComponent(name).path
        try sqlite("PRAGMA wal_checkpoint(TRUNCATE)", dbPath)
        try FileManager.default.copyItem(atPath: dbPath, toPath: copy)
        return copy
    }

    func sqlite(_ sql: String, _ path: String) throws {
        let r = try launch(URL(fileURLWithPath: "/usr/bin/env"), ["python3", "-c", "import sqlite3,sys; c=sqlite3.connect(sys.argv[1]); c.executescript(sys.argv[2]); c.commit(); c.close()", path, sql])
        XCTAssertEqual(r.status, 0, r.stderr)
    }

    func testFilesThatAreNotPetlogDatabasesAreRefusedUntouched() throws {
        try requireDatabaseFile()
        let text = home.appendingPathComponent("notes.txt").path
        try Data("hello, this is not SQLite\n".utf8).write(to: URL(fileURLWithPath: text))
        let random = home.appendingPathComponent("random.bin").path
        try Data((0..<8192).map { UInt8(truncatingIfNeeded: $0 &* 2_654_435_761 >> 13) }).write(to: URL(fileURLWithPath: random))
        let foreign = home.appendingPathComponent("foreign.sqlite").path
        try sqlite("CREATE TABLE invoices (id INTEGER PRIMARY KEY, total REAL); INSERT INTO invoices VALUES (1, 9.5);", foreign)
        let truncated = try copyOfDatabase("truncated.sqlite")
        let whole = try Data(contentsOf: URL(fileURLWithPath: truncated))
        XCTAssertGreaterThan(whole.count, 3 * 4096)
        try whole.prefix(whole.count / 2).write(to: URL(fileURLWithPath: truncated))
        let fileAsFolder = text + "/petlog.sqlite"
        for (db, code, mentions) in [(home.path, Int32(73), "is a folder"), (home.appendingPathComponent("fifo").path, 73, "not a regular file"),
                                     (text, 65, "is not a petlog database"), (random, 65, "is not a petlog database"),
                                     (foreign, 65, "is not a petlog database"), (truncated, 65, "is damaged"),
                                     (fileAsFolder, 73, "is not a folder")] {
            for args in [["pet", "list"], ["weight", "Coco", "4kg"], ["log", "--json"]] {
                try expectRefused(args, code: code, mentions: mentions, db: db)
            }
        }
        XCTAssertFalse(FileManager.default.fileExists(atPath: fileAsFolder))
    }

    func testANewerPetlogsFileIsRefusedInEveryLanguage() throws {
        try requireDatabaseFile()
        let newer = try copyOfDatabase("newer.sqlite")
        try sqlite("INSERT INTO grdb_migrations VALUES ('v99')", newer)
        try expectRefused(["log"], code: 65, mentions: "newer petlog", db: newer)
        try expectRefused(["weight", "Coco", "4kg"], code: 65, mentions: "newer petlog", db: newer)
        try expectRefused(["pet", "list", "--lang", "ko"], code: 65, mentions: "더 새로운 버전의 petlog", db: newer)
        try expectRefused(["pet", "list"], code: 65, mentions: "新しいバージョンの petlog", db: newer, env: ["LANG": "ja_JP.UTF-8"])
    }

    /// SQLite reads a 0-byte file as an empty database, so petlog does too (as it does a missing file):
    /// `mktemp` then `--db` works. This is the one "bad file" whose right answer is acceptance.
    func testAnEmptyFileIsAFreshDatabase() throws {
        let empty = home.appendingPathComponent("empty.sqlite").path
        XCTAssertTrue(FileManager.default.createFile(atPath: empty, contents: Data()))
        XCTAssertEqual(try run(["--db", empty, "pet", "add", "Nabi", "--species", "cat"], useDefaultDB: true).status, 0)
        XCTAssertTrue(try run(["--db", empty, "pet", "list"], useDefaultDB: true).stdout.contains("Nabi"))
    }

    /// A record dated before 1800 (possible in files written before the parsers refused such days)
    /// used to trap every read that showed its day.
    func testARecordFromBeforeTheSupportedYearsIsShownNotATrap() throws {
        try requireDatabaseFile()
        try sqlite("UPDATE record SET at = -7000000000 WHERE kind = 'weight'", dbPath)
        for args in [["log"], ["log", "--json"], ["pet", "show", "Coco"], ["chart", "weight", "Coco", "--since", "1800-01-01"], ["due"], ["stats"]] {
            let r = try run(args)
            XCTAssertFalse(r.crashed, "\(args): \(r.stderr.prefix(400))")
            XCTAssertEqual(r.status, 0, "\(args): \(r.stderr.prefix(400))")
        }
        XCTAssertTrue(try ok("log").contains("1748"))
    }

    // MARK: - Arguments that are not UTF-8

    /// Swift's Process takes Strings, so raw bytes go through /bin/sh: `printf` builds each argument.
    /// Swift decodes argv with U+FFFD for invalid bytes; petlog must refuse or keep that, never crash.
    func runBytes(_ script: String) throws -> Result {
        try launch(URL(fileURLWithPath: "/bin/sh"), ["-c", "exec \"$PETLOG\" --db \"$DB\" " + script], env: ["PETLOG": Self.binary.path, "DB": dbPath])
    }

    func testArgumentsThatAreNotUTF8() throws {
        for (script, code, mentions) in [("weight \"$(printf 'Coco\\377')\" 4kg", Int32(66), "\"Coco\u{FFFD}\""),
                                         ("weight Coco \"$(printf '4\\300\\200kg')\"", 65, "\"4\u{FFFD}"),
                                         ("weight Coco 4kg --at \"$(printf '08:3\\3770')\"", 65, "08:3\u{FFFD}0"),
                                         ("visit Coco --cost \"$(printf '12\\355\\240\\200 USD')\"", 65, "12\u{FFFD}")] {
            let before = try fileHash(dbPath)
            let r = try runBytes(script)
            checkRefusal(r, code: code, mentions: mentions, script)
            assertTerminalSafe(r, script)
            XCTAssertEqual(try fileHash(dbPath), before, script)
        }
        // Free text with a stray byte is kept, the byte as U+FFFD.
        let r = try runBytes("diary Coco \"$(printf 'walk \\377 park')\"")
        XCTAssertEqual(r.status, 0, r.stderr)
        let records = try XCTUnwrap(json("log", "--kind", "diary") as? [[String: Any]])
        XCTAssertEqual((records.first?["diary"] as? [String: Any])?["text"] as? String, "walk \u{FFFD} park")
    }
}
