import Foundation
import XCTest
import PetlogTestSupport

/// A value petlog never writes, put into the file with the sqlite3 tool: a read refuses it in one
/// localized line naming table, id and column (exit 65, nothing changed), and `check` lists it.
final class InvalidStoredValueCommandTests: CLITestCase {
    override class var onOneStoreOnly: String? { "puts the values in with the sqlite3 tool (RepositoryTests covers the server)" }
    func sqlite(_ sql: String, file: StaticString = #filePath, line: UInt = #line) throws {
        let r = try launch(URL(fileURLWithPath: "/usr/bin/sqlite3"), [dbPath, sql])
        XCTAssertEqual(r.status, 0, r.stderr, file: file, line: line)
    }

    /// `check`'s lines, the first (which names the database) cut to what follows its colon.
    func problemLines(_ stdout: String) -> [String] {
        var lines = stdout.split(separator: "\n").map(String.init)
        if let first = lines.first, first.hasPrefix(dbPath + ": ") { lines[0] = String(first.dropFirst(dbPath.count + 2)) }
        return lines
    }

    func testAnUnknownSpeciesIsOneLineInEveryLanguageAndCheckNamesIt() throws {
        try ok("pet", "add", "Coco", "--species", "dog")
        try ok("pet", "add", "Nabi", "--species", "cat")
        try sqlite("UPDATE pet SET species = 'dragon' WHERE name = 'Nabi'")
        let en = try expectRefused(["pet", "list"], code: 65, mentions: "pet #2 has species 'dragon'")
        XCTAssertTrue(en.stderr.contains(dbPath) && en.stderr.contains("petlog check"), en.stderr)
        try expectRefused(["pet", "show", "Nabi"], code: 65, mentions: "pet #2 has species 'dragon'")
        let ko = try expectRefused(["--lang", "ko", "pet", "list"], code: 65, mentions: "pet #2의 species 값 'dragon'")
        XCTAssertTrue(ko.stderr.contains("petlog가 쓰지 않는 값"), ko.stderr)
        let ja = try expectRefused(["--lang", "ja", "pet", "list"], code: 65, mentions: "pet #2 の species に petlog が書かない値 'dragon'")
        XCTAssertTrue(ja.stderr.contains("petlog check"), ja.stderr)

        let check = try run(["check"])
        XCTAssertEqual(check.status, 65, check.stderr)
        XCTAssertEqual(problemLines(check.stdout), ["1 problem", "  invalid-value: pet #2 species: 'dragon'"])
        let json = try run(["check", "--json"])
        XCTAssertTrue(json.stdout.contains("\"kind\":\"invalid-value\"") || json.stdout.contains("\"kind\" : \"invalid-value\""), json.stdout)
        // --repair cannot guess the pet's species: the value is left for the user, and still reported.
        let repair = try run(["check", "--repair"])
        XCTAssertEqual(repair.status, 65)
        XCTAssertEqual(problemLines(repair.stdout), ["1 problem", "  invalid-value: pet #2 species: 'dragon'"])
    }

    func testAMealTypeThePastCheckWouldRefuseIsNotReadAsAMeal() throws {
        try ok("pet", "add", "Coco", "--species", "dog")
        try ok("meal", "Coco", "kibble", "80g", "--at", "-1h")
        try sqlite("PRAGMA ignore_check_constraints = ON; UPDATE meal SET type = 'brunch'")
        try expectRefused(["log", "Coco"], code: 65, mentions: "meal #1 has type 'brunch'")
        try expectRefused(["stats", "Coco"], code: 65, mentions: "meal #1 has type 'brunch'")
        let check = try run(["check"])
        XCTAssertEqual(check.status, 65)
        // SQLite's own integrity check names the table whose CHECK it breaks; petlog's line names the row.
        XCTAssertEqual(check.stdout.split(separator: "\n").filter { $0.hasPrefix("  invalid-value") }, ["  invalid-value: meal #1 type: 'brunch'"])
        // Put right by hand, everything reads again.
        try sqlite("UPDATE meal SET type = 'meal'")
        XCTAssertTrue(try ok("log", "Coco").contains("kibble"))
        XCTAssertEqual(try run(["check"]).stdout, "")
    }

    func testMedicationTimesThatDoNotParseAreNotAnEmptySchedule() throws {
        try ok("pet", "add", "Coco", "--species", "dog")
        try ok("med", "start", "Coco", "Amoxicillin", "--times", "08:00,20:00", "--at", "-1h")
        try sqlite("UPDATE medication SET times = '8 and 20'")
        try expectRefused(["med", "list", "Coco"], code: 65, mentions: "medication #1 has times '8 and 20'")
        try expectRefused(["due", "Coco"], code: 65, mentions: "medication #1 has times '8 and 20'")
        XCTAssertEqual(problemLines(try run(["check"]).stdout), ["1 problem", "  invalid-value: medication #1 times: '8 and 20'"])
    }
}
