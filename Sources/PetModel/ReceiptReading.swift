import Foundation

/// Where a line of text sits on the receipt photo, in pixels from the top left.
public struct ReceiptBox: Equatable, Sendable {
    public var x: Int
    public var y: Int
    public var width: Int
    public var height: Int

    public init(x: Int, y: Int, width: Int, height: Int) {
        self.x = x
        self.y = y
        self.width = width
        self.height = height
    }
}

/// One line the OCR read, in reading order; `confidence` is the mean of its words' (0–100).
public struct ReceiptLine: Equatable, Sendable {
    public var text: String
    public var confidence: Double
    public var box: ReceiptBox

    public init(text: String, confidence: Double, box: ReceiptBox) {
        self.text = text
        self.confidence = confidence
        self.box = box
    }
}

/// A value read from a receipt, how sure the reading is (0–100) and the line it came from.
///
/// `confidence` is the OCR confidence of the source line (the lower of two when a label and its
/// amount stand on two lines) times the certainty of the rule that read it (docs/receipts.md).
/// A value not read from any line (a currency taken from the language or the home currency) has an
/// empty `source`. `unsure` marks a value petlog guessed (docs/receipts.md, "Unsure"): the proposal
/// says so, it is never taken silently.
public struct ReceiptField<Value: Equatable & Sendable>: Equatable, Sendable {
    public var value: Value
    public var confidence: Double
    public var source: String
    public var unsure: Bool

    public init(value: Value, confidence: Double, source: String, unsure: Bool = false) {
        self.value = value
        self.confidence = confidence
        self.source = source
        self.unsure = unsure
    }
}

/// A wall-clock time printed on a receipt.
public struct ReceiptTime: Equatable, Sendable {
    public var hour: Int
    public var minute: Int

    public init(hour: Int, minute: Int) {
        self.hour = hour
        self.minute = minute
    }
}

/// A bought item: a line that is a name followed by a price.
public struct ReceiptItem: Equatable, Sendable {
    public var name: String
    public var price: Money

    public init(name: String, price: Money) {
        self.name = name
        self.price = price
    }
}

/// The language a receipt is written in, judged from its script (Hangul, kana) and the OCR languages.
public enum ReceiptLanguage: String, Equatable, Sendable, CaseIterable {
    case korean = "ko", japanese = "ja", english = "en"
}

/// Why a date on the receipt was not taken.
public enum ReceiptDateRejection: String, Equatable, Sendable {
    /// No such day (`2026-02-30`).
    case noSuchDay
    /// More than a day after today.
    case future
    /// Before 2000.
    case tooOld
    /// More than a year before today (asked about, not taken silently).
    case longAgo
}

/// What the receipt's currency was taken from.
public enum ReceiptCurrencyEvidence: Equatable, Sendable {
    /// A mark printed on the receipt, as printed: `$`, `₩`, `円`, `USD`.
    case mark(String)
    /// No mark: the receipt is in Korean (won) or Japanese (yen).
    case language(ReceiptLanguage)
    /// No mark: an English receipt whose amounts have cents (the home currency when it has cents, else US dollars).
    case cents
    /// Nothing on the receipt: the home currency.
    case home
}

/// Something the reader decided that the user should be told about.
public enum ReceiptNote: Equatable, Sendable {
    /// Both parts of a `03/04/2026` date could be the month; the receipt's language chose.
    case ambiguousDate(read: String, chose: LocalDate, because: ReceiptLanguage)
    /// A date that was read but could not be the purchase day.
    case dateRejected(read: String, reason: ReceiptDateRejection)
    /// The only date on the receipt is in the future or more than a year back: proposed, but asked about.
    case dateAsked(read: String, date: LocalDate, reason: ReceiptDateRejection)
    /// The total's digits were repaired from OCR noise (`1O.OOO`, `W12.000`, `12, 000`).
    case amountRepaired(read: String, as: Money)
    /// No currency was printed: it came from the receipt's language, its cents or the home currency.
    case currencyAssumed(Currency, because: ReceiptCurrencyEvidence)
}

