import CTesseract
import Foundation

/// A leptonica image owned by Swift: destroyed with its last reference.
final class LeptImage {
    let pointer: UnsafeMutablePointer<PIX>

    init?(_ pointer: UnsafeMutablePointer<PIX>?) {
        guard let pointer else { return nil }
        self.pointer = pointer
    }

    deinit {
        var p: UnsafeMutablePointer<PIX>? = pointer
        pixDestroy(&p)
    }

    var width: Int { Int(pixGetWidth(pointer)) }
    var height: Int { Int(pixGetHeight(pointer)) }
    var depth: Int { Int(pixGetDepth(pointer)) }

    /// The file at `path`, checked from its header before decoding: size, format, pixel count.
    static func load(path: String, options: OCROptions) throws -> (image: LeptImage, orientation: ExifOrientation) {
        let (image, orientation, _) = try load(path: path, options: options, halveAbove: nil)
        return (image, orientation)
    }

    /// As `load(path:options:)`; a JPEG of more than `halveAbove` pixels is decoded at half its size by libjpeg
    /// itself (scaling in the inverse DCT: about a quarter of the decoding work), and `reduction` says so (2; else 1).
    static func load(path: String, options: OCROptions, halveAbove: Int?) throws -> (image: LeptImage, orientation: ExifOrientation, reduction: Int) {
        let attributes: [FileAttributeKey: Any]
        do { attributes = try FileManager.default.attributesOfItem(atPath: path) } catch {
            throw FileManager.default.fileExists(atPath: path) ? OCRError.unreadable(path: path) : OCRError.fileNotFound(path: path)
        }
        // Directories, devices and FIFOs are refused before opening: a FIFO would block the open.
        guard attributes[.type] as? FileAttributeType == .typeRegular else { throw OCRError.unreadable(path: path) }
        let size = (attributes[.size] as? NSNumber)?.intValue ?? 0
        guard size <= options.maxFileBytes else { throw OCRError.fileTooLarge(path: path, bytes: size, limit: options.maxFileBytes) }
        guard let handle = FileHandle(forReadingAtPath: path) else { throw OCRError.unreadable(path: path) }
        defer { try? handle.close() }
        let data: Data
        do { data = try handle.read(upToCount: options.maxFileBytes + 1) ?? Data() } catch { throw OCRError.unreadable(path: path) }
        guard !data.isEmpty else { throw OCRError.emptyFile(path: path) }
        guard data.count <= options.maxFileBytes else { throw OCRError.fileTooLarge(path: path, bytes: data.count, limit: options.maxFileBytes) }
        let bytes = [UInt8](data)
        guard let format = ImageFormat.sniff(bytes) else { throw OCRError.notAnImage(path: path) }
        let header = try checkedHeader(bytes, format: format, path: path, maxPixels: options.maxPixels)

        if format == .jpeg, !ImageHeader.jpegIsComplete(bytes) { throw OCRError.corruptImage(path: path) }
        if format == .heif {
            do {
                let image = try HeifImage.decode(bytes)
                let sizes = [(header.width, header.height), (header.height, header.width)]
                guard sizes.contains(where: { $0 == (image.width, image.height) }) else {
                    throw OCRError.undecodableHeif(path: path, detail: "size differs from the header")
                }
                return (image, .up, 1)
            } catch HeifImage.Failure.undecodable(let why) {
                throw OCRError.undecodableHeif(path: path, detail: why)
            }
        }

        let reduction = format == .jpeg && halveAbove.map { header.width * header.height > $0 } == true ? 2 : 1
        let decoded: UnsafeMutablePointer<PIX>? = bytes.withUnsafeBufferPointer { buffer in
            if format == .jpeg {
                // Luminance only: the gray image tesseract wants, without decoding chroma. Corrupt or
                // truncated data fails here (leptonica's default since 1.80).
                var warnings: Int32 = 0
                return pixReadMemJpeg(buffer.baseAddress, buffer.count, 0, Int32(reduction), &warnings, Int32(L_JPEG_READ_LUMINANCE))
            }
            return pixReadMem(buffer.baseAddress, buffer.count)
        }
        guard let image = LeptImage(decoded), image.width == (header.width + reduction - 1) / reduction,
              image.height == (header.height + reduction - 1) / reduction else {
            throw OCRError.corruptImage(path: path)
        }
        return (image, header.orientation, reduction)
    }

