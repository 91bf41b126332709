// petlog-ocr: reads one image with the OCR module and prints the result as JSON on standard output, or
// `{"error": …}` and a sysexits code. `petlog expense scan` runs it: petlog itself does not link tesseract
// and leptonica, whose dozens of libraries would add 30 ms to the start of every other command.
// usage: petlog-ocr --lang kor+eng IMAGE              (those languages, the page as it stands after EXIF)
//        petlog-ocr --detect FALLBACK [--lang L] IMAGE  (orientation and, without --lang, the language from the
//                                                       image; FALLBACK when it shows no script it knows)
//        petlog-ocr ... --trace IMAGE                 (also the time of each stage on stderr)
import Foundation
import OCR

func fail(_ fields: [String: Any], code: Int32) -> Never {
    if let data = try? JSONSerialization.data(withJSONObject: fields, options: [.sortedKeys]) {
        FileHandle.standardOutput.write(data)
        FileHandle.standardOutput.write(Data("\n".utf8))
    }
    exit(code)
}

var arguments = Array(CommandLine.arguments.dropFirst())
@MainActor func option(_ name: String) -> String? {
    guard let i = arguments.firstIndex(of: name), i + 1 < arguments.count else { return nil }
    defer { arguments.removeSubrange(i...(i + 1)) }
    return arguments[i + 1]
}
let language = option("--lang")
let fallback = option("--detect")
let trace: OCRTrace? = arguments.contains("--trace") ? OCRTrace() : nil  // stage times on stderr (docs/ocr.md)
arguments.removeAll { $0 == "--trace" }
guard arguments.count == 1 else { fail(["error": "usage", "detail": "petlog-ocr [--detect FALLBACK] [--lang LANGS] [--trace] IMAGE"], code: 64) }
let path = arguments[0]

do {
    let result: OCRResult
    if let fallback {
        result = try OCREngine.recognizeDetecting(imageAt: path, language: language, fallback: fallback, trace: trace)
    } else {
        result = try OCREngine(language: language ?? "eng").recognize(imageAt: path)
    }
    if let trace { FileHandle.standardError.write(Data((trace.report + "\n").utf8)) }
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys]
    FileHandle.standardOutput.write(try encoder.encode(result))
    FileHandle.standardOutput.write(Data("\n".utf8))
} catch let e as OCRError {
    switch e {
    case .fileNotFound(let p): fail(["error": "fileNotFound", "path": p], code: 66)
    case .unreadable(let p): fail(["error": "unreadable", "path": p], code: 66)
    case .emptyFile(let p): fail(["error": "emptyFile", "path": p], code: 65)
    case .fileTooLarge(let p, let bytes, let limit): fail(["error": "fileTooLarge", "path": p, "bytes": bytes, "limit": limit], code: 65)
    case .notAnImage(let p): fail(["error": "notAnImage", "path": p], code: 65)
    case .unsupportedFormat(let p, let format): fail(["error": "unsupportedFormat", "path": p, "format": format], code: 65)
    case .tooManyPixels(let p, let w, let h, let limit): fail(["error": "tooManyPixels", "path": p, "width": w, "height": h, "limit": limit], code: 65)
    case .corruptImage(let p): fail(["error": "corruptImage", "path": p], code: 65)
    case .undecodableHeif(let p, let detail): fail(["error": "undecodableHeif", "path": p, "detail": detail], code: 65)
    case .languageUnavailable(let l, let tessdata): fail(["error": "languageUnavailable", "language": l, "tessdata": tessdata], code: 69)
    case .engineFailure(let detail): fail(["error": "engineFailure", "detail": detail], code: 70)
    }
} catch {
    fail(["error": "engineFailure", "detail": "\(error)"], code: 70)
}
