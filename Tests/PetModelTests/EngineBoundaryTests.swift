import Foundation
import XCTest

/// Issue 43: the CLI opens its store in one place (`StoreOpening`) and otherwise never names an engine:
/// no file of `Sources/petlog` imports `PetStoreSQLite` or `PetStorePostgres`, or names the engines' types.
final class EngineBoundaryTests: XCTestCase {
    static let cli = SourceLintTests.sources.appendingPathComponent("petlog")

    /// The CLI's files that name an engine, with what they name.
    static func namings(in folder: URL) throws -> [String] {
        let words = ["import PetStoreSQLite", "import PetStorePostgres", "SQLiteRepository", "PostgresRepository", "AppDatabase"]
        var found: [String] = []
        for name in try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted() where name.hasSuffix(".swift") {
            let text = try String(contentsOf: folder.appendingPathComponent(name), encoding: .utf8)
            for (n, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
                let code = SourceLintTests.code(String(line))
                for w in words where code.contains(w) { found.append("\(name):\(n + 1): \(w)") }
            }
        }
        return found
    }

    func testTheLintSeesAnEngineNamed() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("engine-lint-" + UUID().uuidString)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        try ("import PetStoreSQLite\nlet r = SQLiteRepository" + "(db) // AppDatabase in a comment is fine\n")
            .write(to: folder.appendingPathComponent("A.swift"), atomically: true, encoding: .utf8)
        XCTAssertEqual(try Self.namings(in: folder), ["A.swift:1: import PetStoreSQLite", "A.swift:2: SQLiteRepository"])
    }

    func testTheCLINamesNoEngine() throws {
        XCTAssertEqual(try Self.namings(in: Self.cli), [], "only StoreOpening names an engine")
    }
}
