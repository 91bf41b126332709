import Foundation
import XCTest
import PetlogTestSupport

/// Issue 42: `make demo` on a fresh machine printed pip's "ERROR: pip's dependency resolver does not
/// currently take into account…" while the setup step installed the test-only FHIR library, and pip's
/// warning about running as root: a new user read ERROR in the first minute. The setup step's pip commands,
/// as make would run them (`make -n setup` with nothing installed yet), must keep pip quiet unless it fails:
/// no check against the machine's other packages, no root warning, output to a log shown only on failure.
final class SetupStepTests: XCTestCase {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    /// The lines `make -n setup` prints, one shell command each.
    func setupCommands() throws -> [String] {
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/make") else { throw XCTSkip("no make") }
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/usr/bin/make")
        p.arguments = ["-n", "-C", Self.root.path, "setup"]
        let out = Pipe()
        p.standardOutput = out
        p.standardError = FileHandle.nullDevice
        try p.run()
        let data = out.fileHandleForReading.readDataToEndOfFile()
        p.waitUntilExit()
        XCTAssertEqual(p.terminationStatus, 0)
        // make -n prints a recipe line continued with a backslash as it is written: join the continuations.
        return String(decoding: data, as: UTF8.self).replacingOccurrences(of: "\\\n", with: " ").components(separatedBy: "\n")
    }

    func testEveryPipInstallOfTheSetupStepIsQuietUnlessItFails() throws {
        let commands = try setupCommands().filter { $0.contains("pip install") }
        XCTAssertGreaterThanOrEqual(commands.count, 2, "the setup step installs icalendar and the FHIR library")
        for command in commands {
            // Each `pip install` in the line: quiet, no conflict report, no root warning, output to a log.
            let installs = command.components(separatedBy: "pip install").dropFirst()
            XCTAssertFalse(installs.isEmpty)
            for install in installs {
                let invocation = install.components(separatedBy: "||").first ?? install
                for flag in ["-q", "--disable-pip-version-check", "--no-warn-conflicts", "--root-user-action=ignore"] {
                    XCTAssertTrue(invocation.contains(" \(flag) ") || invocation.hasPrefix(" \(flag) "), "\(flag) missing in: pip install\(invocation)")
                }
                XCTAssertTrue(invocation.contains("> .build/pip") && invocation.contains("2>&1"),
                              "pip's output is not kept in a log: pip install\(invocation)")
            }
            XCTAssertTrue(command.contains("cat .build/pip"), "a failing pip's log is not shown: \(command)")
        }
    }
}
