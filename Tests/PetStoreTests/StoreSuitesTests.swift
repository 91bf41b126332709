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

    /// What a source file lets run on one store: its suite (the first class) and, for each choice, what is
    /// wrong with it (a test named in `firstStoreOnly` that the file does not have, a reason left empty).
    static func oneStoreChoices(_ source: String) -> (suite: String?, problems: [String]) {
        var problems: [String] = [], chose = false
        func matches(_ pattern: String, _ text: String) -> [[String]] {
            let re = try! NSRegularExpression(pattern: pattern)
            return re.matches(in: text, range: NSRange(text.startIndex..., in: text)).map { m in
                (0..<m.numberOfRanges).map { Range(m.range(at: $0), in: text).map { String(text[$0]) } ?? "" }
            }
        }
        for block in matches(#"class var firstStoreOnly: \[String: String\] \{ \[([^\]]*)\] \}"#, source) {
            chose = true
            for entry in matches(#""(\w+)": "([^"]*)""#, block[1]) {
                if !source.contains("func \(entry[1])(") { problems.append("\(entry[1]) is not a test here") }
                if entry[2].trimmingCharacters(in: .whitespaces).isEmpty { problems.append("\(entry[1]) gives no reason") }
            }
        }
        for reason in matches(#"class var onOneStoreOnly: String\? \{ "([^"]*)" \}"#, source) {
            chose = true
            if reason[1].trimmingCharacters(in: .whitespaces).isEmpty { problems.append("onOneStoreOnly gives no reason") }
        }
        for reason in matches(#"onFirstStoreOnly\("([^"]*)"\)"#, source) {
            chose = true
            if reason[1].trimmingCharacters(in: .whitespaces).isEmpty { problems.append("onFirstStoreOnly gives no reason") }
        }
        return (chose ? matches(#"class (\w+)\s*:"#, source).first?[1] : nil, problems)
    }

    /// A suite or test that runs on one store gives its reason, names only tests it has, and is listed in
    /// docs/testing.md ("One store or both"): PostgreSQL coverage is never dropped without a word.
    func testEveryOneStoreChoiceSaysWhyAndIsInTheDocs() throws {
        let tests = TestServer.repoRoot.appendingPathComponent("Tests/petlogTests")
        let docs = try String(contentsOf: TestServer.repoRoot.appendingPathComponent("docs/testing.md"), encoding: .utf8)
        var found: [String] = [], suites = 0
        for name in try FileManager.default.contentsOfDirectory(atPath: tests.path) where name.hasSuffix(".swift") {
            let (suite, problems) = Self.oneStoreChoices(try String(contentsOf: tests.appendingPathComponent(name), encoding: .utf8))
            found += problems.map { "\(name): \($0)" }
            if let suite {
                suites += 1
                if !docs.contains("`\(suite)`") { found.append("\(name): \(suite) is not listed in docs/testing.md") }
            }
        }
        XCTAssertGreaterThan(suites, 10, tests.path)
        XCTAssertEqual(found, [])
    }

    func testTheOneStoreCheckFindsAMissingTestAndAnEmptyReason() {
        let source = "final class A: CLITestCase {\n    override class var firstStoreOnly: [String: String] { [\n        \"testB\": \"why\",\n        \"testC\": \"\",\n    ] }\n    func testC() {}\n}"
        XCTAssertEqual(Self.oneStoreChoices(source).suite, "A")
        XCTAssertEqual(Self.oneStoreChoices(source).problems, ["testB is not a test here", "testC gives no reason"])
        XCTAssertEqual(Self.oneStoreChoices("final class A: CLITestCase {\n    func testB() {}\n}").suite, nil)
    }

    func testTheCheckFindsASuiteThatOpensAStoreOnItsOwn() {
        XCTAssertEqual(Self.suitesOnOneStoreWithoutAReason("final class A: XCTestCase {\n let r = SQLiteRepository" + "(try AppDatabase.inMemory())\n}"), ["A"])
        XCTAssertEqual(Self.suitesOnOneStoreWithoutAReason("final class A: XCTestCase, OnOneStore {\n let d = AppDatabase" + ".x\n}"), [])
        XCTAssertEqual(Self.suitesOnOneStoreWithoutAReason("final class A: XCTestCase {\n let u = TestServer" + ".repoRoot\n}"), [], "reads the repository's files")
        XCTAssertEqual(Self.suitesOnOneStoreWithoutAReason("final class A: StoreTestCase {\n let r = try makeStore()\n}"), [])
        XCTAssertEqual(Self.suitesOnOneStoreWithoutAReason("final class A: XCTestCase {\n func testSum() {}\n}"), [])
    }
}
