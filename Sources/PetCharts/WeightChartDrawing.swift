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
    fileprivate struct SeriesView {
        var index: Int
        var range: Range<Int>
        var runs: [Range<Int>]
    }

    /// The series' share of the drawing, worked out before anything is painted (`lines()`): the visible data
    /// and the points each stroke goes through, M4-decimated where there are many more points than pixels.
    /// Holding these, the drawing needs nothing of the series but their labels and count, so a caller that owns
    /// the only copy of the columns can let them go before the image is painted (issue 44: a million-point
    /// chart's peak RSS was the 8 MiB of columns and the 5.6 MiB image alive together).
    struct Lines {
        fileprivate var visible: VisibleData
        fileprivate var geometry: Geometry
        /// Per visible series, in `visible.views`' order.
        fileprivate var strokes: [SeriesStrokes]
    }

    /// What one series draws: its raw line's runs, its markers, its mean's runs (each run a list of (time, value)).
    fileprivate struct SeriesStrokes {
        var raw: [[(t: Double, v: Double)]]
        var markers: [(t: Double, v: Double)]
        var mean: [[(t: Double, v: Double)]]
    }

    /// Reads the series once and keeps only what the strokes go through (the layout is measured, nothing painted).
    func lines() -> Lines {
        let visible = visibleData()
        let geometry = geometry(visible)
        guard let plot = geometry.plot else { return Lines(visible: visible, geometry: geometry, strokes: []) }
        var decimator = M4Decimator(width: Int(plot.width.rounded(.up)), tMin: visible.t0, tMax: visible.t1)
        let strokes = visible.views.map { reduce($0, plot: plot, decimator: &decimator) }
        return Lines(visible: visible, geometry: geometry, strokes: strokes)
    }

    /// The layout of everything but the lines, measured without painting.
    fileprivate struct Geometry {
        var title: TextLayout?
        var entries: [LegendEntry]
        var legendShown: Bool
        var legendTop: Double
        /// Below the title and legend: the plot's top, or the empty plot's.
        var top: Double
        /// Nil when no series has a point in range.
        var plot: Rect?
        var plotBottom = 0.0, bottom = 0.0
        var xTitle: TextLayout?
        var yTicks: NiceTicks.ValueTicks?
        var yTitleText = ""
    }

    private func geometry(_ visible: VisibleData) -> Geometry {
        let b = style.base
        let title = spec.title.isEmpty ? nil : canvas.titleLayout(spec.title)
        var top = style.padding + (title?.extents.height ?? 0) + b * 0.4
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
        let legendShown = (spec.showLegend ?? (spec.series.count > 1 || (spec.smoothingWindow != nil && spec.smoothingLabel != nil)))
            && !entries.isEmpty
        let legendTop = top
        if legendShown {
            top += canvas.legend(entries, top: top, draw: false) + b * 0.2
        }
        top += b * 0.6   // room for the top tick label's upper half
        var g = Geometry(title: title, entries: entries, legendShown: legendShown, legendTop: legendTop, top: top)
        guard !visible.views.isEmpty, visible.yMin.isFinite else { return g }

        // Vertical layout: x tick labels and the x title below the plot.
        let tickHeight = canvas.layout("0123456789", size: style.tickSize).extents.height
        var bottom = canvas.height - style.padding
        if let xLabel = spec.xLabel, !xLabel.isEmpty {
            let t = canvas.layout(xLabel, size: b, width: canvas.width - 2 * style.padding,
                                  alignment: .center, ellipsize: true)
            bottom -= t.extents.height + b * 0.25
            g.xTitle = t
        }
        let plotBottom = bottom - tickHeight - b * 0.45
        let plotHeight = max(b, plotBottom - top)

        // Value ticks; their widest label sets the left margin.
        // A little room so that extreme points do not sit on the axis or the top edge.
        let (yMin, yMax) = (visible.yMin, visible.yMax)
        let yPad = (yMax - yMin) * 0.04
        let yTicks = NiceTicks.values(min: yMin - yPad, max: yMax + yPad, maxCount: max(3, Int(plotHeight / (b * 2.4))))
        let maxTickWidth = yTicks.values.map { canvas.layout(yTicks.label($0), size: style.tickSize).extents.width }.max() ?? 0
        let yTitleText = yAxisTitle
        let yTitleHeight = yTitleText.isEmpty ? 0 : canvas.layout(yTitleText, size: b).extents.height
        let plotLeft = style.padding + yTitleHeight + (yTitleText.isEmpty ? 0 : b * 0.5) + maxTickWidth + b * 0.45
        let plotRight = canvas.width - style.padding - b * 0.6
        g.plot = Rect(x: plotLeft, y: top, width: max(b, plotRight - plotLeft), height: plotHeight)
        g.plotBottom = plotBottom
        g.bottom = bottom
        g.yTicks = yTicks
        g.yTitleText = yTitleText
        return g
    }

    /// Draws the chart, its lines from `lines` (worked out from the series here when not given).
    func draw(_ given: Lines? = nil) {
        let lines = given ?? self.lines()
        let visible = lines.visible
        let g = lines.geometry
        canvas.paintBackground()
        let b = style.base
        if let title = g.title {
            context.setSource(style.text)
            title.draw(x: style.padding, y: style.padding)
        }
        if g.legendShown {
            canvas.legend(g.entries, top: g.legendTop, draw: true)
        }
        let (t0, t1) = (visible.t0, visible.t1)
        let top = g.top

        guard let plot = g.plot, let yTicks = g.yTicks else {
            let area = Rect(x: style.padding, y: top, width: canvas.width - 2 * style.padding,
                            height: canvas.height - style.padding - top)
            canvas.drawEmptyPlot(spec.noDataText, in: area)
            return
        }

        let xScale = plot.width / (t1 - t0)
        let yLo = yTicks.lower, yHi = yTicks.upper
        let yScale = plot.height / (yHi - yLo)
        let x = { (t: Double) in plot.x + (t - t0) * xScale }
        let y = { (v: Double) in plot.maxY - (v - yLo) * yScale }

        canvas.drawValueAxis(yTicks, plot: plot, y: y, label: yTicks.label)
        drawTimeAxis(plot: plot, t0: t0, t1: t1, x: x, labelTop: g.plotBottom + b * 0.35)
        canvas.drawAxisLines(plot: plot)
        if !g.yTitleText.isEmpty {
            canvas.drawVerticalLabel(g.yTitleText, x: style.padding, centerY: plot.midY, maxLength: plot.height)
        }
        if let xTitle = g.xTitle {
            context.setSource(style.mutedText)
            xTitle.draw(x: style.padding, y: g.bottom + b * 0.25)
        }

        // Lines, clipped to the plot (with room for markers on the edges).
        context.save()
        let margin = style.lineWidth * 3
        context.rectangle(x: plot.x - margin, y: plot.y - margin, width: plot.width + 2 * margin,
                          height: plot.height + 2 * margin)
        context.clip()
        for (view, strokes) in zip(visible.views, lines.strokes) {
            drawSeries(view, strokes, plot: plot, t0: t0, xScale: xScale, yLo: yLo, yScale: yScale)
        }
        context.restore()
    }

    /// Time range of the chart and what each series shows in it.
    fileprivate struct VisibleData {
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
            // A run wholly outside the window is left out (its bounds crossed: a trap before, for a spec whose
            // series reaches past its time range with a gap between).
            let runs = series.runs(gapThreshold: threshold).compactMap { run -> Range<Int>? in
                let (l, u) = (max(run.lowerBound, lo), min(run.upperBound, hi))
                return l < u ? l..<u : nil
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

    /// The points one series' strokes go through, in the order `drawSeries` strokes them.
    private func reduce(_ view: SeriesView, plot: Rect, decimator: inout M4Decimator) -> SeriesStrokes {
        let series = spec.series[view.index]
        let decimate = view.range.count > 2 * Int(plot.width)
        let markers = view.range.count < spec.pointMarkerLimit
        var strokes = SeriesStrokes(raw: [], markers: [], mean: [])
        series.withPoints { points in
            strokes.raw = runPoints(view.runs, points: points, decimate: decimate, decimator: &decimator,
                                    beginRun: { _ in }, value: { points.value($0) })
            if markers {
                for i in view.range where points.value(i).isFinite {
                    strokes.markers.append((points.time(i), points.value(i)))
                }
            }
            if let window = spec.smoothingWindow {
                // Streamed, not stored: a million-point series needs no second array.
                var cursor = RollingMeanCursor(points: points, window: window)
                strokes.mean = runPoints(view.runs, points: points, decimate: decimate, decimator: &decimator,
                                         beginRun: { cursor.start($0) }, value: { cursor.mean(at: $0) })
            }
        }
        return strokes
    }

    /// Each run's points, through M4 decimation when there are many more points than pixels.
    /// `value(i)` gives the value of point i; it is called in increasing i within each run,
    /// after `beginRun(run)`.
    private func runPoints(_ runs: [Range<Int>], points: SeriesPoints, decimate: Bool, decimator: inout M4Decimator,
                           beginRun: (Range<Int>) -> Void, value: (Int) -> Double) -> [[(t: Double, v: Double)]] {
        runs.map { run in
            beginRun(run)
            var out: [(t: Double, v: Double)] = []
            if decimate {
                decimator.reset()
                for i in run { decimator.add(points.time(i), value(i)) }
                decimator.forEachPoint { out.append(($0, $1)) }
            } else {
                out.reserveCapacity(run.count)
                for i in run { out.append((points.time(i), value(i))) }
            }
            return out
        }
    }

    private func drawSeries(_ view: SeriesView, _ strokes: SeriesStrokes, plot: Rect,
                            t0: Double, xScale: Double, yLo: Double, yScale: Double) {
        let color = style.seriesColor(view.index)
        let lw = style.lineWidth
        let smoothed = spec.smoothingWindow != nil
        context.setLineJoin(.round)
        context.setLineCap(.round)
        context.setDash(style.isDashed(view.index) ? style.dashPattern : [])
        defer { context.setDash([]) }
        let rawAlpha = smoothed ? 0.35 : 1.0
        strokeRuns(strokes.raw, color: color.withAlpha(rawAlpha), width: smoothed ? lw * 0.8 : lw,
                   plot: plot, t0: t0, xScale: xScale, yLo: yLo, yScale: yScale)
        let r = lw * (smoothed ? 1.5 : 2.1)
        for (t, v) in strokes.markers {
            let px = plot.x + (t - t0) * xScale, py = plot.maxY - (v - yLo) * yScale
            context.setSource(style.background)
            context.circle(cx: px, cy: py, radius: r + lw * 0.6)
            context.fill()
            context.setSource(color.withAlpha(rawAlpha))
            context.circle(cx: px, cy: py, radius: r)
            context.fill()
        }
        if smoothed {
            strokeRuns(strokes.mean, color: color, width: lw * 1.9,
                       plot: plot, t0: t0, xScale: xScale, yLo: yLo, yScale: yScale)
        }
    }

    /// Strokes each run as its own polyline (a lone point becomes a dot through the round cap).
    private func strokeRuns(_ runs: [[(t: Double, v: Double)]], color: Color, width: Double,
                            plot: Rect, t0: Double, xScale: Double, yLo: Double, yScale: Double) {
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
            for (t, v) in run { point(t, v) }
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
