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
    /// The diseases it protects against; a combination product covers several.
    public var covers: [String]
    public var series: Series?
    public var minAgeWeeks: Int?
    /// Age of the first booster after a puppy/kitten series (26 weeks); else a year after the series.
    public var firstBoosterAgeWeeks: Int?
    /// Doses an adult with no known history gets before the first yearly booster.
    public var adultInitialDoses: Int
    public var adultInitialIntervalWeeks: Int
    public var boosterMonths: Int

    /// Does a dose of `other` count as a dose of this vaccine (same code, or covers all it covers)?
    public func isSatisfied(by other: ScheduledVaccine) -> Bool {
        other.code == code || Set(other.covers).isSuperset(of: covers)
    }

    /// The youngest age a first dose is given at.
    public var firstDoseWeeks: Int { series?.startWeeks ?? minAgeWeeks ?? 0 }
}

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
        do { return try decode(Assets.vaccineSchedules) } catch { fatalError("assets/vaccine-schedules.json: \(error)") }
    }()

    func validate() throws {
        if sources.isEmpty { throw LoadError.invalid("no sources named") }
        for (species, list) in species {
            guard Species(rawValue: species) != nil else { throw LoadError.invalid("unknown species \(species)") }
            var codes: Set<String> = []
            for v in list {
                guard codes.insert(v.code).inserted else { throw LoadError.invalid("\(species): \(v.code) twice") }
                guard !v.covers.isEmpty, v.boosterMonths > 0, v.adultInitialDoses >= 1, v.adultInitialIntervalWeeks > 0 else {
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

    /// When the next dose of `vaccine` is due after the doses given on `doses` (any order), for a pet
    /// born on `born` (nil when unknown: the pet is treated as an adult).
    ///
    /// - a young animal inside the series gets the next series dose `interval` later (the series ends
    ///   at or after `until` weeks);
    /// - the dose that ends a series is followed by the first booster (at `firstBoosterAgeWeeks` of age,
    ///   else a year later);
    /// - an adult starting with no history gets `adultInitialDoses` doses `adultInitialInterval` apart,
    ///   then a booster a year later;
    /// - after that, every `boosterMonths`.
    public func nextDue(_ vaccine: ScheduledVaccine, doses: [LocalDate], born: LocalDate?) -> LocalDate? {
        let sorted = doses.sorted()
        guard let last = sorted.last else { return nil }
        func ageWeeks(_ d: LocalDate) -> Int? { born.map { (d.dayNumber - $0.dayNumber) / 7 } }
        let seriesEnd = vaccine.series?.untilWeeks ?? vaccine.minAgeWeeks ?? 0
        if let age = ageWeeks(last), age < seriesEnd, let born {
            if let series = vaccine.series { return last.adding(days: series.intervalWeeks * 7) }
            // Given before the minimum age: it does not count; repeat once old enough.
            return max(born.adding(days: seriesEnd * 7), last.adding(days: vaccine.adultInitialIntervalWeeks * 7))
        }
        // Doses before the end of the series age are the young animal's primary series.
        let youngDoses = sorted.filter { d in ageWeeks(d).map { $0 < seriesEnd } ?? false }
        let adultDoses = sorted.count - youngDoses.count
        if vaccine.series != nil && !youngDoses.isEmpty {
            if adultDoses == 1 {
                // This dose ends the series: the first booster at 26 weeks of age, else a year later.
                if let boosterAge = vaccine.firstBoosterAgeWeeks, let born, let age = ageWeeks(last), age < boosterAge {
                    return born.adding(days: boosterAge * 7)
                }
                return last.adding(months: 12)
            }
            return last.adding(months: vaccine.boosterMonths)
        }
        // An adult starting with no known history.
        if adultDoses < vaccine.adultInitialDoses {
            return last.adding(days: vaccine.adultInitialIntervalWeeks * 7)
        }
        if adultDoses == vaccine.adultInitialDoses {
            return last.adding(months: 12)
        }
        return last.adding(months: vaccine.boosterMonths)
    }
}
