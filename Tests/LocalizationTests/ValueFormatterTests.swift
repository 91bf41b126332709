import XCTest
import Localization
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
        XCTAssertEqual(ValueFormatter(L10n(.ko), unitSystem: .metric).money(Money(minorUnits: 123_456_789, currency: Currency.named("USD")!)), "$1,234,567.89")
    }

    func testMassesInEachUnitSystem() {
        XCTAssertEqual(en.mass(Mass(grams: 850)), "850 g")
        XCTAssertEqual(en.mass(Mass(grams: 4250)), "4.25 kg")
        XCTAssertEqual(en.mass(Mass(grams: 120_540)), "120.5 kg")
        let us = ValueFormatter(L10n(.en), unitSystem: .imperial)
        XCTAssertEqual(us.mass(Mass(grams: 4536)), "10 lb")
        XCTAssertEqual(us.mass(Mass(grams: 340)), "12 oz")
    }

    func testChangesAreSignedAndZeroIsPlusMinus() {
        XCTAssertEqual(en.massChange(MassChange(from: Mass(grams: 4000), to: Mass(grams: 3800))), "−200 g (-5 %)")
        XCTAssertEqual(en.massChange(MassChange(from: Mass(grams: 4000), to: Mass(grams: 5100))), "+1.1 kg (+27.5 %)")
        XCTAssertEqual(en.massChange(MassChange(from: Mass(grams: 4000), to: Mass(grams: 4000))), "±0")
        let usd = Currency.named("USD")!
        XCTAssertEqual(en.moneyChange(from: 1000, to: 123_456, usd), "+$1,224.56")
        XCTAssertEqual(en.moneyChange(from: 500, to: 250, usd), "−$2.50")
        XCTAssertEqual(en.moneyChange(from: 7, to: 7, usd), "±0")
        XCTAssertEqual(en.moneyChange(from: .min, to: .max, usd).first, "+")
    }

    func testMoneyGroupsThousands() {
        XCTAssertEqual(en.money(Money(minorUnits: 8_500_000, currency: Currency.named("KRW")!)), "₩8,500,000")
        XCTAssertEqual(en.money(Money(minorUnits: 1200, currency: Currency(code: "XTS", minorDigits: 2, symbol: nil))), "12.00 XTS")
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
