import Crypto
import Foundation
import PetModel
import PetStoreCore

/// `petlog export --format fhir`: the pets and their clinical records as one HL7 FHIR R4 (4.0.1) `Bundle`
/// of type `collection` (docs/fhir.md). Built from values both stores read the same way (pets, records),
/// so the same data gives the same bytes on SQLite and PostgreSQL: no timestamp of the export, resource
/// ids from petlog's ids, every entry's `fullUrl` a `urn:uuid:` made from its type and id, and every
/// reference one of those.
public enum FHIRBundle {
    /// The record kinds the bundle carries.
    public static let kinds: [RecordKind] = [.weight, .vaccination, .medication, .visit, .walk]

    /// SNOMED CT codes for the species that have one in common use (the HL7 Europe animal species value
    /// set); the others go as text only.
    static let speciesCodes: [Species: (code: String, display: String)] = [
        .dog: ("448771007", "Domestic dog"), .cat: ("448169003", "Domestic cat"), .guineaPig: ("125076001", "Domestic Guinea pig"),
    ]

    static let snomed = "http://snomed.info/sct"
    static let loinc = "http://loinc.org"
    static let ucum = "http://unitsofmeasure.org"
    /// petlog's own codes (vaccine codes, the body condition score's scale).
    static let petlogSystem = "urn:petlog:code"
    static let microchipSystem = "urn:iso:std:iso:11784"

