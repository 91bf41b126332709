import Foundation
import XCTest
import PetlogTestSupport

/// `diary PET "text" --title TEXT` (issue 42): a diary entry's title, stored, shown, searched, edited,
/// exported and imported, on both stores.
final class DiaryTitleTests: CLITestCase {
    func path(_ name: String) -> String { home.appendingPathComponent(name).path }

    func diaries(_ db: String? = nil) throws -> [[String: Any]] {
        let r = try run((db.map { ["--db", $0] } ?? []) + ["log", "--json", "--kind", "diary"], useDefaultDB: db != nil)
        XCTAssertEqual(r.status, 0, r.stderr)
        let all = try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [[String: Any]] ?? []
        return all.sorted { ($0["at"] as? String ?? "") < ($1["at"] as? String ?? "") }
    }

    func testATitleIsStoredShownSearchedAndEdited() throws {
        try ok("pet", "add", "Coco", "--species", "dog")
        try ok("diary", "Coco", "walked along the river in the rain", "--title", "Rainy Quokkaday", "--at", "2026-11-20 18:00")
        try ok("diary", "Coco", "slept all afternoon", "--at", "2026-11-21 18:00")
        let entries = try diaries()
        XCTAssertEqual(entries.map { detail($0)["title"] as? String }, ["Rainy Quokkaday", nil])
        XCTAssertTrue(detail(entries[1]).keys.contains("title"), "an entry without a title says null")
        XCTAssertEqual(detail(entries[0])["text"] as? String, "walked along the river in the rain")
        let id = try XCTUnwrap(entries[0]["id"] as? Int)

        // `log`: the title first, then the text.
        let log = try ok("log", "Coco", "--kind", "diary")
        let titleAt = try XCTUnwrap(log.range(of: "Rainy Quokkaday"), log)
        let textAt = try XCTUnwrap(log.range(of: "walked along the river"), log)
        XCTAssertLessThan(titleAt.lowerBound, textAt.lowerBound, log)
        // `show`: a Title field, in each language.
        XCTAssertTrue(try ok("show", String(id)).lowercased().contains("title"))
        XCTAssertTrue(try ok("show", String(id)).contains("Rainy Quokkaday"))
        XCTAssertTrue(try run(["--lang", "ko", "show", String(id)]).stdout.contains("제목"))
        XCTAssertTrue(try run(["--lang", "ja", "show", String(id)]).stdout.contains("タイトル"))
        // `search` finds the title (and only that entry).
        let found = try XCTUnwrap(try json("search", "quokkaday") as? [[String: Any]])
        XCTAssertEqual(found.map { $0["id"] as? Int }, [id])

        // `edit --title` replaces it; an empty one clears it; `undo` puts it back.
        try ok("edit", String(id), "--title", "Sunny Wombatday")
        XCTAssertEqual(detail(try diaries()[0])["title"] as? String, "Sunny Wombatday")
        XCTAssertEqual((try json("search", "quokkaday") as? [[String: Any]])?.count, 0)
        XCTAssertEqual((try json("search", "wombatday") as? [[String: Any]])?.map { $0["id"] as? Int }, [id])
        try ok("edit", String(id), "--title", "")
        XCTAssertNil(detail(try diaries()[0])["title"] as? String)
        XCTAssertEqual(detail(try diaries()[0])["text"] as? String, "walked along the river in the rain")
        try ok("undo")
        XCTAssertEqual(detail(try diaries()[0])["title"] as? String, "Sunny Wombatday")
        // `--title` is a diary's: refused on another kind.
        try ok("weight", "Coco", "4.2kg")
        let weightID = try XCTUnwrap((try json("log", "--kind", "weight") as? [[String: Any]])?.first?["id"] as? Int)
        try expectRefused(["edit", String(weightID), "--title", "x"], code: 64, mentions: "--title")
    }

    func testABadTitleIsRefusedAndNothingIsWritten() throws {
        try ok("pet", "add", "Coco", "--species", "dog")
        try expectRefused(["diary", "Coco", "text", "--title", "two\nlines"], code: 65, mentions: "title")
        try expectRefused(["diary", "Coco", "text", "--title", "   "], code: 65, mentions: "title")
        try expectRefused(["diary", "Coco", "text", "--title", String(repeating: "a", count: 201)], code: 65, mentions: "title")
        XCTAssertTrue(try diaries().isEmpty)
        try ok("diary", "Coco", "text", "--title", "ok")
        let id = try XCTUnwrap(try diaries().first?["id"] as? Int)
        try expectRefused(["edit", String(id), "--title", "bell\u{07}"], code: 65, mentions: "title")
        XCTAssertEqual(detail(try diaries()[0])["title"] as? String, "ok")
    }

    func testTheTitleTravelsThroughExportAndImport() throws {
        try ok("pet", "add", "Coco", "--species", "dog")
        try ok("diary", "Coco", "first snow", "--title", "=Snow! 눈 雪", "--mood", "happy", "--at", "2026-11-20 18:00")
        try ok("diary", "Coco", "no title here", "--at", "2026-11-21 18:00")
        try ok("export", "-o", path("a.json"))
        // JSON round trip.
        XCTAssertEqual(try run(["--db", path("b.sqlite"), "import", path("a.json")], useDefaultDB: true).status, 0)
        XCTAssertEqual(try diaries(path("b.sqlite")).map { detail($0)["title"] as? String }, ["=Snow! 눈 雪", nil])
        XCTAssertEqual(try run(["--db", path("b.sqlite"), "export", "-o", path("b.json")], useDefaultDB: true).status, 0)
        XCTAssertEqual(try withoutNamespace(path("a.json")), try withoutNamespace(path("b.json")))
        // CSV round trip: the diary table has a title column (formula-guarded in the sheet, not in the store).
        try ok("export", "--format", "csv", "-o", path("csv"))
        let csv = try String(contentsOfFile: path("csv/diary.csv"), encoding: .utf8)
        XCTAssertTrue(csv.hasPrefix("record_id,text,mood,title"), csv)
        XCTAssertTrue(csv.contains("'=Snow!"), csv)
        XCTAssertEqual(try run(["--db", path("c.sqlite"), "import", path("csv")], useDefaultDB: true).status, 0)
        XCTAssertEqual(try diaries(path("c.sqlite")).map { detail($0)["title"] as? String }, ["=Snow! 눈 雪", nil])
        // A file from before titles (no `title` key) imports with none.
        var document = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: path("a.json")))) as? [String: Any])
        var records = try XCTUnwrap(document["records"] as? [[String: Any]])
        for i in records.indices {
            if var d = records[i]["diary"] as? [String: Any] { d.removeValue(forKey: "title"); records[i]["diary"] = d }
        }
        document["records"] = records
        try JSONSerialization.data(withJSONObject: document).write(to: URL(fileURLWithPath: path("old.json")))
        XCTAssertFalse(try String(contentsOfFile: path("old.json"), encoding: .utf8).contains("\"title\""))
        let r = try run(["--db", path("d.sqlite"), "import", path("old.json")], useDefaultDB: true)
        XCTAssertEqual(r.status, 0, r.stderr)
        let old = try diaries(path("d.sqlite"))
        XCTAssertEqual(old.map { detail($0)["title"] as? String }, [nil, nil])
        XCTAssertEqual(old.map { detail($0)["text"] as? String }, ["first snow", "no title here"])
    }
}
