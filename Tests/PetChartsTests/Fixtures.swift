import Foundation
import PetCharts

/// Deterministic data for the chart tests (xorshift64*; never the system random source).
struct TestRandom {
    var state: UInt64
    init(seed: UInt64) { state = seed == 0 ? 0x9E37_79B9_7F4A_7C15 : seed }
    mutating func next() -> Double {
        state ^= state >> 12; state ^= state << 25; state ^= state >> 27
        return Double((state &* 2_685_821_657_736_338_717) >> 11) / Double(1 << 53)
    }
    mutating func int(_ range: ClosedRange<Int>) -> Int {
        range.lowerBound + Int(next() * Double(range.count)) % range.count
    }
}

enum Fixtures {
    static let utc = TimeZone(identifier: "UTC")!
    /// 2023-01-01T00:00:00Z.
    static let start = 1_672_531_200.0
    static let day = 86_400.0

    /// A pet weighed about every `every` days for `days` days, around `kg`, with a seasonal swing.
    static func pet(_ label: String, kg: Double, days: Int, every: Double, seed: UInt64,
                    skipping skip: ClosedRange<Int>? = nil, swing: Double = 0.02) -> LineSeries {
        var random = TestRandom(seed: seed)
        var times: [Double] = [], values: [Double] = []
        var t = 0.0, drift = 0.0
        while t < Double(days) {
            if skip?.contains(Int(t)) != true {
                drift = drift * 0.95 + (random.next() - 0.5) * 0.01
                let v = kg * (1 + drift + swing * sin(t / 365.25 * 2 * .pi) + (random.next() - 0.5) * 0.01)
                times.append(start + t * day + 8 * 3600)
                values.append((v * 100).rounded() / 100)
            }
            t += every * (0.7 + 0.6 * random.next())
        }
        return LineSeries(label: label, times: times, values: values)
    }

    static var labeler: TimeAxisLabeler { .numeric(timeZone: utc) }

    static func oneSeries(theme: ChartTheme = .light) -> WeightChartSpec {
        WeightChartSpec(title: "Coco — weight", yLabel: "Weight", unitSuffix: "kg",
                        series: [pet("Coco", kg: 12.4, days: 400, every: 2, seed: 11, skipping: 150...190)],
                        size: ChartSize(width: 800, height: 450), theme: theme, labeler: labeler)
    }

    static func threeSparse() -> WeightChartSpec {
        WeightChartSpec(title: "Household", xLabel: "Date", yLabel: "Weight", unitSuffix: "kg",
                        series: [pet("Coco (dog)", kg: 12.4, days: 700, every: 30, seed: 1),
                                 pet("Nabi (cat)", kg: 4.3, days: 700, every: 21, seed: 2),
                                 pet("Dubu (ferret)", kg: 1.2, days: 700, every: 25, seed: 3, swing: 0.08)],
                        size: ChartSize(width: 800, height: 450), labeler: labeler)
    }

    static func darkSmoothed() -> WeightChartSpec {
        var spec = WeightChartSpec(title: "Coco & Nabi", yLabel: "Weight", unitSuffix: "lb",
                                   series: [pet("Coco", kg: 27.3, days: 365, every: 1, seed: 5),
                                            pet("Nabi", kg: 9.5, days: 365, every: 1, seed: 6)],
                                   smoothingWindow: 14 * day, smoothingLabel: "14-day mean",
                                   size: ChartSize(width: 800, height: 450), theme: .dark, labeler: labeler)
        spec.gapThreshold = 10 * day
        return spec
    }

    static func symptomBars(theme: ChartTheme = .light) -> BarChartSpec {
        var random = TestRandom(seed: 9)
        let weeks = (1...20).map { "W\($0)" }
        let stacks = (1...5).map { severity in
            BarStack(label: "severity \(severity)", color: .severity(severity),
                     values: weeks.map { _ in random.next() < 0.5 / Double(severity) ? Double(random.int(1...3)) : 0 })
        }
        return BarChartSpec(title: "Symptoms per week", yLabel: "Episodes", categories: weeks, stacks: stacks,
                            size: ChartSize(width: 800, height: 450), theme: theme,
                            valueFormatter: { String(format: "%.0f", $0) })
    }
}
