import Foundation
import XCTest
import PetlogTestSupport

final class ChartCommandsTests: CLITestCase {
    override class var firstStoreOnly: [String: String] { [
        "testWeightChartInEveryFormat": "the chart in each file format",
        "testChartsAreDeterministic": "the same chart drawn twice is the same bytes",
        "testKoreanAndJapaneseChartTextIsInThePDF": "Korean and Japanese text in the PDF's fonts",
    ] }

    override func setUpWithError() throws {
        try super.setUpWithError()
        try demoHousehold("--end", "2026-11-20")
    }

    func pngSize(_ path: String) throws -> (Int, Int) {
        let data = try Data(contentsOf: URL(fileURLWithPath: path))
        XCTAssertEqual(Array(data.prefix(8)), [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A])
        func be32(_ o: Int) -> Int { data[o..<o + 4].reduce(0) { $0 << 8 | Int($1) } }
        return (be32(16), be32(20))
    }

    func testWeightChartInEveryFormat() throws {
        let png = home.appendingPathComponent("w.png").path
        XCTAssertEqual(try ok("chart", "weight", "Coco", "Nabi", "Mochi", "-o", png), "Wrote \(png)\n")
        XCTAssertTrue(try pngSize(png) == (1600, 900))
        let attrs = try FileManager.default.attributesOfItem(atPath: png)
        XCTAssertEqual((attrs[.posixPermissions] as? NSNumber)?.intValue, 0o600)

        let small = home.appendingPathComponent("small.png").path
        try ok("chart", "weight", "Coco", "--size", "800x450", "--dark", "--smooth", "4w", "--since", "1y", "-o", small)
        XCTAssertTrue(try pngSize(small) == (800, 450))

        let pdf = home.appendingPathComponent("w.pdf").path
        try ok("chart", "weight", "Coco", "--since", "1y", "-o", pdf)
        let text = try pdfText(pdf)
        XCTAssertTrue(text.contains("Weight — Coco"), text)
        XCTAssertTrue(text.contains("kg"), text)

        let svg = home.appendingPathComponent("w.svg").path
        try ok("chart", "weight", "Nabi", "-o", svg)
        let xml = try String(contentsOfFile: svg, encoding: .utf8)
        XCTAssertTrue(xml.hasPrefix("<?xml"))
        XCTAssertTrue(xml.contains("<svg"))
    }

    func testChartsAreDeterministic() throws {
        for ext in ["pdf", "svg", "png"] {
            let a = home.appendingPathComponent("a.\(ext)").path, b = home.appendingPathComponent("b.\(ext)").path
            try ok("chart", "weight", "Coco", "-o", a)
            try ok("chart", "weight", "Coco", "-o", b)
            XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: a)), try Data(contentsOf: URL(fileURLWithPath: b)), ext)
        }
    }

    func testSymptomAndExpenseCharts() throws {
        let s = home.appendingPathComponent("s.pdf").path
        try ok("chart", "symptoms", "Nabi", "--since", "1y", "-o", s)
        XCTAssertTrue(try pdfText(s).contains("Symptoms per week — Nabi"))
        let byKind = home.appendingPathComponent("k.png").path
        try ok("chart", "symptoms", "Coco", "--by", "kind", "--since", "2y", "-o", byKind)
        XCTAssertTrue(try pngSize(byKind) == (1600, 900))
        let e = home.appendingPathComponent("e.pdf").path
        try ok("chart", "expenses", "--currency", "KRW", "-o", e)
        let text = try pdfText(e)
        XCTAssertTrue(text.contains("Spending per month (KRW)"), text)
        XCTAssertTrue(text.contains("food"), text)
        let json = try XCTUnwrap(try json("chart", "expenses", "--currency", "KRW") as? [String: Any])
        XCTAssertEqual((json["months"] as? [String])?.count, 12)
        XCTAssertEqual(json["currency"] as? String, "KRW")
    }

    func testKoreanAndJapaneseChartTextIsInThePDF() throws {
        let ko = home.appendingPathComponent("ko.pdf").path
        try ok("--lang", "ko", "chart", "weight", "Coco", "-o", ko)
        XCTAssertTrue(try pdfText(ko).contains("체중 — Coco"))
        let ja = home.appendingPathComponent("ja.pdf").path
        try ok("--lang", "ja", "chart", "symptoms", "Nabi", "--since", "1y", "-o", ja)
        XCTAssertTrue(try pdfText(ja).contains("週ごとの症状 — Nabi"))
    }

    /// Issue 42: a weight chart of one point showed bare hour ticks (06:00, 12:00…) and no date. Every chart's
    /// time axis names its day: one point, one day, two points a minute apart, in each language.
    func testEveryChartOfADayOrLessShowsTheDay() throws {
        try ok("pet", "add", "Kit", "--species", "cat")
        try ok("weight", "Kit", "4.1kg", "--at", "08:00")
        let days = ["en": "Nov 23", "ko": "11월 23일", "ja": "11月23日"]
        func check(_ what: String) throws {
            for (language, day) in days {
                let pdf = home.appendingPathComponent("kit-\(language).pdf").path
                try ok("--lang", language, "chart", "weight", "Kit", "-o", pdf)
                let text = try pdfText(pdf)
                XCTAssertTrue(text.contains(day), "\(what), \(language): no day on the axis: \(text)")
            }
        }
        try check("one point")
        try ok("weight", "Kit", "4.12kg", "--at", "08:01")
        try check("two points a minute apart")
        try ok("weight", "Kit", "4.15kg", "--at", "09:30")
        try check("one day")
        // The symptom and expense charts of one record name their week and month.
        try ok("symptom", "Kit", "vomiting")
        let s = home.appendingPathComponent("kit-s.pdf").path
        try ok("chart", "symptoms", "Kit", "--since", "1d", "-o", s)
        let symptoms = try pdfText(s)
        XCTAssertTrue(symptoms.contains("Nov 23"), symptoms)
    }

    func testTextChartWithoutAFile() throws {
        let out = try ok("chart", "weight", "Coco", "--since", "6m")
        XCTAssertTrue(out.unicodeScalars.contains { (0x2800...0x28FF).contains($0.value) }, "braille dots")
        XCTAssertTrue(out.contains("Coco"))
        XCTAssertTrue(out.contains("kg"))
        let bars = try ok("chart", "symptoms", "Nabi", "--since", "1y")
        XCTAssertTrue(bars.contains("█"))
    }

    func testBadChartRequests() throws {
        XCTAssertEqual(try run(["chart", "weight", "Coco", "-o", home.appendingPathComponent("w.gif").path]).status, 64)
        XCTAssertEqual(try run(["chart", "weight", "Coco", "-o", "/nonexistent/dir/w.png"]).status, 73)
        XCTAssertEqual(try run(["chart", "weight", "Coco", "--size", "10x10", "-o", home.appendingPathComponent("w.png").path]).status, 65)
        XCTAssertEqual(try run(["chart", "weight", "Cocoa"]).status, 66)
        XCTAssertFalse(FileManager.default.fileExists(atPath: home.appendingPathComponent("w.png").path))
    }
}
