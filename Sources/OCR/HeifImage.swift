import CHeif
import CTesseract
import Foundation

/// HEIC/HEIF through libheif: the primary image, decoded as luminance only (the gray tesseract reads),
/// with the file's own turn and mirror (`irot`/`imir`) applied by libheif as the format asks (HEIF keeps
/// no EXIF orientation of its own to apply again).
enum HeifImage {
    /// The primary image's size from the container, without decoding pixels; nil when libheif cannot read it.
    static func header(_ bytes: [UInt8]) throws -> ImageHeader? {
        try withPrimary(bytes) { handle in
            ImageHeader(width: Int(heif_image_handle_get_width(handle)), height: Int(heif_image_handle_get_height(handle)))
        }
    }

    /// The primary image as an 8-bit gray leptonica image. Throws `undecodable` with libheif's own words
    /// when the data is damaged or its codec (HEVC, AV1) has no decoder on this system.
    static func decode(_ bytes: [UInt8]) throws -> LeptImage {
        try withPrimary(bytes) { handle in
            // Decoded in its own colour space (HEIC is YCbCr: the Y plane is the luminance, no conversion).
            var image: OpaquePointer? = nil
            var error = heif_decode_image(handle, &image, heif_colorspace_YCbCr, heif_chroma_420, nil)
            if error.code != heif_error_Ok || image == nil {
                if let image { heif_image_release(image) }
                image = nil
                error = heif_decode_image(handle, &image, heif_colorspace_YCbCr, heif_chroma_444, nil)
            }
            guard error.code == heif_error_Ok, let image else { throw Failure.undecodable(message(error)) }
            defer { heif_image_release(image) }
            guard heif_image_has_channel(image, heif_channel_Y) != 0 else { throw Failure.undecodable("no luminance plane") }
            let width = Int(heif_image_get_width(image, heif_channel_Y)), height = Int(heif_image_get_height(image, heif_channel_Y))
            let bits = Int(heif_image_get_bits_per_pixel_range(image, heif_channel_Y))
            var stride: Int32 = 0
            guard width > 0, height > 0, (8...16).contains(bits), let plane = heif_image_get_plane_readonly(image, heif_channel_Y, &stride),
                  Int(stride) >= width * (bits > 8 ? 2 : 1)
            else { throw Failure.undecodable("no usable luminance plane") }
            // Into leptonica as a PGM in memory: leptonica packs 8-bit pixels in words by its own byte order.
            var pgm = Array("P5\n\(width) \(height)\n255\n".utf8)
            pgm.reserveCapacity(pgm.count + width * height)
            for row in 0..<height {
                let start = plane + row * Int(stride)
                if bits == 8 {
                    pgm.append(contentsOf: UnsafeBufferPointer(start: start, count: width))
                } else {
                    // 10–16 bits in two bytes, little-endian: the top 8 bits.
                    for x in 0..<width { pgm.append(UInt8(truncatingIfNeeded: (Int(start[2 * x]) | Int(start[2 * x + 1]) << 8) >> (bits - 8))) }
                }
            }
            let pix = pgm.withUnsafeBufferPointer { pixReadMem($0.baseAddress, $0.count) }
            guard let gray = LeptImage(pix) else { throw Failure.undecodable("decoded image could not be handed over") }
            return gray
        }
    }

    enum Failure: Error { case undecodable(String) }

    private static func message(_ error: heif_error) -> String {
        (error.message.map { String(cString: $0) } ?? "libheif error \(error.code.rawValue)").trimmingCharacters(in: .whitespacesAndNewlines)
    }

    static func withPrimary<T>(_ bytes: [UInt8], _ body: (OpaquePointer) throws -> T) throws -> T {
        guard let context = heif_context_alloc() else { throw Failure.undecodable("libheif could not start") }
        defer { heif_context_free(context) }
        return try bytes.withUnsafeBytes { buffer in
            let read = heif_context_read_from_memory_without_copy(context, buffer.baseAddress, buffer.count, nil)
            guard read.code == heif_error_Ok else { throw Failure.undecodable(message(read)) }
            var handle: OpaquePointer? = nil
            let primary = heif_context_get_primary_image_handle(context, &handle)
            guard primary.code == heif_error_Ok, let handle else { throw Failure.undecodable(message(primary)) }
            defer { heif_image_handle_release(handle) }
            return try body(handle)
        }
    }
}
