import Foundation
import XCTest
@testable import PetModel

/// `stats` compares like with like: a month under way against the same days of the previous month.
final class ComparedPeriodsTests: XCTestCase {
    func day(_ s: String) -> LocalDate { LocalDate.parseISO(Substring(s))! }

    func testTheMonthSoFarAgainstTheSameDaysBefore() {
        let p = ComparedPeriods(month: day("2026-11-01"), today: day("2026-11-23"))
        XCTAssertTrue(p.isPartial)
        XCTAssertEqual([p.first, p.last, p.previousFirst, p.previousLast], [day("2026-11-01"), day("2026-11-23"), day("2026-10-01"), day("2026-10-23")])
        XCTAssertTrue(p.containsThis(day("2026-11-23")))
        XCTAssertFalse(p.containsThis(day("2026-11-24")))
        XCTAssertTrue(p.containsPrevious(day("2026-10-23")))
        XCTAssertFalse(p.containsPrevious(day("2026-10-24")))
    }

    func testAShorterPreviousMonthCountsWhole() {
        let p = ComparedPeriods(month: day("2026-03-01"), today: day("2026-03-30"))
        XCTAssertEqual([p.previousFirst, p.previousLast], [day("2026-02-01"), day("2026-02-28")])
        XCTAssertTrue(p.isPartial)
    }

    func testAPastOrFutureMonthIsWhole() {
        for today in ["2026-12-05", "2026-10-31"] {
            let p = ComparedPeriods(month: day("2026-11-01"), today: day(today))
            XCTAssertFalse(p.isPartial, today)
            XCTAssertEqual([p.first, p.last, p.previousFirst, p.previousLast], [day("2026-11-01"), day("2026-11-30"), day("2026-10-01"), day("2026-10-31")], today)
        }
    }

    /// Issue 29: the last day of a month is still under way, so it compares the same days (it compared
    /// Nov 1–30 with all 31 days of October, and Feb 1–29 with all of January).
    func testTheLastDayOfAMonthAndALeapDayCompareTheSameDays() {
        let nov = ComparedPeriods(month: day("2026-11-01"), today: day("2026-11-30"))
        XCTAssertTrue(nov.isPartial)
        XCTAssertEqual([nov.first, nov.last, nov.previousFirst, nov.previousLast], [day("2026-11-01"), day("2026-11-30"), day("2026-10-01"), day("2026-10-30")])
        let leap = ComparedPeriods(month: day("2028-02-01"), today: day("2028-02-29"))
        XCTAssertTrue(leap.isPartial)
        XCTAssertEqual([leap.last, leap.previousFirst, leap.previousLast], [day("2028-02-29"), day("2028-01-01"), day("2028-01-29")])
        let march = ComparedPeriods(month: day("2028-03-01"), today: day("2028-03-31"))
        XCTAssertEqual([march.last, march.previousLast], [day("2028-03-31"), day("2028-02-29")], "a shorter month before counts whole")
    }

    func testComparisonsCountOnlyTheStretches() {
        let seoul = TimeContext(now: Date(timeIntervalSince1970: 1_795_395_600), timeZone: TimeZone(identifier: "Asia/Seoul")!)
        func meal(_ id: Int64, _ d: String) -> PetRecord {
            let at = seoul.instant(day(d), hour: 12, minute: 0)
            return PetRecord(id: id, petId: 1, petName: "Coco", at: at, utcOffset: 32_400, note: nil, starred: false, createdAt: at, updatedAt: at,
                             detail: .meal(Meal(food: "kibble", type: .meal, amount: nil)))
        }
        let records = [meal(1, "2026-10-10"), meal(2, "2026-10-28"), meal(3, "2026-11-05"), meal(4, "2026-11-23")]
        let periods = ComparedPeriods(month: day("2026-11-01"), today: day("2026-11-23"))
        let same = MonthComparison(records, month: day("2026-11-01"), context: seoul, periods: periods)
        XCTAssertEqual([same.this.meals.meals, same.previous.meals.meals], [2, 1])
        let whole = MonthComparison(records, month: day("2026-11-01"), context: seoul)
        XCTAssertEqual([whole.this.meals.meals, whole.previous.meals.meals], [2, 2])
    }
}
