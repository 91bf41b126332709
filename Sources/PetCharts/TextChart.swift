/// Charts for terminals, made of Unicode block and Braille characters; no colour codes (the caller
/// colours or marks cells by `BrailleGrid.owners`).
public enum TextChart {
    private static let blocks: [Character] = ["▁", "▂", "▃", "▄", "▅", "▆", "▇", "█"]
    /// Bit of each dot in a Braille cell: left column top to bottom, then right column.
    private static let brailleBits: [UInt8] = [0x01, 0x02, 0x04, 0x40, 0x08, 0x10, 0x20, 0x80]

    /// One line of block characters, at most `width` of them: each character is the mean of its
    /// share of the values, scaled between their min and max. Non-finite values become spaces.
    public static func sparkline(_ values: [Double], width: Int) -> String {
        guard width > 0, !values.isEmpty else { return "" }
        let columns = min(width, values.count)
        var means = [Double](repeating: .nan, count: columns)
        for c in 0..<columns {
            let lo = c * values.count / columns, hi = max(lo + 1, (c + 1) * values.count / columns)
            var sum = 0.0, n = 0
            for v in values[lo..<hi] where v.isFinite { sum += v; n += 1 }
            if n > 0 { means[c] = sum / Double(n) }
        }
        let finite = means.filter { $0.isFinite }
        guard let lo = finite.min(), let hi = finite.max() else { return String(repeating: " ", count: columns) }
        return String(means.map { v -> Character in
            guard v.isFinite else { return " " }
            if hi - lo <= 0 { return blocks[3] }
            let level = Int(((v - lo) / (hi - lo) * Double(blocks.count - 1)).rounded())
            return blocks[min(max(level, 0), blocks.count - 1)]
        })
    }

    /// A Braille plot: each cell's dots, and which series drew most of them (to colour or mark it).
    public struct BrailleGrid: Equatable, Sendable {
        public var width: Int
        public var height: Int
        /// Row-major, `width`×`height`: a Braille character (U+2800 for no dots).
        public var cells: [Character]
        /// Row-major: the index in the given series of the one that set most dots in the cell; nil when empty.
        public var owners: [Int?]
        /// The plotted value range (top row to bottom row) and time range (left to right, Unix
        /// seconds); nil without a finite value.
        public var valueRange: ClosedRange<Double>?
        public var timeRange: ClosedRange<Double>?

        /// The rows as text.
        public var rows: [String] {
            (0..<height).map { String(cells[($0 * width)..<(($0 + 1) * width)]) }
        }
    }

    /// `height` lines of `width` Braille characters (2×4 dots each) plotting all series over a
    /// shared time and value range; the line breaks over each series' default gap.
    public static func braille(series: [LineSeries], width: Int, height: Int) -> [String] {
        brailleGrid(series: series, width: width, height: height)?.rows ?? []
    }

    /// The plot of `braille`, with each cell's owning series and the ranges, for axes and legends.
    public static func brailleGrid(series: [LineSeries], width: Int, height: Int) -> BrailleGrid? {
        guard width > 0, height > 0 else { return nil }
        let dotsX = width * 2, dotsY = height * 4
        var cells = [UInt8](repeating: 0, count: width * height)
        // Dots each series set per cell: series.count per cell.
        var counts = [Int](repeating: 0, count: width * height * max(1, series.count))
        var current = 0
        let usable = series.enumerated().filter { $0.element.count == $0.element.valueCount && !$0.element.isEmpty }
        let t0 = usable.compactMap { $0.element.firstTime }.min() ?? 0
        let t1 = usable.compactMap { $0.element.lastTime }.max() ?? 1
        var v0 = Double.infinity, v1 = -Double.infinity
        for (_, s) in usable {
            s.withPoints { p in
                for i in 0..<p.count { let v = p.value(i); if v.isFinite { v0 = min(v0, v); v1 = max(v1, v) } }
            }
        }
        guard v0.isFinite else {
            return BrailleGrid(width: width, height: height, cells: Array(repeating: "\u{2800}", count: width * height),
                               owners: Array(repeating: nil, count: width * height), valueRange: nil, timeRange: nil)
        }
        let tSpan = t1 > t0 ? t1 - t0 : 1, vSpan = v1 > v0 ? v1 - v0 : 1

        func set(_ x: Int, _ y: Int) {
            guard x >= 0, x < dotsX, y >= 0, y < dotsY else { return }
            let cell = (y / 4) * width + x / 2
            let bit = brailleBits[(x % 2) * 4 + y % 4]
            if cells[cell] & bit == 0 { counts[cell * series.count + current] += 1 }
            cells[cell] |= bit
        }
        func line(_ a: (Int, Int), _ b: (Int, Int)) {   // Bresenham
            var (x, y) = a
            let dx = abs(b.0 - x), dy = -abs(b.1 - y)
            let sx = x < b.0 ? 1 : -1, sy = y < b.1 ? 1 : -1
            var err = dx + dy
            while true {
                set(x, y)
                if x == b.0 && y == b.1 { break }
                let e2 = 2 * err
                if e2 >= dy { err += dy; x += sx }
                if e2 <= dx { err += dx; y += sy }
            }
        }
        for (index, s) in usable {
            current = index
            let gap = s.defaultGapThreshold
            var previous: (t: Double, dot: (Int, Int))?
            s.withPoints { points in for i in 0..<points.count {
                let t = points.time(i), v = points.value(i)
                guard v.isFinite else { continue }
                let dot = (Int(((t - t0) / tSpan * Double(dotsX - 1)).rounded()),
                           Int(((v1 - v) / vSpan * Double(dotsY - 1)).rounded()))
                if let p = previous, t - p.t <= gap { line(p.dot, dot) } else { set(dot.0, dot.1) }
                previous = (t, dot)
            } }
        }
        let owners: [Int?] = (0..<(width * height)).map { cell in
            guard cells[cell] != 0 else { return nil }
            let mine = counts[(cell * series.count)..<((cell + 1) * series.count)]
            return mine.indices.max { mine[$0] < mine[$1] || (mine[$0] == mine[$1] && $0 > $1) }.map { $0 - cell * series.count }
        }
        return BrailleGrid(width: width, height: height, cells: cells.map {
            // safe: a cell holds 8 dot bits (0...255), and U+2800...U+28FF are all scalars.
            Character(Unicode.Scalar(0x2800 + UInt32($0))!)
        }, owners: owners, valueRange: v0...v1, timeRange: t0...t1)
    }
}
