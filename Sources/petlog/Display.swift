import Foundation
import Localization
import PetModel

/// Turning values into the words and numbers a person reads, in the session's language and units.
extension Session {
    func localDay(_ date: Date) -> LocalDate { time.localDate(of: date) }

    /// `08:30` in the local zone.
    func clock(_ date: Date) -> String {
        let c = time.clock(of: date)
        return String(format: "%02d:%02d", c.hour, c.minute)
    }

    /// `2026-11-20 08:30` in the local zone.
    func dateTime(_ date: Date) -> String { "\(localDay(date)) \(clock(date))" }

    func kindName(_ k: RecordKind) -> String { l10n.code(.kind, k.rawValue) }
    func speciesName(_ s: Species) -> String { l10n.code(.species, s.rawValue) }
    func sexName(_ s: Sex) -> String { l10n.code(.sex, s.rawValue) }

    func symptomName(_ s: Symptom) -> String {
        s.listedCode.map { l10n.code(.symptom, $0) } ?? s.code
    }

    /// One line describing a record's detail, e.g. `4.2 kg · BCS 5`.
    func summary(_ r: PetRecord) -> String {
        var parts: [String] = []
        switch r.detail {
        case .weight(let w):
            parts.append(format.mass(w.mass))
            if let b = w.bodyCondition { parts.append(t(.fieldBCS, ["score": String(b)])) }
        case .meal(let m):
            var s = m.food
            if let a = m.amount { s += " " + ValueFormatter.trim(a.value, digits: 1) + " " + l10n.code(.amountUnit, a.unit.rawValue) }
            parts.append(s)
            if m.type != .meal { parts.append(l10n.code(.mealType, m.type.rawValue)) }
        case .stool(let s):
            parts.append(t(.fieldStoolScore, ["score": String(s.score)]))
            if let c = s.color { parts.append(c) }
            if s.blood { parts.append(t(.fieldBlood)) }
            if s.mucus { parts.append(t(.fieldMucus)) }
        case .urine(let u):
            if let a = u.amount { parts.append(l10n.code(.urineAmount, a.rawValue)) }
            if let c = u.color { parts.append(c) }
            if u.straining { parts.append(t(.fieldStraining)) }
            if u.blood { parts.append(t(.fieldBlood)) }
            if parts.isEmpty { parts.append(t(.fieldNormal)) }
        case .symptom(let s):
            parts.append(symptomName(s))
            parts.append(t(.fieldSeverity, ["severity": String(s.severity)]))
            if let d = s.durationMinutes { parts.append(t(.fieldDuration, ["minutes": String(d)])) }
        case .diary(let d):
            parts.append(d.text)
            if let m = d.mood { parts.append(l10n.code(.mood, m.rawValue)) }
        case .visit(let v):
            parts += [v.clinic, v.reason, v.diagnosis, v.treatment].compactMap { $0 }
            if let w = v.weight { parts.append(format.mass(w)) }
            if let c = v.cost { parts.append(format.money(c)) }
            if let f = v.followUp { parts.append(t(.fieldFollowUp, ["date": f.description])) }
        case .vaccination(let v):
            parts.append(l10n.code(.vaccine, VaccineName.normalize(v.vaccine)))
            if let p = v.product { parts.append(p) }
            if let lot = v.lot { parts.append(t(.fieldLot, ["lot": lot])) }
            if let n = v.nextDue { parts.append(t(.fieldNextDue, ["date": n.description])) }
        case .medication(let m):
            parts.append(m.name)
            if let d = m.dose { parts.append(d) }
            if let i = m.intervalSeconds { parts.append(t(.fieldEvery, ["interval": interval(i)])) }
            if let s = m.stoppedAt { parts.append(t(.fieldStopped, ["date": localDay(s).description])) }
        case .dose(let d):
            parts.append(d.medicationName)
            if d.skipped { parts.append(t(.fieldSkipped)) }
        case .expense(let e):
            parts.append(format.money(e.money))
            parts.append(l10n.code(.category, e.category))
            if let m = e.merchant { parts.append(m) }
        }
        if !r.attachments.isEmpty { parts.append(t(.fieldAttachments, ["count": String(r.attachments.count)])) }
        return parts.joined(separator: " · ")
    }

    func interval(_ seconds: Int) -> String {
        if seconds % (7 * 86_400) == 0 { return t(.unitWeeks, ["n": String(seconds / (7 * 86_400))]) }
        if seconds % 86_400 == 0 { return t(.unitDays, ["n": String(seconds / 86_400)]) }
        if seconds % 3600 == 0 { return t(.unitHours, ["n": String(seconds / 3600)]) }
        return t(.unitMinutes, ["n": String(seconds / 60)])
    }

    /// The line printed after a record is logged.
    func printAdded(_ records: [PetRecord]) {
        if json {
            terminal.json(records.map(JSONShape.record))
            return
        }
        for r in records {
            terminal.line(t(.recordAdded, ["id": String(r.id), "kind": kindName(r.kind), "pet": Terminal.sanitize(r.petName ?? "-"),
                                           "summary": Terminal.sanitize(summary(r))]))
        }
    }
}

/// Numbers as people read them.
enum Display {
    /// A count with thousands grouped: 868,890.
    static func count(_ n: Int) -> String {
        let digits = String(n.magnitude)
        var out = ""
        for (i, c) in digits.enumerated() {
            if i > 0 && (digits.count - i) % 3 == 0 { out.append(",") }
            out.append(c)
        }
        return (n < 0 ? "-" : "") + out
    }
}
