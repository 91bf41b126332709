import Cairo

/// A table measured once: header row repeated on every page it reaches, body rows kept whole
/// (a row taller than a page is split between its cells' lines, never dropped).
struct TableFlowable: Flowable {
    /// One measured row; `index` is its position in the caller's table (zebra, emphasis).
    struct Row {
        var index: Int
        var texts: [String]
        var cells: [TextLayout]
        var height: Double
        var emphasized: Bool
        /// One cell across all columns (the empty-table text).
        var spanning: Bool
    }

    let style: ReportStyle
    let typesetter: Typesetter
    let columnX: [Double]
    let columnWidths: [Double]
    let alignments: [TextAlignment]
    let header: [TextLayout]
    let headerHeight: Double
    /// The continuation caption, drawn when `continued`.
    let caption: TextLayout?
    let continued: Bool
    let rows: [Row]
    /// Height of a page's flow area, to tell a row that can never fit from one that fits elsewhere.
    let pageHeight: Double
    let spaceBefore: Double

    static let padX = 4.0
    static let padY = 3.2

    init(_ table: ReportTable, width: Double, pageHeight: Double, spaceBefore: Double,
         typesetter: Typesetter) throws {
        let style = typesetter.style
        let columns = table.header.count
        guard columns > 0 else { throw ReportError.invalidColumns(header: 0, weights: table.columnWeights.count) }
        var weights = table.columnWeights
        if weights.isEmpty { weights = Array(repeating: 1, count: columns) }
        guard weights.count == columns, weights.allSatisfy({ $0 > 0 && $0.isFinite }) else {
            throw ReportError.invalidColumns(header: columns, weights: table.columnWeights.count)
        }
        for (i, row) in table.rows.enumerated() where row.count > columns {
            throw ReportError.tooManyCells(row: i, cells: row.count, columns: columns)
        }
        let widths = Self.columnWidths(table, columns: columns, width: width, weights: weights, typesetter: typesetter)
        var x = 0.0
        columnX = widths.map { w in defer { x += w }; return x }
        columnWidths = widths
        let alignments = (0..<columns).map { $0 < table.alignments.count ? table.alignments[$0] : .left }
        self.alignments = alignments
        self.style = style
        self.typesetter = typesetter
        self.pageHeight = pageHeight
        self.spaceBefore = spaceBefore
        caption = table.continuationTitle.map { typesetter.layout($0, size: style.small, width: width) }
        continued = false

        let padX = Self.padX, padY = Self.padY
        let headerCells = (0..<columns).map { c in
            typesetter.layout(table.header[c], size: style.tableText, bold: true,
                              width: max(1, widths[c] - 2 * padX), alignment: alignments[c])
        }
        header = headerCells
        headerHeight = (headerCells.map { $0.extents.height }.max() ?? 0) + 2 * padY

        if table.rows.isEmpty {
            let text = table.emptyText ?? "—"
            let cell = typesetter.layout(text, size: style.tableText, width: width - 2 * padX)
            rows = [Row(index: 0, texts: [text], cells: [cell], height: cell.extents.height + 2 * padY,
                        emphasized: false, spanning: true)]
        } else {
            rows = table.rows.enumerated().map { i, given in
                let emphasized = table.emphasizedRows.contains(i)
                let texts = (0..<columns).map { $0 < given.count ? given[$0] : "" }
                return Self.measureRow(index: i, texts: texts, emphasized: emphasized, widths: widths,
                                       alignments: alignments, typesetter: typesetter)
            }
        }
    }

    private init(copying other: TableFlowable, rows: [Row], spaceBefore: Double, continued: Bool) {
        caption = other.caption
        self.continued = continued
        style = other.style
        typesetter = other.typesetter
        columnX = other.columnX
        columnWidths = other.columnWidths
        alignments = other.alignments
        header = other.header
        headerHeight = other.headerHeight
        pageHeight = other.pageHeight
        self.rows = rows
        self.spaceBefore = spaceBefore
    }