    /// The size (and EXIF turn) of an image file's `bytes` in `format`, read from its header before any pixel is
    /// decoded, and checked: a header that cannot be read or says no size is `corruptImage`, a HEIF libheif cannot
    /// read `undecodableHeif`, more than `maxPixels` (or a side longer than that) `tooManyPixels`. A receipt's reading
    /// (`load`) and a thumbnail (`Thumbnail.make`) both start here.
    static func checkedHeader(_ bytes: [UInt8], format: ImageFormat, path: String, maxPixels: Int) throws -> ImageHeader {
        let header: ImageHeader
        switch format {
        case .heif:
            do { header = try HeifImage.header(bytes) ?? ImageHeader(width: 0, height: 0) } catch HeifImage.Failure.undecodable(let why) {
                throw OCRError.undecodableHeif(path: path, detail: why)
            }
        case .jpeg:
            guard let h = ImageHeader.jpeg(bytes) else { throw OCRError.corruptImage(path: path) }
            header = h
        case .png:
            guard let h = ImageHeader.png(bytes) else { throw OCRError.corruptImage(path: path) }
            header = h
        default:
            var fmt: Int32 = 0, w: Int32 = 0, h: Int32 = 0, bps: Int32 = 0, spp: Int32 = 0, cmap: Int32 = 0
            let failed = bytes.withUnsafeBufferPointer { pixReadHeaderMem($0.baseAddress, $0.count, &fmt, &w, &h, &bps, &spp, &cmap) }
            guard failed == 0 else { throw OCRError.corruptImage(path: path) }
            header = ImageHeader(width: Int(w), height: Int(h))
        }
        guard header.width > 0, header.height > 0 else { throw OCRError.corruptImage(path: path) }
        guard header.width.multipliedReportingOverflow(by: header.height).partialValue <= maxPixels,
              header.width <= maxPixels, header.height <= maxPixels
        else { throw OCRError.tooManyPixels(path: path, width: header.width, height: header.height, limit: maxPixels) }
        return header
    }

    /// This image turned upright as its EXIF orientation asks.
    func oriented(_ orientation: ExifOrientation) throws -> LeptImage {
        func made(_ p: UnsafeMutablePointer<PIX>?) throws -> LeptImage {
            guard let image = LeptImage(p) else { throw OCRError.engineFailure("could not turn the image") }
            return image
        }
        switch orientation {
        case .up: return self
        case .mirrored: return try made(pixFlipLR(nil, pointer))
        case .upsideDown: return try made(pixRotateOrth(pointer, 2))
        case .upsideDownMirrored: return try made(pixFlipTB(nil, pointer))
        case .leftMirrored: return try made(pixFlipLR(nil, try made(pixRotateOrth(pointer, 1)).pointer))
        case .right: return try made(pixRotateOrth(pointer, 1))
        case .rightMirrored: return try made(pixFlipTB(nil, try made(pixRotateOrth(pointer, 1)).pointer))
        case .left: return try made(pixRotateOrth(pointer, 3))
        }
    }

    /// 8-bit gray without a colormap (a no-op for JPEGs, read as luminance).
    func gray() throws -> LeptImage {
        if depth == 8 && pixGetColormap(pointer) == nil { return self }
        guard let image = LeptImage(pixConvertTo8(pointer, 0)) else { throw OCRError.engineFailure("could not convert to gray") }
        return image
    }

