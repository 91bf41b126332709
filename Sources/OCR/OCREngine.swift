import CTesseract
import Foundation

/// Tesseract loaded with one language set; reads images into words, lines, boxes and confidences.
/// One engine serves one thread at a time (tesseract's API object is not thread-safe).
public final class OCREngine {
    /// Where Debian's tesseract-ocr-* packages put the language data.
    public static let debianTessdata = "/usr/share/tesseract-ocr/5/tessdata"

    public let language: String
    public let tessdataPath: String
    private let api: OpaquePointer

    /// `language` as tesseract takes it (`eng`, `kor+eng`); `tessdataPath` defaults to `TESSDATA_PREFIX`,
    /// then the Debian folder.
    public init(language: String = "eng", tessdataPath: String? = nil) throws {
        let path = tessdataPath ?? Self.defaultTessdataPath()
        let installed = Set(Self.installedLanguages(tessdataPath: path))
        let parts = language.split(separator: "+", omittingEmptySubsequences: false).map(String.init)
        // Checked here, not by tesseract: Init3 prints to stderr and a name like "../x" would reach the file system.
        guard !parts.isEmpty, parts.allSatisfy({ !$0.isEmpty && installed.contains($0) }) else {
            throw OCRError.languageUnavailable(language: language, tessdata: path)
        }
        guard let api = TessBaseAPICreate() else { throw OCRError.engineFailure("cannot create tesseract") }
        _ = setMsgSeverity(Int32(L_SEVERITY_NONE))  // leptonica's own messages would reach the user's terminal
        _ = TessBaseAPISetVariable(api, "debug_file", "/dev/null")  // and tesseract's ("Estimating resolution…")
        guard TessBaseAPIInit3(api, path, language) == 0 else {
            TessBaseAPIDelete(api)
            throw OCRError.languageUnavailable(language: language, tessdata: path)
        }
        _ = TessBaseAPISetVariable(api, "debug_file", "/dev/null")
        self.api = api
        self.language = language
        self.tessdataPath = path
    }

    deinit {
        TessBaseAPIEnd(api)
        TessBaseAPIDelete(api)
    }

    /// `TESSDATA_PREFIX` when set, else the Debian default.
    public static func defaultTessdataPath(environment: [String: String] = ProcessInfo.processInfo.environment) -> String {
        if let prefix = environment["TESSDATA_PREFIX"], !prefix.isEmpty { return prefix }
        return debianTessdata
    }

