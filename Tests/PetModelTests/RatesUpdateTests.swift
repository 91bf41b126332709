import Foundation
import XCTest
@testable import PetModel

final class RatesUpdateTests: XCTestCase {
    func day(_ s: String) -> LocalDate { LocalDate.parseISO(Substring(s))! }

    func fetch(_ localDay: String, _ source: String) -> RatesFetch {
        RatesFetch(fetchedAt: Date(timeIntervalSince1970: 0), localDay: day(localDay), source: source, rates: 30, lastRateDay: day("2026-11-20"))
    }

    func testSourceOptionThenMirrorThenECB() {
        XCTAssertEqual(RatesUpdate.source(option: nil, mirror: nil, history: false), "https://www.ecb.europa.eu/stats/eurofxref/eurofxref-daily.xml")
        XCTAssertEqual(RatesUpdate.source(option: nil, mirror: nil, history: true), "https://www.ecb.europa.eu/stats/eurofxref/eurofxref-hist.zip")
        XCTAssertEqual(RatesUpdate.source(option: nil, mirror: "http://127.0.0.1:8080/ecb", history: false), "http://127.0.0.1:8080/ecb/eurofxref-daily.xml")
        XCTAssertEqual(RatesUpdate.source(option: nil, mirror: "http://127.0.0.1:8080/ecb/", history: true), "http://127.0.0.1:8080/ecb/eurofxref-hist.zip")
        XCTAssertEqual(RatesUpdate.source(option: "https://m.example/x.csv", mirror: "http://127.0.0.1/", history: true), "https://m.example/x.csv",
                       "--source is the whole file's URL and wins over the mirror")
        XCTAssertEqual(RatesUpdate.source(option: "", mirror: "", history: false), "https://www.ecb.europa.eu/stats/eurofxref/eurofxref-daily.xml")
        XCTAssertEqual(RatesUpdate.source(option: "http://a", mirror: nil, history: false), "http://a")
        XCTAssertEqual(RatesUpdate.source(option: "HTTPS://127.0.0.1:8443/r.xml", mirror: nil, history: false), "HTTPS://127.0.0.1:8443/r.xml")
        for bad in ["ftp://x/y.xml", "/tmp/rates.xml", "file:///tmp/r.xml", "http://", "https://", "http:///r.xml", "http://a b/c", "mirror.example/r.xml"] {
            XCTAssertNil(RatesUpdate.source(option: bad, mirror: nil, history: false), bad)
        }
    }

    func testAtMostOneFetchOfASourcePerLocalDay() {
        let ecb = "https://www.ecb.europa.eu/stats/eurofxref/eurofxref-daily.xml"
        let today = day("2026-11-23")
        XCTAssertEqual(RatesUpdate.decide(last: nil, source: ecb, today: today, force: false), .fetch, "never fetched")
        XCTAssertEqual(RatesUpdate.decide(last: fetch("2026-11-23", ecb), source: ecb, today: today, force: false), .useStored(fetch("2026-11-23", ecb)))
        XCTAssertEqual(RatesUpdate.decide(last: fetch("2026-11-23", ecb), source: ecb, today: today, force: true), .fetch, "--force")
        XCTAssertEqual(RatesUpdate.decide(last: fetch("2026-11-22", ecb), source: ecb, today: today, force: false), .fetch, "yesterday's fetch")
        XCTAssertEqual(RatesUpdate.decide(last: fetch("2026-11-24", ecb), source: ecb, today: today, force: false), .fetch,
                       "a fetch dated after today (a clock set back) is not today's")
        XCTAssertEqual(RatesUpdate.decide(last: fetch("2026-11-23", "file:/tmp/r.xml"), source: ecb, today: today, force: false), .fetch,
                       "an offline import does not stand for a fetch")
        XCTAssertEqual(RatesUpdate.decide(last: fetch("2026-11-23", ecb), source: ecb.replacingOccurrences(of: "daily.xml", with: "hist.zip"),
                                          today: today, force: false), .fetch, "the history is another source")
    }

    func testFileSummary() throws {
        let rates = try ECBRates.parse(Data(ExchangeRatesTests.history.utf8))
        let s = RatesUpdate.FileSummary(rates)
        XCTAssertEqual(s, RatesUpdate.FileSummary(rates))
        XCTAssertEqual([s.rates, s.days, s.currencies], [12, 3, 4])
        XCTAssertEqual(s.firstDay, day("2026-11-17"))
        XCTAssertEqual(s.lastDay, day("2026-11-20"))
    }

