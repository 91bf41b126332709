import Foundation
import XCTest
import PetlogTestSupport

/// `petlog export --format fhir`: an HL7 FHIR R4 bundle that the `fhir.resources` library (6.5.0, R4)
/// reads back, whose references resolve inside it, whose resources match the store's counts, and whose
/// bytes depend on the data only. Both stores.
final class FHIRExportTests: CLITestCase {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    struct Summary: Decodable {
        var counts: [String: Int]
        var bcs: Int
        var walks: Int
        var diagnoses: Int
        var weights_kg: [Double]
    }

    /// Runs Tests/petlogTests/Fixtures/fhir_check.py on `path` with the library `make setup` puts in
    /// `.build/python-fhir` (skipped where it is not installed).
    func validate(_ path: String, file: StaticString = #filePath, line: UInt = #line) throws -> Summary {
        let env = URL(fileURLWithPath: "/usr/bin/env")
        let own = ProcessInfo.processInfo.environment
        let vars = ["HOME": own["HOME"] ?? "/root", "PATH": own["PATH"] ?? "/usr/bin:/bin",
                    "PYTHONPATH": Self.root.appendingPathComponent(".build/python-fhir").path]
        if try launch(env, ["python3", "-c", "import fhir.resources"], env: vars).status != 0 {
            throw XCTSkip("fhir.resources not installed in .build/python-fhir (make setup installs it)")
        }
        let script = Self.root.appendingPathComponent("Tests/petlogTests/Fixtures/fhir_check.py").path
        let r = try launch(env, ["python3", script, path], env: vars)
        XCTAssertEqual(r.status, 0, r.stderr, file: file, line: line)
        return try JSONDecoder().decode(Summary.self, from: Data(r.stdout.utf8))
    }

