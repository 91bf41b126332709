import Foundation
import GRDB
import PetFiles
import PetStoreCore

/// A database file that will not open normally (cut short, its header overwritten), opened only to read what
/// it still holds, for `check` and `check --repair`.
///
/// SQLite refuses every read of a file shorter than its header says unless the schema is writable; on a
/// read-only connection that setting writes nothing, and makes SQLite take the page count from the file's
/// size, so the pages that are there can be read. A header that is not SQLite's any more is rebuilt in a
/// private copy (the damaged file is never written), with the page size read off the first page's cells.
enum DamagedFile {
    static let magic = Array("SQLite format 3\0".utf8)
    static let headerSize = 100

    /// What the first 100 bytes and the size of the file say.
    struct Facts {
        var size: Int
        var header: [UInt8]
        var hasMagic: Bool { header.count >= 16 && Array(header[0..<16]) == DamagedFile.magic }
        /// The page size the header gives, when it is one SQLite allows.
        var declaredPageSize: Int? {
            guard header.count >= 18 else { return nil }
            let raw = Int(header[16]) << 8 | Int(header[17])
            let size = raw == 1 ? 65536 : raw
            return size >= 512 && size <= 65536 && size & (size - 1) == 0 ? size : nil
        }
        /// The page count the header gives, when it is valid (its "version valid for" matches the change counter).
        var declaredPageCount: Int? {
            guard header.count >= headerSize, header[24..<28] == header[92..<96] else { return nil }
            let n = header[28..<32].reduce(0) { $0 << 8 | Int($1) }
            return n > 0 ? n : nil
        }
    }

    static func facts(_ path: String) throws -> Facts {
        guard let handle = FileHandle(forReadingAtPath: path) else { throw StoreError.file(path: path, .permissionDenied) }
        defer { try? handle.close() }
        let header = [UInt8](try handle.read(upToCount: headerSize) ?? Data())
        let size = Int(try handle.seekToEnd())
        return Facts(size: size, header: header)
    }

    /// The damage seen in the file's header and size, in words (the first of `check`'s problems).
    static func damage(_ facts: Facts, headerRebuilt pageSize: Int?) -> [String] {
        var out: [String] = []
        if let pageSize {
            out.append("database header (the first 100 bytes) unreadable: read through a rebuilt header, page size \(pageSize)")
        } else if let pageSize = facts.declaredPageSize, let pages = facts.declaredPageCount, pages * pageSize > facts.size {
            out.append("file cut short: \(facts.size) bytes of the \(pages * pageSize) its header gives (\(facts.size / pageSize) of \(pages) pages)")
        } else if let pageSize = facts.declaredPageSize, facts.size % pageSize != 0 {
            out.append("file cut short: \(facts.size) bytes, not a whole number of \(pageSize)-byte pages")
        }
        return out
    }

    /// The page size of a file whose header is unreadable, from the first page's b-tree header (at offset 100):
    /// the size at which its cell pointers fit and the first cell written ends exactly at the page's end.
    static func guessPageSize(_ path: String, facts: Facts) -> Int? {
        guard let handle = FileHandle(forReadingAtPath: path) else { return nil }
        defer { try? handle.close() }
        let page = [UInt8]((try? handle.read(upToCount: 65536)) ?? Data())
        guard page.count > headerSize + 8, page[headerSize] == 0x0D || page[headerSize] == 0x05 else { return nil }
        let leaf = page[headerSize] == 0x0D
        let cells = Int(page[103]) << 8 | Int(page[104])
        let pointers = headerSize + (leaf ? 8 : 12)
        var candidates = [4096, 1024, 2048, 8192, 16384, 32768, 65536, 512]
        if let declared = facts.declaredPageSize { candidates.insert(declared, at: 0) }
        var plausible: Int?
        for size in candidates where size <= page.count || size <= facts.size {
            guard pointers + 2 * cells <= min(size, page.count) else { continue }
            let offsets = (0..<cells).map { Int(page[pointers + 2 * $0]) << 8 | Int(page[pointers + 2 * $0 + 1]) }
            guard offsets.allSatisfy({ $0 >= pointers + 2 * cells && $0 < size }) else { continue }
            if plausible == nil { plausible = size }
            // A table leaf cell: payload size and rowid varints, then the payload (all of it, when it fits).
            guard leaf else { continue }
            let ends = offsets.compactMap { start -> Int? in
                guard case let (payload, a)? = varint(page, start), case let (_, b)? = varint(page, start + a), payload <= UInt64(size - 35) else { return nil }
                return start + a + b + Int(payload)
            }
            if ends.contains(size) { return size }
        }
        return plausible
    }

    static func varint(_ bytes: [UInt8], _ at: Int) -> (UInt64, Int)? {
        var value: UInt64 = 0
        for i in 0..<9 {
            guard at + i < bytes.count else { return nil }
            let b = bytes[at + i]
            if i == 8 { return (value << 8 | UInt64(b), 9) }
            value = value << 7 | UInt64(b & 0x7F)
            if b & 0x80 == 0 { return (value, i + 1) }
        }
        return nil
    }

