@testable import Cairo
import Foundation
import XCTest

/// Compares a rendered PNG with a golden file under Golden/, with a tolerance for font
/// rasterisation: at most `maxDifferingFraction` of the pixels may differ by more than
/// `channelTolerance` levels in some channel (0.5 % and 16 levels by default).
///
/// Regenerate every golden file with:
///
///     PETLOG_UPDATE_GOLDEN=1 swift test --filter PetChartsTests.GoldenImageTests
///
/// then look at the new files before committing them.
enum GoldenImage {
    static let directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Golden")
    static var updating: Bool { ProcessInfo.processInfo.environment["PETLOG_UPDATE_GOLDEN"] == "1" }

    static func assertMatches(_ renderedPath: String, golden name: String, channelTolerance: UInt32 = 16,
                              maxDifferingFraction: Double = 0.005, file: StaticString = #filePath, line: UInt = #line) throws {
        let golden = directory.appendingPathComponent(name)
        if updating {
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            if FileManager.default.fileExists(atPath: golden.path) { try FileManager.default.removeItem(at: golden) }
            try FileManager.default.copyItem(atPath: renderedPath, toPath: golden.path)
            return
        }
        guard FileManager.default.fileExists(atPath: golden.path) else {
            XCTFail("missing golden \(name); run PETLOG_UPDATE_GOLDEN=1 swift test --filter GoldenImageTests", file: file, line: line)
            return
        }
        let expected = try Surface.image(readingPNG: golden.path)
        let actual = try Surface.image(readingPNG: renderedPath)
        guard let fraction = try expected.fractionOfPixelsDiffering(from: actual, channelTolerance: channelTolerance) else {
            XCTFail("\(name): size \(actual.pixelWidth)×\(actual.pixelHeight), golden \(expected.pixelWidth)×\(expected.pixelHeight)",
                    file: file, line: line)
            return
        }
        if fraction > maxDifferingFraction {
            let kept = FileManager.default.temporaryDirectory.appendingPathComponent("actual-\(name)")
            try? FileManager.default.removeItem(at: kept)
            try? FileManager.default.copyItem(atPath: renderedPath, toPath: kept.path)
            XCTFail(String(format: "%@: %.3f %% of pixels differ by more than %u levels (allowed %.3f %%); actual kept at %@",
                           name, fraction * 100, channelTolerance, maxDifferingFraction * 100, kept.path),
                    file: file, line: line)
        }
    }
}
