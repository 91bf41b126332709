import Foundation
import PetModel

/// A pet as `pet list`, `pet show`, `pet add` and `pet edit` write it.
public struct PetJSON: JSONObjectView {
    public let pet: Pet
    public init(_ pet: Pet) { self.pet = pet }

    func write(_ c: inout KeyedEncodingContainer<JSONKey>) throws {
        let p = pet
        try c.put("id", p.id); try c.put("name", p.name); try c.put("species", p.species.rawValue); try c.put("breed", p.breed)
        try c.put("sex", p.sex.rawValue); try c.put("neutered", p.neutered); try c.put("born", p.born?.description)
        try c.put("microchip", p.microchip); try c.put("color", p.color); try c.put("notes", p.notes)
        try c.put("archived_on", p.archivedOn?.description); try c.put("archive_reason", p.archiveReason?.rawValue)
        try c.put("allergies", p.health.allergies); try c.put("conditions", p.health.conditions)
        try c.put("vet_contact", p.health.vetContact.map(ContactJSON.init)); try c.put("emergency_contacts", p.health.emergencyContacts.map(ContactJSON.init))
        try c.put("insurance", p.health.insurance.map(InsuranceJSON.init))
    }
}

public struct ContactJSON: Encodable {
    public let name: String
    public let phone: String
    init(_ c: PetContact) { name = c.name; phone = c.phone }
}

public struct InsuranceJSON: JSONObjectView {
    public let insurance: PetInsurance
    init(_ i: PetInsurance) { insurance = i }
    func write(_ c: inout KeyedEncodingContainer<JSONKey>) throws {
        try c.put("insurer", insurance.insurer); try c.put("policy", insurance.policy)
    }
}

/// `pet show --json`: the pet, its latest weight, its current medications and how many records it has.
public struct PetShowJSON: JSONObjectView {
    public let pet: Pet
    public let latestWeight: PetRecord?
    public let currentMedications: [PetRecord]
    public let recordCount: Int
    public init(pet: Pet, latestWeight: PetRecord?, currentMedications: [PetRecord], recordCount: Int) {
        self.pet = pet; self.latestWeight = latestWeight; self.currentMedications = currentMedications; self.recordCount = recordCount
    }
    func write(_ c: inout KeyedEncodingContainer<JSONKey>) throws {
        try PetJSON(pet).write(&c)
        try c.put("latest_weight", latestWeight.map { RecordJSON($0) })
        try c.put("current_medications", currentMedications.map { RecordJSON($0) })
        try c.put("record_count", recordCount)
    }
}

/// An amount in minor units, its currency and its decimal text.
public struct MoneyJSON: Encodable {
    public let money: Money
    public init(_ money: Money) { self.money = money }
    public func encode(to encoder: Encoder) throws {
        var c = encoder.container(keyedBy: JSONKey.self)
        try c.put("minor_units", money.minorUnits); try c.put("currency", money.currency.code); try c.put("amount", money.decimalString)
    }
}

/// A record as every record view writes it: the common keys and one object named after its kind.
/// `writtenBy`: `log --writer` adds the database role that wrote it (`null` for a SQLite file).
public struct RecordJSON: JSONObjectView {
    public let record: PetRecord
    public let showWriter: Bool
    public init(_ record: PetRecord, showWriter: Bool = false) { self.record = record; self.showWriter = showWriter }

    func write(_ c: inout KeyedEncodingContainer<JSONKey>) throws {
        let r = record
        try c.put("id", r.id); try c.put("pet_id", r.petId); try c.put("pet", r.petName); try c.put("kind", r.kind.rawValue)
        try c.put("at", JSONView.instant(r.at, offset: r.utcOffset)); try c.put("utc_offset_seconds", r.utcOffset)
        try c.put("note", r.note); try c.put("starred", r.starred); try c.put("attachments", r.attachments.map(AttachmentJSON.init))
        try c.put(r.kind.rawValue, RecordDetailJSON(r.detail))
        if showWriter { try c.put("written_by", r.writtenBy) }
    }
}

