import Foundation
import XCTest

/// `petlog import` and `export` as a user runs them: round trips byte for byte, a second import adds
/// nothing, a bad row names its file and line and writes nothing, weight CSVs from scales, the
/// spreadsheet tables of a shelter, and the progress bar only on a terminal.
final class ImportCommandTests: CLITestCase {
    static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures")

    func path(_ name: String) -> String { home.appendingPathComponent(name).path }
    func write(_ name: String, _ text: String) throws -> String {
        try text.write(toFile: path(name), atomically: true, encoding: .utf8)
        return path(name)
    }
    func read(_ p: String) throws -> String { try String(contentsOfFile: p, encoding: .utf8) }

    /// The demo household plus a photo, a star, a note a spreadsheet would run, and a deleted record.
    func makeHousehold() throws {
        try ok("demo")
        let photo = try write("photo.ppm", "P3\n1 1\n255\n1 2 3\n")
        try ok("diary", "Coco", "=HYPERLINK(\"http://x\")", "--photo", photo, "--note=-5 g since Monday, \"quoted\"\nsecond line")
        try ok("star", "3")
        try ok("delete", "5")
    }

    func testJSONRoundTripIsByteIdentical() throws {
        try makeHousehold()
        try ok("export", "-o", path("a.json"), "--with-attachments", path("files"))
        let other = path("other/petlog.sqlite")
        var r = try run(["--db", other, "import", path("a.json"), "--attachments", path("files")], useDefaultDB: true)
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertTrue(r.stdout.contains("0 already there"), r.stdout)
        r = try run(["--db", other, "export", "-o", path("b.json")], useDefaultDB: true)
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertEqual(try read(path("a.json")), try read(path("b.json")))
        XCTAssertEqual(try run(["--db", other, "check"], useDefaultDB: true).status, 0)
        // Again: nothing added, the file unchanged.
        r = try run(["--db", other, "import", path("a.json"), "--json"], useDefaultDB: true)
        let summary = try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as! [String: Any]
        XCTAssertEqual(summary["records_added"] as? Int, 0)
        XCTAssertGreaterThan(summary["records_already_there"] as? Int ?? 0, 1900)
        XCTAssertEqual(try run(["--db", other, "export", "-o", path("c.json")], useDefaultDB: true).status, 0)
        XCTAssertEqual(try read(path("a.json")), try read(path("c.json")))
        XCTAssertEqual(try FileManager.default.attributesOfItem(atPath: path("a.json"))[.posixPermissions] as? Int, 0o600)
    }

    func testCSVExportGuardsFormulasAndRoundTrips() throws {
        try makeHousehold()
        let out = try ok("export", "--format", "csv", "-o", path("csv1"), "--with-attachments", path("csv1/attachments"))
        XCTAssertTrue(out.contains("17 CSV files"), out)
        let diary = try read(path("csv1/diary.csv"))
        XCTAssertTrue(diary.contains("\"'=HYPERLINK(\"\"http://x\"\")\""), diary)
        let record = try read(path("csv1/record.csv"))
        XCTAssertTrue(record.hasPrefix("id,pet_id,kind,at,note,starred\r\n"), record)
        XCTAssertTrue(record.contains("\"'-5 g since Monday, \"\"quoted\"\"\nsecond line\""), "guarded, quoted, line break kept")
        XCTAssertEqual(try FileManager.default.attributesOfItem(atPath: path("csv1/record.csv"))[.posixPermissions] as? Int, 0o600)
        let other = path("other/petlog.sqlite")
        XCTAssertEqual(try run(["--db", other, "import", path("csv1")], useDefaultDB: true).status, 0)
        XCTAssertEqual(try run(["--db", other, "export", "--format", "csv", "-o", path("csv2")], useDefaultDB: true).status, 0)
        for name in try FileManager.default.contentsOfDirectory(atPath: path("csv1")) where name.hasSuffix(".csv") {
            XCTAssertEqual(try read(path("csv1/\(name)")), try read(path("csv2/\(name)")), name)
        }
        // The CSV and the JSON describe the same data.
        try ok("export", "-o", path("a.json"))
        XCTAssertEqual(try run(["--db", other, "export", "-o", path("b.json")], useDefaultDB: true).status, 0)
        XCTAssertEqual(try read(path("a.json")), try read(path("b.json")))
    }

