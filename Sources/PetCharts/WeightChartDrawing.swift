import Cairo
import Foundation

/// Lays out and draws a weight chart on a canvas: title, legend, axes, then the lines.
struct WeightChartDrawing {
    let spec: WeightChartSpec
    let canvas: ChartCanvas
    /// Image surfaces stroke long lines in pieces: cairo 1.16 is very slow on one huge path.
    let strokeChunk: Int

    private var style: ChartStyle { canvas.style }
    private var context: Context { canvas.context }

    /// Visible part of one series.
    private struct SeriesView {
        var index: Int
        var range: Range<Int>
        var runs: [Range<Int>]
    }

    func draw() {
        canvas.paintBackground()
        let b = style.base
        var top = canvas.drawTitle(spec.title, top: style.padding) + b * 0.4

        let visible = visibleData()
        let (t0, t1) = (visible.t0, visible.t1)
        let (views, yMin, yMax) = (visible.views, visible.yMin, visible.yMax)

        // Legend.
        var entries = spec.series.enumerated().map { i, s in
            LegendEntry(label: s.label, color: style.seriesColor(i),
                        mark: .line(width: style.lineWidth * 1.6, alpha: 1, dashed: style.isDashed(i)))
        }
        if spec.smoothingWindow != nil, let label = spec.smoothingLabel {
            // One series: the mean in its colour; several: a neutral thick line stands for all means.
            let color = spec.series.count == 1 ? style.seriesColor(0) : style.mutedText
            entries.append(LegendEntry(label: label, color: color,
                                       mark: .line(width: style.lineWidth * 2, alpha: 1, dashed: false)))
        }
        let legendShown = spec.showLegend ?? (spec.series.count > 1 || (spec.smoothingWindow != nil && spec.smoothingLabel != nil))
        if legendShown && !entries.isEmpty {
            top += canvas.legend(entries, top: top, draw: true) + b * 0.2
        }
        top += b * 0.6   // room for the top tick label's upper half

        guard !views.isEmpty, yMin.isFinite else {
            let area = Rect(x: style.padding, y: top, width: canvas.width - 2 * style.padding,
                            height: canvas.height - style.padding - top)
            canvas.drawEmptyPlot(spec.noDataText, in: area)
            return
        }

        // Vertical layout: x tick labels and the x title below the plot.
        let tickHeight = canvas.layout("0123456789", size: style.tickSize).extents.height
        var bottom = canvas.height - style.padding
        var xTitle: TextLayout?
        if let xLabel = spec.xLabel, !xLabel.isEmpty {
            let t = canvas.layout(xLabel, size: b, width: canvas.width - 2 * style.padding,
                                  alignment: .center, ellipsize: true)
            bottom -= t.extents.height + b * 0.25
            xTitle = t
        }
        let plotBottom = bottom - tickHeight - b * 0.45
        let plotHeight = max(b, plotBottom - top)

        // Value ticks; their widest label sets the left margin.
        // A little room so that extreme points do not sit on the axis or the top edge.
        let yPad = (yMax - yMin) * 0.04
        let yTicks = NiceTicks.values(min: yMin - yPad, max: yMax + yPad, maxCount: max(3, Int(plotHeight / (b * 2.4))))
        let maxTickWidth = yTicks.values.map { canvas.layout(yTicks.label($0), size: style.tickSize).extents.width }.max() ?? 0
        let yTitleText = yAxisTitle
        let yTitleHeight = yTitleText.isEmpty ? 0 : canvas.layout(yTitleText, size: b).extents.height
        let plotLeft = style.padding + yTitleHeight + (yTitleText.isEmpty ? 0 : b * 0.5) + maxTickWidth + b * 0.45
        let plotRight = canvas.width - style.padding - b * 0.6
        let plot = Rect(x: plotLeft, y: top, width: max(b, plotRight - plotLeft), height: plotHeight)

        let xScale = plot.width / (t1 - t0)
        let yLo = yTicks.lower, yHi = yTicks.upper
        let yScale = plot.height / (yHi - yLo)
        let x = { (t: Double) in plot.x + (t - t0) * xScale }
        let y = { (v: Double) in plot.maxY - (v - yLo) * yScale }

        canvas.drawValueAxis(yTicks, plot: plot, y: y, label: yTicks.label)
        drawTimeAxis(plot: plot, t0: t0, t1: t1, x: x, labelTop: plotBottom + b * 0.35)
        canvas.drawAxisLines(plot: plot)
        if !yTitleText.isEmpty {
            canvas.drawVerticalLabel(yTitleText, x: style.padding, centerY: plot.midY, maxLength: plot.height)
        }
        if let xTitle {
            context.setSource(style.mutedText)
            xTitle.draw(x: style.padding, y: bottom + b * 0.25)
        }

        // Lines, clipped to the plot (with room for markers on the edges).
        context.save()
        let margin = style.lineWidth * 3
        context.rectangle(x: plot.x - margin, y: plot.y - margin, width: plot.width + 2 * margin,
                          height: plot.height + 2 * margin)
        context.clip()
        var decimator = M4Decimator(width: Int(plot.width.rounded(.up)), tMin: t0, tMax: t1)
        for view in views {
            drawSeries(view, plot: plot, decimator: &decimator, t0: t0, xScale: xScale, yLo: yLo, yScale: yScale)
        }
        context.restore()
    }

