import Foundation
import GRDB
import GRDBSQLite
import PetFiles
import PetModel
import PetStoreCore

extension SQLiteRepository {
    /// SQLite's integrity and foreign-key checks, every attachment present with its SHA-256, and no orphans
    /// (files nobody refers to, record headers without their detail row). A damaged file is reported, not
    /// thrown: the checks that cannot run on it are skipped.
    public func check() throws -> [StoreProblem] {
        var problems: [StoreProblem] = []
        var referenced: Set<String> = []
        // A file `openDamaged` opened: what its header and size say comes first, and without a schema nothing more can be read.
        if let opened = database.damageAtOpen {
            problems += opened.notes.map { StoreProblem(kind: .integrity, detail: $0) }
            if !opened.schemaReadable {
                database.markDamaged(problems.first?.detail ?? "unreadable")
                return problems
            }
        }
        // Pages mapped rather than copied in by read(2): the integrity check reads the whole file, and the
        // copies were a third of its time.
        try? dbQueue.inDatabase { db in try db.execute(sql: "PRAGMA mmap_size = 1073741824") }
        defer { try? dbQueue.inDatabase { db in try db.execute(sql: "PRAGMA mmap_size = 0") } }
        do {
            try dbQueue.read { db in
                let roots = try Self.rootPages(db)
                for line in try Self.integrityLines(db) {
                    problems.append(StoreProblem(kind: Self.damageKind(line, roots: roots), detail: line))
                }
            }
        } catch let e as DatabaseError where e.resultCode == .SQLITE_CORRUPT || e.resultCode == .SQLITE_NOTADB {
            // (Ending the read may repeat what the check already said in lines of its own.)
            if !problems.contains(where: { $0.kind == .integrity || $0.kind == .index }) {
                problems.append(StoreProblem(kind: .integrity, detail: e.message ?? "database disk image is malformed"))
            }
        } catch let e as DatabaseError {
            throw map(e)
        }
        let damaged = problems.contains { $0.kind == .integrity }
        if let first = problems.first(where: { $0.kind == .integrity || $0.kind == .index }) {
            database.markDamaged(first.detail)
        } else {
            database.clearDamaged()
        }
        do {
            try dbQueue.read { db in
                for row in try Row.fetchAll(db, sql: "PRAGMA foreign_key_check") {
                    problems.append(StoreProblem(kind: .foreignKey, .foreignKey(table: row[0] as String? ?? "?", rowid: row[1] as Int64? ?? 0, parent: row[2] as String? ?? "?")))
                }
                // One pass over the covering index of (pet, kind, time), one rowid search in the kind's table each.
                // (The table itself when an index is damaged: REINDEX mends that, and this must not trip on it.)
                // A correlated NOT EXISTS (a key lookup), never `id IN (SELECT record_id …)`, which is a table
                // built in memory per kind (Store.recordsWithoutDetailSQL says why, for the server).
                let detailMissing = RecordKind.allCases.map {
                    "WHEN '\($0.rawValue)' THEN NOT EXISTS (SELECT 1 FROM \($0.rawValue) d WHERE d.record_id = record.id)"
                }.joined(separator: " ")
                let path = problems.contains { $0.kind == .index } ? "NOT INDEXED" : "INDEXED BY record_pet_kind_at"
                for row in try Row.fetchAll(db, sql: """
                    SELECT id, kind FROM record \(path) WHERE CASE kind \(detailMissing) ELSE 0 END ORDER BY id
                    """) {
                    // Only a known kind is matched by the CASE above.
                    if let kind = RecordKind(rawValue: row[1]) { problems.append(.orphanRecord(.init(id: row[0], kind: kind))) }
                }
                for value in try Self.invalidValues(db) {
                    problems.append(StoreProblem(kind: .invalidValue, detail: value.description))
                }
                referenced = Set(try String.fetchAll(db, sql: "SELECT DISTINCT sha256 FROM attachment"))
                if try db.tableExists("search_index") {
                    let wrong = try SearchIndex.rowsOutOfStep(db)
                    if wrong > 0 { problems.append(StoreProblem(kind: .searchIndex, .rowsOutOfStep(table: "search_index", count: wrong))) }
                }
                // The packed weight series: every chunk against the tables' points at its place.
                let chunks = try WeightSeriesCache.outOfStep(db).values.reduce(0, +)
                if chunks > 0 { problems.append(StoreProblem(kind: .weightSeries, .rowsOutOfStep(table: "weight_chunk", count: chunks))) }
            }
        } catch let e as DatabaseError where damaged || e.resultCode == .SQLITE_CORRUPT {
            // Already reported by the integrity check; the file system checks below need the references.
            if !damaged { problems.append(StoreProblem(kind: .integrity, detail: e.message ?? "database disk image is malformed")) }
            return problems
        } catch let e as DatabaseError {
            throw map(e)
        }
        if let store = attachments {
            for sha in referenced.sorted() {
                let url = store.url(for: sha)
                guard let data = FileManager.default.contents(atPath: url.path) else {
                    // In the quarantine (moved there while no record referred to it): `--repair` brings it back.
                    let quarantined = database.path.flatMap { store.quarantined(sha, databasePath: $0) }
                    problems.append(StoreProblem(kind: quarantined == nil ? .missingFile : .quarantinedFile, detail: url.path))
                    continue
                }
                if AttachmentStore.sha256Hex(data) != sha { problems.append(StoreProblem(kind: .badHash, detail: url.path)) }
            }
            for file in store.allFiles() where !referenced.contains((file as NSString).lastPathComponent) {
                problems.append(StoreProblem(kind: .orphanFile, detail: file))
            }
        }
        return problems
    }

