import Foundation
import XCTest
import PetlogTestSupport

/// `budget`, `stats` spending and `calendar --spending`, run as an owner would (Seoul, now 2026-11-23 10:00).
final class BudgetCommandTests: CLITestCase {
    override func setUpWithError() throws {
        try super.setUpWithError()
        try ok("pet", "add", "Coco", "--species", "dog")
        try ok("pet", "add", "Nabi", "--species", "cat")
    }

    /// Rates as `rates import` stores them: on the 20th 1 EUR = 1.2000 USD = 1500 KRW (no JPY rate at all).
    func importRates() throws {
        let file = home.appendingPathComponent("rates.json")
        try Data("""
        {"format": "petlog", "pets": [], "records": [], "rates": [
        {"day": "2026-11-20", "currency": "USD", "rate": "1.2000"}, {"day": "2026-11-20", "currency": "KRW", "rate": "1500"}]}
        """.utf8).write(to: file)
        try ok("import", file.path)
    }

    /// October: Coco food 40,000 at Pet Mart. November: Coco food 50,000 at Pet Mart and $10.50 online (13,125 won
    /// at the 20th's rate), a household 30,000 for supplies, Nabi's visit 85,000 at Happy Vet, and ¥500 that has no rate.
    func logAMonth() throws {
        try importRates()
        try ok("expense", "Coco", "40000", "KRW", "--category", "food", "--merchant", "Pet Mart", "--at", "2026-10-20 12:00")
        try ok("expense", "Coco", "50000", "KRW", "--category", "food", "--merchant", "Pet Mart", "--at", "2026-11-02 12:00")
        try ok("expense", "30000", "KRW", "--category", "supplies", "--merchant", "Daiso", "--at", "2026-11-05 12:00")
        try ok("visit", "Nabi", "--clinic", "Happy Vet", "--cost", "85000KRW", "--at", "2026-11-10 10:00")
        try ok("expense", "Coco", "10.50", "USD", "--category", "food", "--merchant", "Chewy", "--at", "2026-11-21 09:00")
        try ok("expense", "Coco", "500", "JPY", "--category", "treats", "--at", "2026-11-22 09:00")
    }

    /// `budget show --json`'s budgets, typed.
    func budgets(_ args: String...) throws -> [BudgetOut] { try decoded(BudgetShowOut.self, ["budget", "show"] + args).budgets }

    /// `budget list --json`, typed.
    func budgetList() throws -> [BudgetOut] { try decoded([BudgetOut].self, ["budget", "list"]) }

    func minor(_ o: [String: Any], _ key: String) -> Int? { (o[key] as? [String: Any])?["minor_units"] as? Int }

    func testAHouseholdBudgetCountsEverySpendingOfTheMonthConverted() throws {
        try logAMonth()
        XCTAssertTrue(try ok("budget", "set", "300000", "KRW", "--monthly").contains("Budget #1 set: Household · ₩300,000 · monthly · all categories"))
        let b = try XCTUnwrap(try budgets().first)
        XCTAssertEqual(b.standing, "current")
        XCTAssertEqual(b.firstDay, "2026-11-01")
        XCTAssertEqual(b.lastDay, "2026-11-30")
        XCTAssertEqual(b.spent?.minorUnits, 50_000 + 30_000 + 85_000 + 13_125, "pets', household's and the visit's; not October's; not the yen")
        XCTAssertEqual(b.left?.minorUnits, 121_875)
        XCTAssertEqual(b.daysLeft, 8, "the 23rd through the 30th")
        XCTAssertEqual(b.perDay?.minorUnits, 15_234, "121,875 / 8 rounded down")
        XCTAssertEqual(b.unconverted, 1)
        XCTAssertEqual(b.byCategory?.map(\.category), ["vet", "food", "supplies"])
        let text = try ok("budget", "show")
        XCTAssertTrue(text.contains("Spent ₩178,125 of ₩300,000 · ₩121,875 left"), text)
        XCTAssertTrue(text.contains("8 days left · ₩15,234 a day"), text)
        XCTAssertTrue(text.contains("1 expense in another currency not counted"), text)
        XCTAssertFalse(text.contains("\u{1B}["), "no colours in a pipe")
        // Set again: the same scope is replaced, not doubled.
        XCTAssertTrue(try ok("budget", "set", "₩200,000").contains("Budget #1 replaced"))
        XCTAssertEqual(try budgetList().count, 1)
    }

