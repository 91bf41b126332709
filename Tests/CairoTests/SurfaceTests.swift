import Foundation
import XCTest
@testable import Cairo
import CCairo

/// Surfaces: PNG size, PNG round trip, reproducible PDF and SVG, errors on bad paths.
final class SurfaceTests: XCTestCase {
    var directory: URL!

    override func setUpWithError() throws {
        directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("CairoTests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(at: directory)
    }

    func path(_ name: String) -> String { directory.appendingPathComponent(name).path }

    /// Draws the same small picture with text on any surface.
    func drawSample(on surface: Surface, language: String = "en") throws {
        let context = try Context(surface)
        context.setSource(.white)
        context.paint()
        context.setSource(Color(hex: 0x0072B2))
        context.setLineWidth(2)
        context.moveTo(10, 10)
        context.lineTo(100, 60)
        context.lineTo(150, 20)
        context.stroke()
        context.rectangle(x: 20, y: 70, width: 30, height: 20)
        context.fill()
        context.circle(cx: 120, cy: 80, radius: 8)
        context.fill()
        context.setTextLanguage(language)
        context.setSource(.black)
        TextLayout("체중 体重 Coco", font: "Sans 14", in: context).draw(x: 10, y: 30)
        try context.checkStatus()
    }

    func testPNGHasTheRequestedSizeInItsHeader() throws {
        let surface = try Surface.image(width: 321, height: 123, opaque: true)
        try drawSample(on: surface)
        try surface.writePNG(to: path("a.png"))
        let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path("a.png"))))
        XCTAssertEqual(Array(bytes[0..<8]), [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A])
        XCTAssertEqual(String(decoding: bytes[12..<16], as: UTF8.self), "IHDR")
        func be32(_ at: Int) -> Int { bytes[at..<(at + 4)].reduce(0) { $0 << 8 | Int($1) } }
        XCTAssertEqual(be32(16), 321)
        XCTAssertEqual(be32(20), 123)
    }

    func testPNGRoundTripKeepsThePixels() throws {
        let surface = try Surface.image(width: 64, height: 48)
        try drawSample(on: surface)
        try surface.writePNG(to: path("b.png"))
        let decoded = try Surface.image(readingPNG: path("b.png"))
        XCTAssertEqual(decoded.pixelWidth, 64)
        XCTAssertEqual(decoded.pixelHeight, 48)
        XCTAssertEqual(try decoded.argbPixels(), try surface.argbPixels())
        XCTAssertTrue(try surface.argbPixels().contains { $0 & 0x00FF_FFFF != 0x00FF_FFFF },
                      "something was drawn")
    }

    func testPDFIsByteIdenticalAcrossRenders() throws {
        for name in ["1.pdf", "2.pdf"] {
            let surface = try Surface.pdf(path: path(name), width: 200, height: 120, title: "Sample")
            try drawSample(on: surface, language: "ko")
            try surface.finish()
        }
        let first = try Data(contentsOf: URL(fileURLWithPath: path("1.pdf")))
        let second = try Data(contentsOf: URL(fileURLWithPath: path("2.pdf")))
        XCTAssertGreaterThan(first.count, 1000)
        XCTAssertEqual(first, second)
        XCTAssertNotNil(first.range(of: Data("(20000101000000".utf8)), "fixed creation date")
    }

    func testPDFDateCanBeSet() throws {
        let surface = try Surface.pdf(path: path("d.pdf"), width: 100, height: 100, date: "2026-11-20T08:30:00Z")
        try drawSample(on: surface)
        try surface.finish()
        let data = try Data(contentsOf: URL(fileURLWithPath: path("d.pdf")))
        XCTAssertNotNil(data.range(of: Data("(20261120083000".utf8)))
    }

    func testSVGIsByteIdenticalAcrossRenders() throws {
        for name in ["1.svg", "2.svg"] {
            let surface = try Surface.svg(path: path(name), width: 200, height: 120)
            try drawSample(on: surface, language: "ja")
            try surface.finish()
        }
        let first = try String(contentsOfFile: path("1.svg"), encoding: .utf8)
        let second = try String(contentsOfFile: path("2.svg"), encoding: .utf8)
        XCTAssertTrue(first.hasPrefix("<?xml"))
        XCTAssertTrue(first.contains("<svg"))
        XCTAssertEqual(first, second)
    }

    func testWritingIntoAMissingDirectoryThrowsWriteError() throws {
        let missing = path("no/such/dir/out.png")
        let surface = try Surface.image(width: 10, height: 10)
        XCTAssertThrowsError(try surface.writePNG(to: missing)) { error in
            XCTAssertEqual(error as? CairoError, .writeError(path: missing))
        }
        XCTAssertThrowsError(try Surface.pdf(path: path("no/such/out.pdf"), width: 10, height: 10)) { error in
            XCTAssertEqual(error as? CairoError, .writeError(path: path("no/such/out.pdf")))
        }
        XCTAssertThrowsError(try Surface.svg(path: path("no/such/out.svg"), width: 10, height: 10)) { error in
            XCTAssertEqual(error as? CairoError, .writeError(path: path("no/such/out.svg")))
        }
    }

    func testReadingAMissingPNGThrows() {
        XCTAssertThrowsError(try Surface.image(readingPNG: path("missing.png"))) { error in
            XCTAssertEqual(error as? CairoError, .fileNotFound(path: path("missing.png")))
        }
    }

    func testInvalidSizeIsRefused() {
        XCTAssertThrowsError(try Surface.image(width: 0, height: 10)) { error in
            XCTAssertEqual(error as? CairoError, .invalidSize)
        }
    }

    func testPNGOfAVectorSurfaceIsATypeMismatch() throws {
        let surface = try Surface.svg(path: path("t.svg"), width: 10, height: 10)
        XCTAssertThrowsError(try surface.writePNG(to: path("t.png"))) { error in
            XCTAssertEqual(error as? CairoError, .surfaceTypeMismatch)
        }
    }
}

