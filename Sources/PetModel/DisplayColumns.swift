/// Text laid out for a terminal, measured in display columns: East Asian wide and fullwidth
/// characters (Hangul, kana, kanji, fullwidth forms, most emoji) take two columns, combining marks
/// none, and colour codes (`ESC [ … m`) none, so styled text measures and wraps like plain text.
public enum DisplayColumns {
    /// The columns `text` takes on a terminal.
    public static func width(_ text: some StringProtocol) -> Int {
        // Printable ASCII (most names, dates and numbers): a column a byte.
        if let ascii = text.utf8.withContiguousStorageIfAvailable({ b in b.allSatisfy { $0 >= 0x20 && $0 < 0x7F } ? b.count : nil }),
           let n = ascii { return n }
        var w = 0
        var inEscape = false
        for s in text.unicodeScalars {
            if inEscape {
                // A CSI sequence ends at its final byte (@ to ~).
                if (0x40...0x7E).contains(s.value) && s != "[" { inEscape = false }
                continue
            }
            if s == "\u{1B}" { inEscape = true; continue }
            w += width(of: s)
        }
        return w
    }

    /// The columns one scalar takes: 0 for combining marks, joiners and variation selectors.
    public static func width(of s: Unicode.Scalar) -> Int {
        let v = s.value
        if v < 0x300 { return 1 }   // no mark, joiner or wide character below the combining marks
        if s.properties.generalCategory == .nonspacingMark || s.properties.generalCategory == .enclosingMark
            || v == 0x200B || v == 0x200D || (0xFE00...0xFE0F).contains(v) { return 0 }
        return isWide(v) ? 2 : 1
    }

    /// East Asian Wide and Fullwidth ranges (UAX #11), as terminals draw them.
    static func isWide(_ v: UInt32) -> Bool {
        (0x1100...0x115F).contains(v) || (0x231A...0x231B).contains(v) || (0x2329...0x232A).contains(v)
            || (0x2E80...0x303E).contains(v) || (0x3041...0x33FF).contains(v) || (0x3400...0x4DBF).contains(v)
            || (0x4E00...0x9FFF).contains(v) || (0xA000...0xA4CF).contains(v) || (0xA960...0xA97F).contains(v)
            || (0xAC00...0xD7A3).contains(v) || (0xF900...0xFAFF).contains(v) || (0xFE10...0xFE19).contains(v)
            || (0xFE30...0xFE6F).contains(v) || (0xFF00...0xFF60).contains(v) || (0xFFE0...0xFFE6).contains(v)
            || (0x1F300...0x1F64F).contains(v) || (0x1F900...0x1FAFF).contains(v) || (0x20000...0x3FFFD).contains(v)
    }

    /// `text` followed by spaces up to `columns` display columns (never cut).
    public static func pad(_ text: String, to columns: Int) -> String {
        text + String(repeating: " ", count: max(0, columns - width(text)))
    }

    /// The longest start of `text` that fits `columns`, ending in `…` when it was cut.
    public static func truncated(_ text: String, to columns: Int) -> String {
        guard width(text) > columns else { return text }
        var out = ""
        for c in text {
            if width(out) + width(String(c)) > columns - 1 { break }
            out.append(c)
        }
        return out + "…"
    }

