@testable import Cairo
import Foundation
import XCTest
@testable import PetCharts

/// Rendered charts against golden PNGs (see GoldenImage for the tolerance and how to regenerate).
final class GoldenImageTests: XCTestCase {
    var directory: URL!

    override func setUpWithError() throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("GoldenImageTests-\(UUID())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws { try? FileManager.default.removeItem(at: directory) }

    func render(_ spec: WeightChartSpec, _ name: String) throws -> String {
        let path = directory.appendingPathComponent(name).path
        try ChartRenderer.render(spec, to: path, format: .png)
        return path
    }

    func testWeightOneSeries() throws {
        try GoldenImage.assertMatches(try render(Fixtures.oneSeries(), "weight-one.png"), golden: "weight-one.png")
    }

    func testWeightThreeSparseSeries() throws {
        try GoldenImage.assertMatches(try render(Fixtures.threeSparse(), "weight-three-sparse.png"),
                                      golden: "weight-three-sparse.png")
    }

    func testWeightDarkSmoothed() throws {
        try GoldenImage.assertMatches(try render(Fixtures.darkSmoothed(), "weight-dark.png"), golden: "weight-dark.png")
    }

    func testSymptomBars() throws {
        let path = directory.appendingPathComponent("bars.png").path
        try ChartRenderer.render(Fixtures.symptomBars(), to: path, format: .png)
        try GoldenImage.assertMatches(path, golden: "bars.png")
    }

    /// The comparison itself can fail: a chart with another title is not within tolerance.
    func testToleranceCatchesARealChange() throws {
        guard !GoldenImage.updating else { throw XCTSkip("updating goldens") }
        var spec = Fixtures.oneSeries()
        spec.title = "Nabi — weight in a completely different title"
        spec.theme = .dark
        let expected = try Surface.image(readingPNG: try render(Fixtures.oneSeries(), "a.png"))
        let changed = try Surface.image(readingPNG: try render(spec, "b.png"))
        XCTAssertGreaterThan(try XCTUnwrap(try expected.fractionOfPixelsDiffering(from: changed, channelTolerance: 16)), 0.005)
        XCTAssertEqual(try expected.fractionOfPixelsDiffering(from: expected, channelTolerance: 16), 0)
    }
}
