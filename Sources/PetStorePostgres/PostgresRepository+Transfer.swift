import Foundation
import PetFiles
import PetModel
import PetStoreCore

// MARK: Exports and attachment files on PostgreSQL (checks, backup and undo: +Maintenance)

extension PostgresRepository {
    public func householdNamespace() throws -> String? {
        try read { try $0.storedNamespace() }
    }

    /// The file's chunks in order, in one read transaction; not held when the server has no chunk of it.
    public func readAttachment(sha256: String, _ body: (Data) throws -> Void) throws -> (held: Bool, name: String) {
        let name = "\(target.redacted) attachment \(sha256)"
        return try read { _ in
            var held = false
            try PostgresAttachments.forEachChunk(sha256, link: link) { held = true; try body(Data($0)) }
            return (held, name)
        }
    }
}
