/// The type family a document's text is set in, chosen by its language.
///
/// A document is set in one family for every script it shows: Korean and Japanese text in Noto Sans
/// CJK, Latin letters and digits included (its own Latin), so that `pdffonts` lists one family and
/// "3.6 kg" beside Hangul has the same x-height and weight; English in the system's "Sans" (DejaVu
/// Sans on the reference machine), whose glyphs cover Latin, Greek and Cyrillic. Characters the first
/// family lacks (Hangul in an English report, emoji) still fall back through fontconfig.
public enum FontFamily {
    /// The family name that means "the document's family" in font descriptions ("Sans 10").
    public static let generic = "Sans"

    /// A Pango family list for `language` (BCP 47: "ko", "ja-JP", "zh-TW"; nil for none).
    public static func document(language: String?) -> String {
        let tag = (language ?? "").lowercased()
        let primary = tag.split(whereSeparator: { $0 == "-" || $0 == "_" }).first.map(String.init) ?? ""
        switch primary {
        case "ko": return "Noto Sans CJK KR,\(generic)"
        case "ja": return "Noto Sans CJK JP,\(generic)"
        case "zh":
            let traditional = tag.contains("tw") || tag.contains("hk") || tag.contains("hant")
            return (traditional ? "Noto Sans CJK TC," : "Noto Sans CJK SC,") + generic
        default: return generic
        }
    }
}
