import Foundation
import XCTest
import PetlogTestSupport

/// The bytes of every export format, pinned: the JSON export, the CSV folder and the FHIR bundle of one fixed
/// household (the demo with its seed and clock, plus records that fill the values the demo leaves empty: a
/// stool's colour and blood, a symptom typed as written, a diary title and photo, a skipped dose, a course at
/// fixed times, a visit's weight and follow-up, an expense's payment and split, a note with quotes, a line
/// break and Korean), on both stores. A change to how a format is written, or a refactor of its writers,
/// shows here as a diff of the golden files.
///
/// The household is made in a SQLite file beside the test, exported, given a fixed namespace (the
/// database's own is random, and the FHIR addresses derive from it) and imported into the test's store,
/// which keeps the file's ids; the three exports of that store are compared with
/// `Fixtures/golden/` byte for byte.
///
/// To write the golden files again after a change meant to alter an export (and read the diff before
/// committing it): `PETLOG_GOLDEN_WRITE=1 swift test --filter petlogTests.GoldenExportTests`.
final class GoldenExportTests: CLITestCase {
    static let golden = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures/golden")
    static let namespace = "0123456789abcdef0123456789abcdef"
    var rewrite: Bool { ProcessInfo.processInfo.environment["PETLOG_GOLDEN_WRITE"] == "1" }

    func path(_ name: String) -> String { home.appendingPathComponent(name).path }

    /// Runs petlog on the scratch SQLite household and expects success.
    func scratch(_ args: String...) throws {
        let r = try run(["--db", path("household/petlog.sqlite")] + args, useDefaultDB: true)
        XCTAssertEqual(r.status, 0, "petlog \(args.joined(separator: " ")): \(r.stderr)")
    }

    /// The fixed household, imported into the test's store.
    func makeHousehold() throws {
        try scratch("demo")
        let photo = path("photo.ppm")
        try Data("P3\n1 1\n255\n1 2 3\n".utf8).write(to: URL(fileURLWithPath: photo))
        try scratch("stool", "Coco", "6", "--color", "dark brown", "--blood", "--mucus", "--at", "-1d",
                    "--note", "say \"hi\"\nsecond line, 한국어 \\ /")
        try scratch("urine", "Nabi", "--color", "red", "--amount", "small", "--straining", "--blood", "--at", "-1d")
        try scratch("symptom", "Mochi", "sneezing fits", "--as-written", "--severity", "3", "--duration", "2h", "--at", "-1d")
        try scratch("diary", "Coco", "Beach day, {\"not\": json}", "--title", "바다 海", "--mood", "happy", "--photo", photo, "--at", "-1d")
        try scratch("med", "start", "Nabi", "Amoxicillin", "--dose", "50 mg", "--route", "oral", "--times", "08:00,20:00", "--until", "10d", "--at", "-2d")
        try scratch("med", "give", "Nabi", "Amoxicillin", "--skipped", "--at", "-1d")
        try scratch("visit", "Nabi", "--clinic", "Happy Paws Clinic", "--vet", "Dr. Han", "--reason", "cough", "--diagnosis", "kennel cough",
                    "--treatment", "antibiotics", "--weight", "4.3kg", "--follow-up", "2w", "--cost", "85000KRW", "--at", "-2d")
        try scratch("expense", "add", "12.50", "USD", "--pets", "Coco,Nabi", "--category", "treats", "--merchant", "Pet Mart",
                    "--payment", "transfer", "--items", "chews, kibble 2kg", "--at", "-1d")
        try scratch("groom", "Coco", "bath", "nails", "--by", "Fluffy Salon", "--cost", "55000KRW", "--next", "6w", "--at", "-1d")
        try scratch("meal", "Mochi", "water", "--water", "--at", "-1d")
        try scratch("weight", "Mochi", "1.1kg", "--bcs", "4", "--at", "-1d")
        try scratch("star", "3")
        let json = path("household.json")
        try scratch("export", "-o", json, "--no-attachments")
        let text = try String(contentsOfFile: json, encoding: .utf8)
        guard let range = text.range(of: #""namespace": "[0-9a-f]{32}""#, options: .regularExpression) else {
            return XCTFail("no namespace in the export")
        }
        try text.replacingCharacters(in: range, with: "\"namespace\": \"\(Self.namespace)\"").write(toFile: json, atomically: true, encoding: .utf8)
        let r = try run(["import", json, "--attachments", path("household/petlog.sqlite.attachments")])
        XCTAssertEqual(r.status, 0, r.stderr)
    }

    /// Compares `actual` with the golden file `name` (or writes it, with PETLOG_GOLDEN_WRITE=1).
    func assertGolden(_ actual: Data, _ name: String, file: StaticString = #filePath, line: UInt = #line) throws {
        let url = Self.golden.appendingPathComponent(name)
        if rewrite {
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try actual.write(to: url)
            return
        }
        guard let expected = FileManager.default.contents(atPath: url.path) else {
            return XCTFail("no golden file \(name): write it with PETLOG_GOLDEN_WRITE=1", file: file, line: line)
        }
        if actual != expected {
            let a = String(decoding: actual, as: UTF8.self).components(separatedBy: "\n")
            let e = String(decoding: expected, as: UTF8.self).components(separatedBy: "\n")
            let first = (0..<min(a.count, e.count)).first { a[$0] != e[$0] } ?? min(a.count, e.count)
            XCTFail("""
                \(name) differs from the golden file (\(actual.count) bytes, golden \(expected.count)); first at line \(first + 1):
                  got:    \(first < a.count ? String(a[first].prefix(400)) : "(end)")
                  golden: \(first < e.count ? String(e[first].prefix(400)) : "(end)")
                """, file: file, line: line)
        }
    }

    func read(_ p: String) throws -> Data { try Data(contentsOf: URL(fileURLWithPath: p)) }

    func testJSONExportIsByteForByteTheGoldenFile() throws {
        try makeHousehold()
        try ok("export", "-o", path("out.json"))
        try assertGolden(try read(path("out.json")), "export.json")
        // And it reads back into an empty store as the same bytes.
        let other = path("again/petlog.sqlite")
        XCTAssertEqual(try run(["--db", other, "import", path("out.json")], useDefaultDB: true).status, 0)
        XCTAssertEqual(try run(["--db", other, "export", "-o", path("again.json")], useDefaultDB: true).status, 0)
        XCTAssertEqual(try read(path("again.json")), try read(path("out.json")), "the golden household does not read back as itself")
    }

    func testCSVExportIsByteForByteTheGoldenFiles() throws {
        try makeHousehold()
        try ok("export", "--format", "csv", "-o", path("csv"), "--no-attachments")
        let tables = try FileManager.default.contentsOfDirectory(atPath: path("csv")).sorted()
        XCTAssertFalse(tables.isEmpty)
        if !rewrite {
            let golden = try FileManager.default.contentsOfDirectory(atPath: Self.golden.appendingPathComponent("csv").path).sorted()
            XCTAssertEqual(tables, golden, "the CSV export's files")
        }
        for t in tables { try assertGolden(try read(path("csv/" + t)), "csv/" + t) }
    }

    func testFHIRExportIsByteForByteTheGoldenFile() throws {
        try makeHousehold()
        try ok("export", "--format", "fhir", "-o", path("out.fhir.json"))
        try assertGolden(try read(path("out.fhir.json")), "fhir.json")
    }
}
