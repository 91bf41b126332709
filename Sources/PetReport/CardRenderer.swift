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
    /// The QR code's square, quiet zone included, at the right of the back.
    static let qrSide = mm(32)
    /// The smallest module that still reads from a printed card with a phone.
    static let minimumModule = mm(0.4)
    /// The largest symbol whose modules, with the 4-module quiet zone on each side, stay at least 0.4 mm in `qrSide`.
    static var maximumQRVersion: Int {
        let modules = Int((qrSide / minimumModule).rounded(.down)) - 2 * QRCode.quietZone
        return max(1, (modules - 17) / 4)
    }
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

    private static func write(_ card: EmergencyCard, layout: CardLayout, format: Format, to path: String) throws -> CardSummary {
        guard let qr = CardQR.symbol(for: card.qrText, maximumVersion: CardGeometry.maximumQRVersion) else {
            throw ReportError.cardLayout("the QR text does not fit the card")
        }
        let W = CardGeometry.width, H = CardGeometry.height
        let module = CardGeometry.qrSide / Double(qr.size + 2 * QRCode.quietZone)
        var copies = 1
        switch (layout, format) {
        case (.single, .pdf):
            let surface = try Surface.pdf(path: path, width: W, height: H, title: card.name)
            let context = try Context(surface)
            context.setTextLanguage(card.language)
            let painter = CardPainter(card: card, qr: qr, context: context)
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
            context.setTextLanguage(card.language)
            context.scale(x: scale, y: scale)
            context.setSource(.white)
            context.paint()
            let painter = CardPainter(card: card, qr: qr, context: context)
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
            context.setTextLanguage(card.language)
            let painter = CardPainter(card: card, qr: qr, context: context)
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

/// Draws one side of the card with its top-left corner at (x, y), in points.
struct CardPainter {
    let card: EmergencyCard
    let qr: QRCode
    let context: Context

    static let text = Color(hex: 0x1F2328)
    static let muted = Color(hex: 0x5E6670)
    static let accent = Color(hex: 0x1D4F7C)
    static let alert = Color(hex: 0xB42318)
    static let band = mm(12.5)

    static func mm(_ v: Double) -> Double { CardGeometry.mm(v) }

    func font(_ size: Double, bold: Bool = false) -> String { "Sans\(bold ? " Bold" : "") \(String(format: "%.2f", size))" }

    func layout(_ text: String, size: Double, bold: Bool = false, width: Double, maxLines: Int = 1,
                alignment: TextLayout.Alignment = .left) -> TextLayout {
        TextLayout(text, font: font(size, bold: bold), in: context, width: width, alignment: alignment, maxLines: maxLines)
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
    private func band(x: Double, y: Double, title: String, titleSize: Double, subtitle: String?) {
        let W = CardGeometry.width, m = CardGeometry.margin
        context.setSource(Self.accent)
        context.rectangle(x: x, y: y, width: W, height: Self.band)
        context.fill()
        let titleLayout = layout(title, size: titleSize, bold: true, width: W - 2 * m)
        let sub = subtitle.map { layout($0, size: 6.5, width: W - 2 * m) }
        let total = titleLayout.extents.height + (sub.map { $0.extents.height + 0.5 } ?? 0)
        var ty = y + max(1, (Self.band - total) / 2)
        context.setSource(.white)
        titleLayout.draw(x: x + m, y: ty)
        ty += titleLayout.extents.height + 0.5
        if let sub {
            context.setSource(Color(hex: 0xDCE6F0))
            sub.draw(x: x + m, y: ty)
        }
    }

    /// Rows of label and value in `width`, from `top` down to `bottom`; a row that no longer has room
    /// for one line is left out, one that has room for fewer lines than it may use ends with "…".
    private func rows(_ rows: [EmergencyCard.Row], x: Double, top: Double, bottom: Double, width: Double, stacked: Bool) {
        let labelSize = stacked ? 5.2 : 5.8, valueSize = stacked ? 6.6 : 7.4
        let labelWidth: Double = stacked ? width
            : min(Self.mm(24), max(Self.mm(15), rows.map { TextLayout($0.label, font: font(labelSize, bold: true), in: context).extents.width }.max() ?? 0) + Self.mm(1.5))
        var y = top
        for row in rows {
            let label = layout(row.label, size: labelSize, bold: true, width: stacked ? width : labelWidth - Self.mm(1))
            let valueWidth = stacked ? width : width - labelWidth
            let oneLine = layout("Ag", size: valueSize, width: valueWidth).extents.height
            let valueTop = stacked ? y + label.extents.height : y
            let room = Int(((bottom - valueTop) / oneLine).rounded(.down))
            guard room >= 1 else { break }
            let value = layout(row.value, size: valueSize, width: valueWidth, maxLines: min(row.maxLines, room))
            context.setSource(Self.muted)
            // The label sits on the value's first baseline when beside it.
            label.draw(x: x, y: stacked ? y : y + value.extents.baseline - label.extents.baseline)
            context.setSource(row.alert ? Self.alert : Self.text)
            value.draw(x: x + (stacked ? 0 : labelWidth), y: valueTop)
            y = valueTop + max(value.extents.height, label.extents.height) + Self.mm(stacked ? 1.2 : 1.0)
        }
    }

    func drawFront(x: Double, y: Double) {
        let W = CardGeometry.width, H = CardGeometry.height, m = CardGeometry.margin
        context.save()
        cardPath(x: x, y: y)
        context.clip()
        band(x: x, y: y, title: card.name, titleSize: 12, subtitle: card.subtitle.isEmpty ? nil : card.subtitle)
        rows(card.front, x: x + m, top: y + Self.band + Self.mm(2.2), bottom: y + H - m + Self.mm(1), width: W - 2 * m, stacked: false)
        context.restore()
    }

    func drawBack(x: Double, y: Double) {
        let W = CardGeometry.width, H = CardGeometry.height, m = CardGeometry.margin
        context.save()
        cardPath(x: x, y: y)
        context.clip()
        let bandHeight = Self.mm(8)
        context.setSource(Self.alert)
        context.rectangle(x: x, y: y, width: W, height: bandHeight)
        context.fill()
        let title = layout(card.backTitle + " · " + card.name, size: 8.5, bold: true, width: W - 2 * m)
        context.setSource(.white)
        title.draw(x: x + m, y: y + (bandHeight - title.extents.height) / 2)

        // The QR code at the right, quiet zone included in its square.
        let side = CardGeometry.qrSide
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
        let caption = layout(card.scanCaption, size: 4.6, width: side, maxLines: 2, alignment: .center)
        context.setSource(Self.muted)
        caption.draw(x: qx, y: qy + side + Self.mm(0.3))

        let textWidth = qx - (x + m) - Self.mm(1.5)
        rows(card.back, x: x + m, top: y + bandHeight + Self.mm(2), bottom: y + H - m + Self.mm(1), width: textWidth, stacked: true)
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
