import Foundation
import PetModel

/// What `undo` reverted.
public struct UndoResult: Equatable, Sendable {
    /// The command line the change came from, and when it ran.
    public var command: String
    public var at: Date
    /// Rows put back as they were.
    public var changes: Int
    /// Attachment files no row refers to any more, moved to the quarantine folder (never deleted).
    public var quarantine: String?

    public init(command: String, at: Date, changes: Int, quarantine: String? = nil) {
        self.command = command; self.at = at; self.changes = changes; self.quarantine = quarantine
    }
}

/// One command that may be undone.
public struct UndoEntry: Equatable, Sendable {
    public var id: Int64
    public var command: String
    public var at: Date

    public init(id: Int64, command: String, at: Date) { self.id = id; self.command = command; self.at = at }
}

/// The command text the writes made in a scope are recorded under for `undo`, in place of the store's own
/// (`petlog serve` names each web write with its account: `serve #3 (Mina): weight`); nil: the store's.
public enum UndoName {
    @TaskLocal public static var command: String?
}

/// `petlog undo`: the last commands' changes, kept as the SQL that reverts them (the technique of
/// sqlite.org/undoredo.html). Triggers write one reverting statement per row inserted, updated or
/// deleted into `undo_step`, under the command's `undo_group`, while its write transaction has set
/// `undo_active` (set and cleared inside that transaction, so no other process's writes are recorded); `undo` runs the last group's statements newest first, in one
/// transaction, and removes the group. Bulk loads (`import`, `demo`, `restore`) are not recorded: they
/// clear the history instead, so `undo` never reaches past them.
public protocol HistoryRepository: Sendable {
    /// Reverts the most recent recorded command; nil when there is none. With `ifLast`, only while that step
    /// (`UndoEntry.id`) is still the last one: the look and the revert are one write transaction, so a write
    /// that lands after the caller read `undoHistory` (another process's, the CLI's) makes it nil, never undone.
    func undo(ifLast id: Int64?) throws -> UndoResult?
    /// The commands that may be undone, newest first.
    func undoHistory(limit: Int) throws -> [UndoEntry]
}

extension HistoryRepository {
    /// Reverts the most recent recorded command, whichever it is (`petlog undo`).
    public func undo() throws -> UndoResult? { try undo(ifLast: nil) }
}
