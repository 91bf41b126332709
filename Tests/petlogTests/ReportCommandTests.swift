import Foundation
import XCTest
import PetlogTestSupport

final class ReportCommandTests: CLITestCase {
    override class var firstStoreOnly: [String: String] { [
        "testKoreanAndJapaneseReports": "the report's Korean and Japanese text and fonts",
        "testSameDataSameBytes": "the same report drawn twice is the same bytes",
    ] }

    func pages(_ pdf: String) throws -> Int {
        let info = try tool("pdfinfo", [pdf])
        let line = try XCTUnwrap(info.split(separator: "\n").first { $0.hasPrefix("Pages:") })
        return Int(line.split(separator: " ").last!)!
    }

    func testTheReportOfADemoPetTellsItsStory() throws {
        try ok("demo", "--end", "2026-11-20")
        let pdf = home.appendingPathComponent("coco.pdf").path
        let out = try ok("report", "Coco", "-o", pdf, "--since", "1y", "--question", "Is the weight loss a concern?", "--date", "2026-11-23")
        XCTAssertTrue(out.hasPrefix("Wrote \(pdf)"), out)
        // Words a table cell wraps are joined back (its columns size to their content).
        let text = try tool("pdftotext", [pdf, "-"]).split(whereSeparator: \.isNewline).joined(separator: " ")
        for expected in ["Coco", "Maltese", "900123456789012", "Allergies: chicken, penicillin", "Acute gastroenteritis", "Heartgard Plus",
                         "Rabies", "Is the weight loss a concern?", "not a medical record", "Generated Nov 23, 2026", "Visit history"] {
            XCTAssertTrue(text.contains(expected), "report lacks \(expected)")
        }
        let n = try pages(pdf)
        XCTAssertGreaterThanOrEqual(n, 2)
        XCTAssertTrue(text.contains("Page \(n) of \(n)"))
        let attrs = try FileManager.default.attributesOfItem(atPath: pdf)
        XCTAssertEqual((attrs[.posixPermissions] as? NSNumber)?.intValue, 0o600)
    }