    /// `PRAGMA integrity_check`, a line per problem (one row may hold many, and a heading of its own). Where the
    /// check itself stops on damage, what it said so far is kept and it is run again table by table, so one
    /// broken tree hides none of the others.
    static func integrityLines(_ db: Database) throws -> [String] {
        /// The lines read before the check stopped, and why it stopped.
        func run(_ sql: String) throws -> (lines: [String], stopped: DatabaseError?) {
            var lines: [String] = []
            do {
                let rows = try String.fetchCursor(db, sql: sql)
                while let row = try rows.next() {
                    lines += row.split(separator: "\n").map(String.init).filter { $0 != "ok" && !$0.hasPrefix("*** in database ") }
                }
                return (lines, nil)
            } catch let e as DatabaseError where e.resultCode == .SQLITE_CORRUPT {
                return (lines, e)
            }
        }
        let whole = try run("PRAGMA integrity_check")
        guard let stopped = whole.stopped else { return whole.lines }
        var out: [String] = []
        for table in try String.fetchAll(db, sql: "SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY rootpage") {
            let one = try run("PRAGMA integrity_check('\(table.replacingOccurrences(of: "'", with: "''"))')")
            out += one.lines.filter { !out.contains($0) }
            if let e = one.stopped { out.append("\(table): check stopped: \(e.message ?? "database disk image is malformed")") }
        }
        return out.isEmpty ? whole.lines + [stopped.message ?? "database disk image is malformed"] : out
    }

    static func invalidValues(_ db: Database) throws -> [InvalidStoredValue] {
        try Store.invalidValues(in: SQLiteExecutor(db))
    }

    /// Root page → (name, type) of every table and index, to tell index damage from table damage.
    static func rootPages(_ db: Database) throws -> [Int: (name: String, type: String)] {
        var out: [Int: (name: String, type: String)] = [:]
        for row in try Row.fetchAll(db, sql: "SELECT rootpage, name, type FROM sqlite_master WHERE rootpage > 0") {
            out[row[0]] = (row[1], row[2])
        }
        return out
    }

    /// `row 5 missing from index record_at`, `wrong # of entries in index …` and page errors in a tree whose
    /// root is an index are index damage; anything else is table damage.
    static func damageKind(_ line: String, roots: [Int: (name: String, type: String)]) -> StoreProblem.Kind {
        if line.contains(" index ") || line.hasPrefix("wrong # of entries in index") { return .index }
        let scanner = Scanner(string: line)
        if scanner.scanString("Tree ") != nil || scanner.scanString("On tree page ") != nil,
           let root = scanner.scanInt(), roots[root]?.type == "index" {
            return .index
        }
        return .integrity
    }

