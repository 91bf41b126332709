import Foundation
import PetFiles
import PetModel

// The JSON export file (docs/json.md) as Codable types. They are written and read by one
// encoder/decoder pair (`PetlogJSON`), so a file means the same whatever its whitespace or key order,
// and the `--json` display shapes of the read commands can change without touching the file format.
//
// Every property is optional so that decoding a hand-written file that leaves a key out reaches the
// same per-column checks (and the same "missing column" message) as a CSV import; what a wrong type
// (text where a number belongs, a number for a boolean) gets is the JSON error with the line. Encoding
// writes every key, absent values as null, as the export always has.

/// The one encoder and decoder for the export's pets and records.
public enum PetlogJSON {
    static func encoder() -> ExportJSONEncoder { ExportJSONEncoder() }

    static func decoder() -> JSONDecoder { JSONDecoder() }

    /// The header's values; the layout around them is `PetlogJSONWriter`'s.
    static let format = "petlog"
    public static let schema = "v1"
}

extension KeyedEncodingContainer {
    // Written as null when absent (the synthesized encoding would leave the key out). The concrete
    // overloads reach the encoder's own paths for text, integers and booleans; an Optional passed as
    // a generic value takes a nested encoder per key.
    mutating func encodeOrNull(_ v: String?, forKey key: Key) throws { if let v { try encode(v, forKey: key) } else { try encodeNil(forKey: key) } }
    mutating func encodeOrNull(_ v: Int64?, forKey key: Key) throws { if let v { try encode(v, forKey: key) } else { try encodeNil(forKey: key) } }
    mutating func encodeOrNull(_ v: Bool?, forKey key: Key) throws { if let v { try encode(v, forKey: key) } else { try encodeNil(forKey: key) } }
    mutating func encodeOrNull(_ v: Double?, forKey key: Key) throws { if let v { try encode(v, forKey: key) } else { try encodeNil(forKey: key) } }
    mutating func encodeOrNull<T: Encodable>(_ v: T?, forKey key: Key) throws { if let v { try encode(v, forKey: key) } else { try encodeNil(forKey: key) } }
}

/// Money in the export: minor units and an ISO 4217 code; `amount` is decimal text for people and is not read back.
struct ExportedMoney: Codable, Equatable {
    var minorUnits: Int64?
    var currency: String?
    var amount: String?

    enum CodingKeys: String, CodingKey { case minorUnits = "minor_units", currency, amount }

    init(_ m: Money) { minorUnits = m.minorUnits; currency = m.currency.code; amount = m.decimalString }

    func encode(to encoder: Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encodeOrNull(minorUnits, forKey: .minorUnits)
        try c.encodeOrNull(currency, forKey: .currency)
        try c.encodeOrNull(amount, forKey: .amount)
    }
}

/// One attachment of a record, listed by its SHA-256 (the file itself stays in `attachments/`).
struct ExportedAttachment: Codable, Equatable {
    var sha256: String
    var name: String
    var mediaType: String
    var size: Int64

    enum CodingKeys: String, CodingKey { case sha256, name, mediaType = "media_type", size }

    init(_ a: Attachment) { sha256 = a.sha256; name = a.originalName; mediaType = a.mediaType; size = a.size }
}

/// A pet in the export.
struct ExportedPet: Codable, Equatable {
    var id: Int64?
    var name: String?
    var species: String?
    var breed: String?
    var sex: String?
    var neutered: Bool?
    var born: String?
    var microchip: String?
    var color: String?
    var notes: String?
    var archivedOn: String?
    var archiveReason: String?
    var allergies: [String]?
    var conditions: [String]?
    var vetContact: ExportedContact?
    var emergencyContacts: [ExportedContact]?
    var insurance: ExportedInsurance?
    /// When the pet was added and last changed, in UTC (kept by an import).
    var createdAt: String?
    var updatedAt: String?

    enum CodingKeys: String, CodingKey {
        case id, name, species, breed, sex, neutered, born, microchip, color, notes
        case archivedOn = "archived_on", archiveReason = "archive_reason"
        case allergies, conditions, vetContact = "vet_contact", emergencyContacts = "emergency_contacts", insurance
        case createdAt = "created_at", updatedAt = "updated_at"
    }

    init(_ p: Pet) {
        id = p.id; name = p.name; species = p.species.rawValue; breed = p.breed; sex = p.sex.rawValue; neutered = p.neutered
        born = p.born?.description; microchip = p.microchip; color = p.color; notes = p.notes
        archivedOn = p.archivedOn?.description; archiveReason = p.archiveReason?.rawValue
        allergies = p.health.allergies; conditions = p.health.conditions; vetContact = p.health.vetContact.map(ExportedContact.init)
        emergencyContacts = p.health.emergencyContacts.map(ExportedContact.init); insurance = p.health.insurance.map(ExportedInsurance.init)
        createdAt = RFC3339.format(seconds: p.createdAt.unixSeconds(), offset: 0); updatedAt = RFC3339.format(seconds: p.updatedAt.unixSeconds(), offset: 0)
    }

