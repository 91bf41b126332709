import Foundation
import PetModel
import PetStoreCore

extension AppDatabase {
    /// The attachments folder of the database file at `path`: `<file name>.attachments` beside it, so two
    /// databases in one folder never share one. Through a symbolic link, beside the file it names.
    public static func attachmentsDirectory(forDatabase path: String) -> URL {
        var real = FileSecurity.absolute(path)
        if let resolved = realpath(path, nil) {
            real = String(cString: resolved)
            free(resolved)
        }
        let url = URL(fileURLWithPath: real)
        return url.deletingLastPathComponent().appendingPathComponent(url.lastPathComponent + ".attachments")
    }

    /// Where the database at `path` keeps an attachment's file (it may be missing: `check` says so).
    public static func attachmentFile(_ attachment: Attachment, forDatabase path: String) -> URL {
        AttachmentStore(directory: attachmentsDirectory(forDatabase: path)).url(for: attachment.sha256)
    }
}
