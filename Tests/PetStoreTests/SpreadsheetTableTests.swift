import Foundation
import XCTest
import PetModel
@testable import PetStoreCore
@testable import PetTransfer

/// The spreadsheet tables (`SpreadsheetTables.recordSheets`): what a valid row of each table becomes, and
/// which fault a bad row is refused with, file and line, when it has two (the first its table checks).
final class SpreadsheetTableTests: XCTestCase {
    let pets = "pet_id,name,species\n1,Kkami,dog\n"

    func read(_ tables: [String: String]) throws -> ImportBatch {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("sheets-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        for (name, text) in tables.merging(["pets.csv": pets], uniquingKeysWith: { a, _ in a }) {
            try Data(text.utf8).write(to: dir.appendingPathComponent(name))
        }
        return try ImportReader.read(path: dir.path, options: ImportOptions(timeZone: TimeZone(identifier: "UTC")!, now: Date(timeIntervalSince1970: 1_900_000_000)))
    }

    func problem(_ tables: [String: String]) -> ImportError? {
        do { _ = try read(tables); return nil } catch { return error as? ImportError }
    }

    func testEveryTableReadsItsColumnsByAnyAlias() throws {
        let batch = try read([
            "symptoms.csv": "pet_id,date,code,severity,notes,duration_minutes\n1,2026-03-01 08:00,vomiting,3,after breakfast,15\n1,2026-03-02,Sneezing fit,1,,\n",
            "visits.csv": "pet_id,visited_on,clinic,vet,reason,diagnosis,treatment,weight_kg\n1,2026-03-03,Haneul,Dr Kim,checkup,healthy,none,12.5\n",
            "vaccinations.csv": "pet_id,given_on,vaccine,next_due,lot,product,clinic\n1,2026-03-04,Rabies,2027-03-04,L1,Nobivac,Haneul\n",
            "expenses.csv": "pet_id,spent_on,category,amount,currency,note,merchant\n1,2026-03-05,food,12.50,usd,kibble,Shop\n,2026-03-06,toys,3000,KRW,,\n",
        ])
        XCTAssertEqual(batch.records.map(\.location), [2, 3].map { SourceLocation(file: "symptoms.csv", line: $0) }
            + [SourceLocation(file: "visits.csv", line: 2), SourceLocation(file: "vaccinations.csv", line: 2)]
            + [2, 3].map { SourceLocation(file: "expenses.csv", line: $0) })
        XCTAssertEqual(batch.records.map(\.pet), [0, 0, 0, 0, 0, nil])
        XCTAssertEqual(batch.records[0].note, "after breakfast")
        XCTAssertEqual(batch.records[1].at, 1_772_452_800, "a date alone is noon")
        guard case .symptom(let s) = batch.records[0].detail, case .symptom(let unlisted) = batch.records[1].detail,
              case .visit(let v) = batch.records[2].detail, case .vaccination(let vac) = batch.records[3].detail,
              case .expense(let e) = batch.records[4].detail, case .expense(let household) = batch.records[5].detail else {
            return XCTFail("\(batch.records.map(\.detail))")
        }
        XCTAssertEqual([s.code, String(s.isListed), String(s.severity), String(s.durationMinutes ?? 0)], ["vomiting", "true", "3", "15"])
        XCTAssertEqual([unlisted.code, String(unlisted.isListed)], ["Sneezing fit", "false"])
        XCTAssertEqual([v.clinic, v.vet, v.reason, v.diagnosis, v.treatment], ["Haneul", "Dr Kim", "checkup", "healthy", "none"])
        XCTAssertEqual(v.weight?.grams, 12_500)
        XCTAssertEqual([vac.vaccine, vac.product, vac.lot, vac.clinic, vac.nextDue?.description], [VaccineName.normalize("Rabies"), "Nobivac", "L1", "Haneul", "2027-03-04"])
        XCTAssertEqual([e.money, household.money], [Money(minorUnits: 1250, currency: Currency.named("USD")!), Money(minorUnits: 3000, currency: Currency.named("KRW")!)])
        XCTAssertEqual([e.category, e.merchant, batch.records[4].note], ["food", "Shop", "kibble"])
    }

