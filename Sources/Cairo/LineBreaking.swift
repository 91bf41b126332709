/// Where a wrapped paragraph must not break, beyond Pango's Unicode line-breaking rules (UAX #14).
///
/// - Korean is wrapped at spaces (word-break: keep-all), as Korean is printed: Pango allows a break
///   between any two Hangul syllables, which splits "혈압" into "혈/압".
/// - A number stays with the unit after it ("1.08 kg", "12 h", "3.5 %"): a space between a number and
///   a short word of letters (at most four) is not a break; nor is a digit followed by the ideograph
///   that counts it ("2026年3月15日" breaks only between "年" and "3", or "月" and "15").
///
/// - Japanese: Pango's UAX #14 classes already keep 。、」) off the start of a line and opening
///   brackets off its end; small kana (っ ゃ ョ), ー and 々 ゝ ヽ are kept with the character before
///   them too (strict kinsoku), which Pango's default (loose) rules do not do.
public enum LineBreaking {
    /// UTF-8 byte ranges of `text` that must stay on one line, in order, not overlapping.
    public static func keptTogether(_ text: String) -> [Range<Int>] {
        var scalars: [(scalar: Unicode.Scalar, offset: Int)] = []
        var offset = 0
        for s in text.unicodeScalars {
            scalars.append((s, offset))
            offset += UTF8.width(s)
        }
        let end = offset
        func byteStart(_ i: Int) -> Int { i < scalars.count ? scalars[i].offset : end }

        // Runs of non-space scalars: [start, end) indices into `scalars`.
        var runs: [Range<Int>] = []
        var i = 0
        while i < scalars.count {
            if isSpace(scalars[i].scalar) { i += 1; continue }
            let start = i
            while i < scalars.count && !isSpace(scalars[i].scalar) { i += 1 }
            runs.append(start..<i)
        }
        var ranges: [Range<Int>] = []
        for (k, run) in runs.enumerated() {
            if run.contains(where: { isHangul(scalars[$0].scalar) }) {
                ranges.append(byteStart(run.lowerBound)..<byteStart(run.upperBound))
            }
            // A number at the end of this run, one joining space, then a unit starting the next run.
            guard k + 1 < runs.count, isDigit(scalars[run.upperBound - 1].scalar) else { continue }
            let next = runs[k + 1]
            guard next.lowerBound == run.upperBound + 1, isJoiningSpace(scalars[run.upperBound].scalar) else { continue }
            var unitEnd = next.lowerBound
            while unitEnd < next.upperBound && isUnitCharacter(scalars[unitEnd].scalar) { unitEnd += 1 }
            let unitLength = unitEnd - next.lowerBound
            guard unitLength > 0, unitLength <= 4, !isDigit(scalars[next.lowerBound].scalar) else { continue }
            var numberStart = run.upperBound - 1
            while numberStart > run.lowerBound && isNumberCharacter(scalars[numberStart - 1].scalar) { numberStart -= 1 }
            ranges.append(byteStart(numberStart)..<byteStart(unitEnd))
        }
        // A number stays with the ideograph that counts it ("3月", "15日", "2回"): UAX #14 allows a break
        // between a digit and a Han character.
        for k in scalars.indices.dropLast() where isDigit(scalars[k].scalar) && isHan(scalars[k + 1].scalar) {
            var start = k
            while start > 0 && isNumberCharacter(scalars[start - 1].scalar) { start -= 1 }
            ranges.append(byteStart(start)..<byteStart(k + 2))
        }
        // Japanese small kana, the prolonged sound mark and iteration marks never start a line (strict
        // kinsoku; Pango's UAX #14 treats them as ideographs): kept with the character before.
        for k in scalars.indices.dropFirst() where isNonStarter(scalars[k].scalar) && !isSpace(scalars[k - 1].scalar) {
            ranges.append(byteStart(k - 1)..<byteStart(k + 1))
        }
        // Merge overlapping ranges (a Korean word with a number and unit inside it); touching ones stay
        // apart, since a break between them is allowed.
        var merged: [Range<Int>] = []
        for r in ranges.sorted(by: { $0.lowerBound < $1.lowerBound }) {
            if let last = merged.last, r.lowerBound < last.upperBound {
                merged[merged.count - 1] = last.lowerBound..<max(last.upperBound, r.upperBound)
            } else {
                merged.append(r)
            }
        }
        return merged
    }

    static func isHan(_ s: Unicode.Scalar) -> Bool {
        (0x4E00...0x9FFF).contains(s.value) || (0x3400...0x4DBF).contains(s.value) || (0xF900...0xFAFF).contains(s.value)
    }

    static func isNonStarter(_ s: Unicode.Scalar) -> Bool {
        switch s.value {
        case 0x3041, 0x3043, 0x3045, 0x3047, 0x3049, 0x3063, 0x3083, 0x3085, 0x3087, 0x308E, 0x3095, 0x3096,
             0x30A1, 0x30A3, 0x30A5, 0x30A7, 0x30A9, 0x30C3, 0x30E3, 0x30E5, 0x30E7, 0x30EE, 0x30F5, 0x30F6,
             0x31F0...0x31FF, 0x30FC, 0x3005, 0x309D, 0x309E, 0x30FD, 0x30FE, 0xFF67...0xFF70: return true
        default: return false
        }
    }

    static func isSpace(_ s: Unicode.Scalar) -> Bool {
        s == " " || s == "\t" || s == "\n" || s == "\r" || s == "\u{3000}" || s == "\u{00A0}" || s == "\u{202F}"
    }
    static func isJoiningSpace(_ s: Unicode.Scalar) -> Bool { s == " " || s == "\u{00A0}" || s == "\u{202F}" }
    static func isHangul(_ s: Unicode.Scalar) -> Bool {
        switch s.value {
        case 0xAC00...0xD7A3, 0x1100...0x11FF, 0x3130...0x318F, 0xA960...0xA97F, 0xD7B0...0xD7FF: return true
        default: return false
        }
    }
    static func isDigit(_ s: Unicode.Scalar) -> Bool { ("0"..."9").contains(s) || (0xFF10...0xFF19).contains(s.value) }
    static func isNumberCharacter(_ s: Unicode.Scalar) -> Bool {
        isDigit(s) || s == "." || s == "," || s == "\u{2212}" || s == "-" || s == "+"
    }
    /// Letters of a unit ("kg", "lb", "mL", "h"), "%" and "°".
    static func isUnitCharacter(_ s: Unicode.Scalar) -> Bool {
        s == "%" || s == "°" || (s.properties.isAlphabetic && !isHangul(s) && s.value < 0x2E80)
    }
}
