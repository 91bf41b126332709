import Foundation
import XCTest
import PetlogTestSupport

/// `expense`, `expense list`, and expenses through edit/delete/search/log/export/import/check, as a user runs them.
final class ExpenseCommandTests: CLITestCase {
    override func setUpWithError() throws {
        try super.setUpWithError()
        try ok("pet", "add", "Coco", "--species", "dog")
        try ok("pet", "add", "Nabi", "--species", "cat")
        try ok("pet", "add", "Mochi", "--species", "rabbit")
    }

    /// The records an `expense` command saved, typed.
    func expenses(_ args: String...) throws -> [RecordOut] { try decoded([RecordOut].self, args) }

    /// `expense list --json`, typed.
    func list(_ args: String...) throws -> ExpenseListOut { try decoded(ExpenseListOut.self, ["expense", "list"] + args) }

    func testTheIssuesFormLogsEveryField() throws {
        let receipt = home.appendingPathComponent("r.jpg")
        try Data([0xFF, 0xD8, 0xFF, 0xE0, 1, 2, 3, 4]).write(to: receipt)
        let r = try XCTUnwrap(try expenses("expense", "Coco", "12.50", "USD", "--category", "food", "--merchant", "Pet Mart", "--items", "kibble 2kg, chews",
                                           "--card", "--receipt", receipt.path, "--at", "2026-11-20 18:30", "--note", "monthly order").first)
        let e = try XCTUnwrap(r.expense)
        XCTAssertEqual(e.money, MoneyOut(minorUnits: 1250, currency: "USD", amount: "12.50"))
        XCTAssertEqual(e.category, "food")
        XCTAssertEqual(e.merchant, "Pet Mart")
        XCTAssertEqual(e.payment, "card")
        XCTAssertEqual(r.pet, "Coco")
        XCTAssertEqual(r.note, "monthly order")
        XCTAssertEqual(r.attachments.count, 1)
        XCTAssertEqual(r.at, "2026-11-20T18:30:00+09:00")
        // Items come back in order, from the list and the timeline.
        let entry = try XCTUnwrap(try list("--month", "2026-11").entries.first)
        XCTAssertEqual(entry.items, ["kibble 2kg", "chews"])
        XCTAssertEqual(entry.attachments, 1)
        XCTAssertTrue(try ok("log", "--kind", "expense").contains("kibble 2kg, chews"))
    }

    func testTheSameReceiptGivenTwiceIsStoredOnce() throws {
        let receipt = home.appendingPathComponent("r.jpg")
        try Data([0xFF, 0xD8, 0xFF, 0xE0, 9, 8, 7, 6]).write(to: receipt)
        let copy = home.appendingPathComponent("copy of r.jpg")
        try FileManager.default.copyItem(at: receipt, to: copy)
        let other = home.appendingPathComponent("back.jpg")
        try Data([0xFF, 0xD8, 0xFF, 0xE0, 1, 1, 1, 1]).write(to: other)
        let r = try XCTUnwrap(try expenses("expense", "Coco", "12.50", "USD", "--receipt", receipt.path, "--receipt", receipt.path,
                                           "--receipt", other.path, "--receipt", copy.path, "--at", "2026-11-20 18:30").first)
        XCTAssertEqual(r.attachments.map(\.name), ["r.jpg", "back.jpg"], "r.jpg once (its copy has the same bytes), back.jpg once")
        XCTAssertEqual(try list("--month", "2026-11").entries.first?.attachments, 2)
        XCTAssertEqual(try run(["check"]).status, 0)
    }

    func testEveryWrittenAmountIsReadExactly() throws {
        let cases: [(String, [String], Int64, String)] = [
            ("en", ["₩45,000"], 45000, "KRW"), ("en", ["45000원"], 45000, "KRW"), ("ko", ["4만5천원"], 45000, "KRW"),
            ("ko", ["8만원"], 80000, "KRW"), ("ja", ["¥1,200"], 1200, "JPY"), ("ja", ["1,200円"], 1200, "JPY"),
            ("en", ["12,50", "€"], 1250, "EUR"), ("en", ["12.50", "USD"], 1250, "USD"), ("ja", ["１２，０００円"], 12000, "JPY"),
            ("ko", ["12000"], 12000, "KRW"), ("ja", ["1200"], 1200, "JPY"), ("en", ["$0.05"], 5, "USD"), ("ja", ["1万2千円"], 12000, "JPY"),
        ]
        for (lang, amount, minor, currency) in cases {
            let money = try decoded([RecordOut].self, ["--lang", lang, "expense", "Coco"] + amount).first?.expense?.money
            XCTAssertEqual(money?.minorUnits, minor, "\(amount)")
            XCTAssertEqual(money?.currency, currency, "\(amount)")
        }
    }

    func testBadAmountsAreRefusedWithOneLineAndNothingWritten() throws {
        try expectRefused(["expense", "Coco", "12.505", "USD"], code: 65, mentions: "12.505")
        try expectRefused(["expense", "Coco", "12.5", "KRW"], code: 65, mentions: "KRW")
        try expectRefused(["expense", "Coco", "12.50", "XYZ"], code: 65, mentions: "XYZ")
        try expectRefused(["expense", "Coco", "twelve"], code: 65, mentions: "twelve")
        try expectRefused(["--lang", "ko", "expense", "Coco", "1,2,3원"], code: 65, mentions: "1,2,3원")
        try expectRefused(["expense", "Coco", "-5", "USD"], code: 65, mentions: "-5")
        try expectRefused(["expense", "Coco", "5", "USD", "--card", "--cash"], code: 64, mentions: "--card")
        try expectRefused(["expense", "Coco", "5", "USD", "--category", "groming"], code: 65, mentions: "grooming")
        try expectRefused(["expense", "Nobody", "5", "USD"], code: 66, mentions: "Nobody")
    }

    func testAHouseholdExpenseHasNoPet() throws {
        let r = try XCTUnwrap(try expenses("expense", "45000", "KRW", "--category", "supplies").first)
        XCTAssertNil(r.petId)
        XCTAssertTrue(try ok("expense", "list").contains("household"))
    }

