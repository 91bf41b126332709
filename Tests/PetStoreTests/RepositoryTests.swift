import Foundation
import GRDB
import XCTest
import PetlogTestSupport
import PetModel
@testable import PetFiles
@testable import PetStoreCore
@testable import PetStoreSQLite

final class RepositoryTests: StoreTestCase {
    var repo: (any PetlogStore)!
    let t0 = Date(timeIntervalSince1970: 1_795_395_600)

    override func setUpWithError() throws {
        repo = try makeStore(now: { Date(timeIntervalSince1970: 1_795_395_600) })
    }

    @discardableResult
    func addPet(_ name: String, _ species: Species = .dog) throws -> Pet {
        try repo.addPet(PetDraft(name: name, species: species))
    }

    func draft(_ detail: RecordDetail, minutesAgo: Double = 0, note: String? = nil) -> RecordDraft {
        RecordDraft(at: t0.addingTimeInterval(-minutesAgo * 60), utcOffset: 32_400, note: note, detail: detail)
    }

    func testPetNamesAreUniqueAmongActivePetsOnly() throws {
        let coco = try addPet("Coco")
        XCTAssertThrowsError(try addPet("coco")) { XCTAssertEqual($0 as? StoreError, .duplicatePetName("Coco")) }
        _ = try repo.archivePet(.id(coco.id), reason: .passedAway, on: LocalDate(year: 2026, month: 1, day: 1)!)
        let second = try addPet("Coco")
        XCTAssertNotEqual(second.id, coco.id)
        XCTAssertEqual(try repo.pet(.name("COCO")).id, second.id, "the active pet wins over the archived one")
        XCTAssertEqual(try repo.pets(includeArchived: false).count, 1)
        XCTAssertEqual(try repo.pets(includeArchived: true).count, 2)
        XCTAssertThrowsError(try repo.unarchivePet(.id(coco.id))) { XCTAssertEqual($0 as? StoreError, .duplicatePetName("Coco")) }
    }

    func testUnknownPetSuggestsTheClosestName() throws {
        try addPet("Coco")
        try addPet("Nabi", .cat)
        XCTAssertThrowsError(try repo.pet(.name("Cocoa"))) { XCTAssertEqual($0 as? StoreError, .petNotFound("Cocoa", suggestion: "Coco")) }
        XCTAssertThrowsError(try repo.pet(.name("Rex"))) { XCTAssertEqual($0 as? StoreError, .petNotFound("Rex", suggestion: nil)) }
    }

    func testEveryKindRoundTrips() throws {
        try addPet("Coco")
        let krw = Currency.named("KRW")!
        let details: [RecordDetail] = [
            .weight(Weight(mass: Mass(grams: 4200), bodyCondition: 5)),
            .meal(Meal(food: "kibble", type: .snack, amount: Amount(value: 80, unit: .g))),
            .stool(Stool(score: 4, color: "brown", blood: true, mucus: false)),
            .urine(Urine(color: "yellow", amount: .small, straining: true, blood: false)),
            .symptom(Symptom(code: "vomiting", isListed: true, severity: 3, durationMinutes: 30)),
            .diary(Diary(text: "첫 눈 산책 ❄️", mood: .happy)),
            .visit(Visit(clinic: "Happy Vet", vet: "Dr. Kim", reason: "checkup", diagnosis: "healthy", treatment: "none",
                         weight: Mass(grams: 4300), followUp: LocalDate(year: 2026, month: 12, day: 20), cost: Money(minorUnits: 85000, currency: krw))),
            .vaccination(Vaccination(vaccine: "rabies", product: "Nobivac", lot: "A1", clinic: "Happy Vet", nextDue: LocalDate(year: 2027, month: 11, day: 23))),
            .medication(Medication(name: "Heartgard", dose: "1 chew", route: .oral, intervalSeconds: 2_592_000)),
            .grooming(Grooming(tasks: [.nails, .bath], groomer: "털복숭이 살롱", cost: Money(minorUnits: 55000, currency: krw),
                               next: LocalDate(year: 2027, month: 1, day: 10))),
            .walk(Walk(meters: 3219, minutes: 70)),
            .expense(Expense(money: Money(minorUnits: 1250, currency: Currency.named("USD")!), category: "food", merchant: "Shop", payment: .card)),
        ]
        for (i, d) in details.enumerated() {
            let added = try repo.addRecord(pets: [.name("Coco")], draft(d, minutesAgo: Double(100 - i), note: "n\(i)"))
            XCTAssertEqual(added.count, 1)
            let back = try repo.record(id: added[0].id)
            XCTAssertEqual(back.detail, d)
            XCTAssertEqual(back.note, "n\(i)")
            XCTAssertEqual(back.utcOffset, 32_400)
            XCTAssertEqual(back.petName, "Coco")
        }
        let dose = try repo.giveMedication(pets: [.name("coco")], name: "heart", at: t0, utcOffset: 32_400, note: nil, skipped: false)
        XCTAssertEqual(dose.first?.kind, .dose)
        let all = try repo.records(RecordQuery(pets: [.name("Coco")]))
        XCTAssertEqual(all.map(\.kind), RecordKind.allCases.filter { $0 != .dose && $0 != .expense && $0 != .grooming && $0 != .walk } + [.grooming, .walk, .expense, .dose])
        XCTAssertEqual(try repo.records(RecordQuery(kinds: [.weight, .symptom])).count, 2)
    }

