import Foundation
import XCTest
import PetlogTestSupport

/// Nothing half-written, ever (issue 42): a new database on a nearly full disk is refused in one line
/// naming it (exit 74) and leaves no file, never a short one linked into place; a command that made a new
/// database (a file, or on a server the `petlog` schema) and then failed leaves nothing behind and does
/// not say it created one.
final class NothingHalfWrittenTests: CLITestCase {
    private var mounts: [String] = []

    override func tearDownWithError() throws {
        for dir in mounts { _ = try? launch(URL(fileURLWithPath: "/bin/umount"), [dir]) }
        mounts = []
        try super.tearDownWithError()
    }

    /// A tmpfs of `size` (root only; skipped where mount is not permitted).
    private func smallDisk(_ name: String, size: String) throws -> String {
        guard getuid() == 0 else { throw XCTSkip("mounting a small tmpfs needs root") }
        let dir = home.appendingPathComponent(name).path
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        let mount = try launch(URL(fileURLWithPath: "/bin/mount"), ["-t", "tmpfs", "-o", "size=\(size)", "tmpfs", dir])
        guard mount.status == 0 else { throw XCTSkip("cannot mount a tmpfs here: \(mount.stderr)") }
        mounts.append(dir)
        return dir
    }

    private func unmount(_ dir: String) {
        _ = try? launch(URL(fileURLWithPath: "/bin/umount"), [dir])
        mounts.removeAll { $0 == dir }
    }

    private func contents(_ dir: String) -> [String] { ((try? FileManager.default.contentsOfDirectory(atPath: dir)) ?? []).sorted() }

    /// A refusal for a full disk: exit 74, one line on stderr naming the database as typed, never a
    /// temporary file; and nothing left in the folder.
    private func expectFullDisk(_ r: Result, db: String, folder: String, _ what: String, file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertEqual(r.status, 74, "\(what): \(r.stderr)", file: file, line: line)
        XCTAssertEqual(r.stderr, "petlog: \(db): no space left on device\n", what, file: file, line: line)
        XCTAssertFalse(r.stderr.contains(".tmp"), what, file: file, line: line)
        XCTAssertEqual(contents(folder), [], "\(what) left files behind", file: file, line: line)
    }

    // MARK: A new database on a full disk

    func testANewDatabaseOnANearlyFullDiskIsRefusedAndLeavesNoFile() throws {
        try requireDatabaseFile()
        // 700 KB: the new file's schema (in the WAL) fits, its copy into the file does not (issue 42's disk).
        let disk = try smallDisk("small", size: "700k")
        let db = disk + "/db.sqlite"
        expectFullDisk(try run(["--db", db, "pet", "add", "Keep", "--species", "dog"]), db: db, folder: disk, "pet add into a new file")
        // Nothing there, so the next write is no more refused as damaged than the first.
        expectFullDisk(try run(["--db", db, "pet", "add", "Keep", "--species", "dog"]), db: db, folder: disk, "pet add again")
        try ok("pet", "add", "Coco", "--species", "dog")
        let export = home.appendingPathComponent("one.json").path
        try ok("export", "-o", export)
        expectFullDisk(try run(["--db", db, "import", export]), db: db, folder: disk, "import into a new file")
    }

    /// Disks from too small for the schema to too small for the import: each import into a new file either
    /// stores everything, whole (`check` passes), or is refused in one line with nothing left.
    func testAnImportIntoANewFileOnAFullDiskIsWholeOrNothing() throws {
        try requireDatabaseFile()
        try ok("demo", "--end", "2026-11-20")
        let export = home.appendingPathComponent("demo.json").path
        try ok("export", "-o", export, "--no-attachments")
        var refused = 0
        for size in ["600k", "700k", "760k", "900k", "1300k"] {
            let disk = try smallDisk("disk-\(size)", size: size)
            let db = disk + "/db.sqlite"
            let r = try run(["--db", db, "import", export])
            if r.status == 0 {
                XCTAssertEqual(try run(["--db", db, "check"]).status, 0, size)
                XCTAssertTrue(try run(["--db", db, "pet", "list"]).stdout.contains("Mochi"), size)
            } else {
                refused += 1
                expectFullDisk(r, db: db, folder: disk, "import on a \(size) disk")
            }
            unmount(disk)
        }
        XCTAssertGreaterThan(refused, 0, "no disk was small enough to refuse the import")
    }

