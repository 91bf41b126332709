import FuzzSupport
import PetModel

// Mass.parse (weight, visit --weight), with and without a default unit, and DecimalText underneath.
let gramsPerUnit: [MassUnit: Double] = [.gram: 1, .kilogram: 1000, .pound: 453.59237, .ounce: 28.349523125]

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    fuzzText(data, size) { text in
        guard text.utf8.count <= 256 else { return }
        for unit in [nil, MassUnit.kilogram, .pound] {
            guard let m = try? Mass.parse(text, defaultUnit: unit) else { continue }
            check((1...Mass.maximumGrams).contains(m.grams), "\(m.grams) g is out of range")
            // What petlog stores reads back to the same grams, in every unit it could be shown in.
            let g = m.grams
            for shown in ["\(g)g", "\(g) g", "\(g / 1000).\(String(1000 + g % 1000).dropFirst())kg", "\(g)grams"] {
                check((try? Mass.parse(shown))?.grams == g, "\(text) = \(g) g, but \(shown) reads as \((try? Mass.parse(shown))?.grams as Any)")
            }
            // One number and one unit: the exact conversion, within rounding, of the same number in Double.
            let trimmed = text.trimmingCharacters(in: .whitespaces).lowercased()
            let number = trimmed.prefix { $0.isASCII && ($0.isNumber || $0 == ".") }
            let symbol = trimmed.dropFirst(number.count).drop { $0 == " " }
            if let value = Double(number), number.count <= 15, let u = symbol.isEmpty ? unit : MassUnit(symbol: String(symbol)) {
                let expected = value * gramsPerUnit[u]!
                check(abs(Double(g) - expected) <= 0.5 + expected * 1e-12, "\(text) = \(g) g, expected about \(expected) g")
            }
        }
        // Meal amounts: positive, at most 100,000, one decimal, and what is kept reads back.
        if let a = try? Amount.parse(text) {
            check(a.value > 0 && a.value <= 100_000 && (a.value * 10).rounded() / 10 == a.value, "amount \(a.value)")
            let symbol = [Amount.Unit.g: "g", .ml: "ml", .cup: "cup", .piece: "pc"][a.unit]!
            check((try? Amount.parse("\(a.value)\(symbol)")) == a, "\(text) → \(a.value) \(symbol) does not read back")
        }
        // DecimalText: what parses prints back to an equal value, and scaling agrees with exact arithmetic.
        if let d = DecimalText(Substring(text)) {
            check(d.digits >= 0 && d.scale >= 0 && d.scale <= 15, "\(d)")
            var shown = String(d.digits)
            if d.scale > 0 {
                shown = String(repeating: "0", count: max(0, d.scale - shown.count)) + shown // ".009", not "0.009": 15 digits at most
                shown.insert(".", at: shown.index(shown.endIndex, offsetBy: -d.scale))
            }
            check(DecimalText(Substring(shown)) == d, "\(text) → \(d) → \(shown)")
            for (num, den) in [(Int64(1000), Int64(1)), (1_000_000, 1), (45_359_237, 100), (28_349_523_125, 1_000_000)] {
                guard let scaled = d.scaled(by: num, over: den) else { continue }
                var exactDen = Int128(den)
                for _ in 0..<d.scale { exactDen *= 10 }
                let exact = (Int128(d.digits) * Int128(num) + exactDen / 2) / exactDen
                check(Int128(scaled) == exact, "\(d) × \(num)/\(den) = \(scaled), exactly \(exact)")
            }
        }
    }
}
