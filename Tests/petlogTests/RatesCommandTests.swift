import Foundation
import XCTest
import PetlogTestSupport
import PetFiles

/// `scripts/test-http-server.py` serving the recorded ECB files on 127.0.0.1, started and stopped by the test.
final class TestHTTPServer {
    static let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("scripts/test-http-server.py")
    let process = Process()
    let input = Pipe()
    private(set) var port = 0

    init(serving folder: URL) throws {
        let out = Pipe()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", Self.script.path, folder.path]
        let own = ProcessInfo.processInfo.environment
        process.environment = ["HOME": own["HOME"] ?? "/root", "PATH": own["PATH"] ?? "/usr/bin:/bin"]
        process.standardOutput = out
        process.standardInput = input
        try process.run()
        // The first line is the port.
        var line = Data()
        while !line.contains(0x0A) {
            let chunk = out.fileHandleForReading.availableData
            if chunk.isEmpty { break }
            line += chunk
        }
        guard let p = Int(String(decoding: line, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)), p > 0 else {
            stop()
            throw XCTSkip("the test HTTP server did not start (python3 missing?)")
        }
        port = p
    }

    var base: String { "http://127.0.0.1:\(port)/" }

    /// Requests per path so far.
    func hits() throws -> [String: Int] {
        let data = try RatesDownload.fetch(try XCTUnwrap(URL(string: base + "_hits")), timeout: 5)
        return try XCTUnwrap(JSONSerialization.jsonObject(with: data) as? [String: Int])
    }

    func stop() {
        try? input.fileHandleForWriting.close()
        if process.isRunning { process.terminate() }
        process.waitUntilExit()
    }

    deinit { stop() }
}

final class RatesCommandTests: CLITestCase {
    static let ecb = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures/ecb")
    var server: TestHTTPServer!

    override func setUpWithError() throws {
        try super.setUpWithError()
        server = try TestHTTPServer(serving: Self.ecb)
        try ok("pet", "add", "Coco", "--species", "dog")
    }

    override func tearDownWithError() throws {
        server?.stop()
        server = nil
        try super.tearDownWithError()
    }

    var mirror: [String: String] { ["PETLOG_RATES_URL": server.base] }
    func fixture(_ name: String) -> String { Self.ecb.appendingPathComponent(name).path }

    func update(_ extra: [String] = [], env: [String: String] = [:], file: StaticString = #filePath, line: UInt = #line) throws -> String {
        let r = try run(["rates", "update"] + extra, env: mirror.merging(env) { _, new in new })
        XCTAssertEqual(r.status, 0, r.stderr, file: file, line: line)
        return r.stdout
    }

    func testUpdateFetchesAtMostOnceADayUnlessForced() throws {
        var out = try update()
        XCTAssertTrue(out.contains("Stored 29 rates of 29 currencies over 1 day (newest Nov 20, 2026): 29 new, 0 changed."), out)
        XCTAssertTrue(out.contains("Source: \(server.base)eurofxref-daily.xml"), out)
        XCTAssertEqual(try server.hits()["/eurofxref-daily.xml"], 1)

        // Later the same local day: no request, and it says so.
        out = try update(env: ["PETLOG_NOW": "2026-11-23T23:50:00+09:00"])
        XCTAssertEqual(out, "Rates already fetched today (newest rates of Nov 20, 2026): using the stored rates; --force fetches again.\n")
        XCTAssertEqual(try server.hits()["/eurofxref-daily.xml"], 1, "no request the same day")

        out = try update(["--force"])
        XCTAssertTrue(out.contains("29 new") == false && out.contains("0 new, 0 changed"), out)
        XCTAssertEqual(try server.hits()["/eurofxref-daily.xml"], 2, "--force fetches")

        // 2026-11-23T15:10Z is already the 24th in Seoul: a new local day.
        out = try update(env: ["PETLOG_NOW": "2026-11-23T15:10:00Z"])
        XCTAssertTrue(out.contains("Stored 29 rates"), out)
        XCTAssertEqual(try server.hits()["/eurofxref-daily.xml"], 3, "the next local day fetches again")

        // The history is another source: fetched the same day; the zip is read and its rates added.
        out = try update(["--history"])
        XCTAssertTrue(out.contains("Stored 434 rates of 29 currencies over 15 days (newest Nov 20, 2026): 405 new, 0 changed."), out)
        XCTAssertEqual(try server.hits()["/eurofxref-hist.zip"], 1)
        out = try update(["--history"])
        XCTAssertTrue(out.contains("already fetched today"), out)
        XCTAssertEqual(try server.hits()["/eurofxref-hist.zip"], 1)

        // --source names the whole file (a plain CSV here) and wins over the mirror.
        out = try update(["--source", server.base + "eurofxref-hist.csv"])
        XCTAssertTrue(out.contains("Stored 434 rates") && out.contains("0 new, 0 changed"), out)
        XCTAssertEqual(try server.hits()["/eurofxref-hist.csv"], 1)
    }