    func testImportIntoADatabaseWithRecordsGivesNewIdsAndKeepsDosesWithTheirCourse() throws {
        try ok("pet", "add", "Coco", "--species", "dog")
        try ok("med", "start", "Coco", "Apoquel", "--every", "12h", "--at", "2026-11-01T08:00")
        try ok("med", "give", "Coco", "Apoquel", "--at", "2026-11-01T20:00")
        try ok("export", "-o", path("a.json"))
        let other = path("other/petlog.sqlite")
        try ok("--db", other, "pet", "add", "Nabi", "--species", "cat")
        try ok("--db", other, "weight", "Nabi", "4kg")
        XCTAssertEqual(try run(["--db", other, "import", path("a.json")], useDefaultDB: true).status, 0)
        let log = try run(["--db", other, "log", "Coco", "--json"], useDefaultDB: true)
        let records = try JSONSerialization.jsonObject(with: Data(log.stdout.utf8)) as! [[String: Any]]
        XCTAssertEqual(records.count, 2)
        let course = records.first { $0["kind"] as? String == "medication" }!
        let dose = records.first { $0["kind"] as? String == "dose" }!
        XCTAssertNotEqual(course["id"] as? Int, 1, "id 1 is Nabi's weight")
        XCTAssertEqual((dose["dose"] as? [String: Any])?["medication_id"] as? Int, course["id"] as? Int)
        XCTAssertEqual(try run(["--db", other, "check"], useDefaultDB: true).status, 0)
    }

    func testABadRowNamesFileAndLineAndWritesNothing() throws {
        try ok("pet", "add", "Coco", "--species", "dog")
        try ok("weight", "Coco", "4.2kg")
        let before = try fileHash(dbPath)
        let csv = try write("scale.csv", "date,weight_kg\n2026-11-01,4.1\n2026-11-02,4.15\n2026-11-03,4,2\n")
        var r = try run(["import", csv, "--pet", "Coco"])
        XCTAssertEqual(r.status, 65)
        XCTAssertEqual(r.stderr, "petlog: scale.csv:4: 3 fields where the header has 2; nothing was imported\n")
        XCTAssertEqual(try fileHash(dbPath), before)
        let bad = try write("bad.csv", "date,weight_kg\n2026-11-01,4.1\n2026-02-30,4.2\n")
        r = try run(["import", bad, "--pet", "Coco", "--lang", "ko"])
        XCTAssertEqual(r.status, 65)
        XCTAssertTrue(r.stderr.hasPrefix("petlog: bad.csv:3: "), r.stderr)
        XCTAssertTrue(r.stderr.contains("아무것도 가져오지 않았습니다"), r.stderr)
        r = try run(["import", bad, "--pet", "Coco", "--lang", "ja"])
        XCTAssertTrue(r.stderr.contains("何も取り込んでいません"), r.stderr)
        XCTAssertEqual(try fileHash(dbPath), before)
        // A truncated JSON export, a missing pet, a missing unit, a missing file.
        try ok("export", "-o", path("a.json"))
        let json = try read(path("a.json"))
        let truncated = try write("cut.json", String(json.prefix(json.count - 40)))
        r = try run(["import", truncated])
        XCTAssertEqual(r.status, 65, r.stderr)
        XCTAssertTrue(r.stderr.contains("cut.json:"), r.stderr)
        r = try run(["import", csv])
        XCTAssertEqual(r.stderr, "petlog: scale.csv: whose weights are these? add --pet NAME; nothing was imported\n")
        let bare = try write("bare.csv", "date,weight\n2026-11-01,4.1\n")
        r = try run(["import", bare, "--pet", "Coco"])
        XCTAssertEqual(r.status, 65)
        XCTAssertTrue(r.stderr.contains("bare.csv:2: the weights have no unit"), r.stderr)
        r = try run(["import", path("nope.json")])
        XCTAssertEqual(r.status, 66, r.stderr)
        XCTAssertEqual(try fileHash(dbPath), before)
    }

