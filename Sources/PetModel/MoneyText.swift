import Foundation

/// Amounts as people write them on receipts and in three languages: `12.50 USD`, `$12.50`, `₩45,000`,
/// `45000원`, `4만5천원`, `8만원`, `1.5만원`, `¥1,200`, `1,200円`, `1万2千円`, `12,50 €`, full-width
/// digits and symbols (`１２，０００円`).
///
/// Rules (README, Decisions: "Amounts"):
/// - Text is read after Unicode compatibility folding (NFKC), so full-width digits, `￥`, `￦`, `，`
///   and `．` count as their ASCII and common forms.
/// - The currency is a symbol before or after the number (`₩ $ ¥ € £`), a word after it (`원` KRW,
///   `円`/`엔` JPY, `달러`/`ドル` USD, `유로`/`ユーロ` EUR) or an ISO code before or after it; two that
///   disagree are an error. `¥` is the yen.
/// - A comma followed by exactly three digits groups thousands; in euros and Swedish kronor a single
///   comma followed by one or two digits (and no period) is a decimal comma (`12,50 €`). Nothing is ever rounded: more fraction
///   digits than the currency has is an error.
/// - Korean and Japanese numeral units: `십/十` 10, `백/百` 100, `천/千` 1,000 within a group, and
///   `만/万` 10⁴, `억/億` 10⁸, `조/兆` 10¹² closing one (`4만5천` 45,000; `1억2천만` 120,000,000; a
///   unit without a number counts one: `만원` 10,000). A number before a unit may have a fraction
///   when the result is whole (`1.5만` 15,000).
/// - Numeral words carry their currency when none is written: Korean ones (`만`, `억`, `천` …) are
///   won wherever they are typed (`1억2천만` ₩120,000,000, `1.5만` ₩15,000, never $15,000); kanji
///   ones (`万`, `億`, `千`, kanji digits) are yen in Japanese (`language` "ja"), the home currency
///   where it is one counted in them (yen, yuan, New Taiwan or Hong Kong dollars), and elsewhere
///   refused (`numeralsWithoutCurrency`): which currency `1.5万` is, is not guessed.
public enum MoneyText {
    static let suffixWords: [(String, String)] = [
        ("원", "KRW"), ("円", "JPY"), ("엔", "JPY"), ("달러", "USD"), ("ドル", "USD"), ("유로", "EUR"), ("ユーロ", "EUR"),
    ]
    /// Currencies written with a decimal comma where they are spent (`12,50 €`, `99,90 SEK`); in the
    /// others (won, yen, dollars, pounds) `1,23` is neither a grouping nor a decimal and is refused.
    static let decimalCommaCurrencies: Set<String> = ["EUR", "SEK"]
    static let symbols: [Character: String] = ["₩": "KRW", "$": "USD", "¥": "JPY", "€": "EUR", "£": "GBP"]
    static let smallUnits: [Character: Int64] = ["십": 10, "十": 10, "백": 100, "百": 100, "천": 1000, "千": 1000]
    /// The codes read before a number in any case (`usd 12.50`), as petlog did before it knew every code.
    static let anyCaseFirst: Set<String> = ["KRW", "JPY", "USD", "EUR", "GBP", "CHF", "SEK", "CAD", "AUD", "CNY", "TWD", "HKD", "SGD", "NZD"]
    /// Kanji digits, as in `千二百円` and `二〇〇円`.
    static let kanjiDigits: [Character: Character] = ["〇": "0", "零": "0", "一": "1", "二": "2", "三": "3", "四": "4", "五": "5",
                                                      "六": "6", "七": "7", "八": "8", "九": "9"]
    static let largeUnits: [Character: Int64] = ["만": 10_000, "万": 10_000, "억": 100_000_000, "億": 100_000_000,
                                                  "조": 1_000_000_000_000, "兆": 1_000_000_000_000]
    /// The Korean numeral words: an amount written with them and no currency is in won.
    static let hangulUnits: Set<Character> = ["십", "백", "천", "만", "억", "조"]
    /// The currencies counted in kanji numerals (`万`, `億`): a bare `3万` is one of these at home.
    static let kanjiCurrencies: Set<String> = ["JPY", "CNY", "TWD", "HKD", "MOP"]

