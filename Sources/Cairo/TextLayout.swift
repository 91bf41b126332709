import CCairo

/// A paragraph of text shaped by Pango: font fallback, Hangul, Kana and Han, wrapping, alignment.
public final class TextLayout {
    public enum Alignment: Sendable { case left, center, right }

    /// Logical size of the laid-out text, in user units.
    public struct Extents: Sendable, Equatable {
        public var width: Double
        public var height: Double
        /// Distance from the top of the layout to the first line's baseline.
        public var baseline: Double
    }

    private var layout: OpaquePointer
    private let context: Context

    /// - Parameters:
    ///   - font: a Pango font description, e.g. "Sans 12", "Noto Sans CJK KR Bold 10"; sizes are
    ///     in user units (pixels on images, points on PDF/SVG).
    ///   - width: wrap lines at this width, at the breaks `LineBreaking` allows (Korean between
    ///     words, not syllables; a number with its unit kept together; Japanese by Pango's UAX #14
    ///     rules, which keep closing brackets, 。、 and small kana off the start of a line), then
    ///     between characters for a word wider than the line; nil for one line per paragraph.
    ///   - ellipsize: with a width, end a line that does not fit with "…" instead of wrapping.
    ///   - maxLines: with a width, wrap into at most this many lines, the last one ending with "…" when
    ///     the text goes on (implies ellipsizing).
    public init(_ text: String, font: String, in context: Context, width: Double? = nil,
                alignment: Alignment = .left, ellipsize: Bool = false, maxLines: Int? = nil) {
        self.context = context
        // Symbols the document's family lacks, written as forms it has (`DocumentGlyphs`).
        let text = DocumentGlyphs.substituted(text, font: font, language: context.textLanguage, on: context.sharedPangoContext())
        // The document font set was checked for its family in regular and bold, upright: other text is
        // laid out on the system's fonts.
        let onSet = context.onDocumentFontSet && Self.documentFontSetCovers(font)
        layout = Self.make(text, font: font, on: onSet ? context.sharedPangoContext() : context.systemFontsPangoContext(),
                           in: context, width: width, alignment: alignment, ellipsize: ellipsize, maxLines: maxLines)
        // A character the document font set lacks: laid out on every installed font, as without the set.
        if onSet && pango_layout_get_unknown_glyphs_count(layout) > 0 {
            g_object_unref(UnsafeMutableRawPointer(layout))
            layout = Self.make(text, font: font, on: context.systemFontsPangoContext(), in: context, width: width,
                               alignment: alignment, ellipsize: ellipsize, maxLines: maxLines)
        }
    }

    /// Whether `font` is the document's family ("Sans"), regular or bold, upright, normal width.
    private static func documentFontSetCovers(_ font: String) -> Bool {
        let description = pango_font_description_from_string(font)
        defer { pango_font_description_free(description) }
        guard let family = pango_font_description_get_family(description).map({ String(cString: $0) }),
              family == FontFamily.generic || family == "sans" else { return false }
        let weight = pango_font_description_get_weight(description)
        return (weight == PANGO_WEIGHT_NORMAL || weight == PANGO_WEIGHT_BOLD)
            && pango_font_description_get_style(description) == PANGO_STYLE_NORMAL
            && pango_font_description_get_stretch(description) == PANGO_STRETCH_NORMAL
            && pango_font_description_get_variant(description) == PANGO_VARIANT_NORMAL
    }

    private static func make(_ text: String, font: String, on pangoContext: OpaquePointer, in context: Context,
                             width: Double?, alignment: Alignment, ellipsize: Bool, maxLines: Int?) -> OpaquePointer {
        let ellipsize = ellipsize || maxLines != nil
        context.updatePangoContexts()
        // safe: pango_layout_new aborts inside GLib on out-of-memory rather than return NULL.
        let layout = pango_layout_new(pangoContext)!
        let description = pango_font_description_from_string(font)
        // "Sans" is the document's family: one type family for every script of the language.
        if let family = pango_font_description_get_family(description).map({ String(cString: $0) }),
           family == FontFamily.generic || family == "sans" {
            pango_font_description_set_family(description, FontFamily.document(language: context.textLanguage))
        }
        pango_layout_set_font_description(layout, description)
        pango_font_description_free(description)
        if let width {
            pango_layout_set_width(layout, Int32(clamping: Int((width * Double(PANGO_SCALE)).rounded())))
            pango_layout_set_wrap(layout, PANGO_WRAP_WORD_CHAR)
            if ellipsize { pango_layout_set_ellipsize(layout, PANGO_ELLIPSIZE_END) }
            // A negative height is a number of lines: Pango wraps up to it, then ellipsizes the last.
            if let maxLines { pango_layout_set_height(layout, -Int32(clamping: max(1, maxLines))) }
        }
        switch alignment {
        case .left: pango_layout_set_alignment(layout, PANGO_ALIGN_LEFT)
        case .center: pango_layout_set_alignment(layout, PANGO_ALIGN_CENTER)
        case .right: pango_layout_set_alignment(layout, PANGO_ALIGN_RIGHT)
        }
        pango_layout_set_text(layout, text, -1)
        if let width {
            var kept = LineBreaking.keptTogether(text)
            if !kept.isEmpty && !ellipsize {
                // A piece wider than the line gives way: it wraps between characters as before. Measured
                // on the text laid out on one line (no width yet).
                pango_layout_set_width(layout, -1)
                let bytes = Array(text.utf8)
                kept = kept.filter { r in
                    var last = r.upperBound - 1
                    while last > r.lowerBound && bytes[last] & 0xC0 == 0x80 { last -= 1 }
                    return Self.span(from: r.lowerBound, lastCharacter: last, in: layout) <= width
                }
                pango_layout_set_width(layout, Int32(clamping: Int((width * Double(PANGO_SCALE)).rounded())))
            }
            if !kept.isEmpty { Self.setKeptTogether(kept, on: layout) }
        }
        return layout
    }

