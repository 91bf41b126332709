import Foundation
import XCTest
import PetlogTestSupport

/// Where petlog meets the shell and the file system: command lines it prints paste back word for word,
/// a redirected standard output is written where the shell put it, undo after a repair brings its files
/// back, and no command leaves a file it should not.
final class ShellAndFilesTests: CLITestCase {
    /// Runs `script` in bash with `petlog` on PATH (its database this test's) in the test's home.
    func sh(_ script: String) throws -> Result {
        let env = ["PATH": Self.binary.deletingLastPathComponent().path + ":/usr/bin:/bin", "PETLOG_DB": dbPath, "HOME": home.path]
        return try launch(URL(fileURLWithPath: "/bin/bash"), ["-c", "cd \"$HOME\" && " + script], env: env)
    }

    func mode(_ path: String) -> Int {
        ((try? FileManager.default.attributesOfItem(atPath: path)[.posixPermissions]) as? Int) ?? -1
    }

    // MARK: command lines to paste

    /// `undo --list` shows each command shell-quoted: pasted into bash, the words are the ones typed.
    func testUndoListQuotesEachWordSoAShellReadsItBack() throws {
        let typed: [[String]] = [["pet", "add", "O'Malley", "--species", "cat"],
                                 ["visit", "O'Malley", "--clinic", "Happy Vet", "--cost", "$85.00"],
                                 ["diary", "O'Malley", "a \"quoted\" `id` $(touch \(home.path)/ran) 나비 ; *"]]
        for args in typed { XCTAssertEqual(try run(args).status, 0, "\(args)") }
        let list = try ok("undo", "--list")
        let lines = list.split(separator: "\n").map(String.init)
        XCTAssertEqual(lines.count, 3, list)
        for (line, args) in zip(lines, typed.reversed()) {
            let command = try XCTUnwrap(line.range(of: "petlog ")).upperBound
            let words = try sh("printf '%s\\0' " + line[command...])
            XCTAssertEqual(words.status, 0, words.stderr)
            XCTAssertEqual(words.stdout.split(separator: "\0").map(String.init), args, line)
        }
        XCTAssertFalse(FileManager.default.fileExists(atPath: home.appendingPathComponent("ran").path), "a pasted line ran code")
        let undone = try ok("undo")
        XCTAssertTrue(undone.contains("'a \"quoted\""), undone)
    }

    func testAnArchivedPetsHintIsAQuotedCommand() throws {
        try ok("pet", "add", "Miss O'Hara", "--species", "cat")
        try ok("pet", "archive", "Miss O'Hara")
        let r = try run(["weight", "Miss O'Hara", "4kg"])
        XCTAssertTrue(r.stderr.contains("petlog pet unarchive 'Miss O'\\''Hara'"), r.stderr)
    }

    // MARK: a standard output the shell redirected

    func testExportToDevStdoutInsideAGroupKeepsWhatCameBeforeAndAfter() throws {
        try ok("pet", "add", "Coco", "--species", "dog")
        try ok("weight", "Coco", "4.2kg")
        let r = try sh("umask 022; { echo HEADER; petlog export -o /dev/stdout; echo FOOTER; } > combined.txt")
        XCTAssertEqual(r.status, 0, r.stderr)
        let text = try String(contentsOfFile: home.appendingPathComponent("combined.txt").path, encoding: .utf8)
        XCTAssertTrue(text.hasPrefix("HEADER\n{\"format\": \"petlog\""), String(text.prefix(80)))
        XCTAssertTrue(text.hasSuffix("FOOTER\n"), String(text.suffix(80)))
        XCTAssertEqual(mode(home.appendingPathComponent("combined.txt").path), 0o644, "the shell's file keeps its mode")
        XCTAssertTrue(r.stderr.contains("Exported 1 record"), "the summary goes to stderr: \(r.stderr)")
    }

