import Assets
import Foundation

/// Every name of the listed symptoms, vaccines and expense categories (en/ko/ja and aliases,
/// `assets/care-names.json`), so `구토`, `嘔吐`, `Vomit` and `ＶＯＭＩＴＩＮＧ` are all the code `vomiting`,
/// and `간식`, `おやつ` and `snacks` the category `treats`.
public struct CareNames: Sendable {
    /// What a typed name is.
    public enum Match: Equatable, Sendable {
        /// A listed code.
        case listed(String)
        /// Very close to a listed name (`vomitting`): a typo, refused with that name as the suggestion.
        case nearly(code: String, name: String)
        /// Nothing like a listed name: the owner's own words.
        case unlisted
    }

    struct Entry: Decodable { var en: [String]; var ko: [String]; var ja: [String] }
    struct File: Decodable {
        var note: String; var symptoms: [String: Entry]; var vaccines: [String: Entry]; var categories: [String: Entry]
        var diseases: [String: Entry]; var water: Entry; var grooming: [String: Entry]
    }

    /// name key → code, and every (name, code) for suggestions and search.
    let symptomKeys: [String: String]
    let vaccineKeys: [String: String]
    let symptomNames: [(name: String, key: String, code: String)]
    let vaccineNames: [(name: String, key: String, code: String)]
    let categoryKeys: [String: String]
    let categoryNames: [(name: String, key: String, code: String)]
    /// name key → the disease a combination vaccine covers (`parvo` → `parvovirus`).
    let diseaseKeys: [String: String]
    /// The keys of the words a meal of water is named by.
    let waterKeys: Set<String>
    /// name key → grooming task code (`목욕`, `シャンプー` → `bath`).
    let groomingKeys: [String: String]
    let groomingNames: [(name: String, key: String, code: String)]

    public enum LoadError: Error, Equatable { case invalid(String) }

    public static func decode(_ data: Data) throws -> CareNames {
        let file = try JSONDecoder().decode(File.self, from: data)
        func table(_ entries: [String: Entry], _ what: String) throws -> ([String: String], [(String, String, String)]) {
            var keys: [String: String] = [:]
            var names: [(String, String, String)] = []
            for (code, e) in entries.sorted(by: { $0.key < $1.key }) {
                // The code itself is always a name.
                for name in [code] + e.en + e.ko + e.ja {
                    let k = key(name)
                    guard !k.isEmpty else { throw LoadError.invalid("\(what) \(code): an empty name") }
                    if let other = keys[k], other != code { throw LoadError.invalid("\(what) \"\(name)\" names both \(other) and \(code)") }
                    keys[k] = code
                    names.append((name, k, code))
                }
            }
            return (keys, names)
        }
        let s = try table(file.symptoms, "symptom"), v = try table(file.vaccines, "vaccine"), c = try table(file.categories, "category")
        let d = try table(file.diseases, "disease"), g = try table(file.grooming, "grooming")
        return CareNames(symptomKeys: s.0, vaccineKeys: v.0, symptomNames: s.1.map { ($0.0, $0.1, $0.2) },
                         vaccineNames: v.1.map { ($0.0, $0.1, $0.2) }, categoryKeys: c.0, categoryNames: c.1.map { ($0.0, $0.1, $0.2) },
                         diseaseKeys: d.0, waterKeys: Set((file.water.en + file.water.ko + file.water.ja).map(key)),
                         groomingKeys: g.0, groomingNames: g.1.map { ($0.0, $0.1, $0.2) })
    }

    /// The shipped names; a broken asset is a build bug, caught by the tests.
    public static let shipped: CareNames = {
        // safe: the file is compiled into the binary, and CareNamesTests decode it, so no input reaches this.
        do { return try decode(Assets.careNames) } catch { fatalError("assets/care-names.json: \(error)") }
    }()

    /// The form names are compared in: NFKC (full-width letters, half-width kana), case-folded, without
    /// spaces, hyphens, underscores, dots, middle dots or brackets (`Appetite-loss` = `appetite loss`,
    /// `식욕 부진` = `식욕부진`).
    public static func key(_ text: String) -> String {
        let folded = text.precomposedStringWithCompatibilityMapping.folding(options: [.caseInsensitive], locale: nil)
        return String(folded.unicodeScalars.filter { s in
            !(s.properties.isWhitespace || "-_.·・()（）[]".unicodeScalars.contains(s))
        }.map(Character.init))
    }

    public func symptom(_ raw: String) -> Match { match(raw, symptomKeys, symptomNames) }
    public func vaccine(_ raw: String) -> Match { match(raw, vaccineKeys, vaccineNames) }
    public func category(_ raw: String) -> Match { match(raw, categoryKeys, categoryNames) }
    /// A grooming task typed in any language (`nails`, `발톱`, `爪切り`).
    public func groomingTask(_ raw: String) -> Match { match(raw, groomingKeys, groomingNames) }
    /// The listed category codes, for help and completions.
    public var categoryCodes: [String] { Array(Set(categoryKeys.values)).sorted() }

