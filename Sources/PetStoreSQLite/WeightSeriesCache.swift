import Foundation
import GRDB
import GRDBSQLite
import PetModel
import PetStoreCore

/// The weight series packed for charts (schema v9, `weight_chunk`; see `Schema.v9`). A chart of a million
/// weights read them through the covering index of `record` plus a rowid lookup in `weight` per point, most
/// of its time; the chunks hold the same (instant, grams) points as 16-byte little-endian pairs, so reading a
/// series is copying a few hundred blobs. The chunks are always a prefix of the series the tables give (the
/// triggers drop every chunk from a changed point on); the points after the last chunk are read from the
/// tables, and a chart on a writable file packs whole chunks of them (`fill`). A chunk that does not decode
/// (a damaged cache) makes the read take the whole series from the tables; `check` compares every chunk
/// with the tables and `check --repair` drops the pets' chunks that differ.
enum WeightSeriesCache {
    /// Points per chunk: a 64 KiB blob. A new weight after the last chunk is read from the tables until
    /// this many wait, about a millisecond of index lookups.
    static let chunkPoints = 4096
    static let pointBytes = 16

    /// The series of `pet` in `lower ..< upper` (Unix seconds), oldest first, ties in record id order, into
    /// `columns`; the number of points read from the tables after the last chunk. Nil when there is no
    /// cache to read (an older schema opened read-only) or a chunk does not decode: `columns` is then
    /// left empty for the caller to read the tables.
    static func read(_ db: Database, pet: Int64, lower: Int64, upper: Int64, into columns: inout WeightColumns) throws -> Int? {
        guard try db.tableExists("weight_chunk") else { return nil }
        var throughAt = Int64.min, throughId = Int64.min
        var previousAt = Int64.min
        // The columns are made once at their size (growing them by doubling held up to twice a million-point
        // series' memory); the points after the last chunk are fewer than a chunk unless no chart packed them yet.
        let cached = try Int.fetchOne(db, sql: "SELECT sum(points) FROM weight_chunk WHERE pet_id = ? AND last_at >= ? AND first_at < ?",
                                      arguments: [pet, lower, upper]) ?? 0
        columns.reserveCapacity(cached + chunkPoints)
        let chunks = try db.makeStatement(sql: """
            SELECT first_at, last_at, last_id, points, CASE WHEN last_at >= ?2 AND first_at < ?3 THEN data END
            FROM weight_chunk WHERE pet_id = ?1 ORDER BY last_at, last_id
            """)
        try chunks.setArguments([pet, lower, upper])
        let raw = chunks.sqliteStatement
        defer { sqlite3_reset(raw) }
        while true {
            let code = sqlite3_step(raw)
            if code == SQLITE_DONE { break }
            guard code == SQLITE_ROW else { throw stepError(db, code) }
            let firstAt = sqlite3_column_int64(raw, 0), lastAt = sqlite3_column_int64(raw, 1)
            let points = Int(sqlite3_column_int64(raw, 3))
            guard points > 0, firstAt >= previousAt, lastAt >= firstAt else { columns = WeightColumns(); return nil }
            let type = sqlite3_column_type(raw, 4)
            if type != SQLITE_NULL {   // NULL: a chunk outside the window
                guard type == SQLITE_BLOB else { columns = WeightColumns(); return nil }
                let bytes = Int(sqlite3_column_bytes(raw, 4))
                guard bytes == points * pointBytes, let base = sqlite3_column_blob(raw, 4) else { columns = WeightColumns(); return nil }
                let whole = firstAt >= lower && lastAt < upper
                guard columns.appendChunk(UnsafeRawPointer(base), count: points, bigEndian: false, firstAt: firstAt, lastAt: lastAt,
                                          lower: whole ? nil : lower, upper: upper) else { columns = WeightColumns(); return nil }
            }
            previousAt = lastAt
            throughAt = lastAt
            throughId = sqlite3_column_int64(raw, 2)
        }
        return try tail(db, pet: pet, afterAt: throughAt, afterId: throughId, lower: lower, upper: upper) { at, _, grams in
            columns.append(at: at, grams: grams)
        }
    }

    /// Steps the pet's weights after (`afterAt`, `afterId`) in `lower ..< upper` from the tables, in the
    /// series' order; how many.
    static func tail(_ db: Database, pet: Int64, afterAt: Int64, afterId: Int64, lower: Int64 = .min, upper: Int64 = .max,
                     _ body: (Int64, Int64, Int64) -> Void) throws -> Int {
        let statement = try db.makeStatement(sql: """
            SELECT r.at, r.id, w.grams FROM record r JOIN weight w ON w.record_id = r.id
            WHERE r.pet_id = ? AND r.kind = 'weight' AND r.at >= ? AND r.at < ? AND (r.at > ? OR r.id > ?) ORDER BY r.at, r.id
            """)
        try statement.setArguments([pet, max(lower, afterAt), upper, afterAt, afterId])
        let raw = statement.sqliteStatement
        defer { sqlite3_reset(raw) }
        var n = 0
        while true {
            let code = sqlite3_step(raw)
            if code == SQLITE_DONE { return n }
            guard code == SQLITE_ROW else { throw stepError(db, code) }
            body(sqlite3_column_int64(raw, 0), sqlite3_column_int64(raw, 1), sqlite3_column_int64(raw, 2))
            n += 1
        }
    }

