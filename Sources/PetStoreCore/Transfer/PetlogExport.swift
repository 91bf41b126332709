import Foundation
import PetFiles
import PetModel

// The JSON export file (docs/json.md): the types it is read into (`Decodable`, by `PetlogJSON.decoder`
// where the byte reader `JSONRecordReading` leaves a value to it) and written from (`JSONBytes`, in
// PetTransfer's ExportJSONWriting.swift, keys in sorted order), so a file means the same whatever its
// whitespace or key order, and the `--json` display shapes of the read commands can change without
// touching the format.
//
// Every property is optional so that decoding a hand-written file that leaves a key out reaches the
// same per-column checks (and the same "missing column" message) as a CSV import; what a wrong type
// (text where a number belongs, a number for a boolean) gets is the JSON error with the line. The writer
// writes every key, absent values as null, as the export always has.

/// The one decoder for the export's pets and records (they are written by `JSONBytes`).
public enum PetlogJSON {
    package static func decoder() -> JSONDecoder { JSONDecoder() }

    /// The header's values; the layout around them is `PetlogJSONWriter`'s.
    package static let format = "petlog"
    public static let schema = "v1"
}


/// Money in the export: minor units and an ISO 4217 code; `amount` is decimal text for people and is not read back.
package struct ExportedMoney: Equatable {
    package var minorUnits: Int64?
    package var currency: String?
    package var amount: String?

    package init(_ m: Money) { minorUnits = m.minorUnits; currency = m.currency.code; amount = m.decimalString }
    package init(minorUnits: Int64?, currency: String?, amount: String?) { self.minorUnits = minorUnits; self.currency = currency; self.amount = amount }
}

/// One attachment of a record, listed by its SHA-256 (the file itself stays in `attachments/`).
package struct ExportedAttachment: Equatable {
    package var sha256: String
    package var name: String
    package var mediaType: String
    package var size: Int64

    package init(_ a: Attachment) { sha256 = a.sha256; name = a.originalName; mediaType = a.mediaType; size = a.size }
    package init(sha256: String, name: String, mediaType: String, size: Int64) {
        self.sha256 = sha256; self.name = name; self.mediaType = mediaType; self.size = size
    }
}

/// A pet in the export.
package struct ExportedPet: Decodable, Equatable {
    package var id: Int64?
    package var name: String?
    package var species: String?
    package var breed: String?
    package var sex: String?
    package var neutered: Bool?
    package var born: String?
    package var microchip: String?
    package var color: String?
    package var notes: String?
    package var archivedOn: String?
    package var archiveReason: String?
    package var allergies: [String]?
    package var conditions: [String]?
    package var vetContact: ExportedContact?
    package var emergencyContacts: [ExportedContact]?
    package var insurance: ExportedInsurance?
    /// When the pet was added and last changed, in UTC (kept by an import).
    package var createdAt: String?
    package var updatedAt: String?

    package enum CodingKeys: String, CodingKey {
        case id, name, species, breed, sex, neutered, born, microchip, color, notes
        case archivedOn = "archived_on", archiveReason = "archive_reason"
        case allergies, conditions, vetContact = "vet_contact", emergencyContacts = "emergency_contacts", insurance
        case createdAt = "created_at", updatedAt = "updated_at"
    }

    package init(_ p: Pet) {
        id = p.id; name = p.name; species = p.species.rawValue; breed = p.breed; sex = p.sex.rawValue; neutered = p.neutered
        born = p.born?.description; microchip = p.microchip; color = p.color; notes = p.notes
        archivedOn = p.archivedOn?.description; archiveReason = p.archiveReason?.rawValue
        allergies = p.health.allergies; conditions = p.health.conditions; vetContact = p.health.vetContact.map(ExportedContact.init)
        emergencyContacts = p.health.emergencyContacts.map(ExportedContact.init); insurance = p.health.insurance.map(ExportedInsurance.init)
        createdAt = RFC3339.format(seconds: p.createdAt.unixSeconds(), offset: 0); updatedAt = RFC3339.format(seconds: p.updatedAt.unixSeconds(), offset: 0)
    }
}

/// A vet or emergency contact in the export.
package struct ExportedContact: Decodable, Equatable {
    package var name: String?
    package var phone: String?

    package init(_ c: PetContact) { name = c.name; phone = c.phone }

    /// `NAME, PHONE`, read back by the shared checks (a missing part makes it refused there).
    package var text: String { [name, phone].compactMap { $0 }.joined(separator: ", ") }
}

/// A pet's insurance in the export.
package struct ExportedInsurance: Decodable, Equatable {
    package var insurer: String?
    package var policy: String?

    package init(_ i: PetInsurance) { insurer = i.insurer; policy = i.policy }

    package var text: String { [insurer, policy].compactMap { $0 }.joined(separator: ", ") }
}

/// Column values as the shared checks read them: text, integers in decimal, booleans as 1/0.
package struct FieldValues {
    package var values: [String: String] = [:]
    package init() {}
    package mutating func put(_ key: String, _ v: String?) { values[key] = v }
    package mutating func put(_ key: String, _ v: Int64?) { values[key] = v.map { String($0) } }
    package mutating func put(_ key: String, _ v: Bool?) { values[key] = v.map { $0 ? "1" : "0" } }
    package mutating func put(_ key: String, _ v: Double?) { values[key] = v.map { "\($0)" } }
}

