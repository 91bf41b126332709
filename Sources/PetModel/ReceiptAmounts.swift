import Foundation

/// Digits as OCR prints them on a receipt line: groups of digits (or the letters OCR mistakes for
/// them: `O o` for 0, `l I` for 1) joined by `,` or `.`, with the currency marks on either side.
struct NumberRun: Equatable {
    /// Digit groups, lookalike letters already turned into digits.
    var groups: [String]
    /// The separator before each group after the first.
    var separators: [Character]
    /// Character offsets of the run in the normalized line.
    var range: Range<Int>
    /// A lookalike letter or a space inside the number was repaired.
    var repairedDigits: Bool
    /// A currency named right before or after the number (`₩`, `W`, `¥`, `\`, `$`, `원`, `円`, an ISO code).
    var marker: Currency?
    /// The currency mark was a lookalike (`W` for `₩`, `\` for `¥`).
    var markerRepaired: Bool
    /// A minus sign stands right before the number (a discount).
    var negative: Bool

    static let lookalikes: [Character: Character] = ["O": "0", "o": "0", "l": "1", "I": "1"]

    static func isDigitLike(_ c: Character) -> Bool { c.asciiDigit != nil || lookalikes[c] != nil }
    static func isASCIILetter(_ c: Character) -> Bool { c.isASCII && c.isLetter }

    /// Every number run in a line, left to right.
    static func scan(_ chars: [Character]) -> [NumberRun] {
        var runs: [NumberRun] = []
        var i = 0
        while i < chars.count {
            guard isDigitLike(chars[i]) else { i += 1; continue }
            var groups: [[Character]] = [[]]
            var seps: [Character] = []
            var spaced = false
            var k = i
            while k < chars.count {
                let c = chars[k]
                if isDigitLike(c) { groups[groups.count - 1].append(c); k += 1; continue }
                // A separator, maybe with spaces around it when a group of three follows (`12, 000`).
                var m = k
                while m < chars.count, chars[m] == " " { m += 1 }
                guard m < chars.count, chars[m] == "," || chars[m] == "." else { break }
                var p = m + 1
                while p < chars.count, chars[p] == " " { p += 1 }
                let next = chars[p...].prefix { isDigitLike($0) }
                guard !next.isEmpty else { break }
                if p - m - 1 > 0 || m > k {
                    guard next.count == 3 else { break }
                    spaced = true
                }
                seps.append(chars[m])
                groups.append([])
                k = p
            }
            var start = i, end = k
            // Lookalike letters at the edges belong to a word (`Total12`), not to the number.
            if start > 0, isASCIILetter(chars[start - 1]) { while start < end, chars[start].asciiDigit == nil, lookalikes[chars[start]] != nil { start += 1 } }
            if end < chars.count, isASCIILetter(chars[end]) { while end > start, chars[end - 1].asciiDigit == nil, lookalikes[chars[end - 1]] != nil { end -= 1 } }
            if start != i || end != k {
                // Rescan the trimmed span so groups and separators stay consistent.
                if start < end, let inner = scan(Array(chars[start..<end])).first, inner.range == 0..<(end - start) {
                    runs.append(finish(inner, offset: start, chars: chars))
                }
                i = max(k, i + 1)
                continue
            }
            let text = groups.map { String($0) }
            guard text.joined().contains(where: { $0.asciiDigit != nil }), !text.contains(where: \.isEmpty) else { i = k; continue }
            let repaired = spaced || text.joined().contains { lookalikes[$0] != nil }
            let run = NumberRun(groups: text.map { String($0.map { lookalikes[$0] ?? $0 }) }, separators: seps, range: start..<end,
                                repairedDigits: repaired, marker: nil, markerRepaired: false, negative: false)
            runs.append(finish(run, offset: 0, chars: chars))
            i = k
        }
        return runs
    }

