import Foundation

/// A line that names the amount to pay (`assets/receipt-words.json`, docs/receipts.md).
struct TotalLabel {
    let line: Int
    /// 3 the amount finally paid (`결제금액`, `ご請求額`, `AMOUNT DUE`), 2 a total (`합계`, `合計`, `TOTAL`), 1 weak (`BALANCE`).
    let strength: Int
    /// Where the label ends in the line's normalized characters: the amount stands after it.
    let end: Int

    /// Every line with a to-pay word and none of the words of money that is not the amount to pay
    /// (tendered, change, points, savings, tax, subtotal), with the strongest word on the line.
    static func candidates(_ lines: [ScannedLine]) -> [TotalLabel] {
        lines.enumerated().compactMap { i, line in
            ReceiptWords.toPay(line.normalized).map { TotalLabel(line: i, strength: $0.tier, end: $0.end) }
        }
    }

    /// Whether a line carries a word of the total or of its look-alikes: no item, no store name. With
    /// `wholeLatinWords` a Latin word counts only as a whole word (`Global Pets` has no `bal`).
    static func isLabel(_ line: ScannedLine, wholeLatinWords: Bool = false) -> Bool {
        let folded = ReceiptWords.folded(line.normalized)
        let words = ReceiptWords.labelWords
        guard wholeLatinWords else { return words.contains { folded.contains($0) } }
        let tokens = Set(line.normalized.split { $0.isWhitespace }.map { ReceiptWords.folded(String($0)).filter(\.isLetter) })
        // A word of five letters or more also begins a longer one (`totals`, `subtotal`); a short one must be the word.
        return words.contains { w in
            guard w.allSatisfy(\.isASCII) else { return folded.contains(w) }
            return tokens.contains { $0 == w || (w.count >= 5 && $0.hasPrefix(w)) }
        }
    }
}

extension ReceiptReading {
    /// The receipt's currency and what it was taken from: a mark beside the total, else the mark most
    /// amounts carry, else a currency sign or code standing anywhere on the receipt; without any mark the
    /// receipt's language (Korean won, Japanese yen), for English the cents of its amounts (the home
    /// currency when it has cents, else US dollars), else the home currency.
    static func detectCurrency(_ lines: [ScannedLine], totalLines: [Int], language: ReceiptLanguage,
                               home: Currency) -> (ReceiptField<Currency>, ReceiptCurrencyEvidence) {
        // OCR reads `₩` as `\` (Korean fonts draw the backslash as the won sign) or as `¥` (two bars): on a Korean
        // receipt it is won. Another currency's mark on a Korean or Japanese receipt counts only when its line was read
        // clearly, and is asked about (`(10354 £R )` read at 40 on a yen receipt is noise): else the language's currency.
        if language == .korean || language == .japanese {
            let own = language == .korean ? Currency.krw : (Currency.named("JPY") ?? home)
            let (field, evidence) = detectCurrency(lines, totalLines: totalLines, language: .english, home: home)
            if case .mark(let mark) = evidence {
                if field.value == own { return (field, evidence) }
                if language == .korean, mark == "\\" || mark == "¥" {
                    return (ReceiptField(value: .krw, confidence: field.confidence, source: field.source, unsure: field.unsure), evidence)
                }
                if field.confidence >= 70 {
                    return (ReceiptField(value: field.value, confidence: field.confidence, source: field.source, unsure: true), evidence)
                }
            }
            return (ReceiptField(value: own, confidence: 60, source: "", unsure: true), .language(language))
        }
        for i in totalLines {
            for j in [i, i + 1] where j < lines.count {
                if let run = lines[j].runs.last(where: { $0.marker != nil }), let c = run.marker {
                    return (lines[j].field(c, certainty: run.markerRepaired ? 0.8 : 1.0), .mark(run.markerText))
                }
            }
        }
        // code → (weight: 3 a clean mark, 1 a lookalike; any clean mark; line of the first mark)
        var counts: [String: (weight: Int, clean: Bool, line: Int, currency: Currency, text: String)] = [:]
        for (i, line) in lines.enumerated() {
            for run in line.runs {
                guard let c = run.marker else { continue }
                let prior = counts[c.code] ?? (0, false, i, c, run.markerText)
                counts[c.code] = (prior.weight + (run.markerRepaired ? 1 : 3), prior.clean || !run.markerRepaired, prior.line, c,
                                  prior.clean || run.markerRepaired ? prior.text : run.markerText)
            }
        }
        if let best = counts.values.max(by: { ($0.weight, -$0.line) < ($1.weight, -$1.line) }) {
            return (lines[best.line].field(best.currency, certainty: best.clean ? 0.9 : 0.7), .mark(best.text))
        }
        // A sign or a code on its own (`Amount in USD`, `(단위: ₩)`, `金額 (¥)`).
        for line in lines {
            let tokens = line.normalized.uppercased().split { !$0.isLetter }.map(String.init)
            for (mark, code) in NumberRun.standaloneMarks {
                let seen = mark.count == 1 ? line.normalized.contains(mark) : tokens.contains(mark)
                if seen, let c = Currency.named(code) { return (line.field(c, certainty: 0.8), .mark(mark)) }
            }
        }
        switch language {
        case .korean: return (ReceiptField(value: .krw, confidence: 60, source: "", unsure: true), .language(.korean))
        case .japanese:
            let yen = Currency.named("JPY") ?? home
            return (ReceiptField(value: yen, confidence: 60, source: "", unsure: true), .language(.japanese))
        case .english:
            if hasCents(lines) {
                let c = home.minorDigits == 2 ? home : (Currency.named("USD") ?? home)
                return (ReceiptField(value: c, confidence: 50, source: "", unsure: true), .cents)
            }
        }
        return (ReceiptField(value: home, confidence: 40, source: "", unsure: true), .home)
    }

