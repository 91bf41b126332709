#if os(Linux)
import Foundation
import Glibc
import XCTest
import PetlogTestSupport
@testable import PetStoreCore

/// A big import into a file that holds no record runs in a rollback journal, not the WAL (issue 34, round 4):
/// each page of the load is written once. These tests hold it to what the WAL gave: crash safety (a kill at
/// any moment leaves the file as it was, or the whole import), the file in WAL mode afterwards, other petlog
/// processes waiting within their budget instead of failing, and any other import staying in the WAL.
final class FirstImportJournalTests: CLITestCase {
    override class var onOneStoreOnly: String? { "about SQLite's journal and WAL files" }

    static let weights = 60_000

    /// A folder of two pets and `weights` weights (more than a big load's minimum, `StoreCore.bulkLoadMinimum`).
    func bigFolder() throws -> String {
        let dir = home.appendingPathComponent("big").path
        if FileManager.default.fileExists(atPath: dir) { return dir }
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        try "pet_id,name,species,breed,sex,birth_date,deceased_on,neutered,microchip\n1,Kkami,dog,Jindo,F,2019-03-01,,1,\n2,Nabi,cat,,M,2020-05-02,,0,\n"
            .write(toFile: dir + "/pets.csv", atomically: true, encoding: .utf8)
        var csv = "pet_id,measured_at,weight_kg\n"
        csv.reserveCapacity(Self.weights * 32)
        for i in 0..<Self.weights {
            let minutes = i / 2 * 7
            csv += String(format: "%ld,2021-%02ld-%02ldT%02ld:%02ld:00,%ld.%ld\n", 1 + i % 2, 1 + minutes / 43_200 % 12, 1 + minutes / 1440 % 28,
                          minutes / 60 % 24, minutes % 60, 3 + i % 20, i % 10)
        }
        try csv.write(toFile: dir + "/weights.csv", atomically: true, encoding: .utf8)
        return dir
    }

    func size(_ path: String) -> Int? {
        var info = stat()
        return stat(path, &info) == 0 ? Int(info.st_size) : nil
    }

    /// Bytes 18 and 19 of the file's header: 2 and 2 in WAL mode, 1 and 1 with a rollback journal.
    func headerVersions(_ path: String) throws -> [UInt8] {
        let handle = try XCTUnwrap(FileHandle(forReadingAtPath: path))
        defer { try? handle.close() }
        let header = try XCTUnwrap(try handle.read(upToCount: 20))
        return Array(header[18..<20])
    }

    /// What was seen of the files beside the database while `child` ran.
    struct Watched {
        var journalSeen = false
        var largestWAL = 0
        var headers: Set<[UInt8]> = []
    }

    func spawn(_ args: [String], _ name: String) throws -> PetlogChild {
        try PetlogChild(binary: Self.binary.path, arguments: ["--db", dbPath] + args, home: home.path,
                        outputPrefix: home.appendingPathComponent(name).path)
    }

    /// Looks at the database's side files after each change inotify reports in their folder (and in HOME,
    /// where the child's output files are closed when it ends), until `child` ends or `until` says stop
    /// (then returns at once).
    func watch(_ child: PetlogChild, until stop: (Watched) -> Bool = { _ in false }) throws -> Watched {
        var seen = Watched()
        // HOME, then the database's folder once petlog has made it.
        let folder = (dbPath as NSString).deletingLastPathComponent
        let changes = try DirectoryWatch([home.path])
        var watchingFolder = folder == home.path
        while !child.poll() {
            if !watchingFolder { watchingFolder = changes.add(folder) }
            if size(dbPath + "-journal") != nil { seen.journalSeen = true }
            seen.largestWAL = max(seen.largestWAL, size(dbPath + "-wal") ?? 0)
            if (size(dbPath) ?? 0) >= 100, let h = try? headerVersions(dbPath) { seen.headers.insert(h) }
            if stop(seen) { return seen }
            changes.next(milliseconds: 1000)
        }
        return seen
    }