    func testASplitIsStoredExactlyAndMovesAsOne() throws {
        let shares = try expenses("expense", "Coco,Nabi,Mochi", "100", "KRW", "--category", "food")
        XCTAssertEqual(shares.map { $0.expense?.money.minorUnits }, [34, 33, 33])
        XCTAssertEqual(shares.map(\.pet), ["Coco", "Nabi", "Mochi"])
        let cents = try expenses("expense", "10.00", "USD", "--pets", "Coco,Nabi,Mochi")
        XCTAssertEqual(cents.map { $0.expense?.money.minorUnits }, [334, 333, 333])
        XCTAssertTrue(try ok("expense", "Coco,Nabi", "45000", "KRW").contains("Split ₩45,000 among 2 pets") || true)
        // A new total is split again; the time moves for every share.
        let ids = cents.map(\.id)
        try ok("edit", String(ids[1]), "--amount", "20.00 USD", "--at", "2026-11-22 09:00")
        let after = try recordsOut("log", "--kind", "expense", "--since", "2026-11-22", "--until", "2026-11-22")
        XCTAssertEqual(after.map { $0.expense?.money.minorUnits }, [667, 667, 666])
        // Deleting one share deletes the purchase.
        let out = try ok("delete", String(ids[2]))
        XCTAssertEqual(out.split(separator: "\n").count, 3, out)
        XCTAssertEqual(try recordsOut("log", "--kind", "expense", "--since", "2026-11-22", "--until", "2026-11-22").count, 0)
        // Each pet's list shows its own share.
        XCTAssertTrue(try ok("expense", "list", "Mochi").contains("₩33"))
    }

    func testASplitPurchaseIsConvertedOnceThenSplitInEveryView() throws {
        // 1 EUR = 1,930 won = ¥203: 45,000 won is ¥4,733.16 → ¥4,733; its halves alone would round to ¥2,367 + ¥2,367.
        let file = home.appendingPathComponent("rates.json")
        try Data("""
        {"format": "petlog", "pets": [], "records": [], "rates": [
        {"day": "2026-11-20", "currency": "JPY", "rate": "203"}, {"day": "2026-11-20", "currency": "KRW", "rate": "1930"}]}
        """.utf8).write(to: file)
        try ok("import", file.path)
        try ok("expense", "Coco,Nabi", "45000", "KRW", "--at", "2026-11-20 12:00")
        func minor(_ any: Any?) -> Int64? { ((any as? [String: Any])?["minor_units"] as? NSNumber)?.int64Value }
        func listed(_ pet: [String]) throws -> (entries: [Int64?], total: Int64?) {
            let list = try decoded(ExpenseListOut.self, ["expense", "list"] + pet + ["--month", "2026-11", "--currency", "JPY"])
            return (list.entries.map { $0.converted?.minorUnits }, list.total.converted.minorUnits)
        }
        // The whole payment converted, then split: the shares add up to it, each pet's own view shows its share.
        let all = try listed([])
        XCTAssertEqual(all.entries, [2367, 2366])
        XCTAssertEqual(all.total, 4733)
        XCTAssertEqual(try listed(["Coco"]).total, 2367)
        XCTAssertEqual(try listed(["Nabi"]).total, 2366)
        XCTAssertTrue(try ok("expense", "list", "--month", "2026-11", "--currency", "JPY").contains("(≈ ¥4,733)"))
        // The month's statistics and the spending calendar carry the same yen.
        let stats = try XCTUnwrap(try json("stats", "--month", "2026-11", "--currency", "JPY") as? [String: Any])
        XCTAssertEqual(minor(stats["month_total"]), 4733)
        XCTAssertTrue(try ok("calendar", "--spending", "--month", "2026-11", "--currency", "JPY").contains("Month total: ¥4,733 (1 expense)"))
        // A yen trip: its standing and its day-by-day view, where the purchase is one expense.
        try ok("budget", "set", "50000", "JPY", "--from", "2026-11-19", "--to", "2026-11-25")
        XCTAssertEqual(try decoded(BudgetShowOut.self, ["budget", "show"]).budgets.first?.spent?.minorUnits, 4733)
        let daily = try XCTUnwrap(try json("budget", "show", "1", "--daily") as? [String: Any])
        let day = try XCTUnwrap((daily["days"] as? [[String: Any]])?.first { $0["day"] as? String == "2026-11-20" })
        XCTAssertEqual(minor(day["spent"]), 4733)
        XCTAssertEqual(day["expenses"] as? Int, 1)
        let cocoId = String(try decoded(BudgetOut.self, ["budget", "set", "Coco", "30000", "JPY", "--from", "2026-11-19", "--to", "2026-11-25"]).id)
        let cocoDaily = try XCTUnwrap(try json("budget", "show", cocoId, "--daily") as? [String: Any])
        XCTAssertEqual(minor((cocoDaily["days"] as? [[String: Any]])?.first { $0["day"] as? String == "2026-11-20" }?["spent"]), 2367)
    }

    func testVisitCostsAreSpendingExactlyOnce() throws {
        try ok("visit", "Coco", "--cost", "85000KRW", "--clinic", "Happy Paws", "--at", "2026-11-10")
        try ok("expense", "Coco", "15000", "KRW", "--category", "food", "--at", "2026-11-10")
        let listed = try list("--month", "2026-11", "--currency", "KRW")
        XCTAssertEqual(listed.total.converted.minorUnits, 100_000)
        let entries = try XCTUnwrap(listed.days.first?.entries)
        XCTAssertEqual(entries.map(\.source).sorted(), ["expense", "visit"])
        XCTAssertEqual(entries.first { $0.source == "visit" }?.category, "vet")
        // Without visits, only the expense.
        XCTAssertEqual(try list("--month", "2026-11", "--no-visits").days.first?.entries.count, 1)
    }

