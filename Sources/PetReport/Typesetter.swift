import Cairo

/// Makes Pango layouts in the report's fonts on the context the report is drawn on.
///
/// Layouts are immutable once made and can be drawn any number of times, so equal requests share
/// one: a clinic name or "Up to date" repeated down a table is shaped once.
struct Typesetter {
    let context: Context
    let style: ReportStyle
    private let cache = LayoutCache()

    init(context: Context, style: ReportStyle) {
        self.context = context
        self.style = style
    }

    private struct Key: Hashable {
        var text: String, size: Double, bold: Bool, width: Double?, alignment: TextAlignment, ellipsize: Bool
    }

    private final class LayoutCache {
        var layouts: [Key: TextLayout] = [:]
        var bounds: [Key: (minimum: Double, natural: Double)] = [:]
    }

    /// The narrowest width `text` can wrap to and its width on one line (see `TextLayout.widthBounds`).
    func widthBounds(_ text: String, size: Double, bold: Bool = false) -> (minimum: Double, natural: Double) {
        let key = Key(text: text, size: size, bold: bold, width: nil, alignment: .left, ellipsize: false)
        if let known = cache.bounds[key] { return known }
        let made = TextLayout.widthBounds(text, font: style.font(size, bold: bold), in: context)
        cache.bounds[key] = made
        return made
    }

    func layout(_ text: String, size: Double, bold: Bool = false, width: Double? = nil,
                alignment: TextAlignment = .left, ellipsize: Bool = false) -> TextLayout {
        let key = Key(text: text, size: size, bold: bold, width: width, alignment: alignment, ellipsize: ellipsize)
        if let known = cache.layouts[key] { return known }
        let made = makeLayout(text, size: size, bold: bold, width: width, alignment: alignment, ellipsize: ellipsize)
        cache.layouts[key] = made
        return made
    }

    private func makeLayout(_ text: String, size: Double, bold: Bool, width: Double?,
                            alignment: TextAlignment, ellipsize: Bool) -> TextLayout {
        TextLayout(text, font: style.font(size, bold: bold), in: context, width: width,
                   alignment: alignment, ellipsize: ellipsize)
    }
}

/// Wrapped text in one font and colour: titles, headings, paragraphs, bullet items.
/// Splits between pages at line boundaries, keeping at least two lines on each side of a break
/// when the text has four lines or more.
struct TextFlowable: Flowable {
    let text: String
    let size: Double
    let bold: Bool
    let color: Color
    /// Left indent within the text column (bullet items).
    let indent: Double
    let width: Double
    let spaceBefore: Double
    let keepWithNext: Bool
    /// Drawn in the indent beside the first line ("•"); only on the first part of a split item.
    let marker: TextLayout?
    /// A hairline under the text (headings): gap above it and colour.
    let rule: (gap: Double, color: Color)?
    /// Room left under the text (after the rule, if any).
    let paddingBelow: Double
    let typesetter: Typesetter
    let layout: TextLayout

    init(_ text: String, size: Double, bold: Bool = false, color: Color, indent: Double = 0, width: Double,
         spaceBefore: Double, keepWithNext: Bool = false, marker: TextLayout? = nil,
         rule: (gap: Double, color: Color)? = nil, paddingBelow: Double = 0, typesetter: Typesetter) {
        self.text = text
        self.size = size
        self.bold = bold
        self.color = color
        self.indent = indent
        self.width = width
        self.spaceBefore = spaceBefore
        self.keepWithNext = keepWithNext
        self.marker = marker
        self.rule = rule
        self.paddingBelow = paddingBelow
        self.typesetter = typesetter
        self.layout = typesetter.layout(text, size: size, bold: bold, width: width - indent)
    }

    private var textHeight: Double { layout.extents.height }
    var height: Double { textHeight + (rule?.gap ?? 0) + paddingBelow }

    var leadHeight: Double {
        let lines = layout.lines
        guard lines.count >= 4 else { return height }
        return lines[1].bottom
    }

    func split(toFit available: Double, atPageTop: Bool) -> (first: any Flowable, rest: any Flowable)? {
        guard rule == nil else { return nil }
        let lines = layout.lines
        let n = lines.count
        guard n >= 2 else { return nil }
        var k = lines.lastIndex(where: { $0.bottom <= available + 0.01 }).map { $0 + 1 } ?? 0
        if n >= 4 && !atPageTop { k = min(k, n - 2); guard k >= 2 else { return nil } }
        let bytes = Array(text.utf8)
        while k >= 1 && k < n {
            let cut = lines[k].byteStart
            guard cut > 0, cut < bytes.count else { return nil }
            var head = String(decoding: bytes[..<cut], as: UTF8.self)
            while head.hasSuffix("\n") || head.hasSuffix("\r") { head.removeLast() }
            let tail = String(decoding: bytes[cut...], as: UTF8.self)
            let first = TextFlowable(head, size: size, bold: bold, color: color, indent: indent, width: width,
                                     spaceBefore: spaceBefore, marker: marker, typesetter: typesetter)
            if first.height <= available + 0.01 {
                let rest = TextFlowable(tail, size: size, bold: bold, color: color, indent: indent, width: width,
                                        spaceBefore: 0, keepWithNext: keepWithNext, paddingBelow: paddingBelow,
                                        typesetter: typesetter)
                return (first, rest)
            }
            k -= 1
        }
        return nil
    }

    func draw(x: Double, y: Double, on context: Context) {
        context.setSource(color)
        if let marker { marker.draw(x: x + indent - marker.extents.width - size * 0.45, y: y) }
        layout.draw(x: x + indent, y: y)
        if let rule {
            let ry = y + textHeight + rule.gap - 0.25
            context.setSource(rule.color)
            context.setLineWidth(0.5)
            context.moveTo(x, ry)
            context.lineTo(x + width, ry)
            context.stroke()
        }
    }
}