    /// The amount in `raw`, in its own currency, else the one its numeral words carry, else
    /// `defaultCurrency`; `language` is the user's ("ja" reads a bare `万` as yen).
    public static func parse(_ raw: String, defaultCurrency: Currency? = nil, language: String? = nil) throws -> Money {
        var text = Substring(raw.precomposedStringWithCompatibilityMapping.trimmingCharacters(in: .whitespaces))
        var code: String?
        func take(_ found: String) throws {
            if let code, code != found { throw ParseError.twoCurrencies(raw) }
            code = found
        }
        func trim() { text = Substring(text.trimmingCharacters(in: .whitespaces)) }
        func negative() -> Bool { text.first == "-" || text.first == "−" }
        if negative() { throw ParseError.negativeAmount(raw) }
        // Before the number: symbols (`\` is the yen as Japanese keyboards and fonts show it) and
        // ISO codes (`USD 12.50`). A code first is upper case (`Bob 5000` is a pet named Bob, not
        // 5,000 bolivianos), except the codes petlog has always read in any case (`usd 12.50`).
        while true {
            if let first = text.first, let c = symbols[first] ?? (first == "\\" ? "JPY" : nil) {
                try take(c); text = text.dropFirst(); trim(); continue
            }
            let leading = text.prefix { $0.isASCII && $0.isLetter }
            if leading.count == 3, text.dropFirst(3).first.map({ $0 == " " || $0.isNumber || symbols[$0] != nil }) == true {
                // Three letters first that are no currency (`NaN 5`) make the whole text no amount.
                guard let c = Currency.named(String(leading)), leading.allSatisfy(\.isUppercase) || anyCaseFirst.contains(c.code) else { throw ParseError.badMoney(raw) }
                try take(c.code); text = text.dropFirst(3); trim(); continue
            }
            break
        }
        if negative() { throw ParseError.negativeAmount(raw) }
        // After the number: words, symbols and ISO codes; a second one that disagrees is refused.
        while !text.isEmpty {
            if let (word, c) = suffixWords.first(where: { text.hasSuffix($0.0) }) {
                try take(c); text = text.dropLast(word.count); trim()
            } else if let last = text.last, let c = symbols[last] {
                try take(c); text = text.dropLast(); trim()
            } else {
                let trailing = String(text.reversed().prefix { $0.isLetter && $0.isASCII }.reversed())
                guard !trailing.isEmpty else { break }
                // Letters with no number before them (`abc`, `NaN`, `inf`) are no amount at all.
                let before = text.dropLast(trailing.count).trimmingCharacters(in: .whitespaces)
                guard before.contains(where: { $0.asciiDigit != nil || kanjiDigits[$0] != nil || smallUnits[$0] != nil || largeUnits[$0] != nil })
                else { throw ParseError.badMoney(raw) }
                guard trailing.count == 3, let c = Currency.named(trailing) else {
                    throw trailing.count == 3 ? ParseError.unknownCurrency(trailing) : ParseError.badMoney(raw)
                }
                try take(c.code); text = text.dropLast(trailing.count); trim()
            }
        }
        guard !text.isEmpty else { throw ParseError.badMoney(raw) }
        if code == nil, text.contains(where: { smallUnits[$0] != nil || largeUnits[$0] != nil || kanjiDigits[$0] != nil }) {
            if text.contains(where: { hangulUnits.contains($0) }) {
                code = "KRW"
            } else if language == "ja" {
                code = "JPY"
            } else if let home = defaultCurrency, kanjiCurrencies.contains(home.code) {
                code = home.code
            } else {
                throw ParseError.numeralsWithoutCurrency(raw, home: defaultCurrency?.code ?? "")
            }
        }
        guard let currency = code.flatMap(Currency.named) ?? defaultCurrency else { throw ParseError.badMoney(raw) }
        if text.contains(where: { smallUnits[$0] != nil || largeUnits[$0] != nil || kanjiDigits[$0] != nil }) {
            let whole = try numeralUnits(text, raw: raw)
            var scale: Int64 = 1
            for _ in 0..<currency.minorDigits { scale *= 10 }
            let (minor, overflow) = whole.multipliedReportingOverflow(by: scale)
            guard !overflow, minor <= Money.maximumMinorUnits else { throw ParseError.moneyOutOfRange(raw) }
            return Money(minorUnits: minor, currency: currency)
        }
        let commas = text.filter { $0 == "," }.count
        let decimalComma = commas == 1 && !text.contains(".") && decimalCommaCurrencies.contains(currency.code)
            && (1...2).contains(text.count - 1 - (text.lastIndex(of: ",").map { text.distance(from: text.startIndex, to: $0) } ?? 0))
        do {
            return try Money.parse(String(text), defaultCurrency: currency, decimalComma: decimalComma)
        } catch ParseError.tooManyFractionDigits(_, let c, let allowed) {
            throw ParseError.tooManyFractionDigits(raw, currency: c, allowed: allowed)
        } catch ParseError.moneyOutOfRange {
            throw ParseError.moneyOutOfRange(raw)
        } catch {
            throw ParseError.badMoney(raw)
        }
    }

