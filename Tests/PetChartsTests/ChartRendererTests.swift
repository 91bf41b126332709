import Cairo
import Foundation
import XCTest
@testable import PetCharts

/// Files written by the renderer: text in PDF/SVG, reproducibility, errors, big series.
final class ChartRendererTests: XCTestCase {
    var directory: URL!

    override func setUpWithError() throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("ChartRendererTests-\(UUID())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws { try? FileManager.default.removeItem(at: directory) }

    func path(_ name: String) -> String { directory.appendingPathComponent(name).path }

    func pdfText(_ pdf: String) throws -> String {
        guard let tool = ["/usr/bin/pdftotext", "/usr/local/bin/pdftotext"]
            .first(where: { FileManager.default.isExecutableFile(atPath: $0) }) else {
            throw XCTSkip("pdftotext (poppler-utils) is not installed")
        }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: tool)
        process.arguments = [pdf, "-"]
        let pipe = Pipe()
        process.standardOutput = pipe
        try process.run()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return String(decoding: data, as: UTF8.self)
    }

    func testFormatFromExtension() {
        XCTAssertEqual(ChartFormat(pathExtension: "png"), .png)
        XCTAssertEqual(ChartFormat(pathExtension: "PDF"), .pdf)
        XCTAssertEqual(ChartFormat(pathExtension: "svg"), .svg)
        XCTAssertNil(ChartFormat(pathExtension: "jpg"))
        XCTAssertEqual(ChartSize("1600x900"), ChartSize(width: 1600, height: 900))
        XCTAssertNil(ChartSize("1600"))
    }

    func testWeightPDFHasTitleLabelsAndTicksAsText() throws {
        var spec = Fixtures.threeSparse()
        spec.title = "코코의 체중 — ココの体重"
        spec.language = "ko"
        try ChartRenderer.render(spec, to: path("w.pdf"), format: .pdf)
        let text = try pdfText(path("w.pdf"))
        for expected in ["코코의 체중", "ココの体重", "Weight (kg)", "Date", "Coco (dog)", "Nabi (cat)", "Dubu (ferret)", "2024-01", "12"] {
            XCTAssertTrue(text.contains(expected), "\(expected) not in PDF text: \(text)")
        }
    }

    func testBarPDFHasTitleLegendAndCategories() throws {
        try ChartRenderer.render(Fixtures.symptomBars(), to: path("b.pdf"), format: .pdf)
        let text = try pdfText(path("b.pdf"))
        for expected in ["Symptoms per week", "Episodes", "severity 1", "severity 5", "W20"] {
            XCTAssertTrue(text.contains(expected), "\(expected) not in PDF text: \(text)")
        }
    }

    func testPDFIsAt72Over200OfThePixelSize() throws {
        try ChartRenderer.render(Fixtures.oneSeries(), to: path("s.pdf"), format: .pdf)
        let data = try String(decoding: Data(contentsOf: URL(fileURLWithPath: path("s.pdf"))), as: UTF8.self)
        XCTAssertTrue(data.contains("/MediaBox [ 0 0 288 162 ]"), "800×450 px → 288×162 pt")
    }

    func testSVGDrawsTheTextAsGlyphs() throws {
        // cairo writes text into SVG as glyph outlines: count the glyphs used.
        var spec = Fixtures.oneSeries()
        try ChartRenderer.render(spec, to: path("a.svg"), format: .svg)
        spec.title += " and a much longer title"
        try ChartRenderer.render(spec, to: path("b.svg"), format: .svg)
        func glyphUses(_ p: String) throws -> Int {
            try String(contentsOfFile: p, encoding: .utf8).components(separatedBy: "xlink:href=\"#glyph").count - 1
        }
        let base = try glyphUses(path("a.svg"))
        XCTAssertGreaterThan(base, "Coco—weightWeight(kg)".count)
        XCTAssertEqual(try glyphUses(path("b.svg")) - base, " and a much longer title".count, "one glyph per character, spaces included")
    }

