import Cairo
import Foundation
import QRCode

/// Sizes of the ID-1 card (ISO/IEC 7810: 85.6 × 54 mm, corners of 3.18 mm), in points.
enum CardGeometry {
    static let pointsPerMM = 72.0 / 25.4
    static func mm(_ v: Double) -> Double { v * pointsPerMM }
    static let width = mm(85.6)
    static let height = mm(54)
    static let cornerRadius = mm(3.18)
    static let margin = mm(3.5)
    /// The QR code's square, quiet zone included, at the right of the back, as long as its modules are at
    /// least `preferredModule` in it; a larger symbol grows the square (up to the back's height) and then
    /// makes its modules smaller, down to `minimumModule`.
    static let qrSide = mm(32)
    /// A module that reads easily from a printed card with a phone.
    static let preferredModule = mm(0.4)
    /// The smallest module the card prints: four pixels of a 300 dpi print (zbarimg reads a page rendered
    /// at 300 dpi with `pdftoppm` down to about three; see docs/card.md, "Measured").
    static let minimumModule = mm(25.4 * 4 / 300)
    /// The front's and back's bands.
    static let frontBand = mm(12.5)
    static let backBand = mm(8)
    /// Type sizes of the values, largest first, down to the legible floor; a label is `labelRatio` of its value.
    static let frontSizes: [Double] = [7.4, 7.0, 6.6, 6.2, 5.8, 5.5]
    static let backSizes: [Double] = [6.6, 6.2, 5.8, 5.5]
    static let labelRatio = 0.78
    static let minimumLabelSize = 4.5
    static let captionSize = 4.6
    /// PNG resolution.
    static let pngDPI = 300.0
    /// White space between the two sides in a PNG, in points.
    static let pngGap = mm(4)
}

/// What `CardRenderer` made.
public struct CardSummary: Sendable, Equatable {
    /// Cards drawn per side (1, or the sheet's count).
    public let copies: Int
    /// The QR symbol's version (1…40), modules a side, and one module's size in millimetres.
    public let qrVersion: Int
    public let qrModules: Int
    public let moduleMM: Double
}

/// Where the card goes: one card (PDF of two card-size pages, or a PNG of both sides), or a sheet
/// of cards with cut marks (PDF: fronts on page 1, backs on page 2, for duplex printing).
public enum CardLayout: Sendable, Equatable {
    case single
    case sheet(Paper)
}

/// Draws an `EmergencyCard` with cairo and Pango; deterministic (same card, same bytes).
public enum CardRenderer {
    public enum Format: Sendable { case pdf, png }

    /// Writes the card to `path` with permissions `permissions` (0600: health facts are private);
    /// on a failure what was written there is removed.
    @discardableResult
    public static func render(_ card: EmergencyCard, layout: CardLayout, format: Format, to path: String,
                              permissions: Int = 0o600) throws -> CardSummary {
        do {
            let summary = try write(card, layout: layout, format: format, to: path)
            guard chmod(path, mode_t(permissions)) == 0 else { throw CairoError.writeError(path: path) }
            return summary
        } catch {
            unlink(path)
            throw error
        }
    }

    /// Checks that the card holds all its facts (every row on the front or the back in type no smaller than
    /// the floor, the whole QR text in a symbol that scans from print) without writing anything.
    public static func fit(_ card: EmergencyCard) throws {
        _ = try CardPlan(card, context: try CardPlan.measuringContext(card))
    }

