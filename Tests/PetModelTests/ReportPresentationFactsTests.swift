import Foundation
import XCTest
@testable import PetModel

/// The week start of the symptom bars and the weight shown beside each visit.
final class ReportPresentationFactsTests: FactsTestCase {
    func testWeeksStartOnSundayWhenTheCalendarsDo() {
        // 2026-11-04 is a Wednesday: its Sunday-first week starts on 11-01, its Monday-first one on 11-02.
        let symptoms: [(day: LocalDate, symptom: Symptom)] = [
            (day("2026-11-01"), Symptom(code: "vomiting", isListed: true, severity: 2)),
            (day("2026-11-08"), Symptom(code: "vomiting", isListed: true, severity: 2)),
            (day("2026-11-14"), Symptom(code: "vomiting", isListed: true, severity: 2)),
        ]
        let sunday = WeeklySymptomCounts(symptoms, from: day("2026-11-04"), through: day("2026-11-23"), by: .severity, weekStartsOnSunday: true)
        XCTAssertEqual(sunday.weeks.map(\.description), ["2026-11-01", "2026-11-08", "2026-11-15", "2026-11-22"])
        XCTAssertTrue(sunday.weeks.allSatisfy { $0.isoWeekday == 7 })
        XCTAssertEqual(sunday.series.map(\.counts), [[1, 2, 0, 0]])
        let monday = WeeklySymptomCounts(symptoms, from: day("2026-11-04"), through: day("2026-11-23"), by: .severity)
        XCTAssertEqual(monday.weeks.first?.description, "2026-11-02")
        XCTAssertEqual(monday.series.map(\.counts), [[1, 1, 0, 0]], "11-01 is before the first Monday-first week")
        // A first day that is a Sunday starts its own week.
        let onSunday = WeeklySymptomCounts(symptoms, from: day("2026-11-08"), through: day("2026-11-09"), by: .severity, weekStartsOnSunday: true)
        XCTAssertEqual(onSunday.weeks.map(\.description), ["2026-11-08"])
    }

    func testAVisitShowsItsOwnWeightElseThatDaysNearest() {
        let coco = pet(1, "Coco")
        let records = [
            rec(1, "2026-11-03T10:00", .visit(Visit(clinic: "Haneul", weight: Mass(grams: 4300), followUp: day("2026-11-17")))),
            rec(1, "2026-11-10T15:00", .visit(Visit(clinic: "Haneul"))),
            rec(1, "2026-11-12T09:00", .visit(Visit(clinic: "Haneul"))),
        ]
        let times = ["2026-11-03T08:00", "2026-11-10T08:00", "2026-11-10T14:00", "2026-11-10T23:30", "2026-11-13T00:10"]
            .map { instant($0).timeIntervalSince1970 }
        let facts = VisitReportFacts(pet: coco, records: records, weightTimes: times, weightGrams: [4100, 4200, 4250, 4400, 4500],
                                     periodStart: instant("2026-10-01"), schedule: .shipped,
                                     context: TimeContext(now: instant("2026-11-23T10:00"), timeZone: seoul))
        // Newest first: 11-12 has no weight that day (11-13 00:10 is the next day), 11-10 takes 14:00, 11-03 its own.
        XCTAssertEqual(facts.visits.map { $0.visit.clinic }, ["Haneul", "Haneul", "Haneul"])
        XCTAssertEqual(facts.visitWeights, [nil, Mass(grams: 4250), Mass(grams: 4300)])
    }
}
