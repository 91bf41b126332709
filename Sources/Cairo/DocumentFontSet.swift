import CCairo
import Foundation
import PetFiles

/// The Pango font maps text is laid out on: the system's fonts, and for a Korean, Japanese or Chinese
/// PDF a small private set of the fonts its text is set in.
///
/// With the system's fonts, every text run of a Korean or Japanese report makes fontconfig sort all
/// installed fonts (242 on the reference machine) against the document's language, and loading the
/// system configuration (its rules and the caches of every font directory) costs as much again: that was
/// what a Korean or Japanese report took over the English one (docs/benchmarks.md, "Round 4: the
/// document font set"). The private set is a font map with its own `FcConfig` made from a few lines of
/// rules and the cached patterns of only the faces the document can be drawn in, listed in a small file
/// in the user's cache directory (`DocumentFontSet.Cache`); the system configuration is not loaded at all
/// unless a layout needs it.
///
/// Which faces: those that come first in the system's own font order for the document's family list
/// ("NanumGothic,Noto Sans CJK KR,Sans" and the language), in regular and bold, up to the last face of
/// those families (what "Sans" stands for included: DejaVu Sans on the reference machine). Because the
/// set is a prefix of the system's order, a character one of its faces has is drawn from the same face as
/// on the system's fonts; a character none has (an emoji, a rare script) leaves an unknown glyph, and
/// `TextLayout` lays that text out again on the system's fonts, so it falls back exactly as before. When
/// the list is made, the private map's font lists are compared with the system's (file, face index,
/// synthetic bold, for each weight); a mismatch means no private set for that language. The list is made
/// again when any stamp it keeps changed: the fontconfig configuration files, the font directories, the
/// listed font files and fontconfig's cache files (path, size, modification time), or the
/// `FONTCONFIG_FILE`/`FONTCONFIG_PATH`/`FONTCONFIG_SYSROOT` environment. Any error: the system's fonts.
enum FontMaps {
    /// Whether this process has created a Pango font map yet (set before the first one).
    nonisolated(unsafe) fileprivate static var started = false
    /// Whether fontconfig's current configuration is a private set's (made current before any font map, so
    /// that Pango's start-up does not load the system configuration); the system map is then made explicitly.
    nonisolated(unsafe) fileprivate static var currentIsPrivate = false
    nonisolated(unsafe) private static var systemMap: OpaquePointer?
    nonisolated(unsafe) private static var documentMaps: [String: OpaquePointer?] = [:]

    /// The font map of every installed font, with the system's rules: Pango's default map (one per
    /// thread), or one on an explicitly loaded system configuration once a private set is current.
    static func system() -> OpaquePointer {
        started = true
        if currentIsPrivate {
            if let systemMap { return systemMap }
            if let config = FcInitLoadConfigAndFonts() {
                defer { FcConfigDestroy(config) }
                if let map = DocumentFontSet.fontMap(config) {
                    systemMap = map
                    return map
                }
            }
        }
        // safe: pango_cairo_font_map_get_default never returns NULL (it makes the map on first use).
        return OpaquePointer(pango_cairo_font_map_get_default()!)
    }

    /// The private font map for documents in `language` (a BCP 47 tag), or nil (use the system's fonts).
    static func document(language: String) -> OpaquePointer? {
        if let made = documentMaps[language] { return made }
        let map = makeDocumentMap(language: language)
        documentMaps[language] = map
        return map
    }

    private static func makeDocumentMap(language: String) -> OpaquePointer? {
        guard FontFamily.document(language: language) != FontFamily.generic,
              let stamps = DocumentFontSet.Cache.environmentKey() else { return nil }
        let file = DocumentFontSet.Cache.file(language: language, environment: stamps)
        // The listed faces, when nothing they depend on changed: the system configuration is not loaded.
        if let file, let list = DocumentFontSet.Cache.read(file, environment: stamps),
           let config = DocumentFontSet.config(faces: list.faces, cacheFiles: list.cacheFiles, makeCurrent: !started) {
            defer { FcConfigDestroy(config) }
            return DocumentFontSet.fontMap(config)
        }
        // Made again from the system's fonts, checked, and written down for the next run.
        guard let made = DocumentFontSet.build(language: language, system: system()) else { return nil }
        if let file { DocumentFontSet.Cache.write(made.list, to: file, environment: stamps) }
        return made.map
    }
}

enum DocumentFontSet {
    /// One face of the set: its font file and face index, as fontconfig's cache lists them.
    struct Face: Hashable { var file: String; var index: Int32 }

    /// The faces of a set in the system's order, the fontconfig cache files they are read from, and the
    /// stamps of everything the order depends on.
    struct List { var faces: [Face]; var cacheFiles: [String]; var stamps: [String] }

