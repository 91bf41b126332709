import Crypto
import Foundation
import GRDB
import PetFiles
import PetModel
import PetStoreCore

/// Files kept beside the database under `attachments/`, named by their SHA-256 only, so no
/// user-given name ever becomes a path.
struct AttachmentStore: Sendable {
    let directory: URL

    /// The stored location of a hash: `attachments/ab/abcdef…`.
    func url(for sha256: String) -> URL {
        directory.appendingPathComponent(String(sha256.prefix(2))).appendingPathComponent(sha256)
    }

    /// Copies `sourcePath` in (once per content); returns the attachment and whether a new file was made.
    func store(sourcePath: String, position: Int) throws -> (Attachment, created: URL?) {
        // Only a regular file (a link is followed to it, as every program reading a file does), as the
        // PostgreSQL store reads: not a folder, a device or a FIFO, whose reading would wait for a writer for ever.
        var info = stat()
        guard stat(sourcePath, &info) == 0, info.st_mode & S_IFMT == S_IFREG,
              let data = FileManager.default.contents(atPath: sourcePath) else {
            throw StoreError.attachmentUnreadable(path: sourcePath)
        }
        let sha = Self.sha256Hex(data)
        let target = url(for: sha)
        var created: URL?
        if !FileManager.default.fileExists(atPath: target.path) {
            let shard = target.deletingLastPathComponent()
            let made = [directory, shard].filter { !FileManager.default.fileExists(atPath: $0.path) }
            try FileSecurity.makePrivateDirectory(directory)
            try FileSecurity.makePrivateDirectory(shard)
            // Whole or not at all, 0600; a failure is an OutputError naming the file and why (ENOSPC: exit 74),
            // and leaves no folder this call made (rmdir takes only an empty one).
            do { try OutputFile.write(data, to: target.path) } catch {
                for folder in made.reversed() { rmdir(folder.path) }
                throw error
            }
            created = target
        }
        let name = URL(fileURLWithPath: sourcePath).lastPathComponent
        let attachment = Attachment(sha256: sha, originalName: name, mediaType: Self.mediaType(of: data, name: name),
                                    size: Int64(data.count), position: position)
        return (attachment, created)
    }

    static func sha256Hex(_ data: Data) -> String {
        SHA256.hash(data: data).map { String(format: "%02x", $0) }.joined()
    }

    /// The media type from the file's first bytes, else its extension.
    static func mediaType(of data: Data, name: String) -> String { attachmentMediaType(head: [UInt8](data.prefix(16)), name: name) }
}

// MARK: One folder per database file