    /// The languages with a `.traineddata` file in `tessdataPath`, sorted.
    public static func installedLanguages(tessdataPath: String) -> [String] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: tessdataPath)) ?? []
        return names.filter { $0.hasSuffix(".traineddata") }.map { String($0.dropLast(".traineddata".count)) }.sorted()
    }

    /// The words and lines in the image at `path`, after EXIF orientation, gray, deskew and
    /// binarization as `options` say. Bad input throws `OCRError`; an image without text gives an empty result.
    public func recognize(imageAt path: String, options: OCROptions = OCROptions()) throws -> OCRResult {
        let (loaded, orientation) = try LeptImage.load(path: path, options: options)
        return try recognize(try loaded.oriented(orientation).gray(), orientation: orientation, options: options)
    }

    /// Reads the image at `path` in its own script and orientation: tesseract's orientation and script
    /// detection (`osd.traineddata`) on the upright-by-EXIF image decides the quarter turn (0/90/180/270)
    /// and, unless `language` is given, the language (`PageLayout.language(forScript:)`); `fallback` is
    /// the language when the detection finds no script it knows (too little text, no `osd` data).
    public static func recognizeDetecting(imageAt path: String, language: String? = nil, fallback: String,
                                          tessdataPath: String? = nil, options: OCROptions = OCROptions(),
                                          trace: OCRTrace? = nil) throws -> OCRResult {
        let tessdata = tessdataPath ?? defaultTessdataPath()
        _ = setMsgSeverity(Int32(L_SEVERITY_NONE))  // leptonica speaks while decoding, before any engine exists
        // The language names are checked before the image is read: a bad --ocr-lang is its own error.
        if let language { try checkLanguages(language, tessdataPath: tessdata) } else { try checkLanguages(fallback, tessdataPath: tessdata) }
        // A large JPEG is decoded at half size when its characters would still be at least `textHeight` tall
        // there (else it is decoded again in full, below): a 12 MP photo is read at about 2000×1500 anyway.
        var (loaded, orientation, reduction) = try trace.measure("decode") {
            try LeptImage.load(path: path, options: options, halveAbove: options.textHeight == nil ? nil : OCROptions.halvedJPEGPixels)
        }
        // Started once the image is known good, on their own threads: the OSD data (about 180 ms to load) and
        // the language most likely needed (the one given, else the fallback), which detection then usually
        // confirms, load while the image is examined. Both are waited for below, whatever is found.
        let osd = Preload { OSDEngine(tessdataPath: tessdata, characters: options.osdCharacters) }
        let likely = language ?? fallback
        let preloaded = Preload { try? OCREngine(language: likely, tessdataPath: tessdata) }
        defer { _ = osd.wait(); _ = preloaded.wait() }  // no loading thread outlives the reading (nor an error thrown here)
        var gray = try trace.measure("EXIF turn, gray") { try loaded.oriented(orientation).gray() }
        var (image, height, scale) = gray.scaledForReading(options: options, trace: trace)
        if reduction > 1 {
            if let h = height, let target = options.textHeight, h >= target * 0.9 {
                trace.note("decoded at 1/\(reduction): characters \(Int(h)) px there")
                height = h * Double(reduction)
                scale /= Double(reduction)
            } else {
                trace.note("decoded at 1/\(reduction): characters \(height.map { "\(Int($0)) px" } ?? "not found") there, decoded again in full")
                (loaded, orientation, reduction) = try trace.measure("decode in full") { try LeptImage.load(path: path, options: options, halveAbove: nil) }
                gray = try loaded.oriented(orientation).gray()
                (image, height, scale) = gray.scaledForReading(options: options, trace: trace)
            }
        }
        // Detection on the paper alone, contrast-stretched: on a dark table tesseract's OSD saw no characters
        // (the 12 MP photos), and on the faded and blurred receipts of the set it took Hangul for Latin or
        // Greek without the stretch (docs/ocr.md). Tesseract reads the whole image as it is: cut to the
        // paper, a shadow across it fell under tesseract's threshold.
        var forDetection = image.scaledForDetection(textHeight: height.map { $0 * scale }, options: options, trace: trace)
        var paper: OCRBox? = nil
        var corners: [LeptImage.Point]? = nil
        if options.findPaper, let found = trace.measure("find paper", { forDetection.paper() }), let cut = forDetection.cropped(found.box) {
            let box = found.box
            paper = OCRBox(x: box.x, y: box.y, width: box.width, height: box.height)
            corners = found.corners
            trace.note("paper at \(box.x),\(box.y) \(box.width)×\(box.height) in \(forDetection.width)×\(forDetection.height)\(corners.map { ", corners " + $0.map { "\(Int($0.x)),\(Int($0.y))" }.joined(separator: " ") } ?? "")")
            forDetection = cut
        }
        var steps: [String] = []
        // The paper's outline a clean quadrilateral: warped to a rectangle (the keystone undone, the table cut away), and
        // detection sees that too. Else the paper's box is cut. Both in this image's pixels (no OSD scale).
        if options.readPaperOnly, options.unwarpPaper, options.osdTextHeight == nil, let corners,
           let flat = trace.measure("unwarp paper", { image.unwarped(corners) }) {
            image = flat
            forDetection = flat
            steps.append("unwarped")
        } else if options.readPaperOnly, options.osdTextHeight == nil, let paper,  // the paper's box is in this image's pixels
           let cut = image.cropped((paper.x, paper.y, paper.width, paper.height)) {
            image = cut
            steps.append("paper")
        }
        if options.normalizeBackground {
            image = trace.measure("normalize background") { image.backgroundNormalized() }
            steps.append("normalized")
        }
        let stretched = trace.measure("contrast stretch") { forDetection.contrastStretched() }
        let osdEngine = trace.measure("wait for osd", { osd.wait() })
        var layout = osdEngine?.detect(stretched, trace: trace)
        // Nothing found on the paper as photographed: detection looks again at the paper evened out as tesseract reads it
        // (same scale). A shadow across the paper left OSD's global threshold nothing to classify, and the page was then
        // read in the fallback language and every other one (issue 45's tuning half: 3 readings instead of 1).
        if layout == nil, options.normalizeBackground, options.detectOnNormalized, options.osdTextHeight == nil, let osdEngine {
            layout = osdEngine.detect(image, trace: trace)
            trace.note("OSD on the normalized image: \(layout.map { "turn \($0.rotation) (\($0.orientationConfidence)), script \($0.script ?? "-") (\($0.scriptConfidence))" } ?? "nothing")")
        }
        trace.note("OSD: \(layout.map { "turn \($0.rotation) (\($0.orientationConfidence)), script \($0.script ?? "-") (\($0.scriptConfidence))" } ?? "nothing")")
        let detected = layout?.script.flatMap(PageLayout.language(forScript:))
        let chosen = language ?? detected ?? fallback
        let turn = layout?.rotation ?? 0
        var engines: [String: OCREngine] = [:]
        if let engine = trace.measure("wait for \(likely)", { preloaded.wait() }) { engines[likely] = engine }
        func attempt(_ quarterTurns: Int, _ languages: String) throws -> OCRResult {
            let q = ((quarterTurns % 4) + 4) % 4
            var turned = image
            if q != 0 {
                guard let t = trace.measure("quarter turn", { LeptImage(pixRotateOrth(image.pointer, Int32(q))) }) else {
                    throw OCRError.engineFailure("could not turn the image")
                }
                turned = t
            }
            let engine = try engines[languages] ?? trace.measure("load \(languages)") { try OCREngine(language: languages, tessdataPath: tessdata) }
            engines[languages] = engine
            var result = try engine.recognize(turned, orientation: orientation, options: options, textHeight: height.map { $0 * scale }, trace: trace)
            trace.note("read \(languages) turned \(q * 90)°: \(result.words.count) words, mean confidence \(String(format: "%.1f", result.meanWordConfidence))")
            result.language = languages
            result.layout = layout
            result.measuredTextHeight = height
            result.paper = paper
            result.scale = scale
            result.layout?.rotation = q * 90
            result.steps = steps + result.steps
            return result
        }
        var result = try attempt(turn / 90, chosen)
        // The measured second opinion, only for a page read badly (mean word confidence under `SecondLook.below`: a page
        // read upside down or in the wrong language gives about 25–57, a right reading of a photo mostly 60–95), within a budget
        // of whole-page readings (`OCROptions.secondLookReadings`): the likeliest other readings first (`SecondLook.plan`),
        // and the first one clearly better (`SecondLook.margin`) is kept and ends the search.
        if result.meanWordConfidence < SecondLook.below, options.secondLookReadings > 0 {
            let plan = SecondLook.plan(turn: turn / 90, chosen: chosen, fallback: fallback, languageGiven: language != nil, layout: layout,
                                       installed: Set(installedLanguages(tessdataPath: tessdata)))
            var read = 0
            for (q, l) in plan.prefix(options.secondLookReadings) {
                let again = try attempt(q, l)
                read += 1
                if again.meanWordConfidence >= result.meanWordConfidence + SecondLook.margin { result = again; break }
            }
            trace.note("second look: \(read) of \(plan.count) readings (budget \(options.secondLookReadings)), kept \(result.language ?? "-") turned \(result.layout?.rotation ?? 0)°")
            result.steps.append("looked again \(read)")
        }
        return result
    }

    /// The typical character height in pixels of the image at `path` after its EXIF turn (nil when too little
    /// text was found to say): what `OCROptions.textHeight` compares against.
    public static func textHeight(imageAt path: String, options: OCROptions = OCROptions()) throws -> Double? {
        _ = setMsgSeverity(Int32(L_SEVERITY_NONE))
        let (loaded, orientation) = try LeptImage.load(path: path, options: options)
        return try loaded.oriented(orientation).gray().textHeight()
    }

    /// Orientation and script detection alone on the image at `path` (after its EXIF turn), prepared as
    /// `recognizeDetecting` prepares it (`options.textHeight`, `options.osdTextHeight`, the contrast stretch):
    /// for the bench and the tests. nil when OSD found nothing.
    public static func detectLayout(imageAt path: String, tessdataPath: String? = nil, options: OCROptions = OCROptions(),
                                    trace: OCRTrace? = nil) throws -> PageLayout? {
        _ = setMsgSeverity(Int32(L_SEVERITY_NONE))
        let (loaded, orientation) = try LeptImage.load(path: path, options: options)
        let (image, height, scale) = try loaded.oriented(orientation).gray().scaledForReading(options: options, trace: trace)
        var forDetection = image.scaledForDetection(textHeight: height.map { $0 * scale }, options: options, trace: trace)
        if options.findPaper, let box = trace.measure("find paper", { forDetection.paperBox() }), let cut = forDetection.cropped(box) { forDetection = cut }
        return PageLayout.detect(trace.measure("contrast stretch") { forDetection.contrastStretched() },
                                 tessdataPath: tessdataPath ?? defaultTessdataPath(), characters: options.osdCharacters, trace: trace)
    }

    /// Throws `languageUnavailable` unless every `+`-part of `language` has its `.traineddata` in `tessdataPath`.
    public static func checkLanguages(_ language: String, tessdataPath: String) throws {
        let installed = Set(installedLanguages(tessdataPath: tessdataPath))
        let parts = language.split(separator: "+", omittingEmptySubsequences: false).map(String.init)
        guard !parts.isEmpty, parts.allSatisfy({ !$0.isEmpty && installed.contains($0) }) else {
            throw OCRError.languageUnavailable(language: language, tessdata: tessdataPath)
        }
    }

    func recognize(_ gray: LeptImage, orientation: ExifOrientation, options: OCROptions, textHeight: Double? = nil,
                   trace: OCRTrace? = nil) throws -> OCRResult {
        var image = gray
        var angle = 0.0
        if options.deskew { (image, angle) = trace.measure("deskew") { image.deskewed() } }
        if let sag = options.flattenSag {
            let (flat, curl) = trace.measure("flatten") { image.flattenedWhenCurled(textHeight: textHeight, fraction: sag) }
            trace.note("curl: \(curl.map { String(format: "sag %.1f px, slope %.1f px, %d lines, residual %.2f px", $0.curvature, $0.slope, $0.lines, $0.residual) } ?? "too few lines")\(flat === image ? "" : ", flattened")")
            image = flat
        }
        image = trace.measure("binarize") { image.binarized(options.binarization) }
        var (words, lines) = try trace.measure("recognize \(language)") { try read(image, segmentation: options.pageSegmentation) }
        var steps: [String] = []
        if options.rereadLarge {
            let before = lines
            (words, lines) = try trace.measure("reread large type") { try rereadLargeType(image, words: words, lines: lines) }
            let changed = lines.filter { !before.contains($0) }.count
            if changed > 0 { steps.append("reread \(changed) large"); trace.note("large type: \(changed) lines read again or found") }
        }
        var result = OCRResult(
            words: words, lines: lines, width: image.width, height: image.height, orientationApplied: orientation, deskewAngle: angle)
        result.steps = steps
        return result
    }

    /// Large type read again. Single-block reading (page segmentation 6) expects one size of type: a line printed
    /// at twice the size (a receipt's shop name, a bold or double-height total) comes out garbled or not at all.
    /// (1) A read line whose box is over `largeLine` × the median line height is read again alone (segmentation 7),
    /// scaled to the median height; the new text replaces the old when its confidence is higher. (2) A stretch
    /// taller than `largeGap` × the median height between read lines (or above the first) is read at half size
    /// (or the scale that brings its ink to the median height), within the read lines' left and right edges; its
    /// lines join the page when their confidence is at least 60 and they have three letters or digits.
    func rereadLargeType(_ image: LeptImage, words: [OCRWord], lines: [OCRLine]) throws -> ([OCRWord], [OCRLine]) {
        let heights = lines.map(\.box.height).filter { $0 > 0 }.sorted()
        guard heights.count >= 4 else { return (words, lines) }
        let median = Double(heights[heights.count / 2])
        var out = lines
        for (i, line) in lines.enumerated() where Double(line.box.height) > Self.largeLine * median {
            let pad = line.box.height / 5
            let box = (x: max(0, line.box.x - pad), y: max(0, line.box.y - pad), width: min(image.width, line.box.x + line.box.width + pad) - max(0, line.box.x - pad),
                       height: min(image.height, line.box.y + line.box.height + pad) - max(0, line.box.y - pad))
            guard box.width > 0, box.height > 0, let crop = image.cropped(box), let small = crop.scaled(by: median / Double(line.box.height)) else { continue }
            let (_, again) = try read(small, segmentation: .singleLine)
            let text = again.map(\.text).joined(separator: " ").trimmingCharacters(in: .whitespaces)
            let confidence = again.isEmpty ? 0 : again.map(\.confidence).reduce(0, +) / Double(again.count)
            if !text.isEmpty, confidence > line.confidence + 3 { out[i].text = text; out[i].confidence = confidence }
        }
        // Stretches between read lines (and above the first) tall enough to hold a line of large type.
        let sorted = lines.sorted { $0.box.y < $1.box.y }
        let left = lines.map(\.box.x).min() ?? 0, right = lines.map { $0.box.x + $0.box.width }.max() ?? image.width
        let margin = Int(median)
        var added: [OCRLine] = []
        var top = max(0, (sorted.first?.box.y ?? 0) - Int(median * 6))
        for line in sorted + [OCRLine(text: "", confidence: 0, box: OCRBox(x: 0, y: image.height, width: 0, height: 0), block: 0)] {
            defer { top = max(top, line.box.y + line.box.height) }
            let gap = line.box.y - top
            guard Double(gap) > Self.largeGap * median, line.box.y < image.height || Double(gap) < 8 * median else { continue }
            let x0 = max(0, left - margin), x1 = min(image.width, right + margin)
            let box = (x: x0, y: max(0, top - margin / 4), width: x1 - x0, height: min(image.height, line.box.y + margin / 4) - max(0, top - margin / 4))
            guard box.width > 0, box.height > 0, let crop = image.cropped(box), let small = crop.scaled(by: 0.5) else { continue }
            let (_, found) = try read(small, segmentation: .singleBlock)
            for l in found where l.confidence >= 60 && l.text.unicodeScalars.filter({ CharacterSet.alphanumerics.contains($0) }).count >= 3 {
                let b = OCRBox(x: box.x + l.box.x * 2, y: box.y + l.box.y * 2, width: l.box.width * 2, height: l.box.height * 2)
                guard Double(b.height) > Self.largeLine * median * 0.9 else { continue }  // only large type: the rest was read already
                added.append(OCRLine(text: l.text, confidence: l.confidence, box: b, block: line.block))
            }
        }
        guard !added.isEmpty else { return (words, out) }
        // The page's lines in reading order again, the words' line numbers following them.
        let all = (out.enumerated().map { ($0.element, Optional($0.offset)) } + added.map { ($0, nil as Int?) })
            .sorted { $0.0.box.y + $0.0.box.height / 2 < $1.0.box.y + $1.0.box.height / 2 }
        var renumber: [Int: Int] = [:]
        for (new, entry) in all.enumerated() { if let old = entry.1 { renumber[old] = new } }
        let renumbered = words.map { w -> OCRWord in var w = w; w.line = renumber[w.line] ?? w.line; return w }
        return (renumbered, all.map(\.0))
    }

    /// A line taller than this many median line heights is large type (a shop name at 1.5–2×, a double-height total).
    static let largeLine = 1.45
    /// A stretch between read lines taller than this many median line heights may hold a line of large type.
    static let largeGap = 1.8

    private func read(_ image: LeptImage, segmentation: OCROptions.PageSegmentation) throws -> ([OCRWord], [OCRLine]) {
        Self.letOpenMPFitTheFreeCores()
        TessBaseAPISetPageSegMode(api, TessPageSegMode(rawValue: UInt32(segmentation.rawValue)))
        TessBaseAPISetImage2(api, image.pointer)
        defer { TessBaseAPIClear(api) }
        guard TessBaseAPIRecognize(api, nil) == 0 else { throw OCRError.engineFailure("recognition failed") }
        guard let iterator = TessBaseAPIGetIterator(api) else { return ([], []) }
        defer { TessResultIteratorDelete(iterator) }

        var words: [OCRWord] = []
        var lines: [OCRLine] = []
        var block = -1
        var pending: OCRLine? = nil  // the current line, kept once it has a word
        var pendingWords: [Double] = []
        func flush() {
            guard var line = pending, !pendingWords.isEmpty else { return }
            line.confidence = pendingWords.reduce(0, +) / Double(pendingWords.count)
            lines.append(line)
        }
        repeat {
            let page = TessResultIteratorGetPageIteratorConst(iterator)
            if TessPageIteratorIsAtBeginningOf(page, RIL_BLOCK) != 0 { block += 1 }
            if TessPageIteratorIsAtBeginningOf(page, RIL_TEXTLINE) != 0 {
                flush()
                let text = Self.text(iterator, RIL_TEXTLINE).trimmingCharacters(in: .whitespacesAndNewlines)
                pending = OCRLine(text: text, confidence: 0, box: Self.box(page, RIL_TEXTLINE), block: max(block, 0))
                pendingWords = []
            }
            let text = Self.text(iterator, RIL_WORD)
            guard !text.isEmpty, pending != nil else { continue }
            let confidence = Double(TessResultIteratorConfidence(iterator, RIL_WORD))
            pendingWords.append(confidence)
            words.append(OCRWord(text: text, confidence: confidence, box: Self.box(page, RIL_WORD), line: lines.count, block: max(block, 0)))
        } while TessResultIteratorNext(iterator, RIL_WORD) != 0
        flush()
        return (words, lines)
    }

    /// Tesseract asks OpenMP for 4 threads per LSTM step whatever the machine; on 2 busy cores the
    /// spinning threads made recognition 4× slower (docs/ocr.md). Dynamic teams size each step by the
    /// cores free at the time. A per-thread setting, so made before each recognition; a no-op when
    /// tesseract was built without OpenMP (no symbol to find).
    private static func letOpenMPFitTheFreeCores() {
        #if os(Linux)
        let everywhere: UnsafeMutableRawPointer? = nil  // glibc's RTLD_DEFAULT
        #else
        let everywhere = UnsafeMutableRawPointer(bitPattern: -2)  // Darwin's RTLD_DEFAULT
        #endif
        guard let symbol = dlsym(everywhere, "omp_set_dynamic") else { return }
        typealias SetDynamic = @convention(c) (Int32) -> Void
        unsafeBitCast(symbol, to: SetDynamic.self)(1)
    }

    private static func text(_ iterator: OpaquePointer, _ level: TessPageIteratorLevel) -> String {
        guard let c = TessResultIteratorGetUTF8Text(iterator, level) else { return "" }
        defer { TessDeleteText(c) }
        return String(cString: c)
    }

    private static func box(_ page: OpaquePointer?, _ level: TessPageIteratorLevel) -> OCRBox {
        var left: Int32 = 0, top: Int32 = 0, right: Int32 = 0, bottom: Int32 = 0
        guard TessPageIteratorBoundingBox(page, level, &left, &top, &right, &bottom) != 0 else { return OCRBox(x: 0, y: 0, width: 0, height: 0) }
        return OCRBox(x: Int(left), y: Int(top), width: Int(right - left), height: Int(bottom - top))
    }
}

