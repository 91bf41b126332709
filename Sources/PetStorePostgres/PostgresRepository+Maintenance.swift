import Foundation
import PetFiles
import PetModel
import PetStoreCore

// MARK: Checks, backup and undo on PostgreSQL

extension PostgresRepository {
    /// Record headers without their detail, values petlog never writes, attachments whose chunks are missing
    /// or hash to another SHA-256, chunks no attachment refers to, and search text out of step. The server
    /// keeps its own pages whole (PostgreSQL has no `integrity_check`; `pg_amcheck` is the tool for that).
    public func check() throws -> [StoreProblem] {
        try read { _ in
            var problems: [StoreProblem] = []
            for r in try Store.recordsWithoutDetail(in: link) { problems.append(.orphanRecord(r)) }
            for v in try Store.invalidValues(in: link) { problems.append(StoreProblem(kind: .invalidValue, detail: v.description)) }
            for sha in try link.rows("SELECT DISTINCT sha256 FROM attachment ORDER BY sha256", [SQLValue]()).compactMap({ $0[0].text }) {
                switch try PostgresAttachments.storedHash(sha, link: link) {
                case nil:
                    let aside = try link.int("SELECT count(*) FROM attachment_quarantine WHERE sha256 = ?", [sha]) ?? 0
                    problems.append(StoreProblem(kind: aside > 0 ? .quarantinedFile : .missingFile, .attachment(sha256: sha)))
                case let found? where found != sha: problems.append(StoreProblem(kind: .badHash, .attachment(sha256: sha)))
                default: break
                }
            }
            for sha in try link.rows("""
                SELECT DISTINCT c.sha256 FROM attachment_chunk c WHERE NOT EXISTS (SELECT 1 FROM attachment a WHERE a.sha256 = c.sha256) ORDER BY c.sha256
                """, [SQLValue]()).compactMap({ $0[0].text }) {
                problems.append(StoreProblem(kind: .orphanFile, .attachment(sha256: sha)))
            }
            let wrong = try link.int("""
                WITH want AS (\(SearchIndex.text(records: SearchIndex.everyRecord, pets: "true", dialect: .postgres, wholeTables: true))),
                     have AS (SELECT key, source FROM search_text)
                SELECT count(*) FROM (
                  (SELECT key, source FROM want EXCEPT SELECT key, source FROM have)
                  UNION ALL
                  (SELECT key, source FROM have EXCEPT SELECT key, source FROM want)
                ) AS wrong WHERE NOT EXISTS (SELECT 1 FROM search_stale s WHERE s.key = wrong.key)
                """, [SQLValue]()) ?? 0
            if wrong > 0 { problems.append(StoreProblem(kind: .searchIndex, .rowsOutOfStep(table: "search_text", count: Int(wrong)))) }
            let chunks = try PostgresWeightSeries.outOfStep(link).values.reduce(0, +)
            if chunks > 0 { problems.append(StoreProblem(kind: .weightSeries, .rowsOutOfStep(table: "weight_chunk", count: chunks))) }
            return problems
        }
    }

    /// Record headers without detail go, the search text is built again, and the chunks of files no record
    /// refers to any more move to `attachment_quarantine` (petlog never deletes a user's file).
    public func repair(_ problems: [StoreProblem]) throws -> RepairReport {
        var report = RepairReport()
        let orphans = problems.filter { $0.kind == .orphanRecord }.compactMap { $0.record?.id }
        let rebuild = problems.contains { $0.kind == .searchIndex }
        let files = problems.filter { $0.kind == .orphanFile }.count
        let quarantined = problems.filter { $0.kind == .quarantinedFile }.count
        let series = problems.contains { $0.kind == .weightSeries }
        guard !orphans.isEmpty || rebuild || files > 0 || quarantined > 0 || series else { return report }
        try write(recording: false) { _ in
            if quarantined > 0 { report.fixed += try PostgresAttachments.unquarantineReferenced(link: link) }
            // The pets whose packed series differs from the tables lose their chunks; the next chart packs them again.
            if series { try PostgresWeightSeries.drop(link, pets: try PostgresWeightSeries.outOfStep(link).keys) }
            for id in orphans { try link.execute("DELETE FROM record WHERE id = ?", [id]) }
            if files > 0 { try PostgresAttachments.quarantineOrphans(link: link) }
            if rebuild { try PostgresSearch.rebuild(link) }
        }
        if files > 0 { report.quarantine = "\(target.redacted) petlog.attachment_quarantine" }
        report.fixed += orphans.count + (rebuild ? 1 : 0) + files + (series ? 1 : 0)
        return report
    }