    func testSameDataSameBytes() throws {
        try ok("demo", "--end", "2026-11-20")
        let a = home.appendingPathComponent("a.pdf").path, b = home.appendingPathComponent("b.pdf").path
        try ok("report", "Nabi", "-o", a, "--date", "2026-11-23")
        let r = try run(["report", "Nabi", "-o", b], env: ["SOURCE_DATE_EPOCH": "1795395600"])
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: a)), try Data(contentsOf: URL(fileURLWithPath: b)))
    }

    /// `--date` is the report's "today": what came later is left out, ages and alerts count from it.
    func testADatedReportIsTheReportOfThatDay() throws {
        try ok("pet", "add", "Rex", "--species", "dog", "--born", "2020-07-15")
        try ok("weight", "Rex", "10kg", "--at", "2026-06-01")
        try ok("weight", "Rex", "12.4kg", "--at", "2026-11-20")
        try ok("med", "start", "Rex", "Apoquel", "--every", "1d", "--at", "2026-08-01")
        try ok("symptom", "Rex", "vomiting", "--at", "2026-10-01")
        let then = home.appendingPathComponent("then.pdf").path, now = home.appendingPathComponent("now.pdf").path
        try ok("report", "Rex", "-o", then, "--date", "2026-06-30")
        try ok("report", "Rex", "-o", now)
        let old = try tool("pdftotext", [then, "-"]), new = try tool("pdftotext", [now, "-"])
        XCTAssertTrue(old.contains("Generated Jun 30, 2026") && old.contains("5 y") && old.contains("10.00 kg"), old)
        for later in ["12.40 kg", "Apoquel", "vomiting", "6 y"] {
            XCTAssertFalse(old.contains(later), "the report of June 30 shows \(later)")
            XCTAssertTrue(new.contains(later), "today's report lacks \(later)")
        }
    }

    func testAPetWithNoRecordsGetsAShortCleanReport() throws {
        try ok("pet", "add", "Bori", "--species", "rabbit")
        let pdf = home.appendingPathComponent("bori.pdf").path
        try ok("report", "Bori", "-o", pdf, "--paper", "letter")
        XCTAssertEqual(try pages(pdf), 1)
        let text = try tool("pdftotext", [pdf, "-"])
        XCTAssertTrue(text.contains("No visits recorded"))
        XCTAssertTrue(text.contains("No vaccinations recorded"))
        XCTAssertTrue(try tool("pdfinfo", [pdf]).contains("612 x 792"), "Letter paper")
    }

    func testYearsOfDenseRecordsFlowOverPagesWithoutLoss() throws {
        try ok("pet", "add", "Rex", "--species", "dog")
        for i in 0..<80 {
            try ok("visit", "Rex", "--clinic", "Clinic \(i)", "--diagnosis", "Diagnosis number \(i)", "--at", "-\(i + 1)d")
        }
        let pdf = home.appendingPathComponent("rex.pdf").path
        try ok("report", "Rex", "-o", pdf)
        XCTAssertGreaterThan(try pages(pdf), 2)
        let text = try tool("pdftotext", [pdf, "-"])
        for i in 0..<80 { XCTAssertTrue(text.contains("Diagnosis number \(i)\n") || text.contains("Diagnosis number \(i) "), "visit \(i) lost") }
        XCTAssertTrue(text.contains("Visit history (continued)"))
    }

    func testKoreanAndJapaneseReports() throws {
        try ok("demo", "--end", "2026-11-20")
        let ko = home.appendingPathComponent("ko.pdf").path
        try ok("--lang", "ko", "report", "Nabi", "-o", ko)
        let koText = try tool("pdftotext", [ko, "-"])
        XCTAssertTrue(koText.contains("진료용 건강 기록"), koText)
        XCTAssertTrue(koText.contains("예방접종"))
        let ja = home.appendingPathComponent("ja.pdf").path
        try ok("--lang", "ja", "report", "Mochi", "-o", ja)
        let jaText = try tool("pdftotext", [ja, "-"])
        XCTAssertTrue(jaText.contains("予防接種"), jaText)
        XCTAssertTrue(try tool("pdffonts", [ja]).contains("MPLUS2"), "the Japanese document family, embedded")
        XCTAssertTrue(try tool("pdffonts", [ko]).contains("NanumGothic"), "the Korean document family, embedded")
    }

    /// Issue 42: one period per report (the weight chart spanned a year beside a 90-day period), Japanese facts
    /// joined with ・ (not " ·"), and every symbol of a Korean report in its one family (the "−70 g" row was
    /// set in a fallback font).
    func testOnePeriodOneSeparatorOneFamily() throws {
        try ok("demo", "--end", "2026-11-20")
        let en = home.appendingPathComponent("en.pdf").path
        try ok("report", "Coco", "-o", en, "--date", "2026-11-23")
        let lines = try tool("pdftotext", [en, "-"]).split(whereSeparator: \.isNewline).map(String.init)
        // A 90-day weight chart has weekly ticks ("Aug 31"), not a year's month ticks ("Dec 2025").
        let monthTicks = lines.filter { $0.range(of: #"^[A-Z][a-z]{2} 20\d\d$"#, options: .regularExpression) != nil }
        XCTAssertEqual(monthTicks, [], "the weight chart spans the report's period")
        XCTAssertTrue(lines.contains("Aug 31"), lines.joined(separator: "|"))

        let ja = home.appendingPathComponent("ja.pdf").path
        try ok("--lang", "ja", "report", "Coco", "-o", ja, "--date", "2026-11-23")
        let jaText = try tool("pdftotext", [ja, "-"])
        XCTAssertTrue(jaText.contains("犬・Maltese・"), jaText)
        XCTAssertFalse(jaText.contains(" ·") || jaText.contains("· "), "no Latin middle dot with spaces in Japanese: \(jaText)")

        try ok("weight", "Coco", "3.40kg")   // a loss: the summary's changes carry a minus
        let ko = home.appendingPathComponent("ko.pdf").path
        try ok("--lang", "ko", "report", "Coco", "-o", ko, "--date", "2026-11-23")
        let fonts = try tool("pdffonts", [ko]).split(separator: "\n").dropFirst(2)
        XCTAssertFalse(fonts.isEmpty)
        XCTAssertTrue(fonts.allSatisfy { $0.contains("NanumGothic") }, "one family: \(fonts.joined(separator: "\n"))")
        XCTAssertTrue(try tool("pdftotext", [ko, "-"]).contains(" g (-"), "a weight change with its minus in the family")
    }

    func testBadReportRequests() throws {
        try ok("pet", "add", "Rex", "--species", "dog")
        XCTAssertEqual(try run(["report", "Rex", "-o", home.appendingPathComponent("r.png").path]).status, 64)
        XCTAssertEqual(try run(["report", "Rex", "-o", home.appendingPathComponent("r.pdf").path, "--paper", "a5"]).status, 65)
        XCTAssertEqual(try run(["report", "Rex", "-o", "/nonexistent/r.pdf"]).status, 73)
        XCTAssertEqual(try run(["report", "Rx", "-o", home.appendingPathComponent("r.pdf").path]).status, 66)
    }
}
