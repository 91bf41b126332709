import XCTest
@testable import PetCharts

/// Properties of M4 decimation on random series with spikes.
final class M4DecimatorTests: XCTestCase {
    func randomSeries(_ random: inout TestRandom, count: Int) -> [(t: Double, v: Double)] {
        var t = 1_700_000_000.0, v = 10.0
        return (0..<count).map { _ in
            t += random.next() < 0.05 ? random.next() * 50_000 : random.next() * 300   // bursts and holes
            v += (random.next() - 0.5) * 0.2
            let spike = random.next() < 0.01 ? (random.next() - 0.5) * 40 : 0           // rare spikes
            return (t, v + spike)
        }
    }

    func testKeepsExtremesOfEveryColumnAndEnds() {
        var random = TestRandom(seed: 42)
        for round in 0..<200 {
            let count = random.int(1...5000)
            let width = random.int(1...300)
            let input = randomSeries(&random, count: count)
            var decimator = M4Decimator(width: width, tMin: input.first!.t, tMax: input.last!.t)
            for p in input { decimator.add(p.t, p.v) }
            let output = decimator.points()

            XCTAssertLessThanOrEqual(output.count, 4 * width, "round \(round)")
            XCTAssertLessThanOrEqual(output.count, count)
            XCTAssertEqual(decimator.addedCount, count)
            XCTAssertEqual(output.first?.t, input.first?.t)
            XCTAssertEqual(output.first?.v, input.first?.v)
            XCTAssertEqual(output.last?.t, input.last?.t)
            XCTAssertEqual(output.last?.v, input.last?.v)
            for (a, b) in zip(output, output.dropFirst()) { XCTAssertLessThanOrEqual(a.t, b.t) }

            // Per column: the global min and max of the input are in the output.
            var lows: [Int: Double] = [:], highs: [Int: Double] = [:]
            for p in input {
                let c = decimator.column(of: p.t)
                lows[c] = min(lows[c] ?? .infinity, p.v)
                highs[c] = max(highs[c] ?? -.infinity, p.v)
            }
            var outLows: [Int: Double] = [:], outHighs: [Int: Double] = [:]
            for p in output {
                let c = decimator.column(of: p.t)
                outLows[c] = min(outLows[c] ?? .infinity, p.v)
                outHighs[c] = max(outHighs[c] ?? -.infinity, p.v)
            }
            XCTAssertEqual(lows, outLows, "round \(round)")
            XCTAssertEqual(highs, outHighs, "round \(round)")
            if Set(output.map { "\($0.t)/\($0.v)" }).isSubset(of: Set(input.map { "\($0.t)/\($0.v)" })) == false {
                XCTFail("output contains a point that was not in the input (round \(round))")
            }
        }
    }

    func testFewPointsPassThroughUnchanged() {
        var decimator = M4Decimator(width: 100, tMin: 0, tMax: 99)
        let input = (0..<50).map { (t: Double($0 * 2), v: Double($0 % 7)) }
        for p in input { decimator.add(p.t, p.v) }
        XCTAssertEqual(decimator.points().map { $0.t }, input.map { $0.t })
        XCTAssertEqual(decimator.points().map { $0.v }, input.map { $0.v })
    }

    func testExtremesComeInTimeOrderAndDuplicatesAreDropped() {
        var decimator = M4Decimator(width: 1, tMin: 0, tMax: 10)
        for (t, v) in [(0.0, 5.0), (1, 9), (2, 1), (3, 4)] { decimator.add(t, v) }
        XCTAssertEqual(decimator.points().map { $0.v }, [5, 9, 1, 4])     // max came before min

        decimator.reset()
        for (t, v) in [(0.0, 1.0), (1, 5), (2, 9)] { decimator.add(t, v) }  // first is min, last is max
        XCTAssertEqual(decimator.points().map { $0.v }, [1, 9])
        XCTAssertEqual(decimator.addedCount, 3)

        decimator.reset()
        XCTAssertTrue(decimator.points().isEmpty)
        decimator.add(5, 3)
        XCTAssertEqual(decimator.points().map { $0.v }, [3])
    }

    func testSameTimeDifferentValuesKeepsBothExtremes() {
        var decimator = M4Decimator(width: 4, tMin: 0, tMax: 4)
        for v in [5.0, 1, 9, 5] { decimator.add(2, v) }
        let values = decimator.points().map { $0.v }
        XCTAssertTrue(values.contains(1) && values.contains(9))
    }

    func testMemoryIsPerColumnNotPerPoint() {
        var decimator = M4Decimator(width: 1600, tMin: 0, tMax: 1_000_000)
        for i in 0..<1_000_000 { decimator.add(Double(i), sin(Double(i) / 1000)) }
        XCTAssertLessThanOrEqual(decimator.points().count, 4 * 1600)
        XCTAssertEqual(decimator.addedCount, 1_000_000)
    }
}
