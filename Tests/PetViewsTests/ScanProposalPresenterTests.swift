import Foundation
import XCTest
import Localization
import PetModel
@testable import PetViews

/// `expense scan`'s proposal (issue 45): which currency and why, and what petlog is unsure of, in every UI
/// language and whatever the receipt's language; nothing guessed is shown as if it were read.
final class ScanProposalPresenterTests: XCTestCase {
    let zone = TimeZone(identifier: "Asia/Seoul") ?? .current
    let now = Date(timeIntervalSince1970: 1_795_395_600)
    static let today = LocalDate(year: 2026, month: 11, day: 23) ?? LocalDate(dayNumber: 0)

    func context(_ language: Language) -> PresentationContext {
        let time = TimeContext(now: now, timeZone: zone)
        let l10n = L10n(language), format = ValueFormatter(l10n, unitSystem: .metric)
        return PresentationContext(screen: TextScreen(colors: false, columns: 100), l10n: l10n, format: format,
                                   wording: RecordWording(format, time: time), time: time, weekStartsOnSunday: false)
    }

    func proposal(_ texts: [String], _ languages: [String], home: Currency) -> ReceiptProposal {
        let lines = texts.enumerated().map { i, t in ReceiptLine(text: t, confidence: 90, box: ReceiptBox(x: 10, y: 20 + 40 * i, width: 300, height: 30)) }
        return ReceiptReading.proposal(lines: lines, imageHeight: 40 * texts.count + 40, languages: languages, homeCurrency: home, today: Self.today)
    }

    func testTheCurrencyIsSaidWithWhyAndGuessesAreMarked() throws {
        let usd = try XCTUnwrap(Currency.named("USD"))
        let receipts: [([String], [String], String, Bool)] = [
            (["PET STOP", "11/20/26 06:42 PM", "TOTAL $104.05"], ["eng"], "$", false),
            (["PET STOP", "11/20/26 06:42 PM", "TOTAL 104.05", "REWARDS BALANCE 1,250"], ["eng"], "cents", true),
            (["싱싱마트", "2026/10/31(토) PM 03:17", "받을금액 53,000"], ["kor"], "korean", true),
            (["わんわん堂", "2026年10月31日(土)", "合計 12,900"], ["jpn"], "japanese", true),
            (["싱싱마트", "2026-10-31", "합계 53,000원"], ["kor"], "원", false),
        ]
        for ui in [Language.en, .ko, .ja] {
            let c = context(ui)
            for (texts, langs, why, unsure) in receipts {
                for home in [Currency.krw, usd] {
                    let p = proposal(texts, langs, home: home)
                    let out = ScanProposalPresenter(c).lines(p, ReceiptExpense(p), receiptLines: texts, rotation: nil).joined(separator: "\n")
                    let code = p.currency.value.code
                    let expected: String = switch why {
                    case "cents": c.t(.scanCurrencyCents(currency: code))
                    case "korean": c.t(.scanCurrencyKorean(currency: code))
                    case "japanese": c.t(.scanCurrencyJapanese(currency: code))
                    default: c.t(.scanCurrencyMark(currency: code, mark: why))
                    }
                    XCTAssertTrue(out.contains(expected), "\(ui) \(texts): \(out)")
                    // An English receipt with cents is never won.
                    if langs == ["eng"] { XCTAssertEqual(code, "USD", out) }
                    XCTAssertFalse(out.contains(c.t(.scanNoteCurrency(currency: "KRW"))), out)
                    XCTAssertEqual(p.currency.unsure, unsure, "\(ui) \(texts)")
                    let names = ScanProposalPresenter.unsure(p, given: ScanGiven()).map(ScanProposalPresenter(c).fieldName).joined(separator: ", ")
                    XCTAssertEqual(names.contains(c.t(.scanCurrency)), unsure, names)
                    if !names.isEmpty { XCTAssertTrue(out.contains(c.t(.scanUnsure(fields: names))), out) }
                    XCTAssertEqual(out.contains(") ?"), unsure || p.unsure.count > 0, out)
                    // Given by the owner: nothing said, nothing unsure about it.
                    var given = ScanGiven()
                    given.currency = true
                    let typed = ScanProposalPresenter(c).lines(p, ReceiptExpense(p), receiptLines: texts, rotation: nil, given: given).joined(separator: "\n")
                    XCTAssertFalse(typed.contains(expected), typed)
                    XCTAssertFalse(ScanProposalPresenter.unsure(p, given: given).contains("currency"))
                }
            }
        }
    }

    /// `--json`: each field's `unsure`, the list of unsure fields (without the given ones), and the currency's evidence.
    func testTheJSONSaysWhatIsUnsureAndWhereTheCurrencyCameFrom() throws {
        let image = ScanJSON.Image(text: [], width: 100, height: 100, deskewDegrees: 0, rotationDegrees: 0, script: nil)
        let cases: [([String], [String], String, String?, [String])] = [
            // Each total is printed again on a card line: a total nothing confirms would be unsure itself.
            (["PAWS & CLAWS", "11/20/26 06:42 PM", "TOTAL 104.05", "VISA 104.05"], ["eng"], "cents", nil, ["merchant", "currency"]),
            (["PAWS & CLAWS", "11/20/26 06:42 PM", "TOTAL $104.05", "VISA $104.05"], ["eng"], "mark", "$", ["merchant"]),
            (["싱싱마트", "2026/10/31(토) PM 03:17", "받을금액 53,000", "신용카드 53,000"], ["kor"], "language", nil, ["merchant", "currency"]),
        ]
        for (texts, langs, from, mark, unsure) in cases {
            let p = proposal(texts, langs, home: .krw)
            var view = ScanJSON(p, ReceiptExpense(p), image: image, languages: langs.joined(separator: "+"))
            let object = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(try JSONView.text(view).utf8)) as? [String: Any])
            XCTAssertEqual(object["unsure"] as? [String], unsure, texts[2])
            let currency = try XCTUnwrap(object["currency"] as? [String: Any])
            XCTAssertEqual(currency["from"] as? String, from)
            XCTAssertEqual(currency["mark"] as? String, mark)
            XCTAssertEqual(currency["unsure"] as? Bool, unsure.contains("currency"))
            XCTAssertEqual((object["merchant"] as? [String: Any])?["unsure"] as? Bool, true)
            XCTAssertEqual((object["total"] as? [String: Any])?["unsure"] as? Bool, false)
            var given = ScanGiven()
            given.merchant = true
            given.currency = true
            view.given = given
            let typed = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(try JSONView.text(view).utf8)) as? [String: Any])
            XCTAssertEqual(typed["unsure"] as? [String], [])
        }
    }

    func testADateAskedAboutIsSaidAndMarked() {
        let p = proposal(["멍멍마트", "2027-03-01 14:32", "합계 12,000원"], ["kor"], home: .krw)
        for ui in [Language.en, .ko, .ja] {
            let c = context(ui)
            let out = ScanProposalPresenter(c).lines(p, ReceiptExpense(p), receiptLines: [], rotation: nil)
            XCTAssertTrue(out.contains { $0.contains(c.t(.scanDate)) && $0.contains(") ?") }, out.joined(separator: "\n"))
            XCTAssertTrue(out.contains { $0.contains("2027-03-01") && $0 != out[0] && !$0.hasPrefix(c.t(.scanDate)) }, out.joined(separator: "\n"))
            XCTAssertTrue(out.last?.contains(c.t(.scanDate)) == true, out.joined(separator: "\n"))
        }
    }
}
