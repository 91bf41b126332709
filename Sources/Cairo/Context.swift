import CCairo

/// A cairo drawing context on one surface: paths, paint, clip, state and transforms.
public final class Context {
    let raw: OpaquePointer
    /// Kept alive as long as the context draws into it.
    public let surface: Surface
    /// Created on first text layout; shares this context's font options and language.
    private var pangoContext: OpaquePointer?
    /// The Pango context on the system's font map, when `pangoContext` is on the document font set.
    private var systemPangoContext: OpaquePointer?
    private var documentFontSet = false
    /// Whether `pangoContext` is on the document font set.
    private var sharedOnDocumentFontSet = false
    private var language: String?
    /// The language set by `setTextLanguage`, if any.
    var textLanguage: String? { language }

    /// How path edges are smoothed.
    public enum LineJoin: Sendable { case miter, round, bevel }
    public enum LineCap: Sendable { case butt, round, square }

    public init(_ surface: Surface) throws {
        self.surface = surface
        // safe: cairo_create never returns NULL (an error is an object in an error state, checked next).
        self.raw = cairo_create(surface.raw)!
        try check(cairo_status(raw))
    }

    deinit {
        if let pangoContext { g_object_unref(UnsafeMutableRawPointer(pangoContext)) }
        if let systemPangoContext { g_object_unref(UnsafeMutableRawPointer(systemPangoContext)) }
        cairo_destroy(raw)
    }

    /// Throws the first error cairo met while drawing, if any.
    public func checkStatus() throws { try check(cairo_status(raw), path: surface.path) }

    // MARK: state
    public func save() { cairo_save(raw) }
    public func restore() { cairo_restore(raw) }
    public func translate(x: Double, y: Double) { cairo_translate(raw, x, y) }
    public func scale(x: Double, y: Double) { cairo_scale(raw, x, y) }
    /// Rotates the user space by `radians` (positive turns x towards y, i.e. clockwise on screen).
    public func rotate(_ radians: Double) { cairo_rotate(raw, radians) }

    public func setSource(_ color: Color) {
        cairo_set_source_rgba(raw, color.red, color.green, color.blue, color.alpha)
    }
    /// Paints from `surface` (e.g. a decoded PNG) with its top-left corner at (x, y) in user space.
    public func setSource(_ surface: Surface, x: Double, y: Double) {
        cairo_set_source_surface(raw, surface.raw, x, y)
    }
    public func setLineWidth(_ width: Double) { cairo_set_line_width(raw, width) }
    /// `[]` for solid lines.
    public func setDash(_ dashes: [Double], offset: Double = 0) {
        cairo_set_dash(raw, dashes, Int32(dashes.count), offset)
    }
    public func setLineJoin(_ join: LineJoin) {
        switch join {
        case .miter: cairo_set_line_join(raw, CAIRO_LINE_JOIN_MITER)
        case .round: cairo_set_line_join(raw, CAIRO_LINE_JOIN_ROUND)
        case .bevel: cairo_set_line_join(raw, CAIRO_LINE_JOIN_BEVEL)
        }
    }
    public func setLineCap(_ cap: LineCap) {
        switch cap {
        case .butt: cairo_set_line_cap(raw, CAIRO_LINE_CAP_BUTT)
        case .round: cairo_set_line_cap(raw, CAIRO_LINE_CAP_ROUND)
        case .square: cairo_set_line_cap(raw, CAIRO_LINE_CAP_SQUARE)
        }
    }

    // MARK: paths
    public func newPath() { cairo_new_path(raw) }
    public func moveTo(_ x: Double, _ y: Double) { cairo_move_to(raw, x, y) }
    public func lineTo(_ x: Double, _ y: Double) { cairo_line_to(raw, x, y) }
    public func closePath() { cairo_close_path(raw) }
    public func rectangle(x: Double, y: Double, width: Double, height: Double) {
        cairo_rectangle(raw, x, y, width, height)
    }
    /// A circular arc around (cx, cy) from angle1 to angle2 in radians.
    public func arc(cx: Double, cy: Double, radius: Double, from angle1: Double, to angle2: Double) {
        cairo_arc(raw, cx, cy, radius, angle1, angle2)
    }
    /// A closed circle, as its own sub-path.
    public func circle(cx: Double, cy: Double, radius: Double) {
        cairo_new_sub_path(raw)
        cairo_arc(raw, cx, cy, radius, 0, 2 * Double.pi)
        cairo_close_path(raw)
    }

    // MARK: painting
    public func stroke() { cairo_stroke(raw) }
    public func fill() { cairo_fill(raw) }
    /// Fills the whole clip region with the source.
    public func paint() { cairo_paint(raw) }
    public func clip() { cairo_clip(raw) }
    /// Ends the current PDF page; drawing continues on a new one.
    public func showPage() { cairo_show_page(raw) }

