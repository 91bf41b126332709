// ocr-bench: OCREngine over receipt images; per image the milliseconds and, when a ground-truth
// JSON sits beside the image, the character error rate and whether the total and merchant were read.
// usage: ocr-bench [--lang auto|kor+eng|…] [--no-deskew] [--binarize none|otsuAdaptive|sauvola]
//                  [--psm 3|4|6|11] [--fresh] [--text] [--detect FALLBACK] [--text-height PX|none]
//                  [--osd-height PX|none] [--trace] IMAGE|FOLDER…
// --detect reads as `expense scan` does (OCREngine.recognizeDetecting: turn and language from the image) and adds
// the languages read with, the turn found and the measured text height to each row.
import Foundation
import OCR

struct Truth {
    var language: String
    var text: String
    var totalDigits: String
    var merchant: String

    init?(json path: String) {
        guard let data = FileManager.default.contents(atPath: path),
              let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any] else { return nil }
        language = object["language"] as? String ?? "en"
        text = (object["text"] as? [String] ?? []).joined(separator: "\n")
        totalDigits = (object["total_text"] as? String ?? "").filter(\.isNumber)
        merchant = object["merchant"] as? String ?? ""
    }
}

/// Levenshtein distance over characters, two rows.
func distance(_ a: [Character], _ b: [Character]) -> Int {
    if a.isEmpty { return b.count }
    var previous = Array(0...b.count), current = [Int](repeating: 0, count: b.count + 1)
    for i in 1...a.count {
        current[0] = i
        for j in 1...max(b.count, 1) where j <= b.count {
            current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1))
        }
        swap(&previous, &current)
    }
    return previous[b.count]
}

func squeezed(_ s: String) -> [Character] { Array(s.filter { !$0.isWhitespace }) }

var language = "auto", options = OCROptions(), fresh = false, printText = false, detect: String? = nil, tracing = false, heightsOnly = false, osdOnly = false
var inputs: [String] = []
var args = CommandLine.arguments.dropFirst()
while let arg = args.popFirst() {
    switch arg {
    case "--lang": language = args.popFirst() ?? language
    case "--no-deskew": options.deskew = false
    case "--binarize": options.binarization = OCROptions.Binarization(rawValue: args.popFirst() ?? "") ?? .none
    case "--psm": options.pageSegmentation = OCROptions.PageSegmentation(rawValue: Int32(args.popFirst() ?? "") ?? 0) ?? options.pageSegmentation
    case "--fresh": fresh = true  // a new engine per image: what one `petlog expense scan` pays
    case "--text": printText = true
    case "--detect": detect = args.popFirst()
    case "--text-height": options.textHeight = Double(args.popFirst() ?? "")
    case "--osd-height": options.osdTextHeight = Double(args.popFirst() ?? "")
    case "--find-paper": options.findPaper = true
    case "--no-find-paper": options.findPaper = false
    case "--osd-characters": options.osdCharacters = Int(args.popFirst() ?? "")
    case "--trace": tracing = true
    case "--heights": heightsOnly = true
    case "--osd-only": osdOnly = true
    default: inputs.append(arg)
    }
}
var images: [String] = []
for input in inputs {
    var isDirectory: ObjCBool = false
    if FileManager.default.fileExists(atPath: input, isDirectory: &isDirectory), isDirectory.boolValue {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: input)) ?? []
        images += names.filter { [".jpg", ".jpeg", ".png"].contains(where: $0.lowercased().hasSuffix) }.sorted().map { input + "/" + $0 }
    } else {
        images.append(input)
    }
}

