import Foundation
import Logging
import NIOCore
import NIOPosix
import NIOSSL
import PetFiles
import PetStoreCore
import PostgresNIO
import Synchronization

/// Why talking to the server failed, in the terms a user can act on (the CLI says each in one line).
public enum PostgresFault: Error, Equatable, Sendable {
    /// Nothing answers at the address (server down, wrong host or port, no socket): exit 69.
    case unreachable(target: String)
    /// The server refused the login (wrong password, no such role, no password given): exit 77.
    case authentication(target: String)
    /// The server has no database by that name: exit 69.
    case databaseMissing(target: String, database: String)
    /// The connection dropped in the middle of a command (server restarted, network cut); the
    /// transaction was not committed: exit 75, try again.
    case connectionLost(target: String)
    /// The role may not do this (a read-only volunteer writing): exit 77.
    case permissionDenied(role: String)
    /// TLS was required (`sslmode=require` or stricter) and could not be set up: exit 69.
    case tls(target: String, problem: ServerTLSProblem)
    /// Any other server error: its SQLSTATE and message.
    case server(sqlState: String, message: String)
}

/// A blocking connection to one PostgreSQL server: the store protocols are synchronous (one command, one
/// process), so each call waits for its future on the calling thread; the event loop runs on one thread
/// of its own and runs none of petlog's code: rows come to the calling thread (`forEachRow`, `RowStream`).
///
/// `Sendable` as the store protocols ask, and checked so by the compiler: what changes is in `state`,
/// behind a `Mutex`; and one thread at a time uses the connection (`turn`, held for a statement, a
/// streamed read with its row closure, or a whole transaction; the thread holding it may go on inside,
/// as a row closure's nested statement does). A command uses its link from one thread.
public final class PostgresLink: Sendable {
    public let target: PostgresTarget
    private let group: MultiThreadedEventLoopGroup
    private let logger: Logger

    private struct State {
        var connection: PostgresConnection?
        /// Statement texts with their placeholders numbered, by the text as written.
        var numberedStatements: [String: String] = [:]
        /// A `COPY` still being stored by the server while this side makes the next batch; every other
        /// statement (and the next `COPY`) waits for it first, so statements still go out in order.
        var pendingCopy: EventLoopFuture<Void>?
        /// The `forEachRow` reads in progress on this link, outermost first.
        var openStreams: [RowStream] = []
        /// Seconds spent waiting for other writers so far (the writer turn, pauses before retries).
        var waited: TimeInterval = 0
        /// The server process of this connection, which a signal cancels (`cancelOnSignals`).
        var backend: Int64?
    }
    private let state = Mutex(State())
    /// Held by the thread using the connection (re-entered by the same thread).
    private let turn = NSRecursiveLock()

    private var connection: PostgresConnection? { state.withLock { $0.connection } }

    /// The login role's name on the server (what `record.written_by` stores).
    public var role: String { target.user }

    /// The longest this link's writes wait for other writers, in total (README: "at most 30 s in total").
    public let waitLimit: TimeInterval

    public init(_ target: PostgresTarget, connectTimeout: TimeAmount = .seconds(10), waitLimit: TimeInterval = 30,
                cancelsOnSignals: Bool = true) throws {
        self.target = target
        self.waitLimit = waitLimit
        group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
        var logger = Logger(label: "petlog.postgres")
        logger.logLevel = .critical
        self.logger = logger
        do {
            let connection = try Self.connect(target, on: group.next(), logger: logger, timeout: connectTimeout).wait()
            state.withLock { $0.connection = connection }
        } catch {
            try? group.syncShutdownGracefully()
            throw Self.fault(error, target: target)
        }
        if cancelsOnSignals, let pid = try query("SELECT pg_backend_pid()").first?.first?.int {
            state.withLock { $0.backend = pid }
            Self.cancelOnSignals(backend: pid, of: target)
        }
        #if DEBUG || PETLOG_TEST_HOOKS
        // A long statement for the tests of cancelling (PETLOG_TEST_PG_SLEEP=seconds): none in a release build
        // (PETLOG_TEST_HOOKS: the tests' build, `make test`'s TEST_BUILD).
        if cancelsOnSignals, let seconds = ProcessInfo.processInfo.environment["PETLOG_TEST_PG_SLEEP"].flatMap(Double.init) {
            try query("SELECT pg_sleep($1)", [.double(seconds)])
        }
        #endif
    }

