import Foundation

/// Where `rates update` fetches from and whether it fetches at all: pure rules, no network.
public enum RatesUpdate {
    /// The ECB's folder of reference-rate files.
    public static let ecbFolder = "https://www.ecb.europa.eu/stats/eurofxref/"
    public static let dailyFile = "eurofxref-daily.xml"
    public static let historyFile = "eurofxref-hist.zip"

    /// The URL to fetch: `--source` as given (a whole file's URL), else the file in the mirror folder
    /// `PETLOG_RATES_URL` (the ECB's file name is appended: `eurofxref-daily.xml`, or `eurofxref-hist.zip`
    /// with `--history`), else the ECB's own file. Nil when the URL is not http(s).
    public static func source(option: String?, mirror: String?, history: Bool) -> String? {
        let file = history ? historyFile : dailyFile
        let url: String
        if let option, !option.isEmpty {
            url = option
        } else if let mirror, !mirror.isEmpty {
            url = (mirror.hasSuffix("/") ? mirror : mirror + "/") + file
        } else {
            url = ecbFolder + file
        }
        guard !url.contains(where: { $0.isWhitespace || $0.isNewline }), let parts = URLComponents(string: url),
              let scheme = parts.scheme?.lowercased(), scheme == "http" || scheme == "https", let host = parts.host, !host.isEmpty else { return nil }
        return url
    }

    /// What `rates update` does.
    public enum Decision: Equatable, Sendable {
        case fetch
        /// Already fetched from the same source on this local day: the stored rates are used.
        case useStored(RatesFetch)
    }

    /// At most one fetch of a source per local calendar day; `force` fetches anyway. A fetch from
    /// another source (the history after the daily file, a mirror) or an offline import does not count.
    public static func decide(last: RatesFetch?, source: String, today: LocalDate, force: Bool) -> Decision {
        guard !force, let last, last.localDay == today, last.source == source else { return .fetch }
        return .useStored(last)
    }

    /// What a file of rates holds: its days, currencies and newest day.
    public struct FileSummary: Equatable, Sendable {
        public var rates: Int, days: Int, currencies: Int
        public var firstDay: LocalDate?, lastDay: LocalDate?

        public init(_ rates: [EuroRate]) {
            let days = Set(rates.map(\.day))
            self.rates = rates.count
            self.days = days.count
            currencies = Set(rates.map(\.currency)).count
            firstDay = days.min()
            lastDay = days.max()
        }
    }
}

/// A number with a fixed count of decimals held as an integer (`14372512` with 4 decimals = 1437.2512).
public struct FixedDecimal: Equatable, Sendable, CustomStringConvertible {
    public var units: Int64
    public var decimals: Int

    public init(units: Int64, decimals: Int) { self.units = units; self.decimals = decimals }

    /// The whole part (for grouping) and the fraction digits (empty with no decimals).
    public var parts: (whole: Int64, fraction: String) {
        var p: Int64 = 1
        for _ in 0..<decimals { p *= 10 }
        let whole = units / p, frac = abs(units % p)
        guard decimals > 0 else { return (whole, "") }
        let digits = String(frac)
        return (whole, String(repeating: "0", count: decimals - digits.count) + digits)
    }

    public var description: String {
        let (w, f) = parts
        return f.isEmpty ? String(w) : "\(w).\(f)"
    }
}

extension RateTable {
    /// How much `to` one unit of `from` buys on `day` (the last published day on or before it), through
    /// the euro, exact, rounded once half away from zero to `decimals`: the same arithmetic as `convert`.
    /// Nil when either rate is missing.
    public func crossRate(from: String, to: String, on day: LocalDate, decimals: Int = 4) -> FixedDecimal? {
        if from == to {
            var units: Int64 = 1
            for _ in 0..<decimals { units *= 10 }
            return rate(from, on: day) == nil ? nil : FixedDecimal(units: units, decimals: decimals)
        }
        return crossRate(from: from, to: to, on: day, per: 1, decimals: decimals)
    }

    /// `per` units of `from` in `to` (exact, rounded once half away from zero to `decimals`).
    public func crossRate(from: String, to: String, on day: LocalDate, per: Int64, decimals: Int) -> FixedDecimal? {
        let some = Money(minorUnits: per, currency: Currency(code: from, minorDigits: 0, symbol: nil))
        guard let m = convert(some, to: Currency(code: to, minorDigits: decimals, symbol: nil), on: day) else { return nil }
        return FixedDecimal(units: m.minorUnits, decimals: decimals)
    }

    /// How many units of `from` a cross rate is shown for, so that it says something: 1 while one unit
    /// is worth at least 0.1 of `to`, else 100, else 1,000 (`1,000 KRW = 0.6843 USD`, `100 JPY = 0.6421 USD`).
    public static let crossShownPer: [Int64] = [1, 100, 1_000]

    /// The cross rate as `rates list` shows it: per the first of `crossShownPer` units worth at least 0.1 of `to`.
    public func shownCrossRate(from: String, to: String, on day: LocalDate, decimals: Int = 4) -> (per: Int64, rate: FixedDecimal)? {
        var tenth: Int64 = 1
        for _ in 0..<max(0, decimals - 1) { tenth *= 10 }
        var shown: (per: Int64, rate: FixedDecimal)?
        for per in Self.crossShownPer {
            guard let r = crossRate(from: from, to: to, on: day, per: per, decimals: decimals) else { return nil }
            shown = (per, r)
            if r.units >= tenth { break }
        }
        return shown
    }
}
