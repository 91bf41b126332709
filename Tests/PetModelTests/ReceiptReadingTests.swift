import XCTest
@testable import PetModel

/// Field extraction from OCR lines (issue 14, docs/receipts.md): one table per rule in Korean,
/// Japanese and English, then whole receipts with OCR noise, every field asserted.
final class ReceiptReadingTests: XCTestCase {
    static let today = LocalDate(year: 2026, month: 11, day: 23) ?? LocalDate(dayNumber: 0)
    static let jpy = Currency.named("JPY") ?? .krw
    static let usd = Currency.named("USD") ?? .krw

    func won(_ n: Int64) -> Money { Money(minorUnits: n, currency: .krw) }
    func yen(_ n: Int64) -> Money { Money(minorUnits: n, currency: Self.jpy) }
    func cents(_ n: Int64) -> Money { Money(minorUnits: n, currency: Self.usd) }
    func day(_ y: Int, _ m: Int, _ d: Int) -> LocalDate { LocalDate(year: y, month: m, day: d) ?? LocalDate(dayNumber: 0) }

    /// Lines 40 px apart, each read at `confidence` (a line written `text|70` is read at 70).
    func lines(_ texts: [String], confidence: Double = 90) -> [ReceiptLine] {
        texts.enumerated().map { i, raw in
            let parts = raw.components(separatedBy: "|")
            let conf = parts.count == 2 ? Double(parts[1]) ?? confidence : confidence
            return ReceiptLine(text: parts[0], confidence: conf, box: ReceiptBox(x: 10, y: 20 + i * 40, width: 300, height: 30))
        }
    }

    func read(_ texts: [String], _ languages: [String] = ["kor", "eng"], home: Currency = .krw) -> ReceiptProposal {
        ReceiptReading.proposal(lines: lines(texts), imageHeight: 40 + texts.count * 40, languages: languages,
                                homeCurrency: home, today: Self.today)
    }

    // MARK: Totals

    func testTotalIsTheLabelledAmount() {
        let cases: [([String], Money?, [String])] = [
            (["사료 45,000", "합계 45,000원"], won(45000), ["kor"]),
            (["합계 30,000", "결제금액 27,000"], won(27000), ["kor"]),
            (["총 금액 : 12,000원"], won(12000), ["kor"]),
            (["총액 8,500"], won(8500), ["kor"]),
            (["받을금액 33,000", "받은금액 50,000", "거스름돈 17,000"], won(33000), ["kor"]),
            (["받은금액 50,000", "거스름돈 17,000"], nil, ["kor"]),
            // 합계 misread (`함게`, a phone photo upside down as HEIC): the card payment's amount is the total.
            (["츄르 20개입 x1 15,900", "함게 51,400", "카드결제 51,400", "카드종류: 국민카드"], won(51400), ["kor"]),
            (["합계 51,400", "카드결제 51,400"], won(51400), ["kor"]),
            (["합계", "₩ 19,800"], won(19800), ["kor"]),
            (["小計 ¥1,000", "消費税 ¥100", "合計 ¥1,100", "お預り ¥2,000", "お釣り ¥900"], yen(1100), ["jpn"]),
            (["税込合計 3,300円", "合計 3,000円"], yen(3300), ["jpn"]),
            (["お会計 ¥5,500"], yen(5500), ["jpn"]),
            (["ご請求額", "¥12,100"], yen(12100), ["jpn"]),
            (["お預り ¥10,000", "お釣り ¥4,500"], nil, ["jpn"]),
            (["SUBTOTAL $23.98", "TAX $2.00", "TOTAL $25.98", "CASH $30.00", "CHANGE $4.02"], cents(2598), ["eng"]),
            (["Balance $10.00", "Total $25.00", "Amount due $20.00"], cents(2000), ["eng"]),
            (["Balance $10.00", "Total $25.00"], cents(2500), ["eng"]),
            (["Grand Total: $104.50"], cents(10450), ["eng"]),
            (["T0TAL $9.50"], cents(950), ["eng"]),
            (["결제금액 49,000 (3개월)"], won(49000), ["kor"]),
            (["合計 2点 ¥1,100"], yen(1100), ["jpn"]),
            // Points are no money, whatever OCR made of their label (`累計ポイント` read as `家計ポイ`).
            (["家計ポイ .         4,829pt"], nil, ["jpn"]), (["お会計 ¥3,300", "累計 1,250 pts"], yen(3300), ["jpn"]),
            (["합계 49,000", "승인금액 49,000원"], won(49000), ["kor"]),
            (["ご利用金額 ¥3,300"], yen(3300), ["jpn"]),
            (["Balance Due $0.00", "TOTAL $56.28"], cents(5628), ["eng"]),  // a zero is no total
            (["결 제 금 액 : 27,000", "합 계 30,000"], won(27000), ["kor"]),
            (["SUBTOTAL $23.98", "TAX $2.00"], nil, ["eng"]),
            // The label must come before the amount it names: `2 items` and quantities are not totals.
            (["TOTAL 2 $25.98"], cents(2598), ["eng"]),
        ]
        for (texts, expected, langs) in cases {
            XCTAssertEqual(read(texts, langs, home: .krw).total?.value, expected, texts.joined(separator: " / "))
        }
    }

    func testTotalIsNeverTheLargestNumber() {
        let p = read(["행복펫샵", "사업자번호 123-45-67890", "로얄캐닌 2kg 32,000", "간식 5,000", "카드번호 1234-56**-****-1234"])
        XCTAssertNil(p.total)
        let e = read(["PET STORE", "Dog food 25.98", "Treats 4.00", "Thank you"], ["eng"], home: Self.usd)
        XCTAssertNil(e.total)
    }