    /// Time range of the chart and what each series shows in it.
    private struct VisibleData {
        var t0: Double, t1: Double
        var views: [SeriesView]
        var yMin: Double, yMax: Double
    }

    private func visibleData() -> VisibleData {
        let dataStart = spec.series.compactMap(\.firstTime).min()
        let dataEnd = spec.series.compactMap(\.lastTime).max()
        var t0: Double, t1: Double
        if let range = spec.timeRange {
            (t0, t1) = (range.lowerBound, range.upperBound)
        } else if let dataStart, let dataEnd {
            (t0, t1) = (dataStart, dataEnd)
            let pad = (t1 - t0) * 0.015
            t0 -= pad; t1 += pad
        } else {
            (t0, t1) = (0, 1)
        }
        if t1 - t0 < 7200 {   // one weigh-in, or a few minutes: show its local day, midnight to midnight
            let mid = (t0 + t1) / 2
            var calendar = Calendar(identifier: .gregorian)
            calendar.timeZone = spec.labeler.timeZone
            if let day = calendar.dateInterval(of: .day, for: Date(timeIntervalSince1970: mid)) {
                (t0, t1) = (day.start.timeIntervalSince1970, day.end.timeIntervalSince1970)
            } else {
                (t0, t1) = (mid - 43200, mid + 43200)
            }
        }
        var views: [SeriesView] = []
        var yMin = Double.infinity, yMax = -Double.infinity
        for (i, series) in spec.series.enumerated() {
            let (lo, hi) = series.withPoints { p in (lowerBound(p, t0), lowerBound(p, t1.nextUp)) }
            guard lo < hi else { continue }
            series.withPoints { p in
                for k in lo..<hi {
                    let v = p.value(k)
                    guard v.isFinite else { continue }
                    if v < yMin { yMin = v }
                    if v > yMax { yMax = v }
                }
            }
            let threshold = spec.gapThreshold ?? series.defaultGapThreshold
            let runs = series.runs(gapThreshold: threshold).compactMap { run -> Range<Int>? in
                let r = max(run.lowerBound, lo)..<min(run.upperBound, hi)
                return r.isEmpty ? nil : r
            }
            views.append(SeriesView(index: i, range: lo..<hi, runs: runs))
        }

        return VisibleData(t0: t0, t1: t1, views: views, yMin: yMin, yMax: yMax)
    }

    private var yAxisTitle: String {
        switch (spec.yLabel.isEmpty, spec.unitSuffix.isEmpty) {
        case (false, false): return "\(spec.yLabel) (\(spec.unitSuffix))"
        case (false, true): return spec.yLabel
        case (true, false): return spec.unitSuffix
        case (true, true): return ""
        }
    }

    /// Date ticks with labels that do not overlap: fewer ticks until they fit.
    private func drawTimeAxis(plot: Rect, t0: Double, t1: Double, x: (Double) -> Double, labelTop: Double) {
        let b = style.base
        var maxCount = max(2, Int(plot.width / (b * 4.5)))
        var chosen: (ticks: NiceTicks.DateTicks, layouts: [TextLayout])?
        for _ in 0..<8 {
            let ticks = NiceTicks.dates(from: t0, to: t1, maxCount: maxCount, timeZone: spec.labeler.timeZone)
            let layouts = spec.labeler.labels(ticks.times, unit: ticks.unit).map { canvas.layout($0, size: style.tickSize) }
            chosen = (ticks, layouts)
            // Where each label is drawn: centred on its tick, but kept inside the figure, which moves
            // the first and last ones inwards (they crowded their neighbours when only centres counted).
            let fits = zip(ticks.times.indices.dropLast(), ticks.times.indices.dropFirst()).allSatisfy { i, j in
                labelLeft(x(ticks.times[i]), layouts[i]) + layouts[i].extents.width + b * 0.8
                    <= labelLeft(x(ticks.times[j]), layouts[j])
            }
            if fits || ticks.times.count <= 2 { break }
            maxCount = max(2, min(maxCount, ticks.times.count) - 1)
        }
        guard let (ticks, layouts) = chosen else { return }
        context.setSource(style.grid)
        context.setLineWidth(style.hairline)
        for t in ticks.times {
            let px = canvas.crisp(x(t))
            context.moveTo(px, plot.y)
            context.lineTo(px, plot.maxY + b * 0.25)
        }
        context.stroke()
        context.setSource(style.mutedText)
        for (t, layout) in zip(ticks.times, layouts) {
            layout.draw(x: labelLeft(x(t), layout), y: labelTop)
        }
    }