extension LeptImage {
    /// This image scaled down so its characters are `options.textHeight` tall (when they are taller by
    /// more than a tenth), the height measured, and the scale applied (1 when none).
    func scaledForReading(options: OCROptions, trace: OCRTrace?) -> (LeptImage, Double?, Double) {
        guard options.textHeight != nil || options.osdTextHeight != nil else { return (self, nil, 1) }
        let height = trace.measure("measure text height") { textHeight() }
        var result = (self, height, 1.0)
        if let target = options.textHeight, let height, target / height < 0.9,
           let smaller = trace.measure("scale", { scaled(by: target / height) }) {
            result = (smaller, height, target / height)
        }
        trace.note("text height \(height.map { String(format: "%.0f px", $0) } ?? "not measured"), read at scale \(String(format: "%.2f", result.2)) (\(result.0.width)×\(result.0.height))")
        return result
    }

    /// The copy orientation and script detection sees: scaled down so its characters (`textHeight` tall
    /// here) are `options.osdTextHeight` tall, or this image.
    func scaledForDetection(textHeight: Double?, options: OCROptions, trace: OCRTrace?) -> LeptImage {
        guard let target = options.osdTextHeight, let textHeight, target / textHeight < 0.9,
              let smaller = trace.measure("scale for OSD", { scaled(by: target / textHeight) }) else { return self }
        return smaller
    }
}

