import Foundation
import PetModel

/// The text layout of a terminal, without writing to it: colours only when asked, every line fitting
/// `columns` display columns, user text sanitized in tables. `Terminal` in the CLI writes these lines.
public struct TextScreen: Sendable {
    public let colors: Bool
    /// The width every layout fits.
    public var columns: Int

    public init(colors: Bool, columns: Int) { self.colors = colors; self.columns = columns }

    public enum Style: String, Sendable {
        case bold = "1", dim = "2", red = "31", green = "32", yellow = "33", blue = "34", magenta = "35", cyan = "36"
    }

    public func styled(_ text: String, _ style: Style) -> String {
        colors ? "\u{1B}[\(style.rawValue)m\(text)\u{1B}[0m" : text
    }

    /// A text wrapped to the width; lines after the first are indented by `indent`.
    public func wrapped(_ text: String, indent: Int = 0) -> [String] {
        DisplayColumns.wrap(text, columns: columns, indent: indent)
    }

    /// A plain aligned table: a header row, then rows; every cell is sanitized. When the columns do not
    /// fit the width, each row is its first cell on a line and the others below it (the header says
    /// their order), so nothing wraps in the middle of a column.
    /// `style(row)`: a colour for a whole row (an overdue item), or nil.
    public func table(header: [String], rows: [[String]], style: (Int) -> Style? = { _ in nil }) -> [String] {
        var out: [String] = []
        let clean = rows.map { $0.map(PlainText.sanitized) }
        var widths = header.map(DisplayColumns.width)
        for r in clean { for (i, c) in r.enumerated() where i < widths.count { widths[i] = max(widths[i], DisplayColumns.width(c)) } }
        let total = widths.dropLast().reduce(0) { $0 + $1 + 2 } + (widths.last ?? 0)
        if total > columns && header.count > 1 {
            out.append(styled(header[0], .bold))
            for l in DisplayColumns.pack(Array(header.dropFirst()), separator: " · ", columns: columns - 2) { out.append(styled("  " + l, .bold)) }
            for (i, r) in clean.enumerated() {
                let rest = r.dropFirst().map { $0.trimmingCharacters(in: .whitespaces).isEmpty ? "-" : $0 }
                // The other cells two columns in from the first cell's own indentation (stats' sub-rows).
                let margin = (r.first ?? "").prefix(while: { $0 == " " }).count + 2
                let below = DisplayColumns.pack(Array(rest), separator: " · ", columns: columns - margin)
                for l in DisplayColumns.wrap(r.first ?? "", columns: columns, indent: margin) + below.map({ String(repeating: " ", count: margin) + $0 }) {
                    out.append(style(i).map { styled(l, $0) } ?? l)
                }
            }
            return out
        }
        let head = header.enumerated().map { i, h in i == header.count - 1 ? h : DisplayColumns.pad(h, to: widths[i]) }.joined(separator: "  ")
        out.append(styled(head, .bold))
        for (n, r) in clean.enumerated() {
            let l = r.enumerated().map { i, c in i == r.count - 1 ? c : DisplayColumns.pad(c, to: widths[i]) }.joined(separator: "  ")
            out.append(style(n).map { styled(l, $0) } ?? l)
        }
        return out
    }
}