    // MARK: Cancelling on signals

    /// The server processes (backends) of this process's links, by their server.
    private static let backends = Mutex<[(target: PostgresTarget, pid: Int64)]>([])

    /// On Ctrl-C or SIGTERM the server would go on running the statement petlog waited for (closing the
    /// socket is noticed only when the server next writes to it): a signal asks each backend this process
    /// connected to to cancel its statement (`pg_cancel_backend`, over a connection of its own, which a role
    /// may do for its own sessions), then petlog dies of the signal as before (`TemporaryFiles.onSignal`).
    static func cancelOnSignals(backend pid: Int64, of target: PostgresTarget) {
        backends.withLock { $0.append((target, pid)) }
        TemporaryFiles.onSignal {
            let all = PostgresLink.backends.withLock { $0 }
            for (target, pid) in all {
                guard let canceller = try? PostgresLink(target, connectTimeout: .seconds(5), cancelsOnSignals: false) else { continue }
                _ = try? canceller.query("SELECT pg_cancel_backend($1::int)", [.int(pid)])
                canceller.close()
            }
        }
    }

    deinit {
        forgetBackend()
        if let c = connection { _ = try? c.close().wait() }
        try? group.syncShutdownGracefully()
    }

    public func close() {
        turn.lock(); defer { turn.unlock() }
        forgetBackend()
        if let c = connection { _ = try? c.close().wait() }
        state.withLock { $0.connection = nil }
    }

    /// A closed connection's server process is no longer this process's to cancel.
    private func forgetBackend() {
        guard let pid = state.withLock({ s in defer { s.backend = nil }; return s.backend }) else { return }
        Self.backends.withLock { list in list.removeAll { $0.pid == pid && $0.target == target } }
    }

    static func connect(_ target: PostgresTarget, on loop: any EventLoop, logger: Logger, timeout: TimeAmount) -> EventLoopFuture<PostgresConnection> {
        var configuration: PostgresConnection.Configuration
        if let socket = target.socketPath {
            configuration = .init(unixSocketPath: socket, username: target.user, password: target.password, database: target.database)
        } else {
            let tls: PostgresConnection.Configuration.TLS
            do {
                tls = try Self.tls(target)
            } catch {
                return loop.makeFailedFuture(PostgresFault.tls(target: target.redacted, problem: .setUpFailed))
            }
            configuration = .init(host: target.host ?? "localhost", port: target.port, username: target.user,
                                  password: target.password, database: target.database, tls: tls)
        }
        configuration.options.connectTimeout = timeout
        configuration.options.additionalStartupParameters = [("application_name", "petlog"), ("search_path", "petlog")]
        return PostgresConnection.connect(on: loop, configuration: configuration, id: 1, logger: logger)
    }

    /// libpq's modes: `disable` none; `allow`/`prefer` TLS when the server offers it, unverified; `require`
    /// TLS, unverified; `verify-ca` the chain against the system CA store; `verify-full` chain and host name.
    static func tls(_ target: PostgresTarget) throws -> PostgresConnection.Configuration.TLS {
        var config = TLSConfiguration.makeClientConfiguration()
        switch target.sslMode {
        case .disable: return .disable
        case .allow, .prefer:
            config.certificateVerification = .none
            return .prefer(try NIOSSLContext(configuration: config))
        case .require:
            config.certificateVerification = .none
            return .require(try NIOSSLContext(configuration: config))
        case .verifyCA:
            config.certificateVerification = .noHostnameVerification
            return .require(try NIOSSLContext(configuration: config))
        case .verifyFull:
            config.certificateVerification = .fullVerification
            return .require(try NIOSSLContext(configuration: config))
        }
    }

    // MARK: Statements

