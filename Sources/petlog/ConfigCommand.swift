import ArgumentParser
import Foundation
import Localization
import PetConfig
import PetModel
import PetReport
import PetFiles
import PetStoreCore
import PetViews

/// The preferences file as the command line holds it: where it is, whether it exists, what it says.
struct ConfigFile: Sendable {
    var path = ""
    var exists = false
    var text = ""
    var config = PetlogConfig()
    /// Set when the file exists but cannot be read (permissions): nothing in it is known.
    var unreadable: String?

    var values: [ConfigKey: String] { unreadable == nil ? config.values : [:] }

    static func load(environment: [String: String] = ProcessInfo.processInfo.environment) -> ConfigFile {
        var f = ConfigFile()
        f.path = PetlogConfig.path(environment: environment)
        guard FileSecurity.exists(f.path) else { return f }
        f.exists = true
        guard let data = FileManager.default.contents(atPath: f.path) else {
            f.unreadable = String(cString: strerror(EACCES))
            return f
        }
        guard let text = String(data: data, encoding: .utf8) else {
            f.config = PetlogConfig(text: "\u{0}")  // not UTF-8: a syntax problem on line 1
            return f
        }
        f.text = text
        f.config = PetlogConfig(text: text)
        return f
    }

    /// Says each problem of the file on one line; refuses to run (exit 78) when the database may be the
    /// file's and the file cannot say which: petlog never guesses a database.
    func check(_ settings: GlobalSettings, l10n: L10n, terminal: Terminal) throws {
        var lines: [(String, ConfigProblem?)] = []
        if let reason = unreadable { lines.append((l10n.text(.errCannotOpen(path: path, reason: reason)), nil)) }
        for p in config.problems { lines.append((Self.describe(p, path: path, l10n), p)) }
        for (text, problem) in lines {
            let unsafe = problem.map { $0.isWholeFile || $0.key == ConfigKey.database.rawValue } ?? true
            if unsafe && settings.databaseFromCommandLineOrEnvironment == nil {
                throw UsageError(message: l10n.text(.errConfigDatabase(problem: text)), code: Failure.config)
            }
            terminal.error(l10n.text(.warnConfigIgnored(problem: text)))
        }
    }

    static func describe(_ p: ConfigProblem, path: String, _ l: L10n) -> String {
        let line = p.line.map(String.init) ?? "?"
        switch p.kind {
        case .syntax(let detail): return l.text(.configSyntax(path: path, line: line, detail: detail))
        case .unknownKey:
            return l.text(.configUnknownKey(path: path, line: line, key: p.key ?? "", keys: ConfigKey.allCases.map(\.rawValue).joined(separator: ", ")))
        case .badValue(let v):
            let key = p.key.flatMap(ConfigKey.init(rawValue:))
            return l.text(.configBadValue(path: path, line: line, key: p.key ?? "", value: v,
                                          accepted: key?.accepted?.joined(separator: ", ") ?? l.text(.configAnyText)))
        }
    }
}

struct ConfigGroup: ParsableCommand {
    static var configuration: CommandConfiguration { CommandConfiguration(
        commandName: "config",
        abstract: Help.s(.helpConfigGroupAbstract),
        discussion: Help.s(.helpConfigGroupDiscussion),
        subcommands: [ConfigListCommand.self, ConfigGetCommand.self, ConfigSetCommand.self, ConfigUnsetCommand.self, ConfigPathCommand.self]) }
}

/// A key typed on the command line.
func configKey(_ raw: String) throws -> ConfigKey {
    guard let k = ConfigKey(rawValue: raw.lowercased().replacingOccurrences(of: "-", with: "_")) else {
        throw ParseError.unknownChoice(field: "key", value: raw, accepted: ConfigKey.allCases.map(\.rawValue))
    }
    return k
}

struct ConfigListCommand: ParsableCommand {
    @OptionGroup(title: Help.s(.helpGlobalOptionsTitle)) var global: GlobalOptions
    static var configuration: CommandConfiguration { CommandConfiguration(commandName: "list", abstract: Help.s(.helpConfigListCommandAbstract)) }

    func run() throws {
        try Session.run(global, checkingConfig: false) { s in
            let rows = ConfigKey.allCases.map { key -> [String] in
                let (value, source) = s.effective(key)
                return [key.rawValue, value, source]
            }
            if s.json {
                try s.terminal.json(ConfigListJSON(path: s.settings.config.path, exists: s.settings.config.exists,
                                                   settings: Dictionary(uniqueKeysWithValues: ConfigKey.allCases.map { ($0.rawValue, s.effective($0).0) }),
                                                   file: Dictionary(uniqueKeysWithValues: s.settings.config.values.map { ($0.key.rawValue, $0.value) })))
                return
            }
            s.terminal.table(header: [s.t(.configKey), s.t(.configValue), s.t(.configSource)], rows: rows)
            for p in s.settings.config.config.problems { s.terminal.error(ConfigFile.describe(p, path: s.settings.config.path, s.l10n)) }
        }
    }
}

struct ConfigGetCommand: ParsableCommand {
    @OptionGroup(title: Help.s(.helpGlobalOptionsTitle)) var global: GlobalOptions
    static var configuration: CommandConfiguration { CommandConfiguration(commandName: "get", abstract: Help.s(.helpConfigGetCommandAbstract)) }
    @Argument(help: ArgumentHelp(Help.s(.helpConfigGetCommandKey))) var key: String

