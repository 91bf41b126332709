import Cairo
import Foundation
import XCTest
@testable import PetReport

/// Files written by the report renderer, read back with poppler-utils.
final class ReportRendererTests: XCTestCase {
    var directory: URL!

    override func setUpWithError() throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("ReportRendererTests-\(UUID())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws { try? FileManager.default.removeItem(at: directory) }

    func path(_ name: String) -> String { directory.appendingPathComponent(name).path }

    func testSmallDocumentIsOnePageWithTitleCellAndFooter() throws {
        let doc = ReportFixtures.document([
            .title("Vet visit report — Coco", subtitle: "Beagle"),
            .heading("Vaccinations"),
            .table(ReportTable(header: ["Vaccine", "Next due"], rows: [["Rabies", "2026-06-02"]])),
        ])
        let out = path("small.pdf")
        let summary = try ReportRenderer.render(doc, to: out)
        XCTAssertEqual(summary.pageCount, 1)
        XCTAssertEqual(try PDFTools.pageCount(out), 1)
        let text = try PDFTools.text(out)
        XCTAssertTrue(text.contains("Vet visit report — Coco"), text)
        XCTAssertTrue(text.contains("Rabies"), text)
        XCTAssertTrue(text.contains("2026-06-02"), text)
        XCTAssertTrue(text.contains("Owner-recorded data — not a medical record"), text)
        XCTAssertTrue(text.contains("Page 1 of 1"), text)
        XCTAssertTrue(try PDFTools.run("pdfinfo", [out]).contains("Test report"))
    }

    func testLongTableFlowsWithRepeatedHeaderAndDropsNothing() throws {
        var table = ReportFixtures.longTable(200)
        table.continuationTitle = "Historycontinued"
        let doc = ReportFixtures.document([.title("Visits", subtitle: nil), .heading("History"), .table(table)])
        let out = path("long.pdf")
        let summary = try ReportRenderer.render(doc, to: out)
        let pages = try PDFTools.pageCount(out)
        XCTAssertGreaterThan(pages, 1)
        XCTAssertEqual(summary.pageCount, pages)
        var all = ""
        for page in 1...pages {
            let text = try PDFTools.text(out, page: page)
            XCTAssertEqual(PDFTools.occurrences(of: "Colheader", in: text), 1, "header on page \(page)")
            XCTAssertEqual(PDFTools.occurrences(of: "Page \(page) of \(pages)", in: text), 1, "label on page \(page)")
            XCTAssertEqual(PDFTools.occurrences(of: "Owner-recorded data", in: text), 1, "footer on page \(page)")
            XCTAssertEqual(PDFTools.occurrences(of: "Coco — vet visit report", in: text), 1, "header on page \(page)")
            XCTAssertEqual(PDFTools.occurrences(of: "Historycontinued", in: text), page == 1 ? 0 : 1, "caption on page \(page)")
            all += text
        }
        for i in 0..<200 {
            XCTAssertEqual(PDFTools.occurrences(of: String(format: "row%04dx", i), in: all), 1, "row \(i)")
        }
        XCTAssertEqual(PDFTools.occurrences(of: "pyoderma", in: all), (0..<200).filter { $0 % 7 == 0 }.count)
    }

    func testSameDocumentGivesIdenticalBytes() throws {
        let doc = ReportFixtures.goldenDocument()
        try ReportRenderer.render(doc, to: path("a.pdf"))
        try ReportRenderer.render(doc, to: path("b.pdf"))
        let a = try Data(contentsOf: URL(fileURLWithPath: path("a.pdf")))
        let b = try Data(contentsOf: URL(fileURLWithPath: path("b.pdf")))
        XCTAssertGreaterThan(a.count, 1000)
        XCTAssertEqual(a, b)
        // And the bytes do depend on the content (the comparison can fail).
        var other = doc
        other.blocks.append(.paragraph("One more line."))
        try ReportRenderer.render(other, to: path("c.pdf"))
        XCTAssertNotEqual(a, try Data(contentsOf: URL(fileURLWithPath: path("c.pdf"))))
        XCTAssertTrue(try PDFTools.run("pdfinfo", [path("a.pdf")]).contains("Nov 23 00:00:00 2026"))
    }

    func testKoreanAndJapaneseAreTextWithEmbeddedCJKSubset() throws {
        let korean = "코코의 체중이 90일 동안 줄었습니다", japanese = "ココの体重が減りました"
        for (language, sample) in [("ko", korean), ("ja", japanese)] {
            let doc = ReportDocument(
                title: sample, language: language, headerLeft: sample, headerRight: "2026-11-23",
                footerNote: language == "ko" ? "보호자가 기록한 자료" : "飼い主が記録したデータ",
                pageLabel: { "\($0) / \($1)" },
                blocks: [.title(sample, subtitle: nil), .heading(sample), .paragraph(sample),
                         .table(ReportTable(header: [sample, "kg"], rows: [[sample, "12.31"]]))])
            let out = path("\(language).pdf")
            try ReportRenderer.render(doc, to: out)
            let text = try PDFTools.text(out)
            XCTAssertGreaterThanOrEqual(PDFTools.occurrences(of: sample, in: text), 4, text)
            let fonts = try PDFTools.run("pdffonts", [out])
            // The language's document family (Nanum Gothic, M PLUS 2; FontFamily), embedded as a subset.
            let family = language == "ko" ? "NanumGothic" : "MPLUS2"
            let cjk = fonts.split(separator: "\n").filter { $0.contains(family) }
            XCTAssertFalse(cjk.isEmpty, fonts)
            for line in cjk {
                let columns = line.split(separator: " ", omittingEmptySubsequences: true)
                XCTAssertTrue(columns[0].range(of: #"^[A-Z]{6}\+"#, options: .regularExpression) != nil, "subset: \(line)")
                XCTAssertTrue(line.contains("yes yes yes"), "embedded subset: \(line)")
            }
            XCTAssertFalse(fonts.contains("DejaVu"), "no second family for the Latin digits: \(fonts)")
        }
    }

    func testCJKStringsHaveGlyphs() throws {
        let surface = try Surface.image(width: 10, height: 10)
        let context = try Context(surface)
        for (language, text) in [("ko", "코코 — 닭고기 알레르기, 예방접종 기한 지남"), ("ja", "ココ — 鶏肉アレルギー、ワクチン期限切れ")] {
            context.setTextLanguage(language)
            let layout = TextLayout(text, font: "Sans 9.5", in: context)
            XCTAssertEqual(layout.unknownGlyphCount, 0, language)
        }
    }

    func testTitleOnlyDocumentIsOneCleanPage() throws {
        let out = path("empty.pdf")
        let summary = try ReportRenderer.render(ReportFixtures.document([.title("Nothing recorded", subtitle: nil)]), to: out)
        XCTAssertEqual(summary.pageCount, 1)
        XCTAssertEqual(try PDFTools.pageCount(out), 1)
        let text = try PDFTools.text(out)
        XCTAssertTrue(text.contains("Nothing recorded"))
        XCTAssertTrue(text.contains("Page 1 of 1"))
        // No blocks at all, and breaks on empty pages, still give one page.
        let none = try ReportRenderer.render(ReportFixtures.document([.pageBreak, .spacer(50), .pageBreak]), to: out)
        XCTAssertEqual(none.pageCount, 1)
        XCTAssertEqual(try PDFTools.pageCount(out), 1)
    }

    func testHeadingIsNotLeftAtThePageBottom() throws {
        var doc = ReportFixtures.document([.paragraph("Opening words."), .spacer(680), .heading("Lonelyheading")])
        let out = path("keep.pdf")
        // The heading alone fits at the bottom of page 1 ...
        XCTAssertEqual(try ReportRenderer.render(doc, to: out).pageCount, 1)
        XCTAssertTrue(try PDFTools.text(out, page: 1).contains("Lonelyheading"))
        // ... but not with the first line of its section: both go to page 2.
        doc.blocks.append(.paragraph("Firstwords of the section."))
        XCTAssertEqual(try ReportRenderer.render(doc, to: out).pageCount, 2)
        XCTAssertFalse(try PDFTools.text(out, page: 1).contains("Lonelyheading"))
        let second = try PDFTools.text(out, page: 2)
        XCTAssertTrue(second.contains("Lonelyheading") && second.contains("Firstwords"), second)
    }

    func testLongParagraphAndGiantCellSplitWithoutLoss() throws {
        let words = (0..<1500).map { String(format: "w%04dq", $0) }
        let doc = ReportFixtures.document([
            .paragraph(words.joined(separator: " ")),
            .table(ReportTable(header: ["Note", "Giantcell"], rows: [["x", words.prefix(1200).map { "g" + $0 }.joined(separator: " ")]],
                               columnWeights: [1, 6])),
        ])
        let out = path("giant.pdf")
        let summary = try ReportRenderer.render(doc, to: out)
        XCTAssertGreaterThan(summary.pageCount, 3)
        var counts: [Substring: Int] = [:]
        for token in try PDFTools.text(out).split(whereSeparator: { $0 == " " || $0 == "\n" }) { counts[token, default: 0] += 1 }
        for word in words { XCTAssertEqual(counts[Substring(word)], 1, word) }
        for word in words.prefix(1200) { XCTAssertEqual(counts[Substring("g" + word)], 1, "g" + word) }
    }

    func testLetterPaperAndPermissions() throws {
        let out = path("letter.pdf")
        try ReportRenderer.render(ReportFixtures.document([.paragraph("Hello")], paper: .letter), to: out)
        XCTAssertTrue(try PDFTools.run("pdfinfo", [out]).contains("612 x 792 pts"))
        let attributes = try FileManager.default.attributesOfItem(atPath: out)
        XCTAssertEqual((attributes[.posixPermissions] as? NSNumber)?.intValue, 0o600)
    }

    func testPhotoThatIsNotPNGIsSkippedAndReported() throws {
        let jpeg = path("photo.jpg")
        try Data([0xFF, 0xD8, 0xFF, 0xE0, 0, 0x10]).write(to: URL(fileURLWithPath: jpeg))
        let png = path("photo.png")
        let image = try Surface.image(width: 40, height: 30, opaque: true)
        let c = try Context(image)
        c.setSource(Color(hex: 0x336699)); c.paint()
        try image.writePNG(to: png)
        let out = path("photo.pdf")
        let summary = try ReportRenderer.render(ReportFixtures.document([
            .keyValues([("Name", "Coco")], photoPNG: jpeg), .keyValues([("Name", "Nabi")], photoPNG: png)]), to: out)
        XCTAssertEqual(summary.skippedPhotos, [jpeg])
        let text = try PDFTools.text(out)
        XCTAssertTrue(text.contains("Coco") && text.contains("Nabi"))
    }

    func testRowWithTooManyCellsIsRefusedAndLeavesNoFile() throws {
        let out = path("bad.pdf")
        let doc = ReportFixtures.document([.table(ReportTable(header: ["A", "B"], rows: [["1", "2"], ["1", "2", "3"]]))])
        XCTAssertThrowsError(try ReportRenderer.render(doc, to: out)) { error in
            XCTAssertEqual(error as? ReportError, .tooManyCells(row: 1, cells: 3, columns: 2))
        }
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: directory.path), [])
    }

    func testUnwritableDirectoryNamesTheTarget() throws {
        let out = "/nonexistent-dir-\(UUID())/r.pdf"
        XCTAssertThrowsError(try ReportRenderer.render(ReportFixtures.document([]), to: out)) { error in
            XCTAssertEqual(error as? CairoError, .writeError(path: out))
        }
    }

    func testEmptyTableShowsItsEmptyText() throws {
        let out = path("emptytable.pdf")
        try ReportRenderer.render(ReportFixtures.document([
            .table(ReportTable(header: ["Vaccine", "Due"], rows: [], emptyText: "No vaccinations recorded"))]), to: out)
        let text = try PDFTools.text(out)
        XCTAssertTrue(text.contains("Vaccine") && text.contains("No vaccinations recorded"), text)
    }
}