    /// The weights the set is checked in (the report's text is regular and bold, upright).
    static let weights: [PangoWeight] = [PANGO_WEIGHT_NORMAL, PANGO_WEIGHT_BOLD]

    /// The rules of the private configuration: fontconfig's synthetic bold and oblique
    /// (/etc/fonts/conf.d/90-synthetic.conf), the only rules that change how one of the set's faces is drawn
    /// in a PDF (hinting and antialiasing are the PDF surface's: none and grey, whatever the rules say).
    static let rules = """
        <?xml version="1.0"?><!DOCTYPE fontconfig SYSTEM "urn:fontconfig:fonts.dtd"><fontconfig>
        <match target="font"><test name="slant"><const>roman</const></test>
        <test target="pattern" name="slant" compare="not_eq"><const>roman</const></test>
        <edit name="matrix" mode="assign"><times><name>matrix</name><matrix><double>1</double><double>0.2</double>
        <double>0</double><double>1</double></matrix></times></edit>
        <edit name="slant" mode="assign"><const>oblique</const></edit><edit name="embeddedbitmap" mode="assign"><bool>false</bool></edit></match>
        <match target="font"><test name="weight" compare="less_eq"><const>medium</const></test>
        <test target="pattern" name="weight" compare="more_eq"><const>bold</const></test>
        <edit name="embolden" mode="assign"><bool>true</bool></edit><edit name="weight" mode="assign"><const>bold</const></edit></match>
        </fontconfig>
        """

    /// A configuration holding only `faces`, read from fontconfig's cache files (no font file is opened,
    /// no directory scanned); nil if one is missing.
    /// With `makeCurrent` (no font map made yet in this process), the configuration becomes fontconfig's
    /// current one before the cache files are read: reading one, and Pango's start-up, would otherwise load
    /// the system configuration. The system's fonts are then loaded explicitly (`FontMaps.system`).
    static func config(faces: [Face], cacheFiles: [String], makeCurrent: Bool = false) -> OpaquePointer? {
        guard let config = FcConfigCreate() else { return nil }
        guard FcConfigParseAndLoadFromMemory(config, rules, FcTrue) != 0, FcConfigBuildFonts(config) != 0,
              let set = FcConfigGetFonts(config, FcSetSystem) else { FcConfigDestroy(config); return nil }
        if makeCurrent {
            FontMaps.started = true
            FontMaps.currentIsPrivate = FcConfigSetCurrent(config) != 0
        }
        var found: [Face: OpaquePointer] = [:]
        let wanted = Set(faces)
        for path in cacheFiles {
            // The cache stays mapped for the process: the patterns' character sets point into it.
            guard let cache = FcDirCacheLoadFile(path, nil), let copy = FcCacheCopySet(cache) else {
                FcConfigDestroy(config); return nil
            }
            defer { FcFontSetDestroy(copy) }
            for index in 0..<Int(copy.pointee.nfont) {
                guard let pattern = copy.pointee.fonts[index], let face = face(of: pattern),
                      wanted.contains(face), found[face] == nil, let duplicate = FcPatternDuplicate(pattern) else { continue }
                found[face] = duplicate
            }
        }
        guard found.count == wanted.count else {
            found.values.forEach { FcPatternDestroy($0) }
            FcConfigDestroy(config); return nil
        }
        for face in faces {
            // safe: every face was found (checked above).
            FcFontSetAdd(set, found[face]!)
        }
        return config
    }

    /// A Pango font map on `config` (which it references).
    static func fontMap(_ config: OpaquePointer) -> OpaquePointer? {
        guard let map = pango_cairo_font_map_new_for_font_type(CAIRO_FONT_TYPE_FT) else { return nil }
        pango_fc_font_map_set_config(OpaquePointer(map), config)
        return OpaquePointer(map)
    }

    static func face(of pattern: OpaquePointer) -> Face? {
        var path: UnsafeMutablePointer<FcChar8>?
        var index: Int32 = 0
        guard FcPatternGetString(pattern, FC_FILE, 0, &path) == FcResultMatch, let path,
              FcPatternGetInteger(pattern, FC_INDEX, 0, &index) == FcResultMatch else { return nil }
        return Face(file: String(cString: path), index: index)
    }