    func testAPetsCategoryBudgetOverIsSaidInWords() throws {
        try logAMonth()
        try ok("budget", "set", "Coco", "60000", "KRW", "--category", "food")
        let b = try XCTUnwrap(try budgets("Coco").first)
        XCTAssertEqual(b.pet, "Coco")
        XCTAssertEqual(b.spent?.minorUnits, 63_125, "Coco's food only: not the household's supplies, not Nabi's visit")
        XCTAssertEqual(b.over, true)
        XCTAssertNil(b.perDay)
        let en = try ok("budget", "show", "Coco")
        XCTAssertTrue(en.contains("over by ₩3,125"), en)
        for (lang, words) in [("ko", ["초과", "8일 남음", "3,125"]), ("ja", ["超過", "残り8日", "3,125"])] {
            let out = try run(["--lang", lang, "budget", "show", "Coco"])
            XCTAssertEqual(out.status, 0, out.stderr)
            for w in words { XCTAssertTrue(out.stdout.contains(w), "\(lang): \(w) in \(out.stdout)") }
        }
        // Coco's budget is not the household's: without budgets of its own, Nabi has none to show.
        XCTAssertTrue(try ok("budget", "show", "Nabi").contains("No budget for Nabi in force on Nov 23, 2026"))
    }

    func testAnOverspentBudgetWithCentsShowsItsNegativeLeftInJSON() throws {
        // The left of a budget in a currency with cents, once overspent, is negative: `budget show --json`
        // crashed on it (the decimal text of a negative amount), though the text view said "over by".
        try logAMonth()
        try ok("budget", "set", "Coco", "10.00", "USD", "--category", "food")
        let b = try XCTUnwrap(try budgets("Coco").first)
        XCTAssertEqual(b.over, true)
        let left = try XCTUnwrap(b.left)
        let minorLeft = left.minorUnits
        XCTAssertLessThan(minorLeft, 0)
        let magnitude = -minorLeft
        XCTAssertEqual(left.amount, "-\(magnitude / 100).\(String(format: "%02d", magnitude % 100))")
        XCTAssertEqual(try run(["budget", "list", "--json"]).status, 0)
    }

    func testOverBudgetIsRedOnlyOnATerminal() throws {
        try ok("expense", "Coco", "70000", "KRW", "--category", "food", "--at", "2026-11-20 12:00")
        try ok("budget", "set", "Coco", "60000", "KRW")
        // petlog on a pseudo-terminal, as an owner sees it, with NO_COLOR and without.
        let args = [Self.binary.path, "--db", dbPath, "budget", "show"]
        let tty = try onTerminal(args)
        let plain = try onTerminal(args, env: ["NO_COLOR": "1"])
        XCTAssertTrue(tty.stdout.contains("\u{1B}[31mover by ₩10,000\u{1B}[0m"), tty.stdout)
        XCTAssertTrue(plain.stdout.contains("over by ₩10,000"), plain.stdout)
        XCTAssertFalse(plain.stdout.contains("\u{1B}["), plain.stdout)
    }

