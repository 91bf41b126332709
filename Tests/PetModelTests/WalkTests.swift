import XCTest
@testable import PetModel

/// `Walk.parse`: the rule for `m` (metres from 100 up, minutes right after hours, refused below 100 alone),
/// exact metres and minutes, and what `stats`, the report and `chart activity` add up.
final class WalkTests: XCTestCase {
    func walk(_ words: String...) throws -> Walk { try Walk.parse(words) }

    func testTheMRule() throws {
        XCTAssertEqual(try walk("800m"), Walk(meters: 800))
        XCTAssertEqual(try walk("100m"), Walk(meters: 100))
        XCTAssertEqual(try walk("1h10m"), Walk(minutes: 70))
        XCTAssertEqual(try walk("1h", "10m"), Walk(minutes: 70))
        XCTAssertEqual(try walk("1h10m", "150m"), Walk(meters: 150, minutes: 70))
        XCTAssertThrowsError(try walk("90m")) { XCTAssertEqual($0 as? Walk.Refusal, .ambiguous("90m", number: "90")) }
        XCTAssertThrowsError(try walk("99.9m")) { XCTAssertEqual($0 as? Walk.Refusal, .ambiguous("99.9m", number: "99.9")) }
        XCTAssertEqual(try walk("90", "metres"), Walk(meters: 90))
        XCTAssertEqual(try walk("90min"), Walk(minutes: 90))
    }

    func testExactUnits() throws {
        XCTAssertEqual(try walk("2mi"), Walk(meters: 3219))          // 3,218.688 m
        XCTAssertEqual(try walk("0.1mi"), Walk(meters: 161))         // 160.9344 m
        XCTAssertEqual(try walk("3.2345km"), Walk(meters: 3235))     // to the metre, half up
        XCTAssertEqual(try walk("1.25h"), Walk(minutes: 75))
        XCTAssertEqual(try walk("200km", "24h"), Walk(meters: 200_000, minutes: 1440))
        XCTAssertThrowsError(try walk("1.01h")) { XCTAssertEqual($0 as? Walk.Refusal, .notAMeasure("1.01h")) }
        XCTAssertThrowsError(try walk("200.001km")) { XCTAssertEqual($0 as? Walk.Refusal, .outOfRange("200.001km")) }
        XCTAssertThrowsError(try walk("24h", "1min")) { XCTAssertEqual($0 as? Walk.Refusal, .outOfRange("24h 1min")) }
        XCTAssertThrowsError(try walk("1시간", "10분", "5분")) { XCTAssertEqual($0 as? Walk.Refusal, .twice("5분")) }
        XCTAssertThrowsError(try walk("1.5h10m")) { XCTAssertEqual($0 as? Walk.Refusal, .notAMeasure("1.5h10m")) }
        XCTAssertThrowsError(try walk("1h", "2h")) { XCTAssertEqual($0 as? Walk.Refusal, .twice("2h")) }
        XCTAssertThrowsError(try walk("10mx")) { XCTAssertEqual($0 as? Walk.Refusal, .notAMeasure("10mx")) }
        XCTAssertThrowsError(try walk("-2km")) { XCTAssertEqual($0 as? Walk.Refusal, .notAMeasure("-2km")) }
        XCTAssertThrowsError(try walk("99999999999999999999km"))
        XCTAssertEqual(try walk(), Walk())
    }

    func testTotalsAndWeeks() throws {
        let d = try XCTUnwrap(LocalDate(year: 2026, month: 11, day: 23))  // a Monday
        let walks = [(d, Walk(meters: 3000, minutes: 40)), (d, Walk(meters: 1000)), (d.adding(days: -3), Walk(minutes: 30)),
                     (d.adding(days: -13), Walk())]
        var totals = WalkTotals()
        for (_, w) in walks { totals.add(w) }
        XCTAssertEqual([totals.count, totals.meters, totals.minutes, totals.measured, totals.timed], [4, 4000, 70, 2, 2])
        XCTAssertEqual(totals.averageMinutes, 35)
        XCTAssertEqual(totals.perWeek(days: 28), 1)
        XCTAssertNil(WalkTotals().averageMinutes)
        let monday = WeeklyWalkMinutes(walks.map { (day: $0.0, walk: $0.1) }, from: d.adding(days: -14), through: d)
        XCTAssertEqual(monday.weeks.map(\.description), ["2026-11-09", "2026-11-16", "2026-11-23"])
        XCTAssertEqual(monday.minutes, [0, 30, 40])
        XCTAssertEqual(monday.walks, [1, 1, 2])
        let sunday = WeeklyWalkMinutes(walks.map { (day: $0.0, walk: $0.1) }, from: d.adding(days: -14), through: d, weekStartsOnSunday: true)
        XCTAssertEqual(sunday.weeks.map(\.description), ["2026-11-08", "2026-11-15", "2026-11-22"])
        XCTAssertEqual(sunday.minutes, [0, 30, 40])
    }
}
