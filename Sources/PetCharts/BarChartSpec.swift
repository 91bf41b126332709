import Cairo

/// Colour of one bar stack.
public enum BarColor: Sendable, Equatable {
    /// The n-th colour of the theme's colour-blind-safe palette (categories, pets).
    case palette(Int)
    /// Severity 1 (mild) to 5 (severe) on a pale-yellow-to-dark-red scale.
    case severity(Int)
}

/// One layer of a stacked bar chart: a value per category (non-negative).
public struct BarStack: Sendable, Equatable {
    public var label: String
    public var color: BarColor
    public var values: [Double]

    public init(label: String, color: BarColor, values: [Double]) {
        self.label = label
        self.color = color
        self.values = values
    }
}

/// A level drawn across the bars (a budget): one value per category, nil where there is none; a
/// dashed segment over each category's slot, joined where neighbours are equal, with a legend entry.
public struct BarReferenceLine: Sendable, Equatable {
    public var label: String
    public var values: [Double?]
    public init(label: String, values: [Double?]) { self.label = label; self.values = values }
}

/// A stacked bar chart over categories (weeks, months), with already-translated texts.
/// Used for symptoms per week by severity and expenses per month by category.
public struct BarChartSpec: Sendable {
    public var title: String
    public var yLabel: String
    /// Labels of the x buckets, in order; thinned when they do not fit.
    public var categories: [String]
    /// Drawn bottom-up in this order; the legend lists them in the same order.
    public var stacks: [BarStack]
    public var size: ChartSize
    public var theme: ChartTheme
    public var language: String
    public var noDataText: String
    public var showLegend: Bool
    /// Writes a total above each bar when there is room.
    public var showTotals: Bool
    /// Formats tick and total values (e.g. money in major units, compact on the axis); nil: plain numbers.
    public var valueFormatter: (@Sendable (Double) -> String)?
    /// Formats the totals above the bars where they are written as everywhere else (money in full:
    /// `$6.10`, as the terminal says it); nil: `valueFormatter`.
    public var totalFormatter: (@Sendable (Double) -> String)?
    public var fontFamily: String
    /// A budget line over the bars, or nil.
    public var referenceLine: BarReferenceLine?
    /// Lines written under the plot (e.g. months with nothing convertible, which have neither bar nor line).
    public var notes: [String]

    public init(title: String, yLabel: String, categories: [String], stacks: [BarStack],
                size: ChartSize = .standard, theme: ChartTheme = .light, language: String = "en",
                noDataText: String = "No data", showLegend: Bool = true, showTotals: Bool = true,
                valueFormatter: (@Sendable (Double) -> String)? = nil, totalFormatter: (@Sendable (Double) -> String)? = nil,
                fontFamily: String = "Sans", referenceLine: BarReferenceLine? = nil, notes: [String] = []) {
        self.title = title
        self.yLabel = yLabel
        self.categories = categories
        self.stacks = stacks
        self.size = size
        self.theme = theme
        self.language = language
        self.noDataText = noDataText
        self.showLegend = showLegend
        self.showTotals = showTotals
        self.valueFormatter = valueFormatter
        self.totalFormatter = totalFormatter
        self.notes = notes
        self.fontFamily = fontFamily
        self.referenceLine = referenceLine
    }

    /// Throws `ChartError` for a bad size or a stack without one value per category.
    public func validate() throws {
        guard size.isValid else { throw ChartError.invalidSize(width: size.width, height: size.height) }
        for stack in stacks where stack.values.count != categories.count {
            throw ChartError.mismatchedStack(label: stack.label)
        }
        if let line = referenceLine, line.values.count != categories.count {
            throw ChartError.mismatchedStack(label: line.label)
        }
    }
}
