/// What the first bytes of a file say it is, and how large it claims to be, read before any decoding.
public enum ImageFormat: String, Sendable, Equatable, CaseIterable {
    case jpeg, png, tiff, webp, bmp, gif, pnm, jp2
    /// HEIF/HEIC/AVIF: recognised so the error can say so; leptonica 1.82 cannot decode it.
    case heif

    /// The format whose signature starts `bytes`, or nil when none does.
    public static func sniff<Bytes: RandomAccessCollection>(_ bytes: Bytes) -> ImageFormat? where Bytes.Element == UInt8, Bytes.Index == Int {
        let b = Array(bytes.prefix(16))
        func starts(_ sig: [UInt8], at offset: Int = 0) -> Bool {
            b.count >= offset + sig.count && Array(b[offset..<offset + sig.count]) == sig
        }
        if starts([0xFF, 0xD8, 0xFF]) { return .jpeg }
        if starts([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) { return .png }
        if starts([0x49, 0x49, 0x2A, 0x00]) || starts([0x4D, 0x4D, 0x00, 0x2A]) { return .tiff }
        if starts(Array("RIFF".utf8)) && starts(Array("WEBP".utf8), at: 8) { return .webp }
        if starts(Array("GIF8".utf8)) { return .gif }
        if starts(Array("BM".utf8)) && b.count >= 14 { return .bmp }
        if b.count >= 3, b[0] == 0x50, (0x31...0x36).contains(b[1]), [0x0A, 0x0D, 0x20, 0x09].contains(b[2]) { return .pnm }
        if starts([0x00, 0x00, 0x00, 0x0C, 0x6A, 0x50, 0x20, 0x20]) || starts([0xFF, 0x4F, 0xFF, 0x51]) { return .jp2 }
        if starts(Array("ftyp".utf8), at: 4), b.count >= 12 {
            let brand = String(decoding: b[8..<12], as: UTF8.self)
            if ["heic", "heix", "hevc", "hevx", "heim", "heis", "mif1", "msf1", "avif", "avis"].contains(brand) { return .heif }
        }
        return nil
    }
}

/// Pixel dimensions and EXIF orientation read from a JPEG or PNG header, without decoding the image.
public struct ImageHeader: Sendable, Equatable {
    public var width: Int
    public var height: Int
    public var orientation: ExifOrientation

    public init(width: Int, height: Int, orientation: ExifOrientation = .up) {
        self.width = width
        self.height = height
        self.orientation = orientation
    }

    /// The header of a JPEG: the first start-of-frame marker's size and APP1 EXIF's orientation.
    /// Nil when the marker stream ends or breaks before a frame header.
    public static func jpeg(_ bytes: [UInt8]) -> ImageHeader? {
        guard bytes.count >= 4, bytes[0] == 0xFF, bytes[1] == 0xD8 else { return nil }
        var orientation = ExifOrientation.up
        var i = 2
        while i + 4 <= bytes.count {
            guard bytes[i] == 0xFF else { return nil }
            var marker = bytes[i + 1]
            while marker == 0xFF, i + 2 < bytes.count {  // fill bytes before a marker
                i += 1
                marker = bytes[i + 1]
            }
            i += 2
            if marker == 0x01 || (0xD0...0xD7).contains(marker) { continue }  // no length
            if marker == 0xD9 || marker == 0xDA { return nil }  // end of image or scan before any frame
            guard i + 2 <= bytes.count else { return nil }
            let length = Int(bytes[i]) << 8 | Int(bytes[i + 1])
            guard length >= 2, i + length <= bytes.count else { return nil }
            let segment = bytes[(i + 2)..<(i + length)]
            let isFrame = (0xC0...0xCF).contains(marker) && marker != 0xC4 && marker != 0xC8 && marker != 0xCC
            if isFrame {
                guard segment.count >= 5 else { return nil }
                let s = segment.startIndex
                let height = Int(segment[s + 1]) << 8 | Int(segment[s + 2])
                let width = Int(segment[s + 3]) << 8 | Int(segment[s + 4])
                return ImageHeader(width: width, height: height, orientation: orientation)
            }
            if marker == 0xE1, let found = ExifOrientation.inAPP1(Array(segment)) { orientation = found }
            i += length
        }
        return nil
    }

