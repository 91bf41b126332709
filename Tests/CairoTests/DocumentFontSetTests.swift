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
        guard FontMaps.document(language: "ko") != nil else {
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

    /// The set is the start of the system's font order for the document's families, in both weights.
    func testTheSetIsTheStartOfTheSystemOrder() throws {
        for language in ["ko", "ja"] {
            guard let map = FontMaps.document(language: language) else {
                throw XCTSkip("no CJK family installed (fonts-nanum, fonts-mplus, fonts-noto-cjk)")
            }
            for weight in DocumentFontSet.weights {
                let own = DocumentFontSet.fontList(on: map, language: language, weight: weight)
                let system = DocumentFontSet.fontList(on: FontMaps.system(), language: language, weight: weight)
                XCTAssertFalse(own.isEmpty, language)
                XCTAssertEqual(own, Array(system.prefix(own.count)), language)
                XCTAssertLessThan(own.count, system.count, language)
            }
        }
    }

    /// The list in the cache directory is read back as written, and refused when a file it depends on
    /// changed (size or time), is gone, or the fontconfig environment differs.
    func testTheListIsRefusedWhenAStampChanged() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("DocumentFontSetTests-\(UUID())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let font = directory.appendingPathComponent("Some Font.ttf").path
        try Data("abc".utf8).write(to: URL(fileURLWithPath: font))
        let cacheFile = directory.appendingPathComponent("fonts.cache-9").path
        try Data("x".utf8).write(to: URL(fileURLWithPath: cacheFile))
        let stamps = [font, cacheFile, directory.path + "/nonexistent"].compactMap(DocumentFontSet.Cache.stamp)
        XCTAssertEqual(stamps.count, 2)
        let list = DocumentFontSet.List(faces: [.init(file: font, index: 2)], cacheFiles: [cacheFile], stamps: stamps)
        let file = directory.appendingPathComponent("petlog/fonts-ko.txt").path
        DocumentFontSet.Cache.write(list, to: file, environment: "\t\t")
        let read = try XCTUnwrap(DocumentFontSet.Cache.read(file, environment: "\t\t"))
        XCTAssertEqual(read.faces, list.faces)
        XCTAssertEqual(read.cacheFiles, list.cacheFiles)
        XCTAssertEqual(read.stamps, list.stamps)
        XCTAssertNil(DocumentFontSet.Cache.read(file, environment: "/tmp/other.conf\t\t"))
        // The font file updated in place: another size.
        try Data("abcd".utf8).write(to: URL(fileURLWithPath: font))
        XCTAssertNil(DocumentFontSet.Cache.read(file, environment: "\t\t"))
        // Stamped again, then the font removed.
        let restamped = DocumentFontSet.List(faces: list.faces, cacheFiles: list.cacheFiles,
                                             stamps: [font, cacheFile].compactMap(DocumentFontSet.Cache.stamp))
        DocumentFontSet.Cache.write(restamped, to: file, environment: "\t\t")
        XCTAssertNotNil(DocumentFontSet.Cache.read(file, environment: "\t\t"))
        try FileManager.default.removeItem(atPath: font)
        XCTAssertNil(DocumentFontSet.Cache.read(file, environment: "\t\t"))
        // A damaged list is no list.
        try Data("petlog-fonts 1\nenv\t\t\nface\tbroken\n".utf8).write(to: URL(fileURLWithPath: file))
        XCTAssertNil(DocumentFontSet.Cache.read(file, environment: "\t\t"))
    }

    /// A private configuration is made only from faces fontconfig's cache files hold.
    func testAMissingFaceMakesNoConfiguration() {
        XCTAssertNil(DocumentFontSet.config(faces: [.init(file: "/nonexistent/font.ttf", index: 0)], cacheFiles: []))
    }
}
