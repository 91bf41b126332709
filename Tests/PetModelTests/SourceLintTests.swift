import Foundation
import XCTest

/// Issue 12: nothing a user or a disk does may end petlog in a trap. Every `try!`, `as!`, force-unwrap
/// `x!`, `fatalError`, `precondition` in `Sources/` either goes, or carries a `// safe:` comment on its
/// line or one of the three lines above saying why no input can reach it.
final class SourceLintTests: XCTestCase {
    static let sources = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Sources")

    /// The code of a line without string literals and the comment after `//`.
    static func code(_ line: String) -> String {
        var out = ""
        var inString = false
        var escaped = false
        var previous: Character = " "
        for c in line {
            if inString {
                if escaped { escaped = false } else if c == "\\" { escaped = true } else if c == "\"" { inString = false }
                continue
            }
            if c == "\"" { inString = true; out.append("\"\""); continue }
            if c == "/" && previous == "/" { out.removeLast(); return out }
            out.append(c)
            previous = c
        }
        return out
    }

    /// Whether a line's code traps on a value: `try!`, `as!`, `fatalError(`, `precondition(`, or a
    /// postfix `!` after a name, `)` or `]` that is not `!=`.
    static func traps(_ code: String) -> Bool {
        if code.contains("try!") || code.contains("as!") || code.contains("fatalError(") || code.contains("precondition(")
            || code.contains("preconditionFailure(") { return true }
        let chars = Array(code)
        for i in chars.indices.dropFirst() where chars[i] == "!" {
            let before = chars[i - 1]
            let next: Character? = i + 1 < chars.count ? chars[i + 1] : nil
            if (before.isLetter || before.isNumber || before == "_" || before == ")" || before == "]") && next != "=" { return true }
        }
        return false
    }

    func testTheLintSeesWhatItLooksFor() {
        XCTAssertTrue(Self.traps(Self.code("let x = y!.count")))
        XCTAssertTrue(Self.traps(Self.code("let x = try! f()")))
        XCTAssertTrue(Self.traps(Self.code("let d = LocalDate(year: 1, month: 2, day: 3)!")))
        XCTAssertTrue(Self.traps(Self.code("let v = list[0]!")))
        XCTAssertFalse(Self.traps(Self.code("if a != b, !c { }")))
        XCTAssertFalse(Self.traps(Self.code("let s = \"Hello!\" // wow!")))
        XCTAssertFalse(Self.traps(Self.code("guard !x.isEmpty else { return }")))
    }

    func testNoTrapOutsideTestsWithoutASafeComment() throws {
        let files = FileManager.default.enumerator(atPath: Self.sources.path)?.compactMap { $0 as? String }.filter { $0.hasSuffix(".swift") } ?? []
        XCTAssertGreaterThan(files.count, 20, "found no sources under \(Self.sources.path)")
        var found: [String] = []
        for file in files.sorted() {
            let lines = try String(contentsOf: Self.sources.appendingPathComponent(file), encoding: .utf8).components(separatedBy: "\n")
            for (i, line) in lines.enumerated() where Self.traps(Self.code(line)) {
                let context = lines[max(0, i - 3)...i]
                if context.contains(where: { $0.contains("// safe:") }) { continue }
                found.append("Sources/\(file):\(i + 1): \(line.trimmingCharacters(in: .whitespaces))")
            }
        }
        XCTAssertEqual(found, [], "traps without a `// safe:` reason:\n" + found.joined(separator: "\n"))
    }

    /// Issue 43: each error a user sees says its own exit code and line (`UserFacingError`); `Failure` casts
    /// to that protocol and to `EngineError` only, and names no store engine, so a new error type is a
    /// conformance, not another `case let e as …` in a switch with a `default`.
    func testFailureCastsToTheProtocolsOnly() throws {
        let file = Self.sources.appendingPathComponent("petlog/Failure.swift")
        let lines = try String(contentsOf: file, encoding: .utf8).components(separatedBy: "\n").map(Self.code)
        let start = try XCTUnwrap(lines.firstIndex { $0.hasPrefix("struct Failure ") })
        let end = try XCTUnwrap(lines[start...].firstIndex { $0 == "}" })
        let casts = lines[start...end].filter { $0.contains(" as") || $0.contains("case is ") }
        XCTAssertEqual(casts.filter { !$0.contains("as? UserFacingError") && !$0.contains("as? EngineError") }, [])
        XCTAssertEqual(lines.filter { $0.hasPrefix("import PetStoreSQLite") || $0.hasPrefix("import PetStorePostgres") }, [])
    }
}
