import XCTest
@testable import PetModel

/// A meal amount is typed as people type numbers: full-width, with a space, or in pounds and ounces.
final class AmountInputTests: XCTestCase {
    func testFullWidthSpacedAndImperialAmounts() throws {
        XCTAssertEqual(try Amount.parse("８０ｇ"), Amount(value: 80, unit: .g))
        XCTAssertEqual(try Amount.parse("80 g"), Amount(value: 80, unit: .g))
        XCTAssertEqual(try Amount.parse("１.２ｋｇ"), Amount(value: 1200, unit: .g))
        XCTAssertEqual(try Amount.parse("1 lb"), Amount(value: 454, unit: .g))
        XCTAssertEqual(try Amount.parse("1 lb 4 oz"), Amount(value: 567, unit: .g))
        XCTAssertEqual(try Amount.parse("２００ ｍｌ"), Amount(value: 200, unit: .ml))
        for bad in ["80 parsecs", "lb", "1000 lb", "-5g"] {
            XCTAssertThrowsError(try Amount.parse(bad), bad)
        }
    }
}