    func testOneRecordPerPetInOneTransaction() throws {
        try addPet("Coco"); try addPet("Nabi", .cat)
        let both = try repo.addRecord(pets: [.name("Coco"), .name("Nabi")], draft(.weight(Weight(mass: Mass(grams: 100)))))
        XCTAssertEqual(both.count, 2)
        XCTAssertThrowsError(try repo.addRecord(pets: [.name("Coco"), .name("Rex")], draft(.weight(Weight(mass: Mass(grams: 100))))))
        XCTAssertEqual(try repo.records(RecordQuery()).count, 2, "a failed multi-pet write leaves nothing behind")
    }

    func testSchemaChecksRejectOutOfRangeValues() throws {
        try addPet("Coco")
        // A stool score or severity outside its scale cannot be made (`ScoreTests`); the schema's CHECKs are
        // written from the same ranges and refuse what the types cannot say.
        // (`Int(…)`: in tests a bare literal is a score, see ScoreLiterals.swift.)
        XCTAssertNil(StoolScore(Int(9)))
        XCTAssertNil(SymptomSeverity(Int(0)))
        XCTAssertThrowsError(try repo.addRecord(pets: [.name("Coco")], draft(.weight(Weight(mass: Mass(grams: -1))))))
        XCTAssertEqual(try repo.records(RecordQuery()).count, 0)
    }

    func testArchivedPetsTakeNoNewRecordsButKeepHistory() throws {
        try addPet("Coco")
        try repo.addRecord(pets: [.name("Coco")], draft(.weight(Weight(mass: Mass(grams: 4000)))))
        _ = try repo.archivePet(.name("Coco"), reason: .rehomed, on: LocalDate(year: 2026, month: 11, day: 1)!)
        XCTAssertThrowsError(try repo.addRecord(pets: [.name("Coco")], draft(.weight(Weight(mass: Mass(grams: 4000)))))) {
            XCTAssertEqual($0 as? StoreError, .petArchived("Coco"))
        }
        XCTAssertEqual(try repo.records(RecordQuery(pets: [.name("Coco")])).count, 1)
    }

    func testEditDeleteStarAndSearch() throws {
        try addPet("Coco")
        let r = try repo.addRecord(pets: [.name("Coco")], draft(.diary(Diary(text: "First SNOW walk")), note: "Café visit"))[0]
        let updated = try repo.updateRecord(id: r.id) { _ in RecordUpdate(note: .some(nil), detail: .diary(Diary(text: "first snow walk, cold"))) }
        XCTAssertNil(updated.note)
        XCTAssertEqual(updated.detail, .diary(Diary(text: "first snow walk, cold")))
        XCTAssertTrue(try repo.setStarred(id: r.id, true).starred)
        XCTAssertEqual(try repo.records(RecordQuery(starredOnly: true)).map(\.id), [r.id])
        XCTAssertEqual(try repo.search("SNOW", limit: 10).map(\.id), [r.id])
        XCTAssertEqual(try repo.search("nothing", limit: 10).count, 0)
        _ = try repo.deleteRecord(id: r.id)
        XCTAssertThrowsError(try repo.record(id: r.id)) { XCTAssertEqual($0 as? StoreError, .recordNotFound(r.id)) }
    }

