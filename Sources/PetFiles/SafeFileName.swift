import Foundation

/// A file name typed by someone else (an attachment's original name) made safe to create in a folder:
/// one name, never a path (`/` and NUL become `_`), no control or bidi-override characters, no leading dots
/// (never `.`, `..` or a hidden file), at most 255 bytes with the extension kept, never empty; letters of
/// any script (Hangul, kana, emoji) are kept.
public enum SafeFileName {
    public static let maxBytes = 255

    public static func name(_ raw: String, fallback: String) -> String {
        var out = ""
        for scalar in raw.precomposedStringWithCanonicalMapping.unicodeScalars {
            switch scalar.value {
            case 0x2F, 0x5C, 0x00: out.unicodeScalars.append("_")
            case 0x00...0x1F, 0x7F...0x9F, 0x200E, 0x200F, 0x202A...0x202E, 0x2066...0x2069, 0xFEFF: continue
            default: out.unicodeScalars.append(scalar)
            }
        }
        out = out.trimmingCharacters(in: .whitespacesAndNewlines)
        while out.hasPrefix(".") { out.removeFirst() }
        out = out.trimmingCharacters(in: .whitespacesAndNewlines)
        if out.isEmpty { out = fallback }
        return fitted(out)
    }

    /// `name` cut to `maxBytes` bytes of UTF-8 on a character boundary, its extension kept.
    static func fitted(_ name: String, reserve: Int = 0) -> String {
        let limit = maxBytes - reserve
        guard name.utf8.count > limit else { return name }
        let (stem, ext) = split(name)
        var cut = stem
        while !cut.isEmpty, cut.utf8.count + ext.utf8.count > limit { cut.removeLast() }
        if !cut.isEmpty { return cut + ext }
        var whole = name
        while whole.utf8.count > limit { whole.removeLast() }
        return whole
    }

    /// `photo.jpg` → (`photo`, `.jpg`); a name without a dot (or only a leading one) has no extension.
    static func split(_ name: String) -> (String, String) {
        guard let dot = name.lastIndex(of: "."), dot != name.startIndex, name.distance(from: dot, to: name.endIndex) <= 16 else { return (name, "") }
        return (String(name[..<dot]), String(name[dot...]))
    }

    /// Distinct names for files going into one folder: the second `photo.jpg` is `photo (2).jpg`, the third
    /// `photo (3).jpg` (compared without regard to case, as some file systems do).
    public static func distinct(_ names: [String]) -> [String] {
        var taken = Set<String>()
        var out: [String] = []
        for name in names {
            var candidate = name
            var n = 2
            while taken.contains(candidate.lowercased()) {
                let suffix = " (\(n))"
                let (stem, ext) = split(fitted(name, reserve: suffix.utf8.count))
                candidate = stem + suffix + ext
                n += 1
            }
            taken.insert(candidate.lowercased())
            out.append(candidate)
        }
        return out
    }
}
