import Foundation

/// What `petlog-ocr` prints on standard output and `petlog expense scan` reads back: one `Reading`, or one
/// `Failure` with a sysexits code. Both programs encode and decode these same types (sorted keys, one line).
public enum OCRWire {
    /// A rectangle in pixels of the image that was read, origin top left.
    public struct Box: Codable, Equatable, Sendable {
        public var x: Int, y: Int, width: Int, height: Int
        public init(x: Int, y: Int, width: Int, height: Int) { self.x = x; self.y = y; self.width = width; self.height = height }
    }

    /// One text line: its text, the mean confidence of its words (0–100), its box, tesseract's block.
    public struct Line: Codable, Equatable, Sendable {
        public var text: String, confidence: Double, box: Box, block: Int
        public init(text: String, confidence: Double, box: Box, block: Int) { self.text = text; self.confidence = confidence; self.box = box; self.block = block }
    }

    /// Orientation and script detection: the clockwise quarter turn applied and the script found.
    public struct Layout: Codable, Equatable, Sendable {
        public var rotation: Int, orientationConfidence: Double, script: String?, scriptConfidence: Double
        public init(rotation: Int, orientationConfidence: Double, script: String?, scriptConfidence: Double) {
            self.rotation = rotation; self.orientationConfidence = orientationConfidence; self.script = script; self.scriptConfidence = scriptConfidence
        }
    }

    /// What one image yielded (docs/ocr.md).
    public struct Reading: Codable, Equatable, Sendable {
        public var lines: [Line]
        /// The size of the image the boxes are in (after the EXIF turn, any scaling and the paper's cut).
        public var width: Int, height: Int
        public var deskewAngle: Double
        /// The languages the image was read with (`kor+eng`…).
        public var language: String?
        /// nil when orientation and script detection found nothing.
        public var layout: Layout?
        /// The character height measured on the image as decoded, in pixels.
        public var measuredTextHeight: Double?
        /// Where the paper lay in the image as decoded, when it was found.
        public var paper: Box?
        /// How much the image was scaled before it was read.
        public var scale: Double
        /// What was done to the image before tesseract read it, in order (`paper`, `flattened`, `normalized`, `reread`…).
        public var steps: [String]
        public init(lines: [Line], width: Int, height: Int, deskewAngle: Double, language: String? = nil, layout: Layout? = nil,
                    measuredTextHeight: Double? = nil, paper: Box? = nil, scale: Double = 1, steps: [String] = []) {
            self.lines = lines; self.width = width; self.height = height; self.deskewAngle = deskewAngle; self.language = language
            self.layout = layout; self.measuredTextHeight = measuredTextHeight; self.paper = paper; self.scale = scale; self.steps = steps
        }
    }

    /// Why an image was not read: `error` names the kind (`fileNotFound`, `notAnImage`, `tooManyPixels`, `usage`…);
    /// the other fields are those the kind has.
    public struct Failure: Codable, Equatable, Sendable, Error {
        public var error: String
        public var path: String?, detail: String?, format: String?, language: String?, tessdata: String?
        public var bytes: Int?, limit: Int?, width: Int?, height: Int?
        public init(_ error: String, path: String? = nil, detail: String? = nil, format: String? = nil, language: String? = nil,
                    tessdata: String? = nil, bytes: Int? = nil, limit: Int? = nil, width: Int? = nil, height: Int? = nil) {
            self.error = error; self.path = path; self.detail = detail; self.format = format; self.language = language
            self.tessdata = tessdata; self.bytes = bytes; self.limit = limit; self.width = width; self.height = height
        }

        /// The sysexits code `petlog-ocr` exits with for this kind.
        public var exitCode: Int32 {
            switch error {
            case "fileNotFound", "unreadable": 66
            case "languageUnavailable": 69
            case "engineFailure": 70
            case "usage": 64
            default: 65
            }
        }
    }

    /// One JSON line, keys sorted.
    public static func encode<T: Encodable>(_ value: T) throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        return try encoder.encode(value) + Data("\n".utf8)
    }

    public static func decode<T: Decodable>(_ type: T.Type, from data: Data) throws -> T {
        try JSONDecoder().decode(type, from: data)
    }
}