    /// The left edge of a time label centred at `center`, kept within the figure's padding.
    private func labelLeft(_ center: Double, _ layout: TextLayout) -> Double {
        let w = layout.extents.width
        return min(max(center - w / 2, style.padding), canvas.width - style.padding - w)
    }

    private func drawSeries(_ view: SeriesView, plot: Rect, decimator: inout M4Decimator,
                            t0: Double, xScale: Double, yLo: Double, yScale: Double) {
        let series = spec.series[view.index]
        let color = style.seriesColor(view.index)
        let visible = view.range.count
        let decimate = visible > 2 * Int(plot.width)
        let markers = visible < spec.pointMarkerLimit
        let lw = style.lineWidth
        let window = spec.smoothingWindow
        let smoothed = window != nil
        context.setLineJoin(.round)
        context.setLineCap(.round)
        context.setDash(style.isDashed(view.index) ? style.dashPattern : [])
        defer { context.setDash([]) }
        let rawAlpha = smoothed ? 0.35 : 1.0
        series.withPoints { points in
            strokeRuns(view.runs, points: points, decimate: decimate, decimator: &decimator,
                       color: color.withAlpha(rawAlpha), width: smoothed ? lw * 0.8 : lw,
                       plot: plot, t0: t0, xScale: xScale, yLo: yLo, yScale: yScale,
                       beginRun: { _ in }, value: { points.value($0) })
            if markers {
                let r = lw * (smoothed ? 1.5 : 2.1)
                for i in view.range where points.value(i).isFinite {
                    let px = plot.x + (points.time(i) - t0) * xScale, py = plot.maxY - (points.value(i) - yLo) * yScale
                    context.setSource(style.background)
                    context.circle(cx: px, cy: py, radius: r + lw * 0.6)
                    context.fill()
                    context.setSource(color.withAlpha(rawAlpha))
                    context.circle(cx: px, cy: py, radius: r)
                    context.fill()
                }
            }
            if let window {
                // Streamed, not stored: a million-point series needs no second array.
                var cursor = RollingMeanCursor(points: points, window: window)
                strokeRuns(view.runs, points: points, decimate: decimate, decimator: &decimator,
                           color: color, width: lw * 1.9,
                           plot: plot, t0: t0, xScale: xScale, yLo: yLo, yScale: yScale,
                           beginRun: { cursor.start($0) }, value: { cursor.mean(at: $0) })
            }
        }
    }

    /// Strokes each run as its own polyline (a lone point becomes a dot through the round cap),
    /// through M4-decimated points when there are many more points than pixels.
    /// `value(i)` gives the value of point i; it is called in increasing i within each run,
    /// after `beginRun(run)`.
    private func strokeRuns(_ runs: [Range<Int>], points: SeriesPoints, decimate: Bool,
                            decimator: inout M4Decimator, color: Color, width: Double,
                            plot: Rect, t0: Double, xScale: Double, yLo: Double, yScale: Double,
                            beginRun: (Range<Int>) -> Void, value: (Int) -> Double) {
        context.setSource(color)
        context.setLineWidth(width)
        let left = plot.x, base = plot.maxY
        var segments = 0
        var started = false
        func point(_ t: Double, _ v: Double) {
            guard v.isFinite else { return }
            let px = left + (t - t0) * xScale, py = base - (v - yLo) * yScale
            if !started {
                context.moveTo(px, py); context.lineTo(px, py)   // a dot if the run has one point
                started = true
            } else {
                context.lineTo(px, py)
                segments += 1
                if strokeChunk > 0 && segments >= strokeChunk {
                    context.stroke()
                    context.moveTo(px, py)
                    segments = 0
                }
            }
        }
        for run in runs {
            started = false
            beginRun(run)
            if decimate {
                decimator.reset()
                for i in run { decimator.add(points.time(i), value(i)) }
                decimator.forEachPoint(point)
            } else {
                for i in run { point(points.time(i), value(i)) }
            }
        }
        context.stroke()
    }

    /// First index whose time is ≥ t.
    private func lowerBound(_ points: SeriesPoints, _ t: Double) -> Int {
        var lo = 0, hi = points.count
        while lo < hi {
            let mid = (lo + hi) / 2
            if points.time(mid) < t { lo = mid + 1 } else { hi = mid }
        }
        return lo
    }
}
