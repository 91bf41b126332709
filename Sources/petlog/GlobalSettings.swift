import ArgumentParser
import Foundation
import Localization
import PetConfig
import PetModel
import PetStoreCore

/// The global options, accepted before or after any subcommand: every command holds them as an
/// `@OptionGroup`, and argument-parser hands values given before the subcommand down to it.
struct GlobalOptions: ParsableArguments {
    @Option(help: ArgumentHelp(Help.s(.helpGlobalOptionsDb)))
    var db: String?

    @Option(help: ArgumentHelp(Help.s(.helpGlobalOptionsLang)))
    var lang: String?

    @Flag(help: ArgumentHelp(Help.s(.helpGlobalOptionsJson)))
    var json = false

    @Flag(name: .customLong("no-color"), help: ArgumentHelp(Help.s(.helpGlobalOptionsNoColor)))
    var noColor = false

    @Option(help: ArgumentHelp(Help.s(.helpGlobalOptionsUnit)))
    var unit: Choice<UnitSystem>?

    @Option(help: ArgumentHelp(Help.s(.helpGlobalOptionsTz)))
    var tz: String?

    var settings: GlobalSettings {
        GlobalSettings(dbPath: db, lang: lang, json: json, noColor: noColor, unit: unit, tz: tz, config: ConfigFile.load())
    }
}

/// The global options with their environment fallbacks.
struct GlobalSettings: Sendable {
    var dbPath: String?
    var lang: String?
    var json = false
    var noColor = false
    var unit: Choice<UnitSystem>?
    /// `--tz ZONE`: the zone of new entries and of "today".
    var tz: String?
    /// The preferences file (`config.toml`); empty when there is none.
    var config = ConfigFile()

    /// The language of argument-parser's own refusals, which come before any command has its options:
    /// `--lang X` (or `--lang=X`) anywhere before `--`, else the environment.
    static func forRefusals(_ arguments: [String]) -> GlobalSettings {
        var s = GlobalSettings(config: ConfigFile.load())
        for (i, a) in arguments.enumerated() {
            if a == "--" { break }
            if a == "--lang", i + 1 < arguments.count { s.lang = arguments[i + 1] }
            if a.hasPrefix("--lang=") { s.lang = String(a.dropFirst("--lang=".count)) }
        }
        return s
    }

    var environment: [String: String] { ProcessInfo.processInfo.environment }

    /// `PETLOG_NOW` (an instant such as 2026-11-23T10:00:00+09:00) pins "now", for tests and reproducible demos.
    var pinnedNow: String? { environment["PETLOG_NOW"].flatMap { $0.isEmpty ? nil : $0 } }

    /// The zone new entries and "today" use: `--tz`, else `PETLOG_TZ`, else the config's `timezone`, else
    /// the machine's (`TZ`). A name that is not a zone is refused (exit 64), never silently UTC.
    func timeZone(_ l10n: L10n) throws -> TimeZone {
        let chosen = tz ?? environment["PETLOG_TZ"].flatMap { $0.isEmpty ? nil : $0 } ?? config.values[.timezone]
        guard let name = chosen else { return .current }
        // One rule for every abbreviation (`JST`, `KST`, `PST`, `EST`): none is a zone. The tz database
        // happens to keep a few (`EST` without daylight saving time, `JST` only through Foundation), so
        // they would be read unevenly; the name of the zone is asked for, the one meant suggested.
        let trimmed = name.trimmingCharacters(in: .whitespaces)
        if Self.isAbbreviation(trimmed) {
            throw UsageError(message: l10n.text(.errTimeZoneAbbreviation(value: Terminal.sanitize(trimmed),
                                                                          example: Self.abbreviatedZones[trimmed.uppercased()] ?? "Asia/Seoul")))
        }
        guard let zone = TimeZone(identifier: trimmed) else {
            throw UsageError(message: l10n.text(.errBadTimeZone(value: Terminal.sanitize(name))))
        }
        return zone
    }