    /// A line break or other control character inside one item (a hand-written file): refused, since the
    /// store keeps a list one item a line.
    func checkItems(_ location: SourceLocation) throws {
        func check(_ items: [String]?, _ field: String) throws {
            for item in items ?? [] where item.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) {
                throw ImportError(location: location, problem: .value(.controlCharacters(field: field)))
            }
        }
        try check(allergies, "allergy"); try check(conditions, "condition")
        try check(emergencyContacts?.flatMap { [$0.name ?? "", $0.phone ?? ""] }, "emergency-contact")
        try check(vetContact.map { [$0.name ?? "", $0.phone ?? ""] }, "vet-contact")
        try check(insurance.map { [$0.insurer ?? "", $0.policy ?? ""] }, "insurance")
    }

    func encode(to encoder: Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encodeOrNull(id, forKey: .id)
        try c.encodeOrNull(name, forKey: .name)
        try c.encodeOrNull(species, forKey: .species)
        try c.encodeOrNull(breed, forKey: .breed)
        try c.encodeOrNull(sex, forKey: .sex)
        try c.encodeOrNull(neutered, forKey: .neutered)
        try c.encodeOrNull(born, forKey: .born)
        try c.encodeOrNull(microchip, forKey: .microchip)
        try c.encodeOrNull(color, forKey: .color)
        try c.encodeOrNull(notes, forKey: .notes)
        try c.encodeOrNull(archivedOn, forKey: .archivedOn)
        try c.encodeOrNull(archiveReason, forKey: .archiveReason)
        try c.encode(allergies ?? [], forKey: .allergies)
        try c.encode(conditions ?? [], forKey: .conditions)
        try c.encodeOrNull(vetContact, forKey: .vetContact)
        try c.encode(emergencyContacts ?? [], forKey: .emergencyContacts)
        try c.encodeOrNull(insurance, forKey: .insurance)
        try c.encodeOrNull(createdAt, forKey: .createdAt)
        try c.encodeOrNull(updatedAt, forKey: .updatedAt)
    }

    /// The values by database column name, for the checks every import shares (the health facts in
    /// their stored form, `PetHealth`).
    func fields(_ location: SourceLocation) -> Fields {
        var f = FieldValues()
        f.put("id", id); f.put("name", name); f.put("species", species); f.put("breed", breed); f.put("sex", sex); f.put("neutered", neutered)
        f.put("born", born); f.put("microchip", microchip); f.put("color", color); f.put("notes", notes)
        f.put("archived_on", archivedOn); f.put("archive_reason", archiveReason)
        f.put("allergies", allergies.flatMap { PetHealth.storedList($0) }); f.put("conditions", conditions.flatMap { PetHealth.storedList($0) })
        f.put("vet_contact", vetContact?.text); f.put("emergency_contacts", emergencyContacts.flatMap { PetHealth.storedList($0.map(\.text)) })
        f.put("insurance", insurance?.text)
        f.put("created_at", createdAt); f.put("updated_at", updatedAt)
        return Fields(values: f.values, location: location)
    }
}

/// A vet or emergency contact in the export.
struct ExportedContact: Codable, Equatable {
    var name: String?
    var phone: String?

    init(_ c: PetContact) { name = c.name; phone = c.phone }

    /// `NAME, PHONE`, read back by the shared checks (a missing part makes it refused there).
    var text: String { [name, phone].compactMap { $0 }.joined(separator: ", ") }

    func encode(to encoder: Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encodeOrNull(name, forKey: .name)
        try c.encodeOrNull(phone, forKey: .phone)
    }
}

/// A pet's insurance in the export.
struct ExportedInsurance: Codable, Equatable {
    var insurer: String?
    var policy: String?

    init(_ i: PetInsurance) { insurer = i.insurer; policy = i.policy }

    var text: String { [insurer, policy].compactMap { $0 }.joined(separator: ", ") }

    func encode(to encoder: Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encodeOrNull(insurer, forKey: .insurer)
        try c.encodeOrNull(policy, forKey: .policy)
    }
}

/// Column values as the shared checks read them: text, integers in decimal, booleans as 1/0.
struct FieldValues {
    var values: [String: String] = [:]
    mutating func put(_ key: String, _ v: String?) { values[key] = v }
    mutating func put(_ key: String, _ v: Int64?) { values[key] = v.map { String($0) } }
    mutating func put(_ key: String, _ v: Bool?) { values[key] = v.map { $0 ? "1" : "0" } }
    mutating func put(_ key: String, _ v: Double?) { values[key] = v.map { "\($0)" } }
}

/// The detail of one record, under the key its kind names.
enum ExportedDetail: Equatable {
    case weight(Weight), meal(Meal), stool(Stool), urine(Urine), symptom(Symptom), diary(Diary)
    case visit(Visit), vaccination(Vaccination), medication(Medication), dose(Dose), expense(Expense)
    /// A kind whose object its descriptor makes from its columns (every kind after the shipped eleven).
    case columns(ExportedColumns)