    /// `text` broken into lines of at most `columns` display columns: at spaces, and between wide
    /// characters (Japanese and Chinese have no spaces), never before closing punctuation or after an
    /// opening bracket; Korean only at spaces. The first line starts at column `firstIndent` (its own
    /// indentation is the caller's), the others are indented by `indent` spaces. A word wider than a
    /// whole line is cut after its slashes (a path), else where the line ends.
    public static func wrap(_ text: String, columns: Int, indent: Int = 0, firstIndent: Int = 0) -> [String] {
        var lines: [String] = []
        var line = "", lineWidth = firstIndent, space = "", started = false
        let margin = String(repeating: " ", count: indent)
        for unit in breakUnits(text) {
            if unit.first == " " {
                if started { space = unit } else if lines.isEmpty { line += unit; lineWidth += unit.count }
                continue
            }
            let w = width(unit)
            if w > columns - indent {
                // Wider than any line: after its slashes where it is a path, else where the line ends.
                var pieces: [String] = [""]
                for c in unit { pieces[pieces.count - 1].append(c); if c == "/" { pieces.append("") } }
                for piece in pieces where !piece.isEmpty {
                    let pw = width(piece)
                    if started && lineWidth + space.count + pw > columns {
                        if pw <= columns - indent || lineWidth > indent {
                            lines.append(line)
                            line = margin
                            lineWidth = indent
                            space = ""
                        }
                    }
                    for c in piece {
                        let cw = width(String(c))
                        if started && lineWidth + space.count + cw > columns {
                            lines.append(line)
                            line = margin
                            lineWidth = indent
                            space = ""
                        }
                        line += space + String(c)
                        lineWidth += space.count + cw
                        space = ""
                        started = true
                    }
                }
                continue
            }
            if started && lineWidth + space.count + w > columns {
                lines.append(line)
                line = margin + unit
                lineWidth = indent + w
            } else {
                line += space + unit
                lineWidth += space.count + w
            }
            space = ""
            started = true
        }
        if started || lines.isEmpty { lines.append(line) }
        return lines
    }

    /// Entries joined by `separator` on as few lines of at most `columns` as they fit: lines break
    /// between entries, never inside one. Lines after the first are indented by `indent` spaces.
    public static func pack(_ entries: [String], separator: String, columns: Int, indent: Int = 0) -> [String] {
        var lines: [String] = []
        var line = ""
        for entry in entries {
            if line.isEmpty { line = (lines.isEmpty ? "" : String(repeating: " ", count: indent)) + entry; continue }
            if width(line) + width(separator) + width(entry) <= columns {
                line += separator + entry
            } else {
                lines.append(line)
                line = String(repeating: " ", count: indent) + entry
            }
        }
        if !line.isEmpty { lines.append(line) }
        return lines
    }

    /// Characters that never start a line (closing brackets and punctuation, small kana, the
    /// prolonged sound mark) and that never end one (opening brackets).
    private static let noStart: Set<Character> = Set("、。，．,.:;!?！？）」』】〕〉》)]}ー〜ぁぃぅぇぉっゃゅょゎァィゥェォッャュョヮヵヶ・：；％%…―‐")
    private static let noEnd: Set<Character> = Set("（「『【〔〈《([{")

    /// Wide characters a line may break beside without a space: kanji and kana, not Hangul, which is
    /// written with spaces between words and breaks only there.
    private static func breaksBetween(_ s: Unicode.Scalar) -> Bool {
        let v = s.value
        let hangul = (0x1100...0x11FF).contains(v) || (0x3130...0x318F).contains(v) || (0xA960...0xA97F).contains(v)
            || (0xAC00...0xD7FF).contains(v)
        return isWide(v) && !hangul
    }

    /// The text as unbreakable units: runs of spaces, words, and single wide characters kept
    /// together with the punctuation that must stay beside them.
    private static func breakUnits(_ text: String) -> [String] {
        var units: [String] = []
        var current = ""
        var previous: Character?
        for c in text {
            let isSpace = c == " "
            if let p = previous, !current.isEmpty {
                let wide = c.unicodeScalars.first.map(breaksBetween) ?? false
                let pWide = p.unicodeScalars.first.map(breaksBetween) ?? false
                // Spaces and words are units; between two characters where either is wide a line may
                // break too, unless the rules above forbid it.
                // A number keeps the counter or unit written after it (`1,200円`, `3日`).
                let counter = p.isASCII && p.isNumber
                if isSpace != (p == " ") || (!isSpace && (wide || pWide) && !counter && !noStart.contains(c) && !noEnd.contains(p)) {
                    units.append(current)
                    current = ""
                }
            }
            current.append(c)
            previous = c
        }
        if !current.isEmpty { units.append(current) }
        return units
    }
}