    /// A 100-byte header for a UTF-8, rollback-journal file of `pages` pages of `pageSize`.
    static func header(pageSize: Int, pages: Int) -> [UInt8] {
        var h = [UInt8](repeating: 0, count: headerSize)
        h.replaceSubrange(0..<16, with: magic)
        let stored = pageSize == 65536 ? 1 : pageSize
        h[16] = UInt8(stored >> 8); h[17] = UInt8(stored & 0xFF)
        h[18] = 1; h[19] = 1; h[21] = 64; h[22] = 32; h[23] = 32
        func put(_ value: Int, at offset: Int) { for i in 0..<4 { h[offset + i] = UInt8((value >> (8 * (3 - i))) & 0xFF) } }
        put(1, at: 24)          // change counter
        put(pages, at: 28)      // page count
        put(1, at: 40)          // schema cookie
        put(4, at: 44)          // schema format
        put(1, at: 56)          // UTF-8
        put(1, at: 92)          // valid for change counter 1
        put(3_040_001, at: 96)
        return h
    }

    /// A private copy of `path` (beside it, else in the temporary folder) with a rebuilt header, opened
    /// read-only and unlinked at once: the open connection keeps it, and nothing is left behind.
    static func openWithRebuiltHeader(_ path: String, pageSize: Int, facts: Facts, configuration: Configuration) throws -> DatabaseQueue {
        let name = ".\((path as NSString).lastPathComponent).mending-\(getpid())"
        let folders = [(FileSecurity.absolute(path) as NSString).deletingLastPathComponent, NSTemporaryDirectory()]
        var lastError: Error = StoreError.io("cannot copy \(path)")
        for folder in folders {
            let copy = (folder as NSString).appendingPathComponent(name)
            unlink(copy)
            // Registered and made in one section: a signal's clean-up finds it registered or not there.
            let made = TemporaryFiles.whole {
                TemporaryFiles.register(copy)
                return FileManager.default.createFile(atPath: copy, contents: nil, attributes: [.posixPermissions: 0o600])
            }
            defer {
                unlink(copy)
                TemporaryFiles.unregister(copy)
            }
            do {
                guard made else {
                    throw StoreError.file(path: copy, .permissionDenied)
                }
                let input = try FileHandle(forReadingFrom: URL(fileURLWithPath: path))
                let output = try FileHandle(forWritingTo: URL(fileURLWithPath: copy))
                defer { try? input.close(); try? output.close() }
                while let chunk = try input.read(upToCount: 1 << 20), !chunk.isEmpty { try output.write(contentsOf: chunk) }
                try output.seek(toOffset: 0)
                try output.write(contentsOf: Data(header(pageSize: pageSize, pages: max(1, facts.size / pageSize))))
                try output.synchronize()
                return try DatabaseQueue(path: "file:" + AppDatabase.uriEscaped(copy) + "?immutable=1", configuration: configuration)
            } catch {
                lastError = error
            }
        }
        throw lastError
    }
}

/// What `AppDatabase.openDamaged` found: the damage seen before any page was read, and whether the schema
/// could be read at all (when not, nothing can be).
struct DamageAtOpen: Sendable {
    var notes: [String]
    var schemaReadable: Bool
}

extension AppDatabase {
    /// Opens a file that `open` refused as damaged (`refused`), only to read it, for `check`: read-only, the
    /// page count taken from the file's size, a header that is not SQLite's rebuilt in a private copy. A file
    /// that turns out not to be a petlog database (its schema readable, petlog's tables not in it; or no
    /// SQLite header and none that can be rebuilt) is refused with `refused`.
    public static func openDamaged(path: String, refused: StoreError) throws -> AppDatabase {
        let facts = try DamagedFile.facts(path)
        let busy = BusyBudget(limit: 30, onWaiting: nil)
        var config = configuration(busy: busy)
        config.readonly = true
        config.prepareDatabase { db in try db.execute(sql: "PRAGMA writable_schema = ON") }
        func opened(_ queue: DatabaseQueue, _ notes: [String], schemaReadable: Bool = true) -> AppDatabase {
            AppDatabase(dbQueue: queue, attachmentsDirectory: attachmentsDirectory(forDatabase: path), path: path, busy: busy,
                        damageAtOpen: DamageAtOpen(notes: notes, schemaReadable: schemaReadable))
        }
        func schemaTables(_ queue: DatabaseQueue?) -> [String]? {
            queue.flatMap { q in try? q.read { db in try String.fetchAll(db, sql: "SELECT name FROM sqlite_master WHERE type = 'table'") } }
        }
        var queue: DatabaseQueue?
        var rebuilt: Int?
        if facts.hasMagic, facts.declaredPageSize != nil {
            // Without a -wal to read, immutable: no -wal or -shm is made beside a file that is only being read.
            var info = stat()
            let wal = stat(path + "-wal", &info) == 0 && info.st_size > 0
            queue = wal ? try? openQueue(path: path, readOnly: true, busy: busy, configuration: config)
                : try? DatabaseQueue(path: "file:" + uriEscaped(path) + "?immutable=1", configuration: config)
        }
        // Not SQLite's header, or one SQLite will not read (other fields overwritten): read through a rebuilt one.
        if schemaTables(queue) == nil, let pageSize = DamagedFile.guessPageSize(path, facts: facts),
           let mended = try? DamagedFile.openWithRebuiltHeader(path, pageSize: pageSize, facts: facts, configuration: config),
           schemaTables(mended) != nil {
            queue = mended
            rebuilt = pageSize
        }
        let tables = schemaTables(queue)
        if let tables, !tables.isEmpty, !tables.contains("grdb_migrations") { throw refused }
        var notes = DamagedFile.damage(facts, headerRebuilt: rebuilt)
        guard let queue, let tables, !tables.isEmpty else {
            // Without SQLite's header, a file whose first page says nothing may be anything at all (a photo).
            guard facts.hasMagic else { throw refused }
            notes.append("database schema (the first page) unreadable")
            return opened(try DatabaseQueue(), notes, schemaReadable: false)
        }
        return opened(queue, notes)
    }
}