    func testTotalRepairsOCRNoise() {
        let cases: [(String, Money?)] = [
            ("합계 W12,000", won(12000)),
            ("합계 12.000", won(12000)),
            ("합계 12, 000원", won(12000)),
            ("합계 1O,OOO원", won(10000)),
            ("합계 l2,5OO", won(12500)),
            ("합계 １２，０００원", won(12000)),
            ("合計 \\1.100", yen(1100)),
            ("合計 ￥３，３００", yen(3300)),
            ("합계 12.5", nil),         // a decimal in won is no amount
            ("합계 1,20,000", nil),     // groups of three only
            ("合計 5,.532円", yen(5532)),   // a separator read twice
            ("합계 12.,000", won(12000)),
            ("합계 47 .93", nil),         // a decimal in won, spaced or not
        ]
        for (text, expected) in cases {
            let langs = text.hasPrefix("合計") ? ["jpn"] : ["kor"]
            let p = read([text], langs)
            XCTAssertEqual(p.total?.value, expected, text)
            if expected != nil { XCTAssertTrue(p.notes.contains { if case .amountRepaired = $0 { true } else { false } } || text.contains("１") || text.contains("３"), text) }
        }
        XCTAssertEqual(read(["TOTAL $25,98"], ["eng"]).total?.value, cents(2598))
        XCTAssertEqual(read(["TOTAL 25.98"], ["eng"], home: Self.usd).total?.value, cents(2598))
        XCTAssertEqual(read(["Total12.00"], ["eng"], home: Self.usd).total?.value, cents(1200))
        // The cents a space apart from the dollars (`$47 .93`), not dropped as noise, and said to be repaired.
        for text in ["TOTAL $47 .93", "GRAND TOTAL 47 .93 USD", "TOTAL $47,.93"] {
            let p = read([text], ["eng"], home: Self.usd)
            XCTAssertEqual(p.total?.value, cents(4793), text)
            XCTAssertTrue(p.notes.contains { if case .amountRepaired = $0 { true } else { false } }, text)
        }
        XCTAssertEqual(read(["TOTAL $47 .93 2"], ["eng"], home: Self.usd).total?.value, cents(4793))
    }

    func testTotalConfidenceIsLineTimesRule() throws {
        let same = read(["합계 45,000원|80"])
        XCTAssertEqual(try XCTUnwrap(same.total).confidence, 80, accuracy: 0.01)
        let next = read(["합계|80", "45,000원|70"])
        XCTAssertEqual(try XCTUnwrap(next.total).confidence, 63, accuracy: 0.01)  // min(80, 70) × 0.9
        XCTAssertEqual(next.total?.source, "합계\n45,000원")
        let repaired = read(["합계 45.000원|80"])
        XCTAssertEqual(try XCTUnwrap(repaired.total).confidence, 68, accuracy: 0.01)  // 80 × 0.85
        let weak = read(["Balance $10.00|90"], ["eng"])
        XCTAssertEqual(try XCTUnwrap(weak.total).confidence, 81, accuracy: 0.01)  // 90 × 0.9
    }

    // MARK: Currency

    func testCurrencyFromMarksThenLanguageThenHome() {
        let cases: [([String], [String], Currency, String, Bool)] = [
            (["합계 12,000원"], ["kor"], Self.usd, "KRW", false),
            (["TOTAL ₩12,000"], ["eng"], Self.usd, "KRW", false),
            (["TOTAL W12,000"], ["eng"], Self.usd, "KRW", false),
            (["合計 1,100円"], ["jpn"], .krw, "JPY", false),
            (["TOTAL ¥1,100"], ["eng"], .krw, "JPY", false),
            (["TOTAL $5.00"], ["eng"], .krw, "USD", false),
            (["TOTAL 5 USD"], ["eng"], .krw, "USD", false),
            (["합계 12,000"], ["kor"], Self.usd, "KRW", true),
            (["合計 1,100"], ["jpn"], Self.usd, "JPY", true),
            (["TOTAL 5.00"], ["eng"], Self.usd, "USD", true),
            (["TOTAL 5000"], ["eng"], .krw, "KRW", true),
        ]
        // Marks away from the total: the most common one, less sure when only lookalikes were seen.
        let away = read(["PET STORE", "Food $12.00", "Toys $3.00", "TOTAL 15.00"], ["eng"], home: .krw)
        XCTAssertEqual(away.currency.value.code, "USD")
        XCTAssertEqual(away.total?.value, cents(1500))
        XCTAssertEqual(away.currency.confidence, 81, accuracy: 0.01)  // 90 × 0.9
        let lookalike = read(["사료 W12,000", "간식 W3,000", "합계 15,000"], ["kor"], home: Self.usd)
        XCTAssertEqual(lookalike.currency.value.code, "KRW")
        XCTAssertEqual(lookalike.currency.confidence, 63, accuracy: 0.01)  // 90 × 0.7
        // Two labels with different marks: the stronger label's mark is the receipt's.
        XCTAssertEqual(read(["Balance ¥500", "Amount due $5.00"], ["eng"]).currency.value.code, "USD")
        for (texts, langs, home, code, assumed) in cases {
            let p = read(texts, langs, home: home)
            XCTAssertEqual(p.currency.value.code, code, texts[0])
            XCTAssertEqual(p.currency.source.isEmpty, assumed, texts[0])
            XCTAssertEqual(p.notes.contains { if case .currencyAssumed = $0 { true } else { false } }, assumed, texts[0])
        }
    }

    // MARK: Dates and times

