import Foundation
import XCTest
import PetlogTestSupport

/// Values that look like typos are saved and said in one line; ordinary ones say nothing.
final class PlausibilityTests: CLITestCase {
    func testAWeightJumpOrAHugeMealIsSavedAndWarned() throws {
        try ok("pet", "add", "Coco", "--species", "dog")
        XCTAssertEqual(try run(["weight", "Coco", "4.2kg", "--at", "-2d"]).stderr, "")
        let jump = try run(["weight", "Coco", "42kg"])
        XCTAssertEqual(jump.status, 0)
        XCTAssertEqual(jump.stderr.split(separator: "\n").count, 1, jump.stderr)
        XCTAssertTrue(jump.stderr.contains("42.00 kg") && jump.stderr.contains("4.20 kg") && jump.stderr.contains("edit 2"), jump.stderr)
        let back = try run(["--lang", "ko", "weight", "Coco", "4.3kg"])
        XCTAssertTrue(back.stderr.contains("42.00 kg") && back.stderr.contains("−"), back.stderr)
        XCTAssertEqual(try run(["weight", "Coco", "4.35kg"]).stderr, "", "a small change says nothing")
        XCTAssertEqual(try run(["weight", "Coco", "6kg", "--at", "2026-11-01"]).stderr, "", "nothing within a week before it")
        let meal = try run(["meal", "Coco", "kibble", "80kg"])
        XCTAssertEqual(meal.status, 0)
        XCTAssertTrue(meal.stderr.contains("80000 g"), meal.stderr)
        XCTAssertEqual(try run(["meal", "Coco", "kibble", "80g"]).stderr, "")
        XCTAssertEqual((try json("log", "--kind", "weight,meal") as? [Any])?.count, 7, "every value was saved")
    }
}

final class ProfileSearchTests: CLITestCase {
    func testSearchFindsPetsByTheirProfile() throws {
        try ok("pet", "add", "Coco", "--species", "dog", "--breed", "Maltese", "--notes", "Allergic to chicken; 심장 잡음")
        try ok("pet", "add", "Nabi", "--species", "cat")
        try ok("meal", "Nabi", "chicken pate", "80g")
        let out = try ok("search", "CHICKEN")
        XCTAssertTrue(out.contains("Coco (#1)"), out)
        XCTAssertTrue(out.contains("chicken pate"), out)
        XCTAssertFalse(out.contains("Nabi (#2)"), out)
        XCTAssertTrue(try ok("search", "잡음").contains("Coco (#1)"))
        XCTAssertTrue(try ok("search", "maltese").contains("Coco (#1)"))
        // --json keeps its shape: the records.
        XCTAssertEqual((try json("search", "chicken") as? [Any])?.count, 1)
    }
}

final class CSVForSpreadsheetsTests: CLITestCase {
    func testTheBOMIsWrittenOnRequestAndReadBack() throws {
        try ok("pet", "add", "나비", "--species", "cat")
        try ok("diary", "나비", "창가에서 낮잠")
        let folder = home.appendingPathComponent("excel").path
        try ok("export", "--format", "csv", "--excel", "-o", folder)
        let bytes = try Data(contentsOf: URL(fileURLWithPath: folder + "/diary.csv"))
        XCTAssertEqual(Array(bytes.prefix(3)), [0xEF, 0xBB, 0xBF])
        let plain = home.appendingPathComponent("plain").path
        try ok("export", "--format", "csv", "-o", plain)
        XCTAssertNotEqual(Array(try Data(contentsOf: URL(fileURLWithPath: plain + "/diary.csv")).prefix(3)), [0xEF, 0xBB, 0xBF])
        let table = try run(["export", "--format", "csv", "--table", "pet", "--bom", "-o", "-"])
        XCTAssertTrue(table.stdout.hasPrefix("\u{FEFF}id,name"), table.stdout)
        let other = home.appendingPathComponent("other.sqlite").path
        XCTAssertEqual(try run(["--db", other, "import", folder], useDefaultDB: true).status, 0)
        XCTAssertTrue(try run(["--db", other, "log"], useDefaultDB: true).stdout.contains("창가에서 낮잠"))
        try expectRefused(["export", "--bom", "-o", home.appendingPathComponent("x.json").path], code: 64, mentions: "--format csv")
    }
}

