import Foundation
import Hummingbird
import HummingbirdTesting
import XCTest
@testable import PetServe

/// The multipart reader (`Upload`): fields and files from a body cut into chunks anywhere, the 25 MB cap, a
/// body cut off before its end, hostile file names, the boundary; and nothing left on disk after a refusal.
final class UploadTests: XCTestCase {
    static let boundary = "----petlogBoundary7MA4YWxk"
    static let jpeg: [UInt8] = [0xFF, 0xD8, 0xFF, 0xE0, 0x00, 0x10] + Array("JFIF".utf8) + [0, 1, 2, 3, 0x0D, 0x0A, 0x2D, 0x2D]  // ends in "\r\n--": not a delimiter
    static let heic: [UInt8] = [0, 0, 0, 0x18] + Array("ftypheic".utf8) + Array(repeating: 7, count: 20)

    var directory: String!

    override func setUpWithError() throws {
        directory = NSTemporaryDirectory() + "petlog-upload-tests-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws { try? FileManager.default.removeItem(atPath: directory) }

    /// What the test's folder holds (uploads make their own folder in it).
    func leftovers() throws -> [String] { try FileManager.default.subpathsOfDirectory(atPath: directory) }

    enum Part { case field(String, String); case file(String, String, [UInt8]) }

    static func body(_ parts: [Part], boundary: String = boundary, close: Bool = true) -> [UInt8] {
        var out: [UInt8] = []
        for p in parts {
            out += Array("--\(boundary)\r\n".utf8)
            switch p {
            case .field(let name, let value):
                out += Array("Content-Disposition: form-data; name=\"\(name)\"\r\n\r\n\(value)\r\n".utf8)
            case .file(let name, let filename, let bytes):
                out += Array("Content-Disposition: form-data; name=\"\(name)\"; filename=\"\(filename)\"\r\nContent-Type: image/jpeg\r\n\r\n".utf8)
                out += bytes + Array("\r\n".utf8)
            }
        }
        if close { out += Array("--\(boundary)--\r\n".utf8) }
        return out
    }

    struct Chunks: AsyncSequence, Sendable {
        typealias Element = ByteBuffer
        let chunks: [ByteBuffer]
        init(_ bytes: [UInt8], size: Int) {
            let step = Swift.max(size, 1)
            chunks = stride(from: 0, to: bytes.count, by: step).map { ByteBuffer(bytes: bytes[$0..<Swift.min($0 + step, bytes.count)]) }
        }
        struct Iterator: AsyncIteratorProtocol {
            var rest: [ByteBuffer]
            mutating func next() async throws -> ByteBuffer? { rest.isEmpty ? nil : rest.removeFirst() }
        }
        func makeAsyncIterator() -> Iterator { Iterator(rest: chunks) }
    }

    func read(_ bytes: [UInt8], size: Int = 1 << 20, limit: Int = Upload.fileLimit, contentType: String? = nil) async throws -> Upload {
        try await Upload.read(Chunks(bytes, size: size), contentType: contentType ?? "multipart/form-data; boundary=\(Self.boundary)",
                              limit: limit, directory: directory)
    }

    func failure(_ body: () async throws -> Upload) async -> Upload.Failure? {
        do { _ = try await body(); return nil } catch { return error as? Upload.Failure }
    }

    // MARK: Tests

    func testFieldsAndFilesWhateverTheChunks() async throws {
        let body = Self.body([.field("csrf", "abc"), .field("note", "목욕 발톱 ジステンパー\r\nline two"),
                              .file("photo", "coco.jpg", Self.jpeg), .file("photo", "IMG_0001.HEIC", Self.heic), .file("attach", "", [])])
        for size in [1, 2, 3, 5, 7, 13, 31, 64, body.count] {
            let upload = try await read(body, size: size)
            XCTAssertEqual(upload.fields, ["csrf": "abc", "note": "목욕 발톱 ジステンパー\r\nline two"], "chunks of \(size)")
            XCTAssertEqual(upload.files.map(\.filename), ["coco.jpg", "IMG_0001.HEIC"], "an empty file input sends no file")
            XCTAssertEqual(upload.files(named: "photo").count, 2)
            let photo = upload.files[0]
            XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: photo.path)), Data(Self.jpeg), "chunks of \(size)")
            XCTAssertEqual(photo.size, Self.jpeg.count)
            XCTAssertEqual(photo.imageType, "image/jpeg")
            XCTAssertEqual(upload.files[1].imageType, "image/heic")
            XCTAssertTrue(photo.path.hasPrefix(directory))
            upload.discard()
            XCTAssertFalse(FileManager.default.fileExists(atPath: photo.path))
            XCTAssertEqual(try leftovers(), [], "discard removes the upload's folder")
        }
    }

    func testTheFilesGoWithTheUpload() async throws {
        var upload: Upload? = try await read(Self.body([.file("photo", "a.jpg", Self.jpeg)]))
        let path = try XCTUnwrap(upload?.files.first?.path)
        XCTAssertTrue(FileManager.default.fileExists(atPath: path))
        upload = nil
        XCTAssertEqual(try leftovers(), [])
    }

    func testAFileOverTheCapIsRefusedAndNothingIsLeft() async throws {
        let limit = 25 * 1024 * 1024
        let big = Self.jpeg + Array(repeating: UInt8(0x41), count: 26 * 1024 * 1024)
        let body = Self.body([.field("csrf", "abc"), .file("photo", "big.jpg", big)])
        let f = await failure { try await self.read(body, size: 64 * 1024, limit: limit) }
        XCTAssertEqual(f, .tooLarge)
        XCTAssertEqual(f?.status, .contentTooLarge)
        XCTAssertEqual(try leftovers(), [], "no chunk of the big file is left")
        // Exactly the cap passes.
        let exact = Self.jpeg + Array(repeating: UInt8(0x41), count: 1000 - Self.jpeg.count)
        let upload = try await read(Self.body([.file("photo", "ok.jpg", exact)]), size: 100, limit: 1000)
        XCTAssertEqual(upload.files.first?.size, 1000)
        let over = await failure { try await self.read(Self.body([.file("photo", "no.jpg", exact + [0])]), size: 100, limit: 1000) }
        XCTAssertEqual(over, .tooLarge)
    }

    func testABodyCutOffAnywhereLeavesNothing() async throws {
        let body = Self.body([.field("csrf", "abc"), .file("photo", "coco.jpg", Self.jpeg + Array(repeating: 9, count: 300))])
        for cut in 0..<body.count - "--\r\n".count {
            let f = await failure { try await self.read(Array(body[0..<cut]), size: 17) }
            XCTAssertEqual(f, .malformed, "cut at \(cut)")
        }
        XCTAssertEqual(try leftovers(), [], "no file and no chunk of one")
    }

    func testMalformedBodiesAndBoundaries() async throws {
        let good = Self.body([.field("a", "1")])
        for contentType in ["application/x-www-form-urlencoded", "multipart/form-data", "multipart/form-data; boundary=",
                            "multipart/mixed; boundary=\(Self.boundary)", "multipart/form-data; boundary=\(String(repeating: "x", count: 71))"] {
            let f = await failure { try await self.read(good, contentType: contentType) }
            XCTAssertEqual(f, .notMultipart, contentType)
        }
        XCTAssertEqual(Upload.boundary("Multipart/Form-Data; charset=utf-8; Boundary=\"a b:c\""), "a b:c")
        let noName = Array("--\(Self.boundary)\r\nContent-Disposition: form-data\r\n\r\nx\r\n--\(Self.boundary)--\r\n".utf8)
        let noHeaders = Array("--\(Self.boundary)\r\n\r\nx\r\n--\(Self.boundary)--\r\n".utf8)
        let badUTF8 = Array("--\(Self.boundary)\r\nContent-Disposition: form-data; name=\"a\"\r\n\r\n".utf8) + [0xC3, 0x28]
            + Array("\r\n--\(Self.boundary)--\r\n".utf8)
        let otherBoundary = Self.body([.field("a", "1")], boundary: "other")
        let hugeHeader = Array("--\(Self.boundary)\r\nX: \(String(repeating: "h", count: 9000))\r\n".utf8)
        for body in [noName, noHeaders, badUTF8, otherBoundary, hugeHeader, Array("garbage".utf8)] {
            let f = await failure { try await self.read(body, size: 10) }
            XCTAssertEqual(f, .malformed, String(decoding: body.prefix(80), as: UTF8.self))
        }
        let manyFiles = Self.body((0...Upload.maxFiles).map { .file("photo", "\($0).jpg", Self.jpeg) })
        let many = await failure { try await self.read(manyFiles) }
        XCTAssertEqual(many, .tooLarge)
        let bigField = Self.body([.field("note", String(repeating: "n", count: 65 * 1024))])
        let field = await failure { try await self.read(bigField) }
        XCTAssertEqual(field, .tooLarge)
        XCTAssertEqual(try leftovers(), [])
    }

    func testAScriptNamedJpgIsNoImage() async throws {
        let script = Array("#!/bin/sh\nrm -rf ~\n".utf8)
        let upload = try await read(Self.body([.file("photo", "cute.jpg", script), .file("attach", "report.pdf", Array("%PDF-1.7\n".utf8))]))
        XCTAssertNil(upload.files[0].imageType, "the type is read from the content, never the name")
        XCTAssertFalse(upload.files[0].isPDF)
        XCTAssertTrue(upload.files[1].isPDF)
    }

    func testFileNamesStayInTheUploadsFolder() async throws {
        XCTAssertEqual(Upload.cleanName("../../etc/passwd"), "passwd")
        XCTAssertEqual(Upload.cleanName("C:\\Users\\mina\\coco.jpg"), "coco.jpg")
        XCTAssertEqual(Upload.cleanName(".."), "upload")
        XCTAssertEqual(Upload.cleanName(".bashrc"), "bashrc")
        XCTAssertEqual(Upload.cleanName("a\u{202E}gpj.exe"), "agpj.exe")
        XCTAssertEqual(Upload.cleanName(""), "upload")
        XCTAssertEqual(Upload.cleanName("사진 1.jpg"), "사진 1.jpg")
        let upload = try await read(Self.body([.file("photo", "../../x\\\"y.jpg", Self.jpeg)]))
        XCTAssertEqual(upload.files.first?.filename, "x\"y.jpg", "a quoted name's escape read, the folders dropped")
        XCTAssertTrue(try XCTUnwrap(upload.files.first?.path).hasPrefix(directory + "/petlog-upload-"))
    }

    /// Through Hummingbird's request: the router test client sends the body; `Upload.read(request)` reads it.
    func testReadsARequest() async throws {
        let router = Router()
        router.post("/up") { request, _ -> String in
            let upload = try await Upload.read(request)
            defer { upload.discard() }
            return "\(upload.fields["csrf"] ?? "-") \(upload.files.map { "\($0.filename):\($0.size):\($0.imageType ?? "-")" }.joined(separator: ","))"
        }
        let app = Application(router: router)
        try await app.test(.router) { client in
            let r = try await client.execute(uri: "/up", method: .post,
                                             headers: [.contentType: "multipart/form-data; boundary=\(Self.boundary)"],
                                             body: ByteBuffer(bytes: Self.body([.field("csrf", "t0k"), .file("photo", "p.heic", Self.heic)])))
            XCTAssertEqual(String(buffer: r.body), "t0k p.heic:\(Self.heic.count):image/heic")
        }
    }
}
