import Foundation
import XCTest
import PetlogTestSupport

/// Every value the schema's CHECKs allow, written straight into the file (as an import from another tool
/// or an older petlog could leave it), and every read command run over it: none may trap or hang.
/// Far-future and far-past instants (to ±2⁶³ seconds), the extreme offsets, huge gaps, 1 g and 1000 kg,
/// birth dates far back or ahead or unreadable, medication intervals of 1 s and 2⁶³−1 s, courses ending
/// before they start, next-due days before the dose, follow-ups in year 1800 and 9999, sums that overflow.
final class ExtremeValueTests: CLITestCase {
    static let int64Max = "9223372036854775807"
    static let int64Min = "-9223372036854775808"
    /// 2026-11-23T10:00:00+09:00, the tests' pinned now.
    static let now: Int64 = 1_795_395_600

    func sqlite(_ sql: String) throws {
        let r = try launch(URL(fileURLWithPath: "/usr/bin/env"),
                           ["python3", "-c", "import sqlite3,sys; c=sqlite3.connect(sys.argv[1]); c.executescript(sys.argv[2]); c.commit(); c.close()", dbPath, sql])
        XCTAssertEqual(r.status, 0, r.stderr)
    }

    /// Runs with a time limit: a hang counts as a failure like a trap.
    func runLimited(_ args: [String], seconds: Double = 90) throws -> Result {
        let p = Process()
        p.executableURL = Self.binary
        p.arguments = ["--db", dbPath] + args
        p.environment = ["HOME": home.path, "PATH": "/usr/bin:/bin", "TZ": "Asia/Seoul", "LANG": "C.UTF-8", "PETLOG_NOW": "2026-11-23T10:00:00+09:00"]
        p.currentDirectoryURL = home
        let out = home.appendingPathComponent("out.txt"), err = home.appendingPathComponent("err.txt")
        FileManager.default.createFile(atPath: out.path, contents: nil)
        FileManager.default.createFile(atPath: err.path, contents: nil)
        p.standardOutput = try FileHandle(forWritingTo: out)
        p.standardError = try FileHandle(forWritingTo: err)
        let done = DispatchSemaphore(value: 0)
        p.terminationHandler = { _ in done.signal() }
        try p.run()
        if done.wait(timeout: .now() + seconds) == .timedOut {
            p.terminate()
            _ = done.wait(timeout: .now() + 5)
            XCTFail("petlog \(args.joined(separator: " ")) still running after \(Int(seconds)) s")
        }
        return Result(status: p.terminationStatus, stdout: (try? String(contentsOf: out, encoding: .utf8)) ?? "",
                      stderr: (try? String(contentsOf: err, encoding: .utf8)) ?? "", crashed: p.terminationReason == .uncaughtSignal)
    }