    func testPerPetDividesByThePetsItCoversRoundingDown() throws {
        try logAMonth()
        try ok("budget", "set", "100001", "KRW", "--per-pet")
        try ok("budget", "set", "Nabi", "100001", "KRW", "--per-pet")
        let all = try budgets()
        let household = try XCTUnwrap(all.first { $0.pet == nil })
        XCTAssertEqual(household.pets, 2, "the two active pets")
        XCTAssertEqual(household.budget?.minorUnits, 50_000, "100,001 / 2 rounded down")
        XCTAssertEqual(household.spent?.minorUnits, 178_125 / 2)
        let nabi = try XCTUnwrap(all.first { $0.pet == "Nabi" })
        XCTAssertEqual(nabi.pets, 1)
        XCTAssertEqual(nabi.budget?.minorUnits, 100_001)
        XCTAssertTrue(try ok("budget", "list").contains("per pet (÷2)"))
        try ok("pet", "archive", "Nabi")
        XCTAssertEqual(try budgets().first { $0.pet == nil }?.pets, 1, "an archived pet no longer shares it")
    }

    func testAStretchOfDaysBeforeDuringAndAfter() throws {
        try ok("budget", "set", "Coco", "500000", "KRW", "--from", "2026-12-01", "--to", "2027-02-28", "--category", "vet")
        let before = try XCTUnwrap(try budgets().first)
        XCTAssertEqual(before.standing, "upcoming")
        XCTAssertEqual(before.daysLeft, 90)
        XCTAssertTrue(try ok("budget", "show").contains("starts in 8 days"))
        let later = ["PETLOG_NOW": "2027-01-10T10:00:00+09:00"]
        XCTAssertEqual(try run(["visit", "Coco", "--cost", "450000KRW", "--at", "2027-01-05"], env: later).status, 0)
        XCTAssertEqual(try run(["expense", "Coco", "99000", "KRW", "--category", "vet", "--at", "2026-11-30"], env: later).status, 0)
        let during = try XCTUnwrap(try budgets("--date", "2027-01-10").first)
        XCTAssertEqual(during.standing, "current")
        XCTAssertEqual(during.spent?.minorUnits, 450_000, "November is before the stretch")
        XCTAssertEqual(during.daysLeft, 50, "Jan 10 through Feb 28")
        XCTAssertEqual(during.perDay?.minorUnits, 1_000)
        let ended = try XCTUnwrap(try budgets("--date", "2027-03-05").first)
        XCTAssertEqual(ended.standing, "ended")
        XCTAssertEqual(ended.daysLeft, 0)
        XCTAssertEqual(ended.spent?.minorUnits, 450_000)
        XCTAssertTrue(try ok("budget", "show", "--date", "2027-03-05").contains("ended Feb 28, 2027"))
        XCTAssertEqual(try budgets("--date", "2027-04-15").count, 0, "more than 31 days after: only in budget list")
        XCTAssertEqual(try budgetList().count, 1)
    }

    func testMonthEndsALeapFebruaryAndTheLocalDay() throws {
        try ok("budget", "set", "300000", "KRW")
        for (date, last, left) in [("2027-01-31", "2027-01-31", 1), ("2027-02-01", "2027-02-28", 28), ("2028-02-01", "2028-02-29", 29),
                                   ("2028-02-29", "2028-02-29", 1)] {
            let b = try XCTUnwrap(try budgets("--date", date).first)
            XCTAssertEqual(b.lastDay, last, date)
            XCTAssertEqual(b.daysLeft, left, date)
        }
        // 23:30 on Oct 31 in New York is Nov 1 in UTC: it is October's spending where the owner lives.
        let ny = ["TZ": "America/New_York", "PETLOG_NOW": "2026-11-23T10:00:00-05:00"]
        XCTAssertEqual(try run(["expense", "Coco", "7000", "KRW", "--category", "food", "--at", "2026-10-31 23:30"], env: ny).status, 0)
        func spent(_ date: String, _ env: [String: String]) throws -> Int64? {
            try decoded(BudgetShowOut.self, ["budget", "show", "--date", date], env: env).budgets.first?.spent?.minorUnits
        }
        XCTAssertEqual(try spent("2026-10-31", ny), 7_000)
        XCTAssertEqual(try spent("2026-11-30", ny), 0)
        // Read from Seoul, where the same instant is 13:30 on Nov 1, it is still October's (issue 29: a record's
        // day is the day on its own clock, whoever reads it; this said Nov 1 before).
        XCTAssertEqual(try spent("2026-10-31", [:]), 7_000)
        XCTAssertEqual(try spent("2026-11-30", [:]), 0)
    }

