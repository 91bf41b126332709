import CTesseract
import Foundation
import XCTest

@testable import OCR

/// Flattening a curled receipt (docs/ocr.md, "Curl"): the bow measured on a synthetic grid of text-like marks
/// whose rows follow a known parabola, undone, and left alone on a flat grid; and the curled phone photos read right.
final class FlattenTests: XCTestCase {
    /// A white 8-bit page with rows of character-sized dark marks (18×24 px, words of five with wider gaps,
    /// some rows shorter, as a receipt's label and amount columns), each mark dropped by `bow · u²` at its
    /// column (u from −1 at the left edge to 1 at the right).
    static func grid(bow: Double, width: Int = 760, height: Int = 1000) throws -> LeptImage {
        let page = try XCTUnwrap(LeptImage(pixCreate(Int32(width), Int32(height), 8)))
        pixSetAll(page.pointer)
        var row = 0
        for top in stride(from: 60, to: height - 90, by: 48) {
            // Every third row holds a label at the left and an amount at the right, the others run across.
            let spans: [(Int, Int)] = row % 3 == 2 ? [(30, 300), (width - 230, width - 30)] : [(30, width - 30)]
            for (from, to) in spans {
                var x = from, n = 0
                while x + 18 <= to {
                    let u = (Double(x + 9) - Double(width) / 2) / (Double(width) / 2)
                    let y = top + Int((bow * u * u).rounded())
                    var box: UnsafeMutablePointer<BOX>? = boxCreate(Int32(x), Int32(y), 18, 24)
                    pixClearInRect(page.pointer, box)
                    boxDestroy(&box)
                    n += 1
                    x += n % 5 == 0 ? 40 : 24
                }
            }
            row += 1
        }
        return page
    }

    /// The vertical middle of the dark pixels in columns `x ..< x + 18` between rows `from ..< to`.
    static func middle(_ image: LeptImage, x: Int, from: Int, to: Int) -> Double? {
        var sum = 0, count = 0, value: UInt32 = 0
        for c in x..<(x + 18) {
            for y in from..<to where pixGetPixel(image.pointer, Int32(c), Int32(y), &value) == 0 && value < 128 {
                sum += y; count += 1
            }
        }
        return count == 0 ? nil : Double(sum) / Double(count)
    }

    func testTheBowOfACurvedGridIsMeasuredAndUndone() throws {
        let curved = try Self.grid(bow: 26)
        let curl = try XCTUnwrap(curved.measureCurl())
        XCTAssertEqual(curl.curvature, 26, accuracy: 4, "\(curl)")
        XCTAssertEqual(curl.slope, 0, accuracy: 3, "\(curl)")
        XCTAssertGreaterThanOrEqual(curl.lines, 6)

        let (flat, found) = curved.flattenedWhenCurled(textHeight: 24, fraction: 0.5)
        XCTAssertNotNil(found)
        XCTAssertFalse(flat === curved, "a bow of more than a character's height is flattened")
        XCTAssertEqual(flat.width, curved.width)
        XCTAssertEqual(flat.height, curved.height)
        // Before: the first row's marks at the edges lie 26 px lower than in the middle (less the mark's own
        // u² across it); after, level within 3 px.
        let band = (50, 107)  // the first row only: its marks lie between y 60 (middle) and 105 (edges)
        let left = try XCTUnwrap(Self.middle(curved, x: 30, from: band.0, to: band.1)), middleBefore = try XCTUnwrap(Self.middle(curved, x: 366, from: band.0, to: band.1))
        XCTAssertGreaterThan(left - middleBefore, 18)
        let leftAfter = try XCTUnwrap(Self.middle(flat, x: 30, from: band.0 - 10, to: band.1))
        let middleAfter = try XCTUnwrap(Self.middle(flat, x: 366, from: band.0 - 10, to: band.1))
        XCTAssertEqual(leftAfter, middleAfter, accuracy: 3)
        // Measured again, the flattened page has no bow left.
        XCTAssertEqual(try XCTUnwrap(flat.measureCurl()).curvature, 0, accuracy: 3)
    }

    func testAFlatGridIsLeftAlone() throws {
        let page = try Self.grid(bow: 0)
        let curl = try XCTUnwrap(page.measureCurl())
        XCTAssertEqual(curl.curvature, 0, accuracy: 2, "\(curl)")
        XCTAssertTrue(page.flattenedWhenCurled(textHeight: 24, fraction: 0.5).0 === page)
        // A bow under half a character's height is left too (flattening it gained nothing, docs/ocr.md).
        let slight = try Self.grid(bow: 8)
        XCTAssertTrue(slight.flattenedWhenCurled(textHeight: 24, fraction: 0.5).0 === slight)
    }

    func testAPageWithoutLinesHasNoCurl() throws {
        let blank = try XCTUnwrap(LeptImage(pixCreate(400, 600, 8)))
        pixSetAll(blank.pointer)
        XCTAssertNil(blank.measureCurl())
        XCTAssertTrue(blank.flattenedWhenCurled(textHeight: nil, fraction: 0.5).0 === blank)
    }

    /// The curled phone photos (scripts/make-receipts.py --phone DIR curl): each is flattened before it is
    /// read, and the lines the bow broke before come out whole: phone-ko-curl's `합계 … 120,800` (its right
    /// column had dropped half a line), phone-en-curl's date `06/08/2026` (read `96/08/2026`).
    func testCurledPhonePhotosAreFlattenedAndReadRight() throws {
        let folder = NSTemporaryDirectory() + "petlog-curl-\(UUID().uuidString)"
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("scripts/make-receipts.py").path
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
        p.arguments = [script, "--phone", folder, "curl"]
        p.standardOutput = FileHandle.nullDevice
        p.standardError = FileHandle.nullDevice
        try p.run()
        p.waitUntilExit()
        guard p.terminationStatus == 0 else { throw XCTSkip("the receipt set's Python (python3-gi, python3-pil) is not installed") }
        for (name, language, expected) in [("phone-ko-curl", "kor+eng", ["합계", "120,800"]), ("phone-en-curl", "eng", ["06/08/2026"]),
                                          ("phone-ja-curl", "jpn+eng", [])] {
            let trace = OCRTrace()
            let result = try OCREngine.recognizeDetecting(imageAt: "\(folder)/\(name).jpg", fallback: "eng", trace: trace)
            XCTAssertEqual(result.language, language, trace.report)
            XCTAssertTrue(trace.notes.contains { $0.contains("flattened") }, trace.report)
            let squeezed = result.lines.map { $0.text.replacingOccurrences(of: " ", with: "") }
            if !expected.isEmpty {
                XCTAssertTrue(squeezed.contains { line in expected.allSatisfy { line.contains($0) } }, "\(name): \(result.text)")
            }
        }
    }
}
