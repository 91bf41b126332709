import ArgumentParser
import Foundation
import Localization
import PetFiles
import PetModel
import PetServe
import PetStoreCore
import PetViews

/// `petlog serve [--listen ADDR:PORT] [--quiet]`: the web face on the store `--db` names (docs/serve.md).
/// Loopback by default; another address is refused while no account exists. Ctrl-C or SIGTERM stops it
/// after the requests in flight.
struct ServeCommand: ParsableCommand {
    @OptionGroup(title: Help.s(.helpGlobalOptionsTitle)) var global: GlobalOptions
    static var configuration: CommandConfiguration { CommandConfiguration(commandName: "serve", abstract: Help.s(.helpServeAbstract)) }
    @Option(help: ArgumentHelp(Help.s(.helpServeListen))) var listen = ListenAddress.default.description
    @Flag(help: ArgumentHelp(Help.s(.helpServeQuiet))) var quiet = false
    @Option(name: .customLong("tls-cert"), help: ArgumentHelp(Help.s(.helpServeTlsCert))) var tlsCert: String?
    @Option(name: .customLong("tls-key"), help: ArgumentHelp(Help.s(.helpServeTlsKey))) var tlsKey: String?

    func run() throws {
        try Session.run(global) { s in try serve(&s) }
    }

    func serve(_ s: inout Session) throws {
        guard let address = ListenAddress.parse(listen) else {
            throw UsageError(message: s.t(.errServeBadListen(value: Terminal.sanitize(listen))))
        }
        let tls = try loadTLS(s)
        let store = try s.accountStore()
        if !address.isLoopback, try store.accountCount() == 0 {
            throw UsageError(message: s.t(.errServeNoAccount(address: address.description)), code: Failure.noPermission)
        }
        var log: (@Sendable (String) -> Void)?
        if !quiet { log = { @Sendable line in FileHandle.standardError.write(Data((line + "\n").utf8)) } }
        let settings = ServeSettings(language: s.l10n.language, unitSystem: s.unitSystem, timeZone: s.time.timeZone, secureCookies: tls != nil,
                                     log: log, currency: try s.homeCurrency(nil))
        let server = PetServer(store: SharedStore(store), settings: settings)
        let listening = (tls == nil ? s.t(.serveListening(address: address.description))
                                    : s.t(.serveListening(address: address.description)).replacingOccurrences(of: "http://", with: "https://")) + "\n"
        TemporaryFiles.leaveSignalsToTheServer()
        let app = try server.application(address, tls: tls, onRunning: { FileHandle.standardError.write(Data(listening.utf8)) })
        let outcome = ServeOutcome()
        let done = DispatchSemaphore(value: 0)
        Task {
            do {
                try await app.runService()
            } catch { outcome.error = error }
            done.signal()
        }
        done.wait()
        if let error = outcome.error { throw error }
    }
}

extension ServeCommand {
    /// `--tls-cert` and `--tls-key`, both or neither; read and checked before anything listens: unreadable 66, not PEM
    /// or a key that is not the certificate's 78.
    func loadTLS(_ s: Session) throws -> ServeTLS? {
        switch (tlsCert, tlsKey) {
        case (nil, nil): return nil
        case (let cert?, let key?):
            do { return try ServeTLS.load(certificate: cert, key: key) } catch let p as ServeTLS.Problem {
                switch p {
                case .unreadable(let path, let detail):
                    throw UsageError(message: s.t(.errServeTlsUnreadable(path: Terminal.sanitize(path), detail: Terminal.sanitize(detail))), code: Failure.noInput)
                case .invalid(let path, let detail):
                    throw UsageError(message: s.t(.errServeTlsInvalid(path: Terminal.sanitize(path), detail: Terminal.sanitize(String(detail.prefix(200))))),
                                     code: Failure.config)
                case .mismatch(let cert, let key):
                    throw UsageError(message: s.t(.errServeTlsMismatch(key: Terminal.sanitize(key), cert: Terminal.sanitize(cert))), code: Failure.config)
                }
            }
        default: throw UsageError(message: s.t(.errServeTlsBoth))
        }
    }
}

/// The server task's error, read once the task is done.
private final class ServeOutcome: @unchecked Sendable { var error: (any Error)? }

