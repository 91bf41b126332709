import Foundation
import GRDB
import PetModel

/// One problem `check` found.
public struct StoreProblem: Equatable, Sendable {
    public enum Kind: String, Sendable { case integrity, foreignKey = "foreign-key", missingFile = "missing-file", badHash = "bad-hash", orphanFile = "orphan-file", orphanRecord = "orphan-record" }
    public var kind: Kind
    public var detail: String
    /// Safe for `check --repair` to fix (an orphan file or a header without its detail).
    public var repairable: Bool { kind == .orphanFile || kind == .orphanRecord }
}

extension SQLiteRepository {
    /// SQLite's integrity and foreign-key checks, every attachment present with its SHA-256, and no orphans
    /// (files nobody refers to, record headers without their detail row).
    public func check() throws -> [StoreProblem] {
        var problems: [StoreProblem] = []
        var referenced: Set<String> = []
        try read { db in
            for line in try String.fetchAll(db, sql: "PRAGMA integrity_check") where line != "ok" {
                problems.append(StoreProblem(kind: .integrity, detail: line))
            }
            for row in try Row.fetchAll(db, sql: "PRAGMA foreign_key_check") {
                problems.append(StoreProblem(kind: .foreignKey, detail: "\(row[0] as String? ?? "?") rowid \(row[1] as Int64? ?? 0) → \(row[2] as String? ?? "?")"))
            }
            for kind in RecordKind.allCases {
                for id in try Int64.fetchAll(db, sql: "SELECT id FROM record WHERE kind = ? AND id NOT IN (SELECT record_id FROM \(kind.rawValue))",
                                             arguments: [kind.rawValue]) {
                    problems.append(StoreProblem(kind: .orphanRecord, detail: "#\(id) \(kind.rawValue)"))
                }
            }
            referenced = Set(try String.fetchAll(db, sql: "SELECT DISTINCT sha256 FROM attachment"))
        }
        if let store = attachments {
            for sha in referenced.sorted() {
                let url = store.url(for: sha)
                guard let data = FileManager.default.contents(atPath: url.path) else {
                    problems.append(StoreProblem(kind: .missingFile, detail: url.path))
                    continue
                }
                if AttachmentStore.sha256Hex(data) != sha { problems.append(StoreProblem(kind: .badHash, detail: url.path)) }
            }
            let root = store.directory
            if let enumerator = FileManager.default.enumerator(atPath: root.path) {
                for case let relative as String in enumerator {
                    let name = (relative as NSString).lastPathComponent
                    var isDir: ObjCBool = false
                    FileManager.default.fileExists(atPath: root.appendingPathComponent(relative).path, isDirectory: &isDir)
                    if isDir.boolValue { continue }
                    if !referenced.contains(name) { problems.append(StoreProblem(kind: .orphanFile, detail: root.appendingPathComponent(relative).path)) }
                }
            }
        }
        return problems
    }

    /// Fixes what is safe to fix: removes orphan files and record headers without detail. Returns how many.
    public func repair(_ problems: [StoreProblem]) throws -> Int {
        var fixed = 0
        let orphanIds = problems.filter { $0.kind == .orphanRecord }.compactMap { Int64($0.detail.dropFirst().prefix { $0 != " " }) }
        if !orphanIds.isEmpty {
            try write { db in
                for id in orphanIds { try db.execute(sql: "DELETE FROM record WHERE id = ?", arguments: [id]) }
            }
            fixed += orphanIds.count
        }
        for p in problems where p.kind == .orphanFile {
            try? FileManager.default.removeItem(atPath: p.detail)
            fixed += 1
        }
        return fixed
    }

    /// An online backup (consistent while others write) into a new 0600 file.
    public func backup(to path: String) throws {
        try database.backup(to: path)
    }
}
