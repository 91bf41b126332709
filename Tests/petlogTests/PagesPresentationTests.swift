import Foundation
import XCTest
import PetlogTestSupport

/// The terminal chart's axis and legend, the week start of the symptom bars, and what the report
/// shows of visits and photos.
final class PagesPresentationTests: CLITestCase {
    func testBrailleChartHasARangeDatesAndOneMarkerPerPet() throws {
        try ok("pet", "add", "Coco", "--species", "dog")
        try ok("pet", "add", "Nabi", "--species", "cat")
        try ok("weight", "Coco", "4.1kg", "--at", "2026-09-01")
        try ok("weight", "Coco", "4.6kg", "--at", "2026-11-20")
        try ok("weight", "Nabi", "3.2kg", "--at", "2026-09-15")
        try ok("weight", "Nabi", "3.4kg", "--at", "2026-11-10")
        for env in [[:], ["NO_COLOR": "1"]] {
            let r = try run(["chart", "weight", "Coco", "Nabi", "--since", "6m"], env: env)
            XCTAssertEqual(r.status, 0, r.stderr)
            let lines = r.stdout.split(separator: "\n").map(String.init)
            XCTAssertFalse(r.stdout.contains("\u{1B}"), "no colour codes off a TTY")
            // The value range at the top and bottom rows of the plot.
            XCTAssertTrue(lines[0].hasPrefix("4.60 kg ┤"), lines[0])
            XCTAssertTrue(lines[11].hasPrefix("3.20 kg ┤"), lines[11])
            // First and last days under the plot.
            XCTAssertTrue(lines[12].contains("Sep 1") && lines[12].contains("Nov 20"), lines[12])
            // One legend entry per pet; the second pet's cells are drawn with its marker.
            XCTAssertTrue(lines[13].hasPrefix("⣿ Coco"), lines[13])
            XCTAssertTrue(lines[14].hasPrefix("• Nabi"), lines[14])
            XCTAssertTrue(lines[0..<12].joined().contains("•"))
        }
    }

    func testSymptomWeeksStartOnTheCalendarsDay() throws {
        try ok("pet", "add", "Nabi", "--species", "cat")
        try ok("symptom", "Nabi", "vomiting", "--at", "2026-11-04")
        func weekdays() throws -> Set<Int> {
            let out = try XCTUnwrap(try json("chart", "symptoms", "Nabi", "--since", "8w") as? [String: Any])
            let weeks = try XCTUnwrap(out["weeks"] as? [String])
            XCTAssertFalse(weeks.isEmpty)
            let calendar = Calendar(identifier: .gregorian)
            let parse = DateFormatter()
            parse.dateFormat = "yyyy-MM-dd"
            parse.timeZone = TimeZone(identifier: "UTC")
            return Set(try weeks.map { try XCTUnwrap(parse.date(from: $0)) }.map { var c = calendar; c.timeZone = TimeZone(identifier: "UTC")!; return c.component(.weekday, from: $0) })
        }
        try ok("config", "set", "week_start", "sunday")
        XCTAssertEqual(try weekdays(), [1])
        try ok("config", "set", "week_start", "monday")
        XCTAssertEqual(try weekdays(), [2])
    }

    func writePNG(_ name: String) throws -> String {
        let path = home.appendingPathComponent(name).path
        guard FileManager.default.isExecutableFile(atPath: "/usr/local/bin/convert") || FileManager.default.isExecutableFile(atPath: "/usr/bin/convert") else {
            throw XCTSkip("ImageMagick convert not installed")
        }
        let p = Process()
        p.executableURL = URL(fileURLWithPath: FileManager.default.isExecutableFile(atPath: "/usr/local/bin/convert") ? "/usr/local/bin/convert" : "/usr/bin/convert")
        p.arguments = ["-size", "320x240", "xc:#cc3344", path]
        try p.run()
        p.waitUntilExit()
        return path
    }

    func testReportVisitsShowWeightAndFollowUpAndPhotosArePictures() throws {
        try ok("pet", "add", "Rex", "--species", "dog")
        try ok("weight", "Rex", "10.2kg", "--at", "2026-11-03T08:00")
        try ok("visit", "Rex", "--clinic", "Happy Vet", "--reason", "checkup", "--follow-up", "2026-11-17", "--at", "2026-11-03T10:00")
        try ok("visit", "Rex", "--clinic", "Happy Vet", "--reason", "ear", "--weight", "10.4kg", "--at", "2026-11-10T10:00")
        let png = try writePNG("rash.png")
        let jpg = home.appendingPathComponent("ear.jpg").path
        try ok("diary", "Rex", "Rash on the belly", "--photo", png, "--at", "2026-11-05")
        let convert = FileManager.default.isExecutableFile(atPath: "/usr/local/bin/convert") ? "/usr/local/bin/convert" : "/usr/bin/convert"
        let p = Process()
        p.executableURL = URL(fileURLWithPath: convert)
        p.arguments = ["-size", "64x48", "xc:#3366cc", jpg]
        try p.run()
        p.waitUntilExit()
        try ok("diary", "Rex", "Left ear red", "--photo", jpg, "--at", "2026-11-06")
        let pdf = home.appendingPathComponent("rex.pdf").path
        try ok("report", "Rex", "-o", pdf)
        let text = try tool("pdftotext", ["-layout", pdf, "-"])
        XCTAssertTrue(text.contains("Follow-up"), text)
        XCTAssertTrue(text.contains("10.20 kg") && text.contains("10.40 kg"), text)
        XCTAssertTrue(text.contains("Nov 17, 2026"), text)
        XCTAssertTrue(text.contains("Photos") && text.contains("Rash on the belly") && text.contains("Left ear red"), text)
        let images = try tool("pdfimages", ["-list", pdf]).split(separator: "\n").dropFirst(2)
        XCTAssertEqual(Set(images.map { $0.split(separator: " ", omittingEmptySubsequences: true)[10] }).count, 2, "\(images)")
        XCTAssertTrue(images.contains { $0.contains("jpeg") }, "\(images)")
        XCTAssertTrue(text.contains("Weight — Rex"), "the weight chart has its title")
    }
}
