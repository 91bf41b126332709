import Assets
import Foundation

/// One vaccine of a species' schedule: its puppy/kitten series, first booster and booster interval.
public struct ScheduledVaccine: Codable, Equatable, Sendable {
    public struct Series: Codable, Equatable, Sendable {
        public var startWeeks: Int
        public var intervalWeeks: Int
        public var untilWeeks: Int
    }

    public var code: String
    public var core: Bool
    /// A modified-live vaccine: one dose protects an adult of unknown history (WSAVA 2016).
    public var modifiedLive: Bool?
    /// The diseases it protects against; a combination product covers several.
    public var covers: [String]
    public var series: Series?
    public var minAgeWeeks: Int?
    /// Age of the first booster after a puppy/kitten series (26 weeks); else a year after the series.
    public var firstBoosterAgeWeeks: Int?
    /// Doses an adult with no known history gets before the first yearly booster.
    public var adultInitialDoses: Int
    /// Doses a young animal (past its series age, under a year) with no earlier dose recorded gets before its
    /// first booster: one when one MLV dose protects (canine core), two for FVRCP (FHV-1 and FCV need two,
    /// WSAVA 2016). Absent: one for a core modified-live vaccine, else `adultInitialDoses`.
    public var unknownHistoryDoses: Int?
    public var adultInitialIntervalWeeks: Int
    public var boosterMonths: Int

    /// Does a dose of `other` count as a dose of this vaccine (same code, or covers all it covers)?
    public func isSatisfied(by other: ScheduledVaccine) -> Bool {
        // A handful of names each: looked up in place, not a `Set` made per call (`due` asks it of every later
        // dose of each dose, which was a twentieth of a shelter's `due`, issue 44).
        other.code == code || covers.allSatisfy(other.covers.contains)
    }

    /// Whether an adult's first recorded dose counts as protective, not as the start of an initial course.
    public var adultDoseIsProtective: Bool { core && modifiedLive == true }

    /// The doses of the course a young animal of unknown history gets before its first booster.
    public var youngUnknownHistoryDoses: Int { unknownHistoryDoses ?? (adultDoseIsProtective ? 1 : adultInitialDoses) }

    /// The youngest age a first dose is given at.
    public var firstDoseWeeks: Int { series?.startWeeks ?? minAgeWeeks ?? 0 }
}

/// What the owner says a dose is: worked out from the history (`automatic`), a routine booster, or the
/// first dose ever of an adult (its initial course applies).
public enum DoseIntent: String, Sendable { case automatic, booster, initial }

/// The shipped schedules per species (`assets/vaccine-schedules.json`), loaded and checked at start.
public struct VaccinationSchedule: Codable, Sendable {
    public var note: String
    public var sources: [String]
    public var species: [String: [ScheduledVaccine]]

    public enum LoadError: Error, Equatable { case invalid(String) }

    public static func decode(_ data: Data) throws -> VaccinationSchedule {
        let decoder = JSONDecoder()
        decoder.keyDecodingStrategy = .convertFromSnakeCase
        let s = try decoder.decode(VaccinationSchedule.self, from: data)
        try s.validate()
        return s
    }

    /// The shipped schedule; a broken asset is a build bug, caught by the tests.
    public static let shipped: VaccinationSchedule = {
        // safe: the file is compiled into the binary, and ScheduleTests decode it, so no input reaches this.
        do { return try decode(Assets.vaccineSchedules) } catch { fatalError("assets/vaccine-schedules.json: \(error)") }
    }()

    func validate() throws {
        if sources.isEmpty { throw LoadError.invalid("no sources named") }
        for (species, list) in species {
            guard Species(rawValue: species) != nil else { throw LoadError.invalid("unknown species \(species)") }
            var codes: Set<String> = []
            for v in list {
                guard codes.insert(v.code).inserted else { throw LoadError.invalid("\(species): \(v.code) twice") }
                guard !v.covers.isEmpty, v.boosterMonths > 0, v.adultInitialDoses >= 1, v.adultInitialIntervalWeeks > 0,
                      (v.unknownHistoryDoses ?? 1) >= 1 else {
                    throw LoadError.invalid("\(species) \(v.code): incomplete")
                }
                if let s = v.series, !(s.startWeeks > 0 && s.intervalWeeks > 0 && s.untilWeeks > s.startWeeks) {
                    throw LoadError.invalid("\(species) \(v.code): bad series")
                }
                if let b = v.firstBoosterAgeWeeks, b <= (v.series?.untilWeeks ?? 0) {
                    throw LoadError.invalid("\(species) \(v.code): first booster inside the series")
                }
            }
        }
    }

