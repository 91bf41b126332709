import Foundation
import XCTest
import PetlogTestSupport

/// The PostgreSQL store beside the SQLite one, as a shelter would use it: the same commands give the same
/// output, a household moves both ways byte for byte, imports at once add a file once, roles decide who
/// may write, and a server that is away or refuses is said in one line. Skipped without PostgreSQL 15.
final class ServerStoreTests: CLITestCase {
    override class var onOneStoreOnly: String? { "runs both stores itself" }
    var server: TestServer!

    override func setUpWithError() throws {
        try super.setUpWithError()
        server = try TestServer.shared()
    }

    /// A fresh database on the server (dropped with the test's HOME by the server's end).
    func newServerDatabase() throws -> String { TestServer.url(try server.createDatabase()) }

    /// The database an address names (`postgres://user@/NAME?host=…`).
    static func database(_ url: String) -> String {
        let afterHost = url.components(separatedBy: "@").last ?? url
        let path = afterHost.split(separator: "?").first ?? ""
        return String(path.split(separator: "/").last ?? "")
    }

    func psql(_ url: String, _ sql: String) throws -> String {
        let r = try TestServer.shell(["/usr/lib/postgresql/15/bin/psql", "-X", "-q", "-A", "-t", "-v", "ON_ERROR_STOP=1",
                                      "-h", server.folder, "-p", server.port, "-U", "postgres", "-d", Self.database(url), "-c", sql])
        XCTAssertEqual(r.status, 0, r.stdout)
        return r.stdout
    }

    /// The same session of a household, run on a file and on a server: every command's exit status and
    /// output are the same, byte for byte (the only difference, `log --by`, is asked of neither).
    func testTheSameCommandsGiveTheSameOutputOnBothStores() throws {
        let file = home.appendingPathComponent("same.sqlite").path
        let url = try newServerDatabase()
        let photo = home.appendingPathComponent("p.ppm")
        try Data("P6\n2 2\n255\n".utf8 + Data(repeating: 200, count: 12)).write(to: photo)
        let script: [[String]] = [
            ["pet", "add", "Coco", "--species", "dog", "--breed", "Maltese", "--born", "2019-05-01"],
            ["pet", "add", "Nabi", "--species", "cat", "--sex", "female"],
            ["weight", "Coco", "4.2kg", "--at", "2026-11-01 08:00"], ["weight", "Coco", "4.25kg", "--at", "2026-11-10 08:00"],
            ["weight", "Coco", "4.1kg", "--at", "2026-11-20 08:00", "--note", "after the walk"],
            ["weight", "Nabi", "3.6kg", "--at", "2026-11-15 09:00"],
            ["meal", "Coco", "kibble", "--amount", "80g", "--at", "2026-11-20 07:00"],
            ["stool", "Coco", "--score", "5", "--at", "2026-11-21 07:30"],
            ["symptom", "Nabi", "vomiting", "--severity", "2", "--at", "2026-11-21 12:00"],
            ["diary", "Coco", "first snow walk", "--photo", photo.path, "--at", "2026-11-22 10:00"],
            ["visit", "Coco", "--clinic", "Happy Vet", "--reason", "checkup", "--weight", "4.3kg", "--follow-up", "2026-12-20", "--cost", "55000", "--currency", "KRW", "--at", "2026-11-18 15:00"],
            ["vaccine", "Nabi", "rabies", "--next", "2027-11-01", "--at", "2026-11-02 10:00"],
            ["med", "start", "Nabi", "Amoxicillin", "--every", "12h", "--at", "2026-11-21 08:00"],
            ["med", "give", "Nabi", "Amoxicillin", "--at", "2026-11-21 20:00"],
            ["expense", "Coco,Nabi", "45001", "KRW", "--items", "shampoo, brush", "--at", "2026-11-19 11:00"],
            ["budget", "set", "300000", "KRW", "--monthly"],
            ["star", "3"], ["edit", "4", "--note", "scale at the clinic"], ["delete", "2"],
            ["log"], ["log", "Coco", "--kind", "weight"], ["log", "--json"], ["search", "snow"], ["search", "구토"], ["search", "co"],
            ["starred"], ["stats", "--month", "2026-11"], ["due"], ["med", "list", "--all"], ["expense", "list"], ["budget", "list"],
            ["chart", "weight", "Coco", "--text"], ["pet", "list", "--all"], ["pet", "show", "Coco"],
            ["export", "--format", "csv", "--table", "record", "-o", "-"], ["export", "--format", "csv", "--table", "expense_item", "-o", "-"],
            ["weight", "Cocoa", "4kg"], ["pet", "add", "coco", "--species", "dog"], ["delete", "999"],
            ["undo", "--list"], ["undo"], ["undo"], ["log", "--json"], ["check"],
        ]
        for step in script {
            let a = try run(["--db", file] + step, useDefaultDB: true)
            let b = try run(["--db", url] + step, useDefaultDB: true)
            XCTAssertEqual(a.status, b.status, "\(step): \(a.stderr) | \(b.stderr)")
            XCTAssertEqual(a.stdout, b.stdout, "\(step)")
            if !a.stderr.contains(file) { XCTAssertEqual(a.stderr, b.stderr, "\(step)") }
        }
        // The reports of the same data are the same document.
        for db in [file, url] {
            try ok("--db", db, "report", "Coco", "-o", home.appendingPathComponent(db == file ? "a.pdf" : "b.pdf").path)
        }
        // The same document, but for the line a server adds: who kept the records (`postgres`, the tests' role).
        let serverText = try pdfText(home.appendingPathComponent("b.pdf").path)
        XCTAssertTrue(serverText.contains("Records kept by postgres ("), serverText)
        func lines(_ text: String) -> [Substring] { text.split(separator: "\n").filter { !$0.hasPrefix("Records kept by ") } }
        XCTAssertEqual(lines(try pdfText(home.appendingPathComponent("a.pdf").path)), lines(serverText))
    }

