import Foundation
import XCTest
import PetlogTestSupport

/// No suite opens a store without running on both: every test class in a file that opens a store
/// (or runs petlog with a database) derives from `StoreTestCase` (so each test runs on SQLite and on
/// PostgreSQL, `CLITestCase` included) or says which one store it is about, and why (`OnOneStore`).
final class StoreSuitesTests: XCTestCase {
    /// What opening a store looks like in a test's source.
    static let opensAStore = ["AppDatabase" + ".", "SQLiteRepository" + "(", "PostgresRepository" + "(", "DatabaseQueue" + "(",
                              "DatabasePool" + "(", "PostgresLink" + "(", "requireServer" + "(", "TestServer" + ".", "\"--db\""]

    /// The classes of `source` that derive from XCTestCase itself, open no store on both, and give no reason.
    static func suitesOnOneStoreWithoutAReason(_ source: String) -> [String] {
        // `TestServer.repoRoot` only finds the repository's files; it opens nothing.
        let opening = source.replacingOccurrences(of: "TestServer" + ".repoRoot", with: "")
        guard opensAStore.contains(where: opening.contains) else { return [] }
        let declaration = try! NSRegularExpression(pattern: #"class\s+(\w+)\s*:\s*([\w\s,]+)\{"#)
        return declaration.matches(in: source, range: NSRange(source.startIndex..., in: source)).compactMap { m in
            let name = String(source[Range(m.range(at: 1), in: source)!])
            let parents = source[Range(m.range(at: 2), in: source)!].split(separator: ",").map { $0.trimmingCharacters(in: .whitespacesAndNewlines) }
            return parents.first == "XCTestCase" && !parents.contains("OnOneStore") ? name : nil
        }
    }

    func testEverySuiteThatOpensAStoreRunsOnBothOrSaysWhyNot() throws {
        let tests = TestServer.repoRoot.appendingPathComponent("Tests")
        var files: [URL] = []
        for case let url as URL in FileManager.default.enumerator(at: tests, includingPropertiesForKeys: nil)! where url.pathExtension == "swift" {
            if !url.path.contains("/PetlogTestSupport/") && url.lastPathComponent != "StoreSuitesTests.swift" { files.append(url) }
        }
        XCTAssertGreaterThan(files.count, 50, tests.path)
        var found: [String] = []
        for file in files {
            found += Self.suitesOnOneStoreWithoutAReason(try String(contentsOf: file, encoding: .utf8)).map { "\(file.lastPathComponent): \($0)" }
        }
        XCTAssertEqual(found, [], "derive from StoreTestCase (each test on both stores) or conform to OnOneStore with the reason")
    }

    func testTheCheckFindsASuiteThatOpensAStoreOnItsOwn() {
        XCTAssertEqual(Self.suitesOnOneStoreWithoutAReason("final class A: XCTestCase {\n let r = SQLiteRepository" + "(try AppDatabase.inMemory())\n}"), ["A"])
        XCTAssertEqual(Self.suitesOnOneStoreWithoutAReason("final class A: XCTestCase, OnOneStore {\n let d = AppDatabase" + ".x\n}"), [])
        XCTAssertEqual(Self.suitesOnOneStoreWithoutAReason("final class A: XCTestCase {\n let u = TestServer" + ".repoRoot\n}"), [], "reads the repository's files")
        XCTAssertEqual(Self.suitesOnOneStoreWithoutAReason("final class A: StoreTestCase {\n let r = try makeStore()\n}"), [])
        XCTAssertEqual(Self.suitesOnOneStoreWithoutAReason("final class A: XCTestCase {\n func testSum() {}\n}"), [])
    }
}