    /// Packs the pet's weights after its last chunk into whole chunks (the rest waits for more); the chunks added.
    @discardableResult
    static func fill(_ db: Database, pet: Int64, chunkPoints: Int = chunkPoints) throws -> Int {
        guard try db.tableExists("weight_chunk") else { return 0 }
        let last = try Row.fetchOne(db, sql: "SELECT last_at, last_id FROM weight_chunk WHERE pet_id = ? ORDER BY last_at DESC, last_id DESC LIMIT 1",
                                    arguments: [pet])
        var bytes = [UInt8](), firstAt = Int64(0), lastAt = Int64(0), lastId = Int64(0), points = 0, added = 0
        bytes.reserveCapacity(chunkPoints * pointBytes)
        let insert = try db.makeStatement(sql: "INSERT INTO weight_chunk (pet_id, first_at, last_at, last_id, points, data) VALUES (?, ?, ?, ?, ?, ?)")
        var failure: Error?
        _ = try tail(db, pet: pet, afterAt: last?["last_at"] ?? Int64.min, afterId: last?["last_id"] ?? Int64.min) { at, id, grams in
            guard failure == nil else { return }
            if points == 0 { firstAt = at }
            withUnsafeBytes(of: at.littleEndian) { bytes.append(contentsOf: $0) }
            withUnsafeBytes(of: grams.littleEndian) { bytes.append(contentsOf: $0) }
            lastAt = at; lastId = id; points += 1
            if points == chunkPoints {
                do {
                    try insert.execute(arguments: [pet, firstAt, lastAt, lastId, points, Data(bytes)])
                    added += 1
                } catch { failure = error }
                bytes.removeAll(keepingCapacity: true)
                points = 0
            }
        }
        if let failure { throw failure }
        return added
    }

    /// Pets whose chunks differ from the series the tables give (a chunk with other points, instants or
    /// keys than the tables' points at its place, or one that does not decode), with how many of their
    /// chunks are wrong (from the first wrong one on: the rest of a pet's chunks follow from it).
    static func outOfStep(_ db: Database) throws -> [Int64: Int] {
        guard try db.tableExists("weight_chunk") else { return [:] }
        var wrong: [Int64: Int] = [:]
        for pet in try Int64.fetchAll(db, sql: "SELECT DISTINCT pet_id FROM weight_chunk ORDER BY pet_id") {
            let chunks = try Row.fetchAll(db, sql: "SELECT first_at, last_at, last_id, points, data FROM weight_chunk WHERE pet_id = ? ORDER BY last_at, last_id",
                                          arguments: [pet])
            // The tables' series, as far as the chunks reach.
            let total = chunks.reduce(0) { $0 + max(0, ($1["points"] as Int64?).map(Int.init) ?? 0) }
            var want: [(at: Int64, id: Int64, grams: Int64)] = []
            want.reserveCapacity(total)
            let statement = try db.makeStatement(sql: """
                SELECT r.at, r.id, w.grams FROM record r JOIN weight w ON w.record_id = r.id
                WHERE r.pet_id = ? AND r.kind = 'weight' ORDER BY r.at, r.id LIMIT ?
                """)
            let rows = try Row.fetchCursor(statement, arguments: [pet, total])
            while let row = try rows.next() { want.append((row[0], row[1], row[2])) }
            var offset = 0
            for (i, chunk) in chunks.enumerated() {
                let points = Int((chunk["points"] as Int64?) ?? 0)
                let data = (chunk["data"] as Data?) ?? Data()
                var same = points > 0 && data.count == points * pointBytes && offset + points <= want.count
                if same {
                    data.withUnsafeBytes { buffer in
                        for j in 0..<points where same {
                            let at = Int64(littleEndian: buffer.loadUnaligned(fromByteOffset: j * pointBytes, as: Int64.self))
                            let grams = Int64(littleEndian: buffer.loadUnaligned(fromByteOffset: j * pointBytes + 8, as: Int64.self))
                            same = at == want[offset + j].at && grams == want[offset + j].grams
                        }
                    }
                    let lastPoint = want[offset + points - 1]
                    same = same && chunk["first_at"] == want[offset].at && chunk["last_at"] == lastPoint.at && chunk["last_id"] == lastPoint.id
                }
                if !same { wrong[pet] = chunks.count - i; break }
                offset += points
            }
        }
        return wrong
    }

    static func stepError(_ db: Database, _ code: Int32) -> DatabaseError {
        DatabaseError(resultCode: ResultCode(rawValue: code), message: String(cString: sqlite3_errmsg(db.sqliteConnection)))
    }
}
