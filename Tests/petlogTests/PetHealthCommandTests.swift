import Foundation
import XCTest
import PetlogTestSupport

/// Issue 33: a pet's allergies, conditions, contacts and insurance as data (`pet add`/`pet edit`), shown,
/// reported, exported and imported, undone and checked, on both stores.
final class PetHealthCommandTests: CLITestCase {
    func exportJSON() throws -> String {
        let path = home.appendingPathComponent("state-\(UUID().uuidString).json").path
        try ok("export", "-o", path)
        return try String(contentsOfFile: path, encoding: .utf8)
    }

    func testAddEditShowAndRemoveTheFacts() throws {
        try ok("pet", "add", "Coco", "--species", "dog", "--allergy", "chicken", "--allergy", "닭고기 🐔", "--condition", "heart murmur",
               "--vet-contact", "Happy Clinic, 02-555-0142", "--emergency-contact", "Kim, Lee & Park, +82 10-5550-1234",
               "--insurance", "PetCare Mutual, PC-118830", "--notes", "Allergic to chicken (old note)")
        let shown = try ok("pet", "show", "Coco")
        for expected in ["Allergies", "chicken, 닭고기 🐔", "Conditions", "heart murmur", "Emergency contact", "Kim, Lee & Park, +82 10-5550-1234",
                         "Vet", "Happy Clinic, 02-555-0142", "Insurance", "PetCare Mutual, PC-118830", "Allergic to chicken (old note)"] {
            XCTAssertTrue(shown.contains(expected), "pet show lacks \(expected):\n\(shown)")
        }
        let ko = try run(["pet", "show", "Coco"], env: ["PETLOG_LANG": "ko"]).stdout
        for expected in ["알레르기", "지병", "긴급 연락처", "동물병원", "반려동물 보험"] { XCTAssertTrue(ko.contains(expected), "ko lacks \(expected):\n\(ko)") }
        let ja = try run(["pet", "show", "Coco"], env: ["PETLOG_LANG": "ja"]).stdout
        for expected in ["アレルギー", "持病", "緊急連絡先", "動物病院", "ペット保険"] { XCTAssertTrue(ja.contains(expected), "ja lacks \(expected):\n\(ja)") }

        // The same allergy in another case is not added twice; removal is by the item, in any case.
        try ok("pet", "edit", "Coco", "--allergy", "CHICKEN", "--allergy", "beef", "--no-condition", "Heart Murmur", "--condition", "CKD stage 2",
               "--emergency-contact", "Jiwoo, 010-5550-9999")
        var obj = try XCTUnwrap(try json("pet", "show", "Coco") as? [String: Any])
        XCTAssertEqual(obj["allergies"] as? [String], ["chicken", "닭고기 🐔", "beef"])
        XCTAssertEqual(obj["conditions"] as? [String], ["CKD stage 2"])
        XCTAssertEqual((obj["vet_contact"] as? [String: String]), ["name": "Happy Clinic", "phone": "02-555-0142"])
        XCTAssertEqual((obj["emergency_contacts"] as? [[String: String]])?.map { $0["name"] ?? "" }, ["Kim, Lee & Park", "Jiwoo"])
        XCTAssertEqual((obj["insurance"] as? [String: String])?["policy"], "PC-118830")
        XCTAssertEqual(obj["notes"] as? String, "Allergic to chicken (old note)")

        // The same name again replaces the phone; removal by name; empty clears the vet and the insurance.
        try ok("pet", "edit", "Coco", "--emergency-contact", "jiwoo, 010-5550-0000", "--no-emergency-contact", "Kim, Lee & Park",
               "--vet-contact", "", "--insurance", "", "--no-allergy", "닭고기 🐔")
        obj = try XCTUnwrap(try json("pet", "show", "Coco") as? [String: Any])
        XCTAssertEqual(obj["emergency_contacts"] as? [[String: String]], [["name": "jiwoo", "phone": "010-5550-0000"]])
        XCTAssertTrue(obj["vet_contact"] is NSNull)
        XCTAssertTrue(obj["insurance"] is NSNull)
        XCTAssertEqual(obj["allergies"] as? [String], ["chicken", "beef"])
        XCTAssertFalse(try ok("pet", "show", "Coco").contains("Insurance"))
    }