    /// Fixes what can be fixed without losing anything: orphan files move to a quarantine folder beside the
    /// database, record headers without detail go, damaged indexes are rebuilt, and a file whose tables are
    /// damaged is copied, row by readable row, into a new file beside it (the damaged file stays as it was).
    public func repair(_ problems: [StoreProblem]) throws -> RepairReport {
        var report = RepairReport()
        let damage = problems.filter { $0.kind == .index || $0.kind == .integrity }
        if !damage.isEmpty {
            // Indexes hold nothing of their own: rebuilding them loses nothing, and is kept only when the file
            // then passes the integrity check. Otherwise the tables are damaged, and nothing is done in place.
            // (A file opened by `openDamaged` is only read: its damage is never mended in place.)
            if database.damageAtOpen == nil, try rebuildIndexes() {
                database.clearDamaged()
                report.fixed += damage.count
            } else {
                report.recovered = try recoverCopy()
                report.nothingReadable = report.recovered == nil
                return report
            }
        }
        let orphanIds = problems.filter { $0.kind == .orphanRecord }.compactMap { $0.record?.id }
        if !orphanIds.isEmpty {
            try write { db in
                for id in orphanIds { try db.execute(sql: "DELETE FROM record WHERE id = ?", arguments: [id]) }
            }
            report.fixed += orphanIds.count
        }
        if problems.contains(where: { $0.kind == .searchIndex }) {
            try write(recording: false) { db in try SearchIndex.rebuild(db) }
            report.fixed += 1
        }
        if problems.contains(where: { $0.kind == .weightSeries }) {
            // Derived data: the pets' chunks that differ go, and the next chart packs them from the tables.
            try write(recording: false) { db in
                for pet in try WeightSeriesCache.outOfStep(db).keys { try db.execute(sql: "DELETE FROM weight_chunk WHERE pet_id = ?", arguments: [pet]) }
            }
            report.fixed += 1
        }
        let quarantined = problems.filter { $0.kind == .quarantinedFile }.map { ($0.detail as NSString).lastPathComponent }
        if !quarantined.isEmpty, let store = attachments, let path = database.path {
            report.fixed += try store.unquarantine(quarantined, databasePath: path).count
        }
        let orphans = problems.filter { $0.kind == .orphanFile }.map(\.detail)
        if !orphans.isEmpty, let store = attachments, let path = database.path {
            report.quarantine = try AttachmentStore.quarantine(orphans, root: store.directory, databasePath: path, now: now()).path
            report.fixed += orphans.count
        }
        return report
    }

    /// REINDEX in one transaction, committed only when the file then passes `PRAGMA integrity_check`.
    func rebuildIndexes() throws -> Bool {
        struct StillDamaged: Error {}
        do {
            // Not through `write`: the file is marked damaged, and this is the one write that may mend it.
            try dbQueue.write { db in
                try db.execute(sql: "REINDEX")
                let lines = try String.fetchAll(db, sql: "PRAGMA integrity_check")
                if lines != ["ok"] { throw StillDamaged() }
            }
            return true
        } catch is StillDamaged {
            return false
        } catch let e as DatabaseError where e.resultCode == .SQLITE_CORRUPT {
            return false
        } catch let e as DatabaseError {
            throw map(e)
        }
    }

