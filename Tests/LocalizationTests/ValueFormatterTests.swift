import XCTest
@testable import Localization
import PetModel

final class ValueFormatterTests: XCTestCase {
    let en = ValueFormatter(L10n(.en), unitSystem: .metric)

    func testThousandsAreGroupedByFoundation() {
        XCTAssertEqual(ValueFormatter.grouped(0), "0")
        XCTAssertEqual(ValueFormatter.grouped(999), "999")
        XCTAssertEqual(ValueFormatter.grouped(1000), "1,000")
        XCTAssertEqual(ValueFormatter.grouped(868_890), "868,890")
        XCTAssertEqual(ValueFormatter.grouped(-1234), "-1,234")
        XCTAssertEqual(ValueFormatter.grouped(Int64.max), "9,223,372,036,854,775,807")
        XCTAssertEqual(ValueFormatter(L10n(.ko), unitSystem: .metric).money(Money(minorUnits: 123_456_789, currency: Currency.named("USD")!)), "US$1,234,567.89")
    }

    /// Issue 30: chart axes and bar labels as Korean and Japanese owners read them (만/万, not `₩450k`),
    /// thousands grouped everywhere, and cut rather than rounded, as the spending calendar.
    func testChartAmountsCountInTenThousandsAndAreCut() {
        let ko = ValueFormatter(L10n(.ko), unitSystem: .metric), ja = ValueFormatter(L10n(.ja), unitSystem: .metric)
        let krw = Currency.krw, jpy = Currency.named("JPY")!, usd = Currency.named("USD")!
        XCTAssertEqual(ko.chartMoney(450_000, krw), "45만원")
        XCTAssertEqual(ko.chartMoney(455_900, krw), "45.5만원", "cut, not 45.6만")
        XCTAssertEqual(ko.chartMoney(1_234_567, krw), "123만원")
        XCTAssertEqual(ko.chartMoney(150_000_000, krw), "1.5억원")
        XCTAssertEqual(ko.chartMoney(6_600, krw), "6,600원")
        XCTAssertEqual(ko.chartMoney(0, krw), "0원")
        XCTAssertEqual(ja.chartMoney(24_000, jpy), "2.4万円")
        XCTAssertEqual(ja.chartMoney(23_708, jpy), "2.3万円", "23,708 yen is not 2.4万 (nor ¥24k)")
        XCTAssertEqual(ja.chartMoney(6_600, jpy), "6,600円")
        XCTAssertEqual(ja.chartMoney(120_000_000, jpy), "1.2億円")
        XCTAssertEqual(en.chartMoney(23_708, jpy), "¥23.7k")
        XCTAssertEqual(en.chartMoney(450_000, krw), "₩450k")
        XCTAssertEqual(en.chartMoney(2_000, usd), "$2,000", "grouped below 10,000 too")
        XCTAssertEqual(en.chartMoney(1_299_999.99, usd), "$1.2M", "cut")
        XCTAssertEqual(en.chartMoney(51.01, usd), "$51.01")
        XCTAssertEqual(en.chartMoney(0.3, usd), "$0.3", "a tick of 0.29999… is 0.3")
        XCTAssertEqual(en.chartMoney(-12.5, usd), "−$12.5")
        // Another currency in Korean or Japanese keeps its symbol in front, counted in 만/万.
        XCTAssertEqual(ko.chartMoney(12_000, usd), "US$1.2만", "the symbol money() writes in Korean")
        // Issue 42: the Korean legend said US$2,000.00 while the axis said $200.
        XCTAssertEqual(ko.chartMoney(200, usd), "US$200")
        XCTAssertTrue(ko.money(Money(minorUnits: 200_000, currency: usd)).hasPrefix("US$"))
        XCTAssertEqual(en.chartMoney(200, usd), "$200")
        XCTAssertEqual(ja.chartMoney(450_000, krw), "₩45万")
        XCTAssertEqual(en.chartMoney(.nan, usd), "")
    }