    /// Shifts a run found in a slice to line offsets and reads the marks around it.
    static func finish(_ run: NumberRun, offset: Int, chars: [Character]) -> NumberRun {
        var r = run
        r.range = (run.range.lowerBound + offset)..<(run.range.upperBound + offset)
        var before = r.range.lowerBound - 1
        while before >= 0, chars[before] == " " { before -= 1 }
        if before >= 0, chars[before] == "-" || chars[before] == "−" { r.negative = true; before -= 1 }
        while before >= 0, chars[before] == " " { before -= 1 }
        if before >= 0 {
            let c = chars[before]
            let wordBefore = before > 0 && isASCIILetter(chars[before - 1])
            switch c {
            case "₩": r.marker = .krw
            case "¥": r.marker = Currency.named("JPY")
            case "$": r.marker = Currency.named("USD")
            case "W" where !wordBefore: r.marker = .krw; r.markerRepaired = true
            case "\\": r.marker = Currency.named("JPY"); r.markerRepaired = true
            default:
                let word = String(chars[max(0, before - 2)...before]).uppercased()
                if ["KRW", "JPY", "USD"].contains(word), before < 3 || !isASCIILetter(chars[before - 3]) { r.marker = Currency.named(word) }
            }
        }
        var after = r.range.upperBound
        while after < chars.count, chars[after] == " " { after += 1 }
        if r.marker == nil, after < chars.count {
            switch chars[after] {
            case "원": r.marker = .krw
            case "円": r.marker = Currency.named("JPY")
            default:
                let word = String(chars[after..<min(chars.count, after + 3)]).uppercased()
                if ["KRW", "JPY", "USD"].contains(word), after + 3 >= chars.count || !isASCIILetter(chars[after + 3]) {
                    r.marker = Currency.named(word)
                }
            }
        }
        return r
    }

    /// Words after a number that make it a count, not money: `3개월` (instalments), `2点`, `8%`.
    static let countWords: Set<String> = quantityWords.union(["개월", "回", "%", "kg", "g", "ml", "l"])
    /// Words after an item's quantity (`1点`, `2개`); sizes such as `2kg` belong to the name.
    static let quantityWords: Set<String> = ["개", "점", "ea", "pcs", "pc", "点", "個"]

    /// Whether a count word follows the number (`합계 49,000 (3개월)`: the 3 is no amount).
    func isCount(in chars: [Character]) -> Bool {
        guard marker == nil else { return false }
        var k = range.upperBound
        while k < chars.count, chars[k] == " " { k += 1 }
        let word = String(chars[k...].prefix { $0.isLetter || $0 == "%" }).lowercased()
        return NumberRun.countWords.contains(word)
    }

    /// The amount this run is in `currency`, and whether reading it needed a repair; nil when the
    /// digits cannot be an amount there (`2.5` in won, `1,2345`).
    func money(in currency: Currency) -> (Money, repaired: Bool)? {
        let decimalComma = MoneyText.decimalCommaCurrencies.contains(currency.code)
        let decimalSep: Character = decimalComma ? "," : "."
        var groups = groups
        var seps = separators
        var fraction = ""
        var repaired = repairedDigits
        if currency.minorDigits > 0, let last = seps.last, let tail = groups.last, (1...currency.minorDigits).contains(tail.count) {
            // `12.50`; in dollars `12,50` is a misread `12.50` (groupings have three digits).
            if last != decimalSep { repaired = true }
            fraction = tail
            groups.removeLast()
            seps.removeLast()
        }
        guard let head = groups.first, !head.isEmpty else { return nil }
        if !seps.isEmpty {
            guard head.count <= 3, groups.dropFirst().allSatisfy({ $0.count == 3 }) else { return nil }
            // A dot grouping thousands in won or yen (`12.000`) is OCR reading a comma.
            if seps.contains(where: { $0 == decimalSep }) { repaired = true }
        }
        let digits = groups.joined()
        guard digits.count <= 13 else { return nil }
        guard let m = try? Money.parse(fraction.isEmpty ? digits : digits + "." + fraction, defaultCurrency: currency) else { return nil }
        return (m, repaired || markerRepaired)
    }
}