    /// Runs `sql` (`$1`, `$2` … for `arguments`) and returns every row as values.
    @discardableResult
    public func query(_ sql: String, _ arguments: [SQLValue] = []) throws -> [[SQLValue]] {
        try run(sql, arguments).rows.map(\.values)
    }

    /// The one place statements go to the server: column names, rows, and the rows changed.
    func run(_ sql: String, _ arguments: [SQLValue]) throws -> (rows: [SQLRow], changed: Int) {
        turn.lock(); defer { turn.unlock() }
        try settleOpenStreams()
        try drainCopy()
        guard let connection else { throw PostgresFault.connectionLost(target: target.redacted) }
        do {
            let result = try settle(connection.query(PostgresQuery(unsafeSQL: sql, binds: Self.bindings(arguments)), logger: logger), on: connection)
            var columns: [String]?
            let rows = try result.rows.map { row -> SQLRow in
                let cells = Array(row)
                if columns == nil { columns = cells.map(\.columnName) }
                return SQLRow(columns: columns ?? [], values: try cells.map(Self.value))
            }
            return (rows, result.metadata.rows ?? 0)
        } catch {
            throw Self.fault(error, target: target)
        }
    }

    /// Waits for a statement's future, a second at a time: a connection the server dropped while the
    /// statement was queued (a restart at the wrong moment) can leave the future pending for ever, so a
    /// closed connection ends the wait as the dropped connection it is.
    func settle<T: Sendable>(_ future: EventLoopFuture<T>, on connection: PostgresConnection) throws -> T {
        let done = DispatchSemaphore(value: 0)
        future.whenComplete { _ in done.signal() }
        while done.wait(timeout: .now() + 1) == .timedOut {
            if connection.isClosed {
                // Give a failure that is on its way a moment to arrive; then call it what it is.
                if done.wait(timeout: .now() + 1) == .success { break }
                throw PostgresFault.connectionLost(target: target.redacted)
            }
        }
        return try future.wait()
    }

    /// `COPY table (columns) FROM STDIN`, text format: `data` is whole rows (`CopyRows`). Returns once the
    /// server has the statement; the next statement on this link waits for it to finish and reports its error.
    func copy(into table: String, columns: [String], data: ByteBuffer) throws {
        turn.lock(); defer { turn.unlock() }
        try settleOpenStreams()
        try drainCopy()
        guard let connection else { throw PostgresFault.connectionLost(target: target.redacted) }
        let promise = connection.eventLoop.makePromise(of: Void.self)
        let logger = self.logger
        promise.completeWithTask {
            try await connection.copyFrom(table: table, columns: columns, logger: logger) { writer in
                var rest = data
                // CopyData messages of at most 1 MiB.
                while let part = rest.readSlice(length: min(1 << 20, rest.readableBytes)), part.readableBytes > 0 {
                    try await writer.write(part)
                }
            }
        }
        state.withLock { $0.pendingCopy = promise.futureResult }
    }

    /// Waits for a `COPY` sent by `copy(into:)`, if one is still running.
    func drainCopy() throws {
        turn.lock(); defer { turn.unlock() }
        guard let pending = state.withLock({ s in defer { s.pendingCopy = nil }; return s.pendingCopy }) else { return }
        guard let connection else { throw PostgresFault.connectionLost(target: target.redacted) }
        do {
            try settle(pending, on: connection)
        } catch {
            throw Self.fault(error, target: target)
        }
    }

    static func bindings(_ arguments: [SQLValue]) -> PostgresBindings {
        var binds = PostgresBindings(capacity: arguments.count)
        for a in arguments {
            switch a {
            case .null: binds.appendNull()
            case .int(let v): binds.append(v)
            case .double(let v): binds.append(v)
            case .text(let v): binds.append(v)
            case .bytes(let v): binds.append(ByteBuffer(bytes: v))
            }
        }
        return binds
    }

    /// Several statements separated by semicolons, no arguments (a migration's DDL), one at a time:
    /// postgres-nio speaks only the extended protocol, one statement per message. `--` comments are removed
    /// first; the scripts have no semicolon inside a string literal.
    public func execute(script: String) throws {
        for statement in Self.statements(script) { try query(statement) }
    }

