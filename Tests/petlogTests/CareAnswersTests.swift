import Foundation
import XCTest

/// The care answers of issue 42 that went wrong in plain use: each test failed before its fix.
final class CareAnswersTests: CLITestCase {
    static let american = ["LANG": "en_US.UTF-8"], posix = ["LANG": "C"]
    static let korean = ["LANG": "ko_KR.UTF-8"], japanese = ["LANG": "ja_JP.UTF-8"]

    func records(_ args: [String], env: [String: String] = [:]) throws -> [[String: Any]] {
        let r = try run(args + ["--json"], env: env)
        XCTAssertEqual(r.status, 0, r.stderr)
        return try XCTUnwrap(JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [[String: Any]], r.stdout)
    }

    func detail(_ record: [String: Any]) -> [String: Any] {
        (record[record["kind"] as? String ?? ""] as? [String: Any]) ?? [:]
    }

    /// The next due days of `pet`'s vaccinations, oldest first.
    func nextDue(_ pet: String) throws -> [String] {
        try records(["log", pet, "--kind", "vaccination"]).sorted { ($0["id"] as? Int ?? 0) < ($1["id"] as? Int ?? 0) }
            .map { detail($0)["next_due"] as? String ?? "-" }
    }

    // MARK: Vaccine series past 16 weeks

    /// A 17-week-old kitten's or puppy's first recorded core dose is its initial course, not a three-yearly booster.
    func testASeventeenWeekOldsFirstCoreDoseIsFollowedByItsCourseAndFirstBooster() throws {
        // Now is 2026-11-23: born 2026-07-26, they are 17 weeks old.
        try ok("pet", "add", "Tama", "--species", "cat", "--born", "2026-07-26")
        try ok("pet", "add", "Bori", "--species", "dog", "--born", "2026-07-26")
        let tama = try run(["vaccine", "Tama", "fvrcp"], env: Self.american)
        XCTAssertEqual(tama.status, 0, tama.stderr)
        XCTAssertTrue(tama.stdout.contains("2026-12-14"), "a second FHV/FCV dose three weeks later: \(tama.stdout)")
        XCTAssertTrue(try ok("vaccine", "Bori", "dhpp").contains("2027-01-24"), "the first booster at 26 weeks")
        // The whole course, each dose given on the day petlog said: born 2026-05-01, first dose at 17 weeks.
        try ok("pet", "add", "Kit", "--species", "cat", "--born", "2026-05-01")
        try ok("pet", "add", "Pup", "--species", "dog", "--born", "2026-05-01")
        for day in ["2026-08-28", "2026-09-18", "2026-10-30"] { try ok("vaccine", "Kit", "fvrcp", "--date", day) }
        XCTAssertEqual(try nextDue("Kit"), ["2026-09-18", "2026-10-30", "2029-10-30"])
        for day in ["2026-08-28", "2026-10-30"] { try ok("vaccine", "Pup", "dhpp", "--date", day) }
        XCTAssertEqual(try nextDue("Pup"), ["2026-10-30", "2029-10-30"])
    }
}
