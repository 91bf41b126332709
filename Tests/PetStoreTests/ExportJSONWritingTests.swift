import Foundation
import XCTest
import PetlogTestSupport
import PetModel
@testable import PetFiles
@testable import PetStoreCore
@testable import PetStoreSQLite
@testable import PetTransfer

/// The export's in-place writer (`JSONBytes`) against JSONSerialization's writing of the same values
/// (sorted keys, slashes as they are: how the format was defined).
final class ExportJSONWritingTests: StoreTestCase {
    /// The JSON text JSONSerialization writes for the same document.
    func reference(_ text: String) throws -> String {
        let object = try JSONSerialization.jsonObject(with: Data(text.utf8))
        return String(decoding: try JSONSerialization.data(withJSONObject: object, options: [.sortedKeys, .withoutEscapingSlashes]), as: UTF8.self)
    }

    func written(_ r: PetRecord) throws -> String { String(decoding: try JSONBytes.record(r), as: UTF8.self) }

    /// Every kind with every optional value present and absent, odd text and extreme numbers.
    func samples() -> [PetRecord] {
        let odd = "a/b \"q\" \\ \t\n é 한 \u{2028} \u{7F} 🐕 \u{1}"
        let money = Money(minorUnits: 123_456, currency: .krw)
        let details: [RecordDetail] = [
            .weight(Weight(mass: Mass(grams: 1_000_000), bodyCondition: 9)), .weight(Weight(mass: Mass(grams: 1))),
            .meal(Meal(food: odd, type: .treat, amount: Amount(value: 12.5, unit: .g))), .meal(Meal(food: "x", type: .water, amount: Amount(value: 3, unit: .ml))),
            .meal(Meal(food: "x", type: .meal, amount: nil)),
            .stool(Stool(score: 7, color: odd, blood: true, mucus: false)), .stool(Stool(score: 1, color: nil, blood: false, mucus: true)),
            .urine(Urine(color: "y", amount: .large, straining: true, blood: true)), .urine(Urine(color: nil, amount: nil, straining: false, blood: false)),
            .symptom(Symptom(code: "vomiting", isListed: true, severity: 5, durationMinutes: 0)), .symptom(Symptom(code: odd, isListed: false, severity: 1, durationMinutes: nil)),
            .diary(Diary(text: odd, mood: .happy, title: odd)), .diary(Diary(text: "t", mood: nil)),
            .visit(Visit(clinic: odd, vet: "v", reason: "r", diagnosis: "d", treatment: "t", weight: Mass(grams: 4200),
                         followUp: LocalDate(year: 2026, month: 12, day: 1), cost: money)),
            .visit(Visit(clinic: nil, vet: nil, reason: nil, diagnosis: nil, treatment: nil, weight: nil, followUp: nil, cost: nil)),
            .vaccination(Vaccination(vaccine: "rabies", product: "p", lot: "l", clinic: "c", nextDue: LocalDate(year: 2027, month: 1, day: 2))),
            .vaccination(Vaccination(vaccine: odd, product: nil, lot: nil, clinic: nil, nextDue: nil)),
            .medication(Medication(name: "m", dose: "1 tab", route: .oral, intervalSeconds: 43200, times: [], endsOn: LocalDate(year: 2027, month: 1, day: 2),
                                   stoppedAt: Date(timeIntervalSince1970: 1_790_000_000))),
            .medication(Medication(name: odd, dose: nil, route: nil, intervalSeconds: nil, times: [480, 1200], endsOn: nil, stoppedAt: nil)),
            .dose(Dose(medicationId: 9_223_372_036_854_775_807, medicationName: odd, skipped: true)),
            .expense(Expense(money: money, category: "food", merchant: odd, payment: .card, items: ["a", odd], splitOf: 12)),
            .expense(Expense(money: Money(minorUnits: 1999, currency: Currency.named("USD") ?? .krw), category: "vet", merchant: nil, payment: nil, items: [], splitOf: nil)),
            .grooming(Grooming(tasks: [.deshedding, .bath], groomer: odd, cost: money, next: LocalDate(year: 2027, month: 2, day: 28))),
            .grooming(Grooming()),
            .walk(Walk(meters: 200_000, minutes: 1440)), .walk(Walk()),
        ]
        let files = [Attachment(sha256: String(repeating: "ab", count: 32), originalName: odd, mediaType: "image/png", size: 0, position: 0),
                     Attachment(sha256: String(repeating: "0f", count: 32), originalName: "b.pdf", mediaType: "application/pdf", size: 99, position: 1)]
        return details.enumerated().map { i, d in
            PetRecord(id: Int64(i + 1) * (i % 3 == 0 ? 1 : 1_000_003), petId: i % 5 == 4 ? nil : Int64(i), petName: i % 5 == 4 ? nil : (i % 2 == 0 ? odd : "Rex"),
                      at: Date(timeIntervalSince1970: Double(1_700_000_000 - i * 1_000_003)), utcOffset: [0, 32400, -16200, 19800, -36000][i % 5],
                      note: i % 2 == 0 ? nil : odd, starred: i % 3 == 0, createdAt: Date(), updatedAt: Date(), detail: d,
                      attachments: i % 4 == 0 ? files : [])
        }
    }

