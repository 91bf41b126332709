import XCTest
@testable import PetModel

final class ScheduleTests: XCTestCase {
    let schedule = VaccinationSchedule.shipped

    func day(_ s: String) -> LocalDate { LocalDate.parseISO(Substring(s))! }

    func next(_ code: String, _ species: Species, _ doses: [String], born: String?, intent: DoseIntent = .automatic) -> String? {
        let entry = schedule.vaccine(code, for: species)!
        return schedule.nextDue(entry, doses: doses.map(day), born: born.map(day), intent: intent)?.description
    }

    func testTheShippedFileIsValidAndNamesItsSources() throws {
        XCTAssertFalse(schedule.sources.isEmpty)
        XCTAssertTrue(schedule.note.contains("vet"))
        for species in [Species.dog, .cat, .rabbit, .ferret] {
            XCTAssertFalse(schedule.vaccines(for: species).isEmpty, "\(species)")
        }
        XCTAssertTrue(schedule.vaccines(for: .parrot).isEmpty, "species without a schedule simply have none")
        XCTAssertEqual(Set(schedule.vaccines(for: .dog).map(\.code)), ["dhpp", "rabies", "leptospirosis", "bordetella", "canine-influenza"])
    }

    func testBrokenSchedulesAreRefused() {
        let bad = #"{"note": "x", "sources": [], "species": {}}"#
        XCTAssertThrowsError(try VaccinationSchedule.decode(Data(bad.utf8)))
        let unknown = #"{"note": "x", "sources": ["s"], "species": {"dragon": []}}"#
        XCTAssertThrowsError(try VaccinationSchedule.decode(Data(unknown.utf8)))
    }

    func testAPuppySeriesThenBoosters() {
        // Born 2026-01-01: DHPP at 8, 11, 14 weeks continues every 3 weeks until 16 weeks or older.
        let born = "2026-01-01"
        XCTAssertEqual(next("dhpp", .dog, ["2026-02-26"], born: born), "2026-03-19")                   // 8 wk → 11 wk
        XCTAssertEqual(next("dhpp", .dog, ["2026-02-26", "2026-03-19", "2026-04-09"], born: born), "2026-04-30") // 14 wk → 17 wk
        // The dose at 17 weeks ends the series: first booster at 26 weeks of age.
        XCTAssertEqual(next("dhpp", .dog, ["2026-02-26", "2026-03-19", "2026-04-09", "2026-04-30"], born: born), "2026-07-02")
        // After the 26-week booster: every three years.
        XCTAssertEqual(next("dhpp", .dog, ["2026-02-26", "2026-03-19", "2026-04-09", "2026-04-30", "2026-07-02"], born: born), "2029-07-02")
        // Rabies at 12 weeks: a year later, then yearly.
        XCTAssertEqual(next("rabies", .dog, ["2026-03-26"], born: born), "2027-03-26")
        XCTAssertEqual(next("rabies", .dog, ["2026-03-26", "2027-03-20"], born: born), "2028-03-20")
        // Rabies given too young does not count: repeat at 12 weeks.
        XCTAssertEqual(next("rabies", .dog, ["2026-02-26"], born: born), "2026-03-26")
    }

    func testAnAdultWithALapsedRabiesBooster() {
        // Last rabies 2023-05-01 for a 6-year-old: due 2024-05-01, long overdue; the next dose restarts the yearly rhythm.
        XCTAssertEqual(next("rabies", .dog, ["2022-05-01", "2023-05-01"], born: "2019-04-02"), "2024-05-01")
        XCTAssertEqual(next("rabies", .dog, ["2022-05-01", "2023-05-01", "2026-11-20"], born: "2019-04-02"), "2027-11-20")
        // An adult's DHPP with no earlier dose recorded is a routine booster: one MLV dose protects (WSAVA 2016),
        // so the next is the booster interval later, not a puppy series' three weeks.
        XCTAssertEqual(next("dhpp", .dog, ["2026-11-20"], born: "2019-04-02"), "2029-11-20")
        XCTAssertEqual(next("dhpp", .dog, ["2026-11-20"], born: nil), "2029-11-20")
        XCTAssertEqual(next("fvrcp", .cat, ["2026-11-20"], born: "2018-05-01"), "2029-11-20")
        // Said to be its first dose ever (--initial): two doses three weeks apart, then a booster a year later.
        XCTAssertEqual(next("dhpp", .dog, ["2026-11-20"], born: "2019-04-02", intent: .initial), "2026-12-11")
        XCTAssertEqual(next("dhpp", .dog, ["2026-11-20", "2026-12-11"], born: "2019-04-02", intent: .initial), "2027-12-11")
        XCTAssertEqual(next("dhpp", .dog, ["2026-11-20", "2026-12-11", "2027-12-11"], born: nil), "2030-12-11")
        // Not modified-live or not core: the initial course stays (leptospirosis needs two doses) unless --booster.
        XCTAssertEqual(next("leptospirosis", .dog, ["2026-11-20"], born: "2019-04-02"), "2026-12-11")
        XCTAssertEqual(next("leptospirosis", .dog, ["2026-11-20"], born: "2019-04-02", intent: .booster), "2027-11-20")
        XCTAssertEqual(next("distemper", .ferret, ["2026-11-20"], born: "2020-01-01"), "2026-12-11")
        // A puppy is still in its series.
        XCTAssertEqual(next("dhpp", .dog, ["2026-11-20"], born: "2026-09-01"), "2026-12-11")
    }

    func testAKitten() {
        let born = "2026-03-01"
        XCTAssertEqual(next("fvrcp", .cat, ["2026-04-26"], born: born), "2026-05-17")  // 8 wk → 11 wk
        XCTAssertEqual(next("fvrcp", .cat, ["2026-04-26", "2026-05-17", "2026-06-07", "2026-06-28"], born: born), "2026-08-30") // 26 wk
        XCTAssertEqual(next("felv", .cat, ["2026-04-26"], born: born), "2026-05-24")   // two doses 4 weeks apart
        XCTAssertEqual(next("felv", .cat, ["2026-04-26", "2026-05-24"], born: born), "2027-05-24")
    }

    func testARabbitAndAFerret() {
        XCTAssertEqual(next("myxo-rhd", .rabbit, ["2026-05-01"], born: "2026-02-01"), "2027-05-01")
        XCTAssertEqual(next("myxo-rhd", .rabbit, ["2026-05-01", "2027-05-03"], born: "2026-02-01"), "2028-05-03")
        // Ferret distemper at 8, 11, 14 weeks, then yearly.
        XCTAssertEqual(next("distemper", .ferret, ["2026-02-26"], born: "2026-01-01"), "2026-03-19")
        XCTAssertEqual(next("distemper", .ferret, ["2026-02-26", "2026-03-19", "2026-04-09"], born: "2026-01-01"), "2027-04-09")
    }

    func testCombinationProductsCoverTheirParts() {
        let rabbit = schedule.vaccines(for: .rabbit)
        let combo = rabbit.first { $0.code == "myxo-rhd" }!
        let rhdv2 = rabbit.first { $0.code == "rhdv2" }!
        XCTAssertTrue(rhdv2.isSatisfied(by: combo))
        XCTAssertFalse(combo.isSatisfied(by: rhdv2))
    }
}