    /// A backup or export to a full disk leaves the database as it was and no file at the target.
    func testAFailingBackupOrExportLeavesTheDatabaseUntouched() throws {
        try requireDatabaseFile()
        try ok("demo", "--end", "2026-11-20")
        // A photo bigger than the disk: the backup's attachments folder fails first.
        let photo = home.appendingPathComponent("photo.jpg").path
        try Data([0xFF, 0xD8, 0xFF, 0xE0] + (0..<120_000).map { UInt8(truncatingIfNeeded: $0 &* 7919 >> 3) }).write(to: URL(fileURLWithPath: photo))
        try ok("diary", "Coco", "a big photo", "--photo", photo)
        let before = try fileHash(dbPath)
        let disk = try smallDisk("full", size: "64k")
        for (args, name) in [(["backup", "-o", disk + "/b.sqlite"], "b.sqlite"), (["export", "-o", disk + "/x.json"], "x.json"),
                             (["export", "--format", "csv", "-o", disk + "/csv"], "csv")] {
            let r = try run(args)
            XCTAssertEqual(r.status, 74, "\(args): \(r.stderr)")
            XCTAssertEqual(r.stderr.split(separator: "\n").count, 1, r.stderr)
            XCTAssertTrue(r.stderr.contains(disk + "/" + name), r.stderr)
            XCTAssertTrue(r.stderr.contains("no space left on device"), r.stderr)
            XCTAssertFalse(r.stderr.contains(".tmp") || r.stderr.contains("partial"), r.stderr)
            XCTAssertEqual(contents(disk), [], "\(args) left files behind")
        }
        XCTAssertEqual(try fileHash(dbPath), before)
    }

    /// A file added to a record on a disk too full for it (`edit --photo`, `--attach`, a new diary with a photo):
    /// refused in one line (exit 74), the database as it was, and nothing left beside it, not even the empty
    /// folders the file would have gone into.
    func testAFileTooBigForTheDiskIsRefusedAndLeavesNothing() throws {
        try requireDatabaseFile()
        let disk = try smallDisk("attach", size: "2m")
        let db = disk + "/db.sqlite"
        XCTAssertEqual(try run(["--db", db, "pet", "add", "Coco", "--species", "dog"]).status, 0)
        XCTAssertEqual(try run(["--db", db, "diary", "Coco", "a walk"]).status, 0)
        XCTAssertEqual(try run(["--db", db, "visit", "Coco", "--clinic", "Seoul AMC", "--reason", "checkup"]).status, 0)
        // Bytes no earlier file has, so each is a new file for the store; more than the disk has left.
        let photo = home.appendingPathComponent("photo.jpg").path
        try Data([0xFF, 0xD8, 0xFF, 0xE0] + (0..<1_600_000).map { UInt8(truncatingIfNeeded: ($0 &* 2_654_435_761) >> 13) })
            .write(to: URL(fileURLWithPath: photo))
        let filler = disk + "/filler"
        try Data(count: 1_200_000).write(to: URL(fileURLWithPath: filler))
        let before = try fileHash(db)
        let files = contents(disk)
        for args in [["edit", "1", "--photo", photo], ["edit", "2", "--attach", photo], ["diary", "Coco", "another walk", "--photo", photo]] {
            let r = try run(["--db", db] + args)
            XCTAssertEqual(r.status, 74, "\(args): \(r.stderr)")
            XCTAssertEqual(r.stderr.split(separator: "\n").count, 1, "\(args): \(r.stderr)")
            XCTAssertTrue(r.stderr.contains("no space left on device"), "\(args): \(r.stderr)")
            XCTAssertEqual(try fileHash(db), before, "\(args) changed the database")
            XCTAssertEqual(contents(disk), files, "\(args) left something beside the database")
        }
    }

    // MARK: A first write that fails

    /// Whether the test's database exists: the file, or on a server the `petlog` schema.
    private func databaseExists() throws -> Bool {
        guard let name = serverDatabase else { return FileManager.default.fileExists(atPath: dbPath) }
        let server = try TestServer.shared()
        let r = try TestServer.shell(["/usr/lib/postgresql/15/bin/psql", "-X", "-q", "-A", "-t", "-h", server.folder, "-p", server.port,
                                      "-U", "postgres", "-d", name, "-c", "SELECT count(*) FROM pg_namespace WHERE nspname = 'petlog'"])
        XCTAssertEqual(r.status, 0, r.stdout)
        return r.stdout.trimmingCharacters(in: .whitespacesAndNewlines) != "0"
    }

    private func expectNothingMade(_ args: [String], code: Int32, mentions: String? = nil) throws {
        let r = try run(args)
        XCTAssertEqual(r.status, code, "\(args): \(r.stderr)")
        if let mentions { XCTAssertTrue(r.stderr.contains(mentions), "\(args): \(r.stderr)") }
        XCTAssertEqual(r.stderr.split(separator: "\n").count, 1, "\(args): \(r.stderr)")
        XCTAssertFalse(r.stderr.contains("created a new"), "\(args) said it created a database it then removed: \(r.stderr)")
        XCTAssertFalse(try databaseExists(), "\(args) left a new database behind")
        if serverDatabase == nil {
            let folder = (dbPath as NSString).deletingLastPathComponent
            XCTAssertEqual(contents(folder).filter { $0.contains("petlog.sqlite") }, [], "\(args) left files")
        }
    }