/// `petlog user add|list|passwd|remove`: the accounts of `petlog serve`, kept in the store.
struct UserGroup: ParsableCommand {
    static var configuration: CommandConfiguration { CommandConfiguration(
        commandName: "user", abstract: Help.s(.helpUserGroupAbstract),
        subcommands: [UserAddCommand.self, UserListCommand.self, UserPasswdCommand.self, UserRemoveCommand.self, UserFeedResetCommand.self]) }
}

struct UserAddCommand: ParsableCommand {
    @OptionGroup(title: Help.s(.helpGlobalOptionsTitle)) var global: GlobalOptions
    static var configuration: CommandConfiguration { CommandConfiguration(commandName: "add", abstract: Help.s(.helpUserAddAbstract)) }
    @Argument(help: ArgumentHelp(Help.s(.helpUserName))) var name: String
    @Option(help: ArgumentHelp(Help.s(.helpUserRole))) var role: String
    @Option(help: ArgumentHelp(Help.s(.helpUserLanguage))) var language: String?
    @Flag(help: ArgumentHelp(Help.s(.helpUserPasswordStdin))) var passwordStdin = false

    func run() throws {
        try Session.run(global) { s in
            guard let role = AccountRole(rawValue: role) else {
                throw UsageError(message: s.t(.errUnknownChoice(field: s.l10n.fieldName("--role"), value: Terminal.sanitize(role), accepted: "owner, family, viewer")))
            }
            if let language, Language(rawValue: language) == nil {
                throw UsageError(message: s.t(.errUnknownChoice(field: s.l10n.fieldName("--language"), value: Terminal.sanitize(language), accepted: "en, ko, ja")))
            }
            let checked = try Store.checkedAccountName(name)
            let password = try PasswordInput.read(for: checked, fromStdin: passwordStdin, s)
            let account = try s.accountStore(creating: true).addAccount(name: checked, role: role, passwordHash: Secrets.hashPassword(password), language: language)
            if s.json { try s.terminal.json(AccountJSON(account)); return }
            s.terminal.line(s.t(.userAdded(name: Terminal.sanitize(account.name), role: account.role.rawValue)))
        }
    }
}

struct UserListCommand: ParsableCommand {
    @OptionGroup(title: Help.s(.helpGlobalOptionsTitle)) var global: GlobalOptions
    static var configuration: CommandConfiguration { CommandConfiguration(commandName: "list", abstract: Help.s(.helpUserListAbstract)) }

    func run() throws {
        try Session.run(global) { s in
            let accounts = try s.accountStore().accounts()
            if s.json { try s.terminal.json(accounts.map(AccountJSON.init)); return }
            if accounts.isEmpty { s.terminal.line(s.t(.userNone)); return }
            s.terminal.lines(s.terminal.screen.table(header: [s.t(.colName), s.t(.colRole)],
                                                     rows: accounts.map { [Terminal.sanitize($0.name), $0.role.rawValue] }))
        }
    }
}

struct UserPasswdCommand: ParsableCommand {
    @OptionGroup(title: Help.s(.helpGlobalOptionsTitle)) var global: GlobalOptions
    static var configuration: CommandConfiguration { CommandConfiguration(commandName: "passwd", abstract: Help.s(.helpUserPasswdAbstract)) }
    @Argument(help: ArgumentHelp(Help.s(.helpUserName))) var name: String
    @Flag(help: ArgumentHelp(Help.s(.helpUserPasswordStdin))) var passwordStdin = false

    func run() throws {
        try Session.run(global) { s in
            let store = try s.accountStore()
            guard let found = try store.account(named: name) else { throw AccountError.unknown(name) }
            let password = try PasswordInput.read(for: found.account.name, fromStdin: passwordStdin, s)
            let account = try store.setPassword(name: name, passwordHash: Secrets.hashPassword(password))
            s.terminal.line(s.t(.userPasswordChanged(name: Terminal.sanitize(account.name))))
        }
    }
}

struct UserRemoveCommand: ParsableCommand {
    @OptionGroup(title: Help.s(.helpGlobalOptionsTitle)) var global: GlobalOptions
    static var configuration: CommandConfiguration { CommandConfiguration(commandName: "remove", abstract: Help.s(.helpUserRemoveAbstract)) }
    @Argument(help: ArgumentHelp(Help.s(.helpUserName))) var name: String