    /// Copies every readable row of every table into `<name>.recovered-<time>.sqlite` beside the file (with
    /// its attachments), drops rows whose parent was lost, and checks the copy; nil, and no copy left, when
    /// not one row could be read.
    func recoverCopy() throws -> (path: String, pets: Int, records: Int, rowsLost: Int)? {
        guard let path = database.path else { throw StoreError.io("in-memory database") }
        if database.damageAtOpen?.schemaReadable == false { return nil }
        let stamp = Int(now().timeIntervalSince1970)
        var target = path + ".recovered-\(stamp).sqlite"
        var n = 1
        while FileManager.default.fileExists(atPath: target) { n += 1; target = path + ".recovered-\(stamp)-\(n).sqlite" }
        let copy = try AppDatabase.open(path: target, options: OpenOptions(create: true))
        var lost = 0
        var copied = 0
        do {
            let tables = try dbQueue.read { db in
                try String.fetchAll(db, sql: "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' AND name != 'grdb_migrations' AND name NOT LIKE 'search\\_%' ESCAPE '\\' AND name != 'weight_chunk' ORDER BY rootpage")
            }
            try copy.dbQueue.writeWithoutTransaction { out in
                try out.execute(sql: "PRAGMA foreign_keys = OFF")
                try out.inTransaction {
                    for table in tables {
                        let rows = try copyReadableRows(table: table, into: out)
                        copied += rows.copied
                        lost += rows.skipped
                    }
                    // Rows whose parent was lost (a detail without its record, a record without its pet) go too.
                    while true {
                        let broken = try Row.fetchAll(out, sql: "PRAGMA foreign_key_check")
                        if broken.isEmpty { break }
                        for row in broken {
                            try out.execute(sql: "DELETE FROM \(row[0] as String) WHERE rowid = ?", arguments: [row[1] as Int64?])
                            lost += 1
                        }
                    }
                    for kind in RecordKind.allCases {
                        try out.execute(sql: "DELETE FROM record WHERE kind = ? AND id NOT IN (SELECT record_id FROM \(kind.rawValue))", arguments: [kind.rawValue])
                        lost += out.changesCount
                    }
                    // The search index is derived: made again from the rows kept.
                    if try out.tableExists("search_index") { try SearchIndex.rebuild(out) }
                    return .commit
                }
                try out.execute(sql: "PRAGMA foreign_keys = ON")
            }
            if let from = attachments, let to = copy.attachmentsDirectory {
                let hashes = try copy.dbQueue.read { db in try String.fetchAll(db, sql: "SELECT DISTINCT sha256 FROM attachment") }
                _ = try AttachmentStore.copyVerified(hashes, from: from, to: AttachmentStore(directory: to), skipMissing: true)
            }
        } catch {
            // The copy goes whole, SQLite's files beside it too (a full disk leaves a -wal and -shm).
            try? copy.dbQueue.close()
            for suffix in ["", "-wal", "-shm", "-journal"] { unlink(target + suffix) }
            try? FileManager.default.removeItem(at: AppDatabase.attachmentsDirectory(forDatabase: target))
            throw error
        }
        let (pets, records) = try copy.dbQueue.read { db in
            (try Int.fetchOne(db, sql: "SELECT count(*) FROM pet") ?? 0, try Int.fetchOne(db, sql: "SELECT count(*) FROM record") ?? 0)
        }
        if copied == 0 {
            try? copy.dbQueue.close()
            for suffix in ["", "-wal", "-shm", "-journal"] { unlink(target + suffix) }
            try? FileManager.default.removeItem(at: AppDatabase.attachmentsDirectory(forDatabase: target))
            return nil
        }
        return (target, pets, records, lost)
    }