    public func vaccines(for species: Species) -> [ScheduledVaccine] { self.species[species.rawValue] ?? [] }

    public func vaccine(_ code: String, for species: Species) -> ScheduledVaccine? {
        vaccines(for: species).first { $0.code == code }
    }

    /// The vaccine of `species`' schedule that protects against `disease` (a `covers` name): the core one
    /// when there is one (distemper → DHPP for a dog, panleukopenia → FVRCP for a cat), else the only one.
    public func vaccine(covering disease: String, for species: Species) -> ScheduledVaccine? {
        let covering = vaccines(for: species).filter { $0.covers.contains(disease) }
        return covering.first(where: \.core) ?? (covering.count == 1 ? covering.first : nil)
    }

    /// When the next dose of `vaccine` is due after the doses given on `doses` (any order), for a pet
    /// born on `born` (nil when unknown: the pet is treated as an adult).
    ///
    /// - a young animal inside the series gets the next series dose `interval` later (the series ends
    ///   at or after `until` weeks);
    /// - the dose that ends a series is followed by the first booster (at `firstBoosterAgeWeeks` of age,
    ///   else a year later);
    /// - a young animal (past its series age, under a year) with no earlier dose recorded is in its initial
    ///   course: `unknownHistoryDoses` doses, then the first booster, and only then `boosterMonths`;
    /// - an adult with no dose recorded before its series age: a core modified-live vaccine counts as
    ///   protective (a routine booster: WSAVA 2016), so the next is `boosterMonths` later; other vaccines,
    ///   or `intent == .initial`, get `adultInitialDoses` doses `adultInitialInterval` apart, then a
    ///   booster a year later;
    /// - after that, every `boosterMonths`; `intent == .booster` means that at once.
    /// Whether a dose recorded under `name` counts as a dose of `entry` for a pet of `species`: the same
    /// vaccine by any of its names, or a combination covering everything `entry` covers.
    public func dose(named name: String, countsAs entry: ScheduledVaccine, for species: Species) -> Bool {
        let code = VaccineName.normalize(name)
        if code == entry.code || VaccineName.key(name) == VaccineName.key(entry.code) { return true }
        return vaccine(code, for: species).map(entry.isSatisfied(by:)) == true
    }

    /// The next due day of `entry` given to `pet` on `day`, counting the earlier doses among `records`
    /// (any record kind may be passed; only vaccinations counting as `entry` are used).
    public func nextDue(_ entry: ScheduledVaccine, givenOn day: LocalDate, to pet: Pet, records: [PetRecord], intent: DoseIntent,
                        context: TimeContext) -> LocalDate? {
        let earlier = records.compactMap { r -> LocalDate? in
            guard r.petId == pet.id, case .vaccination(let v) = r.detail, dose(named: v.vaccine, countsAs: entry, for: pet.species) else { return nil }
            return r.localDay
        }
        return nextDue(entry, doses: earlier + [day], born: pet.born?.earliestDay, intent: intent)
    }

    /// A vaccination `record` moved to `newDay` (`edit --at`): its next due day when petlog computed it
    /// (it is what the schedule gives from the old day, under any intent) is computed again from the new
    /// day under the same intent; a day the user typed stays. `records`: the pet's records (the moved
    /// one among them or not).
    public func movedNextDue(_ record: PetRecord, to newDay: LocalDate, pet: Pet, records: [PetRecord]) -> LocalDate? {
        guard case .vaccination(let v) = record.detail else { return nil }
        guard let stored = v.nextDue, let entry = vaccine(VaccineName.normalize(v.vaccine), for: pet.species) else { return v.nextDue }
        let oldDay = record.localDay
        let others = records.filter { $0.id != record.id }
        let before = { (day: LocalDate) in others.filter { $0.localDay < day || ($0.localDay == day && $0.id < record.id) } }
        for intent in [DoseIntent.automatic, .booster, .initial]
        where nextDue(entry, givenOn: oldDay, to: pet, records: before(oldDay), intent: intent, context: TimeContext()) == stored {
            return nextDue(entry, givenOn: newDay, to: pet, records: before(newDay), intent: intent, context: TimeContext())
        }
        return stored
    }

