import Foundation
import XCTest
@testable import Cairo

/// The document font set (a private fontconfig configuration for CJK report PDFs) lays text out exactly as
/// the system's fonts do, including characters it lacks (laid out again on the system fonts).
final class DocumentFontSetTests: XCTestCase {
    private let samples = [
        "보리 체중 4.2 kg (2024년 12월 31일)", "ココの体重 3.6 kg、作成日 2024年12月31日", "Coco → 38.5 ℃ ± 0.2 × ½ · … €",
        "① ② ★ ♥ ☎ — “quoted” «guillemets» Ünïcödé ß", "다롱이 🐶 😺 발랄", "ᚠᚢᚦ བོད ꦗꦮ ሰላም 𓀀", "한글 かな 漢字 ＡＢＣ １２３",
    ]

    private func pdfContext(_ language: String, documentSet: Bool, in directory: URL) throws -> Context {
        let surface = try Surface.pdf(path: directory.appendingPathComponent("\(language)-\(documentSet).pdf").path,
                                      width: 400, height: 400)
        let context = try Context(surface)
        context.setTextLanguage(language)
        if documentSet { context.useDocumentFontSet() }
        return context
    }

    func testLayoutsMeasureAsOnTheSystemFonts() throws {
        guard DocumentFontSet.fontMap != nil else {
            throw XCTSkip("no CJK family installed (fonts-nanum, fonts-mplus, fonts-noto-cjk)")
        }
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("DocumentFontSetTests-\(UUID())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        for language in ["ko", "ja", "zh-TW"] {
            let own = try pdfContext(language, documentSet: true, in: directory)
            let system = try pdfContext(language, documentSet: false, in: directory)
            XCTAssertTrue(own.onDocumentFontSet, language)
            XCTAssertFalse(system.onDocumentFontSet, language)
            for text in samples {
                for font in ["Sans 10", "Sans Bold 14"] {
                    let a = TextLayout(text, font: font, in: own, width: 120)
                    let b = TextLayout(text, font: font, in: system, width: 120)
                    XCTAssertEqual(a.extents, b.extents, "\(language) \(font) \(text)")
                    XCTAssertEqual(a.lines, b.lines, "\(language) \(font) \(text)")
                    XCTAssertEqual(a.unknownGlyphCount, b.unknownGlyphCount, "\(language) \(font) \(text)")
                }
            }
        }
    }

    func testOtherLanguagesAndSurfacesKeepTheSystemFonts() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("DocumentFontSetTests-\(UUID())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        XCTAssertFalse(try pdfContext("en", documentSet: true, in: directory).onDocumentFontSet)
        let image = try Context(try Surface.image(width: 10, height: 10))
        image.setTextLanguage("ko")
        image.useDocumentFontSet()
        XCTAssertFalse(image.onDocumentFontSet)
    }
}
