import Cairo

/// A rectangle in chart user units (pixels of the 200 dpi figure).
struct Rect {
    var x: Double, y: Double, width: Double, height: Double
    var maxX: Double { x + width }
    var maxY: Double { y + height }
    var midX: Double { x + width / 2 }
    var midY: Double { y + height / 2 }
}

/// One entry of a legend: a line or a filled box in a colour, and its label.
struct LegendEntry {
    enum Mark { case line(width: Double, alpha: Double, dashed: Bool), box }
    var label: String
    var color: Color
    var mark: Mark
}

/// Drawing of the parts every chart shares: background, title, legend, axes, grid, messages.
struct ChartCanvas {
    let context: Context
    let style: ChartStyle
    let width: Double
    let height: Double

    init(context: Context, style: ChartStyle, width: Double, height: Double, language: String) {
        self.context = context
        self.style = style
        self.width = width
        self.height = height
        context.setTextLanguage(language)
    }

    func layout(_ text: String, size: Double, bold: Bool = false, width: Double? = nil,
                alignment: TextLayout.Alignment = .left, ellipsize: Bool = false) -> TextLayout {
        TextLayout(text, font: style.font(size, bold: bold), in: context, width: width,
                   alignment: alignment, ellipsize: ellipsize)
    }

    func paintBackground() {
        context.setSource(style.background)
        context.paint()
    }

    /// The title's layout: bold, centred in the width, ellipsized.
    func titleLayout(_ title: String) -> TextLayout {
        layout(title, size: style.titleSize, bold: true, width: width - 2 * style.padding, alignment: .center, ellipsize: true)
    }

    /// Draws the title centred at the top; returns the y below it.
    func drawTitle(_ title: String, top: Double) -> Double {
        guard !title.isEmpty else { return top }
        let text = titleLayout(title)
        context.setSource(style.text)
        text.draw(x: style.padding, y: top)
        return top + text.extents.height
    }

    /// Lays the legend out in centred rows within the width; draws it when `draw` is set.
    /// Returns the height it takes.
    @discardableResult
    func legend(_ entries: [LegendEntry], top: Double, draw: Bool) -> Double {
        guard !entries.isEmpty else { return 0 }
        let size = style.base * 0.95
        let swatch = size * 1.6, gap = size * 0.45, spacing = size * 1.3
        let available = width - 2 * style.padding
        let texts = entries.map { layout($0.label, size: size, width: available - swatch - gap, ellipsize: true) }
        let widths = texts.map { swatch + gap + $0.extents.width }
        let lineHeight = (texts.map { $0.extents.height }.max() ?? size) * 1.15
        // Greedy rows.
        var rows: [[Int]] = [[]]
        var rowWidth = 0.0
        for (i, w) in widths.enumerated() {
            let needed = rows[rows.count - 1].isEmpty ? w : rowWidth + spacing + w
            if needed > available && !rows[rows.count - 1].isEmpty {
                rows.append([i]); rowWidth = w
            } else {
                rows[rows.count - 1].append(i); rowWidth = needed
            }
        }
        if draw {
            for (r, row) in rows.enumerated() {
                let total = row.map { widths[$0] }.reduce(0, +) + spacing * Double(max(0, row.count - 1))
                var x = (width - total) / 2
                let y = top + Double(r) * lineHeight
                for i in row {
                    let entry = entries[i], text = texts[i]
                    let midY = y + text.extents.baseline - size * 0.33
                    switch entry.mark {
                    case .line(let w, let alpha, let dashed):
                        context.setSource(entry.color.withAlpha(alpha))
                        context.setLineWidth(w)
                        context.setLineCap(dashed ? .butt : .round)
                        context.setDash(dashed ? style.dashPattern : [])
                        context.moveTo(x + w / 2, midY)
                        context.lineTo(x + swatch - w / 2, midY)
                        context.stroke()
                        context.setDash([])
                    case .box:
                        context.setSource(entry.color)
                        context.rectangle(x: x + swatch * 0.15, y: midY - size * 0.42,
                                          width: swatch * 0.7, height: size * 0.84)
                        context.fill()
                    }
                    context.setSource(style.text)
                    text.draw(x: x + swatch + gap, y: y)
                    x += widths[i] + spacing
                }
            }
        }
        return Double(rows.count) * lineHeight
    }

    /// The axis title rotated along the left edge, centred on the plot's height.
    func drawVerticalLabel(_ text: String, x: Double, centerY: Double, maxLength: Double) {
        let label = layout(text, size: style.base, width: maxLength, alignment: .center, ellipsize: true)
        context.save()
        context.translate(x: x, y: centerY)
        context.rotate(-Double.pi / 2)
        context.setSource(style.mutedText)
        label.draw(x: -maxLength / 2, y: 0)
        context.restore()
    }

    /// Horizontal grid lines, y tick labels right-aligned left of the plot.
    func drawValueAxis(_ ticks: NiceTicks.ValueTicks, plot: Rect, y: (Double) -> Double,
                       label: (Double) -> String) {
        context.setLineWidth(style.hairline)
        context.setSource(style.grid)
        for v in ticks.values {
            let py = crisp(y(v))
            context.moveTo(plot.x, py)
            context.lineTo(plot.maxX, py)
        }
        context.stroke()
        context.setSource(style.mutedText)
        for v in ticks.values {
            let text = layout(label(v), size: style.tickSize)
            let e = text.extents
            text.draw(x: plot.x - style.base * 0.45 - e.width, y: y(v) - e.height / 2)
        }
    }

    /// Left and bottom axis lines.
    func drawAxisLines(plot: Rect) {
        context.setSource(style.axis)
        context.setLineWidth(style.hairline)
        let bottom = crisp(plot.maxY), left = crisp(plot.x)
        context.moveTo(left, plot.y)
        context.lineTo(left, bottom)
        context.lineTo(plot.maxX, bottom)
        context.stroke()
    }

    /// An empty plot frame with a message (e.g. "no data") in its middle.
    func drawEmptyPlot(_ message: String, in rect: Rect) {
        context.setSource(style.grid)
        context.setLineWidth(style.hairline * 2)
        context.setDash([style.base * 0.5, style.base * 0.35])
        context.rectangle(x: rect.x, y: rect.y, width: rect.width, height: rect.height)
        context.stroke()
        context.setDash([])
        drawMessage(message, in: rect)
    }

    /// Centres a message in a rectangle.
    func drawMessage(_ message: String, in rect: Rect) {
        let text = layout(message, size: style.base * 1.2, width: rect.width * 0.9, alignment: .center)
        let e = text.extents
        context.setSource(style.mutedText)
        text.draw(x: rect.x + rect.width * 0.05, y: rect.midY - e.height / 2)
    }

    /// Places a hairline on a pixel centre so it stays one pixel sharp in PNG.
    func crisp(_ v: Double) -> Double {
        let w = style.hairline.rounded()
        return Int(w) % 2 == 1 ? v.rounded(.down) + 0.5 : v.rounded()
    }
}
