import Foundation

/// What the vet report says about one pet as of one moment, computed from its records: alerts, profile,
/// the period's summary, symptoms, weights, vaccinations, medications, visits, starred records, files.
public struct VisitReportFacts: Sendable {
    /// One kind of symptom over the period.
    public struct SymptomSummary: Equatable, Sendable {
        /// The first episode of the kind, to name it.
        public var sample: Symptom
        public var count: Int
        public var worstSeverity: Int
        public var lastSeen: Date
    }

    /// Where a vaccine stands on the as-of day.
    public enum VaccineStatus: Equatable, Sendable {
        case overdue(DueItem)
        /// Due later, or a first dose not yet overdue.
        case due(DueItem)
        /// A later dose of a combination covering it replaced its own reminder.
        case covered
        /// Neither a reminder nor a next-due day.
        case unknown
    }

    /// One row of the vaccination table: the latest dose of a vaccine, or a core vaccine never given.
    public struct VaccineRow: Equatable, Sendable {
        /// The listed code, else the name as recorded.
        public var vaccine: String
        public var lastGiven: Date?
        public var nextDue: LocalDate?
        public var status: VaccineStatus
        public var isOverdue: Bool { if case .overdue = status { return true } else { return false } }
    }

    /// One medication course that ran during the period.
    public struct CourseRow: Equatable, Sendable {
        public var record: PetRecord
        public var medication: Medication
        public var timetable: MedicationTimetable
        /// Doses given over the whole course, for a course with no schedule.
        public var dosesGiven: Int
        /// The day it ended: stopped, or its last `--until` day; nil while it runs.
        public var lastDay: LocalDate?
    }

    public let pet: Pet
    /// `now` is the report's as-of instant; nothing after it counts.
    public let context: TimeContext
    public let periodStart: Date
    /// The period's first day when `--since` named a day: then a record is in the period by its own
    /// local day (`RecordClock`), wherever it was written, not by `periodStart` in the report's zone.
    public let periodFirstDay: LocalDate?
    public let ageInMonths: Int?
    public let change30: MassChange?
    public let change90: MassChange?
    public let overdue: [DueItem]
    /// Severity 4 and 5 episodes in the period.
    public let severeSymptoms: [Symptom]
    public let currentMedications: [Medication]
    public let latestWeight: (mass: Mass, at: Date)?
    public let meals: MealCounts
    public let stools: StoolDistribution
    /// The period's walks, and its length in days (from its first day through the as-of day) to count them a week by.
    public let walks: WalkTotals
    public let periodDays: Int
    /// One per kind of symptom in the period, in group-key order.
    public let symptoms: [SymptomSummary]
    /// Episodes per week through the as-of day, by severity; nil with no symptom in the period.
    public let weeklySymptoms: WeeklySymptomCounts?
    /// The period's weights (from `periodStart` through the as-of instant), for its chart: Unix seconds and grams.
    public let chartTimes: [Double]
    public let chartGrams: [Double]
    public let vaccines: [VaccineRow]
    public let courses: [CourseRow]
    /// Newest first.
    public let visits: [(at: Date, utcOffset: Int, visit: Visit)]
    /// The weight taken at each visit, one per entry of `visits`: the visit's own weight, else the
    /// weight record of the visit's local day nearest in time to it; nil when neither exists.
    public let visitWeights: [Mass?]
    public let starred: [PetRecord]
    public let attachments: [(record: PetRecord, attachment: Attachment)]

