import Foundation
import XCTest
@testable import PetModel

final class VisitReportFactsTests: FactsTestCase {
    lazy var coco = pet(1, "Coco", born: PartialDate(year: 2025, month: 1, day: 15))
    var courseID: Int64 = 0

    func history() -> [PetRecord] {
        var med = Medication(name: "Apoquel", dose: "1 tab", intervalSeconds: 86_400)
        med.stoppedAt = instant("2026-08-01T09:00")
        let course = rec(1, "2026-06-10T09:00", .medication(med))
        courseID = course.id
        return [
            rec(1, "2025-06-01", .vaccination(Vaccination(vaccine: "rabies", nextDue: day("2026-06-01")))),
            course,
            rec(1, "2026-06-11T09:00", .dose(Dose(medicationId: course.id, medicationName: "Apoquel"))),
            rec(1, "2026-06-15", .visit(Visit(clinic: "Haneul"))),
            rec(1, "2026-06-20", symptom("vomiting", 4), starred: true),
            rec(1, "2026-07-01", .vaccination(Vaccination(vaccine: "rabies", nextDue: day("2027-07-01")))),
            rec(1, "2026-10-01", symptom("vomiting", 2)),
            rec(1, "2026-10-01", .visit(Visit(clinic: "Haneul"))),
        ]
    }

    func weights() -> (times: [Double], grams: [Double]) {
        (["2026-05-01", "2026-06-01", "2026-09-01"].map { instant($0).timeIntervalSince1970 }, [5000, 4700, 5200])
    }

    func facts(asOf now: Date) -> VisitReportFacts {
        let w = weights()
        return VisitReportFacts(pet: coco, records: history(), weightTimes: w.times, weightGrams: w.grams, periodStart: instant("2026-04-01"),
                                schedule: .shipped, context: TimeContext(now: now, timeZone: seoul))
    }

    func testAsOfAPastDayNothingLaterCounts() {
        let june = facts(asOf: instant("2026-06-30T23:59:59"))
        XCTAssertEqual(june.ageInMonths, 17)
        XCTAssertEqual(june.latestWeight?.mass, Mass(grams: 4700))
        XCTAssertEqual(june.change30?.grams, -300)
        XCTAssertEqual(june.change30?.percent ?? 0, -6, accuracy: 1e-9)
        // Rabies lapsed on June 1; the daily course had its last dose on June 11.
        XCTAssertEqual(june.overdue.count, 2)
        XCTAssertTrue(june.overdue.contains { $0.kind == .vaccine(code: "rabies") })
        XCTAssertTrue(june.overdue.contains { $0.kind == .medication(name: "Apoquel", courseId: courseID) })
        XCTAssertEqual(june.severeSymptoms.count, 1)
        XCTAssertEqual(june.symptoms.map(\.count), [1])
        // The course stopped in August was still running at the end of June.
        XCTAssertEqual(june.currentMedications.map(\.name), ["Apoquel"])
        XCTAssertEqual(june.courses.map(\.lastDay), [nil])
        XCTAssertEqual(june.courses.map(\.dosesGiven), [1])
        XCTAssertEqual(june.visits.count, 1)
        XCTAssertEqual(june.vaccines.count, 1)
        XCTAssertTrue(june.vaccines[0].isOverdue)
        XCTAssertEqual(june.vaccines[0].lastGiven, instant("2025-06-01"))
        XCTAssertEqual(june.weeklySymptoms?.weeks.last, day("2026-06-29"))
        XCTAssertEqual(june.chartTimes.count, 2)
        XCTAssertEqual(june.starred.count, 1)
    }

    /// Issue 42: the weight chart spanned a year while the report's period was 90 days. It covers the period.
    func testTheWeightChartCoversThePeriodOnly() {
        let w = weights()
        let facts = VisitReportFacts(pet: coco, records: history(), weightTimes: w.times, weightGrams: w.grams,
                                     periodStart: instant("2026-05-15"), schedule: .shipped,
                                     context: TimeContext(now: instant("2026-11-01"), timeZone: seoul))
        XCTAssertEqual(facts.chartTimes, [instant("2026-06-01").timeIntervalSince1970, instant("2026-09-01").timeIntervalSince1970])
        XCTAssertEqual(facts.chartGrams, [4700, 5200])
    }

