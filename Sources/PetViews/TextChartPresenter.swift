import Foundation
import Localization
import PetCharts
import PetModel

/// Charts as terminal text, for a quick look without a file: a braille line chart of weights and
/// horizontal bars, laid out to the screen's width (colours only when the screen has them).
public struct TextChartPresenter {
    public let context: PresentationContext

    public init(_ context: PresentationContext) { self.context = context }

    /// A braille line chart with its value range at the left, its first and last days below (with the
    /// year when the range crosses one or is not this year's), and a legend per pet (sparkline, min,
    /// max, last), all within the screen's width: one colour per pet on a colour screen; with
    /// NO_COLOR or off a TTY, the second pet on are drawn with their own marker instead.
    public func lines(_ series: [LineSeries], unit: String) -> [String] {
        let screen = context.screen, format = context.format, time = context.time
        var out: [String] = []
        let nonEmpty = series.filter { !$0.isEmpty }
        let columns = max(screen.columns, 20)
        var top = "", bottom = ""
        // Each series' values once (a packed series builds its column when asked).
        let values = nonEmpty.map(\.values)
        if let lo = values.joined().filter(\.isFinite).min(), let hi = values.joined().filter(\.isFinite).max() {
            top = ValueFormatter.massNumber(hi, unit: unit) + " " + unit
            bottom = ValueFormatter.massNumber(lo, unit: unit) + " " + unit
        }
        let axis = max(DisplayColumns.width(top), DisplayColumns.width(bottom))
        let plotWidth = max(8, min(60, columns - axis - 2))
        guard let grid = TextChart.brailleGrid(series: nonEmpty, width: plotWidth, height: 12),
              grid.valueRange != nil, let times = grid.timeRange else { return [context.t(.chartNoData)] }
        let colors: [TextScreen.Style] = [.blue, .yellow, .green, .magenta, .cyan, .red]
        let markers: [Character] = ["•", "×", "+", "◆", "○", "▲", "■"]
        func cell(_ c: Character, owner: Int?) -> String {
            guard let owner, nonEmpty.count > 1 else { return String(c) }
            if screen.colors { return screen.styled(String(c), colors[owner % colors.count]) }
            return owner == 0 ? String(c) : String(markers[(owner - 1) % markers.count])
        }
        func symbol(_ i: Int) -> String {
            if screen.colors { return screen.styled("━━", colors[i % colors.count]) }
            return i == 0 ? "⣿" : String(markers[(i - 1) % markers.count])
        }
        for row in 0..<grid.height {
            let label = row == 0 ? top : (row == grid.height - 1 ? bottom : "")
            let text = (0..<grid.width).map { c in cell(grid.cells[row * grid.width + c], owner: grid.owners[row * grid.width + c]) }.joined()
            out.append(String(repeating: " ", count: axis - DisplayColumns.width(label)) + label + " ┤" + text)
        }
        let firstDay = time.localDate(of: Date(timeIntervalSince1970: times.lowerBound))
        let lastDay = time.localDate(of: Date(timeIntervalSince1970: times.upperBound))
        let withYear = firstDay.year != lastDay.year || lastDay.year != time.today.year
        let first = withYear ? format.longDate(firstDay) : format.shortDay(firstDay)
        let last = withYear ? format.longDate(lastDay) : format.shortDay(lastDay)
        let right = axis + 2 + grid.width, wFirst = DisplayColumns.width(first), wLast = DisplayColumns.width(last)
        // Under the plot when both fit there, else as far left as needed, else on two lines.
        let start = min(axis + 2, right - wFirst - 1 - wLast)
        if start >= 0 {
            out.append(String(repeating: " ", count: start) + first + String(repeating: " ", count: right - start - wFirst - wLast) + last)
        } else {
            out.append(String(repeating: " ", count: max(0, min(axis + 2, columns - wFirst))) + first)
            out.append(String(repeating: " ", count: max(0, min(right, columns) - wLast)) + last)
        }
        for (i, s) in nonEmpty.enumerated() {
            let sValues = values[i]
            guard let lo = sValues.min(), let hi = sValues.max(), let lastValue = sValues.last else { continue }
            let name = DisplayColumns.truncated(PlainText.sanitized(s.label), to: max(4, columns / 3))
            let head = symbol(i) + " " + name + "  "
            let range = context.t(.chartTextRange(min: ValueFormatter.massNumber(lo, unit: unit), max: ValueFormatter.massNumber(hi, unit: unit),
                                                  last: ValueFormatter.massNumber(lastValue, unit: unit), unit: unit))
            // The sparkline takes what the line has left, up to 40; when that is too little for it beside
            // the figures, the figures go below, wrapped between entries.
            let besides = columns - DisplayColumns.width(head) - 2 - DisplayColumns.width(range)
            if besides >= 12 {
                out.append(head + TextChart.sparkline(sValues, width: min(40, besides)) + "  " + range)
            } else {
                out.append(head + TextChart.sparkline(sValues, width: max(1, min(40, columns - DisplayColumns.width(head)))))
                for l in DisplayColumns.pack(range.components(separatedBy: format.listSeparator), separator: format.listSeparator, columns: columns - 3) {
                    out.append("   " + l)
                }
            }
        }
        return out
    }

    /// Horizontal text bars, one line per category, under the title.
    /// `totalTexts`: each bar's total as written (money), instead of the plain number.
    public func bars(title: String, categories: [String], stacks: [BarStack], totalTexts: [String]? = nil) -> [String] {
        let screen = context.screen
        var out = [screen.styled(PlainText.sanitized(title), .bold)]
        let totals = categories.indices.map { i in stacks.reduce(0) { $0 + $1.values[i] } }
        guard let top = totals.max(), top > 0 else { return out + [context.t(.chartNoData)] }
        let width = categories.map(DisplayColumns.width).max() ?? 0
        let totalsWidth = categories.indices.map { i in DisplayColumns.width(totalTexts?[i] ?? ValueFormatter.trim(totals[i], digits: 2)) }.max() ?? 0
        // The longest bar takes what the screen has left beside the labels and totals, up to 40.
        let longest = Double(max(4, min(40, screen.columns - width - 2 - 1 - totalsWidth)))
        for (i, c) in categories.enumerated() {
            let n = Int((totals[i] / top * longest).rounded())
            out.append(DisplayColumns.pad(c, to: width) + "  " + String(repeating: "█", count: n)
                       + (totals[i] > 0 ? " " + (totalTexts?[i] ?? ValueFormatter.trim(totals[i], digits: 2)) : ""))
        }
        return out
    }
}
