import Foundation
import XCTest
import PetlogTestSupport

/// `due` around midnight and on the days clocks change, in zones other than the tests' Seoul (which has no daylight
/// saving time): what is today, what is overdue and when the next dose is, in Los Angeles (2026-03-08, 2026-11-01)
/// and Berlin (2026-03-29, 2026-10-25); and the days of records made in Seoul when `due` is read elsewhere.
final class DueOnTheClockTests: CLITestCase {
    func setUp(_ zone: String, now: String, _ args: String...) throws {
        let r = try run(args, env: ["TZ": zone, "PETLOG_NOW": now])
        XCTAssertEqual(r.status, 0, "\(args): \(r.stderr)")
    }

    /// `due`'s table and its `--json` items (keyed by what is due: a medication's name, else the kind) at `now` in `zone`.
    func due(_ zone: String, _ now: String, _ args: [String] = [], file: StaticString = #filePath, line: UInt = #line) throws
        -> (text: String, items: [String: [String: Any]]) {
        let env = ["TZ": zone, "PETLOG_NOW": now]
        let text = try run(["due"] + args, env: env)
        XCTAssertEqual(text.status, 0, text.stderr, file: file, line: line)
        let json = try run(["due", "--json"] + args, env: env)
        XCTAssertEqual(json.status, 0, json.stderr, file: file, line: line)
        let list = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [[String: Any]], json.stdout, file: file, line: line)
        var items: [String: [String: Any]] = [:]
        for i in list { items[(i["medication"] ?? i["vaccine"] ?? i["kind"]) as? String ?? "?"] = i }
        return (text.stdout, items)
    }

    /// The table's row of `what` (its When column first).
    func row(_ text: String, _ what: String) -> String {
        text.split(separator: "\n").first { $0.contains(what) }.map(String.init) ?? "(no row of \(what) in:\n\(text))"
    }

    func checkStatus(_ zone: String, _ now: String) throws -> Int32 {
        try run(["due", "--check"], env: ["TZ": zone, "PETLOG_NOW": now]).status
    }

    func testLosAngelesWhenTheClocksSpringForward() throws {
        let la = "America/Los_Angeles", setup = "2026-03-07T21:00:00-08:00"
        try setUp(la, now: setup, "pet", "add", "Coco", "--species", "dog", "--born", "2019-04-02")
        try setUp(la, now: setup, "med", "start", "Coco", "Apoquel", "--every", "1d", "--at", "2026-03-05 08:00")
        try setUp(la, now: setup, "med", "start", "Coco", "Drops", "--times", "02:30", "--at", "2026-03-05 00:00")
        try setUp(la, now: setup, "med", "start", "Coco", "Pill", "--every", "12h", "--at", "2026-03-05 08:00")
        try setUp(la, now: setup, "visit", "Coco", "--reason", "checkup", "--follow-up", "2026-03-08", "--at", "2026-03-05 10:00")
        try setUp(la, now: setup, "med", "give", "Coco", "Apoquel", "--at", "2026-03-07 08:05")
        try setUp(la, now: setup, "med", "give", "Coco", "Drops", "--at", "2026-03-07 02:35")
        try setUp(la, now: setup, "med", "give", "Coco", "Pill", "--at", "2026-03-07 20:00")

        // A minute before midnight the follow-up is tomorrow; the doses' times are on the day after the change.
        let eve = try due(la, "2026-03-07T23:59:00-08:00")
        XCTAssertTrue(row(eve.text, "follow-up").hasPrefix("in 1 d "), eve.text)
        // 02:30 does not happen that night: the dose is at 03:30 PDT. A daily dose keeps its wall-clock time (23 hours
        // later); a dose every 12 hours is 12 hours of elapsed time later (08:00 PST is 09:00 PDT).
        XCTAssertEqual(eve.items["Drops"]?["due_at"] as? String, "2026-03-08T03:30:00-07:00")
        XCTAssertEqual(eve.items["Apoquel"]?["due_at"] as? String, "2026-03-08T08:05:00-07:00")
        XCTAssertEqual(eve.items["Pill"]?["due_at"] as? String, "2026-03-08T09:00:00-07:00")
        XCTAssertEqual(eve.items.values.map { $0["overdue"] as? Bool }, Array(repeating: false, count: 4), eve.text)
        XCTAssertEqual(try checkStatus(la, "2026-03-07T23:59:00-08:00"), 0)

        // Half a minute after midnight (still PST): everything is today.
        let midnight = try due(la, "2026-03-08T00:00:30-08:00")
        XCTAssertTrue(row(midnight.text, "follow-up").hasPrefix("today "), midnight.text)
        XCTAssertTrue(row(midnight.text, "Drops").hasPrefix("today 3:30 AM "), midnight.text)
        XCTAssertEqual(midnight.items["follow_up"]?["due_on"] as? String, "2026-03-08")

        // 03:20 PDT is 20 minutes after the clocks jumped: nothing is late yet; at 03:31 the drops are, by a minute.
        XCTAssertEqual(try checkStatus(la, "2026-03-08T03:20:00-07:00"), 0)
        XCTAssertEqual(try checkStatus(la, "2026-03-08T03:31:00-07:00"), 1)
        let late = try due(la, "2026-03-08T03:31:00-07:00")
        XCTAssertTrue(row(late.text, "Drops").hasPrefix("1 min late "), late.text)
        XCTAssertTrue(row(late.text, "Apoquel").hasPrefix("today 8:05 AM "), late.text)
        XCTAssertEqual(late.items["Drops"]?["overdue"] as? Bool, true)
        XCTAssertEqual(late.items["follow_up"]?["overdue"] as? Bool, false)

        // The next midnight: the follow-up is a day late, the daily dose 15 h 55 min.
        let after = try due(la, "2026-03-09T00:00:30-07:00")
        XCTAssertTrue(row(after.text, "follow-up").hasPrefix("1 d late "), after.text)
        XCTAssertTrue(row(after.text, "Apoquel").hasPrefix("15 h late "), after.text)
        XCTAssertEqual(after.items["follow_up"]?["overdue"] as? Bool, true)
    }

