import Foundation
import XCTest
import PetlogTestSupport

/// A trip's budget (issue 30): a name, a place and a headcount, its figures per person, day by day
/// (`budget show ID --daily`), edited, undone, exported and imported; run as a US traveller in Seoul
/// (now 2026-11-23 10:00) planning ten days in Tokyo.
final class TripBudgetTests: CLITestCase {
    override func setUpWithError() throws {
        try super.setUpWithError()
        try ok("pet", "add", "Coco", "--species", "dog")
    }

    func minor(_ o: Any?, _ key: String) -> Int? { ((o as? [String: Any])?[key] as? [String: Any])?["minor_units"] as? Int }

    func listed() throws -> [[String: Any]] { try XCTUnwrap(try json("budget", "list") as? [[String: Any]]) }

    /// The trip: US$2,000.00 for Dec 20–29, two people; rates on Dec 20: 1 EUR = 1.0000 USD = 150 JPY.
    func planTrip() throws {
        let rates = home.appendingPathComponent("rates.json")
        try Data("""
        {"format": "petlog", "pets": [], "records": [], "rates": [
        {"day": "2026-12-20", "currency": "USD", "rate": "1.0000"}, {"day": "2026-12-20", "currency": "JPY", "rate": "150"}]}
        """.utf8).write(to: rates)
        try ok("import", rates.path)
        let out = try ok("budget", "set", "2000", "USD", "--from", "2026-12-20", "--to", "2026-12-29", "--name", "Japan trip", "--place", "Tokyo", "--people", "2")
        XCTAssertTrue(out.contains("Budget #1 set: Japan trip · Tokyo · 2 people · Household · $2,000.00"), out)
    }

    /// Dec 20: US$300.00 (the pet's flight) and ¥15,000 (US$100.00); Dec 22: US$51.01; Dec 27 (booked ahead): US$200.00.
    func spendOnTheTrip() throws {
        let during = ["PETLOG_NOW": "2026-12-24T10:00:00+09:00"]
        for args in [["expense", "Coco", "300", "USD", "--category", "transport", "--at", "2026-12-20 09:00"],
                     ["expense", "Coco", "15000", "JPY", "--category", "food", "--at", "2026-12-20 19:00"],
                     ["expense", "51.01", "USD", "--category", "supplies", "--at", "2026-12-22 12:00"],
                     ["expense", "200", "USD", "--category", "boarding", "--at", "2026-12-27 12:00"]] {
            let r = try run(args, env: during)
            XCTAssertEqual(r.status, 0, "\(args): \(r.stderr)")
        }
    }

