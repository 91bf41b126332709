import Foundation
import XCTest
import PetlogTestSupport

/// Issue 42: a urine or stool colour petlog knows is read in any language, stored as its code, and shown in the
/// UI language (`yellow` → 노란색, 黄色); a colour it does not know stays as typed.
final class ColorWordsTests: CLITestCase {
    static let korean = ["LANG": "ko_KR.UTF-8"], japanese = ["LANG": "ja_JP.UTF-8"], american = ["LANG": "en_US.UTF-8"]

    func say(_ args: [String], _ env: [String: String]) throws -> String {
        let r = try run(args, env: env)
        XCTAssertEqual(r.status, 0, r.stderr)
        return r.stdout
    }

    /// The stored colour of each record of `pet` of `kind`, oldest first (the JSON view shows the code).
    func colors(_ pet: String, _ kind: String) throws -> [String] {
        let r = try run(["log", pet, "--kind", kind, "--json"])
        XCTAssertEqual(r.status, 0, r.stderr)
        let records = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [[String: Any]], r.stdout)
        return records.sorted { ($0["id"] as? Int ?? 0) < ($1["id"] as? Int ?? 0) }
            .map { (($0[kind] as? [String: Any])?["color"] as? String) ?? "-" }
    }

    func testAColourPetlogKnowsIsShownInTheUILanguage() throws {
        try ok("pet", "add", "Coco", "--species", "dog")
        try ok("urine", "Coco", "--color", "yellow")
        try ok("stool", "Coco", "4", "--color", "brown")
        let ko = try say(["log", "Coco"], Self.korean), ja = try say(["log", "Coco"], Self.japanese)
        XCTAssertTrue(ko.contains("노란색") && ko.contains("갈색"), ko)
        XCTAssertTrue(ja.contains("黄色") && ja.contains("茶色"), ja)
        for out in [ko, ja] {
            XCTAssertFalse(out.contains("yellow") || out.contains("brown"), out)
        }
        XCTAssertTrue(try say(["show", "1"], Self.korean).contains("노란색"))
        XCTAssertTrue(try say(["show", "2"], Self.japanese).contains("茶色"))
        XCTAssertTrue(try say(["log", "Coco"], Self.american).contains("yellow"))
        // The JSON view keeps the code.
        XCTAssertEqual(try colors("Coco", "urine"), ["yellow"])
    }

    func testAColourTypedInKoreanOrJapaneseIsStoredAsItsCode() throws {
        try ok("pet", "add", "Coco", "--species", "dog")
        _ = try say(["urine", "Coco", "--color", "노란색"], Self.korean)
        _ = try say(["urine", "Coco", "--color", "黄色"], Self.japanese)
        _ = try say(["urine", "Coco", "--color", "노랑"], Self.american)
        _ = try say(["urine", "Coco", "--color", "Pale Yellow"], Self.japanese)
        _ = try say(["urine", "Coco", "--color", "lemon chiffon"], Self.korean)
        XCTAssertEqual(try colors("Coco", "urine"), ["yellow", "yellow", "yellow", "pale-yellow", "lemon chiffon"])
        _ = try say(["stool", "Coco", "5", "--color", "茶色"], Self.japanese)
        _ = try say(["stool", "Coco", "5", "--color", "검정"], Self.korean)
        XCTAssertEqual(try colors("Coco", "stool"), ["brown", "black"])
        // The same colour, typed in three languages, is one word to the views: an unknown one as typed.
        let ko = try say(["log", "Coco", "--kind", "urine"], Self.korean)
        XCTAssertTrue(ko.contains("연한 노란색") && ko.contains("lemon chiffon"), ko)
        XCTAssertFalse(ko.contains("黄色") || ko.contains("yellow"), ko)
    }
}
