import Foundation
import PetModel
import PetStoreCore

/// The documented `--json` shapes (docs/json.md): snake_case keys, canonical units (grams, minor
/// units), instants as RFC 3339 with the offset they happened at. Keys are only ever added.
enum JSONShape {
    static func instant(_ date: Date, offset: Int) -> String {
        // By arithmetic, so any stored value has an answer: Foundation's formatter traps on an offset of
        // ±18:00 and far outside the years petlog keeps. It is kept for offsets with seconds (local mean
        // time before 1900), which it writes its own way.
        guard offset % 60 != 0, abs(offset) < 64800, (-6.2e10...2.534e11).contains(date.timeIntervalSince1970) else {
            return RFC3339.format(seconds: date.unixSeconds(), offset: offset)
        }
        let f = ISO8601DateFormatter()
        f.timeZone = TimeZone(secondsFromGMT: offset)
        f.formatOptions = [.withInternetDateTime]
        return f.string(from: date)
    }

    static func value(_ v: Any?) -> Any { v ?? NSNull() }

    static func pet(_ p: Pet) -> [String: Any] {
        [
            "id": p.id, "name": p.name, "species": p.species.rawValue, "breed": value(p.breed), "sex": p.sex.rawValue,
            "neutered": p.neutered, "born": value(p.born?.description), "microchip": value(p.microchip), "color": value(p.color),
            "notes": value(p.notes), "archived_on": value(p.archivedOn?.description), "archive_reason": value(p.archiveReason?.rawValue),
            "allergies": p.health.allergies, "conditions": p.health.conditions, "vet_contact": value(p.health.vetContact.map(contact)),
            "emergency_contacts": p.health.emergencyContacts.map(contact),
            "insurance": value(p.health.insurance.map { ["insurer": $0.insurer, "policy": value($0.policy)] as [String: Any] }),
        ]
    }

    static func contact(_ c: PetContact) -> [String: Any] { ["name": c.name, "phone": c.phone] }

    static func money(_ m: Money) -> [String: Any] {
        ["minor_units": m.minorUnits, "currency": m.currency.code, "amount": m.decimalString]
    }

    static func record(_ r: PetRecord) -> [String: Any] {
        var out: [String: Any] = [
            "id": r.id, "pet_id": value(r.petId), "pet": value(r.petName), "kind": r.kind.rawValue,
            "at": instant(r.at, offset: r.utcOffset), "utc_offset_seconds": r.utcOffset,
            "note": value(r.note), "starred": r.starred,
            "attachments": r.attachments.map { ["sha256": $0.sha256, "name": $0.originalName, "media_type": $0.mediaType, "size": $0.size] },
        ]
        out[r.kind.rawValue] = detail(r.detail)
        return out
    }

    static func detail(_ d: RecordDetail) -> [String: Any] {
        switch d {
        case .weight(let w): return ["grams": w.mass.grams, "body_condition": value(w.bodyCondition)]
        case .meal(let m): return ["food": m.food, "type": m.type.rawValue, "amount": value(m.amount?.value), "amount_unit": value(m.amount?.unit.rawValue)]
        case .stool(let s): return ["score": s.score, "color": value(s.color), "blood": s.blood, "mucus": s.mucus]
        case .urine(let u): return ["color": value(u.color), "amount": value(u.amount?.rawValue), "straining": u.straining, "blood": u.blood]
        case .symptom(let s): return ["code": s.code, "listed": s.isListed, "severity": s.severity, "duration_minutes": value(s.durationMinutes)]
        case .diary(let d): return ["text": d.text, "mood": value(d.mood?.rawValue)]
        case .visit(let v):
            return ["clinic": value(v.clinic), "vet": value(v.vet), "reason": value(v.reason), "diagnosis": value(v.diagnosis),
                    "treatment": value(v.treatment), "weight_grams": value(v.weight?.grams), "follow_up": value(v.followUp?.description),
                    "cost": value(v.cost.map(money))]
        case .vaccination(let v):
            return ["vaccine": v.vaccine, "product": value(v.product), "lot": value(v.lot), "clinic": value(v.clinic),
                    "next_due": value(v.nextDue?.description)]
        case .medication(let m):
            return ["name": m.name, "dose": value(m.dose), "route": value(m.route?.rawValue), "interval_seconds": value(m.intervalSeconds),
                    "times": value(m.times.isEmpty ? nil : Medication.formatTimes(m.times)),
                    "ends_on": value(m.endsOn?.description), "stopped_at": value(m.stoppedAt.map { instant($0, offset: 0) })]
        case .dose(let d): return ["medication_id": d.medicationId, "medication": d.medicationName, "skipped": d.skipped]
        case .expense(let e):
            return ["money": money(e.money), "category": e.category, "merchant": value(e.merchant), "payment": value(e.payment?.rawValue),
                    "items": e.items, "split_of": value(e.splitOf)]
        case .grooming(let g):
            return ["tasks": g.tasks.map(\.rawValue), "groomer": value(g.groomer), "cost": value(g.cost.map(money)), "next_due": value(g.next?.description)]
        }
    }
}
