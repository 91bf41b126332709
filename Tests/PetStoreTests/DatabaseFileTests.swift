import Foundation
import GRDB
import XCTest
import PetlogTestSupport
import PetModel
@testable import PetFiles
@testable import PetStoreCore
@testable import PetStoreSQLite

final class DatabaseFileTests: XCTestCase, OnOneStore {
    static let onOneStore = "SQLite: the database file itself (its folder, its modes, its damage)"
    var dir: URL!

    override func setUpWithError() throws {
        dir = FileManager.default.temporaryDirectory.appendingPathComponent("petlog-tests-\(UUID().uuidString)")
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(at: dir)
    }

    func mode(_ path: String) throws -> Int {
        (try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as! NSNumber).intValue
    }

    func testNewFilesArePrivate() throws {
        let path = dir.appendingPathComponent("data/petlog.sqlite").path
        let old = umask(0)
        defer { umask(old) }
        _ = try AppDatabase.open(path: path)
        XCTAssertEqual(try mode(path), 0o600)
        XCTAssertEqual(try mode(dir.appendingPathComponent("data").path), 0o700)
    }

    func testMigratedFileHasTheCurrentSchemaAndForeignKeys() throws {
        let path = dir.appendingPathComponent("p.sqlite").path
        let db = try AppDatabase.open(path: path)
        XCTAssertEqual(try db.appliedMigrations(), Schema.migrator.migrations)
        XCTAssertEqual(Schema.migrator.migrations.last, Schema.currentVersion)
        try db.dbQueue.read { db in
            XCTAssertEqual(try Int.fetchOne(db, sql: "PRAGMA foreign_keys"), 1)
            XCTAssertEqual(try String.fetchOne(db, sql: "PRAGMA journal_mode"), "wal")
            XCTAssertTrue(try db.tableExists("weight"))
        }
    }

    func testAFileFromANewerPetlogIsRefusedUntouched() throws {
        let path = dir.appendingPathComponent("p.sqlite").path
        do {
            let db = try AppDatabase.open(path: path)
            try db.dbQueue.write { db in try db.execute(sql: "INSERT INTO grdb_migrations (identifier) VALUES ('v999-from-the-future')") }
            try db.dbQueue.writeWithoutTransaction { db in _ = try db.checkpoint(.truncate) }
        }
        let before = try Data(contentsOf: URL(fileURLWithPath: path))
        XCTAssertThrowsError(try AppDatabase.open(path: path)) { error in
            guard case .newerSchema = error as? StoreError else { return XCTFail("\(error)") }
        }
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: path)), before)
    }

    func testAForeignFileIsRefusedUntouched() throws {
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        let text = dir.appendingPathComponent("notes.txt").path
        try Data("hello, not a database at all".utf8).write(to: URL(fileURLWithPath: text))
        XCTAssertThrowsError(try AppDatabase.open(path: text)) { XCTAssertEqual($0 as? StoreError, .notAPetlogDatabase(path: text)) }
        XCTAssertEqual(try String(contentsOfFile: text, encoding: .utf8), "hello, not a database at all")
        let other = dir.appendingPathComponent("other.sqlite").path
        let q = try DatabaseQueue(path: other)
        try q.write { try $0.execute(sql: "CREATE TABLE t (x)") }
        try q.close()
        XCTAssertThrowsError(try AppDatabase.open(path: other)) { XCTAssertEqual($0 as? StoreError, .notAPetlogDatabase(path: other)) }
    }

    func testAttachmentsAreContentAddressedAndRemovedWhenTheWriteFails() throws {
        let path = dir.appendingPathComponent("p.sqlite").path
        let repo = Store(SQLiteRepository(try AppDatabase.open(path: path)))
        _ = try repo.addPet(PetDraft(name: "Coco", species: .dog))
        let photo = dir.appendingPathComponent("my photos/name.jpg")
        try FileManager.default.createDirectory(at: photo.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data([0xFF, 0xD8, 0xFF, 0xE0, 1, 2, 3]).write(to: photo)
        defer { try? FileManager.default.removeItem(at: photo) }
        let r = try repo.addRecord(pets: [.name("Coco")], RecordDraft(at: Date(), utcOffset: 0, detail: .diary(Diary(text: "x")),
                                                                     attachmentPaths: [photo.path, photo.path]))[0]
        XCTAssertEqual(r.attachments.map(\.position), [0], "the same file given twice is one attachment of the record")
        // Another record with the same bytes refers to the same stored file.
        let second = try repo.addRecord(pets: [.name("Coco")], RecordDraft(at: Date(), utcOffset: 0, detail: .diary(Diary(text: "y")),
                                                                          attachmentPaths: [photo.path]))[0]
        XCTAssertEqual(second.attachments.map(\.sha256), r.attachments.map(\.sha256))
        XCTAssertEqual(r.attachments[0].mediaType, "image/jpeg")
        XCTAssertEqual(r.attachments[0].originalName, "name.jpg")
        let stored = dir.appendingPathComponent("p.sqlite.attachments/\(r.attachments[0].sha256.prefix(2))/\(r.attachments[0].sha256)")
        XCTAssertTrue(FileManager.default.fileExists(atPath: stored.path))
        XCTAssertEqual(try mode(stored.path), 0o600)
        // A write that fails (unknown pet) leaves no new file behind.
        let other = dir.appendingPathComponent("other.png")
        try Data([0x89, 0x50, 0x4E, 0x47, 9]).write(to: other)
        XCTAssertThrowsError(try repo.addRecord(pets: [.name("Rex")], RecordDraft(at: Date(), utcOffset: 0, detail: .diary(Diary(text: "x")),
                                                                                  attachmentPaths: [other.path])))
        let files = try FileManager.default.subpathsOfDirectory(atPath: dir.appendingPathComponent("p.sqlite.attachments").path).filter { $0.count > 3 }
        XCTAssertEqual(files.count, 1)
    }

    func testBackupIsAConsistentPrivateCopy() throws {
        let path = dir.appendingPathComponent("p.sqlite").path
        let db = try AppDatabase.open(path: path)
        _ = try Store(SQLiteRepository(db)).addPet(PetDraft(name: "Coco", species: .dog))
        let copy = dir.appendingPathComponent("copy.sqlite").path
        try db.backup(to: copy)
        XCTAssertEqual(try mode(copy), 0o600)
        XCTAssertEqual(try Store(SQLiteRepository(try AppDatabase.open(path: copy))).pets(includeArchived: true).map(\.name), ["Coco"])
    }
}
