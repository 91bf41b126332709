import Foundation

/// petlog's helper programs (`petlog-ocr`, `petlog-fetch`): found and run the same way.
public enum HelperProgram {
    /// `$variable`, else `name` beside this program, else on the PATH.
    public static func locate(_ name: String, variable: String, environment: [String: String] = ProcessInfo.processInfo.environment) -> String? {
        if let p = environment[variable], !p.isEmpty { return p }
        let fm = FileManager.default
        if let exe = try? fm.destinationOfSymbolicLink(atPath: "/proc/self/exe") {
            let sibling = ((exe as NSString).deletingLastPathComponent as NSString).appendingPathComponent(name)
            if fm.isExecutableFile(atPath: sibling) { return sibling }
        }
        for dir in (environment["PATH"] ?? "/usr/local/bin:/usr/bin:/bin").split(separator: ":") where fm.isExecutableFile(atPath: "\(dir)/\(name)") {
            return "\(dir)/\(name)"
        }
        return nil
    }

    /// Runs `tool` with `args` and no input; standard output and error are read at the same time, so
    /// neither pipe can fill while the other is waited on.
    public static func run(_ tool: String, _ args: [String]) throws -> (status: Int32, out: Data, err: Data) {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: tool)
        p.arguments = args
        let out = Pipe(), err = Pipe()
        p.standardOutput = out
        p.standardError = err
        p.standardInput = FileHandle.nullDevice
        try p.run()
        let errBox = DataBox()
        let group = DispatchGroup()
        DispatchQueue.global().async(group: group) { errBox.set(err.fileHandleForReading.readDataToEndOfFile()) }
        let o = out.fileHandleForReading.readDataToEndOfFile()
        group.wait()
        p.waitUntilExit()
        return (p.terminationStatus, o, errBox.get())
    }

    final class DataBox: @unchecked Sendable {
        private let lock = NSLock()
        private var data = Data()
        func set(_ d: Data) { lock.lock(); data = d; lock.unlock() }
        func get() -> Data { lock.lock(); defer { lock.unlock() }; return data }
    }
}
