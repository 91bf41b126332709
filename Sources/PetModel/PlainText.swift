/// Text from the user or a file made safe to show or write into a line-based format.
public enum PlainText {
    /// Tabs and line breaks become spaces; other control characters, line and paragraph separators
    /// and bidirectional overrides become U+FFFD, so a name cannot move the cursor, recolour the
    /// terminal, break an iCalendar line or reorder what follows it.
    public static func sanitized(_ text: String) -> String {
        // Printable ASCII has nothing to replace.
        if text.utf8.allSatisfy({ $0 >= 0x20 && $0 < 0x7F }) { return text }
        var out = String.UnicodeScalarView()
        for s in text.unicodeScalars {
            switch s.value {
            case 0x09, 0x0A, 0x0D: out.append(" ")
            default: out.append(isControl(s) ? "\u{FFFD}" : s)
            }
        }
        return String(out)
    }

    /// A control character, a line or paragraph separator, or a bidirectional override: what a terminal
    /// acts on rather than shows.
    public static func isControl(_ s: Unicode.Scalar) -> Bool {
        switch s.value {
        case 0x00...0x1F, 0x7F...0x9F, 0x2028, 0x2029, 0x202A...0x202E, 0x2066...0x2069: return true
        default: return false
        }
    }
}
