import Foundation

/// A weight-over-time chart: one line per pet, with already-translated texts.
public struct WeightChartSpec: Sendable {
    public var title: String
    /// Title under the time axis; nil for none (dates speak for themselves).
    public var xLabel: String?
    /// Title of the value axis; shown as "yLabel (unitSuffix)".
    public var yLabel: String
    /// "kg", "lb"; empty for none.
    public var unitSuffix: String
    public var series: [LineSeries]
    /// Centered rolling-mean window in seconds (e.g. 7 days); nil for none. The mean is drawn
    /// thick over the faded raw line.
    public var smoothingWindow: Double?
    /// Legend text for the mean line (e.g. "7-day mean"); nil leaves it out of the legend.
    public var smoothingLabel: String?
    /// The line breaks where consecutive points are further apart than this (seconds);
    /// nil: per series the one gap rule (`LineSeries.defaultGapThreshold`).
    public var gapThreshold: Double?
    /// Time range to show (Unix seconds); nil: the data's range.
    public var timeRange: ClosedRange<Double>?
    public var size: ChartSize
    public var theme: ChartTheme
    /// BCP 47 language of the texts ("en", "ko", "ja"), so Pango picks regional glyph forms.
    public var language: String
    public var labeler: TimeAxisLabeler
    /// Shown instead of lines when no series has a point in range.
    public var noDataText: String
    /// nil: a legend when there is more than one series (or a mean line with a label).
    public var showLegend: Bool?
    /// Pango family; "Sans" is the language's document family (`Cairo.FontFamily`: Noto Sans CJK KR/JP
    /// for Korean and Japanese, Latin included; the system's Sans otherwise).
    public var fontFamily: String
    /// Series with fewer points than this in range are drawn with a dot on each point.
    public var pointMarkerLimit: Int

    public init(title: String, xLabel: String? = nil, yLabel: String, unitSuffix: String,
                series: [LineSeries], smoothingWindow: Double? = nil, smoothingLabel: String? = nil,
                gapThreshold: Double? = nil, timeRange: ClosedRange<Double>? = nil,
                size: ChartSize = .standard, theme: ChartTheme = .light, language: String = "en",
                labeler: TimeAxisLabeler = .numeric(), noDataText: String = "No data",
                showLegend: Bool? = nil, fontFamily: String = "Sans", pointMarkerLimit: Int = 60) {
        self.title = title
        self.xLabel = xLabel
        self.yLabel = yLabel
        self.unitSuffix = unitSuffix
        self.series = series
        self.smoothingWindow = smoothingWindow
        self.smoothingLabel = smoothingLabel
        self.gapThreshold = gapThreshold
        self.timeRange = timeRange
        self.size = size
        self.theme = theme
        self.language = language
        self.labeler = labeler
        self.noDataText = noDataText
        self.showLegend = showLegend
        self.fontFamily = fontFamily
        self.pointMarkerLimit = pointMarkerLimit
    }

    /// Throws `ChartError` for a bad size or a malformed series (checked in O(n)).
    public func validate() throws {
        guard size.isValid else { throw ChartError.invalidSize(width: size.width, height: size.height) }
        for s in series {
            guard s.count == s.valueCount else { throw ChartError.mismatchedSeries(label: s.label) }
            let ordered = s.withPoints { p -> Bool in
                var previous = -Double.infinity
                for i in 0..<p.count {
                    let x = p.time(i)
                    guard x.isFinite, x >= previous else { return false }
                    previous = x
                }
                return true
            }
            guard ordered else { throw ChartError.unorderedTimes(label: s.label) }
        }
    }
}
