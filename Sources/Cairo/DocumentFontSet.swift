import CCairo

/// A Pango font map that knows only the fonts a Korean, Japanese or Chinese document can be set in.
///
/// With the system's font map, every text run makes fontconfig sort all installed fonts (242 on the
/// reference machine) against the document's language, which was most of what a Korean or Japanese
/// report took over the English one (docs/benchmarks.md, "Private font set"). This map has its own
/// `FcConfig`: the system's rules (its configuration file parsed again, so aliases, language and
/// hinting rules stay the same) but only the font directories (read from fontconfig's caches, in the
/// system's order: no font file is opened) that hold the families these documents use: Nanum Gothic, M PLUS 2, Noto Sans CJK and whatever family
/// "Sans" resolves to for ko, ja and zh (DejaVu Sans on the reference machine). A fontconfig sort over a
/// subset keeps the subset's order, so a character one of these fonts has is drawn from the same font
/// as on the system map. A character none of them has (an emoji, a rare script) is laid out again on the
/// system map (`TextLayout`), so it falls back through every installed font exactly as before; the
/// emoji font is deliberately left out for that reason (another installed font may rank above it).
/// Made once per process; nil (the system map is used) when fontconfig has no configuration or none
/// of the families is installed.
enum DocumentFontSet {
    /// The families whose installed faces make up the set (the CJK families of `FontFamily.document`).
    static let families = ["NanumGothic", "M PLUS 2", "Noto Sans CJK KR", "Noto Sans CJK JP",
                           "Noto Sans CJK SC", "Noto Sans CJK TC", "Noto Sans CJK HK"]

    /// The font map, made on first use.
    nonisolated(unsafe) static let fontMap: OpaquePointer? = make()

    private static func make() -> OpaquePointer? {
        // The configuration the system's font map uses (loaded once per process either way).
        guard let system = FcConfigGetCurrent(), let installed = FcConfigGetFonts(system, FcSetSystem),
              installed.pointee.nfont > 0 else { return nil }
        var wanted = Set(families.map(key))
        // "Sans" as fontconfig resolves it for each CJK language: the Latin fallback of the family list.
        for language in ["ko", "ja", "zh-cn", "zh-tw"] {
            guard let family = resolvedFamily(FontFamily.generic, language: language, in: system) else { return nil }
            wanted.insert(key(family))
        }
        // safe: FcConfigCreate returns NULL only when out of memory.
        guard let config = FcConfigCreate() else { return nil }
        defer { FcConfigDestroy(config) }
        guard let file = FcConfigFilename(nil) else { return nil }
        defer { FcStrFree(file) }
        // Rules only: the <dir> entries are recorded but never scanned (FcConfigBuildFonts is not called).
        guard FcConfigParseAndLoad(config, file, FcFalse) != 0 else { return nil }
        // The directories holding the wanted families' faces, in the system's order; each is added from
        // its fontconfig cache (no font file is read), with the other faces it holds (a subset of the
        // installed fonts all the same).
        var directories: [String] = []
        var found = Set<String>()
        for index in 0..<Int(installed.pointee.nfont) {
            guard let pattern = installed.pointee.fonts[index],
                  let match = familyNames(pattern).first(where: { wanted.contains(key($0)) }) else { continue }
            var path: UnsafeMutablePointer<FcChar8>?
            guard FcPatternGetString(pattern, FC_FILE, 0, &path) == FcResultMatch, let path else { continue }
            let file = String(cString: path)
            guard let slash = file.lastIndex(of: "/") else { continue }
            let directory = String(file[..<slash])
            if !directories.contains(directory) { directories.append(directory) }
            found.insert(key(match))
        }
        // No CJK family installed: nothing to gain.
        guard !found.intersection(families.map(key)).isEmpty else { return nil }
        for directory in directories {
            guard FcConfigAppFontAddDir(config, directory) != 0 else { return nil }
        }
        // safe: pango_cairo_font_map_new_for_font_type returns NULL only for a font type it lacks;
        // the FreeType/fontconfig one is what pangocairo is built on here.
        guard let map = pango_cairo_font_map_new_for_font_type(CAIRO_FONT_TYPE_FT) else { return nil }
        pango_fc_font_map_set_config(OpaquePointer(map), config)
        return OpaquePointer(map)
    }

    /// The first family of the font fontconfig picks for `family` in `language` on `config`.
    private static func resolvedFamily(_ family: String, language: String, in config: OpaquePointer) -> String? {
        guard let pattern = FcPatternCreate() else { return nil }
        defer { FcPatternDestroy(pattern) }
        FcPatternAddString(pattern, FC_FAMILY, family)
        FcPatternAddString(pattern, FC_LANG, language)
        FcConfigSubstitute(config, pattern, FcMatchPattern)
        FcDefaultSubstitute(pattern)
        var result = FcResultNoMatch
        guard let match = FcFontMatch(config, pattern, &result) else { return nil }
        defer { FcPatternDestroy(match) }
        return familyNames(match).first
    }

    private static func familyNames(_ pattern: OpaquePointer) -> [String] {
        var names: [String] = []
        var value: UnsafeMutablePointer<FcChar8>?
        var n: Int32 = 0
        while FcPatternGetString(pattern, FC_FAMILY, n, &value) == FcResultMatch, let value {
            names.append(String(cString: value))
            n += 1
        }
        return names
    }

    /// Family names compared as fontconfig does: case and blanks ignored.
    private static func key(_ name: String) -> String { name.lowercased().filter { $0 != " " } }
}