    func testLosAngelesWhenTheClocksFallBack() throws {
        let la = "America/Los_Angeles", setup = "2026-10-31T21:00:00-07:00"
        try setUp(la, now: setup, "pet", "add", "Coco", "--species", "dog", "--born", "2019-04-02")
        try setUp(la, now: setup, "med", "start", "Coco", "Apoquel", "--every", "1d", "--at", "2026-10-29 08:00")
        try setUp(la, now: setup, "med", "start", "Coco", "Drops", "--times", "01:30", "--at", "2026-10-29 00:00")
        try setUp(la, now: setup, "med", "start", "Coco", "Pill", "--every", "12h", "--at", "2026-10-29 08:00")
        try setUp(la, now: setup, "visit", "Coco", "--reason", "checkup", "--follow-up", "2026-11-01", "--at", "2026-10-29 10:00")
        try setUp(la, now: setup, "med", "give", "Coco", "Apoquel", "--at", "2026-10-31 08:00")
        try setUp(la, now: setup, "med", "give", "Coco", "Drops", "--at", "2026-10-31 01:30")
        try setUp(la, now: setup, "med", "give", "Coco", "Pill", "--at", "2026-10-31 20:00")

        let midnight = try due(la, "2026-11-01T00:00:30-07:00")
        // 01:30 happens twice: the dose is the first (PDT). The daily dose keeps 08:00 (25 hours later); 12 hours after
        // 20:00 PDT is 07:00 PST.
        XCTAssertEqual(midnight.items["Drops"]?["due_at"] as? String, "2026-11-01T01:30:00-07:00")
        XCTAssertEqual(midnight.items["Apoquel"]?["due_at"] as? String, "2026-11-01T08:00:00-08:00")
        XCTAssertEqual(midnight.items["Pill"]?["due_at"] as? String, "2026-11-01T07:00:00-08:00")
        XCTAssertTrue(row(midnight.text, "follow-up").hasPrefix("today "), midnight.text)
        XCTAssertTrue(row(midnight.text, "Drops").hasPrefix("today 1:30 AM "), midnight.text)
        XCTAssertEqual(try checkStatus(la, "2026-11-01T00:00:30-07:00"), 0)

        // 01:15 PST, the second time the clock reads 1:15: the 01:30 PDT dose was 45 minutes ago.
        let again = try due(la, "2026-11-01T01:15:00-08:00")
        XCTAssertTrue(row(again.text, "Drops").hasPrefix("45 min late "), again.text)
        XCTAssertEqual(again.items["Drops"]?["overdue"] as? Bool, true)
        XCTAssertEqual(again.items["Pill"]?["overdue"] as? Bool, false)
        XCTAssertEqual(try checkStatus(la, "2026-11-01T01:15:00-08:00"), 1)

        // The 25-hour day ends at midnight PST: a minute before it the follow-up is still today, half a minute after it
        // a day late.
        let last = try due(la, "2026-11-01T23:59:00-08:00")
        XCTAssertTrue(row(last.text, "follow-up").hasPrefix("today "), last.text)
        XCTAssertEqual(last.items["follow_up"]?["overdue"] as? Bool, false)
        let next = try due(la, "2026-11-02T00:00:30-08:00")
        XCTAssertTrue(row(next.text, "follow-up").hasPrefix("1 d late "), next.text)
        XCTAssertEqual(next.items["follow_up"]?["overdue"] as? Bool, true)
    }

