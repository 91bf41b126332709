import Foundation
import GRDB
import PetFiles
import PetModel
import PetStoreCore

extension SQLiteRepository {
    /// The tables `export --format csv` writes, in order (`--table` takes one of them).
    public static var csvTableNames: [String] { CSVExport.tableNames }

    /// The household's namespace (nil in a file older than its table): the JSON and FHIR exports name it.
    public func householdNamespace() throws -> String? {
        try read { db in try db.tableExists("household") ? try store(db, writing: false).storedNamespace() : nil }
    }

    /// Reads every attachment file the database refers to and checks its SHA-256. A file that no longer
    /// matches is thrown, naming it; so is a missing one, unless `allowingMissing` (then it is listed).
    @discardableResult
    public func verifyAttachments(allowingMissing: Bool) throws -> AttachmentInventory {
        guard let store = attachments else { return AttachmentInventory() }
        var inventory = AttachmentInventory()
        for sha in try Store(self).attachmentHashes() {
            let source = store.url(for: sha).path
            guard let data = FileManager.default.contents(atPath: source) else {
                // A file that is there but cannot be read is a problem to name, not a missing photo.
                if allowingMissing && !FileSecurity.exists(source) { inventory.missing.append(sha); continue }
                throw StoreError.attachmentUnreadable(path: source)
            }
            let found = AttachmentStore.sha256Hex(data)
            if found != sha { throw AttachmentHashMismatch(path: source, expected: sha, found: found) }
            inventory.present.append(sha)
        }
        return inventory
    }

    /// Copies the attachment files the database refers to into the folder `directory` as `<sha256>`
    /// (0600, through `OutputFile`). Every stored file is read and its SHA-256 checked first: a file
    /// that no longer matches its name (changed or damaged since it was attached) refuses the whole
    /// copy, naming the file, before anything is written. Files already in the folder are kept; files
    /// the database names but does not hold are left out (listed) when `allowingMissing`.
    public func copyAttachments(to directory: String, allowingMissing: Bool) throws -> (copied: Int, missing: [String]) {
        guard let store = attachments else { return (0, []) }
        let inventory = try verifyAttachments(allowingMissing: allowingMissing)
        guard !inventory.present.isEmpty else { return (0, inventory.missing) }
        let batch = OutputFile.Batch()
        var copied = 0
        do {
            try batch.prepareFolder(directory)
            let folder = directory.hasSuffix("/") ? directory : directory + "/"
            for sha in inventory.present {
                if FileManager.default.fileExists(atPath: folder + sha) { continue }
                let source = store.url(for: sha).path
                guard let data = FileManager.default.contents(atPath: source) else { throw StoreError.attachmentUnreadable(path: source) }
                if AttachmentStore.sha256Hex(data) != sha {
                    throw AttachmentHashMismatch(path: source, expected: sha, found: AttachmentStore.sha256Hex(data))
                }
                try batch.add(folder + sha) { try $0.write(data) }
                try batch.commit()
                copied += 1
            }
        } catch {
            batch.discard()
            throw error
        }
        return (copied, inventory.missing)
    }
}
