import Foundation

/// What makes a field read from a receipt sure (issue 45: a wrong field is never taken silently). A value the rest
/// of the receipt confirms stays as read; one nothing confirms, or that OCR read badly, is marked unsure, so the
/// proposal asks about it (docs/receipts.md, "Unsure").
extension ReceiptReading {
    /// Words of a tax line (`부가세 4,673`, `消費税 ¥880`, `SALES TAX 5.92`): with the amount before tax they make the total.
    static let taxWords = ["부가세", "부가가치세", "세액", "消費税", "税額", "tax", "vat", "gst"]
    /// Words of the change given back: the cash handed over less it is the total.
    static let changeWords = ["거스름", "잔돈", "お釣", "おつり", "釣銭", "change", "chg"]

    /// Whether the receipt says the total a second way: the same amount printed on another line (a card slip,
    /// `CASH 104.05`, 결제금액 under 받을금액); an amount before tax plus the tax; the cash handed over less the
    /// change, or an amount less a discount; or, when nothing is discounted, the items' prices (plus the tax).
    static func totalConfirmed(_ total: ReceiptField<Money>, lines: [ScannedLine], items: [ReceiptField<ReceiptItem>],
                               currency: Currency) -> Bool {
        let sources = Set(total.source.split(separator: "\n").map(String.init))
        let t = total.value.minorUnits
        struct Amount { let line: Int, minor: Int64, negative: Bool, tax: Bool, change: Bool, discount: Bool }
        var amounts: [Amount] = []
        for (i, line) in lines.enumerated() where !sources.contains(line.text) {
            let lower = line.normalized.lowercased()
            let tax = taxWords.contains { line.compact.contains($0) }
            let change = changeWords.contains { w in w.allSatisfy(\.isASCII) ? hasWord([w], in: lower) : line.compact.contains(w) }
            let discount = ReceiptWords.isDiscount(ReceiptWords.folded(line.normalized))
            for run in line.runs {
                // In a currency with cents an amount is printed with them or a mark (`£287.00`): a bare `4` (of `4:23 pm`) says nothing.
                guard let (m, _) = run.money(in: currency), m.minorUnits > 0,
                      currency.minorDigits == 0 || run.marker != nil || (run.separators.last.map { $0 == "." || $0 == "," } == true
                          && run.groups.last?.count == currency.minorDigits) else { continue }
                amounts.append(Amount(line: i, minor: m.minorUnits, negative: run.negative, tax: tax, change: change, discount: discount))
            }
        }
        if amounts.contains(where: { $0.minor == t && !$0.negative && !$0.tax && !$0.change }) { return true }
        for a in amounts where !a.negative && !a.tax && !a.change {
            for b in amounts where b.line != a.line {
                if b.tax, a.minor + b.minor == t { return true }
                if b.change || b.negative || b.discount, b.line > a.line, a.minor - b.minor == t { return true }
            }
        }
        let discounted = amounts.contains { $0.negative || $0.discount }
        if !discounted, items.count >= 2 {
            let sum = items.reduce(Int64(0)) { $0 &+ $1.value.price.minorUnits }
            if sum == t || amounts.contains(where: { $0.tax && sum + $0.minor == t }) { return true }
        }
        return false
    }
}

extension ReceiptReading {
    /// Whether the receipt's own arithmetic says another total: the amount above the first discount (a subtotal or
    /// a total before the discount, `お買上小計 558円` `値引 -50円`) less the discounts down to the total is not the
    /// total read (nor that plus a tax added after): one of them was misread (`合計 568円` for 508).
    static func totalContradicted(_ total: ReceiptField<Money>, lines: [ScannedLine], currency: Currency) -> Bool {
        let sources = Set(total.source.split(separator: "\n").map(String.init))
        guard let k = lines.firstIndex(where: { sources.contains($0.text) }) else { return false }
        func amount(_ line: ScannedLine) -> Int64? {
            guard let run = line.runs.last, !run.negative, let (m, _) = run.money(in: currency), m.minorUnits > 0 else { return nil }
            return m.minorUnits
        }
        let discounts = (0..<k).filter { lines[$0].runs.contains(where: \.negative) }
        guard let first = discounts.first, first > 0,
              let s = stride(from: first - 1, through: 0, by: -1).first(where: { amount(lines[$0]) != nil }),
              let before = amount(lines[s]) else { return false }
        let folded = ReceiptWords.folded(lines[s].normalized)
        let subtotalWords = ["소계", "小計", "subtota", "sub-tota"].map(ReceiptWords.folded)
        guard subtotalWords.contains(where: { folded.contains($0) }) || ReceiptWords.toPay(lines[s].normalized) != nil else { return false }
        let cut = discounts.compactMap { lines[$0].runs.first(where: \.negative)?.money(in: currency)?.0.minorUnits }.reduce(Int64(0), +)
        let expected = before - cut
        if total.value.minorUnits == expected { return false }
        let taxes = ((first + 1)..<k).filter { i in
            taxWords.contains { lines[i].compact.contains($0) } && !lines[i].compact.contains("内") && !lines[i].compact.contains("incl")
        }.compactMap { amount(lines[$0]) }
        return !taxes.contains { expected + $0 == total.value.minorUnits }
    }

