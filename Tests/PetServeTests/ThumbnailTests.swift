import Foundation
import Hummingbird
import HummingbirdTesting
import PetModel
import PetStoreCore
import PetlogTestSupport
import XCTest
@testable import PetServe

/// The timeline's thumbnails, made by the server (`petlog-ocr --thumbnail`): a JPEG, a PNG and a HEIC photo (the
/// project's receipt fixtures; the HEIC made from one by libheif's heif-enc) give copies at most 320 pixels a side
/// in their shape, JPEG or PNG; a HEIC photo's full link is a JPEG rendering and its original a download; a file
/// that is not an image has none. On SQLite and PostgreSQL.
final class ThumbnailTests: ServeTestCase, @unchecked Sendable {
    override func setUpWithError() throws {
        try super.setUpWithError()
        store = try XCTUnwrap(try makeStoreKeepingFiles() as? SharedStore.Served)
        server = PetServer(store: SharedStore(store), settings: ServeSettings(timeZone: TimeZone(identifier: "UTC")!))
    }

    static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("OCRTests/Fixtures/receipts")

    /// Width and height from a PNG's IHDR or a JPEG's first start-of-frame.
    func size(_ b: [UInt8]) -> (Int, Int)? {
        if b.starts(with: [0x89, 0x50, 0x4E, 0x47]), b.count >= 24 {
            func be(_ i: Int) -> Int { b[i..<i + 4].reduce(0) { $0 << 8 | Int($1) } }
            return (be(16), be(20))
        }
        var i = 2
        while i + 9 < b.count, b[i] == 0xFF {
            let marker = b[i + 1], length = Int(b[i + 2]) << 8 | Int(b[i + 3])
            if [0xC0, 0xC1, 0xC2].contains(marker) { return (Int(b[i + 7]) << 8 | Int(b[i + 8]), Int(b[i + 5]) << 8 | Int(b[i + 6])) }
            i += 2 + length
        }
        return nil
    }

    func heic(from jpeg: String) throws -> String {
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/heif-enc") else { throw XCTSkip("heif-enc (libheif-examples) not installed") }
        let dir = NSTemporaryDirectory() + "petlog-thumb-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        let out = dir + "/IMG_0001.heic"
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/usr/bin/heif-enc")
        p.arguments = ["-q", "60", "-o", out, jpeg]
        p.standardOutput = FileHandle.nullDevice
        p.standardError = FileHandle.nullDevice
        try p.run()
        p.waitUntilExit()
        XCTAssertEqual(p.terminationStatus, 0)
        return out
    }

