import Cairo
import Foundation
import XCTest
@testable import PetReport

/// One type family per document, tables sized to their content, photo thumbnails.
final class ReportPresentationTests: XCTestCase {
    var directory: URL!

    override func setUpWithError() throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("ReportPresentationTests-\(UUID())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws { try? FileManager.default.removeItem(at: directory) }

    func path(_ name: String) -> String { directory.appendingPathComponent(name).path }

    /// Font names `pdffonts` lists, without the subset prefix ("ABCDEF+").
    func fontNames(_ pdf: String) throws -> [String] {
        let lines = try PDFTools.run("pdffonts", [pdf]).split(separator: "\n").dropFirst(2)
        return lines.compactMap { $0.split(separator: " ").first.map { String($0.split(separator: "+").last ?? $0) } }
    }

    func testEveryScriptOfADocumentIsInOneFamily() throws {
        let samples = ["ko": "코코 체중 4.25 kg — 2026년 11월 23일 (ABC 123)", "ja": "ココの体重 4.25 kg — 2026年11月23日 (ABC 123)",
                       "en": "Coco weighs 4.25 kg — Nov 23, 2026 (ABC 123)"]
        for (language, sample) in samples {
            let doc = ReportFixtures.document([
                .title(sample, subtitle: "Maltese · 6 years"), .heading(sample), .paragraph(sample),
                .table(ReportTable(header: ["Date", sample], rows: [["2026-11-03", sample]])),
                .weightChart(ReportFixtures.weightSpec(points: 30), heightFraction: 0.3),
            ], language: language)
            let out = path("\(language).pdf")
            try ReportRenderer.render(doc, to: out)
            let names = try fontNames(out)
            XCTAssertFalse(names.isEmpty)
            let family = language == "en" ? "DejaVuSans" : (language == "ko" ? "NanumGothic" : "MPLUS2")
            for name in names {
                XCTAssertTrue(name.hasPrefix(family), "\(language): \(name) beside \(family): \(names)")
            }
        }
    }

    /// Issue 42: the Korean report's "−70 g" row was set in a fallback font (Nanum Gothic has no U+2212) and
    /// stood taller than its neighbours. Every symbol petlog writes into a document (signs, arrows, dashes,
    /// separators, bullets, currency signs) is drawn in the language's one family, as a form it has.
    func testTheSymbolsPetlogWritesAreInTheDocumentsFamily() throws {
        let common = "−70 g (−1.5 %) · ±0 · 2 × 1 tab · 4.1 → 4.2 kg ↑ ↓ · ≈ ₩4,733 · ≥ 4 · … · — – ‐ · • ★ ※ · ¥ € £ ₩ US$ 38.5 °C"
        for language in ["ko", "ja", "en"] {
            // Japanese joins facts with ・ (an English document never writes it: user text with it falls back).
            let symbols = common + (language == "ja" ? " 犬・メス" : "")
            let doc = ReportFixtures.document([
                .title("Coco", subtitle: symbols), .paragraph(symbols),
                .table(ReportTable(header: ["Item", "Value"], rows: [["Change", symbols]])),
                .bullets([symbols]),
            ], language: language)
            let out = path("symbols-\(language).pdf")
            try ReportRenderer.render(doc, to: out)
            let names = try fontNames(out)
            let family = language == "en" ? "DejaVuSans" : (language == "ko" ? "NanumGothic" : "MPLUS2")
            XCTAssertFalse(names.isEmpty)
            for name in names {
                XCTAssertTrue(name.hasPrefix(family), "\(language): \(name) beside \(family): \(names)")
            }
            // The minus reads as a minus in every language (U+2212 where the family has it, else "-").
            let text = try PDFTools.text(out)
            XCTAssertTrue(text.contains("−70 g") || text.contains("-70 g"), "\(language): \(text)")
        }
    }

    func typesetter(language: String) throws -> Typesetter {
        let context = try Context(try Surface.image(width: 10, height: 10))
        context.setTextLanguage(language)
        return Typesetter(context: context, style: ReportStyle(paper: .a4, fontFamily: "Sans"))
    }

    func testColumnsSizeToTheirContent() throws {
        let t = try typesetter(language: "ko")
        let table = ReportTable(header: ["날짜", "진료", "체중", "비용"],
                                rows: [["2026년 11월 3일", "김수의 선생님이 혈압 측정과 심장사상충 예방약 처방, 구토가 잦아 혈액 검사를 함", "4.25 kg", "₩45,000"],
                                       ["2026년 10월 1일", "정기 검진", "4.3 kg", "₩30,000"]],
                                columnWeights: [1, 1, 1, 1])
        let flow = try TableFlowable(table, width: 400, pageHeight: 700, spaceBefore: 0, typesetter: t)
        XCTAssertEqual(flow.columnWidths.reduce(0, +), 400, accuracy: 0.01)
        // Dates, weights and costs on one line; the long text takes the rest and wraps at spaces.
        for row in flow.rows {
            for c in [0, 2, 3] { XCTAssertEqual(row.cells[c].lineCount, 1, "\(row.texts[c]) in \(flow.columnWidths)") }
        }
        XCTAssertGreaterThan(flow.columnWidths[1], 200)
        let long = flow.rows[0].cells[1], text = Array(flow.rows[0].texts[1].utf8)
        XCTAssertGreaterThan(long.lineCount, 1)
        for line in long.lines.dropFirst() {
            XCTAssertEqual(text[line.byteStart - 1], UInt8(ascii: " "), "a line starts after a space")
        }
    }

    func testColumnsThatAllFitShareTheSpareWidthByWeight() throws {
        let t = try typesetter(language: "en")
        let table = ReportTable(header: ["A", "B"], rows: [["x", "y"]], columnWeights: [1, 3])
        let flow = try TableFlowable(table, width: 400, pageHeight: 700, spaceBefore: 0, typesetter: t)
        XCTAssertGreaterThan(flow.columnWidths[1], flow.columnWidths[0] * 2)
        XCTAssertEqual(flow.columnWidths.reduce(0, +), 400, accuracy: 0.01)
    }

    func writePNG(_ name: String, color: UInt32) throws -> String {
        let png = path(name)
        let image = try Surface.image(width: 1200, height: 900, opaque: true)
        let c = try Context(image)
        c.setSource(Color(hex: color)); c.paint()
        try image.writePNG(to: png)
        return png
    }

    /// A small JPEG (8×8 grey baseline), written byte by byte: cairo reads no JPEG, the PDF embeds it.
    func writeJPEG(_ name: String) throws -> String {
        let jpeg = path(name)
        guard let convert = PDFTools.path(of: "convert") else { throw XCTSkip("ImageMagick convert not installed") }
        let p = Process()
        p.executableURL = URL(fileURLWithPath: convert)
        p.arguments = ["-size", "64x48", "xc:#cc6633", jpeg]
        try p.run()
        p.waitUntilExit()
        XCTAssertEqual(p.terminationStatus, 0)
        return jpeg
    }

    func testPhotosAreThumbnailsWithCaptions() throws {
        let png = try writePNG("rash.png", color: 0xAA3344)
        let jpeg = try writeJPEG("ear.jpg")
        let broken = path("broken.jpg")
        try Data([0xFF, 0xD8, 0xFF, 0xE0, 0, 0x10]).write(to: URL(fileURLWithPath: broken))
        let out = path("photos.pdf")
        let summary = try ReportRenderer.render(ReportFixtures.document([
            .heading("Photos"),
            .photos([ReportPhoto(path: png, format: .png, caption: "Nov 3, 2026 · Diary\nRash on the belly"),
                      ReportPhoto(path: jpeg, format: .jpeg, caption: "Nov 5, 2026 · Visit\nEar check"),
                      ReportPhoto(path: broken, format: .jpeg, caption: "never shown"),
                      ReportPhoto(path: jpeg, format: .jpeg, caption: "Nov 5, 2026 · Diary\nSame ear, at home")]),
        ]), to: out)
        XCTAssertEqual(summary.skippedPhotos, [broken])
        let text = try PDFTools.text(out)
        XCTAssertTrue(text.contains("Rash on the belly") && text.contains("Ear check"), text)
        XCTAssertFalse(text.contains("never shown"))
        let images = try PDFTools.run("pdfimages", ["-list", out]).split(separator: "\n").dropFirst(2)
        let objects = Set(images.map { $0.split(separator: " ", omittingEmptySubsequences: true)[10] })
        XCTAssertEqual(objects.count, 2, "one image object per file, the JPEG shown twice embedded once: \(images)")
        XCTAssertTrue(text.contains("Same ear, at home"))
        XCTAssertTrue(images.contains { $0.contains("jpeg") }, "the JPEG is embedded as it is: \(images)")
        // The PNG is a thumbnail, not the 1200×900 original.
        let pngRow = try XCTUnwrap(images.first { !$0.contains("jpeg") })
        let columns = pngRow.split(separator: " ", omittingEmptySubsequences: true)
        XCTAssertLessThan(Int(columns[3]) ?? .max, 1200, String(pngRow))
    }
}