    func testRefusalsWriteNothing() throws {
        try expectRefused(["budget", "set", "0", "KRW"], code: 65, mentions: "a budget must be more than zero")
        try expectRefused(["budget", "set", "300000", "KRW", "--from", "2026-12-01"], code: 64, mentions: "needs both --from and --to")
        try expectRefused(["budget", "set", "300000", "KRW", "--monthly", "--from", "2026-12-01", "--to", "2026-12-31"], code: 64, mentions: "--monthly")
        try expectRefused(["budget", "set", "300000", "KRW", "--from", "2026-12-31", "--to", "2026-12-01"], code: 65, mentions: "2026-12-01")
        try expectRefused(["budget", "set", "Bori", "300000", "KRW"], code: 66, mentions: "Bori")
        try expectRefused(["budget", "set", "300000", "XYZ"], code: 65, mentions: "XYZ")
        try expectRefused(["budget", "set", "Coco", "300.5", "KRW"], code: 65, mentions: "300.5")
        try expectRefused(["budget", "set", "Coco", "1", "2", "3"], code: 64, mentions: "[PET] AMOUNT [CURRENCY]")
        try expectRefused(["budget", "set", "300000", "KRW", "--category", "grooming2"], code: 65, mentions: "grooming")
        try expectRefused(["budget", "delete", "9"], code: 66, mentions: "9")
        try expectRefused(["--lang", "ko", "budget", "set", "0", "KRW"], code: 65, mentions: "0보다 커야")
        XCTAssertEqual(try budgetList().count, 0)
        XCTAssertTrue(try ok("budget", "list").contains("No budgets yet"))
    }

    func testDeleteSaysWhatWent() throws {
        try ok("budget", "set", "Coco", "120", "USD")
        XCTAssertTrue(try ok("budget", "delete", "1").contains("Budget #1 deleted: Coco · $120.00 · monthly"))
        XCTAssertEqual(try budgetList().count, 0)
    }

    // MARK: stats

