import Foundation
import XCTest
import PetlogTestSupport

/// `groom`: the grooming kind end to end (issue 28's proof of the kind descriptor), on both stores.
final class GroomingCommandTests: CLITestCase {
    func path(_ name: String) -> String { home.appendingPathComponent(name).path }

    /// `log --json`, typed.
    func records(_ args: String...) throws -> [RecordOut] { try decoded([RecordOut].self, ["log"] + args) }

    func tasks(_ record: RecordOut) -> [String] { record.detail["tasks"]?.array?.compactMap(\.string) ?? [] }

    func testWhatIsTypedInEnglishKoreanAndJapanese() throws {
        try ok("pet", "add", "Coco", "--species", "dog")
        try ok("groom", "Coco", "bath", "nails", "--at", "2026-11-01 10:00")
        // A name of two words may come unquoted (`귀 청소`), or as one argument, or in a comma list.
        try ok("groom", "Coco", "목욕", "귀", "청소", "털 관리", "--at", "2026-11-02 10:00")
        try ok("groom", "Coco", "미용,발톱、양치", "빗질", "--at", "2026-11-03 10:00")
        try ok("groom", "Coco", "シャンプー", "カット", "爪切り", "耳掃除", "歯磨き", "ブラッシング", "抜け毛ケア", "--at", "2026-11-04 10:00")
        try ok("groom", "Coco", "トリミング", "커트", "haircut", "--at", "2026-11-05 10:00")
        // No task named: a grooming all the same.
        try ok("groom", "Coco", "--at", "2026-11-06 10:00")
        let byDay = try records("--kind", "grooming").sorted { $0.at < $1.at }
        XCTAssertEqual(byDay.map(tasks), [
            ["bath", "nails"], ["bath", "ears", "deshedding"], ["haircut", "nails", "teeth", "brushing"],
            ["bath", "haircut", "nails", "ears", "teeth", "brushing", "deshedding"], ["haircut"], [],
        ])
        // Each language names the tasks its own way.
        XCTAssertTrue(try run(["--lang", "ko", "log", "Coco", "--since", "60d"]).stdout.contains("목욕, 귀 청소, 털 관리"))
        XCTAssertTrue(try run(["--lang", "ja", "log", "Coco", "--since", "60d"]).stdout.contains("シャンプー, 耳掃除, 抜け毛ケア"))
        XCTAssertTrue(try ok("log", "Coco", "--since", "60d").contains("bath, ears, deshedding"))
    }

    func testAnUnknownWordIsRefusedWithTheList() throws {
        try ok("pet", "add", "Coco", "--species", "dog")
        for (lang, word, listed) in [("en", "shave", "bath, haircut, nails, ears, teeth, brushing, deshedding"),
                                     ("ko", "면도", "목욕, 커트, 발톱, 귀 청소, 양치, 빗질, 털 관리"),
                                     ("ja", "ひげ剃り", "シャンプー, カット, 爪切り, 耳掃除, 歯磨き, ブラッシング, 抜け毛ケア")] {
            let r = try run(["--lang", lang, "groom", "Coco", "bath", word])
            XCTAssertEqual(r.status, 65, r.stderr)
            XCTAssertTrue(r.stderr.contains(word) && r.stderr.contains(listed), r.stderr)
            XCTAssertEqual(r.stderr.split(separator: "\n").count, 1, r.stderr)
        }
        // Nothing was written.
        XCTAssertTrue(try records().isEmpty)
        // A control character in a word or the groomer is refused too, not stored.
        XCTAssertEqual(try run(["groom", "Coco", "bath\u{1B}[31m"]).status, 65)
        XCTAssertEqual(try run(["groom", "Coco", "bath", "--by", "Salon\u{1B}[2J"]).status, 65)
        XCTAssertEqual(try run(["groom", "Coco", "bath", "--cost", "12 apples"]).status, 65)
        XCTAssertTrue(try records().isEmpty)
    }

