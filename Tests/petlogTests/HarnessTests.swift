import Foundation
import XCTest
import PetlogTestSupport

/// The end-to-end harness itself: a child that fills its stderr pipe while the test reads stdout must
/// not hang, and `stdin:` reaches the child.
final class HarnessTests: CLITestCase {
    override class var onOneStoreOnly: String? { "about the test harness itself" }
    func testLargeStderrAndStdinDoNotHang() throws {
        let script = "cat; head -c 300000 /dev/zero | tr '\\\\0' e >&2; echo done"
        let r = try launch(URL(fileURLWithPath: "/bin/sh"), ["-c", script], stdin: "from the test\n")
        XCTAssertEqual(r.status, 0)
        XCTAssertEqual(r.stdout, "from the test\ndone\n")
        XCTAssertEqual(r.stderr.count, 300_000)
    }

    func testWithoutStdinTheChildReadsNothing() throws {
        let r = try launch(URL(fileURLWithPath: "/bin/sh"), ["-c", "wc -c"])
        XCTAssertEqual(r.stdout.trimmingCharacters(in: .whitespacesAndNewlines), "0")
    }
}