    /// Pets, each carrying one class of extreme values, plus ordinary records beside them.
    func writeExtremes() throws {
        try ok("pet", "add", "Coco", "--species", "dog", "--born", "2020-03-01")
        try ok("weight", "Coco", "4.2kg", "--at", "-3d")
        try ok("symptom", "Coco", "vomiting", "--severity", "3", "--at", "-2d")
        try ok("vaccine", "Coco", "rabies", "--date", "2026-01-10")
        try ok("visit", "Coco", "--reason", "check", "--follow-up", "2026-12-20", "--at", "-1d")
        try ok("med", "start", "Coco", "Heartgard", "--every", "30d", "--at", "-40d")
        try ok("med", "give", "Coco", "Heartgard", "--at", "-10d")
        let (mx, mn, n) = (Self.int64Max, Self.int64Min, Self.now)
        var sql = """
        INSERT INTO pet (id, name, name_key, species, born, created_at, updated_at) VALUES
          (101, 'Future', 'future', 'dog', '9999-12-31', \(mx), \(mn)),
          (102, 'Past', 'past', 'cat', '1900', \(mn), \(mx)),
          (103, 'Odd', 'odd', 'ferret', '0000-13-45', 0, 0),
          (104, 'Meds', 'meds', 'dog', '2026-11', \(n), \(n)),
          (105, 'Vax', 'vax', 'dog', '99999999', \(n), \(n)),
          (106, 'Money', 'money', 'cat', NULL, \(n), \(n));
        INSERT INTO pet (id, name, name_key, species, archived_on, archive_reason, created_at, updated_at) VALUES
          (107, 'Gone', 'gone', 'dog', '0000-99-99', 'other', \(n), \(n));

        """
        var id = 1000
        func record(_ pet: Int?, _ kind: String, _ at: String, _ offset: Int = 32400, starred: Int = 1, note: String = "extreme") -> Int {
            id += 1
            sql += "INSERT INTO record (id, pet_id, kind, at, utc_offset, note, starred, created_at, updated_at) VALUES "
            sql += "(\(id), \(pet.map(String.init) ?? "NULL"), '\(kind)', \(at), \(offset), '\(note)', \(starred), \(mx), \(mn));\n"
            return id
        }
        // Far future: the year 9999 at both extreme offsets, past the year 10000, 2¹⁵ s, and 2⁶³ − 1.
        for (pet, ats) in [(101, ["253402300799", "253402300799", "1000000000000000", mx, "4102444800", String(n - 86_400)]),
                           (102, ["-62135596800", "-1000000000000000", mn, "-5364662400", String(n - 86_400)])] {
            for (i, at) in ats.enumerated() {
                let grams = [1, 1_000_000][i % 2]
                let offset = [64800, -64800][i % 2]
                var r = record(pet, "weight", at, offset)
                sql += "INSERT INTO weight (record_id, grams, body_condition) VALUES (\(r), \(grams), \(i % 2 == 0 ? "9" : "NULL"));\n"
                r = record(pet, "symptom", at, offset)
                sql += "INSERT INTO symptom (record_id, code, listed, severity, duration_minutes) VALUES (\(r), 'vomiting', 1, 5, \(mx));\n"
                r = record(pet, "meal", at, offset)
                sql += "INSERT INTO meal (record_id, food, type, amount, amount_unit) VALUES (\(r), 'kibble', 'water', 100000, 'ml');\n"
                r = record(pet, "stool", at, offset)
                sql += "INSERT INTO stool (record_id, score, blood, mucus) VALUES (\(r), 7, 1, 1);\n"
                r = record(pet, "urine", at, offset)
                sql += "INSERT INTO urine (record_id, amount, straining, blood) VALUES (\(r), 'none', 1, 1);\n"
                r = record(pet, "diary", at, offset)
                sql += "INSERT INTO diary (record_id, text, mood) VALUES (\(r), 'x', 'unwell');\n"
                r = record(pet, "visit", at, offset)
                sql += "INSERT INTO visit (record_id, reason, weight_grams, follow_up, cost_minor, cost_currency) VALUES (\(r), 'r', 1000000, '9999-12-31', \(mx), 'KRW');\n"
                r = record(pet, "vaccination", at, offset)
                sql += "INSERT INTO vaccination (record_id, vaccine, next_due) VALUES (\(r), 'dhpp', '1800-01-01');\n"
                let m = record(pet, "medication", at, offset)
                sql += "INSERT INTO medication (record_id, name, interval_seconds, times, ends_on, stopped_at) VALUES (\(m), 'Med\(i)', \(i % 2 == 0 ? "1" : mx), NULL, NULL, NULL);\n"
                r = record(pet, "dose", at, offset)
                sql += "INSERT INTO dose (record_id, medication_id, skipped) VALUES (\(r), \(m), 0);\n"
                r = record(pet, "expense", at, offset)
                sql += "INSERT INTO expense (record_id, amount_minor, currency, category) VALUES (\(r), \(mx), 'KRW', 'vet');\n"
            }
        }
        // Medication courses of every odd shape, started long ago, now and far ahead.
        for (i, (interval, times, ends, stopped, at)) in [
            ("1", "NULL", "NULL", "NULL", String(n - 30 * 86_400)),
            ("1", "NULL", "'9999-12-31'", "NULL", "-62135596800"),
            (mx, "NULL", "'1800-01-01'", "NULL", String(n - 86_400)),
            ("NULL", "'00:00,23:59'", "NULL", "NULL", "-62135596800"),
            ("NULL", "'08:00,20:00'", "NULL", "NULL", "-1000000000000000"),
            ("NULL", "'08:00'", "'9999-12-31'", "NULL", mx),
            ("NULL", "'08:00'", "NULL", mn, String(n - 86_400)),
            ("86400", "NULL", "NULL", mx, mn),
            ("NULL", "'nonsense'", "'garbage'", "NULL", String(n)),
        ].enumerated() {
            let m = record(104, "medication", at)
            sql += "INSERT INTO medication (record_id, name, interval_seconds, times, ends_on, stopped_at) VALUES (\(m), 'Course\(i)', \(interval), \(times), \(ends), \(stopped));\n"
            for doseAt in [mx, mn, String(n - 3600)] {
                let d = record(104, "dose", doseAt)
                sql += "INSERT INTO dose (record_id, medication_id, skipped) VALUES (\(d), \(m), \(i % 2));\n"
            }
        }
        // Vaccinations due before they were given, in 1800 and 9999, unknown codes, and follow-ups likewise.
        for (i, (vaccine, due, at)) in [("dhpp", "'1800-01-01'", String(n)), ("rabies", "'9999-12-31'", "-62135596800"),
                                        ("rabies", "'2026-01-01'", "253402300799"), ("Some,Thing", "'not a day'", String(n)),
                                        ("fvrcp", "NULL", mx), ("lepto", "'0000-00-00'", mn)].enumerated() {
            var r = record(105, "vaccination", at, [64800, -64800][i % 2])
            sql += "INSERT INTO vaccination (record_id, vaccine, next_due) VALUES (\(r), '\(vaccine)', \(due));\n"
            r = record(105, "visit", at, [64800, -64800][i % 2])
            sql += "INSERT INTO visit (record_id, reason, follow_up) VALUES (\(r), 'v\(i)', \(due));\n"
        }
        // Household expenses whose sum overflows 64 bits, in several currencies (one unknown).
        for (cur, at) in [("KRW", String(n - 86_400)), ("KRW", String(n - 2 * 86_400)), ("USD", mx), ("ZZZ", mn), ("JPY", "-62135596800")] {
            let r = record(nil, "expense", at)
            sql += "INSERT INTO expense (record_id, amount_minor, currency, category) VALUES (\(r), \(mx), '\(cur)', 'food');\n"
        }
        for _ in 0..<2 {
            let r = record(106, "expense", String(n - 86_400))
            sql += "INSERT INTO expense (record_id, amount_minor, currency, category) VALUES (\(r), \(mx), 'KRW', 'vet');\n"
        }
        try sqlite(sql)
    }