    struct Weight: Codable, Equatable {
        var grams: Int64?, bodyCondition: Int64?
        enum CodingKeys: String, CodingKey { case grams, bodyCondition = "body_condition" }
        func encode(to e: Encoder) throws {
            var c = e.container(keyedBy: CodingKeys.self)
            try c.encodeOrNull(grams, forKey: .grams); try c.encodeOrNull(bodyCondition, forKey: .bodyCondition)
        }
        func put(into f: inout FieldValues) { f.put("grams", grams); f.put("body_condition", bodyCondition) }
    }

    struct Meal: Codable, Equatable {
        var food: String?, type: String?, amount: Double?, amountUnit: String?
        enum CodingKeys: String, CodingKey { case food, type, amount, amountUnit = "amount_unit" }
        func encode(to e: Encoder) throws {
            var c = e.container(keyedBy: CodingKeys.self)
            try c.encodeOrNull(food, forKey: .food); try c.encodeOrNull(type, forKey: .type)
            try c.encodeOrNull(amount, forKey: .amount); try c.encodeOrNull(amountUnit, forKey: .amountUnit)
        }
        func put(into f: inout FieldValues) { f.put("food", food); f.put("type", type); f.put("amount", amount); f.put("amount_unit", amountUnit) }
    }

    struct Stool: Codable, Equatable {
        var score: Int64?, color: String?, blood: Bool?, mucus: Bool?
        func encode(to e: Encoder) throws {
            var c = e.container(keyedBy: CodingKeys.self)
            try c.encodeOrNull(score, forKey: .score); try c.encodeOrNull(color, forKey: .color)
            try c.encodeOrNull(blood, forKey: .blood); try c.encodeOrNull(mucus, forKey: .mucus)
        }
        func put(into f: inout FieldValues) { f.put("score", score); f.put("color", color); f.put("blood", blood); f.put("mucus", mucus) }
    }

    struct Urine: Codable, Equatable {
        var color: String?, amount: String?, straining: Bool?, blood: Bool?
        func encode(to e: Encoder) throws {
            var c = e.container(keyedBy: CodingKeys.self)
            try c.encodeOrNull(color, forKey: .color); try c.encodeOrNull(amount, forKey: .amount)
            try c.encodeOrNull(straining, forKey: .straining); try c.encodeOrNull(blood, forKey: .blood)
        }
        func put(into f: inout FieldValues) { f.put("color", color); f.put("amount", amount); f.put("straining", straining); f.put("blood", blood) }
    }

    struct Symptom: Codable, Equatable {
        var code: String?, listed: Bool?, severity: Int64?, durationMinutes: Int64?
        enum CodingKeys: String, CodingKey { case code, listed, severity, durationMinutes = "duration_minutes" }
        func encode(to e: Encoder) throws {
            var c = e.container(keyedBy: CodingKeys.self)
            try c.encodeOrNull(code, forKey: .code); try c.encodeOrNull(listed, forKey: .listed)
            try c.encodeOrNull(severity, forKey: .severity); try c.encodeOrNull(durationMinutes, forKey: .durationMinutes)
        }
        func put(into f: inout FieldValues) { f.put("code", code); f.put("listed", listed); f.put("severity", severity); f.put("duration_minutes", durationMinutes) }
    }

    struct Diary: Codable, Equatable {
        var text: String?, mood: String?, title: String?
        func encode(to e: Encoder) throws {
            var c = e.container(keyedBy: CodingKeys.self)
            try c.encodeOrNull(text, forKey: .text); try c.encodeOrNull(mood, forKey: .mood); try c.encodeOrNull(title, forKey: .title)
        }
        func put(into f: inout FieldValues) { f.put("text", text); f.put("mood", mood); f.put("title", title) }
    }

    struct Visit: Codable, Equatable {
        var clinic: String?, vet: String?, reason: String?, diagnosis: String?, treatment: String?
        var weightGrams: Int64?, followUp: String?, cost: ExportedMoney?
        enum CodingKeys: String, CodingKey {
            case clinic, vet, reason, diagnosis, treatment, weightGrams = "weight_grams", followUp = "follow_up", cost
        }
        func encode(to e: Encoder) throws {
            var c = e.container(keyedBy: CodingKeys.self)
            try c.encodeOrNull(clinic, forKey: .clinic); try c.encodeOrNull(vet, forKey: .vet); try c.encodeOrNull(reason, forKey: .reason)
            try c.encodeOrNull(diagnosis, forKey: .diagnosis); try c.encodeOrNull(treatment, forKey: .treatment)
            try c.encodeOrNull(weightGrams, forKey: .weightGrams); try c.encodeOrNull(followUp, forKey: .followUp); try c.encodeOrNull(cost, forKey: .cost)
        }
        func put(into f: inout FieldValues) {
            f.put("clinic", clinic); f.put("vet", vet); f.put("reason", reason); f.put("diagnosis", diagnosis); f.put("treatment", treatment)
            f.put("weight_grams", weightGrams); f.put("follow_up", followUp)
            f.put("cost_minor", cost?.minorUnits); f.put("cost_currency", cost?.currency)
        }
    }

