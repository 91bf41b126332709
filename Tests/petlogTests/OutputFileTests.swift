import Foundation
import XCTest
import PetlogTestSupport

/// Every file petlog writes (`export` JSON and CSV, `chart`, `report`, `due --ics`,
/// `export --with-attachments`) goes through one helper: links are followed to their target and stay
/// links, devices, FIFOs and folders are refused (73), `-o -` is standard output, a full disk is one
/// line and exit 74 with nothing left behind, and a signal removes the temporary files.
final class OutputFileTests: CLITestCase {
    private func p(_ name: String) -> String { home.appendingPathComponent(name).path }

    private func type(_ path: String) -> FileAttributeType? {
        (try? FileManager.default.attributesOfItem(atPath: path))?[.type] as? FileAttributeType
    }

    /// Files in `dir` whose names look like petlog's temporaries.
    private func temporaries(_ dir: String) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: dir)) ?? []).filter { $0.hasSuffix(".tmp") || $0.contains(".petlog-") }
    }

    /// The writers, each with the file it writes under `name` (extension added) and the arguments.
    private func writers(_ name: String) -> [(label: String, path: String, args: [String])] {
        [("export json", p(name + ".json"), ["export", "-o", p(name + ".json")]),
         ("export csv table", p(name + ".csv"), ["export", "--format", "csv", "--table", "weight", "-o", p(name + ".csv")]),
         ("chart png", p(name + ".png"), ["chart", "weight", "Coco", "-o", p(name + ".png")]),
         ("chart svg", p(name + ".svg"), ["chart", "symptoms", "Coco", "-o", p(name + ".svg")]),
         ("report", p(name + ".pdf"), ["report", "Coco", "-o", p(name + ".pdf")]),
         ("due --ics", p(name + ".ics"), ["due", "--ics", p(name + ".ics")])]
    }

    private func demo() throws {
        try ok("demo", "--end", "2026-11-22")
    }

    // MARK: links

    func testEveryWriterWritesThroughARelativeLinkAndKeepsTheLink() throws {
        try demo()
        for w in writers("out") {
            let target = URL(fileURLWithPath: w.path).lastPathComponent
            let real = p("real-" + target)
            try FileManager.default.createSymbolicLink(atPath: w.path, withDestinationPath: "real-" + target)
            let r = try run(w.args)
            XCTAssertEqual(r.status, 0, "\(w.label): \(r.stderr)")
            XCTAssertEqual(type(w.path), .typeSymbolicLink, "\(w.label) replaced the link")
            XCTAssertEqual(try FileManager.default.destinationOfSymbolicLink(atPath: w.path), "real-" + target)
            XCTAssertEqual(type(real), .typeRegular, "\(w.label) wrote the link's target")
            XCTAssertGreaterThan((try FileManager.default.attributesOfItem(atPath: real)[.size] as? Int) ?? 0, 50, w.label)
            XCTAssertEqual(((try FileManager.default.attributesOfItem(atPath: real))[.posixPermissions] as? NSNumber)?.intValue, 0o600, w.label)
        }
        XCTAssertEqual(temporaries(home.path), [])
    }

    func testAbsoluteDanglingAndChainedLinks() throws {
        try demo()
        let sub = p("sub")
        try FileManager.default.createDirectory(atPath: sub, withIntermediateDirectories: false)
        // Absolute, to an existing file.
        FileManager.default.createFile(atPath: sub + "/abs.json", contents: Data("old".utf8))
        try FileManager.default.createSymbolicLink(atPath: p("abs.json"), withDestinationPath: sub + "/abs.json")
        try ok("export", "-o", p("abs.json"))
        XCTAssertEqual(type(p("abs.json")), .typeSymbolicLink)
        XCTAssertTrue(try String(contentsOfFile: sub + "/abs.json", encoding: .utf8).hasPrefix("{\"format\": \"petlog\""))
        // Dangling: the file is created where the link points.
        try FileManager.default.createSymbolicLink(atPath: p("dangling.json"), withDestinationPath: "sub/new.json")
        try ok("export", "-o", p("dangling.json"))
        XCTAssertEqual(type(p("dangling.json")), .typeSymbolicLink)
        XCTAssertEqual(type(sub + "/new.json"), .typeRegular)
        // A chain a → b → sub/c (c not there yet), relative links resolved from each link's folder.
        try FileManager.default.createSymbolicLink(atPath: sub + "/b.json", withDestinationPath: "c.json")
        try FileManager.default.createSymbolicLink(atPath: p("a.json"), withDestinationPath: "sub/b.json")
        try ok("export", "-o", p("a.json"))
        XCTAssertEqual(type(p("a.json")), .typeSymbolicLink)
        XCTAssertEqual(type(sub + "/b.json"), .typeSymbolicLink)
        XCTAssertEqual(type(sub + "/c.json"), .typeRegular)
        // A dangling link into a folder that does not exist: refused, naming the folder.
        try FileManager.default.createSymbolicLink(atPath: p("nowhere.json"), withDestinationPath: "missing/x.json")
        try expectRefused(["export", "-o", p("nowhere.json")], code: 73, mentions: "the folder \(home.path)/missing does not exist")
        // A loop.
        try FileManager.default.createSymbolicLink(atPath: p("loop1.json"), withDestinationPath: "loop2.json")
        try FileManager.default.createSymbolicLink(atPath: p("loop2.json"), withDestinationPath: "loop1.json")
        try expectRefused(["export", "-o", p("loop1.json")], code: 73, mentions: "too many symbolic links")
        XCTAssertEqual(temporaries(home.path) + temporaries(sub), [])
    }

    func testCSVFolderThroughALinkAndLinkedTables() throws {
        try demo()
        try FileManager.default.createDirectory(atPath: p("real-tables"), withIntermediateDirectories: false)
        try FileManager.default.createSymbolicLink(atPath: p("tables"), withDestinationPath: "real-tables")
        FileManager.default.createFile(atPath: p("weights-elsewhere.csv"), contents: Data("old".utf8))
        try FileManager.default.createSymbolicLink(atPath: p("real-tables/weight.csv"), withDestinationPath: "../weights-elsewhere.csv")
        try ok("export", "--format", "csv", "-o", p("tables"))
        XCTAssertEqual(type(p("tables")), .typeSymbolicLink)
        XCTAssertEqual(type(p("real-tables/weight.csv")), .typeSymbolicLink)
        XCTAssertTrue(try String(contentsOfFile: p("weights-elsewhere.csv"), encoding: .utf8).hasPrefix("record_id,grams"))
        XCTAssertEqual(type(p("real-tables/pet.csv")), .typeRegular)
        XCTAssertEqual(temporaries(p("real-tables")), [])
    }

    // MARK: devices, FIFOs, folders

    /// `/dev/stdout` names the descriptor petlog already has: on a pipe the data goes down the pipe, as
    /// with `-o -`, and the link stays a link. `/dev/null` names no descriptor of petlog's: a device, refused.
    func testDevStdoutOnAPipeIsWrittenThroughAndStaysALink() throws {
        try demo()
        for (args, head) in [(["export", "-o", "/dev/stdout"], "{\"format\": \"petlog\""),
                             (["export", "--format", "csv", "--table", "pet", "-o", "/dev/stdout"], "id,"),
                             (["due", "--ics", "/dev/stdout"], "BEGIN:VCALENDAR")] {
            let r = try run(args)
            XCTAssertEqual(r.status, 0, "\(args): \(r.stderr)")
            XCTAssertTrue(r.stdout.hasPrefix(head), "\(args): \(r.stdout.prefix(80))")
            XCTAssertEqual(type("/dev/stdout"), .typeSymbolicLink, "\(args) replaced /dev/stdout")
            restoreDevStdout()
        }
        try expectRefused(["export", "-o", "/dev/null"], code: 73, mentions: "it is a device")
        XCTAssertEqual(type("/dev/null"), .typeCharacterSpecial, "replaced /dev/null")
    }

    /// A petlog that replaced the system's /dev/stdout (as root) must not break the machine for
    /// what runs next: put the link back (the test has failed already).
    private func restoreDevStdout() {
        guard type("/dev/stdout") != .typeSymbolicLink else { return }
        unlink("/dev/stdout")
        symlink("/proc/self/fd/1", "/dev/stdout")
    }

    func testFIFOsAndFoldersAreRefusedAndLeftAlone() throws {
        try demo()
        for w in writers("fifo") {
            XCTAssertEqual(mkfifo(w.path, 0o600), 0)
            try expectRefused(w.args, code: 73, mentions: "named pipe (FIFO)")
            var st = stat(); XCTAssertEqual(lstat(w.path, &st), 0); XCTAssertEqual(st.st_mode & S_IFMT, S_IFIFO, w.label)
        }
        for w in writers("dir") {
            try FileManager.default.createDirectory(atPath: w.path, withIntermediateDirectories: false)
            try expectRefused(w.args, code: 73, mentions: "it is a folder")
            XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: w.path), [], w.label)
        }
        // A file where a folder is needed, a FIFO where a folder is needed.
        FileManager.default.createFile(atPath: p("plain"), contents: Data("keep".utf8))
        try expectRefused(["export", "--format", "csv", "-o", p("plain")], code: 73, mentions: "a folder is needed")
        try expectRefused(["export", "-o", p("x.json"), "--with-attachments", p("plain")], code: 73, mentions: "a folder is needed")
        XCTAssertEqual(try String(contentsOfFile: p("plain"), encoding: .utf8), "keep")
        XCTAssertEqual(temporaries(home.path), [])
    }

    // MARK: standard output

    func testDashIsStandardOutputWhereTheFormatAllowsIt() throws {
        try demo()
        let json = try run(["export", "-o", "-"])
        XCTAssertEqual(json.status, 0, json.stderr)
        let object = try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any]
        XCTAssertEqual((object?["pets"] as? [Any])?.count, 3)
        XCTAssertTrue(json.stderr.contains("standard output"), json.stderr)
        let csv = try run(["export", "--format", "csv", "--table", "weight", "-o", "-"])
        XCTAssertEqual(csv.status, 0, csv.stderr)
        XCTAssertTrue(csv.stdout.hasPrefix("record_id,grams,body_condition\r\n"), csv.stdout.prefix(80).description)
        let svg = try run(["chart", "weight", "Coco", "-o", "-"])
        XCTAssertEqual(svg.status, 0, svg.stderr)
        XCTAssertTrue(svg.stdout.hasPrefix("<?xml") && svg.stdout.contains("<svg"), svg.stdout.prefix(80).description)
        XCTAssertEqual(svg.stderr, "")
        let ics = try run(["due", "--ics", "-"])
        XCTAssertEqual(ics.status, 0, ics.stderr)
        XCTAssertTrue(ics.stdout.hasPrefix("BEGIN:VCALENDAR\r\n") && ics.stdout.hasSuffix("END:VCALENDAR\r\n"), "the calendar only")
        XCTAssertFalse(FileManager.default.fileExists(atPath: p("-")), "a file named -")
        XCTAssertEqual(temporaries(home.path), [])
        XCTAssertEqual(((try? FileManager.default.contentsOfDirectory(atPath: NSTemporaryDirectory())) ?? []).filter { $0.hasPrefix(".petlog-") }, [])
        // Formats that cannot go there say which can.
        try expectRefused(["report", "Coco", "-o", "-"], code: 64, mentions: "only JSON, CSV of one table, SVG and iCalendar")
        try expectRefused(["export", "--format", "csv", "-o", "-"], code: 64, mentions: "--table")
        try expectRefused(["export", "-o", "x.json", "--with-attachments", "-"], code: 64, mentions: "needs a folder")
        try expectRefused(["due", "--ics", "-", "--json"], code: 64, mentions: "standard output")
        XCTAssertFalse(FileManager.default.fileExists(atPath: p("-")))
    }

    // MARK: full disk

    /// A 64 KiB tmpfs (root only; skipped where mount is not allowed).
    private func smallDisk() throws -> String {
        let dir = p("full")
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: false)
        let mount = try launch(URL(fileURLWithPath: "/bin/mount"), ["-t", "tmpfs", "-o", "size=64k", "tmpfs", dir])
        guard mount.status == 0 else { throw XCTSkip("cannot mount a tmpfs here: \(mount.stderr)") }
        mounts.append(dir)
        return dir
    }

    private var mounts: [String] = []

    override func tearDownWithError() throws {
        for dir in mounts { _ = try? launch(URL(fileURLWithPath: "/bin/umount"), [dir]) }
        mounts = []
        try super.tearDownWithError()
    }

    func testFullDiskIsOneLineExit74AndLeavesNothing() throws {
        try demo()
        let full = try smallDisk()
        for (args, name) in [(["export", "-o", full + "/x.json"], "x.json"),
                             (["export", "--format", "csv", "-o", full + "/tables"], "tables/record.csv"),
                             (["chart", "weight", "Coco", "Nabi", "Mochi", "-o", full + "/c.png"], "c.png")] {
            let r = try expectRefused(args, code: 74, mentions: "cannot write \(full)/\(name): no space left on device")
            XCTAssertFalse(r.stderr.contains("permission"), r.stderr)
            XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: full), [], "\(args) left a file")
        }
        // Korean and Japanese.
        try expectRefused(["--lang", "ko", "export", "-o", full + "/x.json"], code: 74, mentions: "기기에 남은 공간이 없습니다")
        try expectRefused(["--lang", "ja", "export", "-o", full + "/x.json"], code: 74, mentions: "ディスクの空き容量がありません")
        // An existing file on the full disk is kept as it was.
        FileManager.default.createFile(atPath: full + "/keep.json", contents: Data("previous export".utf8))
        try expectRefused(["export", "-o", full + "/keep.json"], code: 74, mentions: "no space left on device")
        XCTAssertEqual(try String(contentsOfFile: full + "/keep.json", encoding: .utf8), "previous export")
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: full), ["keep.json"])
    }

    func testStandardOutputOnAFullDiskIsOneLineNotATrap() throws {
        try demo()
        let full = try smallDisk()
        for args in [["export", "-o", "-"], ["log", "--since", "3y", "--json"], ["log", "--since", "3y"]] {
            FileManager.default.createFile(atPath: full + "/out", contents: nil)
            let out = try FileHandle(forWritingTo: URL(fileURLWithPath: full + "/out"))
            let proc = Process()
            proc.executableURL = Self.binary
            proc.arguments = ["--db", dbPath] + args
            proc.environment = ["HOME": home.path, "PATH": "/usr/bin:/bin", "TZ": "Asia/Seoul", "LANG": "C.UTF-8",
                                "PETLOG_NOW": "2026-11-23T10:00:00+09:00"]
            let err = Pipe()
            proc.standardOutput = out
            proc.standardError = err
            try proc.run()
            let e = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            proc.waitUntilExit()
            try out.close()
            XCTAssertEqual(proc.terminationReason, .exit, "\(args) trapped: \(e)")
            XCTAssertEqual(proc.terminationStatus, 74, "\(args): \(e)")
            XCTAssertEqual(e, "petlog: cannot write standard output: no space left on device\n")
            try FileManager.default.removeItem(atPath: full + "/out")
        }
    }

    // MARK: signals

    /// Starts `args`, sends `signal` as soon as a temporary file appears in `dir`, and returns how it
    /// ended; nil when it finished before a temporary file was seen.
    private func interrupt(_ args: [String], watching dir: String, signal: Int32) throws -> Process? {
        let proc = Process()
        proc.executableURL = Self.binary
        proc.arguments = ["--db", dbPath] + args
        proc.environment = ["HOME": home.path, "PATH": "/usr/bin:/bin", "TZ": "Asia/Seoul", "LANG": "C.UTF-8",
                            "PETLOG_NOW": "2026-11-23T10:00:00+09:00"]
        proc.standardOutput = FileHandle.nullDevice
        proc.standardError = FileHandle.nullDevice
        // Woken by inotify when a file appears in `dir` (or anything there changes), not by a timer.
        let watch = try DirectoryWatch([dir], events: UInt32(IN_CREATE | IN_MOVED_TO | IN_MODIFY | IN_DELETE))
        try proc.run()
        var seen = false
        while proc.isRunning {
            if !temporaries(dir).isEmpty {
                seen = true
                kill(proc.processIdentifier, signal)
                break
            }
            // A writer that ends without a temporary file changes nothing here: the process's end is looked
            // for again after a second without a change.
            watch.next(milliseconds: 1000)
        }
        proc.waitUntilExit()
        return seen ? proc : nil
    }

    func testSignalsRemoveTemporaryFiles() throws {
        try demo()
        let cases: [([String], String, Int32)] = [
            (["export", "-o", p("s.json")], "s.json", SIGINT),
            (["export", "--format", "csv", "-o", p("tables")], "tables", SIGINT),
            (["report", "Coco", "--since", "2y", "-o", p("s.pdf")], "s.pdf", SIGINT),
            (["chart", "weight", "Coco", "Nabi", "Mochi", "-o", p("s.png")], "s.png", SIGTERM),
            (["export", "-o", p("h.json")], "h.json", SIGHUP),
        ]
        var interrupted = 0
        for (args, name, sig) in cases {
            let watched = name == "tables" ? p("tables") : home.path
            if name == "tables" { try FileManager.default.createDirectory(atPath: watched, withIntermediateDirectories: false) }
            for _ in 0..<5 {
                guard let proc = try interrupt(args, watching: watched, signal: sig) else { continue }
                if proc.terminationReason == .exit && proc.terminationStatus == 0 { continue }  // finished first
                interrupted += 1
                XCTAssertEqual(proc.terminationReason, .uncaughtSignal, "\(args) ended by the signal (a shell sees \(128 + sig))")
                XCTAssertEqual(proc.terminationStatus, sig, "\(args)")
                XCTAssertEqual(temporaries(watched), [], "\(args) left its temporary file")
                XCTAssertFalse(FileManager.default.fileExists(atPath: p(name)) && name != "tables", "\(args) left a partial file")
                if name == "tables" { XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: watched), []) }
                break
            }
        }
        XCTAssertGreaterThanOrEqual(interrupted, 3, "most writers were caught while writing")
    }

    // MARK: attachments

    func testAttachmentWhoseHashNoLongerMatchesIsRefusedOnExport() throws {
        try requireDatabaseFile()  // rewrites the attachment file beside the database
        try ok("pet", "add", "Coco", "--species", "dog")
        let photo = p("photo.jpg")
        FileManager.default.createFile(atPath: photo, contents: Data([0xFF, 0xD8, 0xFF, 0xE0] + Array(repeating: 7, count: 100)))
        try ok("diary", "Coco", "walk", "--photo", photo)
        let store = home.appendingPathComponent("data/petlog.sqlite.attachments").path
        let stored = try FileManager.default.subpathsOfDirectory(atPath: store).filter { $0.count > 60 }
        XCTAssertEqual(stored.count, 1)
        let damaged = store + "/" + stored[0]
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: damaged))
        try handle.seek(toOffset: 10)
        try handle.write(contentsOf: Data("changed".utf8))
        try handle.close()
        let r = try expectRefused(["export", "-o", p("x.json"), "--with-attachments", p("files")], code: 65, mentions: damaged)
        XCTAssertTrue(r.stderr.contains("no longer matches"), r.stderr)
        XCTAssertFalse(FileManager.default.fileExists(atPath: p("files")), "nothing written")
        XCTAssertFalse(FileManager.default.fileExists(atPath: p("x.json")), "nothing written")
        try expectRefused(["--lang", "ja", "export", "-o", p("x.json"), "--with-attachments", p("files")], code: 65, mentions: "一致しなくなりました")
        // An intact attachment is copied (and the import of both then works).
        try FileManager.default.removeItem(atPath: damaged)
        FileManager.default.createFile(atPath: damaged, contents: Data([0xFF, 0xD8, 0xFF, 0xE0] + Array(repeating: 7, count: 100)))
        try ok("export", "-o", p("x.json"), "--with-attachments", p("files"))
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: p("files")), [URL(fileURLWithPath: damaged).lastPathComponent])
    }

    // MARK: messages

    func testMessagesNameTheFileAndTheCause() throws {
        try demo()
        // A quoted ~ is not expanded: say so through the folder.
        let tilde = try expectRefused(["export", "-o", "~/x.json"], code: 73, mentions: "cannot write ~/x.json: the folder ~ does not exist")
        XCTAssertFalse(tilde.stderr.contains("Error Domain") || tilde.stderr.contains("NSError") || tilde.stderr.contains("Cocoa"))
        try expectRefused(["--lang", "ko", "export", "-o", "~/x.json"], code: 73, mentions: "~ 폴더가 없습니다")
        try expectRefused(["--lang", "ja", "export", "-o", "~/x.json"], code: 73, mentions: "フォルダ ~ がありません")
        try expectRefused(["chart", "weight", "Coco", "-o", "nofolder/c.svg"], code: 73, mentions: "the folder nofolder does not exist")
        try expectRefused(["due", "--ics", "nofolder/d.ics"], code: 73, mentions: "the folder nofolder does not exist")
        try expectRefused(["report", "Coco", "-o", "nofolder/r.pdf"], code: 73, mentions: "the folder nofolder does not exist")
        // A file standing where a folder should be.
        FileManager.default.createFile(atPath: p("afile"), contents: Data())
        try expectRefused(["export", "-o", p("afile/x.json")], code: 73, mentions: "\(p("afile")) is not a folder")
        // report names the extension it accepts.
        let png = try expectRefused(["report", "Coco", "-o", p("r.png")], code: 64, mentions: ".pdf")
        XCTAssertFalse(png.stderr.contains(".png, .pdf or .svg"), png.stderr)
        try expectRefused(["--lang", "ko", "report", "Coco", "-o", p("r.png")], code: 64, mentions: "보고서는 PDF입니다")
        try expectRefused(["--lang", "ja", "report", "Coco", "-o", p("r.png")], code: 64, mentions: "レポートは PDF です")
        XCTAssertEqual(mkfifo(p("fifo.json"), 0o600), 0)
        try expectRefused(["--lang", "ko", "export", "-o", p("fifo.json")], code: 73, mentions: "이름 있는 파이프(FIFO)")
        try expectRefused(["--lang", "ja", "export", "-o", p("fifo.json")], code: 73, mentions: "名前付きパイプ（FIFO）")
    }

    func testReadOnlyFileSystem() throws {
        try demo()
        let full = try smallDisk()
        let remount = try launch(URL(fileURLWithPath: "/bin/mount"), ["-o", "remount,ro", full])
        guard remount.status == 0 else { throw XCTSkip("cannot remount read-only: \(remount.stderr)") }
        try expectRefused(["export", "-o", full + "/x.json"], code: 73, mentions: "cannot write \(full)/x.json: the file system is read-only")
        try expectRefused(["chart", "weight", "Coco", "-o", full + "/c.pdf"], code: 73, mentions: "the file system is read-only")
        try expectRefused(["--lang", "ko", "due", "--ics", full + "/d.ics"], code: 73, mentions: "읽기 전용 파일 시스템")
    }
}
