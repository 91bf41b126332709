import XCTest
@testable import PetCharts

final class TextChartTests: XCTestCase {
    func testSparkline() {
        XCTAssertEqual(TextChart.sparkline([1, 2, 3, 4, 5, 6, 7, 8], width: 20), "▁▂▃▄▅▆▇█")
        XCTAssertEqual(TextChart.sparkline([8, 1], width: 20), "█▁")
        XCTAssertEqual(TextChart.sparkline([], width: 20), "")
        XCTAssertEqual(TextChart.sparkline([3, 3, 3], width: 5), "▄▄▄")
        XCTAssertEqual(TextChart.sparkline([1, .nan, 2], width: 5), "▁ █")
        let long = TextChart.sparkline((0..<10_000).map { Double($0) }, width: 40)
        XCTAssertEqual(long.count, 40)
        XCTAssertEqual(long.first, "▁")
        XCTAssertEqual(long.last, "█")
        XCTAssertFalse(long.contains("\u{1B}"))
    }

    func testBraille() {
        let series = LineSeries(label: "x", times: (0..<100).map { Double($0) * 3600 },
                                values: (0..<100).map { Double($0) })
        let rows = TextChart.braille(series: [series], width: 20, height: 5)
        XCTAssertEqual(rows.count, 5)
        XCTAssertTrue(rows.allSatisfy { $0.unicodeScalars.count == 20 })
        XCTAssertTrue(rows.joined().unicodeScalars.allSatisfy { (0x2800...0x28FF).contains($0.value) })
        // A rising line: bottom-left and top-right dots are set, top-left and bottom-right are not.
        let first = rows[4].unicodeScalars.first!.value - 0x2800, last = rows[0].unicodeScalars.last!.value - 0x2800
        XCTAssertNotEqual(first & 0x40, 0)
        XCTAssertNotEqual(last & 0x88, 0)
        XCTAssertEqual(rows[0].unicodeScalars.first!.value, 0x2800)
        XCTAssertEqual(rows[4].unicodeScalars.last!.value, 0x2800)
        XCTAssertEqual(TextChart.braille(series: [], width: 3, height: 2), ["\u{2800}\u{2800}\u{2800}", "\u{2800}\u{2800}\u{2800}"])
    }

    /// The braille line breaks by the same gap rule as the drawn one (issue 42: a 25-day gap among weekly
    /// weigh-ins was bridged): the cells over the gap stay empty.
    func testBrailleBreaksOverTheDocumentedGap() {
        let days = [0, 7, 14, 21, 28, 53, 60, 67, 74, 81].map { Double($0) * 86_400 }
        let weekly = LineSeries(label: "w", times: days, values: days.map { _ in 4 })
        let rows = TextChart.braille(series: [weekly], width: 41, height: 2)
        let top = Array(rows[0].unicodeScalars)
        XCTAssertNotEqual(top[5].value, 0x2800, "drawn between weekly weigh-ins")
        XCTAssertTrue((16...24).allSatisfy { top[$0].value == 0x2800 }, "nothing drawn over the 25-day gap: \(rows[0])")
    }

    /// Each cell knows which pet drew it (for a colour or a marker), and the grid its ranges (for the axis).
    func testBrailleGridOwnersAndRanges() throws {
        let rising = LineSeries(label: "Coco", times: (0..<50).map { Double($0) * 86_400 }, values: (0..<50).map { 4 + Double($0) * 0.02 })
        let flat = LineSeries(label: "Nabi", times: (0..<50).map { Double($0) * 86_400 }, values: Array(repeating: 3.5, count: 50))
        let grid = try XCTUnwrap(TextChart.brailleGrid(series: [rising, flat], width: 30, height: 8))
        XCTAssertEqual(grid.valueRange?.lowerBound, 3.5)
        XCTAssertEqual(grid.valueRange?.upperBound ?? 0, 4.98, accuracy: 1e-9)
        XCTAssertEqual(grid.timeRange, 0...(49 * 86_400))
        // The flat series is the bottom row, owned by series 1; the rising one ends top right, owned by 0.
        XCTAssertTrue((0..<30).allSatisfy { grid.owners[7 * 30 + $0] == 1 })
        XCTAssertEqual(grid.owners[29], 0)
        XCTAssertEqual(grid.owners.compactMap { $0 }.count, grid.cells.filter { $0 != "\u{2800}" }.count)
        XCTAssertEqual(grid.rows, TextChart.braille(series: [rising, flat], width: 30, height: 8))
        XCTAssertNil(TextChart.brailleGrid(series: [], width: 3, height: 2)?.valueRange)
    }
}
