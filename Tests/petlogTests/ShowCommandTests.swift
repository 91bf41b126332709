import Foundation
import XCTest
import PetlogTestSupport

/// `show ID` (issue 30): every field of one record, its attachments, `--save-files DIR`, `--open`; on both stores.
final class ShowCommandTests: CLITestCase {
    func path(_ name: String) -> String { home.appendingPathComponent(name).path }

    @discardableResult
    func file(_ name: String, _ bytes: [UInt8]) throws -> String {
        let p = path(name)
        try Data(bytes).write(to: URL(fileURLWithPath: p))
        return p
    }

    func jpeg(_ tail: UInt8) -> [UInt8] { [0xFF, 0xD8, 0xFF, 0xE0, tail, tail, 7, 6, 5] }

    func lastId() throws -> Int {
        let list = try XCTUnwrap(try json("log", "--json") as? [[String: Any]])
        return try XCTUnwrap(list.compactMap { $0["id"] as? Int }.max())
    }

    func testEveryKindShowsItsFieldsInEachLanguage() throws {
        try ok("pet", "add", "Coco", "--species", "dog")
        try ok("weight", "Coco", "4.2kg", "--at", "2026-11-20 08:00", "--note", "after walk")
        let weight = try lastId()
        let en = try ok("show", String(weight))
        XCTAssertTrue(en.contains("#\(weight) weight"), en)
        XCTAssertTrue(en.contains("4.20 kg") && en.contains("after walk") && en.contains("Coco"), en)
        XCTAssertTrue(en.contains("Nov 20, 2026") && en.contains("8:00 AM"), en)
        XCTAssertTrue(en.contains("No attachments"), en)
        let ko = try ok("--lang", "ko", "show", String(weight))
        XCTAssertTrue(ko.contains("체중") && ko.contains("반려동물") && ko.contains("메모") && ko.contains("첨부 파일 없음"), ko)
        let ja = try ok("--lang", "ja", "show", String(weight))
        XCTAssertTrue(ja.contains("体重") && ja.contains("ペット") && ja.contains("添付ファイルなし"), ja)

        try ok("visit", "Coco", "--clinic", "Happy Paws", "--reason", "limp", "--diagnosis", "sprain", "--cost", "80000 KRW", "--at", "2026-11-21 10:00")
        let visit = try ok("show", String(try lastId()))
        for part in ["clinic", "Happy Paws", "reason", "limp", "diagnosis", "sprain", "₩80,000"] { XCTAssertTrue(visit.contains(part), "\(part): \(visit)") }
        try ok("symptom", "Coco", "vomiting", "--severity", "3", "--at", "2026-11-21 12:00")
        let symptom = try ok("--lang", "ja", "show", String(try lastId()))
        XCTAssertTrue(symptom.contains("嘔吐") && symptom.contains("3/5"), symptom)
        try ok("groom", "Coco", "bath", "nails", "--by", "Salon", "--at", "2026-11-22 10:00")
        let groom = try ok("--lang", "ko", "show", String(try lastId()))
        XCTAssertTrue(groom.contains("목욕, 발톱") && groom.contains("Salon"), groom)
        // An expense's amount is money (금액/金額), not a meal's quantity (양/量).
        try ok("expense", "Coco", "12.50", "USD", "--category", "food", "--at", "2026-11-22 11:00")
        let spent = try lastId()
        let koSpent = try ok("--lang", "ko", "show", String(spent))
        XCTAssertTrue(koSpent.contains("금액") && !koSpent.contains("양 ") && koSpent.contains("US$12.50"), koSpent)
        let jaSpent = try ok("--lang", "ja", "show", String(spent))
        XCTAssertTrue(jaSpent.contains("金額") && !jaSpent.contains("量 "), jaSpent)
        try ok("star", String(weight))
        XCTAssertTrue(try ok("show", String(weight)).contains("★"))
    }

    func testJSONIsTheRecordAsLogShowsIt() throws {
        try ok("pet", "add", "Coco", "--species", "dog")
        let receipt = try file("r.jpg", jpeg(1))
        try ok("expense", "Coco", "12.50", "USD", "--receipt", receipt, "--merchant", "Pet Mart", "--at", "2026-11-20 18:30")
        let id = try lastId()
        let shown = try XCTUnwrap(try json("show", String(id)) as? NSDictionary)
        let logged = try XCTUnwrap((try json("log", "--json") as? [NSDictionary])?.first { ($0["id"] as? Int) == id })
        XCTAssertEqual(shown, logged)
        XCTAssertEqual((shown["attachments"] as? [[String: Any]])?.first?["name"] as? String, "r.jpg")
    }

    func testUnknownIdIsOneLineAndNoInput() throws {
        try ok("pet", "add", "Coco", "--species", "dog")
        for (lang, text) in [("en", "no record with id 999"), ("ko", "ID가 999인 기록이 없습니다"), ("ja", "ID 999 の記録はありません")] {
            let r = try run(["--lang", lang, "show", "999"])
            XCTAssertEqual(r.status, 66, r.stderr)
            XCTAssertTrue(r.stderr.contains(text), r.stderr)
            XCTAssertEqual(r.stderr.split(separator: "\n").count, 1, r.stderr)
            XCTAssertEqual(r.stdout, "")
        }
    }