    /// The bundle's bytes (UTF-8 JSON, one entry a line). `today` decides whether a course with an end
    /// day is still active.
    /// `namespace`: the household's (`householdNamespace`), which every address is derived from, so two
    /// households' `pet-1` differ and the same database gives the same bytes.
    public static func bytes(pets: [Pet], records: [PetRecord], today: LocalDate, namespace: String? = nil) -> [UInt8] {
        var entries: [(type: String, id: String, body: [(String, J)])] = []
        func url(_ type: String, _ id: String) -> String { FHIRBundle.url(type, id, namespace: namespace) }
        let petIds = Set(pets.map(\.id))
        func ref(_ type: String, _ id: String) -> J { .object([("reference", .string(url(type, id)))]) }
        func patient(_ petId: Int64) -> J { ref("Patient", "pet-\(petId)") }
        func concept(_ text: String) -> J { .object([("text", .string(text))]) }
        func coded(_ system: String, _ code: String, _ display: String?, text: String? = nil) -> J {
            var coding: [(String, J)] = [("system", .string(system)), ("code", .string(code))]
            if let display { coding.append(("display", .string(display))) }
            var o: [(String, J)] = [("coding", .array([.object(coding)]))]
            if let text { o.append(("text", .string(text))) }
            return .object(o)
        }
        for p in pets {
            var animal: [J] = []
            let species = p.species.rawValue
            if let code = speciesCodes[p.species] {
                animal.append(.object([("url", .string("species")), ("valueCodeableConcept", coded(snomed, code.code, code.display, text: species))]))
            } else {
                animal.append(.object([("url", .string("species")), ("valueCodeableConcept", concept(species))]))
            }
            if let b = p.breed { animal.append(.object([("url", .string("breed")), ("valueCodeableConcept", concept(b))])) }
            if p.neutered {
                animal.append(.object([("url", .string("genderStatus")),
                                       ("valueCodeableConcept", coded("http://terminology.hl7.org/CodeSystem/animal-genderstatus", "neutered", "Neutered"))]))
            }
            var body: [(String, J)] = [
                ("extension", .array([.object([("url", .string("http://hl7.org/fhir/StructureDefinition/patient-animal")), ("extension", .array(animal))])])),
            ]
            if let chip = p.microchip {
                body.append(("identifier", .array([.object([("type", concept("Microchip")), ("system", .string(microchipSystem)), ("value", .string(chip))])])))
            }
            body.append(("active", .bool(!p.isArchived)))
            body.append(("name", .array([.object([("text", .string(p.name))])])))
            body.append(("gender", .string(p.sex.rawValue)))
            if let born = p.born { body.append(("birthDate", .string(born.description))) }
            if p.archiveReason == .passedAway, let day = p.archivedOn { body.append(("deceasedDateTime", .string(day.description))) }
            let h = p.health
            if !h.emergencyContacts.isEmpty {
                body.append(("contact", .array(h.emergencyContacts.map { c in
                    .object([("relationship", .array([coded("http://terminology.hl7.org/CodeSystem/v2-0131", "C", "Emergency Contact")])),
                             ("name", .object([("text", .string(c.name))])),
                             ("telecom", .array([.object([("system", .string("phone")), ("value", .string(c.phone))])]))])
                })))
            }
            if h.vetContact != nil { body.append(("generalPractitioner", .array([ref("Organization", "vet-\(p.id)")]))) }
            entries.append(("Patient", "pet-\(p.id)", body))
            if let v = h.vetContact {
                entries.append(("Organization", "vet-\(p.id)", [
                    ("name", .string(v.name)), ("telecom", .array([.object([("system", .string("phone")), ("value", .string(v.phone))])])),
                ]))
            }
            if let i = h.insurance {
                var coverage: [(String, J)] = []
                if let policy = i.policy { coverage.append(("identifier", .array([.object([("value", .string(policy))])]))) }
                coverage += [("status", .string("active")), ("beneficiary", patient(p.id)), ("payor", .array([.object([("display", .string(i.insurer))])]))]
                entries.append(("Coverage", "insurance-\(p.id)", coverage))
            }
            for (n, a) in h.allergies.enumerated() {
                entries.append(("AllergyIntolerance", "allergy-\(p.id)-\(n + 1)", [
                    ("clinicalStatus", coded("http://terminology.hl7.org/CodeSystem/allergyintolerance-clinical", "active", "Active")),
                    ("code", concept(a)), ("patient", patient(p.id)),
                ]))
            }
            for (n, c) in h.conditions.enumerated() {
                entries.append(("Condition", "condition-\(p.id)-\(n + 1)", [
                    ("clinicalStatus", coded("http://terminology.hl7.org/CodeSystem/condition-clinical", "active", "Active")),
                    ("category", .array([coded("http://terminology.hl7.org/CodeSystem/condition-category", "problem-list-item", "Problem List Item")])),
                    ("code", concept(c)), ("subject", patient(p.id)),
                ]))
            }
        }
        for r in records {
            guard let petId = r.petId, petIds.contains(petId) else { continue }
            let when = RFC3339.format(seconds: r.at.unixSeconds(), offset: r.utcOffset)
            switch r.detail {
            case .weight(let w):
                entries.append(("Observation", "weight-\(r.id)", [
                    ("status", .string("final")),
                    ("category", .array([coded("http://terminology.hl7.org/CodeSystem/observation-category", "vital-signs", "Vital Signs")])),
                    ("code", coded(loinc, "29463-7", "Body weight", text: "Body weight")), ("subject", patient(petId)),
                    ("effectiveDateTime", .string(when)), ("valueQuantity", quantity(grams: w.mass.grams)),
                ] + note(r.note)))
                if let bcs = w.bodyCondition {
                    entries.append(("Observation", "bcs-\(r.id)", [
                        ("status", .string("final")),
                        ("code", coded(petlogSystem, "body-condition-score-9", "Body condition score (1-9 scale)", text: "Body condition score (1-9)")),
                        ("subject", patient(petId)), ("effectiveDateTime", .string(when)), ("valueInteger", .number(String(bcs))),
                    ]))
                }
            case .vaccination(let v):
                var body: [(String, J)] = [
                    ("status", .string("completed")),
                    ("vaccineCode", coded(petlogSystem, "vaccine:" + v.vaccine, nil, text: v.product ?? v.vaccine)),
                    ("patient", patient(petId)), ("occurrenceDateTime", .string(when)),
                ]
                if let lot = v.lot { body.append(("lotNumber", .string(lot))) }
                var notes: [String] = []
                if let c = v.clinic { notes.append("Clinic: " + c) }
                if let d = v.nextDue { notes.append("Next due: " + d.description) }
                if let n = r.note { notes.append(n) }
                if !notes.isEmpty { body.append(("note", .array(notes.map { .object([("text", .string($0))]) }))) }
                entries.append(("Immunization", "vaccination-\(r.id)", body))
            case .medication(let m):
                let status: String
                var period: [(String, J)] = [("start", .string(when))]
                if let stopped = m.stoppedAt {
                    status = "stopped"
                    period.append(("end", .string(RFC3339.format(seconds: stopped.unixSeconds(), offset: r.utcOffset))))
                } else if let ends = m.endsOn {
                    status = ends < today ? "completed" : "active"
                    period.append(("end", .string(ends.description)))
                } else {
                    status = "active"
                }
                var dosage: [(String, J)] = []
                var schedule: [String] = []
                if let d = m.dose { schedule.append(d) }
                if let s = m.intervalSeconds { schedule.append("every \(intervalText(s))") }
                if !m.times.isEmpty { schedule.append("at " + m.times.map { String(format: "%02d:%02d", $0 / 60, $0 % 60) }.joined(separator: ", ")) }
                if !schedule.isEmpty { dosage.append(("text", .string(schedule.joined(separator: ", ")))) }
                if let route = m.route { dosage.append(("route", concept(route.rawValue))) }
                var body: [(String, J)] = [
                    ("status", .string(status)), ("medicationCodeableConcept", concept(m.name)), ("subject", patient(petId)),
                    ("effectivePeriod", .object(period)),
                ]
                body += note(r.note)
                if !dosage.isEmpty { body.append(("dosage", .array([.object(dosage)]))) }
                entries.append(("MedicationStatement", "medication-\(r.id)", body))
            case .visit(let v):
                var body: [(String, J)] = [
                    ("status", .string("finished")),
                    ("class", .object([("system", .string("http://terminology.hl7.org/CodeSystem/v3-ActCode")), ("code", .string("AMB")), ("display", .string("ambulatory"))])),
                    ("subject", patient(petId)),
                ]
                if let vet = v.vet { body.append(("participant", .array([.object([("individual", .object([("display", .string(vet))]))])]))) }
                body.append(("period", .object([("start", .string(when))])))
                if let reason = v.reason { body.append(("reasonCode", .array([concept(reason)]))) }
                if v.diagnosis != nil {
                    body.append(("diagnosis", .array([.object([("condition", ref("Condition", "visit-\(r.id)-diagnosis"))])])))
                }
                if let clinic = v.clinic { body.append(("serviceProvider", .object([("display", .string(clinic))]))) }
                entries.append(("Encounter", "visit-\(r.id)", body))
                if let diagnosis = v.diagnosis {
                    var condition: [(String, J)] = [
                        ("category", .array([coded("http://terminology.hl7.org/CodeSystem/condition-category", "encounter-diagnosis", "Encounter Diagnosis")])),
                        ("code", concept(diagnosis)), ("subject", patient(petId)), ("encounter", ref("Encounter", "visit-\(r.id)")),
                        ("recordedDate", .string(when)),
                    ]
                    if let t = v.treatment { condition.append(("note", .array([.object([("text", .string("Treatment: " + t))])]))) }
                    entries.append(("Condition", "visit-\(r.id)-diagnosis", condition))
                }
            case .walk(let w):
                // LOINC 73985-4 "Exercise activity" with the activity as its value; the duration (55411-3 "Exercise
                // duration") and the distance (55412-1 "Exercise distance unspecified time") as components, in UCUM.
                func measure(_ code: String, _ display: String, _ n: Int, _ unit: String) -> J {
                    .object([("code", coded(loinc, code, display)),
                             ("valueQuantity", .object([("value", .number(String(n))), ("unit", .string(unit)), ("system", .string(ucum)), ("code", .string(unit))]))])
                }
                var body: [(String, J)] = [
                    ("status", .string("final")),
                    ("category", .array([coded("http://terminology.hl7.org/CodeSystem/observation-category", "activity", "Activity")])),
                    ("code", coded(loinc, "73985-4", "Exercise activity", text: "Walk")), ("subject", patient(petId)),
                    ("effectiveDateTime", .string(when)), ("valueCodeableConcept", concept("Walking")),
                ]
                body += note(r.note)
                let parts = [w.minutes.map { measure("55411-3", "Exercise duration", $0, "min") }, w.meters.map { measure("55412-1", "Exercise distance unspecified time", $0, "m") }]
                if !parts.compactMap({ $0 }).isEmpty { body.append(("component", .array(parts.compactMap { $0 }))) }
                entries.append(("Observation", "walk-\(r.id)", body))
            default:
                continue
            }
        }
        var out: [UInt8] = []
        // FHIR's JSON has no empty arrays: a bundle with nothing in it has no `entry`.
        guard !entries.isEmpty else { return Array("{\"resourceType\":\"Bundle\",\"type\":\"collection\"}\n".utf8) }
        out.append(contentsOf: Array("{\"resourceType\":\"Bundle\",\"type\":\"collection\",\"entry\":[".utf8))
        for (i, e) in entries.enumerated() {
            out.append(contentsOf: Array((i == 0 ? "\n" : ",\n").utf8))
            let resource: J = .object([("resourceType", .string(e.type)), ("id", .string(e.id))] + e.body)
            J.object([("fullUrl", .string(url(e.type, e.id))), ("resource", resource)]).write(into: &out)
        }
        out.append(contentsOf: Array("\n]}\n".utf8))
        return out
    }