    func testEachWayAFirstImportCanFailLeavesNoNewDatabase() throws {
        try startWithAnEmptyServerDatabase()
        let dir = home.appendingPathComponent("files").path
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        // A pet that is not there (the file is good; the database is opened before the pet is looked up).
        try "date,weight_kg\n2026-01-01,4.1\n".write(toFile: dir + "/w.csv", atomically: true, encoding: .utf8)
        try expectNothingMade(["import", dir + "/w.csv", "--pet", "Nobody"], code: 66, mentions: "Nobody")

        // A petlog file whose pet goes in, then a record in the middle that fails: a dose of a medication
        // the file does not have, and two records with one id (a conflict found while writing).
        let head = """
            {"format": "petlog", "schema": "v1", "units": {"weight": "g", "money": "minor units"},
            "pets": [
            {"id": 1, "name": "Coco", "species": "dog", "sex": "female", "neutered": true, "born": "2019-04-02"}
            ],
            "records": [

            """
        func weight(_ id: Int, _ day: Int) -> String {
            "{\"id\": \(id), \"pet_id\": 1, \"kind\": \"weight\", \"at\": \"2026-11-\(day)T08:00:00+09:00\", \"weight\": {\"grams\": 4200}}"
        }
        let dose = "{\"id\": 3, \"pet_id\": 1, \"kind\": \"dose\", \"at\": \"2026-11-12T08:00:00+09:00\", \"dose\": {\"medication_id\": 99, \"skipped\": false}}"
        try (head + [weight(1, 10), weight(2, 11), dose, weight(4, 13)].joined(separator: ",\n") + "\n]}\n")
            .write(toFile: dir + "/dose.json", atomically: true, encoding: .utf8)
        try expectNothingMade(["import", dir + "/dose.json"], code: 65, mentions: "#99")
        try (head + [weight(1, 10), weight(2, 11), weight(2, 12)].joined(separator: ",\n") + "\n]}\n")
            .write(toFile: dir + "/twice.json", atomically: true, encoding: .utf8)
        try expectNothingMade(["import", dir + "/twice.json"], code: 65, mentions: "twice.json")

        // Commands that may not make a database say so and make none; those that store into one made now do.
        try expectNothingMade(["weight", "Nobody", "4kg"], code: 66)
        try expectNothingMade(["expense", "Nobody", "12", "USD"], code: 66)
        let added = try run(["pet", "add", "Coco", "--species", "dog"])
        XCTAssertEqual(added.status, 0, added.stderr)
        XCTAssertTrue(try databaseExists())
        // Once it holds a pet, a failing import leaves it as it is.
        XCTAssertEqual(try run(["import", dir + "/w.csv", "--pet", "Nobody"]).status, 66)
        XCTAssertTrue(try databaseExists())
        XCTAssertTrue(try ok("pet", "list").contains("Coco"))
    }

    // MARK: When each record was written