    func testSearchFindsUnicodeCaseInsensitively() throws {
        try addPet("나비", .cat)
        try repo.addRecord(pets: [.name("나비")], draft(.visit(Visit(clinic: "ÉCOLE Vétérinaire", diagnosis: "위염"))))
        XCTAssertEqual(try repo.search("école", limit: 10).count, 1)
        XCTAssertEqual(try repo.search("위염", limit: 10).count, 1)
        XCTAssertEqual(try repo.pet(.name("나비".decomposedStringWithCanonicalMapping)).name, "나비")
    }

    func testRemovingAPetRemovesItsRecords() throws {
        try addPet("Coco")
        try repo.addRecord(pets: [.name("Coco")], draft(.weight(Weight(mass: Mass(grams: 4000)))))
        try repo.addRecord(pets: [.name("Coco")], draft(.medication(Medication(name: "X"))))
        _ = try repo.giveMedication(pets: [.name("Coco")], name: "X", at: t0, utcOffset: 0, note: nil, skipped: false)
        let (_, n) = try repo.removePet(.name("Coco"))
        XCTAssertEqual(n, 3)
        XCTAssertEqual(try repo.records(RecordQuery()).count, 0)
        XCTAssertEqual(try repo.count(RecordQuery()), 0)
    }

    func testMedicationCourses() throws {
        try addPet("Coco")
        try repo.addRecord(pets: [.name("Coco")], draft(.medication(Medication(name: "Heartgard", dose: "1 chew", intervalSeconds: 86_400 * 30))))
        _ = try repo.giveMedication(pets: [.name("Coco")], name: "Heartgard", at: t0, utcOffset: 0, note: nil, skipped: false)
        _ = try repo.giveMedication(pets: [.name("Coco")], name: "heartgard", at: t0, utcOffset: 0, note: nil, skipped: true)
        var courses = try repo.medications(pets: [], includeStopped: false)
        XCTAssertEqual(courses.first?.dosesGiven, 1, "a skipped dose is not a given dose")
        _ = try repo.stopMedication(pet: .name("Coco"), name: "Heartgard", at: t0)
        courses = try repo.medications(pets: [], includeStopped: false)
        XCTAssertEqual(courses.count, 0)
        XCTAssertEqual(try repo.medications(pets: [], includeStopped: true).count, 1)
        XCTAssertThrowsError(try repo.giveMedication(pets: [.name("Coco")], name: "Heartgard", at: t0, utcOffset: 0, note: nil, skipped: false)) {
            XCTAssertEqual($0 as? StoreError, .medicationNotFound(pet: "Coco", name: "Heartgard"))
        }
    }