    /// Copies the rows of `table` that can be read, in rowid order, stepping over damaged pages; returns the
    /// rows copied and an estimate of the rows skipped (one per failed probe).
    private func copyReadableRows(table: String, into out: Database) throws -> (copied: Int, skipped: Int) {
        var copied = 0
        let columns = try dbQueue.read { db in try db.columns(in: table).map(\.name) }
        let list = columns.map { "\"\($0)\"" }.joined(separator: ", ")
        let insert = "INSERT OR IGNORE INTO \"\(table)\" (rowid, \(list)) VALUES (\(Array(repeating: "?", count: columns.count + 1).joined(separator: ", ")))"
        // A damaged interior page can send a scan round and round the tree: each read gets two seconds.
        func batch(after cursor: Int64, limit: Int) throws -> [Row] {
            try dbQueue.read { db in
                let deadline = UnsafeMutablePointer<Double>.allocate(capacity: 1)
                deadline.pointee = Date().timeIntervalSince1970 + 2
                sqlite3_progress_handler(db.sqliteConnection, 10_000, { context in
                    (context.map { Date().timeIntervalSince1970 > $0.assumingMemoryBound(to: Double.self).pointee } ?? false) ? 1 : 0
                }, deadline)
                defer {
                    sqlite3_progress_handler(db.sqliteConnection, 0, nil, nil)
                    deadline.deallocate()
                }
                return try Row.fetchAll(db, sql: "SELECT rowid, \(list) FROM \"\(table)\" WHERE rowid > ? ORDER BY rowid LIMIT \(limit)", arguments: [cursor])
            }
        }
        /// Rows past `cursor` from one read, or nil when the read fails or goes backwards (damage).
        func readable(after cursor: Int64, limit: Int) -> [Row]? {
            guard let rows = try? batch(after: cursor, limit: limit) else { return nil }
            return rows.allSatisfy({ ($0[0] as Int64) > cursor }) ? rows : nil
        }
        var cursor = Int64.min
        var skipped = 0
        var singles = 0
        let giveUp = Date().addingTimeInterval(120)
        while Date() < giveUp {
            let limit = singles > 0 ? 1 : 500
            if let rows = readable(after: cursor, limit: limit) {
                guard let last = rows.last else { return (copied, skipped) }
                for row in rows { try out.execute(sql: insert, arguments: StatementArguments(row.databaseValues)) }
                copied += rows.count
                cursor = last[0]
                singles = max(0, singles - 1)
                continue
            }
            // Near damage, read one row at a time; where even that fails, find the first cursor past the
            // damage from which reading works again (doubling steps, then halving), and go on from there.
            if limit > 1 { singles = 500; continue }
            var step: Int64 = 1
            var bad = cursor
            var good: Int64?
            while good == nil {
                let probe = bad.addingReportingOverflow(step)
                if probe.overflow { return (copied, skipped + 1) }
                if readable(after: probe.partialValue, limit: 1) != nil { good = probe.partialValue } else {
                    bad = probe.partialValue
                    step = step > Int64.max / 2 ? Int64.max : step * 2
                }
            }
            var hi = good!  // safe: the loop above only ends with good set
            while hi - bad > 1 {
                let mid = bad + (hi - bad) / 2
                if readable(after: mid, limit: 1) != nil { hi = mid } else { bad = mid }
            }
            skipped += 1
            cursor = hi
        }
        return (copied, skipped + 1)
    }

    /// An online backup (consistent while others write) into a new 0600 file, with the attachments it
    /// refers to in the backup's own attachments folder (`<file name>.attachments/` beside it), so the
    /// backup opens as it is (`petlog --db BACKUP`) and `restore` brings both back. The attachments are
    /// copied and verified first, into a folder renamed into place; the database is linked into place last,
    /// so a file at `destination` always comes with its attachments.
    public func backup(to destination: String) throws -> BackupReport {
        let target = try OutputFile.resolve(destination)
        let folder = AppDatabase.attachmentsDirectory(forDatabase: target)
        if FileSecurity.exists(target) { throw StoreError.file(path: destination, .exists) }
        if FileSecurity.exists(folder.path) { throw StoreError.file(path: folder.path, .exists) }
        let (hashes, forUndo) = try read { db in
            (try String.fetchAll(db, sql: "SELECT DISTINCT sha256 FROM attachment ORDER BY sha256"), try UndoLog.attachmentHashes(db))
        }
        var copied = (count: 0, missing: [String]())
        if let from = attachments, !hashes.isEmpty || !forUndo.isEmpty {
            // The files `undo` would bring back too (still beside the database, or in its quarantine).
            let extra = forUndo.subtracting(hashes).sorted().compactMap { sha -> (String, URL)? in
                let stored = from.url(for: sha)
                if FileManager.default.fileExists(atPath: stored.path) { return (sha, stored) }
                return database.path.flatMap { from.quarantined(sha, databasePath: $0) }.map { (sha, $0) }
            }
            copied = try AttachmentStore.copyFolder(hashes, from: from, to: folder, also: extra)
        }
        do {
            try database.backup(to: destination)
        } catch {
            if copied.count > 0 { try? FileManager.default.removeItem(at: folder) }
            throw error
        }
        return BackupReport(database: destination, attachmentsFolder: copied.count > 0 ? folder.path : nil, attachments: copied.count, missing: copied.missing)
    }