    /// `records` are the pet's records and `weightTimes`/`weightGrams` its weights (Unix seconds,
    /// ascending), of any time: what lies after `context.now` is left out, and a course stopped after it
    /// is still running as of then.
    public init(pet: Pet, records: [PetRecord], weightTimes: [Double], weightGrams: [Double], periodStart: Date,
                periodFirstDay: LocalDate? = nil, schedule: VaccinationSchedule, context: TimeContext, weekStartsOnSunday: Bool = false) {
        self.pet = pet
        self.context = context
        self.periodStart = periodStart
        self.periodFirstDay = periodFirstDay
        let inPeriodTest = { (at: Date, offset: Int) -> Bool in
            periodFirstDay.map { RecordClock.day(at, utcOffset: offset) >= $0 } ?? (at >= periodStart)
        }
        let now = context.now
        let all: [PetRecord] = records.filter { $0.at <= now }.map { r in
            guard case .medication(var m) = r.detail, let stopped = m.stoppedAt, stopped > now else { return r }
            m.stoppedAt = nil
            var copy = r
            copy.detail = .medication(m)
            return copy
        }
        let inPeriod = all.filter { inPeriodTest($0.at, $0.utcOffset) }
        let kept = weightTimes.prefix { $0 <= now.timeIntervalSince1970 }.count
        let times = Array(weightTimes.prefix(kept)), grams = Array(weightGrams.prefix(kept))

        ageInMonths = pet.ageInMonths(on: context.today)
        change30 = MassChange.over(days: 30, times: times, grams: grams)
        change90 = MassChange.over(days: 90, times: times, grams: grams)
        // Kinds that asked for a next session (a grooming's) come whole: a later record of the kind answers it.
        let sessionKinds = Set(all.filter { $0.detail.nextSession != nil }.map(\.kind))
        let due = CareAgenda.items(pets: [pet], records: all.filter { [.vaccination, .visit, .medication, .dose].contains($0.kind) || sessionKinds.contains($0.kind) },
                                   schedule: schedule, context: context)
        overdue = due.filter { $0.isOverdue(context) }
        let symptomRecords = inPeriod.compactMap { r -> (at: Date, day: LocalDate, symptom: Symptom)? in
            if case .symptom(let x) = r.detail { return (r.at, r.localDay, x) } else { return nil }
        }
        severeSymptoms = symptomRecords.map(\.symptom).filter { $0.severity >= 4 }

        let doseRecords = all.filter { $0.kind == .dose }
        let medicationRecords = all.filter { $0.kind == .medication }.sorted { ($0.at, $0.id) < ($1.at, $1.id) }
        var current: [Medication] = []
        var courses: [CourseRow] = []
        for r in medicationRecords {
            guard case .medication(let m) = r.detail else { continue }
            if CareAgenda.isActive(m, at: now, context: context) { current.append(m) }
            guard CareAgenda.courseEnd(m, context: context).map({ $0 >= periodStart }) ?? true else { continue }
            let given = doseRecords.filter { d in if case .dose(let x) = d.detail { return x.medicationId == r.id && !x.skipped } else { return false } }
            courses.append(CourseRow(record: r, medication: m,
                                     timetable: CareAgenda.timetable(course: r, m, doseRecords: doseRecords, context: context),
                                     dosesGiven: given.count, lastDay: m.stoppedAt.map { RecordClock.day($0, utcOffset: r.utcOffset) } ?? m.endsOn))
        }
        currentMedications = current
        self.courses = courses

        if let g = grams.last, let t = times.last {
            latestWeight = (Mass(grams: Int(g)), Date(timeIntervalSince1970: t))
        } else {
            latestWeight = nil
        }
        meals = MealCounts(inPeriod, context: context)
        stools = StoolDistribution(inPeriod)
        walks = WalkTotals(inPeriod)
        periodDays = max(1, context.today.dayNumber - (periodFirstDay ?? context.localDate(of: periodStart)).dayNumber + 1)
        symptoms = Dictionary(grouping: symptomRecords) { $0.symptom.groupKey }.sorted { $0.key < $1.key }.map { _, list in
            SymptomSummary(sample: list[0].symptom, count: list.count, worstSeverity: list.map(\.symptom.severity).max() ?? 0,
                           lastSeen: list.map(\.at).max() ?? list[0].at)
        }
        weeklySymptoms = symptomRecords.isEmpty ? nil
            : WeeklySymptomCounts(symptomRecords.map { ($0.day, $0.symptom) },
                                  from: periodFirstDay ?? context.localDate(of: periodStart), through: context.today, by: .severity,
                                  weekStartsOnSunday: weekStartsOnSunday)

        // One period per report: the weight chart spans the period the symptom chart and the tables cover.
        let lo = times.firstIndex { $0 >= periodStart.timeIntervalSince1970 } ?? times.count
        chartTimes = Array(times[lo...])
        chartGrams = Array(grams[lo...])

        // One row per vaccine by any of its names (`ジステンパー` is `distemper`; `Lyme` is `lyme`).
        let vaccinations = all.compactMap { r -> (PetRecord, Vaccination)? in if case .vaccination(let v) = r.detail { return (r, v) } else { return nil } }
        let latestByKey = Dictionary(grouping: vaccinations) { VaccineName.key($0.1.vaccine) }.compactMap { $0.value.last }
            .sorted { ($0.0.at, $1.1.vaccine) > ($1.0.at, $0.1.vaccine) }
        var rows: [VaccineRow] = []
        for (r, v) in latestByKey {
            let item = due.first { if case .vaccine(let code) = $0.kind { return VaccineName.key(code) == VaccineName.key(v.vaccine) } else { return false } }
            let status: VaccineStatus
            if let item { status = item.isOverdue(context) ? .overdue(item) : .due(item) }
            else { status = v.nextDue != nil ? .covered : .unknown }
            rows.append(VaccineRow(vaccine: VaccineName.normalize(v.vaccine), lastGiven: r.at, nextDue: item?.dueDay ?? v.nextDue, status: status))
        }
        for item in due where item.neverRecorded {
            if case .vaccine(let code) = item.kind {
                rows.append(VaccineRow(vaccine: code, lastGiven: nil, nextDue: item.dueDay, status: item.isOverdue(context) ? .overdue(item) : .due(item)))
            }
        }
        vaccines = rows

        visits = all.reversed().compactMap { r in if case .visit(let v) = r.detail { return (r.at, r.utcOffset, v) } else { return nil } }
        // Each weight's own clock, from its record (a weight given without one reads in the report's zone).
        var weightOffsets: [Int64: Int] = [:]
        for r in all where r.kind == .weight { weightOffsets[Int64(r.at.timeIntervalSince1970.rounded(.down))] = r.utcOffset }
        visitWeights = visits.map { at, offset, v in
            v.weight ?? Self.weightNearest(at, utcOffset: offset, times: times, grams: grams, offsets: weightOffsets, context: context)
        }
        starred = all.filter(\.starred)
        attachments = all.flatMap { r in r.attachments.map { (r, $0) } }
    }
}

