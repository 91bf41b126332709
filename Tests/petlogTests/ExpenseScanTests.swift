import Foundation
import XCTest

/// `expense scan` as a user runs it, and its field accuracy on the project's receipt set
/// (`scripts/make-receipts.py`, `Tests/OCRTests/Fixtures/receipts`).
final class ExpenseScanTests: CLITestCase {
    static let receipts = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("OCRTests/Fixtures/receipts")
    /// The receipts are dated through 2026; "now" is after all of them.
    let env = ["PETLOG_NOW": "2026-12-31T10:00:00+09:00"]

    override func setUpWithError() throws {
        try super.setUpWithError()
        guard FileManager.default.fileExists(atPath: "/usr/share/tesseract-ocr/5/tessdata/kor.traineddata") else {
            throw XCTSkip("tesseract-ocr-kor is not installed (make setup installs it)")
        }
        XCTAssertEqual(try run(["pet", "add", "Coco", "--species", "dog"], env: env).status, 0)
    }

    func receipt(_ name: String) -> String { Self.receipts.appendingPathComponent(name).path }

    func testAKoreanJapaneseAndEnglishReceiptAreSavedWithTheirPhoto() throws {
        let ko = try run(["--lang", "ko", "expense", "scan", receipt("ko-01.jpg"), "Coco", "--yes", "--category", "food"], env: env)
        XCTAssertEqual(ko.status, 0, ko.stderr)
        XCTAssertTrue(ko.stdout.contains("93,100원") && ko.stdout.contains("멍냥펫샵"), ko.stdout)
        XCTAssertTrue(ko.stdout.contains("(9"), "each field's confidence is shown: \(ko.stdout)")
        let ja = try run(["--lang", "ja", "expense", "scan", receipt("ja-02.jpg"), "--yes", "--category", "vet"], env: env)
        XCTAssertEqual(ja.status, 0, ja.stderr)
        let en = try run(["expense", "scan", receipt("en-04.jpg"), "Coco", "--yes"], env: env)
        XCTAssertEqual(en.status, 0, en.stderr)
        let log = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(try run(["log", "--kind", "expense", "--json"], env: env).stdout.utf8)) as? [[String: Any]])
        XCTAssertEqual(log.count, 3)
        let first = try XCTUnwrap(log.first { (($0["expense"] as? [String: Any])?["merchant"] as? String)?.contains("멍냥") == true })
        XCTAssertEqual(((first["expense"] as? [String: Any])?["money"] as? [String: Any])?["minor_units"] as? Int, 93_100)
        XCTAssertEqual(first["at"] as? String, "2026-08-19T17:24:00+09:00")
        XCTAssertEqual(((first["attachments"] as? [[String: Any]])?.first)?["media_type"] as? String, "image/jpeg")
        XCTAssertEqual((first["expense"] as? [String: Any])?["category"] as? String, "food")
    }

    func testFieldsCanBeCorrectedOnTheSameLineAndJSONSavesNothingWithoutYes() throws {
        let r = try run(["expense", "scan", receipt("en-04.jpg"), "--json", "--amount", "12.00 USD", "--merchant", "Corner Store"], env: env)
        XCTAssertEqual(r.status, 0, r.stderr)
        let j = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any])
        let e = try XCTUnwrap(j["expense"] as? [String: Any])
        XCTAssertEqual((e["money"] as? [String: Any])?["minor_units"] as? Int, 1200)
        XCTAssertEqual(e["merchant"] as? String, "Corner Store")
        XCTAssertEqual(e["missing"] as? [String], [])
        XCTAssertNotNil(j["total"] as? [String: Any], "the read total is still shown")
        XCTAssertEqual((try JSONSerialization.jsonObject(with: Data(try run(["log", "--json"], env: env).stdout.utf8)) as? [Any])?.count, 0)
    }

    func testBadImagesAreOneLineAndNothingSaved() throws {
        let text = home.appendingPathComponent("notes.jpg")
        try Data("just text\n".utf8).write(to: text)
        let cut = home.appendingPathComponent("cut.jpg")
        let whole = try Data(contentsOf: URL(fileURLWithPath: receipt("ko-01.jpg")))
        try whole.prefix(whole.count / 3).write(to: cut)
        let empty = home.appendingPathComponent("empty.jpg")
        try Data().write(to: empty)
        // A PNG header that claims 20,000 × 10,000 pixels: refused from the header, never decoded.
        var huge = Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0, 13] + Array("IHDR".utf8))
        for v: UInt32 in [20_000, 10_000] { huge += withUnsafeBytes(of: v.bigEndian) { Data($0) } }
        huge += Data([8, 2, 0, 0, 0, 0, 0, 0, 0])
        let big = home.appendingPathComponent("huge.png")
        try huge.write(to: big)
        for (file, code) in [(text.path, Int32(65)), (cut.path, 65), (empty.path, 65), (big.path, 65), (receipt("blank.png"), 65),
                             (home.appendingPathComponent("missing.jpg").path, 66)] {
            let before = try fileHash(dbPath)
            let r = try run(["expense", "scan", file, "--yes"], env: env)
            XCTAssertFalse(r.crashed, file)
            XCTAssertEqual(r.status, code, "\(file): \(r.stderr)")
            XCTAssertEqual(r.stderr.split(separator: "\n").count, 1, "\(file): \(r.stderr)")
            XCTAssertEqual(try fileHash(dbPath), before, file)
        }
    }

    /// The targets on the project's set: total ≥ 95 %, date ≥ 95 %, payment ≥ 90 %, merchant ≥ 80 %.
    func testFieldAccuracyOnTheReceiptSet() throws {
        let truths = try FileManager.default.contentsOfDirectory(atPath: Self.receipts.path).filter { $0.hasSuffix(".json") }.sorted()
        XCTAssertGreaterThanOrEqual(truths.count, 36)
        var right = ["total": 0, "date": 0, "payment": 0, "merchant": 0], n = 0
        for name in truths {
            let truth = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(contentsOf: Self.receipts.appendingPathComponent(name))) as? [String: Any])
            let image = Self.receipts.appendingPathComponent(String(name.dropLast(5)) + ".jpg").path
            guard FileManager.default.fileExists(atPath: image), let total = truth["total"] as? [String: Any],
                  let language = truth["language"] as? String, let currency = total["currency"] as? String else { continue }
            let r = try run(["--lang", language, "expense", "scan", image, "--json", "--currency", currency], env: env)
            guard let j = try? JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any], let e = j["expense"] as? [String: Any] else {
                XCTFail("\(name): \(r.stderr)"); continue
            }
            n += 1
            if ((e["money"] as? [String: Any])?["minor_units"] as? Int) == total["minor"] as? Int { right["total", default: 0] += 1 }
            if e["day"] as? String == truth["date"] as? String { right["date", default: 0] += 1 }
            if e["payment"] as? String == truth["payment"] as? String { right["payment", default: 0] += 1 }
            func squeeze(_ s: Any?) -> String { ((s as? String) ?? "").replacingOccurrences(of: " ", with: "") }
            if squeeze(e["merchant"]) == squeeze(truth["merchant"]) { right["merchant", default: 0] += 1 }
        }
        func share(_ k: String) -> Double { Double(right[k] ?? 0) / Double(max(n, 1)) }
        XCTAssertGreaterThanOrEqual(share("total"), 0.95, "\(right) of \(n)")
        XCTAssertGreaterThanOrEqual(share("date"), 0.95, "\(right) of \(n)")
        XCTAssertGreaterThanOrEqual(share("payment"), 0.90, "\(right) of \(n)")
        XCTAssertGreaterThanOrEqual(share("merchant"), 0.80, "\(right) of \(n)")
    }
}