    /// What `due` reads (`careRecords`): the care kinds of the pets asked for, a pet's visits only when one of them
    /// has a follow-up and its groomings only when one asks for a next session. On SQLite every statement of the
    /// read comes from indexes (v17's `record_care`, `visit_follow_up`, `grooming_next_due`): no rowid lookup in
    /// `record` per header, no read of a whole table (issue 44: 1,714 pages of `record` for the shelter's headers).
    func testCareRecordsAreReadFromTheirIndexes() throws {
        let coco = try addPet("Coco"), nabi = try addPet("Nabi"), bori = try addPet("Bori")
        func add(_ pet: Pet, _ detail: RecordDetail, _ minutesAgo: Double) throws -> Int64 {
            try repo.addRecord(pets: [.id(pet.id)], draft(detail, minutesAgo: minutesAgo, note: "n")).first!.id
        }
        var wanted: Set<Int64> = []
        wanted.insert(try add(coco, .vaccination(Vaccination(vaccine: "rabies", nextDue: LocalDate(year: 2027, month: 1, day: 1))), 90))
        wanted.insert(try add(coco, .medication(Medication(name: "Heartgard", dose: "1 chew", intervalSeconds: 86_400 * 30)), 80))
        wanted.insert(try repo.giveMedication(pets: [.id(coco.id)], name: "Heartgard", at: t0, utcOffset: 0, note: nil, skipped: false)[0].id)
        wanted.insert(try add(coco, .visit(Visit(clinic: "Happy Vet", followUp: LocalDate(year: 2026, month: 12, day: 20))), 70))
        wanted.insert(try add(coco, .visit(Visit(clinic: "Happy Vet")), 60))
        _ = try add(coco, .grooming(Grooming(tasks: [.bath])), 50)
        _ = try add(coco, .weight(Weight(mass: Mass(grams: 4200))), 40)
        _ = try add(nabi, .visit(Visit(clinic: "Happy Vet")), 90)
        wanted.insert(try add(nabi, .grooming(Grooming(tasks: [.nails], next: LocalDate(year: 2027, month: 1, day: 10))), 80))
        wanted.insert(try add(nabi, .grooming(Grooming(tasks: [.bath])), 70))
        _ = try add(nabi, .symptom(Symptom(code: "vomiting", isListed: true, severity: 3)), 60)
        _ = try add(bori, .vaccination(Vaccination(vaccine: "rabies")), 50)

        var statements: [String] = []
        let database = ((repo as? Store)?.engine as? SQLiteRepository)?.database
        try database?.dbQueue.inDatabase { db in db.trace { if case .statement(let s) = $0 { statements.append(s.expandedSQL) } } }
        let read = try repo.careRecords(pets: [coco.id, nabi.id])
        XCTAssertEqual(Set(read.map(\.id)), wanted)
        XCTAssertEqual(read.count, wanted.count)
        XCTAssertEqual(Set(try repo.careRecords(pets: [bori.id]).map(\.petId)), [bori.id])
        guard let database else { return }
        try database.dbQueue.inDatabase { db in
            db.trace(nil)
            let reads = statements.filter { $0.hasPrefix("SELECT") }
            XCTAssertTrue(reads.contains { $0.contains("FROM record r") }, "\(reads)")
            for sql in reads where sql.contains("FROM record r") {
                let plan = try Row.fetchAll(db, sql: "EXPLAIN QUERY PLAN " + sql).map { $0["detail"] as String? ?? "" }
                XCTAssertTrue(plan.contains { $0.contains("SEARCH r USING COVERING INDEX record_care") }, "\(plan)")
                XCTAssertFalse(plan.contains { $0.contains("SCAN") && !$0.contains("COVERING INDEX") }, "a whole table read: \(plan)")
            }
        }
    }

    func testWeightSeriesIsOrderedAndBounded() throws {
        try addPet("Coco")
        for (i, g) in [4000, 4100, 4050].enumerated() {
            try repo.addRecord(pets: [.name("Coco")], draft(.weight(Weight(mass: Mass(grams: g))), minutesAgo: Double(10 - i)))
        }
        let pet = try repo.pet(.name("Coco"))
        XCTAssertEqual(try repo.weightSeries(pet: pet.id, since: nil, until: nil).grams, [4000, 4100, 4050])
        XCTAssertEqual(try repo.weightSeries(pet: pet.id, since: t0.addingTimeInterval(-9 * 60), until: nil).grams, [4100, 4050])
        XCTAssertEqual(try repo.weightSeries(pet: pet.id, since: nil, until: t0.addingTimeInterval(-9 * 60)).grams, [4000])
    }

    /// Both stores read the series their own way (SQLite steps the join, PostgreSQL packs it into one
    /// value): the same points, times and order, ties in id order, other pets and kinds left out.
    func testWeightSeriesKeepsTimesTiesAndDayWindows() throws {
        try addPet("Coco")
        try addPet("Nabi", .cat)
        XCTAssertEqual(try repo.weightSeries(pet: try repo.pet(.name("Coco")).id, since: nil, until: nil), WeightColumns(), "no weights: empty")
        let grams = [4000, 4100, 4050, 3990, 1_000_000, 1]
        let minutes: [Double] = [3 * 1440, 1440, 1440, 10, 0, 0]   // two ties at one instant each
        for (g, m) in zip(grams, minutes) {
            try repo.addRecord(pets: [.name("Coco")], draft(.weight(Weight(mass: Mass(grams: g))), minutesAgo: m))
        }
        try repo.addRecord(pets: [.name("Nabi")], draft(.weight(Weight(mass: Mass(grams: 3000))), minutesAgo: 5))
        try repo.addRecord(pets: [.name("Coco")], draft(.symptom(Symptom(code: "vomiting", isListed: true, severity: 3, durationMinutes: nil)), minutesAgo: 5))
        let coco = try repo.pet(.name("Coco")).id
        let all = try repo.weightSeries(pet: coco, since: nil, until: nil)
        XCTAssertEqual(all.grams, grams.map(Double.init))
        XCTAssertEqual(all.times, minutes.map { t0.addingTimeInterval(-$0 * 60).timeIntervalSince1970.rounded(.up) })
        // The records' own day (UTC+9 here): the day before t0's local day holds the two weights of 1440 minutes ago.
        let day = RecordClock.day(t0.addingTimeInterval(-1440 * 60), utcOffset: 32_400)
        let window = DayWindow(first: day, end: day.adding(days: 1))
        XCTAssertEqual(try repo.weightSeries(pet: coco, since: nil, until: nil, days: window).grams, [4100, 4050])
    }

