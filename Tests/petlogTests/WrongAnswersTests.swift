import Foundation
import XCTest
import PetlogTestSupport

/// The wrong answers outside testers found (issue 12): each test failed before its fix.
final class WrongAnswersTests: CLITestCase {
    func records(_ args: String...) throws -> [[String: Any]] {
        let r = try run(args + ["--json"])
        XCTAssertEqual(r.status, 0, r.stderr)
        return try XCTUnwrap(JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [[String: Any]], r.stdout)
    }

    // MARK: Symptom and vaccine names in en/ko/ja

    func testListedSymptomsAreKnownByTheirKoreanJapaneseAndAliasNames() throws {
        try ok("pet", "add", "Nabi", "--species", "cat")
        for name in ["구토", "嘔吐", "vomit", "ＶＯＭＩＴＩＮＧ", "Vomiting"] { try ok("symptom", "Nabi", name) }
        for name in ["食欲不振", "식욕 부진", "식욕부진", "Appetite loss", "loss of appetite"] { try ok("symptom", "Nabi", name) }
        try ok("symptom", "Nabi", "hiccups")
        let symptoms = try records("log", "Nabi", "--kind", "symptom").map(detail)
        let codes = symptoms.compactMap { $0["code"] as? String }
        XCTAssertEqual(codes.filter { $0 == "vomiting" }.count, 5, "\(codes)")
        XCTAssertEqual(codes.filter { $0 == "appetite-loss" }.count, 5, "\(codes)")
        XCTAssertEqual(symptoms.filter { ($0["listed"] as? Bool) == true }.count, 10, "\(symptoms)")
        XCTAssertTrue(codes.contains("hiccups"), "a genuinely new name is kept in the owner's words")

        // `search 구토` finds the records stored as the code.
        let found = try records("search", "구토")
        XCTAssertEqual(found.count, 5, "\(found.map(detail))")
        XCTAssertEqual(try records("search", "食欲").count, 5)

        // The report counts one symptom once, whatever name it was typed under.
        let pdf = home.appendingPathComponent("nabi.pdf").path
        try ok("--lang", "ko", "report", "Nabi", "-o", pdf)
        if FileManager.default.isExecutableFile(atPath: "/usr/bin/pdftotext") {
            let text = try pdfText(pdf)
            XCTAssertEqual(text.components(separatedBy: "구토").count - 1, 1, text)
        }
    }

    func testANameOneTypoFromAListedOneIsRefusedWithTheSuggestion() throws {
        try ok("pet", "add", "Nabi", "--species", "cat")
        try ok("symptom", "Nabi", "vomiting")
        try expectRefused(["symptom", "Nabi", "vomitting"], code: 65, mentions: "\"vomiting\"")
        try expectRefused(["symptom", "Nabi", "diarhea"], code: 65, mentions: "diarrhea")
        try expectRefused(["vaccine", "Nabi", "rabis"], code: 65, mentions: "rabies")
        // Short words are never guessed at (`bump` is not `lump`), and --as-written keeps the words.
        try ok("symptom", "Nabi", "bump")
        try ok("symptom", "Nabi", "vomitting", "--as-written")
        let codes = try records("log", "Nabi", "--kind", "symptom").map(detail).compactMap { $0["code"] as? String }
        XCTAssertEqual(Set(codes), ["vomiting", "bump", "vomitting"])
    }

    func testAVaccineByItsJapaneseNameSupersedesTheCodedDose() throws {
        try ok("pet", "add", "Maru", "--species", "ferret", "--born", "2020-03-01")
        try ok("vaccine", "Maru", "distemper", "--date", "2025-11-01")
        XCTAssertEqual(try run(["due", "--check"]).status, 1, "distemper overdue since 2026-11-01")
        try ok("vaccine", "Maru", "ジステンパー")
        let vaccines = try records("log", "Maru", "--kind", "vaccination").map(detail)
        XCTAssertEqual(vaccines.compactMap { $0["vaccine"] as? String }, ["distemper", "distemper"])
        let dueNow = try ok("due")
        XCTAssertEqual(try run(["due", "--check"]).status, 0, dueNow)

        try ok("pet", "add", "Coco", "--species", "dog", "--born", "2019-04-02")
        for name in ["da2pp", "DHPP", "종합백신", "混合ワクチン"] { try ok("vaccine", "Coco", name) }
        let coco = try records("log", "Coco", "--kind", "vaccination").map(detail)
        XCTAssertEqual(Set(coco.compactMap { $0["vaccine"] as? String }), ["dhpp"])
    }