    func testStatsCompareSpendingByCategoryInTheHomeCurrency() throws {
        try logAMonth()
        try ok("budget", "set", "300000", "KRW")
        let stats = try XCTUnwrap(try json("stats", "--currency", "KRW") as? [String: Any])
        XCTAssertEqual(stats["currency"] as? String, "KRW")
        let items = try XCTUnwrap(stats["items"] as? [[String: Any]])
        func item(_ key: String) -> [String: Any]? { items.first { $0["item"] as? String == key } }
        XCTAssertEqual(item("spending:KRW")?["this_month"] as? Int, 178_125)
        XCTAssertEqual(item("spending:KRW")?["previous_month"] as? Int, 40_000)
        XCTAssertEqual(item("spending:KRW:food")?["this_month"] as? Int, 63_125)
        XCTAssertEqual(item("spending:KRW:food")?["percent_change"] as? Int, 58, "+23,125 of 40,000 is +57.8%")
        XCTAssertEqual(item("spending:KRW:vet")?["this_month"] as? Int, 85_000, "the visit's cost")
        XCTAssertTrue(item("spending:KRW:vet")?["percent_change"] is NSNull)
        XCTAssertEqual(item("spent_as:USD")?["this_month"] as? Int, 1_050)
        XCTAssertEqual(item("spent_as:JPY")?["this_month"] as? Int, 500)
        XCTAssertEqual(stats["unconverted"] as? [String: Int], ["this_month": 1, "previous_month": 0])
        let merchants = try XCTUnwrap(stats["top_merchants"] as? [[String: Any]])
        XCTAssertEqual(merchants.map { $0["name"] as? String }, ["Happy Vet", "Pet Mart", "Daiso", "Chewy"])
        XCTAssertEqual(merchants.first.flatMap { minor($0, "amount") }, 85_000)
        let budgets = try XCTUnwrap(stats["budgets"] as? [[String: Any]])
        XCTAssertEqual(budgets.first.flatMap { minor($0, "spent") }, 178_125)

        let en = try ok("stats", "--currency", "KRW")
        XCTAssertTrue(en.contains("Spending (KRW)"), en)
        XCTAssertTrue(en.contains("+₩23,125 (+58%)"), en)
        XCTAssertTrue(en.contains("incl. spent in USD"), en)
        XCTAssertTrue(en.contains("1 expense in another currency not counted"), en)
        XCTAssertTrue(en.contains("1. Happy Vet: ₩85,000 (1 payment)"), en)
        XCTAssertTrue(en.contains("2. Pet Mart: ₩50,000 (1 payment)"), en)
        XCTAssertTrue(en.contains("Spent ₩178,125 of ₩300,000 · ₩121,875 left"), en)
        XCTAssertFalse(en.contains("Δ −0") || en.contains("+0 "), en)
        // Korean and Japanese owners see their own currency by default and their own words.
        // Without a yen rate nothing converts for a Japanese owner, and that is said; in won the merchants are ranked.
        for (args, words) in [(["--lang", "ko"], ["지출 (KRW)", "178,125", "+58%", "많이 쓴 곳", "Happy Vet", "예산", "121,875"]),
                              (["--lang", "ja"], ["支出（JPY）", "予算", "計算に含めていません"]),
                              (["--lang", "ja", "--currency", "KRW"], ["支出（KRW）", "178,125", "主な支出先", "1. Happy Vet"])] {
            let out = try run(Array(args.prefix(2)) + ["stats"] + Array(args.dropFirst(2)))
            let lang = args.joined(separator: " ")
            XCTAssertEqual(out.status, 0, out.stderr)
            for w in words { XCTAssertTrue(out.stdout.contains(w), "\(lang): \(w) in \(out.stdout)") }
        }
        // A pet's stats count only its records and show only its budgets.
        let coco = try XCTUnwrap(try json("stats", "Coco", "--currency", "KRW") as? [String: Any])
        let cocoItems = try XCTUnwrap(coco["items"] as? [[String: Any]])
        XCTAssertEqual(cocoItems.first { $0["item"] as? String == "spending:KRW" }?["this_month"] as? Int, 63_125)
        XCTAssertEqual((coco["budgets"] as? [Any])?.count, 0)
    }

    // MARK: calendar --spending

