import CHeif
import CTesseract
import Foundation

/// A small copy of a photo that any browser shows (`petlog-ocr --thumbnail SIZE IMAGE`, which `petlog serve`
/// runs for the timeline's thumbnails and a HEIC photo's rendering): decoded by leptonica (JPEG, PNG, TIFF,
/// WebP, GIF, BMP…) or libheif (HEIC/HEIF), turned upright as its EXIF orientation asks, scaled so that
/// neither side exceeds the size asked for (never enlarged), written as a JPEG for a JPEG or HEIC photo and
/// as a PNG for anything else. The same checks before decoding as a receipt's (`OCROptions`' size and pixel limits).
public enum Thumbnail {
    /// The image written (`image/jpeg` or `image/png`) and its size.
    public struct Made: Sendable {
        public let bytes: [UInt8]
        public let mediaType: String
        public let width: Int
        public let height: Int
    }

    public static func make(path: String, maxSide: Int, options: OCROptions = OCROptions()) throws -> Made {
        let attributes: [FileAttributeKey: Any]
        do { attributes = try FileManager.default.attributesOfItem(atPath: path) } catch {
            throw FileManager.default.fileExists(atPath: path) ? OCRError.unreadable(path: path) : OCRError.fileNotFound(path: path)
        }
        guard attributes[.type] as? FileAttributeType == .typeRegular else { throw OCRError.unreadable(path: path) }
        guard let data = FileManager.default.contents(atPath: path) else { throw OCRError.unreadable(path: path) }
        guard !data.isEmpty else { throw OCRError.emptyFile(path: path) }
        guard data.count <= options.maxFileBytes else { throw OCRError.fileTooLarge(path: path, bytes: data.count, limit: options.maxFileBytes) }
        let bytes = [UInt8](data)
        guard let format = ImageFormat.sniff(bytes) else { throw OCRError.notAnImage(path: path) }
        let side = max(16, maxSide)
        // A cut JPEG is refused before its size is looked at (a receipt's reading checks the size first).
        if format == .jpeg, !ImageHeader.jpegIsComplete(bytes) { throw OCRError.corruptImage(path: path) }
        let header = try LeptImage.checkedHeader(bytes, format: format, path: path, maxPixels: options.maxPixels)

        var image: LeptImage
        if format == .heif {
            do { image = try HeifImage.decodeColor(bytes) } catch HeifImage.Failure.undecodable(let why) {
                throw OCRError.undecodableHeif(path: path, detail: why)
            }
        } else {
            // A JPEG much larger than asked for is decoded smaller by libjpeg itself (1/2, 1/4, 1/8 in the inverse DCT).
            var reduction: Int32 = 1
            if format == .jpeg { while reduction < 8, max(header.width, header.height) / Int(reduction * 2) >= side { reduction *= 2 } }
            let decoded: UnsafeMutablePointer<PIX>? = bytes.withUnsafeBufferPointer { buffer in
                if format == .jpeg {
                    var warnings: Int32 = 0
                    return pixReadMemJpeg(buffer.baseAddress, buffer.count, 0, reduction, &warnings, 0)
                }
                return pixReadMem(buffer.baseAddress, buffer.count)
            }
            guard let d = LeptImage(decoded) else { throw OCRError.corruptImage(path: path) }
            image = try d.oriented(header.orientation)
        }
        // Colour in 32 bits (a palette, gray or 1-bit image converted), then scaled down by area averaging.
        if image.depth != 32 || pixGetColormap(image.pointer) != nil {
            guard let c = LeptImage(pixConvertTo32(image.pointer)) else { throw OCRError.engineFailure("could not convert the image") }
            image = c
        }
        let scale = min(1, Float(side) / Float(max(image.width, image.height)))
        if scale < 1 {
            guard let s = LeptImage(pixScale(image.pointer, scale, scale)) else { throw OCRError.engineFailure("could not scale the image") }
            image = s
        }
        let jpeg = format == .jpeg || format == .heif
        var out: UnsafeMutablePointer<UInt8>? = nil
        var size = 0
        let failed = jpeg ? pixWriteMemJpeg(&out, &size, image.pointer, 82, 0) : pixWriteMemPng(&out, &size, image.pointer, 0)
        guard failed == 0, let out, size > 0 else { throw OCRError.engineFailure("could not write the thumbnail") }
        defer { lept_free(out) }
        return Made(bytes: Array(UnsafeBufferPointer(start: out, count: size)), mediaType: jpeg ? "image/jpeg" : "image/png",
                    width: image.width, height: image.height)
    }
}

extension HeifImage {
    /// The primary image in colour (8-bit RGB, its own turn and mirror applied by libheif) as a leptonica image.
    static func decodeColor(_ bytes: [UInt8]) throws -> LeptImage {
        try withPrimary(bytes) { handle in
            var image: OpaquePointer? = nil
            let error = heif_decode_image(handle, &image, heif_colorspace_RGB, heif_chroma_interleaved_RGB, nil)
            guard error.code == heif_error_Ok, let image else {
                if let image { heif_image_release(image) }
                throw Failure.undecodable(error.message.map { String(cString: $0) } ?? "libheif error \(error.code.rawValue)")
            }
            defer { heif_image_release(image) }
            let width = Int(heif_image_get_width(image, heif_channel_interleaved)), height = Int(heif_image_get_height(image, heif_channel_interleaved))
            var stride: Int32 = 0
            guard width > 0, height > 0, let plane = heif_image_get_plane_readonly(image, heif_channel_interleaved, &stride), Int(stride) >= width * 3
            else { throw Failure.undecodable("no usable colour plane") }
            // Into leptonica as a PPM in memory, as `decode` hands over its gray.
            var ppm = Array("P6\n\(width) \(height)\n255\n".utf8)
            ppm.reserveCapacity(ppm.count + width * height * 3)
            for row in 0..<height { ppm.append(contentsOf: UnsafeBufferPointer(start: plane + row * Int(stride), count: width * 3)) }
            let pix = ppm.withUnsafeBufferPointer { pixReadMem($0.baseAddress, $0.count) }
            guard let colour = LeptImage(pix) else { throw Failure.undecodable("decoded image could not be handed over") }
            return colour
        }
    }
}
