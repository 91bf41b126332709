import Foundation
import XCTest
@testable import PetModel

final class TimeWordsTests: XCTestCase {
    let context = TimeContext(now: ISO8601DateFormatter().date(from: "2026-11-23T01:00:00Z")!, timeZone: TimeZone(identifier: "Asia/Seoul")!)

    func testKoreanAndJapaneseWordsReadAsPetlogsOwn() {
        let cases: [(String, String)] = [
            ("오늘", "today"), ("今日", "today"), ("어제 18:00", "yesterday 18:00"), ("昨日 08:30", "yesterday 08:30"), ("내일", "tomorrow"),
            ("明日", "tomorrow"), ("지금", "now"), ("2주", "2w"), ("2週間", "2w"), ("3일 전", "-3d"), ("3日前", "-3d"), ("2주 후", "+2w"),
            ("2週間後", "+2w"), ("12시간", "12h"), ("30分", "30min"), ("6개월", "6m"), ("1년", "1y"), ("2ヶ月", "2m"), ("１８：００", "18:00"),
            ("2026-11-20", "2026-11-20"), ("Yesterday", "yesterday"), ("3일째", "3일째"),
        ]
        for (typed, canonical) in cases { XCTAssertEqual(TimeWords.canonical(typed), canonical, typed) }
    }

    func testTheParsersTakeThem() throws {
        XCTAssertEqual(try TimeParser.day("2주", context: context).description, "2026-12-07")
        XCTAssertEqual(try TimeParser.day("내일", context: context).description, "2026-11-24")
        XCTAssertEqual(try TimeParser.day("3日前", context: context).description, "2026-11-20")
        XCTAssertEqual(try Span.parse("2週間"), .days(14))
        let evening = try TimeParser.instant("어제 18:00", context: context)
        XCTAssertEqual(context.clock(of: evening).hour, 18)
        XCTAssertEqual(context.localDate(of: evening).description, "2026-11-22")
        XCTAssertThrowsError(try Span.parse("2주일"), "not a span petlog reads")
    }
}
