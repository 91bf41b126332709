import Foundation
import XCTest
@testable import PetModel

final class MoneyTextTests: XCTestCase {
    func amount(_ raw: String, _ defaultCurrency: String? = nil) throws -> String {
        let m = try MoneyText.parse(raw, defaultCurrency: defaultCurrency.flatMap(Currency.named))
        return "\(m.minorUnits) \(m.currency.code)"
    }

    func testEveryWrittenForm() throws {
        let cases: [(String, String)] = [
            ("12.50 USD", "1250 USD"), ("USD 12.50", "1250 USD"), ("$12.50", "1250 USD"), ("12.50$", "1250 USD"),
            ("₩45,000", "45000 KRW"), ("45000원", "45000 KRW"), ("45,000 원", "45000 KRW"), ("4만5천원", "45000 KRW"),
            ("8만원", "80000 KRW"), ("만원", "10000 KRW"), ("천원", "1000 KRW"), ("1.5만원", "15000 KRW"),
            ("3만 5천원", "35000 KRW"), ("1억2천만원", "120000000 KRW"), ("1,500만원", "15000000 KRW"), ("2만3456원", "23456 KRW"), ("5천6백만원", "56000000 KRW"),
            ("¥1,200", "1200 JPY"), ("1,200円", "1200 JPY"), ("1万2千円", "12000 JPY"), ("3千円", "3000 JPY"), ("500엔", "500 JPY"),
            ("12,50 €", "1250 EUR"), ("€12.50", "1250 EUR"), ("12,5 EUR", "1250 EUR"), ("1,250 €", "125000 EUR"),
            ("１２，０００円", "12000 JPY"), ("￦８５，０００", "85000 KRW"), ("１２．５０ ＵＳＤ", "1250 USD"),
            ("10달러", "1000 USD"), ("5ドル", "500 USD"), ("20유로", "2000 EUR"),
            ("85000", "85000 KRW"), ("12.5", "1250 USD"),
        ]
        for (raw, expected) in cases {
            let d = raw == "12.5" ? "USD" : "KRW"
            XCTAssertEqual(try amount(raw, d), expected, raw)
        }
    }

    func testThePetAndTheAmountAsTypedAfterExpense() throws {
        let krw = try XCTUnwrap(Currency.named("KRW"))
        let a = try MoneyText.petAndAmount(["45000"], defaultCurrency: krw)
        XCTAssertNil(a.pet)
        XCTAssertEqual(a.amount, Money(minorUnits: 45000, currency: krw))
        let b = try MoneyText.petAndAmount(["Coco,Nabi", "12.50", "USD"], defaultCurrency: krw)
        XCTAssertEqual(b.pet, "Coco,Nabi")
        XCTAssertEqual(b.amount.minorUnits, 1250)
        XCTAssertEqual(b.amount.currency.code, "USD")
        let c = try MoneyText.petAndAmount(["4만5천원"], defaultCurrency: krw)
        XCTAssertEqual([c.pet == nil ? 1 : 0, Int(c.amount.minorUnits)], [1, 45000])
        XCTAssertThrowsError(try MoneyText.petAndAmount(["Coco"], defaultCurrency: krw), "one word that is no amount")
        XCTAssertThrowsError(try MoneyText.petAndAmount(["Coco", "lots"], defaultCurrency: krw))
    }

    func testRefusals() {
        let bad = ["", "원", "12.50.1 USD", "12,5,0 USD", "1,20,000원", "₩12.50", "12.505 USD", "4만5.5원", "1.23456만원",
                   "만만원", "5천3천원", "$12 EUR", "₩1200円", "12 ABC", "abc", "1억억원", "12.5",
                   // A decimal comma only where the currency is written so (euro, krona); NaN is no amount.
                   "1,23 USD", "$1,5", "1,50원", "12,5 JPY", "NaN USD", "inf KRW"]
        for raw in bad {
            XCTAssertThrowsError(try MoneyText.parse(raw, defaultCurrency: raw == "12.5" ? Currency.named("KRW") : nil), raw)
        }
        XCTAssertThrowsError(try MoneyText.parse("12.505 USD")) { e in
            XCTAssertEqual(e as? ParseError, .tooManyFractionDigits("12.505 USD", currency: "USD", allowed: 2))
        }
        XCTAssertThrowsError(try MoneyText.parse("99999999999999999999원")) { e in
            XCTAssertEqual(e as? ParseError, .moneyOutOfRange("99999999999999999999원"))
        }
        XCTAssertThrowsError(try MoneyText.parse("9999조원")) { e in
            XCTAssertEqual(e as? ParseError, .moneyOutOfRange("9999조원"))
        }
    }
}