    func testTheListGroupsByLocalDayWithTotalsAndConvertsAtEachDaysRate() throws {
        // Rates arrive with a petlog JSON file (as `rates import` would store them): 1 EUR = 1.0500 USD, 1500 KRW.
        let file = home.appendingPathComponent("rates.json")
        try Data("""
        {"format": "petlog", "pets": [], "records": [], "rates": [
        {"day": "2026-11-19", "currency": "USD", "rate": "1.0500"}, {"day": "2026-11-19", "currency": "KRW", "rate": "1500"},
        {"day": "2026-11-20", "currency": "USD", "rate": "1.2000"}, {"day": "2026-11-20", "currency": "KRW", "rate": "1500"}]}
        """.utf8).write(to: file)
        try ok("import", file.path)
        // 23:30 in Seoul on the 19th is the 19th, though it is the 19th 14:30 UTC; 00:30 on the 21st is the 20th in UTC.
        try ok("expense", "Coco", "10.50", "USD", "--at", "2026-11-19 23:30")
        try ok("expense", "Coco", "12.00", "USD", "--at", "2026-11-21 00:30")
        try ok("expense", "Coco", "3000", "KRW", "--at", "2026-11-21 08:00")
        try ok("expense", "Coco", "500", "JPY", "--at", "2026-11-21 09:00")
        let listed = try list("--month", "2026-11", "--currency", "KRW")
        XCTAssertEqual(listed.days.map(\.day), ["2026-11-19", "2026-11-21"])
        // 10.50 USD on the 19th: 1050 × 1500 / 1.05 / 100 = 15,000 KRW; 12.00 USD on the 21st at the 20th's rate: 15,000 KRW.
        XCTAssertEqual(listed.entries.map { $0.converted?.minorUnits }, [15_000, 15_000, 3000, nil])
        XCTAssertEqual(listed.total.converted.minorUnits, 33_000)
        XCTAssertEqual(listed.total.unconverted, 1)
        let text = try ok("expense", "list", "--month", "2026-11", "--currency", "KRW")
        XCTAssertTrue(text.contains("Nov 19, 2026"), text)
        XCTAssertTrue(text.contains("no rate for that day"), text)
        XCTAssertTrue(text.contains("33,000"), text)
        for lang in ["ko", "ja"] {
            let r = try run(["--lang", lang, "expense", "list", "--month", "2026-11", "--currency", "KRW"])
            XCTAssertEqual(r.status, 0, r.stderr)
            XCTAssertTrue(r.stdout.contains("33,000"), r.stdout)
            XCTAssertFalse(r.stdout.contains("Total"), r.stdout)
        }
    }

    func testSearchStarAndEditCoverExpenses() throws {
        let r = try XCTUnwrap((try json("expense", "Coco", "20000", "KRW", "--category", "treats", "--merchant", "Dog Bakery",
                                        "--items", "duck jerky, 치즈볼") as? [[String: Any]])?.first)
        let id = String(try XCTUnwrap((r["id"] as? NSNumber)?.int64Value))
        for needle in ["bakery", "jerky", "치즈볼"] {
            XCTAssertTrue(try ok("search", needle).contains("#\(id)"), needle)
        }
        // A search matches what was written, not the category's other words: `껌` (chews, a treats word) is
        // in no record; a category search is `--category`, by any of the category's names.
        let gum = try XCTUnwrap(try json("expense", "Coco", "3000", "KRW", "--category", "treats", "--items", "껌 3개") as? [[String: Any]])
        let gumId = try XCTUnwrap((gum.first?["id"] as? NSNumber)?.stringValue)
        let found = try ok("search", "껌")
        XCTAssertTrue(found.contains("#\(gumId)"), found)
        XCTAssertFalse(found.contains("#\(id) "), found)
        XCTAssertEqual((try json("search", "껌") as? [Any])?.count, 1)
        XCTAssertEqual((try json("search", "간식") as? [Any])?.count, 0)
        for word in ["treats", "간식", "おやつ"] {
            XCTAssertEqual((try json("search", "--category", word) as? [[String: Any]])?.compactMap { ($0["id"] as? NSNumber)?.stringValue }, [id, gumId], word)
        }
        XCTAssertEqual(try recordsOut("search", "jerky", "--category", "간식").map { String($0.id) }, [id])
        XCTAssertEqual(try recordsOut("search", "jerky", "--category", "food").count, 0)
        try expectRefused(["search", "--category", "treets"], code: 65, mentions: "treats")
        try ok("star", id)
        XCTAssertTrue(try ok("expense", "list", "--starred").contains("★"))
        let e = try XCTUnwrap(try decoded(RecordOut.self, ["edit", id, "--merchant", "Pet Mart", "--category", "food", "--items", "kibble", "--payment", "cash"]).expense)
        XCTAssertEqual(e.merchant, "Pet Mart")
        XCTAssertEqual(e.category, "food")
        XCTAssertEqual(e.payment, "cash")
        try expectRefused(["edit", id, "--score", "3"], code: 64, mentions: "--score")
        try expectRefused(["edit", id, "--amount", "1.5"], code: 65, mentions: "1.5")
    }

