import Foundation
import XCTest
import PetlogTestSupport

/// Each language end to end, and the binary finding its tables wherever it is copied.
final class LanguageTests: CLITestCase {
    override class var firstStoreOnly: [String: String] { [
        "testJSONOutputIsTheSameInEveryLanguage": "JSON output does not depend on the UI language",
        "testACopiedBinaryStillSpeaksEveryLanguage": "the binary finding its strings where it is copied",
    ] }

    func testKoreanAndJapaneseEndToEnd() throws {
        try ok("pet", "add", "Coco", "--species", "dog", "--sex", "f")
        let ko = try run(["weight", "Coco", "4.2kg"], env: ["LANG": "ko_KR.UTF-8"])
        XCTAssertTrue(ko.stdout.contains("체중"), ko.stdout)
        let ja = try run(["pet", "list"], env: ["PETLOG_LANG": "ja"])
        XCTAssertTrue(ja.stdout.contains("名前"), ja.stdout)
        XCTAssertTrue(ja.stdout.contains("メス"), ja.stdout)
        // --lang beats PETLOG_LANG beats LANG.
        let en = try run(["pet", "list", "--lang", "en"], env: ["PETLOG_LANG": "ja", "LANG": "ko_KR.UTF-8"])
        XCTAssertTrue(en.stdout.contains("Name"), en.stdout)
        // Errors are localized too.
        let err = try run(["weight", "Cocoa", "4kg"], env: ["LANG": "ja_JP.UTF-8"])
        XCTAssertEqual(err.status, 66)
        XCTAssertTrue(err.stderr.contains("Coco"), err.stderr)
        XCTAssertFalse(err.stderr.contains("did you mean"), err.stderr)
        // Day headers read naturally in each language.
        XCTAssertTrue(try run(["log"], env: ["LANG": "ko_KR.UTF-8"]).stdout.contains("2026년 11월 23일 월"))
        XCTAssertTrue(try run(["log"], env: ["LANG": "ja_JP.UTF-8"]).stdout.contains("2026年11月23日 月"))
        XCTAssertTrue(try ok("log").contains("Nov 23, 2026 Mon"))
    }

    /// Machine output is the same bytes in every language: keys are codes and ids, values are stored
    /// values, and the order does not follow translated names.
    func testJSONOutputIsTheSameInEveryLanguage() throws {
        try ok("demo", "--end", "2026-11-20")
        for args in [["pet", "list"], ["pet", "show", "Coco"], ["log", "--since", "30d"], ["due", "--within", "60d"],
                     // The home currency follows the language unless given (ko won, ja yen, C dollars): fixed here.
                     ["stats", "Coco", "--currency", "KRW"], ["stats", "--currency", "KRW"], ["calendar", "--spending", "--currency", "KRW"],
                     ["budget", "list"], ["budget", "show"], ["med", "list", "Nabi"], ["search", "vomit"]] {
            let en = try run(args + ["--json", "--lang", "en"])
            XCTAssertEqual(en.status, 0, "\(args): \(en.stderr)")
            for lang in ["ko", "ja"] {
                XCTAssertEqual(try run(args + ["--json", "--lang", lang]).stdout, en.stdout, "\(args) --lang \(lang)")
            }
        }
    }

    /// Input as Korean and Japanese owners type it: full-width digits and units, and days and spans in words.
    func testFullWidthNumbersAndLocalTimeWords() throws {
        try ok("pet", "add", "Coco", "--species", "dog")
        for (mass, at) in [("４.２ｋｇ", "어제 18:00"), ("4.2 kg", "3일 전"), ("9 lb 4 oz", "昨日 08:30"), ("４２００ｇ", "2時間前")] {
            XCTAssertEqual(try run(["weight", "Coco", mass, "--at", at]).status, 0, "\(mass) at \(at)")
        }
        let weights = try XCTUnwrap(try json("log", "Coco", "--kind", "weight") as? [[String: Any]])
        XCTAssertEqual(weights.count, 4)
        try ok("vaccine", "Coco", "rabies", "--date", "오늘", "--next", "1년")
        let due = try XCTUnwrap(try json("due", "Coco", "--within", "400d") as? [[String: Any]])
        XCTAssertTrue(due.contains { ($0["due_on"] as? String) == "2027-11-23" }, "\(due)")
    }

    func testANameTypedInDecomposedHangulFindsThePet() throws {
        try ok("pet", "add", "나비", "--species", "cat")
        XCTAssertEqual(try run(["weight", "나비".decomposedStringWithCanonicalMapping, "5kg"]).status, 0)
        XCTAssertEqual(try run(["weight", "ＣＯＣＯ", "5kg"]).status, 66)
    }

    func testACopiedBinaryStillSpeaksEveryLanguage() throws {
        let elsewhere = home.appendingPathComponent("bin/petlog")
        try FileManager.default.createDirectory(at: elsewhere.deletingLastPathComponent(), withIntermediateDirectories: true)
        try FileManager.default.copyItem(at: Self.binary, to: elsewhere)
        // An empty database (reads never create one), so pet list has its Korean "no pets yet" to say.
        try ok("pet", "add", "Coco", "--species", "dog")
        try ok("pet", "remove", "Coco", "--yes")
        let p = Process()
        p.executableURL = elsewhere
        p.arguments = ["--db", dbPath, "--lang", "ko", "pet", "list"]
        p.environment = ["HOME": home.path, "PATH": "/usr/bin:/bin"]
        p.currentDirectoryURL = URL(fileURLWithPath: "/")
        let pipe = Pipe()
        p.standardOutput = pipe
        try p.run()
        let out = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        p.waitUntilExit()
        XCTAssertEqual(p.terminationStatus, 0)
        XCTAssertTrue(out.contains("반려동물을 추가") || out.contains("반려동물"), out)
    }
}
