/// Gap splitting and smoothing of a series, before drawing.
extension LineSeries {
    /// Index ranges of the stretches without a gap longer than `gapThreshold` seconds; the line
    /// is broken between them so that missing weeks do not look like a straight trend.
    public func runs(gapThreshold: Double) -> [Range<Int>] {
        let n = count
        guard n > 0 else { return [] }
        var out: [Range<Int>] = []
        var start = 0
        withPoints { p in
            var previous = p.time(0)
            for i in 1..<max(1, n) {
                let t = p.time(i)
                if t - previous > gapThreshold {
                    out.append(start..<i)
                    start = i
                }
                previous = t
            }
        }
        out.append(start..<n)
        return out
    }

    /// Median distance between consecutive times, from at most 4,095 evenly spread pairs so
    /// that millions of points cost nothing; nil with fewer than two points.
    public var medianSpacing: Double? {
        let n = count
        guard n >= 2 else { return nil }
        let pairs = n - 1
        let stride = max(1, pairs / 4095)
        var gaps: [Double] = []
        gaps.reserveCapacity(pairs / stride + 1)
        withPoints { p in
            var i = 1
            while i < n { gaps.append(p.time(i) - p.time(i - 1)); i += stride }
        }
        gaps.sort()
        return gaps[gaps.count / 2]
    }

    /// The gap rule of every weight chart (PNG, PDF, SVG and the terminal's braille; README, "Charts"):
    /// the line breaks where two weigh-ins are more than two weeks apart, or, for a pet weighed less
    /// often than once a week, more than twice its usual spacing apart (monthly weigh-ins stay one line;
    /// a missed month of weekly ones does not).
    public static let gapDays = 14.0
    public static let gapSpacings = 2.0

    /// The gap of this series by that rule.
    public var defaultGapThreshold: Double {
        max(Self.gapDays * 86400, Self.gapSpacings * (medianSpacing ?? 0))
    }

    /// Centered moving average over a time window of `window` seconds (each point averages the
    /// points within ±window/2 of it), computed inside each run so gaps are not bridged.
    /// O(n) whatever the window.
    public func rollingMean(window: Double, runs: [Range<Int>]? = nil) -> [Double] {
        let n = count
        guard n == valueCount, n > 0 else { return [] }
        var out = [Double](repeating: 0, count: n)
        withPoints { p in
            var cursor = RollingMeanCursor(points: p, window: window)
            for run in runs ?? [0..<n] {
                cursor.start(run)
                for i in run { out[i] = cursor.mean(at: i) }
            }
        }
        return out
    }
}

/// The rolling mean one point at a time, in order within a run, so that drawing can stream it
/// without an extra array of a million values.
struct RollingMeanCursor {
    let points: SeriesPoints
    let half: Double
    private var lo = 0, hi = 0, end = 0   // the window is [lo, hi) inside the run ending at `end`
    private var sum = 0.0

    init(points: SeriesPoints, window: Double) {
        self.points = points
        half = max(0, window) / 2
    }

    mutating func start(_ run: Range<Int>) {
        lo = run.lowerBound; hi = run.lowerBound; end = run.upperBound; sum = 0
    }

    /// Mean around point `i`; call with increasing `i` inside the run given to `start`.
    mutating func mean(at i: Int) -> Double {
        let t = points.time(i)
        while hi < end && points.time(hi) <= t + half { sum += points.value(hi); hi += 1 }
        while points.time(lo) < t - half { sum -= points.value(lo); lo += 1 }
        return sum / Double(hi - lo)
    }
}
