import XCTest
@testable import PetModel

final class MicrochipTests: XCTestCase {
    func testDigitsOnlyNineToFifteen() throws {
        XCTAssertEqual(try Microchip.normalize("900 123 456 789 012"), "900123456789012")
        XCTAssertEqual(try Microchip.normalize("985-121-004"), "985121004")
        XCTAssertNil(try Microchip.normalize(" "))
        for bad in ["ABC123", "12345678", "1234567890123456", "９００１２３４５６７８９０１２", "900123456789012x"] {
            XCTAssertThrowsError(try Microchip.normalize(bad), bad)
        }
    }
}
