import Foundation
import XCTest
@testable import Cairo

/// Pango text: CJK glyphs found (no tofu), text readable back from PDF, measuring and wrapping.
final class TextLayoutTests: XCTestCase {
    func testHangulKanaAndHanHaveGlyphs() throws {
        let context = try Context(try Surface.image(width: 10, height: 10))
        for language in ["ko", "ja", "en"] {
            context.setTextLanguage(language)
            let layout = TextLayout("체중 体重 ココ Coco", font: "Sans 12", in: context)
            XCTAssertEqual(layout.unknownGlyphCount, 0, "missing glyphs for \(language): is fonts-noto-cjk installed?")
        }
    }

    func testPDFTextCanBeReadBack() throws {
        guard let pdftotext = ["/usr/bin/pdftotext", "/usr/local/bin/pdftotext"]
            .first(where: { FileManager.default.isExecutableFile(atPath: $0) }) else {
            throw XCTSkip("pdftotext (poppler-utils) is not installed")
        }
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("TextLayoutTests-\(UUID())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let pdf = directory.appendingPathComponent("t.pdf").path
        let surface = try Surface.pdf(path: pdf, width: 300, height: 100)
        let context = try Context(surface)
        context.setTextLanguage("ko")
        context.setSource(.black)
        TextLayout("체중 体重 Coco", font: "Sans 16", in: context).draw(x: 10, y: 10)
        context.setTextLanguage("ja")
        TextLayout("ココの体重", font: "Sans 16", in: context).draw(x: 10, y: 50)
        try surface.finish()

        let process = Process()
        process.executableURL = URL(fileURLWithPath: pdftotext)
        process.arguments = [pdf, "-"]
        let pipe = Pipe()
        process.standardOutput = pipe
        try process.run()
        let output = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        XCTAssertEqual(process.terminationStatus, 0)
        XCTAssertTrue(output.contains("체중 体重 Coco"), output)
        XCTAssertTrue(output.contains("ココの体重"), output)
    }

    func testMeasuringAndWrapping() throws {
        let context = try Context(try Surface.image(width: 10, height: 10))
        let short = TextLayout("Coco", font: "Sans 20", in: context).extents
        let long = TextLayout("Coco weighs 4.2 kg", font: "Sans 20", in: context).extents
        XCTAssertGreaterThan(short.width, 20)
        XCTAssertGreaterThan(long.width, short.width * 2)
        XCTAssertEqual(short.height, long.height, accuracy: 0.01)
        XCTAssertGreaterThan(short.baseline, 0)
        XCTAssertLessThan(short.baseline, short.height)

        let bigger = TextLayout("Coco", font: "Sans 40", in: context).extents
        XCTAssertEqual(bigger.width / short.width, 2, accuracy: 0.05, "unhinted metrics scale linearly")

        let wrapped = TextLayout("Coco weighs 4.2 kg today", font: "Sans 20", in: context, width: 120)
        XCTAssertGreaterThan(wrapped.lineCount, 1)
        XCTAssertLessThanOrEqual(wrapped.extents.width, 120.5)

        let ellipsized = TextLayout("Coco weighs 4.2 kg today", font: "Sans 20", in: context, width: 120, ellipsize: true)
        XCTAssertEqual(ellipsized.lineCount, 1)
    }

    /// Lines after wrapping cover the text's bytes in order and stack without gaps.
    func testLinesCoverTheTextTopToBottom() throws {
        let context = try Context(try Surface.image(width: 10, height: 10))
        let text = "Atopic dermatitis flare-up with secondary pyoderma — 아토피 피부염 악화\nsecond paragraph"
        let layout = TextLayout(text, font: "Sans 10", in: context, width: 90)
        let lines = layout.lines
        XCTAssertEqual(lines.count, layout.lineCount)
        XCTAssertGreaterThan(lines.count, 3)
        XCTAssertEqual(lines.first?.byteStart, 0)
        XCTAssertEqual(lines.first?.top, 0)
        for (a, b) in zip(lines, lines.dropFirst()) {
            XCTAssertGreaterThanOrEqual(b.byteStart, a.byteStart + a.byteLength)
            XCTAssertEqual(b.top, a.bottom, accuracy: 0.01)
        }
        let last = try XCTUnwrap(lines.last)
        XCTAssertEqual(last.byteStart + last.byteLength, text.utf8.count)
        XCTAssertEqual(last.bottom, layout.extents.height, accuracy: 0.01)
    }
}
