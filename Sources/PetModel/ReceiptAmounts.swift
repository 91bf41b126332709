import Foundation

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
        ("결제금액", 6), ("승인금액", 6), ("청구금액", 6), ("받을금액", 5), ("총금액", 5), ("총액", 5), ("합계금액", 5), ("판매금액", 4), ("합계", 4), ("카드결제", 3),
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
}