    func testAppendingRedirectionsAppendThroughEveryNameOfTheDescriptor() throws {
        try ok("pet", "add", "Coco", "--species", "dog")
        try ok("vaccine", "Coco", "rabies", "--next", "1d")
        for (i, target) in ["/proc/self/fd/1", "/dev/stdout", "/dev/fd/1"].enumerated() {
            let log = "cron\(i).log"
            let r = try sh("echo earlier > \(log); petlog due --ics \(target) >> \(log); petlog due --ics \(target) >> \(log)")
            XCTAssertEqual(r.status, 0, r.stderr)
            let text = try String(contentsOfFile: home.appendingPathComponent(log).path, encoding: .utf8)
            XCTAssertTrue(text.hasPrefix("earlier\nBEGIN:VCALENDAR"), "\(target): \(text.prefix(60))")
            XCTAssertEqual(text.components(separatedBy: "BEGIN:VCALENDAR").count, 3, "\(target): appended twice")
        }
        // Another descriptor, and stderr: written there, the data file untouched.
        let r = try sh("petlog export -o /dev/fd/3 3>>three.json 2>err.txt; petlog export -o /dev/stderr 2>>err.txt")
        XCTAssertEqual(r.status, 0, r.stderr)
        let three = try String(contentsOfFile: home.appendingPathComponent("three.json").path, encoding: .utf8)
        XCTAssertTrue(three.hasPrefix("{\"format\""), three)
        let err = try String(contentsOfFile: home.appendingPathComponent("err.txt").path, encoding: .utf8)
        XCTAssertTrue(err.contains("{\"format\""), err)
        // A link of the user's to /dev/stdout is that descriptor too; a chart through it is SVG text.
        let chart = try sh("petlog weight Coco 4kg >/dev/null; ln -s /dev/stdout out.svg; echo A > c.txt; petlog chart weight Coco -o /dev/stdout >> c.txt")
        XCTAssertEqual(chart.status, 0, chart.stderr)
        let c = try String(contentsOfFile: home.appendingPathComponent("c.txt").path, encoding: .utf8)
        XCTAssertTrue(c.hasPrefix("A\n") && c.contains("<svg"), String(c.prefix(80)))
    }

    func testRegularFilesAreStillReplacedWhole() throws {
        try ok("pet", "add", "Coco", "--species", "dog")
        let out = home.appendingPathComponent("all.json").path
        try "old content that is longer than the export will ever be, to show it is replaced".write(toFile: out, atomically: true, encoding: .utf8)
        try ok("export", "-o", out, "--no-attachments")
        XCTAssertTrue(try String(contentsOfFile: out, encoding: .utf8).hasPrefix("{\"format\""))
        XCTAssertEqual(mode(out), 0o600)
    }

    // MARK: undo after a repair

    /// delete → check --repair (the photo goes to the quarantine) → undo: the photo comes back, and every
    /// order of delete, repair, undo and backup/restore ends with a clean check and a working export.
    func testUndoAfterRepairBringsThePhotoBackInEveryOrder() throws {
        try requireDatabaseFile()
        let photo = home.appendingPathComponent("p.ppm")
        try Data("P3\n1 1\n255\n1 2 3\n".utf8).write(to: photo)
        let orders: [[String]] = [["delete", "repair", "undo"], ["delete", "repair", "undo", "repair"], ["delete", "undo", "repair"],
                                  ["delete", "repair", "backup", "undo"], ["delete", "backup", "repair", "undo"],
                                  ["delete", "repair", "restore", "undo"], ["delete", "backup", "restore", "undo"],
                                  ["delete", "repair", "repair", "undo"]]
        for (n, order) in orders.enumerated() {
            var db = home.appendingPathComponent("o\(n)/petlog.sqlite").path
            let backup = home.appendingPathComponent("o\(n)/backup.sqlite").path
            func p(_ args: String...) throws -> Result { try run(["--db", db] + args, useDefaultDB: true) }
            XCTAssertEqual(try p("pet", "add", "Coco", "--species", "dog").status, 0)
            let added = try p("diary", "Coco", "snow walk", "--photo", photo.path)
            XCTAssertEqual(added.status, 0, added.stderr)
            let id = try XCTUnwrap(added.stdout.split(separator: "#").first?.prefix { $0.isNumber })
            for step in order {
                let r: Result
                switch step {
                case "delete": r = try p("delete", String(id))
                case "repair": r = try p("check", "--repair")
                case "undo": r = try p("undo")
                case "backup": r = try p("backup", "-o", backup)
                default:
                    r = FileManager.default.fileExists(atPath: backup) ? Result(status: 0, stdout: "", stderr: "") : try p("backup", "-o", backup)
                    let restored = home.appendingPathComponent("o\(n)/restored.sqlite").path
                    XCTAssertEqual(try run(["--db", restored, "restore", backup], useDefaultDB: true).status, 0)
                    db = restored
                }
                XCTAssertTrue(r.status == 0 || (step == "repair" && r.status == 65), "\(order) \(step): \(r.status) \(r.stderr)")
            }
            let check = try p("check")
            XCTAssertEqual(check.status, 0, "\(order): \(check.stdout) \(check.stderr)")
            let out = home.appendingPathComponent("o\(n)/all.json").path
            let export = try p("export", "-o", out)
            XCTAssertEqual(export.status, 0, "\(order): \(export.stderr)")
            XCTAssertTrue(try p("log", "Coco").stdout.contains("snow walk"), "\(order)")
        }
    }