    func testHostileNamesAndNotesStayText() throws {
        let name = "Rex \"$(rm -rf ~)\" 🐶 렉스"
        try ok("pet", "add", name, "--species", "dog")
        let groomer = "=HYPERLINK(\"http://x\") `id` 'Salon' ☂"
        let note = "said \"hi\"; $(touch \(path("pwned"))) 👋 ユキ"
        try ok("groom", name, "bath", "--by", groomer, "--note", note, "--cost", "30000KRW")
        XCTAssertFalse(FileManager.default.fileExists(atPath: path("pwned")))
        let r = try records().first
        XCTAssertEqual(r?.pet, name)
        XCTAssertEqual(r?.note, note)
        XCTAssertEqual(r?.detail["groomer"]?.string, groomer)
        // The spreadsheet export guards the formula; import takes the guard off again.
        try ok("export", "--format", "csv", "-o", path("csv"))
        let csv = try String(contentsOfFile: path("csv/grooming.csv"), encoding: .utf8)
        XCTAssertTrue(csv.contains("'=HYPERLINK"), csv)
        try ok("export", "-o", path("a.json"))
        XCTAssertEqual(try run(["--db", path("b.sqlite"), "import", path("csv")], useDefaultDB: true).status, 0)
        XCTAssertEqual(try run(["--db", path("b.sqlite"), "export", "-o", path("b.json")], useDefaultDB: true).status, 0)
        XCTAssertEqual(try withoutNamespace(path("a.json")), try withoutNamespace(path("b.json")))
        XCTAssertTrue(try ok("search", "HYPERLINK").contains("Rex"))
    }

    func testSeveralPetsEachCostCountedOnceAsGroomingSpending() throws {
        try ok("pet", "add", "Coco", "--species", "dog")
        try ok("pet", "add", "Nabi", "--species", "cat")
        let out = try ok("groom", "Coco,Nabi", "bath", "--cost", "30000KRW", "--by", "Fluffy", "--at", "2026-11-20 14:00")
        XCTAssertEqual(out.split(separator: "\n").count, 2, out)
        try ok("expense", "Coco", "12000KRW", "--category", "grooming", "--merchant", "Pet Mart", "--at", "2026-11-21 10:00")
        try ok("visit", "Coco", "--cost", "50000KRW", "--at", "2026-11-22 10:00")
        // No expense copies a grooming: the only expense is the one typed.
        XCTAssertEqual(try records("--kind", "expense").count, 1)
        // The expense list: both groomings as grooming spending, beside the expense and the visit.
        func entriesOf(_ list: Any) -> [[String: Any]] {
            ((list as? [String: Any])?["days"] as? [[String: Any]] ?? []).flatMap { $0["entries"] as? [[String: Any]] ?? [] }
        }
        let list = try json("expense", "list", "--month", "2026-11", "--currency", "KRW")
        let entries = entriesOf(list)
        let grooming = entries.filter { ($0["category"] as? String) == "grooming" }
        XCTAssertEqual(grooming.count, 3, "\(list)")
        XCTAssertEqual(grooming.filter { ($0["source"] as? String) == "grooming" }.count, 2)
        XCTAssertEqual(entries.filter { ($0["source"] as? String) == "visit" }.count, 1)
        // Expenses only: no groomings, no visits.
        XCTAssertEqual(entriesOf(try json("expense", "list", "--month", "2026-11", "--no-visits")).count, 1)
        // stats: 42,000 of grooming for Coco (30,000 + 12,000), 72,000 for the household; two groomings.
        let coco = (try json("stats", "Coco", "--month", "2026-11", "--currency", "KRW") as? [String: Any])?["items"] as? [[String: Any]] ?? []
        func item(_ rows: [[String: Any]], _ key: String) -> Int? { rows.first { ($0["item"] as? String) == key }?["this_month"] as? Int }
        XCTAssertEqual(item(coco, "spending:KRW:grooming"), 42_000)
        XCTAssertEqual(item(coco, "spending:KRW:vet"), 50_000)
        XCTAssertEqual(item(coco, "groomings"), 1)
        let all = (try json("stats", "--month", "2026-11", "--currency", "KRW") as? [String: Any])?["items"] as? [[String: Any]] ?? []
        XCTAssertEqual(item(all, "spending:KRW:grooming"), 72_000)
        XCTAssertEqual(item(all, "spending:KRW"), 122_000)
        XCTAssertEqual(item(all, "groomings"), 2)
        XCTAssertTrue(try ok("stats", "--month", "2026-11", "--currency", "KRW").contains("Groomings"))
        // The spending calendar counts each once too.
        let cal = try json("calendar", "--spending", "--month", "2026-11", "--currency", "KRW") as? [String: Any]
        XCTAssertEqual((cal?["total"] as? [String: Any])?["minor_units"] as? Int, 122_000)
        // The record calendar has its own mark, in its legend.
        let grid = try ok("calendar", "--month", "2026-11")
        XCTAssertTrue(grid.contains("G grooming"), grid)
        let days = (try json("calendar", "--month", "2026-11") as? [String: Any])?["days"] as? [[String: Any]] ?? []
        XCTAssertEqual((days.first { ($0["date"] as? String) == "2026-11-20" }?["kinds"] as? [String: Int])?["grooming"], 2)
    }

