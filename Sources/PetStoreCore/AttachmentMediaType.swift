import Foundation
import PetModel

/// The media type of an attached file from its first 16 bytes, else its name's extension (both stores).
public func attachmentMediaType(head: [UInt8], name: String) -> String {
    if let image = MediaSniffer.imageType(head) { return image }
    if MediaSniffer.isPDF(head) { return "application/pdf" }
    switch URL(fileURLWithPath: name).pathExtension.lowercased() {
    case "txt": return "text/plain"
    case "csv": return "text/csv"
    default: return "application/octet-stream"
    }
}
