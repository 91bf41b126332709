import CCairo
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A cairo drawing target: an in-memory image (saved as PNG), a PDF file or an SVG file.
public final class Surface {
    /// What the surface draws into.
    public enum Kind: Sendable { case image, pdf, svg }

    let raw: OpaquePointer
    public let kind: Kind
    /// Size in user units: pixels for images, points (1/72 in) for PDF and SVG.
    public let width: Double
    public let height: Double
    /// File the PDF or SVG is streamed into; nil for images.
    public let path: String?
    /// Collects an SVG document until `finish()`; nil for other surfaces.
    private var svgSink: SVGSink?

    /// The creation and modification date written into PDFs unless told otherwise, so that the
    /// same drawing gives byte-identical files.
    public static let fixedPDFDate = "2000-01-01T00:00:00Z"

    private init(raw: OpaquePointer, kind: Kind, width: Double, height: Double, path: String?) throws {
        self.raw = raw
        self.kind = kind
        self.width = width
        self.height = height
        self.path = path
        // Error surfaces are still objects to destroy: deinit runs even when this throws.
        try check(cairo_surface_status(raw), path: path)
    }

    deinit {
        cairo_surface_destroy(raw)   // finishes the stream into the sink, which is then dropped
    }

    /// An image surface of `width`×`height` pixels. `opaque` drops the alpha channel (RGB24),
    /// which suits charts with a painted background.
    public static func image(width: Int, height: Int, opaque: Bool = false) throws -> Surface {
        guard width > 0, height > 0, width <= 32767, height <= 32767 else { throw CairoError.invalidSize }
        // safe: cairo's surface constructors never return NULL; errors are surfaces in an error state,
        // checked by Surface.init.
        let raw = cairo_image_surface_create(opaque ? CAIRO_FORMAT_RGB24 : CAIRO_FORMAT_ARGB32,
                                             Int32(width), Int32(height))!
        return try Surface(raw: raw, kind: .image, width: Double(width), height: Double(height), path: nil)
    }

    /// A one-page-at-a-time PDF written to `path`, `width`×`height` points.
    /// `date` fills CreationDate and ModDate (ISO 8601); keep the default for reproducible files.
    public static func pdf(path: String, width: Double, height: Double,
                           title: String? = nil, date: String = fixedPDFDate) throws -> Surface {
        guard width > 0, height > 0 else { throw CairoError.invalidSize }
        // safe: never NULL (see `image`); an unwritable path is an error surface, checked by Surface.init.
        let raw = cairo_pdf_surface_create(path, width, height)!
        let surface = try Surface(raw: raw, kind: .pdf, width: width, height: height, path: path)
        cairo_pdf_surface_set_metadata(raw, CAIRO_PDF_METADATA_CREATE_DATE, date)
        cairo_pdf_surface_set_metadata(raw, CAIRO_PDF_METADATA_MOD_DATE, date)
        if let title { cairo_pdf_surface_set_metadata(raw, CAIRO_PDF_METADATA_TITLE, title) }
        return surface
    }

    /// An SVG 1.1 document written to `path`, `width`×`height` points, when finished.
    ///
    /// cairo names SVG groups after process-wide surface counters ("surface7"), so the same
    /// drawing would differ with what the process drew before; the document is collected in
    /// memory and those ids renumbered from 1 in order of appearance before it is written.
    public static func svg(path: String, width: Double, height: Double) throws -> Surface {
        guard width > 0, height > 0 else { throw CairoError.invalidSize }
        let sink = try SVGSink(path: path)
        let closure = Unmanaged.passUnretained(sink).toOpaque()
        guard let raw = cairo_svg_surface_create_for_stream({ closure, data, length in
            guard let closure, let data else { return CAIRO_STATUS_WRITE_ERROR }
            Unmanaged<SVGSink>.fromOpaque(closure).takeUnretainedValue()
                .bytes.append(contentsOf: UnsafeBufferPointer(start: data, count: Int(length)))
            return CAIRO_STATUS_SUCCESS
        }, closure, width, height) else { throw CairoError.noMemory }
        let surface = try Surface(raw: raw, kind: .svg, width: width, height: height, path: path)
        surface.svgSink = sink
        return surface
    }

    /// Decodes a PNG file into an image surface.
    public static func image(readingPNG path: String) throws -> Surface {
        // safe: never NULL (see `image`); an unreadable file is an error surface, checked by Surface.init.
        let raw = cairo_image_surface_create_from_png(path)!
        return try Surface(raw: raw, kind: .image,
                           width: Double(cairo_image_surface_get_width(raw)),
                           height: Double(cairo_image_surface_get_height(raw)), path: path)
    }