    private static func write(_ card: EmergencyCard, layout: CardLayout, format: Format, to path: String) throws -> CardSummary {
        let W = CardGeometry.width, H = CardGeometry.height
        // Measured on a context of its own (a refused card writes nothing), then drawn on the file's.
        let plan = try CardPlan(card, context: try CardPlan.measuringContext(card))
        let qr = plan.qr
        let module = plan.qrSide / Double(qr.size + 2 * QRCode.quietZone)
        var copies = 1
        switch (layout, format) {
        case (.single, .pdf):
            let surface = try Surface.pdf(path: path, width: W, height: H, title: card.name)
            let context = try Context(surface)
            context.roundsGlyphPositions = false
            context.setTextLanguage(card.language)
            let painter = CardPainter(card: card, plan: plan, context: context)
            painter.drawFront(x: 0, y: 0)
            context.showPage()
            painter.drawBack(x: 0, y: 0)
            context.showPage()
            try context.checkStatus()
            try surface.finish()
        case (.single, .png):
            let scale = CardGeometry.pngDPI / 72
            let pageW = W, pageH = 2 * H + CardGeometry.pngGap
            let surface = try Surface.image(width: Int((pageW * scale).rounded()), height: Int((pageH * scale).rounded()), opaque: true)
            let context = try Context(surface)
            context.roundsGlyphPositions = false
            context.setTextLanguage(card.language)
            context.scale(x: scale, y: scale)
            context.setSource(.white)
            context.paint()
            let painter = CardPainter(card: card, plan: plan, context: context)
            painter.drawFront(x: 0, y: 0)
            painter.outline(x: 0, y: 0)
            painter.drawBack(x: 0, y: H + CardGeometry.pngGap)
            painter.outline(x: 0, y: H + CardGeometry.pngGap)
            try context.checkStatus()
            try surface.writePNG(to: path)
        case (.sheet(let paper), .pdf):
            let (pw, ph) = paper.size
            let edge = CardGeometry.mm(10)
            let columns = max(1, Int(((pw - 2 * edge) / W).rounded(.down)))
            let rows = max(1, Int(((ph - 2 * edge) / H).rounded(.down)))
            copies = columns * rows
            let x0 = (pw - Double(columns) * W) / 2, y0 = (ph - Double(rows) * H) / 2
            let surface = try Surface.pdf(path: path, width: pw, height: ph, title: card.name)
            let context = try Context(surface)
            context.roundsGlyphPositions = false
            context.setTextLanguage(card.language)
            let painter = CardPainter(card: card, plan: plan, context: context)
            for back in [false, true] {
                for r in 0..<rows {
                    for c in 0..<columns {
                        // Long-edge duplex flips the sheet left to right: the back of column c prints
                        // behind column (columns - 1 - c). The grid is centred, so the places coincide.
                        let column = back ? columns - 1 - c : c
                        let x = x0 + Double(column) * W, y = y0 + Double(r) * H
                        if back { painter.drawBack(x: x, y: y) } else { painter.drawFront(x: x, y: y) }
                    }
                }
                CardPainter.cutMarks(context: context, x0: x0, y0: y0, columns: columns, rows: rows)
                context.showPage()
            }
            try context.checkStatus()
            try surface.finish()
        case (.sheet, .png):
            throw ReportError.cardLayout("a sheet of cards is a PDF")
        }
        return CardSummary(copies: copies, qrVersion: qr.version, qrModules: qr.size, moduleMM: module / CardGeometry.pointsPerMM)
    }
}

/// Where everything goes on the card: the rows of each side in their type size (the largest that holds
/// them, down to the floor; what the front cannot hold continues on the back, a list item by item) and the
/// QR symbol in its square. Throws `CardOverflow` when even that cannot hold every fact.
struct CardPlan {
    var front: [EmergencyCard.Row]
    var frontSize: Double
    var frontLabelWidth: Double
    var back: [EmergencyCard.Row]
    var backSize: Double
    var qr: QRCode
    var qrSide: Double

    static func mm(_ v: Double) -> Double { CardGeometry.mm(v) }
    static let frontGap = mm(1.0), backGap = mm(1.2)
    static var frontTop: Double { CardGeometry.frontBand + mm(2.2) }
    static var backTop: Double { CardGeometry.backBand + mm(2) }
    static var bottom: Double { CardGeometry.height - CardGeometry.margin + mm(1) }
    static var frontWidth: Double { CardGeometry.width - 2 * CardGeometry.margin }
    /// The narrowest the back's text column gets when the QR square grows.
    static let minimumBackColumn = mm(30)

    /// A context to measure the card's text on, set as the file's will be (language, unrounded glyph positions).
    static func measuringContext(_ card: EmergencyCard) throws -> Context {
        let context = try Context(try Surface.image(width: 8, height: 8))
        context.roundsGlyphPositions = false
        context.setTextLanguage(card.language)
        return context
    }

    static func labelSize(_ valueSize: Double) -> Double { max(CardGeometry.minimumLabelSize, valueSize * CardGeometry.labelRatio) }