    /// The statements of a script: split at semicolons outside `$$` bodies (a function's), `--` comments removed.
    static func statements(_ script: String) -> [String] {
        let code = script.split(separator: "\n", omittingEmptySubsequences: false).map { line -> Substring in
            line.range(of: "--").map { line[..<$0.lowerBound] } ?? line
        }.joined(separator: "\n")
        var out: [String] = []
        var current = ""
        var inBody = false
        var previous: Character = " "
        for c in code {
            if c == "$" && previous == "$" { inBody.toggle() }
            if c == ";" && !inBody {
                out.append(current)
                current = ""
            } else {
                current.append(c)
            }
            previous = c
        }
        out.append(current)
        return out.map { $0.trimmingCharacters(in: .whitespacesAndNewlines) }.filter { !$0.isEmpty }
    }

    static func value(_ cell: PostgresCell) throws -> SQLValue {
        guard cell.bytes != nil else { return .null }
        switch cell.dataType {
        case .int2: return .int(Int64(try cell.decode(Int16.self)))
        case .int4: return .int(Int64(try cell.decode(Int32.self)))
        case .int8: return .int(try cell.decode(Int64.self))
        case .bool: return .int(try cell.decode(Bool.self) ? 1 : 0)
        case .float4, .float8, .numeric: return .double(try cell.decode(Double.self))
        case .bytea:
            var buffer = try cell.decode(ByteBuffer.self)
            return .bytes(buffer.readBytes(length: buffer.readableBytes) ?? [])
        default: return .text(try cell.decode(String.self))
        }
    }

    // MARK: Transactions

    public enum Isolation: String, Sendable {
        /// Writes: as if the transactions ran one after another (PostgreSQL's SSI).
        case write = "BEGIN ISOLATION LEVEL SERIALIZABLE"
        /// Reads: one snapshot for every query of a command, and no writes.
        case read = "BEGIN ISOLATION LEVEL REPEATABLE READ, READ ONLY"
        /// Migrations: each statement sees what committed before it, so what another client applied while
        /// this one waited for the advisory lock is seen once the lock is held.
        case migration = "BEGIN ISOLATION LEVEL READ COMMITTED"
    }

    /// Runs `body` in one transaction. Writes are SERIALIZABLE: two staff adding the same import at
    /// once, or reading a balance and writing a record, behave as if one ran after the other. Reads are
    /// REPEATABLE READ, READ ONLY: one snapshot for all the queries of a command.
    ///
    /// A write first takes the database's writer turn (`takeWriterTurn`), so petlog's writers queue for
    /// their few milliseconds instead of running side by side and failing each other's serialization:
    /// every write reads and clears the shared `search_stale` and trims the shared undo history, so any two
    /// concurrent writes conflict. A serialization failure or deadlock (40001, 40P01) that still happens (a
    /// client that is not petlog, or an older petlog that takes no turn) rolls back and runs `body` again
    /// after a jittered pause that grows each time. Waiting for the turn and those pauses share one budget
    /// per link (`waitLimit`, the documented 30 s); past it the write fails as busy, nothing written.
    public func transaction<T>(_ isolation: Isolation = .write, _ body: () throws -> T) throws -> T {
        turn.lock(); defer { turn.unlock() }
        let writing = isolation == .write
        if writing { try takeWriterTurn() }
        defer { if writing { releaseWriterTurn() } }
        var attempt = 0
        while true {
            attempt += 1
            try query(isolation.rawValue)
            do {
                let result = try body()
                try query("COMMIT")
                return result
            } catch let fault as PostgresFault {
                _ = try? drainCopy()
                _ = try? query("ROLLBACK")
                if case .server(let state, _) = fault, state == "40001" || state == "40P01", let pause = retryPause(attempt: attempt) {
                    usleep(useconds_t(pause * 1_000_000))
                    continue
                }
                throw fault
            } catch {
                _ = try? drainCopy()
                _ = try? query("ROLLBACK")
                throw error
            }
        }
    }

    // MARK: The writer turn