    func testDateShapes() {
        let cases: [(String, ReceiptLanguage, LocalDate?)] = [
            ("2026-11-20", .korean, day(2026, 11, 20)),
            ("거래일시 2026.11.20 14:32", .korean, day(2026, 11, 20)),
            ("2026. 11. 20.", .korean, day(2026, 11, 20)),
            ("2026/11/20(金)", .japanese, day(2026, 11, 20)),
            ("26-11-20", .korean, day(2026, 11, 20)),
            ("2026년 11월 20일", .korean, day(2026, 11, 20)),
            ("2026年11月20日", .japanese, day(2026, 11, 20)),
            ("令和8年11月20日", .japanese, day(2026, 11, 20)),
            ("令和元年5月1日", .japanese, day(2019, 5, 1)),
            ("令 和 8 年 11 月 15 日 14:33", .japanese, day(2026, 11, 15)),   // OCR spacing
            ("일시: 20264 6 월 8S 15:31", .korean, day(2026, 6, 8)),          // 년 and 일 misread
            ("일시: 202614 6A 8일 15:31", .korean, day(2026, 6, 8)),          // every unit misread (Tesseract on ko-03)
            ("일시: 20264 99 29 11:58", .korean, day(2026, 9, 2)),            // 월 and 일 read as 9
            ("일시: 202614 54 232 09:51", .korean, day(2026, 5, 23)),
            ("일시: 202614 1월 192! 15:30", .korean, day(2026, 1, 19)),       // 년 as 14, 일 as 2! (phone-ko-shadow, ko-12 turned)
            ("일시: 20261 1월 9일 15:30", .korean, day(2026, 1, 9)),
            ("일시: 202611월20 15:30", .korean, day(2026, 11, 20)),            // 년 lost: the digits are the month's
            ("일시: 2026a 1월 3 15:30", .korean, day(2026, 1, 3)),
            ("日時: 20264 11A 3H 10:05", .japanese, day(2026, 11, 3)),
            ("Order 2026 12 31 10:05", .english, nil),                       // not for English receipts
            ("平成31年4月30日", .japanese, day(2019, 4, 30)),
            ("Nov 20, 2026", .english, day(2026, 11, 20)),
            ("November 20, 2026", .english, day(2026, 11, 20)),
            ("20 Nov 2026", .english, day(2026, 11, 20)),
            ("11/20/2026", .english, day(2026, 11, 20)),
            ("20/11/2026", .english, day(2026, 11, 20)),
            ("11/20/26 2:32 PM", .english, day(2026, 11, 20)),
            ("20/11/26", .english, day(2026, 11, 20)),
            ("11/20/26", .english, day(2026, 11, 20)),
            ("1/5/26 9:02 AM", .english, day(2026, 1, 5)),
            ("11-2-26", .english, day(2026, 11, 2)),
            ("Date: 9/30/26 12:05 AM", .english, day(2026, 9, 30)),
            ("1/5/26", .korean, nil),                                         // not a Korean shape
            ("R8.11.20", .japanese, day(2026, 11, 20)),
            ("H31.4.30", .japanese, day(2019, 4, 30)),
            ("２０２６－１１－２０", .japanese, day(2026, 11, 20)),
            ("2026-02-30", .korean, nil),
            ("2026-12-25", .korean, day(2026, 12, 25)),   // a month in the future: proposed, asked about (unsure)
            ("1999-12-31", .korean, nil),
            ("TEL 02-123-4567", .korean, nil),
            ("123-45-67890", .korean, nil),
        ]
        for (text, language, expected) in cases {
            let hint = ["ko": "kor", "ja": "jpn", "en": "eng"][language.rawValue] ?? "eng"
            // A word of the language, so the receipt is judged to be written in it.
            let word = ["ko": "영수증", "ja": "レシート", "en": "RECEIPT"][language.rawValue] ?? ""
            let p = read([word, text], [hint])
            XCTAssertEqual(p.language, language, text)
            XCTAssertEqual(p.date?.value, expected, text)
        }
    }

    func testAmbiguousDayAndMonthFollowTheLanguageAndAreSaid() {
        let en = read(["RECEIPT", "03/04/2026"], ["eng"])
        XCTAssertEqual(en.date?.value, day(2026, 3, 4))
        XCTAssertTrue(en.notes.contains(.ambiguousDate(read: "03/04/2026", chose: day(2026, 3, 4), because: .english)))
        let ko = read(["영수증", "03/04/2026"], ["kor"])
        XCTAssertEqual(ko.date?.value, day(2026, 4, 3))
        XCTAssertTrue(ko.notes.contains(.ambiguousDate(read: "03/04/2026", chose: day(2026, 4, 3), because: .korean)))
        let clear = read(["RECEIPT", "20/11/2026"], ["eng"])
        XCTAssertFalse(clear.notes.contains { if case .ambiguousDate = $0 { true } else { false } })
        XCTAssertEqual(try XCTUnwrap(en.date).confidence, 63, accuracy: 0.01)  // 90 × 0.7
    }

    func testRejectedDatesAreSaidAndSkipped() {
        let p = read(["영수증", "유효기간 2030-01-01", "2026-02-30", "거래일 2026-11-20"])
        XCTAssertEqual(p.date?.value, day(2026, 11, 20))
        XCTAssertTrue(p.notes.contains(.dateRejected(read: "2030-01-01", reason: .future)))
        XCTAssertTrue(p.notes.contains(.dateRejected(read: "2026-02-30", reason: .noSuchDay)))
        // Tomorrow is allowed (time zones), the day after is asked about: proposed, unsure, with a note.
        XCTAssertEqual(read(["2026-11-24"]).date?.unsure, false)
        let later = read(["2026-11-25"])
        XCTAssertEqual(later.date?.value, day(2026, 11, 25))
        XCTAssertEqual(later.date?.unsure, true)
        XCTAssertTrue(later.notes.contains(.dateAsked(read: "2026-11-25", date: day(2026, 11, 25), reason: .future)))
    }

