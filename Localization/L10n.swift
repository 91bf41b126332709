/// The languages petlog speaks.
public enum Language: String, CaseIterable, Sendable {
    case en, ko, ja

    /// `ko`, `KO`, `ko-KR`, `ko_KR.UTF-8` → ko.
    public static func parse(_ text: String) -> Language? {
        let lower = text.lowercased()
        let base = lower.split(whereSeparator: { $0 == "_" || $0 == "-" || $0 == "." || $0 == "@" }).first.map(String.init) ?? lower
        return Language(rawValue: base)
    }

    /// From a POSIX locale value; `C` and `POSIX` mean English.
    public static func fromLocale(_ value: String) -> Language? {
        if value == "C" || value == "POSIX" || value.hasPrefix("C.") { return .en }
        return parse(value)
    }
}

/// Translated strings for one language: `text(.petAdded, ["name": "Coco"])`.
public struct L10n: Sendable {
    public let language: Language
    let table: [String: String]

    public init(_ language: Language) {
        self.language = language
        self.table = L10n.table(for: language)
    }

    static func table(for language: Language) -> [String: String] {
        switch language {
        case .en: return en
        case .ko: return ko
        case .ja: return ja
        }
    }

    /// The text of `key` with `{placeholder}`s filled; English when a table lacks the key (tests forbid that).
    public func text(_ key: Key, _ args: [String: String] = [:]) -> String {
        L10n.fill(table[key.rawValue] ?? L10n.en[key.rawValue] ?? key.rawValue, args)
    }

    /// The display name of a stored code (`species.dog` → "dog"), or the code itself when it has none
    /// (a symptom or category in the owner's own words).
    public func code(_ group: CodeGroup, _ code: String) -> String {
        let k = "\(group.rawValue).\(code)"
        return table[k] ?? L10n.en[k] ?? code
    }

    /// Fills `{name}` with its value, and chooses a plural form with `{name|one|other}`: `one` when the
    /// value is 1, else `other` ("{count} {count|meal|meals}"). English needs the forms; Korean and
    /// Japanese write `{count}` alone.
    static func fill(_ template: String, _ args: [String: String]) -> String {
        guard template.contains("{") else { return template }
        var out = ""
        var rest = Substring(template)
        while let open = rest.firstIndex(of: "{") {
            out += rest[..<open]
            guard let close = rest[open...].firstIndex(of: "}") else { break }
            let inside = String(rest[rest.index(after: open)..<close])
            let parts = inside.split(separator: "|", omittingEmptySubsequences: false).map(String.init)
            if parts.count == 3, let value = args[parts[0]] {
                out += value == "1" ? parts[1] : parts[2]
            } else {
                out += args[inside] ?? "{\(inside)}"
            }
            rest = rest[rest.index(after: close)...]
        }
        return out + rest
    }

    /// The placeholder names in a template, for the table consistency tests.
    public static func placeholders(in template: String) -> Set<String> {
        var names: Set<String> = []
        var rest = Substring(template)
        while let open = rest.firstIndex(of: "{"), let close = rest[open...].firstIndex(of: "}") {
            let inside = rest[rest.index(after: open)..<close]
            names.insert(String(inside.prefix { $0 != "|" }))
            rest = rest[rest.index(after: close)...]
        }
        return names
    }

    /// Every table by language, for the consistency tests.
    public static var tables: [Language: [String: String]] {
        Dictionary(uniqueKeysWithValues: Language.allCases.map { ($0, table(for: $0)) })
    }
}
