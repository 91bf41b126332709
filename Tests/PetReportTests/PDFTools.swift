import Foundation
import XCTest

/// poppler-utils run as child processes; a test is skipped (not failed) when a tool is missing.
enum PDFTools {
    static func path(of tool: String) -> String? {
        let directories = (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":")
        return directories.map { "\($0)/\(tool)" }.first { FileManager.default.isExecutableFile(atPath: $0) }
    }

    /// Runs `tool` and returns its standard output as text.
    @discardableResult
    static func run(_ tool: String, _ arguments: [String]) throws -> String {
        guard let executable = path(of: tool) else { throw XCTSkip("\(tool) not installed (apt-get install poppler-utils)") }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        // pdfinfo prints dates in the local zone: read them in UTC so the checks hold on any machine.
        var environment = ProcessInfo.processInfo.environment
        environment["TZ"] = "UTC"
        process.environment = environment
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw NSError(domain: "PDFTools", code: Int(process.terminationStatus),
                          userInfo: [NSLocalizedDescriptionKey: "\(tool) \(arguments) failed"])
        }
        return String(decoding: data, as: UTF8.self)
    }

    /// Text of the whole document, or of one page (from 1).
    static func text(_ pdf: String, page: Int? = nil) throws -> String {
        var arguments = ["-enc", "UTF-8"]
        if let page { arguments += ["-f", "\(page)", "-l", "\(page)"] }
        return try run("pdftotext", arguments + [pdf, "-"])
    }

    static func pageCount(_ pdf: String) throws -> Int {
        let info = try run("pdfinfo", [pdf])
        for line in info.split(separator: "\n") where line.hasPrefix("Pages:") {
            return Int(line.dropFirst(6).trimmingCharacters(in: .whitespaces)) ?? -1
        }
        return -1
    }

    static func occurrences(of needle: String, in haystack: String) -> Int {
        haystack.components(separatedBy: needle).count - 1
    }
}