    func testTimeShapes() {
        let cases: [(String, ReceiptTime?)] = [
            ("14:32", ReceiptTime(hour: 14, minute: 32)),
            ("2026-11-20 14:32:05", ReceiptTime(hour: 14, minute: 32)),
            ("오후 2:32", ReceiptTime(hour: 14, minute: 32)),
            ("오전 12:05", ReceiptTime(hour: 0, minute: 5)),
            ("午後2時32分", ReceiptTime(hour: 14, minute: 32)),
            ("午前9時05分", ReceiptTime(hour: 9, minute: 5)),
            ("14시 32분", ReceiptTime(hour: 14, minute: 32)),
            ("2:32 PM", ReceiptTime(hour: 14, minute: 32)),
            ("12:10 pm", ReceiptTime(hour: 12, minute: 10)),
            ("06/16/2026 1:53 py", ReceiptTime(hour: 13, minute: 53)),   // OCR's M as y
            ("9:05 A.M.", ReceiptTime(hour: 9, minute: 5)),
            ("11/20/26 2:32PM", ReceiptTime(hour: 14, minute: 32)),
            ("12:05 AM", ReceiptTime(hour: 0, minute: 5)),
            ("12:40 PM", ReceiptTime(hour: 12, minute: 40)),
            ("11:59 p.m.", ReceiptTime(hour: 23, minute: 59)),
            ("13:10 PM", nil),
            ("25:10", nil),
            ("14:75", nil),
        ]
        for (text, expected) in cases {
            XCTAssertEqual(read([text]).time?.value, expected, text)
        }
    }

    // MARK: Merchant

    func testMerchantFromLabelsOrTheHeader() {
        let cases: [([String], String?)] = [
            (["[매출전표]", "상호: 행복펫샵 대표: 김철수", "2026-11-20"], "행복펫샵"),
            (["신용카드 매출전표", "가맹점명 해피동물병원", "가맹점번호 12345678"], "해피동물병원"),
            (["가맹점번호 12345678", "매장명", "펫마트 강남점"], "펫마트 강남점"),
            (["レシート", "店名：さくら動物病院"], "さくら動物病院"),
            (["店舗名 ペットショップ桜"], "ペットショップ桜"),
            // Tesseract splits CJK words: Japanese has no spaces, Korean one-syllable pieces belong together.
            (["店 名 : さ くら 動物 病院"], "さくら動物病院"),
            (["상호: 멍 냥 펫 샵 강남점"], "멍냥펫샵 강남점"),
            (["Store: Happy Paws"], "Happy Paws"),
            (["상 호 : 행복펫샵"], "행복펫샵"),
            (["店 名 わんわん堂"], "わんわん堂"),
            (["Merchant: PETCO #1234"], "PETCO #1234"),
            (["영수증", "2026-11-20 14:32", "사업자번호 123-45-67890", "** 멍멍펫샵 **", "서울 강남구 테헤란로 123"], "멍멍펫샵"),
            (["서울시 강남구 역삼동 12-3", "TEL 02-555-1234", "== 행복동물병원 =="], "행복동물병원"),
            (["領収書", "東京都渋谷区1-2-3", "電話 03-1234-5678", "わんわん病院"], "わんわん病院"),
            (["RECEIPT", "123 Main St", "(555) 123-4567", "Paws & Claws Pet Supply"], "Paws & Claws Pet Supply"),
            (["WELCOME", "PET WORLD", "11/20/2026"], "PET WORLD"),
            (["PETSMART #1234", "11/20/2026"], "PETSMART #1234"),
            (["(주)멍멍펫샵", "2026-11-20"], "멍멍펫샵"),
            (["㈱さくらペット", "2026/11/20"], "さくらペット"),
            (["₩12,000", "멍멍펫샵"], "멍멍펫샵"),
            (["영수증", "2026-11-20", "12,000"], nil),
        ]
        for (texts, expected) in cases {
            XCTAssertEqual(read(texts).merchant?.value, expected, texts.joined(separator: " / "))
        }
        XCTAssertEqual(try XCTUnwrap(read(["상호: 행복펫샵|80"]).merchant).confidence, 80, accuracy: 0.01)
        XCTAssertEqual(try XCTUnwrap(read(["행복펫샵|80"]).merchant).confidence, 48, accuracy: 0.01)  // header guess × 0.6
    }

    func testMerchantComesFromTheHeaderOnly() {
        // Nine lines: the top third is lines 0–3 (the first four always count); item lines further down are no names.
        let texts = ["영수증", "2026-11-20", "TEL 02-555-1234", "123-45-67890", "12,000", "12,000", "사료", "간식", "합계 12,000"]
        XCTAssertNil(read(texts).merchant)
    }

    // MARK: Payment

    func testPaymentWords() {
        let cases: [([String], Payment?)] = [
            (["카드 32,000"], .card),
            (["신용승인"], .card),
            (["체크카드 결제"], .card),
            (["현금 32,000"], .cash),
            (["현금영수증 (소득공제)"], .cash),
            (["현금 0", "카드 32,000"], .card),
            (["クレジット ¥1,100"], .card),
            (["現金 ¥2,000", "お釣り ¥900"], .cash),
            (["VISA ****1234"], .card),
            (["MASTERCARD"], .card),
            (["AMEX"], .card),
            (["DEBIT $25.98"], .card),
            (["CASH $30.00", "CHANGE $4.02"], .cash),
            (["받은금액 50,000", "거스름돈 17,000"], .cash),
            // A masked card number or an approval number makes it a card even when cash is named.
            (["현금 32,000", "카드번호 1234-56**-****-1234"], .card),
            (["CASH $10.00", "Approval 012345"], .card),
            (["現金", "承認番号 123456"], .card),
            // A points card is no payment.
            (["포인트카드 1234****5678", "현금 5,000"], .cash),
            (["ポイントカード", "現金 ¥500"], .cash),
            (["합계 12,000"], nil),
            (["CASHIER: KIM", "VISA $12.00"], .card),
            (["CASHIER: KIM"], nil),
            (["電子マネー ¥1,278", "お釣 ¥0"], .other),
            (["카카오페이 12,000"], .other),
        ]
        for (texts, expected) in cases {
            XCTAssertEqual(read(texts).payment?.value, expected, texts.joined(separator: " / "))
        }
    }

