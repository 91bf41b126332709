import Foundation
import PetModel
import PetStoreCore

extension AppDatabase {
    /// Where the database at `path` keeps an attachment's file (it may be missing: `check` says so).
    public static func attachmentFile(_ attachment: Attachment, forDatabase path: String) -> URL {
        AttachmentStore(directory: attachmentsDirectory(forDatabase: path)).url(for: attachment.sha256)
    }
}