    /// Width from the character at byte `start` through the one at byte `last` of a one-line layout.
    private static func span(from first: Int, lastCharacter last: Int, in layout: OpaquePointer) -> Double {
        var start = PangoRectangle(), end = PangoRectangle()
        pango_layout_index_to_pos(layout, Int32(first), &start)
        pango_layout_index_to_pos(layout, Int32(last), &end)
        // The last character's box ends at x + width (negative width for right-to-left text).
        let right = max(end.x, end.x + end.width), left = min(start.x, start.x + start.width)
        return Double(right - left) / Double(PANGO_SCALE)
    }

    /// Forbids line breaks inside each UTF-8 byte range.
    private static func setKeptTogether(_ ranges: [Range<Int>], on layout: OpaquePointer) {
        // safe: pango_attr_list_new aborts inside GLib on out-of-memory rather than return NULL.
        let list = pango_attr_list_new()!
        for r in ranges {
            // safe: as above, attribute constructors allocate with g_slice and never return NULL.
            let attr = pango_attr_allow_breaks_new(0)!
            attr.pointee.start_index = UInt32(r.lowerBound)
            attr.pointee.end_index = UInt32(r.upperBound)
            pango_attr_list_insert(list, attr)
        }
        pango_layout_set_attributes(layout, list)
        pango_attr_list_unref(list)
    }

    /// The narrowest and the natural width of `text` in `font`: the widest piece it is never broken
    /// inside (a word, a Korean word, a number with its unit) and its width with one line per paragraph.
    /// Tables size their columns between the two.
    public static func widthBounds(_ text: String, font: String, in context: Context) -> (minimum: Double, natural: Double) {
        let natural = TextLayout(text, font: font, in: context)
        let narrow = TextLayout(text, font: font, in: context)
        pango_layout_set_width(narrow.layout, Int32(PANGO_SCALE))
        pango_layout_set_wrap(narrow.layout, PANGO_WRAP_WORD)
        let kept = LineBreaking.keptTogether(text)
        if !kept.isEmpty { setKeptTogether(kept, on: narrow.layout) }
        return (narrow.extents.width, natural.extents.width)
    }

    deinit { g_object_unref(UnsafeMutableRawPointer(layout)) }

    /// Logical extents (what the text occupies, including line spacing).
    public var extents: Extents {
        var logical = PangoRectangle()
        pango_layout_get_extents(layout, nil, &logical)
        let scale = Double(PANGO_SCALE)
        // With a wrap width, Pango reports the box from x = 0; the width is the widest line.
        return Extents(width: Double(logical.width) / scale,
                       height: Double(logical.height) / scale,
                       baseline: Double(pango_layout_get_baseline(layout)) / scale)
    }

    /// One line after wrapping: which UTF-8 bytes of the text it shows and where it sits.
    public struct Line: Sendable, Equatable {
        /// Offset of the line's first byte in the UTF-8 text, and its length in bytes.
        public var byteStart: Int
        public var byteLength: Int
        /// Top and bottom of the line's logical box, from the top of the layout (line spacing
        /// included), in user units.
        public var top: Double
        public var bottom: Double
    }

    /// The lines after wrapping, top to bottom (to split a paragraph between pages).
    public var lines: [Line] {
        guard let iter = pango_layout_get_iter(layout) else { return [] }
        defer { pango_layout_iter_free(iter) }
        let scale = Double(PANGO_SCALE)
        var out: [Line] = []
        repeat {
            var y0: Int32 = 0, y1: Int32 = 0
            pango_layout_iter_get_line_yrange(iter, &y0, &y1)
            if let line = pango_layout_iter_get_line_readonly(iter) {
                out.append(Line(byteStart: Int(line.pointee.start_index), byteLength: Int(line.pointee.length),
                                top: Double(y0) / scale, bottom: Double(y1) / scale))
            }
        } while pango_layout_iter_next_line(iter) != 0
        return out
    }

    /// Number of lines after wrapping.
    public var lineCount: Int { Int(pango_layout_get_line_count(layout)) }

    /// Whether some character had to be drawn from no font at all (a missing glyph box).
    public var unknownGlyphCount: Int { Int(pango_layout_get_unknown_glyphs_count(layout)) }

    /// Draws the text with its top-left corner at (x, y), in the context's current source colour.
    public func draw(x: Double, y: Double) {
        context.moveTo(x, y)
        context.updatePangoContexts()
        pango_cairo_update_layout(context.raw, layout)
        pango_cairo_show_layout(context.raw, layout)
        context.newPath()
    }
}
