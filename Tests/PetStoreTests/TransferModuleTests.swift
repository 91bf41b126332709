import Foundation
import XCTest
import PetlogTestSupport

/// The transfer formats are `PetTransfer`'s, above the core (issue 43, step 3): the core neither depends on
/// that target nor holds a reader of its own again, so a format is changed in one place and the store
/// is built without it.
final class TransferModuleTests: XCTestCase {
    /// The types `PetTransfer` holds: `petlog import`'s readers, `export`'s JSON and CSV writers (over the rows the
    /// store hands out, `exportSnapshot`), the FHIR bundle and the expense sheet.
    static let formats = ["ImportReader", "ImportOptions", "PetlogJSONReader", "JSONScanner", "PetlogCSVReader", "SpreadsheetTables",
                          "ScaleCSVReader", "JSONRecordReading", "CSVReader", "LocalTimeConverter", "FHIRBundle", "ExpenseSheet",
                          "PetlogExport", "PetlogJSONWriter", "JSONBytes", "JSONText", "CSVTableWriter"]

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

    /// The JSON export is written once, in the core's `Store`, for both engines: no engine writes one of its own.
    func testNoEngineWritesTheJSONExportOfItsOwn() throws {
        for engine in ["PetStoreSQLite", "PetStorePostgres"] {
            let files = try sources(engine)
            XCTAssertGreaterThan(files.count, 3, engine)
            for (name, text) in files {
                XCTAssertFalse(text.contains("PetlogJSONWriter("), "\(engine)/\(name) writes the JSON export itself")
                XCTAssertFalse(text.contains("func exportJSON("), "\(engine)/\(name) has an export path of its own")
            }
        }
    }

    /// `scripts/transfer-lines.sh` counts every file that holds transfer code, wherever it moved: a file that
    /// declares one of the transfer types, or writes an import or export path of its own (more than handing
    /// the call to the engine), is in its list.
    func testTheLineCountCountsEveryFileThatMovesAHouseholdInOrOut() throws {
        let root = TestServer.repoRoot
        let run = Process()
        run.executableURL = URL(fileURLWithPath: "/bin/bash")
        run.arguments = [root.appendingPathComponent("scripts/transfer-lines.sh").path]
        let out = Pipe()
        run.standardOutput = out
        try run.run()
        let listing = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        run.waitUntilExit()
        XCTAssertEqual(run.terminationStatus, 0)
        let counted = Set(listing.split(separator: "\n").compactMap { $0.split(separator: " ").last.map(String.init) }.filter { $0.hasSuffix(".swift") })
        XCTAssertGreaterThan(counted.count, 15)
        let types = #"(?m)^\s*(?:public |package )?(?:final )?(?:struct|enum|class|protocol) (?:ImportBatch|ImportWriter|PetlogJSONWriter|JSONBytes|CSVExport|CSVTableWriter|ImportReader|PetlogJSONReader|FHIRBundle)\b"#
        let paths = #"(?m)^\s*(?:public |package )?(?:static )?func (?:importRows|importAttachments|importBatch|exportJSON|writeJSON|exportCSV|exportCSVTable|writeCSV|forEachRecordInOrder)\((?:[^(){}]|\([^(){}]*\))*\)[^{}\n]*\{\s*\n\s*(?!try engine\.)\S"#
        let declares = try [types, paths].map { try NSRegularExpression(pattern: $0) }
        var found = 0
        for module in try FileManager.default.contentsOfDirectory(atPath: root.appendingPathComponent("Sources").path) {
            for (name, text) in try sources(module) {
                guard declares.contains(where: { $0.firstMatch(in: text, range: NSRange(text.startIndex..., in: text)) != nil }) else { continue }
                found += 1
                XCTAssertTrue(counted.contains { $0.hasSuffix("/\(module)/\(name)") || $0.hasSuffix("/\(module)/Transfer/\(name)") },
                              "Sources/\(module)/…/\(name) moves a household in or out but scripts/transfer-lines.sh does not count it")
            }
        }
        XCTAssertGreaterThan(found, 10)
    }
}
