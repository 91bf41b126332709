/// The type family a document's text is set in, chosen by its language.
///
/// A document is set in one family for every script it shows, Latin letters and digits included (the
/// family's own Latin), so that `pdffonts` lists one family and "3.6 kg" beside Hangul has the same
/// x-height and weight: Korean in Nanum Gothic (TrueType), Japanese in M PLUS 2 (a 1.6 MB OpenType
/// font); English in the system's "Sans" (DejaVu Sans on the reference machine). Noto Sans CJK is the
/// fallback where those are not installed, and for characters they lack: it looks as good, but cairo
/// 1.16 copies each Noto CJK face's whole 16 MB CFF table to subset it for a PDF, which made a Korean
/// report 1.5–1.9× as slow as the English one (docs/benchmarks.md); Nanum Gothic and M PLUS 2 subset in
/// a few milliseconds. Characters no family has (emoji) still fall back through fontconfig.
public enum FontFamily {
    /// The family name that means "the document's family" in font descriptions ("Sans 10").
    public static let generic = "Sans"

    /// A Pango family list for `language` (BCP 47: "ko", "ja-JP", "zh-TW"; nil for none).
    public static func document(language: String?) -> String {
        let tag = (language ?? "").lowercased()
        let primary = tag.split(whereSeparator: { $0 == "-" || $0 == "_" }).first.map(String.init) ?? ""
        switch primary {
        case "ko": return "NanumGothic,Noto Sans CJK KR,\(generic)"
        case "ja": return "M PLUS 2,Noto Sans CJK JP,\(generic)"
        case "zh":
            let traditional = tag.contains("tw") || tag.contains("hk") || tag.contains("hant")
            return (traditional ? "Noto Sans CJK TC," : "Noto Sans CJK SC,") + generic
        default: return generic
        }
    }
}
