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
    /// The database may be read but not written here (file, folder or file system read-only).
    case readOnly(path: String)
    case cannotOpen(path: String, reason: String)
    /// A file the store reads or writes, and what the system said about it (the causes of `OutputError`,
    /// whose errno mapping is the only one).
    case file(path: String, OutputError.Cause)
    case attachmentUnreadable(path: String)
    case busy
    case petArchived(String)
    case petNotArchived(String)
    /// A CHECK or foreign key rejected the data (a bug upstream of the store; reported, nothing written).
    case constraint(String)
    case io(String)
    /// A medication prefix names several running courses (Heartgard, Heartgard Plus): the user must say which.
    case ambiguousMedication(pet: String, name: String, candidates: [String])
}
