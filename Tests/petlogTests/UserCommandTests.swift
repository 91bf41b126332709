import Foundation
import XCTest
import PetlogTestSupport

/// `petlog user add|list|passwd|remove` and `petlog serve`'s refusals before it listens, end to end on both stores.
final class UserCommandTests: CLITestCase {
    func testAccountsAreAddedListedAndRemoved() throws {
        let added = try run(["user", "add", "Mina", "--role", "owner", "--password-stdin"], stdin: "correct horse battery\n")
        XCTAssertEqual(added.status, 0, added.stderr)
        XCTAssertTrue(added.stdout.contains("Mina"), added.stdout)
        XCTAssertEqual(try run(["user", "add", "jun", "--role", "viewer", "--password-stdin"], stdin: "another good one\n").status, 0)
        let list = try ok("user", "list")
        XCTAssertTrue(list.contains("Mina") && list.contains("owner") && list.contains("jun") && list.contains("viewer"), list)
        let listed = try XCTUnwrap(try json("user", "list") as? [[String: Any]])
        XCTAssertEqual(listed.map { $0["name"] as? String }, ["jun", "Mina"])
        XCTAssertFalse(try ok("user", "list", "--json").contains("$2"), "no password hash in any output")

        // Refusals: one line, a sysexits code, nothing changed.
        checkRefusal(try run(["user", "add", "MINA", "--role", "family", "--password-stdin"], stdin: "correct horse battery\n"),
                     code: 65, mentions: "exists", "a name in another case")
        checkRefusal(try run(["user", "add", "kim", "--role", "admin", "--password-stdin"], stdin: "correct horse battery\n"),
                     code: 64, mentions: "admin", "an unknown role")
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
}