    init(_ card: EmergencyCard, context: Context) throws {
        let type = CardType(context: context)
        // The front: the largest size that holds every row; else the floor, the rest continued on the back.
        var overflow: [EmergencyCard.Row] = []
        var chosen: (rows: [EmergencyCard.Row], size: Double, labelWidth: Double)?
        for size in CardGeometry.frontSizes {
            let labelWidth = type.besideLabelWidth(card.front.map(\.label), valueSize: size)
            let (placed, rest) = Self.fill(card.front, available: Self.bottom - Self.frontTop, gap: Self.frontGap) {
                type.besideHeight($0, valueSize: size, labelWidth: labelWidth, width: Self.frontWidth)
            }
            chosen = (placed, size, labelWidth)
            overflow = rest
            if rest.isEmpty { break }
        }
        guard let front = chosen else { throw CardOverflow.text(labels: card.front.map(\.label)) }
        self.front = front.rows; frontSize = front.size; frontLabelWidth = front.labelWidth

        // The QR square: as large as the symbol needs, up to the back's height below the band and the caption.
        let caption = type.layout(card.scanCaption, size: CardGeometry.captionSize, width: CardGeometry.qrSide, alignment: .center)
        let tallest = CardGeometry.height - CardGeometry.backBand - Self.mm(0.8) - Self.mm(0.3) - caption.extents.height - Self.mm(1.5)
        let widest = CardGeometry.width - Self.mm(2) - CardGeometry.margin - Self.mm(1.5) - Self.minimumBackColumn
        let maximumSide = min(tallest, widest)
        guard let symbol = CardQR.symbol(for: card.qrText, maximumSide: maximumSide) else {
            throw CardOverflow.qr(bytes: card.qrText.utf8.count, maximum: CardQR.capacity(maximumSide: maximumSide))
        }
        qr = symbol.code

        // The back: the front's continuation first, then the contacts, in the column left of the QR code. When
        // they do not fit beside the square, the square gives way (its modules shrink towards the floor).
        let rows = overflow + card.back
        let modules = Double(symbol.code.size + 2 * QRCode.quietZone)
        let smallest = min(symbol.side, modules * CardGeometry.minimumModule)
        var sides = Array(stride(from: symbol.side, to: smallest, by: -Self.mm(1)))
        sides.append(smallest)
        var fitted: (rows: [EmergencyCard.Row], size: Double, side: Double)?
        var left: [EmergencyCard.Row] = []
        // A "—" (a fact not given) is no fact: it gives way when the facts fill the back.
        search: for candidates in [rows, rows.filter { !$0.isPlaceholder }] {
            for side in sides {
                let column = Self.backColumn(qrSide: side)
                for size in CardGeometry.backSizes {
                    let (placed, rest) = Self.fill(candidates, available: Self.bottom - Self.backTop, gap: Self.backGap) {
                        type.stackedHeight($0, valueSize: size, width: column)
                    }
                    left = rest
                    if rest.isEmpty { fitted = (placed, size, side); break search }
                }
            }
        }
        guard let back = fitted else {
            // Named as the owner knows them: "Allergies", not "Allergies (continued)".
            var labels: [String] = []
            for row in left {
                let label = (card.front + card.back).first { $0.continuedLabel == row.label && $0.label != row.label }?.label ?? row.label
                if !labels.contains(label) { labels.append(label) }
            }
            throw CardOverflow.text(labels: labels)
        }
        self.back = back.rows; backSize = back.size; qrSide = back.side
    }

    /// The back's text column beside a QR square of `qrSide`.
    static func backColumn(qrSide: Double) -> Double {
        CardGeometry.width - mm(2) - qrSide - CardGeometry.margin - mm(1.5)
    }

