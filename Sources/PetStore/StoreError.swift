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
    case notAPetlogDatabase(path: String)
    case cannotOpen(path: String, reason: String)
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
