import Crypto
import Foundation
import PetFiles
import PetModel

/// Exports: the rows an export reads from one snapshot (`exportSnapshot`), the attachment list and the
/// attachment files checked and copied (`TransferRepository`), written once over the engine for both.
extension Store {
    /// Every record in id order, `size` at a time, as `loadRecords` gives them: each batch its own read
    /// transaction (so `body` may use the store again between batches), or all in the one this store runs in.
    public func forEachRecordBatch(size: Int, _ body: ([PetRecord]) throws -> Void) throws {
        var after: Int64 = 0
        while true {
            let batch = try read { s in try s.loadRecords("WHERE r.id > ? ORDER BY r.id LIMIT \(size)", [after]) }
            guard let last = batch.last else { return }
            try body(batch)
            after = last.id
        }
    }

    /// The household's namespace (32 hex digits, random, made once per database) as stored: the FHIR
    /// export's addresses are derived from it (`householdNamespace()` asks the engine, which knows whether
    /// an old file has the table).
    public func storedNamespace() throws -> String? {
        try read { s in try s.sql.rows("SELECT namespace FROM household WHERE id = 1", [SQLValue]()).first?[0].text }
    }

    /// What an export reads, from one snapshot (one read transaction) for both engines: the store hands out
    /// the rows, `PetTransfer` writes the JSON or CSV of them inside `body`.
    public func exportSnapshot<T>(_ body: (ExportSnapshot) throws -> T) throws -> T {
        let namespace = try engine.householdNamespace()  // the engine knows whether an older file has the table
        return try read { s in try body(ExportSnapshot(store: s, namespace: namespace)) }
    }

    public func attachmentHashes() throws -> [String] {
        try read { s in try s.sql.rows("SELECT DISTINCT sha256 FROM attachment ORDER BY sha256", [SQLValue]()).compactMap { $0[0].text } }
    }

    // MARK: Attachment files, over the engine's one read of a file's bytes (`StoreEngine.readAttachment`)

    /// Reads every attachment file the records name and checks its SHA-256. A file that no longer matches
    /// is thrown, naming it; so is one the store does not hold, unless `allowingMissing` (then it is listed).
    /// A file that is there but cannot be read is thrown either way: a problem to name, not a missing photo.
    @discardableResult
    public func verifyAttachments(allowingMissing: Bool) throws -> AttachmentInventory {
        var inventory = AttachmentInventory()
        for sha in try attachmentHashes() {
            guard try checkedRead(sha, allowingMissing: allowingMissing, { _ in }) else { inventory.missing.append(sha); continue }
            inventory.present.append(sha)
        }
        return inventory
    }

    /// Copies the attachment files the records name into the folder `directory` as `<sha256>` (0600, each
    /// whole or not at all, through `OutputFile`). Every stored file is read and its SHA-256 checked first
    /// (`verifyAttachments`): a file that no longer matches refuses the whole copy, naming it, before
    /// anything is written; each is checked again as it is copied. Files already in the folder are kept;
    /// files the records name but the store does not hold are left out (listed) when `allowingMissing`.
    public func copyAttachments(to directory: String, allowingMissing: Bool) throws -> (copied: Int, missing: [String]) {
        let inventory = try verifyAttachments(allowingMissing: allowingMissing)
        guard !inventory.present.isEmpty else { return (0, inventory.missing) }
        let batch = OutputFile.Batch()
        var copied = 0
        do {
            try batch.prepareFolder(directory)
            let folder = directory.hasSuffix("/") ? directory : directory + "/"
            for sha in inventory.present where !FileManager.default.fileExists(atPath: folder + sha) {
                try batch.add(folder + sha) { sink in _ = try checkedRead(sha, allowingMissing: false) { try sink.write($0) } }
                try batch.commit()
                copied += 1
            }
        } catch {
            batch.discard()
            throw error
        }
        return (copied, inventory.missing)
    }

    /// The bytes of `sha` through `body`, their SHA-256 checked at the end; false when the store does not
    /// hold the file and `allowingMissing` (else that is thrown, as a file whose bytes hash to another is).
    private func checkedRead(_ sha: String, allowingMissing: Bool, _ body: (Data) throws -> Void) throws -> Bool {
        var hasher = SHA256()
        let read = try engine.readAttachment(sha256: sha) { data in
            hasher.update(data: data)
            try body(data)
        }
        guard read.held else {
            if allowingMissing { return false }
            throw StoreError.attachmentUnreadable(path: read.name)
        }
        let found = hasher.finalize().map { String(format: "%02x", $0) }.joined()
        if found != sha { throw AttachmentHashMismatch(path: read.name, expected: sha, found: found) }
        return true
    }
}

/// The rows of one export, all of one moment: the store's read transaction, in which `PetTransfer` writes them.
public struct ExportSnapshot {
    let store: Store
    /// The household's namespace (32 hex digits), nil in a file from before it.
    public let namespace: String?

    public func pets() throws -> [Pet] { try store.pets(includeArchived: true) }
    public func forEachRecordBatch(size: Int, _ body: ([PetRecord]) throws -> Void) throws { try store.forEachRecordBatch(size: size, body) }
    public func budgets() throws -> [StoredBudget] { try store.budgets() }
    public func rates() throws -> [EuroRate] { try store.allRates() }

    /// The rows of one of `CSVExport.tables`: `columns` hears its column names once (before the first row, or
    /// alone when it has none), then `row` each row's values.
    public func forEachRow(_ table: CSVTable, columns: ([String]) throws -> Void, row: ([SQLValue]) throws -> Void) throws {
        var names: [String] = [], heard = false
        try store.sql.forEachRow(table.select, [SQLValue](), columns: { names = $0 }) { values in
            if !heard { heard = true; try columns(names) }
            try row(values)
        }
        if !heard { try columns(try store.sql.columns(table.select)) }
    }
}