    // MARK: Items

    func testItemsAreNameThenPrice() {
        let p = read(["멍멍펫샵", "로얄캐닌 2kg 1 32,000 32,000", "개껌 x2 5,000", "할인 -1,000", "부가세 3,273", "합계 36,000"])
        XCTAssertEqual(p.items.map(\.value), [ReceiptItem(name: "로얄캐닌 2kg", price: won(32000)), ReceiptItem(name: "개껌", price: won(5000))])
        let e = read(["PET STORE", "Dog Food 2 @ 12.99 25.98", "TOTAL 25.98"], ["eng"], home: Self.usd)
        XCTAssertEqual(e.items.map(\.value), [ReceiptItem(name: "Dog Food", price: cents(2598))])
        let x = read(["PET STORE", "Kong Box 12.00", "Rex 2x 3.00", "TOTAL 15.00"], ["eng"], home: Self.usd)
        XCTAssertEqual(x.items.map(\.value.name), ["Kong Box", "Rex"])  // `2x` is a quantity
        let upc = read(["Walmart", "ST# 1234 OP# 00001 TE# 01 TR# 01234", "PURINA ONE 012345678901 F 18.97 N", "TOTAL 18.97"], ["eng"], home: Self.usd)
        XCTAssertEqual(upc.items.map(\.value), [ReceiptItem(name: "PURINA ONE", price: cents(1897))])
        let pos = read(["이마트24", "POS:01 영수증번호 0123", "펫트릿 연어 3,500 2 7,000", "합계 7,000"])
        XCTAssertEqual(pos.items.map(\.value), [ReceiptItem(name: "펫트릿 연어", price: won(7000))])
        let spaced = read(["멍냥펫샵", "배 변 패드 100 매 x2 37,800", "츄 르 20 개 입 x1 15,900", "합계 53,700"])
        XCTAssertEqual(spaced.items.map(\.value.name), ["배변 패드 100매", "츄르 20개입"])
        let reduced = read(["ファミリーマート", "猫砂 8L 軽 ¥980", "合計 ¥980"], ["jpn"])
        XCTAssertEqual(reduced.items.map(\.value), [ReceiptItem(name: "猫砂 8L", price: yen(980))])
        let j = read(["わんわん堂", "おやつ ※ ¥398", "ドッグフード 1点 ¥2,480", "合計 ¥2,878"], ["jpn"])
        XCTAssertEqual(j.items.map(\.value), [ReceiptItem(name: "おやつ", price: yen(398)), ReceiptItem(name: "ドッグフード", price: yen(2480))])
    }

    /// Subtotal, tax, total, points, tendered and change lines are never items, also when OCR garbled their label.
    func testTotalsTaxesAndChangeAreNeverItems() {
        let ja = read(["さくら動物病院", "ドッグフード 1点 ¥2,480", "おやつ ¥398", "。 Nit ¥2,878", "消費税(10%) ¥287", "合計 ¥3,165",
                       "お預り ¥5,000", "お釣り ¥1,835", "ポイント 31"], ["jpn"])
        XCTAssertEqual(ja.items.map(\.value.name), ["ドッグフード", "おやつ"])
        let en = read(["PET WORLD", "Dog Food 30lb x2 $109.98", "Chew Toy $7.99", "SUBT0TAL $117.97", "TAK 8.25% $9.73", "TOTAL $127.70",
                       "Points earned 127", "CASH TEND $200.00", "CHANGE DUE $72.30"], ["eng"], home: Self.usd)
        XCTAssertEqual(en.items.map(\.value.name), ["Dog Food 30lb", "Chew Toy"])
        let ko = read(["멍냥펫샵", "사료 2kg 32,000", "간식 5,000", "소 게 37,000", "부가세 3,364", "합계 37,000", "받은금액 50,000", "거스름돈 13,000"])
        XCTAssertEqual(ko.items.map(\.value.name), ["사료 2kg", "간식"])
        // The supply value before the VAT, its label garbled (a phone photo of a Korean receipt read `공급가액` as `oat`).
        let supply = read(["멍냥펫샵", "츄르 20개입 x1 15,900", "하네스 S 사이즈 x1 22,000", "덴탈껌 30개 x1 13,500", "oat 46,727", "부가세 4,673", "합계 51,400"])
        XCTAssertEqual(supply.items.map(\.value.name), ["츄르 20개입", "하네스 S 사이즈", "덴탈껌 30개"])
        // Two items whose prices make the sum above are still items when no labelled amount follows.
        let pair = read(["PET WORLD", "Food $10.00", "Toy $4.00", "Treats $9.00", "Brush $5.00", "TOTAL $28.00"], ["eng"], home: Self.usd)
        XCTAssertEqual(pair.items.count, 4)
        // Two items at the same price are both items (the second is no subtotal of one).
        let same = read(["PET WORLD", "Treats $3.00", "Treats $3.00", "TOTAL $6.00"], ["eng"], home: Self.usd)
        XCTAssertEqual(same.items.count, 2)
    }

    /// Nothing a camera or the OCR produces may trap: random receipt-like lines, empty input, huge numbers.
    func testNoInputTraps() {
        var seed: UInt64 = 20261123
        func next() -> Int { seed = seed &* 6364136223846793005 &+ 1442695040888963407; return Int(seed >> 33) }
        let alphabet = Array("0123456789 ,.:-/*₩W원円¥\\$合計합계TOTALotal年月日년월일令和平成오후午後PMAM카드現金CASH(){}[]％１２，\u{0}\u{301}🐶\n\t")
        for _ in 0..<300 {
            let texts = (0..<(next() % 12)).map { _ in String((0..<(next() % 40)).map { _ in alphabet[next() % alphabet.count] }) }
            let p = read(texts, ["kor", "jpn", "eng"])
            if let total = p.total { XCTAssertGreaterThan(total.value.minorUnits, 0, texts.joined(separator: " / ")) }
        }
        XCTAssertNil(read([]).total)
        XCTAssertNil(read(["합계 99999999999999999999999원"]).total)
        XCTAssertNil(read(["TOTAL $-5.00"], ["eng"]).total)
        let empty = ReceiptReading.proposal(lines: [], imageHeight: 0, languages: [], homeCurrency: .krw, today: Self.today)
        XCTAssertEqual(empty.currency.value, .krw)
        XCTAssertEqual(empty.language, .english)
    }