    func testExportImportRoundTripWithItemsSplitsBudgetsAndRates() throws {
        try ok("expense", "Coco,Nabi", "45001", "KRW", "--items", "shampoo, 빗")
        try ok("expense", "9.99", "USD", "--category", "supplies")
        let seed = home.appendingPathComponent("seed.json")
        try Data("""
        {"format": "petlog", "pets": [], "records": [], "budgets": [
        {"id": 7, "pet_id": null, "money": {"minor_units": 300000, "currency": "KRW"}, "first_day": null, "last_day": null, "category": null, "per_pet": false}],
        "rates": [{"day": "2026-11-20", "currency": "USD", "rate": "1.0543"}]}
        """.utf8).write(to: seed)
        try ok("import", seed.path)
        let a = home.appendingPathComponent("a.json").path, b = home.appendingPathComponent("b.json").path
        try ok("export", "-o", a)
        let other = home.appendingPathComponent("other.sqlite").path
        XCTAssertEqual(try run(["--db", other, "import", a], useDefaultDB: true).status, 0)
        XCTAssertEqual(try run(["--db", other, "export", "-o", b], useDefaultDB: true).status, 0)
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: a)), try Data(contentsOf: URL(fileURLWithPath: b)))
        let text = try String(contentsOfFile: a, encoding: .utf8)
        XCTAssertTrue(text.contains("\"items\":[\"shampoo\",\"빗\"]"), text)
        XCTAssertTrue(text.contains("\"rate\": \"1.0543\""), text)
        XCTAssertTrue(text.contains("\"minor_units\":300000"), text)
        // The CSV folder carries the same (items, splits, budgets, rates in their own tables).
        let csv = home.appendingPathComponent("csv").path, fromCSV = home.appendingPathComponent("fromcsv.sqlite").path
        let c = home.appendingPathComponent("c.json").path
        try ok("export", "--format", "csv", "-o", csv)
        XCTAssertEqual(try run(["--db", fromCSV, "import", csv], useDefaultDB: true).status, 0)
        XCTAssertEqual(try run(["--db", fromCSV, "export", "-o", c], useDefaultDB: true).status, 0)
        XCTAssertEqual(try withoutNamespace(a), try withoutNamespace(c))
        // Importing the file again adds nothing.
        XCTAssertTrue(try run(["--db", other, "import", a], useDefaultDB: true).stdout.contains("Imported 0"))
        XCTAssertEqual(try run(["--db", other, "check"], useDefaultDB: true).status, 0)
        // A share whose first share is missing is refused with its line.
        let broken = text.replacingOccurrences(of: "\"split_of\":1", with: "\"split_of\":99")
        XCTAssertNotEqual(broken, text)
        let bad = home.appendingPathComponent("bad.json")
        try Data(broken.utf8).write(to: bad)
        let third = home.appendingPathComponent("third.sqlite").path
        let r = try run(["--db", third, "import", bad.path], useDefaultDB: true)
        XCTAssertEqual(r.status, 65, r.stderr)
        XCTAssertTrue(r.stderr.contains("#99"), r.stderr)
    }

    func testCheckFindsABrokenSplit() throws {
        try requireDatabaseFile()
        try ok("expense", "Coco,Nabi", "1000", "KRW")
        let sqlite = URL(fileURLWithPath: "/usr/bin/sqlite3")
        guard FileManager.default.isExecutableFile(atPath: sqlite.path) else { throw XCTSkip("sqlite3 not installed") }
        XCTAssertEqual(try launch(sqlite, [dbPath, "UPDATE expense SET split_of = 999 WHERE record_id = (SELECT max(record_id) FROM expense)"]).status, 0)
        let r = try run(["check"])
        XCTAssertEqual(r.status, 65)
        XCTAssertTrue(r.stdout.contains("split_of") || r.stderr.contains("split_of"), r.stdout + r.stderr)
    }

    // Issue 30: amounts that must not be saved silently.

    func testTwoCurrenciesInOneAmountAreRefused() throws {
        try expectRefused(["expense", "Nabi", "45000", "KRW", "USD"], code: 65, mentions: "two currencies")
        try expectRefused(["expense", "45000", "USD", "KRW"], code: 65, mentions: "two currencies")
        try expectRefused(["expense", "Coco", "$45", "KRW"], code: 65, mentions: "two currencies")
        try expectRefused(["expense", "Coco", "45000원", "USD"], code: 65, mentions: "45000원 USD")
        try expectRefused(["--lang", "ko", "expense", "Nabi", "45000", "KRW", "USD"], code: 65, mentions: "통화가 두 개")
        try expectRefused(["--lang", "ja", "expense", "45000", "USD", "KRW"], code: 65, mentions: "通貨が2つ")
        // The same currency twice is still one currency.
        XCTAssertEqual(try expenses("expense", "Coco", "$45", "USD").first?.expense?.money.minorUnits, 4500)
    }

    func testAnExpenseIsMoreThanZero() throws {
        try expectRefused(["expense", "Nabi", "0"], code: 65, mentions: "more than zero")
        try expectRefused(["expense", "0", "USD"], code: 65, mentions: "more than zero")
        try expectRefused(["expense", "Coco", "0.00", "USD"], code: 65, mentions: "0.00 USD")
        try expectRefused(["--lang", "ko", "expense", "Nabi", "0원"], code: 65, mentions: "0보다 커야")
        try expectRefused(["--lang", "ja", "expense", "Nabi", "0円"], code: 65, mentions: "0より大きく")
        let id = try XCTUnwrap(((try json("expense", "Coco", "5", "USD") as? [[String: Any]])?.first?["id"] as? NSNumber)?.stringValue)
        try expectRefused(["edit", id, "--amount", "0"], code: 65, mentions: "more than zero")
        try expectRefused(["edit", id, "--amount", "0 KRW"], code: 65, mentions: "more than zero")
        XCTAssertEqual(try recordsOut("log", "--kind", "expense").first?.expense?.money.minorUnits, 500)
    }

    func testEveryISOCurrencyWithItsOwnDigitsAndANoteWhereTheECBHasNoRate() throws {
        let cases: [([String], Int64, String)] = [
            (["500", "THB"], 50000, "THB"), (["1200", "INR"], 120000, "INR"), (["99.50", "PHP"], 9950, "PHP"),
            (["350", "MXN"], 35000, "MXN"), (["89.90", "BRL"], 8990, "BRL"), (["4500", "ISK"], 4500, "ISK"),
            (["1.250", "KWD"], 1250, "KWD"), (["150000", "VND"], 150000, "VND"),
            (["12.5", "clf"], 125000, "CLF"), (["TWD", "300"], 30000, "TWD"),
        ]
        for (words, minor, code) in cases {
            let r = try run(["expense", "Coco"] + words + ["--json"])
            XCTAssertEqual(r.status, 0, "\(words): \(r.stderr)")
            let money = try JSONOutput.decode([RecordOut].self, r.stdout).first?.expense?.money
            XCTAssertEqual(money?.minorUnits, minor, "\(words)")
            XCTAssertEqual(money?.currency, code, "\(words)")
            // The ECB publishes THB, INR, PHP, MXN, BRL, ISK; not KWD, VND, CLF, TWD: those are said, not refused.
            let unconvertible = ["KWD", "VND", "CLF", "TWD"].contains(code)
            XCTAssertEqual(r.stderr.contains("no rate for \(code)"), unconvertible, "\(words): \(r.stderr)")
        }
        // Digits the currency does not have are refused, as for the won.
        try expectRefused(["expense", "Coco", "4500.5", "ISK"], code: 65, mentions: "ISK")
        try expectRefused(["expense", "Coco", "1.2345", "KWD"], code: 65, mentions: "KWD")
        // The note in Korean and Japanese, and on edit.
        let ko = try run(["--lang", "ko", "expense", "Coco", "300", "TWD"])
        XCTAssertEqual(ko.status, 0)
        XCTAssertTrue(ko.stderr.contains("TWD 환율을 발표하지 않으므로"), ko.stderr)
        let ja = try run(["--lang", "ja", "expense", "Coco", "300", "TWD"])
        XCTAssertTrue(ja.stderr.contains("TWD の為替レートを公表していない"), ja.stderr)
        let id = try XCTUnwrap(((try json("expense", "Coco", "5", "USD") as? [[String: Any]])?.first?["id"] as? NSNumber)?.stringValue)
        let edited = try run(["edit", id, "--amount", "20000 VND"])
        XCTAssertEqual(edited.status, 0, edited.stderr)
        XCTAssertTrue(edited.stderr.contains("no rate for VND"), edited.stderr)
        // The list shows them, converted where a rate could be and said where not.
        XCTAssertTrue(try ok("expense", "list", "--currency", "THB").contains("THB"))
    }

    func testMessagesNameWhatIsWrongWithTheAmount() throws {
        // Below zero is said as money, not as a weight.
        let neg = try expectRefused(["expense", "Coco", "-5", "USD"], code: 65, mentions: "an amount of money cannot be negative")
        XCTAssertFalse(neg.stderr.contains("weight"), neg.stderr)
        let ko = try expectRefused(["--lang", "ko", "expense", "Coco", "-45000"], code: 65, mentions: "금액은 음수일 수 없습니다")
        XCTAssertFalse(ko.stderr.contains("체중"), ko.stderr)
        let ja = try expectRefused(["--lang", "ja", "expense", "Coco", "-1200円"], code: 65, mentions: "金額は負の値")
        XCTAssertFalse(ja.stderr.contains("体重"), ja.stderr)
        try expectRefused(["budget", "set", "-5", "USD"], code: 65, mentions: "an amount of money cannot be negative")
        try expectRefused(["expense", "Coco", "−5", "USD"], code: 65, mentions: "cannot be negative")
        // Words that are no number are a bad amount, not an unknown currency.
        for word in ["abc", "NaN", "inf", "Infinity"] {
            let r = try expectRefused(["expense", "Coco", word], code: 65, mentions: "is not an amount of money")
            XCTAssertFalse(r.stderr.contains("unknown currency"), r.stderr)
        }
        let ko2 = try expectRefused(["--lang", "ko", "expense", "Coco", "NaN"], code: 65, mentions: "올바른 금액이 아닙니다")
        XCTAssertFalse(ko2.stderr.contains("알 수 없는 통화"), ko2.stderr)
        // A code after a number that is no currency is still named as such.
        try expectRefused(["expense", "Coco", "12", "XYZ"], code: 65, mentions: "unknown currency \"XYZ\"")
        // A budget ending before it starts names the start date, not a reference day.
        try expectRefused(["budget", "set", "300000", "KRW", "--from", "2026-12-20", "--to", "2026-12-01"], code: 65, mentions: "before it starts (--from 2026-12-20)")
        let b = try expectRefused(["--lang", "ko", "budget", "set", "300000", "KRW", "--from", "2026-12-20", "--to", "2026-12-01"], code: 65, mentions: "시작일(--from 2026-12-20)")
        XCTAssertFalse(b.stderr.contains("기준일"), b.stderr)
        try expectRefused(["--lang", "ja", "budget", "set", "300000", "KRW", "--from", "2026-12-20", "--to", "2026-12-01"], code: 65, mentions: "開始日（--from 2026-12-20）")
    }

    func testKoreanAndJapaneseNumeralWordsCarryTheirCurrencyEverywhereAnAmountIsRead() throws {
        func logged(_ args: [String], lang: String, home: String) throws -> (Int64, String)? {
            let r = try run(args + ["--json"], env: ["LANG": lang, "PETLOG_CURRENCY": home])
            XCTAssertEqual(r.status, 0, "\(args) in \(lang)/\(home): \(r.stderr)")
            // A new record comes back in a list, an edited one alone.
            let one: RecordOut
            if let list = try? JSONOutput.decode([RecordOut].self, r.stdout), let first = list.first { one = first } else {
                one = try JSONOutput.decode(RecordOut.self, r.stdout)
            }
            return one.expense.map { ($0.money.minorUnits, $0.money.currency) }
        }
        // Won in every language and home currency: never $120,000,000.00.
        for (lang, home) in [("C.UTF-8", "USD"), ("en_US.UTF-8", "USD"), ("ko_KR.UTF-8", "KRW"), ("ja_JP.UTF-8", "JPY"), ("en_US.UTF-8", "JPY")] {
            XCTAssertEqual(try logged(["expense", "1억2천만"], lang: lang, home: home)?.0, 120_000_000, "\(lang) \(home)")
            XCTAssertEqual(try logged(["expense", "Coco", "1.5만"], lang: lang, home: home)?.1, "KRW", "\(lang) \(home)")
            XCTAssertEqual(try logged(["expense", "Coco", "3千円"], lang: lang, home: home)?.1, "JPY", "\(lang) \(home)")
        }
        // A bare 万 is yen in Japanese; in English with dollars at home it is refused, nothing written.
        XCTAssertEqual(try logged(["expense", "Coco", "1.5万"], lang: "ja_JP.UTF-8", home: "USD").map { "\($0.0) \($0.1)" }, "15000 JPY")
        XCTAssertEqual(try logged(["expense", "Coco", "1.5万"], lang: "C.UTF-8", home: "JPY").map { "\($0.0) \($0.1)" }, "15000 JPY")
        try expectRefused(["expense", "Coco", "1.5万"], code: 65, mentions: "\"1.5万\" is written in kanji numerals", env: ["PETLOG_CURRENCY": "USD"])
        try expectRefused(["expense", "1万2千"], code: 65, mentions: "home currency USD", env: ["PETLOG_CURRENCY": "USD"])
        try expectRefused(["--lang", "ko", "expense", "Coco", "1.5万"], code: 65, mentions: "한자 숫자", env: ["PETLOG_CURRENCY": "KRW"])
        // Every other place an amount is read: a budget, a visit's and a grooming's cost, an edit.
        let usd = ["PETLOG_CURRENCY": "USD"]
        XCTAssertEqual(try decoded(BudgetOut.self, ["budget", "set", "50만"], env: usd).amount.currency, "KRW")
        XCTAssertEqual(try run(["visit", "Coco", "--cost", "8만5천"], env: usd).status, 0)
        let visit = try XCTUnwrap((try JSONSerialization.jsonObject(with: Data(try run(["log", "--kind", "visit", "--json"]).stdout.utf8)) as? [[String: Any]])?.last)
        XCTAssertEqual(((visit["visit"] as? [String: Any])?["cost"] as? [String: Any])?["currency"] as? String, "KRW")
        let visitId = try XCTUnwrap((visit["id"] as? NSNumber)?.stringValue)
        try expectRefused(["edit", visitId, "--cost", "2万"], code: 65, mentions: "kanji numerals", env: usd)
        let edited = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(try run(["edit", visitId, "--cost", "9만", "--json"], env: usd).stdout.utf8)) as? [String: Any])
        XCTAssertEqual(((edited["visit"] as? [String: Any])?["cost"] as? [String: Any])?["minor_units"] as? Int, 90_000)
        let plain = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(try run(["edit", visitId, "--cost", "70000", "--json"], env: usd).stdout.utf8)) as? [String: Any])
        XCTAssertEqual(((plain["visit"] as? [String: Any])?["cost"] as? [String: Any])?["currency"] as? String, "KRW", "a bare number keeps the cost's currency")
        try expectRefused(["groom", "Coco", "bath", "--cost", "3万"], code: 65, mentions: "kanji numerals", env: usd)
    }

    func testAnAmountsErrorNamesTheWordsThatAreWrong() throws {
        // No pet: the whole is the amount ("USD" is not what is wrong).
        let r = try expectRefused(["expense", "12.345", "USD"], code: 65, mentions: "\"12.345 USD\" has more decimals than USD allows (2)")
        XCTAssertFalse(r.stderr.contains("\"USD\" is not"), r.stderr)
        try expectRefused(["expense", "Coco", "12.345", "USD"], code: 65, mentions: "\"12.345 USD\" has more decimals")
        try expectRefused(["expense", "1.200,50", "EUR"], code: 65, mentions: "\"1.200,50 EUR\" is not an amount of money")
        try expectRefused(["budget", "set", "--", "-5", "USD"], code: 65, mentions: "\"-5 USD\" is below zero")
        try expectRefused(["budget", "set", "12.345", "USD"], code: 65, mentions: "\"12.345 USD\" has more decimals")
        try expectRefused(["budget", "set", "Coco", "12.345", "USD"], code: 65, mentions: "\"12.345 USD\" has more decimals")
    }

    func testPaymentIsWrittenOneWayOnExpenseEditAndScan() throws {
        func payment(_ out: Any) -> String? {
            let r = (out as? [[String: Any]])?.first ?? (out as? [String: Any])
            return (r?["expense"] as? [String: Any])?["payment"] as? String
        }
        XCTAssertEqual(payment(try json("expense", "Coco", "12.50", "USD", "--payment", "card")), "card")
        XCTAssertEqual(payment(try json("expense", "Coco", "3000", "KRW", "--payment", "other")), "other")
        let cash = try json("expense", "Coco", "3000", "KRW", "--cash")
        XCTAssertEqual(payment(cash), "cash")
        let id = try XCTUnwrap(((cash as? [[String: Any]])?.first?["id"] as? NSNumber)?.stringValue)
        XCTAssertEqual(payment(try json("edit", id, "--card")), "card")
        XCTAssertEqual(payment(try json("edit", id, "--cash")), "cash")
        XCTAssertEqual(payment(try json("edit", id, "--payment", "other")), "other")
        // A bank transfer is a payment of its own: logged, edited, shown in the user's words, exported and read back.
        let transfer = try json("expense", "Coco", "50000", "KRW", "--payment", "transfer")
        XCTAssertEqual(payment(transfer), "transfer")
        let transferID = try XCTUnwrap(((transfer as? [[String: Any]])?.first?["id"] as? NSNumber)?.stringValue)
        XCTAssertEqual(payment(try json("edit", id, "--payment", "transfer")), "transfer")
        XCTAssertTrue(try run(["show", transferID]).stdout.contains("bank transfer"))
        XCTAssertTrue(try run(["show", transferID], env: ["LANG": "ko_KR.UTF-8"]).stdout.contains("계좌이체"))
        XCTAssertTrue(try run(["show", transferID], env: ["LANG": "ja_JP.UTF-8"]).stdout.contains("振込"))
        let exported = home.appendingPathComponent("transfer.json")
        try ok("export", "-o", exported.path)
        let copy = home.appendingPathComponent("transfer-copy.sqlite").path
        let imported = try run(["--db", copy, "import", exported.path], useDefaultDB: true)
        XCTAssertEqual(imported.status, 0, imported.stderr)
        let shown = try run(["--db", copy, "show", transferID, "--json"], useDefaultDB: true)
        XCTAssertEqual(payment(try JSONSerialization.jsonObject(with: Data(shown.stdout.utf8))), "transfer", shown.stdout + shown.stderr)
        try expectRefused(["expense", "Coco", "5", "USD", "--card", "--payment", "cash"], code: 64, mentions: "--card, --payment")
        try expectRefused(["edit", id, "--card", "--cash"], code: 64, mentions: "--card, --cash")
        try expectRefused(["expense", "Coco", "5", "USD", "--payment", "cheque"], code: 65, mentions: "cheque")
        let weight = try XCTUnwrap(((try json("weight", "Coco", "4.1kg") as? [[String: Any]])?.first?["id"] as? NSNumber)?.stringValue)
        try expectRefused(["edit", weight, "--cash"], code: 64, mentions: "--cash")
        for command in [["expense", "add", "--help"], ["edit", "--help"], ["expense", "scan", "--help"]] {
            let help = try run(command).stdout
            for flag in ["--card", "--cash", "--payment"] { XCTAssertTrue(help.contains(flag), "\(command): \(flag)") }
        }
    }

    func testTheListAsOneSheetForASpreadsheet() throws {
        let file = home.appendingPathComponent("rates.json")
        try Data("""
        {"format": "petlog", "pets": [], "records": [], "rates": [
        {"day": "2026-11-20", "currency": "JPY", "rate": "203"}, {"day": "2026-11-20", "currency": "KRW", "rate": "1930"}]}
        """.utf8).write(to: file)
        try ok("import", file.path)
        try ok("expense", "Coco,Nabi", "45000", "KRW", "--category", "treats", "--items", "껌, jerky", "--at", "2026-11-20 12:00")
        try ok("expense", "Coco", "12.50", "USD", "--merchant", "=HYPERLINK(\"x\")", "--card", "--note", "two, words", "--at", "2026-11-21 14:32")
        let r = try run(["expense", "list", "--csv", "--month", "2026-11", "--currency", "JPY"])
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertEqual(r.stdout.components(separatedBy: "\r\n"), [
            "id,date,time,amount,currency,converted,converted_currency,merchant,category,items,payment,pets,note",
            // One row a payment: the split purchase whole, converted once (¥4,733), both pets named.
            "1,2026-11-20,12:00,45000,KRW,4733,JPY,,treats,\"껌, jerky\",,\"Coco, Nabi\",",
            // No USD rate: the converted cell is empty, never a guess; a formula is shown, not run.
            "3,2026-11-21,14:32,12.50,USD,,JPY,\"'=HYPERLINK(\"\"x\"\")\",other,,card,Coco,\"two, words\"",
            "",
        ])
        // A pet's sheet has its share; -o writes the file whole.
        let out = home.appendingPathComponent("nabi.csv").path
        XCTAssertEqual(try run(["expense", "list", "Nabi", "--csv", "-o", out, "--month", "2026-11", "--currency", "JPY"]).status, 0)
        XCTAssertEqual(try String(contentsOfFile: out, encoding: .utf8).components(separatedBy: "\r\n")[1],
                       "1,2026-11-20,12:00,22500,KRW,2366,JPY,,treats,\"껌, jerky\",,Nabi,")
        try expectRefused(["expense", "list", "-o", home.appendingPathComponent("x.csv").path], code: 64, mentions: "--csv")
        XCTAssertFalse(FileManager.default.fileExists(atPath: home.appendingPathComponent("x.csv").path))
    }

    func testTheSmallerMoneyAnswers() throws {
        // Only a receipt the expense has already: nothing changed, said so, and no step for undo.
        let receipt = home.appendingPathComponent("r1.jpg")
        try Data([0xFF, 0xD8, 0xFF, 0xE0, 1, 2, 3, 4]).write(to: receipt)
        let id = try XCTUnwrap(((try json("expense", "Coco", "12000", "KRW", "--merchant", "Pet Mart", "--receipt", receipt.path) as? [[String: Any]])?.first?["id"] as? NSNumber)?.stringValue)
        let steps = try ok("undo", "--list")
        let again = try run(["edit", id, "--receipt", receipt.path])
        XCTAssertEqual(again.status, 0, again.stderr)
        XCTAssertTrue(again.stdout.contains("#\(id) expense: nothing changed"), again.stdout)
        XCTAssertFalse(again.stdout.contains("updated"), again.stdout)
        XCTAssertEqual(try ok("undo", "--list"), steps, "no undo step for an edit that changed nothing")
        // An empty value clears the merchant, as for every other text field.
        let cleared = try XCTUnwrap(try json("edit", id, "--merchant", "") as? [String: Any])
        XCTAssertTrue((cleared["expense"] as? [String: Any])?["merchant"] is NSNull, "\(cleared)")
        // The TWD note says the ECB never has it and how to import one; the list does not suggest rates update.
        let twd = try run(["expense", "Coco", "300", "TWD"])
        XCTAssertTrue(twd.stderr.contains("petlog rates update will not bring one") && twd.stderr.contains("petlog rates import FILE"), twd.stderr)
        let list = try ok("expense", "list", "--currency", "KRW")
        XCTAssertTrue(list.contains("the ECB never publishes a rate for TWD"), list)
        XCTAssertFalse(list.contains("(petlog rates update"), list)
        try ok("budget", "set", "100000", "KRW")
        let budget = try ok("budget", "show")
        XCTAssertTrue(budget.contains("1 expense in TWD not counted: the ECB never publishes a rate for TWD"), budget)
        XCTAssertFalse(budget.contains("(petlog rates update"), budget)
        // Zone abbreviations: one rule, none is a zone (JST was read, KST refused), the zone meant suggested.
        try expectRefused(["--tz", "JST", "log"], code: 64, mentions: "such as Asia/Tokyo")
        try expectRefused(["--tz", "KST", "log"], code: 64, mentions: "such as Asia/Seoul")
        try expectRefused(["log"], code: 64, mentions: "\"PST\" is an abbreviation", env: ["PETLOG_TZ": "PST"])
        XCTAssertEqual(try run(["--tz", "Asia/Tokyo", "log"]).status, 0)
        XCTAssertEqual(try run(["--tz", "UTC", "log"]).status, 0)
        // Nothing to open is said before looking for a viewer (PATH has no xdg-open here).
        let bare = try XCTUnwrap(((try json("expense", "Coco", "500", "KRW") as? [[String: Any]])?.first?["id"] as? NSNumber)?.stringValue)
        let open = try run(["show", bare, "--open"], env: ["PATH": "/nonexistent"])
        XCTAssertEqual(open.status, 0, open.stderr)
        XCTAssertEqual(open.stdout, "No attachments\n")
        // A day's list is "on" the day; the refusal names kinds without a wrong article.
        XCTAssertTrue(try ok("expense", "list", "--day", "2026-11-23").hasPrefix("Spending on Nov 23, 2026\n"))
        try expectRefused(["edit", bare, "--photo", receipt.path], code: 64, mentions: "--photo does not apply to expense records")
    }

    func testTheYenAsABackslashAndKanjiNumerals() throws {
        let cases: [(String, [String], Int64, String)] = [
            ("ja", ["\\1,200"], 1200, "JPY"), ("en", ["\\1200"], 1200, "JPY"), ("ja", ["千二百円"], 1200, "JPY"),
            ("ja", ["1万2千円"], 12000, "JPY"), ("ja", ["二万五千円"], 25000, "JPY"), ("ja", ["三千円"], 3000, "JPY"),
            ("ja", ["二〇〇円"], 200, "JPY"), ("ja", ["百円"], 100, "JPY"), ("ko", ["4만5천원"], 45000, "KRW"),
            ("ko", ["3만 5천원"], 35000, "KRW"), ("ja", ["＼１，２００"], 1200, "JPY"),
        ]
        for (lang, amount, minor, currency) in cases {
            let money = try decoded([RecordOut].self, ["--lang", lang, "expense", "Coco"] + amount).first?.expense?.money
            XCTAssertEqual(money?.minorUnits, minor, "\(amount)")
            XCTAssertEqual(money?.currency, currency, "\(amount)")
        }
        // A number in two kinds of digit, or a backslash with another currency, is refused.
        try expectRefused(["--lang", "ja", "expense", "Coco", "1二00円"], code: 65, mentions: "1二00円")
        try expectRefused(["expense", "Coco", "\\1200", "USD"], code: 65, mentions: "two currencies")
    }

    // Issue 30: the receipt book's list.

    func testTheListOpensOneDayStarredAcrossMonthsNewestFirstAndASplitIsOneLine() throws {
        try ok("expense", "Coco", "9000", "KRW", "--merchant", "Pet Mart", "--at", "2026-10-03 12:00")
        let split = try XCTUnwrap(try json("expense", "Coco,Nabi", "30000", "KRW", "--merchant", "Vet Mall", "--at", "2026-11-10 12:00") as? [[String: Any]])
        try ok("expense", "Nabi", "4000", "KRW", "--merchant", "Daiso", "--at", "2026-11-10 18:00")
        try ok("expense", "Mochi", "7000", "KRW", "--at", "2026-11-12 09:00")
        let oct = try XCTUnwrap(((try json("log", "--kind", "expense", "--until", "2026-10-31") as? [[String: Any]])?.first?["id"] as? NSNumber)?.stringValue)
        try ok("star", oct)
        try ok("star", try XCTUnwrap((split.first?["id"] as? NSNumber)?.stringValue))
        // One line for the shared purchase, with each pet's share; the month counts it once.
        let nov = try ok("expense", "list", "--month", "2026-11", "--currency", "KRW")
        XCTAssertTrue(nov.contains("₩30,000  Coco ₩15,000, Nabi ₩15,000 · other · Vet Mall · shared"), nov)
        XCTAssertEqual(nov.components(separatedBy: "Vet Mall").count - 1, 1, nov)
        XCTAssertTrue(nov.contains("Total for Nov 2026: ₩41,000"), nov)
        // A pet asked for sees its share.
        XCTAssertTrue(try ok("expense", "list", "Nabi", "--month", "2026-11", "--currency", "KRW").contains("₩15,000  other · Vet Mall · shared"))
        // --day: that day only, in en/ko/ja.
        let day = try ok("expense", "list", "--day", "2026-11-10", "--currency", "KRW")
        XCTAssertTrue(day.hasPrefix("Spending on Nov 10, 2026\n"), day)
        XCTAssertTrue(day.contains("Daiso") && !day.contains("Mochi"), day)
        XCTAssertTrue(day.contains("Total for Nov 10, 2026: ₩34,000"), day)
        XCTAssertTrue(try ok("--lang", "ko", "expense", "list", "--day", "2026-11-10").contains("2026년 11월 10일 합계: 34,000원"))
        XCTAssertTrue(try ok("--lang", "ja", "expense", "list", "--day", "2026-11-10", "--currency", "KRW").contains("2026年11月10日の合計: ₩34,000"))
        XCTAssertTrue(try ok("expense", "list", "--day", "2026-11-11").contains("No spending on this day."))
        let dj = try list("--day", "2026-11-10", "--currency", "KRW")
        XCTAssertEqual(dj.day, "2026-11-10")
        XCTAssertEqual(dj.days.count, 1)
        try expectRefused(["expense", "list", "--day", "2026-11-10", "--month", "2026-11"], code: 64, mentions: "--day")
        try expectRefused(["expense", "list", "--day", "someday"], code: 65, mentions: "someday")
        // --starred alone: every month; with --month, that month.
        let starred = try ok("expense", "list", "--starred", "--currency", "KRW")
        XCTAssertTrue(starred.hasPrefix("Starred spending, every month"), starred)
        XCTAssertTrue(starred.contains("Pet Mart") && starred.contains("Vet Mall") && !starred.contains("Daiso"), starred)
        XCTAssertTrue(starred.contains("Total: ₩24,000"), starred)
        XCTAssertFalse(try ok("expense", "list", "--starred", "--month", "2026-11", "--currency", "KRW").contains("Pet Mart"))
        XCTAssertTrue(try ok("--lang", "ko", "expense", "list", "--starred").contains("별표한 지출 (모든 달)"))
        XCTAssertTrue(try ok("--lang", "ja", "expense", "list", "--starred").contains("スター付きの支出（全期間）"))
        // --reverse: newest first, days and the entries in them.
        let rev = try ok("expense", "list", "--month", "2026-11", "--reverse", "--currency", "KRW")
        let order = ["Mochi", "Daiso", "Vet Mall"].map { rev.range(of: $0)?.lowerBound }
        XCTAssertTrue(order.allSatisfy { $0 != nil } && order[0]! < order[1]! && order[1]! < order[2]!, rev)
        XCTAssertEqual(try list("--month", "2026-11", "--reverse").days.map(\.day), ["2026-11-12", "2026-11-10"])
    }
}
