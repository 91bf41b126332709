import Foundation
import Hummingbird
import PetModel

/// A `multipart/form-data` body (a form with photos, attachments or a receipt), read strictly a chunk at a
/// time: each file part goes to a private temporary file as it arrives, capped at `limit` bytes a file, so
/// a 26 MB photo is refused without being held in memory. Whatever goes wrong (too large, malformed, cut
/// off before the closing boundary) throws, and every file written so far is removed: a half-sent upload
/// leaves nothing. The files live until `discard()` or until this object goes (its deinit removes them):
/// a handler reads the form, checks the files by their content (`File.imageType`, `File.isPDF`: the same
/// sniffing as the CLI's `--photo` and `--receipt`), hands their paths to the store (which copies them) and
/// lets the upload go.
///
///     let upload = try await Upload.read(request)          // Upload.Failure: .tooLarge (413), else 400
///     upload.fields["csrf"], upload.files(named: "photo")
///
/// No name a browser sent reaches the file system but a file's base name, cleaned (`File.filename`), inside
/// a folder of our own.
public final class Upload: @unchecked Sendable {
    /// One uploaded file: the form field it came in, the browser's file name (base name only, cleaned), where
    /// it is written, its size and its first 16 bytes (its type by content).
    public struct File: Sendable {
        public let field: String
        public let filename: String
        public let path: String
        public let size: Int
        public let head: [UInt8]
        /// The image type by content (JPEG, PNG, HEIC …), as `--photo` checks it; nil when it is no image.
        public var imageType: String? { MediaSniffer.imageType(head) }
        public var isPDF: Bool { MediaSniffer.isPDF(head) }
    }

    /// Why a body was refused.
    public enum Failure: Error, Equatable, Sendable {
        /// Not `multipart/form-data` with a usable boundary.
        case notMultipart
        /// Not the format: a part without a name, a header block too long, the body cut off before its end.
        case malformed
        /// A file over the limit, too many files, or fields over 64 KiB.
        case tooLarge

        public var status: HTTPResponse.Status { self == .tooLarge ? .contentTooLarge : .badRequest }
    }

    /// 25 MB a file (a phone's photo is a few).
    public static let fileLimit = 25 * 1024 * 1024
    public static let maxFiles = 20
    static let maxFieldBytes = 64 * 1024
    static let maxHeaderBytes = 8 * 1024

    /// The text fields, by name (a name given twice keeps its first value).
    public let fields: [String: String]
    /// The files in the order they came (a file input left empty sends none).
    public let files: [File]
    private let folder: String?
    private let lock = NSLock()
    private var discarded = false

    init(fields: [String: String], files: [File], folder: String?) {
        self.fields = fields; self.files = files; self.folder = folder
    }

    deinit { discard() }

    /// The files sent in the field `name`.
    public func files(named name: String) -> [File] { files.filter { $0.field == name } }

    /// Removes the files (the store has its own copies by now, or nothing is kept).
    public func discard() {
        lock.lock(); defer { lock.unlock() }
        guard !discarded else { return }
        discarded = true
        if let folder { try? FileManager.default.removeItem(atPath: folder) }
    }

    /// Whether the request's body says it is `multipart/form-data`.
    public static func isMultipart(_ request: Request) -> Bool {
        request.headers[.contentType].map { boundary($0) != nil } ?? false
    }

    /// Reads the request's `multipart/form-data` body: its fields and files, each file at most `limit` bytes.
    public static func read(_ request: Request, limit: Int = fileLimit) async throws -> Upload {
        try await read(request.body, contentType: request.headers[.contentType], limit: limit)
    }

    /// The body as a sequence of chunks (any split: the tests cut it everywhere).
    static func read<Body: AsyncSequence>(_ body: Body, contentType: String?, limit: Int = fileLimit, directory: String = NSTemporaryDirectory())
        async throws -> Upload where Body.Element == ByteBuffer {
        guard let boundary = contentType.flatMap(boundary) else { throw Failure.notMultipart }
        let parser = MultipartParser(boundary: boundary, limit: limit, directory: directory)
        do {
            for try await chunk in body { try parser.feed(chunk.readableBytesView) }
            return try parser.finish()
        } catch {
            parser.abandon()
            throw (error as? Failure) ?? Failure.malformed
        }
    }

    /// The boundary of `multipart/form-data; boundary=…` (quoted or not, 1–70 characters, RFC 2046).
    static func boundary(_ contentType: String) -> String? {
        let parts = contentType.split(separator: ";").map { $0.trimmingCharacters(in: .whitespaces) }
        guard parts.first?.lowercased() == "multipart/form-data" else { return nil }
        for p in parts.dropFirst() {
            let kv = p.split(separator: "=", maxSplits: 1).map(String.init)
            guard kv.count == 2, kv[0].trimmingCharacters(in: .whitespaces).lowercased() == "boundary" else { continue }
            var value = kv[1].trimmingCharacters(in: .whitespaces)
            if value.count >= 2, value.hasPrefix("\""), value.hasSuffix("\"") { value = String(value.dropFirst().dropLast()) }
            guard (1...70).contains(value.utf8.count), value.utf8.allSatisfy({ $0 > 0x20 && $0 < 0x7F || $0 == 0x20 }),
                  !value.hasSuffix(" ") else { return nil }
            return value
        }
        return nil
    }