if heightsOnly {  // --heights: only the measured character height of each image
    for image in images {
        let t0 = ContinuousClock.now
        let h = try? OCREngine.textHeight(imageAt: image)
        print("\((image as NSString).lastPathComponent)\t\(h.flatMap { $0 }.map { String(format: "%.0f", $0) } ?? "-")\t\(ContinuousClock.now - t0)")
    }
    exit(0)
}
if osdOnly {  // --osd-only: orientation and script detection alone, with its time
    print("image\tms\trotation\torientation_confidence\tscript\tscript_confidence")
    for image in images {
        let t0 = ContinuousClock.now
        let layout = try? OCREngine.detectLayout(imageAt: image, options: options)
        let d = ContinuousClock.now - t0
        let ms = Double(d.components.seconds) * 1000 + Double(d.components.attoseconds) / 1e15
        print("\((image as NSString).lastPathComponent)\t\(String(format: "%.0f", ms))\t" + (layout.flatMap { $0 }.map {
            "\($0.rotation)\t\(String(format: "%.2f", $0.orientationConfidence))\t\($0.script ?? "-")\t\(String(format: "%.2f", $0.scriptConfidence))"
        } ?? "-\t-\t-\t-"))
    }
    exit(0)
}
let tesseractLanguage = ["ko": "kor+eng", "ja": "jpn+eng", "en": "eng"]
var engines: [String: OCREngine] = [:]
var totalMs = 0.0, cerSum = 0.0, cerCount = 0, totalsFound = 0, merchantsFound = 0, truths = 0
let clock = ContinuousClock()
print("image\tlang\tms\tcer\ttotal\tmerchant")
for image in images {
    let truth = Truth(json: (image as NSString).deletingPathExtension + ".json")
    let lang = language == "auto" ? tesseractLanguage[truth?.language ?? "en"] ?? "eng" : language
    var result: OCRResult? = nil
    var failure = ""
    let trace: OCRTrace? = tracing ? OCRTrace() : nil
    let elapsed = clock.measure {
        do {
            if let detect {
                result = try OCREngine.recognizeDetecting(imageAt: image, language: language == "auto" ? nil : language,
                                                          fallback: detect, options: options, trace: trace)
                return
            }
            let engine = try (fresh ? nil : engines[lang]) ?? OCREngine(language: lang)
            if !fresh { engines[lang] = engine }
            result = try engine.recognize(imageAt: image, options: options)
        } catch { failure = "\(error)" }
    }
    let ms = Double(elapsed.components.seconds) * 1000 + Double(elapsed.components.attoseconds) / 1e15
    totalMs += ms
    var row = "\((image as NSString).lastPathComponent)\t\(detect == nil ? lang : result?.language ?? "-")\t\(String(format: "%.0f", ms))"
    if let truth, let result {
        truths += 1
        let cer = Double(distance(squeezed(result.text), squeezed(truth.text))) / Double(max(1, squeezed(truth.text).count))
        cerSum += cer
        cerCount += 1
        let totalOK = result.lines.contains { $0.text.filter(\.isNumber).contains(truth.totalDigits) }
        let merchantOK = squeezed(result.text).map(String.init).joined().contains(String(squeezed(truth.merchant)))
        totalsFound += totalOK ? 1 : 0
        merchantsFound += merchantOK ? 1 : 0
        row += "\t\(String(format: "%.3f", cer))\t\(totalOK ? "yes" : "no")\t\(merchantOK ? "yes" : "no")"
    } else {
        row += "\t-\t-\t-"
    }
    if detect != nil, let result {
        row += "\t\(result.layout?.rotation ?? 0)°\t\(result.layout?.script ?? "-")\t\(result.measuredTextHeight.map { String(format: "%.0f", $0) } ?? "-")"
        row += String(format: "\t%.2f\t%.1f", result.scale, result.meanWordConfidence)
    }
    print(row + (failure.isEmpty ? "" : "\t\(failure)"))
    if let trace { print(trace.report) }
    if printText, let result { print(result.text) }
}
let n = max(images.count, 1)
print(String(format: "summary\timages %d\tms/image %.0f\tmean CER %.3f\ttotal read %d/%d\tmerchant read %d/%d",
             images.count, totalMs / Double(n), cerSum / Double(max(cerCount, 1)), totalsFound, truths, merchantsFound, truths))