    func testFreeTextVaccinesThatDifferOnlyInCaseAreOneVaccine() throws {
        try ok("pet", "add", "Coco", "--species", "dog", "--born", "2019-04-02")
        try ok("vaccine", "Coco", "Lyme Booster", "--date", "2025-10-01", "--next", "2026-10-01")
        try ok("vaccine", "Coco", "lyme booster", "--date", "2026-10-05", "--next", "2027-10-05")
        let items = try XCTUnwrap(json("due", "--within", "2y") as? [[String: Any]])
        XCTAssertEqual(items.count, 1, "\(items)")
        XCTAssertEqual(items.first?["overdue"] as? Bool, false)
        XCTAssertEqual(try run(["due", "--check"]).status, 0)
    }

    // MARK: Medication courses

    func testAFinishedCourseIsNoLongerCurrentAnywhere() throws {
        try ok("pet", "add", "Coco", "--species", "dog", "--born", "2019-04-02")
        try ok("med", "start", "Coco", "Amoxicillin", "--every", "12h", "--at", "2026-11-01 08:00", "--until", "2026-11-10")
        try ok("med", "start", "Coco", "Heartgard", "--every", "30d", "--at", "2026-11-20 09:00")
        try ok("med", "give", "Coco", "Heartgard", "--at", "2026-11-20 09:00")
        let dueNow = try ok("due")
        XCTAssertEqual(try run(["due", "--check"]).status, 0, dueNow)
        let due = try ok("due")
        XCTAssertFalse(due.contains("Amoxicillin"), due)
        let show = try ok("pet", "show", "Coco")
        XCTAssertFalse(show.contains("Amoxicillin"), show)
        XCTAssertTrue(show.contains("Heartgard"), show)
        XCTAssertFalse(try ok("med", "list").contains("Amoxicillin"))
        let all = try ok("med", "list", "--all")
        XCTAssertTrue(all.contains("Amoxicillin (ended)"), all)
        let listed = try records("med", "list", "--all")
        XCTAssertEqual(listed.map { $0["active"] as? Bool }, [false, true])
        try expectRefused(["med", "give", "Coco", "Amoxicillin"], code: 66, mentions: "Amoxicillin")
        // A dose given back then, during the course, is still recorded against it.
        try ok("med", "give", "Coco", "Amoxicillin", "--at", "2026-11-05 08:00")

        let pdf = home.appendingPathComponent("coco.pdf").path
        try ok("report", "Coco", "-o", pdf)
        if FileManager.default.isExecutableFile(atPath: "/usr/bin/pdftotext") {
            let text = try pdfText(pdf)
            XCTAssertTrue(text.contains("Nov 1, 2026 – Nov 10, 2026"), text)
            XCTAssertEqual(text.components(separatedBy: "ongoing").count - 1, 1, "only Heartgard is ongoing: \(text)")
        }
    }

    func testAnAmbiguousPrefixIsRefusedWithTheCandidates() throws {
        try ok("pet", "add", "Buddy", "--species", "dog")
        try ok("med", "start", "Buddy", "Heartgard", "--every", "30d")
        try ok("med", "start", "Buddy", "Heartgard Plus", "--every", "30d")
        let r = try expectRefused(["med", "give", "Buddy", "heart"], code: 65, mentions: "Heartgard Plus")
        XCTAssertTrue(r.stderr.contains("Heartgard, ") || r.stderr.contains(", Heartgard"), r.stderr)
        try expectRefused(["med", "stop", "Buddy", "heart"], code: 65, mentions: "Heartgard")
        // An exact name still wins over a prefix; a unique prefix still works.
        let given = try records("med", "give", "Buddy", "heartgard")
        XCTAssertEqual(detail(given[0])["medication"] as? String, "Heartgard")
        try ok("med", "give", "Buddy", "heartgard p")
        let doses = try records("log", "Buddy", "--kind", "dose").map(detail)
        XCTAssertEqual(doses.count, 2, "\(doses)")
    }

