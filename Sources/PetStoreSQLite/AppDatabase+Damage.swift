import Foundation
import GRDB
import PetFiles
import PetModel
import PetStoreCore

/// The damage marker: what a command or `check` found wrong with the file, kept beside it.
extension AppDatabase {
    /// `FILE.damaged` beside the database: written when a command meets corruption that `PRAGMA quick_check`
    /// confirms, or when `check` finds damage; while it exists every write is refused, so nothing more goes
    /// into a damaged file. `check` removes it once the file passes.
    var damageMarker: String? { path.map { $0 + ".damaged" } }

    /// What the marker says, when the file is known to be damaged.
    public var knownDamage: String? {
        guard let marker = damageMarker, FileSecurity.exists(marker) else { return nil }
        return (try? String(contentsOfFile: marker, encoding: .utf8))?.trimmingCharacters(in: .whitespacesAndNewlines) ?? "damaged"
    }

    /// Confirms corruption a command met with `PRAGMA quick_check` and, if confirmed, marks the file.
    func noteCorruption(_ detail: String) {
        let confirmed: String?
        do {
            let lines = try dbQueue.read { db in try String.fetchAll(db, sql: "PRAGMA quick_check(1)") }
            confirmed = lines == ["ok"] ? nil : lines.first ?? detail
        } catch {
            confirmed = detail
        }
        if let confirmed { markDamaged(confirmed) }
    }

    func markDamaged(_ detail: String) {
        guard let marker = damageMarker, !FileSecurity.exists(marker) else { return }
        _ = FileManager.default.createFile(atPath: marker, contents: Data((detail + "\n").utf8), attributes: [.posixPermissions: 0o600])
    }

    func clearDamaged() {
        if let marker = damageMarker { unlink(marker) }
    }
}
