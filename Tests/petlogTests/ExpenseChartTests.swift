import Foundation
import XCTest
import PetlogTestSupport

/// `chart expenses` on the demo household (its rates are the 23 weekdays before 2026-11-20, newest
/// 2026-11-19: USD 1.1580, JPY 178.20, KRW 1668.40 per euro): every spending, visit costs as vet,
/// converted to one currency at each entry's day's rate, the budget as a line.
final class ExpenseChartTests: CLITestCase {
    override class var firstStoreOnly: [String: String] { [
        "testPNGAndSVG": "the chart in each file format",
        "testKoreanCategoryNamesAndTheBudgetLineInThePDF": "Korean words and the budget line in the PDF",
    ] }

    override func setUpWithError() throws {
        try super.setUpWithError()
        try demoHousehold("--end", "2026-11-20")
    }

    func chart(_ args: String...) throws -> [String: Any] {
        let r = try run(["chart", "expenses", "--json"] + args)
        XCTAssertEqual(r.status, 0, r.stderr)
        return try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any])
    }

    func minor(_ json: [String: Any], _ category: String) -> [Int] {
        let stacks = json["stacks"] as? [[String: Any]] ?? []
        return stacks.first { $0["category"] as? String == category }?["minor"] as? [Int] ?? []
    }

    func testVisitCostsInOtherCurrenciesAreConvertedAtTheirDaysRate() throws {
        let before = try chart("--currency", "KRW", "--since", "2026-11-01")
        XCTAssertEqual(before["currency"] as? String, "KRW")
        XCTAssertEqual(before["months"] as? [String], ["2026-11"])
        // A visit in dollars on Thursday 11-19 and one in yen on Saturday 11-21 (Thursday's rates still: none published since).
        try ok("visit", "Coco", "--clinic", "VCA", "--cost", "12.50USD", "--at", "2026-11-19T12:00")
        try ok("visit", "Coco", "--clinic", "Tenjin", "--cost", "5000JPY", "--at", "2026-11-21T12:00")
        let after = try chart("--currency", "KRW", "--since", "2026-11-01")
        // 12.50 × 1668.40 / 1.1580 = 18,009.07 → 18,009; 5,000 × 1668.40 / 178.20 = 46,812.57 → 46,813.
        XCTAssertEqual(minor(after, "vet")[0] - (minor(before, "vet").first ?? 0), 18_009 + 46_813)
        XCTAssertEqual(after["unconverted"] as? Int, 0)
        // The household budget, 300,000 won, is the line; in dollars at November's last day's rate: 300,000 × 1.1580 / 1668.40 = 208.22.
        let budget = try XCTUnwrap(after["budget"] as? [String: Any])
        XCTAssertEqual(budget["line_minor"] as? [Int], [300_000])
        let usd = try chart("--currency", "USD", "--since", "2026-11-01")
        XCTAssertEqual((usd["budget"] as? [String: Any])?["line_minor"] as? [Int], [20_822])
    }

    func testSpendingWithoutARateIsLeftOutAndCounted() throws {
        // The demo's rates start in late October: earlier won spending cannot be dollars, and is said, not guessed.
        let r = try run(["chart", "expenses", "--currency", "USD", "--since", "2026-10-01"])
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertTrue(r.stderr.contains("have no exchange rate to USD for their day and are left out"), r.stderr)
        let json = try chart("--currency", "USD", "--since", "2026-10-01")
        XCTAssertGreaterThan(json["unconverted"] as? Int ?? 0, 0)
        // In won everything counts: no line on stderr.
        let krw = try run(["chart", "expenses", "--currency", "KRW", "--since", "2026-10-01"])
        XCTAssertEqual(krw.stderr, "")
        XCTAssertTrue(krw.stdout.hasPrefix("Spending per month (KRW)\n"), krw.stdout)
        XCTAssertTrue(krw.stdout.contains("Monthly budget ₩300,000"), krw.stdout)
    }

    func testTheHomeCurrencyIsTheDefaultAndNamesTheTitle() throws {
        // No --currency: PETLOG_CURRENCY, else the language's (Korean: won; Japanese: yen).
        let ja = try run(["--lang", "ja", "chart", "expenses", "--json"])
        XCTAssertEqual(try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(ja.stdout.utf8)) as? [String: Any])["currency"] as? String, "JPY")
        let env = try run(["chart", "expenses", "--json"], env: ["PETLOG_CURRENCY": "GBP"])
        XCTAssertTrue(env.stdout.contains("\"currency\" : \"GBP\""), env.stdout)
        let pdf = home.appendingPathComponent("yen.pdf").path
        try ok("--lang", "ja", "chart", "expenses", "-o", pdf)
        let text = try pdfText(pdf)
        XCTAssertTrue(text.contains("月ごとの支出 (JPY)"), text)
        XCTAssertFalse(text.contains("KRW)"), text)
        // Categories and the budget in Japanese.
        XCTAssertTrue(text.contains("フード"), text)
        XCTAssertTrue(text.contains("月の予算"), text)
    }

    func testKoreanCategoryNamesAndTheBudgetLineInThePDF() throws {
        let pdf = home.appendingPathComponent("ko.pdf").path
        try ok("--lang", "ko", "chart", "expenses", "-o", pdf)
        let text = try pdfText(pdf)
        XCTAssertTrue(text.contains("월별 지출 (KRW)"), text)
        for name in ["사료", "간식", "병원비", "보험", "월 예산"] { XCTAssertTrue(text.contains(name), "\(name): \(text)") }
        XCTAssertTrue(text.contains("300,000"), text)
    }

    func testPNGAndSVG() throws {
        let png = home.appendingPathComponent("spend.png").path
        XCTAssertEqual(try ok("chart", "expenses", "--currency", "KRW", "-o", png), "Wrote \(png)\n")
        // The PNG decodes: its image data inflates to one filter byte plus the pixels' bytes per row.
        let decoded = try python("""
            import struct, sys, zlib
            d = open(sys.argv[1], 'rb').read(); assert d[:8] == b'\\x89PNG\\r\\n\\x1a\\n'
            i, idat, w, h, bpp = 8, b'', 0, 0, 0
            while i < len(d):
                n, t = struct.unpack('>I4s', d[i:i + 8]); body = d[i + 8:i + 8 + n]
                if t == b'IHDR': w, h = struct.unpack('>II', body[:8]); bpp = {2: 3, 6: 4}[body[9]] * body[8] // 8
                if t == b'IDAT': idat += body
                i += 12 + n
            print(w, h, len(zlib.decompress(idat)) == h * (1 + bpp * w))
            """, [png])
        XCTAssertEqual(decoded.stdout, "1600 900 True\n", decoded.stderr)
        // SVG is text: cairo writes the words as glyph outlines, but the budget's dashed line is there,
        // and only when there is a budget.
        let svg = home.appendingPathComponent("spend.svg").path
        try ok("chart", "expenses", "--currency", "KRW", "-o", svg)
        let xml = try String(contentsOfFile: svg, encoding: .utf8)
        XCTAssertTrue(xml.hasPrefix("<?xml") && xml.contains("<svg"))
        XCTAssertTrue(xml.contains("stroke-dasharray"), "the budget line")
        // Mochi has no budget of her own: no line.
        let mochi = home.appendingPathComponent("mochi.svg").path
        try ok("chart", "expenses", "Mochi", "--currency", "KRW", "-o", mochi)
        XCTAssertFalse(try String(contentsOfFile: mochi, encoding: .utf8).contains("stroke-dasharray"))
    }

    func testAnEmptyChartSaysSoInOneLine() throws {
        let db = home.appendingPathComponent("empty.sqlite").path
        XCTAssertEqual(try launch(Self.binary, ["--db", db, "pet", "add", "Kkami", "--species", "dog"]).status, 0)
        let r = try launch(Self.binary, ["--db", db, "chart", "expenses", "--currency", "JPY"])
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertEqual(r.stdout, "Nothing to plot: no spending from Dec 2025 through Nov 2026\n")
        // The file still says which currency it was asked in (it used to say KRW for an empty yen chart).
        let pdf = home.appendingPathComponent("empty.pdf").path
        XCTAssertEqual(try launch(Self.binary, ["--db", db, "chart", "expenses", "--currency", "JPY", "-o", pdf]).status, 0)
        let text = try pdfText(pdf)
        XCTAssertTrue(text.contains("Spending per month (JPY)"), text)
        XCTAssertTrue(text.contains("Nothing to plot"), text)
        try expectRefused(["chart", "expenses", "--currency", "XYZ"], code: 65, mentions: "XYZ")
    }

    func testAOnePetChartNamesThePetInItsTitle() throws {
        for (lang, title) in [("en", "Coco: spending per month (KRW)"), ("ko", "Coco 월별 지출 (KRW)"), ("ja", "Cocoの月ごとの支出 (KRW)")] {
            let pdf = home.appendingPathComponent("coco-\(lang).pdf").path
            try ok("--lang", lang, "chart", "expenses", "Coco", "--currency", "KRW", "-o", pdf)
            let pdfTitle = try pdfText(pdf)
            XCTAssertTrue(pdfTitle.contains(title), "\(lang): \(pdfTitle)")
            let text = try ok("--lang", lang, "chart", "expenses", "Coco", "--currency", "KRW")
            XCTAssertTrue(text.contains(title), "\(lang): \(text)")
        }
        let household = home.appendingPathComponent("all.pdf").path
        try ok("chart", "expenses", "--currency", "KRW", "-o", household)
        XCTAssertTrue(try pdfText(household).contains("Spending per month (KRW)"))
        let two = home.appendingPathComponent("two.pdf").path
        try ok("chart", "expenses", "Coco,Nabi", "--currency", "KRW", "-o", two)
        XCTAssertFalse(try pdfText(two).contains("Coco:"))
    }
}