    /// Columns sized to their content, like a browser's automatic table layout: each at least as wide
    /// as its widest unbreakable piece (a word, a Korean word, a number with its unit), the rest of the
    /// width shared in proportion to how much more each column's longest cell wants; when every cell
    /// fits on one line, the spare width goes by `weights`. Only when even the narrowest columns do not
    /// fit are words broken between characters.
    static func columnWidths(_ table: ReportTable, columns: Int, width: Double, weights: [Double],
                             typesetter: Typesetter) -> [Double] {
        let style = typesetter.style
        var minimum = [Double](repeating: 0, count: columns), natural = [Double](repeating: 0, count: columns)
        func measure(_ text: String, column c: Int, bold: Bool) {
            guard !text.isEmpty else { return }
            let b = typesetter.widthBounds(text, size: style.tableText, bold: bold)
            minimum[c] = max(minimum[c], b.minimum + 2 * padX)
            natural[c] = max(natural[c], b.natural + 2 * padX + 0.5)   // + rounding slack: one line stays one line
        }
        for c in 0..<columns { measure(table.header[c], column: c, bold: true) }
        for (i, row) in table.rows.enumerated() {
            let bold = table.emphasizedRows.contains(i)
            for (c, text) in row.enumerated() where c < columns { measure(text, column: c, bold: bold) }
        }
        let floor = 2 * padX + 1
        minimum = minimum.map { max($0, floor) }
        natural = zip(natural, minimum).map { max($0, $1) }
        let sumNatural = natural.reduce(0, +), sumMinimum = minimum.reduce(0, +)
        if sumNatural <= width {
            let totalWeight = weights.reduce(0, +)
            return zip(natural, weights).map { $0 + (width - sumNatural) * $1 / totalWeight }
        }
        guard sumMinimum <= width else { return minimum.map { width * $0 / sumMinimum } }
        // Every column gets its minimum; the width left over is shared by water-filling: a column that
        // wants no more than an equal share of it gets all it wants (its text on one line: dates, weights,
        // costs), repeatedly; the columns left share the rest in proportion to what they want.
        let wants = zip(natural, minimum).map { $0 - $1 }
        var satisfied = [Bool](repeating: false, count: columns)
        var spare = width - sumMinimum
        while true {
            let open = (0..<columns).filter { !satisfied[$0] }
            guard !open.isEmpty else { break }
            let share = spare / Double(open.count)
            let fits = open.filter { wants[$0] <= share }
            if fits.isEmpty { break }
            for c in fits { satisfied[c] = true; spare -= wants[c] }
        }
        let openWant = (0..<columns).filter { !satisfied[$0] }.reduce(0) { $0 + wants[$1] }
        return (0..<columns).map { c in
            satisfied[c] ? natural[c] : minimum[c] + spare * wants[c] / max(openWant, 1e-9)
        }
    }

    static func measureRow(index: Int, texts: [String], emphasized: Bool, widths: [Double],
                           alignments: [TextAlignment], typesetter: Typesetter) -> Row {
        let cells = texts.enumerated().map { c, text in
            typesetter.layout(text, size: typesetter.style.tableText, bold: emphasized,
                              width: max(1, widths[c] - 2 * padX), alignment: alignments[c])
        }
        let height = (cells.map { $0.extents.height }.max() ?? 0) + 2 * padY
        return Row(index: index, texts: texts, cells: cells, height: height, emphasized: emphasized, spanning: false)
    }

    /// Caption (on continued parts) and header row: what every part starts with.
    private var top: Double {
        guard continued, let caption else { return headerHeight }
        return caption.extents.height + Self.captionGap + headerHeight
    }
    static let captionGap = 3.0

    var height: Double { top + rows.reduce(0) { $0 + $1.height } }
    /// Tables this short move to the next page whole rather than split.
    static let keptTogether = 5
    /// Fewest rows left on either side of a page break in a longer table.
    static let orphanRows = 2

    var leadHeight: Double {
        let lead = rows.count <= Self.keptTogether ? rows.count : Self.orphanRows
        return top + rows.prefix(lead).reduce(0) { $0 + $1.height }
    }