    /// A JPEG for PDF (and SVG) output only: its bytes are embedded as they are (DCTDecode), not decoded,
    /// since cairo 1.16 reads no JPEG and petlog links no JPEG decoder. The surface's pixels are a
    /// one-bit placeholder of the image's size; drawn on an image surface it shows nothing. The EXIF
    /// orientation is not applied.
    public static func image(embeddingJPEG path: String) throws -> Surface {
        guard let file = fopen(path, "rb") else { throw CairoError.readError(path: path) }
        defer { fclose(file) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65_536)
        while true {
            let n = fread(&chunk, 1, chunk.count, file)
            if n > 0 { bytes.append(contentsOf: chunk[..<n]) }
            if n < chunk.count { break }
        }
        guard let (width, height) = jpegSize(bytes), width > 0, height > 0, width <= 32767, height <= 32767 else {
            throw CairoError.readError(path: path)
        }
        // safe: never NULL (see `image`); checked by Surface.init.
        let raw = cairo_image_surface_create(CAIRO_FORMAT_A1, Int32(width), Int32(height))!
        let surface = try Surface(raw: raw, kind: .image, width: Double(width), height: Double(height), path: path)
        guard let copy = malloc(bytes.count) else { throw CairoError.noMemory }
        bytes.withUnsafeBytes { if let base = $0.baseAddress { copy.copyMemory(from: base, byteCount: bytes.count) } }
        try check(cairo_surface_set_mime_data(raw, CAIRO_MIME_TYPE_JPEG, copy.assumingMemoryBound(to: UInt8.self),
                                              UInt(bytes.count), free, copy), path: path)
        return surface
    }

    /// Width and height from a JPEG's first start-of-frame marker; nil if none before the scan.
    static func jpegSize(_ bytes: [UInt8]) -> (Int, Int)? {
        guard bytes.count >= 4, bytes[0] == 0xFF, bytes[1] == 0xD8 else { return nil }
        var i = 2
        while i + 4 <= bytes.count {
            guard bytes[i] == 0xFF else { return nil }
            var marker = bytes[i + 1]
            while marker == 0xFF, i + 2 < bytes.count { i += 1; marker = bytes[i + 1] }
            i += 2
            if marker == 0x01 || (0xD0...0xD7).contains(marker) { continue }
            if marker == 0xD9 || marker == 0xDA { return nil }
            guard i + 2 <= bytes.count else { return nil }
            let length = Int(bytes[i]) << 8 | Int(bytes[i + 1])
            guard length >= 2, i + length <= bytes.count else { return nil }
            if (0xC0...0xCF).contains(marker), marker != 0xC4, marker != 0xC8, marker != 0xCC {
                guard length >= 7 else { return nil }
                return (Int(bytes[i + 5]) << 8 | Int(bytes[i + 6]), Int(bytes[i + 3]) << 8 | Int(bytes[i + 4]))
            }
            i += length
        }
        return nil
    }

    /// A copy of an image surface scaled down to fit `maxWidth`×`maxHeight` pixels (never up), drawn
    /// with cairo's good filter: a thumbnail that keeps a PDF small.
    public func thumbnail(maxWidth: Int, maxHeight: Int) throws -> Surface {
        guard kind == .image else { throw CairoError.surfaceTypeMismatch }
        let scale = min(1, Double(maxWidth) / width, Double(maxHeight) / height)
        if scale >= 1 { return self }
        let w = max(1, Int((width * scale).rounded())), h = max(1, Int((height * scale).rounded()))
        let small = try Surface.image(width: w, height: h)
        // safe: cairo_create never returns NULL (errors are checked below).
        let cr = cairo_create(small.raw)!
        defer { cairo_destroy(cr) }
        cairo_scale(cr, Double(w) / width, Double(h) / height)
        cairo_set_source_surface(cr, raw, 0, 0)
        cairo_pattern_set_filter(cairo_get_source(cr), CAIRO_FILTER_GOOD)
        cairo_paint(cr)
        try check(cairo_status(cr))
        cairo_surface_flush(small.raw)
        return small
    }

    /// Writes an image surface as PNG: the pixels cairo's own writer gives, encoded by `PNGEncoder`
    /// (one cheap filter and fast deflate instead of libpng's per-row filter search at level 6, which
    /// was 70 % of a small chart's instructions).
    public func writePNG(to path: String) throws {
        guard kind == .image else { throw CairoError.surfaceTypeMismatch }
        cairo_surface_flush(raw)
        let png = try PNGEncoder.encode(self)
        guard let file = fopen(path, "wb") else { throw errno == ENOMEM ? CairoError.noMemory : CairoError.writeError(path: path) }
        let written = png.withUnsafeBufferPointer { fwrite($0.baseAddress, 1, $0.count, file) }
        let closed = fclose(file)
        guard written == png.count, closed == 0 else { throw CairoError.writeError(path: path) }
    }