    /// An animal this old (weeks) at its first dose past the series age may be logging a routine booster; a
    /// younger one cannot have had more than its first booster, so its dose starts (or ends) its initial course.
    public static let adultAgeWeeks = 52

    public func nextDue(_ vaccine: ScheduledVaccine, doses: [LocalDate], born: LocalDate?, intent: DoseIntent = .automatic) -> LocalDate? {
        let sorted = doses.sorted()
        guard let last = sorted.last else { return nil }
        if intent == .booster { return last.adding(months: vaccine.boosterMonths) }
        func ageWeeks(_ d: LocalDate) -> Int? { born.map { (d.dayNumber - $0.dayNumber) / 7 } }
        let seriesEnd = vaccine.series?.untilWeeks ?? vaccine.minAgeWeeks ?? 0
        if let age = ageWeeks(last), age < seriesEnd, let born {
            if let series = vaccine.series { return last.adding(days: series.intervalWeeks * 7) }
            // Given before the minimum age: it does not count; repeat once old enough.
            return max(born.adding(days: seriesEnd * 7), last.adding(days: vaccine.adultInitialIntervalWeeks * 7))
        }
        // The first booster after the initial course that ended on `end`: at `firstBoosterAgeWeeks` of age (26) when
        // that is at least a series interval later, else a year after the course.
        func firstBooster(after end: LocalDate) -> LocalDate {
            if let boosterAge = vaccine.firstBoosterAgeWeeks, let born, let age = ageWeeks(end),
               age + (vaccine.series?.intervalWeeks ?? 0) <= boosterAge {
                return born.adding(days: boosterAge * 7)
            }
            return end.adding(months: 12)
        }
        // Doses before the end of the series age are the young animal's primary series; the rest count.
        let youngDoses = sorted.filter { d in ageWeeks(d).map { $0 < seriesEnd } ?? false }
        let counted = Array(sorted.dropFirst(youngDoses.count))
        // No series on record: an adult with no known history may be logging a routine booster (a core MLV dose is
        // taken as one unless it is said to be the first); a young animal (past the series age, under a year)
        // cannot be, so its dose starts its initial course whatever the vaccine.
        let young = ageWeeks(counted[0]).map { $0 < Self.adultAgeWeeks } ?? false
        let seriesOnRecord = vaccine.series != nil && !youngDoses.isEmpty
        if !seriesOnRecord && !young && intent != .initial && vaccine.adultDoseIsProtective {
            return last.adding(months: vaccine.boosterMonths)
        }
        // The initial course: the first dose past the series age ends a series on record; else one MLV dose of a
        // dog's DHPP, two of a cat's FVRCP (FHV-1, FCV), the adult's initial doses when said to be the first.
        let needed = seriesOnRecord ? 1 : young && intent != .initial ? vaccine.youngUnknownHistoryDoses : vaccine.adultInitialDoses
        if counted.count < needed {
            return last.adding(days: vaccine.adultInitialIntervalWeeks * 7)
        }
        // A further dose well before the first booster's age (26 weeks less a series interval) is still the course.
        var courseEnd = needed - 1
        if let boosterAge = vaccine.firstBoosterAgeWeeks {
            let window = boosterAge - (vaccine.series?.intervalWeeks ?? 0)
            while courseEnd + 1 < counted.count, let age = ageWeeks(counted[courseEnd + 1]), age < window { courseEnd += 1 }
        }
        // After the course the first booster; only after that one the booster interval.
        if courseEnd == counted.count - 1 {
            return firstBooster(after: last)
        }
        return last.adding(months: vaccine.boosterMonths)
    }
}
