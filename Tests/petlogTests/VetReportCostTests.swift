import Foundation
import XCTest
import PetlogTestSupport

/// The vet report's visits table shows each visit's cost, and below it the period's total in the home
/// currency, foreign costs converted at their day's rate (the demo's rates: 2026-11-19, USD 1.1580, KRW 1668.40).
final class VetReportCostTests: CLITestCase {
    override func setUpWithError() throws {
        try super.setUpWithError()
        try demoHousehold("--end", "2026-11-20")
    }

    func testThePeriodsVisitCostsAndTheirTotal() throws {
        try ok("visit", "Coco", "--clinic", "VCA", "--cost", "12.50USD", "--at", "2026-11-19T12:00")
        try ok("visit", "Coco", "--clinic", "Old Town Vet", "--cost", "40USD", "--at", "2026-09-01T12:00")
        let pdf = home.appendingPathComponent("r.pdf").path
        try ok("report", "Coco", "--since", "90d", "--currency", "KRW", "-o", pdf)
        let text = try pdfText(pdf).replacingOccurrences(of: "\n", with: " ")
        // Each visit's cost in the table, as paid.
        for cost in ["₩128,000", "₩35,000", "$12.50", "$40.00"] { XCTAssertTrue(text.contains(cost), "\(cost): \(text)") }
        // The demo's illness visits (128,000 + 35,000 won) and 12.50 × 1668.40 / 1.1580 = 18,009 won; the
        // September dollars have no rate (the demo's start in late October): said, not counted.
        XCTAssertTrue(text.contains("Visit costs in this period: ₩181,009"), text)
        XCTAssertTrue(text.contains("1 visit paid in USD, converted at the rate of its day"), text)
        XCTAssertTrue(text.contains("1 visit in USD without an exchange rate for its day, not counted"), text)
        // In Korean, the same total (digits only: the money format is the language's).
        let ko = home.appendingPathComponent("ko.pdf").path
        try ok("--lang", "ko", "report", "Coco", "--since", "90d", "-o", ko)
        let koText = try pdfText(ko)
        XCTAssertTrue(koText.contains("이 기간 진료비"), koText)
        XCTAssertTrue(koText.contains("181,009"), koText)
    }
}