    // MARK: Spans and intervals

    func testSpansCountFromTheRecordsOwnDay() throws {
        try ok("pet", "add", "Coco", "--species", "dog", "--born", "2019-04-02")
        try ok("visit", "Coco", "--reason", "ear", "--at", "2026-11-01 10:00", "--follow-up", "2w")
        var visit = try records("log", "Coco", "--kind", "visit")
        XCTAssertEqual(detail(visit[0])["follow_up"] as? String, "2026-11-15")
        try ok("vaccine", "Coco", "rabies", "--at", "2026-01-10 10:00", "--next", "1y")
        try ok("med", "start", "Coco", "Eye drops", "--times", "08:00,20:00", "--at", "2026-11-01 08:00", "--until", "10d")
        let med = try records("log", "Coco", "--kind", "medication")
        XCTAssertEqual(detail(med[0])["ends_on"] as? String, "2026-11-11")
        let vac = try records("log", "Coco", "--kind", "vaccination")
        XCTAssertEqual(detail(vac[0])["next_due"] as? String, "2027-01-10")

        // Edits count from the record's day too (its new day when --at changes with them).
        let visitId = String(try XCTUnwrap(visit[0]["id"] as? Int))
        try ok("edit", visitId, "--follow-up", "1w")
        visit = try records("log", "Coco", "--kind", "visit")
        XCTAssertEqual(detail(visit[0])["follow_up"] as? String, "2026-11-08")
        try ok("edit", visitId, "--at", "2026-11-03 10:00", "--follow-up", "1w")
        visit = try records("log", "Coco", "--kind", "visit")
        XCTAssertEqual(detail(visit[0])["follow_up"] as? String, "2026-11-10")
        let vacId = String(try XCTUnwrap(vac[0]["id"] as? Int))
        try ok("edit", vacId, "--next", "3y")
        XCTAssertEqual(detail(try records("log", "Coco", "--kind", "vaccination")[0])["next_due"] as? String, "2029-01-10")
    }

    func testWholeDayIntervalsKeepTheLocalTimeAcrossDaylightSaving() throws {
        let env = ["TZ": "America/New_York", "PETLOG_NOW": "2026-11-20T12:00:00-05:00"]
        func r(_ args: String...) throws -> Result {
            let res = try run(Array(args), env: env)
            XCTAssertEqual(res.status, 0, res.stderr)
            return res
        }
        try r("pet", "add", "Coco", "--species", "dog")
        // 09:00 EDT on Oct 15; clocks go back on Nov 1: the next dose is 09:00 EST on Nov 14.
        try r("med", "start", "Coco", "Heartgard", "--every", "30d", "--at", "2026-10-15 09:00")
        try r("med", "give", "Coco", "Heartgard", "--at", "2026-10-15 09:00")
        // Hours stay exact elapsed time: 12 h after 21:00 EDT on Oct 31 is 08:00 EST on Nov 1.
        try r("med", "start", "Coco", "Drops", "--every", "12h", "--at", "2026-10-31 21:00", "--until", "2026-11-01")
        let list = try JSONSerialization.jsonObject(with: Data(try r("med", "list", "--all", "--json").stdout.utf8)) as? [[String: Any]] ?? []
        let next = Dictionary(uniqueKeysWithValues: list.map { (($0["medication"] as? [String: Any])?["name"] as? String ?? "", $0["next_dose"] as? String ?? "-") })
        XCTAssertEqual(next["Heartgard"], "2026-11-14T09:00:00-05:00", "\(list)")
        let items = try JSONSerialization.jsonObject(with: Data(try r("due", "--json").stdout.utf8)) as? [[String: Any]] ?? []
        XCTAssertEqual(items.first { $0["medication"] as? String == "Heartgard" }?["due_at"] as? String, "2026-11-14T09:00:00-05:00")
        let drops = try JSONSerialization.jsonObject(with: Data(try r("med", "list", "--all", "--json").stdout.utf8)) as? [[String: Any]] ?? []
        XCTAssertEqual(drops.first { (($0["medication"] as? [String: Any])?["name"] as? String) == "Drops" }?["doses_due"] as? Int, 3,
                       "21:00 EDT, 08:00 EST, 20:00 EST")
    }

