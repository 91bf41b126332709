import XCTest
@testable import PetCharts

final class LineSeriesShapingTests: XCTestCase {
    let day = 86_400.0

    func testRunsBreakAtGaps() {
        let times = [0, 1, 2, 30, 31, 100].map { $0 * day }
        let series = LineSeries(label: "x", times: times, values: times.map { _ in 1 })
        XCTAssertEqual(series.runs(gapThreshold: 14 * day), [0..<3, 3..<5, 5..<6])
        XCTAssertEqual(series.runs(gapThreshold: 100 * day), [0..<6])
        XCTAssertEqual(LineSeries(label: "e", times: [], values: []).runs(gapThreshold: 1), [])
        XCTAssertEqual(LineSeries(label: "1", times: [5], values: [1]).runs(gapThreshold: 1), [0..<1])
    }

    func testDefaultGapIsFourteenDaysOrTwoSpacings() {
        let daily = LineSeries(label: "d", times: (0..<100).map { Double($0) * day }, values: Array(repeating: 1, count: 100))
        XCTAssertEqual(daily.defaultGapThreshold, 14 * day)
        let monthly = LineSeries(label: "m", times: (0..<24).map { Double($0) * 30 * day }, values: Array(repeating: 1, count: 24))
        XCTAssertEqual(monthly.medianSpacing, 30 * day)
        XCTAssertEqual(monthly.defaultGapThreshold, 60 * day)
        XCTAssertEqual(monthly.runs(gapThreshold: monthly.defaultGapThreshold).count, 1, "regular monthly weigh-ins are one line")
    }

    /// Issue 42: weekly weigh-ins with a 25-day gap were one line (5 × 7 days bridged it); the README says
    /// the line breaks after two weeks.
    func testWeeklyWeighInsBreakOverATwentyFiveDayGap() {
        let days = [0, 7, 14, 21, 28, 53, 60, 67, 74, 81].map { Double($0) * day }
        let weekly = LineSeries(label: "w", times: days, values: days.map { _ in 4 })
        XCTAssertEqual(weekly.defaultGapThreshold, 14 * day)
        XCTAssertEqual(weekly.runs(gapThreshold: weekly.defaultGapThreshold), [0..<5, 5..<10])
    }

    func testRollingMean() {
        let times = (0..<10).map { Double($0) * day }
        let constant = LineSeries(label: "c", times: times, values: Array(repeating: 4.2, count: 10))
        for v in constant.rollingMean(window: 3 * day) { XCTAssertEqual(v, 4.2, accuracy: 1e-12) }

        let linear = LineSeries(label: "l", times: times, values: (0..<10).map { Double($0) })
        let mean = linear.rollingMean(window: 2 * day)   // ±1 day: three points
        XCTAssertEqual(mean[0], 0.5, accuracy: 1e-12)    // edge: points 0 and 1
        for i in 1..<9 { XCTAssertEqual(mean[i], Double(i), accuracy: 1e-12) }
        XCTAssertEqual(mean[9], 8.5, accuracy: 1e-12)

        XCTAssertEqual(linear.rollingMean(window: 0), linear.values)

        let step = LineSeries(label: "s", times: times, values: [1, 1, 1, 1, 1, 9, 9, 9, 9, 9])
        let smoothed = step.rollingMean(window: 4 * day)
        XCTAssertEqual(smoothed[4], (1 + 1 + 1 + 9 + 9) / 5, accuracy: 1e-12)
    }

    func testRollingMeanDoesNotBridgeGaps() {
        let times = [0, 1, 2, 40, 41, 42].map { $0 * day }
        let series = LineSeries(label: "g", times: times, values: [1, 1, 1, 9, 9, 9])
        let mean = series.rollingMean(window: 100 * day, runs: series.runs(gapThreshold: 14 * day))
        XCTAssertEqual(mean, [1, 1, 1, 9, 9, 9])
        let bridged = series.rollingMean(window: 100 * day)
        XCTAssertEqual(bridged[0], 5, accuracy: 1e-12)
    }
}