    /// Issue 29: clocks in each language's CLDR pattern (US English read `2:32 PM`, not `14:32`).
    func testClocksFollowTheLanguagesOwnPattern() {
        XCTAssertEqual(en.clock(hour: 14, minute: 32), "2:32 PM")
        XCTAssertEqual(en.clock(hour: 0, minute: 5), "12:05 AM")
        XCTAssertEqual(en.clock(hour: 12, minute: 0), "12:00 PM")
        let ko = ValueFormatter(L10n(.ko), unitSystem: .metric), ja = ValueFormatter(L10n(.ja), unitSystem: .metric)
        XCTAssertEqual(ko.clock(hour: 14, minute: 32), "오후 2:32")
        XCTAssertEqual(ko.clock(hour: 9, minute: 7), "오전 9:07")
        XCTAssertEqual(ja.clock(hour: 14, minute: 32), "14:32")
        XCTAssertEqual(ja.clock(hour: 8, minute: 5), "8:05")
    }

    func testMassesInEachUnitSystem() {
        XCTAssertEqual(en.mass(Mass(grams: 850)), "850 g")
        XCTAssertEqual(en.mass(Mass(grams: 4250)), "4.25 kg")
        XCTAssertEqual(en.mass(Mass(grams: 120_540)), "120.54 kg")
        let us = ValueFormatter(L10n(.en), unitSystem: .imperial)
        XCTAssertEqual(us.mass(Mass(grams: 4536)), "10.00 lb")
        XCTAssertEqual(us.mass(Mass(grams: 340)), "12.0 oz")
    }

    func testChangesAreSignedAndZeroIsPlusMinus() {
        XCTAssertEqual(en.massChange(MassChange(from: Mass(grams: 4000), to: Mass(grams: 3800))), "−200 g (−5 %)")
        XCTAssertEqual(en.massChange(MassChange(from: Mass(grams: 100000), to: Mass(grams: 99990))), "−10 g (0 %)", "a percentage that rounds to zero has no sign")
        XCTAssertEqual(en.massChange(MassChange(from: Mass(grams: 4000), to: Mass(grams: 5100))), "+1.10 kg (+27.5 %)")
        XCTAssertEqual(en.massChange(MassChange(from: Mass(grams: 4000), to: Mass(grams: 4000))), "±0")
        let usd = Currency.named("USD")!
        XCTAssertEqual(en.moneyChange(from: 1000, to: 123_456, usd), "+$1,224.56")
        XCTAssertEqual(en.moneyChange(from: 500, to: 250, usd), "−$2.50")
        XCTAssertEqual(en.moneyChange(from: 7, to: 7, usd), "±0")
        XCTAssertEqual(en.moneyChange(from: .min, to: .max, usd).first, "+")
    }

    func testMoneyGroupsThousands() {
        XCTAssertEqual(en.money(Money(minorUnits: 8_500_000, currency: Currency.named("KRW")!)), "₩8,500,000")
        XCTAssertEqual(en.money(Money(minorUnits: 1200, currency: Currency(code: "XTS", minorDigits: 2, symbol: nil))), "XTS\u{A0}12.00")
    }

    /// README, Decisions: "Money display". Per language × currency: 85,000 won / 1,200 yen / 12.50 of
    /// the others, its negative, zero, and 999,999,999,999.99-style amounts (the parser's largest).
    func testMoneyPerLanguageFollowsCLDRWithTheHomeCurrencyWord() {
        let nb = "\u{A0}"
        let table: [(Language, String, positive: String, negative: String, zero: String, huge: String)] = [
            (.en, "KRW", "₩85,000", "−₩85,000", "₩0", "₩99,999,999,999,999"),
            (.en, "JPY", "¥1,200", "−¥1,200", "¥0", "¥99,999,999,999,999"),
            (.en, "USD", "$12.50", "−$12.50", "$0.00", "$999,999,999,999.99"),
            (.en, "EUR", "€12.50", "−€12.50", "€0.00", "€999,999,999,999.99"),
            (.en, "CHF", "CHF\(nb)12.50", "−CHF\(nb)12.50", "CHF\(nb)0.00", "CHF\(nb)999,999,999,999.99"),
            (.ko, "KRW", "85,000원", "−85,000원", "0원", "99,999,999,999,999원"),
            (.ko, "JPY", "JP¥1,200", "−JP¥1,200", "JP¥0", "JP¥99,999,999,999,999"),
            (.ko, "USD", "US$12.50", "−US$12.50", "US$0.00", "US$999,999,999,999.99"),
            (.ko, "EUR", "€12.50", "−€12.50", "€0.00", "€999,999,999,999.99"),
            (.ko, "CHF", "CHF\(nb)12.50", "−CHF\(nb)12.50", "CHF\(nb)0.00", "CHF\(nb)999,999,999,999.99"),
            (.ja, "KRW", "₩85,000", "−₩85,000", "₩0", "₩99,999,999,999,999"),
            (.ja, "JPY", "1,200円", "−1,200円", "0円", "99,999,999,999,999円"),
            (.ja, "USD", "$12.50", "−$12.50", "$0.00", "$999,999,999,999.99"),
            (.ja, "EUR", "€12.50", "−€12.50", "€0.00", "€999,999,999,999.99"),
            (.ja, "CHF", "CHF\(nb)12.50", "−CHF\(nb)12.50", "CHF\(nb)0.00", "CHF\(nb)999,999,999,999.99"),
        ]
        for row in table {
            let f = ValueFormatter(L10n(row.0), unitSystem: .metric)
            let c = Currency.named(row.1)!
            let units: Int64 = c.minorDigits == 0 ? (c.code == "KRW" ? 85_000 : 1_200) : 1_250
            let label = "\(row.0) \(row.1)"
            XCTAssertEqual(f.money(Money(minorUnits: units, currency: c)), row.positive, label)
            XCTAssertEqual(f.money(Money(minorUnits: -units, currency: c)), row.negative, label)
            XCTAssertEqual(f.money(Money(minorUnits: 0, currency: c)), row.zero, label)
            XCTAssertEqual(f.money(Money(minorUnits: Money.maximumMinorUnits, currency: c)), row.huge, label)
        }
    }