    /// The fonts Pango would try, in order, for the document's text in `language` and `weight` on `map`:
    /// each as file, face index and synthetic bold.
    static func fontList(on map: OpaquePointer, language: String, weight: PangoWeight) -> [String] {
        guard let context = pango_font_map_create_context(UnsafeMutablePointer<PangoFontMap>(map)) else { return [] }
        defer { g_object_unref(UnsafeMutableRawPointer(context)) }
        let tag = pango_language_from_string(language)
        pango_context_set_language(context, tag)
        let description = pango_font_description_new()
        defer { pango_font_description_free(description) }
        pango_font_description_set_family(description, FontFamily.document(language: language))
        pango_font_description_set_weight(description, weight)
        pango_font_description_set_size(description, 10 * PANGO_SCALE)
        guard let fontset = pango_font_map_load_fontset(UnsafeMutablePointer<PangoFontMap>(map), context,
                                                        description, tag) else { return [] }
        defer { g_object_unref(UnsafeMutableRawPointer(fontset)) }
        final class Box { var list: [String] = [] }
        let box = Box()
        pango_fontset_foreach(fontset, { _, font, data in
            guard let font, let data else { return 1 }
            let box = Unmanaged<Box>.fromOpaque(data).takeUnretainedValue()
            let pattern = UnsafeMutableRawPointer(font).assumingMemoryBound(to: PangoFcFont.self).pointee.font_pattern
            guard let pattern, let face = DocumentFontSet.face(of: pattern) else { box.list.append("?"); return 0 }
            var embolden: FcBool = 0
            _ = FcPatternGetBool(pattern, FC_EMBOLDEN, 0, &embolden)
            box.list.append("\(face.file)\t\(face.index)\t\(embolden)")
            return 0
        }, Unmanaged.passUnretained(box).toOpaque())
        return box.list
    }

    /// Makes the set for `language` from the system's fonts and checks it; nil when it would not lay out
    /// exactly as the system's fonts.
    static func build(language: String, system: OpaquePointer) -> (map: OpaquePointer, list: List)? {
        guard let systemConfig = pango_fc_font_map_get_config(system) ?? FcConfigGetCurrent() else { return nil }
        // The families of the document's family list, "Sans" as fontconfig resolves it for the language.
        var families = Set(FontFamily.document(language: language).split(separator: ",").map { key(String($0)) })
        families.remove(key(FontFamily.generic))
        guard let sans = resolvedFamily(FontFamily.generic, language: language, in: systemConfig) else { return nil }
        families.insert(key(sans))
        // Each weight's system order, up to the last face of those families.
        var faces: [Face] = []
        var lists: [[String]] = []
        for weight in weights {
            let list = fontList(on: system, language: language, weight: weight)
            lists.append(list)
            let patterns = systemPatterns(list, config: systemConfig)
            guard let last = patterns.lastIndex(where: { familyNames($0.pattern).contains { families.contains(key($0)) } })
            else { return nil }
            for entry in patterns[...last] where !faces.contains(entry.face) { faces.append(entry.face) }
        }
        guard !faces.isEmpty else { return nil }
        // Where fontconfig caches each face's directory.
        var cacheFiles: [String] = []
        for directory in Set(faces.map { ($0.file as NSString).deletingLastPathComponent }).sorted() {
            var path: UnsafeMutablePointer<FcChar8>?
            guard let cache = FcDirCacheLoad(directory, systemConfig, &path), let path else { return nil }
            FcDirCacheUnload(cache)
            cacheFiles.append(String(cString: path))
            FcStrFree(path)
        }
        guard let config = config(faces: faces, cacheFiles: cacheFiles) else { return nil }
        defer { FcConfigDestroy(config) }
        guard let map = fontMap(config) else { return nil }
        // The private lists must be the start of the system's, weight by weight.
        for (weight, systemList) in zip(weights, lists) {
            let own = fontList(on: map, language: language, weight: weight)
            guard !own.isEmpty, own.count <= systemList.count, Array(systemList[..<own.count]) == own else {
                g_object_unref(UnsafeMutableRawPointer(map))
                return nil
            }
        }
        let stamps = Cache.stamps(config: systemConfig, faces: faces, cacheFiles: cacheFiles)
        return (map, List(faces: faces, cacheFiles: cacheFiles, stamps: stamps))
    }

