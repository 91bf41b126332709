import Foundation
import XCTest
import PetlogTestSupport

/// `walk`: the walk kind end to end (issue 43's proof of a new kind), on both stores: the forms of distance
/// and duration in en/ko/ja, the refusals, show/edit/undo/search, export and import, stats, the calendar,
/// `chart activity`, the vet report's line and the FHIR bundle.
final class WalkCommandTests: CLITestCase {
    func path(_ name: String) -> String { home.appendingPathComponent(name).path }

    @discardableResult
    func okArgs(_ args: [String], file: StaticString = #filePath, line: UInt = #line) throws -> String {
        let r = try run(args)
        XCTAssertEqual(r.status, 0, "petlog \(args.joined(separator: " ")): \(r.stderr)", file: file, line: line)
        return r.stdout
    }

    /// Each walk's (metres, minutes), oldest first.
    func walks(_ args: String...) throws -> [[Int?]] {
        try records(["log", "--kind", "walk"] + args).sorted { ($0["at"] as? String ?? "", $0["id"] as? Int ?? 0) < ($1["at"] as? String ?? "", $1["id"] as? Int ?? 0) }
            .map { r in [detail(r)["distance_m"] as? Int, detail(r)["duration_min"] as? Int] }
    }

    func testEveryFormInEnglishKoreanAndJapanese() throws {
        try ok("pet", "add", "Coco", "--species", "dog")
        let typed: [(lang: String, words: [String], meters: Int?, minutes: Int?)] = [
            ("en", ["3.2km", "45min"], 3200, 45),
            ("en", ["45min", "3.2km"], 3200, 45),            // any order
            ("en", ["2mi"], 3219, nil),                       // 3,218.688 m, to the metre
            ("en", ["800m"], 800, nil),                       // `m` alone from 100 up: metres
            ("en", ["1h10m"], nil, 70),                       // `m` right after hours: minutes
            ("en", ["1h"], nil, 60),
            ("en", ["1.5h", "1.2", "miles"], 1931, 90),       // a number and its unit as two words
            ("en", ["90", "minutes", "90", "metres"], 90, 90), // metres in full are metres at any size
            ("en", ["1h", "10min", "800", "m"], 800, 70),
            ("en", ["2", "kilometers", "1", "hour"], 2000, 60),
            ("en", [], nil, nil),                             // a walk all the same
            ("ko", ["3.2킬로", "45분"], 3200, 45),
            ("ko", ["1시간", "10분", "800미터"], 800, 70),
            ("ko", ["1시간10분", "2마일"], 3219, 70),
            ("ko", ["2킬로미터", "2시간"], 2000, 120),
            ("ja", ["2キロ", "45分"], 2000, 45),
            ("ja", ["1時間10分", "800メートル"], 800, 70),
            ("ja", ["３.５ｋｍ", "３０分間"], 3500, 30),        // full-width digits and units
            ("ja", ["2キロメートル", "1時間"], 2000, 60),
        ]
        for (i, t) in typed.enumerated() {
            try okArgs(["--lang", t.lang, "walk", "Coco"] + t.words + ["--at", "2026-11-\(String(format: "%02d", i + 1)) 18:00"])
        }
        XCTAssertEqual(try walks(), typed.map { [$0.meters, $0.minutes] })
        // The command line says it back in each language.
        XCTAssertTrue(try ok("walk", "Coco", "3.2km", "1h10m").contains("walk for Coco: 3.2 km · 1 h 10 min"))
        XCTAssertTrue(try run(["--lang", "ko", "walk", "Coco", "3.2km", "1h10m"]).stdout.contains("3.2km · 1시간 10분"))
        XCTAssertTrue(try run(["--lang", "ja", "walk", "Coco", "3.2km", "1h10m"]).stdout.contains("3.2km・1時間10分"))
        XCTAssertTrue(try run(["--unit", "imperial", "show", "1"]).stdout.contains("1.99 mi"))
        // The kind by its name in each language.
        XCTAssertEqual(try records(["--lang", "ko", "log", "--kind", "산책"]).count, typed.count + 3)
        XCTAssertEqual(try records(["--lang", "ja", "log", "--kind", "散歩"]).count, typed.count + 3)
    }