    struct Vaccination: Codable, Equatable {
        var vaccine: String?, product: String?, lot: String?, clinic: String?, nextDue: String?
        enum CodingKeys: String, CodingKey { case vaccine, product, lot, clinic, nextDue = "next_due" }
        func encode(to e: Encoder) throws {
            var c = e.container(keyedBy: CodingKeys.self)
            try c.encodeOrNull(vaccine, forKey: .vaccine); try c.encodeOrNull(product, forKey: .product); try c.encodeOrNull(lot, forKey: .lot)
            try c.encodeOrNull(clinic, forKey: .clinic); try c.encodeOrNull(nextDue, forKey: .nextDue)
        }
        func put(into f: inout FieldValues) { f.put("vaccine", vaccine); f.put("product", product); f.put("lot", lot); f.put("clinic", clinic); f.put("next_due", nextDue) }
    }

    struct Medication: Codable, Equatable {
        var name: String?, dose: String?, route: String?, intervalSeconds: Int64?, times: String?, endsOn: String?
        /// An RFC 3339 instant; files from before it was one hold Unix seconds, which are still read.
        var stoppedAt: String?
        enum CodingKeys: String, CodingKey {
            case name, dose, route, intervalSeconds = "interval_seconds", times, endsOn = "ends_on", stoppedAt = "stopped_at"
        }
        init(name: String?, dose: String?, route: String?, intervalSeconds: Int64?, times: String?, endsOn: String?, stoppedAt: String?) {
            self.name = name; self.dose = dose; self.route = route; self.intervalSeconds = intervalSeconds
            self.times = times; self.endsOn = endsOn; self.stoppedAt = stoppedAt
        }
        init(from d: Decoder) throws {
            let c = try d.container(keyedBy: CodingKeys.self)
            name = try c.decodeIfPresent(String.self, forKey: .name); dose = try c.decodeIfPresent(String.self, forKey: .dose)
            route = try c.decodeIfPresent(String.self, forKey: .route)
            intervalSeconds = try c.decodeIfPresent(Int64.self, forKey: .intervalSeconds)
            times = try c.decodeIfPresent(String.self, forKey: .times); endsOn = try c.decodeIfPresent(String.self, forKey: .endsOn)
            if let seconds = try? c.decodeIfPresent(Int64.self, forKey: .stoppedAt) { stoppedAt = String(seconds) } else {
                stoppedAt = try c.decodeIfPresent(String.self, forKey: .stoppedAt)
            }
        }
        func encode(to e: Encoder) throws {
            var c = e.container(keyedBy: CodingKeys.self)
            try c.encodeOrNull(name, forKey: .name); try c.encodeOrNull(dose, forKey: .dose); try c.encodeOrNull(route, forKey: .route)
            try c.encodeOrNull(intervalSeconds, forKey: .intervalSeconds); try c.encodeOrNull(times, forKey: .times)
            try c.encodeOrNull(endsOn, forKey: .endsOn); try c.encodeOrNull(stoppedAt, forKey: .stoppedAt)
        }
        func put(into f: inout FieldValues) {
            f.put("name", name); f.put("dose", dose); f.put("route", route); f.put("interval_seconds", intervalSeconds)
            f.put("times", times); f.put("ends_on", endsOn); f.put("stopped_at", stoppedAt)
        }
    }

    struct Dose: Codable, Equatable {
        var medicationId: Int64?, medication: String?, skipped: Bool?
        enum CodingKeys: String, CodingKey { case medicationId = "medication_id", medication, skipped }
        func encode(to e: Encoder) throws {
            var c = e.container(keyedBy: CodingKeys.self)
            try c.encodeOrNull(medicationId, forKey: .medicationId); try c.encodeOrNull(medication, forKey: .medication); try c.encodeOrNull(skipped, forKey: .skipped)
        }
        func put(into f: inout FieldValues) { f.put("medication_id", medicationId); f.put("medication", medication); f.put("skipped", skipped) }
    }

