import Foundation
import XCTest

import OCR

/// The engine on the project's receipts (Fixtures/receipts, made by scripts/make-receipts.py) and on bad input.
final class OCREngineTests: XCTestCase {
    static let fixtures = ImageHeaderTests.fixtures

    struct Truth: Decodable {
        var merchant: String
        var total_text: String
        var language: String
    }

    static func truth(_ name: String) throws -> Truth {
        try JSONDecoder().decode(Truth.self, from: Data(contentsOf: fixtures.appendingPathComponent(name + ".json")))
    }

    var scratch: URL!  // safe: set in setUp

    override func setUpWithError() throws {
        scratch = FileManager.default.temporaryDirectory.appendingPathComponent("ocr-tests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws { try? FileManager.default.removeItem(at: scratch) }

    func write(_ name: String, _ bytes: [UInt8]) throws -> String {
        let url = scratch.appendingPathComponent(name)
        try Data(bytes).write(to: url)
        return url.path
    }

    func assertThrows(_ path: String, _ expected: OCRError, file: StaticString = #filePath, line: UInt = #line) throws {
        let engine = try OCREngine(language: "eng")
        XCTAssertThrowsError(try engine.recognize(imageAt: path), file: file, line: line) { error in
            XCTAssertEqual(error as? OCRError, expected, file: file, line: line)
        }
    }

    /// A HEIC photo (made by libheif's heif-enc) is decoded through libheif and read like its JPEG.
    func testReadsAHEICPhoto() throws {
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/heif-enc") else { throw XCTSkip("heif-enc (libheif-examples) not installed") }
        let jpeg = Self.fixtures.appendingPathComponent("en-01.jpg").path
        let heic = NSTemporaryDirectory() + "petlog-ocr-\(UUID().uuidString).heic"
        defer { try? FileManager.default.removeItem(atPath: heic) }
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/usr/bin/heif-enc")
        p.arguments = ["-q", "70", "-o", heic, jpeg]
        p.standardOutput = FileHandle.nullDevice
        p.standardError = FileHandle.nullDevice
        try p.run()
        p.waitUntilExit()
        XCTAssertEqual(p.terminationStatus, 0)
        let result = try OCREngine.recognizeDetecting(imageAt: heic, fallback: "kor+eng")
        XCTAssertEqual(result.language, "eng")
        let expected = try OCREngine(language: "eng").recognize(imageAt: jpeg)
        XCTAssertEqual(result.width, expected.width)
        XCTAssertEqual(result.height, expected.height)
        XCTAssertEqual(result.lines.first?.text, expected.lines.first?.text)
    }

    /// The character height is measured on the image: about 29 px on the 300-dpi receipts (9.5 pt), twice
    /// that on a copy twice as large; nothing on an image without text.
    func testTextHeightIsMeasured() throws {
        let ko = try XCTUnwrap(try OCREngine.textHeight(imageAt: Self.fixtures.appendingPathComponent("ko-01.jpg").path))
        XCTAssertEqual(ko, 29, accuracy: 4)
        let en = try XCTUnwrap(try OCREngine.textHeight(imageAt: Self.fixtures.appendingPathComponent("en-12.jpg").path))
        XCTAssertEqual(en, 26, accuracy: 4)
        XCTAssertNil(try OCREngine.textHeight(imageAt: Self.fixtures.appendingPathComponent("blank.png").path))
        let big = scratch.appendingPathComponent("big.jpg").path
        let r = try python(["-c", "import sys; from PIL import Image; i = Image.open(sys.argv[1]); i.resize((i.width * 2, i.height * 2), Image.BICUBIC).save(sys.argv[2], quality=90)",
                            Self.fixtures.appendingPathComponent("ko-01.jpg").path, big])
        XCTAssertEqual(r, 0)
        XCTAssertEqual(try XCTUnwrap(try OCREngine.textHeight(imageAt: big)), 2 * ko, accuracy: 8)
    }

    /// A 12 MP photo of a receipt on a dark table (scripts/make-receipts.py --photo, characters 60 px tall) is read
    /// scaled down to 32 px characters, and orientation and script detection, which saw nothing on the whole
    /// frame, finds Korean on the paper: one reading, in Korean, of the paper alone. A scan at 300 dpi is read as it
    /// is, no paper cut.
    func testALargePhotoIsReadSmallerAndItsScriptFoundOnThePaper() throws {
        let photo = scratch.appendingPathComponent("photo.jpg").path
        let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("scripts/make-receipts.py").path
        guard try python([script, "--photo", photo]) == 0 else { throw XCTSkip("the receipt set's Python (python3-pil) is not installed") }
        let trace = OCRTrace()
        let result = try OCREngine.recognizeDetecting(imageAt: photo, fallback: "eng", trace: trace)
        XCTAssertEqual(result.layout?.script, "Korean", trace.report)
        XCTAssertEqual(result.language, "kor+eng")
        XCTAssertEqual(trace.stages.filter { $0.name.hasPrefix("recognize") }.count, 1, trace.report)
        XCTAssertLessThan(result.scale, 0.7)
        // Only the paper is read (issue 45): the reading is the paper's box, in the scaled image's pixels.
        let paper = try XCTUnwrap(result.paper)
        XCTAssertTrue(result.steps.contains("paper"), "\(result.steps)")
        XCTAssertEqual(result.width, paper.width)
        XCTAssertLessThan(Double(result.width), 4000 * result.scale)
        XCTAssertTrue(result.text.contains("93,100"), result.text)
        XCTAssertTrue(result.text.replacingOccurrences(of: " ", with: "").contains("멍냥펫샵"), result.text)

        let scan = try OCREngine.recognizeDetecting(imageAt: Self.fixtures.appendingPathComponent("ko-01.jpg").path, fallback: "eng")
        XCTAssertEqual(scan.scale, 1)
        XCTAssertNil(scan.paper)
        XCTAssertEqual(scan.language, "kor+eng")
    }

    /// A JPEG over 6 MP is decoded at half size (libjpeg's scaled decoding) when its characters are still 32 px
    /// tall there (the 12 MP photo's 64 px): the same reading, a quarter of the pixels decoded. A receipt small in a
    /// large frame (en-01's 26 px characters on a 4000×3000 table) would be read at 13 px so: decoded again in full.
    func testALargeJPEGIsDecodedAtHalfSizeOnlyWhenItsTextStaysLarge() throws {
        let photo = scratch.appendingPathComponent("photo.jpg").path
        let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("scripts/make-receipts.py").path
        guard try python([script, "--photo", photo]) == 0 else { throw XCTSkip("the receipt set's Python (python3-pil) is not installed") }
        let trace = OCRTrace()
        let big = try OCREngine.recognizeDetecting(imageAt: photo, fallback: "eng", trace: trace)
        XCTAssertTrue(trace.notes.contains { $0.hasPrefix("decoded at 1/2") && !$0.contains("again") }, trace.report)
        XCTAssertEqual(big.scale, 0.5, accuracy: 0.05)
        XCTAssertEqual(try XCTUnwrap(big.measuredTextHeight), 64, accuracy: 8)
        XCTAssertTrue(big.text.contains("93,100"), big.text)

        let small = scratch.appendingPathComponent("small.jpg").path
        XCTAssertEqual(try python(["-c", "import sys; from PIL import Image; r = Image.open(sys.argv[1]).convert('L'); c = Image.new('L', (4000, 3000), 90); c.paste(r, (1500, 900)); c.save(sys.argv[2], quality=90)",
                                   Self.fixtures.appendingPathComponent("en-01.jpg").path, small]), 0)
        let again = OCRTrace()
        let read = try OCREngine.recognizeDetecting(imageAt: small, fallback: "eng", trace: again)
        XCTAssertTrue(again.notes.contains { $0.contains("decoded again in full") }, again.report)
        XCTAssertEqual(read.scale, 1)
        XCTAssertEqual(read.width, 4000)
        let truth = try Self.truth("en-01")
        XCTAssertTrue(read.lines.contains { $0.text.contains(truth.total_text) }, read.text)
    }

    @discardableResult
    func python(_ arguments: [String]) throws -> Int32 {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
        p.arguments = arguments
        p.standardOutput = FileHandle.nullDevice
        p.standardError = FileHandle.nullDevice
        try p.run()
        p.waitUntilExit()
        return p.terminationStatus
    }

    /// Raw text holds the total's digits on one line and the merchant (spaces ignored): the engine reads receipts.
    func testReadsTotalAndMerchantOfAReceiptInEachLanguage() throws {
        let languages = ["ko": "kor+eng", "ja": "jpn+eng", "en": "eng"]
        for name in ["ko-01", "ja-02", "en-01", "en-12"] {
            let truth = try Self.truth(name)
            let engine = try OCREngine(language: languages[truth.language] ?? "eng")
            let result = try engine.recognize(imageAt: Self.fixtures.appendingPathComponent(name + ".jpg").path)
            let digits = truth.total_text.filter(\.isNumber)
            XCTAssertTrue(result.lines.contains { $0.text.filter(\.isNumber).contains(digits) }, "\(name): no line with \(digits) in\n\(result.text)")
            let squeezed = result.text.filter { !$0.isWhitespace }
            XCTAssertTrue(squeezed.contains(truth.merchant.filter { !$0.isWhitespace }), "\(name): no \(truth.merchant) in\n\(result.text)")
            XCTAssertFalse(result.words.isEmpty)
            for word in result.words {
                XCTAssertTrue((0...100).contains(word.confidence), "\(name): confidence \(word.confidence)")
                XCTAssertTrue(result.lines.indices.contains(word.line))
                XCTAssertGreaterThan(word.box.width, 0)
                XCTAssertLessThanOrEqual(word.box.x + word.box.width, result.width)
                XCTAssertLessThanOrEqual(word.box.y + word.box.height, result.height)
            }
        }
    }

    func testHonoursExifOrientation() throws {
        let truth = try Self.truth("exif-6")
        let result = try OCREngine(language: "kor+eng").recognize(imageAt: Self.fixtures.appendingPathComponent("exif-6.jpg").path)
        XCTAssertEqual(result.orientationApplied, .right)
        XCTAssertGreaterThan(result.height, result.width, "turned upright")
        XCTAssertTrue(result.text.filter { !$0.isWhitespace }.contains(truth.merchant.filter { !$0.isWhitespace }), result.text)
    }

    func testDeskewReportsTheAngleOfARotatedReceipt() throws {
        let result = try OCREngine(language: "eng").recognize(imageAt: Self.fixtures.appendingPathComponent("en-04.jpg").path)
        XCTAssertEqual(abs(result.deskewAngle), 3.5, accuracy: 0.5, "en-04 is drawn turned 3.5°")
        let straight = try OCREngine(language: "eng").recognize(imageAt: Self.fixtures.appendingPathComponent("en-01.jpg").path)
        XCTAssertEqual(straight.deskewAngle, 0)
    }

    func testAnImageWithoutTextGivesAnEmptyResult() throws {
        let result = try OCREngine(language: "eng").recognize(imageAt: Self.fixtures.appendingPathComponent("blank.png").path)
        XCTAssertEqual(result.words, [])
        XCTAssertEqual(result.lines, [])
        XCTAssertEqual(result.width, 600)
    }

    func testBadInputIsATypedError() throws {
        let receipt = try [UInt8](Data(contentsOf: Self.fixtures.appendingPathComponent("en-01.jpg")))
        let missing = scratch.appendingPathComponent("nope.jpg").path
        try assertThrows(missing, .fileNotFound(path: missing))
        try assertThrows(scratch.path, .unreadable(path: scratch.path))
        let empty = try write("empty.jpg", [])
        try assertThrows(empty, .emptyFile(path: empty))
        let csv = try write("receipt.jpg", Array("date,total\n2026-11-20,12000\n".utf8))
        try assertThrows(csv, .notAnImage(path: csv))
        let truncated = try write("truncated.jpg", Array(receipt.prefix(receipt.count / 2)))
        try assertThrows(truncated, .corruptImage(path: truncated))
        let headerOnly = try write("header-only.jpg", Array(receipt.prefix(20)))
        try assertThrows(headerOnly, .corruptImage(path: headerOnly))
        let heic = try write("photo.heic", [0, 0, 0, 0x18] + Array("ftypheic".utf8) + [UInt8](repeating: 0, count: 64))
        // A HEIC container libheif cannot make sense of: its own reason, one typed error.
        XCTAssertThrowsError(try OCREngine(language: "eng").recognize(imageAt: heic)) { error in
            guard case .undecodableHeif(let path, let detail)? = error as? OCRError else { return XCTFail("\(error)") }
            XCTAssertEqual(path, heic)
            XCTAssertFalse(detail.isEmpty)
        }
        // 10000×10000 claimed by the frame header: refused before the decoder allocates 100 MP.
        let huge = try write("huge.jpg", ImageHeaderTests.jpeg(width: 10000, height: 10000).dropLast(2) + receipt.dropFirst(2))
        try assertThrows(huge, .tooManyPixels(path: huge, width: 10000, height: 10000, limit: 50_000_000))
        let engine = try OCREngine(language: "eng")
        XCTAssertThrowsError(try engine.recognize(imageAt: Self.fixtures.appendingPathComponent("en-01.jpg").path, options: OCROptions(maxFileBytes: 1000))) {
            XCTAssertEqual($0 as? OCRError, .fileTooLarge(path: Self.fixtures.appendingPathComponent("en-01.jpg").path, bytes: receipt.count, limit: 1000))
        }
        if FileManager.default.fileExists(atPath: "/dev/zero") {
            try assertThrows("/dev/zero", .unreadable(path: "/dev/zero"))
        }
    }

    /// Seeded flips in a whole receipt's scan data: each is read or refused as corrupt, never a crash.
    func testCorruptScanDataIsReadOrRefused() throws {
        let receipt = try [UInt8](Data(contentsOf: Self.fixtures.appendingPathComponent("en-02.jpg")))
        let engine = try OCREngine(language: "eng")
        var state: UInt64 = 7
        for trial in 0..<6 {
            var bytes = receipt
            for _ in 0..<20 {
                state = state &* 6364136223846793005 &+ 1442695040888963407
                let at = 1000 + Int((state >> 33) % UInt64(bytes.count - 1002))  // past the headers, before the end marker
                bytes[at] = UInt8(truncatingIfNeeded: state >> 20)
            }
            let path = try write("flipped-\(trial).jpg", bytes)
            do { _ = try engine.recognize(imageAt: path) } catch let error as OCRError {
                XCTAssertEqual(error, .corruptImage(path: path))
            }
        }
    }

    func testUnknownLanguagesAreRefusedBeforeTesseractSeesThem() {
        for language in ["xx", "kor+", "../eng", "", "eng+klingon"] {
            XCTAssertThrowsError(try OCREngine(language: language)) {
                XCTAssertEqual($0 as? OCRError, .languageUnavailable(language: language, tessdata: OCREngine.defaultTessdataPath()))
            }
        }
    }

    func testTessdataPathComesFromTheEnvironment() {
        XCTAssertEqual(OCREngine.defaultTessdataPath(environment: ["TESSDATA_PREFIX": "/opt/td"]), "/opt/td")
        XCTAssertEqual(OCREngine.defaultTessdataPath(environment: [:]), OCREngine.debianTessdata)
        XCTAssertTrue(Set(OCREngine.installedLanguages(tessdataPath: OCREngine.debianTessdata)).isSuperset(of: ["eng", "kor", "jpn"]))
    }
}