    /// No amount goes through a Double: every digit of the Int64 limits survives, and nothing traps.
    func testMoneyAtTheInt64LimitsKeepsEveryDigit() {
        let ko = ValueFormatter(L10n(.ko), unitSystem: .metric), ja = ValueFormatter(L10n(.ja), unitSystem: .metric)
        let usd = Currency.named("USD")!, krw = Currency.named("KRW")!, jpy = Currency.named("JPY")!
        XCTAssertEqual(en.money(Money(minorUnits: .max, currency: usd)), "$92,233,720,368,547,758.07")
        XCTAssertEqual(en.money(Money(minorUnits: .min, currency: usd)), "−$92,233,720,368,547,758.08")
        XCTAssertEqual(ko.money(Money(minorUnits: .max, currency: krw)), "9,223,372,036,854,775,807원")
        XCTAssertEqual(ko.money(Money(minorUnits: .min, currency: krw)), "−9,223,372,036,854,775,808원")
        XCTAssertEqual(ja.money(Money(minorUnits: .min, currency: jpy)), "−9,223,372,036,854,775,808円")
        XCTAssertEqual(en.money(Money(minorUnits: 9_007_199_254_740_993, currency: krw)), "₩9,007,199,254,740,993", "2⁵³ + 1, which a Double cannot hold")
        XCTAssertEqual(en.money(Money(minorUnits: 1, currency: usd)), "$0.01")
        XCTAssertEqual(en.money(Money(minorUnits: -5, currency: usd)), "−$0.05")
        // A currency with three minor digits is shown with all three, not ICU's own number of digits.
        XCTAssertEqual(en.money(Money(minorUnits: 1_234_567, currency: Currency(code: "KRW", minorDigits: 3, symbol: nil))), "₩1,234.567")
    }

    func testMoneyChangePerLanguage() {
        let ko = ValueFormatter(L10n(.ko), unitSystem: .metric), ja = ValueFormatter(L10n(.ja), unitSystem: .metric)
        let usd = Currency.named("USD")!, krw = Currency.named("KRW")!, jpy = Currency.named("JPY")!, eur = Currency.named("EUR")!
        XCTAssertEqual(ko.moneyChange(from: 100_000, to: 185_000, krw), "+85,000원")
        XCTAssertEqual(ko.moneyChange(from: 185_000, to: 100_000, krw), "−85,000원")
        XCTAssertEqual(ko.moneyChange(from: 1_250, to: 0, usd), "−US$12.50")
        XCTAssertEqual(ja.moneyChange(from: 0, to: 1_200, jpy), "+1,200円")
        XCTAssertEqual(ja.moneyChange(from: 2_500, to: 1_250, usd), "−$12.50")
        XCTAssertEqual(en.moneyChange(from: 0, to: 85_000, krw), "+₩85,000")
        XCTAssertEqual(en.moneyChange(from: 1_250, to: 0, eur), "−€12.50")
        XCTAssertEqual(en.moneyChange(from: -1, to: 0, usd), "+$0.01")
        for f in [en, ko, ja] {
            for c in [usd, krw, jpy] {
                XCTAssertEqual(f.moneyChange(from: 0, to: 0, c), "±0")
                XCTAssertEqual(f.moneyChange(from: .min, to: .min, c), "±0")
                let small = f.moneyChange(from: 0, to: 1, c)
                XCTAssertFalse(small.hasPrefix("+0") || small.contains("−0") || small.contains("-"), small)
            }
        }
        // The whole Int64 range apart, exactly (the difference fits a UInt64).
        XCTAssertEqual(en.moneyChange(from: .min, to: .max, usd), "+$184,467,440,737,095,516.15")
        XCTAssertEqual(ko.moneyChange(from: .max, to: .min, krw), "−18,446,744,073,709,551,615원")
    }