extension AttachmentStore {
    /// Wave 1 kept the files of every database in one `attachments/` folder beside them, so `check --repair`
    /// on one database took its neighbours' files for orphans. On the first open of such a file, the files
    /// it refers to are hard-linked into its own folder (built under a temporary name and renamed into place,
    /// so a kill leaves either no new folder or a whole one), then removed from the shared folder unless
    /// another database beside it, still on the old layout, refers to them too. Files nobody refers to stay
    /// where they are: petlog never deletes a user's file.
    static func adoptSharedFolder(database: AppDatabase) throws -> StoreNotice? {
        guard let path = database.path, let own = database.attachmentsDirectory else { return nil }
        let folder = own.deletingLastPathComponent()
        let shared = folder.appendingPathComponent("attachments")
        let fm = FileManager.default
        var isDir: ObjCBool = false
        guard !fm.fileExists(atPath: own.path), fm.fileExists(atPath: shared.path, isDirectory: &isDir), isDir.boolValue else { return nil }
        let hashes = try database.dbQueue.read { db in try String.fetchAll(db, sql: "SELECT DISTINCT sha256 FROM attachment ORDER BY sha256") }
        let old = AttachmentStore(directory: shared)
        let present = hashes.filter { fm.fileExists(atPath: old.url(for: $0).path) }
        guard !present.isEmpty else { return nil }

        // Several processes may open the file at once: one moves the files, the others find them moved.
        let lock = try DirectoryLock(directory: folder.path, busy: database.busy)
        defer { lock.release() }
        guard !fm.fileExists(atPath: own.path) else { return nil }
        // A partial folder left by a killed process is incomplete by definition: start again.
        let prefix = ".\(own.lastPathComponent).partial-"
        for name in (try? fm.contentsOfDirectory(atPath: folder.path)) ?? [] where name.hasPrefix(prefix) {
            try? fm.removeItem(at: folder.appendingPathComponent(name))
        }
        let partial = folder.appendingPathComponent(prefix + "\(getpid())")
        let building = AttachmentStore(directory: partial)
        do {
            try FileSecurity.makePrivateDirectory(partial)
            for sha in present {
                let target = building.url(for: sha)
                try FileSecurity.makePrivateDirectory(target.deletingLastPathComponent())
                if link(old.url(for: sha).path, target.path) != 0 {
                    // No hard links here (another file system): copy and sync.
                    try fm.copyItem(at: old.url(for: sha), to: target)
                    FileSecurity.restrict(target.path)
                }
            }
            FileSecurity.syncDirectory(of: partial.appendingPathComponent("x").path)
            guard rename(partial.path, own.path) == 0 else { throw StoreError.file(path: own.path, OutputError.Cause(errno: errno)) }
            FileSecurity.syncDirectory(of: own.path)
        } catch {
            try? fm.removeItem(at: partial)
            throw error
        }
        // The new folder is whole; now the shared copies that no other old-layout database needs can go.
        if let stillNeeded = neighboursStillShared(folder: folder, except: String(own.path.dropLast(".attachments".count))) {
            for sha in present where !stillNeeded.contains(sha) {
                unlink(old.url(for: sha).path)
                rmdir(old.url(for: sha).deletingLastPathComponent().path)
            }
            rmdir(shared.path)
        }
        return .attachmentsMoved(count: present.count, from: shared.path, to: own.path)
    }

    /// The hashes referred to by other petlog databases in `folder` that still use the shared folder (have no
    /// folder of their own); nil when one of them cannot be read, so nothing is removed.
    static func neighboursStillShared(folder: URL, except path: String) -> Set<String>? {
        let fm = FileManager.default
        guard let names = try? fm.contentsOfDirectory(atPath: folder.path) else { return nil }
        var needed: Set<String> = []
        for name in names where !name.hasPrefix(".") && name != "attachments" {
            let candidate = folder.appendingPathComponent(name).path
            guard candidate != path, !name.hasSuffix("-wal"), !name.hasSuffix("-shm"), !name.hasSuffix("-journal") else { continue }
            var info = stat()
            guard stat(candidate, &info) == 0, info.st_mode & S_IFMT == S_IFREG,
                  let handle = FileHandle(forReadingAtPath: candidate) else { continue }
            let head = (try? handle.read(upToCount: 16)) ?? Data()
            try? handle.close()
            guard head == Data("SQLite format 3\0".utf8) else { continue }
            if fm.fileExists(atPath: AppDatabase.attachmentsDirectory(forDatabase: candidate).path) { continue }
            // A migration's backup (`X.before-v3-….bak`, taken just before X was opened) is restored as X, and
            // uses X's folder once X has one: it does not hold the shared files.
            if name.hasSuffix(".bak"), let base = name.range(of: ".before-v").map({ String(name[..<$0.lowerBound]) }),
               fm.fileExists(atPath: AppDatabase.attachmentsDirectory(forDatabase: folder.appendingPathComponent(base).path).path) {
                continue
            }
            do {
                var config = Configuration()
                config.readonly = true
                // Without a -wal beside it the file holds everything: read it immutable, leaving no -shm behind.
                let live = fm.fileExists(atPath: candidate + "-wal")
                let queue = try DatabaseQueue(path: live ? candidate : "file:" + AppDatabase.uriEscaped(candidate) + "?immutable=1", configuration: config)
                let hashes = try queue.read { db -> [String] in
                    guard try db.tableExists("attachment") else { return [] }
                    return try String.fetchAll(db, sql: "SELECT DISTINCT sha256 FROM attachment")
                }
                try queue.close()
                needed.formUnion(hashes)
            } catch {
                return nil
            }
        }
        return needed
    }
}