    /// A database on a server is copied with the server's own tool, not by petlog.
    /// A role that may not read `petlog serve`'s accounts (a volunteer: no password hash is theirs) is given
    /// the line without them, so its dump still works.
    public func backup(to destination: String) throws -> BackupReport {
        let readsAccounts = (try? link.row("SELECT CASE WHEN has_table_privilege('petlog.web_account', 'SELECT') THEN 1 ELSE 0 END", [SQLValue]()))??[0].int != 0
        throw StoreError.notOnServer(command: "backup", instead: Self.dumpCommand(target, to: destination, withoutAccounts: !readsAccounts))
    }

    /// `pg_dump` of the `petlog` schema in the custom format (`pg_restore` reads it back), password left to
    /// PGPASSWORD or ~/.pgpass as for petlog; `withoutAccounts`: without the accounts and sessions of `serve`.
    public static func dumpCommand(_ target: PostgresTarget, to destination: String, withoutAccounts: Bool = false) -> String {
        var parts = ["pg_dump", "--format=custom", "--schema=petlog", "--file=\(ShellWord.quoted(destination))"]
        if withoutAccounts { parts += ["--exclude-table=petlog.web_account", "--exclude-table=petlog.web_session", "--exclude-table=petlog.web_login_failure"] }
        if let socket = target.socketDirectory { parts.append("--host=\(ShellWord.quoted(socket))") } else if let host = target.host { parts.append("--host=\(ShellWord.quoted(host))") }
        parts += ["--port=\(target.port)", "--username=\(ShellWord.quoted(target.user))", ShellWord.quoted(target.database)]
        return parts.joined(separator: " ")
    }

    /// `pg_restore` of a `dumpCommand` file into the target's database.
    public static func restoreCommand(_ target: PostgresTarget, from backup: String) -> String {
        var parts = ["pg_restore", "--clean", "--if-exists", "--schema=petlog"]
        if let socket = target.socketDirectory { parts.append("--host=\(ShellWord.quoted(socket))") } else if let host = target.host { parts.append("--host=\(ShellWord.quoted(host))") }
        parts += ["--port=\(target.port)", "--username=\(ShellWord.quoted(target.user))", "--dbname=\(ShellWord.quoted(target.database))", ShellWord.quoted(backup)]
        return parts.joined(separator: " ")
    }

    // MARK: Undo

    /// Reverts this role's most recent recorded command.
    public func undo(ifLast expected: Int64?) throws -> UndoResult? {
        try write(recording: false) { _ -> UndoResult? in
            guard let group = try link.row("SELECT id, command, at FROM undo_group WHERE written_by = current_user ORDER BY id DESC LIMIT 1",
                                           [SQLValue]()),
                  let id = group[0].int else { return nil }
            if let expected, expected != id { return nil }
            let changes = try link.int("SELECT undo_apply(?)", [id]) ?? 0
            // Files the rows brought back refer to again come back from the quarantine; files only the
            // undone rows referred to are moved aside, as `check --repair` does with orphans.
            try PostgresAttachments.unquarantineReferenced(link: link)
            let moved = try PostgresAttachments.quarantineOrphans(link: link)
            return UndoResult(command: group[1].text ?? "", at: Date(timeIntervalSince1970: Double(group[2].int ?? 0)), changes: Int(changes),
                              quarantine: moved > 0 ? "\(target.redacted) petlog.attachment_quarantine" : nil)
        }
    }

    public func undoHistory(limit: Int) throws -> [UndoEntry] {
        try read { _ in
            try link.rows("SELECT id, command, at FROM undo_group WHERE written_by = current_user ORDER BY id DESC LIMIT ?", [limit]).map {
                UndoEntry(id: $0[0].int ?? 0, command: $0[1].text ?? "", at: Date(timeIntervalSince1970: Double($0[2].int ?? 0)))
            }
        }
    }
}
