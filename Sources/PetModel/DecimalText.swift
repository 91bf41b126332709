/// A non-negative decimal read exactly from text: `digits / 10^scale`; no float ever involved.
public struct DecimalText: Equatable, Sendable {
    public var digits: Int64
    public var scale: Int

    /// Parses `12`, `12.5`, `0.25`, `.5` with the given decimal separator; rejects signs, exponents,
    /// hex, `nan`, `inf`, grouping and anything longer than 15 significant digits.
    public init?(_ text: Substring, decimalSeparator: Character = ".") {
        var digits: Int64 = 0
        var scale = 0
        var seenSeparator = false
        var count = 0
        guard !text.isEmpty else { return nil }
        for ch in text {
            if ch == decimalSeparator {
                if seenSeparator { return nil }
                seenSeparator = true
                continue
            }
            guard let d = ch.asciiDigit else { return nil }
            count += 1
            if count > 15 { return nil }
            digits = digits * 10 + Int64(d)
            if seenSeparator { scale += 1 }
        }
        if count == 0 { return nil }
        if seenSeparator && scale == 0 { return nil } // "12." is a typo, not a number
        self.digits = digits
        self.scale = scale
    }

    public init(digits: Int64, scale: Int) {
        self.digits = digits
        self.scale = scale
    }

    /// The value multiplied by `numerator/denominator`, rounded half away from zero; nil on overflow.
    /// Trailing fraction zeros are dropped first, so `1.000000000000oz` is not mistaken for an overflow.
    public func scaled(by numerator: Int64, over denominator: Int64) -> Int64? {
        var digits = digits, scale = scale
        while scale > 0 && digits % 10 == 0 {
            digits /= 10
            scale -= 1
        }
        var den = denominator
        for _ in 0..<scale {
            let (d, o) = den.multipliedReportingOverflow(by: 10)
            if o { return nil }
            den = d
        }
        let (num, o) = digits.multipliedReportingOverflow(by: numerator)
        if o { return nil }
        let (rounded, o2) = num.addingReportingOverflow(den / 2)
        if o2 { return nil }
        return rounded / den
    }

    public var doubleValue: Double {
        var v = Double(digits)
        for _ in 0..<scale { v /= 10 }
        return v
    }
}

extension Character {
    var asciiDigit: Int? {
        guard let a = asciiValue, a >= 48, a <= 57 else { return nil }
        return Int(a - 48)
    }
}
