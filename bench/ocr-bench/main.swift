// ocr-bench: OCREngine over receipt images; per image the milliseconds and, when a ground-truth
// JSON sits beside the image, the character error rate and whether the total and merchant were read.
// usage: ocr-bench [--lang auto|kor+eng|…] [--no-deskew] [--binarize none|otsuAdaptive|sauvola]
//                  [--psm 3|4|6|11] [--fresh] [--text] IMAGE|FOLDER…
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

var language = "auto", options = OCROptions(), fresh = false, printText = false
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
    let elapsed = clock.measure {
        do {
            let engine = try (fresh ? nil : engines[lang]) ?? OCREngine(language: lang)
            if !fresh { engines[lang] = engine }
            result = try engine.recognize(imageAt: image, options: options)
        } catch { failure = "\(error)" }
    }
    let ms = Double(elapsed.components.seconds) * 1000 + Double(elapsed.components.attoseconds) / 1e15
    totalMs += ms
    var row = "\((image as NSString).lastPathComponent)\t\(lang)\t\(String(format: "%.0f", ms))"
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
    print(row + (failure.isEmpty ? "" : "\t\(failure)"))
    if printText, let result { print(result.text) }
}
let n = max(images.count, 1)
print(String(format: "summary\timages %d\tms/image %.0f\tmean CER %.3f\ttotal read %d/%d\tmerchant read %d/%d",
             images.count, totalMs / Double(n), cerSum / Double(max(cerCount, 1)), totalsFound, truths, merchantsFound, truths))
