import Foundation
import GRDB
import PetModel
import PetStoreCore

/// Names for shell completion (`petlog log <TAB>`): read from the database without changing it, and
/// empty on any trouble (no file, not a petlog database, locked, a schema from another version).
/// Never creates, migrates or writes the file; never waits on a lock.
public enum CompletionNames {
    /// The active (not archived) pets' names, in name order.
    public static func pets(databasePath path: String) -> [String] {
        read(path, sql: "SELECT name FROM pet WHERE archived_on IS NULL ORDER BY name_key, id")
    }

    /// The names of medications not stopped, once each, in name order: of the pets named (`Coco` or
    /// `Coco,Nabi`: those every one of them is on; an id names a pet too), or of every active pet when none is named.
    public static func medications(databasePath path: String, pets: [String] = []) -> [String] {
        let keys = pets.map(TextField.nameKey)
        guard !keys.isEmpty else {
            return read(path, sql: """
                SELECT DISTINCT m.name FROM medication m JOIN record r ON r.id = m.record_id
                JOIN pet p ON p.id = r.pet_id
                WHERE m.stopped_at IS NULL AND p.archived_on IS NULL ORDER BY m.name
                """)
        }
        let marks = Array(repeating: "?", count: keys.count).joined(separator: ", ")
        return read(path, sql: """
            SELECT m.name FROM medication m JOIN record r ON r.id = m.record_id
            JOIN pet p ON p.id = r.pet_id
            WHERE m.stopped_at IS NULL AND p.archived_on IS NULL AND (p.name_key IN (\(marks)) OR CAST(p.id AS TEXT) IN (\(marks)))
            GROUP BY m.name HAVING COUNT(DISTINCT p.id) = ? ORDER BY m.name
            """, arguments: StatementArguments(keys) + StatementArguments(pets) + [Set(keys).count])
    }

    static func read(_ path: String, sql: String, arguments: StatementArguments = []) -> [String] {
        var info = stat()
        // Only a regular file: never open a FIFO or a device, never create anything.
        guard !path.isEmpty, stat(path, &info) == 0, info.st_mode & S_IFMT == S_IFREG else { return [] }
        var config = Configuration()
        config.readonly = true
        config.busyMode = .immediateError
        do {
            // Without a -wal beside it the file holds everything: read it immutable, leaving no -shm behind.
            let live = FileManager.default.fileExists(atPath: path + "-wal")
            let queue = try DatabaseQueue(
                path: live ? path : "file:" + AppDatabase.uriEscaped(path) + "?immutable=1", configuration: config)
            defer { try? queue.close() }
            let names = try queue.read { db in try String.fetchAll(db, sql: sql, arguments: arguments) }
            // Completion answers one name a line (a tab starts fish's description): a name with a line
            // break, a tab or another control character cannot be offered as itself, so it is not offered.
            return names.filter { !$0.isEmpty && !$0.unicodeScalars.contains(where: { $0.value < 0x20 || (0x7F...0x9F).contains($0.value) || $0.value == 0x2028 || $0.value == 0x2029 }) }
        } catch {
            return []
        }
    }
}