    /// Whether the receipt's amounts are written with cents: most amounts end in `.` and two digits.
    static func hasCents(_ lines: [ScannedLine]) -> Bool {
        var cents = 0, whole = 0
        for line in lines {
            for run in line.runs where run.groups.joined().count >= 2 {
                if run.separators.last == ".", run.groups.last?.count == 2 { cents += 1 } else if !run.separators.isEmpty { whole += 1 }
            }
        }
        return cents > 0 && cents >= whole
    }

    /// The total: the amount on a line whose words mean "to pay" (never tendered, change, points, savings,
    /// tax or subtotal), after its label on the line or, the label alone, on the next line when that line
    /// is only an amount. Of several, the strongest word wins, a line in larger type (a bold or double-height
    /// total) counts as one step stronger, and among equals the last one (the amount after discounts).
    /// No to-pay line: the amount on a card line (`VISA ****1234 104.05`), marked unsure; never the largest number.
    static func readTotal(_ lines: [ScannedLine], candidates: [TotalLabel], currency: Currency,
                          notes: inout [ReceiptNote]) -> ReceiptField<Money>? {
        let typical = typicalHeight(lines)
        var best: (score: Int, index: Int, field: ReceiptField<Money>, repair: ReceiptNote?)?
        var totals: [(score: Int, index: Int, field: ReceiptField<Money>, repair: ReceiptNote?)] = []
        for label in candidates {
            let line = lines[label.line]
            var found: (ReceiptField<Money>, ReceiptNote?, height: Int)?
            var after = line.runs.filter { $0.range.lowerBound >= label.end && !$0.negative && !$0.isCount(in: line.chars) }
            // A bare digit or two after a grouped or marked amount is OCR's noise at the paper's edge (`合計 12,900   7`).
            if let last = after.last, after.count > 1, last.separators.isEmpty, last.marker == nil, last.groups.joined().count <= 2,
               after.dropLast().contains(where: { !$0.separators.isEmpty || $0.marker != nil }) {
                after.removeLast()
            }
            if let run = after.last, let (money, repaired) = run.money(in: currency), money.minorUnits > 0 {
                let certainty = (label.strength >= 2 ? 1.0 : 0.9) * (repaired ? 0.85 : 1.0)
                found = (line.field(money, certainty: certainty, unsure: label.strength < 2),
                         repaired ? .amountRepaired(read: line.text, as: money) : nil, line.height)
            } else if after.isEmpty, label.line + 1 < lines.count {
                // The label alone on its line: the amount is the next line, when that line is only an amount.
                let next = lines[label.line + 1]
                if let run = next.runs.first, next.runs.count == 1, !run.negative, isOnlyAmount(next, run),
                   let (money, repaired) = run.money(in: currency), money.minorUnits > 0 {
                    let certainty = (label.strength >= 2 ? 0.9 : 0.8) * (repaired ? 0.85 : 1.0)
                    let confidence = min(line.confidence, next.confidence) * certainty
                    found = (ReceiptField(value: money, confidence: (confidence * 10).rounded() / 10, source: line.text + "\n" + next.text,
                                          unsure: label.strength < 2),
                             repaired ? .amountRepaired(read: next.text, as: money) : nil, max(line.height, next.height))
                }
            }
            guard let (field, repair, height) = found else { continue }
            let large = typical > 0 && Double(height) >= typical * 1.3
            totals.append((label.strength + (large ? 1 : 0), label.line, field, repair))
        }
        // A total before a discount that another total follows is the amount before the discount.
        let discounts = lines.indices.filter { i in
            lines[i].runs.contains(where: \.negative) || (ReceiptWords.isDiscount(ReceiptWords.folded(lines[i].normalized)) && !lines[i].runs.isEmpty)
        }
        for k in totals.indices where discounts.contains(where: { d in d > totals[k].index && totals.contains { $0.index > d } }) {
            totals[k].score -= 3
        }
        for candidate in totals where candidate.score >= (best?.score ?? Int.min) { best = candidate }
        // The last total stands before discounts and no to-pay line follows them (OCR garbled its label): the total
        // less the discounts, when that amount is printed after them.
        if let chosen = best, chosen.index == totals.map(\.index).max() {
            let after = discounts.filter { $0 > chosen.index }
            let cut = after.compactMap { lines[$0].runs.first(where: \.negative)?.money(in: currency)?.0.minorUnits }.reduce(Int64(0), +)
            let net = chosen.field.value.minorUnits - cut
            if cut > 0, net > 0, let last = after.max() {
                if let k = lines.indices.first(where: { $0 > last && lines[$0].runs.contains { !$0.negative && $0.money(in: currency)?.0.minorUnits == net } }) {
                    return lines[k].field(Money(minorUnits: net, currency: currency), certainty: 0.7, unsure: true)
                }
                // Not printed where OCR could read it: still the total less the discounts named as such, less sure.
                if after.allSatisfy({ ReceiptWords.isDiscount(ReceiptWords.folded(lines[$0].normalized)) }) {
                    return lines[last].field(Money(minorUnits: net, currency: currency), certainty: 0.5, unsure: true)
                }
            }
        }
        if let best {
            if let repair = best.repair { notes.append(repair) }
            return best.field
        }
        // No to-pay line (OCR lost its label): cash handed over less the change, when that amount is printed.
        if let paid = tenderedLessChange(lines, currency: currency) { return paid }
        if let sum = arithmeticTotal(lines, currency: currency) { return sum }
        // A card pays exactly the total.
        for line in lines where hasWord(cardLatin, in: line.normalized.lowercased()) || cardWords.contains(where: { line.compact.contains($0) }) {
            guard !ReceiptWords.isNotToPay(ReceiptWords.folded(line.normalized)), let run = line.runs.last, !run.negative,
                  run.marker != nil || !run.separators.isEmpty, isOnlyAmountTail(line, run) else { continue }
            let before = run.range.lowerBound > 0 ? line.chars[run.range.lowerBound - 1] : " "
            guard !"-*xX".contains(before), let (money, repaired) = run.money(in: currency), money.minorUnits > 0 else { continue }
            if repaired { notes.append(.amountRepaired(read: line.text, as: money)) }
            return line.field(money, certainty: 0.6, unsure: true)
        }
        // An amount alone on its line in type larger than the rest (or beside a label OCR garbled to a few
        // letters, `lia $104.05`): how receipts print the total.
        for line in lines where typical > 0 && Double(line.height) >= typical * 1.4 {
            guard let run = line.runs.last, !run.negative, run.marker != nil || !run.separators.isEmpty,
                  isOnlyAmount(line, run) || (line.normalized.filter(\.isLetter).count <= 4 && isOnlyAmountTail(line, run)),
                  !ReceiptWords.isNotToPay(ReceiptWords.folded(line.normalized)),
                  let (money, _) = run.money(in: currency), money.minorUnits > 0 else { continue }
            return line.field(money, certainty: 0.5, unsure: true)
        }
        return nil
    }

