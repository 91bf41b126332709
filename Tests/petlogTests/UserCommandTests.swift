import Foundation
import XCTest
import PetlogTestSupport
#if os(Linux)
import Glibc
#endif

/// `petlog user add|list|passwd|remove` and `petlog serve`'s refusals before it listens, end to end on both stores.
final class UserCommandTests: CLITestCase {
    func testAccountsAreAddedListedAndRemoved() throws {
        let added = try run(["user", "add", "Mina", "--role", "owner", "--password-stdin"], stdin: "correct horse battery\n")
        XCTAssertEqual(added.status, 0, added.stderr)
        XCTAssertTrue(added.stdout.contains("Mina"), added.stdout)
        XCTAssertEqual(try run(["user", "add", "jun", "--role", "viewer", "--language", "ko", "--password-stdin"], stdin: "another good one\n").status, 0)
        let list = try ok("user", "list")
        XCTAssertTrue(list.contains("Mina") && list.contains("owner") && list.contains("jun") && list.contains("viewer"), list)
        let listed = try XCTUnwrap(try json("user", "list") as? [[String: Any]])
        XCTAssertEqual(listed.map { $0["name"] as? String }, ["jun", "Mina"])
        XCTAssertEqual(listed.map { $0["language"] as? String }, ["ko", nil])
        XCTAssertFalse(try ok("user", "list", "--json").contains("$2"), "no password hash in any output")

        // Refusals: one line, a sysexits code, nothing changed.
        checkRefusal(try run(["user", "add", "MINA", "--role", "family", "--password-stdin"], stdin: "correct horse battery\n"),
                     code: 65, mentions: "exists", "a name in another case")
        checkRefusal(try run(["user", "add", "kim", "--role", "admin", "--password-stdin"], stdin: "correct horse battery\n"),
                     code: 64, mentions: "admin", "an unknown role")
        checkRefusal(try run(["user", "add", "kim", "--role", "family", "--language", "fr", "--password-stdin"], stdin: "correct horse battery\n"),
                     code: 64, mentions: "fr", "a language petlog does not speak")
        checkRefusal(try run(["user", "add", "kim", "--role", "family", "--password-stdin"], stdin: "short\n"),
                     code: 65, mentions: "8", "a short password")
        checkRefusal(try run(["user", "add", "kim", "--role", "family"]), code: 64, mentions: "--password-stdin", "no terminal to ask on")
        checkRefusal(try run(["user", "remove", "Mina"]), code: 65, mentions: "owner", "the last owner while others remain")
        checkRefusal(try run(["user", "remove", "nobody"]), code: 66, mentions: "nobody", "an unknown name")
        XCTAssertEqual(try XCTUnwrap(try json("user", "list") as? [[String: Any]]).count, 2)

        XCTAssertEqual(try run(["user", "passwd", "jun", "--password-stdin"], stdin: "a new password\n").status, 0)
        XCTAssertTrue(try ok("user", "remove", "JUN").contains("jun"))
        XCTAssertTrue(try ok("user", "remove", "mina").contains("Mina"))
        XCTAssertTrue(try ok("user", "list").contains("petlog user add"), "none left: says how to add one")
        let ko = try run(["--lang", "ko", "user", "remove", "nobody"])
        XCTAssertTrue(ko.stderr.contains("계정"), ko.stderr)
    }

    func testServeRefusesANetworkAddressWhileNoAccountExists() throws {
        try ok("pet", "add", "Coco", "--species", "dog")
        for address in ["0.0.0.0:8080", "192.168.1.5:18080", "[::]:8080"] {
            let r = try run(["serve", "--listen", address])
            checkRefusal(r, code: 77, mentions: "petlog user add", "no account yet: \(address)")
            XCTAssertEqual(r.stderr.split(separator: "\n").count, 1, r.stderr)
        }
        checkRefusal(try run(["serve", "--listen", "8080"]), code: 64, mentions: "8080", "not an address")
        let ja = try run(["--lang", "ja", "serve", "--listen", "0.0.0.0:8080"])
        XCTAssertTrue(ja.stderr.contains("アカウント"), ja.stderr)
    }

    #if os(Linux)
    /// A real `petlog serve` on a loopback port: it says where to open it, answers `/healthz` and `/` (to the
    /// login), writes one line per request, and SIGTERM or SIGINT stops it with exit 0 (`--quiet`: no lines).
    func testServeAnswersAndStopsCleanlyOnASignal() throws {
        try ok("pet", "add", "Coco", "--species", "dog")
        for (signal, quiet) in [(SIGTERM, false), (SIGINT, true)] {
            var child: PetlogChild?
            var port = 0
            // A port another process holds makes petlog fail at once: another is tried.
            for attempt in 0..<5 where child == nil {
                port = 20_000 + Int(getpid() % 20_000) + attempt * 977 + (quiet ? 311 : 0)
                let c = try PetlogChild(binary: Self.binary.path, arguments: ["--db", dbPath, "serve", "--listen", "127.0.0.1:\(port)"] + (quiet ? ["--quiet"] : []),
                                        home: home.path, outputPrefix: home.appendingPathComponent("serve-\(port)").path)
                // Its stderr (a file in HOME) is looked at after each change inotify reports: no sleep.
                let changes = try DirectoryWatch([home.path])
                var listening = false
                _ = changes.wait { listening = c.stderr.contains("http://127.0.0.1:\(port)/"); return listening || c.poll() }
                if listening { child = c } else { c.killNow() }
            }
            let serve = try XCTUnwrap(child, "serve did not start")
            XCTAssertEqual(try tool("curl", ["-s", "http://127.0.0.1:\(port)/healthz"]), "ok\n")
            XCTAssertEqual(try tool("curl", ["-s", "-o", "/dev/null", "-w", "%{http_code} %{redirect_url}", "http://127.0.0.1:\(port)/pets/1?secret=1"]),
                           "303 http://127.0.0.1:\(port)/login")
            kill(serve.pid, signal)
            serve.wait()
            XCTAssertEqual(serve.exitCode, 0, serve.stderr)
            let requests = serve.stderr.split(separator: "\n").filter { $0.hasPrefix("GET ") }
            if quiet {
                XCTAssertEqual(requests, [], serve.stderr)
            } else {
                XCTAssertEqual(requests.count, 2, serve.stderr)
                XCTAssertTrue(requests[0].hasPrefix("GET /healthz 200 ") && requests[0].hasSuffix("ms -"), serve.stderr)
                XCTAssertTrue(requests[1].hasPrefix("GET /pets/1 303 "), "the path without its query: \(serve.stderr)")
            }
        }
    }
    #endif
}
