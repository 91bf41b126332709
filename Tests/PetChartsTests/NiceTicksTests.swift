import Foundation
import XCTest
@testable import PetCharts

final class NiceTicksTests: XCTestCase {
    func testNiceStepsAreOneTwoFive() {
        XCTAssertEqual(NiceTicks.niceStep(atLeast: 1), 1)
        XCTAssertEqual(NiceTicks.niceStep(atLeast: 1.01), 2)
        XCTAssertEqual(NiceTicks.niceStep(atLeast: 0.23), 0.5, accuracy: 1e-12)
        XCTAssertEqual(NiceTicks.niceStep(atLeast: 7), 10)
        XCTAssertEqual(NiceTicks.niceStep(atLeast: 42_000), 50_000)
    }

    func testValueTicks() {
        XCTAssertEqual(NiceTicks.values(min: 0, max: 10, maxCount: 6).values, [0, 2, 4, 6, 8, 10])

        let weight = NiceTicks.values(min: 4.13, max: 4.62, maxCount: 6)
        XCTAssertEqual(weight.values, [4.0, 4.2, 4.4, 4.6, 4.8])
        XCTAssertEqual(weight.fractionDigits, 1)
        XCTAssertEqual(weight.values.map(weight.label), ["4.0", "4.2", "4.4", "4.6", "4.8"])

        let fine = NiceTicks.values(min: 4.13, max: 4.62, maxCount: 12)
        XCTAssertEqual(fine.step, 0.05, accuracy: 1e-12)
        XCTAssertEqual(fine.fractionDigits, 2)
        XCTAssertEqual(fine.lower, 4.10, accuracy: 1e-12)
        XCTAssertEqual(fine.upper, 4.65, accuracy: 1e-12)

        XCTAssertEqual(NiceTicks.values(min: 0, max: 334_000, maxCount: 8).values.last, 350_000)
        XCTAssertEqual(NiceTicks.values(min: -3, max: 7, maxCount: 6).values, [-5, 0, 5, 10])
        XCTAssertEqual(NiceTicks.values(min: 3, max: 9, maxCount: 5, includeZero: true).values, [0, 5, 10])
        XCTAssertEqual(NiceTicks.values(min: 0, max: 4, maxCount: 10).step, 0.5)
        XCTAssertEqual(NiceTicks.values(min: 0, max: 4, maxCount: 10, minimumStep: 1).values, [0, 1, 2, 3, 4])
    }

    func testTicksCoverTheRangeWithinTheCount() {
        var random = TestRandom(seed: 3)
        for _ in 0..<500 {
            let a = (random.next() - 0.5) * pow(10, Double(random.int(-3...6)))
            let b = a + random.next() * pow(10, Double(random.int(-3...6)))
            let count = random.int(1...15)
            let ticks = NiceTicks.values(min: a, max: b, maxCount: count)
            XCTAssertLessThanOrEqual(ticks.values.count, max(3, count))
            XCTAssertLessThanOrEqual(ticks.lower, a + abs(a) * 1e-12)
            XCTAssertGreaterThanOrEqual(ticks.upper, b - abs(b) * 1e-12)
            for (x, y) in zip(ticks.values, ticks.values.dropFirst()) {
                XCTAssertEqual(y - x, ticks.step, accuracy: ticks.step * 1e-6)
            }
        }
    }

    func testFlatRangeIsWidened() {
        let ticks = NiceTicks.values(min: 5, max: 5, maxCount: 5)
        XCTAssertLessThan(ticks.lower, 5)
        XCTAssertGreaterThan(ticks.upper, 5)
        XCTAssertEqual(NiceTicks.values(min: 0, max: 0, maxCount: 5).values.count > 1, true)
    }

    func testNegativeZeroIsLabelledZero() {
        let ticks = NiceTicks.values(min: -1, max: 1, maxCount: 5)
        XCTAssertTrue(ticks.values.map(ticks.label).contains("0.0"))
        XCTAssertFalse(ticks.values.map(ticks.label).contains("-0.0"))
    }

    // MARK: dates

    let utc = TimeZone(identifier: "UTC")!
    func t(_ text: String, _ zone: TimeZone? = nil) -> Double {
        let f = ISO8601DateFormatter()
        f.timeZone = zone ?? utc
        f.formatOptions = [.withFullDate, .withTime, .withColonSeparatorInTime, .withDashSeparatorInDate]
        return f.date(from: text)!.timeIntervalSince1970
    }

