import XCTest
@testable import PetModel

final class MassTests: XCTestCase {
    func testUnitsConvertExactlyToGrams() throws {
        XCTAssertEqual(try Mass.parse("4.2kg").grams, 4200)
        XCTAssertEqual(try Mass.parse("4200g").grams, 4200)
        XCTAssertEqual(try Mass.parse("4.2 kg").grams, 4200)
        XCTAssertEqual(try Mass.parse("9.3lb").grams, 4218)        // 9.3 × 453.59237 = 4218.39
        XCTAssertEqual(try Mass.parse("9lb 4oz").grams, 4196)      // 4082.33 + 113.40
        XCTAssertEqual(try Mass.parse("9 lb 4 oz").grams, 4196)
        XCTAssertEqual(try Mass.parse("12oz").grams, 340)
        XCTAssertEqual(try Mass.parse("1000kg").grams, 1_000_000)
        XCTAssertEqual(try Mass.parse("4.2", defaultUnit: .kilogram).grams, 4200)
        XCTAssertEqual(try Mass.parse("10", defaultUnit: .pound).grams, 4536)
    }

    func testRejectsWhatIsNotAWeight() {
        for bad in ["nan", "inf", "1e309", "0x1p3", "-3kg", "4.2", "4..2kg", "4.kg", "kg", "", "4,2kg", "4.2 stone", "4kg 3g", "9oz 4lb", "1e3g"] {
            XCTAssertThrowsError(try Mass.parse(bad), bad)
        }
    }

    func testRejectsAbsurdWeights() {
        for bad in ["0kg", "0.0001g", "1000.001kg", "999999999999999kg", "2500lb"] {
            XCTAssertThrowsError(try Mass.parse(bad), bad) { error in
                XCTAssertTrue([ParseError.massOutOfRange(bad), ParseError.notANumber(bad)].contains(error as? ParseError), "\(bad): \(error)")
            }
        }
    }

    /// Found by fuzzing: the rounding step of the unit conversion overflowed Int64 and trapped.
    func testHugeValuesNearInt64AreOutOfRangeNotACrash() {
        for bad in ["922337.2036854kg", "922337.2036854 kg", "9223372.036854kg", "9lb 922337.2036854oz"] {
            XCTAssertThrowsError(try Mass.parse(bad), bad) { error in
                XCTAssertTrue([ParseError.massOutOfRange(bad), ParseError.badMass(bad)].contains(error as? ParseError), "\(bad): \(error)")
            }
        }
    }

    /// Found by fuzzing: grams were rounded twice (to milligrams, then to grams), so 1.002 lb,
    /// 454.49955 g, was stored as 455 g.
    func testGramsAreRoundedOnceFromTheExactValue() throws {
        XCTAssertEqual(try Mass.parse("1.002lb").grams, 454)
        XCTAssertEqual(try Mass.parse("1.002", defaultUnit: .pound).grams, 454)
        // Whole grams are kept: a fraction of a gram is refused, never rounded (issue 42: 0.5g was stored as 1 g).
        XCTAssertThrowsError(try Mass.parse("1.4995g")) { XCTAssertEqual($0 as? ParseError, .massTooFine("1.4995g", grams: 1)) }
        XCTAssertThrowsError(try Mass.parse("0.4995g"))          // 0 g
        XCTAssertThrowsError(try Mass.parse("1.5g")) { XCTAssertEqual($0 as? ParseError, .massTooFine("1.5g", grams: 2)) }
        XCTAssertThrowsError(try Mass.parse("0.5g")) { XCTAssertEqual($0 as? ParseError, .massTooFine("0.5g", grams: 1)) }
        XCTAssertEqual(try Mass.parse("2.0g").grams, 2)
        // In kg, lb and oz the grams keep the typed digits or the unit's shown precision (0.01 kg, 0.01 lb, 0.1 oz).
        XCTAssertEqual(try Mass.parse("12.35oz").grams, 350)
        XCTAssertEqual(try Mass.parse("1.00oz").grams, 28)
        XCTAssertEqual(try Mass.parse("4.2500kg").grams, 4250)
        XCTAssertEqual(try Mass.parse("0lb 0.5oz").grams, 14)   // 14.17 g
        XCTAssertEqual(try Mass.parse("2.2046226218lb").grams, 1000)
    }

    func testTrailingFractionZerosDoNotOverflow() throws {
        XCTAssertEqual(try Mass.parse("1.00000000000000oz").grams, 28)
        XCTAssertEqual(try Mass.parse("4.20000000000000kg").grams, 4200)
        XCTAssertEqual(try Mass.parse("9lb 4.000000000oz").grams, 4196)
    }
}

final class MoneyTests: XCTestCase {
    func testParsesWithoutFloats() throws {
        XCTAssertEqual(try Money.parse("12.50 USD"), Money(minorUnits: 1250, currency: Currency.named("USD")!))
        XCTAssertEqual(try Money.parse("$12.50").minorUnits, 1250)
        XCTAssertEqual(try Money.parse("85000KRW").minorUnits, 85000)
        XCTAssertEqual(try Money.parse("₩45,000").minorUnits, 45000)
        XCTAssertEqual(try Money.parse("¥1200").currency.code, "JPY")
        XCTAssertEqual(try Money.parse("12,50 EUR", decimalComma: true).minorUnits, 1250)
        XCTAssertEqual(try Money.parse("1,234,567.89 USD").minorUnits, 123_456_789)
        XCTAssertEqual(try Money.parse("0.1 USD").minorUnits, 10)
        XCTAssertEqual(try Money.parse("19.99", defaultCurrency: Currency.named("USD")).minorUnits, 1999)
    }

    func testRefusesMoreDigitsThanTheCurrencyHas() {
        XCTAssertThrowsError(try Money.parse("100.5KRW")) { XCTAssertEqual($0 as? ParseError, .tooManyFractionDigits("100.5KRW", currency: "KRW", allowed: 0)) }
        XCTAssertThrowsError(try Money.parse("¥12.5"))
        XCTAssertThrowsError(try Money.parse("12.345 USD"))
    }

    func testRejectsMalformedAmounts() {
        for bad in ["12.50", "abc USD", "-5 USD", "1,23 USD", "12.5.0 USD", "NaN USD", "1e3 USD", "$12.50 KRW", "12 XXX", "99999999999999999 USD"] {
            XCTAssertThrowsError(try Money.parse(bad), bad)
        }
    }

    func testDecimalString() {
        XCTAssertEqual(Money(minorUnits: 1205, currency: Currency.named("USD")!).decimalString, "12.05")
        XCTAssertEqual(Money(minorUnits: 45000, currency: Currency.named("KRW")!).decimalString, "45000")
        // What is left of an overspent budget is negative: its sign, its fraction, never a trap.
        XCTAssertEqual(Money(minorUnits: -16351, currency: Currency.named("USD")!).decimalString, "-163.51")
        XCTAssertEqual(Money(minorUnits: -51, currency: Currency.named("USD")!).decimalString, "-0.51")
        XCTAssertEqual(Money(minorUnits: -5, currency: Currency.named("USD")!).decimalString, "-0.05")
        XCTAssertEqual(Money(minorUnits: -45000, currency: Currency.named("KRW")!).decimalString, "-45000")
        XCTAssertEqual(Money(minorUnits: -1, currency: Currency.named("BHD")!).decimalString, "-0.001")
        XCTAssertEqual(Money(minorUnits: .min, currency: Currency.named("USD")!).decimalString, "-92233720368547758.08")
    }
}
