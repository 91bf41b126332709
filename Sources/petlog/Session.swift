import ArgumentParser
import Foundation
import Localization
import PetModel
import PetStoreCore
import StoreOpening

/// What every command runs with: settings, translations, the clock, the terminal and the store.
struct Session {
    let settings: GlobalSettings
    let l10n: L10n
    let time: TimeContext
    let terminal: Terminal
    let unitSystem: UnitSystem
    /// Masses, money and dates in the session's language and units.
    let format: ValueFormatter
    /// Records, codes and intervals in the session's language.
    let wording: RecordWording

    /// The store, once a command has asked for it (`StoreOpening`: the one place an engine is named).
    private var opened: OpenedStore?

    /// Runs a command body, turning every error into one localized stderr line and a sysexits code.
    /// `checkingConfig: false` for the `config` commands, which must run to mend a broken file.
    static func run(_ options: GlobalOptions, checkingConfig: Bool = true, _ body: (inout Session) throws -> Void) throws {
        let settings = options.settings
        let (language, unknownLanguage) = settings.languageChoice
        let l10n = L10n(language)
        let terminal = Terminal(colors: settings.colorEnabled)
        if let bad = unknownLanguage {
            terminal.error(l10n.text(.warnUnknownLanguage(lang: bad)))
        }
        do {
            if checkingConfig { try settings.config.check(settings, l10n: l10n, terminal: terminal) }
            var session = try Session(settings: settings, l10n: l10n, terminal: terminal)
            do {
                try body(&session)
            } catch {
                // A database file this command made goes again when nothing was written into it; on a
                // server, the schema this command made (its "new database"), by the same rule.
                if let opened = session.opened {
                    let removed = opened.removeIfNeverWritten()
                    opened.keepOnSignal()
                    if let created = opened.createdFile, !removed { terminal.error(session.t(.dbCreated(path: Terminal.sanitize(created)))) }
                }
                // A standard output that could not be written is the failure said, whatever followed it.
                throw StandardOutput.failed ?? error
            }
            session.opened?.keepOnSignal()
            try StandardOutput.check()
            if let created = session.opened?.createdFile { terminal.error(session.t(.dbCreated(path: Terminal.sanitize(created)))) }
        } catch let e as ExitCode {
            throw e
        } catch {
            let failure = Failure(error, databasePath: settings.databaseForDisplay)
            terminal.error(failure.message(l10n))
            throw ExitCode(failure.exitCode)
        }
    }

    private init(settings: GlobalSettings, l10n: L10n, terminal: Terminal) throws {
        self.settings = settings
        self.l10n = l10n
        self.terminal = terminal
        var now = Date()
        if let pinned = settings.pinnedNow {
            now = try TimeParser.instant(pinned, context: TimeContext())
        }
        self.time = TimeContext(now: now, timeZone: try settings.timeZone(l10n))
        unitSystem = try settings.unit?.value("--unit") ?? settings.config.values[.units].flatMap(UnitSystem.init(rawValue:))
            ?? (l10n.language == .en && Self.localeIsUS ? .imperial : .metric)
        format = ValueFormatter(l10n, unitSystem: unitSystem)
        wording = RecordWording(format, time: time)
    }

    /// en_US users weigh in pounds unless they say otherwise.
    static var localeIsUS: Bool {
        let locale = POSIXLocale()
        return locale.language(.measurement) == .en && locale.region(.measurement) == "US"
    }

    /// The store, opened on first use. Only the commands that may start a new database (`pet add`, `import`,
    /// `demo`, `restore`) pass `creating: true`; every other command refuses a missing file (exit 66) and
    /// creates nothing.
    /// The server `url` names, for a command that connects to it: a password file others may read is not
    /// used, and every such command says so (the same warning for all).
    func serverTarget(_ url: String) throws -> PostgresTarget {
        let target = try settings.serverTarget(url)
        if let ignored = target.ignoredPasswordFile { terminal.error(t(.warnPasswordFileOpen(path: Terminal.sanitize(ignored)))) }
        return target
    }

