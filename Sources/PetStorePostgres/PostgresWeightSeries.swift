import Foundation
import PetModel
import PetStoreCore

/// The weight series packed for charts on PostgreSQL (schema pg6, `weight_chunk`; SQLite's v9 twin is
/// `WeightSeriesCache`). The chunks hold a prefix of each pet's series, 4,096 (instant, grams) points each as
/// big-endian int8 pairs (`int8send`); a chart copies the chunks in its window and reads from the tables only
/// the points after the last chunk; a chart whose role may write packs whole chunks of those once 4,096 wait
/// (`fill`, a short write of its own, not recorded for `undo`). A chunk that does not decode makes the read
/// take the whole series from the tables; `check` compares every chunk with the tables (`outOfStep`) and
/// `check --repair` drops the pets' chunks that differ.
enum PostgresWeightSeries {
    /// Points per chunk (64 KiB of data), as in the SQLite file.
    static let chunkPoints = 4096
    static let pointBytes = 16

    /// What a chart read: the series in the window, how many of its points came from the tables after the
    /// last chunk, and whether this role may pack them.
    struct Read {
        var columns: WeightColumns
        var waiting: Int
        var mayPack: Bool
    }

    /// Settings for a read that may sort a million points (see `PostgresRepository.weightSeries`), and
    /// whether the role may read and write the chunks: one round trip.
    static func prepare(_ link: PostgresLink) throws -> (mayRead: Bool, mayWrite: Bool) {
        let row = try link.query("""
            SELECT set_config('work_mem', '128MB', true), set_config('jit', 'off', true), set_config('enable_hashjoin', 'off', true),
                   to_regclass('petlog.weight_chunk') IS NOT NULL AND has_table_privilege('petlog.weight_chunk', 'SELECT'),
                   to_regclass('petlog.weight_chunk') IS NOT NULL AND has_table_privilege('petlog.weight_chunk', 'INSERT')
            """).first
        return (row?[3].int == 1, row?[4].int == 1)
    }

    /// Chunks fetched per statement by `read`: 16 of 64 KiB, so a million points never sit in memory twice
    /// more (postgres-nio's buffer and the bytes handed over) beside the columns they fill (issue 44: the 1M
    /// chart's peak RSS, 76.7 MiB when the 244 chunks came as one result).
    static let pageChunks = 16

    /// The series of `pet` in `lower ..< upper` (Unix seconds), oldest first, ties in record id order, from
    /// the chunks and the tables after them, in the read transaction the caller holds. Nil when the role may
    /// not read the chunks or a chunk does not decode: the caller then reads the tables. The chunks come
    /// `pageChunks` at a time, each page after the last one's key (the snapshot is the transaction's).
    static func read(_ link: PostgresLink, pet: Int64, lower: Int64, upper: Int64, pageChunks: Int = pageChunks) throws -> Read? {
        let (mayRead, mayWrite) = try prepare(link)
        guard mayRead else { return nil }
        let cached = try link.query("""
            SELECT coalesce(sum(points) FILTER (WHERE last_at >= $2 AND first_at < $3), 0)::bigint FROM weight_chunk WHERE pet_id = $1
            """, [.int(pet), .int(lower), .int(upper)]).first?.first?.int ?? 0
        var columns = WeightColumns()
        columns.reserveCapacity(Int(cached) + chunkPoints)
        var throughAt = Int64.min, throughId = Int64.min, previousAt = Int64.min
        var first = true
        while true {
            let chunks = try link.query("""
                SELECT first_at, last_at, last_id, points, CASE WHEN last_at >= $2 AND first_at < $3 THEN data END
                FROM weight_chunk WHERE pet_id = $1 AND ($6 = 1 OR (last_at, last_id) > ($4, $5)) ORDER BY last_at, last_id LIMIT $7
                """, [.int(pet), .int(lower), .int(upper), .int(throughAt), .int(throughId), .int(first ? 1 : 0), .int(Int64(pageChunks))])
            first = false
            for chunk in chunks {
                guard let firstAt = chunk[0].int, let lastAt = chunk[1].int, let lastId = chunk[2].int, let count = chunk[3].int,
                      count > 0, firstAt >= previousAt, lastAt >= firstAt else { return nil }
                if case .bytes(let data) = chunk[4] {   // NULL: a chunk outside the window
                    guard data.count == Int(count) * pointBytes else { return nil }
                    let whole = firstAt >= lower && lastAt < upper
                    let decoded = data.withUnsafeBytes { raw in
                        raw.baseAddress.map { columns.appendChunk($0, count: Int(count), bigEndian: true, firstAt: firstAt, lastAt: lastAt, lower: whole ? nil : lower, upper: upper) } ?? false
                    }
                    guard decoded else { return nil }
                } else if !chunk[4].isNull {
                    return nil
                }
                previousAt = lastAt
                throughAt = lastAt
                throughId = lastId
            }
            if chunks.count < pageChunks { break }
        }
        let waiting = try tail(link, pet: pet, afterAt: throughAt, afterId: throughId, lower: lower, upper: upper, into: &columns)
        return Read(columns: columns, waiting: waiting, mayPack: mayWrite)
    }

