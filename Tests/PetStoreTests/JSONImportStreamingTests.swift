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

    /// Whatever the direct read accepts, it reads as JSONDecoder does; the plain shapes it must accept.
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
            let slow = try? PetlogJSON.decoder().decode(ExportedRecord.self, from: Data(text.utf8))
            switch direct(text) {
            case .parsed(let fast)?:
                let at = SourceLocation(file: "a.json", line: 1)
                XCTAssertNotNil(slow, text)
                XCTAssertEqual(fast.fields(at).values, slow?.fields(at).values, text)
                XCTAssertEqual(fast.detailFields(at)?.values, slow?.detailFields(at)?.values, text)
                XCTAssertEqual(fast.attachments, slow?.attachments, text)
            case .duplicateKey?: XCTAssertTrue(text.contains(#""id":1,"id":2"#), text)
            case .decoder?, nil: XCTAssertFalse(accepted.contains(text), text)
            }
        }
        XCTAssertTrue(isDecoder(direct(String(decoding: Array(plain.utf8.dropLast(2)) + [0xFF, 0x7D, 0x7D], as: UTF8.self), bytes: Array(plain.utf8.dropLast(2)) + [0xFF, 0x7D, 0x7D])), "not UTF-8")
        XCTAssertTrue(isDecoder(direct(other[1])), "a fraction for an integer: the decoder's")
        XCTAssertTrue(isDecoder(direct(other[4])), "beyond 64 bits: the decoder's")
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
            let slow = try PetlogJSON.decoder().decode(ExportedRecord.self, from: Data(text.utf8))
            guard case .parsed(let fast)? = direct(text) else { XCTFail(text); continue }
            let at = SourceLocation(file: "a.json", line: 1)
            XCTAssertEqual(fast.fields(at).values, slow.fields(at).values, text)
            XCTAssertEqual(fast.detailFields(at)?.values, slow.detailFields(at)?.values, text)
            XCTAssertEqual(fast.attachments, slow.attachments, text)
        }
    }

    func direct(_ text: String, bytes: [UInt8]? = nil) -> JSONRecordReading.Outcome? {
        // One record and nothing after it but whitespace (what follows a record is the scanner's to judge).
        (bytes ?? Array(text.utf8)).withUnsafeBufferPointer { b in
            guard let (outcome, end, _) = try? JSONRecordReading.read(b, from: 0) else { return nil }
            if case .parsed = outcome, !b[end...].allSatisfy({ $0 == 0x20 || $0 == 0x0A || $0 == 0x0D || $0 == 0x09 }) { return nil }
            return outcome
        }
    }

    func isDecoder(_ o: JSONRecordReading.Outcome?) -> Bool { if case .decoder? = o { return true } else { return false } }

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
            if case .parsed? = direct(record) {} else { XCTFail(record) }
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
