/// An ISO 4217 currency with the number of minor-unit digits it really has.
public struct Currency: Hashable, Sendable, Codable {
    public let code: String
    public let minorDigits: Int
    public let symbol: String?

    public init(code: String, minorDigits: Int, symbol: String?) {
        self.code = code
        self.minorDigits = minorDigits
        self.symbol = symbol
    }

    public static let known: [Currency] = [
        Currency(code: "KRW", minorDigits: 0, symbol: "₩"),
        Currency(code: "JPY", minorDigits: 0, symbol: "¥"),
        Currency(code: "USD", minorDigits: 2, symbol: "$"),
        Currency(code: "EUR", minorDigits: 2, symbol: "€"),
        Currency(code: "GBP", minorDigits: 2, symbol: "£"),
        Currency(code: "CHF", minorDigits: 2, symbol: nil),
        Currency(code: "SEK", minorDigits: 2, symbol: nil),
        Currency(code: "CAD", minorDigits: 2, symbol: nil),
        Currency(code: "AUD", minorDigits: 2, symbol: nil),
        Currency(code: "CNY", minorDigits: 2, symbol: nil),
        Currency(code: "TWD", minorDigits: 2, symbol: nil),
        Currency(code: "HKD", minorDigits: 2, symbol: nil),
        Currency(code: "SGD", minorDigits: 2, symbol: nil),
        Currency(code: "NZD", minorDigits: 2, symbol: nil),
    ]

    /// The demo household's and the report's default.
    public static let krw = Currency(code: "KRW", minorDigits: 0, symbol: "₩")

    public static func named(_ code: String) -> Currency? {
        let upper = code.uppercased()
        return known.first { $0.code == upper }
    }

    public static func bySymbol(_ symbol: Character) -> Currency? {
        known.first { $0.symbol == String(symbol) }
    }
}

/// An amount of money in integer minor units (cents; whole won and yen). Never a float.
public struct Money: Equatable, Sendable, Codable {
    public var minorUnits: Int64
    public var currency: Currency

    public init(minorUnits: Int64, currency: Currency) {
        self.minorUnits = minorUnits
        self.currency = currency
    }

    public static let maximumMinorUnits: Int64 = 999_999_999_999_99

    /// Parses `12.50 USD`, `85000KRW`, `₩45,000`, `$12.50`, `¥1200`, `12,50 EUR` (comma decimal when
    /// `decimalComma`), or a bare amount in `defaultCurrency`. Grouping separators are accepted only
    /// in groups of three; more fraction digits than the currency has is an error, not a rounding.
    public static func parse(_ raw: String, defaultCurrency: Currency? = nil, decimalComma: Bool = false) throws -> Money {
        var text = Substring(raw.trimmingCharacters(in: .whitespaces))
        var currency: Currency?
        if let first = text.first, let c = Currency.bySymbol(first) {
            currency = c
            text = text.dropFirst().drop(while: { $0 == " " })
        }
        let letters = text.reversed().prefix(while: { $0.isLetter })
        if !letters.isEmpty {
            let code = String(letters.reversed())
            guard let c = Currency.named(code) else { throw ParseError.unknownCurrency(code) }
            if let prior = currency, prior != c { throw ParseError.badMoney(raw) }
            currency = c
            text = text.dropLast(letters.count)
            while text.last == " " { text = text.dropLast() }
        }
        guard let cur = currency ?? defaultCurrency else { throw ParseError.badMoney(raw) }
        let decimalSep: Character = decimalComma ? "," : "."
        let groupSep: Character = decimalComma ? "." : ","
        // Split off a fraction, then check grouping of the integer part.
        var integerPart = text
        var fraction: Substring = ""
        if let sepIndex = text.lastIndex(of: decimalSep) {
            integerPart = text[..<sepIndex]
            fraction = text[text.index(after: sepIndex)...]
            if fraction.isEmpty || fraction.contains(where: { $0.asciiDigit == nil }) { throw ParseError.badMoney(raw) }
        }
        let groups = integerPart.split(separator: groupSep, omittingEmptySubsequences: false)
        if groups.count > 1 {
            guard let head = groups.first, (1...3).contains(head.count),
                  groups.dropFirst().allSatisfy({ $0.count == 3 }) else { throw ParseError.badMoney(raw) }
        }
        let intDigits = groups.joined()
        guard !intDigits.isEmpty, intDigits.allSatisfy({ $0.asciiDigit != nil }) else { throw ParseError.badMoney(raw) }
        if fraction.count > cur.minorDigits {
            throw ParseError.tooManyFractionDigits(raw, currency: cur.code, allowed: cur.minorDigits)
        }
        guard intDigits.count <= 15 else { throw ParseError.moneyOutOfRange(raw) }
        let padded = fraction + String(repeating: "0", count: cur.minorDigits - fraction.count)
        guard var minor = Int64(intDigits), padded.isEmpty || Int64(padded) != nil else { throw ParseError.badMoney(raw) }
        for _ in 0..<cur.minorDigits { minor *= 10 }
        minor += Int64(padded) ?? 0
        guard minor <= maximumMinorUnits else { throw ParseError.moneyOutOfRange(raw) }
        return Money(minorUnits: minor, currency: cur)
    }

    /// Plain decimal text of the amount without symbol: `12.50`, `45000`.
    public var decimalString: String {
        guard currency.minorDigits > 0 else { return String(minorUnits) }
        var div: Int64 = 1
        for _ in 0..<currency.minorDigits { div *= 10 }
        let whole = minorUnits / div
        let frac = String(minorUnits % div)
        return "\(whole).\(String(repeating: "0", count: currency.minorDigits - frac.count))\(frac)"
    }
}

extension Int64 {
    /// A sum that stops at the Int64 limits instead of trapping: amounts read from a file may be as
    /// large as the schema allows (any non-negative Int64), and their totals must still print.
    public func addingSaturated(_ other: Int64) -> Int64 {
        let (sum, overflow) = addingReportingOverflow(other)
        return overflow ? (other > 0 ? .max : .min) : sum
    }
}
