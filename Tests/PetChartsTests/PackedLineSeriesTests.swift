import Foundation
import XCTest
@testable import PetCharts

/// A series packed as a store reads weights (first instant, seconds after it, grams, a divisor) is the
/// same line as the two `Double` columns it stands for: the same points, runs, mean, text and files.
final class PackedLineSeriesTests: XCTestCase {
    var directory: URL!

    override func setUpWithError() throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("PackedLineSeriesTests-\(UUID())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws { try? FileManager.default.removeItem(at: directory) }

    /// The same weights both ways: `n` weigh-ins from 2023 with a gap of 40 days, in grams around
    /// `grams`, shown in a unit of `divisor` grams (1000: kg; 453.59237: lb).
    func pair(_ n: Int, every: Int64, grams: Int32, divisor: Double, seed: UInt64) -> (packed: LineSeries, columns: LineSeries) {
        var random = TestRandom(seed: seed)
        let base = Int64(Fixtures.start) + 8 * 3600
        var offsets: [UInt32] = [], small: [Int32] = []
        var t: Int64 = 0
        for i in 0..<n {
            if i == n / 2 { t += 40 * 86_400 }
            offsets.append(UInt32(t)); small.append(grams + Int32(random.int(-300...300)))
            t += every / 2 + Int64(random.int(0...Int(every)))
        }
        let packed = LineSeries(label: "Coco", base: base, offsets: offsets, grams: small, divisor: divisor)
        let columns = LineSeries(label: "Coco", times: offsets.map { Double(base + Int64($0)) }, values: small.map { Double($0) / divisor })
        return (packed, columns)
    }

    func testPointsRunsAndMeansAreTheColumns() {
        for (n, divisor) in [(0, 1000.0), (1, 1000.0), (2, 453.59237), (5_000, 1000.0), (5_000, 453.59237)] {
            let (packed, columns) = pair(n, every: 86_400, grams: 12_400, divisor: divisor, seed: 3)
            XCTAssertEqual(packed, columns)
            XCTAssertEqual(packed.count, n)
            XCTAssertEqual(packed.times, columns.times)
            XCTAssertEqual(packed.values, columns.values)
            XCTAssertEqual(packed.firstTime, columns.times.first)
            XCTAssertEqual(packed.lastTime, columns.times.last)
            XCTAssertEqual(packed.runs(gapThreshold: 14 * 86_400), columns.runs(gapThreshold: 14 * 86_400))
            XCTAssertEqual(packed.medianSpacing, columns.medianSpacing)
            let runs = columns.runs(gapThreshold: columns.defaultGapThreshold)
            XCTAssertEqual(packed.rollingMean(window: 7 * 86_400, runs: runs), columns.rollingMean(window: 7 * 86_400, runs: runs))
            XCTAssertEqual(TextChart.brailleGrid(series: [packed], width: 40, height: 8), TextChart.brailleGrid(series: [columns], width: 40, height: 8))
        }
        let (a, _) = pair(100, every: 86_400, grams: 4_000, divisor: 1000, seed: 1)
        let (b, _) = pair(100, every: 86_400, grams: 4_001, divisor: 1000, seed: 1)
        XCTAssertNotEqual(a, b, "one gram apart")
    }

    /// The files are the same bytes (PNG) or the same drawing (PDF, SVG) whichever way the series is held:
    /// a few points with markers, thousands drawn as they are, and a decimated series with its mean.
    func testFilesAreTheSameEitherWay() throws {
        for (n, every, smoothing) in [(30, Int64(86_400), nil as Double?), (3_000, 86_400, nil), (200_000, 600, 7 * 86_400.0)] {
            let (packed, columns) = pair(n, every: every, grams: 12_400, divisor: 1000, seed: UInt64(n))
            for format in [ChartFormat.png, .svg] {
                var written: [Data] = []
                for series in [packed, columns] {
                    let spec = WeightChartSpec(title: "Coco", yLabel: "Weight", unitSuffix: "kg", series: [series], smoothingWindow: smoothing,
                                               size: ChartSize(width: 800, height: 450), labeler: Fixtures.labeler)
                    let path = directory.appendingPathComponent("\(n)-\(written.count).\(format)").path
                    try ChartRenderer.render(spec, to: path, format: format)
                    written.append(try Data(contentsOf: URL(fileURLWithPath: path)))
                }
                XCTAssertEqual(written[0], written[1], "\(n) points, \(format)")
            }
        }
    }

    func testAPackedSeriesIsValidatedLikeColumns() {
        let backwards = LineSeries(label: "bad", base: 1_000, offsets: [5, 3], grams: [1, 2], divisor: 1)
        XCTAssertThrowsError(try WeightChartSpec(title: "", yLabel: "", unitSuffix: "", series: [backwards]).validate()) { error in
            XCTAssertEqual(error as? ChartError, .unorderedTimes(label: "bad"))
        }
        let short = LineSeries(label: "short", base: 1_000, offsets: [1, 2], grams: [1], divisor: 1)
        XCTAssertThrowsError(try WeightChartSpec(title: "", yLabel: "", unitSuffix: "", series: [short]).validate()) { error in
            XCTAssertEqual(error as? ChartError, .mismatchedSeries(label: "short"))
        }
    }
}