    func testAFirstUpdateCreatesTheDatabaseOnlyWithRates() throws {
        let fresh = home.appendingPathComponent("fresh.sqlite").path
        let down = try run(["--db", fresh, "rates", "update", "--source", server.base + "_status/503"], useDefaultDB: true)
        XCTAssertEqual(down.status, 69, down.stderr)
        XCTAssertFalse(FileManager.default.fileExists(atPath: fresh), "nothing fetched: no database created")
        let r = try run(["--db", fresh, "rates", "update"], env: mirror, useDefaultDB: true)
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertTrue(FileManager.default.fileExists(atPath: fresh))
    }

    func testOfflineImportOfEveryForm() throws {
        var out = try ok("rates", "import", fixture("eurofxref-daily.xml"))
        XCTAssertTrue(out.contains("Stored 29 rates of 29 currencies over 1 day (newest Nov 20, 2026): 29 new, 0 changed."), out)
        out = try ok("rates", "import", fixture("eurofxref-hist.csv"))
        XCTAssertTrue(out.contains("Stored 434 rates of 29 currencies over 15 days (newest Nov 20, 2026): 405 new, 0 changed."), out)
        out = try ok("rates", "import", fixture("eurofxref-hist.zip"))
        XCTAssertTrue(out.contains("Stored 434 rates") && out.contains("0 new, 0 changed"), out)
        out = try ok("rates", "import", fixture("eurofxref-hist-90d.xml"))
        XCTAssertTrue(out.contains("Stored 434 rates") && out.contains("0 new, 0 changed"), "the XML history says the same as the CSV: \(out)")
        // An import does not count as today's fetch: update still fetches.
        XCTAssertTrue(try update().contains("0 new, 0 changed"))
        XCTAssertEqual(try server.hits()["/eurofxref-daily.xml"], 1)
        let json = try XCTUnwrap(try self.json("rates", "list") as? [String: Any])
        XCTAssertEqual((json["rates"] as? [Any])?.count, 29)
        XCTAssertEqual(json["day"] as? String, "2026-11-20")
        XCTAssertEqual((json["last_fetch"] as? [String: Any])?["source"] as? String, server.base + "eurofxref-daily.xml")
    }

    func testBrokenDownloadsAreRefusedWithOneLineAndNothingStored() throws {
        let cases: [(path: String, code: Int32, mentions: String)] = [
            ("_truncated/eurofxref-daily.xml", 65, "is not an ECB rates file"),
            ("_truncated/eurofxref-hist.csv", 65, "or it is cut off; nothing was stored"),
            ("_truncated/eurofxref-hist.zip", 65, "nothing was stored"),
            ("_html/eurofxref-daily.xml", 65, "is not an ECB rates file"),
            ("_empty/eurofxref-daily.xml", 65, "is not an ECB rates file"),
            ("_status/503", 69, "answered HTTP 503; nothing was stored"),
            ("missing.xml", 69, "answered HTTP 404"),
        ]
        for c in cases {
            try expectRefused(["rates", "update", "--source", server.base + c.path], code: c.code, mentions: c.mentions)
        }
        XCTAssertEqual(try ok("rates", "list"), "No exchange rates stored yet: run petlog rates update, or petlog rates import FILE offline.\n")
        try expectRefused(["rates", "update", "--source", "ftp://example.org/x.xml"], code: 64, mentions: "is not an http:// or https:// URL")
        try expectRefused(["rates", "update", "--source", "/tmp/eurofxref-daily.xml"], code: 64, mentions: "petlog rates import FILE")
    }

