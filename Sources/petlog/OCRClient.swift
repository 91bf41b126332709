import Foundation
import Localization
import PetModel
import PetFiles

/// Runs `petlog-ocr` (the OCR module in its own process) on one image and reads its JSON.
enum OCRClient {
    /// What `petlog-ocr` read: the text lines with their confidences and boxes.
    struct Reading: Decodable {
        struct Box: Decodable { var x: Int, y: Int, width: Int, height: Int }
        struct Line: Decodable { var text: String, confidence: Double, box: Box }
        var lines: [Line]
        var width: Int
        var height: Int
        var deskewAngle: Double
        /// The languages the image was read with, as the helper chose them (`kor+eng`…).
        var language: String?
        struct Layout: Decodable { var rotation: Int, orientationConfidence: Double, script: String?, scriptConfidence: Double }
        /// What orientation and script detection found; nil when it found nothing.
        var layout: Layout?

        var receiptLines: [ReceiptLine] {
            lines.map { ReceiptLine(text: $0.text, confidence: $0.confidence, box: ReceiptBox(x: $0.box.x, y: $0.box.y, width: $0.box.width, height: $0.box.height)) }
        }
        var text: [String] { lines.map(\.text) }
    }

    /// `languages` fixes the OCR languages (`--ocr-lang`); without it the helper decides from the image's
    /// script, `fallback` when the image shows none it knows. The page's quarter turn is always found.
    static func read(image: String, languages: String?, fallback: String) throws -> Reading {
        guard let helper = HelperProgram.locate("petlog-ocr", variable: "PETLOG_OCR") else { throw ScanFailure(kind: "helperMissing", fields: [:]) }
        let result: (status: Int32, out: Data, err: Data)
        do { result = try HelperProgram.run(helper, ["--detect", fallback] + (languages.map { ["--lang", $0] } ?? []) + [image]) } catch {
            throw ScanFailure(kind: "helperMissing", fields: ["detail": .text("\(error)")])
        }
        let data = result.out
        if result.status == 0, let reading = try? JSONDecoder().decode(Reading.self, from: data) { return reading }
        let fields = (try? JSONDecoder().decode([String: ScanFailure.Value].self, from: data)) ?? [:]
        let kind = fields["error"]?.string ?? "engineFailure"
        var detail = fields
        if detail["detail"] == nil { detail["detail"] = .text(String(decoding: result.err.prefix(300), as: UTF8.self)) }
        throw ScanFailure(kind: kind, fields: detail)
    }
}

/// Why a receipt could not be read, as `petlog-ocr` said it.
struct ScanFailure: Error {
    let kind: String
    let fields: [String: Value]

    /// One value of the helper's `{"error": …}` object: a text or a number (anything else reads as nothing).
    enum Value: Decodable {
        case text(String), integer(Int), number(Double), other

        init(from decoder: Decoder) throws {
            let c = try decoder.singleValueContainer()
            if let i = try? c.decode(Int.self) { self = .integer(i) }
            else if let d = try? c.decode(Double.self) { self = .number(d) }
            else if let s = try? c.decode(String.self) { self = .text(s) }
            else { self = .other }
        }

        var string: String? { if case .text(let s) = self { s } else { nil } }

        var description: String {
            switch self {
            case .text(let s): s
            case .integer(let i): String(i)
            case .number(let d): String(d)
            case .other: ""
            }
        }

        var int: Int {
            switch self {
            case .integer(let i): i
            case .number(let d): Int(exactly: d.rounded(.towardZero)) ?? 0
            default: 0
            }
        }
    }

    var exitCode: Int32 {
        switch kind {
        case "fileNotFound", "unreadable": Failure.noInput
        case "languageUnavailable", "helperMissing": Failure.unavailable
        case "engineFailure", "usage": Failure.software
        default: Failure.dataError
        }
    }

    func message(_ l: L10n) -> String {
        func text(_ key: String) -> String { Terminal.sanitize(fields[key]?.description ?? "") }
        func int(_ key: String) -> Int { fields[key]?.int ?? 0 }
        switch kind {
        case "fileNotFound", "unreadable": return l.text(.errAttachmentUnreadable(path: text("path")))
        case "emptyFile", "corruptImage": return l.text(.errImageCorrupt(path: text("path")))
        case "notAnImage": return l.text(.errScanNotAnImage(path: text("path")))
        case "undecodableHeif": return l.text(.errHeifUndecodable(path: text("path"), detail: text("detail")))
        case "fileTooLarge": return l.text(.errImageTooLarge(path: text("path"), detail: "\(int("bytes") / 1_048_576) MiB > \(int("limit") / 1_048_576) MiB"))
        case "tooManyPixels": return l.text(.errImageTooLarge(path: text("path"), detail: "\(int("width"))×\(int("height")) > \(int("limit") / 1_000_000) MP"))
        case "unsupportedFormat": return l.text(.errImageFormat(path: text("path"), format: text("format")))
        case "languageUnavailable": return l.text(.errOCRLanguage(language: text("language"), path: text("tessdata")))
        case "helperMissing": return l.text(.errHelperMissing(program: "petlog-ocr", variable: "PETLOG_OCR"))
        default: return l.text(.errOCREngine(detail: text("detail")))
        }
    }
}