    /// The image turned so its text lines run level, and the angle in degrees (0 when none was found).
    /// Leptonica's skew search (on a 1-bit copy, at reduced scale, ±12°) with its own limits (confidence 3,
    /// at least 0.1°). The corners the turn uncovers are filled with the gray of the image's edge, not
    /// white: white wedges on a photo's dark table read as junk lines (docs/ocr.md). Expects 8-bit gray.
    func deskewed() -> (LeptImage, Double) {
        guard let binary = LeptImage(pixConvertTo1(pointer, 130)) else { return (self, 0) }
        var angle: Float = 0, confidence: Float = 0
        // Leptonica's defaults but the sweep: ±12° instead of ±7° (a phone held at an angle turns the page
        // further; issue 45's photos up to 12°, whose lines tesseract then read across two rows).
        guard pixFindSkewSweepAndSearch(binary.pointer, &angle, &confidence, 4, 2, 12, 1, 0.01) == 0, confidence >= 3,
              abs(angle) >= 0.1 else { return (self, 0) }
        guard let image = LeptImage(pixRotateAMGray(pointer, angle * .pi / 180, edgeGray())) else { return (self, 0) }
        return (image, Double(angle))
    }

    /// A copy with its gray levels stretched linearly so the darkest 1 % become black and the lightest
    /// 1 % white (a faded or low-contrast receipt); this image when it already spans the range. Expects 8-bit gray.
    func contrastStretched() -> LeptImage {
        var owned: UnsafeMutablePointer<NUMA>? = pixGetGrayHistogram(pointer, max(1, Int32((width * height / 1_000_000).squareRootRounded)))
        defer { numaDestroy(&owned) }
        guard let histogram = owned else { return self }
        var counts = [Int](repeating: 0, count: 256)
        for i in 0..<min(256, Int(numaGetCount(histogram))) {
            var v: Int32 = 0
            _ = numaGetIValue(histogram, Int32(i), &v)
            counts[i] = Int(v)
        }
        let total = counts.reduce(0, +), cut = total / 100
        guard total > 0 else { return self }
        var low = 0, seen = 0
        while low < 255, seen + counts[low] <= cut { seen += counts[low]; low += 1 }
        var high = 255
        seen = 0
        while high > low, seen + counts[high] <= cut { seen += counts[high]; high -= 1 }
        guard high - low >= 8, low > 0 || high < 255 else { return self }
        return LeptImage(pixGammaTRC(nil, pointer, 1.0, Int32(low), Int32(high))) ?? self
    }

    /// A copy with the paper's uneven light (a shadow, light falling off, yellowed paper) evened out and the ink
    /// stretched to black: leptonica's background normalization (the local background brought to one gray in
    /// tiles), then the 1 % stretch. Expects 8-bit gray.
    func backgroundNormalized() -> LeptImage {
        guard let flat = LeptImage(pixBackgroundNormSimple(pointer, nil, nil)) else { return self }
        return flat.contrastStretched()
    }

    /// The mean gray of the outermost pixels, about 256 of them sampled round the frame.
    func edgeGray() -> UInt8 {
        var sum = 0, count = 0, value: UInt32 = 0
        func sample(_ x: Int, _ y: Int) {
            if pixGetPixel(pointer, Int32(x), Int32(y), &value) == 0 { sum += Int(value); count += 1 }
        }
        for x in stride(from: 0, to: width, by: max(1, width / 64)) { sample(x, 0); sample(x, height - 1) }
        for y in stride(from: 0, to: height, by: max(1, height / 64)) { sample(0, y); sample(width - 1, y) }
        return count == 0 ? 255 : UInt8(clamping: sum / count)
    }

    /// A 1-bit image thresholded locally, or this image when leptonica declines.
    func binarized(_ method: OCROptions.Binarization) -> LeptImage {
        var out: UnsafeMutablePointer<PIX>? = nil
        switch method {
        case .none: return self
        case .otsuAdaptive: _ = pixOtsuAdaptiveThreshold(pointer, 300, 300, 1, 1, 0.1, nil, &out)
        case .sauvola: _ = pixSauvolaBinarizeTiled(pointer, 25, 0.35, 1, 1, nil, &out)
        }
        return LeptImage(out) ?? self
    }
}

