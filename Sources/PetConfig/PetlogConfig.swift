import Foundation
import PetModel
import TOMLKit

/// A key of the preferences file.
public enum ConfigKey: String, CaseIterable, Sendable {
    case database, language, units, currency, paper
    case weekStart = "week_start"
    /// The zone new entries and "today" use (a tz database name), unless `--tz` or `PETLOG_TZ` says otherwise.
    case timezone

    /// The values a key takes (nil: any text, as for a path).
    public var accepted: [String]? {
        switch self {
        case .database, .timezone: nil
        case .language: ["en", "ko", "ja"]
        case .units: ["metric", "imperial"]
        case .currency: Currency.known.map(\.code)
        case .paper: ["a4", "letter"]
        case .weekStart: ["monday", "sunday"]
        }
    }

    /// `value` as stored for this key (codes lower-cased, currencies upper-cased), or nil when refused.
    public func normalized(_ value: String) -> String? {
        let v = value.trimmingCharacters(in: .whitespaces)
        switch self {
        case .database: return v.isEmpty || v.contains("\0") ? nil : v
        case .currency: return Currency.named(v)?.code
        case .timezone: return TimeZone(identifier: v).map { _ in v }
        default:
            let lower = v.lowercased()
            return accepted?.contains(lower) == true ? lower : nil
        }
    }
}

/// Why the preferences file could not be read as a whole or in part: the line (1-based) and key it concerns.
public struct ConfigProblem: Error, Equatable, Sendable {
    public enum Kind: Equatable, Sendable {
        /// Not TOML at all: nothing in the file can be trusted.
        case syntax(String)
        case unknownKey
        /// A value of the wrong TOML type (a number where text belongs) or not one of the accepted ones.
        case badValue(String)
    }
    public var line: Int?
    public var key: String?
    public var kind: Kind

    public init(line: Int?, key: String?, kind: Kind) { self.line = line; self.key = key; self.kind = kind }

    /// A syntax error leaves every key unknown, the database too.
    public var isWholeFile: Bool { if case .syntax = kind { return true } else { return false } }
}

/// `$XDG_CONFIG_HOME/petlog/config.toml`: top-level keys only, every value a string
/// (`language = "ko"`). Unknown keys and bad values are problems, each naming its line and key.
public struct PetlogConfig: Equatable, Sendable {
    public private(set) var values: [ConfigKey: String] = [:]
    /// What was refused; the keys still read are in `values`.
    public private(set) var problems: [ConfigProblem] = []

    public init() {}

    /// `$XDG_CONFIG_HOME/petlog/config.toml`, else `~/.config/petlog/config.toml`.
    public static func path(environment: [String: String] = ProcessInfo.processInfo.environment) -> String {
        let base: String
        if let x = environment["XDG_CONFIG_HOME"], x.hasPrefix("/") {
            base = x
        } else {
            base = (environment["HOME"] ?? NSHomeDirectory()) + "/.config"
        }
        return base + "/petlog/config.toml"
    }

    public subscript(key: ConfigKey) -> String? { values[key] }

    /// Reads the text of a preferences file. A TOML syntax error is the only problem then reported.
    public init(text: String) {
        let table: TOMLTable
        do {
            table = try TOMLTable(string: text)
        } catch let e as TOMLParseError {
            problems = [ConfigProblem(line: e.source.begin.line, key: nil, kind: .syntax(e.description))]
            return
        } catch {
            problems = [ConfigProblem(line: nil, key: nil, kind: .syntax("\(error)"))]
            return
        }
        for name in table.keys.sorted(by: { (Self.line(of: $0, in: text) ?? 0, $0) < (Self.line(of: $1, in: text) ?? 0, $1) }) {
            let line = Self.line(of: name, in: text)
            guard let key = ConfigKey(rawValue: name) else {
                problems.append(ConfigProblem(line: line, key: name, kind: .unknownKey))
                continue
            }
            guard let raw = table[name]?.tomlValue.string else {
                problems.append(ConfigProblem(line: line, key: name, kind: .badValue(table[name].map { "\($0)" } ?? "")))
                continue
            }
            guard let v = key.normalized(raw) else {
                problems.append(ConfigProblem(line: line, key: name, kind: .badValue(raw)))
                continue
            }
            values[key] = v
        }
    }

    /// The line (1-based) where a top-level `key =` is written, if it is.
    static func line(of key: String, in text: String) -> Int? {
        for (i, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let t = line.trimmingCharacters(in: .whitespaces)
            if t.hasPrefix("[") { return nil }  // tables come after the top-level keys
            for written in [key, "\"\(key)\"", "'\(key)'"] where t.hasPrefix(written) {
                let rest = t.dropFirst(written.count).drop { $0 == " " || $0 == "\t" }
                if rest.first == "=" { return i + 1 }
            }
        }
        return nil
    }

    /// The file's text with `key` set to `value` (already normalized): the key's own line is replaced,
    /// or a line added at the end of the top-level keys; comments and other lines stay as written.
    public static func setting(_ key: ConfigKey, to value: String, in text: String) -> String {
        let newLine = "\(key.rawValue) = \(quoted(value))"
        var lines = text.isEmpty ? [] : text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        if lines.last == "" { lines.removeLast() }
        if let n = line(of: key.rawValue, in: text) {
            lines[n - 1] = newLine
        } else if let table = lines.firstIndex(where: { $0.trimmingCharacters(in: .whitespaces).hasPrefix("[") }) {
            lines.insert(newLine, at: table)
        } else {
            lines.append(newLine)
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// The file's text without `key`'s line (unchanged when it is not set).
    public static func unsetting(_ key: ConfigKey, in text: String) -> String {
        guard let n = line(of: key.rawValue, in: text) else { return text }
        var lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        lines.remove(at: n - 1)
        return lines.joined(separator: "\n")
    }

    /// A TOML basic string.
    static func quoted(_ s: String) -> String {
        var out = "\""
        for u in s.unicodeScalars {
            switch u {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\t": out += "\\t"
            case "\r": out += "\\r"
            default:
                if u.value < 0x20 || u.value == 0x7F { out += String(format: "\\u%04X", u.value) } else { out.unicodeScalars.append(u) }
            }
        }
        return out + "\""
    }
}
