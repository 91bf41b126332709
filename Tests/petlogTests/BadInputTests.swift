import Foundation
import XCTest
import PetlogTestSupport

/// Bad input: one line on stderr naming the value, a sysexits code, and the database file unchanged.
final class BadInputTests: CLITestCase {
    override func setUpWithError() throws {
        try super.setUpWithError()
        try ok("pet", "add", "Coco", "--species", "dog")
        try ok("weight", "Coco", "4.2kg")
    }

    func testStrictParsersRefuseAndWriteNothing() throws {
        try expectRefused(["weight", "Coco", "nan"], code: 65, mentions: "\"nan\"")
        try expectRefused(["weight", "Coco", "inf"], code: 65, mentions: "\"inf\"")
        try expectRefused(["weight", "Coco", "1e309"], code: 65, mentions: "1e309")
        try expectRefused(["weight", "Coco", "0x1p3"], code: 65, mentions: "0x1p3")
        try expectRefused(["weight", "Coco", "5000kg"], code: 65, mentions: "1000 kg")
        try expectRefused(["weight", "Coco", "0g"], code: 65, mentions: "0g")
        try expectRefused(["weight", "Coco", "4kg", "--at", "2024-02-30"], code: 65, mentions: "2024-02-30")
        try expectRefused(["weight", "Coco", "4kg", "--at", "25:00"], code: 65, mentions: "25:00")
        try expectRefused(["weight", "Coco", "4kg", "--bcs", "10"], code: 65, mentions: "1 to 9")
        try expectRefused(["symptom", "Coco", "vomiting", "--severity", "6"], code: 65, mentions: "1 to 5")
        try expectRefused(["symptom", "Coco", "vomiting", "--severity", "0"], code: 65, mentions: "1 to 5")
        try expectRefused(["stool", "Coco", "8"], code: 65, mentions: "1 to 7")
        try expectRefused(["visit", "Coco", "--cost", "100.5KRW"], code: 65, mentions: "KRW")
        try expectRefused(["visit", "Coco", "--follow-up", "2026-02-29"], code: 65, mentions: "2026-02-29")
        try expectRefused(["pet", "add", "Rex", "--species", "dragon"], code: 65, mentions: "dragon")
        try expectRefused(["pet", "add", "Rex", "--born", "2019-13"], code: 65, mentions: "2019-13")
        try expectRefused(["med", "start", "Coco", "X", "--every", "1m"], code: 65, mentions: "1m")
        try expectRefused(["log", "--kind", "weight,bogus"], code: 65, mentions: "bogus")
    }

    func testUnknownThingsAreNamedWithASuggestion() throws {
        try expectRefused(["weight", "Cocoa", "4kg"], code: 66, mentions: "did you mean \"Coco\"?")
        try expectRefused(["weight", "Rex", "4kg"], code: 66, mentions: "\"Rex\"")
        try expectRefused(["delete", "999"], code: 66, mentions: "999")
        try expectRefused(["med", "give", "Coco", "Nothing"], code: 66, mentions: "Nothing")
        try expectRefused(["diary", "Coco", "x", "--photo", "/nonexistent/photo.jpg"], code: 66, mentions: "/nonexistent/photo.jpg")
        try expectRefused(["pet", "add", "coco", "--species", "dog"], code: 65, mentions: "Coco")
    }

    func testUsageErrorsExit64() throws {
        try expectRefused(["pet", "remove", "Coco"], code: 64, mentions: "--yes")
        try expectRefused(["edit", "1", "--score", "3"], code: 64, mentions: "--score")
        XCTAssertEqual(try run(["weight"]).status, 64)
        XCTAssertEqual(try run(["no-such-command"]).status, 64)
    }

    func testUserTextNeverPutsControlCharactersOnTheTerminal() throws {
        let evil = "walk \u{1B}]0;pwned\u{07}\u{1B}[2J\u{1B}[31mred\u{9B}31m\u{202E}gnp.exe"
        try ok("diary", "Coco", evil, "--note", "note\u{1B}[1m")
        for out in [try ok("log"), try ok("search", "walk"), try ok("log", "--kind", "diary")] {
            XCTAssertFalse(out.unicodeScalars.contains { $0.value == 0x1B || $0.value == 0x07 || $0.value == 0x9B || $0.value == 0x202E }, out)
            XCTAssertTrue(out.contains("walk"), out)
        }
        // The stored text is kept as typed; only the display is cleaned.
        let records = try XCTUnwrap(json("log", "--kind", "diary") as? [[String: Any]])
        XCTAssertEqual((records.first?["diary"] as? [String: Any])?["text"] as? String, evil)
        // Names with control characters are refused outright.
        try expectRefused(["pet", "add", "Bad\u{1B}[31mName", "--species", "dog"], code: 65, mentions: "control")
    }

    func testANewerDatabaseIsRefusedAndLeftByteIdentical() throws {
        try requireDatabaseFile()
        let sqlite = Process()
        sqlite.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        sqlite.arguments = ["python3", "-c", "import sqlite3,sys; c=sqlite3.connect(sys.argv[1]); c.execute(\"insert into grdb_migrations values ('v999')\"); c.commit(); c.execute('pragma wal_checkpoint(truncate)'); c.close()", dbPath]
        try sqlite.run()
        sqlite.waitUntilExit()
        XCTAssertEqual(sqlite.terminationStatus, 0)
        try expectRefused(["log"], code: 65, mentions: "newer petlog")
        try expectRefused(["weight", "Coco", "4kg"], code: 65, mentions: "newer petlog")
    }

    func testAnUnknownLanguageFallsBackToEnglishWithOneWarning() throws {
        let r = try run(["pet", "list", "--lang", "xx"])
        XCTAssertEqual(r.status, 0)
        XCTAssertTrue(r.stderr.contains("\"xx\""), r.stderr)
        XCTAssertTrue(r.stdout.contains("Coco"))
    }

    func testFilesArePrivateWhateverTheUmask() throws {
        try requireDatabaseFile()
        let attrs = try FileManager.default.attributesOfItem(atPath: dbPath)
        XCTAssertEqual((attrs[.posixPermissions] as? NSNumber)?.intValue, 0o600)
        let dir = try FileManager.default.attributesOfItem(atPath: home.appendingPathComponent("data").path)
        XCTAssertEqual((dir[.posixPermissions] as? NSNumber)?.intValue, 0o700)
    }
}
