#if os(Linux)
// Linux only: posix_spawn, runuser, signals.
import Foundation
import Glibc
import XCTest
import PetlogTestSupport

/// What outsiders did to petlog's files: two databases in one folder, a mistyped --db, a backup restored
/// elsewhere, a damaged file, a held lock, six first opens of an old file at once, files of another user.
final class StoreSafetyTests: CLITestCase {
    override class var onOneStoreOnly: String? { "about the SQLite file: its folder, its locks, its bytes" }
    static let storeFixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("PetStoreTests/Fixtures")

    func petlog(_ db: String, _ args: String...) throws -> Result { try run(["--db", db] + args, useDefaultDB: true) }

    func folder(_ name: String) throws -> URL {
        let url = home.appendingPathComponent(name)
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    func files(under url: URL) -> [String] {
        ((try? FileManager.default.subpathsOfDirectory(atPath: url.path)) ?? []).filter { $0.count > 60 }.sorted()
    }

    func exists(_ url: URL) -> Bool { FileManager.default.fileExists(atPath: url.path) }

    func python(_ script: String, _ args: String...) throws {
        let r = try launch(URL(fileURLWithPath: "/usr/bin/env"), ["python3", "-c", script] + args)
        XCTAssertEqual(r.status, 0, r.stderr)
    }

    // MARK: Attachments belong to one database file

    func testTwoDatabasesInOneFolderNeverShareAttachments() throws {
        let dir = try folder("shared")
        let a = dir.appendingPathComponent("home.sqlite").path, b = dir.appendingPathComponent("work.sqlite").path
        for (db, pet, byte) in [(a, "Coco", UInt8(1)), (b, "Rex", UInt8(2))] {
            XCTAssertEqual(try petlog(db, "pet", "add", pet, "--species", "dog").status, 0)
            let photo = home.appendingPathComponent("\(pet).jpg")
            try Data([0xFF, 0xD8, 0xFF, byte]).write(to: photo)
            XCTAssertEqual(try petlog(db, "diary", pet, "walk", "--photo", photo.path).status, 0)
        }
        XCTAssertFalse(exists(dir.appendingPathComponent("attachments")))
        XCTAssertEqual(files(under: dir.appendingPathComponent("home.sqlite.attachments")).count, 1)
        XCTAssertEqual(files(under: dir.appendingPathComponent("work.sqlite.attachments")).count, 1)
        // The bug: --repair on one database deleted the other's photos as orphans.
        let repair = try petlog(a, "check", "--repair")
        XCTAssertEqual(repair.status, 0, repair.stdout + repair.stderr)
        XCTAssertEqual(files(under: dir.appendingPathComponent("work.sqlite.attachments")).count, 1)
        let check = try petlog(b, "check")
        XCTAssertEqual(check.status, 0, check.stdout)
        XCTAssertEqual(check.stdout, "")
    }

    func testTheSharedFolderOfTheOldLayoutIsAdoptedOnFirstOpen() throws {
        let dir = try folder("old")
        let v2 = Self.storeFixtures.appendingPathComponent("v2")
        let home = dir.appendingPathComponent("home.sqlite"), work = dir.appendingPathComponent("work.sqlite")
        try FileManager.default.copyItem(at: v2.appendingPathComponent("v2.sqlite"), to: home)
        try FileManager.default.copyItem(at: v2.appendingPathComponent("v2.sqlite"), to: work)
        try FileManager.default.copyItem(at: v2.appendingPathComponent("attachments"), to: dir.appendingPathComponent("attachments"))
        let shared = files(under: dir.appendingPathComponent("attachments"))
        XCTAssertEqual(shared.count, 1)
        // What a process killed half-way through the move leaves: an incomplete hidden folder.
        let stale = dir.appendingPathComponent(".home.sqlite.attachments.partial-99999/ab")
        try FileManager.default.createDirectory(at: stale, withIntermediateDirectories: true)
        try Data("half".utf8).write(to: stale.appendingPathComponent("junk"))

        let first = try petlog(home.path, "log", "--kind", "diary", "--json")
        XCTAssertEqual(first.status, 0, first.stderr)
        XCTAssertTrue(first.stderr.contains("home.sqlite.attachments"), first.stderr)
        XCTAssertEqual(files(under: dir.appendingPathComponent("home.sqlite.attachments")), shared)
        XCTAssertFalse(exists(stale.deletingLastPathComponent()), "the killed move's folder is replaced")
        // work.sqlite still uses the shared folder: nothing it needs was taken away.
        XCTAssertEqual(files(under: dir.appendingPathComponent("attachments")), shared)
        XCTAssertEqual(try petlog(home.path, "check").stdout, "")
        XCTAssertEqual(try petlog(home.path, "check", "--repair").status, 0)

        let second = try petlog(work.path, "check")
        XCTAssertEqual(second.status, 0, second.stdout + second.stderr)
        XCTAssertEqual(files(under: dir.appendingPathComponent("work.sqlite.attachments")), shared)
        XCTAssertFalse(exists(dir.appendingPathComponent("attachments")), "the shared folder goes once nobody needs it")
        XCTAssertEqual(try petlog(work.path, "pet", "list").stderr, "", "said once")
        let photo = try Data(contentsOf: dir.appendingPathComponent("home.sqlite.attachments/" + shared[0]))
        XCTAssertEqual(photo, try Data(contentsOf: dir.appendingPathComponent("work.sqlite.attachments/" + shared[0])))
    }

    // MARK: Reads never create

    func testReadCommandsNeverCreateADatabase() throws {
        let typo = home.appendingPathComponent("typo")
        let missing = typo.appendingPathComponent("petlog.sqlite").path
        let defaultPath = home.appendingPathComponent(".local/share/petlog/petlog.sqlite").path
        let out = home.appendingPathComponent("out").path
        for args in [["pet", "list"], ["pet", "show", "Coco"], ["log"], ["due"], ["due", "--check"], ["check"], ["search", "walk"],
                     ["stats"], ["calendar"], ["starred"], ["chart", "weight", "Coco"], ["report", "Coco", "-o", out + ".pdf"],
                     ["export", "-o", out + ".json"], ["backup", "-o", out + ".sqlite"], ["med", "list"],
                     ["weight", "Coco", "4kg"], ["edit", "1", "--note", "x"], ["delete", "1"], ["star", "1"],
                     ["user", "list"], ["user", "remove", "mina"], ["serve", "--listen", "0.0.0.0:8080"]] {
            let r = try run(["--db", missing] + args, useDefaultDB: true)
            checkRefusal(r, code: 66, mentions: missing, "\(args)")
            XCTAssertTrue(r.stderr.contains(defaultPath), "says where the default lives: \(r.stderr)")
            XCTAssertFalse(exists(typo), "\(args) created \(typo.path)")
            XCTAssertFalse(exists(URL(fileURLWithPath: out + ".json")))
        }
        let r = try run(["pet", "list"], useDefaultDB: true)
        checkRefusal(r, code: 66, mentions: defaultPath, "pet list without --db")
        XCTAssertFalse(exists(home.appendingPathComponent(".local/share/petlog")))
        let ko = try run(["--db", missing, "--lang", "ko", "log"], useDefaultDB: true)
        checkRefusal(ko, code: 66, mentions: "데이터베이스가 없습니다", "log in Korean")

        // The first write that creates one says where, once.
        let made = try run(["--db", missing, "pet", "add", "Coco", "--species", "dog"], useDefaultDB: true)
        XCTAssertEqual(made.status, 0)
        XCTAssertEqual(made.stderr, "petlog: created a new petlog database at \(missing)\n")
        XCTAssertEqual(try run(["--db", missing, "weight", "Coco", "4kg"], useDefaultDB: true).stderr, "")
    }

    // MARK: Backup and restore

    func testABackupCarriesItsAttachmentsAndRestoreBringsThemBack() throws {
        try ok("pet", "add", "Coco", "--species", "dog")
        let photo = home.appendingPathComponent("sofa.jpg")
        let bytes = Data([0xFF, 0xD8, 0xFF, 0xE0, 4, 2])
        try bytes.write(to: photo)
        try ok("diary", "Coco", "sofa", "--photo", photo.path)
        try ok("weight", "Coco", "4.2kg")
        let backups = try folder("backups")
        let backup = backups.appendingPathComponent("coco.sqlite").path
        let wrote = try ok("backup", "-o", backup)
        XCTAssertTrue(wrote.contains("coco.sqlite.attachments"), wrote)
        let copied = files(under: backups.appendingPathComponent("coco.sqlite.attachments"))
        XCTAssertEqual(copied.count, 1)
        XCTAssertEqual(try Data(contentsOf: backups.appendingPathComponent("coco.sqlite.attachments/" + copied[0])), bytes)
        // The backup opens as it is, photos included…
        XCTAssertEqual(try petlog(backup, "check").stdout, "")
        // …and restore brings both back elsewhere, as a new database.
        let target = home.appendingPathComponent("elsewhere/restored.sqlite")
        let restored = try petlog(target.path, "restore", backup)
        XCTAssertEqual(restored.status, 0, restored.stderr)
        let check = try petlog(target.path, "check")
        XCTAssertEqual(check.status, 0, check.stdout)
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: target.path + ".attachments/" + copied[0])), bytes)
        XCTAssertEqual(try petlog(target.path, "log", "--json").stdout, try run(["log", "--json"]).stdout)
        // Nothing is ever written over.
        let again = try petlog(target.path, "restore", backup)
        checkRefusal(again, code: 73, mentions: "already exists", "restore over a database")
        try expectRefused(["backup", "-o", backup], code: 73, mentions: "already exists")
        try expectRefused(["backup", "-o", "~/x.sqlite"], code: 73, mentions: "the folder ~ does not exist")
        try expectRefused(["backup", "-o", "-"], code: 64, mentions: "standard output")
        // Through a link, to the file it names; the link stays a link.
        let real = try folder("real").appendingPathComponent("b.sqlite")
        let link = home.appendingPathComponent("link.sqlite")
        try FileManager.default.createSymbolicLink(atPath: link.path, withDestinationPath: real.path)
        try ok("backup", "-o", link.path)
        XCTAssertEqual(try FileManager.default.destinationOfSymbolicLink(atPath: link.path), real.path)
        XCTAssertEqual(files(under: URL(fileURLWithPath: real.path + ".attachments")), copied)
        XCTAssertEqual(try petlog(link.path, "check").stdout, "")
        XCTAssertFalse(exists(home.appendingPathComponent("~")))
    }

    // MARK: Damage

    /// Fills a few leaf pages of `table` (or flips one bit of an index entry) with python's sqlite3 and raw writes.
    func damage(_ path: String, table: String, indexBitOnly: Bool = false) throws {
        try python("""
            import sqlite3, sys, random
            path, table, bit = sys.argv[1], sys.argv[2], sys.argv[3] == "1"
            c = sqlite3.connect(path); c.execute("PRAGMA wal_checkpoint(TRUNCATE)")
            size = c.execute("PRAGMA page_size").fetchone()[0]
            pages = [r[0] for r in c.execute("SELECT pageno FROM dbstat WHERE name = ? AND pagetype = 'leaf' ORDER BY pageno", (table,))]
            c.close()
            random.seed(7)
            with open(path, "r+b") as f:
                if bit:
                    f.seek((pages[1] - 1) * size); page = bytearray(f.read(size))
                    cell = int.from_bytes(page[8:10], "big"); page[cell + page[cell]] ^= 1
                    f.seek((pages[1] - 1) * size); f.write(page)
                else:
                    for p in pages[1:4]:
                        f.seek((p - 1) * size); f.write(bytes(random.randrange(256) for _ in range(size)))
            """, path, table, indexBitOnly ? "1" : "0")
    }

    func testADamagedDatabaseIsNamedRefusedForWritesAndRecoveredIntoACopy() throws {
        try ok("demo", "--end", "2026-11-20")
        try damage(dbPath, table: "record")
        // A read that meets the damage says so (never a silently shorter list)…
        try expectRefused(["log", "--since", "3y"], code: 65, mentions: "\(dbPath) is damaged")
        // …and from then on nothing more is written into the file, even where the write would not touch the damage.
        try expectRefused(["weight", "Coco", "4kg"], code: 65, mentions: "\(dbPath) is damaged")
        try expectRefused(["pet", "add", "Bori", "--species", "rabbit"], code: 65, mentions: "is damaged")
        let check = try run(["check"])
        XCTAssertEqual(check.status, 65)
        XCTAssertTrue(check.stdout.hasPrefix("\(dbPath) is damaged: "), check.stdout)
        XCTAssertTrue(check.stdout.contains("\n  integrity: "), check.stdout)
        XCTAssertFalse((check.stdout + check.stderr).contains("is not a petlog database"))
        let target = home.appendingPathComponent("b.sqlite")
        try expectRefused(["backup", "-o", target.path], code: 65, mentions: "petlog check")
        XCTAssertFalse(exists(target))
        XCTAssertTrue(try FileManager.default.contentsOfDirectory(atPath: home.path).allSatisfy { !$0.contains("partial") })

        let before = try fileHash(dbPath)
        let repair = try run(["check", "--repair"])
        XCTAssertEqual(repair.status, 65, "the file itself is still damaged")
        XCTAssertEqual(try fileHash(dbPath), before, "never repaired in place")
        let name = try XCTUnwrap(try FileManager.default.contentsOfDirectory(atPath: home.appendingPathComponent("data").path)
            .first { $0.hasPrefix("petlog.sqlite.recovered-") && $0.hasSuffix(".sqlite") })
        let copy = home.appendingPathComponent("data/" + name).path
        XCTAssertTrue(repair.stdout.contains(copy), repair.stdout)
        let copyCheck = try petlog(copy, "check")
        XCTAssertEqual(copyCheck.status, 0, copyCheck.stdout)
        XCTAssertEqual(try petlog(copy, "pet", "list", "--json").stdout, try run(["pet", "list", "--json"]).stdout)
        let kept = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(try petlog(copy, "log", "--since", "3y", "--json").stdout.utf8)) as? [Any])
        XCTAssertGreaterThan(kept.count, 1500, "every readable record is in the copy")
        XCTAssertEqual(try petlog(copy, "weight", "Coco", "4kg").status, 0)
    }

    func testDamageInAnIndexIsRebuiltInPlace() throws {
        try ok("demo", "--end", "2026-11-20")
        let before = try run(["log", "--since", "3y", "--json"]).stdout
        try damage(dbPath, table: "record_at", indexBitOnly: true)
        let check = try run(["check"])
        XCTAssertEqual(check.status, 65)
        XCTAssertTrue(check.stdout.contains("index: "), check.stdout)
        let repair = try run(["check", "--repair"])
        XCTAssertEqual(repair.status, 0, repair.stdout + repair.stderr)
        XCTAssertEqual(try ok("check"), "")
        XCTAssertEqual(try run(["log", "--since", "3y", "--json"]).stdout, before)
    }

    // MARK: Locks

    /// Holds the write lock from another process (python's sqlite3) until `release()` (a line on its
    /// standard input) or, at the latest, until `seconds` pass: the test says when, no sleep does.
    final class LockHolder {
        let process = Process()
        let input = Pipe()
        /// Commits, and waits for the holder to end.
        func release() {
            try? input.fileHandleForWriting.write(contentsOf: Data("\n".utf8))
            try? input.fileHandleForWriting.close()
            process.waitUntilExit()
        }
    }

    func holdWriteLock(_ path: String, seconds: Double) throws -> LockHolder {
        let holder = LockHolder()
        let p = holder.process
        p.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        p.arguments = ["python3", "-c", """
            import select, sqlite3, sys
            c = sqlite3.connect(sys.argv[1], isolation_level=None)
            c.execute("BEGIN IMMEDIATE"); print("locked", flush=True)
            select.select([sys.stdin], [], [], float(sys.argv[2])); c.execute("COMMIT")
            """, path, String(seconds)]
        let pipe = Pipe()
        p.standardOutput = pipe
        p.standardInput = holder.input
        try p.run()
        var said = Data()
        while !said.contains(UInt8(ascii: "\n")) {
            let more = pipe.fileHandleForReading.availableData
            if more.isEmpty { break }
            said += more
        }
        XCTAssertEqual(String(decoding: said, as: UTF8.self), "locked\n")
        return holder
    }

    /// Waits until `child` has said `text` on stderr: woken by each write to its output files in HOME
    /// (inotify), and by its exit; `patience` is only a failure guard.
    func waitUntil(_ child: PetlogChild, says text: String, patience: Double = 120, file: StaticString = #filePath, line: UInt = #line) {
        let said = (try? DirectoryWatch([home.path]))?.wait(guardSeconds: patience) { child.stderr.contains(text) || child.poll() }
        XCTAssertTrue(said == true && child.stderr.contains(text), "petlog never said \(text): \(child.stderr)", file: file, line: line)
    }

    func testAHeldLockIsWaitedForWithANoticeAndCtrlCStopsTheWait() throws {
        try ok("pet", "add", "Coco", "--species", "dog")
        let notice = "another petlog process is using"
        // Released once petlog has said it waits: the write then goes through, having said so once.
        var holder = try holdWriteLock(dbPath, seconds: 600)
        var child = try PetlogChild(binary: Self.binary.path, arguments: ["--db", dbPath, "weight", "Coco", "4kg"], home: home.path,
                                    outputPrefix: home.appendingPathComponent("w1").path)
        waitUntil(child, says: notice)
        holder.release()
        child.wait()
        XCTAssertEqual(child.exitCode, 0, child.stderr)
        XCTAssertEqual(child.stderr.components(separatedBy: notice).count, 2, child.stderr)

        // Ctrl-C while waiting ends petlog while the lock is still held, writing nothing: not by giving up
        // when the 30 s are over (exit 75, "busy"), and not by writing once the lock goes (exit 0).
        holder = try holdWriteLock(dbPath, seconds: 600)
        child = try PetlogChild(binary: Self.binary.path, arguments: ["--db", dbPath, "weight", "Coco", "5kg"], home: home.path,
                                outputPrefix: home.appendingPathComponent("w2").path)
        waitUntil(child, says: notice)
        kill(child.pid, SIGINT)
        child.wait()
        XCTAssertTrue(holder.process.isRunning, "the lock was held all along")
        XCTAssertNotEqual(child.exitCode, 0, child.stderr)
        XCTAssertNotEqual(child.exitCode, 75, "Ctrl-C stopped the wait, it did not run out: \(child.stderr)")
        holder.release()
        let weights = try XCTUnwrap(try json("log", "--kind", "weight") as? [Any])
        XCTAssertEqual(weights.count, 1, "only the first weight")
    }

    func testAWriterGivesUpAfterTheDocumentedThirtySecondsInTotal() throws {
        try ok("pet", "add", "Coco", "--species", "dog")
        let holder = try holdWriteLock(dbPath, seconds: 45)
        defer { holder.release() }
        let child = try PetlogChild(binary: Self.binary.path, arguments: ["--db", dbPath, "weight", "Coco", "4kg"], home: home.path,
                                    outputPrefix: home.appendingPathComponent("w").path)
        child.wait()
        XCTAssertEqual(child.exitCode, 75, child.stderr)
        XCTAssertGreaterThan(child.elapsedMilliseconds, 29_000)
        // A bound far above 30 s (a loaded machine is slow), far below the 150 s of a wait per retry.
        XCTAssertLessThan(child.elapsedMilliseconds, 90_000, "30 s in total, not 5 retries of 30 s")
        XCTAssertTrue(child.stderr.contains("another petlog"), child.stderr)
    }

    func testSixFirstOpensOfAnOlderFileMigrateItOnce() throws {
        for trial in 0..<4 {
            let dir = try folder("race\(trial)")
            let v1 = Self.storeFixtures.appendingPathComponent("v1")
            let db = dir.appendingPathComponent("v1.sqlite").path
            try FileManager.default.copyItem(at: v1.appendingPathComponent("v1.sqlite"), to: URL(fileURLWithPath: db))
            try FileManager.default.copyItem(at: v1.appendingPathComponent("attachments"), to: dir.appendingPathComponent("attachments"))
            let children = try (0..<6).map { i in
                try PetlogChild(binary: Self.binary.path, arguments: ["--db", db, "pet", "list"], home: home.path,
                                outputPrefix: dir.appendingPathComponent("c\(i)").path)
            }
            for c in children {
                c.wait()
                XCTAssertEqual(c.exitCode, 0, "trial \(trial): \(c.stderr)")
                XCTAssertTrue(c.stdout.contains("Coco"), c.stdout)
            }
            let names = try FileManager.default.contentsOfDirectory(atPath: dir.path)
            XCTAssertEqual(names.filter { $0.hasPrefix("v1.sqlite.before-") && $0.hasSuffix(".bak") }.count, 1, "trial \(trial): \(names)")
            XCTAssertEqual(try petlog(db, "check").stdout, "")
        }
    }

    // MARK: A full disk

    func testAFullDiskIsSaidInWordsByBackupAndMigration() throws {
        guard getuid() == 0 else { throw XCTSkip("mounting a small tmpfs needs root") }
        let disk = try folder("small")
        let mount = try launch(URL(fileURLWithPath: "/bin/mount"), ["-t", "tmpfs", "-o", "size=2000k", "tmpfs", disk.path])
        guard mount.status == 0 else { throw XCTSkip("cannot mount a tmpfs here: \(mount.stderr)") }
        defer { _ = try? launch(URL(fileURLWithPath: "/bin/umount"), [disk.path]) }
        let db = disk.appendingPathComponent("d.sqlite").path
        XCTAssertEqual(try petlog(db, "demo", "--end", "2026-11-20").status, 0)
        // Leave room for half a copy of the database: the backup cannot fit, whatever the demo's size.
        let free = (try FileManager.default.attributesOfFileSystem(forPath: disk.path)[.systemFreeSize] as? NSNumber)?.intValue ?? 0
        let size = (try FileManager.default.attributesOfItem(atPath: db)[.size] as? NSNumber)?.intValue ?? 0
        XCTAssertGreaterThan(free, size / 2, "the tmpfs is too small for the demo")
        try Data(count: max(0, free - size / 2)).write(to: disk.appendingPathComponent("filler"))
        let target = disk.appendingPathComponent("b.sqlite").path
        let before = try fileHash(db)
        let backup = try petlog(db, "backup", "-o", target)
        checkRefusal(backup, code: 74, mentions: "no space left on device", "backup on a full disk")
        XCTAssertFalse(backup.stderr.contains("SQLite"), backup.stderr)
        XCTAssertEqual(try fileHash(db), before)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: disk.path).sorted(), ["d.sqlite", "filler"], "nothing left behind")

        // An older file that must be backed up before its upgrade, with no room for the backup.
        try FileManager.default.removeItem(atPath: db)
        let v1 = disk.appendingPathComponent("v1.sqlite").path
        try FileManager.default.copyItem(atPath: Self.storeFixtures.appendingPathComponent("v1/v1.sqlite").path, toPath: v1)
        // No room left for the backup written before the upgrade.
        let left = (try FileManager.default.attributesOfFileSystem(forPath: disk.path)[.systemFreeSize] as? NSNumber)?.intValue ?? 0
        try Data(count: max(0, left - 40_000)).write(to: disk.appendingPathComponent("filler2"))
        let old = try fileHash(v1)
        let list = try petlog(v1, "pet", "list")
        checkRefusal(list, code: 74, mentions: "no space left on device", "migration on a full disk")
        XCTAssertEqual(try fileHash(v1), old)
    }

    // MARK: Another user's files

    /// Runs petlog as `nobody`, who may read but not write what root made (skipped without runuser).
    func runAsNobody(_ args: [String]) throws -> Result {
        guard FileManager.default.isExecutableFile(atPath: "/usr/sbin/runuser") || FileManager.default.isExecutableFile(atPath: "/sbin/runuser") else {
            throw XCTSkip("runuser is needed")
        }
        let bin = home.appendingPathComponent("bin/petlog")
        if !exists(bin) {
            try FileManager.default.createDirectory(at: bin.deletingLastPathComponent(), withIntermediateDirectories: true)
            try FileManager.default.copyItem(at: Self.binary, to: bin)
        }
        chmod(home.path, 0o755)
        chmod(bin.deletingLastPathComponent().path, 0o755)
        return try launch(URL(fileURLWithPath: "/usr/sbin/runuser"), ["-u", "nobody", "--", bin.path] + args, env: ["HOME": "/tmp"])
    }

    func testAnotherUsersFilesGetPlainWords() throws {
        guard getuid() == 0 else { throw XCTSkip("needs root to act as another user") }
        let dir = try folder("shared-ro")
        chmod(dir.path, 0o755)
        let db = dir.appendingPathComponent("family.sqlite").path
        XCTAssertEqual(try petlog(db, "pet", "add", "Coco", "--species", "dog").status, 0)
        XCTAssertEqual(try petlog(db, "weight", "Coco", "4kg").status, 0)
        try python("import sqlite3, sys; c = sqlite3.connect(sys.argv[1]); c.execute('PRAGMA wal_checkpoint(TRUNCATE)')", db)
        // Readable by all, writable by root only, in a folder nobody may write: reads simply work.
        chmod(db, 0o644)
        let before = try fileHash(db)
        let list = try runAsNobody(["--db", db, "pet", "list"])
        XCTAssertEqual(list.status, 0, list.stderr)
        XCTAssertTrue(list.stdout.contains("Coco"), list.stdout)
        XCTAssertFalse(list.stderr.contains("SQL"), list.stderr)
        let write = try runAsNobody(["--db", db, "weight", "Coco", "5kg"])
        checkRefusal(write, code: 73, mentions: "\(db) can be read but not written", "weight as nobody")
        XCTAssertEqual(try fileHash(db), before)
        // Not readable at all: permission, in words, never "SQLite error 14".
        chmod(db, 0o600)
        let denied = try runAsNobody(["--db", db, "pet", "list"])
        checkRefusal(denied, code: 73, mentions: "permission denied", "pet list as nobody")
        XCTAssertFalse(denied.stderr.contains("SQLite"), denied.stderr)
    }
}
#endif