    /// export → import into the server → export gives the same bytes, and back into a new file again.
    func testAHouseholdMovesBothWaysByteForByte() throws {
        let file = home.appendingPathComponent("old.sqlite").path, back = home.appendingPathComponent("back.sqlite").path
        let url = try newServerDatabase()
        try ok("--db", file, "demo")
        let a = home.appendingPathComponent("a.json").path, b = home.appendingPathComponent("b.json").path
        let c = home.appendingPathComponent("c.json").path
        try ok("--db", file, "export", "-o", a)
        try ok("--db", url, "import", a)
        try ok("--db", url, "export", "-o", b)
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: a)), try Data(contentsOf: URL(fileURLWithPath: b)), "file → server")
        try ok("--db", back, "import", b)
        try ok("--db", back, "export", "-o", c)
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: a)), try Data(contentsOf: URL(fileURLWithPath: c)), "server → file")
        // Every table as CSV is the same too, and the server checks clean.
        let csvA = home.appendingPathComponent("csv-a").path, csvB = home.appendingPathComponent("csv-b").path
        try ok("--db", file, "export", "--format", "csv", "-o", csvA)
        try ok("--db", url, "export", "--format", "csv", "-o", csvB)
        for name in try FileManager.default.contentsOfDirectory(atPath: csvA) {
            XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: csvA + "/" + name)), try Data(contentsOf: URL(fileURLWithPath: csvB + "/" + name)), name)
        }
        XCTAssertEqual(try run(["--db", url, "check"], useDefaultDB: true).status, 0)
        // Search text out of step (a row lost by hand) is found and rebuilt by check --repair.
        _ = try psql(url, "DELETE FROM petlog.search_text WHERE key = (SELECT max(key) FROM petlog.search_text)")
        let damaged = try run(["--db", url, "check"], useDefaultDB: true)
        XCTAssertEqual(damaged.status, 65, damaged.stdout + damaged.stderr)
        XCTAssertTrue(damaged.stdout.contains("search-index"), damaged.stdout)
        XCTAssertEqual(try run(["--db", url, "check", "--repair"], useDefaultDB: true).status, 0)
        XCTAssertEqual(try run(["--db", url, "check"], useDefaultDB: true).status, 0)
        XCTAssertEqual(try run(["--db", url, "search", "snow"], useDefaultDB: true).stdout,
                       try run(["--db", file, "search", "snow"], useDefaultDB: true).stdout)
        // A new pet after the import gets a free id (the server's sequences moved past the file's ids).
        XCTAssertEqual(try run(["--db", url, "pet", "add", "Dubu", "--species", "dog"], useDefaultDB: true).status, 0)
    }

    /// Two staff importing the same file at the same moment: SERIALIZABLE makes one wait or retry, and the
    /// file's records are in the database once.
    func testTwoImportsAtOnceAddTheFileOnce() throws {
        let file = home.appendingPathComponent("src.sqlite").path
        let url = try newServerDatabase()
        try ok("--db", file, "demo")
        let a = home.appendingPathComponent("a.json").path
        try ok("--db", file, "export", "-o", a)
        try ok("--db", url, "pet", "add", "Dubu", "--species", "dog")
        let results = LockedList<Int32>()
        let binary = Self.binary, env = ["HOME": home.path, "PATH": "/usr/bin:/bin", "LANG": "C.UTF-8"]
        DispatchQueue.concurrentPerform(iterations: 2) { _ in
            let p = Process()
            p.executableURL = binary
            p.arguments = ["--db", url, "import", a]
            p.environment = env
            p.standardOutput = FileHandle.nullDevice
            p.standardError = FileHandle.nullDevice
            guard (try? p.run()) != nil else { return results.append(-1) }
            p.waitUntilExit()
            results.append(p.terminationStatus)
        }
        XCTAssertEqual(results.items.sorted(), [0, 0])
        let fileRecords = try XCTUnwrap((try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: a))) as? [String: Any])?["records"] as? [Any]).count
        XCTAssertEqual(Int(try psql(url, "SELECT count(*) FROM petlog.record").trimmingCharacters(in: .whitespacesAndNewlines)), fileRecords)
    }

    /// The server's own description of the petlog schema: constraints, indexes and which triggers are on.
    func schemaShape(_ url: String) throws -> String {
        try psql(url, """
            SELECT string_agg(x, E'\\n' ORDER BY x) FROM (
              SELECT conrelid::regclass::text || ' ' || conname || ' ' || pg_get_constraintdef(oid) AS x FROM pg_constraint WHERE connamespace = 'petlog'::regnamespace
              UNION ALL SELECT indexdef FROM pg_indexes WHERE schemaname = 'petlog'
              UNION ALL SELECT tgrelid::regclass::text || ' ' || tgname || ' ' || tgenabled::text FROM pg_trigger WHERE NOT tgisinternal AND tgrelid::regclass::text NOT LIKE 'pg_%'
            ) s
            """)
    }

    /// A big import (50,000 records or more into a database holding fewer) runs the bulk path: the record
    /// tables' keys and indexes are dropped for the load and made again, as the server's owner, inside the
    /// import's transaction. A staff role may do it, a volunteer may not; the result is the file exactly,
    /// the schema is as before, and an import killed in the middle leaves the schema whole and nothing half-loaded.
    func testABigImportRunsTheBulkPathAndLeavesTheSchemaAsItWas() throws {
        try TestServer.shared().holdRoles(for: self)
        let file = home.appendingPathComponent("big.sqlite").path
        try ok("--db", file, "pet", "add", "Rex", "--species", "dog")
        var csv = "measured_at,weight_kg\n"
        for i in 0..<60_000 { csv += Self.instant(i) + String(format: ",%.2f\n", 20 + Double(i % 500) / 100) }
        let weights = home.appendingPathComponent("w.csv")
        try csv.write(to: weights, atomically: true, encoding: .utf8)
        try ok("--db", file, "import", weights.path, "--pet", "Rex")
        try ok("--db", file, "diary", "Rex", "a snowy walk, tab\tand back\\slash")
        try ok("--db", file, "symptom", "Rex", "vomit", "--note", "yellow foam")
        let json = home.appendingPathComponent("big.json").path
        try ok("--db", file, "export", "-o", json)

        let url = try newServerDatabase()
        try ok("--db", url, "pg", "init-roles")
        let shape = try schemaShape(url)
        XCTAssertTrue(shape.contains("record_pet_kind_at") && shape.contains("weight_record_id_fkey"), shape)
        _ = try psql(url, "DROP ROLE IF EXISTS bulkstaff; DROP ROLE IF EXISTS bulkvol; CREATE ROLE bulkstaff LOGIN IN ROLE petlog_staff; CREATE ROLE bulkvol LOGIN IN ROLE petlog_volunteer")
        defer { _ = try? psql(url, "DROP OWNED BY bulkstaff, bulkvol; DROP ROLE IF EXISTS bulkstaff; DROP ROLE IF EXISTS bulkvol") }
        let staff = url.replacingOccurrences(of: "postgres://postgres@", with: "postgres://bulkstaff@")
        let volunteer = url.replacingOccurrences(of: "postgres://postgres@", with: "postgres://bulkvol@")

        // A volunteer is refused before anything is dropped.
        checkRefusal(try run(["--db", volunteer, "import", json], useDefaultDB: true), code: 77, mentions: "bulkvol", "a volunteer's import")
        XCTAssertEqual(try schemaShape(url), shape)

        // Staff load it: the records are the file's, byte for byte, and the schema is back as it was.
        let out = try ok("--db", staff, "import", json)
        XCTAssertTrue(out.contains("60,002"), out)
        let back = home.appendingPathComponent("back.json").path
        try ok("--db", url, "export", "-o", back)
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: json)), try Data(contentsOf: URL(fileURLWithPath: back)))
        XCTAssertEqual(try schemaShape(url), shape)
        XCTAssertEqual(try psql(url, "SELECT count(*) FROM petlog.bulk_saved").trimmingCharacters(in: .whitespacesAndNewlines), "0")
        // The bulk path ran: only its end analyzes the record table (PostgreSQL 15 writes an ANALYZE's time
        // into the shared statistics as it ends, so it is there once the import has exited).
        let analyzed = try psql(url, "SELECT last_analyze IS NOT NULL FROM pg_stat_user_tables WHERE schemaname = 'petlog' AND relname = 'record'")
        XCTAssertTrue(analyzed.contains("t"), "bulk_end analyzed the loaded tables")
        XCTAssertEqual(try run(["--db", url, "check"], useDefaultDB: true).status, 0)
        XCTAssertEqual(try ok("--db", url, "search", "slash"), try ok("--db", file, "search", "slash"))
        XCTAssertEqual(try ok("--db", url, "search", "foam"), try ok("--db", file, "search", "foam"))
        // The keys work again: a weight for a pet that is not there is refused by the server.
        XCTAssertNotEqual(try TestServer.shell(["/usr/lib/postgresql/15/bin/psql", "-X", "-q", "-v", "ON_ERROR_STOP=1", "-h", server.folder, "-p", server.port,
                                               "-U", "postgres", "-d", Self.database(url), "-c", "INSERT INTO petlog.weight VALUES (999999999, 1000, NULL)"]).status, 0)
        // Records written after the load are noted for search as before (the row triggers are on again).
        try ok("--db", staff, "diary", "Rex", "after the load")
        XCTAssertTrue(try ok("--db", url, "search", "after the").contains("after the load"))

        // Killed in the middle of the load: nothing of it is there and the schema is whole.
        let url2 = try newServerDatabase()
        try ok("--db", url2, "pet", "list")
        let shape2 = try schemaShape(url2)
        let p = Process()
        p.executableURL = Self.binary
        p.arguments = ["--db", url2, "import", json]
        p.environment = ["HOME": home.path, "PATH": "/usr/bin:/bin", "LANG": "C.UTF-8"]
        p.standardOutput = FileHandle.nullDevice
        p.standardError = FileHandle.nullDevice
        try p.run()
        // Killed once the server shows the load running in this database.
        let sawLoad = try server.waitUntil(Self.database(url2),
            "SELECT count(*) > 0 FROM pg_stat_activity WHERE datname = current_database() AND (query LIKE 'COPY%' OR query LIKE '%bulk_begin%')",
            is: "true")
        kill(p.processIdentifier, SIGKILL)
        p.waitUntilExit()
        XCTAssertTrue(sawLoad || p.terminationReason == .exit, "the load was seen or the import had finished")
        // The server ends the killed session's transaction; wait for it to go.
        XCTAssertTrue(try server.waitUntil(Self.database(url2), "SELECT count(*) FROM pg_stat_activity WHERE datname = current_database() AND application_name = 'petlog'", is: "0"))
        let count = try psql(url2, "SELECT count(*) FROM petlog.record").trimmingCharacters(in: .whitespacesAndNewlines)
        XCTAssertTrue(count == "0" || count == "60002", count)
        XCTAssertEqual(try schemaShape(url2), shape2)
        if count == "0" { try ok("--db", url2, "import", json) }
        XCTAssertEqual(try run(["--db", url2, "check"], useDefaultDB: true).status, 0)
    }

    static func instant(_ i: Int) -> String {
        let d = Date(timeIntervalSince1970: 1_577_836_800 + Double(i) * 3_600)
        let f = ISO8601DateFormatter()
        f.formatOptions = [.withInternetDateTime]
        return String(f.string(from: d).dropLast())   // without the Z: the CSV's own form
    }

    /// `petlog pg init-roles`: staff write and are named on their records; a volunteer reads everything
    /// and a write is one line, exit 77, nothing written.
    func testRolesDecideWhoMayWrite() throws {
        try TestServer.shared().holdRoles(for: self)
        let url = try newServerDatabase()
        try ok("--db", url, "pet", "add", "Coco", "--species", "dog")
        let out = try ok("--db", url, "pg", "init-roles")
        XCTAssertTrue(out.contains("petlog_volunteer"), out)
        XCTAssertEqual(try run(["--db", url, "pg", "init-roles"], useDefaultDB: true).status, 0, "runs again safely")
        XCTAssertEqual(try psql(url, "SELECT has_table_privilege('petlog_volunteer', 'petlog.web_account', 'SELECT')"), "f\n", "no password hash is a volunteer's to read")
        _ = try psql(url, "DROP ROLE IF EXISTS mina; DROP ROLE IF EXISTS jun; CREATE ROLE mina LOGIN IN ROLE petlog_staff; CREATE ROLE jun LOGIN IN ROLE petlog_volunteer")
        let staff = url.replacingOccurrences(of: "postgres://postgres@", with: "postgres://mina@")
        let volunteer = url.replacingOccurrences(of: "postgres://postgres@", with: "postgres://jun@")
        try ok("--db", staff, "weight", "Coco", "4.2kg")
        XCTAssertTrue(try ok("--db", volunteer, "log", "--by").contains("by mina"))
        let before = try ok("--db", url, "export", "-o", "-")
        let r = try run(["--db", volunteer, "weight", "Coco", "4.3kg"], useDefaultDB: true)
        checkRefusal(r, code: 77, mentions: "jun", "a volunteer's write")
        XCTAssertEqual(try ok("--db", url, "export", "-o", "-"), before)
        // The report says who kept the records.
        try ok("--db", volunteer, "report", "Coco", "-o", home.appendingPathComponent("r.pdf").path)
        XCTAssertTrue(try pdfText(home.appendingPathComponent("r.pdf").path).contains("mina (1)"))
    }

    /// delete → check --repair (the chunks go to attachment_quarantine) → undo: the photo comes back with
    /// its record, and check is clean; a file quarantined and referred to again is brought back by --repair.
    func testUndoAfterRepairBringsThePhotoBackOnTheServer() throws {
        let url = try newServerDatabase()
        let photo = home.appendingPathComponent("p.ppm")
        try Data("P3\n1 1\n255\n4 5 6\n".utf8).write(to: photo)
        try ok("--db", url, "pet", "add", "Coco", "--species", "dog")
        let added = try ok("--db", url, "diary", "Coco", "snow walk", "--photo", photo.path)
        let id = String(added.split(separator: "#").first?.prefix { $0.isNumber } ?? "")
        try ok("--db", url, "delete", id)
        _ = try run(["--db", url, "check", "--repair"], useDefaultDB: true)
        XCTAssertNotEqual(try psql(url, "SELECT count(*) FROM petlog.attachment_quarantine").trimmingCharacters(in: .whitespacesAndNewlines), "0")
        try ok("--db", url, "undo")
        let check = try run(["--db", url, "check"], useDefaultDB: true)
        XCTAssertEqual(check.status, 0, check.stdout + check.stderr)
        XCTAssertEqual(try run(["--db", url, "export", "-o", home.appendingPathComponent("all.json").path], useDefaultDB: true).status, 0)
        // Chunks moved aside by hand while a record still needs them: check names it, --repair mends it.
        _ = try psql(url, "INSERT INTO petlog.attachment_quarantine (sha256, seq, data) SELECT sha256, seq, data FROM petlog.attachment_chunk; DELETE FROM petlog.attachment_chunk")
        let damaged = try run(["--db", url, "check"], useDefaultDB: true)
        XCTAssertEqual(damaged.status, 65)
        XCTAssertTrue(damaged.stdout.contains("quarantined-file"), damaged.stdout)
        XCTAssertEqual(try run(["--db", url, "check", "--repair"], useDefaultDB: true).status, 0)
        XCTAssertEqual(try run(["--db", url, "check"], useDefaultDB: true).status, 0)
    }

    /// A server that is away, a wrong password, a missing database, a file copy asked of a server: one
    /// line each with the sysexits code, never the password; once the server is back the next command works.
    func testServerFaultsAreOneLineEach() throws {
        try TestServer.shared().holdRoles(for: self)
        let url = try newServerDatabase()
        try ok("--db", url, "pet", "add", "Coco", "--species", "dog")
        let db = Self.database(url)
        _ = try psql(url, "DROP ROLE IF EXISTS keeper; CREATE ROLE keeper LOGIN PASSWORD 'right-one' SUPERUSER")
        // Nothing listens on this port.
        let nobody = "postgres://keeper@127.0.0.1:1/\(db)?sslmode=disable"
        checkRefusal(try run(["--db", nobody, "log"], useDefaultDB: true), code: 69, mentions: "127.0.0.1", "server away")
        let wrong = "postgres://keeper:not-it@127.0.0.1:\(server.port)/\(db)?sslmode=disable"
        let r = try run(["--db", wrong, "log"], useDefaultDB: true)
        checkRefusal(r, code: 77, mentions: "keeper", "wrong password")
        XCTAssertFalse(r.stderr.contains("not-it"))
        let right = try run(["--db", "postgres://keeper@127.0.0.1:\(server.port)/\(db)?sslmode=disable", "pet", "list"],
                            env: ["PGPASSWORD": "right-one"], useDefaultDB: true)
        XCTAssertEqual(right.status, 0, right.stderr)
        checkRefusal(try run(["--db", url.replacingOccurrences(of: "/\(db)?", with: "/nosuchdb?"), "log"], useDefaultDB: true),
                     code: 69, mentions: "nosuchdb", "no such database")
        let backup = try run(["--db", url, "backup", "-o", home.appendingPathComponent("b.sqlite").path], useDefaultDB: true)
        checkRefusal(backup, code: 69, mentions: "pg_dump --format=custom --schema=petlog", "backup of a server")
        // TLS: the test server has a self-signed certificate: `require` encrypts without checking it (libpq's
        // meaning), `verify-full` checks it against the system's CA store and refuses, in one line.
        let tls = "postgres://keeper@127.0.0.1:\(server.port)/\(db)"
        let required = try run(["--db", tls + "?sslmode=require", "pet", "list"], env: ["PGPASSWORD": "right-one"], useDefaultDB: true)
        XCTAssertEqual(required.status, 0, required.stderr)
        checkRefusal(try run(["--db", tls + "?sslmode=verify-full", "pet", "list"], env: ["PGPASSWORD": "right-one"], useDefaultDB: true),
                     code: 69, mentions: "certificate is not trusted", "an untrusted certificate")
        // A server without TLS (a listener that answers the SSLRequest "N", as one with ssl = off does), asked
        // for it: said in words, in each language, never a library's code such as "(sslUnsupported)".
        let plain = try launchBackground(["/usr/bin/python3", "-c", "import socket; s=socket.socket(); s.bind(('127.0.0.1', 0)); s.listen(); print(s.getsockname()[1], flush=True)\nwhile True:\n c=s.accept()[0]; c.recv(8); c.sendall(b'N'); c.recv(100); c.close()"])
        defer { plain.terminate() }
        let plainPort = try plain.firstLine()
        for (lang, words) in [("en", "does not offer TLS"), ("ko", "TLS를 지원하지 않습니다"), ("ja", "TLS に対応していません")] {
            let r = try run(["--lang", lang, "--db", "postgres://keeper@127.0.0.1:\(plainPort)/\(db)?sslmode=require", "pet", "list"], env: ["PGPASSWORD": "x"], useDefaultDB: true)
            checkRefusal(r, code: 69, mentions: words, "a server without TLS (\(lang))")
            XCTAssertFalse(r.stderr.contains("sslUnsupported"), r.stderr)
        }
        // A password file others can read is not used, and petlog says why (then the login is refused).
        let pgpass = home.appendingPathComponent(".pgpass").path
        try "127.0.0.1:\(server.port):\(db):keeper:right-one\n".write(toFile: pgpass, atomically: true, encoding: .utf8)
        chmod(pgpass, 0o644)
        let open = try run(["--db", "postgres://keeper@127.0.0.1:\(server.port)/\(db)?sslmode=disable", "pet", "list"], useDefaultDB: true)
        XCTAssertEqual(open.status, 77)
        XCTAssertTrue(open.stderr.contains("chmod 0600"), open.stderr)
        // The same warning from every command that connects, `pg init-roles` included.
        let roles = try run(["--db", "postgres://keeper@127.0.0.1:\(server.port)/\(db)?sslmode=disable", "pg", "init-roles"], useDefaultDB: true)
        XCTAssertTrue(roles.stderr.contains("chmod 0600"), roles.stderr)
        chmod(pgpass, 0o600)
        XCTAssertEqual(try run(["--db", "postgres://keeper@127.0.0.1:\(server.port)/\(db)?sslmode=disable", "pet", "list"], useDefaultDB: true).status, 0)
        // A restore into a server is pg_restore's.
        checkRefusal(try run(["--db", url, "restore", home.appendingPathComponent("b.sqlite").path], useDefaultDB: true),
                     code: 69, mentions: "pg_restore", "restore into a server")
        // The password typed in an argument is blanked where ps reads it.
        // The listener says when petlog has connected: petlog is then past its start-up (where it blanks the
        // password) and waits for the server's answer; no sleep decides when to look.
        let listener = try launchBackground(["/usr/bin/python3", "-c", "import socket,time; s=socket.socket(); s.bind(('127.0.0.1', 0)); s.listen(); print(s.getsockname()[1], flush=True); c=s.accept(); print('connected', flush=True); time.sleep(600)"])
        defer { listener.terminate() }
        let port = try listener.firstLine()
        let waiting = try launchBackground([Self.binary.path, "--db", "postgres://keeper:hunter2@127.0.0.1:\(port)/\(db)?sslmode=disable", "log"])
        defer { waiting.terminate() }
        XCTAssertEqual(try listener.firstLine(), "connected")
        let cmdline = (try? String(contentsOfFile: "/proc/\(waiting.process.processIdentifier)/cmdline", encoding: .utf8)) ?? ""
        XCTAssertTrue(cmdline.contains("127.0.0.1"), cmdline)
        XCTAssertFalse(cmdline.contains("hunter2"), cmdline)
    }

    /// Ctrl-C or SIGTERM while petlog waits for a long statement: the server stops running it (a killed client's
    /// statement used to run on until `pg_cancel_backend`). The statement is a `pg_sleep` of ten minutes
    /// (`PETLOG_TEST_PG_SLEEP`, debug builds and the tests' build only); the test looks at `pg_stat_activity`, polling for up to a
    /// minute each way, and asserts no time.
    func testASignalCancelsTheServersWork() throws {
        let url = try newServerDatabase()
        try ok("--db", url, "pet", "add", "Coco", "--species", "dog")
        let db = Self.database(url)
        let sleeping = "SELECT count(*) FROM pg_stat_activity WHERE datname = '\(db)' AND state = 'active' AND query LIKE 'SELECT pg_sleep%'"
        func poll(until want: String) throws -> Bool { try server.waitUntil(db, sleeping, is: want) }
        for sig in [SIGINT, SIGTERM] {
            let p = Process()
            p.executableURL = Self.binary
            p.arguments = ["--db", url, "log"]
            p.environment = ["HOME": home.path, "PATH": "/usr/bin:/bin", "LANG": "C.UTF-8", "PETLOG_TEST_PG_SLEEP": "600"]
            p.standardOutput = FileHandle.nullDevice
            p.standardError = FileHandle.nullDevice
            try p.run()
            XCTAssertTrue(try poll(until: "1"), "petlog's statement never ran")
            kill(p.processIdentifier, sig)
            p.waitUntilExit()
            XCTAssertEqual(p.terminationReason, .uncaughtSignal)
            XCTAssertEqual(p.terminationStatus, sig)
            XCTAssertTrue(try poll(until: "0"), "the server still runs the statement of a petlog that got signal \(sig)")
        }
    }

    /// A program left running in the background (a listener, a petlog waiting on it).
    final class Background {
        let process = Process()
        let out = Pipe()
        func terminate() { if process.isRunning { process.terminate() } }
        func firstLine() throws -> String {
            var bytes = Data()
            while let b = try out.fileHandleForReading.read(upToCount: 1), !b.isEmpty, b != Data("\n".utf8) { bytes += b }
            return String(decoding: bytes, as: UTF8.self)
        }
    }

    func launchBackground(_ args: [String]) throws -> Background {
        let b = Background()
        b.process.executableURL = URL(fileURLWithPath: args[0])
        b.process.arguments = Array(args.dropFirst())
        b.process.environment = ["HOME": home.path, "PATH": "/usr/bin:/bin", "LANG": "C.UTF-8"]
        b.process.standardOutput = b.out
        b.process.standardError = FileHandle.nullDevice
        try b.process.run()
        return b
    }
}