    /// The rows that fit in `available` one under the other, and the rest: the first row that does not fit
    /// whole keeps the items that fit (at least one) and continues with the others under its continued label.
    static func fill(_ rows: [EmergencyCard.Row], available: Double, gap: Double,
                     height: (EmergencyCard.Row) -> Double) -> (placed: [EmergencyCard.Row], rest: [EmergencyCard.Row]) {
        var y = 0.0
        var placed: [EmergencyCard.Row] = []
        for (i, row) in rows.enumerated() {
            let whole = height(row)
            if y + whole <= available + 0.01 {
                placed.append(row)
                y += whole + gap
                continue
            }
            var rest = Array(rows[(i + 1)...])
            func head(_ k: Int) -> EmergencyCard.Row { var r = row; r.items = Array(row.items[..<k]); return r }
            var k = row.items.count - 1
            while k >= 1 && y + height(head(k)) > available + 0.01 { k -= 1 }
            if k >= 1 {
                placed.append(head(k))
                rest.insert(EmergencyCard.Row(label: row.continuedLabel, continuedLabel: row.continuedLabel,
                                              items: Array(row.items[k...]), alert: row.alert), at: 0)
            } else {
                rest.insert(row, at: 0)
            }
            return (placed, rest)
        }
        return (placed, [])
    }
}

/// What the card cannot hold: rows that do not fit in the smallest type on both sides, or a QR text
/// longer than a symbol that scans from print holds (bytes of UTF-8).
public enum CardOverflow: Error, Equatable {
    case text(labels: [String])
    case qr(bytes: Int, maximum: Int)
}

/// The card's Pango layouts: labels and values, whole (wrapped, never cut).
struct CardType {
    let context: Context

    func font(_ size: Double, bold: Bool = false) -> String { "Sans\(bold ? " Bold" : "") \(String(format: "%.2f", size))" }

    func layout(_ text: String, size: Double, bold: Bool = false, width: Double? = nil,
                alignment: TextLayout.Alignment = .left) -> TextLayout {
        TextLayout(text, font: font(size, bold: bold), in: context, width: width, alignment: alignment)
    }

    /// The label column beside the values: the widest label, at least 15 mm and at most 24 mm (a longer
    /// label wraps).
    func besideLabelWidth(_ labels: [String], valueSize: Double) -> Double {
        let widest = labels.map { layout($0, size: CardPlan.labelSize(valueSize), bold: true).extents.width }.max() ?? 0
        return min(CardGeometry.mm(24), max(CardGeometry.mm(15), widest + CardGeometry.mm(1.5)))
    }

    /// A label and its value side by side: the layouts, and where the label sits (on the value's first baseline).
    func beside(_ row: EmergencyCard.Row, valueSize: Double, labelWidth: Double, width: Double)
        -> (label: TextLayout, value: TextLayout, labelOffset: Double, height: Double) {
        let label = layout(row.label, size: CardPlan.labelSize(valueSize), bold: true, width: labelWidth - CardGeometry.mm(1))
        let value = layout(row.value, size: valueSize, width: width - labelWidth)
        let offset = value.extents.baseline - label.extents.baseline
        return (label, value, offset, max(value.extents.height, offset + label.extents.height))
    }

    func besideHeight(_ row: EmergencyCard.Row, valueSize: Double, labelWidth: Double, width: Double) -> Double {
        beside(row, valueSize: valueSize, labelWidth: labelWidth, width: width).height
    }

    /// A label above its value.
    func stacked(_ row: EmergencyCard.Row, valueSize: Double, width: Double) -> (label: TextLayout, value: TextLayout, height: Double) {
        let label = layout(row.label, size: CardPlan.labelSize(valueSize), bold: true, width: width)
        let value = layout(row.value, size: valueSize, width: width)
        return (label, value, label.extents.height + value.extents.height)
    }

    func stackedHeight(_ row: EmergencyCard.Row, valueSize: Double, width: Double) -> Double {
        stacked(row, valueSize: valueSize, width: width).height
    }
}

/// Draws one side of the card with its top-left corner at (x, y), in points.
struct CardPainter {
    let card: EmergencyCard
    let plan: CardPlan
    let context: Context
    /// The profile photo (a PNG, as a thumbnail, or a JPEG embedded as it is), read once for every copy on a sheet.
    let photo: Surface?

    init(card: EmergencyCard, plan: CardPlan, context: Context) {
        self.card = card; self.plan = plan; self.context = context
        photo = card.photoPath.flatMap { path in
            (try? Surface.image(readingPNG: path)).flatMap { try? $0.thumbnail(maxWidth: 240, maxHeight: 240) }
                ?? (try? Surface.image(embeddingJPEG: path))
        }
    }