    // MARK: Whole receipts (OCR-style noise: W for ₩, O for 0, dots for commas, spaced digits, full-width digits, \ for ¥)

    func check(_ p: ReceiptProposal, language: ReceiptLanguage, date: LocalDate?, time: ReceiptTime?, merchant: String?,
               total: Money?, currency: String, payment: Payment?, items: [ReceiptItem],
               file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertEqual(p.language, language, "language", file: file, line: line)
        XCTAssertEqual(p.date?.value, date, "date", file: file, line: line)
        XCTAssertEqual(p.time?.value, time, "time", file: file, line: line)
        XCTAssertEqual(p.merchant?.value, merchant, "merchant", file: file, line: line)
        XCTAssertEqual(p.total?.value, total, "total", file: file, line: line)
        XCTAssertEqual(p.currency.value.code, currency, "currency", file: file, line: line)
        XCTAssertEqual(p.payment?.value, payment, "payment", file: file, line: line)
        XCTAssertEqual(p.items.map(\.value), items, "items", file: file, line: line)
    }

    func testKoreanPetShopCardReceipt() throws {
        let p = read([
            "[ 영 수 증 ]", "멍멍펫샵 강남점", "서울 강남구 테헤란로 123", "사업자번호 123-45-67890 대표 김철수", "TEL 02-555-1234",
            "2026.11.20 14:32:05|85", "------------------------", "상품명 수량 금액", "로얄캐닌 미니 2kg 1 32,OOO", "개껌 2 5,000",
            "배변패드 1 12.000", "------------------------", "과세물품 44,545", "부가세 4,455", "합계 49,000", "결제금액 W49.000",
            "신한카드 1234-56**-****-7890", "승인번호 12345678",
        ])
        check(p, language: .korean, date: day(2026, 11, 20), time: ReceiptTime(hour: 14, minute: 32), merchant: "멍멍펫샵 강남점",
              total: won(49000), currency: "KRW", payment: .card,
              items: [ReceiptItem(name: "로얄캐닌 미니 2kg", price: won(32000)), ReceiptItem(name: "개껌", price: won(5000)),
                      ReceiptItem(name: "배변패드", price: won(12000))])
        XCTAssertEqual(p.total?.source, "결제금액 W49.000")
        XCTAssertEqual(try XCTUnwrap(p.total).confidence, 76.5, accuracy: 0.01)  // 90 × 0.85 (repaired)
        XCTAssertEqual(try XCTUnwrap(p.date).confidence, 85, accuracy: 0.01)
        XCTAssertEqual(try XCTUnwrap(p.merchant).confidence, 54, accuracy: 0.01)
        XCTAssertTrue(p.notes.contains(.amountRepaired(read: "결제금액 W49.000", as: won(49000))))
    }

    func testKoreanAnimalHospitalCashReceipt() throws {
        let p = read([
            "영수증 (고객용)", "상호: 해피동물병원 대표: 이수진", "사업자번호: 220-81-12345", "서울시 마포구 월드컵로 45",
            "2026년 11월 18일 오후 3:05", "진료비 30,000", "예방접종 (종합백신) 25,000", "처방약 8,000", "받을금액", "63,000원|80",
            "받은금액 70,000", "거스름돈 7,000", "현금영수증 (소득공제)",
        ])
        check(p, language: .korean, date: day(2026, 11, 18), time: ReceiptTime(hour: 15, minute: 5), merchant: "해피동물병원",
              total: won(63000), currency: "KRW", payment: .cash,
              items: [ReceiptItem(name: "진료비", price: won(30000)), ReceiptItem(name: "예방접종 (종합백신)", price: won(25000)),
                      ReceiptItem(name: "처방약", price: won(8000))])
        XCTAssertEqual(try XCTUnwrap(p.total).confidence, 72, accuracy: 0.01)  // min(90, 80) × 0.9
        XCTAssertEqual(try XCTUnwrap(p.merchant).confidence, 90, accuracy: 0.01)
        XCTAssertEqual(p.currency.source, "63,000원")
    }

    func testKoreanCardSlipWithoutCurrencyMarks() throws {
        let p = read([
            "신용카드 매출전표", "가맹점명: 펫마트 일산점", "가맹점번호 0012345678", "거래일시 26-11-21 09:15", "카드종류 국민체크",
            "카드번호 9410-12**-****-3456", "할부 일시불", "공급가액 18,182", "부가세 1,818", "합 계 20, 000", "승인번호 30012345",
        ])
        check(p, language: .korean, date: day(2026, 11, 21), time: ReceiptTime(hour: 9, minute: 15), merchant: "펫마트 일산점",
              total: won(20000), currency: "KRW", payment: .card, items: [])
        XCTAssertTrue(p.notes.contains(.currencyAssumed(.krw, because: .language(.korean))))
        XCTAssertEqual(try XCTUnwrap(p.date).confidence, 72, accuracy: 0.01)  // two-digit year: 90 × 0.8
    }

