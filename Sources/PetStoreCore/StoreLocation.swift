import Foundation

/// Where the store is, decided once from the text the user gave (`--db`, `PETLOG_DB` or the config's
/// `database`): a SQLite file, or a PostgreSQL server named by a `postgres://`/`postgresql://` URL. The URL
/// stays as written here; `PostgresTarget.parse` reads it with libpq's environment (`PGPASSWORD`, `~/.pgpass`
/// …) when the store is opened, so a command that never opens the store never fails on it.
public enum StoreLocation: Sendable, Equatable {
    case sqliteFile(path: String)
    case postgres(url: String)

    public init(_ text: String) {
        self = PostgresTarget.isURL(text) ? .postgres(url: text) : .sqliteFile(path: text)
    }

    /// The store is a PostgreSQL server.
    public var isServer: Bool { if case .postgres = self { return true }; return false }

    /// The database file's path; nil for a server.
    public var filePath: String? { if case .sqliteFile(let path) = self { return path }; return nil }

    /// The text as the user gave it (with a server URL's password): for the stores and `backup`/`restore`.
    public var text: String {
        switch self {
        case .sqliteFile(let path): return path
        case .postgres(let url): return url
        }
    }

    /// The location as messages name it: a server's URL without its password.
    public var displayed: String {
        switch self {
        case .sqliteFile(let path): return path
        case .postgres(let url): return PostgresTarget.redactPassword(url)
        }
    }
}