    func testNextSessionIsDueAndInTheCalendarFile() throws {
        try ok("pet", "add", "Coco", "--species", "dog")
        try ok("groom", "Coco", "haircut", "--next", "3w", "--at", "2026-11-10 10:00")
        var due = try json("due") as? [[String: Any]] ?? []
        XCTAssertEqual(due.count, 1, "\(due)")
        XCTAssertEqual(due.first?["kind"] as? String, "next_grooming")
        XCTAssertEqual(due.first?["due_on"] as? String, "2026-12-01")
        XCTAssertTrue(try ok("due").contains("next grooming"))
        XCTAssertTrue(try run(["--lang", "ko", "due"]).stdout.contains("다음 미용"))
        XCTAssertTrue(try run(["--lang", "ja", "due"]).stdout.contains("次回のトリミング"))
        try ok("due", "--ics", path("due.ics"))
        let ics = try String(contentsOfFile: path("due.ics"), encoding: .utf8)
        XCTAssertTrue(ics.contains("DTSTART;VALUE=DATE:20261201"), ics)
        XCTAssertTrue(ics.contains("next grooming"), ics)
        // `--next` is not before the grooming's own day.
        XCTAssertEqual(try run(["groom", "Coco", "bath", "--next", "2026-11-01", "--at", "2026-11-10 10:00"]).status, 65)
        // A later grooming answers it.
        try ok("groom", "Coco", "bath", "--at", "2026-11-22 10:00")
        due = try json("due") as? [[String: Any]] ?? []
        XCTAssertTrue(due.isEmpty, "\(due)")
    }

