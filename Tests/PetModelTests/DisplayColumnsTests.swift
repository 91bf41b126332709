import PetModel
import XCTest

final class DisplayColumnsTests: XCTestCase {
    func testWideCharactersTakeTwoColumnsAndColourCodesNone() {
        XCTAssertEqual(DisplayColumns.width("Coco"), 4)
        XCTAssertEqual(DisplayColumns.width("나비"), 4)
        XCTAssertEqual(DisplayColumns.width("ココ（猫）"), 10)
        XCTAssertEqual(DisplayColumns.width("\u{1B}[36mweight\u{1B}[0m"), 6)
        XCTAssertEqual(DisplayColumns.width("e\u{301}"), 1, "a combining accent takes no column")
        XCTAssertEqual(DisplayColumns.pad("体重", to: 6), "体重  ")
    }

    /// Printable ASCII is measured by its length and passed through `PlainText` as it is (issue 34); the
    /// shortcut gives what the scalar-by-scalar rules give.
    func testASCIIShortcutsAgreeWithTheScalarRules() {
        for v in UInt32(0)..<0x300 {
            let s = Unicode.Scalar(v)!
            let category = s.properties.generalCategory
            let mark = category == .nonspacingMark || category == .enclosingMark
            XCTAssertEqual(DisplayColumns.width(of: s), mark ? 0 : 1, "U+\(String(v, radix: 16))")
        }
        for text in ["Coco", "", " ", "a~b{c}", "a\tb", "x\u{7F}", "e\u{301}", "Ev \"$(x)\" 한글 🐶 é", "ABC\u{0085}"] {
            XCTAssertEqual(DisplayColumns.width(text), text.unicodeScalars.reduce(0) { $0 + DisplayColumns.width(of: $1) }, text)
            XCTAssertEqual(DisplayColumns.width(Substring(text)), DisplayColumns.width(text))
        }
        XCTAssertEqual(PlainText.sanitized("Coco (4.2 kg) ~ 2024-11-30"), "Coco (4.2 kg) ~ 2024-11-30")
        XCTAssertEqual(PlainText.sanitized("a\tb\u{7F}c\u{1B}[31m"), "a b\u{FFFD}c\u{FFFD}[31m")
        XCTAssertEqual(PlainText.sanitized("x\u{0085}y\u{202E}z"), "x\u{FFFD}y\u{FFFD}z")
    }

    func testWrapBreaksAtSpacesWithAHangingIndent() {
        let lines = DisplayColumns.wrap("  --db PATH   the database file, else the one in the data folder", columns: 30, indent: 15)
        XCTAssertEqual(lines, ["  --db PATH   the database", "               file, else the", "               one in the data", "               folder"])
        XCTAssertTrue(lines.allSatisfy { DisplayColumns.width($0) <= 30 })
    }

    func testJapaneseWrapsBetweenCharactersButNeverBeforeClosingPunctuation() {
        let text = "金額：12.50 USD、$12.50、¥1,200、1,200円。数字だけなら既定の通貨です（--currency）。"
        for columns in 16...40 {
            let lines = DisplayColumns.wrap(text, columns: columns)
            XCTAssertEqual(lines.joined().replacingOccurrences(of: " ", with: ""), text.replacingOccurrences(of: " ", with: ""))
            for l in lines {
                XCTAssertLessThanOrEqual(DisplayColumns.width(l), columns, "\(columns): \(l)")
                XCTAssertFalse(l.hasPrefix("、") || l.hasPrefix("。") || l.hasPrefix("）"), "\(columns): \(l)")
                XCTAssertFalse(l.hasSuffix("（"), "\(columns): \(l)")
            }
        }
    }

    func testPackBreaksBetweenEntriesOnly() {
        let legend = ["w 体重", "m 食事", "s 便", "p 投与", "$ 支出"]
        let lines = DisplayColumns.pack(legend, separator: " · ", columns: 16)
        XCTAssertEqual(lines, ["w 体重 · m 食事", "s 便 · p 投与", "$ 支出"])
    }
}

extension DisplayColumnsTests {
    func testKoreanBreaksOnlyAtSpaces() {
        let text = "숫자만 쓰면 기본 통화입니다 (--currency, 아니면 언어의 통화). 통화보다 소수점 자리가 많으면 오류입니다."
        for columns in 16...40 {
            let lines = DisplayColumns.wrap(text, columns: columns)
            XCTAssertEqual(lines.joined(separator: " "), text, "\(columns)")
            XCTAssertTrue(lines.allSatisfy { DisplayColumns.width($0) <= columns }, "\(columns): \(lines)")
        }
    }

    func testAPathWiderThanTheLineBreaksAfterItsSlashes() {
        let lines = DisplayColumns.wrap("(else $XDG_DATA_HOME/petlog/petlog.sqlite)", columns: 24, indent: 2)
        XCTAssertEqual(lines, ["(else $XDG_DATA_HOME/", "  petlog/petlog.sqlite)"])
        XCTAssertEqual(DisplayColumns.wrap("see docs/json.md today", columns: 12), ["see", "docs/json.md", "today"])
    }
}
