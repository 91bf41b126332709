import Foundation
import PetModel

/// Records, their kinds and codes, intervals and medication adherence as one language words them.
public struct RecordWording: Sendable {
    public let format: ValueFormatter
    /// Where a record's instants fall on local days.
    public let time: TimeContext
    var l10n: L10n { format.l10n }

    public init(_ format: ValueFormatter, time: TimeContext) {
        self.format = format
        self.time = time
    }

    public func kindName(_ k: RecordKind) -> String { l10n.code(.kind, k.rawValue) }
    public func speciesName(_ s: Species) -> String { l10n.code(.species, s.rawValue) }
    public func sexName(_ s: Sex) -> String { l10n.code(.sex, s.rawValue) }
    /// A urine or stool colour: a colour petlog knows in this language (`yellow` → 노란색), other words as typed.
    public func colorName(_ c: String) -> String { l10n.code(.color, c) }

    public func symptomName(_ s: Symptom) -> String {
        s.listedCode.map { l10n.code(.symptom, $0) } ?? s.code
    }

    /// One line describing a record's detail, e.g. `4.2 kg · BCS 5`.
    public func summary(_ r: PetRecord) -> String {
        var parts: [String] = []
        switch r.detail {
        case .weight(let w):
            parts.append(format.mass(w.mass))
            if let b = w.bodyCondition { parts.append(l10n.text(.fieldBCS(score: String(b)))) }
        case .meal(let m):
            var s = m.food
            if let a = m.amount { s += " " + amount(a) }
            parts.append(s)
            if m.type != .meal { parts.append(l10n.code(.mealType, m.type.rawValue)) }
        case .stool(let s):
            parts.append(l10n.text(.fieldStoolScore(score: String(s.score))))
            if let c = s.color { parts.append(colorName(c)) }
            if s.blood { parts.append(l10n.text(.fieldBlood)) }
            if s.mucus { parts.append(l10n.text(.fieldMucus)) }
        case .urine(let u):
            if let a = u.amount { parts.append(l10n.code(.urineAmount, a.rawValue)) }
            if let c = u.color { parts.append(colorName(c)) }
            if u.straining { parts.append(l10n.text(.fieldStraining)) }
            if u.blood { parts.append(l10n.text(.fieldBlood)) }
            if parts.isEmpty { parts.append(l10n.text(.fieldNormal)) }
        case .symptom(let s):
            parts.append(symptomName(s))
            parts.append(l10n.text(.fieldSeverity(severity: String(s.severity))))
            if let d = s.durationMinutes { parts.append(l10n.text(.fieldDuration(duration: format.duration(minutes: d)))) }
        case .diary(let d):
            if let t = d.title { parts.append(t) }
            parts.append(d.text)
            if let m = d.mood { parts.append(l10n.code(.mood, m.rawValue)) }
        case .visit(let v):
            parts += [v.clinic, v.reason, v.diagnosis, v.treatment].compactMap { $0 }
            if let w = v.weight { parts.append(format.mass(w)) }
            if let c = v.cost { parts.append(format.money(c)) }
            if let f = v.followUp { parts.append(l10n.text(.fieldFollowUp(date: f.description))) }
        case .vaccination(let v):
            parts.append(l10n.code(.vaccine, VaccineName.normalize(v.vaccine)))
            if let p = v.product { parts.append(p) }
            if let lot = v.lot { parts.append(l10n.text(.fieldLot(lot: lot))) }
            if let n = v.nextDue { parts.append(l10n.text(.fieldNextDue(date: n.description))) }
        case .medication(let m):
            parts.append(m.name)
            if let d = m.dose { parts.append(d) }
            if let i = m.intervalSeconds { parts.append(l10n.text(.fieldEvery(interval: interval(i)))) }
            if let s = m.stoppedAt { parts.append(l10n.text(.fieldStopped(date: time.localDate(of: s).description))) }
        case .dose(let d):
            parts.append(d.medicationName)
            if d.skipped { parts.append(l10n.text(.fieldSkipped)) }
        case .expense(let e):
            parts.append(format.money(e.money))
            parts.append(l10n.code(.category, e.category))
            if let m = e.merchant { parts.append(m) }
            if !e.items.isEmpty { parts.append(e.items.joined(separator: ", ")) }
        default:
            // Every kind after the eleven above: the parts its model says (`RecordDetail.summary`).
            if let summary = r.detail.summary { parts += words(summary, kind: r.kind) }
        }
        if !r.attachments.isEmpty { parts.append(l10n.text(.fieldAttachments(count: ValueFormatter.count(r.attachments.count)))) }
        return parts.joined(separator: format.listSeparator)
    }

    /// A later kind's line (`RecordSummary`): its headline parts, or its name when it has none, then the rest.
    func words(_ summary: RecordSummary, kind: RecordKind) -> [String] {
        let headline = summary.headline.map(word)
        return (headline.isEmpty ? [kindName(kind)] : headline) + summary.rest.map(word)
    }

