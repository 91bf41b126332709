import Foundation
import XCTest

@testable import OCR

/// The header reader decides what is refused before decoding, so it is tested on forged bytes.
final class ImageHeaderTests: XCTestCase {
    static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures/receipts")

    /// An APP1 payload whose IFD0 holds Orientation = `value`, in either byte order.
    static func exif(_ value: UInt16, littleEndian: Bool = true, type: UInt16 = 3) -> [UInt8] {
        func u16(_ v: UInt16) -> [UInt8] { littleEndian ? [UInt8(v & 0xFF), UInt8(v >> 8)] : [UInt8(v >> 8), UInt8(v & 0xFF)] }
        func u32(_ v: UInt32) -> [UInt8] { littleEndian ? u16(UInt16(v & 0xFFFF)) + u16(UInt16(v >> 16)) : u16(UInt16(v >> 16)) + u16(UInt16(v & 0xFFFF)) }
        let order: [UInt8] = littleEndian ? [0x49, 0x49] : [0x4D, 0x4D]
        // IFD0 with a first unrelated tag (ImageWidth) so the parser has to walk entries.
        let entries = u16(0x0100) + u16(4) + u32(1) + u32(640) + u16(0x0112) + u16(type) + u32(1) + u16(value) + [0, 0]
        return Array("Exif".utf8) + [0, 0] + order + u16(42) + u32(8) + u16(2) + entries + u32(0)
    }

    /// A JPEG made of SOI, an APP1 with `exif`, and a baseline frame header of `width`×`height`.
    static func jpeg(width: Int, height: Int, exif: [UInt8]? = nil) -> [UInt8] {
        var bytes: [UInt8] = [0xFF, 0xD8]
        if let exif { bytes += [0xFF, 0xE1, UInt8((exif.count + 2) >> 8), UInt8((exif.count + 2) & 0xFF)] + exif }
        bytes += [0xFF, 0xC0, 0x00, 0x0B, 0x08, UInt8(height >> 8), UInt8(height & 0xFF), UInt8(width >> 8), UInt8(width & 0xFF), 0x01, 0x01, 0x11, 0x00]
        return bytes + [0xFF, 0xD9]
    }

    func testSniffsTheFormatsByTheirSignatures() {
        XCTAssertEqual(ImageFormat.sniff([0xFF, 0xD8, 0xFF, 0xE0]), .jpeg)
        XCTAssertEqual(ImageFormat.sniff([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0]), .png)
        XCTAssertEqual(ImageFormat.sniff(Array("II*\0".utf8)), .tiff)
        XCTAssertEqual(ImageFormat.sniff(Array("RIFF\u{1}\0\0\0WEBPVP8 ".utf8)), .webp)
        XCTAssertEqual(ImageFormat.sniff([0, 0, 0, 0x18] + Array("ftypheic\0\0\0\0".utf8)), .heif)
        XCTAssertNil(ImageFormat.sniff(Array("date,total\n2026-11-20,12000\n".utf8)))
        XCTAssertNil(ImageFormat.sniff([]))
        XCTAssertNil(ImageFormat.sniff([0xFF, 0xD8]))
    }

    func testReadsJPEGSizeAndOrientationWithoutDecoding() {
        XCTAssertEqual(ImageHeader.jpeg(Self.jpeg(width: 4000, height: 3000)), ImageHeader(width: 4000, height: 3000))
        XCTAssertEqual(ImageHeader.jpeg(Self.jpeg(width: 640, height: 480, exif: Self.exif(6))), ImageHeader(width: 640, height: 480, orientation: .right))
        XCTAssertEqual(ImageHeader.jpeg(Self.jpeg(width: 640, height: 480, exif: Self.exif(8, littleEndian: false)))?.orientation, .left)
    }

    func testAFixtureHeaderMatchesItsRealSize() throws {
        let bytes = try [UInt8](Data(contentsOf: Self.fixtures.appendingPathComponent("exif-6.jpg")))
        let header = try XCTUnwrap(ImageHeader.jpeg(bytes))
        XCTAssertEqual(header.orientation, .right)
        XCTAssertGreaterThan(header.width, header.height, "stored on its side")
    }

