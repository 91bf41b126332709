import Foundation
import XCTest
import PetlogTestSupport

/// Names from the database are data in every shell: pressing TAB never runs what a pet or medication
/// name holds, and what completion inserts is the name as one correctly quoted word. Driven through
/// the real shells: bash's generated function with COMP_WORDS, and bash, zsh and fish typing on a
/// pseudo-terminal (skipped for a shell that is not installed).
final class CompletionSafetyTests: CLITestCase {
    override class var onOneStoreOnly: String? { "shell completion drives the shells; what the database holds is read the same way on either store (ServerStoreTests completes from a server)" }
    /// Hostile names: each would run `touch` in the trap folder if a shell expanded it.
    var trap: URL { home.appendingPathComponent("trap") }
    var hostile: [String] {
        let t = trap.path
        return ["A$(touch \(t)/dollar)", "B`touch \(t)/backtick`", "C; touch \(t)/semicolon", "D'Malley", "E \"quoted\" name",
                "F $HOME and ${PATH}", "G*", "H\\backslash", "나비", "ミケ", "Miss Kitty", "-dash", "J|touch \(t)/pipe", "K&&touch \(t)/and"]
    }

    override func setUpWithError() throws {
        try super.setUpWithError()
        try requireDatabaseFile()
        try FileManager.default.createDirectory(at: trap, withIntermediateDirectories: true)
    }

    func addHostilePets() throws {
        for name in hostile {
            let r = try run(["pet", "add", "--species", "cat", "--", name])
            XCTAssertEqual(r.status, 0, "\(name): \(r.stderr)")
        }
    }

    func assertTrapEmpty(_ context: String, file: StaticString = #filePath, line: UInt = #line) {
        let ran = (try? FileManager.default.contentsOfDirectory(atPath: trap.path)) ?? []
        XCTAssertEqual(ran, [], "a name ran as code (\(context))", file: file, line: line)
    }

    /// The generated bash script, sourced; `req WORD…` completes the last word (words as the shell holds
    /// them, quotes and all) and prints each word of COMPREPLY as the shell reads it back once inserted
    /// (`eval` of the inserted text: unquoted code would run there), NUL-separated, then a newline. A reply
    /// that reads back as other than one word is printed as `<N words: …>`. In a word begun with a quote,
    /// readline puts the reply inside that quote and closes it.
    func bash(_ script: String) throws -> [[String]] {
        guard FileManager.default.isExecutableFile(atPath: "/bin/bash") else { throw XCTSkip("no bash") }
        let file = try completionScript("bash")
        let prelude = """
            source \(file.path) || exit 3
            req() { COMP_WORDS=("$@"); COMP_CWORD=$(( ${#COMP_WORDS[@]} - 1 )); COMP_LINE="${COMP_WORDS[*]}"; \
            COMP_POINT=${#COMP_LINE}; COMPREPLY=(); _petlog petlog "${COMP_WORDS[-1]}" "${COMP_WORDS[-2]}"; \
            local c q=""; case "${COMP_WORDS[-1]}" in \\'*) q="'";; \\"*) q='"';; esac; \
            for c in "${COMPREPLY[@]}"; do eval "local -a w=($q$c$q)"; \
            if [[ ${#w[@]} -eq 1 ]]; then printf '%s\\0' "${w[0]}"; else printf '<%d words: %s>\\0' ${#w[@]} "$c"; fi; done; echo; }

            """
        var env = ["PATH": Self.binary.deletingLastPathComponent().path + ":/usr/bin:/bin", "PETLOG_DB": dbPath]
        env["HOME"] = home.path
        let r = try launch(URL(fileURLWithPath: "/bin/bash"), ["-c", prelude + script], env: env)
        XCTAssertEqual(r.status, 0, r.stderr)
        return r.stdout.split(separator: "\n", omittingEmptySubsequences: false).dropLast().map {
            $0.split(separator: "\0").map(String.init)
        }
    }

    func completionScript(_ shell: String) throws -> URL {
        let generated = try run(["--generate-completion-script", shell], useDefaultDB: true)
        XCTAssertEqual(generated.status, 0, generated.stderr)
        let file = home.appendingPathComponent("petlog.\(shell)")
        try generated.stdout.write(to: file, atomically: true, encoding: .utf8)
        return file
    }

