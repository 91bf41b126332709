import Foundation
import XCTest
@testable import Cairo

/// Where wrapped lines start: Korean at spaces, numbers with their units, Japanese by its rules.
final class LineBreakingTests: XCTestCase {
    /// The text of each line of `text` wrapped at `width`.
    func lines(_ text: String, language: String, width: Double, size: Double = 8.5) throws -> [String] {
        let context = try Context(try Surface.image(width: 10, height: 10))
        context.setTextLanguage(language)
        let layout = TextLayout(text, font: "Sans \(size)", in: context, width: width)
        let bytes = Array(text.utf8)
        return layout.lines.map { String(decoding: bytes[$0.byteStart..<($0.byteStart + $0.byteLength)], as: UTF8.self) }
    }

    func testKoreanWrapsAtSpacesNeverInsideAWord() throws {
        let text = "김수의 수의사가 혈압 측정 후 심장사상충 예방약을 처방함"
        let words = Set(text.split(separator: " ").map(String.init))
        let context = try Context(try Surface.image(width: 10, height: 10))
        context.setTextLanguage("ko")
        let widest = TextLayout.widthBounds(text, font: "Sans 8.5", in: context).minimum
        XCTAssertEqual(widest, TextLayout("심장사상충", font: "Sans 8.5", in: context).extents.width, accuracy: 0.5)
        for width in stride(from: widest.rounded(.up), through: 160, by: 7) {
            let got = try lines(text, language: "ko", width: width)
            XCTAssertGreaterThan(got.count, 0)
            for line in got {
                for word in line.split(separator: " ") {
                    XCTAssertTrue(words.contains(String(word)), "width \(width): \"\(word)\" is part of a word: \(got)")
                }
            }
        }
        // Pango alone breaks between syllables: the same text without the rule splits a word.
        XCTAssertEqual(LineBreaking.keptTogether("혈압 측정").count, 2)
    }

    func testANumberStaysWithItsUnit() throws {
        for (text, language) in [("体重は1.08 kgで、とても元気でした。", "ja"), ("Coco weighed 1.08 kg at the clinic on Monday", "en"),
                                 ("체중 4.25 kg 으로 늘었음", "ko")] {
            for width in stride(from: 34.0, through: 140, by: 3) {
                let got = try lines(text, language: language, width: width)
                for line in got.dropFirst() {
                    XCTAssertFalse(line.hasPrefix("kg"), "width \(width): \(got)")
                }
            }
        }
    }

    func testAJapaneseDateBreaksOnlyAfterItsUnits() throws {
        let text = "2026年3月15日"
        for width in stride(from: 30.0, through: 60, by: 2) {   // from the width of "2026年"
            for line in try lines(text, language: "ja", width: width).dropFirst() {
                XCTAssertTrue(["3月15日", "15日", "3月"].contains { line.hasPrefix($0) }, "width \(width): \(line)")
            }
        }
    }

    func testJapaneseKeepsClosingMarksOffTheLineStart() throws {
        let text = "ちょっと食欲がない。朝ごはんを残した、「吐いた」あとメールで連絡、元気がない。"
        // From the widest run that must stay whole ("ちょっ", "メール").
        for width in stride(from: 30.0, through: 120, by: 5) {
            for line in try lines(text, language: "ja", width: width).dropFirst() {
                for mark in ["。", "、", "」", "ょ", "っ", "ー"] {
                    XCTAssertFalse(line.hasPrefix(mark), "width \(width) starts a line with \(mark): \(line)")
                }
            }
        }
    }

    func testAWordWiderThanTheLineStillWraps() throws {
        let context = try Context(try Surface.image(width: 10, height: 10))
        context.setTextLanguage("ko")
        let layout = TextLayout("심장사상충예방약처방및혈액검사", font: "Sans 10", in: context, width: 40)
        XCTAssertGreaterThan(layout.lineCount, 1)
        XCTAssertLessThanOrEqual(layout.extents.width, 40.5)
    }

    func testKeptTogetherRanges() {
        func pieces(_ text: String) -> [String] {
            let bytes = Array(text.utf8)
            return LineBreaking.keptTogether(text).map { String(decoding: bytes[$0], as: UTF8.self) }
        }
        XCTAssertEqual(pieces("김수의 혈압"), ["김수의", "혈압"])
        XCTAssertEqual(pieces("weighs 1.08 kg today"), ["1.08 kg"])
        XCTAssertEqual(pieces("体重1,234.5 g。"), ["1,234.5 g"])
        XCTAssertEqual(pieces("−0.2 kg and 3 cats"), ["−0.2 kg", "3 cats"])
        XCTAssertEqual(pieces("체중 4.25 kg"), ["체중", "4.25 kg"])
        XCTAssertEqual(pieces("12 2026-11-03"), [], "a number before a number is not a unit")
        XCTAssertEqual(pieces("2026年3月15日"), ["2026年", "3月", "15日"])
        XCTAssertEqual(pieces("in 3 weeks"), [], "more than four letters is a word, not a unit")
    }

    func testWidthBoundsAreTheWidestWordAndTheWholeLine() throws {
        let context = try Context(try Surface.image(width: 10, height: 10))
        context.setTextLanguage("ko")
        let text = "혈압 측정 심장사상충"
        let bounds = TextLayout.widthBounds(text, font: "Sans 10", in: context)
        let widest = TextLayout("심장사상충", font: "Sans 10", in: context).extents.width
        XCTAssertEqual(bounds.minimum, widest, accuracy: 0.5)
        XCTAssertEqual(bounds.natural, TextLayout(text, font: "Sans 10", in: context).extents.width, accuracy: 0.01)
    }

    func testOneFamilyPerLanguage() {
        XCTAssertEqual(FontFamily.document(language: "ko"), "NanumGothic,Noto Sans CJK KR,Sans")
        XCTAssertEqual(FontFamily.document(language: "ja-JP"), "M PLUS 2,Noto Sans CJK JP,Sans")
        XCTAssertEqual(FontFamily.document(language: "zh-TW"), "Noto Sans CJK TC,Sans")
        XCTAssertEqual(FontFamily.document(language: "en"), "Sans")
        XCTAssertEqual(FontFamily.document(language: nil), "Sans")
    }
}
