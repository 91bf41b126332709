import Foundation
import XCTest
import PetlogTestSupport
import PetModel
import PetStoreCore

/// Every kind after the eleven shipped ones shows and edits from its descriptor (issue 43, step 1): `edit` takes
/// the option each member names, `show ID` then shows the member, `--json` has its value, and an option of
/// another kind is refused; on both stores.
final class DescriptorKindsTests: CLITestCase {
    /// The command that logs each later kind (a new kind's command goes here, or this test fails).
    let commands: [RecordKind: String] = [.grooming: "groom", .walk: "walk"]
    /// A listed code of each code group a member names.
    let codes = ["groomingTask": "nails"]

    /// What `edit` is given for a member, and the value `--json` then has for it.
    func typed(_ m: RecordKindTable.JSONField) throws -> (String, Any) {
        switch m.value {
        case .text: return ("Kim's", "Kim's")
        case .day: return ("2027-01-05", "2027-01-05")
        case .money: return ("12.50 USD", 1250)
        case .codes(let group): let code = try XCTUnwrap(codes[group], "no code of \(group) here"); return (code, [code])
        case .meters: return ("3.2km", 3200)
        case .minutes: return ("1h10m", 70)
        }
    }

    func testEveryLaterKindShowsAndEditsEachMemberItsDescriptorNames() throws {
        try ok("pet", "add", "Coco", "--species", "dog")
        let later = RecordKindTable.all.filter { $0.members != nil }
        XCTAssertFalse(later.isEmpty)
        for (i, table) in later.enumerated() {
            let command = try XCTUnwrap(commands[table.kind], "\(table.kind): its command is not in this test")
            // A record with no values: every member empty.
            let out = try ok(command, "Coco", "--at", "2026-11-0\(i + 1) 10:00")
            let id = try XCTUnwrap(out.split(separator: " ").first.map { String($0.drop { $0 == "#" }) }, out)
            var shown = try ok("show", id).split(separator: "\n").count
            for m in try XCTUnwrap(table.members) {
                guard let option = m.option else { continue }
                let (typed, stored) = try typed(m)
                try ok("edit", id, option, typed)
                let record = try XCTUnwrap(try json("show", id, "--json") as? [String: Any])
                let value = try XCTUnwrap(detail(record)[m.key], "\(table.kind) \(m.key)")
                switch stored {
                case let n as Int:
                    let number = (value as? [String: Any])?["minor_units"] as? Int ?? value as? Int
                    XCTAssertEqual(number, n, "\(table.kind) \(m.key)")
                case let list as [String]: XCTAssertEqual(value as? [String], list, "\(table.kind) \(m.key)")
                default: XCTAssertEqual(value as? String, stored as? String, "\(table.kind) \(m.key)")
                }
                // One more line in `show ID`: the member's, under its label.
                let lines = try ok("show", id).split(separator: "\n").count
                XCTAssertEqual(lines, shown + 1, "\(table.kind) \(m.key)")
                shown = lines
            }
            // The options of another later kind's members are refused, nothing changed.
            for other in later where other.kind != table.kind {
                for m in other.members ?? [] where !(table.members ?? []).contains(where: { $0.option == m.option }) {
                    guard let option = m.option else { continue }
                    try expectRefused(["edit", id, option, try typed(m).0], code: 64, mentions: option)
                }
            }
        }
    }
}