    func testScaleCSVsWithHeadersUnitsAndColumns() throws {
        try ok("pet", "add", "Coco", "--species", "dog")
        let a = try write("a.csv", "\u{FEFF}Date,Time,Weight (lb),BMI\r\n2026/11/01,07:30,9.26,21\r\n2026/11/02,07:31,9.3,21\r\n")
        var out = try ok("import", a, "--pet", "Coco")
        XCTAssertTrue(out.contains("Imported 2 records"), out)
        let b = try write("b.csv", "2026-11-03 07:30,4.2 kg\n2026-11-04T07:30:00+09:00,4210g\n")
        out = try ok("import", b, "--pet", "Coco", "--columns", "date,weight")
        XCTAssertTrue(out.contains("Imported 2 records"), out)
        let c = try write("c.csv", "x,2026-11-05,4.25\n")
        out = try ok("import", c, "--pet", "Coco", "--columns", "-,date,weight", "--weight-unit", "kg")
        let log = try JSONSerialization.jsonObject(with: Data(try run(["log", "Coco", "--json"]).stdout.utf8)) as! [[String: Any]]
        let weights = log.compactMap { ($0["weight"] as? [String: Any])?["grams"] as? Int }.sorted()
        XCTAssertEqual(weights, [4200, 4200, 4210, 4218, 4250], "9.26 lb, 4.2 kg, 4210 g, 9.3 lb, 4.25 kg")
        let ats = log.compactMap { $0["at"] as? String }
        XCTAssertTrue(ats.contains("2026-11-01T07:30:00+09:00"), "\(ats)")
        XCTAssertTrue(ats.contains("2026-11-05T12:00:00+09:00"), "a day alone is noon: \(ats)")
        // Again: nothing new.
        out = try ok("import", a, "--pet", "Coco")
        XCTAssertTrue(out.contains("Imported 0 records"), out)
    }

    func testShelterTablesLoadWithTwoPetsOfTheSameName() throws {
        let dir = Self.fixtures.appendingPathComponent("shelter-small").path
        var out = try ok("import", dir)
        XCTAssertTrue(out.contains("Imported 6,152 records and 3 new pets"), out)
        out = try ok("import", dir)
        XCTAssertTrue(out.contains("Imported 0 records and 0 new pets"), out)
        XCTAssertTrue(out.contains("6,152 already there"), out)
        XCTAssertEqual(try run(["check"]).status, 0)
        let r = try run(["weight", "Penny", "20kg"])
        XCTAssertEqual(r.status, 65)
        XCTAssertTrue(r.stderr.contains("#1 dog") && r.stderr.contains("#2 ferret"), r.stderr)
        let pet = try JSONSerialization.jsonObject(with: Data(try run(["pet", "show", "1", "--json"]).stdout.utf8)) as! [String: Any]
        XCTAssertEqual(pet["name"] as? String, "Penny")
        XCTAssertEqual(pet["microchip"] as? String, "756941761164206")
        let weights = try JSONSerialization.jsonObject(with: Data(try run(["log", "1", "--kind", "weight", "--json"]).stdout.utf8)) as! [[String: Any]]
        XCTAssertEqual(weights.count, 1791, "the file's rows of pet 1")
        XCTAssertEqual((weights.first?["weight"] as? [String: Any])?["grams"] as? Int, 22000, "2020-01-01T06:32:56 22.0 kg")
        XCTAssertEqual(weights.first?["at"] as? String, "2020-01-01T06:32:56+09:00")
    }