    /// The petlog JSON export's pets and records, to count against.
    func store() throws -> (pets: [[String: Any]], records: [[String: Any]]) {
        let r = try run(["export", "-o", "-"])
        XCTAssertEqual(r.status, 0, r.stderr)
        let doc = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any])
        return (doc["pets"] as? [[String: Any]] ?? [], doc["records"] as? [[String: Any]] ?? [])
    }

    func expectCounts(_ s: Summary, pets: [[String: Any]], records: [[String: Any]], file: StaticString = #filePath, line: UInt = #line) {
        func kind(_ k: String) -> [[String: Any]] { records.filter { $0["kind"] as? String == k } }
        let weights = kind("weight")
        let bcs = weights.filter { ($0["weight"] as? [String: Any])?["body_condition"] is Int }.count
        let diagnoses = kind("visit").filter { ($0["visit"] as? [String: Any])?["diagnosis"] is String }.count
        let allergies = pets.map { ($0["allergies"] as? [Any])?.count ?? 0 }.reduce(0, +)
        let conditions = pets.map { ($0["conditions"] as? [Any])?.count ?? 0 }.reduce(0, +)
        let vets = pets.filter { $0["vet_contact"] is [String: Any] }.count
        let insured = pets.filter { $0["insurance"] is [String: Any] }.count
        let expected: [String: Int] = [
            "Patient": pets.count, "Observation": weights.count + bcs + kind("walk").count, "Immunization": kind("vaccination").count,
            "MedicationStatement": kind("medication").count, "Encounter": kind("visit").count,
            "AllergyIntolerance": allergies, "Condition": conditions + diagnoses, "Organization": vets, "Coverage": insured,
        ].filter { $0.value > 0 }
        XCTAssertEqual(s.counts, expected, file: file, line: line)
        XCTAssertEqual(s.bcs, bcs, file: file, line: line)
        XCTAssertEqual(s.walks, kind("walk").count, file: file, line: line)
        XCTAssertEqual(s.diagnoses, diagnoses, file: file, line: line)
        let grams = weights.compactMap { ($0["weight"] as? [String: Any])?["grams"] as? Int }
        XCTAssertEqual(s.weights_kg.map { Int(($0 * 1000).rounded()) }, grams, file: file, line: line)
    }

    func testTheDemoHouseholdIsAValidBundleMatchingTheStore() throws {
        try ok("demo", "--end", "2026-11-20")
        let path = home.appendingPathComponent("clinic.json").path
        let out = try ok("export", "--format", "fhir", "-o", path)
        XCTAssertTrue(out.hasPrefix("Wrote "), out)
        let s = try validate(path)
        let (pets, records) = try store()
        expectCounts(s, pets: pets, records: records)
        XCTAssertEqual(s.counts["AllergyIntolerance"], 2)
        let text = try String(contentsOfFile: path, encoding: .utf8)
        for expected in ["\"system\":\"http://snomed.info/sct\",\"code\":\"448771007\"", "\"code\":\"29463-7\"", "\"birthDate\":\"2019-04-02\"",
                         "\"value\":\"900123456789012\"", "\"text\":\"chicken\"", "\"effectiveDateTime\":\"20"] {
            XCTAssertTrue(text.contains(expected), "bundle lacks \(expected)")
        }
        // The same data, the same bytes; standard output gives them too (the summary on stderr).
        let again = home.appendingPathComponent("again.json").path
        try ok("export", "--format", "fhir", "-o", again)
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: again)), try Data(contentsOf: URL(fileURLWithPath: path)))
        let piped = try run(["export", "--format", "fhir", "-o", "-"])
        XCTAssertEqual(piped.stdout, text)
        XCTAssertTrue(piped.stderr.contains("FHIR"), piped.stderr)
        // In Korean too.
        let ko = try run(["export", "--format", "fhir", "-o", again], env: ["PETLOG_LANG": "ko"])
        XCTAssertTrue(ko.stdout.contains("FHIR 리소스"), ko.stdout)
    }

    func testOnePetAndHostileValues() throws {
        try ok("pet", "add", "'; $(rm -rf ~) \"코코\" 🐶", "--species", "rabbit", "--breed", "Holland Lop 🐰", "--sex", "m",
               "--allergy", "닭고기", "--allergy", "🥜 peanuts \\ \"quoted\"", "--condition", "心雑音", "--vet-contact", "동물병원 😺, +82 (2) 555-0142 ext. 9",
               "--emergency-contact", "山田, 090-5550-1234", "--insurance", "보험, ")
        try ok("pet", "add", "·", "--species", "other")
        try ok("pet", "add", "Big", "--species", "dog", "--born", "2020")
        try ok("weight", "Big", "1000kg", "--bcs", "9", "--at", "2026-11-20 08:00")
        try ok("weight", "Big", "9999g", "--at", "2026-11-21 08:00", "--tz", "America/St_Johns")
        try ok("weight", "·", "1g", "--at", "2026-11-20 08:00")
        try ok("vaccine", "Big", "rabies", "--lot", "L-1 \"x\"", "--next", "2027-11-20", "--at", "2026-11-01")
        try ok("visit", "Big", "--reason", "limp 🦴", "--diagnosis", "Patella\nluxation", "--clinic", "Clinic <b>", "--at", "2026-11-02")
        try ok("med", "start", "Big", "Carprofen", "--dose", "2 mg/kg", "--every", "12h")
        let all = home.appendingPathComponent("all.json").path
        try ok("export", "--format", "fhir", "-o", all)
        let (pets, records) = try store()
        expectCounts(try validate(all), pets: pets, records: records)

        let one = home.appendingPathComponent("one.json").path
        try ok("export", "--format", "fhir", "--pet", "Big", "--pet", "big", "-o", one)
        let s = try validate(one)
        let bigId = try XCTUnwrap(pets.first { $0["name"] as? String == "Big" }?["id"] as? Int)
        expectCounts(s, pets: pets.filter { $0["id"] as? Int == bigId }, records: records.filter { $0["pet_id"] as? Int == bigId })
        XCTAssertEqual(s.weights_kg, [1000, 9.999])
        let text = try String(contentsOfFile: one, encoding: .utf8)
        XCTAssertTrue(text.contains("\"effectiveDateTime\":\"2026-11-21T08:00:00-03:30\""), text)
        XCTAssertFalse(text.contains("코코"))
        // A pet that is not there, and --pet with another format: refused, nothing written.
        let missing = home.appendingPathComponent("missing.json").path
        XCTAssertEqual(try run(["export", "--format", "fhir", "--pet", "Nobody", "-o", missing]).status, 66)
        XCTAssertFalse(FileManager.default.fileExists(atPath: missing))
        let wrong = try run(["export", "--pet", "Big", "-o", missing])
        XCTAssertEqual(wrong.status, 64, wrong.stderr)
        XCTAssertTrue(wrong.stderr.contains("--format fhir"), wrong.stderr)
    }

    /// Every address derives from the database's own random namespace: two new databases with the same pet
    /// give different addresses (a clinic merging two households' bundles no longer merges their pets), the
    /// same database gives the same bytes twice, and a household moved by export and import keeps its
    /// addresses; the bundle still validates. On both stores (a second database of the same kind).
    func testAddressesAreTheDatabasesOwnAndSurviveAMove() throws {
        func another(_ name: String) throws -> String {
            if onServer { return TestServer.url(try TestServer.shared().createDatabase()) }
            return home.appendingPathComponent("data/\(name).sqlite").path
        }
        let second = try another("second"), moved = try another("moved")
        for db in [dbPath, second] {
            XCTAssertEqual(try run(["--db", db, "pet", "add", "Coco", "--species", "dog"], useDefaultDB: true).status, 0)
            XCTAssertEqual(try run(["--db", db, "weight", "Coco", "4.2kg"], useDefaultDB: true).status, 0)
        }
        func bundle(_ db: String) throws -> String {
            let r = try run(["--db", db, "export", "--format", "fhir", "-o", "-"], useDefaultDB: true)
            XCTAssertEqual(r.status, 0, r.stderr)
            return r.stdout
        }
        func addresses(_ text: String) -> [String] {
            let doc = (try? JSONSerialization.jsonObject(with: Data(text.utf8))) as? [String: Any]
            return (doc?["entry"] as? [[String: Any]] ?? []).compactMap { $0["fullUrl"] as? String }
        }
        let first = try bundle(dbPath)
        XCTAssertEqual(addresses(first).count, 2)
        XCTAssertTrue(Set(addresses(first)).isDisjoint(with: addresses(try bundle(second))), "two households share no address")
        XCTAssertEqual(try bundle(dbPath), first, "the same database gives the same bytes")
        // Moved by the JSON export (which carries the namespace) into a new database: the same bundle.
        let json = home.appendingPathComponent("household.json").path
        XCTAssertEqual(try run(["--db", dbPath, "export", "-o", json], useDefaultDB: true).status, 0)
        XCTAssertTrue(try String(contentsOfFile: json, encoding: .utf8).contains("\"namespace\": \""))
        let imported = try run(["--db", moved, "import", json], useDefaultDB: true)
        XCTAssertEqual(imported.status, 0, imported.stderr)
        XCTAssertEqual(try bundle(moved), first, "a moved household keeps its addresses")
        let file = home.appendingPathComponent("coco.fhir.json").path
        try first.write(toFile: file, atomically: true, encoding: .utf8)
        _ = try validate(file)
    }

    func testAnEmptyStoreIsAnEmptyValidBundle() throws {
        try ok("pet", "add", "Solo", "--species", "cat")
        try ok("pet", "remove", "Solo", "--yes")
        let path = home.appendingPathComponent("empty.json").path
        XCTAssertEqual(try run(["export", "--format", "fhir", "-o", path]).status, 0)
        XCTAssertEqual(try validate(path).counts, [:])
    }
}