    func testHostileTextAndNamesAreSafeOnScreenAndOnDisk() throws {
        try ok("pet", "add", "Coco", "--species", "dog")
        let hostile: [(String, UInt8)] = [("$(rm -rf x).jpg", 1), ("../../etc/passwd", 2), ("a\"b'c.jpg", 3), ("영수증 사진.jpg", 4), ("レシート.jpg", 5), ("..", 6)]
        var args = ["expense", "Coco", "9.99", "USD", "--merchant", "$(rm -rf x) \"Mart\"", "--note", "hi `id` 'q'", "--at", "2026-11-20 18:30"]
        let dir = path("in")
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        for (name, tail) in hostile where name != ".." && !name.contains("/") {
            args += ["--receipt", try file("in/" + name, jpeg(tail))]
        }
        // A file whose own name is `passwd`, given through `../`: the stored name is the base name.
        try FileManager.default.createDirectory(atPath: path("in/etc"), withIntermediateDirectories: true)
        args += ["--receipt", try file("in/etc/passwd", jpeg(2))]
        let added = try run(args)
        XCTAssertEqual(added.status, 0, added.stderr)
        let id = String(try lastId())
        let screen = try ok("show", id)
        XCTAssertTrue(screen.contains("$(rm -rf x) \"Mart\""), screen)
        XCTAssertTrue(screen.contains("영수증 사진.jpg") && screen.contains("レシート.jpg") && screen.contains("image/jpeg"), screen)
        XCTAssertFalse(screen.contains("\u{1B}"))
        let out = path("out dir/새 폴더")
        let said = try ok("show", id, "--save-files", out)
        let saved = try FileManager.default.contentsOfDirectory(atPath: out).sorted()
        XCTAssertEqual(saved.count, 5, "\(saved)")
        XCTAssertTrue(saved.contains("$(rm -rf x).jpg") && saved.contains("a\"b'c.jpg") && saved.contains("영수증 사진.jpg") && saved.contains("レシート.jpg") && saved.contains("passwd"), "\(saved)")
        XCTAssertEqual(said.split(separator: "\n").count, 5, said)
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: out + "/영수증 사진.jpg")), Data(jpeg(4)))
    }

    func testControlCharactersAndDotsInStoredNamesAreMadeSafe() throws {
        // Names as an import could carry them: an export's JSON edited by someone else.
        try ok("pet", "add", "Coco", "--species", "dog")
        try ok("diary", "Coco", "walk", "--photo", try file("p.jpg", jpeg(1)), "--at", "2026-11-20 10:00")
        let export = path("e.json")
        try ok("export", "-o", export)
        var text = try String(contentsOfFile: export, encoding: .utf8)
        text = text.replacingOccurrences(of: "\"p.jpg\"", with: "\"..\\/..\\/evil\\u001b[2J\\nname.jpg\"")
        try text.write(toFile: export, atomically: true, encoding: .utf8)
        let other = try run(["--db", path("other.db"), "import", export])
        guard other.status == 0 else { throw XCTSkip("import refused the edited name: \(other.stderr)") }
        let shown = try run(["--db", path("other.db"), "show", "1"])
        XCTAssertFalse(shown.stdout.contains("\u{1B}"), shown.stdout)
        let out = path("saved")
        let r = try run(["--db", path("other.db"), "show", "1", "--save-files", out])
        XCTAssertEqual(r.status, 0, r.stderr)
        let names = try FileManager.default.contentsOfDirectory(atPath: out)
        XCTAssertEqual(names.count, 1)
        let name = try XCTUnwrap(names.first)
        XCTAssertFalse(name.contains("/") || name.hasPrefix(".") || name.unicodeScalars.contains { $0.value < 0x20 }, name)
    }

    func testSameNamesGetDistinctFilesAndExistingFilesAreNotOverwritten() throws {
        try ok("pet", "add", "Coco", "--species", "dog")
        try FileManager.default.createDirectory(atPath: path("a"), withIntermediateDirectories: true)
        try FileManager.default.createDirectory(atPath: path("b"), withIntermediateDirectories: true)
        try ok("diary", "Coco", "walk", "--photo", try file("a/photo.jpg", jpeg(1)), "--photo", try file("b/photo.jpg", jpeg(2)),
               "--photo", try file("b/PHOTO.jpg", jpeg(3)), "--at", "2026-11-20 10:00")
        let id = String(try lastId())
        let out = path("out")
        try ok("show", id, "--save-files", out)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: out).sorted(), ["PHOTO (3).jpg", "photo (2).jpg", "photo.jpg"].sorted())
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: out + "/photo.jpg")), Data(jpeg(1)))
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: out + "/photo (2).jpg")), Data(jpeg(2)))
        // Again: the names are taken; nothing is written, one line, exit 73.
        try Data("mine".utf8).write(to: URL(fileURLWithPath: out + "/photo.jpg"))
        try FileManager.default.removeItem(atPath: out + "/PHOTO (3).jpg")
        for lang in ["en", "ko", "ja"] {
            let r = try run(["--lang", lang, "show", id, "--save-files", out])
            XCTAssertEqual(r.status, 73, r.stderr)
            XCTAssertEqual(r.stderr.split(separator: "\n").count, 1, r.stderr)
            XCTAssertTrue(r.stderr.contains("--force"), r.stderr)
        }
        XCTAssertEqual(try String(contentsOfFile: out + "/photo.jpg", encoding: .utf8), "mine")
        XCTAssertFalse(FileManager.default.fileExists(atPath: out + "/PHOTO (3).jpg"))
        // --force replaces them.
        try ok("show", id, "--save-files", out, "--force")
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: out + "/photo.jpg")), Data(jpeg(1)))
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: out + "/PHOTO (3).jpg")), Data(jpeg(3)))
        // A file where the folder goes is refused.
        try Data("x".utf8).write(to: URL(fileURLWithPath: path("plain")))
        XCTAssertEqual(try run(["show", id, "--save-files", path("plain")]).status, 73)
    }

    /// A file the store no longer holds (gone from beside the database file, its chunks gone from the server)
    /// is refused in one line and nothing is saved: the server's store once wrote an empty file for it and
    /// said nothing (`Store.writeAttachment`, written once over the engine's `readAttachment`).
    func testAFileTheStoreNoLongerHoldsIsRefusedAndNothingIsSaved() throws {
        try ok("pet", "add", "Coco", "--species", "dog")
        try ok("diary", "Coco", "walk", "--photo", try file("photo.jpg", jpeg(1)), "--at", "2026-11-20 10:00")
        let id = String(try lastId())
        if let db = serverDatabase {
            XCTAssertEqual(try TestServer.shared().psql(db, "DELETE FROM petlog.attachment_chunk").status, 0)
        } else {
            let folder = dbPath + ".attachments"
            let files = (FileManager.default.enumerator(atPath: folder)?.allObjects as? [String] ?? []).filter { $0.count == 67 }
            XCTAssertEqual(files.count, 1, "\(files)")
            for f in files { try FileManager.default.removeItem(atPath: folder + "/" + f) }
        }
        let out = path("out")
        for lang in ["en", "ko", "ja"] {
            let r = try run(["--lang", lang, "show", id, "--save-files", out])
            XCTAssertEqual(r.status, 66, r.stdout + r.stderr)
            XCTAssertEqual(r.stderr.split(separator: "\n").count, 1, r.stderr)
        }
        XCTAssertEqual((try? FileManager.default.contentsOfDirectory(atPath: out)) ?? [], [])
    }

    func testOpenHandsEachFileToXdgOpenAndRefusesWithoutOne() throws {
        try ok("pet", "add", "Coco", "--species", "dog")
        try ok("expense", "Coco", "5", "USD", "--receipt", try file("r 1.jpg", jpeg(1)), "--receipt", try file("r2.jpg", jpeg(2)), "--at", "2026-11-20 18:30")
        let id = String(try lastId())
        let bin = path("fakebin")
        try FileManager.default.createDirectory(atPath: bin, withIntermediateDirectories: true)
        let log = path("opened.txt")
        let script = "#!/bin/sh\nfor a in \"$@\"; do printf '%s\\n' \"$a\" >> '\(log)'; done\n"
        try script.write(toFile: bin + "/xdg-open", atomically: true, encoding: .utf8)
        chmod(bin + "/xdg-open", 0o755)
        let out = path("out")
        let r = try run(["show", id, "--save-files", out, "--open"], env: ["PATH": bin + ":/usr/bin:/bin"])
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertEqual(try String(contentsOfFile: log, encoding: .utf8).split(separator: "\n").map(String.init), [out + "/r 1.jpg", out + "/r2.jpg"])
        // Without --save-files: a fresh temporary folder, the files in it.
        try FileManager.default.removeItem(atPath: log)
        let t = try run(["show", id, "--open"], env: ["PATH": bin + ":/usr/bin:/bin"])
        XCTAssertEqual(t.status, 0, t.stderr)
        let opened = try String(contentsOfFile: log, encoding: .utf8).split(separator: "\n").map(String.init)
        XCTAssertEqual(opened.count, 2)
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: opened[1])), Data(jpeg(2)))
        // No xdg-open: one line, 69, nothing written.
        let none = path("none")
        for lang in ["en", "ko", "ja"] {
            let n = try run(["--lang", lang, "show", id, "--save-files", none, "--open"], env: ["PATH": path("empty")])
            XCTAssertEqual(n.status, 69, n.stderr)
            XCTAssertEqual(n.stderr.split(separator: "\n").count, 1, n.stderr)
            XCTAssertTrue(n.stderr.contains("xdg-open"), n.stderr)
        }
        XCTAssertFalse(FileManager.default.fileExists(atPath: none))
    }
}