    func testBrokenFilesAreRefusedOnImport() throws {
        let csv = try String(contentsOfFile: fixture("eurofxref-hist.csv"), encoding: .utf8)
        let xml = try String(contentsOfFile: fixture("eurofxref-daily.xml"), encoding: .utf8)
        let csvCut = try XCTUnwrap(csv.range(of: ",1697.57,")).upperBound
        let xmlCut = try XCTUnwrap(xml.range(of: "\t</Cube>\n</gesmes")).upperBound
        let files: [(name: String, text: String, mentions: String)] = [
            ("cut.csv", String(csv.dropLast(30)), "is not an ECB rates file"),
            ("cut-after-comma.csv", String(csv[..<csvCut]), "cut off"),
            ("cut.xml", String(xml.prefix(xml.count * 2 / 3)), "cut off"),
            ("closed-cube-cut.xml", String(xml[..<xmlCut]), "cut off"),
            ("page.html", "<!DOCTYPE html><html><body>Service unavailable</body></html>", "is not an ECB rates file"),
            ("empty.xml", "", "is not an ECB rates file"),
            ("comma.csv", csv.replacingOccurrences(of: "179.85", with: "179,85"), "cut off"),
            ("badnumber.xml", xml.replacingOccurrences(of: "rate='1.1612'", with: "rate='1.16x2'"), "(2026-11-20 USD 1.16x2)"),
            ("badday.csv", csv.replacingOccurrences(of: "2026-11-19,", with: "2026-11-31,"), "has a value that is not a rate or a day (line 3: 2026-11-31)"),
        ]
        for f in files {
            let path = home.appendingPathComponent(f.name).path
            try f.text.write(toFile: path, atomically: true, encoding: .utf8)
            try expectRefused(["rates", "import", path], code: 65, mentions: f.mentions)
        }
        try expectRefused(["rates", "import", home.appendingPathComponent("nope.csv").path], code: 66, mentions: "cannot read")
        try expectRefused(["rates", "import", home.path], code: 66, mentions: "cannot read")
        XCTAssertTrue(try ok("rates", "list").hasPrefix("No exchange rates stored yet"))
    }

    func testServerDownIsOneLineAndNothingStored() throws {
        let base = server.base
        server.stop()
        try expectRefused(["rates", "update"], code: 69, mentions: "cannot fetch the rates from \(base)eurofxref-daily.xml", env: ["PETLOG_RATES_URL": base])
        XCTAssertTrue(try ok("rates", "list").hasPrefix("No exchange rates stored yet"))
        // Other commands never touch the network.
        let r = try run(["expense", "Coco", "12.50", "USD"], env: ["PETLOG_RATES_URL": base])
        XCTAssertEqual(r.status, 0, r.stderr)
    }

    /// The time limit, shortened here: a server that does not answer in time is a typed error, not a hang.
    /// The server would answer after 600 s, so the outcome (the error, not the rates) shows the limit
    /// worked, whatever the load on the machine; no clock is read here.
    func testASlowServerTimesOut() throws {
        let slow = try XCTUnwrap(URL(string: server.base + "_slow/600/eurofxref-daily.xml"))
        XCTAssertThrowsError(try RatesDownload.fetch(slow, timeout: 1)) { e in
            XCTAssertEqual(e as? RatesDownloadError, .timedOut(seconds: 1))
        }
        XCTAssertFalse(try RatesDownload.fetch(try XCTUnwrap(URL(string: server.base + "_slow/0.2/eurofxref-daily.xml")), timeout: 5).isEmpty)
    }