extension MoneyTextTests {
    func testTwoCurrenciesNegativesAndWordsThatAreNoNumber() {
        for raw in ["45000 KRW USD", "45000 USD KRW", "$45 KRW", "USD 45 KRW", "45000원 USD", "¥1200 ドル", "\\1200 USD", "€5 £"] {
            XCTAssertThrowsError(try MoneyText.parse(raw)) { XCTAssertEqual($0 as? ParseError, .twoCurrencies(raw), raw) }
        }
        for raw in ["-5 USD", "−5", "$-5", "USD -12.50", "－５円"] {
            XCTAssertThrowsError(try MoneyText.parse(raw, defaultCurrency: .krw)) { XCTAssertEqual($0 as? ParseError, .negativeAmount(raw), raw) }
        }
        for raw in ["abc", "NaN", "inf", "Infinity", "NAN", "xyz USD"] {
            XCTAssertThrowsError(try MoneyText.parse(raw, defaultCurrency: .krw)) { XCTAssertEqual($0 as? ParseError, .badMoney(raw), raw) }
        }
        XCTAssertThrowsError(try MoneyText.parse("12 XYZ")) { XCTAssertEqual($0 as? ParseError, .unknownCurrency("XYZ")) }
        let krw = Currency.krw
        XCTAssertThrowsError(try MoneyText.petAndAmount(["45000", "USD", "KRW"], defaultCurrency: krw)) {
            XCTAssertEqual($0 as? ParseError, .twoCurrencies("45000 USD KRW"))
        }
        XCTAssertThrowsError(try MoneyText.expenseAmount("0", defaultCurrency: krw)) { XCTAssertEqual($0 as? ParseError, .amountNotPositive("0")) }
        // A pet's name first is not read as a currency code it happens to spell (BOB, the boliviano).
        XCTAssertEqual(try? MoneyText.petAndAmount(["Bob", "5000"], defaultCurrency: krw).pet, "Bob")
        XCTAssertEqual(try amount("BOB 50"), "5000 BOB")
        XCTAssertEqual(try amount("usd 5"), "500 USD")
    }

    func testNumeralWordsCarryTheirCurrency() throws {
        func read(_ raw: String, home: String, language: String?) throws -> String {
            let m = try MoneyText.parse(raw, defaultCurrency: Currency.named(home), language: language)
            return "\(m.minorUnits) \(m.currency.code)"
        }
        // Korean words are won wherever they are typed: never $120,000,000.00 or $15,000.00 in English.
        for (language, home) in [(nil, "USD"), ("en", "USD"), ("ko", "KRW"), ("ja", "JPY"), ("en", "JPY"), ("ja", "USD")] as [(String?, String)] {
            XCTAssertEqual(try read("1억2천만", home: home, language: language), "120000000 KRW", "\(language ?? "C") \(home)")
            XCTAssertEqual(try read("1.5만", home: home, language: language), "15000 KRW", "\(language ?? "C") \(home)")
            XCTAssertEqual(try read("5천", home: home, language: language), "5000 KRW", "\(language ?? "C") \(home)")
            // 円 says yen; a written currency is the amount's (`5만엔` is ¥50,000, `100만 달러` a million dollars).
            XCTAssertEqual(try read("1万2千円", home: home, language: language), "12000 JPY")
            XCTAssertEqual(try read("5만엔", home: home, language: language), "50000 JPY")
            XCTAssertEqual(try read("100만 달러", home: home, language: language), "100000000 USD")
            XCTAssertEqual(try read("1.5万 USD", home: home, language: language), "1500000 USD")
        }
        // A bare 万 is yen in Japanese, whatever the home currency.
        XCTAssertEqual(try read("1.5万", home: "USD", language: "ja"), "15000 JPY")
        XCTAssertEqual(try read("二万五千", home: "KRW", language: "ja"), "25000 JPY")
        // Elsewhere the home currency when it is one counted in kanji numerals, else refused: not guessed.
        XCTAssertEqual(try read("1.5万", home: "JPY", language: "en"), "15000 JPY")
        XCTAssertEqual(try read("1.5万", home: "CNY", language: nil), "1500000 CNY")
        for (home, language) in [("USD", "en"), ("USD", nil), ("KRW", "ko"), ("EUR", "en")] as [(String, String?)] {
            XCTAssertThrowsError(try read("1.5万", home: home, language: language)) {
                XCTAssertEqual($0 as? ParseError, .numeralsWithoutCurrency("1.5万", home: home))
            }
        }
        // Plain digits still take the home currency.
        XCTAssertEqual(try read("15000", home: "USD", language: "en"), "1500000 USD")
    }