    /// A browser's file name as a base name safe in our folder: the part after the last `/` or `\`, control
    /// characters and bidi overrides out, no leading dot, at most 120 characters; `upload` when nothing is left.
    static func cleanName(_ name: String) -> String {
        let base = name.split(whereSeparator: { $0 == "/" || $0 == "\\" }).last.map(String.init) ?? ""
        var scalars = String.UnicodeScalarView()
        for s in base.unicodeScalars where !PlainText.isControl(s) { scalars.append(s) }
        var out = String(scalars).trimmingCharacters(in: .whitespaces)
        while out.hasPrefix(".") { out.removeFirst() }
        out = String(out.prefix(120))
        return out.isEmpty ? "upload" : out
    }
}

/// The strict `multipart/form-data` reader behind `Upload.read`: a small state machine over the bytes as
/// they come (RFC 7578 / 2046: `--boundary CRLF headers CRLF CRLF content CRLF --boundary … --boundary--`).
final class MultipartParser {
    private enum State { case start, afterDelimiter, headers, content, done }
    private struct Part { var name: String; var filename: String?; var bytes: [UInt8] = []; var handle: FileHandle?; var path: String?; var size = 0; var head: [UInt8] = [] }

    private let first: [UInt8]      // "--boundary"
    private let delimiter: [UInt8]  // "\r\n--boundary"
    private let limit: Int
    private let directory: String
    private var buffer: [UInt8] = []
    private var state = State.start
    private var part: Part?
    private var fields: [String: String] = [:]
    private var fieldBytes = 0
    private var files: [Upload.File] = []
    private var folder: String?

    init(boundary: String, limit: Int, directory: String) {
        first = Array("--\(boundary)".utf8)
        delimiter = Array("\r\n--\(boundary)".utf8)
        self.limit = limit; self.directory = directory
    }

    func feed<C: Collection>(_ bytes: C) throws where C.Element == UInt8 {
        buffer.append(contentsOf: bytes)
        try step()
    }

    /// The form once the body has ended: after the closing boundary, else the body was cut off.
    func finish() throws -> Upload {
        try step()
        guard state == .done else { throw Upload.Failure.malformed }
        let upload = Upload(fields: fields, files: files, folder: folder)
        folder = nil
        return upload
    }

    /// Everything written so far goes (an error, a cut-off body).
    func abandon() {
        try? part?.handle?.close()
        part = nil
        if let folder { try? FileManager.default.removeItem(atPath: folder) }
        folder = nil
    }

    private func step() throws {
        while true {
            switch state {
            case .start:
                guard buffer.count >= first.count else { return }
                guard buffer.starts(with: first) else { throw Upload.Failure.malformed }
                buffer.removeFirst(first.count)
                state = .afterDelimiter
            case .afterDelimiter:
                guard buffer.count >= 2 else { return }
                if buffer[0] == UInt8(ascii: "-") && buffer[1] == UInt8(ascii: "-") {
                    buffer.removeAll()
                    state = .done
                } else if buffer[0] == 0x0D && buffer[1] == 0x0A {
                    buffer.removeFirst(2)
                    state = .headers
                } else {
                    throw Upload.Failure.malformed
                }
            case .headers:
                guard let end = Self.find([0x0D, 0x0A, 0x0D, 0x0A], in: buffer) else {
                    if buffer.count > Upload.maxHeaderBytes || buffer.starts(with: [0x0D, 0x0A]) { throw Upload.Failure.malformed }
                    return
                }
                guard end <= Upload.maxHeaderBytes else { throw Upload.Failure.malformed }
                let text = String(decoding: buffer[0..<end], as: UTF8.self)
                buffer.removeFirst(end + 4)
                try begin(headers: text)
                state = .content
            case .content:
                if let at = Self.find(delimiter, in: buffer) {
                    try write(buffer[0..<at])
                    buffer.removeFirst(at + delimiter.count)
                    try end()
                    state = .afterDelimiter
                } else {
                    // Keep the bytes that may be the start of a delimiter cut by the chunk.
                    let safe = buffer.count - (delimiter.count - 1)
                    if safe > 0 {
                        try write(buffer[0..<safe])
                        buffer.removeFirst(safe)
                    }
                    return
                }
            case .done:
                buffer.removeAll()  // the epilogue is ignored
                return
            }
        }
    }

    private func begin(headers: String) throws {
        var name: String?, filename: String?
        for line in headers.components(separatedBy: "\r\n") {
            guard let colon = line.firstIndex(of: ":") else { throw Upload.Failure.malformed }
            guard line[..<colon].trimmingCharacters(in: .whitespaces).lowercased() == "content-disposition" else { continue }
            let params = Self.dispositionParameters(String(line[line.index(after: colon)...]))
            guard params.type == "form-data" else { throw Upload.Failure.malformed }
            name = params.values["name"]; filename = params.values["filename"]
        }
        guard let name, !name.isEmpty else { throw Upload.Failure.malformed }
        part = Part(name: name, filename: filename)
        if filename != nil {
            guard files.count < Upload.maxFiles else { throw Upload.Failure.tooLarge }
        }
    }

