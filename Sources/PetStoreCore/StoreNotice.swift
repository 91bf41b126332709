import Foundation

/// Something opening the file did that the user should hear about once.
public enum StoreNotice: Equatable, Sendable {
    /// A new database file was created here.
    case created(path: String)
    /// An older file was backed up before its schema was migrated.
    case migrated(backup: String)
    /// The files of this database were moved out of a shared `attachments/` folder into its own.
    case attachmentsMoved(count: Int, from: String, to: String)
}
