import Foundation
import XCTest
import PetlogTestSupport

/// `pet edit --photo FILE` / `--no-photo` (the profile photo: `pet show`, the vet report's header, the
/// emergency card's front, `undo`) and `user feed-reset`, end to end on both stores.
final class PetPhotoCommandTests: CLITestCase {
    /// A small RGB PNG made here (no fixture): `size`×`size` pixels of one colour.
    static func png(_ size: Int) -> Data {
        func chunk(_ type: String, _ data: [UInt8]) -> [UInt8] {
            let body = Array(type.utf8) + data
            return withUnsafeBytes(of: UInt32(data.count).bigEndian, Array.init) + body + withUnsafeBytes(of: crc32(body).bigEndian, Array.init)
        }
        let header = withUnsafeBytes(of: UInt32(size).bigEndian, Array.init) + withUnsafeBytes(of: UInt32(size).bigEndian, Array.init) + [8, 2, 0, 0, 0]
        var raw: [UInt8] = []
        for _ in 0..<size { raw.append(0); for _ in 0..<size { raw += [200, 120, 40] } }
        // Stored (uncompressed) deflate blocks inside a zlib stream.
        var z: [UInt8] = [0x78, 0x01]
        var i = 0
        repeat {
            let n = min(65_535, raw.count - i)
            z.append(i + n == raw.count ? 1 : 0)
            z += [UInt8(n & 0xFF), UInt8(n >> 8), UInt8(~n & 0xFF), UInt8((~n >> 8) & 0xFF)]
            z += raw[i..<(i + n)]
            i += n
        } while i < raw.count
        var a: UInt32 = 1, b: UInt32 = 0
        for byte in raw { a = (a + UInt32(byte)) % 65_521; b = (b + a) % 65_521 }
        z += withUnsafeBytes(of: ((b << 16) | a).bigEndian, Array.init)
        return Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + chunk("IHDR", header) + chunk("IDAT", z) + chunk("IEND", []))
    }

    static func crc32(_ bytes: [UInt8]) -> UInt32 {
        var c: UInt32 = 0xFFFF_FFFF
        for byte in bytes {
            c ^= UInt32(byte)
            for _ in 0..<8 { c = (c & 1) == 1 ? (c >> 1) ^ 0xEDB8_8320 : c >> 1 }
        }
        return ~c
    }

    func file(_ name: String, _ data: Data) throws -> String {
        let path = home.appendingPathComponent(name).path
        try data.write(to: URL(fileURLWithPath: path))
        return path
    }

    /// The images a PDF embeds (pdfimages -list: two header lines, then one line an image).
    func images(_ pdf: String) throws -> Int {
        try tool("pdfimages", ["-list", pdf]).split(separator: "\n").count - 2
    }

    func testProfilePhotoIsSetShownDrawnUndoneAndRemoved() throws {
        try ok("pet", "add", "Coco", "--species", "dog")
        let photo = try file("coco.png", Self.png(64))
        XCTAssertFalse(try ok("pet", "show", "Coco").contains("Photo"), "no photo yet")
        let report0 = home.appendingPathComponent("r0.pdf").path, card0 = home.appendingPathComponent("c0.pdf").path
        try ok("report", "Coco", "-o", report0)
        try ok("card", "Coco", "-o", card0)

        XCTAssertTrue(try ok("pet", "edit", "Coco", "--photo", photo).contains("Coco"))
        XCTAssertTrue(try ok("pet", "show", "Coco").contains("image/png"), "pet show says it has one")
        // The report's header and the card's front draw it: one image more than without.
        let report = home.appendingPathComponent("r.pdf").path, card = home.appendingPathComponent("c.pdf").path
        try ok("report", "Coco", "-o", report)
        try ok("card", "Coco", "-o", card)
        XCTAssertEqual(try images(report), try images(report0) + 1)
        XCTAssertEqual(try images(card), try images(card0) + 1)
        XCTAssertEqual(try tool("pdfimages", ["-list", card]).split(separator: "\n").dropFirst(2).first?.split(separator: " ").dropFirst(3).first, "64",
                       "the card's photo is the 64-pixel image")

        // One `undo` step: the photo goes again.
        XCTAssertTrue(try ok("undo", "--list").contains("--photo"))
        try ok("undo")
        XCTAssertFalse(try ok("pet", "show", "Coco").contains("image/png"))
        try ok("pet", "edit", "Coco", "--photo", photo, "--name", "Coco")
        XCTAssertTrue(try ok("pet", "show", "Coco").contains("image/png"))
        try ok("pet", "edit", "Coco", "--no-photo")
        XCTAssertFalse(try ok("pet", "show", "Coco").contains("image/png"))
        try ok("card", "Coco", "-o", card)
        XCTAssertEqual(try images(card), try images(card0))
    }

    func testABadPhotoIsRefusedAndChangesNothing() throws {
        try ok("pet", "add", "Coco", "--species", "dog")
        let photo = try file("coco.png", Self.png(8))
        let script = try file("evil.jpg", Data("#!/bin/sh\necho hi\n".utf8))
        try expectRefused(["pet", "edit", "Coco", "--photo", script], code: 65, mentions: "not an image")
        try expectRefused(["pet", "edit", "Coco", "--photo", photo, "--no-photo"], code: 64, mentions: "--no-photo")
        // Over 25 MiB: a PNG's header and a sparse rest.
        let big = home.appendingPathComponent("big.png").path
        FileManager.default.createFile(atPath: big, contents: Self.png(8))
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: big))
        try handle.truncate(atOffset: 26 * 1_048_576)
        try handle.close()
        try expectRefused(["pet", "edit", "Coco", "--photo", big], code: 65, mentions: "25 MiB")
        try expectRefused(["pet", "edit", "Nobody", "--photo", photo], code: 66, mentions: "Nobody")
        XCTAssertFalse(try ok("pet", "show", "Coco").contains("Photo"))
        let ko = try run(["--lang", "ko", "pet", "edit", "Coco", "--photo", big])
        XCTAssertTrue(ko.stderr.contains("프로필 사진"), ko.stderr)
    }

    func testFeedResetPrintsANewPathEachTime() throws {
        XCTAssertEqual(try run(["user", "add", "Mina", "--role", "owner", "--password-stdin"], stdin: "correct horse battery\n").status, 0)
        let first = try run(["user", "feed-reset", "mina"])
        XCTAssertEqual(first.status, 0, first.stderr)
        let pattern = #"^/feeds/[0-9a-f]{64}\.ics\n$"#
        XCTAssertNotNil(first.stdout.range(of: pattern, options: .regularExpression), first.stdout)
        XCTAssertTrue(first.stderr.contains("Mina"), first.stderr)
        let second = try ok("user", "feed-reset", "Mina")
        XCTAssertNotEqual(second, first.stdout, "a new token each time")
        XCTAssertNotNil(second.range(of: pattern, options: .regularExpression))
        let json = try XCTUnwrap(try json("user", "feed-reset", "Mina") as? [String: Any])
        XCTAssertEqual(json["name"] as? String, "Mina")
        XCTAssertTrue((json["path"] as? String)?.hasPrefix("/feeds/") == true)
        checkRefusal(try run(["user", "feed-reset", "nobody"]), code: 66, mentions: "nobody", "an unknown account")
    }
}
