import Foundation
import XCTest
import PetModel
@testable import PetFiles
@testable import PetStoreCore
@testable import PetStoreSQLite

final class RatesDownloadTests: XCTestCase {
    static let ecb = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("petlogTests/Fixtures/ecb")

    func testTheHistoryZipIsUnpackedToItsCSV() throws {
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/unzip") else { throw XCTSkip("unzip not installed") }
        let zip = try Data(contentsOf: Self.ecb.appendingPathComponent("eurofxref-hist.zip"))
        XCTAssertTrue(RatesDownload.isZip(zip))
        let csv = try Data(contentsOf: Self.ecb.appendingPathComponent("eurofxref-hist.csv"))
        XCTAssertFalse(RatesDownload.isZip(csv))
        XCTAssertEqual(try RatesDownload.unzipRatesFile(zip), csv)
        XCTAssertThrowsError(try RatesDownload.unzipRatesFile(zip.prefix(zip.count / 2))) { e in
            guard case .badArchive = e as? RatesDownloadError else { return XCTFail("\(e)") }
        }
    }

    func testAZipWithoutUnzipIsSaidSo() throws {
        let zip = try Data(contentsOf: Self.ecb.appendingPathComponent("eurofxref-hist.zip"))
        XCTAssertThrowsError(try RatesDownload.unzipRatesFile(zip, unzip: "/nonexistent/unzip")) { e in
            XCTAssertEqual(e as? RatesDownloadError, .noUnzip)
        }
    }

    func testAClosedPortIsUnreachable() throws {
        // Bind a port, note it, close it: nothing listens there any more.
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var addr = sockaddr_in()
        addr.sin_family = sa_family_t(AF_INET)
        addr.sin_addr.s_addr = inet_addr("127.0.0.1")
        var len = socklen_t(MemoryLayout<sockaddr_in>.size)
        let port: UInt16 = withUnsafeMutablePointer(to: &addr) { p in
            p.withMemoryRebound(to: sockaddr.self, capacity: 1) { sa in
                _ = bind(fd, sa, len)
                _ = getsockname(fd, sa, &len)
            }
            return UInt16(bigEndian: p.pointee.sin_port)
        }
        close(fd)
        XCTAssertGreaterThan(port, 0)
        let url = try XCTUnwrap(URL(string: "http://127.0.0.1:\(port)/eurofxref-daily.xml"))
        XCTAssertThrowsError(try RatesDownload.fetch(url, timeout: 5)) { e in
            guard case .unreachable = e as? RatesDownloadError else { return XCTFail("\(e)") }
        }
    }

    /// A fetched file stored, then the rates read back: the day's table and the fetch log.
    func testStoredRatesAndTheFetchLog() throws {
        let repo = Store(SQLiteRepository(try AppDatabase.inMemory()))
        let rates = try ECBRates.parse(try Data(contentsOf: Self.ecb.appendingPathComponent("eurofxref-daily.xml")))
        let day = try XCTUnwrap(LocalDate(year: 2026, month: 11, day: 23))
        let summary = try repo.storeRates(rates, source: "http://mirror/eurofxref-daily.xml", at: Date(timeIntervalSince1970: 1_795_395_600), localDay: day)
        XCTAssertEqual([summary.added, summary.changed, summary.days], [29, 0, 1])
        let last = try XCTUnwrap(try repo.lastRatesFetch())
        XCTAssertEqual(RatesUpdate.decide(last: last, source: "http://mirror/eurofxref-daily.xml", today: day, force: false), .useStored(last))
        XCTAssertEqual(RatesUpdate.decide(last: last, source: "http://mirror/eurofxref-daily.xml", today: day.adding(days: 1), force: false), .fetch)
        let friday = try XCTUnwrap(try repo.rates(on: day))
        XCTAssertEqual(friday.day.description, "2026-11-20")
        XCTAssertEqual(RateTable(friday.rates).crossRate(from: "USD", to: "KRW", on: friday.day)?.description, "1462.6421")
    }
}