    func split(toFit available: Double, atPageTop: Bool) -> (first: any Flowable, rest: any Flowable)? {
        var used = top
        var count = 0
        while count < rows.count && used + rows[count].height <= available + 0.01 {
            used += rows[count].height
            count += 1
        }
        if count == rows.count { return nil }
        if !atPageTop {
            // Off the top of a page: short tables move whole, long ones keep two rows each side.
            guard rows.count > Self.keptTogether else { return nil }
            count = min(count, rows.count - Self.orphanRows)
            guard count >= Self.orphanRows else { return nil }
        }
        if count > 0 {
            return (TableFlowable(copying: self, rows: Array(rows[..<count]), spaceBefore: spaceBefore, continued: continued),
                    TableFlowable(copying: self, rows: Array(rows[count...]), spaceBefore: 0, continued: true))
        }
        // The first row does not fit here; split it only if it could not fit on any page.
        let row = rows[0]
        guard top + row.height > pageHeight, !row.spanning,
              let (upper, lower) = splitRow(row, toFit: available - top) else { return nil }
        return (TableFlowable(copying: self, rows: [upper], spaceBefore: spaceBefore, continued: continued),
                TableFlowable(copying: self, rows: [lower] + rows.dropFirst(), spaceBefore: 0, continued: true))
    }

    /// Splits every cell of a row at the last line that fits in `available`.
    private func splitRow(_ row: Row, toFit available: Double) -> (Row, Row)? {
        let limit = available - 2 * Self.padY
        guard limit > 0 else { return nil }
        var heads: [String] = [], tails: [String] = []
        for (c, cell) in row.cells.enumerated() {
            let text = row.texts[c]
            let lines = cell.lines
            guard let last = lines.lastIndex(where: { $0.bottom <= limit }), last + 1 < lines.count else {
                if cell.extents.height <= limit { heads.append(text); tails.append(""); continue }
                return nil   // not even one line fits
            }
            let bytes = Array(text.utf8)
            let cut = min(bytes.count, lines[last + 1].byteStart)
            var head = String(decoding: bytes[..<cut], as: UTF8.self)
            while head.hasSuffix("\n") { head.removeLast() }
            heads.append(head)
            tails.append(String(decoding: bytes[cut...], as: UTF8.self))
        }
        let top = Self.measureRow(index: row.index, texts: heads, emphasized: row.emphasized, widths: columnWidths,
                                  alignments: alignments, typesetter: typesetter)
        let bottom = Self.measureRow(index: row.index, texts: tails, emphasized: row.emphasized,
                                     widths: columnWidths, alignments: alignments, typesetter: typesetter)
        return (top, bottom)
    }

    func draw(x: Double, y origin: Double, on context: Context) {
        let width = columnWidths.reduce(0, +)
        let padX = Self.padX, padY = Self.padY
        var y = origin
        if continued, let caption {
            context.setSource(style.muted)
            caption.draw(x: x, y: y)
            y += caption.extents.height + Self.captionGap
        }
        // Header.
        context.setSource(style.tableHeaderFill)
        context.rectangle(x: x, y: y, width: width, height: headerHeight)
        context.fill()
        context.setSource(style.text)
        for (c, cell) in header.enumerated() { cell.draw(x: x + columnX[c] + padX, y: y + padY) }
        var top = y + headerHeight
        // Row fills first, then text, then rules: fewer colour changes in the PDF.
        for row in rows {
            let fill: Color? = row.emphasized ? style.emphasisFill : (row.index % 2 == 1 ? style.zebraFill : nil)
            if let fill {
                context.setSource(fill)
                context.rectangle(x: x, y: top, width: width, height: row.height)
                context.fill()
            }
            top += row.height
        }
        top = y + headerHeight
        for row in rows {
            context.setSource(row.emphasized ? style.emphasis : (row.spanning ? style.muted : style.text))
            if row.spanning {
                row.cells[0].draw(x: x + padX, y: top + padY)
            } else {
                for (c, cell) in row.cells.enumerated() { cell.draw(x: x + columnX[c] + padX, y: top + padY) }
            }
            top += row.height
        }
        context.setLineWidth(0.4)
        context.setSource(style.hairline)
        top = y + headerHeight
        for row in rows.dropLast() {
            top += row.height
            context.moveTo(x, top)
            context.lineTo(x + width, top)
        }
        context.stroke()
        context.setSource(style.rule)
        context.setLineWidth(0.8)
        context.moveTo(x, y + headerHeight)
        context.lineTo(x + width, y + headerHeight)
        context.moveTo(x, origin + height)
        context.lineTo(x + width, origin + height)
        context.stroke()
    }
}