    func testBashOffersHostileNamesLiterallyAndRunsNothing() throws {
        try addHostilePets()
        let a = try bash("req petlog log '' && req petlog weight 'D' && req petlog log \"D\\\\'M\" && req petlog log \"'Miss K\" && req petlog log 'Miss\\ K' && req petlog log '나' && req petlog log 'A$('")
        XCTAssertEqual(a.count, 7)
        // A name that starts with a dash goes in after a `--` of its own.
        let expected = hostile.map { $0.hasPrefix("-") ? "<2 words: -- \($0)>" : $0 }.sorted()
        XCTAssertEqual(a[0].sorted(), expected, "every name, each as itself")
        XCTAssertEqual(a[1], ["D'Malley"])
        XCTAssertEqual(a[2], ["D'Malley"], "a typed backslash-quote matches the name")
        XCTAssertEqual(a[3], ["Miss Kitty"], "an open single quote matches")
        XCTAssertEqual(a[4], ["Miss Kitty"], "an escaped space matches")
        XCTAssertEqual(a[5], ["나비"])
        XCTAssertEqual(a[6], [hostile[0]])
        assertTrapEmpty("bash COMPREPLY")
        // The script asks bash to quote what it inserts, as for file names.
        let script = try String(contentsOf: try completionScript("bash"), encoding: .utf8)
        XCTAssertTrue(script.contains("complete -o filenames -F _petlog petlog"), "bash quotes the inserted word")
        XCTAssertFalse(script.contains("-W \"$(__petlog_custom_complete"), "names never pass through compgen -W")
    }

    func testMedicationCompletionOffersThatPetsCurrentMedications() throws {
        try ok("pet", "add", "Rex", "--species", "dog")
        try ok("pet", "add", "O'Malley", "--species", "cat")
        try ok("med", "start", "Rex", "Heartgard", "--every", "30d")
        try ok("med", "start", "Rex", "Old pill", "--every", "1d")
        try ok("med", "stop", "Rex", "Old pill")
        try ok("med", "start", "O'Malley", "$(touch \(trap.path)/med) drops", "--every", "12h")
        let a = try bash("req petlog med give Rex '' && req petlog med give \"O\\\\'Malley\" '' && req petlog med give --at 1h Rex H && req petlog med stop Rex,\"O\\\\'Malley\" '' && req petlog med give ''")
        XCTAssertEqual(a.count, 5)
        XCTAssertEqual(a[0], ["Heartgard"], "Rex's current medications only")
        XCTAssertEqual(a[1], ["$(touch \(trap.path)/med) drops"])
        XCTAssertEqual(a[2], ["Heartgard"], "an option before the pet is stepped over")
        XCTAssertEqual(a[3], [], "no medication both pets are on")
        XCTAssertEqual(a[4], ["O'Malley", "Rex"], "the pet position offers pets")
        assertTrapEmpty("medication names")
    }

    static let shells = [("bash", "/bin/bash"), ("zsh", "/usr/bin/zsh"), ("fish", "/usr/bin/fish")]

    /// Types each line of `typed` into `shell` on a pseudo-terminal, presses TAB (and Enter), and returns
    /// the words `petlog` then received (nil where it never ran). Completion requests go to the real
    /// binary, reading the database `db`; a run only records its words.
    func typeInShell(_ shell: String, db: String, _ typed: [String], file: StaticString = #filePath, line: UInt = #line) throws -> [[String]?] {
        let driver = Self.ptyDriver("complete-in-pty.py")
        let wrapperFolder = home.appendingPathComponent("bin")
        try FileManager.default.createDirectory(at: wrapperFolder, withIntermediateDirectories: true)
        let argsFile = home.appendingPathComponent("args")
        // `petlog` as the shell finds it: completion requests go to the real binary (and say when they are
        // answered, for the driver to wait on), a run records its words (renamed into place whole: the
        // driver reads the file as soon as it is there).
        let wrapper = wrapperFolder.appendingPathComponent("petlog")
        try """
            #!/bin/sh
            case "$1" in ---completion) '\(Self.binary.path)' "$@"; s=$?; : > '\(argsFile.path).completed'; exit $s;; esac
            printf '%s\\0' "$@" > '\(argsFile.path).part' && mv -f '\(argsFile.path).part' '\(argsFile.path)'
            """.write(to: wrapper, atomically: true, encoding: .utf8)
        chmod(wrapper.path, 0o755)
        let script = try completionScript(shell)
        let setup = home.appendingPathComponent("setup.\(shell)")
        let pathLine = shell == "fish" ? "set -gx PATH \(wrapperFolder.path) $PATH; set -gx PETLOG_DB \(db)"
                                       : "export PATH=\(wrapperFolder.path):$PATH PETLOG_DB=\(db)"
        try "\(pathLine)\nsource \(script.path)\n".write(to: setup, atomically: true, encoding: .utf8)
        let r = try launch(URL(fileURLWithPath: "/usr/bin/python3"), [driver.path, shell, setup.path, argsFile.path] + typed,
                           env: ["HOME": home.path, "LANG": "C.UTF-8"])
        XCTAssertEqual(r.status, 0, "\(shell): \(r.stderr)", file: file, line: line)
        let got = (try? JSONSerialization.jsonObject(with: Data(r.stdout.utf8))) as? [Any] ?? []
        XCTAssertEqual(got.count, typed.count, "\(shell): \(r.stdout) \(r.stderr)", file: file, line: line)
        return got.map { $0 as? [String] }
    }

