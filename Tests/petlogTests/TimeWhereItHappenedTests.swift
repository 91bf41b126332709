import Foundation
import XCTest
import PetlogTestSupport

/// Issue 29, "Time where it happened": a record keeps the offset of the clock it happened on, and its
/// day, its exchange rate and its budget follow that clock whoever reads it from wherever. Each test
/// failed before the change.
final class TimeWhereItHappenedTests: CLITestCase {
    static let zones = ["America/Los_Angeles", "America/Chicago", "Europe/Berlin", "Asia/Tokyo", "Asia/Seoul"]

    func inZone(_ zone: String, now: String, _ args: [String], file: StaticString = #filePath, line: UInt = #line) throws -> String {
        let r = try run(args, env: ["TZ": zone, "PETLOG_NOW": now])
        XCTAssertEqual(r.status, 0, "\(zone) \(args): \(r.stderr)", file: file, line: line)
        return r.stdout
    }

    func jsonIn(_ zone: String, now: String, _ args: [String], file: StaticString = #filePath, line: UInt = #line) throws -> Any {
        let out = try inZone(zone, now: now, args + ["--json"], file: file, line: line)
        return try JSONSerialization.jsonObject(with: Data(out.utf8))
    }

    /// A command's `--json` output in `zone`, typed.
    func decodedIn<T: Decodable>(_ type: T.Type, _ zone: String, now: String, _ args: [String], file: StaticString = #filePath, line: UInt = #line) throws -> T {
        try JSONOutput.decode(type, try inZone(zone, now: now, args + ["--json"], file: file, line: line))
    }

    /// The records `log …` prints in `zone`, typed.
    func logIn(_ zone: String, now: String, _ args: String..., file: StaticString = #filePath, line: UInt = #line) throws -> [RecordOut] {
        try decodedIn([RecordOut].self, zone, now: now, ["log"] + args, file: file, line: line)
    }

    func importRates() throws {
        // 1 EUR = 1.05 USD and 150 JPY on Nov 19; 1.10 USD and 160 JPY on Nov 20.
        let file = home.appendingPathComponent("rates.json")
        try Data("""
        {"format": "petlog", "pets": [], "records": [], "rates": [
        {"day": "2026-11-19", "currency": "USD", "rate": "1.0500"}, {"day": "2026-11-19", "currency": "JPY", "rate": "150"},
        {"day": "2026-11-20", "currency": "USD", "rate": "1.1000"}, {"day": "2026-11-20", "currency": "JPY", "rate": "160"}]}
        """.utf8).write(to: file)
        try ok("import", file.path)
    }

    func lastRecord(_ zone: String, now: String) throws -> RecordOut {
        try XCTUnwrap(try logIn(zone, now: now).max { $0.id < $1.id })
    }

    // MARK: The model

    func testATypedOffsetIsKeptAndItsDayRateAndBudgetAreTheSameFromEveryZone() throws {
        let now = "2026-11-25T12:00:00-08:00"
        _ = try inZone("America/Los_Angeles", now: now, ["pet", "add", "Biscuit", "--species", "dog"])
        try importRates()
        // The first morning in Tokyo, typed with its offset, from a laptop still on Los Angeles time.
        _ = try inZone("America/Los_Angeles", now: now, ["expense", "Biscuit", "1980", "JPY", "--category", "transport",
                                                         "--at", "2026-11-20T08:00:00+09:00"])
        let stored = try lastRecord("America/Los_Angeles", now: now)
        XCTAssertEqual(stored.at, "2026-11-20T08:00:00+09:00")
        XCTAssertEqual(stored.utcOffsetSeconds, 32_400)
        _ = try inZone("America/Los_Angeles", now: now, ["budget", "set", "Biscuit", "300", "USD", "--from", "2026-11-20", "--to", "2026-11-29"])
        for zone in Self.zones {
            let list = try decodedIn(ExpenseListOut.self, zone, now: now, ["expense", "list", "--month", "2026-11", "--currency", "USD"])
            XCTAssertEqual(list.days.map(\.day), ["2026-11-20"], zone)
            // ¥1,980 at Nov 20's rate (160 JPY, 1.10 USD per euro): $13.61, from everywhere.
            XCTAssertEqual(list.entries.map { $0.converted?.minorUnits }, [1361], zone)
            let budgets = try decodedIn(BudgetShowOut.self, zone, now: now, ["budget", "show"]).budgets
            XCTAssertEqual(budgets.first?.spent?.minorUnits, 1361, "the trip's budget counts it, read from \(zone)")
        }
        // Shown at its own wall-clock time, with its offset where it differs from the reader's.
        let la = try inZone("America/Los_Angeles", now: now, ["log"])
        XCTAssertTrue(la.contains("8:00 AM +09:00"), la)
        let tokyo = try inZone("Asia/Tokyo", now: now, ["log"])
        XCTAssertTrue(tokyo.contains("8:00 AM") && !tokyo.contains("+09:00"), tokyo)
    }

