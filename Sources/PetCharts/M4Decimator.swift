/// Streaming M4 decimation: per pixel column keeps the first, lowest, highest and last point, so
/// that a line drawn through the kept points covers the same pixels as the full line; no spike is
/// lost. Memory is O(width) whatever the number of points.
public struct M4Decimator: Sendable {
    public let width: Int
    public let tMin: Double
    public let tMax: Double
    private let columnsPerSecond: Double
    private var columns: [Column]
    // Touched column range, so that reset() is cheap for short runs.
    private var lowest = Int.max, highest = -1

    private struct Column: Sendable {
        var firstT = 0.0, firstV = 0.0, minT = 0.0, minV = 0.0
        var maxT = 0.0, maxV = 0.0, lastT = 0.0, lastV = 0.0
        var count: Int32 = 0
        // Position of the min and max point in the column (0 = first), to order and deduplicate.
        var minO: Int32 = 0, maxO: Int32 = 0
    }

    /// `width` columns spread evenly over `tMin...tMax`; points outside go to the edge columns.
    public init(width: Int, tMin: Double, tMax: Double) {
        let w = max(1, width)
        self.width = w
        self.tMin = tMin
        self.tMax = tMax
        let span = tMax - tMin
        columnsPerSecond = span > 0 ? Double(w) / span : 0
        columns = Array(repeating: Column(), count: w)
    }

    /// The pixel column of time `t`.
    @inline(__always)
    public func column(of t: Double) -> Int {
        let x = (t - tMin) * columnsPerSecond
        guard x > 0 else { return 0 }
        return x >= Double(width) ? width - 1 : Int(x)
    }

    /// Adds one point; points must come in ascending time order. NaN values are ignored.
    @inline(__always)
    public mutating func add(_ t: Double, _ v: Double) {
        guard !v.isNaN else { return }
        let c = column(of: t)
        if c < lowest { lowest = c }
        if c > highest { highest = c }
        columns.withUnsafeMutableBufferPointer { buffer in
            let n = buffer[c].count
            if n == 0 {
                buffer[c] = Column(firstT: t, firstV: v, minT: t, minV: v, maxT: t, maxV: v,
                                   lastT: t, lastV: v, count: 1, minO: 0, maxO: 0)
                return
            }
            if v < buffer[c].minV { buffer[c].minV = v; buffer[c].minT = t; buffer[c].minO = n }
            if v > buffer[c].maxV { buffer[c].maxV = v; buffer[c].maxT = t; buffer[c].maxO = n }
            buffer[c].lastT = t; buffer[c].lastV = v
            buffer[c].count = n &+ 1
        }
    }

    /// Number of points added since the last reset.
    public var addedCount: Int {
        guard highest >= 0 else { return 0 }
        var n = 0
        for c in lowest...highest { n += Int(columns[c].count) }
        return n
    }

    /// The kept points in time order: at most 4 per column.
    public func points() -> [(t: Double, v: Double)] {
        var out: [(t: Double, v: Double)] = []
        forEachPoint { out.append(($0, $1)) }
        return out
    }

    /// Calls `body` with each kept point in time order, without building an array.
    public func forEachPoint(_ body: (Double, Double) -> Void) {
        guard highest >= 0 else { return }
        for c in lowest...highest where columns[c].count > 0 {
            let col = columns[c]
            let last = col.count - 1
            body(col.firstT, col.firstV)
            // The extremes in the order they happened, unless they are the first or last point.
            let minFirst = col.minO <= col.maxO
            let (aO, aT, aV) = minFirst ? (col.minO, col.minT, col.minV) : (col.maxO, col.maxT, col.maxV)
            let (bO, bT, bV) = minFirst ? (col.maxO, col.maxT, col.maxV) : (col.minO, col.minT, col.minV)
            if aO != 0 && aO != last { body(aT, aV) }
            if bO != 0 && bO != last && bO != aO { body(bT, bV) }
            if last > 0 { body(col.lastT, col.lastV) }
        }
    }

    /// Forgets all points, keeping the column grid.
    public mutating func reset() {
        guard highest >= 0 else { return }
        for c in lowest...highest { columns[c].count = 0 }
        lowest = .max
        highest = -1
    }
}