    /// Below the subtotal, a line whose amount the others make: the subtotal plus the tax after it
    /// (`小計 ¥44,000`, `消費税 ¥4,400`, `¥48,400`), or handed over less the change on the next two lines
    /// (`¥48,400`, `¥49,000`, `¥600`), their labels garbled by OCR.
    static func arithmeticTotal(_ lines: [ScannedLine], currency: Currency) -> ReceiptField<Money>? {
        func amount(_ i: Int) -> Int64? {
            guard let run = lines[i].runs.last, !run.negative, let (m, _) = run.money(in: currency), m.minorUnits > 0 else { return nil }
            return m.minorUnits
        }
        let folded = lines.map { ReceiptWords.folded($0.normalized) }
        let subtotalWords = ["소계", "小計", "小言十", "subtota", "sub-tota"].map(ReceiptWords.folded)
        let taxWords = ["부가세", "消費税", "tax", "vat", "gst"].map(ReceiptWords.folded)
        // The subtotal: its word, else the first amount that is the sum of the two or more amounts right above it.
        let bySum = lines.indices.first { k in
            guard let a = amount(k) else { return false }
            var total: Int64 = 0, n = 0
            for j in stride(from: k - 1, through: 0, by: -1) {
                guard let b = amount(j) else { break }
                total += b; n += 1
                if total == a && n >= 2 { return true }
                if total > a { break }
            }
            return false
        }
        guard let s = lines.indices.first(where: { i in subtotalWords.contains { folded[i].contains($0) } }) ?? bySum, let subtotal = amount(s) else { return nil }
        var sum = subtotal
        // The first amount after it a little larger (the tax added), when its line's label is no other money's.
        let cashWords = ["cash", "현금", "現金", "카드", "カード", "card", "visa"]
        let nextLarger = ((s + 1)..<lines.count).first { i in
            guard let a = amount(i), !ReceiptWords.isNotToPay(folded[i]), !cashWords.contains(where: { folded[i].contains($0) }) else { return false }
            return a > subtotal && a * 4 <= subtotal * 5
        }
        for i in (s + 1)..<lines.count {
            if taxWords.contains(where: { folded[i].contains($0) }), !folded[i].contains("内"), !folded[i].contains("incl"), let tax = amount(i) { sum += tax; continue }
            guard !ReceiptWords.isNotToPay(folded[i]), let a = amount(i) else { continue }
            let tender = i + 2 < lines.count ? (amount(i + 1), amount(i + 2)) : (nil, nil)
            let tendered = tender.0.flatMap { given in tender.1.map { given - $0 } }
            if a == sum || tendered == a {
                return lines[i].field(Money(minorUnits: a, currency: currency), certainty: 0.6, unsure: true)
            }
        }
        if let i = nextLarger, let a = amount(i) { return lines[i].field(Money(minorUnits: a, currency: currency), certainty: 0.4, unsure: true) }
        return nil
    }

