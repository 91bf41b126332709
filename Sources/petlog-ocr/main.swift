// petlog-ocr: reads one image with the OCR module and prints the result as JSON on standard output, or
// `{"error": …}` and a sysexits code. `petlog expense scan` runs it: petlog itself does not link tesseract
// and leptonica, whose dozens of libraries would add 30 ms to the start of every other command.
// usage: petlog-ocr --lang kor+eng IMAGE              (those languages, the page as it stands after EXIF)
//        petlog-ocr --detect FALLBACK [--lang L] IMAGE  (orientation and, without --lang, the language from the
//                                                       image; FALLBACK when it shows no script it knows)
//        petlog-ocr ... --trace IMAGE                 (also the time of each stage on stderr)
//        petlog-ocr --thumbnail SIZE IMAGE            (a JPEG or PNG copy at most SIZE pixels a side on standard
//                                                       output, upright: `petlog serve`'s thumbnails, OCR.Thumbnail)
import Foundation
import OCR
import OCRWire

func fail(_ failure: OCRWire.Failure) -> Never {
    if let data = try? OCRWire.encode(failure) { FileHandle.standardOutput.write(data) }
    exit(failure.exitCode)
}

var arguments = Array(CommandLine.arguments.dropFirst())
@MainActor func option(_ name: String) -> String? {
    guard let i = arguments.firstIndex(of: name), i + 1 < arguments.count else { return nil }
    defer { arguments.removeSubrange(i...(i + 1)) }
    return arguments[i + 1]
}
let language = option("--lang")
let fallback = option("--detect")
let thumbnail = option("--thumbnail")
let trace: OCRTrace? = arguments.contains("--trace") ? OCRTrace() : nil  // stage times on stderr (docs/ocr.md)
arguments.removeAll { $0 == "--trace" }
guard arguments.count == 1 else { fail(OCRWire.Failure("usage", detail: "petlog-ocr [--detect FALLBACK] [--lang LANGS] [--trace] IMAGE")) }
let path = arguments[0]
if let thumbnail {
    guard let side = Int(thumbnail), (16...4096).contains(side) else { fail(OCRWire.Failure("usage", detail: "petlog-ocr --thumbnail SIZE IMAGE (16–4096)")) }
    do {
        FileHandle.standardOutput.write(Data(try Thumbnail.make(path: path, maxSide: side).bytes))
        exit(0)
    } catch let e as OCRError {
        fail(OCRWire.Failure(e))
    } catch {
        fail(OCRWire.Failure("engineFailure", detail: "\(error)"))
    }
}

extension OCRWire.Box {
    init(_ b: OCRBox) { self.init(x: b.x, y: b.y, width: b.width, height: b.height) }
}

extension OCRWire.Reading {
    init(_ r: OCRResult) {
        self.init(lines: r.lines.map { OCRWire.Line(text: $0.text, confidence: $0.confidence, box: OCRWire.Box($0.box), block: $0.block) },
                  width: r.width, height: r.height, deskewAngle: r.deskewAngle, language: r.language,
                  layout: r.layout.map { OCRWire.Layout(rotation: $0.rotation, orientationConfidence: $0.orientationConfidence, script: $0.script,
                                                        scriptConfidence: $0.scriptConfidence) },
                  measuredTextHeight: r.measuredTextHeight, paper: r.paper.map(OCRWire.Box.init), scale: r.scale, steps: r.steps)
    }
}

extension OCRWire.Failure {
    init(_ e: OCRError) {
        switch e {
        case .fileNotFound(let p): self.init("fileNotFound", path: p)
        case .unreadable(let p): self.init("unreadable", path: p)
        case .emptyFile(let p): self.init("emptyFile", path: p)
        case .fileTooLarge(let p, let bytes, let limit): self.init("fileTooLarge", path: p, bytes: bytes, limit: limit)
        case .notAnImage(let p): self.init("notAnImage", path: p)
        case .unsupportedFormat(let p, let format): self.init("unsupportedFormat", path: p, format: format)
        case .tooManyPixels(let p, let w, let h, let limit): self.init("tooManyPixels", path: p, limit: limit, width: w, height: h)
        case .corruptImage(let p): self.init("corruptImage", path: p)
        case .undecodableHeif(let p, let detail): self.init("undecodableHeif", path: p, detail: detail)
        case .languageUnavailable(let l, let tessdata): self.init("languageUnavailable", language: l, tessdata: tessdata)
        case .engineFailure(let detail): self.init("engineFailure", detail: detail)
        }
    }
}

var options = OCROptions()
let tryOptions = ProcessInfo.processInfo.environment["PETLOG_OCR_TRY"]?.split(separator: ",").map(String.init) ?? []
if tryOptions.contains("nolarge") { options.rereadLarge = false }
if tryOptions.contains("nonorm") { options.normalizeBackground = false }
if tryOptions.contains("nopaper") { options.readPaperOnly = false }
if tryOptions.contains("warp") { options.unwarpPaper = true }
if tryOptions.contains("noosdnorm") { options.detectOnNormalized = false }
if let looks = tryOptions.first(where: { $0.hasPrefix("looks=") }).flatMap({ Int($0.dropFirst(6)) }) { options.secondLookReadings = looks }
do {
    let result: OCRResult
    if let fallback {
        result = try OCREngine.recognizeDetecting(imageAt: path, language: language, fallback: fallback, options: options, trace: trace)
    } else {
        result = try OCREngine(language: language ?? "eng").recognize(imageAt: path)
    }
    if let trace { FileHandle.standardError.write(Data((trace.report + "\n").utf8)) }
    FileHandle.standardOutput.write(try OCRWire.encode(OCRWire.Reading(result)))
} catch let e as OCRError {
    fail(OCRWire.Failure(e))
} catch {
    fail(OCRWire.Failure("engineFailure", detail: "\(error)"))
}