    func testSeveralPetsOneRecordEach() throws {
        try ok("pet", "add", "Coco", "--species", "dog")
        try ok("pet", "add", "Bori", "--species", "dog")
        let out = try ok("walk", "Coco,Bori", "2km", "30min", "--note", "park", "--at", "2026-11-22 08:00")
        XCTAssertEqual(out.split(separator: "\n").count, 2, out)
        let r = try records(["log", "--kind", "walk"])
        XCTAssertEqual(Set(r.compactMap { $0["pet"] as? String }), ["Coco", "Bori"])
        XCTAssertEqual(r.map { detail($0)["distance_m"] as? Int }, [2000, 2000])
    }

    func testRefusalsAreOneLineAndWriteNothing() throws {
        try ok("pet", "add", "Coco", "--species", "dog")
        try ok("export", "-o", path("before.json"))
        let cases: [(lang: String, words: [String], says: String)] = [
            ("en", ["90m"], "could be minutes or metres: write 90min for minutes or 90 metres"),
            ("ko", ["90m"], "분이면 90분, 미터면 90미터"),
            ("ja", ["45m"], "分なら45分、メートルなら45メートル"),
            ("en", ["3km", "2km"], "a walk takes one distance and one duration"),
            ("ko", ["45분", "1h"], "거리 하나와 시간 하나"),
            ("en", ["300km"], "is out of range"),
            ("ja", ["25時間"], "範囲外"),
            ("en", ["45minx"], "\"45minx\" is not a distance or a duration"),
            ("en", ["45.5min"], "is not a distance or a duration"),
            ("en", ["800.5m"], "is not a distance or a duration"),
            ("en", ["1.5h10m"], "is not a distance or a duration"),
            ("en", ["0km"], "is not a distance or a duration"),
            ("ko", ["먼", "길"], "거리나 시간이 아닙니다"),
            ("ja", ["遠く"], "距離としても時間としても"),
        ]
        for c in cases {
            let r = try run(["--lang", c.lang, "walk", "Coco"] + c.words)
            XCTAssertEqual(r.status, 65, "\(c.words): \(r.stderr)")
            XCTAssertTrue(r.stderr.contains(c.says), "\(c.words): \(r.stderr)")
            XCTAssertEqual(r.stderr.split(separator: "\n").count, 1, r.stderr)
        }
        // argument-parser's own refusal (an unknown option) is a usage error, as for every command.
        XCTAssertEqual(try run(["walk", "Coco", "2km", "--distance", "3km"]).status, 64)
        XCTAssertEqual(try run(["walk", "Nobody", "2km"]).status, 66)
        XCTAssertEqual(try run(["walk", "Coco", "2km", "--at", "2030-01-01"]).status, 65)
        try ok("export", "-o", path("after.json"))
        XCTAssertEqual(try withoutNamespace(path("before.json")), try withoutNamespace(path("after.json")))
        XCTAssertTrue(try walks().isEmpty)
    }

