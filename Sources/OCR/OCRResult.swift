/// A rectangle in pixels of the image tesseract read (after orientation and deskew), origin top left.
public struct OCRBox: Sendable, Equatable, Hashable, Codable {
    public var x: Int
    public var y: Int
    public var width: Int
    public var height: Int

    public init(x: Int, y: Int, width: Int, height: Int) {
        self.x = x
        self.y = y
        self.width = width
        self.height = height
    }
}

/// One recognised word with tesseract's confidence (0–100) and where it sits.
public struct OCRWord: Sendable, Equatable, Codable {
    public var text: String
    public var confidence: Double
    public var box: OCRBox
    /// Index into `OCRResult.lines`.
    public var line: Int
    /// Tesseract's text block, counted from 0 in reading order.
    public var block: Int

    public init(text: String, confidence: Double, box: OCRBox, line: Int, block: Int) {
        self.text = text
        self.confidence = confidence
        self.box = box
        self.line = line
        self.block = block
    }
}

/// One text line: tesseract's text of the line, the mean confidence of its words, its box.
public struct OCRLine: Sendable, Equatable, Codable {
    public var text: String
    public var confidence: Double
    public var box: OCRBox
    public var block: Int

    public init(text: String, confidence: Double, box: OCRBox, block: Int) {
        self.text = text
        self.confidence = confidence
        self.box = box
        self.block = block
    }
}

/// Everything one image yielded; empty `words` and `lines` when it held no text.
public struct OCRResult: Sendable, Equatable, Codable {
    public var words: [OCRWord]
    public var lines: [OCRLine]
    /// Size of the image tesseract read, after the EXIF orientation was applied.
    public var width: Int
    public var height: Int
    public var orientationApplied: ExifOrientation
    /// Degrees the image was turned to straighten its text lines (0 when deskew was off or found nothing).
    public var deskewAngle: Double
    /// The tesseract languages it was read with (set by `OCREngine.recognizeDetecting`, else nil).
    public var language: String?
    /// What orientation and script detection found (nil when it did not run or found nothing).
    public var layout: PageLayout?
    /// The character height measured on the image as decoded (pixels; nil when not measured or too little text).
    public var measuredTextHeight: Double?
    /// Where the paper was found for orientation and script detection (pixels of the image read), nil when not found.
    public var paper: OCRBox?
    /// How much the image was scaled before it was read (1 when not; boxes, `width` and `height` are of the scaled image).
    public var scale: Double = 1
    /// What `recognizeDetecting` did to the image before (and after) tesseract read it, in order (docs/ocr.md).
    public var steps: [String] = []

    public init(words: [OCRWord], lines: [OCRLine], width: Int, height: Int, orientationApplied: ExifOrientation, deskewAngle: Double) {
        self.words = words
        self.lines = lines
        self.width = width
        self.height = height
        self.orientationApplied = orientationApplied
        self.deskewAngle = deskewAngle
    }

    /// The mean of the words' confidences (0 without words).
    public var meanWordConfidence: Double { words.isEmpty ? 0 : words.map(\.confidence).reduce(0, +) / Double(words.count) }

    /// The lines' text, one per line.
    public var text: String { lines.map(\.text).joined(separator: "\n") }
}

extension ExifOrientation: Codable {}

/// Tesseract's orientation and script detection on one page: the clockwise quarter turn that puts
/// its text upright, and the script most of its characters are in.
public struct PageLayout: Sendable, Equatable, Codable {
    /// Degrees clockwise the image was turned before reading: 0, 90, 180 or 270.
    public var rotation: Int
    public var orientationConfidence: Double
    /// Tesseract's script name (`Latin`, `Korean`, `Japanese`, `Han`, `Hangul`, …), nil when none was found.
    public var script: String?
    public var scriptConfidence: Double

    public init(rotation: Int, orientationConfidence: Double, script: String?, scriptConfidence: Double) {
        self.rotation = rotation
        self.orientationConfidence = orientationConfidence
        self.script = script
        self.scriptConfidence = scriptConfidence
    }

    /// The languages a receipt in `script` is read with: Hangul → `kor+eng`, kana or kanji → `jpn+eng`
    /// (Korean receipts carry no runs of Han; Chinese is not read), Latin → `eng`; nil for any other script.
    public static func language(forScript script: String) -> String? {
        switch script {
        case "Korean", "Hangul": "kor+eng"
        case "Japanese", "Han", "Hiragana", "Katakana": "jpn+eng"
        case "Latin": "eng"
        default: nil
        }
    }
}

/// How an image is prepared before tesseract reads it, and what the engine refuses.
public struct OCROptions: Sendable, Equatable {
    /// Binarization before tesseract (which otherwise thresholds with its own global Otsu; that
    /// measured best on the receipt set, so `none` is the default).
    public enum Binarization: String, Sendable, Equatable, CaseIterable {
        case none, otsuAdaptive, sauvola
    }

