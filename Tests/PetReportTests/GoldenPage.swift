import Cairo
import Foundation
import XCTest

/// Compares a page rasterised by `pdftoppm` with a golden PNG under Golden/, with a tolerance for
/// font rasterisation: at most `maxDifferingFraction` of the pixels may differ by more than
/// `channelTolerance` levels in some channel (0.5 % and 16 levels by default).
///
/// Regenerate with `PETLOG_UPDATE_GOLDEN=1 swift test --filter PetReportTests.GoldenPageTests`,
/// then look at the new files before committing them.
enum GoldenPage {
    static let directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Golden")
    static var updating: Bool { ProcessInfo.processInfo.environment["PETLOG_UPDATE_GOLDEN"] == "1" }

    /// Pixels differing beyond the tolerance, or nil when the sizes differ.
    static func differingFraction(_ a: Surface, _ b: Surface, channelTolerance: UInt32) throws -> Double? {
        guard a.pixelWidth == b.pixelWidth, a.pixelHeight == b.pixelHeight else { return nil }
        let pa = try a.argbPixels(), pb = try b.argbPixels()
        var differing = 0
        for (x, y) in zip(pa, pb) where x != y {
            for shift in stride(from: 0, through: 24, by: 8) {
                let u = (x >> UInt32(shift)) & 0xFF, v = (y >> UInt32(shift)) & 0xFF
                if (u > v ? u - v : v - u) > channelTolerance { differing += 1; break }
            }
        }
        return Double(differing) / Double(max(1, pa.count))
    }

    static func assertMatches(_ renderedPNG: String, golden name: String, channelTolerance: UInt32 = 16,
                              maxDifferingFraction: Double = 0.005, file: StaticString = #filePath,
                              line: UInt = #line) throws {
        let golden = directory.appendingPathComponent(name)
        if updating {
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            try? FileManager.default.removeItem(at: golden)
            try FileManager.default.copyItem(atPath: renderedPNG, toPath: golden.path)
            return
        }
        guard FileManager.default.fileExists(atPath: golden.path) else {
            XCTFail("missing golden \(name); run PETLOG_UPDATE_GOLDEN=1 swift test --filter PetReportTests.GoldenPageTests",
                    file: file, line: line)
            return
        }
        let expected = try Surface.image(readingPNG: golden.path)
        let actual = try Surface.image(readingPNG: renderedPNG)
        guard let fraction = try differingFraction(expected, actual, channelTolerance: channelTolerance) else {
            XCTFail("\(name): size \(actual.pixelWidth)×\(actual.pixelHeight), golden \(expected.pixelWidth)×\(expected.pixelHeight)",
                    file: file, line: line)
            return
        }
        if fraction > maxDifferingFraction {
            let kept = FileManager.default.temporaryDirectory.appendingPathComponent("actual-\(name)")
            try? FileManager.default.removeItem(at: kept)
            try? FileManager.default.copyItem(atPath: renderedPNG, toPath: kept.path)
            XCTFail(String(format: "%@: %.3f %% of pixels differ by more than %u levels (allowed %.3f %%); actual kept at %@",
                           name, fraction * 100, channelTolerance, maxDifferingFraction * 100, kept.path),
                    file: file, line: line)
        }
    }
}