    struct Expense: Codable, Equatable {
        var money: ExportedMoney?, category: String?, merchant: String?, payment: String?
        /// Added with schema v4; files from before have neither (no items, not split).
        var items: [String]?, splitOf: Int64?
        enum CodingKeys: String, CodingKey { case money, category, merchant, payment, items, splitOf = "split_of" }
        func encode(to e: Encoder) throws {
            var c = e.container(keyedBy: CodingKeys.self)
            try c.encodeOrNull(money, forKey: .money); try c.encodeOrNull(category, forKey: .category)
            try c.encodeOrNull(merchant, forKey: .merchant); try c.encodeOrNull(payment, forKey: .payment)
            try c.encode(items ?? [], forKey: .items); try c.encodeOrNull(splitOf, forKey: .splitOf)
        }
        func put(into f: inout FieldValues) {
            f.put("amount_minor", money?.minorUnits); f.put("currency", money?.currency); f.put("category", category); f.put("merchant", merchant); f.put("payment", payment)
            f.put("split_of", splitOf)
            // Items travel as one text, separated by U+001F (which no item may contain: control characters are refused).
            if let items, !items.isEmpty { f.put("items", items.joined(separator: "\u{1F}")) }
        }
    }
}

/// The detail of a kind whose JSON object its descriptor makes from its columns (`RecordKindTable.json`):
/// the columns' values as text, as `FieldValues` holds them.
struct ExportedColumns: Equatable, Encodable {
    var kind: RecordKind
    /// Column → value as text; a NULL column is absent.
    var values: [String: String] = [:]
    var fields: [RecordKindTable.JSONField] { RecordKindTable.of(kind).json ?? [] }

    init(_ d: RecordDetail) {
        kind = d.kind
        for (column, v) in zip(RecordKindTable.of(d.kind).columns, RecordDetailTables.values(d, id: 0).dropFirst()) {
            switch v {
            case .text(let t): values[column] = t
            case .int(let i): values[column] = String(i)
            case .double(let x): values[column] = "\(x)"
            case .null, .bytes: break
            }
        }
    }

    init(kind: RecordKind, from decoder: Decoder) throws {
        self.kind = kind
        let c = try decoder.container(keyedBy: ExportedRecord.Key.self)
        for f in fields {
            let key = ExportedRecord.Key(f.key)
            switch f.form {
            case .text(let column): values[column] = try c.decodeIfPresent(String.self, forKey: key)
            case .integer(let column): values[column] = try c.decodeIfPresent(Int64.self, forKey: key).map { String($0) }
            case .codes(let column):
                if let list = try c.decodeIfPresent([String].self, forKey: key), !list.isEmpty { values[column] = list.joined(separator: ",") }
            case .money(let minor, let currency):
                if let m = try c.decodeIfPresent(ExportedMoney.self, forKey: key) {
                    values[minor] = m.minorUnits.map { String($0) }; values[currency] = m.currency
                }
            }
        }
    }

    func money(_ minor: String, _ currency: String) -> ExportedMoney? {
        guard let m = values[minor].flatMap({ Int64($0) }), let c = values[currency].flatMap(Currency.named) else { return nil }
        return ExportedMoney(Money(minorUnits: m, currency: c))
    }

    func encode(to encoder: Encoder) throws {
        var c = encoder.container(keyedBy: ExportedRecord.Key.self)
        for f in fields {
            let key = ExportedRecord.Key(f.key)
            switch f.form {
            case .text(let column): try c.encodeOrNull(values[column], forKey: key)
            case .integer(let column): try c.encodeOrNull(values[column].flatMap { Int64($0) }, forKey: key)
            case .codes(let column): try c.encode(values[column].map { $0.split(separator: ",").map(String.init) } ?? [], forKey: key)
            case .money(let minor, let currency): try c.encodeOrNull(money(minor, currency), forKey: key)
            }
        }
    }

    /// The members, in the order `fields` lists them (sorted), as `encode` writes them.
    func write(to j: inout JSONBytes) {
        for f in fields {
            j.key(f.key)
            switch f.form {
            case .text(let column): j.value(values[column])
            case .integer(let column): j.value(values[column].flatMap { Int64($0) })
            case .codes(let column):
                j.openArray()
                for code in values[column].map({ $0.split(separator: ",").map(String.init) }) ?? [] { j.element(); j.value(code) }
                j.closeArray()
            case .money(let minor, let currency): if let m = money(minor, currency) { m.write(to: &j) } else { j.null() }
            }
        }
    }

    func put(into f: inout FieldValues) { for (k, v) in values { f.values[k] = v } }
}