    func testTheErrorNamesTheWordsThatAreWrong() {
        let usd = Currency.named("USD")!
        // No pet: the whole is the amount, and what is wrong with it is said of it, not of "USD".
        XCTAssertThrowsError(try MoneyText.petAndAmount(["12.345", "USD"], defaultCurrency: usd)) {
            XCTAssertEqual($0 as? ParseError, .tooManyFractionDigits("12.345 USD", currency: "USD", allowed: 2))
        }
        XCTAssertThrowsError(try MoneyText.petAndAmount(["1.200,50", "EUR"], defaultCurrency: usd)) {
            XCTAssertEqual($0 as? ParseError, .badMoney("1.200,50 EUR"))
        }
        // With a pet, the amount after it.
        XCTAssertThrowsError(try MoneyText.petAndAmount(["Coco", "12.345", "USD"], defaultCurrency: usd)) {
            XCTAssertEqual($0 as? ParseError, .tooManyFractionDigits("12.345 USD", currency: "USD", allowed: 2))
        }
        XCTAssertThrowsError(try MoneyText.petAndAmount(["Coco", "lots"], defaultCurrency: usd)) {
            XCTAssertEqual($0 as? ParseError, .badMoney("lots"))
        }
    }

    func testEveryActiveCurrencyWithItsCLDRDigits() throws {
        XCTAssertGreaterThanOrEqual(Currency.known.count, 150)
        XCTAssertEqual(Set(Currency.known.map(\.code)).count, Currency.known.count)
        let digits: [String: Int] = ["KRW": 0, "JPY": 0, "USD": 2, "EUR": 2, "THB": 2, "INR": 2, "ISK": 0, "VND": 0, "CLP": 0,
                                     "KWD": 3, "BHD": 3, "TND": 3, "CLF": 4, "UYW": 4, "TWD": 2, "HUF": 2, "IDR": 0, "XOF": 0]
        for (code, n) in digits { XCTAssertEqual(Currency.named(code)?.minorDigits, n, code) }
        for code in ["XAU", "XXX", "XTS", "ABC"] { XCTAssertNil(Currency.named(code), code) }
        // Every currency the ECB publishes is one petlog reads.
        for code in Currency.ecbPublished { XCTAssertNotNil(Currency.named(code), code) }
        // The table agrees with the CLDR data Foundation formats with (the digits of 1,234.5678 written in each).
        for c in Currency.known {
            let text = Decimal(string: "1234.5678")!.formatted(.currency(code: c.code).locale(Locale(identifier: "en_US")))
            let number = text.drop { $0.asciiDigit == nil }.prefix { $0.asciiDigit != nil || $0 == "," || $0 == "." }
            let fraction = number.split(separator: ".").dropFirst().first ?? ""
            XCTAssertEqual(fraction.count, c.minorDigits, "\(c.code): \(text)")
        }
        XCTAssertTrue(Currency.named("THB")?.hasECBRate == true)
        XCTAssertFalse(Currency.named("TWD")?.hasECBRate == true)
    }

    func testTheBackslashYenAndKanjiNumerals() throws {
        let cases: [(String, String)] = [
            ("\\1,200", "1200 JPY"), ("\\ 500", "500 JPY"), ("千二百円", "1200 JPY"), ("二万五千円", "25000 JPY"), ("百円", "100 JPY"),
            ("二〇〇円", "200 JPY"), ("一億二千万円", "120000000 JPY"), ("三十円", "30 JPY"), ("1万2千円", "12000 JPY"),
        ]
        for (raw, expected) in cases { XCTAssertEqual(try amount(raw), expected, raw) }
        for raw in ["1二00円", "二1円", "二.5万円"] { XCTAssertThrowsError(try MoneyText.parse(raw), raw) }
    }
}