    /// One part of a later kind's line, worded by what it is.
    func word(_ part: RecordSummary.Part) -> String {
        switch part {
        case .text(let text): text
        case .money(let money): format.money(money)
        case .codes(let group, let codes): codes.map { c in L10n.CodeGroup(rawValue: group).map { l10n.code($0, c) } ?? c }.joined(separator: ", ")
        case .meters(let meters): distance(meters)
        case .minutes(let minutes): hoursAndMinutes(minutes)
        case .nextSession(let day): l10n.text(.fieldNextSession(date: day.description))
        }
    }

    public func interval(_ seconds: Int) -> String { format.duration(seconds: seconds) }

    /// A walk's distance in the view's unit: `800 m`, `3.2 km`; `2 mi` (imperial).
    public func distance(_ meters: Int) -> String {
        if format.unitSystem == .imperial { return l10n.text(.unitMiles(n: ValueFormatter.trim(Double(meters) / 1609.344, digits: 2))) }
        return meters < 1000 ? l10n.text(.unitMeters(n: String(meters))) : l10n.text(.unitKilometers(n: ValueFormatter.trim(Double(meters) / 1000, digits: 2)))
    }

    /// A length of time in hours and minutes, as a walk's is shown: `45 min`, `1 h 10 min` (`1시간 10분`, `1時間10分`).
    public func hoursAndMinutes(_ minutes: Int) -> String {
        guard minutes >= 60 else { return l10n.text(.unitMinutes(n: String(minutes))) }
        return minutes % 60 == 0 ? l10n.text(.unitHours(n: String(minutes / 60)))
            : l10n.text(.unitHoursMinutes(h: String(minutes / 60), m: String(minutes % 60)))
    }

    public func sexLabel(_ p: Pet) -> String {
        let base = sexName(p.sex)
        return p.neutered ? l10n.text(.sexNeutered(sex: base)) : base
    }

    /// `30 d`, `08:00,20:00` or "as needed".
    public func everyText(_ m: Medication) -> String {
        m.intervalSeconds.map(interval) ?? (m.times.isEmpty ? l10n.text(.fieldAsNeeded) : Medication.formatTimes(m.times))
    }

    /// `23 / 24 (95 %)`, or the plain count of doses given for a course with no schedule.
    public func adherenceText(_ table: MedicationTimetable, dosesGiven: Int) -> String {
        // A course with no schedule (as needed) has nothing due: the count alone would read as a bare 0 or 1.
        guard table.due > 0 else { return l10n.text(.medGivenUnscheduled(given: ValueFormatter.grouped(Int64(dosesGiven)))) }
        return l10n.text(.medAdherence(given: ValueFormatter.grouped(Int64(table.given)), due: ValueFormatter.grouped(Int64(table.due)),
                                       percent: String(min(100, table.given * 100 / table.due))))
    }

    /// What is due: "Rabies vaccine", "Apoquel dose", "follow-up visit (ear check)".
    public func dueWhat(_ item: DueItem) -> String {
        switch item.kind {
        case .vaccine(let code):
            let vaccine = l10n.code(.vaccine, code)
            return l10n.text(item.neverRecorded ? .dueVaccineFirst(vaccine: vaccine) : .dueVaccine(vaccine: vaccine))
        case .medication(let name, _):
            return l10n.text(.dueDose(name: name))
        case .followUp(_, let reason):
            return reason.map { l10n.text(.dueFollowUpReason(reason: $0)) } ?? l10n.text(.dueFollowUp)
        case .nextSession(_, let kind):
            return l10n.text(.dueNextSession(kind: kindName(kind)))
        }
    }

    /// "3 d late", "today", "in 5 d"; doses due today show their time. A dose that is late says by how
    /// much in words (minutes under an hour, hours under a day, then days), so it is seen without colour.
    /// "Now" is `time.now`: the report's as-of moment in the report.
    /// A meal's amount with its unit: `80 g`, `200 ml`, `1.5 cups` (plural where the language has one).
    public func amount(_ a: Amount) -> String {
        let n = ValueFormatter.trim(a.value, digits: 1)
        return a.unit == .cup ? l10n.text(.mealAmountCups(n: n)) : n + " " + l10n.code(.amountUnit, a.unit.rawValue)
    }

    public func dueWhen(_ item: DueItem) -> String {
        if let at = item.dueAt, at < time.now, !item.lateByDay {
            let minutes = Int(time.now.timeIntervalSince(at) / 60)
            if minutes < 60 { return l10n.text(.dueLateMinutes(n: ValueFormatter.count(max(1, minutes)))) }
            if minutes < 24 * 60 { return l10n.text(.dueLateHours(n: ValueFormatter.count(minutes / 60))) }
            return l10n.text(.dueLate(n: ValueFormatter.count(minutes / (24 * 60))))
        }
        let days = item.dueDay.dayNumber - time.today.dayNumber
        if days < 0 { return l10n.text(.dueLate(n: ValueFormatter.count(-days))) }
        if days == 0 { return item.dueAt.map { l10n.text(.dueTodayAt(time: clock($0))) } ?? l10n.text(.dueToday) }
        return l10n.text(.dueIn(n: ValueFormatter.count(days)))
    }

    /// The time of day in the local zone on the language's one clock (`8:30 AM`, `오전 8:30`, `8:30`), as the
    /// Due column and every other view write it.
    func clock(_ date: Date) -> String {
        let c = time.clock(of: date)
        return format.clock(hour: c.hour, minute: c.minute)
    }
}