/// The README's PostgreSQL set-up, followed as written, on a server of its own (roles belong to the whole
/// cluster, so the shared test server, whose other tests have made them, cannot show a first hour).
final class ServerSetUpTests: CLITestCase {
    override class var onOneStoreOnly: String? { "runs a server of its own" }
    func testTheReadmesSetUpWorksAsWrittenAndNamesAMissingPrivilege() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("petlog-pg-setup-\(UUID().uuidString.prefix(8))").path
        let log = folder + ".out"
        let started = try TestServer.shell(["bash", "-c", "bash \"$0\" start \"$1\" >\"$2\" 2>&1", TestServer.script, folder, log], capture: false)
        defer { _ = try? TestServer.shell(["bash", "-c", "bash \"$0\" stop \"$1\" >/dev/null 2>&1; rm -rf \"$1\" \"$1.out\"", TestServer.script, folder], capture: false) }
        let text = (try? String(contentsOfFile: log, encoding: .utf8)) ?? ""
        guard started.status == 0, let portWord = text.split(separator: " ").first(where: { $0.hasPrefix("PETLOG_PG_PORT=") }) else {
            throw XCTSkip("no PostgreSQL 15: \(text)")
        }
        let port = portWord.dropFirst(15).trimmingCharacters(in: .whitespacesAndNewlines)
        let bin = "/usr/lib/postgresql/15/bin/"
        func pg(_ args: [String]) throws -> (status: Int32, stdout: String, stderr: String) {
            try TestServer.shell([bin + args[0], "-h", folder, "-p", port, "-U", "postgres"] + args.dropFirst())
        }
        func url(_ role: String) -> String { "postgres://\(role)@/petlog?host=\(folder)&port=\(port)" }
        // sudo -u postgres createuser --pwprompt owner && sudo -u postgres createdb --owner owner petlog
        XCTAssertEqual(try pg(["createuser", "owner"]).status, 0)
        XCTAssertEqual(try pg(["createdb", "--owner", "owner", "petlog"]).status, 0)

