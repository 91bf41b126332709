import Crypto
import Foundation
import PetModel

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
        guard let data = FileManager.default.contents(atPath: sourcePath) else {
            throw StoreError.attachmentUnreadable(path: sourcePath)
        }
        let sha = Self.sha256Hex(data)
        let target = url(for: sha)
        var created: URL?
        if !FileManager.default.fileExists(atPath: target.path) {
            try FileSecurity.makePrivateDirectory(directory)
            try FileSecurity.makePrivateDirectory(target.deletingLastPathComponent())
            let temp = target.deletingLastPathComponent().appendingPathComponent(".\(sha).\(getpid()).tmp")
            guard FileManager.default.createFile(atPath: temp.path, contents: data, attributes: [.posixPermissions: 0o600]) else {
                throw StoreError.io("cannot write \(temp.path)")
            }
            if rename(temp.path, target.path) != 0 {
                try? FileManager.default.removeItem(at: temp)
                throw StoreError.io("cannot write \(target.path)")
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
    static func mediaType(of data: Data, name: String) -> String {
        let head = [UInt8](data.prefix(12))
        if head.starts(with: [0xFF, 0xD8, 0xFF]) { return "image/jpeg" }
        if head.starts(with: [0x89, 0x50, 0x4E, 0x47]) { return "image/png" }
        if head.starts(with: Array("%PDF".utf8)) { return "application/pdf" }
        if head.starts(with: Array("GIF8".utf8)) { return "image/gif" }
        if head.count >= 12, head[0..<4] == Array("RIFF".utf8)[...], head[8..<12] == Array("WEBP".utf8)[...] { return "image/webp" }
        if head.count >= 12, head[4..<8] == Array("ftyp".utf8)[...] {
            let brand = String(decoding: head[8..<12], as: UTF8.self)
            if ["heic", "heix", "mif1", "heif"].contains(brand) { return "image/heic" }
        }
        switch URL(fileURLWithPath: name).pathExtension.lowercased() {
        case "txt": return "text/plain"
        case "csv": return "text/csv"
        case "jpg", "jpeg": return "image/jpeg"
        case "png": return "image/png"
        case "pdf": return "application/pdf"
        default: return "application/octet-stream"
        }
    }
}
