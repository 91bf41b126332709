import Foundation
import XCTest
import PetlogTestSupport

/// `undo`: each command's changes go back, newest first, exactly as they were.
final class UndoCommandTests: CLITestCase {
    func export() throws -> String {
        let path = home.appendingPathComponent("state-\(UUID().uuidString).json").path
        try ok("export", "-o", path)
        return try String(contentsOfFile: path, encoding: .utf8)
    }

    func testEveryKindOfChangeIsUndoneToTheByte() throws {
        try ok("pet", "add", "Coco", "--species", "dog")
        try ok("pet", "add", "Nabi", "--species", "cat")
        var states = [try export()]
        let photo = home.appendingPathComponent("p.ppm")
        try Data("P3\n1 1\n255\n1 2 3\n".utf8).write(to: photo)
        let steps: [[String]] = [
            ["weight", "Coco", "4.2kg", "--at", "2026-11-20 08:00"],
            ["diary", "Coco", "snow walk", "--photo", photo.path],
            ["expense", "Coco,Nabi", "45001", "KRW", "--items", "shampoo, brush"],
            ["edit", "3", "--amount", "50000", "--at", "2026-11-21 09:00"],
            ["star", "1"],
            ["med", "start", "Nabi", "Amoxicillin", "--every", "12h"],
            ["med", "give", "Nabi", "Amoxicillin"],
            ["delete", "4"],
            ["pet", "archive", "Nabi", "--reason", "rehomed"],
            ["pet", "remove", "Coco", "--yes"],
        ]
        for step in steps {
            let r = try run(step)
            XCTAssertEqual(r.status, 0, "\(step): \(r.stderr)")
            states.append(try export())
        }
        XCTAssertTrue(try ok("undo", "--list").contains("petlog pet remove Coco --yes"))
        for i in stride(from: steps.count, to: 0, by: -1) {
            let out = try ok("undo")
            XCTAssertTrue(out.contains(steps[i - 1].prefix(2).joined(separator: " ")), out)
            XCTAssertEqual(try export(), states[i - 1], "after undoing \(steps[i - 1])")
            XCTAssertEqual(try run(["check"]).status, 0, "check after undoing \(steps[i - 1])")
        }
        // The photo no record uses any more was moved aside, not deleted.
        if !onServer {
            let quarantine = home.appendingPathComponent("data/petlog.sqlite.quarantine")
            XCTAssertTrue(FileManager.default.fileExists(atPath: quarantine.path))
        }
        XCTAssertEqual(try run(["check"]).stdout, "")
        // Two more undos: the pets, then nothing.
        try ok("undo"); try ok("undo")
        XCTAssertTrue(try ok("undo").contains("Nothing to undo"))
        XCTAssertTrue(try ok("pet", "list").contains("No pets"))
    }

    func testAnImportStartsANewHistory() throws {
        try ok("pet", "add", "Coco", "--species", "dog")
        try ok("weight", "Coco", "4kg")
        let file = home.appendingPathComponent("a.json").path
        try ok("export", "-o", file)
        let other = home.appendingPathComponent("b.sqlite").path
        XCTAssertEqual(try run(["--db", other, "pet", "add", "Mochi", "--species", "rabbit"], useDefaultDB: true).status, 0)
        XCTAssertEqual(try run(["--db", other, "import", file], useDefaultDB: true).status, 0)
        let r = try run(["--db", other, "undo"], useDefaultDB: true)
        XCTAssertTrue(r.stdout.contains("Nothing to undo"), r.stdout)
        XCTAssertTrue(try run(["--db", other, "pet", "list"], useDefaultDB: true).stdout.contains("Mochi"))
    }

    func testARefusedCommandLeavesNothingToUndo() throws {
        try ok("pet", "add", "Coco", "--species", "dog")
        XCTAssertEqual(try run(["weight", "Coco", "-3kg"]).status, 65)
        XCTAssertEqual(try run(["edit", "99", "--note", "x"]).status, 66)
        let list = try ok("undo", "--list")
        XCTAssertEqual(list.split(separator: "\n").count, 1, list)
    }
}