    /// The session-level advisory lock petlog's writers queue for (per database: the server keys advisory
    /// locks by database too). Not the migrator's key (`PostgresSchema.lockKey`).
    static let writerTurnKey: Int64 = 0x7065_746C_6F67_7774   // "petlogwt"

    /// Takes the writer turn before the transaction begins, so that the transaction's snapshot (taken at its
    /// first statement) already sees every write that held the turn before it: queued writers then never
    /// overlap, and SERIALIZABLE has nothing to refuse between them. Free: one round trip. Held by another
    /// writer: waits in the server's lock queue (first come, first served) for at most what is left of the
    /// budget (`lock_timeout`, set for that one statement's own transaction); past it, 55P03 (busy).
    /// Session-level, so the lock outlives the short transaction that took it, and dies with the connection
    /// when the process is killed.
    func takeWriterTurn() throws {
        let free = try query("SELECT pg_try_advisory_lock($1)", [.int(Self.writerTurnKey)])
        if free.first?.first?.int == 1 { return }
        let left = waitLimit - state.withLock { $0.waited }
        guard left >= 0.001 else { throw PostgresFault.server(sqlState: "55P03", message: "the writer turn stayed busy") }
        let start = Date()
        defer { state.withLock { $0.waited += Date().timeIntervalSince(start) } }
        try query("BEGIN")
        do {
            try query("SELECT set_config('lock_timeout', $1, true)", [.text("\(max(1, Int(left * 1000)))ms")])
            try query("SELECT pg_advisory_lock($1)", [.int(Self.writerTurnKey)])
            try query("COMMIT")
        } catch {
            _ = try? query("ROLLBACK")
            throw error
        }
    }

    /// Gives the turn to the next writer (nothing to do when the connection is gone: the server let go).
    func releaseWriterTurn() {
        _ = try? query("SELECT pg_advisory_unlock($1)", [.int(Self.writerTurnKey)])
    }

    /// The pause before running a write again after its `attempt`-th serialization failure: random in
    /// [d/2, d], d = 2 ms doubled each time up to 250 ms, so retrying writers spread out; nil once the
    /// pause would overrun the budget (the write then fails as busy).
    func retryPause(attempt: Int) -> TimeInterval? {
        let ceiling = min(0.25, 0.002 * pow(2, Double(min(attempt - 1, 16))))
        let pause = Double.random(in: ceiling / 2...ceiling)
        return state.withLock { s -> TimeInterval? in
            guard s.waited + pause <= waitLimit else { return nil }
            s.waited += pause
            return pause
        }
    }

    // MARK: Errors

    /// The one place postgres-nio's and the network's errors become `PostgresFault`s. Never includes the password.
    public static func fault(_ error: any Error, target: PostgresTarget) -> PostgresFault {
        // A statement cancelled because petlog got Ctrl-C or SIGTERM: the signal's thread ends the process
        // (of that signal); this thread says nothing of its own.
        TemporaryFiles.awaitSignalEnd()
        if let f = error as? PostgresFault { return f }
        let where_ = target.redacted
        if let e = error as? PSQLError {
            if let info = e.serverInfo {
                let state = info[.sqlState] ?? ""
                let message = info[.message] ?? ""
                switch state {
                case "28P01", "28000": return .authentication(target: where_)
                case "3D000": return .databaseMissing(target: where_, database: target.database)
                case "42501", "25006": return .permissionDenied(role: target.user)
                case "57P01", "57P02", "57P03": return .connectionLost(target: where_)
                default: return .server(sqlState: state, message: message)
                }
            }
            switch e.code {
            case .authMechanismRequiresPassword, .saslError, .unsupportedAuthMechanism: return .authentication(target: where_)
            case .sslUnsupported: return .tls(target: where_, problem: .notOffered)
            case .failedToAddSSLHandler: return .tls(target: where_, problem: .setUpFailed)
            case .serverClosedConnection, .uncleanShutdown, .clientClosedConnection: return .connectionLost(target: where_)
            case .connectionError: return e.underlying.map { fault($0, target: target) } ?? .unreachable(target: where_)
            default: return .connectionLost(target: where_)
            }
        }
        if error is NIOConnectionError || error is IOError || error is ChannelError { return .unreachable(target: where_) }
        if let e = error as? NIOSSLError {
            switch e {
            case .handshakeFailed(let inner) where "\(inner)".contains("CERTIFICATE_VERIFY_FAILED"):
                return .tls(target: where_, problem: .certificateRejected)
            case .cannotMatchULabel, .noCertificateToValidate, .unableToValidateCertificate: return .tls(target: where_, problem: .certificateRejected)
            default: return .tls(target: where_, problem: .handshakeFailed)
            }
        }
        if error is BoringSSLError { return .tls(target: where_, problem: .handshakeFailed) }
        return .server(sqlState: "", message: String(describing: error))
    }
}