    /// The photo's square at the band's right.
    static var photoSide: Double { band - mm(2) }

    static let text = Color(hex: 0x1F2328)
    static let muted = Color(hex: 0x5E6670)
    static let accent = Color(hex: 0x1D4F7C)
    static let alert = Color(hex: 0xB42318)
    static let band = CardGeometry.frontBand

    static func mm(_ v: Double) -> Double { CardGeometry.mm(v) }

    func layout(_ text: String, size: Double, bold: Bool = false, width: Double, alignment: TextLayout.Alignment = .left) -> TextLayout {
        CardType(context: context).layout(text, size: size, bold: bold, width: width, alignment: alignment)
    }

    /// `text` in bold at the largest of `sizes` whose lines fit in `height` (else the smallest).
    func fitted(_ text: String, sizes: StrideThrough<Double>, width: Double, height: Double) -> TextLayout {
        var last: TextLayout?
        for size in sizes {
            let made = layout(text, size: size, bold: true, width: width)
            if made.extents.height <= height { return made }
            last = made
        }
        return last ?? layout(text, size: 5.5, bold: true, width: width)
    }

    /// The card's edge, a light hairline (PNG only: on paper the cut is the edge).
    func outline(x: Double, y: Double) {
        context.save()
        cardPath(x: x, y: y)
        context.setSource(Color(hex: 0xB8BEC6))
        context.setLineWidth(0.5)
        context.stroke()
        context.restore()
    }

    /// The card's rounded rectangle as the current path.
    func cardPath(x: Double, y: Double) {
        let W = CardGeometry.width, H = CardGeometry.height, r = CardGeometry.cornerRadius
        context.newPath()
        context.arc(cx: x + W - r, cy: y + r, radius: r, from: -Double.pi / 2, to: 0)
        context.arc(cx: x + W - r, cy: y + H - r, radius: r, from: 0, to: Double.pi / 2)
        context.arc(cx: x + r, cy: y + H - r, radius: r, from: Double.pi / 2, to: Double.pi)
        context.arc(cx: x + r, cy: y + r, radius: r, from: Double.pi, to: 3 * Double.pi / 2)
        context.closePath()
    }

    /// A coloured band across the top holding a bold title and an optional subtitle.
    private func band(x: Double, y: Double, title: String, titleSize: Double, subtitle: String?, photo: Surface? = nil) {
        var W = CardGeometry.width
        let m = CardGeometry.margin
        context.setSource(Self.accent)
        context.rectangle(x: x, y: y, width: W, height: Self.band)
        context.fill()
        if let photo {
            // Scaled to cover its square, centred, clipped to it; the name and subtitle keep left of it.
            let side = Self.photoSide, px = x + W - Self.mm(1) - side, py = y + Self.mm(1)
            let s = max(side / photo.width, side / photo.height)
            context.save()
            context.rectangle(x: px, y: py, width: side, height: side)
            context.clip()
            context.translate(x: px + (side - photo.width * s) / 2, y: py + (side - photo.height * s) / 2)
            context.scale(x: s, y: s)
            context.setSource(photo, x: 0, y: 0)
            context.paint()
            context.restore()
            W -= side + Self.mm(1.5)
        }
        // A long name is set smaller (down to 5.5 pt) rather than run out of the band.
        let sub = subtitle.map { layout($0, size: 6.5, width: W - 2 * m) }
        let subHeight = sub.map { $0.extents.height + 0.5 } ?? 0
        let titleLayout = fitted(title, sizes: stride(from: titleSize, through: 5.5, by: -0.5), width: W - 2 * m,
                                 height: Self.band - 1 - subHeight)
        let total = titleLayout.extents.height + subHeight
        var ty = y + max(1, (Self.band - total) / 2)
        context.setSource(.white)
        titleLayout.draw(x: x + m, y: ty)
        ty += titleLayout.extents.height + 0.5
        if let sub {
            context.setSource(Color(hex: 0xDCE6F0))
            sub.draw(x: x + m, y: ty)
        }
    }

