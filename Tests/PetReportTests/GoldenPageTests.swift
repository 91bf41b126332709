@testable import Cairo
import Foundation
import XCTest
@testable import PetReport

/// Page 1 of a fixed report against a golden PNG (see GoldenPage for tolerance and regeneration).
final class GoldenPageTests: XCTestCase {
    var directory: URL!

    override func setUpWithError() throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("GoldenPageTests-\(UUID())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws { try? FileManager.default.removeItem(at: directory) }

    /// Renders `doc` and rasterises its first page at 50 dpi; returns the PNG's path.
    func firstPagePNG(_ doc: ReportDocument, _ name: String) throws -> String {
        let pdf = directory.appendingPathComponent("\(name).pdf").path
        try ReportRenderer.render(doc, to: pdf)
        let prefix = directory.appendingPathComponent(name).path
        try PDFTools.run("pdftoppm", ["-r", "50", "-png", "-f", "1", "-l", "1", "-singlefile", pdf, prefix])
        return prefix + ".png"
    }

    func testFirstPage() throws {
        try GoldenPage.assertMatches(try firstPagePNG(ReportFixtures.goldenDocument(), "report-page1"),
                                     golden: "report-page1.png")
    }

    /// The comparison itself can fail: another table and a missing alert are not within tolerance.
    func testToleranceCatchesARealChange() throws {
        guard !GoldenPage.updating else { throw XCTSkip("updating goldens") }
        var doc = ReportFixtures.goldenDocument()
        doc.blocks.remove(at: 1)
        let expected = try Surface.image(readingPNG: try firstPagePNG(ReportFixtures.goldenDocument(), "a"))
        let changed = try Surface.image(readingPNG: try firstPagePNG(doc, "b"))
        XCTAssertGreaterThan(try XCTUnwrap(try expected.fractionOfPixelsDiffering(from: changed, channelTolerance: 16)), 0.005)
        XCTAssertEqual(try expected.fractionOfPixelsDiffering(from: expected, channelTolerance: 16), 0)
    }
}
