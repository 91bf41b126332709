import Foundation
import PetStoreCore

extension PostgresRepository {
    /// The server's current snapshot (`xmin:xmax:in-progress`): a committed write ends a transaction id that was
    /// in progress or moves `xmax` past it, so the text differs after every commit, whichever process made it (it
    /// also moves for other databases' writes on the server: only a needless recompute). Any role may read it.
    public func changeMarker() throws -> String? {
        try read { store in try store.sql.row("SELECT pg_current_snapshot()::text", [])?[0].text }
    }
}
