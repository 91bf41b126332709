import Foundation
import XCTest
@testable import PetModel

final class MeasuredFactsTests: FactsTestCase {
    func testMassChangeIsSignedAndAShareOfTheEarlierMass() {
        let loss = MassChange(from: Mass(grams: 4000), to: Mass(grams: 3800))
        XCTAssertEqual(loss.grams, -200)
        XCTAssertEqual(loss.percent, -5, accuracy: 1e-9)
        XCTAssertEqual(MassChange(from: Mass(grams: 3800), to: Mass(grams: 4000)).grams, 200)
        XCTAssertEqual(Mass.gramsPerPound, 453.59237)
        XCTAssertEqual(UnitSystem.imperial.gramsPerUnit, Mass.gramsPerPound)
        XCTAssertEqual(UnitSystem.metric.symbol, "kg")
    }

    func testMassChangeOverDaysNeedsAWeightNearThatDay() {
        let d: Double = 86_400
        let times = [0, 20 * d, 50 * d], grams: [Double] = [5000, 4800, 4500]
        // 30 days before day 50 is day 20: weighed exactly then.
        XCTAssertEqual(MassChange.over(days: 30, times: times, grams: grams), MassChange(from: Mass(grams: 4800), to: Mass(grams: 4500)))
        // 90 days before is day -40: nothing that early.
        XCTAssertNil(MassChange.over(days: 90, times: times, grams: grams))
        // 45 days before is day 5: the weight of day 0 is within 30 days before it.
        XCTAssertEqual(MassChange.over(days: 45, times: times, grams: grams)?.grams, -500)
        XCTAssertNil(MassChange.over(days: 30, times: [], grams: []))
    }

    func testStoolDistributionCountsScoresAndFlags() {
        let records = [
            rec(1, "2026-11-01", .stool(Stool(score: 4))), rec(1, "2026-11-02", .stool(Stool(score: 6, blood: true))),
            rec(1, "2026-11-03", .stool(Stool(score: 4, mucus: true))), rec(1, "2026-11-03", symptom("vomiting", 2)),
        ]
        let stools = StoolDistribution(records)
        XCTAssertEqual(stools.scores, [4, 6, 4])
        XCTAssertEqual(stools.counts.map(\.score), [4, 6])
        XCTAssertEqual(stools.counts.map(\.count), [2, 1])
        XCTAssertEqual(stools.flagged, 2)
        XCTAssertEqual(stools.average ?? 0, 14.0 / 3, accuracy: 1e-9)
        XCTAssertNil(StoolDistribution([]).average)
        XCTAssertTrue(StoolDistribution([]).isEmpty)
    }

    func testAgeInMonthsAsOfADay() {
        let coco = pet(1, "Coco", born: PartialDate(year: 2025, month: 1, day: 15))
        XCTAssertEqual(coco.ageInMonths(on: day("2026-01-14")), 11)
        XCTAssertEqual(coco.ageInMonths(on: day("2026-01-15")), 12)
        XCTAssertNil(coco.ageInMonths(on: day("2024-12-31")))
        // A year alone counts from its first day; an archived pet stops ageing.
        XCTAssertEqual(pet(2, "Nabi", born: PartialDate(year: 2019)).ageInMonths(on: day("2026-11-23")), 94)
        XCTAssertEqual(pet(3, "Bori", born: PartialDate(year: 2019), archivedOn: day("2020-01-01")).ageInMonths(on: day("2026-11-23")), 12)
        XCTAssertNil(pet(4, "Mochi").ageInMonths(on: day("2026-11-23")))
    }

    func testACombinationDoseCountsForWhatItCovers() {
        let schedule = VaccinationSchedule.shipped
        let rhdv2 = schedule.vaccine("rhdv2", for: .rabbit)!, combination = schedule.vaccine("myxo-rhd", for: .rabbit)!
        XCTAssertTrue(schedule.dose(named: "myxo-rhd", countsAs: rhdv2, for: .rabbit))
        XCTAssertFalse(schedule.dose(named: "rhdv2", countsAs: combination, for: .rabbit))
        XCTAssertTrue(schedule.dose(named: "RHDV2", countsAs: rhdv2, for: .rabbit))
        let rabies = schedule.vaccine("rabies", for: .dog)!
        XCTAssertFalse(schedule.dose(named: "dhpp", countsAs: rabies, for: .dog))
    }

    func testNextDueCountsEarlierDosesOfThisPetOnly() {
        let schedule = VaccinationSchedule.shipped
        let bun = pet(2, "Bun", .rabbit, born: PartialDate(year: 2020))
        let rhdv2 = schedule.vaccine("rhdv2", for: .rabbit)!
        let records = [rec(2, "2025-11-01", .vaccination(Vaccination(vaccine: "myxo-rhd"))),
                       rec(3, "2025-10-01", .vaccination(Vaccination(vaccine: "rhdv2")))]
        let withHistory = schedule.nextDue(rhdv2, givenOn: day("2026-11-01"), to: bun, records: records, intent: .automatic, context: ctx)
        XCTAssertEqual(withHistory, schedule.nextDue(rhdv2, doses: [day("2025-11-01"), day("2026-11-01")], born: day("2020-01-01")))
        XCTAssertEqual(schedule.nextDue(rhdv2, givenOn: day("2026-11-01"), to: bun, records: [], intent: .booster, context: ctx), day("2027-11-01"))
    }
}
