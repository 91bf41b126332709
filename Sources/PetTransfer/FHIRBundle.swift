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
    static let hl7 = "http://terminology.hl7.org/CodeSystem/"
    /// petlog's own codes (vaccine codes, the body condition score's scale).
    static let petlogSystem = "urn:petlog:code"
    static let microchipSystem = "urn:iso:std:iso:11784"

    /// The bundle's bytes (UTF-8 JSON, one entry a line). `today` decides whether a course with an end
    /// day is still active.
    /// `namespace`: the household's (`householdNamespace`), which every address is derived from, so two
    /// households' `pet-1` differ and the same database gives the same bytes.
    public static func bytes(pets: [Pet], records: [PetRecord], today: LocalDate, namespace: String? = nil) -> [UInt8] {
        var entries: [(type: String, id: String, body: J)] = []
        func add(_ type: String, _ id: String, _ body: J) { entries.append((type, id, body)) }
        let petIds = Set(pets.map(\.id))
        func ref(_ type: String, _ id: String) -> J { ["reference": .string(url(type, id, namespace: namespace))] }
        func patient(_ petId: Int64) -> J { ref("Patient", "pet-\(petId)") }
        for p in pets {
            let h = p.health, species = p.species.rawValue
            add("Patient", "pet-\(p.id)", [
                "extension": [["url": "http://hl7.org/fhir/StructureDefinition/patient-animal", "extension": [
                    ["url": "species", "valueCodeableConcept": speciesCodes[p.species].map { coded(snomed, $0.code, $0.display, text: species) } ?? concept(species)],
                    p.breed.map { ["url": "breed", "valueCodeableConcept": concept($0)] } ?? nil,
                    p.neutered ? ["url": "genderStatus", "valueCodeableConcept": coded(hl7 + "animal-genderstatus", "neutered", "Neutered")] : nil,
                ]]],
                "identifier": p.microchip.map { [["type": concept("Microchip"), "system": .string(microchipSystem), "value": .string($0)]] } ?? nil,
                "active": .bool(!p.isArchived), "name": [["text": .string(p.name)]], "gender": .string(p.sex.rawValue),
                "birthDate": .text(p.born?.description),
                "deceasedDateTime": .text(p.archiveReason == .passedAway ? p.archivedOn?.description : nil),
                "contact": .array(h.emergencyContacts.map { c in
                    ["relationship": [coded(hl7 + "v2-0131", "C", "Emergency Contact")], "name": ["text": .string(c.name)],
                     "telecom": [["system": "phone", "value": .string(c.phone)]]]
                }),
                "generalPractitioner": h.vetContact == nil ? nil : [ref("Organization", "vet-\(p.id)")],
            ])
            if let v = h.vetContact {
                add("Organization", "vet-\(p.id)", ["name": .string(v.name), "telecom": [["system": "phone", "value": .string(v.phone)]]])
            }
            if let i = h.insurance {
                add("Coverage", "insurance-\(p.id)", ["identifier": i.policy.map { [["value": .string($0)]] } ?? nil, "status": "active",
                                                      "beneficiary": patient(p.id), "payor": [["display": .string(i.insurer)]]])
            }
            for (n, a) in h.allergies.enumerated() {
                add("AllergyIntolerance", "allergy-\(p.id)-\(n + 1)", ["clinicalStatus": coded(hl7 + "allergyintolerance-clinical", "active", "Active"),
                                                                       "code": concept(a), "patient": patient(p.id)])
            }
            for (n, c) in h.conditions.enumerated() {
                add("Condition", "condition-\(p.id)-\(n + 1)", ["clinicalStatus": coded(hl7 + "condition-clinical", "active", "Active"),
                                                               "category": [coded(hl7 + "condition-category", "problem-list-item", "Problem List Item")],
                                                               "code": concept(c), "subject": patient(p.id)])
            }
        }
        for r in records {
            guard let petId = r.petId, petIds.contains(petId) else { continue }
            let when = J.string(RFC3339.format(seconds: r.at.unixSeconds(), offset: r.utcOffset))
            let note = J.notes([r.note])
            /// An observation of `code` (and its category, when it has one) at the record's time, `value` its
            /// value member; then `rest` (its note, components).
            func observation(_ id: String, category: (String, String)?, code: J, _ value: (String, J), _ rest: KeyValuePairs<String, J> = [:]) {
                add("Observation", id, .object([("status", "final"), ("category", category.map { [coded(hl7 + "observation-category", $0.0, $0.1)] } ?? nil),
                                                ("code", code), ("subject", patient(petId)), ("effectiveDateTime", when), value] + rest.map { ($0.key, $0.value) }))
            }
            switch r.detail {
            case .weight(let w):
                observation("weight-\(r.id)", category: ("vital-signs", "Vital Signs"), code: coded(loinc, "29463-7", "Body weight", text: "Body weight"),
                            ("valueQuantity", quantity(grams: w.mass.grams)), ["note": note])
                if let bcs = w.bodyCondition {
                    observation("bcs-\(r.id)", category: nil, code: coded(petlogSystem, "body-condition-score-9", "Body condition score (1-9 scale)",
                                                                         text: "Body condition score (1-9)"), ("valueInteger", .number(String(bcs))))
                }
            case .vaccination(let v):
                add("Immunization", "vaccination-\(r.id)", [
                    "status": "completed", "vaccineCode": coded(petlogSystem, "vaccine:" + v.vaccine, nil, text: v.product ?? v.vaccine),
                    "patient": patient(petId), "occurrenceDateTime": when, "lotNumber": .text(v.lot),
                    "note": .notes([v.clinic.map { "Clinic: " + $0 }, v.nextDue.map { "Next due: " + $0.description }, r.note]),
                ])
            case .medication(let m):
                let status = m.stoppedAt != nil ? "stopped" : m.endsOn.map { $0 < today ? "completed" : "active" } ?? "active"
                let end = m.stoppedAt.map { RFC3339.format(seconds: $0.unixSeconds(), offset: r.utcOffset) } ?? m.endsOn?.description
                let schedule = [m.dose, m.intervalSeconds.map { "every \(intervalText($0))" },
                                m.times.isEmpty ? nil : "at " + m.times.map { String(format: "%02d:%02d", $0 / 60, $0 % 60) }.joined(separator: ", ")].compactMap { $0 }
                add("MedicationStatement", "medication-\(r.id)", [
                    "status": .string(status), "medicationCodeableConcept": concept(m.name), "subject": patient(petId),
                    "effectivePeriod": ["start": when, "end": .text(end)], "note": note,
                    "dosage": [["text": .text(schedule.isEmpty ? nil : schedule.joined(separator: ", ")), "route": m.route.map { concept($0.rawValue) } ?? nil]],
                ])
            case .visit(let v):
                add("Encounter", "visit-\(r.id)", [
                    "status": "finished", "class": ["system": .string(hl7 + "v3-ActCode"), "code": "AMB", "display": "ambulatory"], "subject": patient(petId),
                    "participant": v.vet.map { [["individual": ["display": .string($0)]]] } ?? nil, "period": ["start": when],
                    "reasonCode": v.reason.map { [concept($0)] } ?? nil,
                    "diagnosis": v.diagnosis == nil ? nil : [["condition": ref("Condition", "visit-\(r.id)-diagnosis")]],
                    "serviceProvider": v.clinic.map { ["display": .string($0)] } ?? nil,
                ])
                if let diagnosis = v.diagnosis {
                    add("Condition", "visit-\(r.id)-diagnosis", [
                        "category": [coded(hl7 + "condition-category", "encounter-diagnosis", "Encounter Diagnosis")], "code": concept(diagnosis),
                        "subject": patient(petId), "encounter": ref("Encounter", "visit-\(r.id)"), "recordedDate": when,
                        "note": .notes([v.treatment.map { "Treatment: " + $0 }]),
                    ])
                }
            case .walk(let w):
                // LOINC 73985-4 "Exercise activity" with the activity as its value; the duration (55411-3 "Exercise
                // duration") and the distance (55412-1 "Exercise distance unspecified time") as components, in UCUM.
                func measure(_ code: String, _ display: String, _ n: Int?, _ unit: String) -> J {
                    n.map { ["code": coded(loinc, code, display), "valueQuantity": ["value": .number(String($0)), "unit": .string(unit), "system": .string(ucum), "code": .string(unit)]] } ?? nil
                }
                observation("walk-\(r.id)", category: ("activity", "Activity"), code: coded(loinc, "73985-4", "Exercise activity", text: "Walk"),
                            ("valueCodeableConcept", concept("Walking")),
                            ["note": note, "component": [measure("55411-3", "Exercise duration", w.minutes, "min"),
                                                         measure("55412-1", "Exercise distance unspecified time", w.meters, "m")]])
            default:
                continue
            }
        }
        // FHIR's JSON has no empty arrays: a bundle with nothing in it has no `entry`.
        guard !entries.isEmpty else { return Array("{\"resourceType\":\"Bundle\",\"type\":\"collection\"}\n".utf8) }
        var out = Array("{\"resourceType\":\"Bundle\",\"type\":\"collection\",\"entry\":[".utf8)
        for (i, e) in entries.enumerated() {
            out.append(contentsOf: Array((i == 0 ? "\n" : ",\n").utf8))
            guard case .object(let body) = e.body else { continue }
            J.object([("fullUrl", .string(url(e.type, e.id, namespace: namespace))),
                      ("resource", .object([("resourceType", .string(e.type)), ("id", .string(e.id))] + body))]).write(into: &out)
        }
        out.append(contentsOf: Array("\n]}\n".utf8))
        return out
    }

    static func concept(_ text: String) -> J { ["text": .string(text)] }

    static func coded(_ system: String, _ code: String, _ display: String?, text: String? = nil) -> J {
        ["coding": [["system": .string(system), "code": .string(code), "display": .text(display)]], "text": .text(text)]
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

    /// A JSON value with its object keys in the order given, written from literals (`["text": "x"]`). FHIR's
    /// JSON has no empty values: `nil` (`J.none`), and an array or object left empty without them, is left
    /// out where it stands, member or element.
    indirect enum J: ExpressibleByStringInterpolation, ExpressibleByArrayLiteral, ExpressibleByDictionaryLiteral, ExpressibleByNilLiteral {
        case string(String), number(String), bool(Bool), array([J]), object([(String, J)]), none

        init(stringLiteral s: String) { self = .string(s) }
        init(arrayLiteral items: J...) { self = .array(items) }
        init(dictionaryLiteral members: (String, J)...) { self = .object(members) }
        init(nilLiteral: ()) { self = .none }

        /// Text, or nothing.
        static func text(_ s: String?) -> J { s.map(J.string) ?? .none }
        /// A `note` list of the texts that are there.
        static func notes(_ texts: [String?]) -> J { .array(texts.map { $0.map { ["text": .string($0)] } ?? nil }) }

        /// The value without its empty parts; nil when nothing is left.
        var pruned: J? {
            switch self {
            case .none: return nil
            case .array(let items): let kept = items.compactMap(\.pruned); return kept.isEmpty ? nil : .array(kept)
            case .object(let members): let kept = members.compactMap { k, v in v.pruned.map { (k, $0) } }; return kept.isEmpty ? nil : .object(kept)
            default: return self
            }
        }

        func write(into out: inout [UInt8]) {
            switch pruned ?? self {
            case .string(let s): out.append(contentsOf: JSONText.string(s))
            case .number(let n): out.append(contentsOf: Array(n.utf8))
            case .bool(let b): out.append(contentsOf: Array((b ? "true" : "false").utf8))
            case .none: break
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
