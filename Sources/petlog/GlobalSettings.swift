import Foundation
import Localization
import PetModel

/// The global options (`--db`, `--lang`, `--json`, `--no-color`, `--unit`), accepted anywhere on the
/// line — before or after the subcommand — and their environment fallbacks.
struct GlobalSettings: Sendable {
    var dbPath: String?
    var lang: String?
    var json = false
    var noColor = false
    var unit: String?

    nonisolated(unsafe) static var current = GlobalSettings()

    static let valueOptions = ["--db", "--lang", "--unit"]

    /// Pulls the global options out of argv (stopping at `--`), leaving the rest for argument-parser.
    static func extract(from args: [String]) -> (GlobalSettings, [String]) {
        var s = GlobalSettings()
        var rest: [String] = []
        var i = 0
        while i < args.count {
            let a = args[i]
            if a == "--" { rest += args[i...]; break }
            var name = a
            var inlineValue: String?
            if let eq = a.firstIndex(of: "="), a.hasPrefix("--") {
                name = String(a[..<eq])
                inlineValue = String(a[a.index(after: eq)...])
            }
            if valueOptions.contains(name) {
                var value = inlineValue
                if value == nil, i + 1 < args.count { value = args[i + 1]; i += 1 }
                guard let v = value else { rest.append(a); i += 1; continue }
                switch name {
                case "--db": s.dbPath = v
                case "--lang": s.lang = v
                default: s.unit = v
                }
            } else if a == "--json" {
                s.json = true
            } else if a == "--no-color" {
                s.noColor = true
            } else {
                rest.append(a)
            }
            i += 1
        }
        return (s, rest)
    }

    var environment: [String: String] { ProcessInfo.processInfo.environment }

    /// `PETLOG_NOW` (an instant such as 2026-11-23T10:00:00+09:00) pins "now", for tests and reproducible demos.
    var pinnedNow: String? { environment["PETLOG_NOW"].flatMap { $0.isEmpty ? nil : $0 } }

    /// `--db`, else `PETLOG_DB`, else `$XDG_DATA_HOME/petlog/petlog.sqlite` (`~/.local/share/petlog/`).
    var resolvedDatabasePath: String {
        if let p = dbPath, !p.isEmpty { return p }
        if let p = environment["PETLOG_DB"], !p.isEmpty { return p }
        return Self.defaultDatabasePath
    }

    /// `$XDG_DATA_HOME/petlog/petlog.sqlite`, else `~/.local/share/petlog/petlog.sqlite`.
    static var defaultDatabasePath: String {
        let environment = ProcessInfo.processInfo.environment
        let base: String
        if let x = environment["XDG_DATA_HOME"], x.hasPrefix("/") {
            base = x
        } else {
            base = (environment["HOME"] ?? NSHomeDirectory()) + "/.local/share"
        }
        return base + "/petlog/petlog.sqlite"
    }

    /// `--lang`, else `PETLOG_LANG`, else the POSIX locale variables, else English.
    var languageChoice: (Language, unknown: String?) {
        if let l = lang {
            return Language.parse(l).map { ($0, nil) } ?? (.en, l)
        }
        if let l = environment["PETLOG_LANG"], !l.isEmpty {
            return Language.parse(l).map { ($0, nil) } ?? (.en, l)
        }
        for v in ["LC_ALL", "LC_MESSAGES", "LANG"] {
            if let l = environment[v], !l.isEmpty {
                return (Language.fromLocale(l) ?? .en, nil)
            }
        }
        return (.en, nil)
    }

    /// The chosen language's strings (for messages given before a session exists, as in `validate()`).
    var l10n: L10n { L10n(languageChoice.0) }

    var colorEnabled: Bool {
        !noColor && environment["NO_COLOR"].map { $0.isEmpty } ?? true && isatty(STDOUT_FILENO) == 1
    }
}
