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