    func testDatesAndAgesPerLanguage() {
        let day = LocalDate(year: 2026, month: 11, day: 20)!
        XCTAssertEqual(en.longDate(day), "Nov 20, 2026")
        XCTAssertEqual(ValueFormatter(L10n(.ko), unitSystem: .metric).longDate(day), "2026년 11월 20일")
        XCTAssertEqual(ValueFormatter(L10n(.ja), unitSystem: .metric).longDate(day), "2026年11月20日")
        XCTAssertEqual(en.weekday(day), L10n(.en).text(.weekdayFri))
        XCTAssertEqual(en.weekday(iso: 7), L10n(.en).text(.weekdaySun))
        XCTAssertEqual(en.age(months: 11), L10n(.en).text(.ageMonths(n: "11")))
        XCTAssertEqual(en.age(months: 30), L10n(.en).text(.ageYears(n: "2")))
        XCTAssertEqual(en.age(months: nil), "")
    }
}

final class MoneyPatternTests: XCTestCase {
    /// The learned pattern writes every amount exactly as Foundation's formatter does; so do those known from the start.
    func testThePatternAgreesWithFoundation() {
        XCTAssertEqual(ValueFormatter.knownPatterns.count, 12)
        var seed: UInt64 = 20261123
        func next() -> UInt64 { seed = seed &* 6364136223846793005 &+ 1442695040888963407; return seed >> 11 }
        for language in [Language.en, .ko, .ja] {
            let f = ValueFormatter(L10n(language), unitSystem: .metric)
            for code in ["KRW", "USD", "JPY", "EUR", "GBP", "CHF", "SEK"] {
                guard let c = Currency.named(code) else { continue }
                let learned = f.learnPattern(c, key: "test \(language) \(code)")
                XCTAssertNotNil(learned, "\(language) \(code)")
                // The patterns known from the start are what would be learned.
                if let known = ValueFormatter.knownPatterns["\(language.rawValue) \(code) \(c.minorDigits)"] {
                    XCTAssertEqual(known.text, learned?.text, "\(language) \(code)")
                }
                for magnitude in [0, 1, 9, 10, 999, 1000, 1_000_000, 999_999_999_999_99, UInt64(Int64.max)] + (0..<200).map({ _ in next() % 10_000_000_000 }) {
                    XCTAssertEqual(f.amount(magnitude, c), f.foundationAmount(magnitude, c), "\(language) \(code) \(magnitude)")
                }
            }
        }
    }
}

final class TrimTests: XCTestCase {
    /// The integer path writes what `String(format:)` writes, without trailing zeros.
    func testTrimAgreesWithTheCFormatter() {
        func reference(_ v: Double, _ digits: Int) -> String {
            var s = String(format: "%.\(digits)f", v)
            if s.contains(".") { while s.hasSuffix("0") { s.removeLast() }; if s.hasSuffix(".") { s.removeLast() } }
            return s == "-0" ? "0" : s  // trim never writes a negative zero
        }
        var seed: UInt64 = 7
        func next() -> Double { seed = seed &* 6364136223846793005 &+ 1442695040888963407; return Double(seed >> 11) / Double(1 << 53) }
        let values: [Double] = [0, 1, -1, 0.5, 1.5, 2.5, 0.125, 0.375, 4.25, 4.35, 99.995, 1e-9, -0.04, 123456.789, 1e15, 1e20, -2.675]
            + (0..<2000).map { _ in (next() - 0.3) * pow(10, Double(Int(next() * 8))) }
        for v in values {
            for d in 0...3 { XCTAssertEqual(ValueFormatter.trim(v, digits: d), reference(v, d), "\(v) \(d)") }
        }
    }
}
