import Foundation
import XCTest
import PetlogTestSupport

final class DueCommandTests: CLITestCase {
    func testWhatIsDueAndTheCronCheck() throws {
        try ok("pet", "add", "Coco", "--species", "dog", "--born", "2019-04-02")
        try ok("pet", "add", "Bori", "--species", "dog", "--born", "2026-10-01")
        // Rabies last given 2025-11-01: a year later it is overdue by 22 days (now is 2026-11-23).
        try ok("vaccine", "Coco", "rabies", "--date", "2025-11-01")
        try ok("visit", "Coco", "--reason", "ear infection", "--follow-up", "2026-12-01")
        try ok("med", "start", "Coco", "Apoquel", "--every", "1d", "--at", "2026-11-22 08:00")
        try ok("med", "give", "Coco", "apo", "--at", "2026-11-22 08:05")

        let table = try ok("due", "Coco")
        XCTAssertTrue(table.contains("22 d late"), table)
        XCTAssertTrue(table.contains("Rabies vaccine"), table)
        XCTAssertTrue(table.contains("follow-up visit (ear infection)"), table)
        XCTAssertTrue(table.contains("Apoquel dose"), table)
        XCTAssertEqual(try run(["due", "--check"]).status, 1, "something is overdue")

        let items = try XCTUnwrap(json("due", "--within", "90d") as? [[String: Any]])
        let kinds = items.map { "\($0["pet"] ?? "") \($0["kind"] ?? "")" }
        XCTAssertTrue(kinds.contains("Bori vaccine"), "a puppy's first core vaccines: \(kinds)")

        // Recording the dose supersedes the reminder: the next one is a year away, nothing overdue for rabies.
        try ok("vaccine", "Coco", "rabies")
        let after = try ok("due", "Coco")
        XCTAssertFalse(after.contains("Rabies"), after)
        try ok("visit", "Coco", "--reason", "recheck")
        try ok("med", "give", "Coco", "Apoquel")
        XCTAssertEqual(try run(["due", "Coco", "--check"]).status, 0)
    }

    func testTheICSFileIsValidAndStable() throws {
        guard (try? run(["help"]))?.status == 0 else { return XCTFail() }
        _ = try python("", needs: ["icalendar"])

        try ok("demo", "--end", "2026-11-20")
        let a = home.appendingPathComponent("a.ics").path, b = home.appendingPathComponent("b.ics").path
        try ok("due", "--within", "1y", "--ics", a)
        try ok("due", "--within", "1y", "--ics", b)
        let script = """
        import icalendar, sys
        uids = []
        for path in sys.argv[1:]:
            cal = icalendar.Calendar.from_ical(open(path, 'rb').read())
            assert cal['VERSION'] == '2.0'
            events = [c for c in cal.walk('VEVENT')]
            assert events, 'no events'
            for e in events:
                assert e.get('DTSTART') is not None and e.get('SUMMARY')
            uids.append(sorted(str(e['UID']) for e in events))
        assert uids[0] == uids[1], 'UIDs change between exports'
        assert len(set(uids[0])) == len(uids[0]), 'duplicate UIDs'
        print(len(uids[0]))
        """
        let r = try python(script, [a, b], needs: ["icalendar"])
        let out = r.stdout + r.stderr
        XCTAssertEqual(r.status, 0, out)
        XCTAssertGreaterThan(Int(out.trimmingCharacters(in: .whitespacesAndNewlines)) ?? 0, 3)
        let raw = try String(contentsOfFile: a, encoding: .utf8)
        XCTAssertTrue(raw.contains("\r\n"), "CRLF line ends")
        XCTAssertTrue(raw.split(separator: "\r\n").allSatisfy { $0.utf8.count <= 75 }, "lines folded at 75 octets")
    }
}
