import Foundation

/// Something due for a pet: a vaccine, a medication dose or a visit follow-up.
public struct DueItem: Equatable, Sendable {
    public enum Kind: Equatable, Sendable {
        case vaccine(code: String)
        case medication(name: String, courseId: Int64)
        case followUp(visitId: Int64, reason: String?)
        /// The next session a record of `kind` asked for (a grooming's `--next`).
        case nextSession(recordId: Int64, kind: RecordKind)
    }

    public var kind: Kind
    public var petId: Int64
    public var petName: String
    public var dueDay: LocalDate
    /// The exact time of a medication dose; vaccines and follow-ups are due on a day.
    public var dueAt: Date?
    /// When it was last done (last dose, last vaccination, the visit).
    public var lastDone: Date?
    /// The UTC offset of the clock `lastDone` happened on (its record's own); nil: the reader's.
    public var lastDoneOffset: Int?
    /// True for a core vaccine of a young pet with no dose recorded yet.
    public var neverRecorded: Bool
    /// Stable across runs, so a calendar re-import updates rather than duplicates.
    public var uid: String
    /// Late only once its day has passed, though it has a time (`dueAt`): a dose of a course taken less often
    /// than daily (`--every 30d`) is due on its day, not overdue a minute after its start.
    public var lateByDay: Bool

    public init(kind: Kind, petId: Int64, petName: String, dueDay: LocalDate, dueAt: Date?, lastDone: Date?, neverRecorded: Bool, uid: String,
                lateByDay: Bool = false, lastDoneOffset: Int? = nil) {
        self.kind = kind; self.petId = petId; self.petName = petName; self.dueDay = dueDay; self.dueAt = dueAt
        self.lastDone = lastDone; self.neverRecorded = neverRecorded; self.uid = uid; self.lateByDay = lateByDay
        self.lastDoneOffset = lastDoneOffset
    }

    /// The day it was last done on its record's own clock (issue 29: the day the timeline shows it on, read from anywhere).
    public func lastDoneDay(_ context: TimeContext) -> LocalDate? {
        lastDone.map { at in lastDoneOffset.map { RecordClock.day(at, utcOffset: $0) } ?? context.localDate(of: at) }
    }

    /// Overdue when the day (or the dose time of a daily or more frequent dose) has passed.
    public func isOverdue(_ context: TimeContext) -> Bool {
        if let at = dueAt, !lateByDay { return at < context.now }
        return dueDay < context.today
    }
}

/// A medication course's timetable: the next dose and adherence (doses given against doses due).
public struct MedicationTimetable: Equatable, Sendable {
    public var next: Date?
    public var due: Int
    public var given: Int

    public init(next: Date?, due: Int, given: Int) {
        self.next = next; self.due = due; self.given = given
    }
}

/// Works out what is due from the records: the care layer behind `due`, `calendar --ics` and the report.
public enum CareAgenda {
    /// Dose slots of a course from its start: every `interval`, or at fixed `times` each local day.
    static func slots(_ m: Medication, start: Date, through end: Date, context: TimeContext, limit: Int = 100_000) -> [Date] {
        var out: [Date] = []
        if let i = m.intervalSeconds {
            var t = start
            while t <= end && out.count < limit { out.append(t); t = step(t, by: i, context: context) }
        } else if !m.times.isEmpty {
            // Days visited are bounded too: for an instant far outside the years petlog keeps, the
            // local day is clamped, so its times may never reach `start` (a file may hold any Int64).
            var day = context.localDate(of: start)
            var daysLeft = limit + 1
            while out.count < limit && daysLeft > 0 {
                daysLeft -= 1
                for minutes in m.times {
                    let t = context.instant(day, hour: minutes / 60, minute: minutes % 60)
                    if t > end { return out }
                    if t >= start.addingTimeInterval(-59) { out.append(t) }
                }
                day = day.adding(days: 1)
            }
        }
        return out
    }

    /// The dose after one at `t`: whole days keep the local time of day across a daylight-saving
    /// change (09:00 stays 09:00); intervals in hours and minutes are exact elapsed time.
    public static func step(_ t: Date, by interval: Int, context: TimeContext) -> Date {
        if interval > 0, interval % 86_400 == 0,
           let next = context.calendar.date(byAdding: .day, value: interval / 86_400, to: t) {
            return next
        }
        return t.addingTimeInterval(Double(interval))
    }

    /// Whether a course still runs at `date`: not stopped by then and not past the end of its `--until` day.
    public static func isActive(_ m: Medication, at date: Date, context: TimeContext) -> Bool {
        guard let end = courseEnd(m, context: context) else { return true }
        return date < end
    }

    /// The last moment a course may have doses: stopped, or the end of its last day.
    public static func courseEnd(_ m: Medication, context: TimeContext) -> Date? {
        let ended = m.endsOn.map { context.startOfDay($0.adding(days: 1)) }
        switch (m.stoppedAt, ended) {
        case let (s?, e?): return min(s, e)
        case let (s?, nil): return s
        case let (nil, e): return e
        }
    }

