import CTesseract
import Foundation

/// The bow of a curled receipt's text lines: a line crossing column x lies `drop(x)` pixels lower than it
/// would on flat paper, `drop(x) = curvature·u² + slope·u` with `u = (x − centre) / halfWidth` (−1 at the
/// left edge, 1 at the right). Measured by `LeptImage.measureCurl` from the text lines' centres
/// (leptonica's `dewarpGetTextlineCenters`), undone by `LeptImage.flattened(_:)` (docs/ocr.md, "Curl").
public struct Curl: Sendable, Equatable {
    /// The quadratic term in pixels: how far the edges lie below the middle (negative: above).
    public var curvature: Double
    /// The linear term in pixels: what is left of a tilt after deskew.
    public var slope: Double
    public var centre: Double
    public var halfWidth: Double
    /// Line pieces the fit used.
    public var lines: Int
    /// Mean distance in pixels of the line centres from the fitted bow (after their own height).
    public var residual: Double

    public init(curvature: Double, slope: Double, centre: Double, halfWidth: Double, lines: Int = 0, residual: Double = 0) {
        self.curvature = curvature
        self.slope = slope
        self.centre = centre
        self.halfWidth = halfWidth
        self.lines = lines
        self.residual = residual
    }

    /// How far down a line is pushed at column `x`.
    public func drop(atColumn x: Double) -> Double {
        let u = (x - centre) / halfWidth
        return curvature * u * u + slope * u
    }

    /// The bow alone, in pixels between the middle and the edges: what decides whether flattening pays.
    public var sag: Double { abs(curvature) }
}

extension LeptImage {
    /// The bow of this image's text lines, or nil when too few lines were found to say. On a 1-bit copy
    /// (Sauvola, as for the text height), leptonica's
    /// `dewarpGetTextlineCenters` traces the middle of each run of text; pieces shorter than `minimumSpan` of
    /// the width are left out (a receipt's label and amount are separate pieces, so leptonica's own page
    /// model, which keeps only lines near the longest one's length, found 4 lines on a curled receipt). Then
    /// one quadratic shared by all pieces, each at its own height: y = c_piece + curvature·u² + slope·u,
    /// least squares with each piece's mean taken out, then once more without the pieces that stray (a piece
    /// joining two lines, a rule). Expects 8-bit gray.
    func measureCurl(minimumSpan: Double = 0.12, minimumLines: Int = 6) -> Curl? {
        var binary: UnsafeMutablePointer<PIX>? = nil
        guard pixSauvolaBinarizeTiled(pointer, 12, 0.34, 1, 1, nil, &binary) == 0, let ink = LeptImage(binary) else { return nil }
        guard let centres = dewarpGetTextlineCenters(ink.pointer, 0) else { return nil }
        var owned: UnsafeMutablePointer<PTAA>? = centres
        defer { ptaaDestroy(&owned) }
        let halfWidth = Double(width) / 2, centre = Double(width) / 2
        var pieces: [[(u: Double, y: Double)]] = []
        for i in 0..<ptaaGetCount(centres) {
            var clone: UnsafeMutablePointer<PTA>? = ptaaGetPta(centres, i, Int32(L_CLONE))
            defer { ptaDestroy(&clone) }
            guard let pta = clone else { continue }
            let n = ptaGetCount(pta)
            guard n > 1 else { continue }
            var points: [(u: Double, y: Double)] = []
            points.reserveCapacity(Int(n) / 2 + 1)
            var minX = Double.infinity, maxX = -Double.infinity
            for j in stride(from: 0, to: n, by: 2) {
                var x: Float = 0, y: Float = 0
                guard ptaGetPt(pta, j, &x, &y) == 0 else { continue }
                points.append(((Double(x) - centre) / halfWidth, Double(y)))
                minX = min(minX, Double(x)); maxX = max(maxX, Double(x))
            }
            if maxX - minX >= minimumSpan * Double(width) { pieces.append(points) }
        }
        guard pieces.count >= minimumLines else { return nil }
        func fit(_ pieces: [[(u: Double, y: Double)]]) -> (a: Double, b: Double, residuals: [Double])? {
            var s11 = 0.0, s12 = 0.0, s22 = 0.0, t1 = 0.0, t2 = 0.0
            var centred: [[(q: Double, u: Double, y: Double)]] = []
            for piece in pieces {
                let n = Double(piece.count)
                let mq = piece.reduce(0) { $0 + $1.u * $1.u } / n, mu = piece.reduce(0) { $0 + $1.u } / n
                let my = piece.reduce(0) { $0 + $1.y } / n
                let c = piece.map { (q: $0.u * $0.u - mq, u: $0.u - mu, y: $0.y - my) }
                for p in c { s11 += p.q * p.q; s12 += p.q * p.u; s22 += p.u * p.u; t1 += p.q * p.y; t2 += p.u * p.y }
                centred.append(c)
            }
            let det = s11 * s22 - s12 * s12
            guard det > 1e-12 else { return nil }
            let a = (t1 * s22 - t2 * s12) / det, b = (s11 * t2 - s12 * t1) / det
            let residuals = centred.map { c in (c.reduce(0) { $0 + abs($1.y - a * $1.q - b * $1.u) } / Double(c.count)) }
            return (a, b, residuals)
        }
        guard let first = fit(pieces) else { return nil }
        let median = first.residuals.sorted()[first.residuals.count / 2]
        let kept = zip(pieces, first.residuals).filter { $0.1 <= max(3 * median, 1) }.map(\.0)
        guard kept.count >= minimumLines, let second = fit(kept) else { return nil }
        let residual = second.residuals.reduce(0, +) / Double(second.residuals.count)
        // The top and bottom halves of the page must each show the bow, the same way and at least half as much
        // (a real curl bends every line; an odd fit from a few short pieces does not hold up in both halves).
        let byHeight = kept.sorted { $0.reduce(0) { $0 + $1.y } / Double($0.count) < $1.reduce(0) { $0 + $1.y } / Double($1.count) }
        let halves = [Array(byHeight[..<(byHeight.count / 2)]), Array(byHeight[(byHeight.count / 2)...])]
        var agreed = second.a
        for half in halves {
            guard half.count >= 3, let f = fit(half), f.a * second.a > 0, abs(f.a) >= abs(second.a) / 2 else { agreed = 0; break }
        }
        return Curl(curvature: agreed, slope: second.b, centre: centre, halfWidth: halfWidth, lines: kept.count, residual: residual)
    }

