import XCTest
@testable import Localization

/// The build's string generator (`l10n-gen`, which Plugins/L10nPlugin runs over Localization/Strings):
/// run here on copies of the string files, whole and with one fault each, as the build runs it. A fault
/// it refuses stops the build, naming the file, the line and the key.
final class StringFileTests: XCTestCase {
    static let strings = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Localization/Strings")

    /// The generator as the build made it: `l10n-gen-tool` (the plugin's) or `l10n-gen`, beside the tests.
    static var generator: URL? {
        var dir = URL(fileURLWithPath: ProcessInfo.processInfo.arguments[0]).resolvingSymlinksInPath().deletingLastPathComponent()
        for _ in 0..<4 {
            for name in ["l10n-gen-tool", "l10n-gen"] where FileManager.default.isExecutableFile(atPath: dir.appendingPathComponent(name).path) {
                return dir.appendingPathComponent(name)
            }
            dir.deleteLastPathComponent()
        }
        return nil
    }

    /// Copies the three files into a new folder, lets `change` edit one language's lines, runs the
    /// generator; its status, standard error and output.
    func generate(_ language: String? = nil, _ change: (inout [String]) -> Void = { _ in }) throws -> (status: Int32, errors: String, output: String) {
        let generator = try XCTUnwrap(Self.generator, "l10n-gen is built with the package")
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("l10n-gen-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        for lang in ["en", "ko", "ja"] {
            var lines = try String(contentsOf: Self.strings.appendingPathComponent("\(lang).txt"), encoding: .utf8).components(separatedBy: "\n")
            if lang == language { change(&lines) }
            try lines.joined(separator: "\n").write(to: dir.appendingPathComponent("\(lang).txt"), atomically: true, encoding: .utf8)
        }
        let p = Process()
        p.executableURL = generator
        let output = dir.appendingPathComponent("Strings.swift")
        p.arguments = [output.path] + ["en", "ko", "ja"].map { dir.appendingPathComponent("\($0).txt").path }
        let errors = Pipe()
        p.standardError = errors
        try p.run()
        let text = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        p.waitUntilExit()
        return (p.terminationStatus, text, (try? String(contentsOf: output, encoding: .utf8)) ?? "")
    }

    func testTheFilesAsTheyAreMakeTheKeysConstructorsAndSwitches() throws {
        let r = try generate()
        XCTAssertEqual(r.status, 0, r.errors)
        XCTAssertTrue(r.output.contains("        case errBadDate = \"err.bad_date\"\n"))
        XCTAssertTrue(r.output.contains("    public static func errBadDate(value: String) -> Self { Self(.errBadDate, [\"value\": `value`]) }\n"))
        XCTAssertTrue(r.output.contains("    public static func errTooManyItems(field: String, max: String) -> Self"), "an order given in en.txt")
        XCTAssertTrue(r.output.contains("    static func ko(_ key: Key) -> String {"))
        XCTAssertEqual(r.output.components(separatedBy: "\n        case .errBadDate: ").count, 4, "one text per language")
    }

    func testAKeyMissingFromALanguageStopsTheBuild() throws {
        let r = try generate("ko") { lines in lines.removeAll { $0.hasPrefix("err.bad_date = ") } }
        XCTAssertNotEqual(r.status, 0)
        XCTAssertTrue(r.errors.contains("ko.txt:1: error: no ko text for err.bad_date (errBadDate, en.txt:"), r.errors)
    }

    func testAKeyEnglishLacksStopsTheBuild() throws {
        let r = try generate("ja") { lines in lines.append("err.no_such_key = 何か") }
        XCTAssertNotEqual(r.status, 0)
        XCTAssertTrue(r.errors.contains("error: err.no_such_key is not a key of en.txt"), r.errors)
    }

    func testAPlaceholderOtherThanEnglishsStopsTheBuild() throws {
        let r = try generate("ja") { lines in
            guard let i = lines.firstIndex(where: { $0.hasPrefix("err.bad_date = ") }) else { return XCTFail("no err.bad_date in ja.txt") }
            lines[i] = lines[i].replacingOccurrences(of: "{value}", with: "{valeu}")
        }
        XCTAssertNotEqual(r.status, 0)
        XCTAssertTrue(r.errors.contains("err.bad_date: the placeholders {valeu} are not English's {value}"), r.errors)
    }

    func testAParameterOrderThatIsNotThePlaceholdersStopsTheBuild() throws {
        let r = try generate("en") { lines in
            guard let i = lines.firstIndex(where: { $0.hasPrefix("errTooManyItems(") }) else { return XCTFail("no errTooManyItems in en.txt") }
            lines[i] = lines[i].replacingOccurrences(of: "(field, max)", with: "(field, count)")
        }
        XCTAssertNotEqual(r.status, 0)
        XCTAssertTrue(r.errors.contains("errTooManyItems(field, count) does not name the text's placeholders"), r.errors)
    }

    func testATrailingSpaceMustBeWrittenOut() throws {
        let r = try generate("en") { lines in
            guard let i = lines.firstIndex(where: { $0.hasPrefix("scanAskSave ") }) else { return XCTFail("no scanAskSave in en.txt") }
            lines[i] = lines[i].replacingOccurrences(of: "\\s", with: " ")
        }
        XCTAssertNotEqual(r.status, 0)
        XCTAssertTrue(r.errors.contains("a space at the end of the line: write it as \\s"), r.errors)
        XCTAssertEqual(L10n.en(.scanAskSave).last, " ", "\\s is a space")
    }
}