public struct AttachmentJSON: JSONObjectView {
    public let attachment: Attachment
    init(_ a: Attachment) { attachment = a }
    func write(_ c: inout KeyedEncodingContainer<JSONKey>) throws {
        let a = attachment
        try c.put("sha256", a.sha256); try c.put("name", a.originalName); try c.put("media_type", a.mediaType); try c.put("size", a.size)
    }
}

/// The kind's own fields of a record, in canonical units.
public struct RecordDetailJSON: JSONObjectView {
    public let detail: RecordDetail
    public init(_ detail: RecordDetail) { self.detail = detail }

    func write(_ c: inout KeyedEncodingContainer<JSONKey>) throws {
        switch detail {
        case .weight(let w): try c.put("grams", w.mass.grams); try c.put("body_condition", w.bodyCondition)
        case .meal(let m):
            try c.put("food", m.food); try c.put("type", m.type.rawValue); try c.put("amount", m.amount?.value); try c.put("amount_unit", m.amount?.unit.rawValue)
        case .stool(let s): try c.put("score", s.score); try c.put("color", s.color); try c.put("blood", s.blood); try c.put("mucus", s.mucus)
        case .urine(let u): try c.put("color", u.color); try c.put("amount", u.amount?.rawValue); try c.put("straining", u.straining); try c.put("blood", u.blood)
        case .symptom(let s):
            try c.put("code", s.code); try c.put("listed", s.isListed); try c.put("severity", s.severity); try c.put("duration_minutes", s.durationMinutes)
        case .diary(let d): try c.put("title", d.title); try c.put("text", d.text); try c.put("mood", d.mood?.rawValue)
        case .visit(let v):
            try c.put("clinic", v.clinic); try c.put("vet", v.vet); try c.put("reason", v.reason); try c.put("diagnosis", v.diagnosis)
            try c.put("treatment", v.treatment); try c.put("weight_grams", v.weight?.grams); try c.put("follow_up", v.followUp?.description)
            try c.put("cost", v.cost.map(MoneyJSON.init))
        case .vaccination(let v):
            try c.put("vaccine", v.vaccine); try c.put("product", v.product); try c.put("lot", v.lot); try c.put("clinic", v.clinic)
            try c.put("next_due", v.nextDue?.description)
        case .medication(let m):
            try c.put("name", m.name); try c.put("dose", m.dose); try c.put("route", m.route?.rawValue); try c.put("interval_seconds", m.intervalSeconds)
            try c.put("times", m.times.isEmpty ? nil : Medication.formatTimes(m.times))
            try c.put("ends_on", m.endsOn?.description); try c.put("stopped_at", m.stoppedAt.map { JSONView.instant($0, offset: 0) })
        case .dose(let d): try c.put("medication_id", d.medicationId); try c.put("medication", d.medicationName); try c.put("skipped", d.skipped)
        case .expense(let e):
            try c.put("money", MoneyJSON(e.money)); try c.put("category", e.category); try c.put("merchant", e.merchant)
            try c.put("payment", e.payment?.rawValue); try c.put("items", e.items); try c.put("split_of", e.splitOf)
        case .grooming(let g):
            try c.put("tasks", g.tasks.map(\.rawValue)); try c.put("groomer", g.groomer); try c.put("cost", g.cost.map(MoneyJSON.init))
            try c.put("next_due", g.next?.description)
        case .walk(let w): try c.put("distance_m", w.meters); try c.put("duration_min", w.minutes)
        }
    }
}

/// `med list --json`: each course as a record with where it stands.
public struct MedicationCourseJSON: JSONObjectView {
    public let record: PetRecord
    public let dosesGiven: Int
    public let dosesDue: Int
    public let active: Bool
    public let nextDose: String?
    public let lastDose: String?
    public init(record: PetRecord, dosesGiven: Int, dosesDue: Int, active: Bool, nextDose: String?, lastDose: String?) {
        self.record = record; self.dosesGiven = dosesGiven; self.dosesDue = dosesDue; self.active = active; self.nextDose = nextDose; self.lastDose = lastDose
    }
    func write(_ c: inout KeyedEncodingContainer<JSONKey>) throws {
        try RecordJSON(record).write(&c)
        try c.put("doses_given", dosesGiven); try c.put("doses_due", dosesDue); try c.put("active", active)
        try c.put("next_dose", nextDose); try c.put("last_dose", lastDose)
    }
}