private extension Int {
    /// The integer square root, rounded (for a sampling step).
    var squareRootRounded: Int { Int(Double(self).squareRoot().rounded()) }
}

extension LeptImage {
    /// The typical height in pixels of this image's characters, or nil when too few were found to say.
    /// Measured on a copy reduced to at most `analysisPixels` (halving: 2×2 area means), thresholded
    /// locally (Sauvola, so a shadow or uneven light leaves the ink black and the paper white): the
    /// connected components of character size and shape are kept and the height at their 75th percentile is
    /// taken (a Korean syllable or Japanese kanji falls apart into smaller parts; the tall parts give
    /// the line's height), scaled back to this image. Expects 8-bit gray.
    func textHeight(analysisPixels: Int = 2_500_000) -> Double? {
        var reduced: LeptImage = self
        var factor = 1
        while reduced.width * reduced.height > analysisPixels, let half = LeptImage(pixScaleAreaMap2(reduced.pointer)) {
            reduced = half
            factor *= 2
        }
        var binary: UnsafeMutablePointer<PIX>? = nil
        guard pixSauvolaBinarizeTiled(reduced.pointer, 12, 0.34, 1, 1, nil, &binary) == 0, let ink = LeptImage(binary) else { return nil }
        guard let boxes = pixConnCompBB(ink.pointer, 8) else { return nil }
        var owned: UnsafeMutablePointer<BOXA>? = boxes
        defer { boxaDestroy(&owned) }
        let w = reduced.width, h = reduced.height
        var heights: [Int] = []
        for i in 0..<boxaGetCount(boxes) {
            var x: Int32 = 0, y: Int32 = 0, bw: Int32 = 0, bh: Int32 = 0
            guard boxaGetBoxGeometry(boxes, i, &x, &y, &bw, &bh) == 0 else { continue }
            // A character: at least 5 px tall, not a rule or a frame (at most 1/10 of the image tall,
            // 1/4 wide), not much wider than tall (a run of dashes, a table's edge).
            guard bh >= 5, Int(bh) <= h / 10, Int(bw) <= w / 4, bw <= 3 * bh else { continue }
            heights.append(Int(bh))
        }
        guard heights.count >= 20 else { return nil }
        heights.sort()
        return Double(heights[heights.count * 3 / 4] * factor)
    }

    /// This image scaled by `factor` (area mapping when smaller, so thin strokes stay gray, not gone).
    func scaled(by factor: Double) -> LeptImage? {
        if factor < 1 { return LeptImage(pixScaleAreaMap(pointer, Float(factor), Float(factor))) }
        return LeptImage(pixScale(pointer, Float(factor), Float(factor)))
    }
}

extension LeptImage {
    /// The paper in a photo: the box (in this image's pixels) of the bright region a receipt makes on a darker
    /// table or hand, or nil when there is no such region to cut to (a scan, a receipt filling the frame, no
    /// clear light/dark split, a box covering most of the image anyway). Measured on a copy reduced to at most
    /// `analysisPixels`: Otsu's threshold over the gray histogram splits paper from table; the largest bright
    /// connected component, joined with the bright parts that touch its box (a shadow across the paper splits
    /// it), widened by 2 % each side. Refused when the dark characters found in the whole image (Sauvola, as
    /// for the text height) lie outside the box more than 1 in 20: the cut must not lose text. Expects 8-bit gray.
    func paperBox(analysisPixels: Int = 400_000) -> (x: Int, y: Int, width: Int, height: Int)? {
        paper(analysisPixels: analysisPixels)?.box
    }

    /// A point in an image's pixels.
    typealias Point = (x: Double, y: Double)

