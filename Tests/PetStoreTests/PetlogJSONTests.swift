import Foundation
import XCTest
import PetlogTestSupport
import PetModel
@testable import PetFiles
@testable import PetStoreCore
@testable import PetTransfer
@testable import PetStoreSQLite

/// The export's types (written by `JSONBytes`, read by their members) and the scanner that cuts a document into pets and records.
final class PetlogJSONTests: StoreTestCase {
    func demoRecords() throws -> (pets: [Pet], records: [PetRecord]) {
        let repo = try makeStore()
        _ = try DemoHousehold(seed: 7, end: LocalDate(year: 2026, month: 11, day: 20)!, timeZone: TimeZone(identifier: "Asia/Seoul")!).seed(into: repo)
        var records: [PetRecord] = []
        try repo.forEachRecordBatch { records += $0 }
        return (try repo.pets(includeArchived: true), records)
    }

    func testEveryKindDecodesToWhatWasEncoded() throws {
        let (pets, records) = try demoRecords()
        XCTAssertEqual(Set(records.map(\.kind)), Set(RecordKind.allCases), "the demo should hold every kind")
        for r in records {
            let data = Data(try JSONBytes.record(r))
            // Read back from the bytes: the values written.
            let (read, _, _) = try Array(data).withUnsafeBufferPointer { try JSONRecordReading.read($0, from: 0) }
            let at = SourceLocation(file: "a.json", line: 1)
            var shared = FieldValues()
            shared.put("id", r.id); shared.put("pet_id", r.petId); shared.put("kind", r.kind.rawValue); shared.put("at", RFC3339.text(r.at, offset: r.utcOffset))
            shared.put("note", r.note); shared.put("starred", r.starred)
            shared.put("created_at", RFC3339.format(seconds: r.createdAt.unixSeconds(), offset: 0)); shared.put("updated_at", RFC3339.format(seconds: r.updatedAt.unixSeconds(), offset: 0))
            XCTAssertEqual(read.fields(at).values, shared.values, String(decoding: data, as: UTF8.self))
            XCTAssertEqual(read.detailFields(at)?.values, ExportedDetail(r.detail).values, String(decoding: data, as: UTF8.self))
            XCTAssertEqual(read.attachments, r.attachments.enumerated().map { i, a in var a = a; a.position = i; return a })
            // Nulls are written, not left out: every key of the documented shape is there.
            let object = try XCTUnwrap(try JSONSerialization.jsonObject(with: data) as? [String: Any])
            XCTAssertEqual(Set(object.keys), ["id", "pet_id", "pet", "kind", "at", "utc_offset_seconds", "note", "starred", "attachments",
                                              "created_at", "updated_at", r.kind.rawValue])
        }
        XCTAssertTrue(pets.contains { $0.health.insurance != nil && !$0.health.emergencyContacts.isEmpty && $0.health.vetContact != nil }, "the demo should have a pet with every fact")
        for p in pets {
            let bytes = try JSONBytes.pet(p)
            // Read back by the pet's members: the pet written.
            var scanner = JSONScanner(bytes: bytes, file: "p.json")
            let values = try XCTUnwrap(try scanner.read { r in try r.members(ExportShape.pet.members, ExportShape.pet.keys) })
            let read = try JSONRecordReading.fields(ExportShape.pet.members, values, SourceLocation(file: "p.json", line: 1)).pet()
            XCTAssertEqual(read.fileId, p.id)
            XCTAssertEqual([read.name, read.breed, read.microchip, read.color, read.notes], [p.name, p.breed, p.microchip, p.color, p.notes])
            XCTAssertEqual(read.species, p.species); XCTAssertEqual(read.sex, p.sex); XCTAssertEqual(read.neutered, p.neutered); XCTAssertEqual(read.born, p.born)
            XCTAssertEqual(read.archivedOn, p.archivedOn); XCTAssertEqual(read.archiveReason, p.archiveReason); XCTAssertEqual(read.health, p.health)
            XCTAssertEqual(read.createdAt, p.createdAt.unixSeconds()); XCTAssertEqual(read.updatedAt, p.updatedAt.unixSeconds())
            XCTAssertEqual(try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(bytes)) as? [String: Any]).count, 19)
        }
    }

    /// The bytes JSONSerialization wrote before the Codable types (sorted keys, no escaped slashes), for
    /// every demo record and pet and for text that needs escaping: the format did not change under the
    /// export's own writer.
    func testBytesMatchTheSerializationTheFormatWasDefinedBy() throws {
        let (pets, records) = try demoRecords()
        var r = try XCTUnwrap(records.first { $0.kind == .visit && { if case .visit(let v) = $0.detail { return v.cost != nil } else { return false } }($0) })
        r.note = "a/b \"quoted\" \\ tab\t line\n é 한 \u{2028} \u{7F} 🐕 " + String(decoding: (0..<0x20).map { UInt8($0) }, as: UTF8.self)
        func reference(_ encoded: [UInt8]) throws -> String {
            let object = try JSONSerialization.jsonObject(with: Data(encoded))
            return String(decoding: try JSONSerialization.data(withJSONObject: object, options: [.sortedKeys, .withoutEscapingSlashes]), as: UTF8.self)
        }
        for record in records + [r] {
            let encoded = try JSONBytes.record(record)
            XCTAssertEqual(String(decoding: encoded, as: UTF8.self), try reference(encoded))
        }
        for pet in pets {
            let encoded = try JSONBytes.pet(pet)
            XCTAssertEqual(String(decoding: encoded, as: UTF8.self), try reference(encoded))
        }
        XCTAssertTrue(records.contains { if case .meal(let m) = $0.detail { return m.amount.map { $0.value != $0.value.rounded() } ?? false } else { return false } },
                      "the demo should have a meal amount with a fraction")
    }

    func testDaysAreWrittenAsLocalDateWritesThem() throws {
        // From years with five digits down to years before zero (an import refuses those; an export must still write them).
        for number in [20_412, 0, -1, -365_000, -719_528, -720_000, -1_000_000, -2_000_000, 2_932_896, 3_000_000, 40_000_000] {
            let day = LocalDate(dayNumber: number)
            XCTAssertEqual(RFC3339.day(day), day.description, "day \(number)")
        }
        XCTAssertEqual(RFC3339.format(seconds: 0, offset: 32400), "1970-01-01T09:00:00+09:00")
        XCTAssertEqual(RFC3339.format(seconds: -62_167_219_200, offset: 0), "0000-01-01T00:00:00Z")
    }

    /// Every top-level value of `text` with the line it starts on, read `chunkSize` bytes at a time.
    func scan(_ text: String, chunkSize: Int = 1 << 20) throws -> [(String, Int)] {
        var s = JSONScanner(bytes: Array(text.utf8), file: "t.json", chunkSize: chunkSize)
        var out: [(String, Int)] = []
        while true {
            try s.skipWhitespace()
            if try s.atEnd() { return out }
            s.releaseBefore()
            let line = s.line
            out.append((String(decoding: try s.value(), as: UTF8.self), line))
        }
    }

    func testScannerFindsWholeValuesAndTheirLines() throws {
        let found = try scan("{\"a\": \"}]\\\"[{\", \"b\": [1, {\"c\": null}]}\n\n  [\n true\n]\n\"x\\\\\" -12.5e3 null")
        XCTAssertEqual(found.map(\.0), ["{\"a\": \"}]\\\"[{\", \"b\": [1, {\"c\": null}]}", "[\n true\n]", "\"x\\\\\"", "-12.5e3", "null"])
        XCTAssertEqual(found.map(\.1), [1, 3, 6, 6, 6])
        // The same read a few bytes at a time: values and escapes split across reads are found whole.
        for size in [1, 2, 3, 7] {
            let pieces = try scan("{\"a\": \"}]\\\"[{\", \"b\": [1, {\"c\": null}]}\n\n  [\n true\n]\n\"x\\\\\" -12.5e3 null", chunkSize: size)
            XCTAssertEqual(pieces.map(\.0), found.map(\.0), "read \(size) at a time")
            XCTAssertEqual(pieces.map(\.1), found.map(\.1), "read \(size) at a time")
        }
    }

    /// A whole export read from a file in small pieces gives what reading it in one piece gives, in
    /// both key orders.
    func testExportReadInPiecesIsReadWhole() throws {
        let (pets, records) = try demoRecords()
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("petlog-json-\(UUID().uuidString).json").path
        defer { unlink(path) }
        try OutputFile.write(to: path) { sink in
            let writer = try PetlogJSONWriter(sink: sink, pets: pets)
            for r in records { try writer.write(r) }
            try writer.finish()
        }
        let options = ImportOptions(timeZone: TimeZone(identifier: "Asia/Seoul")!, now: Date(timeIntervalSince1970: 1_800_000_000))
        let whole = try ImportReader.read(data: try Data(contentsOf: URL(fileURLWithPath: path)), file: "a.json", options: options)
        let fromFile = try ImportReader.readFile(path: path, file: "a.json", options: options)
        // Plain weights are kept as columns; every other record as a record.
        XCTAssertEqual(whole.records.count + whole.weights.count, records.count)
        XCTAssertGreaterThan(whole.weights.count, 0)
        XCTAssertEqual(fromFile.weights.fileId, whole.weights.fileId)
        XCTAssertEqual(fromFile.weights.line, whole.weights.line)
        XCTAssertEqual(fromFile.weights.grams, whole.weights.grams)
        XCTAssertEqual(whole.pets.count, pets.count)
        XCTAssertEqual(fromFile.records.map(\.fileId), whole.records.map(\.fileId))
        XCTAssertEqual(fromFile.records.map(\.location.line), whole.records.map(\.location.line))
        XCTAssertEqual(fromFile.records.map(\.detail), whole.records.map(\.detail))
        XCTAssertEqual(fromFile.pets.map(\.name), whole.pets.map(\.name))
        // Read 5 bytes at a time, and with the records before the pets: the same pets and records.
        let text = try String(contentsOfFile: path, encoding: .utf8)
        let header = "{\"format\": \"petlog\", \"schema\": \"v1\", \"units\": {\"weight\": \"g\", \"money\": \"minor units\"},\n\"pets\": [\n"
        XCTAssertTrue(text.hasPrefix(header))
        let parts = text.dropFirst(header.count).components(separatedBy: "],\n\"records\": [\n")
        XCTAssertEqual(parts.count, 2)
        let (petLines, recordLines) = (parts[0], String(parts[1].dropLast("\n]}\n".count)))
        let reordered = "{\"records\": [\n" + recordLines + "\n],\n\"format\": \"petlog\", \"pets\": [\n" + petLines + "]}\n"
        for (document, size) in [(text, 5), (reordered, 5), (reordered, 1 << 20)] {
            let batch = try PetlogJSONReader.read(data: Data(document.utf8), file: "b.json", options: options, chunkSize: size)
            XCTAssertEqual(batch.records.map(\.detail), whole.records.map(\.detail))
            XCTAssertEqual(batch.weights.fileId, whole.weights.fileId)
            XCTAssertEqual(batch.weights.at, whole.weights.at)
            XCTAssertEqual(batch.pets.map(\.name), whole.pets.map(\.name))
        }
    }

    /// Every value of a document is read by the one tokenizer, those petlog does not keep too: JSON the
    /// document scanner used to pass over unchecked (a list without its comma, a word that is no literal,
    /// a number with a leading zero) is refused where it breaks, with its line and character.
    func testValuesPetlogDoesNotKeepAreReadAsJSONToo() throws {
        let options = ImportOptions(timeZone: TimeZone(identifier: "Asia/Seoul")!, now: Date(timeIntervalSince1970: 1_800_000_000))
        let pet = #"{"id":1,"name":"Rex","species":"dog","sex":"male","neutered":true}"#
        // Each value after `"units": ` (column 10) and after `"namespace":` (column 13), and where it breaks.
        for (value, column) in [("[1, 2 3]", 16), ("{\"weight\": gram}", 21), ("tru", 10), ("012", 13), ("[\"a\" \"b\"]", 15)] {
            for (key, shift) in [("\"units\": ", 0), ("\"namespace\":", 3)] {
                let document = "{\"format\": \"petlog\",\n\(key)\(value),\n\"pets\": [\(pet)], \"records\": []}\n"
                XCTAssertThrowsError(try PetlogJSONReader.read(data: Data(document.utf8), file: "u.json", options: options), document) { e in
                    XCTAssertEqual(e as? ImportError, ImportError(location: SourceLocation(file: "u.json", line: 2, column: column + shift), problem: .badJSON), document)
                }
            }
        }
        // The same values where JSON has them whole are still passed over.
        let whole = "{\"format\": \"petlog\",\n\"units\": [1, {\"weight\": \"g\"}, true, -0.5e3, null],\n\"pets\": [\(pet)], \"records\": []}\n"
        XCTAssertEqual(try PetlogJSONReader.read(data: Data(whole.utf8), file: "u.json", options: options).pets.count, 1)
    }

    /// Budgets and rates are read by their members (`ExportShape`, the list their writer walks too) as records
    /// are: an integer written with a fraction or an exponent is taken, a value of another type (or null for
    /// the whole object) is refused where it starts, a key twice at the object's line.
    /// A pet is read by its members (`ExportShape.pet`, the list its writer walks too), as budgets are: a value of
    /// another type is refused where it starts (the decoder named only the pet's line), a key twice at the pet's
    /// line (the decoder kept one), a line break inside one item of a list or contact as before.
    func testPetsAreReadByTheirMembers() throws {
        let options = ImportOptions(timeZone: TimeZone(identifier: "Asia/Seoul")!, now: Date(timeIntervalSince1970: 1_800_000_000))
        func read(_ pet: String) throws -> ImportBatch {
            try PetlogJSONReader.read(data: Data("{\"format\": \"petlog\",\n\"pets\": [\n\(pet)\n]}\n".utf8), file: "p.json", options: options)
        }
        let pet = #"{"id": 3.0, "name": "Nabi", "species": "cat", "neutered": true, "allergies": ["chicken"], "vet_contact": {"name": "Kim, Lee", "phone": "02-555-0100"}, "emergency_contacts": [{"phone": "010-5550-1234", "name": "Mina"}], "insurance": {"insurer": "Anicom", "policy": null}, "unknown": [1, {"a": null}]}"#
        let p = try XCTUnwrap(read(pet).pets.first)
        XCTAssertEqual(p.fileId, 3)
        XCTAssertEqual(p.health, PetHealth(allergies: ["chicken"], vetContact: PetContact(name: "Kim, Lee", phone: "02-555-0100"),
                                           emergencyContacts: [PetContact(name: "Mina", phone: "010-5550-1234")], insurance: PetInsurance(insurer: "Anicom")))
        func column(_ value: String) -> Int { pet.utf8.count - pet.components(separatedBy: value).dropFirst().joined(separator: value).utf8.count - value.utf8.count + 1 }
        for (from, to, at) in [("true", "1", "true"), (#""Anicom""#, "5", #""Anicom""#), (#"[{"phone""#, #"[null, {"phone""#, #"[{"phone""#),
                               (#"["chicken"]"#, #"["chicken", null]"#, #"["chicken"]"#), (#"{"name": "Kim"#, #""Kim"#, #"{"name": "Kim"#)] {
            let wrong = pet.replacingOccurrences(of: from, with: to)
            let expected = column(at) + (from.hasPrefix("[{") ? 1 : from.hasPrefix(#"["chicken"#) ? 12 : 0)
            XCTAssertThrowsError(try read(wrong), wrong) { e in
                XCTAssertEqual(e as? ImportError, ImportError(location: SourceLocation(file: "p.json", line: 3, column: expected), problem: .badJSON), wrong)
            }
        }
        for wrong in [pet.replacingOccurrences(of: #""id": 3.0,"#, with: #""id": 3, "id": 4,"#), pet.replacingOccurrences(of: #""phone": "02"#, with: #""phone": null, "phone": "02"#)] {
            XCTAssertThrowsError(try read(wrong), wrong) { e in XCTAssertEqual(e as? ImportError, ImportError(file: "p.json", line: 3, problem: .badJSON), wrong) }
        }
        for (wrong, field) in [(pet.replacingOccurrences(of: "Mina", with: #"Mi\nna"#), "emergency-contact"), (pet.replacingOccurrences(of: "chicken", with: #"a\u0007"#), "allergy"),
                               (pet.replacingOccurrences(of: "Anicom", with: #"A\tB"#), "insurance")] {
            XCTAssertThrowsError(try read(wrong), wrong) { e in
                XCTAssertEqual(e as? ImportError, ImportError(file: "p.json", line: 3, problem: .value(.controlCharacters(field: field))), wrong)
            }
        }
    }

    func testBudgetsAndRatesAreReadByTheirMembers() throws {
        let options = ImportOptions(timeZone: TimeZone(identifier: "Asia/Seoul")!, now: Date(timeIntervalSince1970: 1_800_000_000))
        func read(_ budget: String, _ rate: String) throws -> ImportBatch {
            let document = "{\"format\": \"petlog\", \"pets\": [],\n\"budgets\": [\n\(budget)\n],\n\"rates\": [\n\(rate)\n]}\n"
            return try PetlogJSONReader.read(data: Data(document.utf8), file: "b.json", options: options)
        }
        let budget = #"{"id": 5, "pet_id": null, "money": {"minor_units": 1.2e4, "currency": "KRW", "amount": "12000"}, "first_day": "2026-01-01", "last_day": "2026-01-31", "category": "food", "per_pet": false, "people": 2}"#
        let rate = #"{"day": "2026-01-02", "currency": "KRW", "rate": "1500.5"}"#
        let batch = try read(budget, rate)
        XCTAssertEqual(batch.budgets.map(\.budget.amount.minorUnits), [12000])
        XCTAssertEqual(batch.budgets.map(\.fileId), [5])
        XCTAssertEqual(batch.budgets.first?.budget.people, 2)
        XCTAssertEqual(batch.rates.map(\.currency), ["KRW"])
        func column(_ text: String, _ value: String) -> Int { text.utf8.count - text.components(separatedBy: value).dropFirst().joined(separator: value).utf8.count - value.utf8.count + 1 }
        let wrong: [(String, String, Int, Int)] = [
            (budget.replacingOccurrences(of: #""food""#, with: "5"), rate, 3, column(budget, #""food""#)),
            (budget.replacingOccurrences(of: #""people": 2"#, with: #""people": "2""#), rate, 3, column(budget, "2}")),
            (budget.replacingOccurrences(of: "1.2e4", with: "1.5"), rate, 3, column(budget, "1.2e4")),
            ("null", rate, 3, 1),
            (budget, rate.replacingOccurrences(of: #""1500.5""#, with: "1500.5"), 6, column(rate, #""1500.5""#)),
        ]
        for (b, r, line, column) in wrong {
            XCTAssertThrowsError(try read(b, r), b + r) { e in
                XCTAssertEqual(e as? ImportError, ImportError(location: SourceLocation(file: "b.json", line: line, column: column), problem: .badJSON), b + r)
            }
        }
        for (b, r, line) in [(budget.replacingOccurrences(of: #""id": 5,"#, with: #""id": 5, "id": 6,"#), rate, 3), (budget, rate.replacingOccurrences(of: "{", with: #"{"day": null, "#), 6)] {
            XCTAssertThrowsError(try read(b, r), b + r) { e in XCTAssertEqual(e as? ImportError, ImportError(file: "b.json", line: line, problem: .badJSON), b + r) }
        }
    }

    /// A broken value names its line and the character where it breaks; one cut short, the end (issue 42).
    func testScannerRefusesBrokenValuesWithTheirLineAndColumn() throws {
        let cases: [(String, Int, Int, ImportError.Problem)] = [
            ("{\"a\": [1, 2}", 1, 12, .badJSON), ("\n[\"open", 2, 7, .jsonEndsEarly), ("\n\n\"raw\nbreak\"", 3, 5, .badJSON),
            (String(repeating: "[", count: 100_000), 1, 65, .badJSON), ("]", 1, 1, .badJSON), ("[\"체중\", 4.2", 1, 11, .jsonEndsEarly)]
        for (text, line, column, problem) in cases {
            XCTAssertThrowsError(try scan(text), text) { error in
                XCTAssertEqual((error as? ImportError)?.problem, problem, text)
                XCTAssertEqual((error as? ImportError)?.location.line, line, text)
                XCTAssertEqual((error as? ImportError)?.location.column, column, text)
            }
        }
    }
}

extension JSONScanner {
    /// The bytes of the value that starts here (after whitespace), which is then passed.
    mutating func value() throws -> Data {
        try skipWhitespace()
        return try read { p in
            let start = p.i
            try p.skip()
            return Data(UnsafeBufferPointer(rebasing: p.b[start..<p.i]))
        }
    }
}
