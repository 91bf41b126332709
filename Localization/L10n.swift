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

/// Translated strings for one language: `text(.petAdded(name: "Coco"))`.
public struct L10n: Sendable {
    public let language: Language

    public init(_ language: Language) {
        self.language = language
    }

    /// A message with its values: built only by the typed constructors in Messages.swift, whose
    /// parameters are the English template's placeholders, so the compiler checks every call.
    public struct Message: Sendable {
        let key: Key
        let args: [String: String]
        init(_ key: Key, _ args: [String: String]) { self.key = key; self.args = args }
    }

    /// The template of a message in a language (every language has every message: the tables are switches).
    static func template(_ key: Key, _ language: Language) -> String {
        switch language {
        case .en: return en(key)
        case .ko: return ko(key)
        case .ja: return ja(key)
        }
    }

    /// The text of a message with its `{placeholder}`s filled.
    public func text(_ message: Message) -> String {
        L10n.fill(L10n.template(message.key, language), message.args, korean: language == .ko, japanese: language == .ja)
    }

    /// The text of a string without placeholders named by its key (`fieldname.distance`), as a record kind's
    /// descriptor names `show ID`'s label of a member; nil when no string has that key.
    public func text(key raw: String) -> String? {
        L10n.keysByRawValue[raw].map { text(Message($0, [:])) }
    }

    /// The display name of a stored code (`species.dog` → "dog"), or the code itself when it has none
    /// (a symptom or category in the owner's own words).
    public func code(_ group: CodeGroup, _ code: String) -> String {
        guard let key = L10n.keysByRawValue["\(group.rawValue).\(code)"] else { return code }
        return L10n.template(key, language)
    }

    /// The name of an input a message refers to, in this language: a field (`diary`, `duration_minutes`)
    /// or a setting (`week_start`) → "일기", "日記"; an option keeps what was typed beside its name so the
    /// line says what to fix: `--severity` → "중증도(--severity)", "重症度（--severity）", and in English
    /// the option itself. A name with no entry in the `fieldname` code group is shown as it was given.
    public func fieldName(_ raw: String) -> String {
        let name = String(raw.drop { $0 == "-" }).lowercased().replacingOccurrences(of: "_", with: "-")
        let shown = code(.fieldname, name)
        guard raw.hasPrefix("--"), L10n.keysByRawValue["fieldname." + name] != nil else { return shown }
        switch language {
        case .en: return raw
        case .ko: return shown + "(" + raw + ")"
        case .ja: return shown + "（" + raw + "）"
        }
    }

    /// The words an input accepts, as typed, each with its name in this language where it has one:
    /// `--mood` in Korean → `happy(기분 좋음)`, …; English lists the words alone.
    public func acceptedWords(_ field: String, _ accepted: [String]) -> [String] {
        let groups = ["mood": "mood", "species": "species", "sex": "sex", "route": "route", "amount": "urineAmount",
                      "reason": "archiveReason", "kind": "kind", "payment": "payment"]
        guard language != .en, let group = groups[String(field.drop { $0 == "-" })] else { return accepted }
        let (open, close) = language == .ja ? ("（", "）") : ("(", ")")
        return accepted.map { word in
            let name = L10n.keysByRawValue["\(group).\(word)"].map { L10n.template($0, language) } ?? word
            return name == word ? word : word + open + name + close
        }
    }

    /// Every key by its raw value: a hash lookup where `Key(rawValue:)` compares against each of the
    /// hundreds of keys in turn (a list prints a category name per line).
    static let keysByRawValue: [String: Key] = Dictionary(uniqueKeysWithValues: Key.allCases.map { ($0.rawValue, $0) })

    /// Fills `{name}` with its value, and chooses a plural form with `{name|one|other}`: `one` when the
    /// value is 1, else `other` ("{count} {count|meal|meals}"). English needs the forms; Korean and
    /// Japanese write `{count}` alone.
    /// In Korean, a particle written out after a placeholder (`{name}을(를)`) takes the form the inserted
    /// value needs (`KoreanParticles`).
    /// In Japanese, the space a template keeps between a placeholder and a particle beside it (so that
    /// `{path} を`, `ID {id} の` read apart) is dropped where the inserted value itself is Japanese at that
    /// side: `フィラリア予防薬の投与`, never `フィラリア予防薬 の投与`. A space before a word (`4週 移動平均`)
    /// stays: only hiragana (particles, endings) joins.
    static func fill(_ template: String, _ args: [String: String], korean: Bool = false, japanese: Bool = false) -> String {
        guard template.contains("{") else { return template }
        var out = ""
        var rest = Substring(template)
        while let open = rest.firstIndex(of: "{") {
            out += rest[..<open]
            guard let close = rest[open...].firstIndex(of: "}") else { break }
            let inside = String(rest[rest.index(after: open)..<close])
            let parts = inside.split(separator: "|", omittingEmptySubsequences: false).map(String.init)
            rest = rest[rest.index(after: close)...]
            if parts.count == 3, let value = args[parts[0]] {
                out += value == "1" ? parts[1] : parts[2]
            } else if let value = args[inside] {
                if japanese, out.last == " ", let before = out.dropLast().last, let first = value.first,
                   isHiragana(before), isJapanese(first) {
                    out.removeLast()
                }
                out += value
                if japanese, rest.first == " ", let after = rest.dropFirst().first, let last = value.last,
                   isHiragana(after), isJapanese(last) {
                    rest = rest.dropFirst()
                }
                if korean, let particle = KoreanParticles.resolve(after: value, in: rest) {
                    out += particle.replacement
                    rest = rest.dropFirst(particle.consumed)
                }
            } else {
                out += "{\(inside)}"
            }
        }
        return out + rest
    }

    /// Kana, kanji and the full-width punctuation Japanese text is written in (not Latin letters or digits).
    static func isJapanese(_ c: Character) -> Bool {
        guard let s = c.unicodeScalars.first else { return false }
        switch s.value {
        case 0x3000...0x303F, 0x3040...0x309F, 0x30A0...0x30FF, 0x31F0...0x31FF, 0x3400...0x4DBF, 0x4E00...0x9FFF,
             0xF900...0xFAFF, 0xFF01...0xFF0F, 0xFF1A...0xFF20, 0xFF5B...0xFF65:
            return true
        default:
            return false
        }
    }

    static func isHiragana(_ c: Character) -> Bool {
        c.unicodeScalars.first.map { (0x3041...0x309F).contains($0.value) } ?? false
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
        Dictionary(uniqueKeysWithValues: Language.allCases.map { language in
            var all: [String: String] = [:]
            for key in Key.allCases { all[key.rawValue] = template(key, language) }
            return (language, all)
        })
    }
}
