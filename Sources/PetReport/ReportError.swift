/// A document the report renderer refuses (cairo's own failures arrive as `CairoError`).
public enum ReportError: Error, Equatable, CustomStringConvertible {
    /// A table row has more cells than the header has columns: they would be dropped.
    case tooManyCells(row: Int, cells: Int, columns: Int)
    /// A table without columns, or with column weights that do not match the header.
    case invalidColumns(header: Int, weights: Int)
    /// An emergency card that cannot be drawn as asked (a QR text too long for the card, a sheet as PNG).
    case cardLayout(String)

    public var description: String {
        switch self {
        case .tooManyCells(let row, let cells, let columns):
            return "table row \(row) has \(cells) cells for \(columns) columns"
        case .invalidColumns(let header, let weights):
            return "table with \(header) columns and \(weights) column weights"
        case .cardLayout(let why):
            return "emergency card: \(why)"
        }
    }
}