    private func write(_ bytes: ArraySlice<UInt8>) throws {
        guard var p = part, !bytes.isEmpty else { return }
        if let filename = p.filename {
            p.size += bytes.count
            guard p.size <= limit else { part = p; throw Upload.Failure.tooLarge }
            if p.head.count < 16 { p.head.append(contentsOf: bytes.prefix(16 - p.head.count)) }
            if p.handle == nil {
                let dir = try ensureFolder() + "/\(files.count + 1)"
                try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: false, attributes: [.posixPermissions: 0o700])
                let path = dir + "/" + Upload.cleanName(filename)
                guard FileManager.default.createFile(atPath: path, contents: nil, attributes: [.posixPermissions: 0o600]),
                      let h = FileHandle(forWritingAtPath: path) else { throw Upload.Failure.malformed }
                p.handle = h; p.path = path
            }
            try p.handle?.write(contentsOf: bytes)
        } else {
            fieldBytes += bytes.count
            guard fieldBytes <= Upload.maxFieldBytes else { throw Upload.Failure.tooLarge }
            p.bytes.append(contentsOf: bytes)
        }
        part = p
    }

    private func end() throws {
        guard let p = part else { throw Upload.Failure.malformed }
        part = nil
        if let filename = p.filename {
            try p.handle?.close()
            // A file input left empty: `filename=""` and no content.
            if let path = p.path {
                files.append(Upload.File(field: p.name, filename: Upload.cleanName(filename), path: path, size: p.size, head: p.head))
            } else if !filename.isEmpty {
                let dir = try ensureFolder() + "/\(files.count + 1)"
                try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: false, attributes: [.posixPermissions: 0o700])
                let path = dir + "/" + Upload.cleanName(filename)
                guard FileManager.default.createFile(atPath: path, contents: nil, attributes: [.posixPermissions: 0o600]) else { throw Upload.Failure.malformed }
                files.append(Upload.File(field: p.name, filename: Upload.cleanName(filename), path: path, size: 0, head: []))
            }
        } else {
            guard let text = String(validating: p.bytes, as: UTF8.self) else { throw Upload.Failure.malformed }
            if fields[p.name] == nil { fields[p.name] = text }
        }
    }

    private func ensureFolder() throws -> String {
        if let folder { return folder }
        let path = (directory.hasSuffix("/") ? directory : directory + "/") + "petlog-upload-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        folder = path
        return path
    }

    /// `form-data; name="photo"; filename="a \"b\".jpg"`: the type and the parameters (quoted strings with
    /// backslash escapes, as browsers send them; names lowercased).
    static func dispositionParameters(_ text: String) -> (type: String, values: [String: String]) {
        var chars = Array(text.unicodeScalars)[...]
        func skipSpaces() { while let c = chars.first, c == " " || c == "\t" { chars.removeFirst() } }
        func token() -> String {
            var out = String.UnicodeScalarView()
            while let c = chars.first, c != ";", c != "=" { out.append(c); chars.removeFirst() }
            return String(out).trimmingCharacters(in: .whitespaces)
        }
        skipSpaces()
        let type = token().lowercased()
        var values: [String: String] = [:]
        while let c = chars.first, c == ";" {
            chars.removeFirst(); skipSpaces()
            let key = token().lowercased()
            guard chars.first == "=" else { continue }
            chars.removeFirst(); skipSpaces()
            var value = String.UnicodeScalarView()
            if chars.first == "\"" {
                chars.removeFirst()
                while let c = chars.popFirst(), c != "\"" {
                    if c == "\\", let next = chars.popFirst() { value.append(next) } else { value.append(c) }
                }
                skipSpaces()
            } else {
                while let c = chars.first, c != ";" { value.append(c); chars.removeFirst() }
            }
            if values[key] == nil { values[key] = String(value).trimmingCharacters(in: key == "filename" ? [] : .whitespaces) }
        }
        return (type, values)
    }

    /// The first index of `needle` in `hay`.
    static func find(_ needle: [UInt8], in hay: [UInt8]) -> Int? {
        guard !needle.isEmpty, hay.count >= needle.count else { return nil }
        return hay.withUnsafeBufferPointer { h -> Int? in
            needle.withUnsafeBufferPointer { n -> Int? in
                guard let hb = h.baseAddress, let nb = n.baseAddress else { return nil }
                var i = 0
                let last = h.count - n.count
                while i <= last {
                    guard let p = memchr(hb + i, Int32(n[0]), last - i + 1) else { return nil }
                    let at = hb.distance(to: p.assumingMemoryBound(to: UInt8.self))
                    if memcmp(hb + at, nb, n.count) == 0 { return at }
                    i = at + 1
                }
                return nil
            }
        }
    }
}
