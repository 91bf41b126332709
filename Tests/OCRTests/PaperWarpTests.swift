import Foundation
import XCTest

@testable import OCR

/// Issue 45, phone photos: a receipt photographed by a phone held at an angle lies on the table as a keystone (the far
/// edge narrower) and turned. Its four corners are found against the table and the paper can be warped to a rectangle
/// before it is read (`LeptImage.paperCorners`, `unwarped`, `OCROptions.unwarpPaper`, off by default; docs/ocr.md). The photos are drawn here from the
/// receipt set's clean scans with known corners (PIL's perspective transform, `scripts/receipt_image.py`).
final class PaperWarpTests: XCTestCase {
    static let fixtures = ImageHeaderTests.fixtures
    static let scripts = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("scripts")

    var scratch: URL!  // safe: set in setUp

    override func setUpWithError() throws {
        scratch = FileManager.default.temporaryDirectory.appendingPathComponent("paper-warp-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws { try? FileManager.default.removeItem(at: scratch) }

    /// The receipt `name` (a scan of the set) drawn onto a dark table as the quadrilateral `corners` (fractions of the
    /// receipt's width and height, from the table's top left corner at (−0.3, −0.15)), optionally with a dark hand over its
    /// bottom right corner. Returns the photo's path and its corners in pixels.
    func photograph(_ name: String, corners: [(Double, Double)], hand: Bool = false) throws -> (String, [LeptImage.Point]) {
        let out = scratch.appendingPathComponent(name + "-photo.jpg").path
        let code = """
            import sys
            sys.path.insert(0, sys.argv[1])
            from PIL import Image, ImageDraw
            from receipt_image import perspective_coefficients
            r = Image.open(sys.argv[2]).convert("L")
            w, h = r.size
            W, H = int(w * 1.6), int(h * 1.3)
            f = [float(v) for v in sys.argv[4].split(",")]
            quad = [((f[2 * i] + 0.3) * w, (f[2 * i + 1] + 0.15) * h) for i in range(4)]
            c = perspective_coefficients(quad, [(0, 0), (w, 0), (w, h), (0, h)])
            paper = r.transform((W, H), Image.PERSPECTIVE, c, Image.BICUBIC)
            mask = Image.new("L", (w, h), 255).transform((W, H), Image.PERSPECTIVE, c, Image.BILINEAR)
            table = Image.new("L", (W, H), 70)
            table.paste(paper, (0, 0), mask)
            if sys.argv[5] == "hand":
                ImageDraw.Draw(table).ellipse((quad[2][0] - 0.25 * w, quad[2][1] - 0.12 * h, quad[2][0] + 0.2 * w, quad[2][1] + 0.2 * h), fill=55)
            table.save(sys.argv[3], quality=90)
            print(" ".join("%.1f,%.1f" % p for p in quad))
            """
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
        p.arguments = ["-c", code, Self.scripts.path, Self.fixtures.appendingPathComponent(name + ".jpg").path, out,
                       corners.map { "\($0.0),\($0.1)" }.joined(separator: ","), hand ? "hand" : "-"]
        let pipe = Pipe()
        p.standardOutput = pipe
        p.standardError = FileHandle.nullDevice
        try p.run()
        let printed = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        p.waitUntilExit()
        guard p.terminationStatus == 0 else { throw XCTSkip("the receipt set's Python (python3-pil) is not installed") }
        let points = printed.split(whereSeparator: \.isWhitespace).map { pair -> LeptImage.Point in
            let v = pair.split(separator: ",").compactMap { Double($0) }
            return (v[0], v[1])
        }
        return (out, points)
    }

    /// Far edge 16 % narrower than the near one, the whole turned about 4°.
    static let keystone = [(0.08, 0.0), (0.92, 0.05), (1.02, 1.0), (-0.04, 0.96)]

    func testTheCornersOfAKeystonedPaperAreFound() throws {
        let (path, drawn) = try photograph("en-01", corners: Self.keystone)
        let (image, _) = try LeptImage.load(path: path, options: OCROptions())
        let found = try XCTUnwrap(try image.gray().paper())
        let corners = try XCTUnwrap(found.corners, "the paper's box \(found.box), no corners")
        let tolerance = Double(image.width) * 0.02
        for (f, d) in zip(corners, drawn) {
            XCTAssertLessThan(abs(f.x - d.x), tolerance, "found \(corners), drawn \(drawn)")
            XCTAssertLessThan(abs(f.y - d.y), tolerance, "found \(corners), drawn \(drawn)")
        }
    }

    /// A hand over a corner: the paper's outline is no quadrilateral, so no corners (the box is cut, as before).
    func testAPaperWithACornerHiddenHasNoCorners() throws {
        let (path, _) = try photograph("en-01", corners: Self.keystone, hand: true)
        let (image, _) = try LeptImage.load(path: path, options: OCROptions())
        if let found = try image.gray().paper() { XCTAssertNil(found.corners, "\(found)") }
    }

    /// Each language's receipt photographed keystoned and turned is read upright: warped to a rectangle as wide as the
    /// paper's near edge, its lines level (no deskew left to do), the total and the shop's name read.
    func testAKeystonedPhotoIsWarpedUprightAndItsTotalAndMerchantRead() throws {
        for name in ["en-01", "ko-01", "ja-01"] {
            let truth = try OCREngineTests.truth(name)
            let (path, drawn) = try photograph(name, corners: Self.keystone)
            let trace = OCRTrace()
            let result = try OCREngine.recognizeDetecting(imageAt: path, fallback: "eng", options: OCROptions(unwarpPaper: true), trace: trace)
            XCTAssertTrue(result.steps.contains("unwarped"), "\(name): \(result.steps)\n\(trace.report)")
            let near = ((drawn[2].x - drawn[3].x) * (drawn[2].x - drawn[3].x) + (drawn[2].y - drawn[3].y) * (drawn[2].y - drawn[3].y)).squareRoot()
            XCTAssertEqual(Double(result.width), near * 1.03, accuracy: near * 0.04, name)
            XCTAssertLessThan(abs(result.deskewAngle), 1, name)
            let text = result.text.replacingOccurrences(of: " ", with: "")
            XCTAssertTrue(text.contains(truth.total_text.filter { $0.isNumber || $0 == "," || $0 == "." }), "\(name): \(result.text)")
            XCTAssertTrue(text.contains(truth.merchant.replacingOccurrences(of: " ", with: "").prefix(4)), "\(name): \(result.text)")
        }
    }

    /// The tuning half's r0005 (`receipt-gen.py --seed 45045`: a Japanese groomer's receipt photographed under a shadow and
    /// light falling off): tesseract's OSD on the paper as photographed finds nothing, and the page was read in English,
    /// Korean and Japanese. Detection looks again at the paper evened out as tesseract reads it (`OCROptions.detectOnNormalized`),
    /// finds Japanese, and the page is read once, in Japanese.
    func testAShadowedPhotoWhoseScriptOSDMissesIsDetectedOnTheNormalizedPaperAndReadOnce() throws {
        let folder = scratch.appendingPathComponent("gen").path
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
        p.arguments = [Self.scripts.appendingPathComponent("receipt-gen.py").path, "--count", "6", "--seed", "45045", "--out", folder]
        p.standardOutput = FileHandle.nullDevice
        p.standardError = FileHandle.nullDevice
        try p.run()
        p.waitUntilExit()
        guard p.terminationStatus == 0 else { throw XCTSkip("the generator's Python (python3-gi, python3-pil) is not installed") }
        let path = folder + "/tune/r0005-ja-groomer-photo.jpg"
        let trace = OCRTrace()
        let result = try OCREngine.recognizeDetecting(imageAt: path, fallback: "eng", trace: trace)
        XCTAssertEqual(result.layout?.script, "Japanese", trace.report)
        XCTAssertEqual(result.language, "jpn+eng", trace.report)
        XCTAssertEqual(trace.stages.filter { $0.name.hasPrefix("recognize") }.count, 1, trace.report)
    }
}