/// A line that names the total (or a near relative that is not it).
struct TotalLabel {
    let line: Int
    let strength: Int
    /// Where the label ends in the line's normalized characters: the amount stands after it.
    let end: Int

    /// Labels of the amount paid, strongest first within each language; text is matched lowercased
    /// without spaces. `받은금액`, `お預り`, `cash tendered` and `change` are money handed over and
    /// back, `소계`, `小計`, `subtotal` and taxes parts of the total: a line with one of those is never
    /// the total.
    static let labels: [(String, Int)] = [
        ("결제금액", 6), ("승인금액", 6), ("청구금액", 6), ("받을금액", 5), ("총금액", 5), ("총액", 5), ("합계금액", 5), ("판매금액", 4), ("합계", 4),
        ("税込合計", 6), ("ご請求額", 6), ("ご請求金額", 6), ("ご利用金額", 6), ("総合計", 6), ("お支払金額", 5), ("お支払い金額", 5), ("お支払額", 5),
        ("お支払い", 4), ("お支払", 4), ("お会計", 5), ("合計", 4),
        ("amountdue", 6), ("t0tal", 4), ("grandtotal", 6), ("totaldue", 6), ("balancedue", 5), ("total", 4), ("balance", 3),
    ]
    static let notTotal: [String] = [
        "받은금액", "받은돈", "거스름", "잔돈", "소계", "부가세", "과세", "면세", "공급가", "할인", "수량", "포인트",
        "お預り", "お預かり", "預り", "お釣", "おつり", "釣銭", "小計", "消費税", "内税", "外税", "対象", "点数", "値引", "割引", "ポイント",
        "subtotal", "sub-total", "tax", "tendered", "change", "saving", "discount", "items", "qty", "points",
    ]

    /// Every line with a total label, strongest label on the line.
    static func candidates(_ lines: [ScannedLine]) -> [TotalLabel] {
        lines.enumerated().compactMap { i, line in
            let lower = line.normalized.lowercased()
            let compact = line.compact
            guard !notTotal.contains(where: { compact.contains($0) }) else { return nil }
            // `total` must stand as a word, not in `subtotal`, which `notTotal` already took.
            guard let (label, strength) = labels.first(where: { compact.contains($0.0) }) else { return nil }
            return TotalLabel(line: i, strength: strength, end: labelEnd(label, in: lower))
        }
    }

    /// The character offset right after `label` in `text`, spaces allowed between its letters.
    static func labelEnd(_ label: String, in text: String) -> Int {
        let chars = Array(text)
        let wanted = Array(label)
        for start in chars.indices {
            var k = start, j = 0
            while k < chars.count, j < wanted.count {
                if chars[k] == wanted[j] { j += 1; k += 1 } else if chars[k] == " " && j > 0 { k += 1 } else { break }
            }
            if j == wanted.count { return k }
        }
        return 0
    }
}

