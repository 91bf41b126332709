import Foundation
import PetStoreCore

/// `POST /undo`'s rule: the account's own last web change is undone only while it is the household's last
/// `undo` step. The step is found first (`ownLastStep`), then undone by its id (`undo(ifLast:)`), which looks
/// again inside the undo's own write transaction: a write that lands in between (the CLI's `petlog weight`,
/// another server's) makes it a 409 that changes nothing, never an undo of that write.
enum UndoCheck {
    /// Run between finding the step and undoing it: the route tests write there, as another process would.
    @TaskLocal static var betweenFindingAndUndoing: (@Sendable () throws -> Void)?

    /// The account's own last step undone, or nil (not its own, not the last, or no longer the last).
    static func undoOwnLast(_ s: SharedStore.Served, _ account: Account) throws -> UndoResult? {
        guard let own = try PetServer.ownLastStep(s, account) else { return nil }
        try betweenFindingAndUndoing?()
        return try s.undo(ifLast: own.id)
    }
}
