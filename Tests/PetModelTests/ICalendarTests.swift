import Foundation
import XCTest
@testable import PetModel

final class ICalendarTests: XCTestCase {
    func testLinesAreEscapedFoldedAndCRLF() {
        let day = LocalDate.parseISO("2026-12-01")!
        let long = String(repeating: "나비", count: 30)
        let text = ICalendar.document([
            ICalendar.Event(uid: "vaccine-1-rabies", summary: "Coco: rabies, booster; \\ \n", description: long, day: day, start: nil),
            ICalendar.Event(uid: "medication-7", summary: "Nabi: dose", description: nil, day: nil, start: Date(timeIntervalSince1970: 1_795_395_600)),
        ], stamp: Date(timeIntervalSince1970: 1_795_395_600))
        XCTAssertTrue(text.hasSuffix("END:VCALENDAR\r\n"))
        XCTAssertFalse(text.replacingOccurrences(of: "\r\n", with: "").contains("\n"), "bare LF")
        let lines = text.components(separatedBy: "\r\n")
        XCTAssertTrue(lines.allSatisfy { $0.utf8.count <= 75 }, "a line over 75 octets")
        XCTAssertTrue(lines.contains("SUMMARY:Coco: rabies\\, booster\\; \\\\  "), lines.joined(separator: "\n"))
        XCTAssertTrue(lines.contains("DTSTART;VALUE=DATE:20261201"))
        XCTAssertTrue(lines.contains("DTEND;VALUE=DATE:20261202"))
        XCTAssertTrue(lines.contains("DTSTART:20261123T010000Z"))
        // Unfolding gives the description back whole, no character split.
        let unfolded = text.replacingOccurrences(of: "\r\n ", with: "")
        XCTAssertTrue(unfolded.contains("DESCRIPTION:" + long))
        XCTAssertFalse(text.contains("METHOD:"))
    }
}
