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

    /// The tests' cache in front of `petlog-ocr` (`OCRTestCache`) replays a reading only for the same arguments and
    /// the same image bytes: a changed argument or image reads again, a refusal is never kept. A stand-in helper
    /// counts its runs and prints what it was given.
    func testTheOCRCacheMissesOnAChangedImageOrArgument() throws {
        let helper = home.appendingPathComponent("fake-ocr"), runs = home.appendingPathComponent("runs")
        try """
            #!/bin/sh
            echo run >> '\(runs.path)'
            for last; do :; done
            grep -q refuse "$last" && { echo '{"error":"notAnImage"}'; exit 65; }
            printf '{"args":"%s","image":"%s"}\n' "$*" "$(cat "$last")"
            """.write(to: helper, atomically: true, encoding: .utf8)
        chmod(helper.path, 0o755)
        let env = OCRTestCache.environment(real: helper, folder: home.appendingPathComponent("ocr-cache").path)
        let image = home.appendingPathComponent("receipt.jpg"), copy = home.appendingPathComponent("elsewhere.jpg")
        try "first bytes".write(to: image, atomically: true, encoding: .utf8)
        try "first bytes".write(to: copy, atomically: true, encoding: .utf8)
        func read(_ args: [String]) throws -> (out: String, runs: Int) {
            let r = try launch(URL(fileURLWithPath: env["PETLOG_OCR"]!), args, env: env)
            let count = ((try? String(contentsOf: runs, encoding: .utf8)) ?? "").split(separator: "\n").count
            return (r.status == 0 ? r.stdout : "exit \(r.status): \(r.stdout)", count)
        }
        let first = try read(["--detect", "eng", image.path])
        XCTAssertEqual(first.out, "{\"args\":\"--detect eng \(image.path)\",\"image\":\"first bytes\"}\n")
        XCTAssertEqual(first.runs, 1)
        XCTAssertEqual(try read(["--detect", "eng", image.path]).runs, 1, "the same arguments and image: replayed")
        XCTAssertEqual(try read(["--detect", "eng", copy.path]).out, first.out, "the same bytes elsewhere: replayed (the key is the bytes)")
        XCTAssertEqual(try read(["--detect", "kor+eng", image.path]).runs, 2, "a changed argument reads again")
        XCTAssertEqual(try read(["--detect", "eng", "--lang", "jpn", image.path]).runs, 3, "an added argument reads again")
        try "other bytes".write(to: image, atomically: true, encoding: .utf8)
        let changed = try read(["--detect", "eng", image.path])
        XCTAssertEqual(changed.runs, 4, "a changed image reads again")
        XCTAssertTrue(changed.out.contains("other bytes"), changed.out)
        try "refuse".write(to: image, atomically: true, encoding: .utf8)
        XCTAssertEqual(try read(["--detect", "eng", image.path]).out, "exit 65: {\"error\":\"notAnImage\"}\n")
        XCTAssertEqual(try read(["--detect", "eng", image.path]).runs, 6, "a refusal is not kept")
        XCTAssertEqual(try read(["--detect", "eng", home.appendingPathComponent("missing.jpg").path]).runs, 7, "no image: the helper itself")
        // The end-to-end tests' petlog runs the real helper (built beside it) through the cache.
        if FileManager.default.isExecutableFile(atPath: Self.binary.deletingLastPathComponent().appendingPathComponent("petlog-ocr").path),
           ProcessInfo.processInfo.environment["PETLOG_TEST_NO_OCR_CACHE"] != "1" {
            XCTAssertEqual(Self.ocrCache["PETLOG_OCR"], OCRTestCache.script.path)
        }
    }

    func testWithoutStdinTheChildReadsNothing() throws {
        let r = try launch(URL(fileURLWithPath: "/bin/sh"), ["-c", "wc -c"])
        XCTAssertEqual(r.stdout.trimmingCharacters(in: .whitespacesAndNewlines), "0")
    }
}