    mutating func repository(creating: Bool = false) throws -> any PetlogStore {
        if let opened { return opened.store }
        return adopt(try StoreOpening.open(settings.storeLocation, openingOptions(creating: creating)))
    }

    /// The store for `check`: a file that will not open normally because it is damaged (cut short, its header
    /// overwritten) is opened only to be read (`StoreOpening.openForCheck`), so that `check` can say what is
    /// wrong and `--repair` copy out what is left, instead of the refusal every other command gives.
    mutating func repositoryForCheck() throws -> any PetlogStore {
        if let opened { return opened.store }
        return adopt(try StoreOpening.openForCheck(settings.storeLocation, openingOptions(creating: false)))
    }

    private func openingOptions(creating: Bool) -> StoreOpening.Options {
        let terminal = self.terminal
        let waiting = settings.storeLocation.filePath.map { t(.dbWaiting(path: Terminal.sanitize($0), seconds: "30")) } ?? ""
        return StoreOpening.Options(creating: creating, now: settings.pinnedNow != nil ? time.now : nil, undoCommand: Self.commandLine,
                                    onWaiting: { terminal.error(waiting) }, server: { [self] in try serverTarget($0) })
    }

    /// The opened store, kept for the rest of the command; what opening did is said once.
    private mutating func adopt(_ store: OpenedStore) -> any PetlogStore {
        for notice in store.notices {
            switch notice {
            // A created file is said when the command has written into it (`run`), else the file is removed
            // again; a Ctrl-C before the command is done removes it too.
            case .created, .migrated: break
            case .attachmentsMoved(let count, let from, let to):
                terminal.error(t(.dbAttachmentsMoved(count: Display.count(count), to: Terminal.sanitize(to), from: Terminal.sanitize(from))))
            }
        }
        opened = store
        return store.store
    }

    func t(_ message: L10n.Message) -> String { l10n.text(message) }

    /// The command as typed, for `undo` to name (`weight Coco 4.2kg`), without `--db` and its value:
    /// each word shell-quoted, so that the line pasted into a shell is the same command again.
    static var commandLine: String {
        var out: [String] = []
        var rest = CommandLine.arguments.dropFirst()[...]
        while let a = rest.popFirst() {
            if a == "--db" { _ = rest.popFirst(); continue }
            if a.hasPrefix("--db=") { continue }
            out.append(a)
        }
        return ShellWord.commandLine(out)
    }

    var json: Bool { settings.json }

    /// Parses `--at` (default now) into an instant and the UTC offset of the clock it happened on: the
    /// typed offset when `--at` has one, else the session zone's. For a record of something that happened
    /// (`kind`, see `RecordDating`) a time in the future is refused.
    func when(_ at: String?, for kind: RecordKind? = nil) throws -> (Date, Int) {
        let observed = kind.map(RecordDating.isObservation) ?? false
        guard let at else { return (time.now, time.utcOffset(at: time.now)) }
        let m = try TimeParser.moment(at, context: time, observed: observed)
        return (m.date, m.utcOffset)
    }
}

/// Passwords in `postgres://` arguments, blanked where `ps` reads them.
enum ServerPassword {
    static func blankInArguments() {
        for i in 1..<Int(CommandLine.argc) {
            guard let p = CommandLine.unsafeArgv[i] else { continue }
            let text = String(cString: p)
            guard let scheme = text.range(of: "postgres://") ?? text.range(of: "postgresql://") else { continue }
            let rest = text[scheme.upperBound...]
            guard let at = rest.lastIndex(of: "@"), let colon = rest[..<at].firstIndex(of: ":") else { continue }
            let start = text.utf8.distance(from: text.utf8.startIndex, to: rest.index(after: colon).samePosition(in: text.utf8) ?? text.utf8.startIndex)
            let end = text.utf8.distance(from: text.utf8.startIndex, to: at.samePosition(in: text.utf8) ?? text.utf8.startIndex)
            for k in start..<end { p[k] = CChar(UInt8(ascii: "x")) }
        }
    }
}
