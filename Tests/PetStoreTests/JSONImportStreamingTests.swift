import Foundation
import XCTest
import PetlogTestSupport
import PetModel
@testable import PetFiles
@testable import PetStoreCore
@testable import PetTransfer
@testable import PetStoreSQLite

/// The JSON import's weights: read without JSONDecoder when plain, kept as columns, written in file order.
final class JSONImportStreamingTests: StoreTestCase {
    let options = ImportOptions(timeZone: TimeZone(identifier: "Asia/Seoul")!, now: Date(timeIntervalSince1970: 1_800_000_000))

    /// The byte reader takes what the JSONDecoder took (`DecodedRecord`, the Codable shape the import
    /// decoded with before), with the same values, and refuses what it refused; the plain shapes it must accept.
    func testDirectReadAgreesWithTheDecoder() throws {
        let plain = #"{"at":"2024-01-02T03:04:05+09:00","attachments":[],"id":7,"kind":"weight","note":null,"pet":"Rex","pet_id":3,"starred":false,"utc_offset_seconds":32400,"weight":{"body_condition":null,"grams":4200}}"#
        let accepted = [
            plain,
            " {\n \"weight\" : { \"grams\" : 1 , \"body_condition\" : 9 } ,\n \"kind\":\"weight\", \"id\": -0, \"note\": \"한글 ok\", \"starred\": true } ",
            #"{"kind":"weight","attachments":null,"weight":null}"#,
            #"{"kind":"weight","weight":{},"pet":"Cocó","id":9223372036854775807}"#,
        ]
        let other = [
            #"{"kind":"weight","note":"a\nb","weight":{"grams":1}}"#,                   // an escape
            #"{"kind":"weight","id":1.0,"weight":{"grams":1}}"#,                        // a fraction
            #"{"kind":"weight","id":1e3,"weight":{"grams":1}}"#,                        // an exponent
            #"{"kind":"weight","id":01,"weight":{"grams":1}}"#,                         // a leading zero
            #"{"kind":"weight","id":9223372036854775808,"weight":{"grams":1}}"#,        // too big
            #"{"kind":"weight","id":"1","weight":{"grams":1}}"#,                        // text for a number
            #"{"kind":"weight","starred":1,"weight":{"grams":1}}"#,                     // a number for a boolean
            #"{"kind":"weight","id":1,"id":2,"weight":{"grams":1}}"#,                   // a key twice
            #"{"kind":"weight","extra":[1],"weight":{"grams":1}}"#,                     // an unknown key
            #"{"kind":"weight","weight":{"grams":1,"extra":2}}"#,
            #"{"kind":"meal","meal":{"food":"x"}}"#,                                    // another kind
            #"{"kind":"weight","attachments":[{"sha256":"x"}],"weight":{"grams":1}}"#,
            #"{"kind":"weight","weight":{"grams":nullx}}"#,
            #"{"kind":"weight","weight":{"grams":1}"#,                                  // cut short
            #"{"kind":"weight","weight":{"grams":1}} x"#,
            #"{"kind":"weight",}"#,
            #"{"kind":"weight","weight":{"grams":1}"# + "\u{1}}",
        ]
        for text in accepted + other {
            let slow = try? JSONDecoder().decode(DecodedRecord.self, from: Data(text.utf8))
            switch direct(text) {
            case .parsed(let fast):
                let at = SourceLocation(file: "a.json", line: 1)
                XCTAssertNotNil(slow, text)
                XCTAssertEqual(fast.fields(at).values, slow?.fields, text)
                XCTAssertEqual(fast.detailFields(at)?.values, slow?.detail, text)
                XCTAssertEqual(fast.attachments, slow?.attachments, text)
            case .duplicateKey: XCTAssertTrue(text.contains(#""id":1,"id":2"#), text)
            case .refused:
                XCTAssertFalse(accepted.contains(text), text)
                // Refused before too: by the decoder, or as broken JSON when the record was cut out for it (a trailing comma).
                XCTAssertTrue(slow == nil || !isJSON(text), "the import took it before: \(text)")
            }
        }
        // Once left to the decoder, now the byte reader's: text that is not UTF-8 and more than 64 bits are
        // refused (as the decoder refused them), an integer written with a fraction is taken (as it took it).
        let notUTF8 = Array(plain.utf8.dropLast(2)) + [0xFF, 0x7D, 0x7D]
        XCTAssertTrue(isRefused(direct("", bytes: notUTF8)), "not UTF-8")
        XCTAssertNil(try? JSONDecoder().decode(DecodedRecord.self, from: Data(notUTF8)))
        guard case .parsed(let fraction) = direct(other[1]) else { return XCTFail("a fraction that is an integer") }
        XCTAssertEqual(fraction.id, 1)
        XCTAssertTrue(isRefused(direct(other[4])), "beyond 64 bits")
    }

    /// An integer is read as the JSONDecoder read it: a fraction or an exponent that leaves an integer is
    /// that integer, anything else (a fraction, more than 64 bits) is refused.
    func testIntegersAreReadAsTheDecoderReadThem() throws {
        let numbers = ["0", "-0", "42", "1.0", "-0.0", "4.2e3", "1e3", "1E+2", "100e-2", "0.1e1", "0e5", "10e-1", "1e18", "123456789012345678e1",
                       "12345678901234567.0", "9007199254740993.0", "9223372036854775807", "-9223372036854775808", "1.5", "5e-1", "1e30", "1e19",
                       "9223372036854775808", "-9223372036854775809", "1e999999999999"]
        // Where they differ, knowingly: the decoder went through a Double or a Decimal for these, which
        // refused an integer at the ends of 64 bits written with a fraction and took 1e-400 as 0; the reader
        // takes a number's exact value.
        let exact: [String: Int64?] = ["9223372036854775807.0": Int64.max, "92233720368547758070e-1": Int64.max, "-9223372036854775808.0": Int64.min, "1e-400": nil]
        for n in numbers + exact.keys {
            let decoded = exact[n] ?? (try? JSONDecoder().decode([Int64].self, from: Data("[\(n)]".utf8))[0])
            let record = #"{"kind":"weight","id":\#(n),"weight":{"grams":\#(n)}}"#
            if case .parsed(let r) = direct(record) {
                XCTAssertEqual(r.id, decoded, n)
                XCTAssertEqual(r.detailFields(SourceLocation(file: "a.json", line: 1))?.values["grams"], decoded.map { String($0) }, n)
            } else {
                XCTAssertNil(decoded, n)
            }
        }
    }

    /// Every kind's object as the export writes it, and hand-written ones, read from the bytes as the decoder reads them.
    func testEveryKindAgreesWithTheDecoder() throws {
        let texts = [
            #"{"kind":"meal","meal":{"food":"kib\u00e9ble","type":"treat","amount":2.5,"amount_unit":"cup"}}"#,
            #"{"kind":"stool","stool":{"score":4,"color":"brown","blood":true,"mucus":false}}"#,
            #"{"kind":"urine","urine":{"color":null,"amount":"small","straining":false,"blood":null}}"#,
            #"{"kind":"symptom","symptom":{"code":"구토","listed":true,"severity":3,"duration_minutes":null}}"#,
            #"{"diary":{"text":"a\ud83d\udc36\n","mood":"happy"},"kind":"diary"}"#,
            #"{"kind":"visit","visit":{"clinic":"C","cost":{"amount":"12.00","currency":"EUR","minor_units":1200},"weight_grams":4000,"follow_up":"2026-01-02"}}"#,
            #"{"kind":"vaccination","vaccination":{"vaccine":"rabies","next_due":"2027-01-01","extra":{"a":[1,2,{"b":null}]}}}"#,
            #"{"kind":"medication","medication":{"name":"pill","interval_seconds":86400,"stopped_at":1700000000}}"#,
            #"{"kind":"medication","medication":{"name":"pill","stopped_at":"2026-01-01T00:00:00Z"}}"#,
            #"{"kind":"dose","dose":{"medication_id":3,"medication":"pill","skipped":false}}"#,
            #"{"expense":{"money":{"minor_units":500,"currency":"KRW"},"category":"food","items":["a","b"],"split_of":null},"kind":"expense","pet_id":null}"#,
            #"{"kind":"expense","expense":{"money":null,"category":"x","items":[]}}"#,
            #"{"kind":"grooming","grooming":{"tasks":["bath","nails"],"groomer":"Kim","cost":{"minor_units":30000,"currency":"KRW"},"next_due":null}}"#,
            #"{"kind":"weight","attachments":[{"sha256":"ab","name":"x.jpg","media_type":"image/jpeg","size":3,"more":1}],"weight":{"grams":5}}"#,
        ]
        for text in texts {
            let slow = try JSONDecoder().decode(DecodedRecord.self, from: Data(text.utf8))
            guard case .parsed(let fast) = direct(text) else { XCTFail(text); continue }
            let at = SourceLocation(file: "a.json", line: 1)
            XCTAssertEqual(fast.fields(at).values, slow.fields, text)
            XCTAssertEqual(fast.detailFields(at)?.values, slow.detail, text)
            XCTAssertEqual(fast.attachments, slow.attachments, text)
        }
    }

    enum Direct { case parsed(JSONRecordReading.Parsed), duplicateKey, refused }

    func direct(_ text: String, bytes: [UInt8]? = nil) -> Direct {
        // One record and nothing after it but whitespace (what follows a record is the scanner's to judge).
        (bytes ?? Array(text.utf8)).withUnsafeBufferPointer { b in
            do {
                let (r, end, _) = try JSONRecordReading.read(b, from: 0)
                return b[end...].allSatisfy({ $0 == 0x20 || $0 == 0x0A || $0 == 0x0D || $0 == 0x09 }) ? .parsed(r) : .refused
            } catch is JSONRecordReading.DuplicateKey { return .duplicateKey } catch { return .refused }
        }
    }

    func isRefused(_ d: Direct) -> Bool { if case .refused = d { return true } else { return false } }

    /// Whether the record's text is whole JSON as the import cut a record out for the decoder (`skip`).
    func isJSON(_ text: String) -> Bool {
        Array(text.utf8 + [0x20]).withUnsafeBufferPointer { b in
            var p = JSONRecordReading.Parser(b, from: 0)
            return (try? p.skip()) != nil && b[p.i...].allSatisfy { $0 == 0x20 }
        }
    }

    func document(_ records: [String]) -> Data {
        Data(("{\"format\": \"petlog\", \"schema\": \"v1\",\n\"pets\": [\n"
              + #"{"id":5,"name":"Rex","species":"dog","sex":"male","neutered":true,"born":null,"breed":null,"microchip":null,"color":null,"notes":null,"archived_on":null,"archive_reason":null}"#
              + "\n],\n\"records\": [\n" + records.joined(separator: ",\n") + "\n]}\n").utf8)
    }

    func weight(_ id: Int, _ at: String, _ grams: Int, note: String? = nil) -> String {
        #"{"id":\#(id),"pet_id":5,"kind":"weight","at":"\#(at)","note":\#(note.map { "\"\($0)\"" } ?? "null"),"starred":false,"attachments":[],"weight":{"grams":\#(grams),"body_condition":null}}"#
    }

    /// Weights and other records keep their file ids and their order; a weight with a note stays a record.
    func testWeightsGoInFileOrderWithTheirIds() throws {
        let diary = #"{"id":2,"pet_id":5,"kind":"diary","at":"2024-01-01T10:00:00+09:00","note":null,"starred":true,"attachments":[],"diary":{"text":"walk","mood":null}}"#
        let data = document([weight(1, "2024-01-01T09:00:00+09:00", 4000), diary, weight(3, "2024-01-02T09:00:00+09:00", 4010, note: "after food"),
                             weight(10, "2024-01-03T09:00:00-05:00", 4020)])
        let batch = try PetlogJSONReader.read(data: data, file: "a.json", options: options)
        XCTAssertEqual(batch.records.map(\.fileId), [2, 3])
        XCTAssertEqual(batch.weights.fileId, [1, 10])
        XCTAssertEqual(batch.weights.recordsBefore, [0, 2])
        XCTAssertEqual(batch.weights.line, [6, 9])
        XCTAssertEqual(batch.weights.utcOffset, [32400, -18000])

        let repo = try makeStore()
        let summary = try repo.importBatch(batch)
        XCTAssertEqual(summary.recordsAdded, 4)
        let stored = try repo.records(RecordQuery()).sorted { $0.id < $1.id }
        XCTAssertEqual(stored.map(\.id), [1, 2, 3, 10])
        XCTAssertEqual(stored.map(\.kind), [.weight, .diary, .weight, .weight])
        XCTAssertEqual(stored.map(\.utcOffset), [32400, 32400, 32400, -18000])
        XCTAssertEqual(stored[2].note, "after food")
        XCTAssertEqual(try repo.check(), [])

        // Into a database that has them: nothing twice. Into another one: new ids, in file order.
        XCTAssertEqual(try repo.importBatch(batch).recordsAlreadyThere, 4)
        let other = try makeStore()
        _ = try other.addPet(PetDraft(name: "Coco", species: .cat))
        _ = try other.importBatch(batch)
        XCTAssertEqual(try other.records(RecordQuery()).sorted { $0.id < $1.id }.map(\.kind), [.weight, .diary, .weight, .weight])
    }

    /// A weight the direct read takes but whose values are wrong goes through the shared checks: the same messages.
    func testWrongWeightsGetTheSharedMessages() throws {
        let cases: [(String, ImportError.Problem)] = [
            (weight(1, "2024-01-01T09:00:00+09:00", 0), .value(.outOfRange(field: "grams", value: "0", min: 1, max: 1_000_000))),
            (weight(1, "2024-01-01T09:00:00", 4000), .badTime("2024-01-01T09:00:00")),
            (weight(1, "2024-01-01T09:00:00+09:00", 4000).replacingOccurrences(of: "\"pet_id\":5", with: "\"pet_id\":6"), .unknownPet("6")),
            (weight(1, "2024-01-01T09:00:00+09:00", 4000).replacingOccurrences(of: "\"body_condition\":null", with: "\"body_condition\":10"),
             .value(.outOfRange(field: "body_condition", value: "10", min: 1, max: 9))),
        ]
        for (record, problem) in cases {
            if case .parsed = direct(record) {} else { XCTFail(record) }
            XCTAssertThrowsError(try PetlogJSONReader.read(data: document([record]), file: "w.json", options: options), record) { e in
                XCTAssertEqual(e as? ImportError, ImportError(file: "w.json", line: 6, problem: problem))
            }
        }
    }

    /// Ids kept from the file are looked up in the table, not in a map of every id: a dose finds a
    /// medication met before it, and not one met after it or never.
    func testKeptIdsAreFoundAsBefore() throws {
        let med = #"{"id":3,"pet_id":5,"kind":"medication","at":"2024-01-01T08:00:00+09:00","note":null,"starred":false,"attachments":[],"medication":{"name":"pill","dose":null,"route":null,"interval_seconds":86400,"times":null,"ends_on":null,"stopped_at":null}}"#
        func dose(_ id: Int, of medication: Int) -> String {
            #"{"id":\#(id),"pet_id":5,"kind":"dose","at":"2024-01-02T08:00:00+09:00","note":null,"starred":false,"attachments":[],"dose":{"medication_id":\#(medication),"medication":"pill","skipped":false}}"#
        }
        let good = try PetlogJSONReader.read(data: document([weight(1, "2024-01-01T09:00:00+09:00", 4000), med, dose(4, of: 3)]), file: "m.json", options: options)
        let repo = try makeStore()
        XCTAssertEqual(try repo.importBatch(good).recordsAdded, 3)
        XCTAssertEqual(try repo.records(RecordQuery(kinds: [.dose])).first.map { r -> Int64 in
            if case .dose(let d) = r.detail { return d.medicationId } else { return 0 } }, 3)
        for (records, missing) in [([dose(2, of: 3), med], Int64(3)), ([med, dose(4, of: 9)], 9)] {
            let batch = try PetlogJSONReader.read(data: document(records), file: "m.json", options: options)
            let empty = try makeStore()
            XCTAssertThrowsError(try empty.importBatch(batch)) { e in
                XCTAssertEqual((e as? ImportError)?.problem, .unknownMedication(missing))
            }
            XCTAssertEqual(try empty.count(RecordQuery()), 0)
        }
    }

    /// Weights kept as columns meet the same dating rule as records, in file order among them.
    func testFutureWeightsAreRefusedInFileOrder() throws {
        let diary = #"{"id":2,"pet_id":5,"kind":"diary","at":"2046-01-01T10:00:00+09:00","note":null,"starred":false,"attachments":[],"diary":{"text":"walk","mood":null}}"#
        for (records, line) in [([weight(1, "2046-01-01T09:00:00+09:00", 4000), diary], 6), ([diary, weight(3, "2046-01-01T09:00:00+09:00", 4000)], 6),
                                ([weight(1, "2024-01-01T09:00:00+09:00", 4000), weight(3, "2046-01-01T09:00:00+09:00", 4000)], 7)] {
            let batch = try PetlogJSONReader.read(data: document(records), file: "f.json", options: options)
            XCTAssertThrowsError(try ImportReader.checkDates(batch, options: options)) { e in
                XCTAssertEqual((e as? ImportError)?.location, SourceLocation(file: "f.json", line: line))
            }
        }
    }

    /// A weight whose id an earlier record already has is refused with its own line, and nothing is written.
    func testADuplicateIdIsRefusedAtItsLine() throws {
        let diary = #"{"id":1,"pet_id":5,"kind":"diary","at":"2024-01-01T10:00:00+09:00","note":null,"starred":false,"attachments":[],"diary":{"text":"walk","mood":null}}"#
        let batch = try PetlogJSONReader.read(data: document([diary, weight(1, "2024-01-01T09:00:00+09:00", 4000)]), file: "d.json", options: options)
        let repo = try makeStore()
        XCTAssertThrowsError(try repo.importBatch(batch)) { e in
            XCTAssertEqual(e as? ImportError, ImportError(file: "d.json", line: 7, problem: .duplicateId(1)))
        }
        XCTAssertEqual(try repo.count(RecordQuery()), 0)
        XCTAssertEqual(try repo.pets(includeArchived: true).count, 0)
    }
}

/// A record as the import's JSONDecoder read it before every record was read from its bytes (the Codable
/// shape `ExportedRecord` had, kept here as the reference `JSONRecordReading` agrees with): the shared
/// columns, the detail's by the kind's members, the attachments.
struct DecodedRecord: Decodable {
    var fields: [String: String]
    var detail: [String: String]?
    var attachments: [Attachment]?

    struct File: Decodable { var sha256: String, name: String, media_type: String, size: Int64 }
    struct Money: Decodable { var minor_units: Int64?, currency: String?, amount: String? }

    init(from decoder: Decoder) throws {
        let c = try decoder.container(keyedBy: JSONKey.self)
        func text(_ k: String) throws -> String? { try c.decodeIfPresent(String.self, forKey: JSONKey(k)) }
        var f = FieldValues()
        f.put("id", try c.decodeIfPresent(Int64.self, forKey: JSONKey("id"))); f.put("pet_id", try c.decodeIfPresent(Int64.self, forKey: JSONKey("pet_id")))
        _ = try text("pet"); _ = try c.decodeIfPresent(Int64.self, forKey: JSONKey("utc_offset_seconds"))
        f.put("kind", try text("kind")); f.put("at", try text("at")); f.put("note", try text("note"))
        f.put("starred", try c.decodeIfPresent(Bool.self, forKey: JSONKey("starred")))
        f.put("created_at", try text("created_at")); f.put("updated_at", try text("updated_at"))
        fields = f.values
        attachments = try c.decodeIfPresent([File].self, forKey: JSONKey("attachments"))?.enumerated().map { Attachment(sha256: $1.sha256, originalName: $1.name, mediaType: $1.media_type, size: $1.size, position: $0) }
        guard let kind = f.values["kind"].flatMap(RecordKind.init(rawValue:)), c.contains(JSONKey(kind.rawValue)), try !c.decodeNil(forKey: JSONKey(kind.rawValue)) else { return }
        let d = try c.nestedContainer(keyedBy: JSONKey.self, forKey: JSONKey(kind.rawValue))
        var v: [String: String] = [:]
        for m in RecordKindTable.of(kind).jsonRead {
            let key = JSONKey(m.key)
            switch m.form {
            case .text(let col): v[col] = try d.decodeIfPresent(String.self, forKey: key)
            case .integer(let col): v[col] = try d.decodeIfPresent(Int64.self, forKey: key).map { String($0) }
            case .boolean(let col): v[col] = try d.decodeIfPresent(Bool.self, forKey: key).map { $0 ? "1" : "0" }
            case .number(let col): v[col] = try d.decodeIfPresent(Double.self, forKey: key).map { "\($0)" }
            case .integerOrText(let col):
                if let seconds = try? d.decodeIfPresent(Int64.self, forKey: key) { v[col] = String(seconds) } else { v[col] = try d.decodeIfPresent(String.self, forKey: key) }
            case .codes(let col): if let l = try d.decodeIfPresent([String].self, forKey: key), !l.isEmpty { v[col] = l.joined(separator: ",") }
            case .items(let col): if let l = try d.decodeIfPresent([String].self, forKey: key), !l.isEmpty { v[col] = l.joined(separator: "\u{1F}") }
            case .money(let minor, let currency):
                if let m = try d.decodeIfPresent(Money.self, forKey: key) { v[minor] = m.minor_units.map { String($0) }; v[currency] = m.currency }
            case .lines, .pair, .pairs: XCTFail("\(kind): a pet's form")
            }
        }
        detail = v
    }
}