    func testJapaneseAnimalHospitalCreditReceipt() throws {
        let p = read([
            "領収書", "さくら動物病院", "東京都世田谷区三軒茶屋1-2-3", "TEL 03-1234-5678", "令和8年11月19日 午後4時10分",
            "診察料 ¥3,000", "混合ワクチン ¥8,000", "小計 ¥11,000", "消費税(10%) ¥1,100", "合計 ¥12,100", "お支払方法 クレジット",
            "VISA ************1234",
        ], ["jpn", "eng"])
        check(p, language: .japanese, date: day(2026, 11, 19), time: ReceiptTime(hour: 16, minute: 10), merchant: "さくら動物病院",
              total: yen(12100), currency: "JPY", payment: .card,
              items: [ReceiptItem(name: "診察料", price: yen(3000)), ReceiptItem(name: "混合ワクチン", price: yen(8000))])
        XCTAssertEqual(p.total?.source, "合計 ¥12,100")
    }

    func testJapanesePetShopCashReceiptWithFullWidthDigits() throws {
        let p = read([
            "ペットショップ わんにゃん", "渋谷店", "2026年11月22日(日) 18:45", "ドッグフード ￥２，４８０", "おやつ  ￥398",
            "小計 ￥2,878", "(内消費税 ￥261)", "合計 ￥２，８７８", "お預り ￥3,000", "お釣り ￥122", "現金",
        ], ["jpn"])
        check(p, language: .japanese, date: day(2026, 11, 22), time: ReceiptTime(hour: 18, minute: 45), merchant: "ペットショップわんにゃん",
              total: yen(2878), currency: "JPY", payment: .cash,
              items: [ReceiptItem(name: "ドッグフード", price: yen(2480)), ReceiptItem(name: "おやつ", price: yen(398))])
        XCTAssertFalse(p.notes.contains { if case .amountRepaired = $0 { true } else { false } })
    }

    func testJapaneseClinicReceiptWithBackslashYen() throws {
        let p = read([
            "レシート", "店名：ペットクリニック青空", "2026/11/21 10:02", "登録番号 T1234567890123", "狂犬病予防注射 \\3.500",
            "フィラリア薬 \\4,2OO", "合計 \\7,000", "消費税 \\700", "税込合計 \\7,700", "お支払い クレジット \\7,700", "承認番号 004512",
        ], ["jpn"])
        check(p, language: .japanese, date: day(2026, 11, 21), time: ReceiptTime(hour: 10, minute: 2), merchant: "ペットクリニック青空",
              total: yen(7700), currency: "JPY", payment: .card,
              items: [ReceiptItem(name: "狂犬病予防注射", price: yen(3500)), ReceiptItem(name: "フィラリア薬", price: yen(4200))])
        XCTAssertEqual(p.total?.source, "税込合計 \\7,700")
        XCTAssertEqual(try XCTUnwrap(p.currency).confidence, 72, accuracy: 0.01)  // `\` for `¥`: 90 × 0.8
    }

    func testUSPetStoreCardReceipt() throws {
        let p = read([
            "PAWS & CLAWS PET SUPPLY", "123 Main St", "Springfield, IL 62701", "(555) 123-4567", "11/20/2026 2:32 PM",
            "DOG FOOD 30LB   42.99", "CHEW TOYS 2 @ 4.50   9.00", "SUBTOTAL   51.99", "TAX 8.25%   4.29", "TOTAL   $56.28",
            "VISA  XXXXXXXXXXXX1234", "AUTH CODE 012345", "CHANGE DUE 0.00", "THANK YOU FOR SHOPPING",
        ], ["eng"])
        check(p, language: .english, date: day(2026, 11, 20), time: ReceiptTime(hour: 14, minute: 32), merchant: "PAWS & CLAWS PET SUPPLY",
              total: cents(5628), currency: "USD", payment: .card,
              items: [ReceiptItem(name: "DOG FOOD 30LB", price: cents(4299)), ReceiptItem(name: "CHEW TOYS", price: cents(900))])
        XCTAssertFalse(p.notes.contains { if case .ambiguousDate = $0 { true } else { false } })
    }

    func testUSVetInvoiceAmountDueOnTheNextLine() throws {
        let p = read([
            "Riverside Animal Hospital", "45 River Rd, Suite 2", "Invoice", "Date: Nov 18, 2026  10:45 AM", "Exam  65.00",
            "Rabies vaccine  25.00", "Total 90.00", "Amount Due", "90.00", "Cash 100.00", "Change 10.00",
        ], ["eng"], home: Self.usd)
        check(p, language: .english, date: day(2026, 11, 18), time: ReceiptTime(hour: 10, minute: 45), merchant: "Riverside Animal Hospital",
              total: cents(9000), currency: "USD", payment: .cash,
              items: [ReceiptItem(name: "Exam", price: cents(6500)), ReceiptItem(name: "Rabies vaccine", price: cents(2500))])
        XCTAssertEqual(p.total?.source, "Amount Due\n90.00")
        XCTAssertTrue(p.notes.contains(.currencyAssumed(Self.usd, because: .cents)))
    }

    func testEnglishReceiptInWonWithAmbiguousDate() throws {
        let p = read([
            "CUSTOMER COPY", "Store: Seoul Pet Mart", "Date 03/11/2026 19:20", "Cat litter   W15,000", "Cat food     W27,000",
            "Total        W42.0OO", "CASH         W50,000", "CHANGE       W8,000",
        ], ["eng"], home: .krw)
        check(p, language: .english, date: day(2026, 3, 11), time: ReceiptTime(hour: 19, minute: 20), merchant: "Seoul Pet Mart",
              total: won(42000), currency: "KRW", payment: .cash,
              items: [ReceiptItem(name: "Cat litter", price: won(15000)), ReceiptItem(name: "Cat food", price: won(27000))])
        XCTAssertTrue(p.notes.contains(.ambiguousDate(read: "03/11/2026", chose: day(2026, 3, 11), because: .english)))
        XCTAssertTrue(p.notes.contains(.amountRepaired(read: "Total        W42.0OO", as: won(42000))))
    }

    // MARK: What Tesseract 5.3 read from the project's rendered receipts (scripts/make-receipts.py: ko-09, ja-02, en-04)

