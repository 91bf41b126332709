import Foundation
import XCTest
import PetlogTestSupport

/// The Debian package `make deb` built (petlog_*.deb at the top of the repository, or $PETLOG_DEB), installed
/// with dpkg -i onto this machine with the Swift toolchain hidden (an empty tmpfs over it in a private mount
/// namespace): petlog runs, `man -w petlog` finds the page, bash completes pet names; dpkg -r removes every
/// file. Skipped without the .deb, without root, unshare or dpkg, or when a petlog package is already installed.
final class DebInstallTests: CLITestCase {
    override class var onOneStoreOnly: String? { "about the Debian package, not the store" }
    func testTheDebInstallsRunsWithoutTheToolchainAndRemovesCleanly() throws {
        let fm = FileManager.default
        guard getuid() == 0 else { throw XCTSkip("dpkg -i needs root") }
        for tool in ["/usr/bin/dpkg", "/usr/bin/unshare", "/bin/bash"] where !fm.isExecutableFile(atPath: tool) {
            throw XCTSkip("\(tool) missing")
        }
        let repo = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let deb: String
        if let d = ProcessInfo.processInfo.environment["PETLOG_DEB"], !d.isEmpty {
            deb = d
        } else if let d = try fm.contentsOfDirectory(atPath: repo.path).filter({ $0.hasPrefix("petlog_") && $0.hasSuffix(".deb") }).sorted().last {
            deb = repo.appendingPathComponent(d).path
        } else {
            throw XCTSkip("no petlog_*.deb (make deb)")
        }
        let sh = URL(fileURLWithPath: "/bin/bash")
        let env = ["PATH": "/usr/sbin:/usr/bin:/sbin:/bin"]
        if try launch(sh, ["-c", "dpkg -s petlog >/dev/null 2>&1"], env: env).status == 0 {
            throw XCTSkip("a petlog package is already installed here")
        }
        let toolchain = "/opt/swift"
        let db = home.appendingPathComponent("deb.sqlite").path
        let script = """
            set -e
            [ -d \(toolchain) ] && mount -t tmpfs tmpfs \(toolchain)
            ls -A \(toolchain) | wc -l | grep -qx 0
            DEBIAN_FRONTEND=noninteractive dpkg -i '\(deb)' >/dev/null
            trap 'dpkg -r petlog >/dev/null 2>&1 || true' EXIT
            if ldd /usr/bin/petlog | grep -F \(toolchain)/; then echo "links the toolchain"; exit 9; fi
            petlog demo --db '\(db)' >/dev/null
            petlog --db '\(db)' --lang ko pet list
            man -w petlog
            source /usr/share/bash-completion/completions/petlog
            COMP_WORDS=(petlog log ''); COMP_CWORD=2; COMP_LINE='petlog log '; COMP_POINT=11; COMPREPLY=()
            PETLOG_DB='\(db)' _petlog petlog '' log || true
            echo "completion: ${COMPREPLY[*]}"
            test -s /usr/share/zsh/vendor-completions/_petlog && test -s /usr/share/fish/vendor_completions.d/petlog.fish
            trap - EXIT
            dpkg -r petlog >/dev/null
            """
        let r = try launch(URL(fileURLWithPath: "/usr/bin/unshare"), ["-m", "/bin/bash", "-c", script], env: env)
        XCTAssertEqual(r.status, 0, r.stdout + r.stderr)
        XCTAssertTrue(r.stdout.contains("Coco") && r.stdout.contains("Nabi"), r.stdout)
        XCTAssertTrue(r.stdout.contains("/usr/share/man/man1/petlog.1.gz"), r.stdout)
        XCTAssertTrue(r.stdout.contains("completion: Coco Mochi Nabi"), r.stdout)
        // Removed cleanly: no petlog file left, dpkg knows no petlog.
        XCTAssertNotEqual(try launch(sh, ["-c", "dpkg -s petlog >/dev/null 2>&1"], env: env).status, 0)
        for path in ["/usr/bin/petlog", "/usr/share/man/man1/petlog.1.gz", "/usr/share/bash-completion/completions/petlog",
                     "/usr/share/zsh/vendor-completions/_petlog", "/usr/share/fish/vendor_completions.d/petlog.fish"] {
            XCTAssertFalse(fm.fileExists(atPath: path), path)
        }
    }
}