    /// This image with every column moved up by the curl's drop there (linear between two rows), so the
    /// text lines run straight; the rows brought in at the top or bottom take the gray of the image's edge.
    /// The drop is taken relative to its mean, so the image keeps its size and the text stays in place on
    /// average. Expects 8-bit gray.
    func flattened(_ curl: Curl) -> LeptImage? {
        guard depth == 8, let out = LeptImage(pixCreate(Int32(width), Int32(height), 8)) else { return nil }
        let w = width, h = height
        let fill = edgeGray()
        var drops = (0..<w).map { curl.drop(atColumn: Double($0)) }
        let mean = drops.reduce(0, +) / Double(max(w, 1))
        drops = drops.map { $0 - mean }
        guard let src = pixGetData(pointer), let dst = pixGetData(out.pointer) else { return nil }
        let srcWpl = Int(pixGetWpl(pointer)), dstWpl = Int(pixGetWpl(out.pointer))
        let srcBytes = UnsafeMutableRawPointer(src).assumingMemoryBound(to: UInt8.self)
        let dstBytes = UnsafeMutableRawPointer(dst).assumingMemoryBound(to: UInt8.self)
        // Leptonica keeps 8-bit pixels in 32-bit words, most significant byte first: byte x of a row is at x ^ 3
        // on a little-endian machine.
        let swizzle = UInt32(littleEndian: 1) == 1 ? 3 : 0
        for x in 0..<w {
            let d = drops[x]
            let whole = Int(d.rounded(.down)), frac = d - Double(whole)
            let bx = x ^ swizzle
            for y in 0..<h {
                let y0 = y + whole, y1 = y0 + 1
                let v0 = (y0 >= 0 && y0 < h) ? Double(srcBytes[y0 * srcWpl * 4 + bx]) : Double(fill)
                let v1 = (y1 >= 0 && y1 < h) ? Double(srcBytes[y1 * srcWpl * 4 + bx]) : Double(fill)
                dstBytes[y * dstWpl * 4 + bx] = UInt8(clamping: Int((v0 * (1 - frac) + v1 * frac).rounded()))
            }
        }
        return out
    }

    /// The image with its text lines straightened when they bow by at least `fraction` of a character's height
    /// (`textHeight`, measured here when not given and the bow is at least 6 px), else this image; and the curl
    /// measured (nil: too few lines). The curl is measured on a half-size copy when the characters are at least
    /// 24 px tall (a quarter of the pixels: 20–60 ms on a receipt instead of 30–280). Expects 8-bit gray.
    func flattenedWhenCurled(textHeight knownHeight: Double?, fraction: Double) -> (LeptImage, Curl?) {
        var curl: Curl?
        if let knownHeight, knownHeight >= 24, let half = LeptImage(pixScaleAreaMap2(pointer)), let small = half.measureCurl() {
            curl = Curl(curvature: small.curvature * 2, slope: small.slope * 2, centre: Double(width) / 2, halfWidth: Double(width) / 2,
                        lines: small.lines, residual: small.residual * 2)
        } else {
            curl = measureCurl()
        }
        guard let curl else { return (self, nil) }
        guard curl.sag >= 6, let height = knownHeight ?? textHeight(), curl.sag >= fraction * height,
              let flat = flattened(curl) else { return (self, curl) }
        return (flat, curl)
    }
}