    /// Money handed over (`CASH 120.00`, `받은금액 60,000`, `お預り ¥2,000`) less the change on a line after
    /// it (`CHANGE 25.00`), when that difference is printed elsewhere on the receipt (the total whose label OCR lost),
    /// or when the subtotal above them makes it too, with the tax added after it or less the discounts (`小計 7,734`,
    /// `消費税 773`, `お預り 9,000`, `お釣り 493`: the total line read as `CaN`): two sums that agree.
    static func tenderedLessChange(_ lines: [ScannedLine], currency: Currency) -> ReceiptField<Money>? {
        func amount(_ line: ScannedLine) -> Money? {
            guard let run = line.runs.last, !run.negative, let (m, _) = run.money(in: currency) else { return nil }
            return m
        }
        let changeWords = ["거스름", "잔돈", "お釣", "おつり", "釣銭", "change", "chg"]
        let handed = ["받은금액", "받은돈", "현금", "お預", "預り", "預かり", "現金", "tendered", "cash"]
        for (i, line) in lines.enumerated() where handed.contains(where: { line.compact.contains($0) }) {
            guard let given = amount(line), given.minorUnits > 0 else { continue }
            for j in (i + 1)..<min(lines.count, i + 3) where changeWords.contains(where: { lines[j].compact.contains($0) }) {
                guard let back = amount(lines[j]), back.minorUnits < given.minorUnits else { continue }
                let paid = given.minorUnits - back.minorUnits
                let printed = lines.enumerated().contains { k, other in
                    k != i && k != j && other.runs.contains { $0.money(in: currency)?.0.minorUnits == paid }
                }
                guard printed || subtotalMakes(paid, lines: lines, before: i, currency: currency) else { continue }
                let confidence = min(line.confidence, lines[j].confidence) * 0.8
                return ReceiptField(value: Money(minorUnits: paid, currency: currency), confidence: (confidence * 10).rounded() / 10,
                                    source: line.text + "\n" + lines[j].text, unsure: true)
            }
        }
        return nil
    }

