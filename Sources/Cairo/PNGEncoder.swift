import CCairo

/// PNG files of image surfaces with the pixels `cairo_surface_write_to_png` writes (8-bit RGB for
/// RGB24 surfaces, 8-bit RGBA with alpha unpremultiplied as cairo does for ARGB32, a white bKGD),
/// encoded for speed: every row with the Up filter (charts are mostly runs that repeat the row
/// above) and zlib at its fastest level. libpng as cairo drives it tries every filter on every row
/// and deflates at level 6: 70 % of the instructions of a 1,000-point chart. Files come out about a
/// quarter bigger; decoded, they are the same image.
enum PNGEncoder {
    static func encode(_ surface: Surface) throws -> [UInt8] {
        guard surface.kind == .image else { throw CairoError.surfaceTypeMismatch }
        let raw = surface.raw
        let format = cairo_image_surface_get_format(raw)
        guard format == CAIRO_FORMAT_RGB24 || format == CAIRO_FORMAT_ARGB32 else { throw CairoError.surfaceTypeMismatch }
        let opaque = format == CAIRO_FORMAT_RGB24
        let w = Int(cairo_image_surface_get_width(raw)), h = Int(cairo_image_surface_get_height(raw))
        let stride = Int(cairo_image_surface_get_stride(raw))
        guard let data = cairo_image_surface_get_data(raw) else { throw CairoError.surfaceTypeMismatch }
        let channels = opaque ? 3 : 4
        let rowBytes = w * channels

        // Each scanline filtered (a filter byte, 2 = Up, then each byte less the one above it) and deflated
        // as it is made: no copy of the whole image beside the surface (a 1600×900 chart would hold two more).
        var stream = z_stream()
        guard deflateInit_(&stream, Z_BEST_SPEED, zlibVersion(), Int32(MemoryLayout<z_stream>.size)) == Z_OK else { throw CairoError.noMemory }
        defer { deflateEnd(&stream) }
        var compressed: [UInt8] = []
        var outBuffer = [UInt8](repeating: 0, count: 1 << 16)
        func deflateRow(_ input: UnsafeMutableBufferPointer<UInt8>?, finish: Bool) throws {
            stream.next_in = input?.baseAddress
            stream.avail_in = uInt(input?.count ?? 0)
            while true {
                let (status, produced) = outBuffer.withUnsafeMutableBufferPointer { out -> (Int32, Int) in
                    stream.next_out = out.baseAddress
                    stream.avail_out = uInt(out.count)
                    let status = deflate(&stream, finish ? Z_FINISH : Z_NO_FLUSH)
                    return (status, out.count - Int(stream.avail_out))
                }
                guard status == Z_OK || status == Z_STREAM_END || status == Z_BUF_ERROR else {
                    throw status == Z_MEM_ERROR ? CairoError.noMemory : CairoError.other(code: Int(status), message: "zlib")
                }
                compressed.append(contentsOf: outBuffer[0..<produced])
                if finish ? status == Z_STREAM_END : stream.avail_out > 0 { return }
            }
        }
        var previous = [UInt8](repeating: 0, count: rowBytes)
        var current = [UInt8](repeating: 0, count: rowBytes)
        var line = [UInt8](repeating: 2, count: rowBytes + 1)
        for y in 0..<h {
            let pixels = UnsafeRawPointer(data + y * stride).assumingMemoryBound(to: UInt32.self)
            current.withUnsafeMutableBufferPointer { row in
                if opaque {
                    for x in 0..<w {
                        let p = pixels[x]
                        row[3 * x] = UInt8(truncatingIfNeeded: p >> 16)
                        row[3 * x + 1] = UInt8(truncatingIfNeeded: p >> 8)
                        row[3 * x + 2] = UInt8(truncatingIfNeeded: p)
                    }
                } else {
                    for x in 0..<w {
                        let p = pixels[x]
                        let alpha = p >> 24
                        if alpha == 0 {
                            row[4 * x] = 0; row[4 * x + 1] = 0; row[4 * x + 2] = 0; row[4 * x + 3] = 0
                        } else {
                            // cairo's unpremultiply_data, rounding as it does.
                            row[4 * x] = UInt8(truncatingIfNeeded: (((p >> 16) & 0xFF) * 255 + alpha / 2) / alpha)
                            row[4 * x + 1] = UInt8(truncatingIfNeeded: (((p >> 8) & 0xFF) * 255 + alpha / 2) / alpha)
                            row[4 * x + 2] = UInt8(truncatingIfNeeded: ((p & 0xFF) * 255 + alpha / 2) / alpha)
                            row[4 * x + 3] = UInt8(truncatingIfNeeded: alpha)
                        }
                    }
                }
                line.withUnsafeMutableBufferPointer { out in
                    previous.withUnsafeBufferPointer { above in
                        for i in 0..<rowBytes { out[1 + i] = row[i] &- above[i] }
                    }
                }
            }
            try line.withUnsafeMutableBufferPointer { try deflateRow($0, finish: false) }
            swap(&previous, &current)
        }
        try deflateRow(nil, finish: true)

        var png: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
        png.reserveCapacity(compressed.count + 128)
        var header: [UInt8] = []
        appendBigEndian(UInt32(w), to: &header)
        appendBigEndian(UInt32(h), to: &header)
        header += [8, opaque ? 2 : 6, 0, 0, 0]  // depth, colour type, deflate, adaptive filtering, no interlace
        chunk("IHDR", header, into: &png)
        chunk("bKGD", [0, 0xFF, 0, 0xFF, 0, 0xFF], into: &png)  // white, as cairo sets it
        chunk("IDAT", compressed, into: &png)
        chunk("IEND", [], into: &png)
        return png
    }

    private static func appendBigEndian(_ v: UInt32, to out: inout [UInt8]) {
        out += [UInt8(truncatingIfNeeded: v >> 24), UInt8(truncatingIfNeeded: v >> 16), UInt8(truncatingIfNeeded: v >> 8), UInt8(truncatingIfNeeded: v)]
    }

    private static func chunk(_ type: String, _ body: [UInt8], into out: inout [UInt8]) {
        appendBigEndian(UInt32(body.count), to: &out)
        let typed = Array(type.utf8) + body
        out += typed
        let crc = typed.withUnsafeBufferPointer { crc32(0, $0.baseAddress, uInt($0.count)) }
        appendBigEndian(UInt32(truncatingIfNeeded: crc), to: &out)
    }
}