    // MARK: text
    /// Sets the language (BCP 47: "ko", "ja", "en", "zh-TW") that Pango uses to choose fonts and
    /// glyph forms, e.g. Korean or Japanese shapes of Han characters in Noto Sans CJK.
    /// Applies to layouts created afterwards.
    public func setTextLanguage(_ tag: String) {
        language = tag
        if surface.kind == .pdf, FontFamily.document(language: tag) != FontFamily.generic { FontSubsetMemory.prepare() }
        if let pangoContext { pango_context_set_language(pangoContext, pango_language_from_string(tag)) }
        if let systemPangoContext { pango_context_set_language(systemPangoContext, pango_language_from_string(tag)) }
    }

    /// Whether Pango rounds each glyph's position to a whole user unit (its default since 1.44). At 72 dpi that
    /// is a whole point: small type (the emergency card's 4.6 pt caption) is then spaced unevenly ("Sc an",
    /// "samefactsastext") and pdftotext loses the spaces between words. Set false before the first text layout
    /// to place glyphs where their unhinted advances put them. (The report and the charts keep the default:
    /// their golden images were drawn with it.)
    public var roundsGlyphPositions = true

    /// Sets the text of a PDF in Korean, Japanese or Chinese on `DocumentFontSet` (the fonts the document
    /// can use, not every installed font), which draws the same and lays out faster; text with a
    /// character none of those fonts has is laid out on the system's fonts. Call before the first text
    /// layout; no effect for other languages, other surfaces, or when the set could not be made.
    public func useDocumentFontSet() {
        documentFontSet = true
    }

    /// Whether layouts start on the document font set (and must be laid out again on the system's fonts
    /// when a character is missing).
    var onDocumentFontSet: Bool {
        _ = sharedPangoContext()
        return sharedOnDocumentFontSet
    }

    /// Brings the Pango contexts up to this context's transform and surface, both of them when text is on
    /// the document font set: a layout measured before it is drawn (a right-aligned header) then sees the
    /// same state as with one shared context.
    func updatePangoContexts() {
        if let pangoContext { pango_cairo_update_context(raw, pangoContext) }
        if let systemPangoContext { pango_cairo_update_context(raw, systemPangoContext) }
    }

    /// The Pango context on the system's font map (the shared one unless it is on the document font set;
    /// made on first use, so that a report whose text the set covers never loads the system's fonts).
    func systemFontsPangoContext() -> OpaquePointer {
        let shared = sharedPangoContext()
        guard sharedOnDocumentFontSet else { return shared }
        if let systemPangoContext { return systemPangoContext }
        // safe: pango_font_map_create_context never returns NULL for a font map.
        let made = configured(pango_font_map_create_context(UnsafeMutablePointer<PangoFontMap>(FontMaps.system()))!)
        systemPangoContext = made
        return made
    }

    /// The Pango context shared by this context's layouts: 72 dpi, so that a font size of N is
    /// N user units; unhinted metrics, so that text measures the same on PNG, PDF and SVG.
    func sharedPangoContext() -> OpaquePointer {
        if let pangoContext { return pangoContext }
        if documentFontSet, surface.kind == .pdf, let language,
           let map = FontMaps.document(language: language),
           let own = pango_font_map_create_context(UnsafeMutablePointer<PangoFontMap>(map)) {
            sharedOnDocumentFontSet = true
            let made = configured(own)
            pangoContext = made
            return made
        }
        // safe: pango_font_map_create_context never returns NULL for a font map.
        let made = configured(pango_font_map_create_context(UnsafeMutablePointer<PangoFontMap>(FontMaps.system()))!)
        pangoContext = made
        return made
    }

    /// 72 dpi, unhinted metrics, grey antialiasing, this context's language.
    private func configured(_ made: OpaquePointer) -> OpaquePointer {
        pango_cairo_update_context(raw, made)
        pango_cairo_context_set_resolution(made, 72)
        let options = cairo_font_options_create()
        cairo_font_options_set_hint_metrics(options, CAIRO_HINT_METRICS_OFF)
        cairo_font_options_set_hint_style(options, CAIRO_HINT_STYLE_NONE)
        cairo_font_options_set_antialias(options, CAIRO_ANTIALIAS_GRAY)
        pango_cairo_context_set_font_options(made, options)
        cairo_font_options_destroy(options)
        if !roundsGlyphPositions { pango_context_set_round_glyph_positions(made, 0) }
        if let language { pango_context_set_language(made, pango_language_from_string(language)) }
        return made
    }
}
