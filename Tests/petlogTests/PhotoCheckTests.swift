import Foundation
import XCTest
import PetlogTestSupport

/// `--photo` takes images and `--receipt` images or PDFs, judged by content; `--attach` takes any file.
final class PhotoCheckTests: CLITestCase {
    func file(_ name: String, _ bytes: [UInt8]) throws -> String {
        let url = home.appendingPathComponent(name)
        try Data(bytes).write(to: url)
        return url.path
    }

    func testPhotosAndReceiptsAreCheckedByContent() throws {
        try ok("pet", "add", "Coco", "--species", "dog")
        let fakeJPEG = try file("rash.jpg", Array("not really a photo\n".utf8))
        let png = try file("rash.dat", [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52])
        let pdf = try file("scan.bin", Array("%PDF-1.7\n%\u{e2}\u{e3}\n".utf8))
        try expectRefused(["diary", "Coco", "rash", "--photo", png, "--photo", fakeJPEG], code: 65, mentions: "rash.jpg")
        try expectRefused(["--lang", "ko", "diary", "Coco", "rash", "--photo", pdf], code: 65, mentions: "scan.bin")
        try expectRefused(["expense", "Coco", "5000", "KRW", "--receipt", fakeJPEG], code: 65, mentions: "rash.jpg")
        let diary = try XCTUnwrap((try json("diary", "Coco", "rash", "--photo", png) as? [[String: Any]])?.first)
        XCTAssertEqual(((diary["attachments"] as? [[String: Any]])?.first)?["media_type"] as? String, "image/png")
        let receipt = try XCTUnwrap((try json("expense", "Coco", "5000", "KRW", "--receipt", pdf) as? [[String: Any]])?.first)
        XCTAssertEqual(((receipt["attachments"] as? [[String: Any]])?.first)?["media_type"] as? String, "application/pdf")
        // A visit takes any file; its type comes from its content, not its name.
        let visit = try XCTUnwrap((try json("visit", "Coco", "--attach", fakeJPEG) as? [[String: Any]])?.first)
        XCTAssertEqual(((visit["attachments"] as? [[String: Any]])?.first)?["media_type"] as? String, "application/octet-stream")
    }
}