    func testEveryReadCommandSurvivesEveryValueTheSchemaAllows() throws {
        try requireDatabaseFile()
        try writeExtremes()
        let out = home.path
        var commands: [[String]] = [
            ["pet", "list"], ["pet", "list", "--all"], ["pet", "list", "--json"],
            ["log"], ["log", "--json"], ["log", "--since", "1800-01-01"], ["log", "--limit", "3"],
            ["stats"], ["stats", "--json"], ["stats", "--month", "9999-12"], ["stats", "--month", "1800-01"],
            ["due"], ["due", "--json"], ["due", "--within", "100000d"], ["due", "--ics", "\(out)/due.ics"],
            ["calendar"], ["calendar", "--month", "9999-12"], ["calendar", "--month", "1800-01"], ["calendar", "--json"],
            ["search", "extreme"], ["search", "v", "--json"], ["starred"], ["starred", "--json"],
            ["export", "-o", "\(out)/all.json"], ["export", "--format", "csv", "-o", "\(out)/csv"],
            ["med", "list", "--all"], ["med", "list", "--json"], ["check"],
            ["chart", "expenses"], ["chart", "expenses", "-o", "\(out)/e.png"], ["chart", "expenses", "--currency", "USD", "-o", "\(out)/e.svg"],
            ["chart", "expenses", "--since", "1800-01-01"],
        ]
        for pet in ["Coco", "Future", "Past", "Odd", "Meds", "Vax", "Money"] {
            commands += [
                ["pet", "show", pet], ["pet", "show", pet, "--json"], ["log", pet], ["stats", pet], ["due", pet], ["calendar", pet],
                ["chart", "weight", pet], ["chart", "weight", pet, "--since", "1800-01-01"],
                ["chart", "weight", pet, "--since", "1800-01-01", "--smooth", "7d", "-o", "\(out)/\(pet)-w.png"],
                ["chart", "weight", pet, "--since", "1800-01-01", "-o", "\(out)/\(pet)-w.pdf"],
                ["chart", "weight", pet, "-o", "\(out)/\(pet)-w.svg"],
                ["chart", "symptoms", pet], ["chart", "symptoms", pet, "--since", "1800-01-01", "-o", "\(out)/\(pet)-s.png"],
                ["chart", "symptoms", pet, "--by", "kind", "--since", "1800-01-01"],
                ["chart", "expenses", pet, "--since", "1800-01-01"],
                ["report", pet, "-o", "\(out)/\(pet).pdf"], ["report", pet, "--since", "1800-01-01", "-o", "\(out)/\(pet)-all.pdf"],
            ]
        }
        commands.append(["chart", "weight", "Coco", "Future", "Past", "--since", "1800-01-01", "-o", "\(out)/all-w.png"])
        // Values the CHECKs allow but petlog never writes (an unreadable birth day, medication times
        // "nonsense", currency "ZZZ") are refused, never read as a default (issue 15): `check` names each
        // one, and a command that meets one says so in one line (exit 65).
        let check = try runLimited(["check", "--verbose"])
        XCTAssertEqual(check.status, 65, check.stderr)
        // After the line naming the file and the count, one problem a line (indented).
        XCTAssertTrue(check.stdout.split(separator: "\n").first?.hasSuffix(": 9 problems") == true, check.stdout)
        XCTAssertEqual(check.stdout.split(separator: "\n").dropFirst().map { $0.trimmingCharacters(in: .whitespaces) }.sorted(), [
            // (One problem per row: #1154's ends_on "garbage" shows once its times are put right.)
            "invalid-value: expense #1173 currency: 'ZZZ'", "invalid-value: medication #1154 times: 'nonsense'", "invalid-value: pet #103 born: '0000-13-45'",
            "invalid-value: pet #105 born: '99999999'", "invalid-value: pet #107 archived_on: '0000-99-99'",
            "invalid-value: vaccination #1164 next_due: 'not a day'", "invalid-value: vaccination #1168 next_due: '0000-00-00'",
            "invalid-value: visit #1165 follow_up: 'not a day'", "invalid-value: visit #1169 follow_up: '0000-00-00'",
        ])
        var failures: [String] = []
        for args in commands where args != ["check"] {
            let r = try runLimited(args)
            let refused = r.status == 65 && r.stdout.isEmpty && r.stderr.contains("a value petlog never writes")
                && r.stderr.split(separator: "\n").count == 1
            if r.crashed || (r.status != 0 && !refused) {
                failures.append("petlog \(args.joined(separator: " ")): \(r.crashed ? "signal" : "exit") \(r.status): \(r.stderr.suffix(300))")
            }
        }
        XCTAssertEqual(failures, [], failures.joined(separator: "\n"))

        // Put right as petlog would have written them, every read command runs over every other extreme.
        try sqlite("""
            UPDATE pet SET born = NULL WHERE id IN (103, 105);
            UPDATE pet SET archived_on = '2026-01-01' WHERE id = 107;
            UPDATE medication SET times = NULL, ends_on = NULL, interval_seconds = 86400 WHERE record_id = 1154;
            UPDATE vaccination SET next_due = NULL WHERE record_id IN (1164, 1168);
            UPDATE visit SET follow_up = NULL WHERE record_id IN (1165, 1169);
            UPDATE expense SET currency = 'USD' WHERE record_id = 1173;
            """)
        for args in commands {
            let r = try runLimited(args)
            if r.crashed || r.status != 0 {
                failures.append("petlog \(args.joined(separator: " ")): \(r.crashed ? "signal" : "exit") \(r.status): \(r.stderr.suffix(300))")
            }
        }
        XCTAssertEqual(failures, [], failures.joined(separator: "\n"))
    }
}