    func testTheTimeZoneOptionEnvironmentAndConfigChooseTheClockOfNewEntriesAndToday() throws {
        let now = "2026-11-23T10:00:00+09:00" // Nov 22, 17:00 in Los Angeles
        _ = try inZone("America/Los_Angeles", now: now, ["pet", "add", "Biscuit", "--species", "dog"])
        func logged(_ args: [String], env: [String: String] = [:]) throws -> String? {
            var e = ["TZ": "America/Los_Angeles", "PETLOG_NOW": now]
            e.merge(env) { _, new in new }
            let r = try run(args, env: e)
            XCTAssertEqual(r.status, 0, r.stderr)
            return try lastRecord("America/Los_Angeles", now: now).at
        }
        XCTAssertEqual(try logged(["--tz", "Asia/Tokyo", "meal", "Biscuit", "kibble", "--at", "today 09:00"]), "2026-11-23T09:00:00+09:00")
        XCTAssertEqual(try logged(["meal", "Biscuit", "kibble", "--at", "today 09:00"]), "2026-11-22T09:00:00-08:00")
        XCTAssertEqual(try logged(["meal", "Biscuit", "kibble", "--at", "2026-11-21 09:00"], env: ["PETLOG_TZ": "Europe/Berlin"]), "2026-11-21T09:00:00+01:00")
        _ = try inZone("America/Los_Angeles", now: now, ["config", "set", "timezone", "America/Chicago"])
        XCTAssertEqual(try logged(["meal", "Biscuit", "kibble", "--at", "2026-11-21 09:00"]), "2026-11-21T09:00:00-06:00")
        XCTAssertEqual(try logged(["meal", "Biscuit", "kibble"], env: ["PETLOG_TZ": "Asia/Seoul"]), "2026-11-23T10:00:00+09:00", "now on Seoul's clock")
        try expectRefused(["--tz", "Mars/Olympus", "log"], code: 64, mentions: "Mars/Olympus")
    }

    // MARK: Every view by the record's own day