    func run() throws {
        try Session.run(global) { s in
            let account = try s.accountStore().removeAccount(name: name)
            s.terminal.line(s.t(.userRemoved(name: Terminal.sanitize(account.name))))
        }
    }
}

/// `petlog user feed-reset NAME`: a new secret token for the account's calendar feed (`/feeds/TOKEN.ics`);
/// the store keeps only its SHA-256, so the path is printed this once. The old token stops working.
struct UserFeedResetCommand: ParsableCommand {
    @OptionGroup(title: Help.s(.helpGlobalOptionsTitle)) var global: GlobalOptions
    static var configuration: CommandConfiguration { CommandConfiguration(commandName: "feed-reset", abstract: Help.s(.helpUserFeedResetAbstract)) }
    @Argument(help: ArgumentHelp(Help.s(.helpUserName))) var name: String

    func run() throws {
        try Session.run(global) { s in
            let token = Secrets.token()
            let account = try s.accountStore().setFeedToken(name: name, tokenHash: Secrets.digest(token))
            let path = PetServer.feedPath(token)
            if s.json { try s.terminal.json(["name": account.name, "path": path]); return }
            s.terminal.error(s.t(.userFeedReset(name: Terminal.sanitize(account.name))))
            s.terminal.line(path)
        }
    }
}

extension Session {
    /// The store's accounts (`AccountStore`: the same store, its account tables).
    mutating func accountStore(creating: Bool = false) throws -> any PetlogStore & AccountStore {
        guard let store = try repository(creating: creating) as? any PetlogStore & AccountStore else {
            throw UsageError(message: t(.errUnexpected(detail: "store without accounts")), code: Failure.software)
        }
        return store
    }
}

/// A password typed twice on the terminal with echo off, or the first line of standard input (`--password-stdin`).
enum PasswordInput {
    static func read(for name: String, fromStdin: Bool, _ s: Session) throws -> String {
        let password: String
        if fromStdin {
            password = readLine(strippingNewline: true) ?? ""
        } else {
            guard isatty(STDIN_FILENO) == 1 else { throw UsageError(message: s.t(.errUserPasswordNoTerminal)) }
            password = try prompt(s.t(.userPasswordPrompt(name: Terminal.sanitize(name))))
            let again = try prompt(s.t(.userPasswordAgain))
            guard again == password else { throw UsageError(message: s.t(.errUserPasswordsDiffer), code: Failure.dataError) }
        }
        guard password.count >= Secrets.minimumPasswordLength else {
            throw UsageError(message: s.t(.errUserPasswordShort(n: String(Secrets.minimumPasswordLength))), code: Failure.dataError)
        }
        return password
    }

    /// One line read with the terminal's echo off (restored after, on every path).
    static func prompt(_ text: String) throws -> String {
        FileHandle.standardError.write(Data(text.utf8))
        var saved = termios()
        let hasTerminal = tcgetattr(STDIN_FILENO, &saved) == 0
        if hasTerminal {
            var quiet = saved
            quiet.c_lflag &= ~tcflag_t(ECHO)
            tcsetattr(STDIN_FILENO, TCSAFLUSH, &quiet)
        }
        defer {
            if hasTerminal { tcsetattr(STDIN_FILENO, TCSAFLUSH, &saved) }
            FileHandle.standardError.write(Data("\n".utf8))
        }
        return readLine(strippingNewline: true) ?? ""
    }
}

extension AccountError: UserFacingError {
    var exitCode: Int32 {
        switch self {
        case .badName: return Failure.usage
        case .exists, .lastOwner: return Failure.dataError
        case .unknown: return Failure.noInput
        }
    }
    func message(_ l: L10n, database: String) -> String {
        switch self {
        case .badName(let n): return l.text(.errUserBadName(name: Terminal.sanitize(n)))
        case .exists(let n): return l.text(.errUserExists(name: Terminal.sanitize(n)))
        case .unknown(let n): return l.text(.errUserUnknown(name: Terminal.sanitize(n)))
        case .lastOwner(let n): return l.text(.errUserLastOwner(name: Terminal.sanitize(n)))
        }
    }
}
