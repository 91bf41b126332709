import Foundation
import XCTest

/// What happened cannot be dated in the future (README, Decisions: "Dates"); days counted from a
/// record's date cannot precede it. Each refusal is one line, exit 65, and the file unchanged.
final class FutureDateTests: CLITestCase {
    func testFutureObservationsBirthsAndReversedDaysAreRefused() throws {
        try ok("pet", "add", "Coco", "--species", "dog")
        try ok("med", "start", "Coco", "Heartgard", "--every", "30d")
        let id = try ok("weight", "Coco", "4kg", "--at", "-1d")
        let recordId = String(id.split(separator: " ")[0].dropFirst())
        // Pinned now: 2026-11-23 10:00 Seoul. A day alone may be today (noon, later than now); an instant 10 min ahead.
        try ok("weight", "Coco", "4kg", "--at", "2026-11-23")
        try ok("weight", "Coco", "4kg", "--at", "10:09")
        for args in [["weight", "Coco", "4kg", "--at", "2030-01-01"], ["weight", "Coco", "4kg", "--at", "10:30"],
                     ["symptom", "Coco", "vomiting", "--at", "2026-11-24"], ["meal", "Coco", "kibble", "--at", "9999-12-31"],
                     ["visit", "Coco", "--at", "2027-01-01"], ["vaccine", "Coco", "rabies", "--date", "2027-01-01"],
                     ["med", "give", "Coco", "Heartgard", "--at", "2026-11-24 08:00"], ["edit", recordId, "--at", "2031-01-01"]] {
            try expectRefused(args, code: 65, mentions: "is in the future")
        }
        try expectRefused(["pet", "add", "Mo", "--born", "2027"], code: 65, mentions: "is in the future")
        try expectRefused(["pet", "edit", "Coco", "--born", "2026-12"], code: 65, mentions: "is in the future")
        try expectRefused(["med", "start", "Coco", "Apoquel", "--every", "1d", "--until", "2026-11-01"], code: 65, mentions: "--until 2026-11-01 is before 2026-11-23")
        try expectRefused(["vaccine", "Coco", "rabies", "--next", "2026-01-01"], code: 65, mentions: "--next 2026-01-01 is before")
        try expectRefused(["visit", "Coco", "--follow-up", "2026-11-01"], code: 65, mentions: "--follow-up 2026-11-01 is before")
        try expectRefused(["weight", "Coco", "4kg", "--at", "2030-01-01", "--lang", "ko"], code: 65, mentions: "미래입니다")
        try expectRefused(["weight", "Coco", "4kg", "--at", "2030-01-01", "--lang", "ja"], code: 65, mentions: "未来の日時です")
        // A course may start later; a birth this month is fine.
        try ok("med", "start", "Coco", "Apoquel", "--every", "1d", "--at", "2026-12-01")
        try ok("pet", "add", "Puppy", "--species", "dog", "--born", "2026-11")
    }
}
