import Foundation

/// What a file is by its first bytes, never by its name: `--photo` takes images only, `--receipt` images
/// and PDFs, `--attach` anything.
public enum MediaSniffer {
    /// The image media type of a file that starts with `head` (16 bytes are enough), if it is an image.
    public static func imageType(_ head: [UInt8]) -> String? {
        func starts(_ bytes: [UInt8]) -> Bool { head.starts(with: bytes) }
        if starts([0xFF, 0xD8, 0xFF]) { return "image/jpeg" }
        if starts([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) { return "image/png" }
        if starts(Array("GIF87a".utf8)) || starts(Array("GIF89a".utf8)) { return "image/gif" }
        if head.count >= 12, head[0..<4].elementsEqual("RIFF".utf8), head[8..<12].elementsEqual("WEBP".utf8) { return "image/webp" }
        if head.count >= 12, head[4..<8].elementsEqual("ftyp".utf8) {
            let brand = String(decoding: head[8..<12], as: UTF8.self)
            if ["heic", "heix", "hevc", "hevx", "mif1", "msf1", "heif"].contains(brand) { return "image/heic" }
            if ["avif", "avis"].contains(brand) { return "image/avif" }
        }
        if starts([0x49, 0x49, 0x2A, 0x00]) || starts([0x4D, 0x4D, 0x00, 0x2A]) { return "image/tiff" }
        if starts(Array("BM".utf8)), head.count >= 14 { return "image/bmp" }
        // Netpbm: P1–P6 and whitespace.
        if head.count >= 3, head[0] == UInt8(ascii: "P"), (UInt8(ascii: "1")...UInt8(ascii: "6")).contains(head[1]),
           [0x20, 0x09, 0x0A, 0x0D].contains(head[2]) { return "image/x-portable-anymap" }
        return nil
    }

    public static func isPDF(_ head: [UInt8]) -> Bool { head.starts(with: Array("%PDF-".utf8)) }

    /// The first bytes of the file at `path` (nil when it cannot be read).
    /// Only a regular file is opened: a FIFO or a device would block or never end (nil: the store
    /// refuses those with their own message).
    public static func head(of path: String, count: Int = 16) -> [UInt8]? {
        var info = stat()
        guard stat(path, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else { return nil }
        guard let handle = FileHandle(forReadingAtPath: path) else { return nil }
        defer { try? handle.close() }
        return (try? handle.read(upToCount: count)).map { [UInt8]($0 ?? Data()) } ?? nil
    }
}
