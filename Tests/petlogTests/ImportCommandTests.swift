import Foundation
import XCTest
import PetlogTestSupport

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
        XCTAssertTrue(out.contains("19 CSV files"), out)
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
        // The same data, in two databases: each has its own namespace (the CSV tables do not carry it).
        func data(_ json: String) throws -> String {
            try read(path(json)).replacingOccurrences(of: #""namespace": "[0-9a-f]{32}", "#, with: "", options: .regularExpression)
        }
        XCTAssertEqual(try data("a.json"), try data("b.json"))
        XCTAssertNotEqual(try read(path("a.json")), try read(path("b.json")), "two databases, two namespaces")
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
        let records = try JSONOutput.decode([RecordOut].self, log.stdout)
        XCTAssertEqual(records.count, 2)
        let course = try XCTUnwrap(records.first { $0.kind == "medication" })
        let dose = try XCTUnwrap(records.first { $0.kind == "dose" })
        XCTAssertNotEqual(course.id, 1, "id 1 is Nabi's weight")
        XCTAssertEqual(dose.detail["medication_id"]?.int, course.id)
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
        let log = try recordsOut("log", "Coco")
        let weights = log.compactMap { $0.detail["grams"]?.int }.sorted()
        XCTAssertEqual(weights, [4200, 4200, 4210, 4218, 4250], "9.26 lb, 4.2 kg, 4210 g, 9.3 lb, 4.25 kg")
        let ats = log.map(\.at)
        XCTAssertTrue(ats.contains("2026-11-01T07:30:00+09:00"), "\(ats)")
        XCTAssertTrue(ats.contains("2026-11-05T12:00:00+09:00"), "a day alone is noon: \(ats)")
        // Again: nothing new.
        out = try ok("import", a, "--pet", "Coco")
        XCTAssertTrue(out.contains("Imported 0 records"), out)
    }

    /// A scale's CSV with headers in another language keeps the unit its header names when `--columns`
    /// maps the columns, and without `--columns` when the weight column's name is a known word (issue 42).
    func testAHeaderInAnotherLanguageGivesTheUnitOfTheColumnItMapsTo() throws {
        try ok("pet", "add", "Coco", "--species", "dog")
        let german = try write("de.csv", "Datum;Gewicht (kg)\n2026-11-01;4,1\n")
        var out = try ok("import", german, "--pet", "Coco", "--columns", "date,weight")
        XCTAssertTrue(out.contains("Imported 1 record"), out)
        let spanish = try write("es.csv", "Fecha,Peso_g\n2026-11-02,4120\n")
        out = try ok("import", spanish, "--pet", "Coco", "--columns", "date,weight")
        XCTAssertTrue(out.contains("Imported 1 record"), out)
        let japanese = try write("ja.csv", "日付,体重[lb]\n2026-11-03,9.26\n")
        out = try ok("import", japanese, "--pet", "Coco", "--columns", "date,weight")
        XCTAssertTrue(out.contains("Imported 1 record"), out)
        let english = try write("en.csv", "When,Weight in kg\n2026-11-04,4.25\n")
        out = try ok("import", english, "--pet", "Coco", "--columns", "date,weight")
        XCTAssertTrue(out.contains("Imported 1 record"), out)
        // Without --columns, a known word for weight with its unit is found too.
        let noColumns = try write("de2.csv", "Datum;Gewicht (kg)\n2026-11-05;4,3\n")
        out = try ok("import", noColumns, "--pet", "Coco")
        XCTAssertTrue(out.contains("Imported 1 record"), out)
        let weights = try recordsOut("log", "Coco").compactMap { $0.detail["grams"]?.int }.sorted()
        XCTAssertEqual(weights, [4100, 4120, 4200, 4250, 4300], "4,1 kg, 4120 g, 9.26 lb, 4.25 kg, 4,3 kg")
        // A header with no unit still needs --weight-unit.
        let before = try fileHash(dbPath)
        let bare = try write("bare.csv", "Datum;Gewicht\n2026-11-06;4,1\n")
        let r = try run(["import", bare, "--pet", "Coco", "--columns", "date,weight"])
        XCTAssertEqual(r.status, 65, r.stderr)
        XCTAssertTrue(r.stderr.contains("bare.csv:2: the weights have no unit"), r.stderr)
        XCTAssertEqual(try fileHash(dbPath), before)
    }

    /// A file that is neither petlog JSON nor a CSV petlog reads says what it is, in one line, exit 65,
    /// nothing written; a JSON file cut short names the line and the character where it breaks (issue 42).
    func testAFileThatIsNoExportSaysWhatItIsAndWhereJSONBreaks() throws {
        try ok("pet", "add", "Coco", "--species", "dog")
        let before = try fileHash(dbPath)
        func file(_ name: String, _ bytes: [UInt8]) throws -> String {
            try Data(bytes).write(to: URL(fileURLWithPath: path(name)))
            return path(name)
        }
        var seed: UInt32 = 42
        let random = (0..<512).map { _ -> UInt8 in seed = seed &* 1_664_525 &+ 1_013_904_223; return UInt8(seed >> 24) }
        let cases: [(String, [UInt8], String)] = [
            ("cat.png", [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0, 0x0D, 0x49, 0x48, 0x44, 0x52], "it looks like a PNG image"),
            ("bill.pdf", Array("%PDF-1.7\n%\u{E2}\u{E3}\n1 0 obj\n".utf8), "it looks like a PDF document"),
            ("noise.bin", random, "it starts with binary data"),
            ("empty.csv", [], "the file is empty"),
            ("notes.txt", Array("Coco went to the vet today.\nShe is fine.\n".utf8), "it is text with no comma, semicolon or tab on its first line"),
            ("sheet.xlsx", [0x50, 0x4B, 0x03, 0x04, 0x14, 0, 0x06, 0], "it looks like a ZIP archive"),
        ]
        for (name, bytes, found) in cases {
            let f = try file(name, bytes)
            for extra in [[], ["--pet", "Coco"]] {
                let r = try run(["import", f] + extra)
                XCTAssertEqual(r.status, 65, "\(name): \(r.stderr)")
                XCTAssertTrue(r.stderr.hasPrefix("petlog: \(name): not a petlog JSON export or a CSV petlog reads: \(found)"), r.stderr)
                XCTAssertTrue(r.stderr.hasSuffix("; nothing was imported\n") && r.stderr.split(separator: "\n").count == 1, r.stderr)
            }
        }
        var r = try run(["import", path("cat.png"), "--lang", "ko"])
        XCTAssertEqual(r.stderr, "petlog: cat.png: petlog JSON 내보내기 파일도, petlog가 읽는 CSV도 아닙니다: PNG 이미지로 보입니다. 아무것도 가져오지 않았습니다\n")
        r = try run(["import", path("cat.png"), "--lang", "ja"])
        XCTAssertEqual(r.stderr, "petlog: cat.png: petlog の JSON 書き出しでも、petlog が読める CSV でもありません: PNG 画像のようです。何も取り込んでいません\n")
        // Prose with a comma is not taken for a scale's CSV waiting for --pet: its missing columns are named.
        let prose = try write("diary.txt", "Dear diary, Coco ate well today.\n")
        r = try run(["import", prose])
        XCTAssertEqual(r.status, 65, r.stderr)
        XCTAssertFalse(r.stderr.contains("--pet"), r.stderr)
        XCTAssertTrue(r.stderr.contains("diary.txt:1: no \"date\" column"), r.stderr)
        // A one-line JSON file cut short breaks on line 1, at its end.
        let oneLine = #"{"format": "petlog", "schema": "v1", "pets": [{"id": 1, "name": "Nabi", "species": "cat""#
        let cut = try write("one.json", oneLine)
        r = try run(["import", cut])
        XCTAssertEqual(r.status, 65, r.stderr)
        XCTAssertEqual(r.stderr, "petlog: one.json:1:\(oneLine.count + 1): the JSON ends here, before it is complete (the file is cut short); nothing was imported\n")
        _ = try write("one.json", oneLine + "\n")
        r = try run(["import", cut])
        XCTAssertEqual(r.stderr, "petlog: one.json:1:\(oneLine.count + 1): the JSON ends here, before it is complete (the file is cut short); nothing was imported\n",
                       "its line break is no second line")
        XCTAssertEqual(try fileHash(dbPath), before)
        // An export cut short in the middle of a line of many: the real line and character.
        try ok("weight", "Coco", "4.2kg")
        try ok("diary", "Coco", "산책 잘 함, long walk")
        try ok("export", "-o", path("a.json"))
        let whole = try read(path("a.json"))
        let lines = whole.split(separator: "\n", omittingEmptySubsequences: false)
        let last = try XCTUnwrap(lines.lastIndex { $0.contains("long walk") })
        let cutAt = try XCTUnwrap(lines[last].range(of: "long walk")).lowerBound
        _ = try write("many.json", lines[..<last].joined(separator: "\n") + "\n" + lines[last][..<cutAt])
        let written = try fileHash(dbPath)
        r = try run(["import", path("many.json")])
        XCTAssertEqual(r.status, 65, r.stderr)
        XCTAssertEqual(try fileHash(dbPath), written)
        let column = lines[last][..<cutAt].count + 1
        XCTAssertTrue(r.stderr.contains("many.json:\(last + 1):\(column): the JSON ends here"), "expected \(last + 1):\(column): \(r.stderr)")
        // Broken, not cut short: where it breaks.
        let broken = try write("broken.json", "{\"format\": \"petlog\", \"schema\": \"v1\",\n \"pets\": [}\n")
        r = try run(["import", broken])
        XCTAssertEqual(r.status, 65, r.stderr)
        XCTAssertTrue(r.stderr.hasPrefix("petlog: broken.json:2:11: "), r.stderr)
        XCTAssertEqual(try fileHash(dbPath), written)
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
        let weights = try recordsOut("log", "1", "--kind", "weight")
        XCTAssertEqual(weights.count, 1791, "the file's rows of pet 1")
        XCTAssertEqual(weights.first?.detail["grams"]?.int, 22000, "2020-01-01T06:32:56 22.0 kg")
        XCTAssertEqual(weights.first?.at, "2020-01-01T06:32:56+09:00")
    }

    /// An import bringing more text than a write indexes itself leaves it for the first search (issue 34):
    /// `check` finds nothing wrong before or after, every record is found before and after the search that
    /// indexes them, and that search leaves nothing to undo.
    func testTheTextOfABigImportIsFoundBeforeAndAfterTheSearchThatIndexesIt() throws {
        let dir = path("big")
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        _ = try write("big/pets.csv", "pet_id,name,species,breed,sex,birth_date,deceased_on,neutered,microchip\n1,Kkami,dog,Jindo,F,2019-03-01,,1,\n")
        var symptoms = "symptom_id,pet_id,observed_at,symptom,severity,note\n"
        for i in 0..<6_200 {
            let day = String(format: "2024-%02d-%02dT%02d:%02d:00", 1 + i % 12, 1 + i % 28, i % 24, i % 60)
            symptoms += "\(i + 1),1,\(day),vomiting,2,\(i == 4_321 ? "\"고구마 먹고 토함, \"\"sweet potato\"\"\"" : "after walk \(i)")\n"
        }
        _ = try write("big/symptoms.csv", symptoms)
        let out = try ok("import", dir)
        XCTAssertTrue(out.contains("Imported 6,200 records and 1 new pet"), out)
        XCTAssertEqual(try run(["check"]).status, 0, "rows waiting for the search index are not a problem")
        XCTAssertTrue(try ok("search", "고구마").contains("sweet potato"))
        XCTAssertTrue(try ok("search", "walk 6199").contains("walk 6199"))
        XCTAssertEqual(try ok("search", "SWEET POTATO").components(separatedBy: "sweet potato").count - 1, 1)
        XCTAssertEqual(try run(["check"]).status, 0)
        XCTAssertTrue(try ok("search", "walk 5000").contains("walk 5000"))
        XCTAssertEqual(try ok("undo"), "Nothing to undo.\n", "an import clears the undo history and a search adds nothing to it")
    }

    func testProgressBarOnlyOnATerminal() throws {
        let dir = Self.fixtures.appendingPathComponent("shelter-small").path
        var r = try run(["import", dir])
        // (A server's database exists before petlog: nothing is created, nothing said.)
        XCTAssertEqual(r.stderr, onServer ? "" : "petlog: created a new petlog database at \(dbPath)\n", "no bar when stderr is not a terminal")
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

    // MARK: Moving to another machine (issue 27)

    var otherServerDatabases: [String] = []

    override func tearDownWithError() throws {
        for name in otherServerDatabases { try? TestServer.shared().dropDatabase(name) }
        try super.tearDownWithError()
    }

    /// A second, empty database of the store under test: "another machine".
    func otherDatabase(_ name: String = "other") throws -> String {
        guard onServer else { return path("\(name)/petlog.sqlite") }
        let database = try TestServer.shared().createDatabase()
        otherServerDatabases.append(database)
        return TestServer.url(database)
    }

    /// A pet with a photographed diary entry, a visit with two files (one of them the same photo), a weight.
    func makePhotographedPet() throws {
        try ok("pet", "add", "Coco", "--species", "dog")
        let photo = try write("photo.ppm", "P3\n1 1\n255\n1 2 3\n")
        let lab = try write("lab.txt", "ALT 42 U/L\n")
        try ok("diary", "Coco", "rash on the left ear", "--photo", photo)
        try ok("visit", "Coco", "--clinic", "Haneul", "--reason", "ear", "--attach", lab, "--attach", photo)
        try ok("weight", "Coco", "4.2kg")
    }

    /// stderr without the line a new SQLite file brings ("created a new petlog database").
    func warnings(_ r: Result) -> [String] {
        r.stderr.split(separator: "\n").map(String.init).filter { !$0.contains("created a new petlog database") }
    }

    func copy(_ from: String, to: String) throws {
        try FileManager.default.createDirectory(atPath: (to as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: from, toPath: to)
    }

    func testExportPutsTheAttachmentsBesideTheFileAndAnImportElsewhereFindsThem() throws {
        try makePhotographedPet()
        let out = try ok("export", "-o", path("all.json"))
        XCTAssertTrue(out.contains("2 attachments are in \(path("all.json.attachments"))"), out)
        let files = try FileManager.default.contentsOfDirectory(atPath: path("all.json.attachments"))
        XCTAssertEqual(files.count, 2, "\(files)")
        XCTAssertTrue(files.allSatisfy { $0.count == 64 }, "named by SHA-256: \(files)")
        // Both carried to another folder (another machine), imported there with no option.
        try copy(path("all.json"), to: path("moved/all.json"))
        try copy(path("all.json.attachments"), to: path("moved/all.json.attachments"))
        let other = try otherDatabase()
        let r = try run(["--db", other, "import", path("moved/all.json")], useDefaultDB: true)
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertEqual(warnings(r), [], "nothing missing")
        let check = try run(["--db", other, "check"], useDefaultDB: true)
        XCTAssertEqual(check.status, 0, check.stdout)
        // The same export again there: the same bytes, the same files.
        XCTAssertEqual(try run(["--db", other, "export", "-o", path("again.json")], useDefaultDB: true).status, 0)
        XCTAssertEqual(try read(path("again.json")), try read(path("all.json")))
        XCTAssertEqual(Set(try FileManager.default.contentsOfDirectory(atPath: path("again.json.attachments"))), Set(files))
    }

    func testImportWithoutTheAttachmentsKeepsEveryRecordAndMarksThemMissing() throws {
        try makePhotographedPet()
        try ok("export", "-o", path("all.json"))
        // Only the JSON was kept.
        try copy(path("all.json"), to: path("kept/all.json"))
        let other = try otherDatabase()
        var r = try run(["--db", other, "import", path("kept/all.json")], useDefaultDB: true)
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertTrue(r.stdout.contains("Imported 3 records and 1 new pet"), r.stdout)
        XCTAssertEqual(warnings(r), ["petlog: warning: 2 attachments were not beside the file: the records are imported and they are marked missing (petlog check lists them)"])
        let summary = try JSONSerialization.jsonObject(with: Data(try run(["--db", other, "import", path("kept/all.json"), "--json"], useDefaultDB: true).stdout.utf8)) as! [String: Any]
        XCTAssertEqual(summary["attachments_missing"] as? Int, 2)
        XCTAssertEqual(summary["records_added"] as? Int, 0)
        // The attachment entries are kept: the records export as they were.
        r = try run(["--db", other, "export", "-o", path("again.json")], useDefaultDB: true)
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertTrue(r.stderr.contains("2 attachment files are missing from this database"), r.stderr)
        XCTAssertEqual(try read(path("again.json")), try read(path("all.json")))
        XCTAssertFalse(FileManager.default.fileExists(atPath: path("again.json.attachments")), "nothing to copy, no folder")
        // check lists them as missing files; --repair keeps the rows (the photos may come back).
        func missing() throws -> [String] {
            let c = try run(["--db", other, "check"], useDefaultDB: true)
            XCTAssertEqual(c.status, 65, c.stdout + c.stderr)
            return c.stdout.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }.filter { $0.hasPrefix("missing-file: ") }
        }
        XCTAssertEqual(try missing().count, 2)
        XCTAssertEqual(try run(["--db", other, "check", "--repair"], useDefaultDB: true).status, 65)
        XCTAssertEqual(try missing().count, 2, "--repair keeps the rows")
        let log = try JSONSerialization.jsonObject(with: Data(try run(["--db", other, "log", "Coco", "--json"], useDefaultDB: true).stdout.utf8)) as! [[String: Any]]
        XCTAssertEqual(log.map { ($0["attachments"] as? [Any])?.count ?? 0 }.reduce(0, +), 3, "every attachment entry kept")
        // Deleting the visit and undoing it brings it back with its entries.
        let visit = try XCTUnwrap(log.first { $0["kind"] as? String == "visit" }?["id"] as? Int)
        XCTAssertEqual(try run(["--db", other, "delete", String(visit)], useDefaultDB: true).status, 0)
        XCTAssertEqual(try run(["--db", other, "check", "--repair"], useDefaultDB: true).status, 65)
        let undo = try run(["--db", other, "undo"], useDefaultDB: true)
        XCTAssertEqual(undo.status, 0, undo.stderr)
        let back = try JSONSerialization.jsonObject(with: Data(try run(["--db", other, "log", "Coco", "--json"], useDefaultDB: true).stdout.utf8)) as! [[String: Any]]
        XCTAssertEqual((back.first { $0["kind"] as? String == "visit" }?["attachments"] as? [Any])?.count, 2)
        XCTAssertEqual(try missing().count, 2)
        // The photos found later: the same file imported again with them beside it fills them in.
        try copy(path("all.json.attachments"), to: path("kept/all.json.attachments"))
        r = try run(["--db", other, "import", path("kept/all.json")], useDefaultDB: true)
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertEqual(warnings(r), [])
        let c = try run(["--db", other, "check"], useDefaultDB: true)
        XCTAssertEqual(c.status, 0, c.stdout)
    }

    func testStrictImportRefusesMissingAttachmentsAsBefore() throws {
        try makePhotographedPet()
        try ok("export", "-o", path("all.json"))
        try copy(path("all.json"), to: path("kept/all.json"))
        let other = try otherDatabase()
        XCTAssertEqual(try run(["--db", other, "pet", "add", "Nabi", "--species", "cat"], useDefaultDB: true).status, 0)
        let r = try expectRefused(["import", path("kept/all.json"), "--strict"], code: 65,
                                  mentions: "is neither in the attachments folder beside the file nor in this database (use --attachments DIR); nothing was imported",
                                  db: other)
        XCTAssertTrue(r.stderr.hasPrefix("petlog: all.json:"), r.stderr)
        // With the files beside it, --strict imports.
        try copy(path("all.json.attachments"), to: path("kept/all.json.attachments"))
        let again = try run(["--db", other, "import", path("kept/all.json"), "--strict"], useDefaultDB: true)
        XCTAssertEqual(again.status, 0, again.stderr)
        XCTAssertEqual(try run(["--db", other, "check"], useDefaultDB: true).status, 0)
    }

    func testTheMissingAttachmentsLineInKoreanAndJapanese() throws {
        try makePhotographedPet()
        try ok("export", "-o", path("all.json"))
        try copy(path("all.json"), to: path("kept/all.json"))
        let expected = ["ko": "petlog: 경고: 첨부 파일 2개가 파일 옆에 없었습니다. 기록은 가져왔고 그 첨부 파일은 없음으로 표시했습니다 (petlog check로 확인하세요)",
                        "ja": "petlog: 警告: 添付ファイル 2 件がファイルの隣にありませんでした。記録は取り込み、その添付ファイルは欠落として記録しました (petlog check で確認できます)"]
        for (lang, line) in expected.sorted(by: { $0.key < $1.key }) {
            let other = try otherDatabase(lang)
            let r = try run(["--db", other, "--lang", lang, "import", path("kept/all.json")], useDefaultDB: true)
            XCTAssertEqual(r.status, 0, r.stderr)
            XCTAssertEqual(warnings(r).filter { !$0.contains(other) }, [line], lang)
        }
    }

    func testCSVFolderCarriesItsAttachmentsAndImportsWithoutThem() throws {
        try makePhotographedPet()
        let out = try ok("export", "--format", "csv", "-o", path("csv1"))
        XCTAssertTrue(out.contains("2 attachments are in \(path("csv1/attachments"))"), out)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: path("csv1/attachments")).count, 2)
        // The whole folder moved: nothing missing.
        try copy(path("csv1"), to: path("moved/csv1"))
        let other = try otherDatabase()
        var r = try run(["--db", other, "import", path("moved/csv1")], useDefaultDB: true)
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertEqual(warnings(r), [])
        XCTAssertEqual(try run(["--db", other, "check"], useDefaultDB: true).status, 0)
        // The tables without their attachments folder.
        try FileManager.default.removeItem(atPath: path("moved/csv1/attachments"))
        let third = try otherDatabase("third")
        XCTAssertEqual(try run(["--db", third, "pet", "add", "Nabi", "--species", "cat"], useDefaultDB: true).status, 0)
        try expectRefused(["import", path("moved/csv1"), "--strict"], code: 65, mentions: "nothing was imported", db: third)
        r = try run(["--db", third, "import", path("moved/csv1")], useDefaultDB: true)
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertTrue(r.stdout.contains("Imported 3 records"), r.stdout)
        XCTAssertEqual(warnings(r), ["petlog: warning: 2 attachments were not beside the file: the records are imported and they are marked missing (petlog check lists them)"])
        let c = try run(["--db", third, "check"], useDefaultDB: true)
        XCTAssertEqual(c.status, 65)
        XCTAssertEqual(c.stdout.split(separator: "\n").filter { $0.trimmingCharacters(in: .whitespaces).hasPrefix("missing-file: ") }.count, 2, c.stdout)
    }

    func testNoAttachmentsAndStandardOutputLeaveTheFilesOut() throws {
        try makePhotographedPet()
        var out = try ok("export", "-o", path("n.json"), "--no-attachments")
        XCTAssertFalse(FileManager.default.fileExists(atPath: path("n.json.attachments")))
        XCTAssertFalse(out.contains("attachment"), out)
        out = try ok("export", "--format", "csv", "-o", path("csvn"), "--no-attachments")
        XCTAssertFalse(FileManager.default.fileExists(atPath: path("csvn/attachments")))
        // Standard output: the JSON alone on stdout, a note on stderr, no folder anywhere.
        let r = try run(["export", "-o", "-"])
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertEqual(r.stdout, try read(path("n.json")))
        XCTAssertTrue(r.stderr.contains("2 attachment files stay out of standard output"), r.stderr)
        XCTAssertFalse(FileManager.default.fileExists(atPath: path("-.attachments")))
        XCTAssertEqual(try run(["export", "-o", "-", "--no-attachments"]).stderr.contains("attachment"), false)
        // --with-attachments still works for old scripts; with --no-attachments it is a contradiction.
        try ok("export", "-o", path("w.json"), "--with-attachments", path("files"))
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: path("files")).count, 2)
        XCTAssertFalse(FileManager.default.fileExists(atPath: path("w.json.attachments")))
        try expectRefused(["export", "-o", path("x.json"), "--with-attachments", path("files"), "--no-attachments"], code: 64, mentions: "--no-attachments")
        // An export without its files imports all the same, marking them missing.
        let other = try otherDatabase()
        let imported = try run(["--db", other, "import", path("n.json")], useDefaultDB: true)
        XCTAssertEqual(imported.status, 0, imported.stderr)
        XCTAssertEqual(warnings(imported).count, 1, imported.stderr)
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
        XCTAssertGreaterThan(try recordsOut("log", "42", "--kind", "weight").count, 1700)
    }
}
