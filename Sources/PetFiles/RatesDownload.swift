import Foundation

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
    /// `petlog-fetch` is neither beside petlog, on the PATH, nor named by `PETLOG_FETCH`.
    case helperMissing
}

/// The one place petlog touches the network: one HTTP(S) GET (by `petlog-fetch`), synchronous, with a time limit.
public enum RatesDownload {
    public static let timeoutSeconds = 20

    /// The body of `url` (answered 200), or a typed error. The request is made by `petlog-fetch`, a small
    /// program beside petlog (or `$PETLOG_FETCH`), so that petlog itself links no HTTP library.
    public static func fetch(_ url: URL, timeout: Int = timeoutSeconds) throws -> Data {
        guard let helper = HelperProgram.locate("petlog-fetch", variable: "PETLOG_FETCH") else { throw RatesDownloadError.helperMissing }
        let result: (status: Int32, out: Data, err: Data)
        do {
            result = try run(helper, ["--timeout", String(timeout), url.absoluteString])
        } catch {
            throw RatesDownloadError.unreachable("\(error)")
        }
        let line = String(decoding: result.err, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        switch result.status {
        case 0: return result.out
        case 2: throw RatesDownloadError.timedOut(seconds: timeout)
        case 3: throw RatesDownloadError.httpStatus(Int(line) ?? 0)
        default: throw RatesDownloadError.unreachable(line.isEmpty ? "petlog-fetch exited \(result.status)" : line)
        }
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
        try HelperProgram.run(tool, args)
    }
}