    func testTheSpendingCalendarShowsEachDaysTotal() throws {
        try logAMonth()
        try ok("visit", "Coco", "--cost", "1550000KRW", "--at", "2026-11-12 09:00")
        let cal = try XCTUnwrap(try json("calendar", "--spending", "--currency", "KRW") as? [String: Any])
        let days = try XCTUnwrap(cal["days"] as? [[String: Any]])
        XCTAssertEqual(days.count, 30)
        func day(_ d: String) -> [String: Any]? { days.first { $0["date"] as? String == d } }
        XCTAssertEqual(day("2026-11-10")?["minor_units"] as? Int, 85_000)
        XCTAssertEqual(day("2026-11-21")?["minor_units"] as? Int, 13_125)
        XCTAssertEqual(day("2026-11-22")?["unconverted"] as? Int, 1)
        XCTAssertEqual(minor(cal, "total"), 178_125 + 1_550_000)
        XCTAssertEqual((cal["busiest_day"] as? [String: Any])?["date"] as? String, "2026-11-12")
        let en = try ok("calendar", "--spending", "--currency", "KRW")
        XCTAssertTrue(en.contains("Spending per day in KRW"), en)
        XCTAssertTrue(en.contains("85,000"), en)
        XCTAssertTrue(en.contains("1.5M"), "1,550,000 cut to one decimal: \(en)")
        XCTAssertTrue(en.contains("Busiest day: Nov 12, 2026, ₩1,550,000"), en)
        let ko = try run(["--lang", "ko", "calendar", "--spending"])
        XCTAssertTrue(ko.stdout.contains("155만"), ko.stdout)
        XCTAssertTrue(ko.stdout.contains("1,728,125"), ko.stdout)
        let ja = try run(["--lang", "ja", "calendar", "--spending", "--currency", "KRW"])
        XCTAssertTrue(ja.stdout.contains("155万"), ja.stdout)
        // Every cell stays within its seven columns.
        for line in en.split(separator: "\n").prefix(12) { XCTAssertLessThanOrEqual(line.count, 49, String(line)) }
        XCTAssertTrue(try ok("calendar", "--spending", "--month", "2026-09").contains("No spending in Sep 2026"))
        // The week starts as in `calendar`: Monday in the C locale, or as the config says; the currency too.
        XCTAssertTrue(en.split(separator: "\n")[1].hasPrefix(" Mon"), en)
        try ok("config", "set", "week_start", "sunday")
        try ok("config", "set", "currency", "KRW")
        let sunday = try ok("calendar", "--spending").split(separator: "\n").map(String.init)
        XCTAssertTrue(sunday[0].contains("Spending per day in KRW"), sunday[0])
        XCTAssertTrue(sunday[1].hasPrefix(" Sun"), sunday[1])
        XCTAssertTrue(sunday[2].hasPrefix("  1 "), "Nov 1, 2026 is a Sunday: \(sunday[2])")
        XCTAssertTrue(try ok("calendar").split(separator: "\n")[1].hasPrefix(" Sun"), "the record calendar too")
    }

    // MARK: issue 30: one purchase, one count

    func testASplitPurchaseIsOnePaymentInStatsAndTheCalendar() throws {
        try importRates()
        try ok("expense", "Coco,Nabi", "100.00", "USD", "--category", "transport", "--merchant", "JAL pet cargo", "--at", "2026-11-20 10:00")
        try ok("expense", "Coco", "15000", "KRW", "--category", "food", "--merchant", "Pet Mart", "--at", "2026-11-20 12:00")
        try ok("expense", "Coco,Nabi", "500", "JPY", "--category", "treats", "--at", "2026-11-21 09:00")
        let stats = try XCTUnwrap(try json("stats", "--currency", "USD") as? [String: Any])
        let merchants = try XCTUnwrap(stats["top_merchants"] as? [[String: Any]])
        XCTAssertEqual(merchants.first?["name"] as? String, "JAL pet cargo")
        XCTAssertEqual(merchants.first?["payments"] as? Int, 1, "one ticket for two pets")
        XCTAssertEqual((stats["unconverted"] as? [String: Int])?["this_month"], 1, "one yen purchase shared by two pets")
        XCTAssertTrue(try ok("stats", "--currency", "USD").contains("JAL pet cargo: $100.00 (1 payment)"))
        XCTAssertTrue(try ok("--lang", "ko", "stats", "--currency", "USD").contains("JAL pet cargo: US$100.00 (1건)"))
        XCTAssertTrue(try ok("--lang", "ja", "stats", "--currency", "USD").contains("（1件）"))
        // A pet asked for sees its share, one payment.
        let coco = try XCTUnwrap(try json("stats", "Coco", "--currency", "USD") as? [String: Any])
        let cocoMerchant = (coco["top_merchants"] as? [[String: Any]])?.first { $0["name"] as? String == "JAL pet cargo" }
        XCTAssertEqual(minor(cocoMerchant ?? [:], "amount"), 5000)
        XCTAssertEqual(cocoMerchant?["payments"] as? Int, 1)
        // The calendar counts three purchases, not five shares.
        let cal = try XCTUnwrap(try json("calendar", "--spending", "--currency", "KRW") as? [String: Any])
        let days = try XCTUnwrap(cal["days"] as? [[String: Any]])
        XCTAssertEqual(days.first { $0["date"] as? String == "2026-11-20" }?["entries"] as? Int, 2)
        XCTAssertEqual(days.first { $0["date"] as? String == "2026-11-21" }?["unconverted"] as? Int, 1)
        XCTAssertTrue(try ok("calendar", "--spending", "--currency", "KRW").contains("(3 expenses)"))
        XCTAssertTrue(try ok("--lang", "ko", "calendar", "--spending").contains("(3건)"))
        XCTAssertTrue(try ok("--lang", "ja", "calendar", "--spending", "--currency", "KRW").contains("（3件）"))
    }

