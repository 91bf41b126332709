import Foundation
import PetModel

/// What the store refuses or cannot do; the CLI maps each case to one localized line and an exit code.
public enum StoreError: Error, Equatable, Sendable {
    /// No active pet by that name or id; `suggestion` is the closest name, if any is close.
    case petNotFound(String, suggestion: String?)
    /// Two pets match (an archived one and an id-like name); the user must use an id.
    case duplicatePetName(String)
    /// Several active pets share the name (a shelter's two "Penny"s): the user must use a number.
    case ambiguousPetName(String, candidates: [String])
    case recordNotFound(Int64)
    case medicationNotFound(pet: String, name: String)
    case medicationAlreadyActive(pet: String, name: String)
    /// The database was written by a newer petlog: refused, file untouched.
    case newerSchema(path: String, found: [String])
    /// The file is not a petlog (or not an SQLite) database at all.
    case notAPetlogDatabase(path: String)
    /// The file is petlog's but damaged (SQLite reported corruption); `detail` is SQLite's first complaint.
    case damaged(path: String, detail: String)
    /// No database at `path`, and the command only reads (or needs one to exist).
    case databaseMissing(path: String)
    /// The database may be read but not written here (file, folder or file system read-only).
    case readOnly(path: String)
    case cannotOpen(path: String, reason: String)
    /// A file the store reads or writes, and what the system said about it.
    case file(path: String, FileProblem)
    case attachmentUnreadable(path: String)
    /// A stored attachment whose content no longer matches its SHA-256.
    case attachmentDamaged(path: String)
    case busy
    case petArchived(String)
    case petNotArchived(String)
    /// A CHECK or foreign key rejected the data (a bug upstream of the store; reported, nothing written).
    case constraint(String)
    case io(String)
}

/// Why a file could not be read or written, from errno: the one mapping of system errors to words.
public enum FileProblem: Equatable, Sendable {
    case exists, noSuchFolder, notFound, permissionDenied, noSpace, readOnlyFileSystem, isDirectory, notADirectory
    case notARegularFile, danglingLink, ioError, tooLong
    case other(Int32)

    public init(errno code: Int32) {
        switch code {
        case EEXIST: self = .exists
        case ENOENT: self = .notFound
        case EACCES, EPERM: self = .permissionDenied
        case ENOSPC, EDQUOT, EFBIG: self = .noSpace
        case EROFS: self = .readOnlyFileSystem
        case EISDIR: self = .isDirectory
        case ENOTDIR: self = .notADirectory
        case EIO: self = .ioError
        case ENAMETOOLONG: self = .tooLong
        default: self = .other(code)
        }
    }

    /// True when the cause is the disk or the system (exit 74), not a path the user chose (exit 73).
    public var isIOFailure: Bool {
        switch self {
        case .noSpace, .ioError, .other: return true
        default: return false
        }
    }
}