    func recordCount() throws -> Int {
        let pets = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(try ok("pet", "list", "--json").utf8)) as? [[String: Any]])
        var total = 0
        for p in pets {
            let shown = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(try ok("pet", "show", try XCTUnwrap(p["name"] as? String), "--json").utf8)) as? [String: Any])
            total += try XCTUnwrap((shown["record_count"] as? NSNumber)?.intValue)
        }
        return total
    }

    func testABigFirstImportWritesThroughAJournalAndLeavesTheFileInWAL() throws {
        let dir = try bigFolder()
        let importing = try spawn(["import", dir, "--json"], "import")
        // Another petlog opening the file meanwhile waits for the load (its open needs WAL mode back), never fails.
        var reader: PetlogChild?
        let seen = try watch(importing) { seen in
            if seen.journalSeen && reader == nil { reader = try? self.spawn(["pet", "list", "--json"], "reader") }
            return false
        }
        XCTAssertEqual(importing.exitCode, 0, importing.stderr)
        XCTAssertTrue(seen.journalSeen, "the load of a new file went through a rollback journal")
        XCTAssertLessThan(seen.largestWAL, 1 << 20, "the load's pages never went through the WAL")
        XCTAssertNil(size(dbPath + "-journal"), "the journal is gone after the commit")
        XCTAssertEqual(try headerVersions(dbPath), [2, 2], "the file is in WAL mode again")
        let summary = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(importing.stdout.utf8)) as? [String: Any])
        XCTAssertEqual(summary["records_added"] as? Int, Self.weights)
        if let reader = try XCTUnwrap(reader, "a reader was started during the load") as PetlogChild? {
            reader.wait()
            XCTAssertEqual(reader.exitCode, 0, reader.stderr)
            let pets = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(reader.stdout.utf8)) as? [[String: Any]], reader.stdout)
            XCTAssertTrue(pets.isEmpty || pets.count == 2, "the file before or after the import: \(reader.stdout)")
            XCTAssertFalse(reader.stderr.contains("busy"), reader.stderr)
        }
        let check = try run(["check"])
        XCTAssertEqual(check.status, 0, check.stderr)
        XCTAssertEqual(check.stdout + check.stderr, "")
        XCTAssertEqual(try recordCount(), Self.weights)
        XCTAssertEqual(try ok("undo"), "Nothing to undo.\n", "a big import clears the undo history, as in the WAL")
        // A second import of the same folder: the file has records now, so this one is an ordinary write.
        let again = try spawn(["import", dir, "--json"], "again")
        let second = try watch(again)
        XCTAssertEqual(again.exitCode, 0, again.stderr)
        XCTAssertFalse(second.journalSeen)
        XCTAssertEqual(try headerVersions(dbPath), [2, 2])
        XCTAssertEqual(try recordCount(), Self.weights)
    }

    /// SIGKILL during the load of a new file: at the journal's first byte, while the commit writes the file,
    /// and at seeded moments in between. The next petlog rolls the journal back: the file opens, holds what it
    /// held before the import (nothing) or the whole import, passes `check`, is in WAL mode, and takes the
    /// import again.
    func testAFirstImportKilledAtAnyMomentLeavesTheEmptyFileOrTheWholeImport() throws {
        let dir = try bigFolder()
        // One full run (its own file) gives how long the load runs after its journal appears.
        let reference = try PetlogChild(binary: Self.binary.path, arguments: ["--db", home.appendingPathComponent("reference.sqlite").path, "import", dir],
                                        home: home.path, outputPrefix: home.appendingPathComponent("reference").path)
        var journalAt: UInt64?
        let changes = try DirectoryWatch([home.path])
        while !reference.poll() {
            if journalAt == nil, size(home.appendingPathComponent("reference.sqlite-journal").path) != nil { journalAt = PetlogChild.nanoseconds() }
            changes.next(milliseconds: 1000)
        }
        XCTAssertEqual(reference.exitCode, 0, reference.stderr)
        let loadNanoseconds = Double((reference.ended ?? 0) - (try XCTUnwrap(journalAt)))
        var rng = SplitMix64(seed: 34)
        var rolledBack = 0, committed = 0, killedInCommit = 0
        for trial in 0..<7 {
            for suffix in ["", "-wal", "-shm", "-journal"] { unlink(dbPath + suffix) }
            let child = try spawn(["import", dir], "trial-\(trial)")
            var sizeBefore: Int?
            var journalSince: UInt64?
            let delay = Double(rng.next() % 1000) / 1000 * loadNanoseconds
            _ = try watch(child) { seen in
                guard seen.journalSeen else { return false }
                if journalSince == nil { journalSince = PetlogChild.nanoseconds(); sizeBefore = self.size(self.dbPath) }
                switch trial {
                case 0, 1: return true  // the journal's first byte
                case 2, 3: return (self.size(self.dbPath) ?? 0) > (sizeBefore ?? Int.max)  // the commit writing the file
                default: return Double(PetlogChild.nanoseconds() - (journalSince ?? 0)) >= delay
                }
            }
            let hot = size(dbPath + "-journal") ?? 0 > 0
            child.killNow()
            let what = "trial \(trial)" + (child.wasKilled ? (hot ? ", killed with a journal" : ", killed") : ", ended first")
            if child.wasKilled && trial >= 2 && trial <= 3 && hot { killedInCommit += 1 }
            let check = try run(["check"])
            XCTAssertEqual(check.status, 0, "\(what): \(check.stderr)")
            XCTAssertEqual(check.stdout + check.stderr, "", what)
            XCTAssertNil(size(dbPath + "-journal"), "\(what): the journal was rolled back")
            XCTAssertEqual(try headerVersions(dbPath), [2, 2], "\(what): WAL mode again")
            let count = try recordCount()
            if count == 0 {
                XCTAssertTrue(child.wasKilled, what)
                XCTAssertEqual(try ok("pet", "list"), "No pets yet. Add one: petlog pet add NAME --species dog\n", what)
                if let sizeBefore { XCTAssertEqual(size(dbPath), sizeBefore, "\(what): the file is cut back to what it was") }
                rolledBack += 1
                let again = try run(["import", dir, "--json"])
                XCTAssertEqual(again.status, 0, "\(what): \(again.stderr)")
                XCTAssertEqual((try JSONSerialization.jsonObject(with: Data(again.stdout.utf8)) as? [String: Any])?["records_added"] as? Int, Self.weights, what)
            } else {
                XCTAssertEqual(count, Self.weights, "\(what): all of the import or none of it")
                committed += 1
            }
            XCTAssertEqual(try recordCount(), Self.weights, what)
            XCTAssertEqual(try run(["check"]).status, 0, what)
        }
        XCTAssertGreaterThanOrEqual(rolledBack, 2, "the kills at the journal's first byte rolled back")
        print("FirstImportJournalTests: 7 kills: \(rolledBack) rolled back (\(killedInCommit) while the commit wrote the file), \(committed) committed")
    }

    /// An import into a file that has records writes through the WAL as every other write: no journal, the
    /// header never leaves WAL mode, and the load's pages go through the WAL.
    func testAnImportIntoAFileWithRecordsStaysInTheWAL() throws {
        let dir = try bigFolder()
        try ok("pet", "add", "Bori", "--species", "dog")
        try ok("weight", "Bori", "5kg", "--at", "2026-11-01 09:00")
        let child = try spawn(["import", dir, "--json"], "import")
        let seen = try watch(child)
        XCTAssertEqual(child.exitCode, 0, child.stderr)
        XCTAssertFalse(seen.journalSeen, "no rollback journal")
        XCTAssertEqual(seen.headers, [[2, 2]], "WAL mode all along")
        XCTAssertGreaterThan(seen.largestWAL, 1 << 20, "the load went through the WAL")
        XCTAssertEqual(try recordCount(), Self.weights + 1)
        XCTAssertEqual(try run(["check"]).status, 0)
    }

    /// A file that another process has open (a reader here) cannot leave WAL mode: the import writes through
    /// the WAL as any other write, and the reader keeps reading.
    func testAFileAnotherProcessHoldsOpenIsLoadedThroughTheWAL() throws {
        let dir = try bigFolder()
        try ok("pet", "add", "Bori", "--species", "dog")
        let holder = Process()
        holder.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        holder.arguments = ["python3", "-c", """
            import sqlite3, sys
            c = sqlite3.connect(sys.argv[1])
            print(c.execute('SELECT count(*) FROM pet').fetchall()[0][0], flush=True)
            sys.stdin.read()
            print(c.execute('SELECT count(*) FROM pet').fetchall()[0][0], flush=True)
            """, dbPath]
        let input = Pipe(), output = Pipe()
        holder.standardInput = input
        holder.standardOutput = output
        try holder.run()
        let reader = output.fileHandleForReading
        var first = Data()
        while !first.contains(0x0A) {
            let more = reader.availableData
            if more.isEmpty { break }
            first += more
        }
        XCTAssertEqual(String(decoding: first, as: UTF8.self), "1\n", "the reader has the file open")
        let child = try spawn(["import", dir, "--json"], "import")
        let seen = try watch(child)
        try input.fileHandleForWriting.close()
        let rest = String(decoding: reader.readDataToEndOfFile(), as: UTF8.self)
        holder.waitUntilExit()
        XCTAssertEqual(child.exitCode, 0, child.stderr)
        XCTAssertFalse(seen.journalSeen, "no rollback journal while another process has the file")
        XCTAssertEqual(seen.headers, [[2, 2]])
        XCTAssertEqual(rest, "3\n", "the reader read on, and sees the imported pets")
        XCTAssertEqual(try recordCount(), Self.weights)
        XCTAssertEqual(try run(["check"]).status, 0)
    }
}
#endif
