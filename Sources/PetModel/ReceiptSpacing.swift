import Foundation

/// OCR's spaces inside Japanese and Korean words undone, for names shown to the user.
///
/// Tesseract often splits CJK text into single characters (`さ くら 動物 病院`, `멍 냥 펫 샵 강남점`).
/// Japanese writes no spaces between kana and kanji, so every such space goes. Korean does space
/// words, so only runs of one-syllable pieces are joined (`멍냥펫샵 강남점`), and a number with its
/// one-syllable counter (`100 매` → `100매`); a space next to a longer piece stays.
enum ReceiptSpacing {
    static func isKanaOrKanji(_ c: Character) -> Bool {
        c.unicodeScalars.allSatisfy { s in
            (0x3040...0x30FF).contains(s.value) || (0x4E00...0x9FFF).contains(s.value) || (0x3400...0x4DBF).contains(s.value) || s.value == 0x3005
        }
    }

    static func isHangul(_ c: Character) -> Bool {
        c.unicodeScalars.allSatisfy { (0xAC00...0xD7A3).contains($0.value) }
    }

    static func tidy(_ text: String) -> String {
        // Japanese: a space between two kana or kanji is OCR's.
        let chars = Array(text)
        var kept: [Character] = []
        for (i, c) in chars.enumerated() {
            if c == " ", let before = kept.last, isKanaOrKanji(before), i + 1 < chars.count, isKanaOrKanji(chars[i + 1]) { continue }
            kept.append(c)
        }
        // Korean: join runs of one-syllable pieces, and a number with the run after it.
        let pieces = String(kept).split(separator: " ", omittingEmptySubsequences: true).map(String.init)
        var out: [String] = []
        var lastWasSingle = false
        for piece in pieces {
            let single = piece.count == 1 && piece.first.map(isHangul) == true
            if single, let last = out.last, lastWasSingle || last.last?.isNumber == true {
                out[out.count - 1] = last + piece
            } else {
                out.append(piece)
            }
            lastWasSingle = single
        }
        return out.joined(separator: " ")
    }
}