    /// bash, zsh and fish on a terminal: TAB after the first letter inserts the whole name, quoted so the
    /// command receives it word for word, and nothing runs.
    func testRealShellsInsertEachNameAsOneWord() throws {
        try addHostilePets()
        var tried = 0
        for (shell, path) in Self.shells {
            guard FileManager.default.isExecutableFile(atPath: path) else { continue }
            tried += 1
            // One letter each, so the completion is unique and inserted whole; then a word begun with a quote.
            let names = hostile.filter { $0.first!.isLetter && $0.first!.isASCII }
            var typed = names.map { "petlog log \($0.first!)" }
            if shell == "bash" { typed += ["petlog log 'D", "petlog log \"F", "petlog log \"B"] }
            let got = try typeInShell(shell, db: dbPath, typed)
            for (i, name) in (names + (shell == "bash" ? ["D'Malley", hostile[5], hostile[1]] : [])).enumerated() where i < got.count {
                XCTAssertEqual(got[i], ["log", name], "\(shell) completing \(typed[i]) ran with \(String(describing: got[i]))")
            }
            assertTrapEmpty(shell)
        }
        if tried == 0 { throw XCTSkip("no shell to drive") }
    }

    /// Every completion petlog answers (pet names as an argument and as `export --pet`'s value, the
    /// medications of `med give` and `med stop`), in each shell, with one, two and many candidates: each
    /// candidate, the last included, is offered (typing its first letter and TAB inserts it whole). zsh's
    /// script drops the last line of the answer; a trimmed answer once lost the last real name there.
    func testEveryCompletionOffersEveryCandidateInEveryShell() throws {
        let households: [(pets: [String], meds: [String])] = [
            (["Coco"], ["Heartgard"]),
            (["Coco", "미미"], ["Heartgard", "Zyrtec"]),
            (["Coco", "Dodo", "Max", "나비", "미미"], ["Apoquel", "Heartgard", "Metacam", "Zyrtec"]),
        ]
        let dbs = home.appendingPathComponent("households")
        try FileManager.default.createDirectory(at: dbs, withIntermediateDirectories: true)
        for (n, household) in households.enumerated() {
            let db = dbs.appendingPathComponent("\(n).sqlite").path
            for pet in household.pets { XCTAssertEqual(try run(["--db", db, "pet", "add", pet, "--species", "cat"], useDefaultDB: true).status, 0) }
            for med in household.meds { XCTAssertEqual(try run(["--db", db, "med", "start", "Coco", med, "--every", "1d"], useDefaultDB: true).status, 0) }
        }
        var tried = 0
        for (shell, path) in Self.shells {
            guard FileManager.default.isExecutableFile(atPath: path) else { continue }
            tried += 1
            for (n, household) in households.enumerated() {
                let db = dbs.appendingPathComponent("\(n).sqlite").path
                var typed: [String] = [], expected: [[String]] = []
                for pet in household.pets {
                    typed.append("petlog log \(pet.first!)"); expected.append(["log", pet])
                }
                for med in household.meds {
                    typed.append("petlog med give Coco \(med.first!)"); expected.append(["med", "give", "Coco", med])
                }
                // The other places, with their last candidate.
                let pet = household.pets.last!, med = household.meds.last!
                typed.append("petlog export --pet \(pet.first!)"); expected.append(["export", "--pet", pet])
                typed.append("petlog med stop Coco \(med.first!)"); expected.append(["med", "stop", "Coco", med])
                if household.pets.count == 1 {
                    typed += ["petlog weight ", "petlog med give Coco "]
                    expected += [["weight", "Coco"], ["med", "give", "Coco", "Heartgard"]]
                }
                let got = try typeInShell(shell, db: db, typed)
                for (i, want) in expected.enumerated() where i < got.count {
                    XCTAssertEqual(got[i], want, "\(shell), \(household.pets.count) pets: \(typed[i]) ran with \(String(describing: got[i]))")
                }
            }
        }
        if tried == 0 { throw XCTSkip("no shell to drive") }
    }

    /// A name that starts with a dash would be read as an option where it is inserted: it goes in after a
    /// `--` (bash and zsh insert `-- -rf`; fish, which quotes each candidate as one word, offers `--`,
    /// then the name after it), and after a `--` already typed as itself.
    func testANameStartingWithADashIsInsertedAfterDoubleDash() throws {
        try ok("pet", "add", "--species", "cat", "--", "-rf")
        var tried = 0
        for (shell, path) in Self.shells {
            guard FileManager.default.isExecutableFile(atPath: path) else { continue }
            tried += 1
            let typed = ["petlog log " + (shell == "fish" ? "\t " : ""), "petlog log -- ", "petlog weight -- "]
            let got = try typeInShell(shell, db: dbPath, typed)
            XCTAssertEqual(got.first ?? nil, ["log", "--", "-rf"], shell)
            XCTAssertEqual(got.dropFirst().first ?? nil, ["log", "--", "-rf"], shell)
            XCTAssertEqual(got.last ?? nil, ["weight", "--", "-rf"], shell)
        }
        if tried == 0 { throw XCTSkip("no shell to drive") }
        // bash's function: the reply is the two words `--` and the name.
        XCTAssertEqual(try bash("req petlog log '' && req petlog log -- ''"), [["<2 words: -- -rf>"], ["-rf"]])
    }
}
