import Foundation
import XCTest
import PetlogTestSupport

final class MonthViewTests: CLITestCase {
    override func setUpWithError() throws {
        try super.setUpWithError()
        try demoHousehold("--end", "2026-11-20")
    }

    func testCalendarMarksDaysAndHighlightsToday() throws {
        // Korean locales start the week on Sunday; November 2026 starts on a Sunday.
        let ko = try run(["calendar", "Coco"], env: ["LANG": "ko_KR.UTF-8"])
        XCTAssertEqual(ko.status, 0, ko.stderr)
        let lines = ko.stdout.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        XCTAssertTrue(lines[0].contains("2026년 11월"), lines[0])
        XCTAssertTrue(lines[1].hasPrefix(" 일"), lines[1])
        XCTAssertTrue(lines[2].hasPrefix("  1 "), "the 1st is the first cell: \(lines[2])")
        XCTAssertTrue(ko.stdout.contains("[23]"), "today without colours is bracketed")
        let en = try ok("calendar", "Coco", "--month", "2026-10")
        let enLines = en.split(separator: "\n").map(String.init)
        XCTAssertTrue(enLines[1].hasPrefix(" Mon"), "C locale weeks start on Monday")
        XCTAssertTrue(en.contains("V visit"))
        let json = try XCTUnwrap(json("calendar", "Coco", "--month", "2026-10") as? [String: Any])
        let days = try XCTUnwrap(json["days"] as? [[String: Any]])
        XCTAssertEqual(days.count, 31)
        let oct12 = try XCTUnwrap(days.first { $0["date"] as? String == "2026-10-12" }?["kinds"] as? [String: Int])
        XCTAssertEqual(oct12["visit"], 1, "the demo's illness visit")
        XCTAssertEqual(try run(["calendar", "--month", "2026-13"]).status, 65)
    }

    func testStatsCompareTheMonthWithThePreviousOne() throws {
        // The demo spends in won; the C locale's home currency is the dollar, so say which currency to show.
        let out = try ok("stats", "Coco", "--month", "2026-10", "--currency", "KRW")
        XCTAssertTrue(out.contains("Oct 2026 against Sep 2026"), out)
        XCTAssertTrue(out.contains("Weight, Coco (last)"))
        XCTAssertTrue(out.contains("diarrhea"))
        XCTAssertTrue(out.contains("Spending (KRW)"))
        XCTAssertTrue(out.contains("Top merchants, Oct 2026"), out)
        XCTAssertTrue(out.contains("1. Happy Paws Clinic"), out)
        let json = try XCTUnwrap(json("stats", "Coco", "--month", "2026-10", "--currency", "KRW") as? [String: Any])
        let items = try XCTUnwrap(json["items"] as? [[String: Any]])
        let visits = try XCTUnwrap(items.first { $0["item"] as? String == "visits" })
        XCTAssertEqual(visits["this_month"] as? Int, 2, "illness visit and its follow-up")
        XCTAssertEqual(visits["previous_month"] as? Int, 0)
        let vet = try XCTUnwrap(items.first { $0["item"] as? String == "spending:KRW:vet" })
        // Visit costs are vet spending, each once: the illness visit (128,000) and its follow-up (35,000).
        XCTAssertEqual(vet["this_month"] as? Int, 163_000)
        XCTAssertEqual(vet["previous_month"] as? Int, 0)
        XCTAssertTrue(vet["percent_change"] is NSNull, "no percent of nothing")
        let food = try XCTUnwrap(items.first { $0["item"] as? String == "spending:KRW:food" })
        XCTAssertEqual(food["this_month"] as? Int, 48_000)
    }

    func testABadMonthIsCalledAMonthNotADay() throws {
        for args in [["calendar", "--month", "2026-13"], ["stats", "--month", "2026-13"], ["calendar", "--month", "13"], ["calendar", "--month", "2026-11-02"]] {
            let r = try expectRefused(args, code: 65, mentions: "is not a month")
            XCTAssertFalse(r.stderr.contains("day"), r.stderr)
        }
        try expectRefused(["--lang", "ko", "calendar", "--month", "2026-00"], code: 65, mentions: "올바른 월이 아닙니다")
    }
}
