import Crypto
import Foundation
import PetModel
import PetStoreCore

/// `search` on PostgreSQL: the same rows as SQLite's index (`SearchIndex`), folded by petlog
/// (`TextField.nameKey`), in `search_text`; triggers note changed keys in `search_stale`, and every
/// petlog write folds those rows again before it commits (`refresh`). A substring is found with
/// `strpos` over the folded text, so the results are the SQLite store's, byte for byte.
enum PostgresSearch {
    /// Folds the noted rows again (the end of every petlog write transaction).
    static func refresh(_ link: PostgresLink) throws {
        let keys = try link.rows("DELETE FROM search_stale RETURNING key", [SQLValue]()).compactMap { $0[0].int }
        guard !keys.isEmpty else { return }
        for chunk in stride(from: 0, to: keys.count, by: 500).map({ Array(keys[$0..<min($0 + 500, keys.count)]) }) {
            let marks = Array(repeating: "?", count: chunk.count).joined(separator: ", ")
            try link.execute("DELETE FROM search_text WHERE key IN (\(marks))", chunk)
            try insert(try sources(keys: chunk, link: link), link: link)
        }
    }

    /// Fills `search_text` from scratch (after a bulk import, `check --repair`).
    static func rebuild(_ link: PostgresLink) throws {
        try link.execute("DELETE FROM search_text", [SQLValue]())
        try link.execute("DELETE FROM search_stale", [SQLValue]())
        // Read whole first, each row folded as it arrives (while the server makes the next ones); stored
        // after: the connection serves one statement at a time, so nothing can go out while rows come in.
        var rows = CopyRows()
        try link.forEachRow(SearchIndex.text(records: SearchIndex.everyRecord, pets: "true", dialect: .postgres, wholeTables: true), [SQLValue](), columns: nil) { v in
            if let key = v[0].int, let source = v[1].text { rows.append(row(key, source)) }
        }
        if rows.count > 0 { try link.copy(into: "search_text", columns: ["key", "body", "source"], data: rows.take()) }
    }

    /// The stored text of the records and pets `keys` names (records > 0, pets < 0).
    static func sources(keys: [Int64], link: PostgresLink) throws -> [(Int64, String)] {
        let records = keys.filter { $0 > 0 }, pets = keys.filter { $0 < 0 }.map { -$0 }
        func list(_ ids: [Int64]) -> String { ids.isEmpty ? "NULL" : ids.map(String.init).joined(separator: ", ") }
        return try link.rows(SearchIndex.text(records: "r.id IN (\(list(records)))", pets: "p.id IN (\(list(pets)))", dialect: .postgres),
                             [SQLValue]()).compactMap { row in row[0].int.flatMap { k in row[1].text.map { (k, $0) } } }
    }

    /// A `search_text` row: the key, the text folded, the text as stored.
    static func row(_ key: Int64, _ source: String) -> [SQLValue] { [.int(key), .text(TextField.nameKey(source)), .text(source)] }

    /// Folds and stores `rows` (one `COPY`; the server stores them while the next are folded).
    static func insert(_ rows: [(Int64, String)], link: PostgresLink) throws {
        guard !rows.isEmpty else { return }
        var copy = CopyRows()
        for (key, source) in rows { copy.append(row(key, source)) }
        try link.copy(into: "search_text", columns: ["key", "body", "source"], data: copy.take())
    }

    /// Keys (records > 0 or pets < 0, by `sign`) whose folded text contains the folded query; rows changed
    /// by another program since petlog's last write are read from the tables and folded here.
    static func keys(containing folded: String, sign: Int, link: PostgresLink) throws -> [Int64] {
        let side = sign > 0 ? "> 0" : "< 0"
        var keys = try link.rows("""
            SELECT key FROM search_text WHERE key \(side) AND strpos(body, ?) > 0 AND key NOT IN (SELECT key FROM search_stale)
            """, [folded]).compactMap { $0[0].int }
        let stale = try link.rows("SELECT key FROM search_stale WHERE key \(side)", [SQLValue]()).compactMap { $0[0].int }
        if !stale.isEmpty {
            keys += try sources(keys: stale, link: link).filter { TextField.nameKey($0.1).contains(folded) }.map(\.0)
        }
        return keys
    }