    func tesseract(_ rows: [(String, Double, Int, Int)]) -> [ReceiptLine] {
        rows.map { ReceiptLine(text: $0.0, confidence: $0.1, box: ReceiptBox(x: 20, y: $0.2, width: 500, height: $0.3)) }
    }

    func testTesseractKoreanLowContrast() {
        let lines = tesseract([
            ("바 둑 이 네 펫 마트", 94, 30, 87), ("상호: 바 둑 이 네 펫 마트", 92, 121, 39), ("사 업 자 번호: 287-88-64537", 92, 171, 53),
            ("TEL 02-226-9107", 93, 240, 30), ("일시: 202614 54 232 09:51", 73, 292, 39), ("=e a", 29, 406, 39),
            ("강아지 간식 AIF] x2 13,000", 84, 463, 41), ("로 알 캐 닌 미니 어덜트 38351 45,000", 89, 520, 44), ("EA 3074 x1 13,500", 69, 577, 41),
            ("하네스 8 사이즈 x1 22,000", 72, 634, 41), ("공 급 가 액 85,000", 93, 748, 41), ("부가세 8,500", 96, 805, 41),
            ("받 을 금액 93,500", 95, 861, 42), ("카 드 결제 93,500", 92, 919, 41), ("VSS Sa =", 33, 972, 55), ("491413: 34986895", 76, 1033, 39),
            ("할부: 일시불", 97, 1090, 39), ("감 사 합 니다", 94, 1143, 55),
        ])
        let p = ReceiptReading.proposal(lines: lines, imageHeight: 1267, languages: ["kor", "eng"], homeCurrency: .krw, today: Self.today)
        // Every unit of the date misread (`202614 54 232`): each token's last character was its unit.
        check(p, language: .korean, date: LocalDate(year: 2026, month: 5, day: 23), time: ReceiptTime(hour: 9, minute: 51), merchant: "바둑이네펫 마트",
              total: won(93500), currency: "KRW", payment: .card,
              items: [ReceiptItem(name: "강아지 간식 AIF]", price: won(13000)), ReceiptItem(name: "로알캐닌 미니 어덜트", price: won(45000)),
                      ReceiptItem(name: "EA", price: won(13500)), ReceiptItem(name: "하네스 8 사이즈", price: won(22000))])
        XCTAssertEqual(try XCTUnwrap(p.total).confidence, 95, accuracy: 0.01)
    }

    func testTesseractJapanese() {
        let lines = tesseract([
            ("みどり 動物 クリ ニッ ク", 95, 45, 59), ("店 名 : みどり 動物 クリ ニッ ク", 95, 109, 48), ("〒776-3257 東京 都 渋谷 区 神宮 前 5-6", 89, 160, 47),
            ("TEL 03-1574-9279", 93, 219, 26), ("令 和 8 年 11 月 15 日 14:33", 94, 262, 48), ("血液 検査 \\5,500", 81, 368, 36),
            ("診察 料 \\1,500", 90, 419, 36), ("処方 食 1kg \\3,200", 92, 465, 48), ("混合 ワク チン \\6,000", 95, 517, 47),
            ("フィ ラリ ア 検 査 \\2,500", 93, 568, 46), ("小計 \\18,700", 93, 674, 36), ("消費 税 (10%) ¥1,870", 91, 720, 51),
            ("お 会 計 \\20,570", 93, 776, 38), ("現金 \\30,000", 93, 827, 36), ("お 釣り ¥9 430", 89, 878, 36), ("お 大 事 に どう ぞ", 93, 929, 33),
        ])
        let p = ReceiptReading.proposal(lines: lines, imageHeight: 1039, languages: ["jpn", "eng"], homeCurrency: .krw, today: Self.today)
        check(p, language: .japanese, date: day(2026, 11, 15), time: ReceiptTime(hour: 14, minute: 33), merchant: "みどり動物クリニック",
              total: yen(20570), currency: "JPY", payment: .cash,
              items: [ReceiptItem(name: "血液検査", price: yen(5500)), ReceiptItem(name: "診察料", price: yen(1500)),
                      ReceiptItem(name: "処方食 1kg", price: yen(3200)), ReceiptItem(name: "混合ワクチン", price: yen(6000)),
                      ReceiptItem(name: "フィラリア検査", price: yen(2500))])
    }

    func testTesseractEnglishRotated() {
        let lines = tesseract([
            ("Tail Waggers Supply Co", 95, 48, 72), ("7456 Main St, Springfield, IL 6", 96, 111, 67), ("(551) 555-5071", 86, 171, 44),
            ("06/16/2026 1:53 py", 93, 213, 50), ("Dog Food 301b x2 $109.98", 89, 315, 63), ("Catnip Mouse 3pk $4.99", 95, 366, 63),
            ("Bird Seed 5lb $8.99", 80, 416, 64), ("SUBTOTAL $123.96", 89, 519, 63), ("TAX 8.25% $10.23", 95, 569, 63),
            ("TOTAL $134.19", 96, 620, 63), ("CASH $190.00", 95, 672, 62), ("CHANGE $55.81", 94, 722, 63), ("THANK YOU FoR SHOPPING!", 92, 777, 61),
        ])
        let p = ReceiptReading.proposal(lines: lines, imageHeight: 928, languages: ["eng"], homeCurrency: .krw, today: Self.today)
        check(p, language: .english, date: day(2026, 6, 16), time: ReceiptTime(hour: 13, minute: 53), merchant: "Tail Waggers Supply Co",
              total: cents(13419), currency: "USD", payment: .cash,
              items: [ReceiptItem(name: "Dog Food 301b", price: cents(10998)), ReceiptItem(name: "Catnip Mouse 3pk", price: cents(499)),
                      ReceiptItem(name: "Bird Seed 5lb", price: cents(899))])
    }
}