/// The PostgreSQL executor: `?` placeholders numbered once per statement text.
extension PostgresLink: SQLExecutor {
    public func rows(_ sql: String, _ arguments: [SQLValue]) throws -> [SQLRow] {
        try run(numbered(sql), arguments).rows
    }

    @discardableResult
    public func execute(_ sql: String, _ arguments: [SQLValue]) throws -> Int {
        try run(numbered(sql), arguments).changed
    }

    public func insertReturningId(_ sql: String, _ arguments: [SQLValue]) throws -> Int64 {
        guard let id = try run(numbered(sql) + " RETURNING id", arguments).rows.first?[0].int else {
            throw PostgresFault.server(sqlState: "", message: "INSERT returned no id")
        }
        return id
    }

    /// Each row of `sql`, on the calling thread: a task reads the statement's rows (as postgres-nio's async
    /// sequence, which holds the server back when nobody reads) and hands them over in batches through a
    /// bounded `RowStream`; `body` runs here, never on the event loop. A statement `body` sends on this link
    /// (a nested query) first lets the rest of these rows in without bound, so the connection is free for it.
    public func forEachRow(_ sql: String, _ arguments: [SQLValue], columns: (([String]) -> Void)?, _ body: ([SQLValue]) throws -> Void) throws {
        turn.lock(); defer { turn.unlock() }
        try settleOpenStreams()
        try drainCopy()
        guard let connection else { throw PostgresFault.connectionLost(target: target.redacted) }
        let stream = RowStream()
        stream.start(PostgresQuery(unsafeSQL: numbered(sql), binds: Self.bindings(arguments)), on: connection, logger: logger,
                     wantsColumns: columns != nil)
        state.withLock { $0.openStreams.append(stream) }
        defer {
            // The rows not read (`body` threw) are let go; the reading task has ended when this returns.
            stream.stop()
            _ = try? stream.waitForEnd(connection: connection, target: target)
            state.withLock { $0.openStreams.removeAll { $0 === stream } }
        }
        var columns = columns
        do {
            while let batch = try stream.next(connection: connection, target: target) {
                if let c = columns, let names = batch.columns { c(names); columns = nil }
                for values in batch.rows { try body(values) }
            }
        } catch let error as RowStream.ReadError {
            throw Self.fault(error.underlying, target: target)
        }
    }

    /// Before another statement goes out: the streamed reads still open on this link (a `forEachRow` whose
    /// `body` sends this statement) take the rest of their rows in now, so the server is done with them.
    func settleOpenStreams() throws {
        guard let connection else { return }
        for stream in state.withLock({ $0.openStreams }) {
            stream.unbound()
            try stream.waitForEnd(connection: connection, target: target)
        }
    }

    public func columns(_ sql: String) throws -> [String] {
        // One row whatever `sql` gives (NULLs when it gives none), for its column names.
        try run(numbered("SELECT q.* FROM (SELECT 1) AS one LEFT JOIN (\(sql)) AS q ON true LIMIT 1"), []).rows.first?.columns ?? []
    }

    func numbered(_ sql: String) -> String {
        if let cached = state.withLock({ $0.numberedStatements[sql] }) { return cached }
        let n = PlaceholderNumbering.numbered(sql)
        state.withLock { $0.numberedStatements[sql] = n }
        return n
    }
}
