import Foundation
import XCTest
import PetlogTestSupport

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

    /// Records of every kind are read from their bytes (`JSONRecordReading`): hostile ones get the messages
    /// the decoder gave, a key twice is refused, and escapes and Hangul arrive as written.
    func testHostileRecordsOnTheByteReader() throws {
        func record(_ kind: String, _ detail: String, extra: String = "") -> String {
            "{\"id\": 1, \"pet_id\": 1, \"kind\": \"\(kind)\", \"at\": \"2026-11-20T08:30:00+09:00\", \"note\": null, \"starred\": false\(extra), \"\(kind)\": \(detail)}"
        }
        // Cut short inside a record, on its second line.
        try refuse([try file("t1.json", Self.header + Self.pet + "],\n\"records\": [\n" + record("diary", "{\"text\":\n \"walk")) ], mentions: "t1.json:7")
        try refuse([try file("t2.json", Self.header + Self.pet + "],\n\"records\": [\n" + weight("{\"grams\": 42"))], mentions: "t2.json:6")
        // Wrong types, in the shared keys and in each kind's object.
        try refuse([try file("w1.json", json(weight("{\"grams\": \"4200\"}")))], mentions: "w1.json:6")
        try refuse([try file("w2.json", json(weight("{\"grams\": 4200}").replacingOccurrences(of: "\"starred\": false", with: "\"starred\": 1")))], mentions: "w2.json:6")
        try refuse([try file("w3.json", json(record("diary", "{\"text\": 5}")))], mentions: "w3.json:6")
        try refuse([try file("w4.json", json(record("visit", "{\"reason\": \"x\", \"cost\": \"12\"}")))], mentions: "w4.json:6")
        try refuse([try file("w5.json", json(record("expense", "{\"money\": {\"minor_units\": 500, \"currency\": \"EUR\"}, \"category\": \"food\", \"items\": [1]}")))],
                   mentions: "w5.json:6")
        try refuse([try file("w6.json", json(record("grooming", "{\"tasks\": \"bath\"}")))], mentions: "w6.json:6")
        try refuse([try file("w7.json", json(record("diary", "[\"walk\"]")))], mentions: "w7.json:6")
        // A kind petlog does not know, and a kind without its object.
        try refuse([try file("k1.json", json(record("swim", "{\"km\": 3}")))], mentions: "swim")
        try refuse([try file("k2.json", json(record("diary", "null")))], mentions: "k2.json:6")
        // Numbers beyond what a column holds, or beyond a Double.
        try refuse([try file("n1.json", json(weight("{\"grams\": 4200}").replacingOccurrences(of: "\"id\": 1", with: "\"id\": 99999999999999999999")))], mentions: "n1.json:6")
        try refuse([try file("n2.json", json(record("meal", "{\"food\": \"kibble\", \"type\": \"meal\", \"amount\": 1e400, \"amount_unit\": \"g\"}")))], mentions: "n2.json:6")
        try refuse([try file("n3.json", json(record("symptom", "{\"code\": \"vomiting\", \"listed\": true, \"severity\": 1.5}")))], mentions: "n3.json:6")
        // A key twice, in the record or in its object, and a lone surrogate.
        try refuse([try file("d1.json", json(weight("{\"grams\": 4200}", extra: ", \"note\": \"x\"")))], mentions: "d1.json:6")
        try refuse([try file("d2.json", json(weight("{\"grams\": 4200, \"grams\": 10}")))], mentions: "d2.json:6")
        try refuse([try file("d3.json", json(record("diary", "{\"text\": \"a\"}", extra: ", \"diary\": {\"text\": \"b\"}")))], mentions: "d3.json:6")
        try refuse([try file("s1.json", json(record("diary", "{\"text\": \"a\\ud800b\"}")))], mentions: "s1.json:6")

        // Escapes (a surrogate pair among them), Hangul as bytes, numbers the decoder also takes, keys in any order.
        let diary = record("diary", "{\"mood\": null, \"text\": \"산책 \\uc0b0\\ucc45 \\ud83d\\udc36 \\\"q\\\" \\/.\"}")
        let meal = "{\"meal\": {\"food\": \"\\u0044ry f\\u00f6od\", \"type\": \"snack\", \"amount\": 12.5e1, \"amount_unit\": \"g\"}, \"kind\": \"meal\", \"id\": 2, \"pet_id\": 1, \"at\": \"2026-11-20T09:30:00+09:00\"}"
        let weight2 = weight("{\"grams\": 4.2e3, \"body_condition\": 5}").replacingOccurrences(of: "\"id\": 1", with: "\"id\": 3")
        let good = try file("good.json", Self.header + Self.pet + "],\n\"records\": [\n" + [diary, meal, weight2].joined(separator: ",\n") + "\n]}\n")
        try ok("import", good)
        try ok("export", "-o", home.appendingPathComponent("out.json").path)
        let out = try String(contentsOf: home.appendingPathComponent("out.json"), encoding: .utf8)
        XCTAssertTrue(out.contains("산책 산책 🐶 \\\"q\\\" /."), out)
        XCTAssertTrue(out.contains("Dry föod"), out)
        XCTAssertTrue(out.contains("\"body_condition\":5,\"grams\":4200"), out)
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
