import Foundation

/// Bought items: lines above the total that are a name followed by a price.
extension ReceiptReading {
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
            // A rate (`TAX 8.25%`, `消費税(10%)`, `할인 5%`) makes a tax or discount line, whatever OCR made of its label.
            guard !hasPercent(line.normalized) else { continue }
            // An amount that is the sum of two or more items above it is a subtotal whose label OCR garbled
            // (`小計` read as `。 Nit`): it and everything below it are no items. (One item above: two
            // lines at the same price are two items.)
            let sum = items.reduce(Int64(0), { $0 &+ $1.value.price.minorUnits })
            if items.count >= 2, price.minorUnits == sum { break }
            // Korean receipts print the supply value before the VAT (`공급가액 46,727`, `부가세 4,673`): an amount
            // that with the labelled amount on the next line makes the sum of the items above is that supply
            // value, its label garbled (`oat 46,727`): it and everything below it are no items.
            if items.count >= 2, i + 1 < lines.count, isLabelLine(lines[i + 1]), let next = lines[i + 1].runs.last,
               let (tax, _) = next.money(in: currency), price.minorUnits &+ tax.minorUnits == sum { break }
            items.append(line.field(ReceiptItem(name: name, price: price), certainty: repaired ? 0.6 : 0.7))
        }
        return items
    }

    /// A number with a percent sign after it (`10%`, `8.25 %`).
    static func hasPercent(_ text: String) -> Bool {
        text.range(of: #"[0-9]\s?[%％]"#, options: .regularExpression) != nil
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
        if TotalLabel.isLabel(line, wholeLatinWords: true) { return true }
        let others = ["카드", "신용", "체크", "현금", "승인", "할부", "가맹", "사업자", "전화", "tel", "クレジット", "カード", "現金", "承認",
                      "電話", "登録番号", "일시", "日時", "번호", "番号", "レジ", "#", "visa", "master", "amex", "card", "cash", "debit", "credit", "approval", "auth", "phone"]
        if others.contains(where: { compact.contains($0) }) || hasWord(["pos"], in: line.normalized.lowercased()) { return true }
        return firstDate(line) != nil || readTime(line) != nil || isPhone(line.normalized) || isAddress(line.normalized) || isBusinessNumber(line.normalized)
    }
}
