import Foundation
import PetModel

/// What both engines' imports share besides the rows (`importRows`): which files a batch brings.
extension Store {
    /// The files the batch's records name, brought in from its attachment folders, each checked against its
    /// SHA-256; how many were added, and how many were in neither place (their rows go in all the same
    /// unless `attachmentsRequired`: `check` lists them, and a later import that finds the files stores
    /// them). The engine's primitives: whether it `holds` a file already, and `store` (a file's path → its
    /// SHA-256 and whether it was new), beside the SQLite file or as a server's chunks.
    public static func importAttachments(_ batch: ImportBatch, holds: (String) throws -> Bool,
                                         store: (String) throws -> (sha256: String, new: Bool)) throws -> (added: Int, missing: Int) {
        var needed: [String: SourceLocation] = [:]
        for r in batch.records { for a in r.attachments where needed[a.sha256] == nil { needed[a.sha256] = r.location } }
        var added = 0, missing = 0
        for (sha, location) in needed.sorted(by: { $0.key < $1.key }) {
            if try holds(sha) { continue }
            guard let source = batch.attachmentSource(sha) else {
                if batch.attachmentsRequired { throw ImportError(location: location, problem: .missingAttachment(sha)) }
                missing += 1
                continue
            }
            let stored = try store(source.path)
            guard stored.sha256 == sha else { throw ImportError(location: location, problem: .attachmentHashMismatch(sha)) }
            if stored.new { added += 1 }
        }
        return (added, missing)
    }
}
