import Foundation
import XCTest
import PetlogTestSupport

/// What petlog lays out for a terminal fits it, measured in display columns (Hangul, kana and kanji
/// take two), at 80 and 40 columns, in English, Korean and Japanese: petlog runs on a pseudo-terminal
/// of that width (`onTerminal`, PetlogTestSupport/pty/run-in-pty.py), so the width comes from the terminal itself.
final class TerminalWidthTests: CLITestCase {
    override class var onOneStoreOnly: String? { "about laying text out for a terminal, not the store" }
    static let languages = ["en", "ko", "ja"]
    static let widths = [80, 40]

    /// Display columns, counted here independently of petlog's own function: East Asian Wide and
    /// Fullwidth characters are 2, combining marks 0, colour codes 0.
    static func displayWidth(_ line: String) -> Int {
        var w = 0
        var escape = false
        for s in line.unicodeScalars {
            if escape { if (0x40...0x7E).contains(s.value) && s != "[" { escape = false }; continue }
            if s == "\u{1B}" { escape = true; continue }
            if s.properties.generalCategory == .nonspacingMark || (0xFE00...0xFE0F).contains(s.value) || s.value == 0x200D { continue }
            let v = s.value
            let wide = (0x1100...0x115F).contains(v) || (0x2E80...0x303E).contains(v) || (0x3041...0x33FF).contains(v)
                || (0x3400...0x4DBF).contains(v) || (0x4E00...0x9FFF).contains(v) || (0xAC00...0xD7A3).contains(v)
                || (0xF900...0xFAFF).contains(v) || (0xFE30...0xFE4F).contains(v) || (0xFF00...0xFF60).contains(v)
                || (0xFFE0...0xFFE6).contains(v) || (0x1F300...0x1F64F).contains(v) || (0x1F900...0x1FAFF).contains(v)
            w += wide ? 2 : 1
        }
        return w
    }

    /// petlog's standard output on a terminal `columns` wide.
    func screen(_ args: [String], columns: Int, lang: String, file: StaticString = #filePath, line: UInt = #line) throws -> String {
        let r = try onTerminal(columns: columns, [Self.binary.path, "--db", dbPath, "--lang", lang] + args, env: ["NO_COLOR": "1"])
        XCTAssertEqual(r.status, 0, "\(args) \(lang) at \(columns): \(r.stderr)", file: file, line: line)
        return r.stdout
    }

