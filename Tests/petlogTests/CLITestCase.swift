import Foundation
import XCTest

/// Runs the built `petlog` binary in a temporary HOME with its own database, as a user would.
class CLITestCase: XCTestCase {
    var home: URL!
    var dbPath: String { home.appendingPathComponent("data/petlog.sqlite").path }

    struct Result {
        var status: Int32
        var stdout: String
        var stderr: String
    }

    /// `$PETLOG_BIN`, else the `petlog` built beside this test executable (`.build/<triple>/debug/`).
    static var binary: URL {
        if let b = ProcessInfo.processInfo.environment["PETLOG_BIN"], !b.isEmpty { return URL(fileURLWithPath: b) }
        let testExecutable = URL(fileURLWithPath: ProcessInfo.processInfo.arguments[0]).resolvingSymlinksInPath()
        var dir = testExecutable.deletingLastPathComponent()
        for _ in 0..<4 where !FileManager.default.isExecutableFile(atPath: dir.appendingPathComponent("petlog").path) {
            dir = dir.deletingLastPathComponent()
        }
        return dir.appendingPathComponent("petlog")
    }

    override func setUpWithError() throws {
        home = FileManager.default.temporaryDirectory.appendingPathComponent("petlog-e2e-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: home, withIntermediateDirectories: true)
        XCTAssertTrue(FileManager.default.isExecutableFile(atPath: Self.binary.path), "build petlog first: \(Self.binary.path)")
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(at: home)
    }

    @discardableResult
    func run(_ args: [String], env extra: [String: String] = [:], useDefaultDB: Bool = false, stdin: String? = nil) throws -> Result {
        let p = Process()
        p.executableURL = Self.binary
        p.arguments = useDefaultDB ? args : ["--db", dbPath] + args
        var env = ["HOME": home.path, "PATH": "/usr/bin:/bin", "TZ": "Asia/Seoul", "LANG": "C.UTF-8", "PETLOG_NOW": "2026-11-23T10:00:00+09:00"]
        env.merge(extra) { _, new in new }
        p.environment = env
        p.currentDirectoryURL = home
        let out = Pipe(), err = Pipe()
        p.standardOutput = out
        p.standardError = err
        try p.run()
        let o = out.fileHandleForReading.readDataToEndOfFile()
        let e = err.fileHandleForReading.readDataToEndOfFile()
        p.waitUntilExit()
        return Result(status: p.terminationStatus, stdout: String(decoding: o, as: UTF8.self), stderr: String(decoding: e, as: UTF8.self))
    }

    /// Runs and expects success.
    @discardableResult
    func ok(_ args: String..., file: StaticString = #filePath, line: UInt = #line) throws -> String {
        let r = try run(args)
        XCTAssertEqual(r.status, 0, "petlog \(args.joined(separator: " ")): \(r.stderr)", file: file, line: line)
        return r.stdout
    }

    func json(_ args: String..., file: StaticString = #filePath, line: UInt = #line) throws -> Any {
        let r = try run(args + ["--json"])
        XCTAssertEqual(r.status, 0, r.stderr, file: file, line: line)
        return try JSONSerialization.jsonObject(with: Data(r.stdout.utf8))
    }

    func fileHash(_ path: String) throws -> Data {
        var all = Data()
        for suffix in ["", "-wal"] where FileManager.default.fileExists(atPath: path + suffix) {
            all += try Data(contentsOf: URL(fileURLWithPath: path + suffix))
        }
        return all
    }
}