    /// Whether the cash handed over less the change printed after it is another amount than the total read
    /// (`税込合計 ¥3,856`, `お預り 5,000`, `お釣り 1,150`: one of them was misread). Cash paid in full gives the total.
    static func totalContradictedByChange(_ total: ReceiptField<Money>, lines: [ScannedLine], currency: Currency) -> Bool {
        func amount(_ line: ScannedLine) -> Int64? {
            guard let run = line.runs.last, !run.negative, let (m, _) = run.money(in: currency) else { return nil }
            return m.minorUnits
        }
        let handed = ["받은금액", "받은돈", "お預", "預り", "預かり", "tendered"]
        for (i, line) in lines.enumerated() where handed.contains(where: { line.compact.contains($0) }) {
            guard let given = amount(line), given > 0 else { continue }
            for j in (i + 1)..<min(lines.count, i + 3) where changeWords.contains(where: { w in
                w.allSatisfy(\.isASCII) ? hasWord([w], in: lines[j].normalized.lowercased()) : lines[j].compact.contains(w)
            }) {
                guard let back = amount(lines[j]), back < given else { continue }
                return given - back != total.value.minorUnits
            }
        }
        return false
    }

    /// A Korean or Japanese name without the marks OCR read before it at the paper's edge or from a rule:
    /// `이 = = | 바우와우펫마트` → `바우와우펫마트`, `llハッピーマート` → `ハッピーマート`.
    static func withoutLeadingNoise(_ name: String, _ language: ReceiptLanguage) -> String {
        guard language != .english else { return withoutLeadingMarks(name) }
        func isCJK(_ c: Character) -> Bool { ReceiptSpacing.isHangul(c) || (ReceiptSpacing.isKanaOrKanji(c) && c != "ー") }
        var out = name
        // Before a bar, fewer than two letters of the script: the bar is the paper's edge or a rule.
        if let bar = out.lastIndex(where: { $0 == "|" || $0 == "｜" }), out[..<bar].filter(isCJK).count < 2,
           out[out.index(after: bar)...].filter(isCJK).count >= 2 {
            out = String(out[out.index(after: bar)...]).trimmingCharacters(in: .whitespaces)
        }
        // A bar or two read as Latin letters glued to the name (`ll`, `I`, `|`).
        let lead = out.prefix { "lIi|!1 ".contains($0) }
        if !lead.isEmpty, lead.count <= 3, out.dropFirst(lead.count).first.map(isCJK) == true { out = String(out.dropFirst(lead.count)) }
        // A mark of one or two characters OCR read before the name, a space apart (`4 미소약국`, `~ あおい薬局`), as at its end.
        var words = out.split(separator: " ").map(String.init)
        while words.count > 1, let first = words.first, first.count <= 2, !first.contains(where: isCJK),
              !(first.contains(where: \.isLetter) && first.contains(where: \.isNumber)), words.dropFirst().joined().filter(isCJK).count >= 2 {
            words.removeFirst()
        }
        return words.joined(separator: " ")
    }

    /// An English name without a mark of one or two characters OCR read before it a space apart, when the mark has no
    /// capital letter or is no Latin at all and the name after it starts with a capital: `i HOMETOWN GROCERY`,
    /// `“a Oak Hill Vet Center`, `和 MAIN STREET DRUG` (a shadow's edge, a bar, the paper's curl). A capital `A` or a tag
    /// with a digit (`A Better Pet Shop`, `7 ELEVEN`) stays.
    static func withoutLeadingMarks(_ name: String) -> String {
        var words = name.split(separator: " ").map(String.init)
        while words.count > 1, let first = words.first, first.count <= 2, !first.contains(where: \.isNumber),
              !first.contains(where: { $0.isASCII && $0.isUppercase }),
              let next = words.dropFirst().first?.first, next.isASCII, next.isUppercase,
              words.dropFirst().joined().filter({ $0.isASCII && $0.isLetter }).count >= 3 {
            words.removeFirst()
        }
        return words.joined(separator: " ")
    }
}