extension PageLayout {
    /// Below this orientation confidence the page is read as it is. Tesseract's OSD gave at least 1.8
    /// to the right turn of every receipt in the set, in all four turns (docs/ocr.md).
    static let minimumOrientationConfidence = 1.0
    /// Orientation confidence under which a badly read page is also read the other way up.
    static let sureOrientation = 2.0

    /// Orientation and script detection on an 8-bit image; nil when `osd.traineddata` is missing or
    /// tesseract found too little text to decide.
    static func detect(_ image: LeptImage, tessdataPath: String, characters: Int? = nil, trace: OCRTrace? = nil) -> PageLayout? {
        trace.measure("load osd", { OSDEngine(tessdataPath: tessdataPath, characters: characters) })?.detect(image, trace: trace)
    }
}

/// The second look at a page read badly (issue 45: the photos' time). On the tuning photos (seeds 45045, 50050) a reading
/// in the wrong language or turn had a mean word confidence of 25–57, a right one mostly 60–95 (45 and 57 on two poor
/// photos, where it was still the best); an alternative that was not the page's language came up to 10 points above the
/// first reading (an English photo read as Japanese: 71.1 against 60.9), the right one 26–50 points above it (docs/ocr.md,
/// "The second look's budget").
enum SecondLook {
    /// Mean word confidence under which the page is read again another way.
    static let below = 60.0
    /// An alternative reading replaces the first only when this many points more confident; it then ends the search.
    static let margin = 15.0

