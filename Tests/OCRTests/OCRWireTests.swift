import Foundation
import OCRWire
import XCTest

/// The JSON between `petlog-ocr` and `petlog`: the helper as built prints what `OCRWire` decodes, a reading or a
/// failure, and the types read back what they wrote.
final class OCRWireTests: XCTestCase {
    /// The `petlog-ocr` built beside this test executable.
    static var helper: URL {
        var dir = URL(fileURLWithPath: ProcessInfo.processInfo.arguments[0]).resolvingSymlinksInPath().deletingLastPathComponent()
        for _ in 0..<4 where !FileManager.default.isExecutableFile(atPath: dir.appendingPathComponent("petlog-ocr").path) {
            dir = dir.deletingLastPathComponent()
        }
        return dir.appendingPathComponent("petlog-ocr")
    }

    func run(_ args: [String]) throws -> (status: Int32, out: Data) {
        guard FileManager.default.isExecutableFile(atPath: Self.helper.path) else { throw XCTSkip("build petlog-ocr first: \(Self.helper.path)") }
        let p = Process()
        p.executableURL = Self.helper
        p.arguments = args
        let pipe = Pipe()
        p.standardOutput = pipe
        p.standardError = FileHandle.nullDevice
        try p.run()
        let out = pipe.fileHandleForReading.readDataToEndOfFile()
        p.waitUntilExit()
        return (p.terminationStatus, out)
    }

    func testTheHelpersReadingDecodesAsTheSharedType() throws {
        let r = try run(["--detect", "eng", OCREngineTests.fixtures.appendingPathComponent("en-01.jpg").path])
        XCTAssertEqual(r.status, 0)
        let reading = try OCRWire.decode(OCRWire.Reading.self, from: r.out)
        XCTAssertEqual(reading.language, "eng")
        XCTAssertGreaterThan(reading.lines.count, 5)
        XCTAssertTrue(reading.lines.contains { $0.text.uppercased().contains("TOTAL") || $0.text.contains("Amount") || $0.text.contains("Balance") },
                      "\(reading.lines.map(\.text))")
        XCTAssertGreaterThan(reading.width, 0)
        XCTAssertEqual(try OCRWire.decode(OCRWire.Reading.self, from: try OCRWire.encode(reading)), reading)
    }

    func testTheHelpersFailureDecodesAsTheSharedTypeWithItsExitCode() throws {
        let text = NSTemporaryDirectory() + "ocrwire-\(UUID().uuidString).jpg"
        try Data("not an image".utf8).write(to: URL(fileURLWithPath: text))
        defer { try? FileManager.default.removeItem(atPath: text) }
        let r = try run(["--detect", "eng", text])
        let failure = try OCRWire.decode(OCRWire.Failure.self, from: r.out)
        XCTAssertEqual(failure.error, "notAnImage")
        XCTAssertEqual(failure.path, text)
        XCTAssertEqual(r.status, failure.exitCode)
        XCTAssertEqual(r.status, 65)
        let usage = try run([])
        XCTAssertEqual(try OCRWire.decode(OCRWire.Failure.self, from: usage.out).error, "usage")
        XCTAssertEqual(usage.status, 64)
        let missing = OCRWire.Failure("tooManyPixels", path: "/x.jpg", limit: 50_000_000, width: 9000, height: 9000)
        XCTAssertEqual(try OCRWire.decode(OCRWire.Failure.self, from: try OCRWire.encode(missing)), missing)
    }
}