    func testATripAcrossTheDateLineKeepsEachRecordOnItsOwnDayInEveryView() throws {
        let now = "2026-11-24T12:00:00-08:00"
        _ = try inZone("Asia/Tokyo", now: now, ["pet", "add", "Biscuit", "--species", "dog"])
        // Weighed in Tokyo on the morning of the 23rd (22:00 UTC on the 22nd), then fed in Los Angeles on
        // the evening of the 22nd (04:00 UTC on the 23rd): a later instant on an earlier day.
        _ = try inZone("Asia/Tokyo", now: now, ["weight", "Biscuit", "12kg", "--at", "2026-11-23 07:00"])
        _ = try inZone("America/Los_Angeles", now: now, ["meal", "Biscuit", "kibble", "--at", "2026-11-22 20:00"])
        // And back: a stool in Tokyo on the 24th.
        _ = try inZone("Asia/Tokyo", now: now, ["stool", "Biscuit", "4", "--at", "2026-11-24T09:00:00+09:00"])
        for zone in Self.zones {
            let calendar = try XCTUnwrap(try jsonIn(zone, now: now, ["calendar", "--month", "2026-11"]) as? [String: Any])
            let days = try XCTUnwrap(calendar["days"] as? [[String: Any]])
            func kinds(_ d: String) -> [String: Int] { (days.first { $0["date"] as? String == d }?["kinds"] as? [String: Int]) ?? [:] }
            XCTAssertEqual(kinds("2026-11-22"), ["meal": 1], zone)
            XCTAssertEqual(kinds("2026-11-23"), ["weight": 1], zone)
            XCTAssertEqual(kinds("2026-11-24"), ["stool": 1], zone)
            XCTAssertEqual(try logIn(zone, now: now, "--since", "2026-11-23", "--until", "2026-11-23").map(\.kind), ["weight"], zone)
        }
        // The timeline reads in days: the 22nd (Los Angeles) before the 23rd (Tokyo), each at its own clock.
        let berlin = try inZone("Europe/Berlin", now: now, ["log"])
        let meal = try XCTUnwrap(berlin.range(of: "8:00 PM -08:00"), berlin)
        let weight = try XCTUnwrap(berlin.range(of: "7:00 AM +09:00"), berlin)
        XCTAssertLessThan(meal.lowerBound, weight.lowerBound, berlin)
        XCTAssertTrue(berlin.contains("Nov 22") && berlin.contains("Nov 23"), berlin)
    }

    // MARK: One rule for a wall-clock time that is not there or is there twice

    func testATimeInASpringForwardGapIsOneInstantOnEveryEntryPath() throws {
        let now = "2027-03-20T12:00:00-05:00"
        let env = ["TZ": "America/Chicago", "PETLOG_NOW": now]
        _ = try inZone("America/Chicago", now: now, ["pet", "add", "Coco", "--species", "dog"])
        _ = try inZone("America/Chicago", now: now, ["weight", "Coco", "4.2kg", "--at", "2027-03-14 02:30"])
        let csv = home.appendingPathComponent("scale.csv")
        try Data("date,weight_kg\n2027-03-14 02:30,4.3\n".utf8).write(to: csv)
        XCTAssertEqual(try run(["import", csv.path, "--pet", "Coco"], env: env).status, 0)
        _ = try inZone("America/Chicago", now: now, ["weight", "Coco", "4.4kg", "--at", "2027-03-15 09:00"])
        let third = try XCTUnwrap(try logIn("America/Chicago", now: now).last?.id)
        _ = try inZone("America/Chicago", now: now, ["edit", String(third), "--at", "2027-03-14 02:30"])
        // 02:30 never happened in Chicago that night: every path moves it forward by the hour, to 03:30 CDT.
        XCTAssertEqual(try logIn("America/Chicago", now: now).map(\.at), Array(repeating: "2027-03-14T03:30:00-05:00", count: 3))
        // 01:30 on the night clocks go back happens twice: the earlier, in daylight time, on every path.
        _ = try inZone("America/Chicago", now: "2027-11-10T12:00:00-06:00", ["weight", "Coco", "4.5kg", "--at", "2027-11-07 01:30"])
        let back = home.appendingPathComponent("back.csv")
        try Data("date,weight_kg\n2027-11-07 01:30,4.6\n".utf8).write(to: back)
        XCTAssertEqual(try run(["import", back.path, "--pet", "Coco"], env: ["TZ": "America/Chicago", "PETLOG_NOW": "2027-11-10T12:00:00-06:00"]).status, 0)
        XCTAssertEqual(try logIn("America/Chicago", now: "2027-11-10T12:00:00-06:00", "--since", "2027-11-07").map(\.at),
                       ["2027-11-07T01:30:00-05:00", "2027-11-07T01:30:00-05:00"])
        // Berlin springs forward at 02:00 too: the same rule there.
        _ = try inZone("Europe/Berlin", now: "2027-03-30T12:00:00+02:00", ["weight", "Coco", "4.7kg", "--at", "2027-03-28 02:30"])
        XCTAssertEqual(try logIn("Europe/Berlin", now: "2027-03-30T12:00:00+02:00", "--since", "2027-03-28", "--until", "2027-03-28").map(\.at),
                       ["2027-03-28T03:30:00+02:00"])
    }