// MARK: Quarantine

extension AttachmentStore {
    /// Moves files out of the way instead of deleting them: into `<file name>.quarantine/<UTC time>/`
    /// beside the database, keeping their relative path. Returns the quarantine folder used.
    static func quarantine(_ files: [String], root: URL, databasePath: String, now: Date) throws -> URL {
        let stamp = ISO8601DateFormatter.string(from: now, timeZone: TimeZone(identifier: "UTC")!, // safe: UTC always exists
                                                formatOptions: [.withYear, .withMonth, .withDay, .withTime, .withTimeZone])
            .replacingOccurrences(of: ":", with: "")
        let url = URL(fileURLWithPath: databasePath)
        let base = url.deletingLastPathComponent().appendingPathComponent(url.lastPathComponent + ".quarantine")
        var folder = base.appendingPathComponent(stamp)
        var n = 1
        while FileManager.default.fileExists(atPath: folder.path) { n += 1; folder = base.appendingPathComponent("\(stamp)-\(n)") }
        for file in files {
            let relative = file.hasPrefix(root.path + "/") ? String(file.dropFirst(root.path.count + 1)) : (file as NSString).lastPathComponent
            let target = folder.appendingPathComponent(relative)
            try FileSecurity.makePrivateDirectory(target.deletingLastPathComponent())
            if rename(file, target.path) != 0 { throw StoreError.file(path: file, OutputError.Cause(errno: errno)) }
        }
        return folder
    }

    /// The quarantine folders of the database at `databasePath`, newest first.
    static func quarantineFolders(databasePath: String) -> [URL] {
        let url = URL(fileURLWithPath: databasePath)
        let base = url.deletingLastPathComponent().appendingPathComponent(url.lastPathComponent + ".quarantine")
        let names = (try? FileManager.default.contentsOfDirectory(atPath: base.path)) ?? []
        // `20261125T101500Z`, then `…-2`, `…-3` within the same second.
        func key(_ name: String) -> (String, Int) {
            let parts = name.split(separator: "-", maxSplits: 1)
            return (String(parts.first ?? ""), parts.count > 1 ? Int(parts[1]) ?? 1 : 1)
        }
        return names.sorted { key($0) > key($1) }.map { base.appendingPathComponent($0) }
    }

    /// A quarantined copy of the file `sha256` whose content still has that hash, newest first.
    func quarantined(_ sha256: String, databasePath: String) -> URL? {
        let relative = String(sha256.prefix(2)) + "/" + sha256
        for folder in Self.quarantineFolders(databasePath: databasePath) {
            let candidate = folder.appendingPathComponent(relative)
            if let data = FileManager.default.contents(atPath: candidate.path), Self.sha256Hex(data) == sha256 { return candidate }
        }
        return nil
    }

    /// Moves back from the quarantine the files of `hashes` missing from the store (a record that refers
    /// to them again after `undo`); returns the hashes brought back. What is not found stays missing.
    @discardableResult
    func unquarantine(_ hashes: some Sequence<String>, databasePath: String) throws -> [String] {
        var back: [String] = []
        for sha in hashes where !FileManager.default.fileExists(atPath: url(for: sha).path) {
            guard let source = quarantined(sha, databasePath: databasePath) else { continue }
            let target = url(for: sha)
            try FileSecurity.makePrivateDirectory(directory)
            try FileSecurity.makePrivateDirectory(target.deletingLastPathComponent())
            if rename(source.path, target.path) != 0 { throw StoreError.file(path: target.path, OutputError.Cause(errno: errno)) }
            back.append(sha)
        }
        return back
    }
}
