import Foundation
import XCTest
import PetlogTestSupport

final class RecordCommandsTests: CLITestCase {
    func testTheDailyFlowFromTheIssue() throws {
        XCTAssertEqual(try ok("pet", "add", "Coco", "--species", "dog", "--breed", "Maltese", "--sex", "female", "--neutered",
                              "--born", "2019-04-02", "--chip", "900123456789012"), "Added Coco (id 1).\n")
        XCTAssertTrue(try ok("weight", "Coco", "4.2kg").hasPrefix("#1 weight for Coco: 4.20 kg"))
        try ok("weight", "Coco", "4200g", "--at", "yesterday")
        try ok("weight", "Coco", "9.3lb", "--at", "2026-11-20 08:30")
        try ok("weight", "Coco", "9lb 4oz")
        try ok("meal", "Coco", "chicken kibble", "80g", "--snack")
        try ok("stool", "Coco", "4", "--blood", "--mucus")
        try ok("urine", "Coco", "--color", "yellow", "--straining")
        try ok("symptom", "Coco", "vomiting", "--severity", "3")
        let a = home.appendingPathComponent("a.jpg"), b = home.appendingPathComponent("b.jpg")
        try Data([0xFF, 0xD8, 0xFF, 1]).write(to: a)
        try Data([0xFF, 0xD8, 0xFF, 2]).write(to: b)
        try ok("diary", "Coco", "first snow walk", "--photo", a.path, "--photo", b.path)
        let lab = home.appendingPathComponent("lab.pdf")
        try Data("%PDF-1.4 results".utf8).write(to: lab)
        try ok("visit", "Coco", "--clinic", "Happy Vet", "--reason", "checkup", "--diagnosis", "healthy", "--weight", "4.3kg",
               "--follow-up", "2026-12-20", "--attach", lab.path)
        try ok("vaccine", "Coco", "rabies", "--next", "2027-11-20", "--lot", "A123")
        try ok("med", "start", "Coco", "Heartgard", "--dose", "1 chew", "--every", "30d")
        try ok("med", "give", "Coco", "Heartgard")
        XCTAssertTrue(try ok("med", "list").contains("Heartgard"))

        let records = try XCTUnwrap(json("log", "Coco") as? [[String: Any]])
        XCTAssertEqual(records.count, 13)
        let weights = records.filter { $0["kind"] as? String == "weight" }.compactMap { ($0["weight"] as? [String: Any])?["grams"] as? Int }
        XCTAssertEqual(weights, [4218, 4200, 4200, 4196], "ordered by time: 11-20, yesterday, then the two of today")
        let first = try XCTUnwrap(records.first)
        XCTAssertEqual(first["at"] as? String, "2026-11-20T08:30:00+09:00")
        let diary = try XCTUnwrap(records.first { $0["kind"] as? String == "diary" })
        XCTAssertEqual((diary["attachments"] as? [[String: Any]])?.count, 2)

        let timeline = try ok("log", "--since", "2d", "--kind", "weight,symptom")
        XCTAssertTrue(timeline.contains("Nov 22, 2026 Sun"), timeline)
        XCTAssertTrue(timeline.contains("vomiting · severity 3/5"), timeline)
        XCTAssertFalse(timeline.contains("kibble"), timeline)
        XCTAssertFalse(timeline.contains("Nov 20, 2026"), timeline)

        let search = try ok("search", "HAPPY vet")
        XCTAssertTrue(search.contains("visit"), search)
        try ok("star", "9")
        XCTAssertTrue(try ok("starred").contains("first snow walk"))
        try ok("unstar", "9")
        XCTAssertFalse(try ok("starred").contains("first snow walk"))
        XCTAssertTrue(try ok("edit", "1", "--weight", "4.25kg", "--note", "after walk").contains("4.25 kg"))
        XCTAssertTrue(try ok("delete", "2").contains("#2"))
        XCTAssertEqual(try run(["delete", "2"]).status, 66)
        XCTAssertTrue(try ok("pet", "show", "coco").contains("900123456789012"))
    }