    func drawFront(x: Double, y: Double) {
        let W = CardGeometry.width, m = CardGeometry.margin
        context.save()
        cardPath(x: x, y: y)
        context.clip()
        band(x: x, y: y, title: card.name, titleSize: 12, subtitle: card.subtitle.isEmpty ? nil : card.subtitle, photo: photo)
        let type = CardType(context: context)
        var top = y + CardPlan.frontTop
        for row in plan.front {
            let r = type.beside(row, valueSize: plan.frontSize, labelWidth: plan.frontLabelWidth, width: W - 2 * m)
            context.setSource(Self.muted)
            r.label.draw(x: x + m, y: top + r.labelOffset)
            context.setSource(row.alert ? Self.alert : Self.text)
            r.value.draw(x: x + m + plan.frontLabelWidth, y: top)
            top += r.height + CardPlan.frontGap
        }
        context.restore()
    }

    func drawBack(x: Double, y: Double) {
        let W = CardGeometry.width, m = CardGeometry.margin
        context.save()
        cardPath(x: x, y: y)
        context.clip()
        let bandHeight = CardGeometry.backBand
        context.setSource(Self.alert)
        context.rectangle(x: x, y: y, width: W, height: bandHeight)
        context.fill()
        let title = fitted(card.backTitle, sizes: stride(from: 8.5, through: 4.5, by: -0.5),
                           width: W - 2 * m, height: bandHeight - 1)
        context.setSource(.white)
        title.draw(x: x + m, y: y + (bandHeight - title.extents.height) / 2)

        // The QR code at the right, quiet zone included in its square.
        let qr = plan.qr, side = plan.qrSide
        let qx = x + W - Self.mm(2) - side, qy = y + bandHeight + Self.mm(0.8)
        let module = side / Double(qr.size + 2 * QRCode.quietZone)
        context.setSource(.white)
        context.rectangle(x: qx, y: qy, width: side, height: side)
        context.fill()
        context.setSource(.black)
        for r in 0..<qr.size {
            var c = 0
            while c < qr.size {
                guard qr.isDark(row: r, column: c) else { c += 1; continue }
                var end = c
                while end < qr.size && qr.isDark(row: r, column: end) { end += 1 }
                // A run of dark modules as one rectangle, overlapping the next row a hair so that no seam shows.
                context.rectangle(x: qx + Double(QRCode.quietZone + c) * module, y: qy + Double(QRCode.quietZone + r) * module,
                                  width: Double(end - c) * module, height: module * 1.001)
                c = end
            }
        }
        context.fill()
        let caption = layout(card.scanCaption, size: CardGeometry.captionSize, width: CardGeometry.qrSide, alignment: .center)
        context.setSource(Self.muted)
        caption.draw(x: qx + (side - CardGeometry.qrSide) / 2, y: qy + side + Self.mm(0.3))

        let type = CardType(context: context)
        let column = CardPlan.backColumn(qrSide: side)
        var top = y + CardPlan.backTop
        for row in plan.back {
            let r = type.stacked(row, valueSize: plan.backSize, width: column)
            context.setSource(Self.muted)
            r.label.draw(x: x + m, y: top)
            context.setSource(row.alert ? Self.alert : Self.text)
            r.value.draw(x: x + m, y: top + r.label.extents.height)
            top += r.height + CardPlan.backGap
        }
        context.restore()
    }

    /// Short lines in the margin along every cut line of the grid, stopping 2 mm short of the cards.
    static func cutMarks(context: Context, x0: Double, y0: Double, columns: Int, rows: Int) {
        let W = CardGeometry.width, H = CardGeometry.height
        let gap = mm(2), length = mm(5)
        let x1 = x0 + Double(columns) * W, y1 = y0 + Double(rows) * H
        context.save()
        context.setSource(.black)
        context.setLineWidth(0.25)
        for c in 0...columns {
            let x = x0 + Double(c) * W
            context.moveTo(x, y0 - gap); context.lineTo(x, y0 - gap - length)
            context.moveTo(x, y1 + gap); context.lineTo(x, y1 + gap + length)
        }
        for r in 0...rows {
            let y = y0 + Double(r) * H
            context.moveTo(x0 - gap, y); context.lineTo(x0 - gap - length, y)
            context.moveTo(x1 + gap, y); context.lineTo(x1 + gap + length, y)
        }
        context.stroke()
        context.restore()
    }
}