    /// The paper's box as `paperBox` finds it and, when the paper's outline is a clean quadrilateral, its four corners
    /// (top left, top right, bottom right, bottom left, in this image's pixels; `paperCorners`).
    func paper(analysisPixels: Int = 400_000) -> (box: (x: Int, y: Int, width: Int, height: Int), corners: [Point]?)? {
        var reduced: LeptImage = self
        var factor = 1
        while reduced.width * reduced.height > analysisPixels, let half = LeptImage(pixScaleAreaMap2(reduced.pointer)) {
            reduced = half
            factor *= 2
        }
        let w = reduced.width, h = reduced.height
        // Otsu on the histogram.
        var owned: UnsafeMutablePointer<NUMA>? = pixGetGrayHistogram(reduced.pointer, 1)
        defer { numaDestroy(&owned) }
        guard let histogram = owned else { return nil }
        var counts = [Double](repeating: 0, count: 256)
        for i in 0..<min(256, Int(numaGetCount(histogram))) {
            var v: Int32 = 0
            _ = numaGetIValue(histogram, Int32(i), &v)
            counts[i] = Double(v)
        }
        let total = counts.reduce(0, +)
        guard total > 0 else { return nil }
        let sumAll = counts.enumerated().reduce(0.0) { $0 + Double($1.offset) * $1.element }
        var best = 0.0, threshold = 0, weightDark = 0.0, sumDark = 0.0
        for t in 0..<255 {
            weightDark += counts[t]
            sumDark += Double(t) * counts[t]
            let weightBright = total - weightDark
            guard weightDark > 0, weightBright > 0 else { continue }
            let between = weightDark * weightBright * pow(sumDark / weightDark - (sumAll - sumDark) / weightBright, 2)
            if between > best { best = between; threshold = t }
        }
        let dark = counts[0...threshold].reduce(0, +)
        let meanDark = counts[0...threshold].enumerated().reduce(0.0) { $0 + Double($1.offset) * $1.element } / max(dark, 1)
        let meanBright = (sumAll - meanDark * dark) / max(total - dark, 1)
        // A clear split, and a table that is a real part of the frame (ink alone is a few per cent).
        guard meanBright - meanDark >= 50, dark / total >= 0.15, dark / total <= 0.9 else { return nil }
        guard let darkMask = LeptImage(pixThresholdToBinary(reduced.pointer, Int32(threshold + 1))),
              let bright = LeptImage(pixInvert(nil, darkMask.pointer)),
              let boxes = pixConnCompBB(bright.pointer, 8) else { return nil }
        var ownedBoxes: UnsafeMutablePointer<BOXA>? = boxes
        defer { boxaDestroy(&ownedBoxes) }
        var all: [(x: Int, y: Int, w: Int, h: Int)] = []
        for i in 0..<boxaGetCount(boxes) {
            var x: Int32 = 0, y: Int32 = 0, bw: Int32 = 0, bh: Int32 = 0
            if boxaGetBoxGeometry(boxes, i, &x, &y, &bw, &bh) == 0 { all.append((Int(x), Int(y), Int(bw), Int(bh))) }
        }
        guard var box = all.max(by: { $0.w * $0.h < $1.w * $1.h }), box.w * box.h >= w * h / 20 else { return nil }
        // Bright parts of some size that overlap the box join it (the paper beyond a shadow's edge).
        var grew = true
        while grew {
            grew = false
            for b in all where b.w * b.h >= w * h / 200 {
                let overlaps = b.x < box.x + box.w && box.x < b.x + b.w && b.y < box.y + box.h && box.y < b.y + b.h
                let inside = b.x >= box.x && b.y >= box.y && b.x + b.w <= box.x + box.w && b.y + b.h <= box.y + box.h
                if overlaps && !inside {
                    let x0 = min(box.x, b.x), y0 = min(box.y, b.y)
                    box = (x0, y0, max(box.x + box.w, b.x + b.w) - x0, max(box.y + box.h, b.y + b.h) - y0)
                    grew = true
                }
            }
        }
        let mx = max(2, w / 50), my = max(2, h / 50)
        let x0 = max(0, box.x - mx), y0 = max(0, box.y - my)
        let x1 = min(w, box.x + box.w + mx), y1 = min(h, box.y + box.h + my)
        guard (x1 - x0) * (y1 - y0) <= w * h * 85 / 100 else { return nil }
        // The characters must be inside.
        var binary: UnsafeMutablePointer<PIX>? = nil
        if pixSauvolaBinarizeTiled(reduced.pointer, 12, 0.34, 1, 1, nil, &binary) == 0, let ink = LeptImage(binary),
           let marks = pixConnCompBB(ink.pointer, 8) {
            var ownedMarks: UnsafeMutablePointer<BOXA>? = marks
            defer { boxaDestroy(&ownedMarks) }
            var outside = 0, characters = 0
            for i in 0..<boxaGetCount(marks) {
                var x: Int32 = 0, y: Int32 = 0, bw: Int32 = 0, bh: Int32 = 0
                guard boxaGetBoxGeometry(marks, i, &x, &y, &bw, &bh) == 0, bh >= 4, Int(bh) <= h / 10, bw <= 3 * bh else { continue }
                characters += 1
                let cx = Int(x) + Int(bw) / 2, cy = Int(y) + Int(bh) / 2
                if cx < x0 || cx >= x1 || cy < y0 || cy >= y1 { outside += 1 }
            }
            guard outside * 20 <= characters else { return nil }
        }
        let corners = Self.paperCorners(bright, within: box).map { $0.map { (x: ($0.x + 0.5) * Double(factor), y: ($0.y + 0.5) * Double(factor)) } }
        return ((x0 * factor, y0 * factor, min(width, (x1 - x0) * factor), min(height, (y1 - y0) * factor)), corners)
    }

