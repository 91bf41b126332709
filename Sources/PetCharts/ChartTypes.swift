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
public struct LineSeries: Sendable, Equatable {
    public var label: String
    public var times: [Double]
    public var values: [Double]

    public init(label: String, times: [Double], values: [Double]) {
        self.label = label
        self.times = times
        self.values = values
    }

    public var isEmpty: Bool { times.isEmpty }
}