/// What a receipt says, field by field; nil where nothing could be read with a rule.
public struct ReceiptProposal: Equatable, Sendable {
    public var language: ReceiptLanguage
    public var date: ReceiptField<LocalDate>?
    public var time: ReceiptField<ReceiptTime>?
    public var merchant: ReceiptField<String>?
    public var total: ReceiptField<Money>?
    public var currency: ReceiptField<Currency>
    /// What the currency was taken from (said in the proposal).
    public var currencyEvidence: ReceiptCurrencyEvidence
    public var payment: ReceiptField<Payment>?
    public var items: [ReceiptField<ReceiptItem>]
    public var notes: [ReceiptNote]

    public init(language: ReceiptLanguage, date: ReceiptField<LocalDate>? = nil, time: ReceiptField<ReceiptTime>? = nil,
                merchant: ReceiptField<String>? = nil, total: ReceiptField<Money>? = nil, currency: ReceiptField<Currency>,
                currencyEvidence: ReceiptCurrencyEvidence = .home, payment: ReceiptField<Payment>? = nil, items: [ReceiptField<ReceiptItem>] = [], notes: [ReceiptNote] = []) {
        self.language = language
        self.date = date
        self.time = time
        self.merchant = merchant
        self.total = total
        self.currency = currency
        self.currencyEvidence = currencyEvidence
        self.payment = payment
        self.items = items
        self.notes = notes
    }

    /// The fields read but guessed, in the order the proposal shows them: `date`, `merchant`, `total`,
    /// `currency`, `payment`.
    public var unsure: [String] {
        var out: [String] = []
        if date?.unsure == true { out.append("date") }
        if merchant?.unsure == true { out.append("merchant") }
        if total?.unsure == true { out.append("total") }
        if currency.unsure { out.append("currency") }
        if payment?.unsure == true { out.append("payment") }
        return out
    }
}

/// Turns OCR lines of a Korean, Japanese or English receipt into a proposed expense (docs/receipts.md).
public enum ReceiptReading {
    /// Reads every field. `imageHeight` tells which lines are the header (the top third, and never
    /// fewer than the first four lines); `languages` are the OCR languages (`["kor", "eng"]`);
    /// `homeCurrency` is used when neither a symbol nor the language names one; `today` bounds dates.
    public static func proposal(lines: [ReceiptLine], imageHeight: Int, languages: [String],
                                homeCurrency: Currency, today: LocalDate) -> ReceiptProposal {
        let scanned = lines.map(ScannedLine.init)
        let language = detectLanguage(scanned, hints: languages)
        var notes: [ReceiptNote] = []
        let labelled = TotalLabel.candidates(scanned)
        // The currency beside the strongest total label counts first.
        let byStrength = labelled.enumerated().sorted { ($0.element.strength, $0.offset) > ($1.element.strength, $1.offset) }.map(\.element.line)
        let (currency, evidence) = detectCurrency(scanned, totalLines: byStrength, language: language, home: homeCurrency)
        if case .mark = evidence {} else { notes.append(.currencyAssumed(currency.value, because: evidence)) }
        var total = readTotal(scanned, candidates: labelled, currency: currency.value, notes: &notes)
        // English receipts write month/day, unless their currency is one of a day-first country's (`£`, `€`).
        let dayFirst: Bool = if case .mark = evidence { ReceiptPatterns.dayFirstCurrencies.contains(currency.value.code) } else { false }
        // `$` settles month/day, `£`/`€` day/month; a won or yen receipt in English leaves `03/04/2026` ambiguous.
        let orderSettled: Bool = if case .mark = evidence {
            language == .english && (currency.value.code == "USD" || ReceiptPatterns.dayFirstCurrencies.contains(currency.value.code))
        } else { false }
        let (date, time) = readDateAndTime(scanned, language: language, dayFirst: dayFirst, orderSettled: orderSettled, today: today, notes: &notes)
        let header = headerLines(lines, imageHeight: imageHeight)
        let merchant = readMerchant(scanned, header: header, language: language)
        let payment = readPayment(scanned, currency: currency.value)
        let items = readItems(scanned, merchantLine: merchant?.line, totalLine: labelled.map(\.line).min(),
                              currency: currency.value)
        // A total nothing else on the receipt confirms, or that its arithmetic contradicts, is asked about, not taken
        // silently (issue 45).
        if var t = total, !t.unsure, !totalConfirmed(t, lines: scanned, items: items, currency: currency.value)
            || totalContradicted(t, lines: scanned, currency: currency.value)
            || totalContradictedByChange(t, lines: scanned, currency: currency.value) {
            t.unsure = true
            total = t
        }
        return ReceiptProposal(language: language, date: date, time: time, merchant: merchant?.field, total: total,
                               currency: currency, currencyEvidence: evidence, payment: payment, items: items, notes: notes)
    }