    func testBrokenHeadersAreNil() {
        let whole = Self.jpeg(width: 100, height: 100)
        for cut in [2, 4, 6, 10] { XCTAssertNil(ImageHeader.jpeg(Array(whole.prefix(cut))), "cut at \(cut)") }
        XCTAssertNil(ImageHeader.jpeg([0xFF, 0xD8, 0xFF, 0xDA, 0x00, 0x02]), "scan before a frame")
        XCTAssertNil(ImageHeader.jpeg([0xFF, 0xD8, 0xFF, 0xE0, 0x00, 0x01]), "length below 2")
        XCTAssertNil(ImageHeader.jpeg([0xFF, 0xD8, 0x00, 0x00, 0x00, 0x00]), "no marker")
        XCTAssertNil(ImageHeader.png([0x89, 0x50, 0x4E, 0x47]))
    }

    func testACutJPEGIsIncomplete() throws {
        let whole = try [UInt8](Data(contentsOf: Self.fixtures.appendingPathComponent("en-01.jpg")))
        XCTAssertTrue(ImageHeader.jpegIsComplete(whole))
        XCTAssertTrue(ImageHeader.jpegIsComplete(whole + Array("trailer".utf8)), "bytes after the end marker are tolerated")
        for fraction in [0.3, 0.6, 0.99] {
            XCTAssertFalse(ImageHeader.jpegIsComplete(Array(whole.prefix(Int(Double(whole.count) * fraction)))), "cut at \(fraction)")
        }
        XCTAssertFalse(ImageHeader.jpegIsComplete(Self.jpeg(width: 10, height: 10)), "no scan at all")
        XCTAssertFalse(ImageHeader.jpegIsComplete([0xFF, 0xD8]))
    }

    func testExifOrientationEdgeCases() {
        for value in 1...8 { XCTAssertEqual(ExifOrientation.inAPP1(Self.exif(UInt16(value)))?.rawValue, value) }
        XCTAssertNil(ExifOrientation.inAPP1(Self.exif(9)), "out of range")
        XCTAssertNil(ExifOrientation.inAPP1(Self.exif(6, type: 4)), "not a SHORT")
        XCTAssertNil(ExifOrientation.inAPP1(Array(Self.exif(6).prefix(30))), "truncated inside the IFD")
        XCTAssertNil(ExifOrientation.inAPP1(Array("XMP\0\0\0http://ns.adobe.com".utf8)), "not EXIF")
        var badOffset = Self.exif(6)
        badOffset[10...13] = [0xFF, 0xFF, 0xFF, 0x7F]  // IFD0 offset far past the end
        XCTAssertNil(ExifOrientation.inAPP1(badOffset))
    }

    func testPNGSize() {
        let png: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0, 13] + Array("IHDR".utf8) + [0, 0, 0x1F, 0x40, 0, 0, 0x17, 0x70, 8, 0, 0, 0, 0]
        XCTAssertEqual(ImageHeader.png(png), ImageHeader(width: 8000, height: 6000))
    }

    /// Seeded byte flips and cuts of a real JPEG with EXIF: the readers return or say nil, never trap.
    func testMangledHeadersNeverTrap() throws {
        let receipt = try [UInt8](Data(contentsOf: Self.fixtures.appendingPathComponent("exif-6.jpg")).prefix(4096))
        var state: UInt64 = 20261120
        func next(_ bound: Int) -> Int {  // xorshift: the same inputs every run
            state ^= state << 13; state ^= state >> 7; state ^= state << 17
            return Int(state % UInt64(bound))
        }
        var parsed = 0
        for _ in 0..<3000 {
            var bytes = Array(receipt.prefix(next(receipt.count) + 1))
            for _ in 0..<next(6) where !bytes.isEmpty { bytes[next(bytes.count)] = UInt8(next(256)) }
            if ImageHeader.jpeg(bytes) != nil { parsed += 1 }
            _ = ImageHeader.jpegIsComplete(bytes)
            _ = ImageHeader.png(bytes)
            _ = ImageFormat.sniff(bytes)
            if bytes.count > 6 { _ = ExifOrientation.inAPP1(Array(bytes.dropFirst(6))) }
        }
        XCTAssertGreaterThan(parsed, 100, "the mutations should mostly keep a readable header")
    }
}
