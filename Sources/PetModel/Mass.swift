import Foundation

/// A body mass in whole grams, the one canonical unit petlog stores.
public struct Mass: Equatable, Comparable, Sendable, Codable {
    public var grams: Int

    public static let maximumGrams = 1_000_000

    public init(grams: Int) { self.grams = grams }

    public static func < (a: Mass, b: Mass) -> Bool { a.grams < b.grams }

    public var kilograms: Double { Double(grams) / 1000 }
    /// The international avoirdupois pound, exactly.
    public static let gramsPerPound = 453.59237

    public var pounds: Double { Double(grams) / Mass.gramsPerPound }

    /// Parses `4.2kg`, `4200g`, `9.3lb`, `9lb 4oz`, `12 oz`, or a bare number in `defaultUnit`.
    public static func parse(_ raw: String, defaultUnit: MassUnit? = nil) throws -> Mass {
        // Full-width digits and units (`４.２ｋｇ`) are the same digits and units.
        let text = raw.precomposedStringWithCompatibilityMapping.trimmingCharacters(in: .whitespaces).lowercased()
        guard !text.isEmpty else { throw ParseError.badMass(raw) }
        if text.hasPrefix("-"), text.dropFirst().first?.asciiDigit != nil { throw ParseError.negative(raw) }
        // "9lb 4oz" / "9 lb 4 oz"
        var parts: [(DecimalText, MassUnit)] = []
        var rest = Substring(text)
        while !rest.isEmpty {
            rest = rest.drop(while: { $0 == " " })
            let number = rest.prefix(while: { $0.asciiDigit != nil || $0 == "." || $0 == "," })
            guard !number.isEmpty else { throw ParseError.badMass(raw) }
            guard let value = DecimalText(number) else { throw ParseError.notANumber(raw) }
            rest = rest.dropFirst(number.count).drop(while: { $0 == " " })
            let unitText = rest.prefix(while: { $0.isLetter })
            rest = rest.dropFirst(unitText.count)
            let unit: MassUnit
            if unitText.isEmpty {
                guard parts.isEmpty, rest.isEmpty, let d = defaultUnit else { throw ParseError.badMass(raw) }
                unit = d
            } else {
                guard let u = MassUnit(symbol: String(unitText)) else { throw ParseError.badMass(raw) }
                unit = u
            }
            parts.append((value, unit))
        }
        // Only "lb oz" may be combined.
        if parts.count == 2 && !(parts[0].1 == .pound && parts[1].1 == .ounce) { throw ParseError.badMass(raw) }
        if parts.count > 2 || parts.isEmpty { throw ParseError.badMass(raw) }
        guard let total = exactGrams(parts), total > 0, total <= Int64(maximumGrams) else { throw ParseError.massOutOfRange(raw) }
        // Whole grams are kept: a mass typed more finely (`0.5g`, `1.002lb`) is refused, never silently rounded to
        // something that does not read back as what was typed at its own precision.
        guard keepsTypedPrecision(parts, grams: total) else { throw ParseError.massTooFine(raw, grams: Int(total)) }
        return Mass(grams: Int(total))
    }

    /// Whether `raw` is a number with no unit (`12.5`, `１２`), which `parse` reads in its `defaultUnit`.
    public static func isBareNumber(_ raw: String) -> Bool {
        let text = raw.precomposedStringWithCompatibilityMapping.trimmingCharacters(in: .whitespaces)
        return !text.isEmpty && text.allSatisfy { $0.asciiDigit != nil || $0 == "." || $0 == "," }
    }

    /// The parts summed exactly and rounded once (half up) to grams, so "9lb 4oz" (4195.73 g) is 4196 g
    /// and 1.002 lb (454.4996 g) is 454 g; nil when the sum is absurdly large. Every unit is a whole
    /// number of 1/1,600,000 g (1 oz = 45,359,237 of them, 1 lb = 16 oz), so the sum is one integer.
    /// Whether whole `grams` keep what was typed: a number of grams must be whole (`0.5 g` would be 1 g); in kg,
    /// lb or oz, the grams must read back as the typed total within half a unit of its last typed digit, or of
    /// the unit's shown precision when that is coarser (0.01 kg, 0.01 lb, 0.1 oz: `1.00 oz` is 28 g, kept).
    static func keepsTypedPrecision(_ parts: [(DecimalText, MassUnit)], grams: Int64) -> Bool {
        guard let last = parts.last else { return true }
        let shownDecimals: Int
        switch last.1 {
        case .gram: shownDecimals = 0
        case .ounce: shownDecimals = 1
        case .kilogram, .pound: shownDecimals = 2
        }
        let scale = parts.map(\.0.scale).max() ?? 0
        var sum: Int128 = 0, denominator: Int128 = 1_600_000
        for _ in 0..<scale { denominator *= 10 }
        for (value, unit) in parts {
            var n = Int128(value.digits)
            for _ in value.scale..<scale { n *= 10 }
            sum += n * Int128(unit.sixteenHundredThousandthsOfAGram)
        }
        // The coarser of the typed last digit and the unit's shown precision, in the sum's units.
        var resolution = Int128(last.1.sixteenHundredThousandthsOfAGram)
        for _ in min(last.0.scale, shownDecimals)..<scale { resolution *= 10 }
        let difference = Int128(grams) * denominator - sum
        if last.1 == .gram { return difference == 0 }
        return 2 * (difference < 0 ? -difference : difference) <= resolution
    }

    static func exactGrams(_ parts: [(DecimalText, MassUnit)]) -> Int64? {
        let scale = parts.map(\.0.scale).max() ?? 0
        var sum: Int128 = 0
        for (value, unit) in parts {
            var n = Int128(value.digits)
            for _ in value.scale..<scale { n *= 10 }
            let (product, overflow) = n.multipliedReportingOverflow(by: Int128(unit.sixteenHundredThousandthsOfAGram))
            let (added, overflow2) = sum.addingReportingOverflow(product)
            if overflow || overflow2 { return nil }
            sum = added
        }
        var denominator: Int128 = 1_600_000
        for _ in 0..<scale { denominator *= 10 }
        let grams = (sum + denominator / 2) / denominator
        return grams <= Int128(Int64.max) ? Int64(grams) : nil
    }
}

/// The units a mass may be typed in.
public enum MassUnit: String, CaseIterable, Sendable {
    case gram = "g", kilogram = "kg", pound = "lb", ounce = "oz"

    public init?(symbol: String) {
        switch symbol {
        case "g", "gram", "grams": self = .gram
        case "kg", "kgs", "kilo", "kilos": self = .kilogram
        case "lb", "lbs", "pound", "pounds": self = .pound
        case "oz", "ounce", "ounces": self = .ounce
        default: return nil
        }
    }

    /// The unit in 1/1,600,000 g: a whole number for every unit (1 oz = 28.349523125 g = 45,359,237 of them).
    var sixteenHundredThousandthsOfAGram: Int64 {
        switch self {
        case .gram: return 1_600_000
        case .kilogram: return 1_600_000_000
        case .pound: return 725_747_792
        case .ounce: return 45_359_237
        }
    }
}

/// How masses are shown: a view setting only, never stored.
public enum UnitSystem: String, CaseIterable, Sendable {
    case metric, imperial

    /// Grams in the unit weights are charted in: a kilogram, or a pound.
    public var gramsPerUnit: Double { self == .imperial ? Mass.gramsPerPound : 1000 }

    /// `kg` or `lb`.
    public var symbol: String { self == .imperial ? "lb" : "kg" }
}