    static func records(_ text: String, limit: Int, link: PostgresLink) throws -> [Int64] {
        let folded = TextField.nameKey(text)
        var ids = try keys(containing: folded, sign: 1, link: link)
        // A listed symptom or vaccine is found by any of its names (`구토` finds `vomiting`); an expense's
        // category only as written (`껌` does not find every `간식`: that is `search --category`).
        for (table, column, codes) in [("symptom", "code", CareNames.shipped.symptomCodes(containing: text)),
                                       ("vaccination", "vaccine", CareNames.shipped.vaccineCodes(containing: text))] where !codes.isEmpty {
            let marks = Array(repeating: "?", count: codes.count).joined(separator: ", ")
            ids += try link.rows("SELECT record_id FROM \(table) WHERE \(column) IN (\(marks))", codes).compactMap { $0[0].int }
        }
        for (query, codes) in SearchIndex.listedCodes(text, placeholder: { _, _ in "?" }) {
            ids += try link.rows(query, codes).compactMap { $0[0].int }
        }
        guard !ids.isEmpty else { return [] }
        var found: [Int64] = []
        let unique = Array(Set(ids))
        var ordered: [(at: Int64, id: Int64)] = []
        for chunk in stride(from: 0, to: unique.count, by: 1000).map({ Array(unique[$0..<min($0 + 1000, unique.count)]) }) {
            let marks = Array(repeating: "?", count: chunk.count).joined(separator: ", ")
            ordered += try link.rows("SELECT at, id FROM record WHERE id IN (\(marks))", chunk).compactMap { r in
                r[0].int.flatMap { at in r[1].int.map { (at, $0) } }
            }
        }
        ordered.sort { $0.at != $1.at ? $0.at > $1.at : $0.id > $1.id }
        found = ordered.prefix(limit).map(\.id)
        return found
    }

    static func pets(_ text: String, store: Store, link: PostgresLink) throws -> [Pet] {
        let ids = try keys(containing: TextField.nameKey(text), sign: -1, link: link).map { -$0 }
        guard !ids.isEmpty else { return [] }
        let marks = Array(repeating: "?", count: ids.count).joined(separator: ", ")
        return try store.pets(where: "WHERE id IN (\(marks)) ORDER BY archived_on IS NOT NULL, name_key, id", ids)
    }
}

/// `undo` on PostgreSQL: the changed rows of each command as JSON (`undo_note`, schema pg1), put back
/// by `undo_apply`. Each role undoes its own commands: staff on two machines never undo each other's.
enum PostgresUndo {
    static let kept = 100

    static func open(_ link: PostgresLink, command: String, at: Int64) throws -> Int64 {
        let id = try link.insertReturningId("INSERT INTO undo_group (command, at) VALUES (?, ?)", [command, at])
        try link.execute("SELECT set_config('petlog.undo_group', ?, true)", [String(id)])
        return id
    }

    static func close(_ link: PostgresLink, group: Int64) throws {
        try link.execute("SELECT set_config('petlog.undo_group', '', true)", [SQLValue]())
        if try link.int("SELECT count(*) FROM undo_step WHERE group_id = ?", [group]) == 0 {
            try link.execute("DELETE FROM undo_group WHERE id = ?", [group])
        }
        try link.execute("""
            DELETE FROM undo_group WHERE written_by = current_user AND id NOT IN (
              SELECT id FROM undo_group WHERE written_by = current_user ORDER BY id DESC LIMIT \(kept))
            """, [SQLValue]())
    }

    /// Forgets every recorded command (after a bulk load, which is not recorded).
    static func clear(_ link: PostgresLink) throws {
        try link.execute("DELETE FROM undo_group", [SQLValue]())
    }
}

/// Attached files on PostgreSQL: content-addressed rows of 1 MiB chunks (`attachment_chunk`), written
/// and read a chunk at a time, never a whole file in memory.
enum PostgresAttachments {
    static let chunkSize = 1 << 20

    /// Reads `path` a chunk at a time: its SHA-256 first, then (when the database has no file with that
    /// content yet) its chunks. The attachment row's values.
    static func store(path: String, link: PostgresLink) throws -> Attachment {
        // Only a regular file is read (a link is followed to it): opening a FIFO would wait for a writer for
        // ever (the SQLite store refuses it the same way).
        var info = stat()
        guard stat(path, &info) == 0, info.st_mode & S_IFMT == S_IFREG,
              let handle = FileHandle(forReadingAtPath: path) else { throw StoreError.attachmentUnreadable(path: path) }
        defer { try? handle.close() }
        var hasher = SHA256()
        var size: Int64 = 0
        var head: [UInt8] = []
        func chunk() throws -> Data? {
            do {
                // nil or empty: the end of the file.
                guard let data = try handle.read(upToCount: chunkSize), !data.isEmpty else { return nil }
                return data
            } catch {
                throw StoreError.attachmentUnreadable(path: path)
            }
        }
        while let data = try chunk() {
            if head.count < 16 { head += data.prefix(16 - head.count) }
            hasher.update(data: data)
            size += Int64(data.count)
        }
        let sha = hasher.finalize().map { String(format: "%02x", $0) }.joined()
        if try link.int("SELECT count(*) FROM attachment_chunk WHERE sha256 = ?", [sha]) == 0 {
            try handle.seek(toOffset: 0)
            var seq = 0
            var check = SHA256()
            while let data = try chunk() {
                check.update(data: data)
                try link.execute("INSERT INTO attachment_chunk (sha256, seq, data) VALUES (?, ?, ?)", [.text(sha), .int(Int64(seq)), .bytes([UInt8](data))])
                seq += 1
            }
            // The file changed between the two reads: nothing of it is kept (the transaction rolls back).
            guard check.finalize().map({ String(format: "%02x", $0) }).joined() == sha else { throw StoreError.attachmentUnreadable(path: path) }
            if seq == 0 { try link.execute("INSERT INTO attachment_chunk (sha256, seq, data) VALUES (?, 0, ?)", [.text(sha), .bytes([])]) }
        }
        let name = URL(fileURLWithPath: path).lastPathComponent
        return Attachment(sha256: sha, originalName: name, mediaType: attachmentMediaType(head: head, name: name), size: size, position: 0)
    }

