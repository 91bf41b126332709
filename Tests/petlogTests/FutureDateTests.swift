import Foundation
import XCTest
import PetlogTestSupport

/// What happened cannot be dated in the future (README, Decisions: "Dates"); days counted from a
/// record's date cannot precede it. Each refusal is one line, exit 65, and the file unchanged.
final class FutureDateTests: CLITestCase {
    func testFutureObservationsBirthsAndReversedDaysAreRefused() throws {
        try ok("pet", "add", "Coco", "--species", "dog")
        try ok("med", "start", "Coco", "Heartgard", "--every", "30d")
        let id = try ok("weight", "Coco", "4kg", "--at", "-1d")
        let recordId = String(id.split(separator: " ")[0].dropFirst())
        // Pinned now: 2026-11-23 10:00 Seoul. A day alone may be today (noon, later than now); an instant 10 min ahead.
        try ok("weight", "Coco", "4kg", "--at", "2026-11-23")
        try ok("weight", "Coco", "4kg", "--at", "10:09")
        for args in [["weight", "Coco", "4kg", "--at", "2030-01-01"], ["weight", "Coco", "4kg", "--at", "10:30"],
                     ["symptom", "Coco", "vomiting", "--at", "2026-11-24"], ["meal", "Coco", "kibble", "--at", "9999-12-31"],
                     ["visit", "Coco", "--at", "2027-01-01"], ["vaccine", "Coco", "rabies", "--date", "2027-01-01"],
                     ["med", "give", "Coco", "Heartgard", "--at", "2026-11-24 08:00"], ["edit", recordId, "--at", "2031-01-01"]] {
            try expectRefused(args, code: 65, mentions: "is in the future")
        }
        try expectRefused(["pet", "add", "Mo", "--born", "2027"], code: 65, mentions: "is in the future")
        try expectRefused(["pet", "edit", "Coco", "--born", "2026-12"], code: 65, mentions: "is in the future")
        try expectRefused(["med", "start", "Coco", "Apoquel", "--every", "1d", "--until", "2026-11-01"], code: 65, mentions: "--until 2026-11-01 is before 2026-11-23")
        try expectRefused(["vaccine", "Coco", "rabies", "--next", "2026-01-01"], code: 65, mentions: "--next 2026-01-01 is before")
        try expectRefused(["visit", "Coco", "--follow-up", "2026-11-01"], code: 65, mentions: "--follow-up 2026-11-01 is before")
        try expectRefused(["weight", "Coco", "4kg", "--at", "2030-01-01", "--lang", "ko"], code: 65, mentions: "미래입니다")
        try expectRefused(["weight", "Coco", "4kg", "--at", "2030-01-01", "--lang", "ja"], code: 65, mentions: "未来の日時です")
        // A course may start later; a birth this month is fine.
        try ok("med", "start", "Coco", "Apoquel", "--every", "1d", "--at", "2026-12-01")
        try ok("pet", "add", "Puppy", "--species", "dog", "--born", "2026-11")
    }

    /// An import holds the same rules as the command line (an exported file from a machine whose clock
    /// ran ahead, a spreadsheet with a typo in the year): refused with the file and line, nothing written.
    func testImportsRefuseFutureObservationsAndBirths() throws {
        try ok("pet", "add", "Coco", "--species", "dog")
        func write(_ name: String, _ text: String) throws -> String {
            let url = home.appendingPathComponent(name)
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try text.write(to: url, atomically: true, encoding: .utf8)
            return url.deletingLastPathComponent().path
        }
        // A smart scale's CSV, the bulk weight path.
        _ = try write("scale.csv", "date,weight_kg\n2026-11-01,4.1\n2036-11-02,4.2\n")
        let scale = home.appendingPathComponent("scale.csv").path
        try expectRefused(["import", scale, "--pet", "Coco"], code: 65, mentions: "scale.csv:3")
        // Spreadsheet tables: weights, symptoms, a birth, a vaccination whose next day precedes it.
        let cases: [(String, String, String)] = [
            ("weights.csv", "pet_id,measured_at,weight_kg\n1,2026-11-01 08:00,4.1\n1,2026-11-24 08:00,4.1\n", "weights.csv:3"),
            ("symptoms.csv", "pet_id,observed_at,symptom,severity\n1,2099-01-01 08:00,vomiting,2\n", "symptoms.csv:2"),
            ("vaccinations.csv", "pet_id,given_on,vaccine,valid_until\n1,2026-11-01,rabies,2025-11-01\n", "vaccinations.csv:2"),
        ]
        for (i, (file, text, mention)) in cases.enumerated() {
            _ = try write("t\(i)/pets.csv", "pet_id,name,species,birth_date\n1,Bori,dog,2020-01-01\n")
            let folder = try write("t\(i)/\(file)", text)
            try expectRefused(["import", folder], code: 65, mentions: mention)
        }
        let born = try write("born/pets.csv", "pet_id,name,species,birth_date\n1,Bori,dog,2020-01-01\n2,Mo,cat,2027-03-01\n")
        try expectRefused(["import", born], code: 65, mentions: "pets.csv:3")
        // A petlog export with one record moved into the future.
        try ok("weight", "Coco", "4kg", "--at", "2026-11-20")
        let out = home.appendingPathComponent("all.json").path
        try ok("export", "-o", out)
        let text = try String(contentsOfFile: out, encoding: .utf8)
        XCTAssertTrue(text.contains("2026-11-20"), text)
        try text.replacingOccurrences(of: "2026-11-20", with: "2046-11-20").write(toFile: out, atomically: true, encoding: .utf8)
        let other = home.appendingPathComponent("other.sqlite").path
        let r = try run(["--db", other, "import", out], useDefaultDB: true)
        checkRefusal(r, code: 65, mentions: "is in the future", "import of a future export")
        XCTAssertFalse(FileManager.default.fileExists(atPath: other), "a refused import created \(other)")
        // Today's records and this month's birth are fine.
        _ = try write("fine/pets.csv", "pet_id,name,species,birth_date\n1,Bori,dog,2026-11\n")
        let fine = try write("fine/weights.csv", "pet_id,measured_at,weight_kg\n1,2026-11-23 10:05,4.1\n")
        try ok("import", fine)
    }
}