extension ReceiptReading {
    /// The receipt's currency: a mark beside the total, else the mark most lines carry, else the
    /// language's (Korean won, Japanese yen), else the home currency; the last two come with a note.
    static func detectCurrency(_ lines: [ScannedLine], totalLines: [Int], language: ReceiptLanguage,
                               home: Currency) -> (ReceiptField<Currency>, ReceiptNote?) {
        for i in totalLines {
            for j in [i, i + 1] where j < lines.count {
                if let run = lines[j].runs.last(where: { $0.marker != nil }), let c = run.marker {
                    return (lines[j].field(c, certainty: run.markerRepaired ? 0.8 : 1.0), nil)
                }
            }
        }
        // code → (weight: 3 a clean mark, 1 a lookalike; any clean mark; line of the first mark)
        var counts: [String: (weight: Int, clean: Bool, line: Int, currency: Currency)] = [:]
        for (i, line) in lines.enumerated() {
            for run in line.runs {
                guard let c = run.marker else { continue }
                let prior = counts[c.code] ?? (0, false, i, c)
                counts[c.code] = (prior.weight + (run.markerRepaired ? 1 : 3), prior.clean || !run.markerRepaired, prior.line, c)
            }
        }
        if let best = counts.values.max(by: { ($0.weight, -$0.line) < ($1.weight, -$1.line) }) {
            return (lines[best.line].field(best.currency, certainty: best.clean ? 0.9 : 0.7), nil)
        }
        let byLanguage: Currency? = switch language {
        case .korean: .krw
        case .japanese: Currency.named("JPY")
        case .english: nil
        }
        if let byLanguage { return (ReceiptField(value: byLanguage, confidence: 60, source: ""), .currencyAssumed(byLanguage, because: language)) }
        return (ReceiptField(value: home, confidence: 40, source: ""), .currencyAssumed(home, because: nil))
    }

    /// The labelled total: the strongest label wins (the first line among equals), its amount the
    /// last one after the label on its line, or the first on the next line when the label stands
    /// alone. No label, no total: never the largest number.
    static func readTotal(_ lines: [ScannedLine], candidates: [TotalLabel], currency: Currency,
                          notes: inout [ReceiptNote]) -> ReceiptField<Money>? {
        let ordered = candidates.enumerated().sorted { ($0.element.strength, -$0.offset) > ($1.element.strength, -$1.offset) }.map(\.element)
        for label in ordered {
            let line = lines[label.line]
            let after = line.runs.filter { $0.range.lowerBound >= label.end && !$0.negative && !$0.isCount(in: line.chars) }
            if let run = after.last, let (money, repaired) = run.money(in: currency), money.minorUnits > 0 {
                if repaired { notes.append(.amountRepaired(read: line.text, as: money)) }
                let certainty = (label.strength >= 4 ? 1.0 : 0.9) * (repaired ? 0.85 : 1.0)
                return line.field(money, certainty: certainty)
            }
            // The label alone on its line: the amount is the next line, when that line is only an amount.
            guard after.isEmpty, label.line + 1 < lines.count else { continue }
            let next = lines[label.line + 1]
            guard let run = next.runs.first, next.runs.count == 1, !run.negative, isOnlyAmount(next, run),
                  let (money, repaired) = run.money(in: currency), money.minorUnits > 0 else { continue }
            if repaired { notes.append(.amountRepaired(read: next.text, as: money)) }
            let certainty = (label.strength >= 4 ? 0.9 : 0.8) * (repaired ? 0.85 : 1.0)
            let confidence = min(line.confidence, next.confidence) * certainty
            return ReceiptField(value: money, confidence: (confidence * 10).rounded() / 10, source: line.text + "\n" + next.text)
        }
        return nil
    }

    /// Whether a line holds nothing but one amount and its currency marks.
    static func isOnlyAmount(_ line: ScannedLine, _ run: NumberRun) -> Bool {
        var rest = line.chars
        rest.removeSubrange(run.range)
        let text = String(rest).replacingOccurrences(of: "KRW", with: "").replacingOccurrences(of: "JPY", with: "")
            .replacingOccurrences(of: "USD", with: "")
        return text.allSatisfy { !$0.isLetter || "원円W".contains($0) }
    }

