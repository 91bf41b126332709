import Cairo
import Foundation

/// Renders chart specs into PNG, PDF or SVG files, or onto a caller's cairo context.
public enum ChartRenderer {
    /// Writes the weight chart to `path`, with permissions `permissions` (0600: records are private by
    /// default); on a failure, what was written there is removed. The caller chooses the path: petlog
    /// hands a temporary file of PetStore's `OutputFile`, which replaces the target atomically.
    ///
    /// The spec is taken (`consuming`): its series are read once into the points the strokes go through and then
    /// let go before the image is painted, so a caller that hands over the only copy of a long series does not
    /// hold its columns and the image at once (issue 44: the million-point chart's peak RSS).
    public static func render(_ spec: consuming WeightChartSpec, to path: String, format: ChartFormat,
                              permissions: Int = 0o600) throws {
        try spec.validate()
        let (size, title) = (spec.size, spec.title)
        var held = Optional(consume spec)
        try write(to: path, format: format, size: size, title: title, permissions: permissions) { context, chunk in
            guard var spec = held.take() else { return }
            let lines = weightDrawing(spec, on: context, strokeChunk: chunk).lines()
            spec.series = spec.series.map { LineSeries(label: $0.label, times: [], values: []) }
            weightDrawing(spec, on: context, strokeChunk: chunk).draw(lines)
        }
    }

    /// Writes the bar chart to `path`; see the weight chart's `render` for the file handling.
    public static func render(_ spec: BarChartSpec, to path: String, format: ChartFormat,
                              permissions: Int = 0o600) throws {
        try spec.validate()
        try write(to: path, format: format, size: spec.size, title: spec.title, permissions: permissions) { context, _ in
            drawBars(spec, on: context)
        }
    }

    /// Draws the weight chart on `context` in a `spec.size` box at the origin, in user units
    /// (translate and scale first to place it, e.g. on a report page).
    public static func draw(_ spec: WeightChartSpec, on context: Context) throws {
        try spec.validate()
        drawWeight(spec, on: context, strokeChunk: context.surface.kind == .image ? 2000 : 0)
        try context.checkStatus()
    }

    /// Draws the bar chart on `context` in a `spec.size` box at the origin, in user units.
    public static func draw(_ spec: BarChartSpec, on context: Context) throws {
        try spec.validate()
        drawBars(spec, on: context)
        try context.checkStatus()
    }

    private static func drawWeight(_ spec: WeightChartSpec, on context: Context, strokeChunk: Int) {
        weightDrawing(spec, on: context, strokeChunk: strokeChunk).draw()
    }

    private static func weightDrawing(_ spec: WeightChartSpec, on context: Context, strokeChunk: Int) -> WeightChartDrawing {
        let (w, h) = (Double(spec.size.width), Double(spec.size.height))
        let style = ChartStyle(theme: spec.theme, width: w, height: h, fontFamily: spec.fontFamily)
        let canvas = ChartCanvas(context: context, style: style, width: w, height: h, language: spec.language)
        return WeightChartDrawing(spec: spec, canvas: canvas, strokeChunk: strokeChunk)
    }

    private static func drawBars(_ spec: BarChartSpec, on context: Context) {
        let (w, h) = (Double(spec.size.width), Double(spec.size.height))
        let style = ChartStyle(theme: spec.theme, width: w, height: h, fontFamily: spec.fontFamily)
        let canvas = ChartCanvas(context: context, style: style, width: w, height: h, language: spec.language)
        BarChartDrawing(spec: spec, canvas: canvas).draw()
    }

    /// Surface per format, drawing, then the permissions; a failure removes the file.
    private static func write(to path: String, format: ChartFormat, size: ChartSize, title: String,
                              permissions: Int, draw: (Context, Int) -> Void) throws {
        let temporary = path
        do {
            let scale = ChartSize.vectorScale
            let (w, h) = (Double(size.width), Double(size.height))
            switch format {
            case .png:
                let surface = try Surface.image(width: size.width, height: size.height, opaque: true)
                let context = try Context(surface)
                draw(context, 2000)
                try context.checkStatus()
                try surface.writePNG(to: temporary)
            case .pdf, .svg:
                let surface = format == .pdf
                    ? try Surface.pdf(path: temporary, width: w * scale, height: h * scale, title: title)
                    : try Surface.svg(path: temporary, width: w * scale, height: h * scale)
                let context = try Context(surface)
                context.scale(x: scale, y: scale)
                draw(context, 0)
                try context.checkStatus()
                try surface.finish()
            }
            guard chmod(temporary, mode_t(permissions)) == 0 else {
                throw CairoError.writeError(path: path)
            }
        } catch {
            unlink(temporary)
            throw error
        }
    }
}