/// The renumbering that makes SVG output independent of earlier surfaces in the process.
final class SVGRenumberingTests: XCTestCase {
    func testProcessWideIDsAreRenumberedConsistently() {
        let input = ##"<g id="surface17"><use xlink:href="#surface9"/><image id="image5"/></g><g id="surface9"/> surfaces"##
        let output = String(decoding: SVGSink.renumberingIDs(Array(input.utf8), prefixes: ["surface", "image"]),
                            as: UTF8.self)
        XCTAssertEqual(output, ##"<g id="surface1"><use xlink:href="#surface2"/><image id="image1"/></g><g id="surface2"/> surfaces"##)
    }
}

/// Multi-page PDF, as the vet report needs.
final class PDFPagesTests: XCTestCase {
    func testShowPageStartsANewPage() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("pages-\(UUID()).pdf").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        let surface = try Surface.pdf(path: path, width: 595, height: 842)
        let context = try Context(surface)
        for page in 1...3 {
            TextLayout("page \(page)", font: "Sans 12", in: context).draw(x: 50, y: 50)
            context.showPage()
        }
        try surface.finish()
        let text = String(decoding: try Data(contentsOf: URL(fileURLWithPath: path)), as: UTF8.self)
        XCTAssertTrue(text.contains("/Count 3"))
    }
}

/// `writePNG`'s own encoder against cairo's: the same image once decoded, for opaque and translucent surfaces.
final class PNGEncoderTests: XCTestCase {
    func testDecodesToWhatCairosWriterGives() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("PNGEncoderTests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        for opaque in [true, false] {
            let surface = try Surface.image(width: 173, height: 61, opaque: opaque)
            let context = try Context(surface)
            if opaque { context.setSource(.white); context.paint() }
            for i in 0..<40 {   // lines, alpha and antialiasing: every byte value the filter meets
                context.setSource(Color(red: Double(i % 7) / 6, green: Double(i % 5) / 4, blue: Double(i % 3) / 2, alpha: Double(i % 4 + 1) / 4))
                context.setLineWidth(Double(i % 6) + 0.5)
                context.moveTo(Double(i * 4), 0)
                context.lineTo(Double(173 - i * 3), 61)
                context.stroke()
            }
            let ours = directory.appendingPathComponent("ours-\(opaque).png").path
            let cairos = directory.appendingPathComponent("cairo-\(opaque).png").path
            try surface.writePNG(to: ours)
            XCTAssertEqual(cairo_surface_write_to_png(surface.raw, cairos), CAIRO_STATUS_SUCCESS)
            let a = try Surface.image(readingPNG: ours), b = try Surface.image(readingPNG: cairos)
            XCTAssertEqual(a.pixelWidth, 173)
            XCTAssertEqual(try a.argbPixels(), try b.argbPixels(), "opaque: \(opaque)")
            XCTAssertTrue(try a.argbPixels().contains { $0 != 0 && $0 != 0xFFFF_FFFF })
        }
    }
}