    /// Next dose and adherence of a course that started at `start`, with its dose records
    /// (`given`: the times of doses given, `skipped`: of doses deliberately skipped).
    public static func timetable(_ m: Medication, start: Date, given: [Date], skipped: [Date], context: TimeContext) -> MedicationTimetable {
        guard m.intervalSeconds != nil || !m.times.isEmpty else {
            return MedicationTimetable(next: nil, due: 0, given: given.count)
        }
        let end = courseEnd(m, context: context)
        let until = min(context.now, end ?? context.now)
        let dueSlots = slots(m, start: start, through: until, context: context)
        let handled = (given + skipped).max()
        var next: Date?
        if let last = handled {
            let grace: Double = m.intervalSeconds.map { Double($0) / 2 } ?? 3600
            // The first slot after the last handled dose (with half an interval of grace for early doses).
            if let i = m.intervalSeconds {
                next = step(last, by: i, context: context)
            } else {
                next = slots(m, start: last.addingTimeInterval(grace), through: last.addingTimeInterval(2 * 86_400), context: context, limit: 1).first
            }
        } else if m.intervalSeconds != nil {
            next = start
        } else {
            // At listed times the first dose is the first listed time from the start on, not the start itself.
            next = slots(m, start: start, through: start.addingTimeInterval(2 * 86_400), context: context, limit: 1).first
        }
        if let n = next, let e = end, n >= e { next = nil }
        // A finished course (stopped, or past its last day) has no next dose, however many were missed.
        if m.stoppedAt != nil || !isActive(m, at: context.now, context: context) { next = nil }
        let countedGiven = given.filter { $0 <= until.addingTimeInterval(3600) }.count
        return MedicationTimetable(next: next, due: dueSlots.count, given: countedGiven)
    }

    /// The timetable of the course recorded as `course`, from any records (only its own doses count).
    public static func timetable(course: PetRecord, _ m: Medication, doseRecords: [PetRecord], context: TimeContext) -> MedicationTimetable {
        var given: [Date] = [], skipped: [Date] = []
        for r in doseRecords {
            guard case .dose(let d) = r.detail, d.medicationId == course.id else { continue }
            if d.skipped { skipped.append(r.at) } else { given.append(r.at) }
        }
        return timetable(m, start: course.at, given: given, skipped: skipped, context: context)
    }

    /// Everything due or overdue for `pets`, from their records (vaccinations, visits, medications, doses).
    public static func items(pets: [Pet], records: [PetRecord], schedule: VaccinationSchedule, context: TimeContext) -> [DueItem] {
        var out: [DueItem] = []
        // Each pet's records by position, put in order, then copied once: grouping and sorting the records themselves
        // moved each several times (issue 44).
        let byPet = Dictionary(grouping: records.indices) { records[$0].petId ?? -1 }
        // A shelter's thousands of doses use a handful of vaccine texts: each is looked up once.
        var names = VaccineNames()
        for pet in pets where !pet.isArchived {
            let recs = (byPet[pet.id] ?? []).sorted { (records[$0].at, records[$0].id) < (records[$1].at, records[$1].id) }.map { records[$0] }
            out += vaccineItems(pet: pet, records: recs, schedule: schedule, context: context, names: &names)
            out += medicationItems(pet: pet, records: recs, context: context)
            out += followUpItems(pet: pet, records: recs, context: context)
            out += nextSessionItems(pet: pet, records: recs, context: context)
        }
        // The sort key once per item (a day's start is a calendar computation), not once per comparison.
        return out.map { ($0.dueAt ?? context.startOfDay($0.dueDay), $0) }
            .sorted { ($0.0, $0.1.petName, $0.1.uid) < ($1.0, $1.1.petName, $1.1.uid) }
            .map(\.1)
    }

    /// Listed code and comparison key of each vaccine text met, computed once.
    struct VaccineNames {
        var known: [String: (code: String, key: String)] = [:]
        mutating func callAsFunction(_ text: String) -> (code: String, key: String) {
            if let found = known[text] { return found }
            let names = (VaccineName.normalize(text), VaccineName.key(text))
            known[text] = names
            return names
        }
    }