final class ExpenseSplitTests: XCTestCase {
    func testSharesAddUpAndTheFirstPetsTakeTheRemainder() {
        let krw = Currency.named("KRW")!, usd = Currency.named("USD")!
        XCTAssertEqual(ExpenseSplit.shares(of: Money(minorUnits: 45000, currency: krw), among: 3).map(\.minorUnits), [15000, 15000, 15000])
        XCTAssertEqual(ExpenseSplit.shares(of: Money(minorUnits: 100, currency: krw), among: 3).map(\.minorUnits), [34, 33, 33])
        XCTAssertEqual(ExpenseSplit.shares(of: Money(minorUnits: 1000, currency: usd), among: 3).map(\.minorUnits), [334, 333, 333])
        XCTAssertEqual(ExpenseSplit.shares(of: Money(minorUnits: 2, currency: usd), among: 4).map(\.minorUnits), [1, 1, 0, 0])
        for total in [0, 1, 7, 99_999, 123_456_789] as [Int64] {
            for n in 1...7 {
                let shares = ExpenseSplit.shares(of: Money(minorUnits: total, currency: krw), among: n)
                XCTAssertEqual(shares.map(\.minorUnits).reduce(0, +), total)
                XCTAssertLessThanOrEqual((shares.map(\.minorUnits).max() ?? 0) - (shares.map(\.minorUnits).min() ?? 0), 1)
            }
        }
    }
}

extension ExpenseSplitTests {
    func testASharedPurchaseIsConvertedWholeThenSplit() throws {
        let krw = Currency.krw, jpy = try XCTUnwrap(Currency.named("JPY"))
        let table = RateTable(try ECBRates.parse(Data("Date,JPY,KRW,\n2026-11-20,203,1930,\n".utf8)))
        let day = try XCTUnwrap(LocalDate(year: 2026, month: 11, day: 20))
        let whole = Money(minorUnits: 45_000, currency: krw)
        // Each half alone: 22,500 × 203 / 1,930 = 2,366.58 → 2,367, twice ¥4,734; the whole: 4,733.16 → ¥4,733.
        XCTAssertEqual(table.convert(Money(minorUnits: 22_500, currency: krw), to: jpy, on: day)?.minorUnits, 2367)
        let shares = ExpenseSplit.shares(of: whole, among: 2).enumerated().map { i, m in
            table.convert(m, share: PurchaseShare(total: whole, index: i, count: 2), to: jpy, on: day)?.minorUnits
        }
        XCTAssertEqual(shares, [2367, 2366])
        // Three ways, in the order the shares were made: they add up to the converted whole.
        let three = ExpenseSplit.shares(of: whole, among: 3).enumerated().compactMap { i, m in
            table.convert(m, share: PurchaseShare(total: whole, index: i, count: 3), to: jpy, on: day)?.minorUnits
        }
        XCTAssertEqual(three.reduce(0, +), 4733)
        // A share that is not the split it claims to be is converted on its own.
        XCTAssertEqual(table.convert(Money(minorUnits: 100, currency: krw), share: PurchaseShare(total: whole, index: 0, count: 2), to: jpy, on: day)?.minorUnits, 11)
    }
}

final class MediaSnifferTests: XCTestCase {
    func testImagesAreKnownByTheirFirstBytes() {
        let cases: [([UInt8], String?)] = [
            ([0xFF, 0xD8, 0xFF, 0xE1], "image/jpeg"), ([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A], "image/png"),
            (Array("GIF89a".utf8), "image/gif"), (Array("RIFF\0\0\0\0WEBPVP8 ".utf8), "image/webp"),
            ([0, 0, 0, 0x18] + Array("ftypheic".utf8), "image/heic"), ([0x49, 0x49, 0x2A, 0], "image/tiff"),
            (Array("BM".utf8) + [UInt8](repeating: 0, count: 14), "image/bmp"), (Array("P6\n2 2\n".utf8), "image/x-portable-anymap"),
            (Array("%PDF-1.4".utf8), nil), (Array("hello".utf8), nil), ([], nil), (Array("PNG".utf8), nil), (Array("P7 ".utf8), nil),
        ]
        for (bytes, expected) in cases { XCTAssertEqual(MediaSniffer.imageType(bytes), expected, "\(bytes)") }
        XCTAssertTrue(MediaSniffer.isPDF(Array("%PDF-1.7".utf8)))
    }
}