    /// Moves the chunks of files no attachment row names into `attachment_quarantine`; how many files moved.
    @discardableResult
    static func quarantineOrphans(link: PostgresLink) throws -> Int {
        let orphans = "SELECT sha256 FROM attachment_chunk WHERE sha256 NOT IN (SELECT sha256 FROM attachment)"
        let count = try link.int("SELECT count(DISTINCT sha256) FROM (\(orphans)) AS o", [SQLValue]()) ?? 0
        guard count > 0 else { return 0 }
        try link.execute("""
            INSERT INTO attachment_quarantine (sha256, seq, data) SELECT sha256, seq, data FROM attachment_chunk
            WHERE sha256 IN (\(orphans)) ON CONFLICT DO NOTHING
            """, [SQLValue]())
        try link.execute("DELETE FROM attachment_chunk WHERE sha256 NOT IN (SELECT sha256 FROM attachment)", [SQLValue]())
        return Int(count)
    }

    /// Moves the chunks of the files `hashes` into `attachment_quarantine` (those no attachment row names:
    /// a file another record shares stays).
    static func quarantine(_ hashes: [String], link: PostgresLink) throws {
        for sha in hashes where try link.int("SELECT count(*) FROM attachment WHERE sha256 = ?", [sha]) ?? 0 == 0 {
            try link.execute("""
                INSERT INTO attachment_quarantine (sha256, seq, data) SELECT sha256, seq, data FROM attachment_chunk
                WHERE sha256 = ? ON CONFLICT DO NOTHING
                """, [sha])
            try link.execute("DELETE FROM attachment_chunk WHERE sha256 = ?", [sha])
        }
    }

    /// Moves back from `attachment_quarantine` the chunks of files an attachment row refers to again (after
    /// `undo` of a delete whose file `check --repair` had moved aside); how many files came back.
    @discardableResult
    static func unquarantineReferenced(link: PostgresLink) throws -> Int {
        let wanted = """
            SELECT DISTINCT q.sha256 FROM attachment_quarantine q JOIN attachment a ON a.sha256 = q.sha256
            WHERE NOT EXISTS (SELECT 1 FROM attachment_chunk c WHERE c.sha256 = q.sha256)
            """
        let count = try link.int("SELECT count(*) FROM (\(wanted)) AS w", [SQLValue]()) ?? 0
        guard count > 0 else { return 0 }
        try link.execute("""
            INSERT INTO attachment_chunk (sha256, seq, data) SELECT sha256, seq, data FROM attachment_quarantine
            WHERE sha256 IN (\(wanted)) ON CONFLICT DO NOTHING
            """, [SQLValue]())
        try link.execute("DELETE FROM attachment_quarantine WHERE sha256 IN (SELECT sha256 FROM attachment_chunk)", [SQLValue]())
        return Int(count)
    }

    /// Each chunk of the file `sha`, in order.
    static func forEachChunk(_ sha: String, link: PostgresLink, _ body: ([UInt8]) throws -> Void) throws {
        let count = try link.int("SELECT count(*) FROM attachment_chunk WHERE sha256 = ?", [sha]) ?? 0
        for seq in 0..<count {
            guard case .bytes(let b)? = try link.row("SELECT data FROM attachment_chunk WHERE sha256 = ? AND seq = ?", [sha, seq])?[0] else {
                throw StoreError.attachmentUnreadable(path: "attachment \(sha)")
            }
            try body(b)
        }
    }

    /// The SHA-256 of the stored chunks of `sha` (nil: none stored).
    static func storedHash(_ sha: String, link: PostgresLink) throws -> String? {
        var hasher = SHA256()
        var any = false
        try forEachChunk(sha, link: link) { hasher.update(data: $0); any = true }
        return any ? hasher.finalize().map { String(format: "%02x", $0) }.joined() : nil
    }
}