    /// Completes a PDF or SVG file and reports any write error that happened while streaming it.
    /// Drawing after this is an error. Idempotent.
    public func finish() throws {
        cairo_surface_finish(raw)
        try check(cairo_surface_status(raw), path: path)
        if let svgSink {
            self.svgSink = nil
            try check(svgSink.write(), path: path)
        }
    }

    /// Pixel size of an image surface.
    public var pixelWidth: Int { Int(cairo_image_surface_get_width(raw)) }
    public var pixelHeight: Int { Int(cairo_image_surface_get_height(raw)) }

    /// The share of pixels (0…1) that differ from `other` by more than `channelTolerance` levels in any
    /// ARGB channel, or nil when the sizes differ: image comparison with room for font rasterisation.
    /// For the golden-image tests (`@testable import Cairo`), not part of the module's API.
    func fractionOfPixelsDiffering(from other: Surface, channelTolerance: UInt32) throws -> Double? {
        guard pixelWidth == other.pixelWidth, pixelHeight == other.pixelHeight else { return nil }
        let pa = try argbPixels(), pb = try other.argbPixels()
        var differing = 0
        for (x, y) in zip(pa, pb) where x != y {
            for shift in stride(from: 0, through: 24, by: 8) {
                let u = (x >> UInt32(shift)) & 0xFF, v = (y >> UInt32(shift)) & 0xFF
                if (u > v ? u - v : v - u) > channelTolerance { differing += 1; break }
            }
        }
        return Double(differing) / Double(max(1, pa.count))
    }

    /// The pixels of an image surface, row by row, as 0xAARRGGBB with alpha forced to 0xFF for
    /// opaque (RGB24) surfaces. Premultiplied, as cairo stores them.
    public func argbPixels() throws -> [UInt32] {
        guard kind == .image else { throw CairoError.surfaceTypeMismatch }
        cairo_surface_flush(raw)
        let w = pixelWidth, h = pixelHeight
        let stride = Int(cairo_image_surface_get_stride(raw))
        let opaque = cairo_image_surface_get_format(raw) == CAIRO_FORMAT_RGB24
        guard let data = cairo_image_surface_get_data(raw) else { throw CairoError.surfaceTypeMismatch }
        var out = [UInt32](repeating: 0, count: w * h)
        for y in 0..<h {
            let row = UnsafeRawPointer(data + y * stride)
            for x in 0..<w {
                let pixel = row.load(fromByteOffset: x * 4, as: UInt32.self)
                out[y * w + x] = opaque ? pixel | 0xFF00_0000 : pixel
            }
        }
        return out
    }
}

/// The bytes of an SVG document on their way to a file opened when the surface was made (so that
/// a bad path fails at once, as with PDF).
final class SVGSink {
    var bytes: [UInt8] = []
    private var file: UnsafeMutablePointer<FILE>?

    init(path: String) throws {
        guard let file = fopen(path, "wb") else { throw CairoError.writeError(path: path) }
        self.file = file
    }

    deinit { if let file { fclose(file) } }

    /// Renumbers the process-wide ids, writes and closes the file.
    func write() -> cairo_status_t {
        guard let file else { return CAIRO_STATUS_WRITE_ERROR }
        self.file = nil
        let output = SVGSink.renumberingIDs(bytes, prefixes: ["surface", "image"])
        let written = output.withUnsafeBufferPointer { fwrite($0.baseAddress, 1, $0.count, file) }
        let closed = fclose(file)
        return written == output.count && closed == 0 ? CAIRO_STATUS_SUCCESS : CAIRO_STATUS_WRITE_ERROR
    }

    /// Replaces each `prefix` + digits token by `prefix` + its rank of first appearance (1, 2, …),
    /// consistently for definitions and references.
    static func renumberingIDs(_ input: [UInt8], prefixes: [String]) -> [UInt8] {
        let words = prefixes.map { Array($0.utf8) }
        var numbering: [[UInt8]: [[UInt8]: Int]] = [:]
        var out: [UInt8] = []
        out.reserveCapacity(input.count)
        var i = 0
        func isDigit(_ b: UInt8) -> Bool { b >= 48 && b <= 57 }
        func isLetter(_ b: UInt8) -> Bool { (b >= 65 && b <= 90) || (b >= 97 && b <= 122) }
        scan: while i < input.count {
            for word in words where input[i] == word[0] && i + word.count < input.count
                && (i == 0 || !isLetter(input[i - 1])) && Array(input[i..<(i + word.count)]) == word {
                var j = i + word.count
                guard isDigit(input[j]) else { continue }
                while j < input.count && isDigit(input[j]) { j += 1 }
                let number = Array(input[(i + word.count)..<j])
                var table = numbering[word, default: [:]]
                let rank = table[number] ?? (table.count + 1)
                table[number] = rank
                numbering[word] = table
                out.append(contentsOf: word)
                out.append(contentsOf: Array(String(rank).utf8))
                i = j
                continue scan
            }
            out.append(input[i])
            i += 1
        }
        return out
    }
}