    func testAJPEGAPNGAndAHEICPhotoGetThumbnailsOfTheRightSizeAndTypeAndAFileNoneOfAnImageNone() async throws {
        _ = try store.addAccount(name: "mina", role: .family, passwordHash: Self.hash)
        let coco = try addPet("Coco")
        let jpeg = Self.fixtures.appendingPathComponent("en-01.jpg").path
        let png = Self.fixtures.appendingPathComponent("blank.png").path
        let heif = try heic(from: jpeg)
        let text = NSTemporaryDirectory() + "petlog-thumb-\(UUID().uuidString).txt"
        FileManager.default.createFile(atPath: text, contents: Data("lab results\n".utf8))
        let ago = Date(timeIntervalSinceNow: -86_400)
        let diary = try XCTUnwrap(try store.addRecord(pets: [.id(coco.id)], RecordDraft(at: ago, utcOffset: 0, detail: .diary(Diary(text: "photos")),
                                                                                          attachmentPaths: [jpeg, png, heif])).first)
        let visit = try XCTUnwrap(try store.addRecord(pets: [.id(coco.id)], RecordDraft(at: ago, utcOffset: 0, detail: .visit(Visit(clinic: "Happy")),
                                                                                          attachmentPaths: [text])).first)
        let types = diary.attachments.sorted { $0.position < $1.position }.map(\.mediaType)
        XCTAssertEqual(types, ["image/jpeg", "image/png", "image/heic"])
        try await Application(router: server.router()).test(.router) { client in
            let mina = try await self.signIn(client, "mina")
            func get(_ uri: String) async throws -> TestResponse { try await client.execute(uri: uri, method: .get, headers: self.headers(cookie: mina.cookie)) }
            // The pages show the server's thumbnails, the HEIC one too; the text file has none.
            let timeline = String(buffer: try await get("/pets/\(coco.id)").body)
            for n in 1...3 { XCTAssertTrue(timeline.contains("src=\"/records/\(diary.id)/files/\(n)/thumb\""), "thumbnail \(n)") }
            XCTAssertFalse(timeline.contains("/records/\(visit.id)/files/1"), "no thumbnail for a text file")
            let page = String(buffer: try await get("/records/\(diary.id)").body)
            XCTAssertTrue(page.contains("src=\"/records/\(diary.id)/files/3/thumb\"") && page.contains("href=\"/records/\(diary.id)/files/3/original\""))

            for (n, original, type) in [(1, (945, 982), "image/jpeg"), (2, (600, 800), "image/png"), (3, (945, 982), "image/jpeg")] {
                let r = try await get("/records/\(diary.id)/files/\(n)/thumb")
                XCTAssertEqual(r.status, .ok, "\(n)")
                XCTAssertEqual(r.headers[.contentType], type, "\(n)")
                let bytes = Array(buffer: r.body)
                XCTAssertEqual(MediaSniffer.imageType(Array(bytes.prefix(16))), type, "\(n): the bytes are what the type says")
                let (w, h) = try XCTUnwrap(self.size(bytes), "\(n)")
                XCTAssertEqual(max(w, h), Thumbnails.side, "\(n): \(w)×\(h)")
                XCTAssertEqual(Double(w) / Double(h), Double(original.0) / Double(original.1), accuracy: 0.01, "\(n): its shape")
                XCTAssertLessThan(bytes.count, 60_000, "\(n): a small copy")
            }
            let none = try await get("/records/\(visit.id)/files/1/thumb")
            XCTAssertEqual(none.status, .notFound, "a file that is not an image has no thumbnail")
            for bad in ["/records/\(diary.id)/files/4/thumb", "/records/\(diary.id)/files/0/thumb", "/records/%2e%2e/files/1/thumb"] {
                let r = try await get(bad)
                XCTAssertEqual(r.status, .notFound, bad)
            }

            // The HEIC photo's full link: a JPEG a browser shows, full size here (under 2048); its original a download.
            let full = try await get("/records/\(diary.id)/files/3")
            XCTAssertEqual(full.headers[.contentType], "image/jpeg")
            XCTAssertEqual(self.size(Array(buffer: full.body)).map { [$0.0, $0.1] }, [945, 982])
            let original = try await get("/records/\(diary.id)/files/3/original")
            XCTAssertEqual(original.headers[.contentType], "image/heic")
            XCTAssertTrue(original.headers[.contentDisposition]?.hasPrefix("attachment;") ?? false)
            XCTAssertEqual(Array(buffer: original.body), [UInt8](try Data(contentsOf: URL(fileURLWithPath: heif))), "the stored file as it is")
            // A JPEG's full link is the photo itself.
            let jpegFull = try await get("/records/\(diary.id)/files/1")
            XCTAssertEqual(Array(buffer: jpegFull.body), [UInt8](try Data(contentsOf: URL(fileURLWithPath: jpeg))))
            // Signed out: nothing.
            let anonymous = try await client.execute(uri: "/records/\(diary.id)/files/1/thumb", method: .get, headers: self.headers())
            XCTAssertNotEqual(anonymous.status, .ok)
        }
        XCTAssertNotNil(Thumbnails.cache.get("\(diary.attachments[0].sha256)/\(Thumbnails.side)"), "kept in memory")
    }

    /// The cache keeps at most its limit in bytes, the least recently used going first.
    func testTheCacheIsBounded() {
        let cache = Thumbnails.Cache(limit: 1000)
        cache.put("a", ([UInt8](repeating: 1, count: 400), "image/png"))
        cache.put("b", ([UInt8](repeating: 2, count: 400), "image/png"))
        _ = cache.get("a")
        cache.put("c", ([UInt8](repeating: 3, count: 400), "image/png"))
        XCTAssertEqual(cache.count, 2)
        XCTAssertLessThanOrEqual(cache.bytes, 1000)
        XCTAssertNil(cache.get("b"), "the least recently used went")
        XCTAssertNotNil(cache.get("a"))
        cache.put("huge", ([UInt8](repeating: 4, count: 2000), "image/png"))
        XCTAssertNil(cache.get("huge"), "larger than the whole bound: not kept")
    }
}