    /// Cross rates through the euro, hand-computed (quotient of the two euro rates), rounded once half
    /// away from zero to the decimals shown.
    func testCrossRatesAgainstHandComputedValues() throws {
        let table = RateTable(try ECBRates.parse(Data(ExchangeRatesTests.history.utf8)))
        let cases: [(from: String, to: String, day: String, decimals: Int, expected: String)] = [
            ("USD", "KRW", "2026-11-20", 4, "1400.5027"),  // 1476.55 / 1.0543 = 1400.502703…
            ("USD", "KRW", "2026-11-20", 2, "1400.50"),
            ("KRW", "USD", "2026-11-20", 4, "0.0007"),  // 1.0543 / 1476.55 = 0.000714…
            ("KRW", "USD", "2026-11-20", 6, "0.000714"),
            ("JPY", "KRW", "2026-11-20", 4, "9.0926"),  // 1476.55 / 162.39 = 9.092616…
            ("USD", "JPY", "2026-11-20", 4, "154.0264"),  // 162.39 / 1.0543 = 154.026368…
            ("USD", "EUR", "2026-11-20", 4, "0.9485"),  // 1 / 1.0543 = 0.948496…
            ("EUR", "KRW", "2026-11-20", 4, "1476.5500"),
            ("USD", "KRW", "2026-11-22", 4, "1400.5027"),  // Sunday: Friday's rates
            ("USD", "KRW", "2026-11-18", 4, "1403.8462"),  // the 17th's: 1460 / 1.04 = 1403.846153…
            ("JPY", "EUR", "2026-11-17", 4, "0.0063"),  // 1 / 160 = 0.00625: the half goes away from zero
            ("JPY", "EUR", "2026-11-17", 5, "0.00625"),
            ("KRW", "KRW", "2026-11-20", 4, "1.0000"),
            ("EUR", "EUR", "2026-11-20", 2, "1.00"),
        ]
        for c in cases {
            XCTAssertEqual(table.crossRate(from: c.from, to: c.to, on: day(c.day), decimals: c.decimals)?.description, c.expected,
                           "\(c.from)→\(c.to) \(c.day)")
        }
        XCTAssertNil(table.crossRate(from: "USD", to: "KRW", on: day("2026-11-16")), "before the first rate")
        XCTAssertNil(table.crossRate(from: "USD", to: "SGD", on: day("2026-11-20")), "no SGD rate")
        XCTAssertNil(table.crossRate(from: "SGD", to: "SGD", on: day("2026-11-20")), "no SGD rate, not even to itself")
    }

    func testFixedDecimalParts() {
        XCTAssertEqual(FixedDecimal(units: 14_005_027, decimals: 4).parts.whole, 1400)
        XCTAssertEqual(FixedDecimal(units: 14_005_027, decimals: 4).parts.fraction, "5027")
        XCTAssertEqual(FixedDecimal(units: 7, decimals: 4).description, "0.0007")
        XCTAssertEqual(FixedDecimal(units: 1234, decimals: 0).description, "1234")
    }

    /// A CSV cut off in its last line (fewer fields than the header) is refused, not read short.
    func testTruncatedFilesAreRefused() throws {
        let csv = ExchangeRatesTests.history
        for cut in [csv.count - 1, csv.count - 3, csv.count - 9, csv.count - 20] {
            let text = String(csv.prefix(cut))
            XCTAssertThrowsError(try ECBRates.parse(Data(text.utf8)), "cut at \(cut): \(text.suffix(20))") { e in
                XCTAssertEqual(e as? RatesFileError, .notARatesFile)
            }
        }
        XCTAssertNoThrow(try ECBRates.parse(Data((csv + "\n").utf8)), "a final newline is fine")
        let xml = ExchangeRatesTests.daily
        for cut in stride(from: 40, to: xml.count - 2, by: 37) {
            XCTAssertThrowsError(try ECBRates.parse(Data(xml.prefix(cut).utf8)), "XML cut at \(cut)")
        }
        XCTAssertThrowsError(try ECBRates.parse(Data("<!DOCTYPE html>\n<html><head><title>503</title></head><body>Service Unavailable</body></html>".utf8)))
        XCTAssertThrowsError(try ECBRates.parse(Data(csv.replacingOccurrences(of: "162.39", with: "162,39").utf8)), "a decimal comma is one field too many")
    }
}