    func testBerlinAroundMidnightOnBothChanges() throws {
        let berlin = "Europe/Berlin", setup = "2026-03-27T12:00:00+01:00"
        try setUp(berlin, now: setup, "pet", "add", "Coco", "--species", "dog", "--born", "2019-04-02")
        try setUp(berlin, now: setup, "vaccine", "Coco", "leptospirosis", "--date", "2025-11-20", "--next", "2026-10-25")
        try setUp(berlin, now: setup, "med", "start", "Coco", "Drops", "--times", "02:30", "--at", "2026-03-27 00:00")
        try setUp(berlin, now: setup, "med", "give", "Coco", "Drops", "--at", "2026-03-27 02:30")
        // Berlin springs forward at 02:00 on 2026-03-29: the 02:30 dose is 03:30 CEST.
        try setUp(berlin, now: "2026-03-28T12:00:00+01:00", "med", "give", "Coco", "Drops", "--at", "2026-03-28 02:30")
        let spring = try due(berlin, "2026-03-29T00:00:30+01:00")
        XCTAssertEqual(spring.items["Drops"]?["due_at"] as? String, "2026-03-29T03:30:00+02:00")
        XCTAssertTrue(row(spring.text, "Drops").hasPrefix("today 3:30 AM "), spring.text)

        // The vaccine due on the day clocks go back (03:00 CEST becomes 02:00 CET).
        let eve = try due(berlin, "2026-10-24T23:59:30+02:00", ["--within", "1y"])
        XCTAssertTrue(row(eve.text, "Leptospirosis").hasPrefix("in 1 d "), eve.text)
        for now in ["2026-10-25T00:00:30+02:00", "2026-10-25T02:30:00+01:00", "2026-10-25T23:59:00+01:00"] {
            let day = try due(berlin, now, ["--within", "1y"])
            XCTAssertTrue(row(day.text, "Leptospirosis").hasPrefix("today "), "\(now): \(day.text)")
            XCTAssertEqual(day.items["leptospirosis"]?["overdue"] as? Bool, false, now)
        }
        let late = try due(berlin, "2026-10-26T00:00:30+01:00", ["--within", "1y"])
        XCTAssertTrue(row(late.text, "Leptospirosis").hasPrefix("1 d late "), late.text)
        XCTAssertEqual(late.items["leptospirosis"]?["overdue"] as? Bool, true)
    }

    /// Issue 29's rule in `due`: a record's day is the day on its own clock. Two visits on one Seoul day (09:00 and
    /// 20:00) fall on two days in Los Angeles; the second visit does not answer the first's follow-up from anywhere,
    /// and the day a vaccine was given is the day the timeline shows it on.
    func testRecordsMadeInSeoulKeepTheirDaysWhenDueIsReadElsewhere() throws {
        let seoul = "Asia/Seoul", now = "2026-11-20T12:00:00+09:00"
        try setUp(seoul, now: now, "pet", "add", "Coco", "--species", "dog", "--born", "2019-04-02")
        try setUp(seoul, now: now, "visit", "Coco", "--reason", "checkup", "--follow-up", "2026-11-25", "--at", "2026-11-10 09:00")
        try setUp(seoul, now: now, "visit", "Coco", "--reason", "nails", "--at", "2026-11-10 20:00")
        try setUp(seoul, now: now, "groom", "Coco", "bath", "--next", "2026-11-24", "--at", "2026-11-12 09:00")
        try setUp(seoul, now: now, "groom", "Coco", "nails", "--at", "2026-11-12 20:00")
        try setUp(seoul, now: now, "vaccine", "Coco", "leptospirosis", "--date", "2026-11-01", "--next", "2026-12-01")
        for zone in [seoul, "America/Los_Angeles", "Europe/Berlin"] {
            let d = try due(zone, now, ["--within", "60d"])
            XCTAssertEqual(Set(d.items.keys), ["follow_up", "next_grooming", "leptospirosis"], "\(zone): \(d.text)")
            XCTAssertTrue(row(d.text, "follow-up").hasSuffix("2026-11-25  2026-11-10"), "\(zone): \(d.text)")
            XCTAssertTrue(row(d.text, "next grooming").hasSuffix("2026-11-24  2026-11-12"), "\(zone): \(d.text)")
            // Given at noon in Seoul on Nov 1 (Oct 31, 8 PM in Los Angeles): Nov 1, at its own offset.
            XCTAssertTrue(row(d.text, "Leptospirosis").hasSuffix("2026-12-01  2026-11-01"), "\(zone): \(d.text)")
            XCTAssertEqual(d.items["leptospirosis"]?["last_done"] as? String, "2026-11-01T12:00:00+09:00", zone)
            XCTAssertEqual(d.items["follow_up"]?["last_done"] as? String, "2026-11-10T09:00:00+09:00", zone)
        }
        // The calendar file says the same day.
        let ics = home.appendingPathComponent("due.ics")
        XCTAssertEqual(try run(["due", "--within", "60d", "--ics", ics.path], env: ["TZ": "America/Los_Angeles", "PETLOG_NOW": now]).status, 0)
        let text = try String(contentsOf: ics, encoding: .utf8).replacingOccurrences(of: "\r\n ", with: "")
        XCTAssertTrue(text.contains("2026-11-01") && !text.contains("2026-10-31"), text)
    }
}
