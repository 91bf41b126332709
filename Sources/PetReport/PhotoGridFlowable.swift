import Cairo

/// Photos as a grid of thumbnails, each with its caption (date, what it belongs to, the record's note)
/// under it; splits between rows of the grid.
struct PhotoGridFlowable: Flowable {
    struct Cell {
        var image: Surface
        /// Size drawn, in points: the image scaled to fit the cell's box, never enlarged past 1 px per pt.
        var size: (width: Double, height: Double)
        var caption: TextLayout
    }

    let rows: [[Cell]]
    let rowHeights: [Double]
    let cellWidth: Double
    let spaceBefore: Double
    let style: ReportStyle

    static let columns = 3
    static let gap = 12.0
    static let captionGap = 4.0
    /// Pixels kept per point of thumbnail: enough for print at about 200 dpi.
    static let pixelsPerPoint = 2.8

    /// Loads each photo (PNG decoded and scaled down with cairo; JPEG embedded as it is); the paths it
    /// could not read are added to `skipped`.
    init(_ photos: [ReportPhoto], width: Double, spaceBefore: Double, typesetter: Typesetter, skipped: inout [String]) {
        let style = typesetter.style
        let cellWidth = (width - Double(Self.columns - 1) * Self.gap) / Double(Self.columns)
        let box = (width: cellWidth, height: (cellWidth * 0.75).rounded())
        var cells: [Cell] = []
        // A file attached to two records (a visit and a diary entry) is read and embedded once.
        var loaded: [String: Surface] = [:]
        func load(_ photo: ReportPhoto) -> Surface? {
            if let known = loaded[photo.path] { return known }
            let image: Surface?
            switch photo.format {
            case .png:
                image = (try? Surface.image(readingPNG: photo.path)).flatMap {
                    try? $0.thumbnail(maxWidth: Int(box.width * Self.pixelsPerPoint), maxHeight: Int(box.height * Self.pixelsPerPoint))
                }
            case .jpeg:
                image = try? Surface.image(embeddingJPEG: photo.path)
            }
            loaded[photo.path] = image
            return image
        }
        for photo in photos {
            let image = load(photo)
            guard let image else { skipped.append(photo.path); continue }
            let s = min(box.width / image.width, box.height / image.height)
            cells.append(Cell(image: image, size: (image.width * s, image.height * s),
                              caption: typesetter.layout(photo.caption, size: style.small, width: cellWidth)))
        }
        rows = stride(from: 0, to: cells.count, by: Self.columns).map { Array(cells[$0..<min(cells.count, $0 + Self.columns)]) }
        rowHeights = rows.map { row in
            box.height + Self.captionGap + (row.map { $0.caption.extents.height }.max() ?? 0)
        }
        self.cellWidth = cellWidth
        self.spaceBefore = spaceBefore
        self.style = style
    }

    private init(copying other: PhotoGridFlowable, rows range: Range<Int>, spaceBefore: Double) {
        rows = Array(other.rows[range])
        rowHeights = Array(other.rowHeights[range])
        cellWidth = other.cellWidth
        self.spaceBefore = spaceBefore
        style = other.style
    }

    var boxHeight: Double { (cellWidth * 0.75).rounded() }
    var height: Double {
        rowHeights.reduce(0, +) + Double(max(0, rowHeights.count - 1)) * Self.gap
    }
    var leadHeight: Double { rowHeights.first ?? 0 }

    func split(toFit available: Double, atPageTop: Bool) -> (first: any Flowable, rest: any Flowable)? {
        var used = 0.0, count = 0
        while count < rows.count && used + rowHeights[count] <= available + 0.01 {
            used += rowHeights[count] + Self.gap
            count += 1
        }
        guard count > 0, count < rows.count else { return nil }
        return (PhotoGridFlowable(copying: self, rows: 0..<count, spaceBefore: spaceBefore),
                PhotoGridFlowable(copying: self, rows: count..<rows.count, spaceBefore: 0))
    }

    func draw(x: Double, y origin: Double, on context: Context) {
        var y = origin
        let box = boxHeight
        for (r, row) in rows.enumerated() {
            for (c, cell) in row.enumerated() {
                let cx = x + Double(c) * (cellWidth + Self.gap)
                // The photo centred at the bottom of its box, over a hairline frame.
                let px = cx + (cellWidth - cell.size.width) / 2, py = y + box - cell.size.height
                context.save()
                context.rectangle(x: px, y: py, width: cell.size.width, height: cell.size.height)
                context.clip()
                context.translate(x: px, y: py)
                context.scale(x: cell.size.width / cell.image.width, y: cell.size.height / cell.image.height)
                context.setSource(cell.image, x: 0, y: 0)
                context.paint()
                context.restore()
                context.setSource(style.rule)
                context.setLineWidth(0.5)
                context.rectangle(x: px, y: py, width: cell.size.width, height: cell.size.height)
                context.stroke()
                context.setSource(style.muted)
                cell.caption.draw(x: cx, y: y + box + Self.captionGap)
            }
            y += rowHeights[r] + Self.gap
        }
    }
}
