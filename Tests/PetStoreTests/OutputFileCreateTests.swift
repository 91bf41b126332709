import Foundation
import XCTest
@testable import PetFiles
@testable import PetStoreCore
@testable import PetStoreSQLite

/// `OutputFile.create`, the writer for files that must not replace anything (backups): whole or absent,
/// 0600, an existing name refused and left as it was, no temporary file left behind.
final class OutputFileCreateTests: XCTestCase {
    var folder: URL!

    override func setUpWithError() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("petlog-create-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws { try? FileManager.default.removeItem(at: folder) }

    func entries() throws -> [String] { try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted() }

    func testCreatesTheFileWhole() throws {
        let path = folder.appendingPathComponent("b.sqlite").path
        let written = try OutputFile.create(path) { temporary -> Int in
            XCTAssertNotEqual(temporary, path)
            XCTAssertFalse(FileManager.default.fileExists(atPath: path), "nothing at the name while it is written")
            try Data("copy".utf8).write(to: URL(fileURLWithPath: temporary))
            return 4
        }
        XCTAssertEqual(written, 4)
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: path)), Data("copy".utf8))
        XCTAssertEqual(try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int, 0o600)
        XCTAssertEqual(try entries(), ["b.sqlite"])
    }

    func testRefusesAnExistingNameAndLeavesItAlone() throws {
        let path = folder.appendingPathComponent("b.sqlite").path
        try Data("mine".utf8).write(to: URL(fileURLWithPath: path))
        XCTAssertThrowsError(try OutputFile.create(path) { try Data("copy".utf8).write(to: URL(fileURLWithPath: $0)) }) { error in
            XCTAssertEqual((error as? OutputError)?.cause, .exists)
        }
        // A file that appears while the copy is being made is not replaced either.
        let late = folder.appendingPathComponent("late.sqlite").path
        XCTAssertThrowsError(try OutputFile.create(late) { temporary in
            try Data("copy".utf8).write(to: URL(fileURLWithPath: temporary))
            try Data("theirs".utf8).write(to: URL(fileURLWithPath: late))
        }) { error in
            XCTAssertEqual((error as? OutputError)?.cause, .exists)
        }
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: path)), Data("mine".utf8))
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: late)), Data("theirs".utf8))
        XCTAssertEqual(try entries(), ["b.sqlite", "late.sqlite"])
    }

    func testAFailedRenderLeavesNothing() throws {
        struct Stop: Error {}
        let path = folder.appendingPathComponent("b.sqlite").path
        XCTAssertThrowsError(try OutputFile.create(path) { temporary in
            try Data("half".utf8).write(to: URL(fileURLWithPath: temporary))
            throw Stop()
        }) { XCTAssertTrue($0 is Stop) }
        XCTAssertEqual(try entries(), [])
    }
}