extension ExportedDetail {
    init(_ d: RecordDetail) {
        switch d {
        case .weight(let w): self = .weight(Weight(grams: Int64(w.mass.grams), bodyCondition: w.bodyCondition.map(Int64.init)))
        case .meal(let m): self = .meal(Meal(food: m.food, type: m.type.rawValue, amount: m.amount?.value, amountUnit: m.amount?.unit.rawValue))
        case .stool(let s): self = .stool(Stool(score: Int64(s.score), color: s.color, blood: s.blood, mucus: s.mucus))
        case .urine(let u): self = .urine(Urine(color: u.color, amount: u.amount?.rawValue, straining: u.straining, blood: u.blood))
        case .symptom(let s):
            self = .symptom(Symptom(code: s.code, listed: s.isListed, severity: Int64(s.severity), durationMinutes: s.durationMinutes.map(Int64.init)))
        case .diary(let d): self = .diary(Diary(text: d.text, mood: d.mood?.rawValue, title: d.title))
        case .visit(let v):
            self = .visit(Visit(clinic: v.clinic, vet: v.vet, reason: v.reason, diagnosis: v.diagnosis, treatment: v.treatment,
                                weightGrams: v.weight.map { Int64($0.grams) }, followUp: v.followUp?.description, cost: v.cost.map(ExportedMoney.init)))
        case .vaccination(let v):
            self = .vaccination(Vaccination(vaccine: v.vaccine, product: v.product, lot: v.lot, clinic: v.clinic, nextDue: v.nextDue?.description))
        case .medication(let m):
            self = .medication(Medication(name: m.name, dose: m.dose, route: m.route?.rawValue, intervalSeconds: m.intervalSeconds.map(Int64.init),
                                          times: m.times.isEmpty ? nil : PetModel.Medication.formatTimes(m.times), endsOn: m.endsOn?.description,
                                          stoppedAt: m.stoppedAt.map { RFC3339.format(seconds: $0.unixSeconds(), offset: 0) }))
        case .dose(let d): self = .dose(Dose(medicationId: d.medicationId, medication: d.medicationName, skipped: d.skipped))
        case .expense(let e):
            self = .expense(Expense(money: ExportedMoney(e.money), category: e.category, merchant: e.merchant, payment: e.payment?.rawValue,
                                    items: e.items, splitOf: e.splitOf))
        default:
            self = .columns(ExportedColumns(d))
        }
    }

    func encode<K: CodingKey>(into c: inout KeyedEncodingContainer<K>, forKey key: K) throws {
        switch self {
        case .weight(let b): try c.encode(b, forKey: key)
        case .meal(let b): try c.encode(b, forKey: key)
        case .stool(let b): try c.encode(b, forKey: key)
        case .urine(let b): try c.encode(b, forKey: key)
        case .symptom(let b): try c.encode(b, forKey: key)
        case .diary(let b): try c.encode(b, forKey: key)
        case .visit(let b): try c.encode(b, forKey: key)
        case .vaccination(let b): try c.encode(b, forKey: key)
        case .medication(let b): try c.encode(b, forKey: key)
        case .dose(let b): try c.encode(b, forKey: key)
        case .expense(let b): try c.encode(b, forKey: key)
        case .columns(let b): try c.encode(b, forKey: key)
        }
    }

    /// The detail of `kind` under `key`, nil when the record has none.
    static func decode<K: CodingKey>(_ kind: RecordKind, from c: KeyedDecodingContainer<K>, forKey key: K) throws -> ExportedDetail? {
        switch kind {
        case .weight: return try c.decodeIfPresent(Weight.self, forKey: key).map(ExportedDetail.weight)
        case .meal: return try c.decodeIfPresent(Meal.self, forKey: key).map(ExportedDetail.meal)
        case .stool: return try c.decodeIfPresent(Stool.self, forKey: key).map(ExportedDetail.stool)
        case .urine: return try c.decodeIfPresent(Urine.self, forKey: key).map(ExportedDetail.urine)
        case .symptom: return try c.decodeIfPresent(Symptom.self, forKey: key).map(ExportedDetail.symptom)
        case .diary: return try c.decodeIfPresent(Diary.self, forKey: key).map(ExportedDetail.diary)
        case .visit: return try c.decodeIfPresent(Visit.self, forKey: key).map(ExportedDetail.visit)
        case .vaccination: return try c.decodeIfPresent(Vaccination.self, forKey: key).map(ExportedDetail.vaccination)
        case .medication: return try c.decodeIfPresent(Medication.self, forKey: key).map(ExportedDetail.medication)
        case .dose: return try c.decodeIfPresent(Dose.self, forKey: key).map(ExportedDetail.dose)
        case .expense: return try c.decodeIfPresent(Expense.self, forKey: key).map(ExportedDetail.expense)
        default:
            guard RecordKindTable.of(kind).json != nil, c.contains(key), try !c.decodeNil(forKey: key) else { return nil }
            return .columns(try ExportedColumns(kind: kind, from: try c.superDecoder(forKey: key)))
        }
    }

    func put(into f: inout FieldValues) {
        switch self {
        case .weight(let b): b.put(into: &f)
        case .meal(let b): b.put(into: &f)
        case .stool(let b): b.put(into: &f)
        case .urine(let b): b.put(into: &f)
        case .symptom(let b): b.put(into: &f)
        case .diary(let b): b.put(into: &f)
        case .visit(let b): b.put(into: &f)
        case .vaccination(let b): b.put(into: &f)
        case .medication(let b): b.put(into: &f)
        case .dose(let b): b.put(into: &f)
        case .expense(let b): b.put(into: &f)
        case .columns(let b): b.put(into: &f)
        }
    }
}

