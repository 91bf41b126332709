import FuzzSupport
import PetModel

// Money.parse (--cost, expenses): symbols, codes, grouping, decimal comma, minor digits per currency.
let usd = Currency.named("USD")!, krw = Currency.named("KRW")!

/// `1,234,567.89`: how petlog shows an amount (Display.money), with the separators of `decimalComma`.
func grouped(_ m: Money, decimalComma: Bool) -> String {
    let parts = m.decimalString.split(separator: ".")
    var whole = String(parts[0]), out = ""
    while whole.count > 3 { out = (decimalComma ? "." : ",") + whole.suffix(3) + out; whole = String(whole.dropLast(3)) }
    return whole + out + (parts.count > 1 ? (decimalComma ? "," : ".") + parts[1] : "")
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    fuzzText(data, size) { text in
        guard text.utf8.count <= 256 else { return }
        for (fallback, comma) in [(nil, false), (usd, false), (krw, false), (Currency.named("EUR"), true)] {
            guard let m = try? Money.parse(text, defaultCurrency: fallback, decimalComma: comma) else { continue }
            check(m.minorUnits >= 0 && m.minorUnits <= Money.maximumMinorUnits, "\(m.minorUnits) minor units")
            check(Currency.known.contains(m.currency), "unknown currency \(m.currency)")
            // Every way petlog writes an amount reads back to the same amount.
            let plain = m.decimalString
            for shown in [plain + " " + m.currency.code, plain + m.currency.code.lowercased(), grouped(m, decimalComma: false) + " " + m.currency.code] {
                check((try? Money.parse(shown)) == m, "\(text) → \(plain) \(m.currency.code), but \(shown) reads as \(String(describing: try? Money.parse(shown)))")
            }
            if let symbol = m.currency.symbol {
                check((try? Money.parse(symbol + grouped(m, decimalComma: false))) == m, "\(symbol)\(grouped(m, decimalComma: false))")
            }
            check((try? Money.parse(grouped(m, decimalComma: true) + " " + m.currency.code, decimalComma: true)) == m, "decimal comma form of \(plain)")
            let digits = plain.filter { $0 != "." }
            check(Int64(digits) == m.minorUnits, "\(plain) does not spell \(m.minorUnits) minor units")
        }
    }
}
