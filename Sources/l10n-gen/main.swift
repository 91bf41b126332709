// l10n-gen OUTPUT en.txt ko.txt ja.txt
//
// The build's string generator (run by Plugins/L10nPlugin for the Localization target; the format is
// described at the top of Localization/Strings/en.txt). Reads the English file, which declares every
// string (its Swift name, raw key, optional parameter order, doc comment, text), and one file per other
// language (raw key and text), checks that every language has every key, no key English lacks, and the
// same {placeholders} as English, and writes one Swift file: the `L10n.Key` enum, the typed
// constructors (`L10n.Message`) and one exhaustive switch per language (`L10n.en(_:)`, …): a lookup is
// a switch, as when the tables were written by hand. A problem is reported as `FILE:LINE: error: …`
// and the build fails.
import Foundation

struct Declared {
    let name: String
    let raw: String
    let params: [String]
    let doc: [String]
    let line: Int
}

var problems: [String] = []
@MainActor func problem(_ file: String, _ line: Int, _ message: String) { problems.append("\(file):\(line): error: \(message)") }

/// `{name}` and `{name|one|other}`: the names, in the order the text first gives them.
func placeholders(_ text: String) -> [String] {
    var names: [String] = []
    var rest = Substring(text)
    while let open = rest.firstIndex(of: "{"), let close = rest[open...].firstIndex(of: "}") {
        let name = String(rest[rest.index(after: open)..<close].prefix { $0 != "|" })
        if !names.contains(name) { names.append(name) }
        rest = rest[rest.index(after: close)...]
    }
    return names
}

func isIdentifier(_ s: String) -> Bool {
    guard let first = s.unicodeScalars.first, first == "_" || CharacterSet.letters.contains(first) else { return false }
    return s.unicodeScalars.allSatisfy { $0 == "_" || CharacterSet.alphanumerics.contains($0) }
}

func isRawKey(_ s: String) -> Bool {
    !s.isEmpty && s.unicodeScalars.allSatisfy { $0.isASCII && (CharacterSet.alphanumerics.contains($0) || "._-".unicodeScalars.contains($0)) }
}

/// The file's escapes: \n, \t, \\, \s (a space, for a text's ends, which editors drop).
@MainActor func unescape(_ text: Substring, _ file: String, _ line: Int) -> String {
    var out = ""
    var it = text.makeIterator()
    while let c = it.next() {
        guard c == "\\" else { out.append(c); continue }
        switch it.next() {
        case "n": out.append("\n")
        case "t": out.append("\t")
        case "s": out.append(" ")
        case "\\": out.append("\\")
        case let other: problem(file, line, "unknown escape \\\(other.map(String.init) ?? "") (write \\n, \\t, \\s or \\\\)")
        }
    }
    return out
}

/// One file's lines that name a string: (line number, the part before " = ", the text).
@MainActor func entries(_ path: String) -> [(line: Int, head: Substring, text: String, doc: [String])] {
    guard let data = FileManager.default.contents(atPath: path), let source = String(data: data, encoding: .utf8) else {
        problem(path, 1, "cannot read the file (UTF-8)"); return []
    }
    var out: [(Int, Substring, String, [String])] = []
    var doc: [String] = []
    for (index, line) in source.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
        let number = index + 1
        if line.hasPrefix("///") { doc.append(String(line.dropFirst(3).drop { $0 == " " })); continue }
        if line.hasPrefix("#") || line.allSatisfy({ $0 == " " }) { continue }
        if line.last == " " || line.last == "\t" { problem(path, number, "a space at the end of the line: write it as \\s") }
        let head: Substring, text: Substring
        if let r = line.range(of: " = ") {
            head = line[..<r.lowerBound]; text = line[r.upperBound...]
        } else if line.hasSuffix(" =") {
            head = line.dropLast(2); text = ""
        } else {
            problem(path, number, "not `key = text`: \(line)"); doc = []; continue
        }
        out.append((number, head, unescape(text, path, number), doc))
        doc = []
    }
    return out
}

func swiftLiteral(_ text: String) -> String {
    var out = "\""
    for scalar in text.unicodeScalars {
        switch scalar {
        case "\\": out += "\\\\"
        case "\"": out += "\\\""
        case "\n": out += "\\n"
        case "\t": out += "\\t"
        case let s where s.value < 0x20 || s.value == 0x7F: out += "\\u{\(String(s.value, radix: 16))}"
        default: out.unicodeScalars.append(scalar)
        }
    }
    return out + "\""
}

let arguments = CommandLine.arguments.dropFirst()
guard arguments.count >= 2 else {
    FileHandle.standardError.write(Data("usage: l10n-gen OUTPUT.swift en.txt [ko.txt …]\n".utf8))
    exit(64)
}
let output = arguments.first!  // safe: counted above
let files = Array(arguments.dropFirst())
func language(_ path: String) -> String { URL(fileURLWithPath: path).deletingPathExtension().lastPathComponent }

