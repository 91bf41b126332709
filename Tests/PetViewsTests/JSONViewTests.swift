import Foundation
import XCTest
import PetModel
import PetStoreCore
@testable import PetViews

/// The views are written by one encoder with the bytes `JSONSerialization` (pretty, sorted keys,
/// slashes unescaped) gave before them: checked by re-writing each view's text through it, on the odd
/// values (decimals, huge ids, hostile text, nulls, empty lists, keys that sort differently by bytes).
final class JSONViewTests: XCTestCase {
    /// What `JSONSerialization` writes for the same value, with petlog's C1/bidi escaping after it.
    private func serialized(_ text: String) throws -> String {
        let object = try JSONSerialization.jsonObject(with: Data(text.utf8), options: [.fragmentsAllowed])
        let data = try JSONSerialization.data(withJSONObject: object, options: [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes, .fragmentsAllowed])
        return JSONView.escapingC1AndBidi(String(decoding: data, as: UTF8.self))
    }

    private func assertSameAsSerialization<V: Encodable>(_ view: V, file: StaticString = #filePath, line: UInt = #line) throws {
        let text = try JSONView.text(view)
        XCTAssertEqual(text, try serialized(text), file: file, line: line)
    }

    static let hostile = "Ev\u{202E}il \"$(x)\" \\ /slash\u{01}\u{7F}\u{85}\u{9B}\u{2028} 한글 🐶 é"
    static let at = Date(timeIntervalSince1970: 1_763_859_600.5)

    private func record(_ detail: RecordDetail, id: Int64 = .max, note: String? = hostile, writer: String? = nil) -> PetRecord {
        PetRecord(id: id, petId: id == .max ? nil : 7, petName: id == .max ? nil : JSONViewTests.hostile, at: Self.at, utcOffset: 32400, note: note,
                  starred: id % 2 == 0, createdAt: Self.at, updatedAt: Self.at, detail: detail,
                  attachments: [Attachment(sha256: String(repeating: "ab", count: 32), originalName: "a/b \u{9B}.jpg", mediaType: "image/jpeg", size: .max, position: 0)],
                  writtenBy: writer)
    }

    private var details: [RecordDetail] {
        let usd = Money(minorUnits: 1234, currency: Currency.named("USD") ?? .krw)
        return [
            .weight(Weight(mass: Mass(grams: 4250), bodyCondition: BodyConditionScore(5))),
            .weight(Weight(mass: Mass(grams: 0))),
            .meal(Meal(food: Self.hostile, type: .treat, amount: Amount(value: 0.1 + 0.2, unit: .g))),
            .meal(Meal(food: "", type: .meal, amount: nil)),
            .stool(Stool(score: StoolScore(clamping: 7), color: nil, blood: true)),
            .symptom(Symptom(code: Self.hostile, isListed: false, severity: .lowest, durationMinutes: Int.max)),
            .diary(Diary(text: Self.hostile)),
            .visit(Visit(clinic: Self.hostile, cost: usd)),
            .vaccination(Vaccination(vaccine: "rabies", nextDue: LocalDate(clamping: 2027, month: 1, day: 31))),
            .medication(Medication(name: "x", intervalSeconds: 86400, times: [480, 1200])),
            .dose(Dose(medicationId: .max, medicationName: Self.hostile, skipped: true)),
            .expense(Expense(money: usd, category: "a_b", merchant: nil, items: [], splitOf: .min)),
        ]
    }

    func testRecordsAreWrittenAsJSONSerializationWroteThem() throws {
        for d in details {
            try assertSameAsSerialization(RecordJSON(record(d)))
            try assertSameAsSerialization(RecordJSON(record(d, id: 12, note: nil), showWriter: true))
            try assertSameAsSerialization([RecordJSON(record(d, id: 12, writer: "petlog_owner"), showWriter: true)])
        }
        try assertSameAsSerialization([RecordJSON]())
    }

    func testNullsAreWrittenAndMissingKeysLeftOut() throws {
        let text = try JSONView.text(RecordJSON(record(.diary(Diary(text: "t")), id: 12, note: nil)))
        XCTAssertTrue(text.contains("\"note\" : null"), text)
        XCTAssertTrue(text.contains("\"mood\" : null"), text)
        XCTAssertFalse(text.contains("written_by"), text)
        let writer = try JSONView.text(RecordJSON(record(.diary(Diary(text: "t")), id: 12), showWriter: true))
        XCTAssertTrue(writer.contains("\"written_by\" : null"), writer)
    }