    func testUpdateAndImportInJSON() throws {
        var json = try XCTUnwrap(try self.json("rates", "import", fixture("eurofxref-hist.csv")) as? [String: Any])
        XCTAssertEqual(json["rates"] as? Int, 434)
        XCTAssertEqual(json["currencies"] as? Int, 29)
        XCTAssertEqual(json["days"] as? Int, 15)
        XCTAssertEqual(json["first_day"] as? String, "2026-11-02")
        XCTAssertEqual(json["last_day"] as? String, "2026-11-20")
        XCTAssertEqual([json["added"] as? Int, json["changed"] as? Int], [434, 0])
        let r = try run(["rates", "update", "--json"], env: mirror)
        json = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any])
        XCTAssertEqual(json["fetched"] as? Bool, true)
        XCTAssertEqual([json["added"] as? Int, json["changed"] as? Int], [0, 0])
        let again = try run(["rates", "update", "--json"], env: mirror)
        json = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(again.stdout.utf8)) as? [String: Any])
        XCTAssertEqual(json["fetched"] as? Bool, false)
        XCTAssertEqual(json["last_day"] as? String, "2026-11-20")
        XCTAssertEqual(try server.hits()["/eurofxref-daily.xml"], 1)
        let empty = home.appendingPathComponent("empty.sqlite").path
        try ok("--db", empty, "pet", "add", "Nabi", "--species", "cat")
        json = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(try run(["--db", empty, "rates", "list", "--json"], useDefaultDB: true).stdout.utf8)) as? [String: Any])
        XCTAssertTrue(json["day"] is NSNull)
        XCTAssertTrue(json["last_fetch"] is NSNull)
        XCTAssertEqual((json["rates"] as? [Any])?.count, 0)
    }

    func testListUsesTheLastPublishedDayOnOrBeforeAndSaysSo() throws {
        try ok("rates", "import", fixture("eurofxref-hist.csv"))
        var out = try ok("rates", "list", "--date", "2026-11-22", "--currency", "KRW")
        XCTAssertTrue(out.hasPrefix("Euro reference rates of Nov 20, 2026, the last published day on or before Nov 22, 2026\n"), out)
        XCTAssertTrue(out.contains("1 EUR = 1.1612 USD"), out)
        XCTAssertTrue(out.contains("1 USD = 1,462.6421 KRW"), out)
        XCTAssertTrue(out.contains("1 EUR = 19,412.37 IDR"), out)
        // An offline import is said as one, with the file's path (not "Last fetched … from file://…").
        XCTAssertTrue(out.contains("Imported Nov 23, 2026 10:00 AM from /"), out)
        XCTAssertTrue(out.contains("eurofxref-hist.csv."), out)
        XCTAssertFalse(out.contains("file://") || out.contains("Last fetched"), out)
        XCTAssertFalse(out.contains("1 KRW = "), "no cross rate of the home currency to itself")
        out = try ok("rates", "list", "--date", "2026-11-18", "--currency", "KRW")
        XCTAssertTrue(out.hasPrefix("Euro reference rates of Nov 18, 2026\n"), out)
        XCTAssertTrue(out.contains("1 USD = 1,462.5946 KRW"), out)
        out = try ok("rates", "list", "--currency", "KRW")
        XCTAssertTrue(out.hasPrefix("Euro reference rates of Nov 20, 2026\n"), "the newest by default: \(out)")
        XCTAssertEqual(try ok("rates", "list", "--date", "2026-11-01"),
                       "No rates published on or before Nov 1, 2026 are stored (the newest are of Nov 20, 2026).\n")
        // ISK was not published on the 11th: it is not listed that day, never guessed from the 10th.
        XCTAssertFalse(try ok("rates", "list", "--date", "2026-11-11").contains("ISK"))
        XCTAssertTrue(try ok("rates", "list", "--date", "2026-11-12").contains("ISK"))
        // A home currency the ECB does not publish: the rates, and a line why there are no cross rates.
        out = try ok("rates", "list", "--currency", "TWD")
        XCTAssertTrue(out.contains("1 EUR = 1.1612 USD") && out.contains("No rate for TWD on that day: no cross rates"), out)
        try expectRefused(["rates", "list", "--date", "soon"], code: 65, mentions: "soon")
    }

    /// Cross rates hand-computed from the fixture (quotient of the two euro rates), four decimals,
    /// rounded half away from zero.
    func testCrossRatesAgainstHandComputedValues() throws {
        try ok("rates", "import", fixture("eurofxref-hist.csv"))
        let cases: [(date: String, home: String, currency: String, expected: String)] = [
            ("2026-11-20", "KRW", "USD", "1462.6421"),  // 1698.42 / 1.1612 = 1462.642094…
            ("2026-11-20", "KRW", "JPY", "9.4435"),  // 1698.42 / 179.85 = 9.443536…
            ("2026-11-20", "KRW", "GBP", "1931.9986"),  // 1698.42 / 0.87910 = 1931.998634…
            ("2026-11-20", "USD", "KRW", "0.0007"),  // 1.1612 / 1698.42 = 0.000683…
            ("2026-11-20", "JPY", "USD", "154.8829"),  // 179.85 / 1.1612 = 154.882879…
            ("2026-11-21", "KRW", "USD", "1462.6421"),  // Saturday: Friday's
            ("2026-11-19", "KRW", "USD", "1462.6659"),  // 1697.57 / 1.1606 = 1462.665862…
            ("2026-11-18", "KRW", "USD", "1462.5946"),  // 1700.12 / 1.1624 = 1462.594631…
            ("2026-11-20", "EUR", "USD", "0.8612"),  // 1 / 1.1612 = 0.861178…
        ]
        for c in cases {
            let json = try XCTUnwrap(try self.json("rates", "list", "--date", c.date, "--currency", c.home) as? [String: Any])
            let rates = try XCTUnwrap(json["rates"] as? [[String: Any]])
            let row = try XCTUnwrap(rates.first { $0["currency"] as? String == c.currency }, "\(c)")
            XCTAssertEqual(row["in_home_currency"] as? String, c.expected, "\(c)")
            XCTAssertEqual(json["cross_decimals"] as? Int, 4)
        }
    }

    /// A cross rate worth less than 0.1 of the home currency per unit is shown per 100 or 1,000 units
    /// (four decimals of one unit, `0.0007`, say almost nothing); `--json` keeps the per-unit rate.
    func testSmallCrossRatesAreShownPerHundredOrThousandUnits() throws {
        try ok("rates", "import", fixture("eurofxref-hist.csv"))
        let out = try ok("rates", "list", "--date", "2026-11-20", "--currency", "USD")
        XCTAssertTrue(out.contains("1,000 KRW = 0.6837 USD"), out)  // 1000 × 1.1612 / 1698.42 = 0.683694…
        XCTAssertTrue(out.contains("100 JPY = 0.6456 USD"), out)  // 100 × 1.1612 / 179.85 = 0.645649…
        XCTAssertTrue(out.contains("1 GBP = 1.3209 USD"), out)  // 1.1612 / 0.87910 = 1.320896…
        XCTAssertFalse(out.contains("1 KRW = 0.0007"), out)
        let json = try XCTUnwrap(try self.json("rates", "list", "--date", "2026-11-20", "--currency", "USD") as? [String: Any])
        let krw = try XCTUnwrap((json["rates"] as? [[String: Any]])?.first { $0["currency"] as? String == "KRW" })
        XCTAssertEqual(krw["in_home_currency"] as? String, "0.0007")
        XCTAssertEqual(krw["shown_per"] as? Int, 1000)
        XCTAssertEqual(krw["shown_in_home_currency"] as? String, "0.6837")
        let last = try XCTUnwrap(json["last_fetch"] as? [String: Any])
        XCTAssertEqual(last["imported"] as? Bool, true)
        XCTAssertTrue((last["file"] as? String)?.hasSuffix("eurofxref-hist.csv") == true)
        for (lang, words) in [("ko", ["1,000 KRW = 0.6837 USD", "에서 가져왔습니다"]), ("ja", ["100 JPY = 0.6456 USD", "から取り込みました"])] {
            let r = try run(["--lang", lang, "rates", "list", "--date", "2026-11-20", "--currency", "USD"])
            for w in words { XCTAssertTrue(r.stdout.contains(w), "\(lang): \(w) in \(r.stdout)") }
        }
        // Yen at home: a won is worth more than 0.1 yen (one unit shown), an Indonesian rupiah less.
        let yen = try ok("rates", "list", "--date", "2026-11-20", "--currency", "JPY")
        XCTAssertTrue(yen.contains("1 KRW = 0.1059 JPY"), yen)  // 179.85 / 1698.42 = 0.105892…
        XCTAssertTrue(yen.contains("1,000 IDR = 9.2648 JPY") || yen.contains("100 IDR = 0.9265 JPY"), yen)
    }

    func testTheSummaryLinesInEveryLanguage() throws {
        var out = try ok("--lang", "ko", "rates", "import", fixture("eurofxref-hist.csv"))
        XCTAssertTrue(out.contains("15일치 환율 434건을 저장했습니다 (통화 29개"), out)
        XCTAssertTrue(out.contains("새 환율 434건, 바뀐 환율 0건."), out)
        out = try ok("--lang", "ja", "rates", "import", fixture("eurofxref-daily.xml"))
        XCTAssertTrue(out.contains("1日分の為替レート29件を保存しました（通貨29種"), out)
        XCTAssertTrue(out.contains("新規 0件、変更 0件。"), out)
        for (lang, text) in [("ko", "오늘 이미 환율을 받았습니다"), ("ja", "本日はすでに為替レートを取得済みです"), ("en", "Rates already fetched today")] {
            _ = try update(["--lang", lang])
            XCTAssertTrue(try update(["--lang", lang]).contains(text), lang)
        }
        out = try ok("--lang", "ko", "rates", "list", "--date", "2026-11-22", "--currency", "KRW")
        XCTAssertTrue(out.contains("마지막 발표일") && out.contains("1 USD = 1,462.6421 KRW"), out)
        out = try ok("--lang", "ja", "rates", "list", "--date", "2026-11-22")
        XCTAssertTrue(out.contains("以前の最後の公表日") && out.contains("1 USD = 154.8829 JPY"), "ja: yen at home: \(out)")
        try expectRefused(["--lang", "ko", "rates", "update", "--source", server.base + "_html/x"], code: 65, mentions: "아무것도 저장하지 않았습니다")
        try expectRefused(["--lang", "ja", "rates", "update", "--source", server.base + "_status/500"], code: 69, mentions: "何も保存していません")
        try expectRefused(["--lang", "ja", "rates", "import", home.appendingPathComponent("none.csv").path], code: 66, mentions: "を読み込めません")
    }

    /// An expense in dollars counts in won at the rate of its own day (the last published day on or
    /// before it); before the first rate it is said to be unconverted, never guessed.
    func testAnExpenseIsConvertedAtTheRateOfItsOwnDay() throws {
        try ok("rates", "import", fixture("eurofxref-hist.zip"))
        for at in ["2026-11-18", "2026-11-19", "2026-11-20", "2026-11-22 12:00", "2026-11-01"] {
            try ok("expense", "Coco", "100", "USD", "--at", at)
        }
        let list = try decoded(ExpenseListOut.self, ["expense", "list", "--month", "2026-11", "--currency", "KRW"])
        var converted: [String: Int64] = [:]
        for d in list.days {
            for e in d.entries where e.pet == "Coco" { converted[d.day] = e.converted?.minorUnits ?? -1 }
        }
        // 100 USD × KRW/USD of the day: 1700.12/1.1624 → 146259.46…, 1697.57/1.1606 → 146266.59…,
        // 1698.42/1.1612 → 146264.21… (also on Sunday the 22nd), none before the first rate (the 2nd).
        XCTAssertEqual(converted, ["2026-11-18": 146_259, "2026-11-19": 146_267, "2026-11-20": 146_264, "2026-11-22": 146_264, "2026-11-01": -1])
        XCTAssertEqual(list.total.converted.minorUnits, 146_259 + 146_267 + 146_264 * 2)
        XCTAssertEqual(list.total.unconverted, 1)
    }
}