    /// The pet's weights after (`afterAt`, `afterId`) in `lower ..< upper`, in the series' order, packed by the
    /// server into one value and appended to `columns`; how many.
    static func tail(_ link: PostgresLink, pet: Int64, afterAt: Int64, afterId: Int64, lower: Int64, upper: Int64,
                     into columns: inout WeightColumns) throws -> Int {
        let row = try link.query("""
            SELECT string_agg(int8send(r.at) || int8send(w.grams), ''::bytea ORDER BY r.at, r.id)
            FROM record r JOIN weight w ON w.record_id = r.id
            WHERE r.pet_id = $1 AND r.kind = 'weight' AND r.at >= $2 AND r.at < $3 AND (r.at > $4 OR r.id > $5)
            """, [.int(pet), .int(max(lower, afterAt)), .int(upper), .int(afterAt), .int(afterId)]).first
        guard case .bytes(let packed)? = row?.first else { return 0 }
        return PostgresRepository.appendPoints(packed: packed, to: &columns)
    }

    /// Packs the pet's weights after its last chunk into whole chunks (the rest waits for more), on the server,
    /// in the write transaction the caller holds; the chunks added. The table lock comes first, before the
    /// transaction's snapshot: a writer outside petlog that changed a weight and has not committed yet holds
    /// the triggers' ROW EXCLUSIVE lock, so this waits for it and then sees its change; one that changes a
    /// weight after this took the lock waits in its trigger until these chunks are committed and then drops them.
    @discardableResult
    static func fill(_ link: PostgresLink, pet: Int64, chunkPoints: Int = chunkPoints) throws -> Int {
        try link.query("LOCK TABLE weight_chunk IN SHARE ROW EXCLUSIVE MODE")
        try link.query("SELECT set_config('work_mem', '128MB', true), set_config('jit', 'off', true), set_config('enable_hashjoin', 'off', true)")
        let last = try link.query("SELECT last_at, last_id FROM weight_chunk WHERE pet_id = $1 ORDER BY last_at DESC, last_id DESC LIMIT 1",
                                  [.int(pet)]).first
        let afterAt = last?[0].int ?? Int64.min, afterId = last?[1].int ?? Int64.min
        let added = try link.query("""
            WITH t AS (
              SELECT r.at, r.id, w.grams, row_number() OVER (ORDER BY r.at, r.id) - 1 AS n
              FROM record r JOIN weight w ON w.record_id = r.id
              WHERE r.pet_id = $1 AND r.kind = 'weight' AND r.at >= $2 AND (r.at > $2 OR r.id > $3)
            ), c AS (
              INSERT INTO weight_chunk (pet_id, last_at, last_id, first_at, points, data)
              SELECT $1, (array_agg(at ORDER BY n DESC))[1], (array_agg(id ORDER BY n DESC))[1], min(at), count(*),
                     string_agg(int8send(at) || int8send(grams), ''::bytea ORDER BY n)
              FROM t GROUP BY n / $4 HAVING count(*) = $4
              RETURNING 1
            )
            SELECT count(*) FROM c
            """, [.int(pet), .int(afterAt), .int(afterId), .int(Int64(chunkPoints))]).first?.first?.int ?? 0
        return Int(added)
    }

