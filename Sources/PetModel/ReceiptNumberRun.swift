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
    /// The currency mark as printed (`$`, `W`, `원`, `USD`), empty without one.
    var markerText: String = ""

    /// Currency signs and codes petlog takes as the receipt's currency wherever they stand on it.
    static let standaloneMarks: [(String, String)] = [("₩", "KRW"), ("¥", "JPY"), ("$", "USD"), ("€", "EUR"), ("£", "GBP"),
                                                      ("KRW", "KRW"), ("JPY", "JPY"), ("USD", "USD"), ("EUR", "EUR"), ("GBP", "GBP")]
    /// Three-letter codes read beside an amount.
    static let codes: Set<String> = ["KRW", "JPY", "USD", "EUR", "GBP", "CAD", "AUD"]

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
                // A separator, maybe with spaces around it when a group of three follows (`12, 000`) or the two
                // digits of the cents end the number (`€47 .93`), or doubled by OCR (`5,.532`: the last one counts).
                var m = k
                while m < chars.count, chars[m] == " " { m += 1 }
                guard m < chars.count, chars[m] == "," || chars[m] == "." else { break }
                let doubled = m + 1 < chars.count && (chars[m + 1] == "," || chars[m + 1] == ".")
                if doubled { m += 1 }
                var p = m + 1
                while p < chars.count, chars[p] == " " { p += 1 }
                let next = chars[p...].prefix { isDigitLike($0) }
                guard !next.isEmpty else { break }
                if p - m - 1 > 0 || m > k || doubled {
                    let cents = next.count == 2 && chars[m] == "." && p - m - 1 == 0
                    guard next.count == 3 || cents else { break }
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
        // A minus, not a dash inside a card or phone number (`1234-56**-****-7890`, `02-555-1234`).
        if before >= 0, chars[before] == "-" || chars[before] == "−" {
            if before == 0 || !(chars[before - 1].isNumber || chars[before - 1] == "*" || chars[before - 1].isLetter) { r.negative = true }
            before -= 1
        }
        while before >= 0, chars[before] == " " { before -= 1 }
        if before >= 0 {
            let c = chars[before]
            let wordBefore = before > 0 && isASCIILetter(chars[before - 1])
            switch c {
            case "₩": r.marker = .krw
            case "¥": r.marker = Currency.named("JPY")
            case "$": r.marker = Currency.named("USD")
            case "€": r.marker = Currency.named("EUR")
            case "£": r.marker = Currency.named("GBP")
            case "W" where !wordBefore: r.marker = .krw; r.markerRepaired = true
            case "\\": r.marker = Currency.named("JPY"); r.markerRepaired = true
            default:
                let word = String(chars[max(0, before - 2)...before]).uppercased()
                if codes.contains(word), before < 3 || !isASCIILetter(chars[before - 3]) { r.marker = Currency.named(word); r.markerText = word }
            }
            if r.marker != nil, r.markerText.isEmpty { r.markerText = String(c) }
            // A minus before the mark (`-₩900`, `-\\900`, `-$5.00`) is a discount too.
            if r.marker != nil, !r.negative {
                var k = before - (r.markerText.count > 1 ? r.markerText.count : 1)
                while k >= 0, chars[k] == " " { k -= 1 }
                if k >= 0, chars[k] == "-" || chars[k] == "−" { r.negative = true }
            }
        }
        var after = r.range.upperBound
        while after < chars.count, chars[after] == " " { after += 1 }
        if r.marker == nil, after < chars.count {
            switch chars[after] {
            case "원": r.marker = .krw; r.markerText = "원"
            case "円": r.marker = Currency.named("JPY"); r.markerText = "円"
            default:
                let word = String(chars[after..<min(chars.count, after + 3)]).uppercased()
                if codes.contains(word), after + 3 >= chars.count || !isASCIILetter(chars[after + 3]) {
                    r.marker = Currency.named(word)
                    r.markerText = word
                }
            }
        }
        return r
    }

    /// Words after a number that make it a count, not money: `3개월` (instalments), `2点`, `8%`, points (`4,829pt`: a
    /// points line whose label OCR garbled, `累計ポイント` read as `家計ポイ`, is no total).
    static let countWords: Set<String> = quantityWords.union(["개월", "回", "%", "kg", "g", "ml", "l", "pt", "pts", "point", "points", "포인트", "ポイント"])
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
            // `12.50`; in dollars `12,50` is a misread `12.50` (groupings have three digits). Euro receipts write both.
            if last != decimalSep && !decimalComma { repaired = true }
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