    /// The system's patterns of a font list's faces (read back from the system font set).
    private static func systemPatterns(_ list: [String], config: OpaquePointer) -> [(face: Face, pattern: OpaquePointer)] {
        var byFace: [Face: OpaquePointer] = [:]
        for kind in [FcSetSystem, FcSetApplication] {
            guard let set = FcConfigGetFonts(config, kind) else { continue }
            for index in 0..<Int(set.pointee.nfont) {
                if let pattern = set.pointee.fonts[index], let face = face(of: pattern) { byFace[face] = byFace[face] ?? pattern }
            }
        }
        return list.compactMap { line in
            let fields = line.split(separator: "\t", omittingEmptySubsequences: false)
            guard fields.count == 3, let index = Int32(fields[1]) else { return nil }
            let face = Face(file: String(fields[0]), index: index)
            return byFace[face].map { (face, $0) }
        }
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

    /// The list of a language's set in the user's cache directory (`$XDG_CACHE_HOME/petlog` or
    /// `~/.cache/petlog`), one file per language and fontconfig environment, text lines:
    /// `petlog-fonts 1`, `env …`, then `stamp PATH SIZE MTIME`, `cache PATH`, `face FILE INDEX`, tab-separated.
    enum Cache {
        static let header = "petlog-fonts 1"

        /// The fontconfig environment variables, one line; nil if one holds a tab or a line break.
        static func environmentKey() -> String? {
            let values = ["FONTCONFIG_FILE", "FONTCONFIG_PATH", "FONTCONFIG_SYSROOT"].map {
                ProcessInfo.processInfo.environment[$0] ?? ""
            }
            guard !values.contains(where: { $0.contains("\t") || $0.contains("\n") }) else { return nil }
            return values.joined(separator: "\t")
        }

        static func file(language: String, environment: String) -> String? {
            let env = ProcessInfo.processInfo.environment
            let base: String
            if let xdg = env["XDG_CACHE_HOME"], xdg.hasPrefix("/") { base = xdg }
            else if let home = env["HOME"], home.hasPrefix("/") { base = home + "/.cache" }
            else { return nil }
            let safe = language.lowercased().filter { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-") }
            guard !safe.isEmpty else { return nil }
            // FNV-1a of the environment line: another FONTCONFIG_FILE is another list.
            var hash: UInt64 = 0xcbf2_9ce4_8422_2325
            for byte in environment.utf8 { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3 }
            return "\(base)/petlog/fonts-\(safe)-\(String(hash, radix: 16)).txt"
        }

        /// "PATH\tSIZE\tMTIME" for a file or directory that exists, nil otherwise.
        static func stamp(_ path: String) -> String? {
            var info = stat()
            guard stat(path, &info) == 0 else { return nil }
            return "\(path)\t\(info.st_size)\t\(info.st_mtim.tv_sec).\(info.st_mtim.tv_nsec)"
        }

        /// Everything the system's order of the set depends on: the configuration files, every font
        /// directory (a font added or removed anywhere changes one), the set's font files and cache files.
        static func stamps(config: OpaquePointer, faces: [Face], cacheFiles: [String]) -> [String] {
            var paths: [String] = []
            for list in [FcConfigGetConfigFiles(config), FcConfigGetFontDirs(config), FcConfigGetConfigDirs(config)] {
                guard let list else { continue }
                while let path = FcStrListNext(list) { paths.append(String(cString: path)) }
                FcStrListDone(list)
            }
            paths += Set(faces.map(\.file)).sorted() + cacheFiles
            var seen = Set<String>()
            return paths.filter { seen.insert($0).inserted }.compactMap(stamp)
        }

        static func read(_ file: String, environment: String) -> List? {
            guard let text = try? String(contentsOfFile: file, encoding: .utf8) else { return nil }
            var lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
            guard lines.count > 2, lines[0] == header, lines[1] == "env\t" + environment else { return nil }
            if lines.last == "" { lines.removeLast() }
            var list = List(faces: [], cacheFiles: [], stamps: [])
            for line in lines.dropFirst(2) {
                let fields = line.split(separator: "\t", maxSplits: 1, omittingEmptySubsequences: false)
                guard fields.count == 2 else { return nil }
                let value = String(fields[1])
                switch fields[0] {
                case "stamp":
                    guard let path = value.split(separator: "\t").first, stamp(String(path)) == value else { return nil }
                    list.stamps.append(value)
                case "cache": list.cacheFiles.append(value)
                case "face":
                    guard let tab = value.lastIndex(of: "\t"), let index = Int32(value[value.index(after: tab)...])
                    else { return nil }
                    list.faces.append(Face(file: String(value[..<tab]), index: index))
                default: return nil
                }
            }
            guard !list.faces.isEmpty, !list.cacheFiles.isEmpty, !list.stamps.isEmpty else { return nil }
            return list
        }

        /// Written through `OutputFile` (every write and the fsync checked before the rename, the temporary
        /// file removed on failure or Ctrl-C); errors are ignored (the next run makes the list again).
        static func write(_ list: List, to file: String, environment: String) {
            let paths = list.faces.map(\.file) + list.cacheFiles
            guard !paths.contains(where: { $0.contains("\n") || $0.contains("\t") }) else { return }
            var text = header + "\nenv\t" + environment + "\n"
            for stamp in list.stamps { text += "stamp\t\(stamp)\n" }
            for cache in list.cacheFiles { text += "cache\t\(cache)\n" }
            for face in list.faces { text += "face\t\(face.file)\t\(face.index)\n" }
            let directory = (file as NSString).deletingLastPathComponent
            // 0700 and 0600, as every folder and file petlog makes (README, "Where the data lives").
            try? FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true,
                                                     attributes: [.posixPermissions: 0o700])
            try? OutputFile.write(Data(text.utf8), to: file)
        }
    }
}
