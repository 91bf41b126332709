import Foundation
import XCTest
import Localization
import PetModel

final class RecordWordingTests: XCTestCase {
    let seoul = TimeZone(identifier: "Asia/Seoul")!

    func wording(_ language: Language, _ units: UnitSystem = .metric) -> RecordWording {
        RecordWording(ValueFormatter(L10n(language), unitSystem: units), time: TimeContext(now: Date(timeIntervalSince1970: 1_795_395_600), timeZone: seoul))
    }

    func record(_ detail: RecordDetail) -> PetRecord {
        let at = Date(timeIntervalSince1970: 1_795_300_000)
        return PetRecord(id: 1, petId: 1, petName: "Coco", at: at, utcOffset: 32_400, note: nil, starred: false, createdAt: at, updatedAt: at, detail: detail)
    }

    func testSummariesUseTheUnitsAndLanguage() {
        let en = L10n(.en)
        XCTAssertEqual(wording(.en).summary(record(.weight(Weight(mass: Mass(grams: 4200), bodyCondition: 5)))),
                       "4.20 kg · " + en.text(.fieldBCS(score: "5")))
        XCTAssertEqual(wording(.en, .imperial).summary(record(.weight(Weight(mass: Mass(grams: 4536))))), "10.00 lb")
        XCTAssertEqual(wording(.ko).summary(record(.symptom(Symptom(code: "vomiting", isListed: true, severity: 2)))),
                       L10n(.ko).code(.symptom, "vomiting") + " · " + L10n(.ko).text(.fieldSeverity(severity: "2")))
        // A stop is dated on the local day: 23:30 UTC is the next morning in Seoul.
        var med = Medication(name: "Apoquel")
        med.stoppedAt = Date(timeIntervalSince1970: 1_795_303_800) // 2026-11-21 23:30 UTC
        XCTAssertEqual(wording(.en).summary(record(.medication(med))), "Apoquel · " + en.text(.fieldStopped(date: "2026-11-22")))
    }

    /// The later kinds' lines, worded from the parts their model gives (`RecordDetail.summary`): the headline
    /// parts or the kind's name when none has a value, then the rest; the same words as when each kind's
    /// line was written out by hand in `RecordWording`.
    func testLaterKindsReadAsTheirModelsPartsSay() {
        let groomed = Grooming(tasks: [.bath, .nails], groomer: "Kim's", cost: Money(minorUnits: 55_000, currency: .krw),
                               next: LocalDate(clamping: 2026, month: 12, day: 20))
        XCTAssertEqual(wording(.en).summary(record(.grooming(groomed))), "bath, nails · Kim's · ₩55,000 · next 2026-12-20")
        XCTAssertEqual(wording(.ko).summary(record(.grooming(Grooming(tasks: [.bath], next: LocalDate(clamping: 2026, month: 12, day: 20))))),
                       "목욕 · 다음 2026-12-20")
        XCTAssertEqual(wording(.ja).summary(record(.grooming(Grooming(tasks: [], groomer: "Kim's")))), "トリミング・Kim's")
        XCTAssertEqual(wording(.en).summary(record(.walk(Walk(meters: 3200, minutes: 70)))), "3.2 km · 1 h 10 min")
        XCTAssertEqual(wording(.ko).summary(record(.walk(Walk(meters: nil, minutes: 45)))), "45분")
        XCTAssertEqual(wording(.ja).summary(record(.walk(Walk()))), "散歩")
        XCTAssertEqual(wording(.en, .imperial).summary(record(.walk(Walk(meters: 3219, minutes: nil)))), "2 mi")
        XCTAssertNil(RecordDetail.weight(Weight(mass: Mass(grams: 1))).summary, "a shipped kind's line is written by hand")
    }

    func testIntervalsAndAdherence() {
        let w = wording(.en), en = L10n(.en)
        XCTAssertEqual(w.everyText(Medication(name: "x", intervalSeconds: 14 * 86_400)), en.text(.unitWeeks(n: "2")))
        XCTAssertEqual(w.everyText(Medication(name: "x", intervalSeconds: 12 * 3600)), en.text(.unitHours(n: "12")))
        XCTAssertEqual(w.everyText(Medication(name: "x")), en.text(.fieldAsNeeded))
        XCTAssertEqual(w.adherenceText(MedicationTimetable(next: nil, due: 4, given: 3), dosesGiven: 3),
                       en.text(.medAdherence(given: "3", due: "4", percent: "75")))
        // Nothing scheduled (as needed): the count says what it counts, never a bare number (issue 32).
        XCTAssertEqual(w.adherenceText(MedicationTimetable(next: nil, due: 0, given: 0), dosesGiven: 7), en.text(.medGivenUnscheduled(given: "7")))
        XCTAssertEqual(w.adherenceText(MedicationTimetable(next: nil, due: 2_000, given: 1_500), dosesGiven: 1_500),
                       en.text(.medAdherence(given: "1,500", due: "2,000", percent: "75")))
        let pet = Pet(id: 1, name: "Coco", species: .dog, sex: .female, neutered: true, createdAt: Date(), updatedAt: Date())
        XCTAssertEqual(w.sexLabel(pet), en.text(.sexNeutered(sex: en.code(.sex, "female"))))
    }

    func testDueIsSaidFromTheWordingsNow() {
        let en = L10n(.en)
        let rabies = DueItem(kind: .vaccine(code: "rabies"), petId: 1, petName: "Coco", dueDay: LocalDate(year: 2026, month: 11, day: 28)!,
                             dueAt: nil, lastDone: nil, neverRecorded: false, uid: "u")
        XCTAssertEqual(wording(.en).dueWhen(rabies), en.text(.dueIn(n: "5")))
        // The same item said as of a later day, as the report does for --date.
        let later = RecordWording(ValueFormatter(en, unitSystem: .metric), time: TimeContext(now: Date(timeIntervalSince1970: 1_795_395_600 + 10 * 86_400), timeZone: seoul))
        XCTAssertEqual(later.dueWhen(rabies), en.text(.dueLate(n: "5")))
        XCTAssertEqual(later.dueWhat(rabies), en.text(.dueVaccine(vaccine: en.code(.vaccine, "rabies"))))
        // A dose due 90 minutes ago is late by hours, not days.
        let dose = DueItem(kind: .medication(name: "Apoquel", courseId: 3), petId: 1, petName: "Coco", dueDay: LocalDate(year: 2026, month: 11, day: 23)!,
                           dueAt: Date(timeIntervalSince1970: 1_795_395_600 - 5400), lastDone: nil, neverRecorded: false, uid: "d")
        XCTAssertEqual(wording(.en).dueWhen(dose), en.text(.dueLateHours(n: "1")))
    }
}

/// Japanese joins a Japanese value to the particle after it (issue 32: `フィラリア予防薬 の投与`).
final class JapaneseJoinTests: XCTestCase {
    func testAParticleJoinsAJapaneseValueButNotALatinOne() {
        let ja = L10n(.ja)
        XCTAssertEqual(ja.text(.dueDose(name: "フィラリア予防薬")), "フィラリア予防薬の投与")
        XCTAssertEqual(ja.text(.dueDose(name: "Apoquel")), "Apoquel の投与")
        XCTAssertEqual(ja.text(.errCannotOpen(path: "/tmp/x", reason: "r")), "/tmp/x を開けません: r")
        // A word after a value keeps its space (`4週 移動平均`).
        XCTAssertEqual(ja.text(.chartSmoothLabel(window: "4週")), "4週 移動平均")
    }
}
