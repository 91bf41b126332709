import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Why a file of rates could not be fetched or unpacked.
public enum RatesDownloadError: Error, Equatable, Sendable {
    /// No answer: refused, unknown host, no network, TLS failure; the system's words.
    case unreachable(String)
    case timedOut(seconds: Int)
    /// The server answered with another status than 200.
    case httpStatus(Int)
    /// A zip without a CSV or XML file in it, or one `unzip` could not read.
    case badArchive(String)
    /// A zip was fetched but `/usr/bin/unzip` is not installed.
    case noUnzip
}

/// The one place petlog touches the network: one HTTP(S) GET, synchronous, with a time limit.
public enum RatesDownload {
    public static let timeoutSeconds = 20

    /// The body of `url` (answered 200), or a typed error.
    public static func fetch(_ url: URL, timeout: Int = timeoutSeconds) throws -> Data {
        let config = URLSessionConfiguration.ephemeral
        config.timeoutIntervalForRequest = TimeInterval(timeout)
        config.timeoutIntervalForResource = TimeInterval(timeout)
        config.requestCachePolicy = .reloadIgnoringLocalCacheData
        config.urlCache = nil
        let session = URLSession(configuration: config)
        defer { session.finishTasksAndInvalidate() }
        let box = Outcome()
        let done = DispatchSemaphore(value: 0)
        var request = URLRequest(url: url)
        request.setValue("petlog", forHTTPHeaderField: "User-Agent")
        let task = session.dataTask(with: request) { data, response, error in
            box.set(data, response, error)
            done.signal()
        }
        task.resume()
        // The session's own limit ends the task; this one is a backstop.
        if done.wait(timeout: .now() + .seconds(timeout + 5)) == .timedOut {
            task.cancel()
            throw RatesDownloadError.timedOut(seconds: timeout)
        }
        let (data, response, error) = box.get()
        if let error {
            if (error as? URLError)?.code == .timedOut { throw RatesDownloadError.timedOut(seconds: timeout) }
            throw RatesDownloadError.unreachable(error.localizedDescription)
        }
        let status = (response as? HTTPURLResponse)?.statusCode ?? 0
        guard status == 200 else { throw RatesDownloadError.httpStatus(status) }
        return data ?? Data()
    }

    /// A zip archive (`PK\3\4`), as the ECB publishes its history.
    public static func isZip(_ data: Data) -> Bool {
        data.prefix(4) == Data([0x50, 0x4B, 0x03, 0x04])
    }

    /// The first `.csv` or `.xml` file of a zip, read by the system's `/usr/bin/unzip` (petlog has no
    /// inflater of its own). The archive goes through a private temporary file, removed afterwards.
    public static func unzipRatesFile(_ zip: Data, unzip: String = "/usr/bin/unzip") throws -> Data {
        guard FileManager.default.isExecutableFile(atPath: unzip) else { throw RatesDownloadError.noUnzip }
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("petlog-rates-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: false, attributes: [.posixPermissions: 0o700])
        defer { try? FileManager.default.removeItem(at: dir) }
        let archive = dir.appendingPathComponent("rates.zip")
        try zip.write(to: archive)
        let listing = try run(unzip, ["-Z1", archive.path])
        guard listing.status == 0 else { throw RatesDownloadError.badArchive(firstLine(listing.err)) }
        let names = String(decoding: listing.out, as: UTF8.self).split(whereSeparator: \.isNewline).map(String.init)
        guard let name = names.first(where: { $0.lowercased().hasSuffix(".csv") || $0.lowercased().hasSuffix(".xml") }) else {
            throw RatesDownloadError.badArchive(names.first ?? "")
        }
        // -p: to stdout; -qq: nothing else. The name is passed as a literal member (no wildcards).
        let extracted = try run(unzip, ["-p", "-qq", archive.path, name.replacingOccurrences(of: "[", with: "[[]")])
        guard extracted.status == 0 else { throw RatesDownloadError.badArchive(firstLine(extracted.err)) }
        return extracted.out
    }

    static func firstLine(_ d: Data) -> String {
        String(decoding: d, as: UTF8.self).split(whereSeparator: \.isNewline).first.map(String.init) ?? ""
    }

    static func run(_ tool: String, _ args: [String]) throws -> (status: Int32, out: Data, err: Data) {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: tool)
        p.arguments = args
        let out = Pipe(), err = Pipe()
        p.standardOutput = out
        p.standardError = err
        p.standardInput = FileHandle.nullDevice
        try p.run()
        let errBox = Outcome()
        let group = DispatchGroup()
        DispatchQueue.global().async(group: group) { errBox.set(err.fileHandleForReading.readDataToEndOfFile(), nil, nil) }
        let o = out.fileHandleForReading.readDataToEndOfFile()
        group.wait()
        p.waitUntilExit()
        return (p.terminationStatus, o, errBox.get().0 ?? Data())
    }

    /// What a task's completion handler hands to the waiting thread.
    final class Outcome: @unchecked Sendable {
        private let lock = NSLock()
        private var value: (Data?, URLResponse?, Error?) = (nil, nil, nil)
        func set(_ d: Data?, _ r: URLResponse?, _ e: Error?) { lock.lock(); value = (d, r, e); lock.unlock() }
        func get() -> (Data?, URLResponse?, Error?) { lock.lock(); defer { lock.unlock() }; return value }
    }
}