    func testEditAndUndo() throws {
        try ok("pet", "add", "Coco", "--species", "dog")
        try ok("groom", "Coco", "bath", "--by", "A", "--cost", "20000KRW", "--at", "2026-11-20 10:00")
        try ok("export", "-o", path("before.json"))
        let out = try ok("edit", "1", "--what", "목욕 귀 청소", "--by", "Salon B", "--cost", "25000KRW", "--next", "2026-12-24")
        XCTAssertTrue(out.contains("bath, ears · Salon B · ₩25,000 · next 2026-12-24"), out)
        let g = try XCTUnwrap(try records().first)
        XCTAssertEqual(tasks(g), ["bath", "ears"])
        XCTAssertEqual(g.detail["cost"]?["minor_units"]?.int, 25_000)
        // An option of another kind is refused, an unknown word too.
        XCTAssertEqual(try run(["edit", "1", "--clinic", "x"]).status, 64)
        XCTAssertEqual(try run(["edit", "1", "--what", "shave"]).status, 65)
        XCTAssertEqual(try run(["visit", "Coco", "--at", "2026-11-21 10:00"]).status, 0)
        XCTAssertEqual(try run(["edit", "2", "--by", "x"]).status, 64)
        try ok("undo")
        try ok("undo")
        try ok("export", "-o", path("after.json"))
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: path("before.json"))), try Data(contentsOf: URL(fileURLWithPath: path("after.json"))))
        try ok("undo")
        XCTAssertTrue(try records().isEmpty)
        XCTAssertEqual(try run(["check"]).stdout, "")
    }

    func testExportImportRoundTripsToTheByte() throws {
        try ok("pet", "add", "Coco", "--species", "dog")
        try ok("pet", "add", "나비", "--species", "cat")
        try ok("groom", "Coco,나비", "bath", "nails", "--by", "Fluffy, \"the\" salon", "--cost", "$45.50", "--next", "6w", "--at", "2026-11-20 14:00")
        try ok("groom", "Coco", "--at", "2026-11-21 09:00", "--note", "line one")
        try ok("groom", "나비", "歯磨き", "--cost", "¥3000", "--at", "2026-11-22 09:00")
        try ok("star", "3")
        // JSON: export, import into a new file, export again.
        try ok("export", "-o", path("a.json"))
        let a = try String(contentsOfFile: path("a.json"), encoding: .utf8)
        XCTAssertTrue(a.contains("\"grooming\""), a)
        XCTAssertEqual(try run(["--db", path("b.sqlite"), "import", path("a.json")], useDefaultDB: true).status, 0)
        XCTAssertEqual(try run(["--db", path("b.sqlite"), "export", "-o", path("b.json")], useDefaultDB: true).status, 0)
        XCTAssertEqual(a, try String(contentsOfFile: path("b.json"), encoding: .utf8))
        // CSV: a table of its own, then the same tables again.
        try ok("export", "--format", "csv", "-o", path("csv1"))
        let table = try String(contentsOfFile: path("csv1/grooming.csv"), encoding: .utf8)
        XCTAssertTrue(table.hasPrefix("record_id,tasks,groomer,cost_minor,cost_currency,next_due"), table)
        XCTAssertTrue(table.contains("\"bath,nails\""), table)
        XCTAssertEqual(try run(["--db", path("c.sqlite"), "import", path("csv1")], useDefaultDB: true).status, 0)
        XCTAssertEqual(try run(["--db", path("c.sqlite"), "export", "--format", "csv", "-o", path("csv2")], useDefaultDB: true).status, 0)
        let names = try FileManager.default.contentsOfDirectory(atPath: path("csv1")).sorted()
        XCTAssertEqual(names, try FileManager.default.contentsOfDirectory(atPath: path("csv2")).sorted())
        for n in names {
            XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: path("csv1/" + n))), try Data(contentsOf: URL(fileURLWithPath: path("csv2/" + n))), n)
        }
        // Importing the same file again finds every grooming already there.
        let again = try run(["--db", path("b.sqlite"), "import", path("a.json"), "--json"], useDefaultDB: true)
        XCTAssertEqual(again.status, 0, again.stderr)
        XCTAssertEqual(try run(["--db", path("b.sqlite"), "log", "--kind", "grooming", "--json"], useDefaultDB: true).stdout,
                       try run(["--db", path("c.sqlite"), "log", "--kind", "grooming", "--json"], useDefaultDB: true).stdout)
        // A grooming with a task petlog does not know is refused by the import, naming the line.
        let bad = a.replacingOccurrences(of: "\"nails\"", with: "\"shave\"")
        try Data(bad.utf8).write(to: URL(fileURLWithPath: path("bad.json")))
        let r = try run(["--db", path("d.sqlite"), "import", path("bad.json")], useDefaultDB: true)
        XCTAssertEqual(r.status, 65, r.stderr)
        XCTAssertTrue(r.stderr.contains("shave"), r.stderr)
        XCTAssertEqual(try run(["check"]).stdout, "")
        XCTAssertEqual(try run(["--db", path("b.sqlite"), "check"], useDefaultDB: true).stdout, "")
    }

    func testSearchFindsTasksByAnyOfTheirNamesAndTheGroomer() throws {
        try ok("pet", "add", "Coco", "--species", "dog")
        try ok("groom", "Coco", "bath", "--by", "Fluffy Grooming Salon", "--at", "2026-11-20 14:00")
        try ok("groom", "Coco", "nails", "--at", "2026-11-21 14:00")
        func ids(_ query: String) throws -> [Int] {
            try decoded([RecordOut].self, ["search", query]).map { Int($0.id) }.sorted()
        }
        XCTAssertEqual(try ids("목욕"), [1])
        XCTAssertEqual(try ids("シャンプー"), [1])
        XCTAssertEqual(try ids("bath"), [1])
        XCTAssertEqual(try ids("발톱"), [2])
        XCTAssertEqual(try ids("fluffy"), [1])
        // An edit is found at once.
        try ok("edit", "2", "--by", "Happy Tails")
        XCTAssertEqual(try ids("tails"), [2])
        XCTAssertEqual(try run(["check"]).stdout, "")
    }
}