    func testBadFactsAreRefusedWithOneLineAndNoChange() throws {
        try ok("pet", "add", "Coco", "--species", "dog", "--allergy", "chicken")
        let before = try exportJSON()
        let cases: [([String], String)] = [
            (["--vet-contact", "Dr Kim"], "NAME, PHONE"),
            (["--vet-contact", "Dr Kim, call me"], "NAME, PHONE"),
            (["--emergency-contact", ", 010-5550-1234"], "NAME, PHONE"),
            (["--no-allergy", "beef"], "no allergy \"beef\" to remove"),
            (["--no-emergency-contact", "Nobody"], "to remove"),
            (["--allergy", "   "], "allergy"),
            (["--condition", "a\u{1B}[31mred"], "condition"),
            (["--allergy", String(repeating: "x", count: 201)], "allergy"),
        ]
        for (args, expected) in cases {
            let r = try run(["pet", "edit", "Coco"] + args)
            XCTAssertEqual(r.status, 65, "\(args): \(r.stderr)")
            XCTAssertEqual(r.stderr.split(separator: "\n").count, 1, "\(args): \(r.stderr)")
            XCTAssertTrue(r.stderr.contains(expected), "\(args): \(r.stderr)")
            XCTAssertFalse(r.stderr.contains("\u{1B}"), "\(args): \(r.stderr)")
        }
        let many = (1...21).flatMap { ["--allergy", "item \($0)"] }
        let r = try run(["pet", "edit", "Coco"] + many)
        XCTAssertEqual(r.status, 65, r.stderr)
        XCTAssertTrue(r.stderr.contains("at most 20"), r.stderr)
        let ko = try run(["pet", "edit", "Coco", "--vet-contact", "김 선생님"], env: ["PETLOG_LANG": "ko"])
        XCTAssertTrue(ko.stderr.contains("이름, 전화번호"), ko.stderr)
        let ja = try run(["pet", "edit", "Coco", "--no-allergy", "牛肉"], env: ["PETLOG_LANG": "ja"])
        XCTAssertTrue(ja.stderr.contains("削除するアレルギー「牛肉」がありません"), ja.stderr)
        XCTAssertEqual(try exportJSON(), before)
    }

    func testEachChangeIsUndoneToTheByte() throws {
        try ok("pet", "add", "Coco", "--species", "dog")
        var states = [try exportJSON()]
        let steps: [[String]] = [
            ["pet", "edit", "Coco", "--allergy", "chicken", "--allergy", "penicillin"],
            ["pet", "edit", "Coco", "--condition", "luxating patella"],
            ["pet", "edit", "Coco", "--vet-contact", "Happy Clinic, 02-555-0142"],
            ["pet", "edit", "Coco", "--emergency-contact", "Jiwoo Kim, 010-5550-1234"],
            ["pet", "edit", "Coco", "--insurance", "PetCare, PC-1"],
            ["pet", "edit", "Coco", "--no-allergy", "chicken", "--no-emergency-contact", "Jiwoo Kim"],
            ["pet", "add", "Nabi", "--species", "cat", "--allergy", "fish"],
        ]
        for step in steps {
            let r = try run(step)
            XCTAssertEqual(r.status, 0, "\(step): \(r.stderr)")
            states.append(try exportJSON())
        }
        XCTAssertTrue(states[5].contains("\"insurance\":{\"insurer\":\"PetCare\",\"policy\":\"PC-1\"}"), states[5])
        for i in stride(from: steps.count, to: 0, by: -1) {
            try ok("undo")
            XCTAssertEqual(try exportJSON(), states[i - 1], "after undoing \(steps[i - 1])")
        }
        XCTAssertEqual(try run(["check"]).status, 0)
    }

    /// export → import into an empty database → export gives the same bytes, JSON and CSV.
    func testExportImportRoundTripsTheFacts() throws {
        try ok("demo", "--end", "2026-11-20")
        try ok("pet", "edit", "Nabi", "--condition", "심장 잡음", "--emergency-contact", "山田 花子, +81 90-5550-1234", "--insurance", "アニコム")
        let json = home.appendingPathComponent("all.json").path
        try ok("export", "-o", json)
        let text = try String(contentsOfFile: json, encoding: .utf8)
        XCTAssertTrue(text.contains("\"allergies\":[\"chicken\",\"penicillin\"]"), text.prefix(2000).description)
        XCTAssertTrue(text.contains("\"insurance\":{\"insurer\":\"アニコム\",\"policy\":null}"))
        let csv = home.appendingPathComponent("tables").path
        try ok("export", "--format", "csv", "-o", csv)
        let petCSV = try String(contentsOfFile: csv + "/pet.csv", encoding: .utf8)
        XCTAssertTrue(petCSV.hasPrefix("id,name,species,breed,sex,neutered,born,microchip,color,notes,archived_on,archive_reason,allergies,conditions,vet_contact,emergency_contacts,insurance\r\n"), petCSV)
        XCTAssertTrue(petCSV.contains("\"chicken\npenicillin\""), petCSV)

        for source in [json, csv] {
            if onServer { serverDatabase = try TestServer.shared().createDatabase() } else {
                try FileManager.default.removeItem(at: home.appendingPathComponent("data"))
            }
            try ok("import", source)
            let again = home.appendingPathComponent("again-\(UUID().uuidString).json").path
            try ok("export", "-o", again)
            XCTAssertEqual(try withoutNamespace(again), try withoutNamespace(json), "re-export after importing \(source)")
            if source == json { XCTAssertEqual(try String(contentsOfFile: again, encoding: .utf8), text, "the JSON carries the namespace") }
            let csvAgain = home.appendingPathComponent("tables-\(UUID().uuidString)").path
            try ok("export", "--format", "csv", "-o", csvAgain)
            XCTAssertEqual(try String(contentsOfFile: csvAgain + "/pet.csv", encoding: .utf8), petCSV)
        }
    }

