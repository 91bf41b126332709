import Foundation
import PetFiles
import PetModel
import PetStoreCore
import PetStorePostgres
import PetStoreSQLite

/// The one place petlog names an engine: a `StoreLocation` (from `--db`, `PETLOG_DB` or the config) opened as
/// the `Store` over the engine it names, a SQLite file (`SQLiteRepository`) or a PostgreSQL server
/// (`PostgresRepository`). The CLI imports this module and neither engine.
public enum StoreOpening {
    /// How a command opens its store.
    public struct Options {
        /// Only the commands that may start a new database (`pet add`, `import`, `demo`) create a missing file.
        public var creating: Bool
        /// The clock writes are stamped with (`PETLOG_NOW`); nil: the real one.
        public var now: Date?
        /// The command line writes are recorded under for `undo`.
        public var undoCommand: String?
        /// Called once, when a wait for another process's lock on the file has lasted about two seconds.
        public var onWaiting: (@Sendable () -> Void)?
        /// The server a `postgres://` URL names (the CLI's reading, with its warnings).
        public var server: (String) throws -> PostgresTarget

        public init(creating: Bool = false, now: Date? = nil, undoCommand: String? = nil, onWaiting: (@Sendable () -> Void)? = nil,
                    server: @escaping (String) throws -> PostgresTarget) {
            self.creating = creating; self.now = now; self.undoCommand = undoCommand; self.onWaiting = onWaiting; self.server = server
        }

        var clock: @Sendable () -> Date { if let now { return { now } } else { return { Date() } } }
    }

    /// The store `location` names, opened (a file's schema migrated, a server's schema made) for one command.
    public static func open(_ location: StoreLocation, _ options: Options) throws -> OpenedStore {
        switch location {
        case .postgres(let url):
            let server = try PostgresRepository(try options.server(url), now: options.clock, undoCommand: options.undoCommand)
            return OpenedStore(server: server)
        case .sqliteFile(let path):
            let db = try AppDatabase.open(path: path, options: OpenOptions(create: options.creating, removeOnSignal: options.creating,
                                                                            onWaiting: options.onWaiting))
            return OpenedStore(file: db, options)
        }
    }

    /// The store for `check`: a file that will not open normally because it is damaged (cut short, its header
    /// overwritten) is opened only to be read (`AppDatabase.openDamaged`), so that `check` can say what is
    /// wrong and `--repair` copy out what is left, instead of the refusal every other command gives.
    public static func openForCheck(_ location: StoreLocation, _ options: Options) throws -> OpenedStore {
        do {
            return try open(location, options)
        } catch {
            guard let path = location.filePath, let refused = (error as? StoreError) ?? storeError(from: error, path: path) else { throw error }
            switch refused {
            case .damaged, .notAPetlogDatabase: return OpenedStore(damaged: try AppDatabase.openDamaged(path: path, refused: refused), options)
            default: throw error
            }
        }
    }

    /// `restore`: the backup copied back over the file `location` names (and its attachments); a server is
    /// restored with `pg_restore`, which the refusal names.
    public static func restore(from backup: String, to location: StoreLocation, server: (String) throws -> PostgresTarget) throws -> BackupReport {
        switch location {
        case .sqliteFile(let path): return try SQLiteRepository.restore(from: backup, to: path)
        case .postgres(let url):
            throw StoreError.notOnServer(command: "restore", instead: PostgresRepository.restoreCommand(try server(url), from: backup))
        }
    }

    /// `error` as a store error when it is an engine's error that escaped the store's own mapping (a safety
    /// net for the CLI, so no raw SQLite text reaches a user); nil for any other error.
    public static func storeError(from error: Error, path: String) -> StoreError? {
        SQLiteRepository.storeError(from: error, path: path)
    }
}

/// What the CLI uses of the SQLite engine without opening a store: names for shell completion read
/// straight from the file, and the schema versions `--version` prints.
public typealias CompletionNames = PetStoreSQLite.CompletionNames
public typealias SchemaVersions = PetStoreSQLite.SchemaVersions
/// `pg init-roles`: the server's group roles and grants.
public typealias ServerRoles = PostgresRoles

/// A store opened for one command, with what opening it made: the file or the server schema a failed
/// command removes again when nothing was written into it.
public final class OpenedStore {
    public let store: Store
    /// What opening the file did that the user should hear about once.
    public let notices: [StoreNotice]
    let file: AppDatabase?
    let server: PostgresRepository?

    init(server: PostgresRepository) {
        store = Store(server); notices = []; file = nil; self.server = server
    }

    init(file db: AppDatabase, _ options: StoreOpening.Options) {
        store = Store(SQLiteRepository(db, now: options.clock, undoCommand: options.undoCommand))
        notices = db.notices; file = db; server = nil
    }

    init(damaged db: AppDatabase, _ options: StoreOpening.Options) {
        store = Store(SQLiteRepository(db, now: options.clock, undoCommand: options.undoCommand))
        notices = []; file = nil; server = nil
    }

    /// The database file this command created, if it did.
    public var createdFile: String? {
        guard let file, let path = file.path, file.notices.contains(.created(path: path)) else { return nil }
        return path
    }

    /// After a failed command: the file it created, or the server schema it made, goes again when nothing was
    /// written into it; whether it went.
    @discardableResult
    public func removeIfNeverWritten() -> Bool {
        if createdFile != nil, let file { return file.removeIfNeverWritten() }
        if let server, server.createdSchema { return server.removeIfNeverWritten() }
        return false
    }

    /// The file this command created is no longer removed by a signal (the command is done with it).
    public func keepOnSignal() {
        if createdFile != nil { file?.keepOnSignal() }
    }
}