    // MARK: The other answers that depended on time

    func testAtListedTimesTheFirstDoseIsTheNextListedTimeNotTheStart() throws {
        let now = "2026-11-23T10:30:00+09:00"
        _ = try inZone("Asia/Seoul", now: now, ["pet", "add", "Nabi", "--species", "cat"])
        _ = try inZone("Asia/Seoul", now: now, ["med", "start", "Nabi", "Eye drops", "--times", "08:00,20:00", "--until", "10d"])
        let r = try run(["due", "--check"], env: ["TZ": "Asia/Seoul", "PETLOG_NOW": now])
        XCTAssertEqual(r.status, 0, "nothing is due at 10:30: \(r.stdout)")
        let items = try XCTUnwrap(try jsonIn("Asia/Seoul", now: now, ["due"]) as? [[String: Any]])
        XCTAssertEqual(items.compactMap { $0["due_at"] as? String }, ["2026-11-23T20:00:00+09:00"])
        XCTAssertEqual(try run(["due", "--check"], env: ["TZ": "Asia/Seoul", "PETLOG_NOW": "2026-11-23T20:30:00+09:00"]).status, 1)
    }

    func testStatsOnTheLastDayOfAMonthAndOnALeapDayCompareTheSameDays() throws {
        _ = try inZone("America/Los_Angeles", now: "2026-11-30T18:00:00-08:00", ["pet", "add", "Coco", "--species", "dog"])
        for day in ["2026-10-15", "2026-10-31", "2026-11-15"] {
            _ = try inZone("America/Los_Angeles", now: "2026-11-30T18:00:00-08:00", ["meal", "Coco", "kibble", "--at", day + " 09:00"])
        }
        let nov = try XCTUnwrap(try jsonIn("America/Los_Angeles", now: "2026-11-30T18:00:00-08:00", ["stats"]) as? [String: Any])
        XCTAssertEqual(nov["same_days"] as? Bool, true)
        XCTAssertEqual((nov["previous_days"] as? [String: String])?["last"], "2026-10-30")
        let meals = (nov["items"] as? [[String: Any]])?.first { $0["item"] as? String == "meals" }
        XCTAssertEqual(meals?["this_month"] as? Int, 1)
        XCTAssertEqual(meals?["previous_month"] as? Int, 1, "Oct 31 is past the same days")
        let leap = try XCTUnwrap(try jsonIn("Asia/Tokyo", now: "2028-02-29T21:00:00+09:00", ["stats"]) as? [String: Any])
        XCTAssertEqual((leap["days"] as? [String: String])?["last"], "2028-02-29")
        XCTAssertEqual((leap["previous_days"] as? [String: String])?["last"], "2028-01-29")
    }

    func testEditAtMovesAComputedNextDueAndKeepsATypedOne() throws {
        let now = "2026-11-23T10:00:00+01:00"
        _ = try inZone("Europe/Berlin", now: now, ["pet", "add", "Coco", "--species", "dog", "--born", "2019-04-02"])
        _ = try inZone("Europe/Berlin", now: now, ["vaccine", "Coco", "rabies", "--date", "2026-11-14"])
        _ = try inZone("Europe/Berlin", now: now, ["vaccine", "Coco", "leptospirosis", "--date", "2026-11-14", "--next", "2027-12-01"])
        func nextDue() throws -> [String?] {
            try logIn("Europe/Berlin", now: now, "--kind", "vaccination").map { $0.detail["next_due"]?.string }
        }
        let before = try nextDue()
        let computed = try XCTUnwrap(before.first ?? nil)
        XCTAssertTrue(computed.hasSuffix("-11-14"), computed)
        let ids = try logIn("Europe/Berlin", now: now, "--kind", "vaccination").map(\.id)
        for id in ids { _ = try inZone("Europe/Berlin", now: now, ["edit", String(id), "--at", "2026-11-10"]) }
        let after = try nextDue()
        XCTAssertEqual(after, [String(computed.prefix(8)) + "10", "2027-12-01"], "the computed day moves with the dose; the typed one stays")
    }