    /// Restores a backup made by `backup` (or any petlog database file) into a new database at `target`,
    /// with its attachments, the way `backup` writes (attachments verified and renamed into place first, the
    /// database last). The target must not exist; the backup is only read (opened read-only, even when its
    /// schema is older: the restored copy is upgraded on its first open).
    public static func restore(from backup: String, to target: String) throws -> BackupReport {
        let source = try AppDatabase.open(path: backup, options: OpenOptions(readOnly: true))
        try FileSecurity.makePrivateDirectory(URL(fileURLWithPath: FileSecurity.absolute(target)).deletingLastPathComponent())
        return try SQLiteRepository(source).backup(to: target)
    }
}

extension AttachmentStore {
    /// Every file under the folder (its path), skipping petlog's own temporary files.
    func allFiles() -> [String] {
        guard let enumerator = FileManager.default.enumerator(atPath: directory.path) else { return [] }
        var out: [String] = []
        for case let relative as String in enumerator {
            let url = directory.appendingPathComponent(relative)
            var isDir: ObjCBool = false
            FileManager.default.fileExists(atPath: url.path, isDirectory: &isDir)
            if !isDir.boolValue { out.append(url.path) }
        }
        return out.sorted()
    }

    /// Copies the files of `hashes` into a new folder `to`, built under a temporary name and renamed into
    /// place when whole. Each file is verified against its hash; a damaged one stops the copy.
    /// `also`: files kept for `undo`, copied from where they are (counted, never missing).
    static func copyFolder(_ hashes: [String], from: AttachmentStore, to folder: URL, also: [(String, URL)] = []) throws -> (count: Int, missing: [String]) {
        let partial = folder.deletingLastPathComponent().appendingPathComponent(".\(folder.lastPathComponent).partial-\(getpid())")
        try? FileManager.default.removeItem(at: partial)
        do {
            var result = try copyVerified(hashes, from: from, to: AttachmentStore(directory: partial), skipMissing: true)
            let into = AttachmentStore(directory: partial)
            for (sha, source) in also {
                guard let data = FileManager.default.contents(atPath: source.path), sha256Hex(data) == sha else { continue }
                let target = into.url(for: sha)
                try FileSecurity.makePrivateDirectory(target.deletingLastPathComponent())
                try OutputFile.write(data, to: target.path)
                result.count += 1
            }
            if result.count == 0 {
                try? FileManager.default.removeItem(at: partial)
                return result
            }
            FileSecurity.syncDirectory(of: partial.appendingPathComponent("x").path)
            if rename(partial.path, folder.path) != 0 { throw StoreError.file(path: folder.path, OutputError.Cause(errno: errno)) }
            FileSecurity.syncDirectory(of: folder.path)
            return result
        } catch {
            try? FileManager.default.removeItem(at: partial)
            // The folder the user gets, never the temporary one it is built in.
            if let e = error as? OutputError, e.path.hasPrefix(partial.path) { throw OutputError(path: folder.path, cause: e.cause) }
            if case StoreError.file(let path, let cause)? = error as? StoreError, path.hasPrefix(partial.path) {
                throw StoreError.file(path: folder.path, cause)
            }
            throw error
        }
    }

    /// Copies (hard-links where possible) each file after checking its SHA-256; a missing file is listed
    /// (or thrown, without `skipMissing`), a damaged one is thrown.
    static func copyVerified(_ hashes: [String], from: AttachmentStore, to: AttachmentStore, skipMissing: Bool) throws -> (count: Int, missing: [String]) {
        var count = 0
        var missing: [String] = []
        for sha in hashes {
            let source = from.url(for: sha)
            guard let data = FileManager.default.contents(atPath: source.path) else {
                if skipMissing { missing.append(source.path); continue }
                throw StoreError.attachmentUnreadable(path: source.path)
            }
            guard sha256Hex(data) == sha else { throw AttachmentHashMismatch(path: source.path, expected: sha, found: sha256Hex(data)) }
            let target = to.url(for: sha)
            try FileSecurity.makePrivateDirectory(target.deletingLastPathComponent())
            try OutputFile.write(data, to: target.path)
            count += 1
        }
        return (count, missing)
    }
}