    /// Items: lines before the total that are a name followed by a price (`로얄캐닌 2kg 1 32,000 32,000`
    /// gives `로얄캐닌 2kg` at 32,000). Lines that are labels, dates, phone numbers or the merchant are not items.
    static func readItems(_ lines: [ScannedLine], merchantLine: Int?, totalLine: Int?,
                          currency: Currency) -> [ReceiptField<ReceiptItem>] {
        var items: [ReceiptField<ReceiptItem>] = []
        for (i, line) in lines.enumerated() where i < (totalLine ?? lines.count) && i != merchantLine {
            guard let run = line.runs.last, !run.negative, run.range.upperBound >= line.chars.count - 2 || isOnlyAmountTail(line, run),
                  let (price, repaired) = run.money(in: currency), price.minorUnits > 0 else { continue }
            guard !isLabelLine(line) else { continue }
            // The name is the text before the trailing numbers (quantity, unit price, price).
            var cut = run.range.lowerBound
            for earlier in line.runs.reversed() where earlier.range.upperBound <= cut {
                let between = String(line.chars[earlier.range.upperBound..<cut])
                let word = between.trimmingCharacters(in: CharacterSet(charactersIn: " ₩$¥\\")).lowercased()
                guard between.allSatisfy({ " x×@*".contains($0) || "원円₩$¥W".contains($0) }) || NumberRun.quantityWords.contains(word) else { break }
                cut = earlier.range.lowerBound
            }
            var name = String(line.chars[..<cut]).trimmingCharacters(in: .whitespaces)
            // The currency mark before the price, also as OCR reads it (`W15,000`, `\\3,500`).
            if run.marker != nil, let last = name.last, "₩$¥\\".contains(last) || (last == "W" && name.dropLast().last == " ") { name.removeLast() }
            // Quantity marks left before the numbers (`개껌 x2`, `2 @ 12.99`); an `x` only standing alone (`Rex` stays).
            while let last = name.last, " \t×@*※:.-·•".contains(last) || ((last == "x" || last == "X") && name.dropLast().last == " ") {
                name.removeLast()
            }
            name = itemName(name)
            guard name.filter(\.isLetter).count >= 2 else { continue }
            items.append(line.field(ReceiptItem(name: name, price: price), certainty: repaired ? 0.6 : 0.7))
        }
        return items
    }

    /// An item's name without the marks printers put between it and the price: a reduced-tax `軽`
    /// or `※`, and a barcode with its tax flag (`PURINA ONE 012345678901 F` → `PURINA ONE`).
    static func itemName(_ raw: String) -> String {
        var words = raw.split(separator: " ").map(String.init)
        func isBarcode(_ w: String) -> Bool { w.count >= 6 && w.allSatisfy { $0.asciiDigit != nil } }
        while let last = words.last {
            if ["軽", "※", "*", "**"].contains(last) || isBarcode(last) {
                words.removeLast()
            } else if last.count == 1, last.first.map(NumberRun.isASCIILetter) == true, words.count >= 2, isBarcode(words[words.count - 2]) {
                words.removeLast()
            } else {
                break
            }
        }
        return ReceiptSpacing.tidy(words.joined(separator: " ").trimmingCharacters(in: CharacterSet(charactersIn: " *※:.-·•")))
    }

    static func isOnlyAmountTail(_ line: ScannedLine, _ run: NumberRun) -> Bool {
        String(line.chars[run.range.upperBound...]).allSatisfy { $0 == " " || "원円₩$¥".contains($0) }
    }

    /// A line that carries a label of some other field: totals, taxes, tendered, payment, dates, numbers.
    static func isLabelLine(_ line: ScannedLine) -> Bool {
        let compact = line.compact
        if TotalLabel.labels.contains(where: { compact.contains($0.0) }) || TotalLabel.notTotal.contains(where: { compact.contains($0) }) { return true }
        let others = ["카드", "신용", "체크", "현금", "승인", "할부", "가맹", "사업자", "전화", "tel", "クレジット", "カード", "現金", "承認",
                      "電話", "登録番号", "일시", "日時", "번호", "番号", "レジ", "#", "visa", "master", "amex", "card", "cash", "debit", "credit", "approval", "auth", "phone"]
        if others.contains(where: { compact.contains($0) }) || hasWord(["pos"], in: line.normalized.lowercased()) { return true }
        return firstDate(line) != nil || readTime(line) != nil || isPhone(line.normalized) || isAddress(line.normalized) || isBusinessNumber(line.normalized)
    }
}
