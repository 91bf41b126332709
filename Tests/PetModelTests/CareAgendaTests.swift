import XCTest
@testable import PetModel

final class CareAgendaTests: XCTestCase {
    let seoul = TimeZone(identifier: "Asia/Seoul")!
    var ctx: TimeContext { TimeContext(now: Date(timeIntervalSince1970: 1_795_395_600), timeZone: seoul) } // 2026-11-23 10:00 KST
    var nextID: Int64 = 100

    func pet(_ id: Int64, _ name: String, _ species: Species, born: PartialDate? = nil) -> Pet {
        Pet(id: id, name: name, species: species, born: born, createdAt: Date(), updatedAt: Date())
    }

    func rec(_ pet: Int64, _ at: String, _ detail: RecordDetail) -> PetRecord {
        nextID += 1
        let date = try! TimeParser.instant(at, context: ctx)
        return PetRecord(id: nextID, petId: pet, petName: nil, at: date, utcOffset: 32_400, note: nil, starred: false,
                         createdAt: date, updatedAt: date, detail: detail)
    }

    func vaccine(_ code: String, next: String?) -> RecordDetail {
        .vaccination(Vaccination(vaccine: code, nextDue: next.map { LocalDate.parseISO(Substring($0))! }))
    }

    /// A record is copied on its way from the rows to each pet's agenda (`due` reads thousands): the kinds with many
    /// fields are boxed, so a record stays small whatever its kind (444 bytes before, issue 44).
    func testARecordStaysSmallWhateverItsKind() {
        XCTAssertLessThanOrEqual(MemoryLayout<RecordDetail>.size, 72)
        XCTAssertLessThanOrEqual(MemoryLayout<PetRecord>.size, 200)
    }

    func testALaterDoseOrCombinationSupersedesTheReminder() {
        let coco = pet(1, "Coco", .dog), bun = pet(2, "Bun", .rabbit)
        let records = [
            rec(1, "2025-11-01", vaccine("rabies", next: "2026-11-01")),
            rec(1, "2026-11-20", vaccine("rabies", next: "2027-11-20")),
            rec(2, "2025-10-01", vaccine("rhdv2", next: "2026-10-01")),
            rec(2, "2026-11-01", vaccine("myxo-rhd", next: "2027-11-01")),
        ]
        let items = CareAgenda.items(pets: [coco, bun], records: records, schedule: .shipped, context: ctx)
        XCTAssertEqual(items.map(\.uid), ["petlog-vaccine-2-myxo-rhd", "petlog-vaccine-1-rabies"])
        XCTAssertEqual(items.map(\.dueDay.description), ["2027-11-01", "2027-11-20"])
        XCTAssertFalse(items.contains { $0.isOverdue(ctx) })
    }

    func testOverdueBoundaryIsTheLocalDay() {
        let coco = pet(1, "Coco", .dog)
        let dueToday = CareAgenda.items(pets: [coco], records: [rec(1, "2025-11-23", vaccine("rabies", next: "2026-11-23"))], schedule: .shipped, context: ctx)
        XCTAssertFalse(dueToday[0].isOverdue(ctx), "due today is not overdue")
        let dueYesterday = CareAgenda.items(pets: [coco], records: [rec(1, "2025-11-22", vaccine("rabies", next: "2026-11-22"))], schedule: .shipped, context: ctx)
        XCTAssertTrue(dueYesterday[0].isOverdue(ctx))
        // At 23:30 on the 22nd in UTC it is already the 23rd in Seoul: the same instant, seen from each zone.
        let utc = TimeContext(now: Date(timeIntervalSince1970: 1_795_395_600 - 10 * 3600), timeZone: TimeZone(identifier: "UTC")!)
        XCTAssertFalse(dueYesterday[0].isOverdue(utc), "2026-11-22 is still today in UTC")
    }

    func testMonthEnds() {
        let coco = pet(1, "Coco", .dog)
        let jan31 = CareAgenda.items(pets: [coco], records: [rec(1, "2026-01-31", vaccine("rabies", next: LocalDate(year: 2026, month: 1, day: 31)!.adding(months: 1).description))],
                                     schedule: .shipped, context: ctx)
        XCTAssertEqual(jan31[0].dueDay.description, "2026-02-28")
    }

    func testMedicationDosesAndAdherence() {
        let coco = pet(1, "Coco", .dog)
        let course = rec(1, "2026-11-20 08:00", .medication(Medication(name: "Amoxicillin", intervalSeconds: 12 * 3600)))
        let d1 = rec(1, "2026-11-20 08:05", .dose(Dose(medicationId: course.id, medicationName: "Amoxicillin")))
        let d2 = rec(1, "2026-11-20 20:10", .dose(Dose(medicationId: course.id, medicationName: "Amoxicillin")))
        let items = CareAgenda.items(pets: [coco], records: [course, d1, d2], schedule: .shipped, context: ctx)
        XCTAssertEqual(items.count, 1)
        XCTAssertEqual(items[0].dueAt, d2.at.addingTimeInterval(12 * 3600))
        XCTAssertTrue(items[0].isOverdue(ctx))
        guard case .medication(let m) = course.detail else { return XCTFail() }
        let t = CareAgenda.timetable(m, start: course.at, given: [d1.at, d2.at], skipped: [], context: ctx)
        XCTAssertEqual(t.due, 7, "08:00 and 20:00 on the 20th, 21st and 22nd, and 08:00 on the 23rd: 7 slots by 10:00")
        XCTAssertEqual(t.given, 2)
    }

