import Foundation
import XCTest

@testable import OCR

/// Issue 45, the photos' time: a page read badly (mean word confidence under `SecondLook.below`) is read again another
/// way, the likeliest readings first, within a budget of whole-page readings (`OCROptions.secondLookReadings`), and the
/// first reading clearly better ends the search (docs/ocr.md, "The second look's budget"). Before, every language both
/// ways up was tried until one read over 75: a photo was read up to six times.
final class SecondLookTests: XCTestCase {
    static let fixtures = ImageHeaderTests.fixtures
    static let all: Set<String> = ["eng", "kor", "jpn", "osd"]

    func testOSDFoundNothingTriesTheOtherLanguagesBeforeTheOtherWayUp() {
        let plan = SecondLook.plan(turn: 0, chosen: "eng", fallback: "eng", languageGiven: false, layout: nil, installed: Self.all)
        XCTAssertEqual(plan.map { "\($0.quarterTurns) \($0.language)" }, ["0 kor+eng", "0 jpn+eng", "2 eng"])
    }

    func testATurnOSDWasUnsureOfIsTriedAfterTheLikeliestOtherLanguageAndTheOtherCJKLanguageBeforeTheFallback() {
        let unsure = PageLayout(rotation: 90, orientationConfidence: 1.2, script: "Japanese", scriptConfidence: 0.4)
        let plan = SecondLook.plan(turn: 1, chosen: "jpn+eng", fallback: "eng", languageGiven: false, layout: unsure, installed: Self.all)
        XCTAssertEqual(plan.map { "\($0.quarterTurns) \($0.language)" }, ["1 kor+eng", "3 jpn+eng", "1 eng"])
        let sure = PageLayout(rotation: 0, orientationConfidence: 6.0, script: "Korean", scriptConfidence: 0.4)
        XCTAssertEqual(SecondLook.plan(turn: 0, chosen: "kor+eng", fallback: "jpn+eng", languageGiven: false, layout: sure,
                                       installed: Self.all).map { "\($0.quarterTurns) \($0.language)" }, ["0 jpn+eng", "0 eng"])
    }

    func testGivenLanguagesAreKeptAndUninstalledOnesNeverTried() {
        let unsure = PageLayout(rotation: 0, orientationConfidence: 0.5, script: "Latin", scriptConfidence: 1)
        XCTAssertEqual(SecondLook.plan(turn: 0, chosen: "kor+eng", fallback: "eng", languageGiven: true, layout: unsure, installed: Self.all)
            .map { "\($0.quarterTurns) \($0.language)" }, ["2 kor+eng"])
        let latin = PageLayout(rotation: 0, orientationConfidence: 0.8, script: "Latin", scriptConfidence: 1.1)
        XCTAssertEqual(SecondLook.plan(turn: 0, chosen: "eng", fallback: "eng", languageGiven: false, layout: latin, installed: Self.all)
            .map { "\($0.quarterTurns) \($0.language)" }, ["0 kor+eng", "2 eng", "0 jpn+eng"])
        XCTAssertTrue(SecondLook.plan(turn: 0, chosen: "kor+eng", fallback: "eng", languageGiven: true,
                                      layout: PageLayout(rotation: 0, orientationConfidence: 5, script: "Korean", scriptConfidence: 1), installed: Self.all).isEmpty)
        XCTAssertEqual(SecondLook.plan(turn: 0, chosen: "eng", fallback: "eng", languageGiven: false, layout: nil, installed: ["eng", "kor"])
            .map { "\($0.quarterTurns) \($0.language)" }, ["0 kor+eng", "2 eng"])
    }

    /// A tessdata folder without `osd.traineddata`: detection finds nothing, the Korean receipt is read first in the fallback
    /// (English, badly), then in Korean, which is clearly better and ends the search: two readings, not the three
    /// languages. With no budget the first reading stands.
    func testAKoreanReceiptWithoutDetectionIsReadAgainOnceInKoreanAndNotWithoutABudget() throws {
        let system = OCREngine.defaultTessdataPath()
        let installed = OCREngine.installedLanguages(tessdataPath: system)
        guard ["eng", "kor", "jpn"].allSatisfy(installed.contains) else { throw XCTSkip("tesseract-ocr-kor/-jpn not installed") }
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("second-look-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        for l in ["eng", "kor", "jpn"] {
            try FileManager.default.createSymbolicLink(atPath: folder.appendingPathComponent("\(l).traineddata").path,
                                                       withDestinationPath: "\(system)/\(l).traineddata")
        }
        let receipt = Self.fixtures.appendingPathComponent("ko-01.jpg").path
        let truth = try OCREngineTests.truth("ko-01")
        let trace = OCRTrace()
        let result = try OCREngine.recognizeDetecting(imageAt: receipt, fallback: "eng", tessdataPath: folder.path, trace: trace)
        XCTAssertNil(result.layout?.script)
        XCTAssertEqual(result.language, "kor+eng", trace.report)
        XCTAssertTrue(result.steps.contains("looked again 1"), "\(result.steps)\n\(trace.report)")
        XCTAssertTrue(result.lines.contains { $0.text.filter(\.isNumber).contains(truth.total_text.filter(\.isNumber)) }, result.text)
        XCTAssertTrue(result.text.filter { !$0.isWhitespace }.contains(truth.merchant.filter { !$0.isWhitespace }), result.text)

        let first = try OCREngine.recognizeDetecting(imageAt: receipt, fallback: "eng", tessdataPath: folder.path,
                                                     options: OCROptions(secondLookReadings: 0))
        XCTAssertEqual(first.language, "eng")
        XCTAssertLessThan(first.meanWordConfidence, SecondLook.below)
        XCTAssertFalse(first.steps.contains { $0.hasPrefix("looked again") })
    }
}
