import Foundation
import XCTest
import PetlogTestSupport

/// `edit ID --receipt/--photo/--attach FILE` and `--detach NAME|N` (issue 30): files added to and taken off
/// existing records, the quarantine of a file no record uses any more, and `undo` both ways; on both stores.
final class AttachmentEditTests: CLITestCase {
    func path(_ name: String) -> String { home.appendingPathComponent(name).path }

    @discardableResult
    func file(_ name: String, _ bytes: [UInt8]) throws -> String {
        let p = path(name)
        try FileManager.default.createDirectory(atPath: (p as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        try Data(bytes).write(to: URL(fileURLWithPath: p))
        return p
    }

    func jpeg(_ tail: UInt8) -> [UInt8] { [0xFF, 0xD8, 0xFF, 0xE0, tail, tail, 7, 6, 5] }
    let pdf: [UInt8] = Array("%PDF-1.4\n%receipt\n".utf8)

    func lastId() throws -> String {
        let list = try XCTUnwrap(try json("log", "--json") as? [[String: Any]])
        return String(try XCTUnwrap(list.compactMap { $0["id"] as? Int }.max()))
    }

    /// The record's attachments as `show --json` gives them: (name, sha256), in order.
    func attachments(_ id: String) throws -> [(name: String, sha: String)] {
        let shown = try XCTUnwrap(try json("show", id) as? [String: Any])
        return (shown["attachments"] as? [[String: Any]] ?? []).map { ($0["name"] as? String ?? "", $0["sha256"] as? String ?? "") }
    }
    func names(_ id: String) throws -> [String] { try attachments(id).map(\.name) }

    /// The files `show --save-files` writes, by name, with their bytes.
    func saved(_ id: String, _ folder: String) throws -> [String: Data] {
        let out = path(folder)
        try ok("show", id, "--save-files", out)
        var found: [String: Data] = [:]
        for name in try FileManager.default.contentsOfDirectory(atPath: out) {
            found[name] = try Data(contentsOf: URL(fileURLWithPath: out + "/" + name))
        }
        return found
    }

    /// What the store holds beside the rows: the files in the SQLite attachments folder (none on a server).
    func storedFiles() -> [String] {
        guard serverDatabase == nil else { return [] }
        let dir = dbPath + ".attachments"
        return ((FileManager.default.enumerator(atPath: dir)?.allObjects as? [String]) ?? []).filter { $0.contains("/") }.sorted()
    }

    func quarantined() -> [String] {
        guard serverDatabase == nil else { return [] }
        let dir = dbPath + ".quarantine"
        return ((FileManager.default.enumerator(atPath: dir)?.allObjects as? [String]) ?? []).filter { $0.split(separator: "/").count == 3 }.sorted()
    }

    func expense() throws -> String {
        try ok("pet", "add", "Coco", "--species", "dog")
        try ok("expense", "Coco", "12000", "KRW", "--category", "food", "--at", "2026-11-20 18:30")
        return try lastId()
    }

    func testReceiptsAreAddedToAnExpenseAndShownNumbered() throws {
        let id = try expense()
        let r = try ok("edit", id, "--receipt", try file("r.jpg", jpeg(1)))
        XCTAssertTrue(r.contains("attached r.jpg as 1"), r)
        let two = try ok("edit", id, "--receipt", try file("scan.pdf", pdf), "--receipt", try file("more/b.jpg", jpeg(2)))
        XCTAssertTrue(two.contains("attached scan.pdf as 2") && two.contains("attached b.jpg as 3"), two)
        XCTAssertEqual(try names(id), ["r.jpg", "scan.pdf", "b.jpg"])
        let screen = try ok("show", id)
        XCTAssertTrue(screen.contains("1. r.jpg") && screen.contains("2. scan.pdf · application/pdf") && screen.contains("3. b.jpg"), screen)
        XCTAssertEqual(try saved(id, "out"), ["r.jpg": Data(jpeg(1)), "scan.pdf": Data(pdf), "b.jpg": Data(jpeg(2))])
        XCTAssertEqual(try run(["check"]).status, 0)
        // Korean and Japanese say it in their words.
        let ko = try ok("--lang", "ko", "edit", id, "--receipt", try file("c.jpg", jpeg(3)))
        XCTAssertTrue(ko.contains("c.jpg 첨부함 (4번)"), ko)
        let ja = try ok("--lang", "ja", "edit", id, "--detach", "4")
        XCTAssertTrue(ja.contains("c.jpg の添付を外しました"), ja)
    }

    func testPhotosOnDiaryAndGroomingAndFilesOnVisits() throws {
        try ok("pet", "add", "Coco", "--species", "dog")
        try ok("diary", "Coco", "walk", "--at", "2026-11-20 10:00")
        let diary = try lastId()
        try ok("edit", diary, "--photo", try file("p.jpg", jpeg(1)))
        try ok("groom", "Coco", "bath", "--at", "2026-11-21 10:00")
        let groom = try lastId()
        try ok("edit", groom, "--photo", try file("g.jpg", jpeg(2)))
        try ok("visit", "Coco", "--clinic", "Happy Paws", "--at", "2026-11-22 10:00")
        let visit = try lastId()
        // A visit takes any file, as `visit --attach` does.
        try ok("edit", visit, "--attach", try file("lab.txt", Array("ALT 52\n".utf8)))
        XCTAssertEqual(try names(diary), ["p.jpg"])
        XCTAssertEqual(try names(groom), ["g.jpg"])
        XCTAssertEqual(try names(visit), ["lab.txt"])
    }

    func testAFlagThatDoesNotFitTheKindIsRefusedAndNothingIsWritten() throws {
        let spent = try expense()
        try ok("weight", "Coco", "4.2kg", "--at", "2026-11-20 08:00")
        let weight = try lastId()
        try ok("diary", "Coco", "walk", "--at", "2026-11-20 10:00")
        let diary = try lastId()
        let photo = try file("p.jpg", jpeg(1))
        let before = storedFiles()
        try expectRefused(["edit", spent, "--photo", photo], code: 64, mentions: "--photo does not apply to expense records")
        try expectRefused(["edit", diary, "--receipt", photo], code: 64, mentions: "--receipt")
        try expectRefused(["edit", diary, "--attach", photo], code: 64, mentions: "--attach")
        try expectRefused(["edit", weight, "--photo", photo], code: 64, mentions: "--photo")
        try expectRefused(["--lang", "ko", "edit", weight, "--receipt", photo], code: 64, mentions: "--receipt 옵션은")
        // A value flag that does not fit, with a file that does: nothing is written, the file is not kept.
        try expectRefused(["edit", diary, "--photo", photo, "--amount", "3"], code: 64, mentions: "--amount")
        XCTAssertEqual(storedFiles(), before)
    }

    func testBadFilesAreOneLineAndNothingIsWritten() throws {
        let id = try expense()
        try ok("edit", id, "--receipt", try file("r.jpg", jpeg(1)))
        let before = storedFiles()
        let text = try file("notes.txt", Array("not a photo".utf8))
        try expectRefused(["edit", id, "--receipt", text], code: 65, mentions: "notes.txt")
        try expectRefused(["edit", id, "--receipt", path("missing.jpg")], code: 66, mentions: "missing.jpg")
        try FileManager.default.createDirectory(atPath: path("folder.jpg"), withIntermediateDirectories: true)
        try expectRefused(["edit", id, "--receipt", path("folder.jpg")], code: 66, mentions: "folder.jpg")
        XCTAssertEqual(mkfifo(path("pipe.jpg"), 0o600), 0)
        try expectRefused(["edit", id, "--receipt", path("pipe.jpg")], code: 66, mentions: "pipe.jpg")
        try FileManager.default.createSymbolicLink(atPath: path("dangling.jpg"), withDestinationPath: path("nowhere.jpg"))
        try expectRefused(["edit", id, "--receipt", path("dangling.jpg")], code: 66, mentions: "dangling.jpg")
        // One good file and one bad one: neither is attached.
        try expectRefused(["edit", id, "--receipt", try file("good.jpg", jpeg(9)), "--receipt", path("missing.jpg")], code: 66, mentions: "missing.jpg")
        for lang in ["en", "ko", "ja"] {
            try expectRefused(["--lang", lang, "edit", id, "--receipt", path("missing.jpg")], code: 66, mentions: "missing.jpg")
        }
        XCTAssertEqual(storedFiles(), before)
        XCTAssertEqual(try names(id), ["r.jpg"])
        XCTAssertEqual(try run(["check"]).status, 0)
        // A link to a regular file is followed, as any program reading a file does, on both stores; the
        // attachment keeps the name the owner gave.
        try FileManager.default.createSymbolicLink(atPath: path("link.jpg"), withDestinationPath: try file("real.jpg", jpeg(5)))
        try ok("edit", id, "--receipt", path("link.jpg"))
        XCTAssertEqual(try names(id), ["r.jpg", "link.jpg"])
        try ok("expense", "Coco", "5", "USD", "--receipt", path("link.jpg"))
    }

    func testTheSameContentIsNotAddedTwice() throws {
        let id = try expense()
        let r = try file("r.jpg", jpeg(1))
        try ok("edit", id, "--receipt", r)
        // The same file again, and a copy under another name: exit 0, a note, no second attachment.
        for given in [r, try file("copy of r.jpg", jpeg(1))] {
            let again = try run(["edit", id, "--receipt", given])
            XCTAssertEqual(again.status, 0, again.stderr)
            XCTAssertTrue(again.stderr.contains("is already attached as 1 (r.jpg): not added again"), again.stderr)
            XCTAssertFalse(again.stdout.contains("attached "), again.stdout)
        }
        // Given twice in one command: one attachment, the first name kept.
        let twice = try run(["edit", id, "--receipt", try file("n.jpg", jpeg(2)), "--receipt", try file("dup/n2.jpg", jpeg(2))])
        XCTAssertEqual(twice.status, 0, twice.stderr)
        XCTAssertTrue(twice.stderr.contains("n2.jpg is already attached as 2 (n.jpg)"), twice.stderr)
        XCTAssertEqual(try names(id), ["r.jpg", "n.jpg"])
        let ko = try run(["--lang", "ko", "edit", id, "--receipt", r])
        XCTAssertTrue(ko.stderr.contains("이미 1번(r.jpg)으로 첨부되어"), ko.stderr)
        let ja = try run(["--lang", "ja", "edit", id, "--receipt", r])
        XCTAssertTrue(ja.stderr.contains("既に1番（r.jpg）として添付されている"), ja.stderr)
    }

    func testDetachByNumberAndByNameRenumbersAndUndoPutsBackExactly() throws {
        try ok("pet", "add", "Coco", "--species", "dog")
        try ok("diary", "Coco", "walk", "--photo", try file("a.jpg", jpeg(1)), "--photo", try file("b.jpg", jpeg(2)),
               "--photo", try file("c.jpg", jpeg(3)), "--photo", try file("d.jpg", jpeg(4)), "--at", "2026-11-20 10:00")
        let id = try lastId()
        let original = try attachments(id)
        let files = storedFiles()
        let out = try ok("edit", id, "--detach", "2")
        XCTAssertTrue(out.contains("detached b.jpg; no other record uses its file"), out)
        XCTAssertEqual(try names(id), ["a.jpg", "c.jpg", "d.jpg"])
        // Numbers are those `show` prints now: 2 is c.jpg; a name and a number in one command.
        try ok("edit", id, "--detach", "d.jpg", "--detach", "2")
        XCTAssertEqual(try names(id), ["a.jpg"])
        XCTAssertTrue(try ok("show", id).contains("1. a.jpg"))
        if serverDatabase == nil {
            XCTAssertEqual(quarantined().count, 3, "\(quarantined())")
            XCTAssertEqual(storedFiles().count, 1, "\(storedFiles())")
        }
        // check knows the files are aside on purpose: nothing to say.
        let check = try run(["check"])
        XCTAssertEqual(check.status, 0, check.stdout + check.stderr)
        // Undo, step by step: the rows come back in their places with their names, the files out of the quarantine.
        try ok("undo")
        XCTAssertEqual(try names(id), ["a.jpg", "c.jpg", "d.jpg"])
        try ok("undo")
        XCTAssertEqual(try attachments(id).map(\.name), original.map(\.name))
        XCTAssertEqual(try attachments(id).map(\.sha), original.map(\.sha))
        XCTAssertEqual(storedFiles(), files)
        XCTAssertEqual(quarantined(), [])
        XCTAssertEqual(try saved(id, "back"), ["a.jpg": Data(jpeg(1)), "b.jpg": Data(jpeg(2)), "c.jpg": Data(jpeg(3)), "d.jpg": Data(jpeg(4))])
        XCTAssertEqual(try run(["check"]).status, 0)
    }

    func testASharedFileLosesOnlyItsLink() throws {
        try ok("pet", "add", "Coco", "--species", "dog")
        let shared = try file("shared.jpg", jpeg(7))
        try ok("diary", "Coco", "one", "--photo", shared, "--at", "2026-11-20 10:00")
        let first = try lastId()
        try ok("diary", "Coco", "two", "--at", "2026-11-21 10:00")
        let second = try lastId()
        try ok("edit", second, "--photo", try file("other name.jpg", jpeg(7)))
        XCTAssertEqual(try attachments(first).map(\.sha), try attachments(second).map(\.sha))
        let files = storedFiles()
        let out = try ok("edit", first, "--detach", "shared.jpg")
        XCTAssertTrue(out.contains("detached shared.jpg") && !out.contains("no other record"), out)
        XCTAssertEqual(try names(first), [])
        XCTAssertEqual(storedFiles(), files)
        XCTAssertEqual(quarantined(), [])
        XCTAssertEqual(try saved(second, "s"), ["other name.jpg": Data(jpeg(7))])
        XCTAssertEqual(try run(["check"]).status, 0)
        try ok("undo")
        XCTAssertEqual(try names(first), ["shared.jpg"])
    }

    func testUndoOfAnAttachTakesItOffAndSetsTheFileAside() throws {
        let id = try expense()
        try ok("edit", id, "--receipt", try file("r.jpg", jpeg(1)))
        let files = storedFiles()
        try ok("edit", id, "--receipt", try file("new.jpg", jpeg(2)))
        let undone = try ok("undo")
        XCTAssertTrue(undone.contains("edit \(id) --receipt"), undone)
        XCTAssertEqual(try names(id), ["r.jpg"])
        XCTAssertEqual(try run(["check"]).status, 0)
        if serverDatabase == nil {
            XCTAssertEqual(storedFiles(), files)
            XCTAssertEqual(quarantined().count, 1)
        }
        // Attached again later: the file comes back whole.
        try ok("edit", id, "--receipt", path("new.jpg"))
        XCTAssertEqual(try saved(id, "again")["new.jpg"], Data(jpeg(2)))
    }

    func testCombinedWithOtherFlagsItIsOneTransactionAndOneUndoStep() throws {
        let id = try expense()
        try ok("edit", id, "--receipt", try file("old.jpg", jpeg(1)))
        let steps = try ok("undo", "--list").split(separator: "\n").count
        try ok("edit", id, "--amount", "15000", "--merchant", "Pet Mart", "--detach", "old.jpg", "--receipt", try file("new.jpg", jpeg(2)))
        XCTAssertEqual(try ok("undo", "--list").split(separator: "\n").count, steps + 1)
        let shown = try XCTUnwrap((try json("show", id) as? [String: Any])?["expense"] as? [String: Any])
        XCTAssertEqual(shown["merchant"] as? String, "Pet Mart")
        XCTAssertEqual((shown["money"] as? [String: Any])?["minor_units"] as? Int, 15000)
        XCTAssertEqual(try names(id), ["new.jpg"])
        try ok("undo")
        let back = try XCTUnwrap((try json("show", id) as? [String: Any])?["expense"] as? [String: Any])
        XCTAssertNil(back["merchant"] as? String)
        XCTAssertEqual((back["money"] as? [String: Any])?["minor_units"] as? Int, 12000)
        XCTAssertEqual(try names(id), ["old.jpg"])
        // A bad value with good file flags: nothing of it is written.
        try expectRefused(["edit", id, "--amount=-5", "--receipt", path("new.jpg"), "--detach", "1"], code: 65, mentions: "below zero")
        XCTAssertEqual(try names(id), ["old.jpg"])
    }

    func testAnUnknownNameOrNumberListsWhatTheRecordHas() throws {
        let id = try expense()
        try expectRefused(["edit", id, "--detach", "1"], code: 65, mentions: "#\(id) has no attachment 1: it has no attachments")
        try ok("edit", id, "--receipt", try file("r.jpg", jpeg(1)), "--receipt", try file("영수증.jpg", jpeg(2)))
        try expectRefused(["edit", id, "--detach", "3"], code: 65, mentions: "#\(id) has no attachment 3; it has: 1. r.jpg, 2. 영수증.jpg")
        try expectRefused(["edit", id, "--detach", "R.JPG"], code: 65, mentions: "1. r.jpg, 2. 영수증.jpg")
        // One unknown among known ones: nothing is detached.
        try expectRefused(["edit", id, "--detach", "r.jpg", "--detach", "0"], code: 65, mentions: "no attachment 0")
        try expectRefused(["--lang", "ko", "edit", id, "--detach", "x.jpg"], code: 65, mentions: "없는 첨부 파일입니다: x.jpg. 있는 첨부 파일: 1. r.jpg, 2. 영수증.jpg")
        try expectRefused(["--lang", "ja", "edit", id, "--detach", "x.jpg"], code: 65, mentions: "添付ファイル x.jpg はありません")
        XCTAssertEqual(try names(id), ["r.jpg", "영수증.jpg"])
        // A Hangul name typed decomposed (as macOS file names are) is the same name.
        try ok("edit", id, "--detach", "영수증.jpg".decomposedStringWithCanonicalMapping)
        XCTAssertEqual(try names(id), ["r.jpg"])
    }

    func testHostileFileNamesOnScreenInUndoAndOnDisk() throws {
        let id = try expense()
        let hostile: [(String, UInt8)] = [("$(touch pwned).jpg", 1), ("a\"b'c.jpg", 2), ("영수증 사진.jpg", 3), ("bad\u{1B}[2Jname.jpg", 4), ("tab\there.jpg", 5)]
        var args = ["edit", id]
        for (name, tail) in hostile { args += ["--receipt", try file("in/" + name, jpeg(tail))] }
        // Through `../`: the stored name is the base name.
        args += ["--receipt", path("in/../in/sub/../r.jpg")]
        try file("in/r.jpg", jpeg(6))
        try FileManager.default.createDirectory(atPath: path("in/sub"), withIntermediateDirectories: true)
        let r = try run(args)
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertFalse(r.stdout.contains("\u{1B}") || r.stdout.contains("\t"), r.stdout)
        XCTAssertTrue(r.stdout.contains("attached $(touch pwned).jpg as 1"), r.stdout)
        XCTAssertEqual(try names(id), hostile.map(\.0) + ["r.jpg"])
        let screen = try ok("show", id)
        XCTAssertFalse(screen.contains("\u{1B}"), screen)
        XCTAssertTrue(screen.contains("a\"b'c.jpg") && screen.contains("영수증 사진.jpg"), screen)
        let files = try saved(id, "out")
        XCTAssertEqual(files.count, 6, "\(files.keys)")
        XCTAssertTrue(files.keys.allSatisfy { !$0.contains("/") && !$0.unicodeScalars.contains { $0.value < 0x20 } }, "\(files.keys)")
        XCTAssertEqual(files["$(touch pwned).jpg"], Data(jpeg(1)))
        XCTAssertFalse(FileManager.default.fileExists(atPath: path("pwned")))
        // Detached by their exact names; the lines that say so are safe on a terminal.
        let d = try run(["edit", id, "--detach", "bad\u{1B}[2Jname.jpg", "--detach", "$(touch pwned).jpg", "--detach", "a\"b'c.jpg"])
        XCTAssertEqual(d.status, 0, d.stderr)
        XCTAssertFalse(d.stdout.contains("\u{1B}"), d.stdout)
        XCTAssertEqual(try names(id), ["영수증 사진.jpg", "tab\there.jpg", "r.jpg"])
        let list = try ok("undo", "--list")
        XCTAssertFalse(list.contains("\u{1B}"), list)
        try ok("undo")
        XCTAssertEqual(try names(id), hostile.map(\.0) + ["r.jpg"])
        let unknown = try run(["edit", id, "--detach", "nope\u{1B}[31m"])
        XCTAssertEqual(unknown.status, 65)
        XCTAssertFalse(unknown.stderr.contains("\u{1B}"), unknown.stderr)
        XCTAssertEqual(unknown.stderr.split(separator: "\n").count, 1, unknown.stderr)
    }
}