    func testImportRefusesBadFactsAndReadsOldFiles() throws {
        try ok("pet", "add", "Coco", "--species", "dog", "--notes", "Allergic to chicken")
        let file = home.appendingPathComponent("all.json").path
        try ok("export", "-o", file)
        let text = try String(contentsOfFile: file, encoding: .utf8)
        // A file written before the facts existed (no such keys) imports with none, its notes as they were.
        let old = text.replacingOccurrences(of: "\"allergies\":[],", with: "").replacingOccurrences(of: "\"conditions\":[],", with: "")
            .replacingOccurrences(of: "\"emergency_contacts\":[],", with: "").replacingOccurrences(of: "\"insurance\":null,", with: "")
            .replacingOccurrences(of: ",\"vet_contact\":null", with: "")
        XCTAssertFalse(old.contains("vet_contact"))
        let oldFile = home.appendingPathComponent("old.json").path
        try old.write(toFile: oldFile, atomically: true, encoding: .utf8)
        let bad = text.replacingOccurrences(of: "\"vet_contact\":null", with: "\"vet_contact\":{\"name\":\"Dr Kim\",\"phone\":\"none\"}")
        let badFile = home.appendingPathComponent("bad.json").path
        try bad.write(toFile: badFile, atomically: true, encoding: .utf8)
        let split = text.replacingOccurrences(of: "\"allergies\":[]", with: "\"allergies\":[\"a\\nb\"]")
        let splitFile = home.appendingPathComponent("split.json").path
        try split.write(toFile: splitFile, atomically: true, encoding: .utf8)
        try ok("pet", "remove", "Coco", "--yes")
        for file in [badFile, splitFile] {
            let r = try run(["import", file])
            XCTAssertEqual(r.status, 65, r.stderr)
            XCTAssertTrue(r.stderr.contains("nothing was imported"), r.stderr)
        }
        try ok("import", oldFile)
        let obj = try XCTUnwrap((try json("pet", "show", "Coco")) as? [String: Any])
        XCTAssertEqual(obj["notes"] as? String, "Allergic to chicken")
        XCTAssertEqual(obj["allergies"] as? [String], [])
    }

    func testTheDemoCocoHasFactsAndTheReportUsesThem() throws {
        try ok("demo", "--end", "2026-11-20")
        let shown = try ok("pet", "show", "Coco")
        XCTAssertTrue(shown.contains("chicken, penicillin"), shown)
        XCTAssertTrue(shown.contains("Seoul Animal Medical Center, 02-555-0142"), shown)
        let pdf = home.appendingPathComponent("coco.pdf").path
        try ok("report", "Coco", "-o", pdf, "--since", "1y", "--date", "2026-11-23")
        let text = try pdfText(pdf).split(whereSeparator: \.isNewline).joined(separator: " ")
        for expected in ["Allergies: chicken, penicillin", "Conditions: luxating patella", "Emergency contact", "Jiwoo Kim, 010-5550-1234",
                         "PetCare Mutual, PC-2024-118830", "Anxious at the clinic"] {
            XCTAssertTrue(text.contains(expected), "report lacks \(expected)")
        }
        let koPDF = home.appendingPathComponent("coco-ko.pdf").path
        XCTAssertEqual(try run(["report", "Coco", "-o", koPDF, "--since", "1y", "--date", "2026-11-23"], env: ["PETLOG_LANG": "ko"]).status, 0)
        XCTAssertTrue(try pdfText(koPDF).contains("알레르기: chicken, penicillin"))
    }

    func testCheckFindsAFactPetlogNeverWrites() throws {
        try ok("pet", "add", "Coco", "--species", "dog", "--allergy", "chicken")
        let sql = "UPDATE pet SET allergies = 'chicken' || chr(10) || 'CHICKEN', emergency_contacts = 'Kim' WHERE id = 1"
        if let name = serverDatabase {
            let server = try TestServer.shared()
            let r = try TestServer.shell(["/usr/lib/postgresql/15/bin/psql", "-X", "-q", "-v", "ON_ERROR_STOP=1", "-h", server.folder, "-p", server.port,
                                          "-U", "postgres", "-d", name, "-c", sql.replacingOccurrences(of: "UPDATE pet", with: "UPDATE petlog.pet")])
            XCTAssertEqual(r.status, 0, r.stdout)
        } else {
            _ = try tool("sqlite3", [dbPath, sql.replacingOccurrences(of: "chr(10)", with: "char(10)")])
        }
        let r = try run(["check"])
        XCTAssertNotEqual(r.status, 0)
        XCTAssertTrue((r.stdout + r.stderr).contains("pet #1 allergies"), r.stdout + r.stderr)
    }
}