    /// The corners of the bright region (the paper) in the 1-bit `mask` within `box`: specks opened away, then row by row
    /// the first and last bright pixel; the corners are the extremes of those ends along the diagonals (top left: least
    /// x + y; top right: most x − y; bottom right: most x + y; bottom left: least x − y), right for a quadrilateral turned
    /// less than 45°. nil unless the region is that quadrilateral: its rows' spans must fill the quadrilateral's area
    /// within 4 % (a shadow or hand over a corner, a receipt curled up at one end, the table joined in: not one), its
    /// angles 90° ± 25° and its sides at least a fifth of the box.
    static func paperCorners(_ mask: LeptImage, within box: (x: Int, y: Int, w: Int, h: Int)) -> [Point]? {
        guard box.w >= 20, box.h >= 20, let open = LeptImage(pixOpenBrick(nil, mask.pointer, 5, 5)) else { return nil }
        let words = Int(pixGetWpl(open.pointer))
        guard let data = pixGetData(open.pointer) else { return nil }
        func bright(_ x: Int, _ y: Int) -> Bool { (data[y * words + (x >> 5)] >> (31 - UInt32(x & 31))) & 1 == 1 }
        var area = 0.0
        var tl: Point = (0, 0), tr: Point = (0, 0), br: Point = (0, 0), bl: Point = (0, 0)
        var best = (tl: Double.infinity, tr: -Double.infinity, br: -Double.infinity, bl: Double.infinity)
        var rows = 0
        for y in box.y..<min(open.height, box.y + box.h) {
            let x1 = min(open.width, box.x + box.w)
            guard let a = (box.x..<x1).first(where: { bright($0, y) }), let b = (a..<x1).reversed().first(where: { bright($0, y) }) else { continue }
            rows += 1
            area += Double(b - a + 1)
            let (ax, bx, fy) = (Double(a), Double(b), Double(y))
            if ax + fy < best.tl { best.tl = ax + fy; tl = (ax, fy) }
            if ax - fy < best.bl { best.bl = ax - fy; bl = (ax, fy) }
            if bx - fy > best.tr { best.tr = bx - fy; tr = (bx, fy) }
            if bx + fy > best.br { best.br = bx + fy; br = (bx, fy) }
        }
        guard rows >= box.h / 2 else { return nil }
        let corners = [tl, tr, br, bl]
        var twice = 0.0
        for i in 0..<4 { let p = corners[i], q = corners[(i + 1) % 4]; twice += p.x * q.y - q.x * p.y }
        let quad = abs(twice) / 2
        guard quad > 0, abs(area - quad) <= 0.04 * quad else { return nil }
        for i in 0..<4 {
            let p = corners[(i + 3) % 4], c = corners[i], n = corners[(i + 1) % 4]
            let u = (p.x - c.x, p.y - c.y), v = (n.x - c.x, n.y - c.y)
            let lu = (u.0 * u.0 + u.1 * u.1).squareRoot(), lv = (v.0 * v.0 + v.1 * v.1).squareRoot()
            guard lu >= Double(min(box.w, box.h)) / 5, lv >= Double(min(box.w, box.h)) / 5 else { return nil }
            let angle = acos(max(-1, min(1, (u.0 * v.0 + u.1 * v.1) / (lu * lv)))) * 180 / .pi
            guard abs(angle - 90) <= 25 else { return nil }
        }
        return corners
    }