    /// Tesseract's page segmentation. `singleBlock` (6) is the default: on the receipt set it keeps
    /// each label on one line with its amount (`auto` split them into columns and dropped header
    /// lines: character error 22 % against 5 %; docs/ocr.md).
    public enum PageSegmentation: Int32, Sendable, Equatable, CaseIterable {
        case auto = 3, singleColumn = 4, singleBlock = 6, singleLine = 7, sparse = 11
    }

    public var pageSegmentation: PageSegmentation
    /// Straighten text lines tilted up to about 7° (leptonica's skew search).
    public var deskew: Bool
    /// Straighten text lines that bow (a curled receipt) when their middle and their ends lie this many
    /// character heights apart (`LeptImage.flattenedWhenCurled`, docs/ocr.md "Curl"); nil: never.
    public var flattenSag: Double?
    public var binarization: Binarization
    /// The character height in pixels a large image is scaled down to before it is read (`recognizeDetecting`
    /// only): the height is measured on the image (`OCREngine.textHeight`), and an image whose text is taller
    /// than this is read smaller (tesseract's line recognizer rescales every line to 36 px anyway; the
    /// layout analysis, the deskew and the orientation detection pay for every pixel). nil: read as it is.
    public var textHeight: Double?
    /// The character height the copy for orientation and script detection is scaled down to (nil: the
    /// image as read). Tesseract's OSD found no script on a 12 MP photo whose characters were 70 px tall.
    public var osdTextHeight: Double?
    /// Tesseract's `min_characters_to_try` for orientation and script detection (nil: tesseract's 50). OSD
    /// classifies characters in all four turns until it is sure, from this many on, up to five times as many.
    public var osdCharacters: Int?
    /// Orientation and script detection sees only the paper of a photo (`LeptImage.paperBox`: a receipt on a
    /// dark table); the reading still covers the whole image.
    public var findPaper: Bool
    /// Large type read again (`OCREngine.rereadLargeType`, docs/ocr.md "Phone photos"): a line much taller than
    /// the page's usual line read again at the usual size, and a tall stretch between read lines (a big bold
    /// shop name or total that single-block reading skipped) read at half size.
    public var rereadLarge: Bool
    /// The photo's uneven light and faded ink evened out before reading (`LeptImage.backgroundNormalized`).
    public var normalizeBackground: Bool
    /// Orientation and script detection sees the normalized image (the paper's shadow evened out) as tesseract reads it.
    public var detectOnNormalized: Bool
    /// Tesseract reads only the paper found in a photo (`LeptImage.paperBox`), not the table around it.
    public var readPaperOnly: Bool
    /// A photo's paper, when its four corners are found (`LeptImage.paperCorners`), is warped to an upright rectangle
    /// before reading (the keystone of a phone held at an angle undone; with `readPaperOnly`, instead of the box cut).
    /// Off by default: on 24 photos of the tuning half it read one total more, one date and one merchant fewer (a curled
    /// paper's bow no longer flattened after the warp; docs/ocr.md). `PETLOG_OCR_TRY=warp` turns it on in petlog-ocr.
    public var unwarpPaper: Bool
    /// At most this many more whole-page readings for a page read badly (`recognizeDetecting`'s second look: another
    /// language, the other way up; `SecondLook`). A budget in readings, not in time: the same image is read the same way
    /// on a busy machine. 0: the first reading stands.
    public var secondLookReadings: Int
    /// Images above this many pixels are refused before decoding.
    public var maxPixels: Int
    /// Files above this many bytes are refused before reading.
    public var maxFileBytes: Int

    /// JPEGs above this many pixels are decoded at half size by `recognizeDetecting` when their characters are
    /// large enough (docs/ocr.md, "12 MP").
    public static let halvedJPEGPixels = 6_000_000

    public init(
        pageSegmentation: PageSegmentation = .singleBlock, deskew: Bool = true, flattenSag: Double? = 0.5, binarization: Binarization = .none,
        textHeight: Double? = 32, osdTextHeight: Double? = nil, osdCharacters: Int? = 30, findPaper: Bool = true,
        rereadLarge: Bool = true, normalizeBackground: Bool = true, readPaperOnly: Bool = true, unwarpPaper: Bool = false,
        detectOnNormalized: Bool = true, secondLookReadings: Int = 2,
        maxPixels: Int = 50_000_000, maxFileBytes: Int = 64 << 20
    ) {
        self.rereadLarge = rereadLarge
        self.normalizeBackground = normalizeBackground
        self.readPaperOnly = readPaperOnly
        self.unwarpPaper = unwarpPaper
        self.detectOnNormalized = detectOnNormalized
        self.secondLookReadings = secondLookReadings
        self.textHeight = textHeight
        self.flattenSag = flattenSag
        self.osdTextHeight = osdTextHeight
        self.osdCharacters = osdCharacters
        self.findPaper = findPaper
        self.pageSegmentation = pageSegmentation
        self.deskew = deskew
        self.binarization = binarization
        self.maxPixels = maxPixels
        self.maxFileBytes = maxFileBytes
    }
}