    // MARK: Due wording

    func testLateDosesSayHowLateInWords() throws {
        try ok("pet", "add", "Coco", "--species", "dog")
        try ok("med", "start", "Coco", "Apoquel", "--every", "1d", "--at", "2026-11-22 22:00")
        try ok("med", "start", "Coco", "Drops", "--every", "1d", "--at", "2026-11-23 09:30")
        try ok("med", "start", "Coco", "Pill", "--every", "1d", "--at", "2026-11-20 08:00")
        for env in [["NO_COLOR": "1"], [:]] {
            let out = try run(["due"], env: env).stdout
            XCTAssertTrue(out.contains("12 h late"), out)
            XCTAssertTrue(out.contains("30 min late"), out)
            XCTAssertTrue(out.contains("3 d late"), out)
            XCTAssertFalse(out.contains("today 22:00") || out.contains("today 09:30"), out)
        }
        XCTAssertTrue(try run(["--lang", "ko", "due"]).stdout.contains("12시간 지남"))
        XCTAssertTrue(try run(["--lang", "ja", "due"]).stdout.contains("30分超過"))
    }

    // MARK: Report counts and plurals

    func testTheReportCountsMealsLikeStatsAndSaysOneMeal() throws {
        try ok("pet", "add", "Coco", "--species", "dog")
        for _ in 0..<3 { try ok("meal", "Coco", "water", "200ml", "--water") }
        try ok("meal", "Coco", "kibble", "80g", "--at", "2026-11-20 08:00")
        try ok("symptom", "Coco", "vomiting", "--severity", "4")
        let pdf = home.appendingPathComponent("coco.pdf").path
        let out = try ok("report", "Coco", "-o", pdf)
        XCTAssertTrue(out.contains("(1 page)") || out.contains("pages)"), out)
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/pdftotext") else { throw XCTSkip("pdftotext not installed") }
        let text = try pdfText(pdf).replacingOccurrences(of: "\n", with: " ")
        XCTAssertTrue(text.contains("1 meal (1 a day on 1 day with records), 0 snacks and treats"), text)
        XCTAssertTrue(text.contains("1 severe symptom episode (severity"), text)
        let stats = try XCTUnwrap(json("stats", "Coco") as? [String: Any])
        let items = try XCTUnwrap(stats["items"] as? [[String: Any]])
        XCTAssertEqual(items.first { $0["item"] as? String == "treats" }?["this_month"] as? Int, 0)
    }

    func testEnglishCountsAgreeWithTheirNouns() throws {
        try ok("pet", "add", "Coco", "--species", "dog")
        let csv = home.appendingPathComponent("one.csv").path
        try "date,weight_kg\n2026-11-01,4.2\n".write(toFile: csv, atomically: true, encoding: .utf8)
        XCTAssertTrue(try ok("import", csv, "--pet", "Coco").contains("Imported 1 record and 0 new pets"))
        let exported = home.appendingPathComponent("x.json").path
        let out = try run(["export", "-o", exported])
        XCTAssertTrue((out.stdout + out.stderr).contains("Exported 1 record to"), out.stdout + out.stderr)
        XCTAssertTrue(try ok("due", "--within", "1d").contains("next 1 day."))
    }

    // MARK: Vaccination schedule