    func testHostileTextIsEscapedAndDecodesToItself() throws {
        let text = try JSONView.text([Self.hostile])
        XCTAssertEqual(text, "[\n  \"Ev\\u202eil \\\"$(x)\\\" \\\\ /slash\\u0001\\u007f\\u0085\\u009b\\u2028 한글 🐶 é\"\n]")
        XCTAssertEqual(try JSONDecoder().decode([String].self, from: Data(text.utf8)), [Self.hostile])
    }

    func testDecimalsAndLargeNumbers() throws {
        let weights = ChartJSON.WeightSeries(pet: Self.hostile, unit: "kg", points: [("2026-11-23T10:00:00+09:00", 4.25), ("x", 0.1 + 0.2), ("y", 1e-7), ("z", 12345678.9), ("w", 2)])
        try assertSameAsSerialization([weights])
        let text = try JSONView.text(weights)
        XCTAssertTrue(text.contains("4.25"), text)
        XCTAssertTrue(text.contains("0.30000000000000004"), text)
        XCTAssertTrue(text.contains("\"w\",\n      2\n"), text)
        let stacks = ChartJSON.Symptoms(pet: "p", weeks: [LocalDate(clamping: 2026, month: 11, day: 16)], stacks: [("mild", [0, 1.5, 3])])
        try assertSameAsSerialization(stacks)
    }

    func testKeysSortAsBefore() throws {
        // Keys the encoder writes in byte order and JSONSerialization in its own: the views have none that differ.
        let config = ConfigListJSON(path: Self.hostile, exists: false, settings: ["units": "metric", "week_start": "monday", "timezone": "", "currency": "KRW"],
                                    file: [:])
        try assertSameAsSerialization(config)
        let calendar = CalendarJSON(month: LocalDate(clamping: 2026, month: 2, day: 1), days: [LocalDate(clamping: 2026, month: 2, day: 1)],
                                    marks: [LocalDate(clamping: 2026, month: 2, day: 1): Dictionary(uniqueKeysWithValues: RecordKind.allCases.map { ($0, 1) })])
        try assertSameAsSerialization(calendar)
        // The check can fail: keys with digits or mixed case are where the two orders part.
        let differing = try JSONView.text(["a10": 1, "a9": 2, "a_b": 3, "B": 4, "b": 5])
        XCTAssertNotEqual(differing, try serialized(differing))
    }

    func testPetsAndTheirShowView() throws {
        let health = PetHealth(allergies: [Self.hostile], conditions: [], vetContact: PetContact(name: Self.hostile, phone: "+82 10"),
                               emergencyContacts: [], insurance: PetInsurance(insurer: "i", policy: nil))
        let pet = Pet(id: .max, name: Self.hostile, species: .dog, notes: nil, health: health, createdAt: Self.at, updatedAt: Self.at)
        try assertSameAsSerialization(PetJSON(pet))
        try assertSameAsSerialization(PetShowJSON(pet: pet, latestWeight: nil, currentMedications: [], recordCount: 0))
        try assertSameAsSerialization(PetShowJSON(pet: pet, latestWeight: record(.weight(Weight(mass: Mass(grams: 1)))),
                                                  currentMedications: [record(.medication(Medication(name: "m")))], recordCount: Int.max))
        let text = try JSONView.text(PetShowJSON(pet: pet, latestWeight: nil, currentMedications: [], recordCount: 3))
        XCTAssertTrue(text.contains("\"latest_weight\" : null"), text)
        XCTAssertTrue(text.contains("\"record_count\" : 3"), text)
        XCTAssertTrue(text.contains("\"species\" : \"dog\""), text)
    }

    func testStatsValues() throws {
        let items = [StatsJSON.Item("weight_grams:7", .grams(nil), .grams(4250)), StatsJSON.Item("stool_scores", .scores([]), .scores([1, 7])),
                     StatsJSON.Item("spending:KRW", .minorUnits(.max), .minorUnits(0), percentChange: .some(nil)),
                     StatsJSON.Item("spending:KRW:food", .minorUnits(5), .minorUnits(4), percentChange: .some(25))]
        try assertSameAsSerialization(items)
        let text = try JSONView.text(items)
        XCTAssertTrue(text.contains("\"percent_change\" : null"), text)
        XCTAssertEqual(text.components(separatedBy: "percent_change").count, 3, text)
    }
}