    func testDateUnitFollowsTheSpan() {
        let cases: [(String, String, Int, TickUnit)] = [
            ("2024-03-10T00:00:00", "2024-03-11T00:00:00", 10, .hour),
            ("2024-03-01T00:00:00", "2024-03-11T00:00:00", 12, .day),
            ("2024-03-01T00:00:00", "2024-05-10T00:00:00", 12, .week),
            ("2024-01-01T00:00:00", "2024-12-31T00:00:00", 12, .month),
            ("2021-01-01T00:00:00", "2023-12-31T00:00:00", 12, .quarter),
            ("2020-01-01T00:00:00", "2024-12-31T00:00:00", 8, .year),
            ("1980-01-01T00:00:00", "2024-12-31T00:00:00", 8, .year),
        ]
        for (from, to, count, unit) in cases {
            let ticks = NiceTicks.dates(from: t(from), to: t(to), maxCount: count, timeZone: utc)
            XCTAssertEqual(ticks.unit, unit, "\(from)…\(to)")
            XCTAssertLessThanOrEqual(ticks.times.count, count)
            XCTAssertGreaterThanOrEqual(ticks.times.count, 2, "\(from)…\(to)")
            XCTAssertTrue(ticks.times.allSatisfy { $0 >= t(from) && $0 <= t(to) })
        }
        let decades = NiceTicks.dates(from: t("1980-01-01T00:00:00"), to: t("2024-12-31T00:00:00"), maxCount: 8, timeZone: utc)
        XCTAssertEqual(decades.step, 10)
    }

    func testDateTicksSitOnCalendarBoundaries() {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = utc
        let months = NiceTicks.dates(from: t("2024-01-15T10:00:00"), to: t("2024-12-20T00:00:00"), maxCount: 12, timeZone: utc)
        XCTAssertEqual(months.unit, .month)
        for time in months.times {
            let c = calendar.dateComponents([.day, .hour, .minute], from: Date(timeIntervalSince1970: time))
            XCTAssertEqual([c.day, c.hour, c.minute], [1, 0, 0])
        }
        let weeks = NiceTicks.dates(from: t("2024-03-01T00:00:00"), to: t("2024-05-10T00:00:00"), maxCount: 12, timeZone: utc)
        for time in weeks.times {
            XCTAssertEqual(calendar.component(.weekday, from: Date(timeIntervalSince1970: time)), 2, "Monday")
        }
        let everyOtherDay = NiceTicks.dates(from: t("2024-01-25T00:00:00"), to: t("2024-02-12T00:00:00"), maxCount: 10, timeZone: utc)
        XCTAssertEqual(everyOtherDay.unit, .day)
        XCTAssertEqual(everyOtherDay.step, 2)
        for (a, b) in zip(everyOtherDay.times, everyOtherDay.times.dropFirst()) {
            XCTAssertEqual(b - a, 2 * 86_400, "even spacing across the month end")
        }
    }

    func testDayTicksAreLocalMidnights() {
        let seoul = TimeZone(identifier: "Asia/Seoul")!
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = seoul
        let ticks = NiceTicks.dates(from: t("2024-03-01T00:00:00", seoul), to: t("2024-03-09T00:00:00", seoul),
                                    maxCount: 10, timeZone: seoul)
        XCTAssertEqual(ticks.unit, .day)
        for time in ticks.times {
            XCTAssertEqual(calendar.component(.hour, from: Date(timeIntervalSince1970: time)), 0)
        }
        XCTAssertEqual(ticks.times.first, t("2024-03-01T00:00:00", seoul))
    }

    func testNumericLabels() {
        let labeler = TimeAxisLabeler.numeric(timeZone: utc)
        let date = Date(timeIntervalSince1970: t("2026-11-20T08:30:00"))
        XCTAssertEqual(labeler.label(date, .year), "2026")
        XCTAssertEqual(labeler.label(date, .quarter), "2026-11")
        XCTAssertEqual(labeler.label(date, .month), "2026-11")
        XCTAssertEqual(labeler.label(date, .week), "11-20")
        XCTAssertEqual(labeler.label(date, .day), "11-20")
        XCTAssertEqual(labeler.label(date, .hour), "08:30")
        XCTAssertEqual(labeler.label(Date(timeIntervalSince1970: t("2026-11-20T00:00:00")), .hour), "11-20")
    }
}
