import Foundation
import XCTest
import PetModel
@testable import PetStore

/// The export's Codable types and the scanner that cuts a document into pets and records.
final class PetlogJSONTests: XCTestCase {
    func demoRecords() throws -> (pets: [Pet], records: [PetRecord]) {
        let repo = SQLiteRepository(try AppDatabase.inMemory())
        _ = try DemoHousehold(seed: 7, end: LocalDate(year: 2026, month: 11, day: 20)!, timeZone: TimeZone(identifier: "Asia/Seoul")!).seed(into: repo)
        var records: [PetRecord] = []
        try repo.forEachRecordBatch { records += $0 }
        return (try repo.pets(includeArchived: true), records)
    }

    func testEveryKindDecodesToWhatWasEncoded() throws {
        let (pets, records) = try demoRecords()
        XCTAssertEqual(Set(records.map(\.kind)), Set(RecordKind.allCases), "the demo should hold every kind")
        let encoder = PetlogJSON.encoder(), decoder = PetlogJSON.decoder()
        for r in records {
            let exported = ExportedRecord(r)
            let data = try encoder.encode(exported)
            XCTAssertEqual(try decoder.decode(ExportedRecord.self, from: data), exported, String(decoding: data, as: UTF8.self))
            // Nulls are written, not left out: every key of the documented shape is there.
            let object = try XCTUnwrap(try JSONSerialization.jsonObject(with: data) as? [String: Any])
            XCTAssertEqual(Set(object.keys), ["id", "pet_id", "pet", "kind", "at", "utc_offset_seconds", "note", "starred", "attachments", r.kind.rawValue])
        }
        for p in pets {
            let data = try encoder.encode(ExportedPet(p))
            XCTAssertEqual(try decoder.decode(ExportedPet.self, from: data), ExportedPet(p))
            XCTAssertEqual(try XCTUnwrap(try JSONSerialization.jsonObject(with: data) as? [String: Any]).count, 12)
        }
    }

    /// The bytes JSONSerialization wrote before the Codable types (sorted keys, no escaped slashes) for
    /// a record whose strings need escaping: the format did not change under the new encoder.
    func testBytesMatchTheSerializationTheFormatWasDefinedBy() throws {
        let (_, records) = try demoRecords()
        var r = try XCTUnwrap(records.first { $0.kind == .visit && { if case .visit(let v) = $0.detail { return v.cost != nil } else { return false } }($0) })
        r.note = "a/b \"quoted\" \\ tab\t line\n é 한 \u{1}"
        let encoded = try PetlogJSON.encoder().encode(ExportedRecord(r))
        let object = try JSONSerialization.jsonObject(with: encoded)
        let reference = try JSONSerialization.data(withJSONObject: object, options: [.sortedKeys, .withoutEscapingSlashes])
        XCTAssertEqual(String(decoding: encoded, as: UTF8.self), String(decoding: reference, as: UTF8.self))
    }

    func scan(_ text: String) throws -> [(String, Int)] {
        let bytes = Array(text.utf8)
        return try bytes.withUnsafeBufferPointer { buffer in
            var s = JSONScanner(bytes: buffer, file: "t.json")
            var out: [(String, Int)] = []
            while true {
                s.skipWhitespace()
                if s.atEnd { return out }
                let line = s.line
                out.append((String(decoding: try s.value(), as: UTF8.self), line))
            }
        }
    }

    func testScannerFindsWholeValuesAndTheirLines() throws {
        let found = try scan("{\"a\": \"}]\\\"[{\", \"b\": [1, {\"c\": null}]}\n\n  [\n true\n]\n\"x\\\\\" -12.5e3 null")
        XCTAssertEqual(found.map(\.0), ["{\"a\": \"}]\\\"[{\", \"b\": [1, {\"c\": null}]}", "[\n true\n]", "\"x\\\\\"", "-12.5e3", "null"])
        XCTAssertEqual(found.map(\.1), [1, 3, 6, 6, 6])
    }

    func testScannerRefusesBrokenValuesWithTheirLine() throws {
        for (text, line) in [("{\"a\": [1, 2}", 1), ("\n[\"open", 2), ("\n\n\"raw\nbreak\"", 3), (String(repeating: "[", count: 100_000), 1), ("]", 1)] {
            XCTAssertThrowsError(try scan(text), text) { error in
                XCTAssertEqual((error as? ImportError)?.problem, .badJSON, text)
                XCTAssertEqual((error as? ImportError)?.location.line, line, text)
            }
        }
    }
}