    /// `stats` reads two months' last weights in one statement: each window gives what a read of that
    /// window alone gives (the latest time, then the highest id; the record's own day; pets filtered),
    /// and a pet weighed in only one window is in that one only.
    func testLastWeightsOfSeveralWindowsEqualEachWindowAlone() throws {
        try addPet("Coco")
        try addPet("Nabi", .cat)
        try addPet("Bori")
        let weights: [(String, Int, Double)] = [("Coco", 4000, 3 * 1440), ("Coco", 4100, 1440), ("Coco", 4050, 1440), ("Coco", 3990, 10),
                                                ("Nabi", 3000, 3 * 1440), ("Bori", 7000, 10)]
        for (name, g, m) in weights { try repo.addRecord(pets: [.name(name)], draft(.weight(Weight(mass: Mass(grams: g))), minutesAgo: m)) }
        func day(_ minutesAgo: Double) -> LocalDate { RecordClock.day(t0.addingTimeInterval(-minutesAgo * 60), utcOffset: 32_400) }
        let windows = [DayWindow(first: day(10), end: day(10).adding(days: 1)),
                       DayWindow(first: day(3 * 1440), end: day(1440).adding(days: 1)),
                       DayWindow(first: day(40 * 1440), end: day(30 * 1440)),
                       // Open on one side or both: the side without a day is bounded by ±9.2e18 as before.
                       DayWindow(first: day(1440), end: nil), DayWindow(first: nil, end: day(1440)), DayWindow()]
        let always = (Date(timeIntervalSince1970: -9.2e18), Date(timeIntervalSince1970: 9.2e18))
        func names(_ found: [Int64: (name: String, mass: Mass)]) -> [String: Int] {
            Dictionary(uniqueKeysWithValues: found.map { ($0.value.name, $0.value.mass.grams) })
        }
        for pets: [PetRef] in [[], [.name("Coco"), .name("Nabi")]] {
            let together = try repo.lastWeights(pets: pets, windows: windows)
            XCTAssertEqual(together.count, windows.count)
            for (w, found) in zip(windows, together) {
                XCTAssertEqual(names(found), names(try repo.lastWeights(pets: pets, since: always.0, until: always.1, days: w)))
            }
        }
        let all = try repo.lastWeights(pets: [], windows: windows).map(names)
        XCTAssertEqual(all, [["Coco": 3990, "Bori": 7000], ["Coco": 4050, "Nabi": 3000], [:],
                             ["Coco": 3990, "Bori": 7000], ["Coco": 4000, "Nabi": 3000], ["Coco": 3990, "Nabi": 3000, "Bori": 7000]],
                       "ties at one instant: the higher id")
        XCTAssertEqual(try repo.lastWeights(pets: [.name("Nabi")], windows: windows).map(names),
                       [[:], ["Nabi": 3000], [:], [:], ["Nabi": 3000], ["Nabi": 3000]])
        XCTAssertEqual(try repo.lastWeights(pets: [], windows: []).count, 0)
    }

    func testDemoIsDeterministicForASeed() throws {
        func snapshot(seed: UInt64) throws -> [String] {
            let r = try makeStore(now: { Date(timeIntervalSince1970: 1_795_395_600) })
            let counts = try DemoHousehold(seed: seed, end: LocalDate(year: 2026, month: 11, day: 20)!, timeZone: TimeZone(identifier: "Asia/Seoul")!).seed(into: r)
            XCTAssertEqual(counts.pets, 3)
            let records = try r.records(RecordQuery())
            XCTAssertEqual(records.count, counts.records)
            XCTAssertEqual(Set(records.map(\.kind)), Set(RecordKind.allCases), "the demo has every kind")
            return records.map { "\($0.id) \($0.at.timeIntervalSince1970) \($0.detail)" }
        }
        XCTAssertEqual(try snapshot(seed: 7), try snapshot(seed: 7))
        XCTAssertNotEqual(try snapshot(seed: 7), try snapshot(seed: 8))
    }
}