    func testATripHasANamePlaceAndPeopleAndIsShownPerPerson() throws {
        try planTrip()
        let b = try XCTUnwrap(try listed().first)
        XCTAssertEqual(b["name"] as? String, "Japan trip")
        XCTAssertEqual(b["place"] as? String, "Tokyo")
        XCTAssertEqual(b["people"] as? Int, 2)
        XCTAssertEqual(b["standing"] as? String, "upcoming")
        let list = try ok("budget", "list")
        XCTAssertTrue(list.contains("Japan trip · Tokyo · 2 people"), list)
        XCTAssertTrue(list.contains("Name"), list)
        try spendOnTheTrip()
        let r = try run(["budget", "show", "--date", "2026-12-24", "--json"])
        XCTAssertEqual(r.status, 0, r.stderr)
        let shown = try XCTUnwrap(((try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any])?["budgets"] as? [[String: Any]])?.first)
        XCTAssertEqual(minor(shown, "spent"), 45_101, "300 + 100 + 51.01 through the 24th; the 27th is still ahead")
        XCTAssertEqual(minor(shown, "left"), 154_899)
        XCTAssertEqual(shown["days_left"] as? Int, 6, "the 24th through the 29th")
        let perPerson = try XCTUnwrap(shown["per_person"] as? [String: Any])
        XCTAssertEqual(perPerson["people"] as? Int, 2)
        XCTAssertEqual(minor(perPerson, "budget"), 100_000)
        XCTAssertEqual(minor(perPerson, "spent"), 22_550, "45,101 / 2 rounded down")
        XCTAssertEqual(minor(perPerson, "left"), 77_450)
        XCTAssertEqual(minor(perPerson, "per_day"), 12_908, "77,450 / 6 rounded down")
        let text = try ok("budget", "show", "--date", "2026-12-24")
        XCTAssertTrue(text.contains("Per person (÷2): Spent $225.50 of $1,000.00 · $774.50 left · $129.08 a day"), text)
        for (lang, words) in [("ko", ["1인당 (÷2)", "2명", "Japan trip · Tokyo"]), ("ja", ["1人あたり（÷2）", "2人", "Japan trip・Tokyo・2人"])] {
            let out = try run(["--lang", lang, "budget", "show", "--date", "2026-12-24"])
            XCTAssertEqual(out.status, 0, out.stderr)
            for w in words { XCTAssertTrue(out.stdout.contains(w), "\(lang): \(w) in \(out.stdout)") }
        }
        // --per-pet stays what it was: the amount per pet, beside the per-person line.
        try ok("budget", "set", "2000", "USD", "--from", "2026-12-20", "--to", "2026-12-29", "--per-pet")
        let again = try XCTUnwrap(try listed().first)
        XCTAssertEqual(again["name"] as? String, "Japan trip", "setting the same scope again keeps what it does not give")
        XCTAssertEqual(again["per_pet"] as? Bool, true)
        // A budget without people has no per-person figures.
        try ok("budget", "set", "300000", "KRW")
        let monthly = try XCTUnwrap(try listed().first { $0["period"] as? String == "monthly" })
        XCTAssertTrue(monthly["people"] is NSNull && monthly["name"] is NSNull)
        let r2 = try run(["budget", "show", "--json"])
        let shownNow = try XCTUnwrap((try JSONSerialization.jsonObject(with: Data(r2.stdout.utf8)) as? [String: Any])?["budgets"] as? [[String: Any]])
        XCTAssertTrue(try XCTUnwrap(shownNow.first { $0["period"] as? String == "monthly" })["per_person"] is NSNull)
        XCTAssertNotNil(shownNow.first { $0["period"] as? String == "days" }?["per_person"] as? [String: Any])
    }

    func testATableWithoutNamesLooksAsBefore() throws {
        try ok("budget", "set", "300000", "KRW")
        let list = try ok("budget", "list")
        XCTAssertFalse(list.contains("Name"), list)
        XCTAssertTrue(list.split(separator: "\n").first?.hasPrefix("#  For") == true, list)
    }

    func testEditChangesNamePlaceAndPeopleAndUndoBringsThemBack() throws {
        try planTrip()
        XCTAssertTrue(try ok("budget", "edit", "1", "--place", "Osaka", "--people", "3").contains("Budget #1 changed: Japan trip · Osaka · 3 people"))
        XCTAssertTrue(try ok("budget", "edit", "1", "--place", "Osaka").contains("Budget #1 is already so"))
        XCTAssertTrue(try ok("budget", "edit", "1", "--name", "", "--people", "").contains("Budget #1 changed: Osaka · Household"))
        var b = try XCTUnwrap(try listed().first)
        XCTAssertTrue(b["name"] is NSNull && b["people"] is NSNull)
        XCTAssertEqual(b["place"] as? String, "Osaka")
        try ok("undo")
        b = try XCTUnwrap(try listed().first)
        XCTAssertEqual(b["name"] as? String, "Japan trip")
        XCTAssertEqual(b["people"] as? Int, 3)
        try ok("undo")
        b = try XCTUnwrap(try listed().first)
        XCTAssertEqual(b["place"] as? String, "Tokyo")
        XCTAssertEqual(b["people"] as? Int, 2)
        try ok("undo")
        XCTAssertEqual(try listed().count, 0, "undoing the set removes the budget")
        let ko = try run(["--lang", "ko", "budget", "list"])
        XCTAssertTrue(ko.stdout.contains("아직 예산이 없습니다"), ko.stdout)
    }

    func testATripsDaysMoveWithEditCheckedAsBudgetSetChecksThem() throws {
        try planTrip()
        try ok("budget", "set", "300", "USD")   // #2, monthly
        XCTAssertTrue(try ok("budget", "edit", "1", "--from", "2026-12-21", "--to", "2026-12-31").contains("Budget #1 changed: Japan trip · Tokyo · 2 people · Household · $2,000.00 · Dec 21, 2026 – Dec 31, 2026"))
        var b = try XCTUnwrap(try listed().first { $0["id"] as? Int == 1 })
        XCTAssertEqual([b["from"] as? String, b["to"] as? String], ["2026-12-21", "2026-12-31"])
        XCTAssertTrue(try ok("budget", "edit", "1", "--to", "2026-12-31").contains("Budget #1 is already so"))
        try ok("budget", "edit", "1", "--to", "2026-12-28")
        b = try XCTUnwrap(try listed().first { $0["id"] as? Int == 1 })
        XCTAssertEqual([b["from"] as? String, b["to"] as? String], ["2026-12-21", "2026-12-28"])
        try expectRefused(["budget", "edit", "1", "--to", "2026-12-01"], code: 65, mentions: "the budget ends (--to 2026-12-01) before it starts (--from 2026-12-21)")
        try expectRefused(["budget", "edit", "1", "--from", "someday"], code: 65, mentions: "someday")
        try expectRefused(["budget", "edit", "2", "--from", "2026-12-01"], code: 65, mentions: "budget #2 is a monthly budget")
        try expectRefused(["budget", "edit", "9", "--to", "2026-12-30"], code: 66, mentions: "9")
        try ok("budget", "set", "100", "USD", "--from", "2027-01-01", "--to", "2027-01-05")   // #3
        try expectRefused(["budget", "edit", "3", "--from", "2026-12-21", "--to", "2026-12-28"], code: 65, mentions: "budget #1 already covers 2026-12-21 – 2026-12-28")
        try ok("undo")
        try ok("undo")
        b = try XCTUnwrap(try listed().first { $0["id"] as? Int == 1 })
        XCTAssertEqual([b["from"] as? String, b["to"] as? String], ["2026-12-21", "2026-12-31"], "undo puts the days back")
    }

    func testANumberThatIsABudgetsIdShowsThatBudget() throws {
        try planTrip()
        // `budget list` calls it #1; `budget show 1` is that budget (upcoming: not in force on Nov 23), not pet #1's.
        let shown = try XCTUnwrap((try json("budget", "show", "1") as? [String: Any])?["budgets"] as? [[String: Any]])
        XCTAssertEqual(shown.compactMap { $0["id"] as? Int }, [1])
        XCTAssertTrue(try ok("budget", "show", "1").contains("#1 Japan trip · Tokyo"))
        // A pet by name says whose budget it looked for; a number that is neither says both.
        XCTAssertTrue(try ok("budget", "show", "Coco").contains("No budget for Coco in force on Nov 23, 2026"))
        try expectRefused(["budget", "show", "9"], code: 66, mentions: "no budget #9 and no pet with id 9")
        let ko = try run(["--lang", "ko", "budget", "show", "Coco"])
        XCTAssertTrue(ko.stdout.contains("Coco의 예산이 없습니다"), ko.stdout)
    }

    func testRefusalsWriteNothing() throws {
        try planTrip()
        try expectRefused(["budget", "set", "100", "USD", "--people", "0"], code: 65, mentions: "--people")
        try expectRefused(["budget", "set", "100", "USD", "--people", "two"], code: 65, mentions: "two")
        try expectRefused(["budget", "set", "100", "USD", "--people", "1001"], code: 65, mentions: "1000")
        try expectRefused(["budget", "set", "100", "USD", "--name", "  "], code: 65, mentions: "--name")
        try expectRefused(["budget", "set", "100", "USD", "--place", "Tok\u{1B}[2Jyo"], code: 65, mentions: "--place")
        try expectRefused(["budget", "set", "100", "USD", "--name", String(repeating: "x", count: 201)], code: 65, mentions: "200")
        try expectRefused(["budget", "edit", "1"], code: 64, mentions: "--name, --place, --people, --from or --to")
        try expectRefused(["budget", "edit", "9", "--name", "x"], code: 66, mentions: "9")
        try expectRefused(["budget", "edit", "1", "--people", "2.5"], code: 65, mentions: "2.5")
        try expectRefused(["budget", "show", "Coco", "--daily"], code: 64, mentions: "budget show ID --daily")
        try expectRefused(["budget", "show", "--daily"], code: 64, mentions: "--daily")
        try expectRefused(["budget", "show", "7", "--daily"], code: 66, mentions: "7")
        try expectRefused(["--lang", "ko", "budget", "set", "100", "USD", "--people", "0"], code: 65, mentions: "인원")
        try expectRefused(["--lang", "ja", "budget", "edit", "1"], code: 64, mentions: "いずれか")
        try ok("budget", "set", "1", "USD", "--from", "2026-01-01", "--to", "2099-12-31")
        try expectRefused(["budget", "show", "2", "--daily"], code: 65, mentions: "3,660")
        XCTAssertEqual(try listed().count, 2)
    }

    func testDailyListsEveryDayWithTheRunningTotal() throws {
        try planTrip()
        try spendOnTheTrip()
        let r = try run(["budget", "show", "1", "--daily", "--date", "2026-12-24", "--json"])
        XCTAssertEqual(r.status, 0, r.stderr)
        let o = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any])
        XCTAssertEqual(o["name"] as? String, "Japan trip")
        XCTAssertEqual(o["first_day"] as? String, "2026-12-20")
        XCTAssertEqual(minor(o, "budget_per_person"), 100_000)
        let days = try XCTUnwrap(o["days"] as? [[String: Any]])
        XCTAssertEqual(days.map { $0["day"] as? String }, (20...29).map { "2026-12-\($0)" })
        XCTAssertEqual(days.map { minor($0, "spent") }, [40_000, 0, 5_101, 0, 0, 0, 0, 20_000, 0, 0])
        XCTAssertEqual(days.map { minor($0, "total") }, [40_000, 40_000, 45_101, 45_101, 45_101, 45_101, 45_101, 65_101, 65_101, 65_101])
        XCTAssertEqual(days.map { $0["expenses"] as? Int }, [2, 0, 1, 0, 0, 0, 0, 1, 0, 0])
        XCTAssertEqual(days.map { $0["ahead"] as? Bool }, [false, false, false, false, false, true, true, true, true, true], "after the 24th")
        XCTAssertEqual(minor(days[4], "left"), 154_899)
        XCTAssertEqual(minor(days[2]["per_person"], "left"), 100_000 - 22_550)
        XCTAssertEqual(minor(days[0]["per_person"], "spent"), 20_000)
        let text = try ok("budget", "show", "1", "--daily", "--date", "2026-12-24")
        let lines = text.split(separator: "\n").map(String.init)
        XCTAssertTrue(lines[0].hasPrefix("Budget #1 day by day: Japan trip · Tokyo · 2 people"), text)
        XCTAssertTrue(lines.contains { $0.contains("Dec 20") && $0.contains("$400.00") && $0.contains("$1,600.00") && $0.contains("$200.00") }, text)
        XCTAssertTrue(lines.contains { $0.contains("Dec 24") && $0.contains("today") }, text)
        XCTAssertTrue(lines.contains { $0.contains("Dec 27") && $0.contains("ahead") }, text)
        XCTAssertEqual(lines.filter { $0.hasPrefix("Dec ") }.count, 10, text)
        for (lang, words) in [("ko", ["날짜별", "12월 20일", "누계", "오늘", "예정"]), ("ja", ["日ごと", "12月20日", "累計", "今日", "予定"])] {
            let out = try run(["--lang", lang, "budget", "show", "1", "--daily", "--date", "2026-12-24"])
            XCTAssertEqual(out.status, 0, out.stderr)
            for w in words { XCTAssertTrue(out.stdout.contains(w), "\(lang): \(w) in \(out.stdout)") }
        }
        // Over budget on a day: said in words.
        XCTAssertEqual(try run(["expense", "2000", "USD", "--at", "2026-12-21 10:00"], env: ["PETLOG_NOW": "2026-12-24T10:00:00+09:00"]).status, 0)
        XCTAssertTrue(try ok("budget", "show", "1", "--daily", "--date", "2026-12-24").contains("over by $651.01"))
        // A monthly budget's --daily lists its month as of the day.
        try ok("budget", "set", "300000", "KRW")
        let month = try XCTUnwrap(try json("budget", "show", "2", "--daily") as? [String: Any])
        XCTAssertEqual((month["days"] as? [Any])?.count, 30)
    }

    func testNamePlaceAndPeopleSurviveExportAndImportInJSONAndCSV() throws {
        try planTrip()
        try ok("budget", "set", "Coco", "50000", "KRW", "--name", "=HYPERLINK(\"x\") 코코's \"food\"", "--place", "서울 $(rm -rf ~)")
        let before = try listed().map { [$0["name"] as? String, $0["place"] as? String, ($0["people"] as? Int).map(String.init)] }
        let jsonFile = home.appendingPathComponent("all.json").path
        try ok("export", "-o", jsonFile)
        let exported = try XCTUnwrap((try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: jsonFile))) as? [String: Any])?["budgets"] as? [[String: Any]])
        XCTAssertEqual(exported.first?["name"] as? String, "Japan trip")
        XCTAssertEqual(exported.first?["people"] as? Int, 2)
        let csv = home.appendingPathComponent("csv").path
        try ok("export", "--format", "csv", "-o", csv)
        let budgetCSV = try String(contentsOfFile: csv + "/budget.csv", encoding: .utf8)
        XCTAssertTrue(budgetCSV.hasPrefix("id,pet_id,amount_minor,currency,first_day,last_day,category,per_pet,name,place,people"), budgetCSV)
        XCTAssertFalse(budgetCSV.contains(",=HYPERLINK"), "the formula guard: \(budgetCSV)")
        for (i, source) in [jsonFile, csv].enumerated() {
            let other = home.appendingPathComponent("other\(i)/petlog.sqlite").path
            let r = try run(["--db", other, "import", source], useDefaultDB: true)
            XCTAssertEqual(r.status, 0, r.stderr)
            let back = try run(["--db", other, "budget", "list", "--json"], useDefaultDB: true)
            let after = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(back.stdout.utf8)) as? [[String: Any]])
                .map { [$0["name"] as? String, $0["place"] as? String, ($0["people"] as? Int).map(String.init)] }
            XCTAssertEqual(after, before, source)
        }
        // An older file without the keys imports with none.
        let old = home.appendingPathComponent("old.json")
        try Data("""
        {"format": "petlog", "pets": [], "records": [], "budgets": [{"id": 5, "pet_id": null, "money": {"minor_units": 100, "currency": "USD"}, "first_day": null, "last_day": null, "category": "food", "per_pet": false}]}
        """.utf8).write(to: old)
        try ok("import", old.path)
        XCTAssertTrue(try listed().contains { $0["category"] as? String == "food" && $0["name"] is NSNull })
        // A bad headcount in a file is refused with its place.
        let bad = home.appendingPathComponent("bad.json")
        try Data("""
        {"format": "petlog", "pets": [], "records": [], "budgets": [{"id": 6, "pet_id": null, "money": {"minor_units": 100, "currency": "USD"}, "first_day": null, "last_day": null, "category": "vet", "per_pet": false, "people": 0}]}
        """.utf8).write(to: bad)
        let r = try run(["import", bad.path])
        XCTAssertEqual(r.status, 65, r.stderr)
        XCTAssertTrue(r.stderr.contains("people"), r.stderr)
    }

    func testCheckFindsANameNoCommandWouldStore() throws {
        try requireDatabaseFile()
        try planTrip()
        XCTAssertEqual(try run(["check"]).status, 0)
        _ = try tool("sqlite3", [dbPath, "UPDATE budget SET name = 'Japan' || char(27) || '[2J' WHERE id = 1"])
        let r = try run(["check"])
        XCTAssertNotEqual(r.status, 0)
        XCTAssertTrue(r.stdout.contains("budget") || r.stderr.contains("budget"), r.stdout + r.stderr)
    }

    func testTheTripChartDrawsItsDaysWithTheDailyShare() throws {
        try planTrip()
        try spendOnTheTrip()
        let during = ["PETLOG_NOW": "2026-12-24T10:00:00+09:00"]
        let r = try run(["chart", "expenses", "--budget", "1", "--json"], env: during)
        XCTAssertEqual(r.status, 0, r.stderr)
        let o = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any])
        XCTAssertEqual(o["currency"] as? String, "USD", "the budget's own currency")
        XCTAssertEqual(o["days"] as? [String], (20...29).map { "2026-12-\($0)" })
        let stacks = try XCTUnwrap(o["stacks"] as? [[String: Any]])
        XCTAssertEqual(stacks.map { $0["category"] as? String }, ["food", "supplies", "boarding", "transport"])
        XCTAssertEqual(stacks.first?["minor"] as? [Int], [10_000, 0, 0, 0, 0, 0, 0, 0, 0, 0], "¥15,000 at 150 per euro = $100.00 on the 20th")
        let budget = try XCTUnwrap(o["budget"] as? [String: Any])
        XCTAssertEqual(budget["daily_minor"] as? Int, 20_000, "$2,000.00 over 10 days")
        XCTAssertEqual((o["ahead"] as? [String: Any])?["count"] as? Int, 1, "the 27th's boarding")
        // In yen: converted at the rates, the line too (at the last day's rate).
        let yen = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(try run(["chart", "expenses", "--budget", "1", "--currency", "JPY", "--json"], env: during).stdout.utf8)) as? [String: Any])
        XCTAssertEqual((yen["budget"] as? [String: Any])?["daily_minor"] as? Int, 30_000, "$2,000 = ¥300,000 over 10 days")
        let text = try run(["chart", "expenses", "--budget", "1"], env: during)
        XCTAssertTrue(text.stdout.hasPrefix("Japan trip · Tokyo · 2 people: spending per day (USD)"), text.stdout)
        // The name, place and headcount are joined the way each language sets them: Japanese with its own
        // middle dot (the Latin one in a Japanese font hugs the next word).
        for (lang, title) in [("ko", "Japan trip · Tokyo · 2명: 날짜별 지출 (USD)"), ("ja", "Japan trip・Tokyo・2人：日ごとの支出（USD）")] {
            let t = try run(["--lang", lang, "chart", "expenses", "--budget", "1"], env: during)
            XCTAssertTrue(t.stdout.hasPrefix(title), t.stdout)
        }
        XCTAssertTrue(text.stdout.contains("Dec 20") && text.stdout.contains("$400.00"), text.stdout)
        XCTAssertTrue(text.stdout.contains("Budget $2,000.00 over 10 days: $200.00 a day"), text.stdout)
        let png = home.appendingPathComponent("trip.png").path
        for lang in ["en", "ko", "ja"] {
            let out = try run(["--lang", lang, "chart", "expenses", "--budget", "1", "-o", png], env: during)
            XCTAssertEqual(out.status, 0, out.stderr)
            let bytes = try Data(contentsOf: URL(fileURLWithPath: png))
            XCTAssertEqual(Array(bytes.prefix(4)), [0x89, 0x50, 0x4E, 0x47], lang)
        }
        let ko = try run(["--lang", "ko", "chart", "expenses", "--budget", "1"], env: during)
        XCTAssertTrue(ko.stdout.contains("날짜별 지출") && ko.stdout.contains("12월 20일") && ko.stdout.contains("하루 US$200.00"), ko.stdout)
        try expectRefused(["chart", "expenses", "Coco", "--budget", "1"], code: 64, mentions: "--budget")
        try expectRefused(["chart", "expenses", "--budget", "1", "--since", "2026-12-01"], code: 64, mentions: "--since")
        try expectRefused(["chart", "expenses", "--budget", "5"], code: 66, mentions: "5")
    }
}