    /// Whether the subtotal above line `before` (`소계`, `小計`, `SUBTOTAL`), plus the tax lines between them that add
    /// tax (not `内消費税`, `incl. VAT`), less the discounts between them, or the subtotal alone, is `amount`.
    static func subtotalMakes(_ amount: Int64, lines: [ScannedLine], before: Int, currency: Currency) -> Bool {
        func last(_ i: Int) -> NumberRun? { lines[i].runs.last }
        let subtotalWords = ["소계", "小計", "小言十", "subtota", "sub-tota"].map(ReceiptWords.folded)
        let taxWords = ["부가세", "消費税", "tax", "vat", "gst"].map(ReceiptWords.folded)
        guard let s = (0..<before).last(where: { i in subtotalWords.contains { ReceiptWords.folded(lines[i].normalized).contains($0) } }),
              let run = last(s), !run.negative, let subtotal = run.money(in: currency)?.0.minorUnits, subtotal > 0 else { return false }
        var tax: Int64 = 0, discount: Int64 = 0
        for i in (s + 1)..<before {
            let folded = ReceiptWords.folded(lines[i].normalized)
            guard let run = last(i), let m = run.money(in: currency)?.0.minorUnits else { continue }
            if run.negative || ReceiptWords.isDiscount(folded) { discount += m } else if taxWords.contains(where: { folded.contains($0) }),
                !folded.contains("内"), !folded.contains("incl") { tax += m }
        }
        return [subtotal, subtotal + tax, subtotal - discount, subtotal - discount + tax].contains(amount)
    }

    /// The median height of the lines' boxes (0 without lines): what "larger type" is measured against.
    static func typicalHeight(_ lines: [ScannedLine]) -> Double {
        let heights = lines.map(\.height).filter { $0 > 0 }.sorted()
        guard !heights.isEmpty else { return 0 }
        return Double(heights[heights.count / 2])
    }

    /// Whether a line holds nothing but one amount and its currency marks.
    static func isOnlyAmount(_ line: ScannedLine, _ run: NumberRun) -> Bool {
        var rest = line.chars
        rest.removeSubrange(run.range)
        let text = String(rest).replacingOccurrences(of: "KRW", with: "").replacingOccurrences(of: "JPY", with: "")
            .replacingOccurrences(of: "USD", with: "")
        return text.allSatisfy { !$0.isLetter || "원円W".contains($0) }
    }
}