    func testManyPetsAtOnceAndPetManagement() throws {
        try ok("pet", "add", "Coco", "--species", "dog")
        try ok("pet", "add", "Nabi", "--species", "cat")
        try ok("med", "start", "Coco,Nabi", "Bravecto", "--every", "12w")
        XCTAssertEqual(try ok("med", "give", "Coco,Nabi", "bravecto").split(separator: "\n").count, 2)
        try ok("pet", "edit", "Nabi", "--breed", "Korean Shorthair", "--name", "Nabi-ya")
        XCTAssertTrue(try ok("pet", "list").contains("Korean Shorthair"))
        try ok("pet", "archive", "Coco", "--reason", "passed-away")
        XCTAssertFalse(try ok("pet", "list").contains("Coco"))
        XCTAssertTrue(try ok("pet", "list", "--all").contains("passed away"))
        XCTAssertEqual(try run(["weight", "Coco", "4kg"]).status, 65, "an archived pet takes no new records")
        XCTAssertEqual(try run(["pet", "remove", "Coco"]).status, 64, "removal needs --yes")
        XCTAssertTrue(try ok("pet", "remove", "Coco", "--yes").contains("Removed Coco"))
        let pets = try XCTUnwrap(json("pet", "list", "--all") as? [[String: Any]])
        XCTAssertEqual(pets.map { $0["name"] as? String }, ["Nabi-ya"])
    }

    func testDatabaseLocationFollowsEnvironment() throws {
        let viaEnv = home.appendingPathComponent("env/p.sqlite").path
        XCTAssertEqual(try run(["pet", "add", "Coco", "--species", "dog"], env: ["PETLOG_DB": viaEnv], useDefaultDB: true).status, 0)
        XCTAssertTrue(FileManager.default.fileExists(atPath: viaEnv))
        XCTAssertEqual(try run(["pet", "add", "Nabi", "--species", "cat"], env: ["XDG_DATA_HOME": home.appendingPathComponent("xdg").path], useDefaultDB: true).status, 0)
        XCTAssertTrue(FileManager.default.fileExists(atPath: home.appendingPathComponent("xdg/petlog/petlog.sqlite").path))
        XCTAssertEqual(try run(["pet", "add", "Mochi", "--species", "ferret"], useDefaultDB: true).status, 0)
        XCTAssertTrue(FileManager.default.fileExists(atPath: home.appendingPathComponent(".local/share/petlog/petlog.sqlite").path))
        // Global options go before or after the subcommand.
        let other = home.appendingPathComponent("other.sqlite").path
        XCTAssertEqual(try run(["--db", other, "pet", "add", "A", "--species", "dog"], useDefaultDB: true).status, 0)
        XCTAssertEqual(try run(["pet", "list", "--db", other, "--json"], useDefaultDB: true).stdout.contains("\"A\""), true)
    }

    func testDemoIsRealisticAndRepeatable() throws {
        let out = try ok("demo", "--end", "2026-11-20", "--seed", "3")
        XCTAssertTrue(out.contains("3 pets"), out)
        let pets = try XCTUnwrap(json("pet", "list") as? [[String: Any]])
        XCTAssertEqual(Set(pets.compactMap { $0["species"] as? String }), ["dog", "cat", "ferret"])
        let log1 = try ok("log", "--json", "--since", "2026-10-01")
        let second = home.appendingPathComponent("second.sqlite").path
        XCTAssertEqual(try run(["--db", second, "demo", "--end", "2026-11-20", "--seed", "3"], useDefaultDB: true).status, 0)
        let log2 = try run(["--db", second, "log", "--json", "--since", "2026-10-01"], useDefaultDB: true).stdout
        XCTAssertEqual(log1, log2)
        XCTAssertEqual(try run(["demo"]).status, 73, "the demo refuses a database with pets")
    }
}