    func testAChartWithNothingConvertibleSaysSo() throws {
        try ok("expense", "Coco", "45000", "KRW", "--at", "2026-11-02 12:00")
        try ok("expense", "Coco,Nabi", "12000", "KRW", "--at", "2026-11-03 12:00")
        let r = try run(["chart", "expenses", "--currency", "USD"])
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertTrue(r.stdout.contains("none of the 2 expenses could be converted to USD"), r.stdout)
        XCTAssertFalse(r.stdout.contains("no spending"), r.stdout)
        XCTAssertEqual(r.stderr, "", "said once, on stdout")
        let ko = try run(["--lang", "ko", "chart", "expenses", "--currency", "USD"])
        XCTAssertTrue(ko.stdout.contains("지출 2건 모두 USD로 바꿀 수 없습니다"), ko.stdout)
        let ja = try run(["--lang", "ja", "chart", "expenses", "--currency", "USD"])
        XCTAssertTrue(ja.stdout.contains("支出 2 件のどれも USD に換算できません"), ja.stdout)
        // With no spending at all, it is still "no spending".
        XCTAssertTrue(try ok("chart", "expenses", "--currency", "USD", "--since", "2025-01-01", "--until", "2025-02-01").contains("no spending"))
    }

    func testOneMonthTotalEverywhereWithPaymentsAheadMarked() throws {
        // Now is 2026-11-23 10:00 in Seoul: the 28th's booking is still ahead, and counts in November everywhere.
        try ok("expense", "Coco", "45000", "KRW", "--at", "2026-11-05 12:00")
        try ok("expense", "Coco,Nabi", "30000", "KRW", "--merchant", "Pet Mart", "--at", "2026-11-10 12:00")
        try ok("expense", "Nabi", "21900", "KRW", "--category", "boarding", "--at", "2026-11-28 12:00")
        let total = 96_900
        let list = try XCTUnwrap(try json("expense", "list", "--currency", "KRW") as? [String: Any])
        XCTAssertEqual(minor(list["total"] as? [String: Any] ?? [:], "converted"), total)
        XCTAssertEqual(minor(list["ahead"] as? [String: Any] ?? [:], "converted"), 21_900)
        XCTAssertEqual((list["ahead"] as? [String: Any])?["count"] as? Int, 1)
        let entries = (list["days"] as? [[String: Any]])?.flatMap { $0["entries"] as? [[String: Any]] ?? [] } ?? []
        XCTAssertEqual(entries.map { $0["ahead"] as? Bool }, [false, false, false, true])
        let cal = try XCTUnwrap(try json("calendar", "--spending", "--currency", "KRW") as? [String: Any])
        XCTAssertEqual(minor(cal, "total"), total)
        XCTAssertEqual(minor(cal["ahead"] as? [String: Any] ?? [:], "converted"), 21_900)
        let chart = try XCTUnwrap(try json("chart", "expenses", "--currency", "KRW") as? [String: Any])
        let stacks = try XCTUnwrap(chart["stacks"] as? [[String: Any]])
        XCTAssertEqual(stacks.compactMap { ($0["minor"] as? [Int])?.last }.reduce(0, +), total, "November's bar")
        XCTAssertEqual(minor(chart["ahead"] as? [String: Any] ?? [:], "converted"), 21_900)
        let stats = try XCTUnwrap(try json("stats", "--currency", "KRW") as? [String: Any])
        XCTAssertEqual(minor(stats, "month_total"), total)
        XCTAssertEqual((stats["ahead"] as? [String: Any])?["count"] as? Int, 1)
        // Said the same way in each view and language.
        let en = "₩21,900 still ahead (1 expense booked for later than now)"
        for args in [["expense", "list"], ["calendar", "--spending"], ["chart", "expenses"], ["stats"]] {
            func out(_ a: [String]) throws -> String { let r = try run(a); XCTAssertEqual(r.status, 0, r.stderr); return r.stdout }
            let text = try out(args + ["--currency", "KRW"])
            XCTAssertTrue(text.contains(en), "\(args): \(text)")
            XCTAssertTrue(text.contains("96,900"), "\(args): \(text)")
            XCTAssertTrue(try out(["--lang", "ko"] + args).contains("아직 오지 않은 예정 지출 21,900원 (1건) 포함"), "\(args)")
            XCTAssertTrue(try out(["--lang", "ja"] + args + ["--currency", "KRW"]).contains("まだ先の予定の支出 ₩21,900（1件）を含みます"), "\(args)")
        }
        XCTAssertTrue(try ok("expense", "list", "--currency", "KRW").contains("Nabi · boarding · ahead"))
        XCTAssertTrue(try ok("--lang", "ko", "expense", "list").contains("예정"))
        // The PNG chart says it on stderr.
        let png = home.appendingPathComponent("e.png").path
        let r = try run(["chart", "expenses", "--currency", "KRW", "-o", png])
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertTrue(r.stderr.contains(en), r.stderr)
    }