    func testFixedTimesOfDay() throws {
        let coco = pet(1, "Coco", .dog)
        let m = Medication(name: "Eye drops", times: try Medication.parseTimes("20:00,08:00"), endsOn: LocalDate(year: 2026, month: 11, day: 30))
        XCTAssertEqual(m.times, [480, 1200])
        let course = rec(1, "2026-11-23 07:00", .medication(m))
        let t = CareAgenda.timetable(m, start: course.at, given: [try TimeParser.instant("2026-11-23 08:02", context: ctx)], skipped: [], context: ctx)
        XCTAssertEqual(t.next, try TimeParser.instant("2026-11-23 20:00", context: ctx))
        XCTAssertEqual(t.due, 1)
        // A stopped course is due no more.
        var stopped = m
        stopped.stoppedAt = ctx.now
        XCTAssertTrue(CareAgenda.items(pets: [coco], records: [rec(1, "2026-11-23 07:00", .medication(stopped))], schedule: .shipped, context: ctx).isEmpty)
        XCTAssertThrowsError(try Medication.parseTimes("25:00"))
        XCTAssertThrowsError(try Medication.parseTimes("08:00,08:00"))
    }

    func testFollowUpsUntilTheNextVisit() {
        let coco = pet(1, "Coco", .dog)
        let v1 = rec(1, "2026-11-01", .visit(Visit(reason: "illness", followUp: LocalDate(year: 2026, month: 11, day: 15))))
        XCTAssertEqual(CareAgenda.items(pets: [coco], records: [v1], schedule: .shipped, context: ctx).map(\.uid), ["petlog-followup-\(v1.id)"])
        let v2 = rec(1, "2026-11-16", .visit(Visit(reason: "follow-up")))
        XCTAssertTrue(CareAgenda.items(pets: [coco], records: [v1, v2], schedule: .shipped, context: ctx).isEmpty)
    }

    func testAPuppyWithNoVaccinesYetIsReminded() {
        let pup = pet(1, "Bori", .dog, born: PartialDate(year: 2026, month: 10, day: 1))
        let items = CareAgenda.items(pets: [pup], records: [], schedule: .shipped, context: ctx)
        XCTAssertEqual(Set(items.map(\.uid)), ["petlog-vaccine-1-dhpp", "petlog-vaccine-1-rabies"])
        XCTAssertTrue(items.allSatisfy(\.neverRecorded))
        let adult = pet(2, "Coco", .dog, born: PartialDate(year: 2019))
        XCTAssertTrue(CareAgenda.items(pets: [adult], records: [], schedule: .shipped, context: ctx).isEmpty)
    }

    // fix-answers

    func testACourseEndsAtItsUntilDayEvenWithDosesMissed() {
        let coco = pet(1, "Coco", .dog)
        let m = Medication(name: "Amoxicillin", intervalSeconds: 12 * 3600, endsOn: LocalDate(year: 2026, month: 11, day: 10))
        let course = rec(1, "2026-11-01 08:00", .medication(m))
        XCTAssertTrue(CareAgenda.items(pets: [coco], records: [course], schedule: .shipped, context: ctx).isEmpty, "nothing due, nothing overdue")
        XCTAssertNil(CareAgenda.timetable(m, start: course.at, given: [], skipped: [], context: ctx).next)
        XCTAssertEqual(CareAgenda.timetable(m, start: course.at, given: [], skipped: [], context: ctx).due, 20, "10 days of two doses")
        XCTAssertTrue(CareAgenda.isActive(m, at: try! TimeParser.instant("2026-11-10 23:59", context: ctx), context: ctx))
        XCTAssertFalse(CareAgenda.isActive(m, at: try! TimeParser.instant("2026-11-11 00:00", context: ctx), context: ctx))
    }

    func testWholeDaysKeepTheLocalTimeAndHoursAreElapsedTime() throws {
        let ny = TimeContext(now: Date(timeIntervalSince1970: 1_795_453_200), timeZone: TimeZone(identifier: "America/New_York")!)
        let start = try TimeParser.instant("2026-10-15 09:00", context: ny)  // EDT
        XCTAssertEqual(CareAgenda.step(start, by: 30 * 86_400, context: ny), try TimeParser.instant("2026-11-14 09:00", context: ny))
        let evening = try TimeParser.instant("2026-10-31 21:00", context: ny)
        XCTAssertEqual(CareAgenda.step(evening, by: 12 * 3600, context: ny).timeIntervalSince(evening), 12 * 3600)
        let berlin = TimeContext(now: ny.now, timeZone: TimeZone(identifier: "Europe/Berlin")!)
        let dose = try TimeParser.instant("2026-03-20 09:00", context: berlin)   // CET; summer time from March 29
        let m = Medication(name: "Heartgard", intervalSeconds: 14 * 86_400)
        let t = CareAgenda.timetable(m, start: dose, given: [dose], skipped: [], context: berlin)
        XCTAssertEqual(t.next, try TimeParser.instant("2026-04-03 09:00", context: berlin))
    }

    func testVaccineUIDsHoldIdsAndCodesAndCaseVariantsAreOne() {
        let coco = pet(1, "Coco", .dog)
        let a = rec(1, "2025-10-01", vaccine("Lyme, Booster", next: "2026-10-01"))
        let b = rec(1, "2026-10-05", vaccine("lyme, booster", next: "2027-10-05"))
        let c = rec(1, "2026-10-05", vaccine("ジステンパー", next: "2026-11-01"))
        let items = CareAgenda.items(pets: [coco], records: [a, b, c], schedule: .shipped, context: ctx)
        XCTAssertEqual(items.map(\.uid).sorted(), ["petlog-vaccine-1-distemper", "petlog-vaccine-1-r\(a.id)"])
        XCTAssertEqual(items.first { $0.uid.hasSuffix("r\(a.id)") }?.dueDay, LocalDate(year: 2027, month: 10, day: 5))
    }
}
