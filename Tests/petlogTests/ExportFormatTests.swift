import Foundation
import XCTest
import PetlogTestSupport

/// The JSON export is JSON, not a byte layout: the same content imports however it is formatted or
/// ordered (jq, Python's json module, one line), and a value of the wrong JSON type is refused with its line.
final class ExportFormatTests: CLITestCase {
    func path(_ name: String) -> String { home.appendingPathComponent(name).path }
    func read(_ p: String) throws -> Data { try Data(contentsOf: URL(fileURLWithPath: p)) }

    /// Exports the demo household plus a photo, a starred record and a note with quotes and a line break.
    func exportHousehold() throws -> String {
        try ok("demo")
        let photo = path("photo.ppm")
        try Data("P3\n1 1\n255\n1 2 3\n".utf8).write(to: URL(fileURLWithPath: photo))
        try ok("diary", "Coco", "{\"not\": [\"json\"]} \\ / 한국어", "--photo", photo, "--note=say \"hi\"\nsecond line")
        try ok("star", "3")
        try ok("export", "-o", path("a.json"), "--with-attachments", path("files"))
        return path("a.json")
    }

    /// Runs a formatter from /usr/bin on `input`, writing its standard output to `output`.
    func reformat(_ tool: String, _ args: [String], _ input: String, _ output: String) throws {
        let executable = URL(fileURLWithPath: "/usr/bin/" + tool)
        try XCTSkipUnless(FileManager.default.isExecutableFile(atPath: executable.path), "\(tool) is not installed")
        let r = try launch(executable, args + [input])
        XCTAssertEqual(r.status, 0, r.stderr)
        try Data(r.stdout.utf8).write(to: URL(fileURLWithPath: output))
    }

    /// Imports `file` into a new database and exports that again: the bytes must be the original export's.
    func assertReimportsIdentically(_ file: String, _ original: String, line: UInt = #line) throws {
        let other = path("other-\(UUID().uuidString)/petlog.sqlite")
        let r = try run(["--db", other, "import", file, "--attachments", path("files")], useDefaultDB: true)
        XCTAssertEqual(r.status, 0, r.stderr, line: line)
        let again = path("again-\(UUID().uuidString).json")
        XCTAssertEqual(try run(["--db", other, "export", "-o", again], useDefaultDB: true).status, 0, line: line)
        XCTAssertEqual(try read(again), try read(original), "\(file) read back differently", line: line)
    }

    func testJqReformattedExportImports() throws {
        let a = try exportHousehold()
        try reformat("jq", ["."], a, path("jq.json"))
        XCTAssertNotEqual(try read(path("jq.json")), try read(a), "jq should have changed the layout")
        try assertReimportsIdentically(path("jq.json"), a)
        try reformat("jq", ["-c", "."], a, path("jq-compact.json"))
        try assertReimportsIdentically(path("jq-compact.json"), a)
    }

    func testPythonReserializedExportImports() throws {
        let a = try exportHousehold()
        // One line with Python's separators; then sorted keys ("records" before "schema"), indented, ASCII escapes.
        try reformat("python3", ["-c", "import json, sys; json.dump(json.load(open(sys.argv[1])), sys.stdout)"], a, path("py.json"))
        try assertReimportsIdentically(path("py.json"), a)
        try reformat("python3", ["-c", "import json, sys; json.dump(json.load(open(sys.argv[1])), sys.stdout, sort_keys=True, indent=1)"],
                     a, path("py-sorted.json"))
        try assertReimportsIdentically(path("py-sorted.json"), a)
    }

    func testRecordsBeforePetsImport() throws {
        let a = try exportHousehold()
        try reformat("python3", ["-c", """
            import json, sys
            d = json.load(open(sys.argv[1]))
            # Records first, then every other key (budgets, rates, …) in reverse order.
            json.dump({"records": d["records"], **{k: d[k] for k in reversed(list(d)) if k != "records"}}, sys.stdout)
            """], a, path("reordered.json"))
        try assertReimportsIdentically(path("reordered.json"), a)
    }

    static let header = "{\"format\": \"petlog\", \"schema\": \"v1\", \"units\": {\"weight\": \"g\", \"money\": \"minor units\"},\n\"pets\": [\n"
    static let pet = "{\"id\": 1, \"name\": \"Rex\", \"species\": \"dog\", \"sex\": \"male\", \"neutered\": false}\n"

    func refuse(_ name: String, _ text: String, mentions: String, line: UInt = #line) throws {
        try Data(text.utf8).write(to: URL(fileURLWithPath: path(name)))
        let r = try run(["import", path(name)])
        XCTAssertEqual(r.status, 65, r.stderr, line: line)
        XCTAssertTrue(r.stderr.contains(mentions), "\(r.stderr) should mention \(mentions)", line: line)
        if FileManager.default.fileExists(atPath: dbPath) {
            XCTAssertFalse(try run(["log", "--json"]).stdout.contains("Rex"), "\(name) was partly imported", line: line)
        }
    }

    func testWrongJSONTypesAreRefusedWithTheirLine() throws {
        let record = { (detail: String, starred: String) in
            "{\"id\": 1, \"pet_id\": 1, \"kind\": \"stool\", \"at\": \"2026-11-20T08:30:00+09:00\", \"starred\": \(starred), \"stool\": \(detail)}"
        }
        let file = { (r: String) in Self.header + Self.pet + "],\n\"records\": [\n" + r + "\n]}\n" }
        // A number where a boolean belongs, in the record and in its detail; text or a boolean where a number belongs.
        try refuse("a.json", file(record("{\"score\": 4, \"blood\": false, \"mucus\": false}", "1")), mentions: "a.json:6")
        try refuse("b.json", file(record("{\"score\": 4, \"blood\": 0, \"mucus\": false}", "false")), mentions: "b.json:6")
        try refuse("d.json", file(record("{\"score\": \"4\", \"blood\": false, \"mucus\": false}", "false")), mentions: "d.json:6")
        try refuse("c.json", file(record("{\"score\": true, \"blood\": false, \"mucus\": false}", "false")), mentions: "c.json:6")
        // The same record with the right types imports.
        try Data(file(record("{\"score\": 4, \"blood\": true, \"mucus\": false}", "true")).utf8).write(to: URL(fileURLWithPath: path("ok.json")))
        XCTAssertEqual(try run(["import", path("ok.json")]).status, 0)
        let log = try json("log", "--json") as? [[String: Any]]
        XCTAssertEqual((log?.first?["stool"] as? [String: Any])?["blood"] as? Bool, true)
        XCTAssertEqual(log?.first?["starred"] as? Bool, true)
    }

    func testNotAnExportIsRefused() throws {
        try refuse("a.json", "{\"format\": \"other\", \"pets\": [], \"records\": []}\n", mentions: "a.json")
        try refuse("b.json", "{\"pets\": [], \"records\": []}\n", mentions: "b.json")
        try refuse("c.json", Self.header + Self.pet + "],\n\"records\": []}\n{}\n", mentions: "c.json:6")
        // "records" twice would import every record twice: refused where the second one starts.
        try refuse("e.json", Self.header + Self.pet + "],\n\"records\": [],\n\"records\": []}\n", mentions: "e.json:6")
        try refuse("d.json", Self.header + "{\"id\": 1, \"name\": \"Rex\\\"], \\\"x\\\": [\", \"species\": \"dog\"\n", mentions: "d.json")
    }
}