extension VisitReportFacts {
    /// Whether an instant on the clock `utcOffset` lies in the report's period (from its start; the as-of end is applied apart).
    public func isInPeriod(_ at: Date, utcOffset: Int) -> Bool {
        periodFirstDay.map { RecordClock.day(at, utcOffset: utcOffset) >= $0 } ?? (at >= periodStart)
    }

    /// The weight recorded on the local day of `at` (on its own clock, `utcOffset`) nearest in time to it
    /// (`times` ascending); each weight's day is on its own clock (`offsets` by Unix second).
    static func weightNearest(_ at: Date, utcOffset: Int, times: [Double], grams: [Double], offsets: [Int64: Int],
                              context: TimeContext) -> Mass? {
        let day = RecordClock.day(at, utcOffset: utcOffset)
        let t = at.timeIntervalSince1970
        // The day's records lie within 26 hours of the visit whatever the offset.
        var lo = 0, hi = times.count
        while lo < hi { let mid = (lo + hi) / 2; if times[mid] < t - 26 * 3600 { lo = mid + 1 } else { hi = mid } }
        var best: (distance: Double, grams: Double)?
        var i = lo
        while i < times.count && times[i] <= t + 26 * 3600 {
            let d = abs(times[i] - t)
            let when = Date(timeIntervalSince1970: times[i])
            let offset = offsets[Int64(times[i].rounded(.down))] ?? context.utcOffset(at: when)
            if RecordClock.day(when, utcOffset: offset) == day, best.map({ d < $0.distance }) ?? true {
                best = (d, grams[i])
            }
            i += 1
        }
        return best.map { Mass(grams: Int($0.grams.rounded())) }
    }

    /// What the visits of the report's period cost, in one currency.
    public struct CostTotal: Equatable, Sendable {
        /// The sum of the period's visit costs that could be converted, in the target currency.
        public var total: Money
        /// Visits with a cost in the period.
        public var visits: Int
        /// Visits paid in another currency and converted at the rate of their day, by currency code.
        public var converted: [String: Int]
        /// Visits paid in another currency with no rate for their day (not in `total`), by currency code.
        public var unconverted: [String: Int]
    }

    /// The period's visits that have a cost (from the period's start through the as-of moment), newest first.
    public var periodVisitCosts: [(day: LocalDate, cost: Money)] {
        visits.compactMap { at, offset, v in
            guard isInPeriod(at, utcOffset: offset), let cost = v.cost else { return nil }
            return (RecordClock.day(at, utcOffset: offset), cost)
        }
    }

    /// The period's visit costs added up in `target`, each converted at the rate of its own day; a cost
    /// with no rate is counted apart, never guessed.
    public func costTotal(in target: Currency, rates: RateTable) -> CostTotal {
        var sum: Int64 = 0
        var converted: [String: Int] = [:], unconverted: [String: Int] = [:]
        let costs = periodVisitCosts
        for (day, cost) in costs {
            guard let m = rates.convert(cost, to: target, on: day) else { unconverted[cost.currency.code, default: 0] += 1; continue }
            sum = sum.addingSaturated(m.minorUnits)
            if cost.currency != target { converted[cost.currency.code, default: 0] += 1 }
        }
        return CostTotal(total: Money(minorUnits: sum, currency: target), visits: costs.count, converted: converted, unconverted: unconverted)
    }
}
