import Foundation
import XCTest

/// Truncated and malicious import files: each is refused with one line naming the file (and the line
/// when there is one), exit 65 or 66, no crash, and the database file byte-identical.
final class ImportHostileTests: CLITestCase {
    override func setUpWithError() throws {
        try super.setUpWithError()
        try ok("pet", "add", "Coco", "--species", "dog")
        try ok("weight", "Coco", "4.2kg")
    }

    func file(_ name: String, _ bytes: [UInt8]) throws -> String {
        let p = home.appendingPathComponent(name).path
        FileManager.default.createFile(atPath: p, contents: Data(bytes))
        return p
    }
    func file(_ name: String, _ text: String) throws -> String { try file(name, Array(text.utf8)) }

    func refuse(_ args: [String], code: Int32 = 65, mentions: String, file: StaticString = #filePath, line: UInt = #line) throws {
        let before = try fileHash(dbPath)
        let r = try run(["import"] + args)
        XCTAssertEqual(r.status, code, "\(args): \(r.stderr)", file: file, line: line)
        XCTAssertEqual(r.stdout, "", file: file, line: line)
        XCTAssertEqual(r.stderr.split(separator: "\n").count, 1, r.stderr, file: file, line: line)
        XCTAssertTrue(r.stderr.contains(mentions), "\(r.stderr) should mention \(mentions)", file: file, line: line)
        XCTAssertEqual(try fileHash(dbPath), before, "database changed by \(args)", file: file, line: line)
    }

    static let header = "{\"format\": \"petlog\", \"schema\": \"v1\", \"units\": {\"weight\": \"g\", \"money\": \"minor units\"},\n\"pets\": [\n"
    static let pet = "{\"id\": 1, \"name\": \"Rex\", \"species\": \"dog\", \"sex\": \"male\", \"neutered\": false}\n"
    func json(_ record: String) -> String {
        Self.header + Self.pet + "],\n\"records\": [\n" + record + "\n]}\n"
    }
    func weight(_ detail: String, at: String = "2026-11-20T08:30:00+09:00", extra: String = "") -> String {
        "{\"id\": 1, \"pet_id\": 1, \"kind\": \"weight\", \"at\": \"\(at)\", \"utc_offset_seconds\": 32400, \"note\": null, \"starred\": false, \"attachments\": []\(extra), \"weight\": \(detail)}"
    }

    func testMaliciousJSON() throws {
        try refuse([try file("a.json", json(weight("{\"grams\": -5}")))], mentions: "a.json:6")
        try refuse([try file("b.json", json(weight("{\"grams\": 1e30}")))], mentions: "b.json:6")
        try refuse([try file("c.json", json(weight("{\"grams\": 99999999999999999999999}")))], mentions: "c.json:6")
        try refuse([try file("d.json", json(weight("{\"grams\": 4200}", at: "2026-02-30T08:30:00+09:00")))], mentions: "2026-02-30")
        try refuse([try file("e.json", json(weight("{\"grams\": 4200}", at: "2026-11-20T08:30:00+99:00")))], mentions: "e.json:6")
        let evil = ", \"attachments\": [{\"sha256\": \"../../../../etc/passwd\", \"name\": \"x\", \"media_type\": \"text/plain\", \"size\": 1}]"
        try refuse([try file("f.json", json(weight("{\"grams\": 4200}").replacingOccurrences(of: ", \"attachments\": []", with: evil)))], mentions: "f.json:6")
        let missing = ", \"attachments\": [{\"sha256\": \"\(String(repeating: "ab", count: 32))\", \"name\": \"x\", \"media_type\": \"text/plain\", \"size\": 1}]"
        try refuse([try file("g.json", json(weight("{\"grams\": 4200}").replacingOccurrences(of: ", \"attachments\": []", with: missing))), "--strict"], mentions: "--attachments")
        try refuse([try file("h.json", json(String(repeating: "[", count: 100_000)))], mentions: "h.json:6")
        try refuse([try file("i.json", json(weight("{\"grams\": 4200}").replacingOccurrences(of: "\"note\": null", with: "\"note\": \"\(String(repeating: "x", count: 1_000_000))\"")))],
                   mentions: "i.json:6")
        try refuse([try file("j.json", Self.header + "{\"id\": 1, \"name\": \"R\\u001b[31mex\", \"species\": \"dog\"}\n")], mentions: "j.json:3")
        try refuse([try file("k.json", Self.header + Self.pet)], mentions: "k.json")  // truncated: no records, no end
        try refuse([try file("l.json", json(weight("{\"grams\": 4200}").replacingOccurrences(of: "\"pet_id\": 1", with: "\"pet_id\": 2")))], mentions: "\"2\"")
        try refuse([try file("m.json", "{}")], mentions: "m.json")
        try refuse([try file("n.json", "{\"format\": \"petlog\"" + String(repeating: " ", count: 10) + "\n")], mentions: "n.json")
    }

    func testMaliciousCSV() throws {
        try refuse([try file("a.csv", "date,weight_kg\n2026-11-01,4.1\n\"2026-11-02,4.2\n"), "--pet", "Coco"], mentions: "a.csv:3")
        try refuse([try file("b.csv", [0x64, 0x61, 0x74, 0x65, 0x2C, 0x6E, 0x6F, 0x74, 0x65, 0x0A, 0xC3, 0x28, 0x2C, 0x31, 0x0A]), "--pet", "Coco", "--columns", "date,weight"],
                   mentions: "b.csv:2")
        try refuse([try file("c.csv", "date,weight_kg\n2026-11-01,nan\n"), "--pet", "Coco"], mentions: "c.csv:2")
        try refuse([try file("d.csv", "date,weight_kg\n2026-11-01,1e3\n"), "--pet", "Coco"], mentions: "d.csv:2")
        try refuse([try file("e.csv", "date,weight_kg\n2026-11-01,-4\n"), "--pet", "Coco"], mentions: "e.csv:2")
        try refuse([try file("f.csv", "date,weight_kg\n2026-11-01,4000000\n"), "--pet", "Coco"], mentions: "f.csv:2")
        try refuse([try file("g.csv", "date,weight_kg\n2026-11-01,4\u{0}2\n"), "--pet", "Coco"], mentions: "g.csv:2")
        try refuse([try file("h.csv", ""), "--pet", "Coco"], mentions: "h.csv")
        try refuse([try file("i.csv", "date,weight_kg\n2026-11-01,4.1\n"), "--pet", "Nobody"], code: 66, mentions: "Nobody")
        try refuse(["/dev/zero", "--pet", "Coco"], code: 66, mentions: "zero")
        // A folder of tables whose weights point at a pet the folder does not have.
        let dir = home.appendingPathComponent("tables")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        _ = try file("tables/pets.csv", "pet_id,name,species\n1,Rex,dog\n")
        _ = try file("tables/weights.csv", "pet_id,measured_at,weight_kg\n1,2024-01-01T08:00:00,4.0\n9,2024-01-02T08:00:00,4.1\n")
        try refuse([dir.path], mentions: "weights.csv:3")
        _ = try file("tables/weights.csv", "pet_id,measured_at,weight_kg\n1,2024-01-01T08:00:00,4.0\n")
        _ = try file("tables/pets.csv", "pet_id,name,species\n1,Rex,dragon\n")
        try refuse([dir.path], mentions: "pets.csv:2")
        let empty = home.appendingPathComponent("empty")
        try FileManager.default.createDirectory(at: empty, withIntermediateDirectories: true)
        try refuse([empty.path], mentions: "empty")
    }
}