        // The owner alone cannot make roles: one line naming the privilege and the superuser's line, exit 77.
        let alone = try run(["--db", url("owner"), "pg", "init-roles"], useDefaultDB: true)
        checkRefusal(alone, code: 77, mentions: "CREATEROLE", "init-roles as a createuser owner")
        XCTAssertTrue(alone.stderr.contains("petlog pg init-roles --sql | sudo -u postgres psql petlog"), alone.stderr)
        XCTAssertEqual(try pg(["psql", "-X", "-A", "-t", "-d", "petlog", "-c", "SELECT count(*) FROM pg_roles WHERE rolname LIKE 'petlog_%'"]).stdout
            .trimmingCharacters(in: .whitespacesAndNewlines), "0", "nothing was made")
        let ko = try run(["--lang", "ko", "--db", url("owner"), "pg", "init-roles"], useDefaultDB: true)
        XCTAssertTrue(ko.stderr.contains("CREATEROLE") && ko.stderr.contains("슈퍼유저"), ko.stderr)

        // petlog pg init-roles --sql | sudo -u postgres psql petlog
        let sql = home.appendingPathComponent("roles.sql").path
        let printed = try run(["pg", "init-roles", "--sql"], useDefaultDB: true)
        XCTAssertEqual(printed.status, 0, printed.stderr)
        try printed.stdout.write(toFile: sql, atomically: true, encoding: .utf8)
        let piped = try pg(["psql", "-X", "-v", "ON_ERROR_STOP=1", "-d", "petlog", "-f", sql])
        XCTAssertEqual(piped.status, 0, piped.stdout)
        // petlog --db postgres://owner@…/petlog pg init-roles
        let owner = try run(["--db", url("owner"), "pg", "init-roles"], useDefaultDB: true)
        XCTAssertEqual(owner.status, 0, owner.stderr)
        // The superuser's SQL again, now that the schema exists, and the owner's step again: both run safely.
        XCTAssertEqual(try pg(["psql", "-X", "-v", "ON_ERROR_STOP=1", "-d", "petlog", "-f", sql]).status, 0)
        XCTAssertEqual(try run(["--db", url("owner"), "pg", "init-roles"], useDefaultDB: true).status, 0)

