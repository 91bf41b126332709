import Foundation
import PetFiles
import PetModel

/// An engine's own error that escaped the store's mapping (SQLite's `DatabaseError`), said as the
/// `StoreError` it means for the store at `path`: the CLI shows it without naming the engine.
public protocol EngineError: Error {
    func storeError(path: String) -> StoreError
}

/// What the store refuses or cannot do; the CLI maps each case to one localized line and an exit code.
public enum StoreError: Error, Equatable, Sendable {
    /// No active pet by that name or id; `suggestion` is the closest name, if any is close.
    case petNotFound(String, suggestion: String?)
    /// Two pets match (an archived one and an id-like name); the user must use an id.
    case duplicatePetName(String)
    /// Several active pets share the name (a shelter's two "Penny"s): the user must use a number.
    case ambiguousPetName(String, candidates: [String])
    case recordNotFound(Int64)
    case budgetNotFound(Int64)
    case medicationNotFound(pet: String, name: String)
    /// The database was written by a newer petlog: refused, file untouched.
    case newerSchema(path: String, found: [String])
    /// The file is not a petlog (or not an SQLite) database at all.
    case notAPetlogDatabase(path: String)
    /// The file is petlog's but damaged (SQLite reported corruption); `detail` is SQLite's first complaint.
    case damaged(path: String, detail: String)
    /// No database at `path`, and the command only reads (or needs one to exist).
    case databaseMissing(path: String)
    /// The file at `path` is empty (0 bytes) and the command only reads: it is left as it is.
    case databaseEmpty(path: String)
    /// The database may be read but not written here (file, folder or file system read-only).
    case readOnly(path: String)
    case cannotOpen(path: String, reason: String)
    /// A file the store reads or writes, and what the system said about it (the causes of `OutputError`,
    /// whose errno mapping is the only one).
    case file(path: String, OutputError.Cause)
    case attachmentUnreadable(path: String)
    /// `edit ID --detach REF`: the record has no attachment numbered or named `ref`; `have` lists the names it has, in order.
    case attachmentNotOnRecord(id: Int64, ref: String, have: [String])
    case busy
    case petArchived(String)
    case petNotArchived(String)
    /// A CHECK or foreign key rejected the data (a bug upstream of the store; reported, nothing written).
    case constraint(String)
    case io(String)
    /// PostgreSQL (`--db postgres://…`): nothing answers at the address (server down, wrong host or port): exit 69.
    case serverUnreachable(target: String)
    /// The server refused the login (wrong password, no such role): exit 77.
    case serverLogin(target: String)
    /// The server has no database by that name: exit 69.
    case serverDatabaseMissing(target: String, database: String)
    /// The connection dropped in the middle of a command; nothing of it was committed: exit 75, try again.
    case serverConnectionLost(target: String)
    /// TLS was required and could not be set up: exit 69.
    case serverTLS(target: String, problem: ServerTLSProblem)
    /// The role may read but not write (a volunteer), or may not do this at all: exit 77.
    case notPermitted(role: String)
    /// This petlog must add to the server's schema (a newer migration) and the role may not: exit 77,
    /// nothing changed; the database's owner runs petlog once.
    case schemaNeedsOwner(role: String)
    /// Any other server error, with its SQLSTATE: exit 69.
    case server(state: String, message: String)
    /// What only a database file has (a file copy for `backup`), asked of a server: exit 69, with what to use instead.
    case notOnServer(command: String, instead: String)
    /// A medication prefix names several running courses (Heartgard, Heartgard Plus): the user must say which.
    case ambiguousMedication(pet: String, name: String, candidates: [String])

    /// The same error naming `path` where it named `partial`: a file made under a temporary name is the
    /// user's file in every message (`.db.sqlite.123.x.tmp` is never said).
    public func naming(_ path: String, insteadOf partial: String) -> StoreError {
        func swap(_ p: String) -> String { p == partial ? path : p }
        switch self {
        case .newerSchema(let p, let found): return .newerSchema(path: swap(p), found: found)
        case .notAPetlogDatabase(let p): return .notAPetlogDatabase(path: swap(p))
        case .damaged(let p, let detail): return .damaged(path: swap(p), detail: detail)
        case .databaseMissing(let p): return .databaseMissing(path: swap(p))
        case .databaseEmpty(let p): return .databaseEmpty(path: swap(p))
        case .readOnly(let p): return .readOnly(path: swap(p))
        case .cannotOpen(let p, let reason): return .cannotOpen(path: swap(p), reason: reason.replacingOccurrences(of: partial, with: path))
        case .file(let p, let cause): return .file(path: swap(p), cause)
        case .io(let text): return .io(text.replacingOccurrences(of: partial, with: path))
        default: return self
        }
    }
}

/// Why TLS with a PostgreSQL server could not be set up, in words the CLI translates (never a library's code).
public enum ServerTLSProblem: String, Sendable, Equatable {
    /// The server answered that it speaks no TLS (`ssl = off`), and the address asks for it.
    case notOffered
    /// The server's certificate is not one the system trusts, or names another host (`verify-ca`, `verify-full`).
    case certificateRejected
    /// The TLS handshake failed or broke off (protocol versions, ciphers, a connection cut mid-way).
    case handshakeFailed
    /// This machine could not prepare TLS at all (its TLS library or settings).
    case setUpFailed
}