    /// Pets whose chunks differ from the series the tables give (a chunk with other points, instants or keys
    /// than the tables' points at its place, or one that does not decode), with how many of their chunks are
    /// wrong (from the first wrong one on: the rest of a pet's chunks follow from it). Run in a transaction.
    static func outOfStep(_ link: PostgresLink) throws -> [Int64: Int] {
        guard try link.query("SELECT to_regclass('petlog.weight_chunk') IS NOT NULL").first?.first?.int == 1 else { return [:] }
        try link.query("SELECT set_config('work_mem', '128MB', true), set_config('jit', 'off', true)")
        var wrong: [Int64: Int] = [:]
        for pet in try link.query("SELECT DISTINCT pet_id FROM weight_chunk ORDER BY pet_id").compactMap({ $0.first?.int }) {
            let chunks = try link.query("SELECT first_at, last_at, last_id, points, data FROM weight_chunk WHERE pet_id = $1 ORDER BY last_at, last_id",
                                        [.int(pet)])
            let total = chunks.reduce(0) { $0 + max(0, Int($1[3].int ?? 0)) }
            // The tables' series as far as the chunks reach: (instant, record id, grams), big-endian.
            let row = try link.query("""
                SELECT string_agg(int8send(at) || int8send(id) || int8send(grams), ''::bytea ORDER BY at, id) FROM (
                  SELECT r.at, r.id, w.grams FROM record r JOIN weight w ON w.record_id = r.id
                  WHERE r.pet_id = $1 AND r.kind = 'weight' ORDER BY r.at, r.id LIMIT $2
                ) AS t
                """, [.int(pet), .int(Int64(total))]).first
            var want: [UInt8] = []
            if case .bytes(let b)? = row?.first { want = b }
            let wantCount = want.count / 24
            func point(_ k: Int) -> (at: Int64, id: Int64, grams: Int64) {
                want.withUnsafeBytes { raw in
                    (Int64(bigEndian: raw.loadUnaligned(fromByteOffset: k * 24, as: Int64.self)),
                     Int64(bigEndian: raw.loadUnaligned(fromByteOffset: k * 24 + 8, as: Int64.self)),
                     Int64(bigEndian: raw.loadUnaligned(fromByteOffset: k * 24 + 16, as: Int64.self)))
                }
            }
            var offset = 0
            for (i, chunk) in chunks.enumerated() {
                let points = Int(chunk[3].int ?? 0)
                var same = false
                if case .bytes(let data) = chunk[4], points > 0, data.count == points * pointBytes, offset + points <= wantCount {
                    same = data.withUnsafeBytes { raw in
                        for j in 0..<points {
                            let at = Int64(bigEndian: raw.loadUnaligned(fromByteOffset: j * pointBytes, as: Int64.self))
                            let grams = Int64(bigEndian: raw.loadUnaligned(fromByteOffset: j * pointBytes + 8, as: Int64.self))
                            let p = point(offset + j)
                            if at != p.at || grams != p.grams { return false }
                        }
                        return true
                    }
                    let first = point(offset), lastPoint = point(offset + points - 1)
                    same = same && chunk[0].int == first.at && chunk[1].int == lastPoint.at && chunk[2].int == lastPoint.id
                }
                if !same { wrong[pet] = chunks.count - i; break }
                offset += points
            }
        }
        return wrong
    }

    /// Drops the chunks of the given pets (`check --repair`, a bulk load with the triggers off).
    static func drop(_ link: PostgresLink, pets: some Sequence<Int64>) throws {
        let ids = Array(pets)
        guard !ids.isEmpty else { return }
        try link.query("DELETE FROM weight_chunk WHERE pet_id = ANY ($1::bigint[])",
                       [.text("{" + ids.map(String.init).joined(separator: ",") + "}")])
    }
}