    func lines(_ text: String) -> [String] { text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init) }

    /// Every line within `columns` display columns.
    func assertFits(_ text: String, _ columns: Int, _ what: String, file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertFalse(text.isEmpty, what, file: file, line: line)
        for l in lines(text) where Self.displayWidth(l) > columns {
            XCTFail("\(what): \(Self.displayWidth(l)) columns > \(columns): \(l)", file: file, line: line)
        }
    }

    func testTheTestsOwnWidthCountsWideCharactersTwice() {
        XCTAssertEqual(Self.displayWidth("Coco"), 4)
        XCTAssertEqual(Self.displayWidth("나비"), 4)
        XCTAssertEqual(Self.displayWidth("投与"), 4)
        XCTAssertEqual(Self.displayWidth("ｱ"), 1, "halfwidth katakana")
        XCTAssertEqual(Self.displayWidth("\u{1B}[1mab\u{1B}[0m"), 2)
    }

    func testHelpFitsTheTerminalInEveryLanguage() throws {
        let commands: [[String]] = [[], ["weight"], ["expense", "add"], ["import"], ["check"], ["calendar"], ["chart", "weight"], ["export"]]
        for lang in Self.languages {
            for columns in Self.widths {
                for c in commands {
                    assertFits(try screen(c + ["--help"], columns: columns, lang: lang), columns, "\(c) --help, \(lang)")
                }
            }
        }
    }

    func testHelpListsHangUnderTheirTextAndParagraphsAreNotBrokenTwice() throws {
        // The preface's `--db PATH` line goes on under its text, not at column 0.
        let en = lines(try screen(["--help"], columns: 80, lang: "en"))
        let db = try XCTUnwrap(en.firstIndex { $0.hasPrefix("  --db PATH") })
        let textColumn = en[db].distance(from: en[db].startIndex, to: try XCTUnwrap(en[db].range(of: "database file")).lowerBound)
        XCTAssertTrue(en[db + 1].hasPrefix(String(repeating: " ", count: textColumn)) && en[db + 1].count > textColumn, en[db + 1])
        // On a wide terminal a paragraph is one line: the help texts carry no line breaks of their own.
        for lang in Self.languages {
            let wide = try screen(["expense", "add", "--help"], columns: 300, lang: lang)
            let amounts = try XCTUnwrap(lines(wide).first { $0.contains("12.50 USD") }, wide)
            XCTAssertTrue(amounts.contains("PETLOG_CURRENCY"), "\(lang): \(amounts)")
        }
        // Japanese wraps between characters, not only at spaces, and stays within the width.
        let ja = lines(try screen(["expense", "add", "--help"], columns: 40, lang: "ja"))
        XCTAssertGreaterThan(ja.filter { Self.displayWidth($0) >= 36 }.count, 3, "lines are filled: \(ja.joined(separator: "\n"))")
    }

    func testTheTextWeightChartFitsWithItsLegendAndSaysTheYears() throws {
        try ok("pet", "add", "Rex", "--species", "dog")
        try ok("pet", "add", "Miss Kitty", "--species", "cat")
        for (i, day) in ["2025-12-01", "2026-02-01", "2026-05-01", "2026-08-01", "2026-11-20"].enumerated() {
            try ok("weight", "Rex", "\(20 + i).5kg", "--at", day + " 08:00")
            try ok("weight", "Miss Kitty", "\(4 + i).1kg", "--at", day + " 09:00")
        }
        for lang in Self.languages {
            for columns in Self.widths {
                let out = try screen(["chart", "weight", "Rex,Miss Kitty"], columns: columns, lang: lang)
                assertFits(out, columns, "chart weight, \(lang)")
                XCTAssertTrue(out.contains("2025") && out.contains("2026"), "\(lang) at \(columns): the range crosses a year\n\(out)")
                XCTAssertTrue(out.contains("Miss Kitty"), out)
            }
        }
    }

    func testCalendarAndStatsFitNarrowTerminals() throws {
        try ok("demo", "--end", "2026-11-20")
        for lang in Self.languages {
            for columns in Self.widths {
                let calendar = try screen(["calendar", "--month", "2026-10"], columns: columns, lang: lang)
                assertFits(calendar, columns, "calendar, \(lang)")
                // The legend breaks between entries: each mark is followed by its word on the same line.
                for l in lines(calendar) where l.contains(" · ") || l.hasSuffix("·") {
                    XCTAssertFalse(l.hasSuffix(" p") || l.hasSuffix(" $") || l.hasSuffix(" w"), "\(lang): \(l)")
                }
                let days = lines(calendar).filter { $0.contains("[") || $0.hasPrefix("  1") || $0.contains(" 31") }
                XCTAssertFalse(days.isEmpty, calendar)
                assertFits(try screen(["calendar", "--month", "2026-10", "--spending", "--currency", "KRW"], columns: columns, lang: lang),
                           columns, "calendar --spending, \(lang)")
                assertFits(try screen(["stats", "--month", "2026-10", "--currency", "KRW"], columns: columns, lang: lang), columns, "stats, \(lang)")
                assertFits(try screen(["stats", "Coco", "--currency", "KRW"], columns: columns, lang: lang), columns, "stats this month, \(lang)")
            }
        }
        let ja = try screen(["calendar", "--month", "2026-10"], columns: 40, lang: "ja")
        XCTAssertTrue(ja.contains("p 投与"), ja)
    }

    func testLogColumnsLineUpByDisplayWidth() throws {
        for name in ["Rex", "Miss Kitty", "나비"] {
            try ok("pet", "add", name, "--species", name == "Rex" ? "dog" : "cat")
            try ok("weight", name, "4.5kg", "--at", "2026-11-20 08:00")
            try ok("diary", name, "Played in the garden all afternoon, then slept by the window until dinner", "--at", "2026-11-20 09:00")
        }
        for lang in Self.languages {
            for columns in Self.widths {
                let out = try screen(["log"], columns: columns, lang: lang)
                assertFits(out, columns, "log, \(lang)")
                // The record lines (`  #id  hh:mm  pet  kind  summary`): the kind starts at one column in all.
                let records = lines(out).filter { $0.hasPrefix("  #") || $0.hasPrefix("   #") }
                XCTAssertEqual(records.count, 6, out)
                let kindColumns = Set(records.map { l -> Int in
                    let pet = ["Miss Kitty", "나비", "Rex"].first { l.contains($0) } ?? ""
                    let afterPet = l.range(of: pet)!.upperBound
                    let rest = l[afterPet...]
                    let kindStart = rest.firstIndex { $0 != " " } ?? rest.endIndex
                    return Self.displayWidth(String(l[..<kindStart]))
                })
                XCTAssertEqual(kindColumns.count, 1, "\(lang) at \(columns):\n\(out)")
            }
        }
    }

    func testTheWidthComesFromColumnsOffATerminal() throws {
        try ok("demo", "--end", "2026-11-20")
        let narrow = try run(["--lang", "ko", "calendar", "--month", "2026-10"], env: ["COLUMNS": "40"])
        assertFits(narrow.stdout, 40, "COLUMNS=40")
        let wide = try run(["--lang", "ko", "calendar", "--month", "2026-10"])
        XCTAssertTrue(lines(wide.stdout).contains { Self.displayWidth($0) > 40 }, "80 without COLUMNS: \(wide.stdout)")
        let help = try run(["--lang", "ja", "expense", "add", "--help"], env: ["COLUMNS": "40"])
        assertFits(help.stdout, 40, "help with COLUMNS=40")
    }
}
