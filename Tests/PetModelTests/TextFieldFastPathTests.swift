import XCTest
@testable import PetModel

/// Labels and free text follow the same rules on the ASCII fast path and through Foundation.
final class TextFieldFastPathTests: XCTestCase {
    func testLabelsAreTrimmedAndRefusedAlikeWithAndWithoutNonASCII() throws {
        for (plain, accented) in [(" Happy Vet \n", " Happy Vét \n"), ("Dr. Kim", "Dr. Kïm")] {
            XCTAssertEqual(try TextField.label(plain, field: "clinic"), plain.trimmingCharacters(in: .whitespacesAndNewlines))
            XCTAssertEqual(try TextField.label(accented, field: "clinic"), accented.trimmingCharacters(in: .whitespacesAndNewlines))
        }
        for (raw, expected) in [("a\tb", ParseError.controlCharacters(field: "f")), ("é\tb", .controlCharacters(field: "f")),
                                ("a\u{7F}b", .controlCharacters(field: "f")), ("  \n ", .emptyText(field: "f")),
                                (String(repeating: "x", count: 201), .textTooLong(field: "f", max: 200)),
                                (String(repeating: "é", count: 201), .textTooLong(field: "f", max: 200))] {
            XCTAssertThrowsError(try TextField.label(raw, field: "f")) { XCTAssertEqual($0 as? ParseError, expected, raw) }
        }
        XCTAssertEqual(try TextField.label(String(repeating: "x", count: 200), field: "f").count, 200)
        XCTAssertEqual(try TextField.text("e\u{301}", field: "note"), "é", "NFC")
        XCTAssertEqual(try TextField.text(" a\nb ", field: "note"), " a\nb ", "free text keeps its spaces and lines")
        XCTAssertThrowsError(try TextField.text(" \t\n", field: "note"))
    }

    /// Name keys (and search text) of ASCII take a fast path; they are exactly what Foundation gives.
    func testNameKeysOfASCIIAreFoundationsFolding() {
        func foundation(_ s: String) -> String {
            s.precomposedStringWithCompatibilityMapping.trimmingCharacters(in: .whitespacesAndNewlines).folding(options: [.caseInsensitive], locale: nil)
        }
        var samples = ["", " ", "\t\n\u{0B}\u{0C}\r ", "Coco", "  MiXeD Case\t", "a\u{1F}b", "Dr. KIM, Happy-Vet #2 (@home) [x]{y}|~`^_\\"]
        for b in 0..<128 { samples += [String(UnicodeScalar(UInt8(b))), " x" + String(UnicodeScalar(UInt8(b))) + "Y ", String(UnicodeScalar(UInt8(b))) + "Ab"] }
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<2_000 {
            samples.append(String(decoding: (0..<Int.random(in: 0...12, using: &generator)).map { _ in UInt8.random(in: 0..<128, using: &generator) }, as: UTF8.self))
        }
        for s in samples { XCTAssertEqual(TextField.nameKey(s), foundation(s), s.debugDescription) }
        XCTAssertEqual(TextField.nameKey(" ＣＯＣＯ "), "coco", "not ASCII: Foundation's NFKC and folding")
    }
}