    func testPDFAndSVGAreReproducible() throws {
        for format in [ChartFormat.pdf, .svg] {
            let ext = format == .pdf ? "pdf" : "svg"
            try ChartRenderer.render(Fixtures.threeSparse(), to: path("1.\(ext)"), format: format)
            try ChartRenderer.render(Fixtures.symptomBars(), to: path("other.\(ext)"), format: format)
            try ChartRenderer.render(Fixtures.threeSparse(), to: path("2.\(ext)"), format: format)
            XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: path("1.\(ext)"))),
                           try Data(contentsOf: URL(fileURLWithPath: path("2.\(ext)"))), ext)
        }
    }

    func testMillionPointSeriesGivesBoundedOutput() throws {
        let n = 1_000_000
        var random = TestRandom(seed: 8)
        var times = [Double](), values = [Double]()
        times.reserveCapacity(n); values.reserveCapacity(n)
        var v = 30.0
        for i in 0..<n {
            times.append(Fixtures.start + Double(i) * 150)
            v += (random.next() - 0.5) * 0.05
            values.append(v + (i == 500_000 ? 15 : 0))   // one spike that must survive decimation
        }
        let spec = WeightChartSpec(title: "1M", yLabel: "Weight", unitSuffix: "kg",
                                   series: [LineSeries(label: "Dog", times: times, values: values)],
                                   smoothingWindow: 7 * Fixtures.day, labeler: Fixtures.labeler)
        try ChartRenderer.render(spec, to: path("m.pdf"), format: .pdf)
        try ChartRenderer.render(spec, to: path("m.svg"), format: .svg)
        try ChartRenderer.render(spec, to: path("m.png"), format: .png)
        func size(_ p: String) throws -> Int { try FileManager.default.attributesOfItem(atPath: p)[.size] as! Int }
        // Undecimated, the PDF would hold a million segments (~2.7 MB for one line, twice that here).
        XCTAssertLessThan(try size(path("m.pdf")), 400_000)
        XCTAssertLessThan(try size(path("m.svg")), 1_500_000)
        XCTAssertLessThan(try size(path("m.png")), 1_000_000)
        // The spike reaches the top of the value axis: 45+ kg must be a tick.
        let text = try pdfText(path("m.pdf"))
        XCTAssertTrue(text.contains("45") || text.contains("50"), text)
    }

    /// Issue 44 (the million-point chart's peak RSS): the image is painted from the lines worked out before it
    /// (`WeightChartDrawing.lines()`) with nothing of the series left but their labels, so the renderer can let
    /// the columns go before painting; the pixels are those of the drawing that reads the series as it paints.
    /// Plain, gappy, several series with a legend, smoothed with markers off, a window, a 200k-point decimated
    /// series with a spike, and an empty window.
    func testTheImageIsPaintedFromTheLinesWorkedOutBeforeIt() throws {
        var random = TestRandom(seed: 44)
        var times = [Double](), values = [Double]()
        var v = 30.0
        for i in 0..<200_000 {
            times.append(Fixtures.start + Double(i) * 150 + (i > 120_000 ? 40 * Fixtures.day : 0))
            v += (random.next() - 0.5) * 0.05
            values.append(v + (i == 50_000 ? 9 : 0))
        }
        var window = Fixtures.oneSeries()
        window.timeRange = (Fixtures.start + 30 * Fixtures.day)...(Fixtures.start + 90 * Fixtures.day)
        var empty = Fixtures.oneSeries()
        empty.timeRange = (Fixtures.start - 90 * Fixtures.day)...(Fixtures.start - 30 * Fixtures.day)
        let big = WeightChartSpec(title: "200k", yLabel: "Weight", unitSuffix: "kg",
                                  series: [LineSeries(label: "Dog", times: times, values: values)],
                                  smoothingWindow: 7 * Fixtures.day, smoothingLabel: "7-day mean", labeler: Fixtures.labeler)
        for (name, spec) in [("one", Fixtures.oneSeries()), ("three", Fixtures.threeSparse()), ("smoothed", Fixtures.darkSmoothed()),
                             ("window", window), ("empty", empty), ("big", big)] {
            func image(_ file: String, _ paint: (Context, ChartCanvas) -> Void) throws -> [UInt32] {
                let surface = try Surface.image(width: spec.size.width, height: spec.size.height, opaque: true)
                let context = try Context(surface)
                let (w, h) = (Double(spec.size.width), Double(spec.size.height))
                let style = ChartStyle(theme: spec.theme, width: w, height: h, fontFamily: spec.fontFamily)
                paint(context, ChartCanvas(context: context, style: style, width: w, height: h, language: spec.language))
                try context.checkStatus()
                try surface.writePNG(to: path(file))
                return try surface.argbPixels()
            }
            let whole = try image("\(name)-whole.png") { _, canvas in WeightChartDrawing(spec: spec, canvas: canvas, strokeChunk: 2000).draw() }
            let split = try image("\(name)-split.png") { _, canvas in
                let lines = WeightChartDrawing(spec: spec, canvas: canvas, strokeChunk: 2000).lines()
                var bare = spec
                bare.series = spec.series.map { LineSeries(label: $0.label, times: [], values: []) }
                WeightChartDrawing(spec: bare, canvas: canvas, strokeChunk: 2000).draw(lines)
            }
            XCTAssertTrue(whole == split, name)
            XCTAssertTrue(whole.contains { $0 != whole[0] }, "\(name): something is drawn")
            // The renderer's file (the spec handed over, its series dropped before painting) is that image's.
            try ChartRenderer.render(spec, to: path("\(name).png"), format: .png)
            XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: path("\(name).png"))),
                           try Data(contentsOf: URL(fileURLWithPath: path("\(name)-whole.png"))), name)
        }
    }

    /// Issue 42: totals above the bars are written as money everywhere else (`$6.10`, not `$6.1`) while the
    /// axis may be compact; notes under the chart are text of the file.
    func testBarTotalsUseTheirOwnFormatAndNotesAreDrawn() throws {
        var bars = BarChartSpec(title: "Spending", yLabel: "USD", categories: ["Sep", "Oct", "Nov"],
                                stacks: [BarStack(label: "food", color: .palette(0), values: [6.1, 0, 25])],
                                size: ChartSize(width: 800, height: 450),
                                valueFormatter: { "$" + String(format: "%g", $0) },
                                totalFormatter: { "$" + String(format: "%.2f", $0) },
                                referenceLine: BarReferenceLine(label: "Budget", values: [20, nil, 20]),
                                notes: ["Oct: nothing could be converted to USD"])
        try ChartRenderer.render(bars, to: path("t.pdf"), format: .pdf)
        var text = try pdfText(path("t.pdf"))
        for expected in ["$6.10", "$25.00", "Oct: nothing could be converted to USD"] {
            XCTAssertTrue(text.contains(expected), "\(expected) not in \(text)")
        }
        bars.totalFormatter = nil
        try ChartRenderer.render(bars, to: path("t2.pdf"), format: .pdf)
        text = try pdfText(path("t2.pdf"))
        XCTAssertTrue(text.contains("$6.1") && !text.contains("$6.10"), "without a total format, the axis's: \(text)")
    }

    func testNoDataMessage() throws {
        var spec = Fixtures.oneSeries()
        spec.series = [LineSeries(label: "Coco", times: [], values: [])]
        spec.noDataText = "No weight recorded yet"
        try ChartRenderer.render(spec, to: path("e.pdf"), format: .pdf)
        XCTAssertTrue(try pdfText(path("e.pdf")).contains("No weight recorded yet"))
        var bars = Fixtures.symptomBars()
        bars.stacks = bars.stacks.map { BarStack(label: $0.label, color: $0.color, values: $0.values.map { _ in 0 }) }
        bars.noDataText = "No symptoms"
        try ChartRenderer.render(bars, to: path("e2.pdf"), format: .pdf)
        XCTAssertTrue(try pdfText(path("e2.pdf")).contains("No symptoms"))
    }

    func testSinglePointDoesNotCrashAndShowsItsDay() throws {
        var spec = Fixtures.oneSeries()
        spec.series = [LineSeries(label: "Coco", times: [Fixtures.start + 8 * 3600], values: [4.2])]
        try ChartRenderer.render(spec, to: path("one.pdf"), format: .pdf)
        let text = try pdfText(path("one.pdf"))
        XCTAssertTrue(text.contains("4.2"), text)
    }

    /// Issue 42: a chart of one weigh-in showed bare hour ticks (06:00, 12:00…) and no date. With a labeler
    /// that writes hours as a bare clock (as the app's does), every time axis still names a day: one point,
    /// one day, two points a minute apart.
    func testEveryTimeAxisShowsADate() throws {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = Fixtures.utc
        let fixed = calendar
        let labeler = TimeAxisLabeler(timeZone: Fixtures.utc) { date, unit in
            let c = fixed.dateComponents([.month, .day, .hour, .minute], from: date)
            switch unit {
            case .hour: return String(format: "%02d:%02d", c.hour ?? 0, c.minute ?? 0)
            case .day, .week: return "Day\(c.month ?? 0)/\(c.day ?? 0)"
            default: return "Month\(c.month ?? 0)"
            }
        }
        let t = Fixtures.start + 8 * 3600   // 2023-01-01 08:00 UTC
        let cases: [(String, [Double])] = [("one point", [t]), ("one day", [t, t + 6 * 3600, t + 12 * 3600]),
                                           ("a minute apart", [t, t + 60])]
        for (name, times) in cases {
            var spec = Fixtures.oneSeries()
            spec.labeler = labeler
            spec.series = [LineSeries(label: "Coco", times: times, values: times.map { _ in 4.2 })]
            try ChartRenderer.render(spec, to: path("axis.pdf"), format: .pdf)
            let text = try pdfText(path("axis.pdf"))
            XCTAssertTrue(text.contains("Day1/1") || text.contains("Day12/31"), "\(name): no date on the axis: \(text)")
        }
        // Hour ticks carry their day on the first tick and where the day changes.
        let hours = [-6.0, 0, 6, 12, 18, 24].map { Fixtures.start + $0 * 3600 }
        XCTAssertEqual(labeler.labels(hours, unit: .hour), ["Day12/31 18:00", "Day1/1", "06:00", "12:00", "18:00", "Day1/2"])
    }

    func testBadInputIsRefusedAndNothingIsWritten() throws {
        var spec = Fixtures.oneSeries()
        spec.size = ChartSize(width: 10, height: 10)
        XCTAssertThrowsError(try ChartRenderer.render(spec, to: path("x.png"), format: .png)) { error in
            XCTAssertEqual(error as? ChartError, .invalidSize(width: 10, height: 10))
        }
        spec = Fixtures.oneSeries()
        spec.series = [LineSeries(label: "bad", times: [3, 2, 1], values: [1, 2, 3])]
        XCTAssertThrowsError(try ChartRenderer.render(spec, to: path("x.png"), format: .png)) { error in
            XCTAssertEqual(error as? ChartError, .unorderedTimes(label: "bad"))
        }
        spec.series = [LineSeries(label: "short", times: [1, 2], values: [1])]
        XCTAssertThrowsError(try ChartRenderer.render(spec, to: path("x.png"), format: .png)) { error in
            XCTAssertEqual(error as? ChartError, .mismatchedSeries(label: "short"))
        }
        var bars = Fixtures.symptomBars()
        bars.stacks[0].values.removeLast()
        XCTAssertThrowsError(try ChartRenderer.render(bars, to: path("x.png"), format: .png)) { error in
            XCTAssertEqual(error as? ChartError, .mismatchedStack(label: "severity 1"))
        }
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: directory.path), [])
    }

    func testUnwritablePathIsACairoWriteErrorNamingThePath() throws {
        for format in ChartFormat.allCases {
            let target = path("missing/dir/chart.out")
            XCTAssertThrowsError(try ChartRenderer.render(Fixtures.oneSeries(), to: target, format: format)) { error in
                XCTAssertEqual(error as? CairoError, .writeError(path: target), "\(format)")
            }
        }
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: directory.path), [])
    }

    func testReplacesAnExistingFileWithPrivatePermissions() throws {
        XCTAssertTrue(FileManager.default.createFile(atPath: path("c.png"), contents: Data("old".utf8)))
        try ChartRenderer.render(Fixtures.oneSeries(), to: path("c.png"), format: .png)
        let attributes = try FileManager.default.attributesOfItem(atPath: path("c.png"))
        XCTAssertEqual((attributes[.posixPermissions] as? NSNumber)?.intValue, 0o600)
        XCTAssertGreaterThan(attributes[.size] as! Int, 1000)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: directory.path), ["c.png"], "no temporary left")
    }

    func testDrawOnACallersContext() throws {
        // A report places a chart on its own page: translate and scale, then draw.
        let surface = try Surface.pdf(path: path("page.pdf"), width: 595, height: 842)
        let context = try Context(surface)
        context.save()
        context.translate(x: 40, y: 100)
        context.scale(x: 515.0 / 800, y: 515.0 / 800)
        try ChartRenderer.draw(Fixtures.oneSeries(), on: context)
        context.restore()
        try surface.finish()
        XCTAssertTrue(try pdfText(path("page.pdf")).contains("Coco — weight"))
    }
}