    func testAnAdultsRoutineBoosterIsNotAPuppySeries() throws {
        try ok("pet", "add", "Coco", "--species", "dog", "--born", "2019-04-02")
        try ok("pet", "add", "Bori", "--species", "dog", "--born", "2026-09-01")
        try ok("pet", "add", "Nabi", "--species", "cat", "--born", "2018-05-01")
        try ok("vaccine", "Coco", "dhpp", "--date", "2026-11-20")
        try ok("vaccine", "Nabi", "fvrcp", "--date", "2026-11-20")
        try ok("vaccine", "Bori", "dhpp", "--date", "2026-11-20")
        func next(_ pet: String) throws -> [String] {
            try records("log", pet, "--kind", "vaccination").map(detail).compactMap { $0["next_due"] as? String }
        }
        XCTAssertEqual(try next("Coco"), ["2029-11-20"], "WSAVA: one MLV dose protects an adult; then every 3 years")
        XCTAssertEqual(try next("Nabi"), ["2029-11-20"])
        XCTAssertEqual(try next("Bori"), ["2026-12-11"], "a puppy's series goes on every 3 weeks")
        // --initial: an adult's first dose ever starts its initial course; --booster says it outright.
        try ok("pet", "add", "Max", "--species", "dog", "--born", "2020-01-01")
        try ok("vaccine", "Max", "dhpp", "--date", "2026-11-20", "--initial")
        try ok("vaccine", "Max", "lepto", "--date", "2026-11-20", "--booster")
        XCTAssertEqual(Set(try next("Max")), ["2026-12-11", "2027-11-20"])
        XCTAssertEqual(try run(["due", "Coco", "--check"]).status, 0)
    }

    // MARK: Imports and calendars

    func testColumnsNameTheRolesAndTheHeaderStillGivesTheUnit() throws {
        try ok("pet", "add", "Coco", "--species", "dog")
        for (name, header, value, grams) in [("a.csv", "Date,Weight (kg)", "4.2", 4200), ("b.csv", "date,weight_lb", "10", 4536),
                                             ("c.csv", "Date,Weight [g]", "4300", 4300)] {
            let path = home.appendingPathComponent(name).path
            try "\(header)\n2026-11-0\(grams % 7 + 1),\(value)\n".write(toFile: path, atomically: true, encoding: .utf8)
            let r = try run(["import", path, "--pet", "Coco", "--columns", "date,weight"])
            XCTAssertEqual(r.status, 0, "\(header): \(r.stderr)")
            let weights = try records("log", "Coco", "--kind", "weight").map(detail).compactMap { $0["grams"] as? Int }
            XCTAssertTrue(weights.contains(grams), "\(header): \(weights)")
        }
    }

    func testCalendarUIDsHoldIdsAndCodesOnly() throws {
        try ok("pet", "add", "Coco", "--species", "dog", "--born", "2019-04-02")
        try ok("vaccine", "Coco", "Lyme, booster; 2nd", "--date", "2025-12-01", "--next", "2026-12-01")
        try ok("vaccine", "Coco", "LYME, BOOSTER; 2ND", "--date", "2025-12-02", "--next", "2026-12-02")
        try ok("vaccine", "Coco", "rabies", "--date", "2025-12-01")
        try ok("visit", "Coco", "--reason", "ear, left", "--follow-up", "2026-12-01")
        try ok("med", "start", "Coco", "Eye drops, left", "--every", "1d")
        let ics = home.appendingPathComponent("due.ics").path
        try ok("due", "--within", "30d", "--ics", ics)
        let script = """
        import icalendar, re, sys
        cal = icalendar.Calendar.from_ical(open(sys.argv[1], 'rb').read())
        assert 'METHOD' not in cal or 'ORGANIZER' in str(cal.to_ical()), 'METHOD without ORGANIZER fails the iTIP check'
        events = list(cal.walk('VEVENT'))
        uids = [str(e['UID']) for e in events]
        for u in uids:
            assert re.fullmatch(r'petlog-(vaccine|medication|followup)-[0-9]+(-[a-z0-9-]+)?@petlog', u), u
        lyme = [e for e in events if 'lyme' in str(e['SUMMARY']).lower()]
        assert len(lyme) == 1, [str(e['SUMMARY']) for e in events]
        assert len(set(uids)) == len(uids) == 4, uids
        print(' '.join(sorted(uids)))
        """
        let r = try python(script, [ics], needs: ["icalendar"])
        XCTAssertEqual(r.status, 0, r.stdout + r.stderr)
        let raw = try String(contentsOfFile: ics, encoding: .utf8)
        XCTAssertFalse(raw.contains("METHOD:"), raw)
    }

}
