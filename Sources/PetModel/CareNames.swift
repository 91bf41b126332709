import Assets
import Foundation
import Synchronization

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

    /// One list's names: name key → code, and every (name, key, code) for suggestions and search.
    struct Table: Sendable {
        var keys: [String: String] = [:]
        var names: [(name: String, key: String, code: String)] = []
    }
    /// The lists of the file that name a code.
    enum List: CaseIterable, Sendable { case symptoms, vaccines, categories, diseases, grooming }

    let file: File
    /// Each list folded on first use (`due` folds the vaccines' names, not all 650, issue 44); `decode` folds them all.
    private let folded: Folded

    /// The tables folded so far, behind a lock (`shipped` is one value shared by every thread of `serve`).
    final class Folded: Sendable {
        let state = Mutex<(tables: [List: Table], water: Set<String>?)>(([:], nil))
    }

    public enum LoadError: Error, Equatable { case invalid(String) }

    /// The names of `data`, every list folded and checked (a name of two codes is refused).
    public static func decode(_ data: Data) throws -> CareNames {
        let names = try lazily(data)
        var tables: [List: Table] = [:]
        for list in List.allCases { tables[list] = try names.fold(list) }
        let water = names.foldWater()
        names.folded.state.withLock { $0 = (tables, water) }
        return names
    }

    /// The names of `data`, each list folded when first asked.
    static func lazily(_ data: Data) throws -> CareNames {
        CareNames(file: try JSONDecoder().decode(File.self, from: data), folded: Folded())
    }

    func entries(_ list: List) -> (entries: [String: Entry], what: String) {
        switch list {
        case .symptoms: return (file.symptoms, "symptom")
        case .vaccines: return (file.vaccines, "vaccine")
        case .categories: return (file.categories, "category")
        case .diseases: return (file.diseases, "disease")
        case .grooming: return (file.grooming, "grooming")
        }
    }

    func fold(_ list: List) throws -> Table {
        let (entries, what) = self.entries(list)
        var t = Table()
        for (code, e) in entries.sorted(by: { $0.key < $1.key }) {
            // The code itself is always a name.
            for name in [code] + e.en + e.ko + e.ja {
                let k = Self.key(name)
                guard !k.isEmpty else { throw LoadError.invalid("\(what) \(code): an empty name") }
                if let other = t.keys[k], other != code { throw LoadError.invalid("\(what) \"\(name)\" names both \(other) and \(code)") }
                t.keys[k] = code
                t.names.append((name, k, code))
            }
        }
        return t
    }

    func foldWater() -> Set<String> { Set((file.water.en + file.water.ko + file.water.ja).map(Self.key)) }

    /// The table of `list`, folded on first use.
    func table(_ list: List) -> Table {
        folded.state.withLock { state in
            if let t = state.tables[list] { return t }
            // safe: `decode` folds every list of the shipped file in CareNamesTests, so a name of two codes fails there.
            do { let t = try fold(list); state.tables[list] = t; return t } catch { fatalError("assets/care-names.json: \(error)") }
        }
    }

    /// The keys of the words a meal of water is named by, folded on first use.
    var waterKeys: Set<String> {
        folded.state.withLock { state in
            if let w = state.water { return w }
            let w = foldWater()
            state.water = w
            return w
        }
    }

    /// The shipped names, each list folded on first use; a broken asset is a build bug, caught by the tests.
    public static let shipped: CareNames = {
        // safe: the file is compiled into the binary, and CareNamesTests decode it, so no input reaches this.
        do { return try lazily(Assets.careNames) } catch { fatalError("assets/care-names.json: \(error)") }
    }()

    /// The form names are compared in: NFKC (full-width letters, half-width kana), case-folded, without
    /// spaces, hyphens, underscores, dots, middle dots or brackets (`Appetite-loss` = `appetite loss`,
    /// `식욕 부진` = `식욕부진`).
    public static func key(_ text: String) -> String {
        // ASCII text (half the shipped names, most stored codes) is folded byte by byte: NFKC leaves it as it is and
        // case folding lowers A–Z, which is what `foldedKey` gives for it at a fifth of the cost (issue 44).
        var bytes: [UInt8] = []
        bytes.reserveCapacity(text.utf8.count)
        for b in text.utf8 {
            guard b < 0x80 else { return foldedKey(text) }
            if ignoredASCII[Int(b)] { continue }
            bytes.append(b >= 0x41 && b <= 0x5A ? b | 0x20 : b)
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// `key` of any text, by Foundation's NFKC and case folding.
    static func foldedKey(_ text: String) -> String {
        let folded = text.precomposedStringWithCompatibilityMapping.folding(options: [.caseInsensitive], locale: nil)
        return String(folded.unicodeScalars.filter { s in !isIgnored(s) }.map(Character.init))
    }

    /// What names are compared without: white space, hyphens, underscores, dots, middle dots and brackets.
    static func isIgnored(_ s: Unicode.Scalar) -> Bool { s.properties.isWhitespace || "-_.·・()（）[]".unicodeScalars.contains(s) }
    static let ignoredASCII: [Bool] = (0..<128).map { isIgnored(Unicode.Scalar(UInt8($0))) }

    public func symptom(_ raw: String) -> Match { match(raw, table(.symptoms)) }
    public func vaccine(_ raw: String) -> Match { match(raw, table(.vaccines)) }
    public func category(_ raw: String) -> Match { match(raw, table(.categories)) }
    /// A grooming task typed in any language (`nails`, `발톱`, `爪切り`).
    public func groomingTask(_ raw: String) -> Match { match(raw, table(.grooming)) }
    /// The listed category codes, for help and completions.
    public var categoryCodes: [String] { Array(Set(table(.categories).keys.values)).sorted() }

    /// The listed code a stored symptom or vaccine text stands for (a name typed before petlog knew it), if any.
    public func symptomCode(_ text: String) -> String? { table(.symptoms).keys[Self.key(text)] }
    public func vaccineCode(_ text: String) -> String? { table(.vaccines).keys[Self.key(text)] }
    /// The disease a name stands for, as a vaccine's `covers` names it (`ジステンパー`, `개홍역` → `distemper`).
    public func diseaseCode(_ text: String) -> String? { table(.diseases).keys[Self.key(text)] }
    /// Whether a food is water by its name in en/ko/ja (`water`, `물`, `水`, `お水`).
    public func isWater(_ food: String) -> Bool { waterKeys.contains(Self.key(food)) }

    /// The codes with a name that contains `query` (for `search 구토` to find records stored as `vomiting`).
    public func symptomCodes(containing query: String) -> [String] { codes(containing: query, table(.symptoms).names) }
    public func vaccineCodes(containing query: String) -> [String] { codes(containing: query, table(.vaccines).names) }
    public func categoryCodes(containing query: String) -> [String] { codes(containing: query, table(.categories).names) }
    public func groomingCodes(containing query: String) -> [String] { codes(containing: query, table(.grooming).names) }

    /// Every accepted name of a listed code.
    public func symptomNames(of code: String) -> [String] { table(.symptoms).names.filter { $0.code == code }.map(\.name) }
    public func vaccineNames(of code: String) -> [String] { table(.vaccines).names.filter { $0.code == code }.map(\.name) }

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

    func match(_ raw: String, _ table: Table) -> Match {
        let k = Self.key(raw)
        if let code = table.keys[k] { return .listed(code) }
        // A typo only when the name is long enough that one or two edits cannot make another word
        // (`bump` is not `lump`): one edit from 5 characters on, two from 9.
        let allowed = k.count >= 9 ? 2 : k.count >= 5 ? 1 : 0
        guard allowed > 0 else { return .unlisted }
        let chars = Array(k)
        var best: (name: String, code: String, distance: Int)?
        for n in table.names where abs(n.key.count - chars.count) <= allowed {
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
