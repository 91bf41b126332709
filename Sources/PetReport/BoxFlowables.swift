import Cairo
import PetCharts

/// Highlighted box with a coloured left bar and one line (or more) per alert; splits between alerts, and
/// inside an alert taller than a page, between its lines (an alert is never cut).
struct AlertsFlowable: Flowable {
    let texts: [String]
    let items: [TextLayout]
    let markers: [TextLayout]
    let style: ReportStyle
    let width: Double
    let spaceBefore: Double
    let typesetter: Typesetter

    static let padY = 7.0
    static let padLeft = 14.0
    static let itemGap = 3.0
    static let bar = 4.0

    init(_ alerts: [String], width: Double, spaceBefore: Double, typesetter: Typesetter) {
        let style = typesetter.style
        self.texts = alerts
        self.style = style
        self.width = width
        self.spaceBefore = spaceBefore
        self.typesetter = typesetter
        let markerWidth = style.body * 1.2
        items = alerts.map {
            typesetter.layout($0, size: style.body, bold: true, width: width - Self.padLeft - markerWidth - 10)
        }
        markers = alerts.map { _ in typesetter.layout("!", size: style.body, bold: true) }
    }

    private func heightOf(_ range: Range<Int>) -> Double {
        guard !range.isEmpty else { return 0 }
        return range.reduce(0) { $0 + items[$1].extents.height } + Double(range.count - 1) * Self.itemGap + 2 * Self.padY
    }

    var height: Double { heightOf(0..<items.count) }
    var leadHeight: Double { heightOf(0..<min(1, items.count)) }

    func split(toFit available: Double, atPageTop: Bool) -> (first: any Flowable, rest: any Flowable)? {
        guard atPageTop else { return nil }   // a box moves whole unless it is taller than a page
        var k = 0
        while k < items.count && heightOf(0..<(k + 1)) <= available + 0.01 { k += 1 }
        guard k < items.count else { return nil }
        if k > 0 {
            return (AlertsFlowable(Array(texts[..<k]), width: width, spaceBefore: spaceBefore, typesetter: typesetter),
                    AlertsFlowable(Array(texts[k...]), width: width, spaceBefore: 0, typesetter: typesetter))
        }
        // The first alert alone is taller than the room: its lines that fit here, the rest on the next page.
        let lines = items[0].lines
        guard let n = lines.lastIndex(where: { $0.bottom + 2 * Self.padY <= available + 0.01 }).map({ $0 + 1 }),
              n < lines.count else { return nil }
        let bytes = Array(texts[0].utf8)
        let cut = lines[n].byteStart
        guard cut > 0, cut < bytes.count else { return nil }
        var head = String(decoding: bytes[..<cut], as: UTF8.self)
        while head.last?.isWhitespace == true { head.removeLast() }
        let tail = String(decoding: bytes[cut...], as: UTF8.self)
        return (AlertsFlowable([head], width: width, spaceBefore: spaceBefore, typesetter: typesetter),
                AlertsFlowable([tail] + texts.dropFirst(), width: width, spaceBefore: 0, typesetter: typesetter))
    }

    func draw(x: Double, y: Double, on context: Context) {
        guard !items.isEmpty else { return }
        context.setSource(style.alertFill)
        context.rectangle(x: x, y: y, width: width, height: height)
        context.fill()
        context.setSource(style.alertBar)
        context.rectangle(x: x, y: y, width: Self.bar, height: height)
        context.fill()
        var top = y + Self.padY
        let markerWidth = style.body * 1.2
        for (item, marker) in zip(items, markers) {
            // A small filled disc with "!" in it: reads as a warning without colour.
            let r = style.body * 0.52
            let cy = top + marker.extents.baseline - style.body * 0.36
            context.setSource(style.alertBar)
            context.circle(cx: x + Self.padLeft + r, cy: cy, radius: r)
            context.fill()
            context.setSource(.white)
            marker.draw(x: x + Self.padLeft + r - marker.extents.width / 2, y: top)
            context.setSource(style.alertText)
            item.draw(x: x + Self.padLeft + markerWidth + 6, y: top)
            top += item.extents.height + Self.itemGap
        }
    }
}

/// Profile grid: small muted labels above their values, in columns, on a light card, with an
/// optional photo at the right. Splits between grid rows (without the photo) if it must.
struct KeyValuesFlowable: Flowable {
    struct Cell { var label: TextLayout; var value: TextLayout }

    let style: ReportStyle
    let width: Double
    let columns: Int
    let cells: [Cell]
    let photo: Surface?
    let photoSize: (width: Double, height: Double)
    let spaceBefore: Double

    static let pad = 10.0
    static let columnGap = 14.0
    static let rowGap = 7.0
    static let photoGap = 14.0
    static let photoBox = 112.0

    init(_ pairs: [(String, String)], photo: Surface?, width: Double, spaceBefore: Double, typesetter: Typesetter) {
        let style = typesetter.style
        self.style = style
        self.width = width
        self.spaceBefore = spaceBefore
        self.photo = photo
        if let photo {
            let s = min(Self.photoBox / photo.width, Self.photoBox / photo.height)
            photoSize = (photo.width * s, photo.height * s)
        } else {
            photoSize = (0, 0)
        }
        let gridWidth = width - 2 * Self.pad - (photo == nil ? 0 : photoSize.width + Self.photoGap)
        columns = gridWidth > 420 ? 3 : 2
        let cellWidth = (gridWidth - Double(columns - 1) * Self.columnGap) / Double(columns)
        cells = pairs.map { key, value in
            Cell(label: typesetter.layout(key, size: style.small * 0.94, width: cellWidth),
                 value: typesetter.layout(value, size: style.body, bold: false, width: cellWidth))
        }
    }