    /// The listed code a stored symptom or vaccine text stands for (a name typed before petlog knew it), if any.
    public func symptomCode(_ text: String) -> String? { symptomKeys[Self.key(text)] }
    public func vaccineCode(_ text: String) -> String? { vaccineKeys[Self.key(text)] }
    /// The disease a name stands for, as a vaccine's `covers` names it (`ジステンパー`, `개홍역` → `distemper`).
    public func diseaseCode(_ text: String) -> String? { diseaseKeys[Self.key(text)] }
    /// Whether a food is water by its name in en/ko/ja (`water`, `물`, `水`, `お水`).
    public func isWater(_ food: String) -> Bool { waterKeys.contains(Self.key(food)) }

    /// The codes with a name that contains `query` (for `search 구토` to find records stored as `vomiting`).
    public func symptomCodes(containing query: String) -> [String] { codes(containing: query, symptomNames) }
    public func vaccineCodes(containing query: String) -> [String] { codes(containing: query, vaccineNames) }
    public func categoryCodes(containing query: String) -> [String] { codes(containing: query, categoryNames) }
    public func groomingCodes(containing query: String) -> [String] { codes(containing: query, groomingNames) }

    /// Every accepted name of a listed code.
    public func symptomNames(of code: String) -> [String] { symptomNames.filter { $0.code == code }.map(\.name) }
    public func vaccineNames(of code: String) -> [String] { vaccineNames.filter { $0.code == code }.map(\.name) }

    /// A typed symptom as stored: a listed code, or the owner's words (`asWritten` skips the list).
    /// A typo of a listed name is refused with that name, never stored as a new symptom.
    public func symptomEntry(_ raw: String, asWritten: Bool = false) throws -> (text: String, isListed: Bool) {
        let text = try TextField.label(raw, field: "symptom")
        if asWritten { return (text, false) }
        switch symptom(text) {
        case .listed(let code): return (code, true)
        case .nearly(_, let name): throw ParseError.nearlyListed(field: "symptom", value: text, suggestion: name)
        case .unlisted: return (text, false)
        }
    }

    /// A typed vaccine as stored: a listed code, or the name as given (`asWritten` skips the list).
    public func vaccineEntry(_ raw: String, asWritten: Bool = false) throws -> String {
        let text = try TextField.label(raw, field: "vaccine")
        if asWritten { return text }
        switch vaccine(text) {
        case .listed(let code): return code
        case .nearly(_, let name): throw ParseError.nearlyListed(field: "vaccine", value: text, suggestion: name)
        case .unlisted: return text
        }
    }

    /// A typed expense category as stored: a listed code, or the owner's own word (`asWritten` skips
    /// the list); a typo of a listed name is refused with that name.
    public func categoryEntry(_ raw: String, asWritten: Bool = false) throws -> String {
        let text = try TextField.label(raw, field: "category")
        if asWritten { return text }
        switch category(text) {
        case .listed(let code): return code
        case .nearly(_, let name): throw ParseError.nearlyListed(field: "category", value: text, suggestion: name)
        case .unlisted: return text
        }
    }

    func match(_ raw: String, _ keys: [String: String], _ names: [(name: String, key: String, code: String)]) -> Match {
        let k = Self.key(raw)
        if let code = keys[k] { return .listed(code) }
        // A typo only when the name is long enough that one or two edits cannot make another word
        // (`bump` is not `lump`): one edit from 5 characters on, two from 9.
        let allowed = k.count >= 9 ? 2 : k.count >= 5 ? 1 : 0
        guard allowed > 0 else { return .unlisted }
        let chars = Array(k)
        var best: (name: String, code: String, distance: Int)?
        for n in names where abs(n.key.count - chars.count) <= allowed {
            let d = NameSuggestion.distance(chars, Array(n.key))
            if d <= allowed, d < (best?.distance ?? Int.max) { best = (n.name, n.code, d) }
        }
        return best.map { .nearly(code: $0.code, name: $0.name) } ?? .unlisted
    }

    func codes(containing query: String, _ names: [(name: String, key: String, code: String)]) -> [String] {
        let q = Self.key(query)
        guard !q.isEmpty else { return [] }
        return Array(Set(names.filter { $0.key.contains(q) }.map(\.code))).sorted()
    }
}

extension Symptom {
    /// The listed code this symptom is, also for words typed before petlog knew them as a name (an old `구토`).
    public var listedCode: String? { isListed ? code : CareNames.shipped.symptomCode(code) }
    /// What symptoms are counted together by: the listed code, else the words without case or width differences.
    public var groupKey: String { listedCode ?? "~" + CareNames.key(code) }
}
