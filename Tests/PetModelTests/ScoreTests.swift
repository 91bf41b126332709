import XCTest
@testable import PetModel

final class ScoreTests: XCTestCase {
    func testEachScaleTakesExactlyItsRange() {
        XCTAssertEqual(StoolScore.all.map(\.value), Array(1...7))
        XCTAssertEqual(BodyConditionScore.all.map(\.value), Array(1...9))
        XCTAssertEqual(SymptomSeverity.all.map(\.value), Array(1...5))
        for v in [Int.min, -1, 0, 8, 9, 100, Int.max] { XCTAssertNil(StoolScore(v), "\(v)") }
        for v in [0, 10, -9] { XCTAssertNil(BodyConditionScore(v), "\(v)") }
        for v in [0, 6, -1] { XCTAssertNil(SymptomSeverity(v), "\(v)") }
    }

    func testParseRefusesWithTheFieldAndTheTextAsTyped() {
        XCTAssertEqual(try StoolScore.parse("４", field: "score").value, 4)
        XCTAssertEqual(try BodyConditionScore.parse(" 9 ", field: "--bcs").value, 9)
        for raw in ["8", "0", "-1", "3.5", "three", "", "1e1", "0x3", "9999999"] {
            XCTAssertThrowsError(try StoolScore.parse(raw, field: "score"), raw) { error in
                XCTAssertEqual(error as? ParseError, .outOfRange(field: "score", value: raw, min: 1, max: 7))
            }
        }
        XCTAssertThrowsError(try SymptomSeverity.parse("6", field: "--severity")) { error in
            XCTAssertEqual(error as? ParseError, .outOfRange(field: "--severity", value: "6", min: 1, max: 5))
        }
        XCTAssertThrowsError(try BodyConditionScore(10, field: "body_condition")) { error in
            XCTAssertEqual(error as? ParseError, .outOfRange(field: "body_condition", value: "10", min: 1, max: 9))
        }
    }

    func testRecordsHoldOnlyValidatedScores() {
        let stool = Stool(score: StoolScore(clamping: 12))
        XCTAssertEqual(stool.score, 7, "clamping (generated values only) lands on the scale")
        XCTAssertEqual(Symptom(code: "x", isListed: false, severity: .lowest).severity, 1)
        XCTAssertNil(Weight(mass: Mass(grams: 10)).bodyCondition)
        XCTAssertEqual(Weight(mass: Mass(grams: 10), bodyCondition: BodyConditionScore(5)).bodyCondition, 5)
    }
}