    /// Hangul makes a receipt Korean, kana (or kanji without Hangul) Japanese, Latin letters alone
    /// English; a receipt with no letters at all takes the first OCR language. A few Hangul or kanji
    /// among many Latin letters (OCR's noise from a photo's background, lines it read at low confidence)
    /// do not make an English receipt Korean or Japanese.
    static func detectLanguage(_ lines: [ScannedLine], hints: [String]) -> ReceiptLanguage {
        func count(_ lines: [ScannedLine]) -> (hangul: Int, kana: Int, kanji: Int, latin: Int) {
            var hangul = 0, kana = 0, kanji = 0, latin = 0
            for line in lines {
                for scalar in line.normalized.unicodeScalars {
                    switch scalar.value {
                    case 0xAC00...0xD7A3: hangul += 1
                    case 0x3040...0x30FF: kana += 1
                    case 0x4E00...0x9FFF: kanji += 1
                    case 0x41...0x5A, 0x61...0x7A: latin += 1
                    default: break
                    }
                }
            }
            return (hangul, kana, kanji, latin)
        }
        let sure = count(lines.filter { $0.confidence >= 60 })
        // Korean or Japanese when that script is more than a trace beside the Latin letters.
        func enough(_ n: Int, _ latin: Int) -> Bool { n >= 3 && n * 6 >= latin }
        if enough(sure.hangul, sure.latin) && sure.hangul >= sure.kana { return .korean }
        if enough(sure.kana + sure.kanji, sure.latin) && sure.kana + sure.kanji > sure.hangul { return .japanese }
        if sure.latin > 0 { return .english }
        let all = count(lines)
        if all.hangul > 0 && all.hangul >= all.kana { return .korean }
        if all.kana > 0 || all.kanji > 0 { return .japanese }
        if all.latin > 0 { return .english }
        switch hints.first {
        case "kor": return .korean
        case "jpn", "jpn_vert": return .japanese
        default: return .english
        }
    }

    /// Header lines (their indices): the top third of the image, and at least the first four lines.
    static func headerLines(_ lines: [ReceiptLine], imageHeight: Int) -> Set<Int> {
        var header = Set(lines.indices.prefix(4))
        if imageHeight > 0 {
            for (i, line) in lines.enumerated() where (line.box.y + line.box.height / 2) * 3 < imageHeight { header.insert(i) }
        }
        return header
    }
}

/// A line with its text folded for matching (NFKC: full-width digits and `：`, `￦`, `￥` become
/// their common forms) and the number runs in it.
struct ScannedLine {
    let original: ReceiptLine
    let normalized: String
    /// Normalized, lowercased, without spaces: what labels are matched against.
    let compact: String
    let chars: [Character]
    let runs: [NumberRun]

    init(_ line: ReceiptLine) {
        original = line
        normalized = line.text.precomposedStringWithCompatibilityMapping
        compact = normalized.lowercased().filter { !$0.isWhitespace }
        chars = Array(normalized)
        runs = NumberRun.scan(chars)
    }

    var text: String { original.text }
    var confidence: Double { max(0, min(100, original.confidence)) }
    /// The height of the line's box: a bold or double-height total, a store name in large type stand taller.
    var height: Int { original.box.height }

    func field<V>(_ value: V, certainty: Double, unsure: Bool = false) -> ReceiptField<V> {
        ReceiptField(value: value, confidence: (confidence * certainty * 10).rounded() / 10, source: text, unsure: unsure)
    }
}