    private init(copying other: KeyValuesFlowable, cells: [Cell], photo: Surface?, spaceBefore: Double) {
        style = other.style; width = other.width; columns = other.columns
        self.cells = cells; self.photo = photo
        photoSize = photo == nil ? (0, 0) : other.photoSize
        self.spaceBefore = spaceBefore
    }

    private var rowHeights: [Double] {
        stride(from: 0, to: cells.count, by: columns).map { start in
            cells[start..<min(cells.count, start + columns)]
                .map { $0.label.extents.height + 1.5 + $0.value.extents.height }.max() ?? 0
        }
    }

    private func gridHeight(_ heights: ArraySlice<Double>) -> Double {
        heights.reduce(0, +) + Double(max(0, heights.count - 1)) * Self.rowGap
    }

    var height: Double { max(gridHeight(rowHeights[...]), photoSize.height) + 2 * Self.pad }

    func split(toFit available: Double, atPageTop: Bool) -> (first: any Flowable, rest: any Flowable)? {
        guard atPageTop else { return nil }   // a box moves whole unless it is taller than a page
        let heights = rowHeights
        var k = 0
        while k < heights.count
                && max(gridHeight(heights[..<(k + 1)]), photoSize.height) + 2 * Self.pad <= available + 0.01 { k += 1 }
        guard k > 0, k < heights.count else { return nil }
        let cut = k * columns
        return (KeyValuesFlowable(copying: self, cells: Array(cells[..<cut]), photo: photo, spaceBefore: spaceBefore),
                KeyValuesFlowable(copying: self, cells: Array(cells[cut...]), photo: nil, spaceBefore: 0))
    }

    func draw(x: Double, y: Double, on context: Context) {
        context.setSource(style.cardFill)
        context.rectangle(x: x, y: y, width: width, height: height)
        context.fill()
        let gridWidth = width - 2 * Self.pad - (photo == nil ? 0 : photoSize.width + Self.photoGap)
        let cellWidth = (gridWidth - Double(columns - 1) * Self.columnGap) / Double(columns)
        var top = y + Self.pad
        for (r, rowHeight) in rowHeights.enumerated() {
            for c in 0..<columns {
                let i = r * columns + c
                guard i < cells.count else { break }
                let cx = x + Self.pad + Double(c) * (cellWidth + Self.columnGap)
                context.setSource(style.muted)
                cells[i].label.draw(x: cx, y: top)
                context.setSource(style.text)
                cells[i].value.draw(x: cx, y: top + cells[i].label.extents.height + 1.5)
            }
            top += rowHeight + Self.rowGap
        }
        if let photo {
            let px = x + width - Self.pad - photoSize.width, py = y + Self.pad
            context.save()
            context.rectangle(x: px, y: py, width: photoSize.width, height: photoSize.height)
            context.clip()
            context.translate(x: px, y: py)
            context.scale(x: photoSize.width / photo.width, y: photoSize.height / photo.height)
            context.setSource(photo, x: 0, y: 0)
            context.paint()
            context.restore()
            context.setSource(style.rule)
            context.setLineWidth(0.5)
            context.rectangle(x: px, y: py, width: photoSize.width, height: photoSize.height)
            context.stroke()
        }
    }
}

/// A weight or bar chart drawn by PetCharts into a box the width of the text; never split.
struct ChartFlowable: Flowable {
    enum Chart { case weight(WeightChartSpec), bars(BarChartSpec) }

    let chart: Chart
    let width: Double
    let height: Double
    let spaceBefore: Double
    /// The report's language, given back to the shared Pango context after the chart set its own.
    let language: String

    /// Chart units across the box: the chart's 200 dpi figure is scaled to the text width.
    static let figureWidth = 1600

    init(_ chart: Chart, width: Double, height: Double, spaceBefore: Double, language: String) throws {
        let scale = width / Double(Self.figureWidth)
        let size = ChartSize(width: Self.figureWidth, height: Int((height / scale).rounded()))
        switch chart {
        // A chart in a report is set in the report's language and type family.
        case .weight(var spec):
            spec.language = language
            spec.size = size
            try spec.validate()
            self.chart = .weight(spec)
        case .bars(var spec):
            spec.language = language
            spec.size = size
            try spec.validate()
            self.chart = .bars(spec)
        }
        self.width = width
        self.height = Double(size.height) * scale
        self.spaceBefore = spaceBefore
        self.language = language
    }

    func draw(x: Double, y: Double, on context: Context) throws {
        context.save()
        // The chart paints its background over its whole clip: keep it in its box.
        context.rectangle(x: x, y: y, width: width, height: height)
        context.clip()
        context.translate(x: x, y: y)
        let scale = width / Double(Self.figureWidth)
        context.scale(x: scale, y: scale)
        defer {
            context.restore()
            context.setTextLanguage(language)
        }
        switch chart {
        case .weight(let spec): try ChartRenderer.draw(spec, on: context)
        case .bars(let spec): try ChartRenderer.draw(spec, on: context)
        }
    }
}
