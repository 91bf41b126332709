import Foundation

/// Korean particles after a value petlog inserts (`{name}을(를)` → `나비를`, `보리를`… `Coco를`, `Tom을`):
/// the form is chosen from how the inserted word ends when read aloud in Korean.
///
/// - A Hangul syllable: its final consonant (받침), if any; ㄹ is told apart for (으)로.
/// - Digits: the Korean reading of the number's end: 0 영, 1 일, 3 삼, 6 육, 7 칠, 8 팔 close the
///   syllable, 2 이, 4 사, 5 오, 9 구 do not; trailing zeros read 십, 백, 천, 만 (all closed), 억 (closed),
///   조 (open).
/// - Latin letters: names ending in l (ㄹ), m or n (also -ng) are read with a final consonant (Bell 벨,
///   Tom 톰, Ben 벤); any other final letter is read with a vowel after it (Max 맥스, Fred 프레드, Coco 코코).
/// - Anything else (kana, kanji, symbols): unknown, and the template's written-out form `을(를)` stays.
///
/// Quotes or a closing bracket between the value and the particle are skipped (`"{value}"은(는)`).
enum KoreanParticles {
    /// How a word ends when read in Korean.
    enum Ending: Equatable { case vowel, consonant, rieul, unknown }

    /// The written-out forms petlog's Korean table uses, and the form after a consonant and after a vowel.
    static let forms: [(pattern: String, consonant: String, vowel: String)] = [
        ("은(는)", "은", "는"), ("는(은)", "은", "는"), ("을(를)", "을", "를"), ("를(을)", "을", "를"),
        ("이(가)", "이", "가"), ("가(이)", "이", "가"), ("과(와)", "과", "와"), ("와(과)", "과", "와"),
        ("(이)", "이", ""), ("(으)로", "으로", "로"),
    ]

    /// The particle pattern at the start of `text` (after an optional closing quote or bracket), replaced
    /// by the form `word` takes; nil when `text` starts with none or the word's ending is unknown.
    static func resolve(after word: String, in text: Substring) -> (replacement: String, consumed: Int)? {
        var skipped = ""
        var rest = text
        if let c = rest.first, "\"'”’」』)".contains(c) { skipped.append(c); rest = rest.dropFirst() }
        guard let form = forms.first(where: { rest.hasPrefix($0.pattern) }) else { return nil }
        let ending = self.ending(of: word)
        let chosen: String
        switch ending {
        case .unknown: return nil
        case .vowel: chosen = form.vowel
        case .rieul: chosen = form.pattern == "(으)로" ? form.vowel : form.consonant
        case .consonant: chosen = form.consonant
        }
        return (skipped + chosen, skipped.count + form.pattern.count)
    }

    static func ending(of word: String) -> Ending {
        let letters = word.precomposedStringWithCompatibilityMapping.unicodeScalars.reversed().drop { !($0.properties.isAlphabetic || ("0"..."9").contains($0)) }
        guard let last = letters.first else { return .unknown }
        switch last.value {
        case 0xAC00...0xD7A3:
            let final = (last.value - 0xAC00) % 28
            return final == 0 ? .vowel : final == 8 ? .rieul : .consonant
        case 0x30...0x39:
            let digits = String(String.UnicodeScalarView(letters.prefix { ("0"..."9").contains($0) }.reversed()))
            return numberEnding(digits)
        case 0x41...0x5A, 0x61...0x7A:
            // Units after a number are read as their Korean words: 4.3 kg 킬로그램은, 80 g 그램은, 9 lb 파운드는, 12 oz 온스는, 200 ml 밀리리터는.
            let word = String(String.UnicodeScalarView(letters.prefix { $0.properties.isAlphabetic }.reversed())).lowercased()
            var before = letters.dropFirst(word.count)
            if before.first == " " { before = before.dropFirst() }
            if let unit = ["kg": Ending.consonant, "g": .consonant, "mg": .consonant, "lb": .vowel, "lbs": .vowel, "oz": .vowel,
                           "ml": .vowel, "l": .vowel, "cm": .vowel, "mm": .vowel][word],
               let digit = before.first, ("0"..."9").contains(digit) {
                return unit
            }
            let tail = String(String.UnicodeScalarView(letters.prefix(2).reversed())).lowercased()
            if tail.hasSuffix("l") { return .rieul }
            if tail.hasSuffix("m") || tail.hasSuffix("n") || tail == "ng" { return .consonant }
            return .vowel
        default:
            return .unknown
        }
    }

    static func numberEnding(_ digits: String) -> Ending {
        let zeros = digits.reversed().prefix { $0 == "0" }.count
        if zeros == digits.count { return .consonant }  // 영
        switch zeros {
        case 0:
            switch digits.last {
            case "1", "7", "8": return .rieul   // 일, 칠, 팔
            case "3", "6": return .consonant    // 삼, 육
            default: return .vowel              // 이, 사, 오, 구
            }
        case 1, 2, 3, 4...7, 8...11: return .consonant  // 십, 백, 천, 만, 억
        default: return .vowel  // 조
        }
    }
}
