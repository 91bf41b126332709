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
}