    /// The other readings to try, likeliest first, as (quarter turns clockwise, languages). Languages: Korean and Japanese,
    /// which OSD takes for each other, the other of the two first; then the fallback, then the rest. OSD found nothing: the
    /// language is what is unknown (a photo's EXIF turn stands), so the other way up comes last. OSD found a script but was
    /// unsure of the turn: the other way up comes second, after the likeliest other language (on photos the unsure turn was
    /// right and the language wrong: a Korean page called Japanese or Latin; a scan upside down needs the turn). With
    /// `languageGiven` (--ocr-lang) only the turn is tried.
    static func plan(turn: Int, chosen: String, fallback: String, languageGiven: Bool, layout: PageLayout?,
                     installed: Set<String>) -> [(quarterTurns: Int, language: String)] {
        let flip = (layout?.orientationConfidence ?? 0) < PageLayout.sureOrientation ? [((turn + 2) % 4, chosen)] : []
        guard !languageGiven else { return flip }
        let cjk = ["kor+eng": "jpn+eng", "jpn+eng": "kor+eng"][chosen].map { [$0] } ?? []
        var languages: [String] = []
        for l in cjk + [fallback, "kor+eng", "jpn+eng", "eng"]
        where l != chosen && !languages.contains(l) && l.split(separator: "+").allSatisfy({ installed.contains(String($0)) }) {
            languages.append(l)
        }
        let others = languages.map { (turn, $0) }
        return layout == nil ? others + flip : Array(others.prefix(1)) + flip + others.dropFirst()
    }
}

