/// A body mass in whole grams, the one canonical unit petlog stores.
public struct Mass: Equatable, Comparable, Sendable, Codable {
    public var grams: Int

    public static let maximumGrams = 1_000_000

    public init(grams: Int) { self.grams = grams }

    public static func < (a: Mass, b: Mass) -> Bool { a.grams < b.grams }

    public var kilograms: Double { Double(grams) / 1000 }
    public var pounds: Double { Double(grams) / 453.59237 }

    /// Parses `4.2kg`, `4200g`, `9.3lb`, `9lb 4oz`, `12 oz`, or a bare number in `defaultUnit`.
    public static func parse(_ raw: String, defaultUnit: MassUnit? = nil) throws -> Mass {
        let text = raw.trimmingCharacters(in: .whitespaces).lowercased()
        guard !text.isEmpty else { throw ParseError.badMass(raw) }
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
        // Sum in milligrams and round once, so "9lb 4oz" is 4195.73 g → 4196 g.
        var milligrams: Int64 = 0
        for (value, unit) in parts {
            guard let mg = unit.milligrams(of: value) else { throw ParseError.massOutOfRange(raw) }
            milligrams += mg
        }
        let total = (milligrams + 500) / 1000
        guard total > 0, total <= Int64(maximumGrams) else { throw ParseError.massOutOfRange(raw) }
        return Mass(grams: Int(total))
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

    /// Exact conversion: 1 lb = 453.59237 g, 1 oz = 28.349523125 g (international avoirdupois).
    func milligrams(of value: DecimalText) -> Int64? {
        switch self {
        case .gram: return value.scaled(by: 1000, over: 1)
        case .kilogram: return value.scaled(by: 1_000_000, over: 1)
        case .pound: return value.scaled(by: 45_359_237, over: 100)
        case .ounce: return value.scaled(by: 28_349_523_125, over: 1_000_000)
        }
    }
}

/// How masses are shown: a view setting only, never stored.
public enum UnitSystem: String, CaseIterable, Sendable {
    case metric, imperial
}
