import Foundation
import XCTest
import PetlogTestSupport

final class DataCommandsTests: CLITestCase {
    func testCheckIsSilentWhenAllIsWellAndNamesEachProblem() throws {
        try requireDatabaseFile()
        try ok("pet", "add", "Coco", "--species", "dog")
        let photo = home.appendingPathComponent("p.jpg")
        try Data([0xFF, 0xD8, 0xFF, 7, 7, 7]).write(to: photo)
        try ok("diary", "Coco", "walk", "--photo", photo.path)
        XCTAssertEqual(try ok("check"), "", "nothing printed when all is well")

        let attachments = home.appendingPathComponent("data/petlog.sqlite.attachments")
        let stored = try XCTUnwrap(FileManager.default.subpathsOfDirectory(atPath: attachments.path).first { $0.count > 10 })
        let storedURL = attachments.appendingPathComponent(stored)
        let original = try Data(contentsOf: storedURL)
        try Data("tampered".utf8).write(to: storedURL)
        try Data("stray".utf8).write(to: attachments.appendingPathComponent("stray-file"))
        let bad = try run(["check"])
        XCTAssertEqual(bad.status, 65)
        XCTAssertTrue(bad.stdout.contains("bad-hash: "), bad.stdout)
        XCTAssertTrue(bad.stdout.contains("orphan-file: "), bad.stdout)
        // Each problem's kind in the user's language; --json keeps the codes in every language.
        let ko = try run(["--lang", "ko", "check"])
        XCTAssertEqual(ko.status, 65)
        XCTAssertTrue(ko.stdout.contains("  내용이 바뀐 첨부 파일: " + attachments.path), ko.stdout)
        XCTAssertTrue(ko.stdout.contains("  기록 없는 첨부 파일: "), ko.stdout)
        XCTAssertFalse(ko.stdout.contains("bad-hash"), ko.stdout)
        let ja = try run(["--lang", "ja", "check"])
        XCTAssertTrue(ja.stdout.contains("  内容が変わった添付ファイル：" + attachments.path), ja.stdout)
        XCTAssertTrue(ja.stdout.contains("  記録のない添付ファイル："), ja.stdout)
        let json = try run(["--lang", "ja", "check", "--json"])
        XCTAssertEqual(json.status, 65)
        XCTAssertTrue(json.stdout.contains("\"kind\" : \"bad-hash\""), json.stdout)
        XCTAssertTrue(json.stdout.contains("\"kind\" : \"orphan-file\""), json.stdout)

        // --repair moves only the orphan, into the quarantine folder it names; the damaged photo is reported, never touched.
        let repair = try run(["check", "--repair"])
        XCTAssertEqual(repair.status, 65)
        XCTAssertFalse(FileManager.default.fileExists(atPath: attachments.appendingPathComponent("stray-file").path))
        let quarantine = try XCTUnwrap(try FileManager.default.subpathsOfDirectory(atPath: home.appendingPathComponent("data/petlog.sqlite.quarantine").path)
            .first { $0.hasSuffix("/stray-file") })
        XCTAssertTrue(repair.stdout.contains(home.appendingPathComponent("data/petlog.sqlite.quarantine").path), repair.stdout)
        XCTAssertEqual(try Data(contentsOf: home.appendingPathComponent("data/petlog.sqlite.quarantine/" + quarantine)), Data("stray".utf8))
        XCTAssertTrue(FileManager.default.fileExists(atPath: storedURL.path))
        try original.write(to: storedURL)
        XCTAssertEqual(try ok("check"), "")
        try FileManager.default.removeItem(at: storedURL)
        XCTAssertTrue(try run(["check"]).stdout.contains("missing-file: "))
    }

    func testBackupIsAPrivateCopyThatOpens() throws {
        try requireDatabaseFile()
        try ok("demo", "--end", "2026-11-20")
        let copy = home.appendingPathComponent("backup.sqlite").path
        XCTAssertTrue(try ok("backup", "-o", copy).contains(copy))
        let attrs = try FileManager.default.attributesOfItem(atPath: copy)
        XCTAssertEqual((attrs[.posixPermissions] as? NSNumber)?.intValue, 0o600)
        let original = try run(["log", "--json", "--since", "2026-10-01"]).stdout
        let fromCopy = try run(["--db", copy, "log", "--json", "--since", "2026-10-01"], useDefaultDB: true).stdout
        XCTAssertEqual(original, fromCopy)
        XCTAssertEqual(try run(["backup", "-o", copy]).status, 73, "an existing file is not overwritten")
    }
}

final class ExportCommandTests: CLITestCase {
    func testExportHasEveryPetAndRecordInCanonicalUnits() throws {
        try ok("demo", "--end", "2026-11-20")
        try ok("pet", "archive", "Mochi", "--reason", "rehomed")
        let path = home.appendingPathComponent("all.json").path
        let out = try ok("export", "-o", path)
        let doc = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: path))) as? [String: Any])
        XCTAssertEqual(doc["format"] as? String, "petlog")
        XCTAssertEqual((doc["units"] as? [String: String])?["weight"], "g")
        let pets = try XCTUnwrap(doc["pets"] as? [[String: Any]])
        XCTAssertEqual(pets.count, 3, "archived pets are exported too")
        let records = try XCTUnwrap(doc["records"] as? [[String: Any]])
        XCTAssertTrue(out.contains("Exported \(grouped(records.count)) records"), "one grouped count format: \(out)")
        let all = try XCTUnwrap(json("log") as? [[String: Any]])
        XCTAssertEqual(records.count, all.count)
        XCTAssertEqual(Set(records.compactMap { $0["kind"] as? String }).count, 13, "every kind (walk the thirteenth)")
        XCTAssertEqual(records.map { $0["id"] as? Int ?? 0 }, records.map { $0["id"] as? Int ?? 0 }.sorted(), "id order")
        let attrs = try FileManager.default.attributesOfItem(atPath: path)
        XCTAssertEqual((attrs[.posixPermissions] as? NSNumber)?.intValue, 0o600)
        // The same data gives the same file.
        let again = home.appendingPathComponent("again.json").path
        try ok("export", "-o", again)
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: path)), try Data(contentsOf: URL(fileURLWithPath: again)))
        XCTAssertEqual(try run(["export", "-o", "/nonexistent/x.json"]).status, 73)
    }
}
