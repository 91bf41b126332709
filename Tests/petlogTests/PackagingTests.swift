import Foundation
import XCTest
import PetlogTestSupport

/// Shell completion as bash runs it: the generated script is sourced, `complete -p petlog` finds it, and
/// scripted completion requests (COMP_WORDS/COMP_CWORD, then the script's own function) answer with
/// subcommands and with the names in the database (`petlog ---completion …`, run by the script).
final class PackagingTests: CLITestCase {
    override class var onOneStoreOnly: String? { "about the completion scripts and the binary, not the store" }
    /// The script, sourced; `req WORD…` completes the last word and prints the candidates one per line,
    /// then `---`.
    func bash(_ script: String, env: [String: String] = [:]) throws -> Result {
        guard FileManager.default.isExecutableFile(atPath: "/bin/bash") else { throw XCTSkip("no bash") }
        let generated = try run(["--generate-completion-script", "bash"], useDefaultDB: true)
        XCTAssertEqual(generated.status, 0, generated.stderr)
        let file = home.appendingPathComponent("petlog.bash")
        try generated.stdout.write(to: file, atomically: true, encoding: .utf8)
        let prelude = """
            source \(file.path) || exit 3
            req() { COMP_WORDS=("$@"); COMP_CWORD=$(( ${#COMP_WORDS[@]} - 1 )); COMP_LINE="${COMP_WORDS[*]}"; \
            COMP_POINT=${#COMP_LINE}; COMPREPLY=(); _petlog petlog "${COMP_WORDS[-1]}" "${COMP_WORDS[-2]}"; \
            printf '%s\\n' "${COMPREPLY[@]}"; echo ---; }

            """
        // The script runs `petlog` as the user typed it: from PATH.
        var environment = env
        environment["PATH"] = Self.binary.deletingLastPathComponent().path + ":/usr/bin:/bin"
        return try launch(URL(fileURLWithPath: "/bin/bash"), ["-c", prelude + script], env: environment)
    }

    func answers(_ r: Result) -> [[String]] {
        r.stdout.components(separatedBy: "---\n").dropLast().map { $0.split(separator: "\n").map(String.init) }
    }

    func testBashFindsTheCompletionAndCompletesSubcommandsAndOptions() throws {
        let r = try bash("complete -p petlog && req petlog '' && req petlog --l && req petlog pet a && req petlog --unit ''")
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertTrue(r.stdout.hasPrefix("complete "), r.stdout)
        let a = answers(Result(status: 0, stdout: r.stdout.split(separator: "\n", maxSplits: 1).last.map(String.init) ?? "", stderr: ""))
        XCTAssertEqual(a.count, 4, r.stdout)
        for sub in ["pet", "weight", "log", "med", "report", "undo", "config"] { XCTAssertTrue(a[0].contains(sub), "\(sub) in \(a[0])") }
        XCTAssertEqual(a[1], ["--lang"])
        XCTAssertEqual(Set(a[2]), ["add", "archive"])
        XCTAssertFalse(a[3].isEmpty, "the --unit choices")
    }

    func testBashCompletesPetAndMedicationNamesFromTheDatabase() throws {
        XCTAssertEqual(try run(["demo"]).status, 0)
        let r = try bash("req petlog log '' && req petlog weight N && req petlog med give Coco '' && req petlog pet unarchive ''",
                         env: ["PETLOG_DB": dbPath])
        XCTAssertEqual(r.status, 0, r.stderr)
        let a = answers(r)
        XCTAssertEqual(a.count, 4, r.stdout)
        XCTAssertEqual(a[0], ["Coco", "Mochi", "Nabi"])
        XCTAssertEqual(a[1], ["Nabi"])
        XCTAssertTrue(a[2].contains("Heartgard\\ Plus"), "one word, quoted as bash quotes a file name: \(a[2])")
        XCTAssertFalse(a[3].contains("Coco"), "unarchive does not offer active pets: \(a[3])")
        // --db on the line being completed wins over PETLOG_DB.
        let other = try bash("req petlog --db \(dbPath) report ''", env: ["PETLOG_DB": home.appendingPathComponent("none.sqlite").path])
        XCTAssertEqual(answers(other).first, ["Coco", "Mochi", "Nabi"], other.stdout + other.stderr)
    }

    func testNameCompletionIsSilentWithoutADatabaseAndCreatesNothing() throws {
        let missing = home.appendingPathComponent("missing/petlog.sqlite").path
        let r = try bash("req petlog log ''", env: ["PETLOG_DB": missing])
        XCTAssertEqual(r.status, 0)
        XCTAssertEqual(r.stderr, "")
        XCTAssertEqual(answers(r).first ?? ["?"], [])
        XCTAssertFalse(FileManager.default.fileExists(atPath: missing))
        // Not a database: still nothing, still silent.
        let junk = home.appendingPathComponent("junk.sqlite")
        try Data("not sqlite".utf8).write(to: junk)
        let j = try bash("req petlog log ''", env: ["PETLOG_DB": junk.path])
        XCTAssertEqual(j.stderr, "")
        XCTAssertEqual(answers(j).first ?? ["?"], [])
    }

    func testZshAndFishScriptsAreGenerated() throws {
        for shell in ["zsh", "fish"] {
            let r = try run(["--generate-completion-script", shell], useDefaultDB: true)
            XCTAssertEqual(r.status, 0, r.stderr)
            XCTAssertTrue(r.stdout.contains("---completion"), shell)
        }
    }

    /// petlog(1) as `make man` makes it: argument-parser's generate-manual tool (built by the plugin, beside
    /// this test's petlog) over the test's binary, then scripts/man-page.py; groff -ww finds nothing to say.
    func testManPageRendersWithoutWarnings() throws {
        let tool = Self.binary.deletingLastPathComponent().appendingPathComponent("generate-manual-tool")
        guard FileManager.default.isExecutableFile(atPath: tool.path) else {
            throw XCTSkip("generate-manual-tool not built (swift package plugin generate-manual builds it)")
        }
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/groff") else { throw XCTSkip("groff not installed") }
        let repo = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let out = home.appendingPathComponent("man")
        try FileManager.default.createDirectory(at: out, withIntermediateDirectories: true)
        let g = try launch(tool, [Self.binary.path, "--date", "2026-11-23", "-o", out.path])
        XCTAssertEqual(g.status, 0, g.stderr)
        let page = home.appendingPathComponent("petlog.1").path
        let f = try launch(URL(fileURLWithPath: "/usr/bin/python3"), [repo.appendingPathComponent("scripts/man-page.py").path,
            out.appendingPathComponent("petlog.1").path, repo.appendingPathComponent("README.md").path, page])
        XCTAssertEqual(f.status, 0, f.stderr)
        let groff = try launch(URL(fileURLWithPath: "/usr/bin/groff"), ["-ww", "-man", "-z", page])
        XCTAssertEqual(groff.status, 0)
        XCTAssertEqual(groff.stderr, "")
        let text = try String(contentsOfFile: page, encoding: .utf8)
        for entry in ["pet", "weight", "med", "report", "undo", "config", "give"] {
            XCTAssertTrue(text.contains(".It Em \(entry)\n"), entry)
        }
        XCTAssertTrue(text.contains(".Sh EXAMPLES"))
        XCTAssertTrue(text.contains("petlog med give Coco,Nabi Heartgard"))
    }
}