/// The detail of one record, under the key its kind names: its columns' values as text (as `FieldValues`
/// holds them: integers in decimal, booleans as 1/0), decoded and byte-written from the kind's
/// members (`RecordKindTable.jsonRead`: each key, its JSON type and the columns it fills). That list is the
/// one place a kind's JSON shape is said; the byte reader (`JSONRecordReading`) reads by it too.
package struct ExportedDetail: Equatable {
    package var kind: RecordKind
    /// Column → value as text; a NULL column is absent.
    package var values: [String: String] = [:]

    /// Each kind's members in the order a sorted-keys encoder writes them.
    package static let sortedMembers: [RecordKind: [RecordKindTable.JSONRead]] = Dictionary(uniqueKeysWithValues: RecordKind.allCases.map { kind in
        (kind, RecordKindTable.of(kind).jsonRead.sorted { $0.key < $1.key })
    })
    package var members: [RecordKindTable.JSONRead] { Self.sortedMembers[kind] ?? [] }

    package init(kind: RecordKind, values: [String: String]) { self.kind = kind; self.values = values }

    /// A record's detail as the export writes it: its row's values, a course's name for a dose, an
    /// expense's items (U+001F between them, which no item may contain), a medication's stop as an
    /// RFC 3339 instant (older files hold Unix seconds, still read).
    package init(_ d: RecordDetail) {
        kind = d.kind
        let table = RecordKindTable.of(d.kind)
        for (column, v) in zip(table.columns, RecordDetailTables.values(d, id: 0).dropFirst()) {
            switch v {
            case .text(let t): values[column] = t
            case .int(let i): values[column] = String(i)
            case .double(let x): values[column] = "\(x)"
            case .null, .bytes: break
            }
        }
        for m in members {
            if case .integerOrText(let c) = m.form, let seconds = values[c].flatMap({ Int64($0) }) { values[c] = RFC3339.format(seconds: seconds, offset: 0) }
        }
        if case .dose(let dose) = d { values["medication"] = dose.medicationName }
        if case .expense(let e) = d, !e.items.isEmpty { values["items"] = e.items.joined(separator: "\u{1F}") }
    }
}

/// The value of one member of a record's JSON object, typed as the export writes it.
public enum JSONMemberValue: Equatable {
    case text(String?), integer(Int64?), boolean(Bool?), number(Double?), list([String]), money(Money?)
}

public extension RecordDetail {
    /// The kind's JSON object member by member, keys in sorted order: what the export writes and the
    /// `--json` views show (`RecordJSON`), from the descriptor's members.
    var jsonMembers: [(key: String, value: JSONMemberValue)] {
        let d = ExportedDetail(self)
        return d.members.map { m in
            switch m.form {
            case .text(let col), .integerOrText(let col): return (m.key, .text(d.values[col]))
            case .integer(let col): return (m.key, .integer(d.values[col].flatMap { Int64($0) }))
            case .boolean(let col): return (m.key, .boolean(d.values[col].map { $0 == "1" }))
            case .number(let col): return (m.key, .number(d.values[col].flatMap { Double($0) }))
            case .codes(let col): return (m.key, .list(d.values[col].map { $0.split(separator: ",").map(String.init) } ?? []))
            case .items(let col): return (m.key, .list(d.values[col].map { $0.split(separator: "\u{1F}", omittingEmptySubsequences: false).map(String.init) } ?? []))
            case .money(let minor, let currency):
                let money = d.values[minor].flatMap { Int64($0) }.flatMap { m in d.values[currency].flatMap(Currency.named).map { Money(minorUnits: m, currency: $0) } }
                return (m.key, .money(money))
            }
        }
    }
}

/// A record in the export: the shared columns, its attachments, and its detail under the key its kind names.
package struct ExportedRecord: Equatable {
    package var id: Int64?
    package var petId: Int64?
    /// The pet's name, for people reading the file; the import goes by `pet_id`.
    package var pet: String?
    package var kind: String?
    package var at: String?
    /// Written beside `at` for readers without an RFC 3339 parser; the import reads the offset from `at`.
    package var utcOffsetSeconds: Int64?
    package var note: String?
    package var starred: Bool?
    package var attachments: [ExportedAttachment]?
    /// When the record was first written and last changed, in UTC (kept by an import, so `show` still
    /// says when it was written).
    package var createdAt: String?
    package var updatedAt: String?
    package var detail: ExportedDetail?

    package init(_ r: PetRecord) {
        id = r.id; petId = r.petId; pet = r.petName; kind = r.kind.rawValue
        at = RFC3339.text(r.at, offset: r.utcOffset); utcOffsetSeconds = Int64(r.utcOffset)
        note = r.note; starred = r.starred; attachments = r.attachments.map(ExportedAttachment.init); detail = ExportedDetail(r.detail)
        createdAt = RFC3339.format(seconds: r.createdAt.unixSeconds(), offset: 0); updatedAt = RFC3339.format(seconds: r.updatedAt.unixSeconds(), offset: 0)
    }

}

extension RFC3339 {
    /// An instant with the offset it happened at. Offsets with seconds (local mean time before 1900)
    /// are written as Foundation's formatter writes them, as the export always has.
    package static func text(_ date: Date, offset: Int) -> String {
        guard offset % 60 != 0, abs(offset) < 64800, (-6.2e10...2.534e11).contains(date.timeIntervalSince1970) else {
            return format(seconds: date.unixSeconds(), offset: offset)
        }
        let f = ISO8601DateFormatter()
        f.timeZone = TimeZone(secondsFromGMT: offset)
        f.formatOptions = [.withInternetDateTime]
        return f.string(from: date)
    }
}
