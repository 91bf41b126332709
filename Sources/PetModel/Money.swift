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

    /// Every active ISO 4217 currency (funds included; precious metals, the SDR and the test codes
    /// left out) with its minor-unit digits as CLDR gives them (`supplementalData.xml`, `<fractions>`:
    /// the digits amounts are written with, not the cash rounding; checked against the CLDR that
    /// Foundation's ICU carries, which writes the Colombian peso, rupiah and Pakistani rupee without
    /// fractions): a generated table, so the static
    /// build needs no ICU data to read an amount. The first currencies carry the symbol petlog reads
    /// before a number (`₩ ¥ $ € £`); the others are written with their code.
    public static let known: [Currency] = {
        let symbols = ["KRW": "₩", "JPY": "¥", "USD": "$", "EUR": "€", "GBP": "£"]
        let digits: [(Int, String)] = [
            (0, "AFN ALL BIF CLP DJF GNF IQD IRR ISK JPY KMF KPW KRW LAK LBP MGA MMK PYG RSD RWF"),
            (0, "SLL SOS SYP UGX UYI VND VUV XAF XOF XPF YER COP IDR PKR"),
            (2, "AED AMD ANG AOA ARS AUD AWG AZN BAM BBD BDT BGN BMD BND BOB BOV BRL BSD BTN BWP"),
            (2, "BYN BZD CAD CDF CHE CHF CHW CNY COU CRC CUC CUP CVE CZK DKK DOP DZD EGP ERN"),
            (2, "ETB EUR FJD FKP GBP GEL GHS GIP GMD GTQ GYD HKD HNL HRK HTG HUF ILS INR JMD"),
            (2, "KES KGS KHR KYD KZT LKR LRD LSL MAD MDL MKD MNT MOP MRU MUR MVR MWK MXN MXV MYR"),
            (2, "MZN NAD NGN NIO NOK NPR NZD PAB PEN PGK PHP PLN QAR RON RUB SAR SBD SCR SDG"),
            (2, "SEK SGD SHP SLE SRD SSP STN SVC SZL THB TJS TMT TOP TRY TTD TWD TZS UAH USD USN"),
            (2, "UYU UZS VED VES WST XCD XCG ZAR ZMW ZWG ZWL"),
            (3, "BHD JOD KWD LYD OMR TND"),
            (4, "CLF UYW"),
        ]
        var all: [Currency] = ["KRW", "JPY", "USD", "EUR", "GBP"].map { code in
            Currency(code: code, minorDigits: digits.first { $0.1.split(separator: " ").contains(Substring(code)) }?.0 ?? 2, symbol: symbols[code])
        }
        for (n, line) in digits {
            for code in line.split(separator: " ") where symbols[String(code)] == nil {
                all.append(Currency(code: String(code), minorDigits: n, symbol: nil))
            }
        }
        return all
    }()

    static let byCode: [String: Currency] = Dictionary(known.map { ($0.code, $0) }, uniquingKeysWith: { a, _ in a })

    /// The currencies the European Central Bank publishes a daily euro reference rate for (and the
    /// euro): the only ones `rates` can ever convert. Others are kept and totalled on their own.
    public static let ecbPublished: Set<String> = [
        "EUR", "USD", "JPY", "BGN", "CZK", "DKK", "GBP", "HUF", "PLN", "RON", "SEK", "CHF", "ISK", "NOK", "TRY",
        "AUD", "BRL", "CAD", "CNY", "HKD", "IDR", "ILS", "INR", "KRW", "MXN", "MYR", "NZD", "PHP", "SGD", "THB", "ZAR",
    ]

    /// Whether the ECB publishes a rate for this currency (see `ecbPublished`).
    public var hasECBRate: Bool { Self.ecbPublished.contains(code) }

    /// The demo household's and the report's default.
    public static let krw = Currency(code: "KRW", minorDigits: 0, symbol: "₩")

    public static func named(_ code: String) -> Currency? {
        byCode[code.uppercased()]
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
        // A negative amount (a budget's "left" once it is overspent) keeps its sign even when the whole
        // part is 0 (−0.51), and its fraction is written from the magnitude. Int64.min has no magnitude:
        // its digits are written from the unsigned value.
        let magnitude = minorUnits.magnitude
        let whole = magnitude / UInt64(div)
        let frac = String(magnitude % UInt64(div))
        let sign = minorUnits < 0 ? "-" : ""
        return "\(sign)\(whole).\(String(repeating: "0", count: currency.minorDigits - frac.count))\(frac)"
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