    func testShowEditUndoAndSearch() throws {
        try ok("pet", "add", "Coco", "--species", "dog")
        try ok("walk", "Coco", "3.2km", "45min", "--note", "along the Han river", "--at", "2026-11-20 18:00")
        try ok("export", "-o", path("before.json"))
        let show = try ok("show", "1")
        XCTAssertTrue(show.contains("distance") && show.contains("3.2 km") && show.contains("45 min"), show)
        let ko = try run(["--lang", "ko", "show", "1"]).stdout
        XCTAssertTrue(ko.contains("#1 산책") && ko.contains("거리") && ko.contains("3.2km") && ko.contains("45분"), ko)
        XCTAssertTrue(try run(["--lang", "ja", "show", "1"]).stdout.contains("距離"))
        XCTAssertEqual(detail(try XCTUnwrap(try json("show", "1") as? [String: Any]))["distance_m"] as? Int, 3200)
        // Distance and duration one at a time, in any language's units; an empty value clears one.
        XCTAssertTrue(try ok("edit", "1", "--distance", "5킬로", "--duration", "1시간 5분").contains("5 km · 1 h 5 min"))
        XCTAssertEqual(try walks(), [[5000, 65]])
        try ok("edit", "1", "--duration", "")
        XCTAssertEqual(try walks(), [[5000, nil]])
        // A duration where a distance goes (and the other way round), a flag of another kind: refused, nothing changed.
        var r = try run(["edit", "1", "--distance", "45min"])
        XCTAssertEqual(r.status, 65, r.stderr)
        XCTAssertTrue(r.stderr.contains("\"45min\" is not a distance"), r.stderr)
        r = try run(["--lang", "ja", "edit", "1", "--duration", "2km"])
        XCTAssertEqual(r.status, 65, r.stderr)
        XCTAssertTrue(r.stderr.contains("時間として認識できません"), r.stderr)
        XCTAssertEqual(try run(["edit", "1", "--distance", "90m"]).status, 65)
        XCTAssertEqual(try run(["edit", "1", "--clinic", "x"]).status, 64)
        try ok("visit", "Coco", "--at", "2026-11-21 10:00")
        XCTAssertEqual(try run(["edit", "2", "--distance", "2km"]).status, 64)
        XCTAssertEqual(try walks(), [[5000, nil]])
        // Found by its note, also after an edit of it.
        XCTAssertEqual(try records(["search", "han river"]).compactMap { $0["id"] as? Int }, [1])
        try ok("edit", "1", "--note", "forest trail")
        XCTAssertEqual(try records(["search", "forest"]).compactMap { $0["id"] as? Int }, [1])
        try ok("undo") // the visit
        try ok("undo") // the note
        try ok("undo") // the cleared duration
        try ok("undo") // distance and duration
        try ok("export", "-o", path("after.json"))
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: path("before.json"))), try Data(contentsOf: URL(fileURLWithPath: path("after.json"))))
        try ok("undo")
        XCTAssertTrue(try walks().isEmpty)
        XCTAssertEqual(try run(["check"]).stdout, "")
    }

    func testExportImportRoundTripsToTheByteAndTheBundleHasAnObservation() throws {
        try ok("pet", "add", "Coco", "--species", "dog")
        try ok("pet", "add", "나비", "--species", "cat")
        try ok("walk", "Coco,나비", "2mi", "1h10m", "--note", "\"quoted\", 산책 ✓", "--at", "2026-11-20 18:00")
        try ok("walk", "Coco", "800m", "--at", "2026-11-21 07:00")
        try ok("walk", "Coco", "30min", "--at", "2026-11-22 07:00")
        try ok("walk", "Coco", "--at", "2026-11-22 19:00")
        try ok("star", "2")
        try ok("export", "-o", path("a.json"))
        let a = try String(contentsOfFile: path("a.json"), encoding: .utf8)
        XCTAssertTrue(a.contains("\"walk\":{\"distance_m\":3219,\"duration_min\":70}"), a)
        XCTAssertTrue(a.contains("\"walk\":{\"distance_m\":null,\"duration_min\":null}"), a)
        XCTAssertEqual(try run(["--db", path("b.sqlite"), "import", path("a.json")], useDefaultDB: true).status, 0)
        XCTAssertEqual(try run(["--db", path("b.sqlite"), "export", "-o", path("b.json")], useDefaultDB: true).status, 0)
        XCTAssertEqual(a, try String(contentsOfFile: path("b.json"), encoding: .utf8))
        // Importing it again adds nothing.
        let again = try run(["--db", path("b.sqlite"), "import", path("a.json")], useDefaultDB: true)
        XCTAssertEqual(again.status, 0, again.stderr)
        XCTAssertEqual(try run(["--db", path("b.sqlite"), "export", "-o", path("b2.json")], useDefaultDB: true).status, 0)
        XCTAssertEqual(a, try String(contentsOfFile: path("b2.json"), encoding: .utf8))
        // CSV: a table of its own, then the same tables again.
        try ok("export", "--format", "csv", "-o", path("csv1"))
        let table = try String(contentsOfFile: path("csv1/walk.csv"), encoding: .utf8)
        XCTAssertTrue(table.hasPrefix("record_id,distance_m,duration_min"), table)
        XCTAssertEqual(try run(["--db", path("c.sqlite"), "import", path("csv1")], useDefaultDB: true).status, 0)
        XCTAssertEqual(try run(["--db", path("c.sqlite"), "export", "--format", "csv", "-o", path("csv2")], useDefaultDB: true).status, 0)
        let names = try FileManager.default.contentsOfDirectory(atPath: path("csv1")).sorted()
        XCTAssertEqual(names, try FileManager.default.contentsOfDirectory(atPath: path("csv2")).sorted())
        for n in names {
            XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: path("csv1/" + n))), try Data(contentsOf: URL(fileURLWithPath: path("csv2/" + n))), n)
        }
        // A walk off its range is refused by the import, naming the value.
        try Data(a.replacingOccurrences(of: "\"distance_m\":800", with: "\"distance_m\":900000").utf8).write(to: URL(fileURLWithPath: path("bad.json")))
        let bad = try run(["--db", path("d.sqlite"), "import", path("bad.json")], useDefaultDB: true)
        XCTAssertEqual(bad.status, 65, bad.stderr)
        XCTAssertTrue(bad.stderr.contains("900000"), bad.stderr)
        // FHIR: one Observation a walk, LOINC coded, its duration and distance as UCUM components.
        try ok("export", "--format", "fhir", "--pet", "Coco", "-o", path("fhir.json"))
        let bundle = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: path("fhir.json")))) as? [String: Any])
        let resources = (bundle["entry"] as? [[String: Any]] ?? []).compactMap { $0["resource"] as? [String: Any] }
        let walks = resources.filter { ($0["id"] as? String ?? "").hasPrefix("walk-") }
        XCTAssertEqual(walks.map { $0["id"] as? String }, ["walk-1", "walk-3", "walk-4", "walk-5"])
        let first = try XCTUnwrap(walks.first)
        XCTAssertEqual(first["resourceType"] as? String, "Observation")
        let coding = ((first["code"] as? [String: Any])?["coding"] as? [[String: Any]])?.first
        XCTAssertEqual(coding?["system"] as? String, "http://loinc.org")
        XCTAssertEqual(coding?["code"] as? String, "73985-4")
        let components = first["component"] as? [[String: Any]] ?? []
        func component(_ code: String) -> [String: Any]? {
            components.first { (($0["code"] as? [String: Any])?["coding"] as? [[String: Any]])?.first?["code"] as? String == code }?["valueQuantity"] as? [String: Any]
        }
        XCTAssertEqual(component("55411-3")?["value"] as? Int, 70)
        XCTAssertEqual(component("55411-3")?["code"] as? String, "min")
        XCTAssertEqual(component("55412-1")?["value"] as? Int, 3219)
        XCTAssertEqual(component("55412-1")?["code"] as? String, "m")
        XCTAssertNil(walks.last?["component"], "a walk with neither has no component")
        XCTAssertEqual(try run(["check"]).stdout, "")
    }

    func testStatsCalendarChartAndReport() throws {
        try ok("pet", "add", "Coco", "--species", "dog")
        // This week (from Monday the 23rd, today): two; earlier in November: three; October: one.
        try ok("walk", "Coco", "3km", "40min", "--at", "2026-11-23 07:00")
        try ok("walk", "Coco", "1km", "--at", "2026-11-23 08:00")
        try ok("walk", "Coco", "2km", "30min", "--at", "2026-11-20 18:00")
        try ok("walk", "Coco", "2.5km", "35min", "--at", "2026-11-18 18:00")
        try ok("walk", "Coco", "45min", "--at", "2026-11-10 18:00")
        try ok("walk", "Coco", "4km", "1h", "--at", "2026-10-05 18:00")
        // stats: the month so far against the same days of October.
        let items = (try json("stats", "Coco") as? [String: Any])?["items"] as? [[String: Any]] ?? []
        func item(_ key: String) -> [Any?] { items.first { ($0["item"] as? String) == key }.map { [$0["this_month"], $0["previous_month"]] } ?? [] }
        XCTAssertEqual(item("walks").map { $0 as? Int }, [5, 1])
        XCTAssertEqual(item("walk_meters").map { $0 as? Int }, [8500, 4000])
        XCTAssertEqual(item("walk_minutes").map { $0 as? Int }, [150, 60])
        XCTAssertEqual(item("walk_average_minutes").map { $0 as? Int }, [38, 60])
        let stats = try ok("stats", "Coco")
        XCTAssertTrue(stats.contains("Walks") && stats.contains("8.5 km") && stats.contains("2 h 30 min"), stats)
        XCTAssertTrue(stats.contains("Walks this week (from Nov 23): 2, 4 km, 40 min"), stats)
        XCTAssertTrue(try run(["--lang", "ko", "stats", "Coco"]).stdout.contains("이번 주 산책 (11월 22일부터): 2회, 4km, 40분"), "Korean weeks start on Sunday")
        XCTAssertTrue(try run(["--lang", "ja", "stats", "Coco"]).stdout.contains("散歩の距離"))
        // A month with no walks either side has no walk rows (as before walks existed).
        XCTAssertFalse(try ok("stats", "Coco", "--month", "2026-06").contains("Walks"))
        // The calendar: its mark and legend.
        let grid = try ok("calendar", "--month", "2026-11")
        XCTAssertTrue(grid.contains("k walk"), grid)
        XCTAssertTrue(try run(["--lang", "ko", "calendar", "--month", "2026-11"]).stdout.contains("k 산책"))
        let days = (try json("calendar", "--month", "2026-11") as? [String: Any])?["days"] as? [[String: Any]] ?? []
        XCTAssertEqual((days.first { ($0["date"] as? String) == "2026-11-23" }?["kinds"] as? [String: Int])?["walk"], 2)
        // chart activity: minutes a week, weeks starting on Monday.
        let chart = try XCTUnwrap(try json("chart", "activity", "Coco", "--since", "2026-11-01") as? [String: Any])
        let weeks = chart["weeks"] as? [String] ?? [], minutes = chart["minutes"] as? [Int] ?? []
        XCTAssertEqual(Dictionary(uniqueKeysWithValues: zip(weeks, minutes))["2026-11-16"], 65)
        XCTAssertEqual(Dictionary(uniqueKeysWithValues: zip(weeks, minutes))["2026-11-09"], 45)
        XCTAssertEqual(Dictionary(uniqueKeysWithValues: zip(weeks, minutes))["2026-11-23"], 40)
        XCTAssertEqual(Dictionary(uniqueKeysWithValues: zip(weeks, chart["walks"] as? [Int] ?? []))["2026-11-23"], 2)
        let text = try ok("chart", "activity", "Coco", "--since", "2026-11-01")
        XCTAssertTrue(text.contains("Minutes walked per week — Coco") && text.contains(" 65"), text)
        for (lang, file) in [("en", "activity.png"), ("ko", "activity-ko.png"), ("ja", "activity.svg"), ("en", "activity.pdf")] {
            let r = try run(["--lang", lang, "chart", "activity", "Coco", "-o", path(file)])
            XCTAssertEqual(r.status, 0, r.stderr)
        }
        let png = try Data(contentsOf: URL(fileURLWithPath: path("activity.png")))
        XCTAssertEqual(Array(png.prefix(8)), [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A])
        XCTAssertTrue(try String(contentsOfFile: path("activity.svg"), encoding: .utf8).contains("<svg"))
        XCTAssertTrue(try pdfText(path("activity.pdf")).contains("Minutes walked per week"))
        if let keep = ProcessInfo.processInfo.environment["PETLOG_KEEP_CHART"] {
            try? FileManager.default.removeItem(atPath: keep)
            try FileManager.default.copyItem(atPath: path("activity-ko.png"), toPath: keep)
        }
        // The vet report: walks a week over the period and minutes a walk, in each language.
        try ok("report", "Coco", "--since", "2026-10-26", "-o", path("report.pdf"))
        let report = try pdfText(path("report.pdf")).replacingOccurrences(of: "\n", with: " ")
        // Five walks in 29 days (Oct 26 – Nov 23): 1.2 a week; four timed: 150 min / 4 = 38 min on average.
        XCTAssertTrue(report.contains("Walks") && report.contains("1.2 a week, 38 min on average over the period (5 walks)"), report)
        try ok("--lang", "ko", "report", "Coco", "--since", "2026-10-26", "-o", path("report-ko.pdf"))
        XCTAssertTrue(try pdfText(path("report-ko.pdf")).contains("주 1.2회, 기간 평균 38분"))
        try ok("--lang", "ja", "report", "Coco", "--since", "2026-10-26", "-o", path("report-ja.pdf"))
        XCTAssertTrue(try pdfText(path("report-ja.pdf")).contains("週1.2回、期間平均38分"))
    }
}
