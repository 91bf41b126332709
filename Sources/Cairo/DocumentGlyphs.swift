import CCairo

/// One family per document (`FontFamily`): a character the family lacks would be drawn from a fallback
/// font, with its own height and weight (issue 42: the Korean report's `−70 g` row, Nanum Gothic having no
/// U+2212, stood taller than its neighbours in Noto Sans CJK). The symbols petlog writes into documents and
/// charts (signs, arrows, dashes, separators) are therefore each written as the first of their forms the
/// family has: the character itself where it has it, else a substitute that reads the same.
///
/// The family's coverage is asked of the font text is laid out in (Pango's first font of the document's
/// family list, in the layout's weight, on the layout's font map), once per font map, language and weight.
enum DocumentGlyphs {
    /// The symbols and what stands in for each, best first, after the symbol itself.
    static let substitutes: [Unicode.Scalar: [String]] = [
        "\u{2212}": ["-"],                 // − minus sign: Nanum Gothic has none
        "\u{2010}": ["-"],                 // ‐ hyphen
        "\u{2011}": ["\u{2010}", "-"],     // non-breaking hyphen
        "\u{2012}": ["\u{2013}", "-"],     // figure dash
        "\u{2013}": ["-"],                 // – en dash (periods, ranges)
        "\u{2014}": ["\u{2015}", "-"],     // — em dash
        "\u{2192}": ["\u{21D2}", "->"],    // → (M PLUS 2 has no arrows)
        "\u{2190}": ["\u{21D0}", "<-"],    // ←
        "\u{2191}": ["\u{25B2}"],          // ↑ rising
        "\u{2193}": ["\u{25BC}"],          // ↓ falling
        "\u{2248}": ["\u{2252}", "~"],     // ≈ converted amounts
        "\u{00D7}": ["x"],                 // × doses, multiplications
        "\u{00B1}": ["+/-"],               // ± no change
        "\u{2264}": ["<="],                // ≤
        "\u{2265}": [">="],                // ≥
        "\u{2026}": ["..."],               // … cut text
        "\u{00B7}": ["\u{30FB}", "."],     // · list separator
        "\u{2022}": ["\u{00B7}", "*"],    // • bullets
        "\u{2605}": ["*"],                 // ★ starred
        "\u{203B}": ["*"],                 // ※ note mark
        "\u{260E}": ["Tel"],               // ☎
    ]

    /// The substitutions for text in `font` (a Pango description such as "Sans Bold 9") on `pangoContext`,
    /// for the document family only (`FontFamily.generic`): each listed symbol the family lacks, mapped to
    /// its first substitute whose characters the family has (a symbol with none is left to fall back).
    nonisolated(unsafe) private static var tables: [String: [Unicode.Scalar: String]] = [:]

    /// `text` with the symbols the document family lacks written as substitutes it has; any other text as is.
    static func substituted(_ text: String, font: String, language: String?, on pangoContext: OpaquePointer) -> String {
        guard text.unicodeScalars.contains(where: { substitutes[$0] != nil }) else { return text }
        let description = pango_font_description_from_string(font)
        defer { pango_font_description_free(description) }
        guard let family = pango_font_description_get_family(description).map({ String(cString: $0) }),
              family == FontFamily.generic || family == "sans" else { return text }
        pango_font_description_set_family(description, FontFamily.document(language: language))
        let weight = pango_font_description_get_weight(description)
        let map = pango_context_get_font_map(pangoContext).map { UInt(bitPattern: UnsafeMutableRawPointer($0)) } ?? 0
        let key = "\(map) \(language ?? "") \(weight.rawValue)"
        let table: [Unicode.Scalar: String]
        if let made = tables[key] {
            table = made
        } else {
            table = make(description: description, on: pangoContext)
            tables[key] = table
        }
        guard !table.isEmpty else { return text }
        var out = String.UnicodeScalarView()
        for scalar in text.unicodeScalars {
            if let substitute = table[scalar] { out.append(contentsOf: substitute.unicodeScalars) } else { out.append(scalar) }
        }
        return String(out)
    }

    /// What the first font of the family list has and lacks, as a table of substitutions.
    private static func make(description: OpaquePointer?, on pangoContext: OpaquePointer) -> [Unicode.Scalar: String] {
        guard let font = pango_context_load_font(pangoContext, description) else { return [:] }
        defer { g_object_unref(UnsafeMutableRawPointer(font)) }
        func has(_ text: String) -> Bool {
            text.unicodeScalars.allSatisfy { $0.value < 0x20 || pango_font_has_char(font, gunichar($0.value)) != 0 }
        }
        var table: [Unicode.Scalar: String] = [:]
        for (symbol, candidates) in substitutes where !has(String(symbol)) {
            if let substitute = candidates.first(where: has) { table[symbol] = substitute }
        }
        return table
    }
}