    /// `export` then `import` keeps each pet's and record's created and updated times (docs/json.md), on both
    /// stores: `show` says when the record was written, not when it was imported, and a second export gives
    /// the same bytes.
    func testExportThenImportKeepsWhenEachRecordWasWrittenAndChanged() throws {
        func at(_ now: String, _ args: String...) throws -> Result {
            let r = try run(Array(args), env: ["PETLOG_NOW": now])
            XCTAssertEqual(r.status, 0, "\(args): \(r.stderr)")
            return r
        }
        try at("2026-10-01T09:00:00+09:00", "pet", "add", "Coco", "--species", "dog")
        try at("2026-10-01T09:05:00+09:00", "weight", "Coco", "4.2kg")                   // #1: a plain weight
        try at("2026-10-02T20:00:00+09:00", "weight", "Coco", "4.3kg", "--note", "after a walk")
        try at("2026-10-03T08:00:00+09:00", "diary", "Coco", "first snow")
        try at("2026-10-05T10:00:00+09:00", "edit", "1", "--note", "weighed at the clinic")  // changed later
        try at("2026-10-06T10:00:00+09:00", "pet", "edit", "Coco", "--breed", "Maltese")
        let first = home.appendingPathComponent("first.json").path
        try at("2026-11-23T10:00:00+09:00", "export", "-o", first)
        let text = try String(contentsOfFile: first, encoding: .utf8)
        XCTAssertTrue(text.contains("\"created_at\":\"2026-10-01T00:05:00Z\""), text)
        XCTAssertTrue(text.contains("\"updated_at\":\"2026-10-05T01:00:00Z\""), text)
        XCTAssertTrue(text.contains("\"updated_at\":\"2026-10-06T01:00:00Z\""), "the pet's change: \(text)")

        // Into a new database (a file, or a database of its own on the server), a month later.
        let other: String
        if onServer {
            let name = try TestServer.shared().createDatabase()
            addTeardownBlock { try? TestServer.shared().dropDatabase(name) }
            other = TestServer.url(name)
        } else {
            other = home.appendingPathComponent("other.sqlite").path
        }
        let imported = try run(["--db", other, "import", first], env: ["PETLOG_NOW": "2026-11-23T10:00:00+09:00"])
        XCTAssertEqual(imported.status, 0, imported.stderr)
        for id in ["1", "2", "3"] {
            let before = try at("2026-11-23T10:00:00+09:00", "show", id).stdout
            let after = try run(["--db", other, "show", id], env: ["PETLOG_NOW": "2026-11-23T10:00:00+09:00"]).stdout
            XCTAssertEqual(after, before, "record #\(id)")
            XCTAssertFalse(after.contains("Nov 23"), "record #\(id) says the import's time: \(after)")
        }
        let second = home.appendingPathComponent("second.json").path
        XCTAssertEqual(try run(["--db", other, "export", "-o", second]).status, 0)
        XCTAssertEqual(try String(contentsOfFile: second, encoding: .utf8), text, "export → import → export")

        // A file written before petlog kept these times imports at the import's time, as before.
        let old = home.appendingPathComponent("old.json").path
        try text.replacingOccurrences(of: #","created_at":"[^"]*""#, with: "", options: .regularExpression)
            .replacingOccurrences(of: #","updated_at":"[^"]*""#, with: "", options: .regularExpression)
            .write(toFile: old, atomically: true, encoding: .utf8)
        let third = onServer ? try TestServer.shared().createDatabase() : ""
        if onServer { addTeardownBlock { try? TestServer.shared().dropDatabase(third) } }
        let oldDb = onServer ? TestServer.url(third) : home.appendingPathComponent("old.sqlite").path
        XCTAssertEqual(try run(["--db", oldDb, "import", old], env: ["PETLOG_NOW": "2026-11-23T10:00:00+09:00"]).status, 0)
        XCTAssertTrue(try run(["--db", oldDb, "show", "1"]).stdout.contains("Nov 23"))
    }

    /// Ctrl-C during a first import into a new file: no file left (the new file goes with the signal).
    func testCtrlCDuringAFirstImportLeavesNoNewFile() throws {
        try requireDatabaseFile()
        let file = home.appendingPathComponent("many.json").path
        var text = """
            {"format": "petlog", "schema": "v1", "units": {"weight": "g", "money": "minor units"},
            "pets": [
            {"id": 1, "name": "Coco", "species": "dog", "sex": "female", "neutered": true, "born": "2019-04-02"}
            ],
            "records": [

            """
        let count = 400_000
        text.reserveCapacity(count * 110)
        for i in 1...count {
            let minutes = i * 5
            text += "{\"id\": \(i), \"pet_id\": 1, \"kind\": \"weight\", \"at\": \"\(String(format: "%04d-%02d-%02dT%02d:%02d:00Z", 2020 + minutes / 525_600, 1 + minutes / 43_200 % 12, 1 + minutes / 1440 % 28, minutes / 60 % 24, minutes % 60))\", \"weight\": {\"grams\": \(4000 + i % 500)}}"
            text += i < count ? ",\n" : "\n]}\n"
        }
        try text.write(toFile: file, atomically: true, encoding: .utf8)
        try FileManager.default.createDirectory(atPath: (dbPath as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        // The new file is linked into place once it is whole, before any record is written: then Ctrl-C, as
        // soon as inotify says it is there (or the import ended: its output files are closed).
        let watch = try DirectoryWatch([(dbPath as NSString).deletingLastPathComponent, home.path], events: UInt32(IN_CREATE | IN_MOVED_TO | IN_CLOSE_WRITE))
        let child = try PetlogChild(binary: Self.binary.path, arguments: ["--db", dbPath, "import", file], home: home.path,
                                    outputPrefix: home.appendingPathComponent("import").path)
        _ = watch.wait { child.poll() || FileManager.default.fileExists(atPath: dbPath) }
        XCTAssertFalse(child.poll(), "the import ended before it could be interrupted: \(child.stderr)")
        kill(child.pid, SIGINT)
        child.wait()
        XCTAssertNil(child.exitCode, "petlog was not ended by the signal: \(child.stderr)")
        let folder = (dbPath as NSString).deletingLastPathComponent
        XCTAssertEqual(contents(folder), [], "Ctrl-C left files: \(child.stderr)")
    }
}