/// A record in the export: the shared columns, its attachments, and its detail under the key its kind names.
struct ExportedRecord: Codable, Equatable {
    var id: Int64?
    var petId: Int64?
    /// The pet's name, for people reading the file; the import goes by `pet_id`.
    var pet: String?
    var kind: String?
    var at: String?
    /// Written beside `at` for readers without an RFC 3339 parser; the import reads the offset from `at`.
    var utcOffsetSeconds: Int64?
    var note: String?
    var starred: Bool?
    var attachments: [ExportedAttachment]?
    /// When the record was first written and last changed, in UTC (kept by an import, so `show` still
    /// says when it was written).
    var createdAt: String?
    var updatedAt: String?
    var detail: ExportedDetail?

    struct Key: CodingKey {
        var stringValue: String
        init(_ s: String) { stringValue = s }
        init?(stringValue: String) { self.stringValue = stringValue }
        var intValue: Int? { nil }
        init?(intValue: Int) { nil }
        static let id = Key("id"), petId = Key("pet_id"), pet = Key("pet"), kind = Key("kind"), at = Key("at")
        static let utcOffsetSeconds = Key("utc_offset_seconds"), note = Key("note"), starred = Key("starred"), attachments = Key("attachments")
        static let createdAt = Key("created_at"), updatedAt = Key("updated_at")
    }

    init(_ r: PetRecord) {
        id = r.id; petId = r.petId; pet = r.petName; kind = r.kind.rawValue
        at = RFC3339.text(r.at, offset: r.utcOffset); utcOffsetSeconds = Int64(r.utcOffset)
        note = r.note; starred = r.starred; attachments = r.attachments.map(ExportedAttachment.init); detail = ExportedDetail(r.detail)
        createdAt = RFC3339.format(seconds: r.createdAt.unixSeconds(), offset: 0); updatedAt = RFC3339.format(seconds: r.updatedAt.unixSeconds(), offset: 0)
    }

    init(from decoder: Decoder) throws {
        let c = try decoder.container(keyedBy: Key.self)
        id = try c.decodeIfPresent(Int64.self, forKey: .id)
        petId = try c.decodeIfPresent(Int64.self, forKey: .petId)
        pet = try c.decodeIfPresent(String.self, forKey: .pet)
        kind = try c.decodeIfPresent(String.self, forKey: .kind)
        at = try c.decodeIfPresent(String.self, forKey: .at)
        utcOffsetSeconds = try c.decodeIfPresent(Int64.self, forKey: .utcOffsetSeconds)
        note = try c.decodeIfPresent(String.self, forKey: .note)
        starred = try c.decodeIfPresent(Bool.self, forKey: .starred)
        attachments = try c.decodeIfPresent([ExportedAttachment].self, forKey: .attachments)
        createdAt = try c.decodeIfPresent(String.self, forKey: .createdAt)
        updatedAt = try c.decodeIfPresent(String.self, forKey: .updatedAt)
        detail = try kind.flatMap(RecordKind.init(rawValue:)).flatMap { try ExportedDetail.decode($0, from: c, forKey: Key($0.rawValue)) }
    }

    func encode(to encoder: Encoder) throws {
        var c = encoder.container(keyedBy: Key.self)
        try c.encodeOrNull(id, forKey: .id)
        try c.encodeOrNull(petId, forKey: .petId)
        try c.encodeOrNull(pet, forKey: .pet)
        try c.encodeOrNull(kind, forKey: .kind)
        try c.encodeOrNull(at, forKey: .at)
        try c.encodeOrNull(utcOffsetSeconds, forKey: .utcOffsetSeconds)
        try c.encodeOrNull(note, forKey: .note)
        try c.encodeOrNull(starred, forKey: .starred)
        try c.encodeOrNull(attachments, forKey: .attachments)
        try c.encodeOrNull(createdAt, forKey: .createdAt)
        try c.encodeOrNull(updatedAt, forKey: .updatedAt)
        if let kind, let detail { try detail.encode(into: &c, forKey: Key(kind)) }
    }

    /// The shared columns by database name (the detail's are `detailFields`).
    func fields(_ location: SourceLocation) -> Fields {
        var f = FieldValues()
        f.put("id", id); f.put("pet_id", petId); f.put("kind", kind); f.put("at", at); f.put("note", note); f.put("starred", starred)
        f.put("created_at", createdAt); f.put("updated_at", updatedAt)
        return Fields(values: f.values, location: location)
    }

    func detailFields(_ location: SourceLocation) -> Fields? {
        guard let detail else { return nil }
        var f = FieldValues()
        detail.put(into: &f)
        return Fields(values: f.values, location: location)
    }
}

extension RFC3339 {
    /// An instant with the offset it happened at. Offsets with seconds (local mean time before 1900)
    /// are written as Foundation's formatter writes them, as the export always has.
    static func text(_ date: Date, offset: Int) -> String {
        guard offset % 60 != 0, abs(offset) < 64800, (-6.2e10...2.534e11).contains(date.timeIntervalSince1970) else {
            return format(seconds: date.unixSeconds(), offset: offset)
        }
        let f = ISO8601DateFormatter()
        f.timeZone = TimeZone(secondsFromGMT: offset)
        f.formatOptions = [.withInternetDateTime]
        return f.string(from: date)
    }
}