    func testRecordsAreWrittenAsJSONSerializationWritesThem() throws {
        let records = samples()
        XCTAssertEqual(Set(records.map(\.kind)), Set(RecordKind.allCases))
        for r in records {
            XCTAssertEqual(try written(r), try reference(try written(r)), "\(r.kind)")
        }
        // Negative and extreme integers, as String(_:) writes them.
        for v: Int64 in [0, 7, 10, -1, -10, 99, 100, Int64.max, Int64.min, -9_223_372_036_854_775_807] {
            var j = JSONBytes()
            j.value(v)
            XCTAssertEqual(String(decoding: j.bytes, as: UTF8.self), String(v))
        }
    }

    /// Instants as before the fixed-width path: the years it covers, its edges, and offsets east and west.
    func testInstantsAreWrittenInFull() {
        XCTAssertEqual(RFC3339.format(seconds: 0, offset: 0), "1970-01-01T00:00:00Z")
        XCTAssertEqual(RFC3339.format(seconds: 1_700_000_000, offset: -16200), "2023-11-14T17:43:20-04:30")
        XCTAssertEqual(RFC3339.format(seconds: 1_700_000_000, offset: 64800), "2023-11-15T16:13:20+18:00")
        XCTAssertEqual(RFC3339.format(seconds: 253_402_300_799, offset: 0), "9999-12-31T23:59:59Z")
        XCTAssertEqual(RFC3339.format(seconds: 253_402_300_800, offset: 0), "10000-01-01T00:00:00Z")
        XCTAssertEqual(RFC3339.format(seconds: -62_167_219_201, offset: 0), "-001-12-31T23:59:59Z")
        XCTAssertEqual(RFC3339.format(seconds: -62_167_219_200, offset: 3600), "0000-01-01T01:00:00+01:00")
        XCTAssertEqual(RFC3339.format(seconds: 0, offset: 360_000), "1970-01-05T04:00:00+100:00")
    }

    func testPetsAreWrittenAsJSONSerializationWritesThem() throws {
        let repo = try makeStore()
        _ = try DemoHousehold(seed: 7, end: LocalDate(year: 2026, month: 11, day: 20)!, timeZone: TimeZone(identifier: "Asia/Seoul")!).seed(into: repo)
        // The demo's, and one with odd text in every fact, a contact's name with commas, insurance without a policy.
        let odd = "a/b \"q\" \\ é 한 \u{2028} 🐕"
        let oddPet = Pet(id: Int64.max, name: odd, species: .other, breed: odd, sex: .female, neutered: true, born: try PartialDate.parse("2020-02"),
                         microchip: nil, color: odd, notes: odd + "\n\t", archivedOn: LocalDate(year: 2026, month: 1, day: 1), archiveReason: .passedAway,
                         health: PetHealth(allergies: [odd, "b"], conditions: [odd], vetContact: PetContact(name: "Kim, Lee & Park", phone: "02-555-0100"),
                                           emergencyContacts: [PetContact(name: odd, phone: "+82 10-5550-1234"), PetContact(name: "b", phone: "123")],
                                           insurance: PetInsurance(insurer: odd)),
                         createdAt: Date(timeIntervalSince1970: 0), updatedAt: Date(timeIntervalSince1970: 1_800_000_000))
        for p in try repo.pets(includeArchived: true) + [oddPet] {
            let text = String(decoding: try JSONBytes.pet(p), as: UTF8.self)
            XCTAssertEqual(text, try reference(text))
        }
    }
}

extension JSONBytes {
    /// A record as the export writes it.
    static func record(_ r: PetRecord) throws -> [UInt8] { var j = JSONBytes(); try j.record(r); return j.bytes }

    /// A pet as the export writes it (by its members, `ExportShape.pet`).
    static func pet(_ p: Pet) throws -> [UInt8] { var j = JSONBytes(); try j.object(ExportShape.pet.members, ExportShape.values(p)); return j.bytes }
}