    /// `4만5천` → 45000: whole units only (the currency's fraction, if any, is zero).
    static func numeralUnits(_ text: Substring, raw: String) throws -> Int64 {
        var total: Int64 = 0          // closed groups (만, 억, 조)
        var group: Int64 = 0          // within the open group (천, 백, 십)
        var number: Substring = ""    // digits (and a fraction) not yet given a unit
        var lastLarge = Int64.max     // large units must fall: 억 before 만
        var lastSmall = Int64.max
        var kanjiNumber = false       // `number` was written in kanji digits
        func value(_ digits: Substring, times unit: Int64) throws -> Int64 {
            guard !digits.isEmpty else { return unit }
            let parts = digits.replacingOccurrences(of: ",", with: "").split(separator: ".", omittingEmptySubsequences: false)
            guard parts.count <= 2, parts.allSatisfy({ !$0.isEmpty && $0.allSatisfy { $0.asciiDigit != nil } }),
                  parts[0].count <= 15 else { throw ParseError.badMoney(raw) }
            let fraction = parts.count == 2 ? parts[1] : ""
            var denominator: Int64 = 1
            for _ in fraction { denominator *= 10; if denominator > unit { throw ParseError.badMoney(raw) } }
            guard let whole = Int64(parts[0] + fraction), unit % denominator == 0 else { throw ParseError.badMoney(raw) }
            let (v, overflow) = whole.multipliedReportingOverflow(by: unit / denominator)
            if overflow { throw ParseError.moneyOutOfRange(raw) }
            return v
        }
        for c in text {
            if c == " " { continue }
            if let unit = smallUnits[c] {
                guard unit < lastSmall else { throw ParseError.badMoney(raw) }
                group = group.addingSaturated(try value(number, times: unit)); number = ""; kanjiNumber = false; lastSmall = unit
            } else if let unit = largeUnits[c] {
                guard unit < lastLarge else { throw ParseError.badMoney(raw) }
                let (head, overflow) = group.multipliedReportingOverflow(by: unit)
                if overflow { throw ParseError.moneyOutOfRange(raw) }
                let tail = number.isEmpty ? (group == 0 ? unit : 0) : try value(number, times: unit)
                total = total.addingSaturated(head).addingSaturated(tail); group = 0; number = ""; kanjiNumber = false; lastLarge = unit; lastSmall = .max
            } else if c.asciiDigit != nil || c == "." || c == "," {
                // A number is written in one kind of digit: `1二` is a typo, not 12.
                if kanjiNumber { throw ParseError.badMoney(raw) }
                number.append(c)
            } else if let d = kanjiDigits[c] {
                if !number.isEmpty && !kanjiNumber { throw ParseError.badMoney(raw) }
                kanjiNumber = true
                number.append(d)
            } else {
                throw ParseError.badMoney(raw)
            }
        }
        total = total.addingSaturated(group).addingSaturated(number.isEmpty ? 0 : try value(number, times: 1))
        guard total < Int64.max / 1000 else { throw ParseError.moneyOutOfRange(raw) }
        return total
    }
}

extension MoneyText {
    /// `[PET] AMOUNT [CURRENCY]` as typed after `expense`: the whole is an amount (a household expense),
    /// or the first word names the pet(s) and the rest is the amount. One word that is not an amount is
    /// refused as an amount (what is wrong with it is said).
    public static func petAndAmount(_ words: [String], defaultCurrency: Currency, language: String? = nil) throws -> (pet: String?, amount: Money) {
        let whole = words.joined(separator: " ")
        let wholeError: Error
        do { return (nil, try parse(whole, defaultCurrency: defaultCurrency, language: language)) } catch { wholeError = error }
        guard words.count >= 2 else { throw wholeError }
        let tail = words.dropFirst().joined(separator: " ")
        do {
            return (words[0], try parse(tail, defaultCurrency: defaultCurrency, language: language))
        } catch {
            // `45000 USD KRW`: what is wrong with the whole (two currencies, below zero) says more
            // than what is wrong with its tail read as an amount after a pet; so does the whole when
            // its number is in the first word and the tail has none (`12.345 USD`, `1.200,50 EUR`:
            // no pet is called "12.345", and "USD" alone is no amount to complain of).
            switch wholeError {
            case ParseError.twoCurrencies, ParseError.negativeAmount: throw wholeError
            default: throw hasNumber(words[0]) && !hasNumber(tail) ? wholeError : error
            }
        }
    }

    /// True when `text` has a digit or a numeral word: something that could be an amount's number.
    static func hasNumber(_ text: String) -> Bool {
        text.precomposedStringWithCompatibilityMapping.contains {
            $0.asciiDigit != nil || kanjiDigits[$0] != nil || smallUnits[$0] != nil || largeUnits[$0] != nil
        }
    }
}

extension MoneyText {
    /// An expense's amount: any amount `parse` reads, more than zero (a purchase costs something).
    public static func expenseAmount(_ raw: String, defaultCurrency: Currency, language: String? = nil) throws -> Money {
        let m = try parse(raw, defaultCurrency: defaultCurrency, language: language)
        guard m.minorUnits > 0 else { throw ParseError.amountNotPositive(raw) }
        return m
    }
}