/// Tesseract loaded with `osd.traineddata` for orientation and script detection.
final class OSDEngine {
    private let api: OpaquePointer

    /// nil when `osd.traineddata` is missing or does not load.
    init?(tessdataPath: String, characters: Int?) {
        guard OCREngine.installedLanguages(tessdataPath: tessdataPath).contains("osd"), let api = TessBaseAPICreate() else { return nil }
        _ = setMsgSeverity(Int32(L_SEVERITY_NONE))
        _ = TessBaseAPISetVariable(api, "debug_file", "/dev/null")
        guard TessBaseAPIInit3(api, tessdataPath, "osd") == 0 else {
            TessBaseAPIDelete(api)
            return nil
        }
        _ = TessBaseAPISetVariable(api, "debug_file", "/dev/null")
        TessBaseAPISetPageSegMode(api, PSM_OSD_ONLY)
        if let characters { _ = TessBaseAPISetVariable(api, "min_characters_to_try", "\(characters)") }
        self.api = api
    }

    deinit {
        TessBaseAPIEnd(api)
        TessBaseAPIDelete(api)
    }

    /// The turn and script of an 8-bit image; nil when tesseract found too little text to decide.
    func detect(_ image: LeptImage, trace: OCRTrace?) -> PageLayout? {
        TessBaseAPISetImage2(api, image.pointer)
        defer { TessBaseAPIClear(api) }
        var degrees: Int32 = 0, orientationConfidence: Float = 0, scriptConfidence: Float = 0
        var name: UnsafePointer<CChar>? = nil
        guard trace.measure("OSD", { TessBaseAPIDetectOrientationScript(api, &degrees, &orientationConfidence, &name, &scriptConfidence) }) != 0 else {
            return nil
        }
        // Tesseract reports the page's orientation counter-clockwise; the turn that undoes it is clockwise.
        let turn = orientationConfidence >= Float(PageLayout.minimumOrientationConfidence) ? (360 - Int(degrees)) % 360 : 0
        // Tesseract 5's C API hands out the unicharset's own string here (freeing it is a double free).
        let script = name.map { String(cString: $0) }
        return PageLayout(rotation: turn, orientationConfidence: Double(orientationConfidence),
                          script: script.flatMap { $0.isEmpty ? nil : $0 }, scriptConfidence: Double(scriptConfidence))
    }
}

/// Work started on its own thread now and waited for later: the OSD data and the likely language load
/// while the image is decoded and examined (docs/ocr.md). The value is handed over once, after `wait`.
final class Preload<Value>: @unchecked Sendable {
    private var value: Value?
    private let done = DispatchSemaphore(value: 0)

    init(_ work: @escaping () -> Value?) {
        let box = UncheckedBox(work)
        Thread.detachNewThread { [self] in
            value = box.value()
            done.signal()
        }
    }

    private var waited = false

    /// The value, once the work has finished; nil after the first call.
    func wait() -> Value? {
        guard !waited else { return nil }
        done.wait()
        waited = true
        defer { value = nil }
        return value
    }
}

private struct UncheckedBox<T>: @unchecked Sendable {
    let value: T
    init(_ value: T) { self.value = value }
}
