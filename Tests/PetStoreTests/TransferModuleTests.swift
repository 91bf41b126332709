import Foundation
import XCTest
import PetlogTestSupport

/// The transfer formats are `PetTransfer`'s, above the core (issue 43, step 3): the core neither depends on
/// that target nor holds a reader of its own again, so a format is changed in one place and the store
/// is built without it.
final class TransferModuleTests: XCTestCase {
    /// The types `PetTransfer` holds: `petlog import`'s readers, the FHIR bundle and the expense sheet.
    static let formats = ["ImportReader", "ImportOptions", "PetlogJSONReader", "JSONScanner", "PetlogCSVReader", "SpreadsheetTables",
                          "ScaleCSVReader", "JSONRecordReading", "CSVReader", "LocalTimeConverter", "FHIRBundle", "ExpenseSheet"]

    func sources(_ target: String) throws -> [(name: String, text: String)] {
        let folder = TestServer.repoRoot.appendingPathComponent("Sources").appendingPathComponent(target)
        var out: [(String, String)] = []
        for case let url as URL in FileManager.default.enumerator(at: folder, includingPropertiesForKeys: nil)! where url.pathExtension == "swift" {
            out.append((url.lastPathComponent, try String(contentsOf: url, encoding: .utf8)))
        }
        return out
    }

    func testTheCoreHoldsNoFormatAndDoesNotImportThem() throws {
        let core = try sources("PetStoreCore")
        XCTAssertGreaterThan(core.count, 20)
        let declaration = try NSRegularExpression(pattern: #"(?m)^\s*(?:public |package |private |fileprivate )?(?:final )?(?:struct|enum|class) (\w+)"#)
        for (name, text) in core {
            XCTAssertFalse(text.contains("import PetTransfer"), name)
            for m in declaration.matches(in: text, range: NSRange(text.startIndex..., in: text)) {
                let type = String(text[Range(m.range(at: 1), in: text)!])
                XCTAssertFalse(Self.formats.contains(type), "\(name) declares \(type), a transfer format: it belongs in PetTransfer")
            }
        }
        let formats = try sources("PetTransfer").map(\.text).joined()
        for type in Self.formats { XCTAssertTrue(formats.contains(" \(type) {") || formats.contains(" \(type): "), type) }
    }

    func testThePackageBuildsTheCoreWithoutTheFormats() throws {
        let manifest = try String(contentsOf: TestServer.repoRoot.appendingPathComponent("Package.swift"), encoding: .utf8)
        // The core's target: from its name to the next target.
        let start = try XCTUnwrap(manifest.range(of: "name: \"PetStoreCore\",\n"))
        let rest = manifest[start.upperBound...]
        let end = rest.range(of: ".target(")?.lowerBound ?? rest.endIndex
        XCTAssertFalse(rest[..<end].contains("PetTransfer"), String(rest[..<end]))
        let transfer = try XCTUnwrap(manifest.range(of: ".target(name: \"PetTransfer\""))
        XCTAssertTrue(manifest[transfer.upperBound...].prefix { $0 != "\n" }.contains("\"PetStoreCore\""))
    }
}