    func testAsOfNowTheLaterRecordsCount() {
        let now = facts(asOf: ctx.now)
        XCTAssertEqual(now.ageInMonths, 22)
        XCTAssertEqual(now.latestWeight?.mass, Mass(grams: 5200))
        XCTAssertNil(now.change30)
        XCTAssertTrue(now.overdue.isEmpty)
        XCTAssertTrue(now.currentMedications.isEmpty)
        XCTAssertEqual(now.courses.map(\.lastDay), [day("2026-08-01")])
        XCTAssertEqual(now.visits.map { ctx.localDate(of: $0.at) }, [day("2026-10-01"), day("2026-06-15")])
        XCTAssertEqual(now.symptoms.map(\.count), [2])
        XCTAssertEqual(now.symptoms.map(\.worstSeverity), [4])
        XCTAssertEqual(now.vaccines.map(\.nextDue), [day("2027-07-01")])
        guard case .due = now.vaccines[0].status else { return XCTFail("rabies is due later, not \(now.vaccines[0].status)") }
        XCTAssertEqual(now.weeklySymptoms?.weeks.last, day("2026-11-23"))
    }

    func testACourseEndedBeforeThePeriodIsLeftOut() {
        let w = weights()
        let later = VisitReportFacts(pet: coco, records: history(), weightTimes: w.times, weightGrams: w.grams, periodStart: instant("2026-09-01"),
                                     schedule: .shipped, context: ctx)
        XCTAssertTrue(later.courses.isEmpty)
        XCTAssertEqual(later.symptoms.map(\.count), [1])
        XCTAssertTrue(later.severeSymptoms.isEmpty)
    }

    func testThePeriodsVisitCostsAddUpInOneCurrencyAtEachDaysRate() throws {
        func cost(_ minor: Int64, _ code: String) -> Money { Money(minorUnits: minor, currency: Currency.named(code)!) }
        let records = [
            rec(1, "2026-03-01", .visit(Visit(clinic: "Before the period", cost: cost(99_000, "KRW")))),
            rec(1, "2026-11-16T11:00", .visit(Visit(clinic: "No rate yet", cost: cost(500, "USD")))),
            rec(1, "2026-11-17T11:00", .visit(Visit(clinic: "Haneul", cost: cost(85_000, "KRW")))),
            rec(1, "2026-11-18T11:00", .visit(Visit(clinic: "VCA", cost: cost(1250, "USD")))),
            rec(1, "2026-11-19T11:00", .visit(Visit(clinic: "Tenjin", cost: cost(1200, "JPY")))),
            rec(1, "2026-11-20T11:00", .visit(Visit(clinic: "No cost"))),
        ]
        let facts = VisitReportFacts(pet: coco, records: records, weightTimes: [], weightGrams: [], periodStart: instant("2026-04-01"),
                                     schedule: .shipped, context: ctx)
        XCTAssertEqual(facts.periodVisitCosts.map(\.day.description), ["2026-11-19", "2026-11-18", "2026-11-17", "2026-11-16"])
        let rates = RateTable(try ECBRates.parseCSV(ExchangeRatesTests.history))
        // 85,000 + 12.50 × 1460 / 1.04 (11-17's rates) = 17,548 + 1,200 × 1470 / 161 (11-19's) = 10,957.
        let total = facts.costTotal(in: .krw, rates: rates)
        XCTAssertEqual(total.total, cost(85_000 + 17_548 + 10_957, "KRW"))
        XCTAssertEqual(total.visits, 4)
        XCTAssertEqual(total.converted, ["USD": 1, "JPY": 1])
        XCTAssertEqual(total.unconverted, ["USD": 1])
    }

    func testTheNearestWeightAndThePeriodFollowEachRecordsOwnDay() {
        // A Tokyo morning visit (Nov 19, 15:00 in Los Angeles) and that evening's weight (Nov 20, 01:00 there).
        let visit = rec(1, "2026-11-20T08:00:00+09:00", .visit(Visit(clinic: "Tenjin", cost: Money(minorUnits: 1200, currency: Currency.named("JPY")!))))
        let weight = rec(1, "2026-11-20T18:00:00+09:00", .weight(Weight(mass: Mass(grams: 5100))))
        let la = TimeContext(now: instant("2026-11-25T12:00:00Z"), timeZone: TimeZone(identifier: "America/Los_Angeles")!)
        let facts = VisitReportFacts(pet: coco, records: [visit, weight], weightTimes: [weight.at.timeIntervalSince1970], weightGrams: [5100],
                                     periodStart: la.startOfDay(day("2026-11-20")), periodFirstDay: day("2026-11-20"),
                                     schedule: .shipped, context: la)
        XCTAssertEqual(facts.visitWeights, [Mass(grams: 5100)], "both on Nov 20 on their own clock")
        XCTAssertEqual(facts.periodVisitCosts.map(\.day.description), ["2026-11-20"], "a period from Nov 20 holds the Tokyo visit")
        XCTAssertTrue(facts.isInPeriod(visit.at, utcOffset: visit.utcOffset))
    }
}