    /// The quadrilateral `corners` (top left, top right, bottom right, bottom left, in this image's pixels) warped to an
    /// upright rectangle as long and wide as its longer sides, with `margin` of it (a fraction) kept round it: leptonica's
    /// projective warp, interpolated, the parts brought in from beyond the image filled with the edge's gray. Smaller
    /// when that rectangle would not fit in this image's size. Expects 8-bit gray.
    func unwarped(_ corners: [Point], margin: Double = 0.015) -> LeptImage? {
        guard corners.count == 4 else { return nil }
        func length(_ p: Point, _ q: Point) -> Double { ((p.x - q.x) * (p.x - q.x) + (p.y - q.y) * (p.y - q.y)).squareRoot() }
        let w = max(length(corners[0], corners[1]), length(corners[3], corners[2]))
        let h = max(length(corners[0], corners[3]), length(corners[1], corners[2]))
        let m = margin * max(w, h)
        let s = min(1, Double(width) / (w + 2 * m), Double(height) / (h + 2 * m))
        let (rw, rh, rm) = (w * s, h * s, m * s)
        let target: [Point] = [(rm, rm), (rm + rw, rm), (rm + rw, rm + rh), (rm, rm + rh)]
        guard let source = ptaCreate(4), let destination = ptaCreate(4) else { return nil }
        var ownedSource: UnsafeMutablePointer<PTA>? = source, ownedDestination: UnsafeMutablePointer<PTA>? = destination
        defer { ptaDestroy(&ownedSource); ptaDestroy(&ownedDestination) }
        for (c, t) in zip(corners, target) {
            ptaAddPt(source, Float(c.x), Float(c.y))
            ptaAddPt(destination, Float(t.x), Float(t.y))
        }
        guard let warped = LeptImage(pixProjectivePtaGray(pointer, destination, source, edgeGray())) else { return nil }
        return warped.cropped((0, 0, min(width, Int((rw + 2 * rm).rounded())), min(height, Int((rh + 2 * rm).rounded()))))
    }

    /// The part of this image inside `box`.
    func cropped(_ box: (x: Int, y: Int, width: Int, height: Int)) -> LeptImage? {
        guard let b = boxCreate(Int32(box.x), Int32(box.y), Int32(box.width), Int32(box.height)) else { return nil }
        var owned: UnsafeMutablePointer<BOX>? = b
        defer { boxDestroy(&owned) }
        return LeptImage(pixClipRectangle(pointer, b, nil))
    }
}
