import Foundation
import XCTest
import PetlogTestSupport

/// The store is written once over the engine, and `scripts/store-counts.py` (docs/architecture.md, "One
/// store, two engines") keeps it so: no method opens a transaction only to make the same call again, and
/// the engines define no method beyond `StoreEngine`'s but their own transactions and error mapping.
final class StoreCountsTests: XCTestCase, OnOneStore {
    static let onOneStore = "reads the sources (TestServer.repoRoot finds them); opens no store"

    /// The script's output for the checkout at `root`.
    func counts(root: URL) throws -> [String] {
        let script = TestServer.repoRoot.appendingPathComponent("scripts/store-counts.py").path
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", script, "--root", root.path]
        let pipe = Pipe()
        process.standardOutput = pipe
        try process.run()
        let output = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        XCTAssertEqual(process.terminationStatus, 0)
        return String(decoding: output, as: UTF8.self).split(separator: "\n").map(String.init)
    }

    func testNoForwardingLineAndNoStoreLogicInBothEngines() throws {
        let lines = try counts(root: TestServer.repoRoot)
        XCTAssertEqual(lines.first, "forwarding lines (a transaction making the same call again): 0", lines.joined(separator: "\n"))
        let other = try XCTUnwrap(lines.firstIndex { $0.hasPrefix("other methods both engines define") })
        let names = lines[(other + 1)...].prefix { $0.hasPrefix("  ") }.map { $0.trimmingCharacters(in: .whitespaces) }
        XCTAssertEqual(Set(names), ["read", "write", "storeError"], "a method both engines define beyond StoreEngine's: write it once in Store")
    }

    /// Attachment files are read, checked and copied once, in `Store` (`verifyAttachments`, `copyAttachments`,
    /// `writeAttachment`), over the engine's one primitive (`StoreEngine.readAttachment`: a file beside the
    /// database, or a server's chunks): none is an engine's answer, and no line of them is in both engines.
    func testAttachmentFilesAreCheckedAndCopiedOnceOverTheEnginesRead() throws {
        let lines = try counts(root: TestServer.repoRoot)
        func listed(_ heading: String) throws -> [String] {
            let at = try XCTUnwrap(lines.firstIndex { $0.hasPrefix(heading) }, lines.joined(separator: "\n"))
            return lines[(at + 1)...].prefix { $0.hasPrefix("  ") }.map { $0.trimmingCharacters(in: .whitespaces) }
        }
        let once: Set = ["verifyAttachments", "copyAttachments", "writeAttachment"]
        XCTAssertTrue(once.isDisjoint(with: try listed("engine answers in Store")), lines.joined(separator: "\n"))
        let engines = try listed("methods both engines define for")
        XCTAssertTrue(once.isDisjoint(with: engines) && engines.contains("readAttachment"), engines.joined(separator: "\n"))
        let twice = try listed("statements in both engines")
        XCTAssertFalse(twice.contains { $0.contains("inventory") || $0.contains("directory") }, twice.joined(separator: "\n"))
    }

    func testTheScriptCountsAForwardingLine() throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("store-counts-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: root) }
        for module in ["PetStoreCore", "PetStoreSQLite", "PetStorePostgres"] {
            try FileManager.default.createDirectory(at: root.appendingPathComponent("Sources/\(module)"), withIntermediateDirectories: true)
        }
        try """
            extension Store {
                public func records(_ query: RecordQuery) throws -> [PetRecord] { try read { try $0.records(query) } }
                public func count(_ query: RecordQuery) throws -> Int {
                    try read { s in try s.sql.int("SELECT count(*) FROM record", []) ?? 0 }
                }
            }
            """.write(to: root.appendingPathComponent("Sources/PetStoreCore/Store.swift"), atomically: true, encoding: .utf8)
        let lines = try counts(root: root)
        XCTAssertEqual(Array(lines.prefix(2)), ["forwarding lines (a transaction making the same call again): 1",
                                                "  Sources/PetStoreCore/Store.swift:2 records"])
    }
}