/// Writes a petlog JSON export (docs/json.md) into a sink one pet or record at a time: each is
/// written as bytes on its own (`JSONBytes`, the same bytes as `ExportJSONEncoder`) and appended to the sink's buffer, so memory stays flat however many there are.
/// The layout around them (header, one item per line) is fixed, so the same data gives the same bytes.
public final class PetlogJSONWriter {
    private let sink: OutputSink
    private let encoder = PetlogJSON.encoder()
    /// Each pet or record is written here in place (`JSONBytes`), then appended to the sink.
    private var json = JSONBytes()
    public private(set) var recordCount = 0

    /// Writes the header and every pet (archived ones included) in id order.
    public init(sink: OutputSink, pets: [Pet], namespace: String? = nil) throws {
        self.sink = sink
        // The namespace is 32 hex digits (checked by both schemas): written as it is.
        let household = namespace.map { "\"namespace\": \"\($0)\", " } ?? ""
        try sink.write("{\"format\": \"\(PetlogJSON.format)\", \"schema\": \"\(PetlogJSON.schema)\", \(household)\"units\": {\"weight\": \"g\", \"money\": \"minor units\"},\n\"pets\": [\n")
        let sorted = pets.sorted { $0.id < $1.id }
        for (i, p) in sorted.enumerated() {
            json.clear()
            ExportedPet(p).write(to: &json)
            try sink.write(json.bytes)
            try sink.write(i < sorted.count - 1 ? ",\n" : "\n")
        }
        try sink.write("],\n\"records\": [\n")
    }

    /// Appends one record; records go in id order.
    public func write(_ record: PetRecord) throws {
        json.clear()
        if recordCount > 0 { json.bytes.append(contentsOf: [UInt8(ascii: ","), 0x0A]) }
        try ExportedRecord(record).write(to: &json)
        try sink.write(json.bytes)
        recordCount += 1
    }

    /// Closes the records, writes the budgets and the exchange rates, and closes the document.
    public func finish(budgets: [StoredBudget] = [], rates: [EuroRate] = []) throws {
        try sink.write("\n],\n\"budgets\": [\n")
        for (i, b) in budgets.sorted(by: { $0.id < $1.id }).enumerated() {
            try sink.write(try encoder.encode(ExportedBudget(b)))
            try sink.write(i < budgets.count - 1 ? ",\n" : "\n")
        }
        try sink.write("],\n\"rates\": [\n")
        var chunk = ""
        for (i, r) in rates.enumerated() {
            // By hand: three short texts of known characters (a date, a code, digits and a point).
            chunk += "{\"day\": \"\(r.day)\", \"currency\": \"\(r.currency)\", \"rate\": \"\(r.rate)\"}" + (i < rates.count - 1 ? ",\n" : "\n")
            if chunk.utf8.count > 1 << 16 { try sink.write(chunk); chunk = "" }
        }
        try sink.write(chunk)
        try sink.write("]}\n")
    }
}

/// A budget in the export; `pet_id` is the pet's id in the file (null: the household).
struct ExportedBudget: Codable, Equatable {
    var id: Int64?
    var petId: Int64?
    var money: ExportedMoney?
    var firstDay: String?
    var lastDay: String?
    var category: String?
    var perPet: Bool?
    var name: String?
    var place: String?
    var people: Int64?

    enum CodingKeys: String, CodingKey {
        case id, petId = "pet_id", money, firstDay = "first_day", lastDay = "last_day", category, perPet = "per_pet", name, place, people
    }

    init(_ b: StoredBudget) {
        id = b.id; petId = b.petId; money = ExportedMoney(b.budget.amount); category = b.budget.category; perPet = b.budget.perPet
        name = b.budget.name; place = b.budget.place; people = b.budget.people.map(Int64.init)
        if case .days(let f, let l) = b.budget.period { firstDay = f.description; lastDay = l.description }
    }

    func encode(to encoder: Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encodeOrNull(id, forKey: .id); try c.encodeOrNull(petId, forKey: .petId); try c.encodeOrNull(money, forKey: .money)
        try c.encodeOrNull(firstDay, forKey: .firstDay); try c.encodeOrNull(lastDay, forKey: .lastDay)
        try c.encodeOrNull(category, forKey: .category); try c.encodeOrNull(perPet, forKey: .perPet)
        try c.encodeOrNull(name, forKey: .name); try c.encodeOrNull(place, forKey: .place); try c.encodeOrNull(people, forKey: .people)
    }
}

/// One exchange rate in the export: 1 EUR = `rate` units of `currency` on `day`.
struct ExportedRate: Codable, Equatable {
    var day: String?
    var currency: String?
    var rate: String?
}