    func testABadRowIsRefusedWithItsFirstFaultFileAndLine() {
        let long = String(repeating: "x", count: 201)
        func at(_ file: String, _ line: Int, _ problem: ImportError.Problem) -> ImportError { ImportError(file: file, line: line, problem: problem) }
        let cases: [(String, String, ImportError)] = [
            ("symptoms.csv", "pet_id,observed_at,symptom\n", at("symptoms.csv", 1, .missingColumn("severity"))),
            ("symptoms.csv", "pet_id,symptom,severity\n", at("symptoms.csv", 1, .missingColumn("observed_at"))),
            ("symptoms.csv", "pet_id,at,symptom,severity\n1,2026-03-01,cough\n", at("symptoms.csv", 2, .wrongFieldCount(expected: 4, found: 3))),
            ("symptoms.csv", "pet_id,at,symptom,severity\n9,tomorrow,cough,9\n", at("symptoms.csv", 2, .unknownPet("9"))),
            ("symptoms.csv", "pet_id,at,symptom,severity\n1,tomorrow,cough,9\n", at("symptoms.csv", 2, .badTime("tomorrow"))),
            ("symptoms.csv", "pet_id,at,symptom,severity\n1,2026-03-01,\" \",9\n", at("symptoms.csv", 2, .value(.emptyText(field: "symptom")))),
            ("symptoms.csv", "pet_id,at,symptom,severity,note\n1,2026-03-01,cough,9,\" \"\n",
             at("symptoms.csv", 2, .value(.outOfRange(field: "severity", value: "9", min: 1, max: 5)))),
            ("symptoms.csv", "pet_id,at,symptom,severity,note,duration_minutes\n1,2026-03-01,cough,2,\" \",-1\n", at("symptoms.csv", 2, .value(.emptyText(field: "note")))),
            ("symptoms.csv", "pet_id,at,symptom,severity,duration_minutes\n1,2026-03-01,cough,2,-1\n",
             at("symptoms.csv", 2, .value(.outOfRange(field: "duration_minutes", value: "-1", min: 0, max: 1_000_000_000)))),
            ("visits.csv", "pet_id,date,clinic,weight_kg\n1,2026-03-01,\(long),0\n", at("visits.csv", 2, .value(.massOutOfRange("0")))),
            ("visits.csv", "pet_id,date,clinic,diagnosis\n1,2026-03-01,\(long),\" \"\n", at("visits.csv", 2, .value(.textTooLong(field: "clinic", max: 200)))),
            ("visits.csv", "pet_id,date,vet,diagnosis\n1,2026-03-01,Kim,\" \"\n", at("visits.csv", 2, .value(.emptyText(field: "diagnosis")))),
            ("vaccinations.csv", "pet_id,date,vaccine,valid_until\n1,2026-03-01,\" \",2026-13-01\n", at("vaccinations.csv", 2, .badTime("2026-13-01"))),
            ("vaccinations.csv", "pet_id,date,vaccine,lot\n1,2026-03-01,\" \",\(long)\n", at("vaccinations.csv", 2, .value(.emptyText(field: "vaccine")))),
            ("vaccinations.csv", "pet_id,date,vaccine,product,lot\n1,2026-03-01,rabies,\(long),\" \"\n",
             at("vaccinations.csv", 2, .value(.textTooLong(field: "product", max: 200)))),
            ("expenses.csv", "pet_id,date,category,amount\n", at("expenses.csv", 1, .missingColumn("currency"))),
            ("expenses.csv", "pet_id,date,category,amount,currency\n1,2026-03-01,\" \",abc,ZZZ\n", at("expenses.csv", 2, .value(.unknownCurrency("ZZZ")))),
            ("expenses.csv", "pet_id,date,category,amount,currency,description\n,2026-03-01,\" \",5,USD,\" \"\n", at("expenses.csv", 2, .value(.emptyText(field: "description")))),
            ("expenses.csv", "pet_id,date,category,amount,currency,merchant\n,2026-03-01,\" \",5,USD,\(long)\n", at("expenses.csv", 2, .value(.emptyText(field: "category")))),
        ]
        for (file, text, expected) in cases {
            XCTAssertEqual(problem([file: text]), expected, text)
        }
    }
}
