/// One word as a POSIX shell (bash, zsh, dash) reads it: quoting a value so that a shell reads it back
/// word for word, and reading back a word typed with quotes, without any expansion.
public enum ShellWord {
    /// `value` as one shell word: bare when every character is plainly literal (`Coco`, `4.2kg`, `나비`),
    /// else in single quotes (`'O'\''Malley'`, `'$85.00'`), or, when it holds control characters that
    /// a terminal would act on, as `$'…'` with escapes (bash, zsh and ksh read those too).
    public static func quoted(_ value: String) -> String {
        if value.isEmpty { return "''" }
        if value.unicodeScalars.allSatisfy(isBare), !value.hasPrefix("~") { return value }
        if value.unicodeScalars.contains(where: PlainText.isControl) {
            var out = "$'"
            for s in value.unicodeScalars {
                switch s {
                case "\\": out += "\\\\"
                case "'": out += "\\'"
                case "\n": out += "\\n"
                case "\t": out += "\\t"
                case "\r": out += "\\r"
                default:
                    if PlainText.isControl(s) {
                        let hex = String(s.value, radix: 16)
                        out += s.value < 0x80 ? "\\x" + String(repeating: "0", count: 2 - hex.count) + hex
                                              : "\\u" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex
                    } else {
                        out.unicodeScalars.append(s)
                    }
                }
            }
            return out + "'"
        }
        return "'" + value.replacingOccurrences(of: "'", with: "'\\''") + "'"
    }

    /// Words joined into a command line a shell splits back into the same words.
    public static func commandLine(_ words: [String]) -> String {
        words.map(quoted).joined(separator: " ")
    }

    /// A word as typed on a command line (`O\'Ma`, `'Miss Ki`, `"a b"`, `$'x\ty'`) as the shell would pass
    /// it, quotes and backslashes undone; nothing is expanded (`$HOME` stays `$HOME`). An unclosed
    /// quote, as in a word still being typed, runs to the end.
    public static func unquoted(_ word: String) -> String {
        var out = String.UnicodeScalarView()
        let s = Array(word.unicodeScalars)
        var i = 0
        while i < s.count {
            let c = s[i]
            switch c {
            case "\\":
                if i + 1 < s.count { out.append(s[i + 1]) }
                i += 2
            case "'":
                i += 1
                while i < s.count, s[i] != "'" { out.append(s[i]); i += 1 }
                i += 1
            case "\"":
                i += 1
                while i < s.count, s[i] != "\"" {
                    if s[i] == "\\", i + 1 < s.count, "\"\\$`".unicodeScalars.contains(s[i + 1]) {
                        out.append(s[i + 1]); i += 2
                    } else {
                        out.append(s[i]); i += 1
                    }
                }
                i += 1
            case "$" where i + 1 < s.count && s[i + 1] == "'":
                i += 2
                while i < s.count, s[i] != "'" {
                    if s[i] == "\\", i + 1 < s.count {
                        switch s[i + 1] {
                        case "n": out.append("\n")
                        case "t": out.append("\t")
                        case "r": out.append("\r")
                        default: out.append(s[i + 1])
                        }
                        i += 2
                    } else {
                        out.append(s[i]); i += 1
                    }
                }
                i += 1
            default:
                out.append(c)
                i += 1
            }
        }
        return String(out)
    }

    private static func isBare(_ s: Unicode.Scalar) -> Bool {
        if s.isASCII {
            return ("a"..."z").contains(s) || ("A"..."Z").contains(s) || ("0"..."9").contains(s) || "_@%+=:,./-".unicodeScalars.contains(s)
        }
        // Letters, digits and marks of any script (Hangul, kana, accents) mean nothing to a shell.
        let p = s.properties
        return p.isAlphabetic || p.numericType != nil || p.generalCategory == .nonspacingMark || p.generalCategory == .spacingMark
    }

}