// English: the declarations.
let englishFile = files[0]
var declared: [Declared] = []
var english: [String: String] = [:]
var names: Set<String> = []
for e in entries(englishFile) {
    // `caseName rawKey`, or `caseName(b, a) rawKey`: the parameter list may hold spaces.
    let split = e.head.firstIndex(of: ")").map { e.head.index(after: $0) } ?? e.head.firstIndex(of: " ") ?? e.head.endIndex
    let words = [e.head[..<split], e.head[split...].drop { $0 == " " }].filter { !$0.isEmpty }
    guard words.count == 2, !words[1].contains(" ") else { problem(englishFile, e.line, "not `caseName rawKey = text` (or `caseName(b, a) rawKey = text`)"); continue }
    var name = String(words[0])
    var params: [String]? = nil
    if let open = name.firstIndex(of: "("), name.hasSuffix(")") {
        params = name[name.index(after: open)..<name.index(before: name.endIndex)].split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
        name = String(name[..<open])
    }
    let raw = String(words[1])
    guard isIdentifier(name) else { problem(englishFile, e.line, "\(name) is not a Swift name"); continue }
    guard isRawKey(raw) else { problem(englishFile, e.line, "\(raw) is not a key (letters, digits, . _ -)"); continue }
    if names.contains(name) { problem(englishFile, e.line, "\(name) is declared twice") }
    if english[raw] != nil { problem(englishFile, e.line, "\(raw) is declared twice") }
    names.insert(name)
    let found = placeholders(e.text)
    for p in found where !isIdentifier(p) { problem(englishFile, e.line, "{\(p)} is not a Swift name") }
    if let params, Set(params) != Set(found) || params.count != found.count {
        problem(englishFile, e.line, "\(name)(\(params.joined(separator: ", "))) does not name the text's placeholders \(found.joined(separator: ", "))")
    }
    english[raw] = e.text
    declared.append(Declared(name: name, raw: raw, params: params ?? found, doc: e.doc, line: e.line))
}

// The other languages: every key, no other, the same placeholders.
var tables: [(language: String, texts: [String: String])] = [(language(englishFile), english)]
for file in files.dropFirst() {
    var texts: [String: String] = [:]
    for e in entries(file) {
        let raw = String(e.head)
        guard let en = english[raw] else { problem(file, e.line, "\(raw) is not a key of \(URL(fileURLWithPath: englishFile).lastPathComponent)"); continue }
        if texts[raw] != nil { problem(file, e.line, "\(raw) has two texts") }
        if Set(placeholders(e.text)) != Set(placeholders(en)) {
            problem(file, e.line, "\(raw): the placeholders {\(placeholders(e.text).sorted().joined(separator: "}, {"))} are not English's {\(placeholders(en).sorted().joined(separator: "}, {"))}")
        }
        texts[raw] = e.text
    }
    for d in declared where texts[d.raw] == nil {
        problem(file, 1, "no \(language(file)) text for \(d.raw) (\(d.name), \(URL(fileURLWithPath: englishFile).lastPathComponent):\(d.line))")
    }
    tables.append((language(file), texts))
}

guard problems.isEmpty else {
    FileHandle.standardError.write(Data((problems.joined(separator: "\n") + "\n").utf8))
    exit(1)
}

var out = """
// Generated at build time by l10n-gen (Plugins/L10nPlugin) from Localization/Strings/*.txt: edit those.

extension L10n {
    /// A user-facing string. The raw value is its key in every table.
    public enum Key: String, CaseIterable, Sendable {

"""
for d in declared {
    for line in d.doc { out += "        /// \(line)\n" }
    out += "        case \(d.name) = \(swiftLiteral(d.raw))\n"
}
out += "    }\n}\n\n/// One typed constructor per string, whose parameters are its English placeholders.\nextension L10n.Message {\n"
for d in declared {
    for line in d.doc { out += "    /// \(line)\n" }
    if d.params.isEmpty {
        out += "    public static let \(d.name) = Self(.\(d.name), [:])\n"
    } else {
        let params = d.params.map { "\($0): String" }.joined(separator: ", ")
        let args = d.params.map { "\(swiftLiteral($0)): `\($0)`" }.joined(separator: ", ")
        out += "    public static func \(d.name)(\(params)) -> Self { Self(.\(d.name), [\(args)]) }\n"
    }
}
out += "}\n"
for (language, texts) in tables {
    out += "\nextension L10n {\n    static func \(language)(_ key: Key) -> String {\n        switch key {\n"
    for d in declared { out += "        case .\(d.name): \(swiftLiteral(texts[d.raw] ?? ""))\n" }
    out += "        }\n    }\n}\n"
}
let data = Data(out.utf8)
if FileManager.default.contents(atPath: output) != data {
    do { try data.write(to: URL(fileURLWithPath: output), options: .atomic) } catch {
        FileHandle.standardError.write(Data("l10n-gen: cannot write \(output): \(error)\n".utf8))
        exit(73)
    }
}