    func testBudgetListShowsEachBudgetsStateAndSortsByIt() throws {
        // Now is 2026-11-23.
        try ok("budget", "set", "2000", "USD", "--from", "2026-12-20", "--to", "2026-12-29")
        try ok("budget", "set", "300000", "KRW")
        try ok("budget", "set", "50000", "KRW", "--from", "2026-11-01", "--to", "2026-11-10")
        try ok("budget", "set", "Coco", "90000", "KRW", "--from", "2026-11-20", "--to", "2026-11-25")
        try ok("budget", "set", "Nabi", "10000", "KRW", "--from", "2026-10-01", "--to", "2026-10-05")
        let list = try budgetList()
        XCTAssertEqual(list.map(\.id), [2, 4, 1, 3, 5])
        XCTAssertEqual(list.compactMap(\.standing), ["current", "current", "upcoming", "ended", "ended"])
        XCTAssertEqual(list[0].daysLeft, 8, "Nov 23–30")
        XCTAssertEqual(list[1].daysLeft, 3, "Nov 23–25")
        XCTAssertEqual(list[2].startsIn, 27)
        XCTAssertNil(list[3].daysLeft)
        let en = try run(["budget", "list"], env: ["COLUMNS": "160"]).stdout
        let rows = en.split(separator: "\n").map(String.init)
        XCTAssertTrue(rows[0].hasSuffix("State"), en)
        XCTAssertTrue(rows[1].hasSuffix("under way, 8 days left"), en)
        XCTAssertTrue(rows[2].hasSuffix("under way, 3 days left"), en)
        XCTAssertTrue(rows[3].hasSuffix("upcoming, starts in 27 days"), en)
        XCTAssertTrue(rows[4].hasSuffix("ended Nov 10, 2026"), en)
        let ko = try run(["--lang", "ko", "budget", "list"], env: ["COLUMNS": "160"]).stdout
        for w in ["상태", "진행 중, 3일 남음", "예정, 27일 후 시작", "2026년 11월 10일에 끝남"] { XCTAssertTrue(ko.contains(w), ko) }
        let ja = try run(["--lang", "ja", "budget", "list"], env: ["COLUMNS": "160"]).stdout
        for w in ["状態", "進行中、残り3日", "予定、27日後に開始", "2026年11月10日に終了"] { XCTAssertTrue(ja.contains(w), ja) }
    }
}
