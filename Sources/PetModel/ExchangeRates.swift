import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif

/// A positive decimal read exactly from its text (`1.0543` = 10543 / 10⁴), as the ECB publishes rates.
public struct ExactDecimal: Hashable, Sendable, CustomStringConvertible {
    public let mantissa: Int64
    public let scale: Int

    /// `"162.39"`; nil for anything but plain digits with at most one point, zero, or more than 18 digits.
    public init?(_ text: some StringProtocol) {
        let parts = text.split(separator: ".", omittingEmptySubsequences: false)
        guard (1...2).contains(parts.count), parts.allSatisfy({ !$0.isEmpty && $0.allSatisfy { $0.asciiDigit != nil } }) else { return nil }
        let fraction = parts.count == 2 ? String(parts[1]) : ""
        let digits = String(parts[0]) + fraction
        guard digits.count <= 18, let m = Int64(digits), m > 0 else { return nil }
        mantissa = m
        scale = fraction.count
    }

    public var description: String {
        guard scale > 0 else { return String(mantissa) }
        let digits = String(mantissa)
        let padded = String(repeating: "0", count: max(0, scale + 1 - digits.count)) + digits
        return padded.dropLast(scale) + "." + padded.suffix(scale)
    }
}

/// One published euro reference rate: 1 EUR = `rate` units of `currency` on `day`.
public struct EuroRate: Hashable, Sendable {
    public var day: LocalDate
    public var currency: String
    public var rate: ExactDecimal

    public init(day: LocalDate, currency: String, rate: ExactDecimal) {
        self.day = day; self.currency = currency; self.rate = rate
    }
}

/// Why a file of rates was refused.
public enum RatesFileError: Error, Equatable, Sendable {
    /// Not the ECB's daily XML nor its historical CSV (or cut off before its end).
    case notARatesFile
    /// A rate or a date that is not one, with the line (CSV) or the day (XML) it is on.
    case badValue(String)
}

/// The European Central Bank's euro foreign exchange reference rates, in the two forms it publishes:
/// the daily XML (`eurofxref-daily.xml`, also `-hist-90d.xml` and `-hist.xml`) and the historical CSV
/// (`eurofxref-hist.csv`, from the zip). Currencies without a rate that day (`N/A`) are left out.
public enum ECBRates {
    /// Either form, told apart by its first bytes.
    public static func parse(_ data: Data) throws -> [EuroRate] {
        let head = String(decoding: data.prefix(64), as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        if head.hasPrefix("<") { return try parseXML(data) }
        if head.hasPrefix("Date") { return try parseCSV(String(decoding: data, as: UTF8.self)) }
        throw RatesFileError.notARatesFile
    }

    public static func parseCSV(_ text: String) throws -> [EuroRate] {
        var lines = text.split(whereSeparator: \.isNewline).map { $0.split(separator: ",", omittingEmptySubsequences: false).map { $0.trimmingCharacters(in: .whitespaces) } }
        guard let header = lines.first, header.first == "Date", header.count > 1 else { throw RatesFileError.notARatesFile }
        lines.removeFirst()
        var rates: [EuroRate] = []
        for (i, fields) in lines.enumerated() {
            if fields.allSatisfy(\.isEmpty) { continue }
            guard let day = LocalDate.parseISO(Substring(fields[0])) else { throw RatesFileError.badValue("line \(i + 2): \(fields[0])") }
            // Every line has the header's fields: a line with fewer is a file cut off (or not this file).
            guard fields.count == header.count else { throw RatesFileError.notARatesFile }
            for (c, value) in zip(header.dropFirst(), fields.dropFirst()) where !c.isEmpty && value != "N/A" && !value.isEmpty {
                guard c.count == 3, c.allSatisfy({ $0.isASCII && $0.isUppercase }), let r = ExactDecimal(value) else {
                    throw RatesFileError.badValue("line \(i + 2): \(c) \(value)")
                }
                rates.append(EuroRate(day: day, currency: c, rate: r))
            }
        }
        guard !rates.isEmpty else { throw RatesFileError.notARatesFile }
        return rates
    }

    public static func parseXML(_ data: Data) throws -> [EuroRate] {
        let reader = CubeReader()
        let parser = XMLParser(data: data)
        parser.delegate = reader
        // The envelope's closing tag: Foundation's parser on Linux accepts a document cut off after a
        // complete element, so a file without it is refused as cut off.
        guard parser.parse(), reader.sawEnvelope, reader.closedEnvelope else { throw reader.error ?? RatesFileError.notARatesFile }
        if let e = reader.error { throw e }
        guard !reader.rates.isEmpty else { throw RatesFileError.notARatesFile }
        return reader.rates
    }

    /// `<Cube time="…">` holds `<Cube currency="USD" rate="1.0543"/>` elements.
    final class CubeReader: NSObject, XMLParserDelegate {
        var rates: [EuroRate] = []
        var day: LocalDate?
        var sawEnvelope = false
        var closedEnvelope = false
        var error: RatesFileError?

        func parser(_ parser: XMLParser, didStartElement name: String, namespaceURI: String?, qualifiedName: String?,
                    attributes: [String: String] = [:]) {
            if name.hasSuffix("Envelope") { sawEnvelope = true }
            guard name == "Cube" else { return }
            if let time = attributes["time"] {
                guard let d = LocalDate.parseISO(Substring(time)) else { fail(.badValue(time), parser); return }
                day = d
            }
            if let c = attributes["currency"] {
                guard let day, c.count == 3, c.allSatisfy({ $0.isASCII && $0.isUppercase }),
                      let r = attributes["rate"].flatMap({ ExactDecimal($0) }) else {
                    fail(.badValue("\(day?.description ?? "?") \(c) \(attributes["rate"] ?? "")"), parser); return
                }
                rates.append(EuroRate(day: day, currency: c, rate: r))
            }
        }

        func parser(_ parser: XMLParser, didEndElement name: String, namespaceURI: String?, qualifiedName: String?) {
            if name.hasSuffix("Envelope") { closedEnvelope = true }
        }

        func fail(_ e: RatesFileError, _ parser: XMLParser) {
            error = e
            parser.abortParsing()
        }
    }
}

/// Rates by currency and day; converts through the euro at the rate of a day (the last published
/// day on or before it), with exact integer arithmetic and one rounding to the target's minor units,
/// half away from zero.
public struct RateTable: Sendable {
    /// Per currency, its rates by ascending day.
    var byCurrency: [String: [(day: LocalDate, rate: ExactDecimal)]] = [:]

