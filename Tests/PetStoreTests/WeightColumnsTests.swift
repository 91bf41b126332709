import XCTest
@testable import PetStoreCore

/// `WeightColumns` keeps a real series in 8 bytes a point and anything else as two `Double` columns,
/// with the same points either way.
final class WeightColumnsTests: XCTestCase {
    func testARealSeriesIsPackedAndGivesItsPoints() {
        var c = WeightColumns()
        XCTAssertTrue(c.isEmpty)
        c.reserveCapacity(3)
        c.append(at: 1_700_000_000, grams: 12_400)
        c.append(at: 1_700_000_000, grams: 12_350)
        c.append(at: 1_700_086_400, grams: 12_500)
        XCTAssertFalse(c.isWide)
        XCTAssertEqual(c.base, 1_700_000_000)
        XCTAssertEqual(c.offsets, [0, 0, 86_400])
        XCTAssertEqual(c.smallGrams, [12_400, 12_350, 12_500])
        XCTAssertEqual(c.times, [1_700_000_000, 1_700_000_000, 1_700_086_400])
        XCTAssertEqual(c.grams, [12_400, 12_350, 12_500])
        XCTAssertEqual(c.time(at: 2), 1_700_086_400)
        XCTAssertEqual(c.grams(at: 1), 12_350)
        XCTAssertEqual(c, WeightColumns(times: [1_700_000_000, 1_700_000_000, 1_700_086_400], grams: [12_400, 12_350, 12_500]))
        XCTAssertNotEqual(c, WeightColumns(times: [1_700_000_000, 1_700_000_000, 1_700_086_400], grams: [12_400, 12_350, 12_501]))
        XCTAssertNotEqual(c, WeightColumns(times: [1_700_000_000, 1_700_000_000], grams: [12_400, 12_350]))
        XCTAssertEqual(WeightColumns(), WeightColumns(times: [], grams: []))
    }

    /// Points that do not fit: instants more than 2³² s after the first, before it, far from 1970, grams
    /// beyond 32 bits. The series turns into `Double` columns with every point kept, in order.
    func testPointsThatDoNotFitWidenTheColumns() {
        let cases: [[(Int64, Int64)]] = [
            [(-2_208_988_800, 3_000), (2_208_988_800, 3_100)],            // 1900 and 2040: 140 years apart
            [(1_700_000_000, 3_000), (1_600_000_000, 3_100), (1_700_000_001, 3_200)],   // one before the first
            [(1_700_000_000, 3_000), (1_700_000_060, 3_000_000_000)],       // 3,000 tonnes
            [(1_700_000_000, -3_000_000_000)],
            [(Int64.min, 1), (Int64.max, 2)],
        ]
        for points in cases {
            var c = WeightColumns()
            for (at, g) in points { c.append(at: at, grams: g) }
            XCTAssertTrue(c.isWide, "\(points)")
            XCTAssertEqual(c.times, points.map { Double($0.0) })
            XCTAssertEqual(c.grams, points.map { Double($0.1) })
            XCTAssertEqual(c, WeightColumns(times: points.map { Double($0.0) }, grams: points.map { Double($0.1) }))
            c.append(at: Int64.max, grams: 7)
            XCTAssertEqual(c.count, points.count + 1)
            XCTAssertEqual(c.grams.last, 7)
        }
        var edge = WeightColumns()   // exactly 2³² − 1 s after the first still fits
        edge.append(at: 0, grams: Int64(Int32.min)); edge.append(at: Int64(UInt32.max), grams: Int64(Int32.max))
        XCTAssertFalse(edge.isWide)
        XCTAssertEqual(edge.times, [0, Double(UInt32.max)])
        XCTAssertEqual(edge.grams, [Double(Int32.min), Double(Int32.max)])
    }
}
