import Foundation
import Localization
import PetModel

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

        var receiptLines: [ReceiptLine] {
            lines.map { ReceiptLine(text: $0.text, confidence: $0.confidence, box: ReceiptBox(x: $0.box.x, y: $0.box.y, width: $0.box.width, height: $0.box.height)) }
        }
        var text: [String] { lines.map(\.text) }
    }

    /// `$PETLOG_OCR`, else `petlog-ocr` beside this program, else on the PATH.
    static func helper(environment: [String: String] = ProcessInfo.processInfo.environment) -> String? {
        if let p = environment["PETLOG_OCR"], !p.isEmpty { return p }
        let fm = FileManager.default
        if let exe = try? fm.destinationOfSymbolicLink(atPath: "/proc/self/exe") {
            let sibling = ((exe as NSString).deletingLastPathComponent as NSString).appendingPathComponent("petlog-ocr")
            if fm.isExecutableFile(atPath: sibling) { return sibling }
        }
        for dir in (environment["PATH"] ?? "/usr/local/bin:/usr/bin:/bin").split(separator: ":") {
            let candidate = "\(dir)/petlog-ocr"
            if fm.isExecutableFile(atPath: candidate) { return candidate }
        }
        return nil
    }

    static func read(image: String, languages: String) throws -> Reading {
        guard let helper = helper() else { throw ScanFailure(kind: "helperMissing", fields: [:]) }
        let p = Process()
        p.executableURL = URL(fileURLWithPath: helper)
        p.arguments = ["--lang", languages, image]
        let out = Pipe(), err = Pipe()
        p.standardOutput = out
        p.standardError = err
        p.standardInput = FileHandle.nullDevice
        do { try p.run() } catch { throw ScanFailure(kind: "helperMissing", fields: ["detail": "\(error)"]) }
        // Standard error is read beside standard output so neither pipe can fill while the other is waited on.
        let errData = ErrorCollector()
        let group = DispatchGroup()
        group.enter()
        DispatchQueue.global().async { errData.set(err.fileHandleForReading.readDataToEndOfFile()); group.leave() }
        let data = out.fileHandleForReading.readDataToEndOfFile()
        group.wait()
        p.waitUntilExit()
        if p.terminationStatus == 0, let reading = try? JSONDecoder().decode(Reading.self, from: data) { return reading }
        let fields = (try? JSONSerialization.jsonObject(with: data) as? [String: Any]) ?? [:]
        let kind = fields["error"] as? String ?? "engineFailure"
        var detail = fields
        if detail["detail"] == nil { detail["detail"] = String(decoding: errData.get().prefix(300), as: UTF8.self) }
        throw ScanFailure(kind: kind, fields: detail)
    }
}

final class ErrorCollector: @unchecked Sendable {
    private let lock = NSLock()
    private var data = Data()
    func set(_ d: Data) { lock.lock(); data = d; lock.unlock() }
    func get() -> Data { lock.lock(); defer { lock.unlock() }; return data }
}

/// Why a receipt could not be read, as `petlog-ocr` said it.
struct ScanFailure: Error {
    let kind: String
    let fields: [String: Any]

    var exitCode: Int32 {
        switch kind {
        case "fileNotFound", "unreadable": Failure.noInput
        case "languageUnavailable", "helperMissing": Failure.unavailable
        case "engineFailure", "usage": Failure.software
        default: Failure.dataError
        }
    }

    func message(_ l: L10n) -> String {
        func text(_ key: String) -> String { Terminal.sanitize("\(fields[key] ?? "")") }
        func int(_ key: String) -> Int { (fields[key] as? NSNumber)?.intValue ?? 0 }
        switch kind {
        case "fileNotFound", "unreadable": return l.text(.errAttachmentUnreadable(path: text("path")))
        case "emptyFile", "corruptImage": return l.text(.errImageCorrupt(path: text("path")))
        case "notAnImage": return l.text(.errNotAnImage(path: text("path")))
        case "fileTooLarge": return l.text(.errImageTooLarge(path: text("path"), detail: "\(int("bytes") / 1_048_576) MiB > \(int("limit") / 1_048_576) MiB"))
        case "tooManyPixels": return l.text(.errImageTooLarge(path: text("path"), detail: "\(int("width"))×\(int("height")) > \(int("limit") / 1_000_000) MP"))
        case "unsupportedFormat": return l.text(.errImageFormat(path: text("path"), format: text("format")))
        case "languageUnavailable": return l.text(.errOCRLanguage(language: text("language"), path: text("tessdata")))
        case "helperMissing": return l.text(.errOCREngine(detail: "petlog-ocr not found beside petlog or on the PATH (set PETLOG_OCR)"))
        default: return l.text(.errOCREngine(detail: text("detail")))
        }
    }
}
