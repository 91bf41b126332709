import Foundation
import XCTest
@testable import PetModel

final class BinnedFactsTests: FactsTestCase {
    func testWeeksStartOnMondayAndEmptyWeeksCount() {
        // 2026-11-04 is a Wednesday: its week starts on Monday 11-02.
        let symptoms: [(day: LocalDate, symptom: Symptom)] = [
            (day("2026-11-04"), Symptom(code: "vomiting", isListed: true, severity: 2)),
            (day("2026-11-08"), Symptom(code: "vomiting", isListed: true, severity: 4)),
            (day("2026-11-20"), Symptom(code: "vomiting", isListed: true, severity: 2)),
        ]
        let counts = WeeklySymptomCounts(symptoms, from: day("2026-11-04"), through: day("2026-11-23"), by: .severity)
        XCTAssertEqual(counts.weeks.map(\.description), ["2026-11-02", "2026-11-09", "2026-11-16", "2026-11-23"])
        XCTAssertEqual(counts.series.map(\.severity), [2, 4])
        XCTAssertEqual(counts.series.map(\.counts), [[1, 0, 1, 0], [1, 0, 0, 0]])
    }

    func testByKindOwnWordsGroupWithoutCase() {
        let symptoms: [(day: LocalDate, symptom: Symptom)] = [
            (day("2026-11-10"), Symptom(code: "Zorp Rash", isListed: false, severity: 1)),
            (day("2026-11-11"), Symptom(code: "zorp rash", isListed: false, severity: 3)),
            (day("2026-11-18"), Symptom(code: "coughing", isListed: true, severity: 2)),
        ]
        let counts = WeeklySymptomCounts(symptoms, from: day("2026-11-09"), through: day("2026-11-22"), by: .kind)
        XCTAssertEqual(counts.series.count, 2)
        XCTAssertEqual(counts.series.map { $0.kind?.code }, ["coughing", "Zorp Rash"])
        XCTAssertEqual(counts.series.map(\.counts), [[0, 1], [2, 0]])
    }

    func testMonthComparisonKeysPetsByIdAndSymptomsByCode() {
        let records = [
            rec(1, "2026-10-05", .weight(Weight(mass: Mass(grams: 4000))), name: "Penny"),
            rec(1, "2026-11-05", .weight(Weight(mass: Mass(grams: 4100))), name: "Penny"),
            rec(1, "2026-11-20", .weight(Weight(mass: Mass(grams: 4200))), name: "Penny"),
            rec(2, "2026-11-06", .weight(Weight(mass: Mass(grams: 900))), name: "Penny"),
            rec(1, "2026-11-07", symptom("vomiting", 2)),
            rec(2, "2026-11-08", symptom("vomiting", 3)),
            rec(2, "2026-10-08", symptom("Blue Tongue Spot", 1, listed: false)),
            rec(1, "2026-11-09", .dose(Dose(medicationId: 9, medicationName: "x"))),
            rec(1, "2026-11-09", .dose(Dose(medicationId: 9, medicationName: "x", skipped: true))),
            rec(1, "2026-11-10", expense(500, "USD", "food")),
            rec(nil, "2026-11-11", expense(250, "USD", "food")),
            rec(1, "2026-09-30", .visit(Visit())),
            rec(1, "2026-12-01", .visit(Visit())),
        ]
        let c = MonthComparison(records, month: day("2026-11-15"), context: ctx)
        XCTAssertEqual(c.month, day("2026-11-01"))
        XCTAssertEqual(c.previousMonth, day("2026-10-01"))
        XCTAssertEqual(c.weighedPets, [1, 2])
        XCTAssertEqual(c.this.lastWeight, [1: Mass(grams: 4200), 2: Mass(grams: 900)])
        XCTAssertEqual(c.previous.lastWeight, [1: Mass(grams: 4000)])
        XCTAssertEqual(c.this.symptoms, ["vomiting": 2])
        XCTAssertEqual(c.symptomKeys, ["vomiting", "~bluetonguespot"])
        XCTAssertEqual(c.previous.symptomSamples["~bluetonguespot"]?.code, "Blue Tongue Spot")
        XCTAssertEqual(c.this.doses, 1)
        XCTAssertEqual(c.this.spending, ["USD": ["food": 750]])
        XCTAssertEqual(c.categories("USD"), ["food"])
        // Visits on the last day before and the first day after the two months do not count.
        XCTAssertEqual(c.this.visits + c.previous.visits, 0)
    }
}