    static func note(_ text: String?) -> [(String, J)] {
        guard let text else { return [] }
        return [("note", .array([.object([("text", .string(text))])]))]
    }

    /// Kilograms from 1 kg up, grams below, as exact decimal text (UCUM `kg` / `g`).
    static func quantity(grams: Int) -> J {
        let value: String, unit: String
        if grams >= 1000 {
            var fraction = String(grams % 1000)
            fraction = String(repeating: "0", count: 3 - fraction.count) + fraction
            while fraction.hasSuffix("0") { fraction.removeLast() }
            value = String(grams / 1000) + (fraction.isEmpty ? "" : "." + fraction)
            unit = "kg"
        } else {
            value = String(grams)
            unit = "g"
        }
        return .object([("value", .number(value)), ("unit", .string(unit)), ("system", .string(ucum)), ("code", .string(unit))])
    }

    static func intervalText(_ seconds: Int) -> String {
        if seconds % 86400 == 0 { return "\(seconds / 86400) d" }
        if seconds % 3600 == 0 { return "\(seconds / 3600) h" }
        return "\(seconds / 60) min"
    }

    /// `urn:uuid:` of a name-based UUID (SHA-256 of `petlog/<namespace>/<type>/<id>`, version and variant
    /// bits set as in RFC 4122's name-based UUIDs): the same resource of the same database always has the
    /// same address, and another household's does not.
    static func url(_ type: String, _ id: String, namespace: String?) -> String {
        let name = namespace.map { "petlog/\($0)/\(type)/\(id)" } ?? "petlog/\(type)/\(id)"
        var h = Array(SHA256.hash(data: Data(name.utf8)).prefix(16))
        h[6] = (h[6] & 0x0F) | 0x50
        h[8] = (h[8] & 0x3F) | 0x80
        let hex = h.map { String(format: "%02x", $0) }.joined()
        let parts = [hex.prefix(8), hex.dropFirst(8).prefix(4), hex.dropFirst(12).prefix(4), hex.dropFirst(16).prefix(4), hex.dropFirst(20)]
        return "urn:uuid:" + parts.joined(separator: "-")
    }

    /// A JSON value with its object keys in the order given.
    indirect enum J {
        case string(String), number(String), bool(Bool), array([J]), object([(String, J)])

        func write(into out: inout [UInt8]) {
            switch self {
            case .string(let s): out.append(contentsOf: JSONText.string(s))
            case .number(let n): out.append(contentsOf: Array(n.utf8))
            case .bool(let b): out.append(contentsOf: Array((b ? "true" : "false").utf8))
            case .array(let items):
                out.append(UInt8(ascii: "["))
                for (i, item) in items.enumerated() {
                    if i > 0 { out.append(UInt8(ascii: ",")) }
                    item.write(into: &out)
                }
                out.append(UInt8(ascii: "]"))
            case .object(let members):
                out.append(UInt8(ascii: "{"))
                for (i, (k, v)) in members.enumerated() {
                    if i > 0 { out.append(UInt8(ascii: ",")) }
                    out.append(contentsOf: JSONText.string(k))
                    out.append(UInt8(ascii: ":"))
                    v.write(into: &out)
                }
                out.append(UInt8(ascii: "}"))
            }
        }
    }
}