    // MARK: The gaps closed after the merge of issue 32

    func testTheWeightChartsDaysAreEachWeightsOwnDay() throws {
        let now = "2026-11-25T12:00:00-08:00"
        _ = try inZone("America/Los_Angeles", now: now, ["pet", "add", "Biscuit", "--species", "dog"])
        // Nov 20 in Tokyo, still Nov 19 (15:00) in Los Angeles.
        _ = try inZone("America/Los_Angeles", now: now, ["weight", "Biscuit", "5kg", "--at", "2026-11-20T08:00:00+09:00"])
        _ = try inZone("America/Los_Angeles", now: now, ["weight", "Biscuit", "5.2kg", "--at", "2026-11-19T20:00:00-08:00"])
        for zone in Self.zones {
            let series = try XCTUnwrap(try jsonIn(zone, now: now, ["chart", "weight", "Biscuit", "--since", "2026-11-20", "--until", "2026-11-20"]) as? [[String: Any]])
            XCTAssertEqual(series.first?["count"] as? Int, 1, "only the Tokyo weight is on Nov 20, read from \(zone)")
            let before = try XCTUnwrap(try jsonIn(zone, now: now, ["chart", "weight", "Biscuit", "--until", "2026-11-19"]) as? [[String: Any]])
            XCTAssertEqual(before.first?["count"] as? Int, 1, "only the Los Angeles evening is on Nov 19, read from \(zone)")
        }
    }

    func testDueWithinAMonthCountsCalendarDaysFromToday() throws {
        let now = "2027-01-31T10:00:00+09:00"
        _ = try inZone("Asia/Tokyo", now: now, ["pet", "add", "Coco", "--species", "cat"])
        _ = try inZone("Asia/Tokyo", now: now, ["visit", "Coco", "--clinic", "Tenjin", "--follow-up", "2027-02-28"])
        _ = try inZone("Asia/Tokyo", now: now, ["visit", "Coco", "--clinic", "Tenjin", "--follow-up", "2027-03-01"])
        let items = try XCTUnwrap(try jsonIn("Asia/Tokyo", now: now, ["due", "--within", "1m"]) as? [[String: Any]])
        XCTAssertEqual(items.compactMap { $0["due_on"] as? String }, ["2027-02-28"], "a month from Jan 31 is Feb 28, not 30 days")
    }

    func testTheInTheFutureLimitUsesTheLanguagesClock() throws {
        let now = "2026-11-23T14:00:00+09:00"
        _ = try inZone("Asia/Seoul", now: now, ["pet", "add", "Coco", "--species", "cat"])
        func refused(_ lang: String) throws -> String {
            let r = try run(["weight", "Coco", "3kg", "--at", "tomorrow"], env: ["TZ": "Asia/Seoul", "PETLOG_NOW": now, "LANG": lang])
            XCTAssertEqual(r.status, 65, r.stderr)
            return r.stderr
        }
        XCTAssertTrue(try refused("en_US.UTF-8").contains("dated up to 2026-11-23 2:10 PM"))
        XCTAssertTrue(try refused("ko_KR.UTF-8").contains("2026-11-23 오후 2:10까지만"))
        XCTAssertTrue(try refused("ja_JP.UTF-8").contains("2026-11-23 14:10 までの日時"))
    }
}
