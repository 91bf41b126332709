import Foundation
import XCTest
@testable import PetModel

final class ExchangeRatesTests: XCTestCase {
    static let daily = """
    <?xml version="1.0" encoding="UTF-8"?>
    <gesmes:Envelope xmlns:gesmes="http://www.gesmes.org/xml/2002-08-01" xmlns="http://www.ecb.int/vocabulary/2002-08-01/eurofxref">
    \t<gesmes:subject>Reference rates</gesmes:subject>
    \t<gesmes:Sender><gesmes:name>European Central Bank</gesmes:name></gesmes:Sender>
    \t<Cube>
    \t\t<Cube time='2026-11-20'>
    \t\t\t<Cube currency='USD' rate='1.0543'/>
    \t\t\t<Cube currency='JPY' rate='162.39'/>
    \t\t\t<Cube currency='KRW' rate='1476.55'/>
    \t\t</Cube>
    \t</Cube>
    </gesmes:Envelope>
    """

    static let history = """
    Date,USD,JPY,BGN,CYP,KRW,
    2026-11-20,1.0543,162.39,1.9558,N/A,1476.55,
    2026-11-19,1.0500,161.00,1.9558,N/A,1470.00,
    2026-11-17,1.0400,160.00,1.9558,N/A,1460.00,
    """

    func day(_ s: String) -> LocalDate { LocalDate.parseISO(Substring(s))! }
    func money(_ minor: Int64, _ code: String) -> Money { Money(minorUnits: minor, currency: Currency.named(code)!) }

    func testBothFilesReadExactly() throws {
        let xml = try ECBRates.parse(Data(Self.daily.utf8))
        XCTAssertEqual(xml.count, 3)
        XCTAssertEqual(xml.first { $0.currency == "KRW" }?.rate.description, "1476.55")
        XCTAssertEqual(xml.first?.day, day("2026-11-20"))
        let csv = try ECBRates.parse(Data(Self.history.utf8))
        XCTAssertEqual(csv.count, 12, "N/A and the trailing empty column are left out")
        XCTAssertEqual(csv.filter { $0.currency == "USD" }.map(\.rate.description), ["1.0543", "1.0500", "1.0400"])
    }

    func testBrokenFilesAreRefused() {
        let truncated = String(Self.daily.prefix(Self.daily.count / 2))
        for bad in [truncated, "", "hello", "Date,USD\n2026-11-20,abc\n", "Date,USD\n2026-13-01,1.0\n",
                    Self.daily.replacingOccurrences(of: "'1.0543'", with: "'-1'"),
                    Self.daily.replacingOccurrences(of: "2026-11-20", with: "yesterday"), "<html><body>maintenance</body></html>"] {
            XCTAssertThrowsError(try ECBRates.parse(Data(bad.utf8)), bad.prefix(40).description)
        }
    }

    func testConversionsAgainstHandComputedValues() throws {
        let table = RateTable(try ECBRates.parse(Data(Self.history.utf8)))
        let d = day("2026-11-20")
        // 12.50 USD → EUR: 12.50 / 1.0543 = 11.8562079… → 11.86
        XCTAssertEqual(table.convert(money(1250, "USD"), to: Currency.named("EUR")!, on: d), money(1186, "EUR"))
        // 12.50 USD → KRW: 12.50 × 1476.55 / 1.0543 = 17506.28… → 17506
        XCTAssertEqual(table.convert(money(1250, "USD"), to: Currency.named("KRW")!, on: d), money(17506, "KRW"))
        // 1,200 JPY → KRW: 1200 × 1476.55 / 162.39 = 10911.14… → 10911
        XCTAssertEqual(table.convert(money(1200, "JPY"), to: Currency.named("KRW")!, on: d), money(10911, "KRW"))
        // 45,000 KRW → USD: 45000 × 1.0543 / 1476.55 = 32.1316… → 32.13
        XCTAssertEqual(table.convert(money(45000, "KRW"), to: Currency.named("USD")!, on: d), money(3213, "USD"))
        // 100 EUR → JPY: 16239 exactly
        XCTAssertEqual(table.convert(money(10000, "EUR"), to: Currency.named("JPY")!, on: d), money(16239, "JPY"))
        // On the 17th (1460 KRW, 1.04 USD, 160 JPY per EUR):
        // 73 KRW → 0.05200 → 0.05; 7 JPY at 160 → 0.04375 EUR → 0.04.
        XCTAssertEqual(table.convert(money(73, "KRW"), to: Currency.named("USD")!, on: day("2026-11-17")), money(5, "USD"))
        XCTAssertEqual(table.convert(money(7, "JPY"), to: Currency.named("EUR")!, on: day("2026-11-17")), money(4, "EUR"))
        // 0.5 exactly rounds away from zero: 1 JPY at 160.00 → EUR cents = 100/160 = 0.625 → 1 cent.
        XCTAssertEqual(table.convert(money(1, "JPY"), to: Currency.named("EUR")!, on: day("2026-11-17")), money(1, "EUR"))
        XCTAssertEqual(table.convert(money(8, "JPY"), to: Currency.named("EUR")!, on: day("2026-11-17")), money(5, "EUR"), "8/160 = 0.05 exactly")
    }

    func testTheRateOfTheLastPublishedDayOnOrBefore() throws {
        let table = RateTable(try ECBRates.parse(Data(Self.history.utf8)))
        XCTAssertEqual(table.rate("USD", on: day("2026-11-18"))?.day, day("2026-11-17"), "no rate on the 18th: the 17th's")
        XCTAssertEqual(table.rate("USD", on: day("2026-11-23"))?.day, day("2026-11-20"), "a weekend: Friday's")
        XCTAssertNil(table.rate("USD", on: day("2026-11-16")), "before the first rate: none, never guessed")
        XCTAssertNil(table.convert(money(100, "USD"), to: Currency.named("KRW")!, on: day("2026-11-16")))
        XCTAssertNil(table.convert(money(100, "USD"), to: Currency.named("SGD")!, on: day("2026-11-20")), "no SGD rate")
        XCTAssertEqual(table.convert(money(100, "USD"), to: Currency.named("USD")!, on: day("2026-01-01")), money(100, "USD"))
    }
}
