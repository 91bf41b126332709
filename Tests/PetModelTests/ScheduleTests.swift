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

    func testAYoungAnimalFirstVaccinatedPastSixteenWeeksIsInItsInitialCourse() {
        // Issue 42: a 17-week-old kitten's first recorded FVRCP is not a three-yearly booster. A kitten of unknown
        // history gets two FHV/FCV doses, then the first booster at 26 weeks, then every three years.
        let kit = "2026-07-30"
        XCTAssertEqual(next("fvrcp", .cat, ["2026-11-27"], born: kit), "2026-12-18")
        XCTAssertEqual(next("fvrcp", .cat, ["2026-11-27", "2026-12-18"], born: kit), "2027-01-28")     // 26 weeks
        XCTAssertEqual(next("fvrcp", .cat, ["2026-11-27", "2026-12-18", "2027-01-28"], born: kit), "2030-01-28")
        // A 17-week-old puppy: one MLV dose protects (WSAVA 2016), so the first booster at 26 weeks, then three years.
        XCTAssertEqual(next("dhpp", .dog, ["2026-11-27"], born: kit), "2027-01-28")
        XCTAssertEqual(next("dhpp", .dog, ["2026-11-27", "2027-01-28"], born: kit), "2030-01-28")
        // A second dose given anyway at 20 weeks is still the course, not the first booster.
        XCTAssertEqual(next("dhpp", .dog, ["2026-11-27", "2026-12-18"], born: kit), "2027-01-28")
        // A series that ran past 16 weeks keeps its first booster at 26 weeks too.
        XCTAssertEqual(next("dhpp", .dog, ["2026-02-26", "2026-03-19", "2026-04-09", "2026-04-30", "2026-05-21"], born: "2026-01-01"),
                       "2026-07-02")
        // From 24 weeks the 26-week booster is too close: a year after the course.
        XCTAssertEqual(next("dhpp", .dog, ["2026-06-18"], born: "2026-01-01"), "2027-06-18")                 // 24 weeks
        // A 40-week-old dog: its first recorded dose is the course; the first booster a year later, then three years.
        XCTAssertEqual(next("dhpp", .dog, ["2026-10-08"], born: "2026-01-01"), "2027-10-08")
        XCTAssertEqual(next("dhpp", .dog, ["2026-10-08", "2027-10-08"], born: "2026-01-01"), "2030-10-08")
        // --booster still means a booster at any age.
        XCTAssertEqual(next("fvrcp", .cat, ["2026-11-27"], born: kit, intent: .booster), "2029-11-27")
    }

    /// What shared/reference/vaccination-schedules.md says of each shipped vaccine, typed from the reference (not
    /// read from the asset): the earliest age, the series and its end, the doses an animal of unknown history
    /// gets (young: past the series age and under a year; adult), whether an adult's first dose is a routine
    /// booster, the first booster at 26 weeks (or a year) and the interval after it.
    struct Reference {
        var minWeeks: Int
        var seriesUntil: Int?
        var youngDoses: Int
        var adultDoses: Int
        var adultDoseIsBooster = false
        var boosterAt26Weeks = false
        var thenMonths: Int
    }

    let reference: [Species: [String: Reference]] = [
        .dog: ["dhpp": Reference(minWeeks: 6, seriesUntil: 16, youngDoses: 1, adultDoses: 2, adultDoseIsBooster: true,
                                 boosterAt26Weeks: true, thenMonths: 36),
               "rabies": Reference(minWeeks: 12, youngDoses: 1, adultDoses: 1, thenMonths: 12),
               "leptospirosis": Reference(minWeeks: 8, youngDoses: 2, adultDoses: 2, thenMonths: 12),
               "bordetella": Reference(minWeeks: 8, youngDoses: 1, adultDoses: 1, thenMonths: 12),
               "canine-influenza": Reference(minWeeks: 8, youngDoses: 2, adultDoses: 2, thenMonths: 12)],
        .cat: ["fvrcp": Reference(minWeeks: 6, seriesUntil: 16, youngDoses: 2, adultDoses: 2, adultDoseIsBooster: true,
                                  boosterAt26Weeks: true, thenMonths: 36),
               "rabies": Reference(minWeeks: 12, youngDoses: 1, adultDoses: 1, thenMonths: 12),
               "felv": Reference(minWeeks: 8, youngDoses: 2, adultDoses: 2, thenMonths: 24)],
        .rabbit: ["myxo-rhd": Reference(minWeeks: 7, youngDoses: 1, adultDoses: 1, thenMonths: 12),
                  "rhdv2": Reference(minWeeks: 10, youngDoses: 1, adultDoses: 1, thenMonths: 12),
                  "myxomatosis": Reference(minWeeks: 6, youngDoses: 1, adultDoses: 1, thenMonths: 12)],
        .ferret: ["distemper": Reference(minWeeks: 8, seriesUntil: 14, youngDoses: 2, adultDoses: 2, thenMonths: 12),
                  "rabies": Reference(minWeeks: 12, youngDoses: 1, adultDoses: 1, thenMonths: 12)],
    ]

    /// Every vaccine of every species, first given at every age from 6 weeks to 2 years, each later dose given on
    /// the day petlog said with the earlier doses on the pet's record: the plan must follow the reference.
    func testEveryScheduleFromSixWeeksToTwoYearsFollowsTheReference() throws {
        let ctx = TimeContext(now: Date(timeIntervalSince1970: 1_795_395_600), timeZone: TimeZone(identifier: "Asia/Seoul")!)
        let born = day("2025-01-06")
        func weeks(_ d: LocalDate) -> Int { (d.dayNumber - born.dayNumber) / 7 }
        let shippedCodes = Dictionary(uniqueKeysWithValues: schedule.species.map { (Species(rawValue: $0.key)!, Set($0.value.map(\.code))) })
        XCTAssertEqual(shippedCodes, reference.mapValues { Set($0.keys) }, "every shipped vaccine has its reference row")
        for (species, rows) in reference.sorted(by: { $0.key.rawValue < $1.key.rawValue }) {
            let pet = Pet(id: 1, name: "P", species: species, born: PartialDate(year: 2025, month: 1, day: 6), createdAt: Date(), updatedAt: Date())
            for (code, ref) in rows.sorted(by: { $0.key < $1.key }) {
                let entry = try XCTUnwrap(schedule.vaccine(code, for: species))
                for firstAge in 6...104 {
                    var given = [born.adding(days: firstAge * 7)]
                    var records: [PetRecord] = []
                    for _ in 0..<7 {
                        let d = given.last!
                        let due = try XCTUnwrap(schedule.nextDue(entry, givenOn: d, to: pet, records: records, intent: .automatic, context: ctx))
                        let at = try TimeParser.instant(d.description + " 12:00", context: ctx)
                        records.append(PetRecord(id: Int64(records.count + 1), petId: 1, petName: nil, at: at, utcOffset: 32_400, note: nil,
                                                 starred: false, createdAt: at, updatedAt: at, detail: .vaccination(Vaccination(vaccine: code))))
                        given.append(due)
                    }
                    let plan = given.map { "\($0) (\(weeks($0)) wk)" }.joined(separator: ", ")
                    let label = "\(species.rawValue) \(code) first at \(firstAge) weeks: \(plan)"
                    var i = 0
                    // Under the earliest age a dose does not count: the next is once old enough.
                    while weeks(given[i]) < ref.minWeeks {
                        XCTAssertTrue((ref.minWeeks...ref.minWeeks + 4).contains(weeks(given[i + 1])), label); i += 1
                    }
                    // The series: every 2-4 weeks until the series age.
                    var seriesOnRecord = false
                    if let until = ref.seriesUntil {
                        while weeks(given[i]) < until {
                            XCTAssertTrue((14...28).contains(given[i + 1].dayNumber - given[i].dayNumber), label); i += 1
                            seriesOnRecord = true
                        }
                    }
                    let young = weeks(given[i]) < 52
                    let course = seriesOnRecord ? 1 : young ? ref.youngDoses : ref.adultDoses
                    if !seriesOnRecord && !young && ref.adultDoseIsBooster {
                        // An adult's dose with no earlier record is a routine booster.
                        XCTAssertEqual(given[i + 1], given[i].adding(months: ref.thenMonths), label)
                    } else {
                        // The initial course: its doses 2-4 weeks apart.
                        for _ in 1..<max(course, 1) {
                            XCTAssertTrue((14...28).contains(given[i + 1].dayNumber - given[i].dayNumber), label); i += 1
                        }
                        // The first booster: at 26 weeks of age, or a year after the course.
                        let booster = given[i + 1]
                        let at26 = ref.boosterAt26Weeks && booster == born.adding(days: 26 * 7)
                        XCTAssertTrue(at26 || booster == given[i].adding(months: 12), label)
                        i += 1
                    }
                    // Only then the booster interval, every time.
                    while i + 1 < given.count {
                        XCTAssertEqual(given[i + 1], given[i].adding(months: ref.thenMonths), label); i += 1
                    }
                }
            }
        }
    }
}