    func testProgressBarOnlyOnATerminal() throws {
        let dir = Self.fixtures.appendingPathComponent("shelter-small").path
        var r = try run(["import", dir])
        // (A server's database exists before petlog: nothing is created, nothing said.)
        XCTAssertEqual(r.stderr, Self.onServer ? "" : "petlog: created a new petlog database at \(dbPath)\n", "no bar when stderr is not a terminal")
        // Under script(1), stderr is a pseudo-terminal.
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/script") else { return XCTFail("script(1) from util-linux is needed") }
        let command = "\(Self.binary.path) --db \(path("tty/petlog.sqlite")) import \(dir)"
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/usr/bin/script")
        p.arguments = ["-qec", command, "/dev/null"]
        p.environment = ["HOME": home.path, "TZ": "Asia/Seoul", "LANG": "C.UTF-8", "PETLOG_NOW": "2026-11-23T10:00:00+09:00", "TERM": "xterm"]
        let pipe = Pipe()
        p.standardOutput = pipe
        p.standardInput = FileHandle.nullDevice
        try p.run()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        p.waitUntilExit()
        let text = String(decoding: data, as: UTF8.self)
        XCTAssertEqual(p.terminationStatus, 0, text)
        XCTAssertTrue(text.contains("Writing █"), text)
        XCTAssertTrue(text.contains("100% 6,152/6,152"), text)
        r = try run(["--db", path("tty/petlog.sqlite"), "check"], useDefaultDB: true)
        XCTAssertEqual(r.status, 0)
    }
}

/// The benchmark kit's whole `shelter` set (500 pets, 868,890 weights and 90,667 other rows), made by
/// its generator when the kit is beside the repository (`../shared/bench`, or `$PETLOG_BENCH_KIT`).
final class ShelterImportTests: CLITestCase {
    static var kit: URL? {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let candidates: [String?] = [ProcessInfo.processInfo.environment["PETLOG_BENCH_KIT"], root.deletingLastPathComponent().appendingPathComponent("shared/bench").path]
        return candidates.compactMap { $0 }.map(URL.init(fileURLWithPath:))
            .first { FileManager.default.fileExists(atPath: $0.appendingPathComponent("gen_data.py").path) }
    }

    func testTheWholeShelterLoadsOnceAndChecksClean() throws {
        guard let kit = Self.kit else { throw XCTSkip("the peer kit (../shared/bench) is not beside this checkout") }
        let data = home.appendingPathComponent("kit")
        try FileManager.default.createDirectory(at: data, withIntermediateDirectories: true)
        try FileManager.default.copyItem(at: kit.appendingPathComponent("gen_data.py"), to: data.appendingPathComponent("gen_data.py"))
        let gen = Process()
        gen.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        gen.arguments = ["python3", "gen_data.py", "--size", "shelter"]
        gen.currentDirectoryURL = data
        gen.standardOutput = FileHandle.nullDevice
        try gen.run()
        gen.waitUntilExit()
        XCTAssertEqual(gen.terminationStatus, 0)
        let shelter = data.appendingPathComponent("data/shelter").path
        let r = try run(["import", shelter, "--json"])
        XCTAssertEqual(r.status, 0, r.stderr)
        let summary = try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as! [String: Any]
        XCTAssertEqual(summary["pets_added"] as? Int, 500)
        XCTAssertEqual(summary["records_added"] as? Int, 868_890 + 90_667 - 500)
        XCTAssertEqual(try run(["check"]).status, 0)
        let stats = try JSONSerialization.jsonObject(with: Data(try run(["log", "42", "--kind", "weight", "--json"]).stdout.utf8)) as! [[String: Any]]
        XCTAssertGreaterThan(stats.count, 1700)
    }
}