    /// A zone abbreviation rather than a name: two to five upper-case ASCII letters (`JST`, `KST`, `AEST`),
    /// or one of the tz database's legacy abbreviation zones (`EST5EDT`); `UTC` and `GMT` are names.
    static func isAbbreviation(_ name: String) -> Bool {
        if ["UTC", "GMT", "UCT"].contains(name) { return false }
        if ["EST5EDT", "CST6CDT", "MST7MDT", "PST8PDT"].contains(name) { return true }
        return (2...5).contains(name.count) && name.allSatisfy { $0.isASCII && $0.isUppercase }
    }

    /// The zone an abbreviation usually means, suggested when it is refused.
    static let abbreviatedZones: [String: String] = [
        "KST": "Asia/Seoul", "JST": "Asia/Tokyo", "CST": "America/Chicago", "CDT": "America/Chicago", "EST": "America/New_York",
        "EDT": "America/New_York", "MST": "America/Denver", "MDT": "America/Denver", "PST": "America/Los_Angeles",
        "PDT": "America/Los_Angeles", "HST": "Pacific/Honolulu", "AKST": "America/Anchorage", "GMT": "Europe/London",
        "BST": "Europe/London", "CET": "Europe/Paris", "CEST": "Europe/Paris", "EET": "Europe/Athens", "WET": "Europe/Lisbon",
        "HKT": "Asia/Hong_Kong", "SGT": "Asia/Singapore", "IST": "Asia/Kolkata", "AEST": "Australia/Sydney",
        "AEDT": "Australia/Sydney", "NZST": "Pacific/Auckland", "EST5EDT": "America/New_York", "CST6CDT": "America/Chicago",
        "MST7MDT": "America/Denver", "PST8PDT": "America/Los_Angeles",
    ]

    /// `--db`, else `PETLOG_DB`, else the config's `database`, else `$XDG_DATA_HOME/petlog/petlog.sqlite`
    /// (`~/.local/share/petlog/`).
    var resolvedDatabasePath: String {
        if let p = databaseFromCommandLineOrEnvironment { return p }
        if let p = config.values[.database] {
            // A relative path written into the file by hand is read from the file's own folder, so cron and
            // every shell open the same database (`config set` stores it absolute).
            let expanded = (p as NSString).expandingTildeInPath
            if expanded.hasPrefix("/") || PostgresTarget.isURL(expanded) { return expanded }
            return (config.path as NSString).deletingLastPathComponent + "/" + expanded
        }
        return Self.defaultDatabasePath
    }

    /// Where the store is: the resolved `--db`/`PETLOG_DB`/config text read once as a file or a server.
    var storeLocation: StoreLocation { StoreLocation(resolvedDatabasePath) }

    /// The database as messages name it: a server's URL without its password.
    var databaseForDisplay: String { storeLocation.displayed }

    /// The store is a PostgreSQL server (`--db postgres://…`, `PETLOG_DB`, or the config's `database`).
    var usesServer: Bool { storeLocation.isServer }

    /// The server `url` names, with libpq's environment (`PGPASSWORD`, `PGSSLMODE` …) and `~/.pgpass`.
    func serverTarget(_ url: String) throws -> PostgresTarget {
        do {
            return try PostgresTarget.parse(url, environment: environment, home: environment["HOME"].flatMap { $0.isEmpty ? nil : $0 } ?? NSHomeDirectory())
        } catch PostgresTarget.Problem.badURL(let shown) {
            throw UsageError(message: L10n(languageChoice.0).text(.errServerURL(url: shown)))
        } catch PostgresTarget.Problem.badParameter(let name, let value) {
            throw UsageError(message: L10n(languageChoice.0).text(.errServerParameter(name: name, value: value)))
        }
    }

    var databaseFromCommandLineOrEnvironment: String? {
        if let p = dbPath, !p.isEmpty { return p }
        if let p = environment["PETLOG_DB"], !p.isEmpty { return p }
        return nil
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
        if let l = config.values[.language], let language = Language.parse(l) { return (language, nil) }
        return (POSIXLocale(environment: environment).language(.messages) ?? .en, nil)
    }

    /// The chosen language's strings (for messages given before a session exists, as in `validate()`).
    var l10n: L10n { L10n(languageChoice.0) }

    var colorEnabled: Bool {
        !noColor && environment["NO_COLOR"].map { $0.isEmpty } ?? true && isatty(STDOUT_FILENO) == 1
    }
}