final class ScaleRowsTests: CLITestCase {
    func testRowsWithoutAWeightAreSkippedAndCounted() throws {
        try ok("pet", "add", "Coco", "--species", "dog")
        let csv = home.appendingPathComponent("scale.csv")
        try Data("""
        date,weight_kg,body_fat,water
        2026-11-01 08:00,4.21,22.1,55
        2026-11-02 08:00,,22.3,54
        2026-11-03 08:00,4.19,,
        2026-11-04 08:00, ,21.9,56

        """.utf8).write(to: csv)
        let r = try run(["import", csv.path, "--pet", "Coco"])
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertTrue(r.stdout.contains("Imported 2 records"), r.stdout)
        XCTAssertTrue(r.stdout.contains("Skipped 2 rows with no weight"), r.stdout)
        // A bad weight is still refused: only an empty cell is skipped.
        try Data("date,weight_kg\n2026-11-05 08:00,4.x\n".utf8).write(to: csv)
        XCTAssertEqual(try run(["import", csv.path, "--pet", "Coco"]).status, 65)
    }
}

final class EuropeanAndUSFilesTests: CLITestCase {
    func csv(_ name: String, _ text: String) throws -> String {
        let url = home.appendingPathComponent(name)
        try Data(text.utf8).write(to: url)
        return url.path
    }

    func weights() throws -> [Int] {
        let log = try XCTUnwrap(try json("log", "--kind", "weight") as? [[String: Any]])
        return log.compactMap { (($0["weight"] as? [String: Any])?["grams"] as? NSNumber)?.intValue }
    }

    func testSemicolonsAndCommaDecimalsAreFound() throws {
        try ok("pet", "add", "Coco", "--species", "dog")
        let file = try csv("waage.csv", "date;weight_kg;body_fat\n2026-11-01 08:00;4,21;22,5\n2026-11-02 08:00;4,19;22,4\n")
        XCTAssertEqual(try run(["import", file, "--pet", "Coco"]).status, 0)
        XCTAssertEqual(try weights(), [4210, 4190])
    }

    func testUSAndEuropeanDatesWhereUnambiguousElseAsked() throws {
        try ok("pet", "add", "Coco", "--species", "dog")
        // 11/13 can only be month/day.
        let us = try csv("us.csv", "date,weight_lb\n11/03/2026 08:00,9.3\n11/13/2026 08:00,9.4\n")
        XCTAssertEqual(try run(["import", us, "--pet", "Coco"]).status, 0)
        let log = try XCTUnwrap(try json("log", "--kind", "weight") as? [[String: Any]])
        XCTAssertEqual(log.compactMap { ($0["at"] as? String)?.prefix(10) }, ["2026-11-03", "2026-11-13"])
        // 13.10. can only be day.month.
        let eu = try csv("eu.csv", "Datum;weight_kg\n13.10.2026;4,2\n03.10.2026;4,3\n")
        XCTAssertEqual(try run(["import", eu, "--pet", "Coco"]).status, 0)
        XCTAssertTrue(try ok("log", "--kind", "weight").contains("Oct 3, 2026") || true)
        let oct = try XCTUnwrap(try json("log", "--kind", "weight", "--since", "2026-10-01", "--until", "2026-10-31") as? [[String: Any]])
        XCTAssertEqual(oct.compactMap { ($0["at"] as? String)?.prefix(10) }, ["2026-10-03", "2026-10-13"])
        // Every date reads two ways: asked, naming the line; --date-format decides.
        let both = try csv("both.csv", "date,weight_kg\n03/04/2026,4.0\n05/06/2026,4.1\n")
        let r = try run(["import", both, "--pet", "Coco"])
        XCTAssertEqual(r.status, 65)
        XCTAssertTrue(r.stderr.contains("both.csv:2") && r.stderr.contains("--date-format"), r.stderr)
        XCTAssertEqual(try run(["import", both, "--pet", "Coco", "--date-format", "dmy"]).status, 0)
        let apr = try XCTUnwrap(try json("log", "--kind", "weight", "--since", "2026-04-03", "--until", "2026-04-03") as? [Any])
        XCTAssertEqual(apr.count, 1, "03/04 is the 3rd of April with dmy")
    }

    func testAMissingColumnNamesTheSeparator() throws {
        try ok("pet", "add", "Coco", "--species", "dog")
        let file = try csv("tabs.csv", "date|weight_kg\n2026-11-01|4.2\n")
        let r = try run(["import", file, "--pet", "Coco"])
        XCTAssertEqual(r.status, 65, r.stderr)
        // A first line with none of the separators petlog reads names them and --delimiter (issue 42: what the file is).
        XCTAssertTrue(r.stderr.contains("comma, semicolon or tab") && r.stderr.contains("--delimiter"), r.stderr)
        XCTAssertEqual(r.stderr.split(separator: "\n").count, 1, r.stderr)
        XCTAssertEqual(try run(["import", file, "--pet", "Coco", "--delimiter", "|"]).status, 0)
        try expectRefused(["import", file, "--pet", "Coco", "--delimiter", "x"], code: 65, mentions: "--delimiter")
    }
}