        // sudo -u postgres psql petlog -c "CREATE ROLE mina LOGIN PASSWORD 'change-me' IN ROLE petlog_staff" (and jun)
        XCTAssertEqual(try pg(["psql", "-X", "-d", "petlog", "-c", "CREATE ROLE mina LOGIN PASSWORD 'change-me' IN ROLE petlog_staff"]).status, 0)
        XCTAssertEqual(try pg(["psql", "-X", "-d", "petlog", "-c", "CREATE ROLE jun LOGIN PASSWORD 'change-me' IN ROLE petlog_volunteer"]).status, 0)
        let add = try run(["--db", url("mina"), "pet", "add", "Penny", "--species", "dog"], useDefaultDB: true)
        XCTAssertEqual(add.status, 0, add.stderr)
        XCTAssertEqual(try run(["--db", url("mina"), "weight", "Penny", "12.4kg"], useDefaultDB: true).status, 0)
        XCTAssertTrue(try run(["--db", url("jun"), "log", "--by"], useDefaultDB: true).stdout.contains("by mina"))
        checkRefusal(try run(["--db", url("jun"), "weight", "Penny", "12.5kg"], useDefaultDB: true), code: 77, mentions: "jun", "a volunteer's write")

        // Only the owner changes roles: a staff member's init-roles is one line, exit 77, and leaves no
        // default privileges of its own (which would break the owner's restore).
        func foreignDefaults() throws -> String {
            try pg(["psql", "-X", "-A", "-t", "-d", "petlog", "-c",
                    "SELECT count(*) FROM pg_default_acl WHERE defaclrole <> (SELECT nspowner FROM pg_namespace WHERE nspname = 'petlog')"])
                .stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        }
        checkRefusal(try run(["--db", url("mina"), "pg", "init-roles"], useDefaultDB: true), code: 77, mentions: "owner", "init-roles as staff")
        checkRefusal(try run(["--lang", "ja", "--db", url("jun"), "pg", "init-roles"], useDefaultDB: true), code: 77, mentions: "所有者", "init-roles as a volunteer")
        XCTAssertEqual(try foreignDefaults(), "0")
        // A superuser's --sql after the schema exists sets the owner's default privileges, not its own.
        XCTAssertEqual(try pg(["psql", "-X", "-v", "ON_ERROR_STOP=1", "-d", "petlog", "-f", sql]).status, 0)
        XCTAssertEqual(try foreignDefaults(), "0")