    static func vaccineItems(pet: Pet, records: [PetRecord], schedule: VaccinationSchedule, context: TimeContext, names: inout VaccineNames) -> [DueItem] {
        // Each dose under its listed code (also when typed as `ジステンパー` before petlog knew the name);
        // other names compare without case or width (`Lyme` and `lyme` are one vaccine).
        var doses: [(record: (id: Int64, at: Date, utcOffset: Int), code: String, key: String, next: LocalDate?)] = []
        for r in records {
            guard case .vaccination(let v) = r.detail else { continue }
            let (code, key) = names(v.vaccine)
            doses.append(((r.id, r.at, r.utcOffset), code, key, v.nextDue))
        }
        var out: [DueItem] = []
        var seen: Set<String> = []
        // A dose is superseded by any later dose of the same vaccine or of a combination covering it.
        for (i, dose) in doses.enumerated() {
            guard let next = dose.next else { continue }
            let entry = schedule.vaccine(dose.code, for: pet.species)
            let superseded = doses[(i + 1)...].contains { later in
                if later.key == dose.key { return true }
                guard let e = entry, let l = schedule.vaccine(later.code, for: pet.species) else { return false }
                return e.isSatisfied(by: l)
            }
            if superseded { continue }
            // Two codes with the same due record (e.g. a combination recorded twice) give one item.
            guard seen.insert(dose.key).inserted else { continue }
            // The UID holds ids and codes only: a listed code, else the id of the vaccine's first record.
            let uidPart = entry != nil || CareNames.shipped.vaccineCode(dose.code) != nil
                ? dose.code : "r\(doses.first { $0.key == dose.key }?.record.id ?? dose.record.id)"
            out.append(DueItem(kind: .vaccine(code: dose.code), petId: pet.id, petName: pet.name, dueDay: next, dueAt: nil,
                               lastDone: dose.record.at, neverRecorded: false, uid: "petlog-vaccine-\(pet.id)-\(uidPart)",
                               lastDoneOffset: dose.record.utcOffset))
        }
        // A young pet's core vaccines not yet started.
        if let born = pet.born?.earliestDay, context.today.dayNumber - born.dayNumber < 365 {
            for entry in schedule.vaccines(for: pet.species) where entry.core {
                let covered = doses.contains { schedule.dose(named: $0.code, countsAs: entry, for: pet.species) }
                if covered { continue }
                out.append(DueItem(kind: .vaccine(code: entry.code), petId: pet.id, petName: pet.name,
                                   dueDay: born.adding(days: entry.firstDoseWeeks * 7), dueAt: nil, lastDone: nil, neverRecorded: true,
                                   uid: "petlog-vaccine-\(pet.id)-\(entry.code)"))
            }
        }
        return out
    }

    static func medicationItems(pet: Pet, records: [PetRecord], context: TimeContext) -> [DueItem] {
        var out: [DueItem] = []
        for r in records {
            guard case .medication(let m) = r.detail, isActive(m, at: context.now, context: context) else { continue }
            let t = timetable(course: r, m, doseRecords: records, context: context)
            guard let next = t.next else { continue }
            let lastDose = records.filter { d in if case .dose(let dose) = d.detail { return dose.medicationId == r.id } else { return false } }
                .max { $0.at < $1.at }
            out.append(DueItem(kind: .medication(name: m.name, courseId: r.id), petId: pet.id, petName: pet.name,
                               dueDay: context.localDate(of: next), dueAt: next, lastDone: lastDose?.at, neverRecorded: false,
                               uid: "petlog-medication-\(r.id)", lateByDay: (m.intervalSeconds ?? 0) > 86_400, lastDoneOffset: lastDose?.utcOffset))
        }
        return out
    }

    static func followUpItems(pet: Pet, records: [PetRecord], context: TimeContext) -> [DueItem] {
        var out: [DueItem] = []
        let visits = records.compactMap { r -> (PetRecord, Visit)? in
            if case .visit(let v) = r.detail { return (r, v) } else { return nil }
        }
        for (i, (record, v)) in visits.enumerated() {
            guard let day = v.followUp else { continue }
            // Any visit on a later day answers the follow-up, each day on its record's own clock (issue 29): two visits
            // of one Seoul day are on two days in Los Angeles.
            if visits[(i + 1)...].contains(where: { $0.0.localDay > record.localDay }) { continue }
            out.append(DueItem(kind: .followUp(visitId: record.id, reason: v.reason), petId: pet.id, petName: pet.name, dueDay: day,
                               dueAt: nil, lastDone: record.at, neverRecorded: false, uid: "petlog-followup-\(record.id)",
                               lastDoneOffset: record.utcOffset))
        }
        return out
    }

    /// The next sessions records asked for (`RecordDetail.nextSession`): the last record of a kind that
    /// names one, unless a record of that kind on a later day answers it (as a later visit answers a follow-up).
    static func nextSessionItems(pet: Pet, records: [PetRecord], context: TimeContext) -> [DueItem] {
        var out: [DueItem] = []
        // Only kinds with a record that names a next session are looked at, by position (a pet's vaccinations
        // are not copied once per kind).
        var kinds: Set<RecordKind> = []
        for r in records where r.detail.nextSession != nil { kinds.insert(r.kind) }
        for kind in RecordKind.allCases where kinds.contains(kind) {
            let ofKind = records.indices.filter { records[$0].kind == kind }
            for (i, index) in ofKind.enumerated() {
                let record = records[index]
                guard let day = record.detail.nextSession else { continue }
                if ofKind[(i + 1)...].contains(where: { records[$0].localDay > record.localDay }) { continue }
                out.append(DueItem(kind: .nextSession(recordId: record.id, kind: kind), petId: pet.id, petName: pet.name, dueDay: day,
                                   dueAt: nil, lastDone: record.at, neverRecorded: false, uid: "petlog-next-\(kind.rawValue)-\(record.id)",
                                   lastDoneOffset: record.utcOffset))
            }
        }
        return out
    }
}
