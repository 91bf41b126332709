import Foundation

/// Output file format of a chart.
public enum ChartFormat: Sendable, Equatable, CaseIterable {
    case png, pdf, svg

    /// `"png"`, `"PDF"`, `"svg"` → the format; anything else → nil.
    public init?(pathExtension: String) {
        switch pathExtension.lowercased() {
        case "png": self = .png
        case "pdf": self = .pdf
        case "svg": self = .svg
        default: return nil
        }
    }
}

/// Light (white paper) or dark (dark grey background) colours.
public enum ChartTheme: Sendable, Equatable { case light, dark }

/// Size of a chart in pixels of a 200 dpi figure.
///
/// PNG files have exactly `width`×`height` pixels. PDF and SVG pages are the same figure in
/// points, scaled by 72/200 (`vectorScale`): 1600×900 gives a 576×324 pt page, 8×4.5 in, the
/// size the peer benchmark uses. Layout (fonts, margins, line widths) is proportional to the size,
/// so the three formats look alike.
public struct ChartSize: Sendable, Equatable {
    public var width: Int
    public var height: Int

    public init(width: Int, height: Int) {
        self.width = width
        self.height = height
    }

    /// 1600×900: 8×4.5 in at 200 dpi.
    public static let standard = ChartSize(width: 1600, height: 900)
    /// Points per pixel for PDF and SVG output.
    public static let vectorScale = 72.0 / 200.0

    /// Parses `"1600x900"` (also `×`, `X`).
    public init?(_ text: String) {
        let parts = text.lowercased().replacingOccurrences(of: "×", with: "x").split(separator: "x")
        guard parts.count == 2, let w = Int(parts[0]), let h = Int(parts[1]) else { return nil }
        self.init(width: w, height: h)
    }

    /// Sizes the renderer accepts.
    public var isValid: Bool { (64...16000).contains(width) && (64...16000).contains(height) }
}

/// A chart input the renderer refuses.
public enum ChartError: Error, Equatable, CustomStringConvertible {
    case invalidSize(width: Int, height: Int)
    /// `times` and `values` of a series differ in length.
    case mismatchedSeries(label: String)
    /// Times of a series are not ascending, or are not finite.
    case unorderedTimes(label: String)
    /// A bar stack has a different number of values than there are categories.
    case mismatchedStack(label: String)

    public var description: String {
        switch self {
        case .invalidSize(let w, let h): return "chart size \(w)x\(h) is outside 64...16000"
        case .mismatchedSeries(let label): return "series \"\(label)\" has different numbers of times and values"
        case .unorderedTimes(let label): return "series \"\(label)\" has times that are not ascending"
        case .mismatchedStack(let label): return "bar stack \"\(label)\" does not have one value per category"
        }
    }
}

/// One line of a weight chart: times in Unix seconds (ascending) and values in display units.
///
/// Held either as the two `Double` columns given, or packed as a store reads weights (issue 34: a
/// million-point chart's peak RSS): the first instant once, each point's seconds after it and its grams,
/// 8 bytes a point where two `Double` columns take 16; a value is then `Double(grams) / divisor`, worked
/// out where it is used, the same `Double` the unpacked column would hold. `times` and `values` build
/// whole columns: the drawing and the text chart read points one by one (`time(at:)`, `value(at:)`).
public struct LineSeries: Sendable, Equatable {
    public var label: String
    let storage: Storage

    enum Storage: Sendable {
        case columns(times: [Double], values: [Double])
        case packed(base: Int64, offsets: [UInt32], grams: [Int32], divisor: Double)
    }

    public init(label: String, times: [Double], values: [Double]) {
        self.label = label
        storage = .columns(times: times, values: values)
    }

    /// Point `i` at `base + offsets[i]` seconds with the value `Double(grams[i]) / divisor` (grams in the
    /// display unit); `offsets` and `grams` of the same length.
    public init(label: String, base: Int64, offsets: [UInt32], grams: [Int32], divisor: Double) {
        self.label = label
        storage = .packed(base: base, offsets: offsets, grams: grams, divisor: divisor)
    }

    /// The number of points (of times; `validate` refuses a series whose values are fewer or more).
    public var count: Int {
        switch storage {
        case .columns(let times, _): return times.count
        case .packed(_, let offsets, _, _): return offsets.count
        }
    }
    /// The number of values.
    var valueCount: Int {
        switch storage {
        case .columns(_, let values): return values.count
        case .packed(_, _, let grams, _): return grams.count
        }
    }
    public var isEmpty: Bool { count == 0 }

    /// Point `i`'s time.
    public func time(at i: Int) -> Double {
        switch storage {
        case .columns(let times, _): return times[i]
        case .packed(let base, let offsets, _, _): return Double(base &+ Int64(offsets[i]))
        }
    }
    /// Point `i`'s value.
    public func value(at i: Int) -> Double {
        switch storage {
        case .columns(_, let values): return values[i]
        case .packed(_, _, let grams, let divisor): return Double(grams[i]) / divisor
        }
    }
    public var firstTime: Double? { isEmpty ? nil : time(at: 0) }
    public var lastTime: Double? { isEmpty ? nil : time(at: count - 1) }

    /// Every time, as a column (built anew for a packed series).
    public var times: [Double] {
        switch storage {
        case .columns(let times, _): return times
        case .packed(let base, let offsets, _, _): return offsets.map { Double(base &+ Int64($0)) }
        }
    }
    /// Every value, as a column (built anew for a packed series).
    public var values: [Double] {
        switch storage {
        case .columns(_, let values): return values
        case .packed(_, _, let grams, let divisor): return grams.map { Double($0) / divisor }
        }
    }

    /// The points for a loop, without a switch per access on the storage's kind (valid inside `body` only).
    func withPoints<R>(_ body: (SeriesPoints) throws -> R) rethrows -> R {
        switch storage {
        case .columns(let times, let values):
            return try times.withUnsafeBufferPointer { t in
                try values.withUnsafeBufferPointer { v in
                    try body(SeriesPoints(count: t.count, packed: false, times: t, values: v, base: 0, offsets: .init(start: nil, count: 0),
                                          grams: .init(start: nil, count: 0), divisor: 1))
                }
            }
        case .packed(let base, let offsets, let grams, let divisor):
            return try offsets.withUnsafeBufferPointer { o in
                try grams.withUnsafeBufferPointer { g in
                    try body(SeriesPoints(count: o.count, packed: true, times: .init(start: nil, count: 0), values: .init(start: nil, count: 0),
                                          base: base, offsets: o, grams: g, divisor: divisor))
                }
            }
        }
    }

    public static func == (a: LineSeries, b: LineSeries) -> Bool {
        guard a.label == b.label, a.count == b.count, a.valueCount == b.valueCount else { return false }
        return a.withPoints { p in b.withPoints { q in
            (0..<p.count).allSatisfy { p.time($0) == q.time($0) && p.value($0) == q.value($0) }
        } }
    }
}

/// A series' points inside `LineSeries.withPoints`: the two columns, or the packed instants and grams.
struct SeriesPoints {
    /// The number of times (`validate` holds the values to the same).
    let count: Int
    let packed: Bool
    let times: UnsafeBufferPointer<Double>
    let values: UnsafeBufferPointer<Double>
    let base: Int64
    let offsets: UnsafeBufferPointer<UInt32>
    let grams: UnsafeBufferPointer<Int32>
    let divisor: Double

    @inline(__always)
    func time(_ i: Int) -> Double { packed ? Double(base &+ Int64(offsets[i])) : times[i] }
    @inline(__always)
    func value(_ i: Int) -> Double { packed ? Double(grams[i]) / divisor : values[i] }
}
