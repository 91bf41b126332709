import Cairo
import Foundation

/// Lays out and draws a stacked bar chart on a canvas.
struct BarChartDrawing {
    let spec: BarChartSpec
    let canvas: ChartCanvas

    private var style: ChartStyle { canvas.style }
    private var context: Context { canvas.context }

    func draw() {
        canvas.paintBackground()
        let b = style.base
        var top = canvas.drawTitle(spec.title, top: style.padding) + b * 0.4
        let n = spec.categories.count
        let totals = (0..<n).map { i in
            spec.stacks.reduce(0.0) { sum, stack in sum + max(0, stack.values[i].isFinite ? stack.values[i] : 0) }
        }
        let barTotal = totals.max() ?? 0
        // The reference line (a budget) is always in view, above the bars when it is higher.
        let lineValues = spec.referenceLine?.values.map { v in v.flatMap { $0.isFinite && $0 > 0 ? $0 : nil } } ?? []
        let maxTotal = max(barTotal, lineValues.compactMap { $0 }.max() ?? 0)

        if spec.showLegend && !spec.stacks.isEmpty && barTotal > 0 {
            var entries = spec.stacks.map { LegendEntry(label: $0.label, color: style.color(of: $0.color), mark: .box) }
            if let line = spec.referenceLine, lineValues.contains(where: { $0 != nil }) {
                entries.append(LegendEntry(label: line.label, color: style.text, mark: .line(width: style.lineWidth, alpha: 1, dashed: true)))
            }
            top += canvas.legend(entries, top: top, draw: true) + b * 0.2
        }
        top += b * 0.6

        guard n > 0, barTotal > 0 else {
            let area = Rect(x: style.padding, y: top, width: canvas.width - 2 * style.padding,
                            height: canvas.height - style.padding - top)
            canvas.drawEmptyPlot(spec.noDataText, in: area)
            return
        }

        let format: (Double) -> String
        let tickHeight = canvas.layout("0123456789", size: style.tickSize).extents.height
        // Notes under the category labels (a month with nothing convertible), each wrapped to the width.
        let noteLayouts = spec.notes.map {
            canvas.layout($0, size: style.tickSize * 0.9, width: canvas.width - 2 * style.padding)
        }
        let notesHeight = noteLayouts.reduce(0) { $0 + $1.extents.height } + (noteLayouts.isEmpty ? 0 : b * 0.3)
        let plotBottom = canvas.height - style.padding - notesHeight - tickHeight - b * 0.45
        let plotHeight = max(b, plotBottom - top - (spec.showTotals ? tickHeight : 0))
        // Counts (every value whole) get whole ticks: no "0.5 episodes".
        let whole = spec.stacks.allSatisfy { $0.values.allSatisfy { !$0.isFinite || $0 == $0.rounded() } }
        let ticks = NiceTicks.values(min: 0, max: maxTotal, maxCount: max(3, Int(plotHeight / (b * 2.4))),
                                     includeZero: true, minimumStep: whole ? 1 : 0)
        if let formatter = spec.valueFormatter { format = formatter } else { format = ticks.label }
        let maxTickWidth = ticks.values.map { canvas.layout(format($0), size: style.tickSize).extents.width }.max() ?? 0
        let yTitleHeight = spec.yLabel.isEmpty ? 0 : canvas.layout(spec.yLabel, size: b).extents.height
        let plotLeft = style.padding + yTitleHeight + (spec.yLabel.isEmpty ? 0 : b * 0.5) + maxTickWidth + b * 0.45
        let plotRight = canvas.width - style.padding
        let plot = Rect(x: plotLeft, y: plotBottom - plotHeight, width: max(b, plotRight - plotLeft), height: plotHeight)
        let yScale = plot.height / (ticks.upper - ticks.lower)
        let y = { (v: Double) in plot.maxY - (v - ticks.lower) * yScale }

        canvas.drawValueAxis(ticks, plot: plot, y: y, label: format)
        if !spec.yLabel.isEmpty {
            canvas.drawVerticalLabel(spec.yLabel, x: style.padding, centerY: plot.midY, maxLength: plot.height)
        }

        // Bars: stacked bottom-up, a thin gap of background between layers.
        let slot = plot.width / Double(n)
        let barWidth = min(slot * 0.72, b * 5)
        for i in 0..<n {
            let x = plot.x + slot * (Double(i) + 0.5) - barWidth / 2
            var level = 0.0
            for stack in spec.stacks {
                let v = stack.values[i]
                guard v.isFinite, v > 0 else { continue }
                let yTop = y(level + v), yBottom = y(level)
                context.setSource(style.color(of: stack.color))
                context.rectangle(x: x, y: yTop, width: barWidth, height: yBottom - yTop)
                context.fill()
                if level > 0 {
                    context.setSource(style.background)
                    context.rectangle(x: x, y: yBottom - style.hairline / 2, width: barWidth, height: style.hairline)
                    context.fill()
                }
                level += v
            }
        }
        canvas.drawAxisLines(plot: plot)

        // The reference line: a dashed level across each slot that has one, joined between equal neighbours.
        if !lineValues.isEmpty {
            context.setSource(style.text)
            context.setLineWidth(style.lineWidth)
            context.setLineCap(.butt)
            context.setDash(style.dashPattern)
            var i = 0
            while i < n {
                guard let v = lineValues[i] else { i += 1; continue }
                var j = i
                while j + 1 < n && lineValues[j + 1] == v { j += 1 }
                context.moveTo(plot.x + slot * Double(i), y(v))
                context.lineTo(plot.x + slot * Double(j + 1), y(v))
                context.stroke()
                i = j + 1
            }
            context.setDash([])
        }

        // Totals above bars, when every one of them fits its slot.
        if spec.showTotals {
            let totalText = spec.totalFormatter ?? format
            let labels = totals.map { canvas.layout($0 > 0 ? totalText($0) : "", size: style.tickSize * 0.92) }
            if labels.allSatisfy({ $0.extents.width <= slot * 0.96 }) {
                context.setSource(style.text)
                for (i, label) in labels.enumerated() where totals[i] > 0 {
                    let e = label.extents
                    label.draw(x: plot.x + slot * (Double(i) + 0.5) - e.width / 2, y: y(totals[i]) - e.height - b * 0.1)
                }
            }
        }

        // Category labels, every k-th one when crowded, always including the latest.
        let layouts = spec.categories.map { canvas.layout($0, size: style.tickSize) }
        let widest = layouts.map { $0.extents.width }.max() ?? 0
        let every = max(1, Int(((widest + b * 0.8) / slot).rounded(.up)))
        context.setSource(style.mutedText)
        for (i, layout) in layouts.enumerated() where (n - 1 - i) % every == 0 {
            let w = layout.extents.width
            let center = plot.x + slot * (Double(i) + 0.5)
            let left = min(max(center - w / 2, style.padding), canvas.width - style.padding - w)
            layout.draw(x: left, y: plotBottom + b * 0.35)
        }
        var noteTop = canvas.height - style.padding - notesHeight + b * 0.3
        for note in noteLayouts {
            note.draw(x: style.padding, y: noteTop)
            noteTop += note.extents.height
        }
    }
}