    func run() throws {
        try Session.run(global, checkingConfig: false) { s in
            let k = try configKey(key)
            guard let v = s.settings.config.values[k] else {
                s.terminal.error(s.t(.configNotSet(key: k.rawValue, path: s.settings.config.path)))
                throw ExitCode(1)
            }
            s.terminal.line(v)
        }
    }
}

struct ConfigSetCommand: ParsableCommand {
    @OptionGroup(title: Help.s(.helpGlobalOptionsTitle)) var global: GlobalOptions
    static var configuration: CommandConfiguration { CommandConfiguration(commandName: "set", abstract: Help.s(.helpConfigSetCommandAbstract)) }
    @Argument(help: ArgumentHelp(Help.s(.helpConfigSetCommandKey))) var key: String
    @Argument(help: ArgumentHelp(Help.s(.helpConfigSetCommandValue))) var value: String

    func run() throws {
        try Session.run(global, checkingConfig: false) { s in
            let k = try configKey(key)
            guard var v = k.normalized(value) else {
                if k == .database { throw ParseError.emptyText(field: "database") }
                throw ParseError.unknownChoice(field: k.rawValue, value: value, accepted: k.accepted ?? [])
            }
            // A relative path would name another file from each folder petlog runs in (cron runs in $HOME):
            // the file keeps the absolute path, and says so.
            let typed = v
            if k == .database, !PostgresTarget.isURL(v) {
                v = URL(fileURLWithPath: FileSecurity.absolute((v as NSString).expandingTildeInPath)).standardizedFileURL.path
            }
            let file = s.settings.config
            if let p = file.config.problems.first(where: \.isWholeFile) {
                throw UsageError(message: s.t(.errConfigCannotEdit(problem: ConfigFile.describe(p, path: file.path, s.l10n))), code: Failure.config)
            }
            try FileSecurity.makePrivateDirectory(URL(fileURLWithPath: (file.path as NSString).deletingLastPathComponent))
            let text = PetlogConfig.setting(k, to: v, in: file.text)
            try OutputFile.write(to: file.path) { sink in try sink.write(text) }
            s.terminal.line(s.t(.configSetDone(key: k.rawValue, value: v, path: file.path)))
            if v != typed { s.terminal.line(s.t(.configStoredAbsolute(typed: Terminal.sanitize(typed), path: Terminal.sanitize(v)))) }
        }
    }
}

struct ConfigUnsetCommand: ParsableCommand {
    @OptionGroup(title: Help.s(.helpGlobalOptionsTitle)) var global: GlobalOptions
    static var configuration: CommandConfiguration { CommandConfiguration(commandName: "unset", abstract: Help.s(.helpConfigUnsetCommandAbstract)) }
    @Argument(help: ArgumentHelp(Help.s(.helpConfigUnsetCommandKey))) var key: String

    func run() throws {
        try Session.run(global, checkingConfig: false) { s in
            let file = s.settings.config
            if let p = file.config.problems.first(where: \.isWholeFile) {
                throw UsageError(message: s.t(.errConfigCannotEdit(problem: ConfigFile.describe(p, path: file.path, s.l10n))), code: Failure.config)
            }
            let k = try configKey(key)
            let text = PetlogConfig.unsetting(k, in: file.text)
            if text != file.text { try OutputFile.write(to: file.path) { sink in try sink.write(text) } }
            s.terminal.line(s.t(.configUnsetDone(key: k.rawValue, path: file.path)))
        }
    }
}

struct ConfigPathCommand: ParsableCommand {
    @OptionGroup(title: Help.s(.helpGlobalOptionsTitle)) var global: GlobalOptions
    static var configuration: CommandConfiguration { CommandConfiguration(commandName: "path", abstract: Help.s(.helpConfigPathCommandAbstract)) }

    func run() throws {
        try Session.run(global, checkingConfig: false) { s in s.terminal.line(s.settings.config.path) }
    }
}

extension Session {
    /// Weeks start on Sunday in the calendar: the config's `week_start`, else where the locale's region does
    /// (US, Canada, Japan, Korea, …), else for Korean and Japanese.
    var weekStartsOnSunday: Bool {
        if let w = settings.config.values[.weekStart] { return w == "sunday" }
        if let region = POSIXLocale().region(.time) { return ["US", "CA", "JP", "KR", "TW", "HK", "MX", "BR", "IL", "PH", "AU"].contains(region) }
        return l10n.language != .en
    }

    /// A setting's value in effect and where it comes from.
    func effective(_ key: ConfigKey) -> (String, String) {
        let file = settings.config.values[key]
        let env = settings.environment
        func from(_ flag: String?, _ envName: String?, _ fallback: () -> String) -> (String, String) {
            if let flag { return (flag, t(.configFromFlag)) }
            if let envName, let v = env[envName], !v.isEmpty { return (v, t(.configFromEnvironment(name: envName))) }
            if let file { return (file, t(.configFromFile)) }
            return (fallback(), t(.configFromDefault))
        }
        switch key {
        case .database: return from(settings.dbPath.flatMap { $0.isEmpty ? nil : $0 }, "PETLOG_DB") { GlobalSettings.defaultDatabasePath }
        case .language: return from(settings.lang, "PETLOG_LANG") { l10n.language.rawValue }
        case .units: return from(settings.unit?.raw, nil) { unitSystem.rawValue }
        case .currency: return from(nil, "PETLOG_CURRENCY") { (try? homeCurrency(nil).code) ?? "" }
        case .paper: return from(nil, nil) { Paper.a4.choiceName }
        case .weekStart: return from(nil, nil) { weekStartsOnSunday ? "sunday" : "monday" }
        case .timezone: return from(settings.tz, "PETLOG_TZ") { TimeZone.current.identifier }
        }
    }
}