    public init(_ rates: [EuroRate]) {
        for r in rates { byCurrency[r.currency, default: []].append((r.day, r.rate)) }
        for key in byCurrency.keys { byCurrency[key]?.sort { $0.day < $1.day } }
    }

    public var isEmpty: Bool { byCurrency.isEmpty }
    public var lastDay: LocalDate? { byCurrency.values.compactMap { $0.last?.day }.max() }

    /// The rate in effect on `day`: the last one published on or before it. The euro is 1 every day.
    public func rate(_ currency: String, on day: LocalDate) -> (day: LocalDate, rate: ExactDecimal)? {
        if currency == "EUR", let one = ExactDecimal("1") { return (day, one) }
        guard let list = byCurrency[currency] else { return nil }
        var lo = 0, hi = list.count
        while lo < hi {
            let mid = (lo + hi) / 2
            if list[mid].day <= day { lo = mid + 1 } else { hi = mid }
        }
        return lo == 0 ? nil : list[lo - 1]
    }

    /// `money` in `target` at the rates of `day`; nil when a rate is missing (never guessed) or the
    /// result does not fit.
    public func convert(_ money: Money, to target: Currency, on day: LocalDate) -> Money? {
        if money.currency.code == target.code { return money }
        guard let from = rate(money.currency.code, on: day), let to = rate(target.code, on: day) else { return nil }
        // target minor = amount minor × 10^(dT − dF) × rateTo / rateFrom, as one fraction of integers.
        var numerator = Int128(money.minorUnits) * Int128(to.rate.mantissa)  // < 10^36: no overflow
        var denominator = Int128(from.rate.mantissa)
        func scale(_ x: inout Int128, by exponent: Int) -> Bool {
            for _ in 0..<exponent {
                let (y, overflow) = x.multipliedReportingOverflow(by: 10)
                if overflow { return false }
                x = y
            }
            return true
        }
        let exponent = target.minorDigits - money.currency.minorDigits + from.rate.scale - to.rate.scale
        guard exponent >= 0 ? scale(&numerator, by: exponent) : scale(&denominator, by: -exponent) else { return nil }
        let (q, r) = numerator.quotientAndRemainder(dividingBy: denominator)
        let rounded = 2 * r.magnitude >= denominator.magnitude ? q + (numerator < 0 ? -1 : 1) : q
        guard rounded <= Int128(Money.maximumMinorUnits), rounded >= -Int128(Money.maximumMinorUnits) else { return nil }
        return Money(minorUnits: Int64(rounded), currency: target)
    }
}