    /// A file quarantined while nothing referred to it, then referred to again: check names it, and
    /// check --repair brings it back.
    func testRepairRestoresAQuarantinedFileARecordNeedsAgain() throws {
        try requireDatabaseFile()
        let photo = home.appendingPathComponent("p.ppm")
        try Data("P3\n1 1\n255\n9 9 9\n".utf8).write(to: photo)
        try ok("pet", "add", "Coco", "--species", "dog")
        try ok("diary", "Coco", "one", "--photo", photo.path)
        let folder = dbPath + ".attachments"
        let files = try FileManager.default.subpathsOfDirectory(atPath: folder).filter { $0.count > 3 }
        XCTAssertEqual(files.count, 1, "\(files)")
        // Move it to the quarantine by hand, as a repair before the undo would have.
        let stored = folder + "/" + files[0]
        let aside = dbPath + ".quarantine/20260101T000000Z/" + files[0]
        try FileManager.default.createDirectory(atPath: (aside as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        XCTAssertEqual(rename(stored, aside), 0)
        let check = try run(["check"])
        XCTAssertEqual(check.status, 65)
        XCTAssertTrue(check.stdout.contains("quarantined-file"), check.stdout)
        let repair = try run(["check", "--repair"])
        XCTAssertEqual(repair.status, 0, repair.stdout + repair.stderr)
        XCTAssertTrue(FileManager.default.fileExists(atPath: stored))
        XCTAssertEqual(try run(["check"]).status, 0)
    }

    // MARK: files that should not appear

    func testAReadOfAnEmptyFileLeavesItEmpty() throws {
        try requireDatabaseFile()
        let empty = home.appendingPathComponent("new.sqlite").path
        XCTAssertTrue(FileManager.default.createFile(atPath: empty, contents: Data(), attributes: [.posixPermissions: 0o644]))
        for args in [["pet", "list"], ["log"], ["check"], ["export", "-o", "-"], ["due"]] {
            let r = try run(["--db", empty] + args, useDefaultDB: true)
            XCTAssertEqual(r.status, 66, "\(args): \(r.stderr)")
            XCTAssertTrue(r.stderr.contains("is empty"), r.stderr)
            XCTAssertEqual(r.stderr.split(separator: "\n").count, 1, r.stderr)
        }
        let ko = try run(["--db", empty, "--lang", "ko", "pet", "list"], useDefaultDB: true)
        XCTAssertTrue(ko.stderr.contains("비어 있는"), ko.stderr)
        XCTAssertEqual((try FileManager.default.attributesOfItem(atPath: empty))[.size] as? Int, 0)
        XCTAssertEqual(mode(empty), 0o644)
        XCTAssertFalse(FileManager.default.fileExists(atPath: empty + "-wal"))
        // A write makes it a database.
        XCTAssertEqual(try run(["--db", empty, "pet", "add", "Coco", "--species", "dog"], useDefaultDB: true).status, 0)
        XCTAssertTrue(try run(["--db", empty, "pet", "list"], useDefaultDB: true).stdout.contains("Coco"))
    }

    func testAFailedWriteIntoANewPathLeavesNoDatabase() throws {
        try requireDatabaseFile()
        let json = home.appendingPathComponent("in.json").path
        let scale = home.appendingPathComponent("scale.csv").path
        try "date,weight\n2026-11-01,4.2\n".write(toFile: scale, atomically: true, encoding: .utf8)
        try ok("pet", "add", "Coco", "--species", "dog")
        try ok("export", "-o", json)
        for (n, args) in [["import", scale, "--pet", "Nobody"], ["import", home.appendingPathComponent("missing.json").path],
                          ["med", "give", "Coco", "Heartgard"]].enumerated() {
            let fresh = home.appendingPathComponent("new\(n)/petlog.sqlite").path
            let r = try run(["--db", fresh] + args, useDefaultDB: true)
            XCTAssertNotEqual(r.status, 0, "\(args)")
            XCTAssertFalse(r.stderr.contains("created a new petlog database"), r.stderr)
            XCTAssertFalse(FileManager.default.fileExists(atPath: fresh), "\(args) left \(fresh)")
            XCTAssertFalse(FileManager.default.fileExists(atPath: fresh + "-wal"))
        }
        // A write that commits keeps its new file and says so.
        let fresh = home.appendingPathComponent("new9/petlog.sqlite").path
        let r = try run(["--db", fresh, "import", json], useDefaultDB: true)
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertTrue(r.stderr.contains("created a new petlog database"), r.stderr)
        XCTAssertTrue(FileManager.default.fileExists(atPath: fresh))
    }

    /// Ctrl-C while `export --format csv` writes its tables: the folder it made goes with the temporary
    /// files (the signal is sent the moment the folder appears, while the tables are being written).
    func testAnInterruptedCSVExportRemovesTheFolderItMade() throws {
        try requireDatabaseFile()
        XCTAssertEqual(try run(["demo"]).status, 0)
        let watcher = """
            import os, signal, subprocess, sys, time
            folder = sys.argv[1]
            p = subprocess.Popen(sys.argv[2:], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            while p.poll() is None and not os.path.isdir(folder):
                pass
            if p.poll() is None:
                p.send_signal(signal.SIGINT)
            print(p.wait())
            """
        for attempt in 0..<5 {
            let folder = home.appendingPathComponent("tables\(attempt)/csv").path
            let r = try launch(URL(fileURLWithPath: "/usr/bin/python3"),
                               ["-c", watcher, folder, Self.binary.path, "--db", dbPath, "export", "--format", "csv", "-o", folder, "--no-attachments"])
            XCTAssertEqual(r.status, 0, r.stderr)
            // A finished export (the signal came too late) or nothing at all: never a half-made folder.
            if FileManager.default.fileExists(atPath: folder) {
                let files = try FileManager.default.contentsOfDirectory(atPath: folder)
                XCTAssertTrue(files.contains("record.csv") && !files.contains { $0.hasPrefix(".") }, "attempt \(attempt) left \(files)")
            } else {
                XCTAssertFalse(FileManager.default.fileExists(atPath: (folder as NSString).deletingLastPathComponent),
                               "the parent folder it made is gone too")
            }
        }
    }

    /// A process-directed signal runs its handler on any thread that does not block it: a worker thread that is
    /// starting has every signal unblocked for a moment, and petlog starts one just as the CSV folder is made. The
    /// clean-up then ran beside the thread that writes, and the one failure of the test above (a Ctrl-C that left
    /// the new folder behind, empty) was that. The tests' hooks make the moment certain: the signal taken by a
    /// thread started as the folder is made, and the clean-up paused between its unlinks and its folders. Before
    /// `TemporaryFiles.whole`, 16 of 20 such runs left the folder with the files made meanwhile, and one printed
    /// an error instead. On PostgreSQL the clean-up runs on the signal's own thread after the statement is
    /// cancelled (`TemporaryFiles.onSignal`), also beside the writer.
    func testACtrlCTakenByAnotherThreadWhileTheExportWritesLeavesNothing() throws {
        XCTAssertEqual(try run(["demo"]).status, 0)
        let hooks = ["PETLOG_TEST_SIGNAL_ON_A_THREAD": "\(SIGINT)", "PETLOG_TEST_SLOW_CLEANUP": "100"]
        for attempt in 0..<5 {
            let parent = home.appendingPathComponent("threads\(attempt)")
            let r = try run(["export", "--format", "csv", "-o", parent.path + "/csv", "--no-attachments"], env: hooks)
            XCTAssertTrue(r.crashed && r.status == SIGINT, "attempt \(attempt) ended by SIGINT, not \(r.status) (\(r.crashed))")
            XCTAssertEqual(r.stderr, "", "attempt \(attempt): nothing said on a Ctrl-C")
            let left = FileManager.default.subpaths(atPath: parent.path)
            XCTAssertNil(left, "attempt \(attempt) left \(parent.path) with \(left ?? [])")
        }
    }

    func testConfigSetDatabaseStoresAnAbsolutePath() throws {
        let sub = home.appendingPathComponent("work")
        try FileManager.default.createDirectory(at: sub, withIntermediateDirectories: true)
        let r = try sh("cd work && petlog config set database rel.sqlite && petlog config get database")
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertTrue(r.stdout.contains("absolute path"), r.stdout)
        XCTAssertTrue(r.stdout.hasSuffix(sub.path + "/rel.sqlite\n"), r.stdout)
        // Written by hand, a relative path is read from the config file's folder, wherever petlog runs.
        let config = home.appendingPathComponent(".config/petlog/config.toml")
        try "database = \"mine.sqlite\"\n".write(to: config, atomically: true, encoding: .utf8)
        let a = try sh("unset PETLOG_DB; petlog pet add Coco --species dog")
        XCTAssertEqual(a.status, 0, a.stderr)
        XCTAssertTrue(FileManager.default.fileExists(atPath: home.appendingPathComponent(".config/petlog/mine.sqlite").path), a.stderr)
        let b = try sh("unset PETLOG_DB; cd work && petlog pet list")
        XCTAssertTrue(b.stdout.contains("Coco"), b.stdout + b.stderr)
    }
}
