import Foundation
import Hummingbird
import PetFiles
import PetModel
import PetStoreCore

/// Small copies of a record's photos that every browser shows (docs/serve.md): `GET /records/ID/files/N/thumb`
/// (at most 320 pixels a side) for the timeline and the record's page, and a HEIC photo's full-size rendering
/// at `GET /records/ID/files/N` (Chrome and Firefox show no HEIC; `…/N/original` keeps the stored file, as a
/// download). Made by `petlog-ocr --thumbnail` (leptonica and libheif, in their own process: petlog links
/// neither, and a hostile image is decoded outside the server), kept in memory by content, within a bound.
enum Thumbnails {
    /// A thumbnail's longest side: three times the 96 CSS pixels the pages show it at.
    static let side = 320
    /// The longest side of a HEIC photo's rendering for the browser.
    static let renderingSide = 2048
    /// The stored types a browser shows in place as they are (HEIC/HEIF is rendered as JPEG first).
    static let heifTypes: Set<String> = ["image/heic", "image/heif"]

    /// The copies made so far, by the file's SHA-256 and the size asked for (the same content in two records is made once).
    static let cache = Cache(limit: 24 * 1024 * 1024)

    /// A copy of the image at `path` at most `side` pixels a side (JPEG or PNG, by its first bytes), or nil when the
    /// helper is missing or cannot read it.
    static func make(path: String, sha256: String, side: Int) -> (bytes: [UInt8], type: String)? {
        let key = "\(sha256)/\(side)"
        if let hit = cache.get(key) { return hit }
        guard let helper = HelperProgram.locate("petlog-ocr", variable: "PETLOG_OCR"),
              let result = try? HelperProgram.run(helper, ["--thumbnail", String(side), path]), result.status == 0 else { return nil }
        let bytes = [UInt8](result.out)
        guard let type = MediaSniffer.imageType(Array(bytes.prefix(16))), type == "image/jpeg" || type == "image/png" else { return nil }
        cache.put(key, (bytes, type))
        return (bytes, type)
    }

    /// A bounded map of made copies: the least recently used go first once their bytes pass `limit`.
    final class Cache: @unchecked Sendable {
        private let lock = NSLock()
        private var entries: [String: (bytes: [UInt8], type: String)] = [:]
        private var order: [String] = []
        private var total = 0
        let limit: Int

        init(limit: Int) { self.limit = limit }

        func get(_ key: String) -> (bytes: [UInt8], type: String)? {
            lock.lock(); defer { lock.unlock() }
            guard let e = entries[key] else { return nil }
            order.removeAll { $0 == key }
            order.append(key)
            return e
        }

        func put(_ key: String, _ value: (bytes: [UInt8], type: String)) {
            lock.lock(); defer { lock.unlock() }
            guard value.bytes.count <= limit, entries[key] == nil else { return }
            entries[key] = value
            order.append(key)
            total += value.bytes.count
            while total > limit, let oldest = order.first {
                order.removeFirst()
                total -= entries.removeValue(forKey: oldest)?.bytes.count ?? 0
            }
        }

        var count: Int { lock.lock(); defer { lock.unlock() }; return entries.count }
        var bytes: Int { lock.lock(); defer { lock.unlock() }; return total }
    }
}

extension PetServer {
    /// `GET /records/ID/files/N/thumb`: file N's thumbnail (at most 320 pixels a side; a JPEG for a JPEG or HEIC
    /// photo, else a PNG); 404 for a file that is not an image. Without the helper, a type the browser shows
    /// is sent as it is (the page scales it), any other 404.
    func thumbnail(_ request: Request, _ context: ServeContext) throws -> Response {
        guard context.session != nil else { return notSignedIn(request, context) }
        guard let record = try pathRecord(context), let n = pathNumber(context, "n") else { return refusal(.notFound, .webNotFound, request, context) }
        let files = record.attachments.sorted { $0.position < $1.position }
        guard n <= Int64(files.count), files[Int(n - 1)].mediaType.lowercased().hasPrefix("image/") else { return refusal(.notFound, .webNotFound, request, context) }
        let a = files[Int(n - 1)]
        if let hit = Thumbnails.cache.get("\(a.sha256)/\(Thumbnails.side)") { return Self.image(hit.bytes, hit.type) }
        let scratch = ScratchDirectory()
        defer { scratch.remove() }
        guard let path = try store.run({ s in s.readableAttachment(sha256: a.sha256, scratch: { try scratch.path() }) }) else {
            return refusal(.notFound, .webNotFound, request, context)
        }
        if let made = Thumbnails.make(path: path, sha256: a.sha256, side: Thumbnails.side) { return Self.image(made.bytes, made.type) }
        let type = a.mediaType.lowercased()
        guard Self.inlineTypes.contains(type), !Thumbnails.heifTypes.contains(type), let data = FileManager.default.contents(atPath: path) else {
            return refusal(.notFound, .webNotFound, request, context)
        }
        return Self.image([UInt8](data), type)
    }

    /// A HEIC/HEIF photo as the browser is sent it at `GET /records/ID/files/N`: a JPEG rendering (at most 2048
    /// pixels a side); nil for another type, or when it cannot be made (the stored file is sent then).
    func browserRendering(_ a: Attachment, path: String) -> Response? {
        guard Thumbnails.heifTypes.contains(a.mediaType.lowercased()),
              let made = Thumbnails.make(path: path, sha256: a.sha256, side: Thumbnails.renderingSide) else { return nil }
        return Self.image(made.bytes, made.type)
    }

    static func image(_ bytes: [UInt8], _ type: String) -> Response {
        Response(status: .ok, headers: [.contentType: type, .cacheControl: "private, max-age=86400", .contentDisposition: "inline"],
                 body: .init(byteBuffer: ByteBuffer(bytes: bytes)))
    }
}
