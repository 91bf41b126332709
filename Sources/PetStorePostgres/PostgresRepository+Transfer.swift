import Foundation
import PetFiles
import PetModel
import PetStoreCore

// MARK: Exports and attachment files on PostgreSQL (checks, backup and undo: +Maintenance)

extension PostgresRepository {
    public func householdNamespace() throws -> String? {
        try read { try $0.storedNamespace() }
    }

    /// Every attached file's chunks hash to the SHA-256 it is stored under. A row whose file has no chunks
    /// (imported without its photo) is thrown, unless `allowingMissing` (then it is listed).
    @discardableResult
    public func verifyAttachments(allowingMissing: Bool) throws -> AttachmentInventory {
        try read { _ in
            var inventory = AttachmentInventory()
            for sha in try link.rows("SELECT DISTINCT sha256 FROM attachment ORDER BY sha256", [SQLValue]()).compactMap({ $0[0].text }) {
                guard let found = try PostgresAttachments.storedHash(sha, link: link) else {
                    if allowingMissing { inventory.missing.append(sha); continue }
                    throw StoreError.attachmentUnreadable(path: "\(target.redacted) attachment \(sha)")
                }
                if found != sha { throw AttachmentHashMismatch(path: "\(target.redacted) attachment \(sha)", expected: sha, found: found) }
                inventory.present.append(sha)
            }
            return inventory
        }
    }

    /// Writes every attached file into the folder `directory` as `<sha256>` (0600, each whole or not at
    /// all), a chunk at a time, after checking every hash; files already there are kept, files the
    /// database names without holding are left out (listed) when `allowingMissing`.
    public func copyAttachments(to directory: String, allowingMissing: Bool) throws -> (copied: Int, missing: [String]) {
        let inventory = try verifyAttachments(allowingMissing: allowingMissing)
        guard !inventory.present.isEmpty else { return (0, inventory.missing) }
        let batch = OutputFile.Batch()
        var copied = 0
        do {
            try batch.prepareFolder(directory)
            let folder = directory.hasSuffix("/") ? directory : directory + "/"
            for sha in inventory.present where !FileManager.default.fileExists(atPath: folder + sha) {
                try read { _ in
                    try batch.add(folder + sha) { sink in try PostgresAttachments.forEachChunk(sha, link: link) { try sink.write($0) } }
                }
                try batch.commit()
                copied += 1
            }
        } catch {
            batch.discard()
            throw error
        }
        return (copied, inventory.missing)
    }

    /// The file of `attachment` written to `path` (for the report's photo page), a chunk at a time.
    public func writeAttachment(sha256: String, to path: String) throws {
        try read { _ in
            try OutputFile.write(to: path) { sink in try PostgresAttachments.forEachChunk(sha256, link: link) { try sink.write($0) } }
        }
    }
}