    /// Whether a JPEG holds an end-of-image marker after its first scan starts. A file cut short (an
    /// interrupted copy) has none; checked before decoding because libjpeg would print a warning.
    public static func jpegIsComplete(_ bytes: [UInt8]) -> Bool {
        guard let start = jpegScanStart(bytes), bytes.count >= 2 else { return false }
        var i = bytes.count - 2
        while i >= start {  // from the end: a whole file, or one with a short trailer, stops at once
            if bytes[i] == 0xFF && bytes[i + 1] == 0xD9 { return true }
            i -= 1
        }
        return false
    }

    /// The offset just past the first start-of-scan header, walking the marker segments.
    static func jpegScanStart(_ bytes: [UInt8]) -> Int? {
        guard bytes.count >= 4, bytes[0] == 0xFF, bytes[1] == 0xD8 else { return nil }
        var i = 2
        while i + 4 <= bytes.count {
            guard bytes[i] == 0xFF else { return nil }
            let marker = bytes[i + 1]
            i += 2
            if marker == 0xFF { i -= 1; continue }  // a fill byte
            if marker == 0x01 || (0xD0...0xD7).contains(marker) { continue }
            if marker == 0xD9 { return nil }
            let length = Int(bytes[i]) << 8 | Int(bytes[i + 1])
            guard length >= 2, i + length <= bytes.count else { return nil }
            if marker == 0xDA { return i + length }
            i += length
        }
        return nil
    }

    /// The header of a PNG: IHDR's width and height (PNG has no orientation).
    public static func png(_ bytes: [UInt8]) -> ImageHeader? {
        guard bytes.count >= 24, ImageFormat.sniff(bytes) == .png, Array(bytes[12..<16]) == Array("IHDR".utf8) else { return nil }
        func u32(_ at: Int) -> Int { bytes[at..<at + 4].reduce(0) { $0 << 8 | Int($1) } }
        return ImageHeader(width: u32(16), height: u32(20))
    }
}

/// The EXIF Orientation tag: how the stored pixels must be turned to stand upright.
public enum ExifOrientation: Int, Sendable, Equatable, CaseIterable {
    case up = 1, mirrored = 2, upsideDown = 3, upsideDownMirrored = 4
    /// Transposed: rows stored as columns.
    case leftMirrored = 5
    /// Stored turned a quarter to the left: shown after turning 90° clockwise (a phone held upright).
    case right = 6
    case rightMirrored = 7
    /// Shown after turning 90° counter-clockwise.
    case left = 8

    /// The Orientation value in an APP1 segment's payload (`Exif\0\0` + TIFF), nil when absent or malformed.
    public static func inAPP1(_ payload: [UInt8]) -> ExifOrientation? {
        guard payload.count >= 14, Array(payload[0..<6]) == [0x45, 0x78, 0x69, 0x66, 0, 0] else { return nil }
        let tiff = Array(payload[6...])
        let little: Bool
        switch (tiff[0], tiff[1]) {
        case (0x49, 0x49): little = true
        case (0x4D, 0x4D): little = false
        default: return nil
        }
        func u16(_ at: Int) -> Int? {
            guard at >= 0, at + 2 <= tiff.count else { return nil }
            return little ? Int(tiff[at]) | Int(tiff[at + 1]) << 8 : Int(tiff[at]) << 8 | Int(tiff[at + 1])
        }
        func u32(_ at: Int) -> Int? {
            guard let a = u16(at), let b = u16(at + 2) else { return nil }
            return little ? a | b << 16 : a << 16 | b
        }
        guard u16(2) == 42, let ifd = u32(4), let count = u16(ifd) else { return nil }
        for entry in 0..<count {
            let at = ifd + 2 + entry * 12
            guard let tag = u16(at), let type = u16(at + 2) else { return nil }
            if tag == 0x0112 {
                guard type == 3, let value = u16(at + 8) else { return nil }  // SHORT, left-justified in the value field
                return ExifOrientation(rawValue: value)
            }
        }
        return nil
    }
}
