import Foundation
import GRDB
import PetModel
import PetStoreCore

enum UndoLog {
    /// How many commands are kept.
    static let kept = 100

    /// The tables whose rows commands change.
    static let tables = ["pet", "record", "weight", "meal", "stool", "urine", "symptom", "diary", "visit", "vaccination",
                         "medication", "dose", "expense", "expense_item", "attachment", "budget", "exchange_rate", "rates_fetch"]

    /// Creates the triggers (migration v4; a later migration that changes one of `tables` recreates its
    /// three triggers, since they list its columns). They write only while `undo_active` names a group.
    static func createTriggers(_ db: Database, tables: [String] = UndoLog.tables) throws {
        for table in tables {
            let columns = try Row.fetchAll(db, sql: "SELECT name, pk FROM pragma_table_info(?) ORDER BY cid", arguments: [table])
            let names: [String] = columns.map { $0["name"] }
            var keys: [String] = columns.filter { ($0["pk"] as Int) > 0 }.sorted { ($0["pk"] as Int) < ($1["pk"] as Int) }.map { $0["name"] }
            if keys.isEmpty { keys = ["rowid"] }
            func keyWhere(_ row: String) -> String {
                keys.map { "\($0) = ' || quote(\(row).\($0)) || '" }.joined(separator: " AND ")
            }
            let values = names.map { "' || quote(old.\($0)) || '" }.joined(separator: ", ")
            let sets = names.map { "\($0) = ' || quote(old.\($0)) || '" }.joined(separator: ", ")
            let columnList = names.joined(separator: ", ")
            try db.execute(sql: """
                CREATE TRIGGER undo_\(table)_insert AFTER INSERT ON \(table) WHEN EXISTS (SELECT 1 FROM undo_active) BEGIN
                  INSERT INTO undo_step (group_id, sql) SELECT group_id, 'DELETE FROM \(table) WHERE \(keyWhere("new"))' FROM undo_active;
                END;
                CREATE TRIGGER undo_\(table)_update AFTER UPDATE ON \(table) WHEN EXISTS (SELECT 1 FROM undo_active) BEGIN
                  INSERT INTO undo_step (group_id, sql) SELECT group_id, 'UPDATE \(table) SET \(sets) WHERE \(keyWhere("new"))' FROM undo_active;
                END;
                CREATE TRIGGER undo_\(table)_delete AFTER DELETE ON \(table) WHEN EXISTS (SELECT 1 FROM undo_active) BEGIN
                  INSERT INTO undo_step (group_id, sql) SELECT group_id, 'INSERT INTO \(table) (\(columnList)) VALUES (\(values))' FROM undo_active;
                END;
                """)
        }
    }

    /// Opens a group for the command now writing; `close` removes it again when it changed nothing.
    static func open(_ db: Database, command: String, at: Int64) throws -> Int64 {
        try db.execute(sql: "INSERT INTO undo_group (command, at) VALUES (?, ?)", arguments: [command, at])
        let id = db.lastInsertedRowID
        try db.execute(sql: "DELETE FROM undo_active")
        try db.execute(sql: "INSERT INTO undo_active (group_id) VALUES (?)", arguments: [id])
        return id
    }

    static func close(_ db: Database, group: Int64) throws {
        try db.execute(sql: "DELETE FROM undo_active")
        if try Bool.fetchOne(db, sql: "SELECT EXISTS (SELECT 1 FROM undo_step WHERE group_id = ?)", arguments: [group]) != true {
            try db.execute(sql: "DELETE FROM undo_group WHERE id = ?", arguments: [group])
        }
        try db.execute(sql: "DELETE FROM undo_group WHERE id <= ?", arguments: [group - Int64(kept)])
    }

    /// The files that undoing the recorded commands would make records refer to again (the attachment
    /// rows their steps put back): `backup` keeps them, so `undo` works in a restored copy too.
    static func attachmentHashes(_ db: Database) throws -> Set<String> {
        guard try db.tableExists("undo_step") else { return [] }
        var hashes = Set<String>()
        for sql in try String.fetchAll(db, sql: "SELECT sql FROM undo_step WHERE sql LIKE 'INSERT INTO attachment %'") {
            // The row's values are quoted literals; the hash is the one 64-digit hexadecimal one.
            for part in sql.split(separator: "'") where part.count == 64 && part.allSatisfy(\.isHexDigit) {
                hashes.insert(part.lowercased())
            }
        }
        return hashes
    }

    /// Forgets every recorded command (after a bulk load, which is not recorded).
    static func clear(_ db: Database) throws {
        try db.execute(sql: "DELETE FROM undo_step")
        try db.execute(sql: "DELETE FROM undo_group")
    }
}

extension SQLiteRepository {
    public func undo(ifLast expected: Int64?) throws -> UndoResult? {
        let before = try read { db in Set(try String.fetchAll(db, sql: "SELECT DISTINCT sha256 FROM attachment")) }
        guard var result = try write(recording: false, { db -> UndoResult? in
            guard let group = try Row.fetchOne(db, sql: "SELECT id, command, at FROM undo_group ORDER BY id DESC LIMIT 1") else { return nil }
            let id: Int64 = group["id"]
            if let expected, expected != id { return nil }
            let steps = try String.fetchAll(db, sql: "SELECT sql FROM undo_step WHERE group_id = ? ORDER BY id DESC", arguments: [id])
            // Rows go back in the reverse order of the changes; references are checked once all are back.
            try db.execute(sql: "PRAGMA defer_foreign_keys = ON")
            for sql in steps { try db.execute(sql: sql) }
            try db.execute(sql: "DELETE FROM undo_group WHERE id = ?", arguments: [id])
            return UndoResult(command: group["command"], at: Date(timeIntervalSince1970: Double(group["at"] as Int64)), changes: steps.count)
        }) else { return nil }
        // Files only the undone rows referred to are moved aside, as `check --repair` does with orphans;
        // files the rows brought back refer to again come back from the quarantine (`check --repair` may
        // have moved them there after the command that is now undone).
        if let store = attachments, let path = database.path {
            let after = try read { db in Set(try String.fetchAll(db, sql: "SELECT DISTINCT sha256 FROM attachment")) }
            try store.unquarantine(after.subtracting(before).sorted(), databasePath: path)
            let gone = before.subtracting(after).map { store.url(for: $0).path }.filter { FileManager.default.fileExists(atPath: $0) }
            if !gone.isEmpty {
                result.quarantine = try AttachmentStore.quarantine(gone.sorted(), root: store.directory, databasePath: path, now: now()).path
            }
        }
        return result
    }

    public func undoHistory(limit: Int) throws -> [UndoEntry] {
        try read { db in
            try Row.fetchAll(db, sql: "SELECT id, command, at FROM undo_group ORDER BY id DESC LIMIT ?", arguments: [limit]).map {
                UndoEntry(id: $0["id"], command: $0["command"], at: Date(timeIntervalSince1970: Double($0["at"] as Int64)))
            }
        }
    }
}
