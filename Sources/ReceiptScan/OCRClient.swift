import Foundation
import Localization
import OCRWire
import PetModel
import PetFiles

/// Runs `petlog-ocr` (the OCR module in its own process) on one image and reads its JSON (`OCRWire`, the
/// types both programs share). `expense scan` and `petlog serve`'s `POST /receipts` both read receipts here.
public enum OCRClient {
    /// What `petlog-ocr` read: the text lines with their confidences and boxes.
    public typealias Reading = OCRWire.Reading

    /// `languages` fixes the OCR languages (`--ocr-lang`); without it the helper decides from the image's
    /// script, `fallback` when the image shows none it knows. The page's quarter turn is always found.
    public static func read(image: String, languages: String?, fallback: String) throws -> Reading {
        guard let helper = HelperProgram.locate("petlog-ocr", variable: "PETLOG_OCR") else { throw ScanFailure(OCRWire.Failure("helperMissing")) }
        let result: (status: Int32, out: Data, err: Data)
        do { result = try HelperProgram.run(helper, ["--detect", fallback] + (languages.map { ["--lang", $0] } ?? []) + [image]) } catch {
            throw ScanFailure(OCRWire.Failure("helperMissing", detail: "\(error)"))
        }
        if result.status == 0, let reading = try? OCRWire.decode(Reading.self, from: result.out) { return reading }
        var failure = (try? OCRWire.decode(OCRWire.Failure.self, from: result.out)) ?? OCRWire.Failure("engineFailure")
        if failure.detail == nil { failure.detail = String(decoding: result.err.prefix(300), as: UTF8.self) }
        throw ScanFailure(failure)
    }
}

extension OCRWire.Reading {
    public var receiptLines: [ReceiptLine] {
        lines.map { ReceiptLine(text: $0.text, confidence: $0.confidence, box: ReceiptBox(x: $0.box.x, y: $0.box.y, width: $0.box.width, height: $0.box.height)) }
    }
    public var text: [String] { lines.map(\.text) }
}

/// Why a receipt could not be read, as `petlog-ocr` said it.
public struct ScanFailure: Error {
    public let failure: OCRWire.Failure
    public init(_ failure: OCRWire.Failure) { self.failure = failure }

    public var kind: String { failure.error }

    /// The sysexits code: 66 no input, 69 unavailable, 70 software, else 65 bad data.
    public var exitCode: Int32 {
        switch kind {
        case "fileNotFound", "unreadable": 66
        case "languageUnavailable", "helperMissing": 69
        case "engineFailure", "usage": 70
        default: 65
        }
    }

    public func message(_ l: L10n) -> String {
        let f = failure
        func text(_ s: String?) -> String { PlainText.sanitized(s ?? "") }
        let path = text(f.path)
        switch kind {
        case "fileNotFound", "unreadable": return l.text(.errAttachmentUnreadable(path: path))
        case "emptyFile", "corruptImage": return l.text(.errImageCorrupt(path: path))
        case "notAnImage": return l.text(.errScanNotAnImage(path: path))
        case "undecodableHeif": return l.text(.errHeifUndecodable(path: path, detail: text(f.detail)))
        case "fileTooLarge": return l.text(.errImageTooLarge(path: path, detail: "\((f.bytes ?? 0) / 1_048_576) MiB > \((f.limit ?? 0) / 1_048_576) MiB"))
        case "tooManyPixels": return l.text(.errImageTooLarge(path: path, detail: "\(f.width ?? 0)×\(f.height ?? 0) > \((f.limit ?? 0) / 1_000_000) MP"))
        case "unsupportedFormat": return l.text(.errImageFormat(path: path, format: text(f.format)))
        case "languageUnavailable": return l.text(.errOCRLanguage(language: text(f.language), path: text(f.tessdata)))
        case "helperMissing": return l.text(.errHelperMissing(program: "petlog-ocr", variable: "PETLOG_OCR"))
        default: return l.text(.errOCREngine(detail: text(f.detail)))
        }
    }
}

/// `expense scan`'s reading of one receipt photo: the OCR helper's lines and the proposal made of them, the
/// languages chosen as the CLI chooses them (the receipt's own script decides; the UI language breaks ties).
public struct ReceiptScan {
    public let reading: OCRClient.Reading
    public let proposal: ReceiptProposal
    /// The OCR languages used (`kor+eng`).
    public let languages: String

    /// `fixed`: `--ocr-lang`'s set, else found from the image; `uiLanguage`: `en`, `ko` or `ja`.
    public static func read(image: String, fixed: String?, uiLanguage: String, homeCurrency: Currency, today: LocalDate) throws -> ReceiptScan {
        let fallback = ["en": "eng", "ko": "kor+eng", "ja": "jpn+eng"][uiLanguage] ?? "eng"
        let result = try OCRClient.read(image: image, languages: fixed, fallback: fallback)
        let languages = result.language ?? fixed ?? fallback
        let proposal = ReceiptReading.proposal(lines: result.receiptLines, imageHeight: result.height,
                                               languages: languages.split(separator: "+").map(String.init),
                                               homeCurrency: homeCurrency, today: today)
        return ReceiptScan(reading: result, proposal: proposal, languages: languages)
    }
}