        // The dump line `backup` prints, run as written by each role with a real pg_dump: the volunteer's
        // too (it reads the sequences); the owner's dump restores as the owner into a new database.
        for role in ["jun", "mina", "owner"] {
            let file = home.appendingPathComponent("\(role).dump").path
            let said = try run(["--db", url(role), "backup", "-o", file], useDefaultDB: true)
            guard let start = said.stderr.range(of: "pg_dump ") else { XCTFail(said.stderr); continue }
            let line = String(said.stderr[start.lowerBound...]).trimmingCharacters(in: .whitespacesAndNewlines)
            let dumped = try TestServer.shell(["bash", "-c", "PATH=\(bin):$PATH; " + line])
            XCTAssertEqual(dumped.status, 0, "\(role): \(line): \(dumped.stdout)")
        }
        XCTAssertEqual(try pg(["createdb", "--owner", "owner", "restored"]).status, 0)
        let restored = try TestServer.shell([bin + "pg_restore", "--exit-on-error", "--no-owner", "-h", folder, "-p", port, "-U", "owner", "-d", "restored",
                                             home.appendingPathComponent("owner.dump").path])
        XCTAssertEqual(restored.status, 0, restored.stdout)
        let again = try TestServer.shell([bin + "pg_restore", "--exit-on-error", "-h", folder, "-p", port, "-U", "owner", "-d", "restored",
                                          "--clean", "--if-exists", home.appendingPathComponent("owner.dump").path])
        XCTAssertEqual(again.status, 0, again.stdout)
    }
}
