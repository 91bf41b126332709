import Foundation

/// Days and spans in the words Korean and Japanese owners type, read as petlog's own forms before
/// parsing: 오늘/今日 `today`, 어제/昨日 `yesterday`, 내일/明日 `tomorrow`, 지금/今 `now`; `2주`/`2週間`
/// `2w`, `3일 전`/`3日前` `-3d`, `2주 후`/`2週間後` `+2w`; units 분/分, 시간/時間, 일/日, 주/週, 개월/달/か月,
/// 년/年. Full-width digits and colons count as ASCII (`１８：００`).
public enum TimeWords {
    static let words: [String: String] = [
        "오늘": "today", "今日": "today", "きょう": "today",
        "어제": "yesterday", "昨日": "yesterday", "きのう": "yesterday",
        "내일": "tomorrow", "明日": "tomorrow", "あした": "tomorrow", "あす": "tomorrow",
        "지금": "now", "今": "now", "いま": "now",
    ]
    /// Longest first, so 시간 is not read as 시 + 간 and 週間 not as 週.
    static let units: [(String, String)] = [
        ("시간", "h"), ("時間", "h"), ("개월", "m"), ("ヶ月", "m"), ("か月", "m"), ("カ月", "m"), ("ヵ月", "m"), ("週間", "w"),
        ("日間", "d"), ("年間", "y"), ("분", "min"), ("分", "min"), ("일", "d"), ("日", "d"), ("주", "w"), ("週", "w"),
        ("달", "m"), ("년", "y"), ("年", "y"),
    ]
    static let before = ["전", "前"], after = ["후", "뒤", "後"]

    /// `raw` trimmed, lowercased and in petlog's own words; text with none of these words comes back
    /// as it was (trimmed and lowercased), so the parsers' messages still quote what was typed.
    public static func canonical(_ raw: String) -> String {
        let text = raw.precomposedStringWithCompatibilityMapping.trimmingCharacters(in: .whitespaces).lowercased()
        // A leading word: "어제 18:00" → "yesterday 18:00".
        let head = text.prefix { $0 != " " }
        if let word = words[String(head)] { return word + text.dropFirst(head.count) }
        // A span: digits, a unit, then 전/前 (back) or 후/後 (ahead).
        let digits = text.prefix { $0.isASCII && $0.isNumber }
        guard !digits.isEmpty else { return text }
        var rest = text.dropFirst(digits.count).drop { $0 == " " }
        guard let (word, unit) = units.first(where: { rest.hasPrefix($0.0) }) else { return text }
        rest = rest.dropFirst(word.count).drop { $0 == " " }
        if rest.isEmpty { return String(digits) + unit }
        if before.contains(String(rest)) { return "-" + digits + unit }
        if after.contains(String(rest)) { return "+" + digits + unit }
        return text
    }
}
