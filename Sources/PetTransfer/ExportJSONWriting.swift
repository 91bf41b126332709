import Foundation
import PetFiles
import PetModel
import PetStoreCore

/// JSON bytes written in place for the export's records, pets, budgets and their parts (keys in sorted
/// order, no spaces, absent values as null), without the Codable machinery, which was most of an
/// export's time. Each type lists its keys already sorted; `ExportJSONWritingTests` holds every kind
/// against JSONSerialization's writing of the same values, and `GoldenExportTests` pins the bytes.
struct JSONBytes {
    var bytes: [UInt8] = []
    /// A member or element was written at this level: the next one needs a comma.
    private var needsComma = false

    init(capacity: Int = 1024) { bytes.reserveCapacity(capacity) }

    mutating func clear() { bytes.removeAll(keepingCapacity: true); needsComma = false }

    mutating func openObject() { bytes.append(UInt8(ascii: "{")); needsComma = false }
    mutating func closeObject() { bytes.append(UInt8(ascii: "}")); needsComma = true }
    mutating func openArray() { bytes.append(UInt8(ascii: "[")); needsComma = false }
    mutating func closeArray() { bytes.append(UInt8(ascii: "]")); needsComma = true }

    /// `"key":`, after a comma when a member came before. Keys are plain ASCII (no escapes needed).
    mutating func key(_ k: StaticString) {
        if needsComma { bytes.append(UInt8(ascii: ",")) }
        needsComma = true
        bytes.append(UInt8(ascii: "\""))
        k.withUTF8Buffer { bytes.append(contentsOf: $0) }
        bytes.append(contentsOf: [UInt8(ascii: "\""), UInt8(ascii: ":")])
    }

    /// A key known only at run time (a record's kind).
    mutating func key(_ k: String) {
        if needsComma { bytes.append(UInt8(ascii: ",")) }
        needsComma = true
        JSONText.string(k, into: &bytes)
        bytes.append(UInt8(ascii: ":"))
    }

    /// Before an array element.
    mutating func element() {
        if needsComma { bytes.append(UInt8(ascii: ",")) }
        needsComma = true
    }

    mutating func null() { bytes.append(contentsOf: [0x6E, 0x75, 0x6C, 0x6C]) }

    mutating func value(_ s: String?) {
        guard let s else { return null() }
        JSONText.string(s, into: &bytes)
    }

    mutating func value(_ b: Bool?) {
        guard let b else { return null() }
        if b { bytes.append(contentsOf: [0x74, 0x72, 0x75, 0x65]) } else { bytes.append(contentsOf: [0x66, 0x61, 0x6C, 0x73, 0x65]) }
    }

    mutating func value(_ v: Double?) throws {
        guard let v else { return null() }
        bytes.append(contentsOf: try JSONText.number(v))
    }

    /// Decimal digits, as `String(v)` writes them.
    mutating func value(_ v: Int64?) {
        guard let v else { return null() }
        if v < 0 { bytes.append(UInt8(ascii: "-")) }
        var m = v.magnitude
        if m < 10 { bytes.append(0x30 + UInt8(m)); return }
        var digits: (UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0)  // room for 20 digits, filled from the end
        withUnsafeMutableBytes(of: &digits) { buffer in
            var i = buffer.count
            while m > 0 {
                i -= 1
                buffer[i] = 0x30 + UInt8(m % 10)
                m /= 10
            }
            bytes.append(contentsOf: buffer[i...])
        }
    }
}

/// An object of the export other than a record (a pet, a budget, a rate), said once as its members (each
/// key, its JSON type and the column it fills, keys sorted): its reader (`JSONRecordReading.Parser.members`)
/// and its writer (`JSONBytes.object`) walk the one list.
struct ExportShape {
    let members: [RecordKindTable.JSONRead]
    let keys: [[UInt8]]

    init(_ members: [RecordKindTable.JSONRead]) { self.members = members; keys = members.map { Array($0.key.utf8) } }

    /// A pet: its health facts as lists, contacts and the insurance; the rest as its columns.
    static let pet = ExportShape([.init("allergies", .lines("allergies"))] + texts("archive_reason", "archived_on", "born", "breed", "color")
                                 + [.init("conditions", .lines("conditions"))] + texts("created_at")
                                 + [.init("emergency_contacts", .pairs("emergency_contacts", first: "name", second: "phone")), .init("id", .integer("id")),
                                    .init("insurance", .pair("insurance", first: "insurer", second: "policy"))] + texts("microchip", "name")
                                 + [.init("neutered", .boolean("neutered"))] + texts("notes", "sex", "species", "updated_at")
                                 + [.init("vet_contact", .pair("vet_contact", first: "name", second: "phone"))])
    private static func texts(_ names: String...) -> [RecordKindTable.JSONRead] { names.map { .init($0, .text($0)) } }

    /// A budget; `pet_id` is the pet's id in the file (null: the household).
    static let budget = ExportShape([.init("category", .text("category")), .init("first_day", .text("first_day")), .init("id", .integer("id")),
                                     .init("last_day", .text("last_day")), .init("money", .money(minor: "amount_minor", currency: "currency")),
                                     .init("name", .text("name")), .init("people", .integer("people")), .init("per_pet", .boolean("per_pet")),
                                     .init("pet_id", .integer("pet_id")), .init("place", .text("place"))])
    /// An exchange rate: 1 EUR = `rate` units of `currency` on `day` (written by hand, `PetlogJSONWriter.finish`).
    static let rate = ExportShape([.init("currency", .text("currency")), .init("day", .text("day")), .init("rate", .text("rate"))])

    /// A pet's columns as the writer takes them: its lists one item a line, a contact's or the insurance's two
    /// parts apart by U+001F (each is a label, which holds no control character).
    static func values(_ p: Pet) -> [String: String] {
        func pair(_ a: String, _ b: String?) -> String { b.map { a + "\u{1F}" + $0 } ?? a }
        var f = FieldValues()
        f.put("id", p.id); f.put("name", p.name); f.put("species", p.species.rawValue); f.put("breed", p.breed); f.put("sex", p.sex.rawValue)
        f.put("neutered", p.neutered); f.put("born", p.born?.description); f.put("microchip", p.microchip); f.put("color", p.color); f.put("notes", p.notes)
        f.put("archived_on", p.archivedOn?.description); f.put("archive_reason", p.archiveReason?.rawValue)
        f.put("allergies", PetHealth.storedList(p.health.allergies)); f.put("conditions", PetHealth.storedList(p.health.conditions))
        f.put("vet_contact", p.health.vetContact.map { pair($0.name, $0.phone) })
        f.put("emergency_contacts", PetHealth.storedList(p.health.emergencyContacts.map { pair($0.name, $0.phone) }))
        f.put("insurance", p.health.insurance.map { pair($0.insurer, $0.policy) })
        f.put("created_at", RFC3339.format(seconds: p.createdAt.unixSeconds(), offset: 0)); f.put("updated_at", RFC3339.format(seconds: p.updatedAt.unixSeconds(), offset: 0))
        return f.values
    }

    /// A stored budget's columns as the import reads them back.
    static func values(_ b: StoredBudget) -> [String: String] {
        var f = FieldValues()
        f.put("id", b.id); f.put("pet_id", b.petId); f.put("amount_minor", b.budget.amount.minorUnits); f.put("currency", b.budget.amount.currency.code)
        f.put("category", b.budget.category); f.put("per_pet", b.budget.perPet); f.put("name", b.budget.name); f.put("place", b.budget.place)
        f.put("people", b.budget.people.map(Int64.init))
        if case .days(let first, let last) = b.budget.period { f.put("first_day", first.description); f.put("last_day", last.description) }
        return f.values
    }
}

extension ExportedDetail {
    func write(to j: inout JSONBytes) throws { try j.object(members, values) }
}

extension JSONBytes {
    /// The object `members` make of the column values `values` (keys in the members' order, a missing value as null).
    mutating func object(_ members: [RecordKindTable.JSONRead], _ values: [String: String]) throws {
        func list(_ column: String, _ separator: Character) -> [String] {
            values[column].map { $0.split(separator: separator, omittingEmptySubsequences: false).map(String.init) } ?? []
        }
        /// An object of two strings from `v` (the two apart by U+001F; the second null when it has none).
        func pair(_ v: String, _ first: String, _ second: String) {
            let parts = v.split(separator: "\u{1F}", maxSplits: 1, omittingEmptySubsequences: false)
            openObject()
            key(first); value(String(parts[0]))
            key(second); value(parts.count > 1 ? String(parts[1]) : nil)
            closeObject()
        }
        openObject()
        for m in members {
            key(m.key)
            switch m.form {
            case .text(let col), .integerOrText(let col): value(values[col])
            case .integer(let col): value(values[col].flatMap { Int64($0) })
            case .boolean(let col): value(values[col].map { $0 == "1" })
            case .number(let col): try value(values[col].flatMap { Double($0) })
            case .codes(let col), .items(let col), .lines(let col):
                openArray()
                for v in list(col, m.form.separator) { element(); value(v) }
                closeArray()
            case .money(let minor, let currency):
                // The amount for people only when both parts make money (`amount` is not read back).
                guard values[minor] != nil || values[currency] != nil else { null(); break }
                let units = values[minor].flatMap { Int64($0) }
                let money = units.flatMap { m in values[currency].flatMap(Currency.named).map { Money(minorUnits: m, currency: $0) } }
                openObject()
                key("amount"); value(money?.decimalString)
                key("currency"); value(money?.currency.code ?? values[currency])
                key("minor_units"); value(units)
                closeObject()
            case .pair(let col, let first, let second): if let v = values[col] { pair(v, first, second) } else { null() }
            case .pairs(let col, let first, let second):
                openArray()
                for v in list(col, "\n") { element(); pair(v, first, second) }
                closeArray()
            }
        }
        closeObject()
    }
}

extension JSONBytes {
    /// The record's own keys in sorted order; the detail's key (the kind) goes before the first of them
    /// that sorts after it, as a sorted-keys encoder places it.
    private static let sharedKeys = ["at", "attachments", "created_at", "id", "kind", "note", "pet", "pet_id", "starred", "updated_at", "utc_offset_seconds"]
    private static let slots: [RecordKind: Int] = Dictionary(uniqueKeysWithValues: RecordKind.allCases.map { k in
        (k, sharedKeys.firstIndex { k.rawValue < $0 } ?? sharedKeys.count)
    })

    /// A record as the export writes it: the shared keys, its attachments and its detail under its kind.
    mutating func record(_ r: PetRecord) throws {
        let slot = Self.slots[r.kind] ?? 0
        openObject()
        for i in 0...Self.sharedKeys.count {
            if i == slot {
                key(r.kind.rawValue)
                let detail = ExportedDetail(r.detail)
                try object(detail.members, detail.values)
            }
            switch i {
            case 0: key("at"); value(RFC3339.text(r.at, offset: r.utcOffset))
            case 1:
                key("attachments")
                openArray()
                for a in r.attachments {
                    element(); openObject()
                    key("media_type"); value(a.mediaType); key("name"); value(a.originalName); key("sha256"); value(a.sha256); key("size"); value(a.size)
                    closeObject()
                }
                closeArray()
            case 2: key("created_at"); value(RFC3339.format(seconds: r.createdAt.unixSeconds(), offset: 0))
            case 3: key("id"); value(r.id)
            case 4: key("kind"); value(r.kind.rawValue)
            case 5: key("note"); value(r.note)
            case 6: key("pet"); value(r.petName)
            case 7: key("pet_id"); value(r.petId)
            case 8: key("starred"); value(r.starred)
            case 9: key("updated_at"); value(RFC3339.format(seconds: r.updatedAt.unixSeconds(), offset: 0))
            case 10: key("utc_offset_seconds"); value(Int64(r.utcOffset))
            default: break
            }
        }
        closeObject()
    }
}

/// JSON text for the scalars the export holds.
package enum JSONText {
    package static func string(_ s: String) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(s.utf8.count + 2)
        string(s, into: &out)
        return out
    }

    /// Quoted, with `"`, `\` and control characters escaped as JSONSerialization escapes them. The
    /// runs between escapes are copied whole (most text has none).
    package static func string(_ s: String, into out: inout [UInt8]) {
        out.append(UInt8(ascii: "\""))
        var text = s
        text.withUTF8 { bytes in
            var start = 0
            for i in 0..<bytes.count where bytes[i] < 0x20 || bytes[i] == UInt8(ascii: "\"") || bytes[i] == UInt8(ascii: "\\") {
                out.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[start..<i]))
                escape(bytes[i], into: &out)
                start = i + 1
            }
            out.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[start...]))
        }
        out.append(UInt8(ascii: "\""))
    }

    private static func escape(_ b: UInt8, into out: inout [UInt8]) {
        switch b {
        case UInt8(ascii: "\""): out.append(contentsOf: [0x5C, 0x22])
        case UInt8(ascii: "\\"): out.append(contentsOf: [0x5C, 0x5C])
        case 0x0A: out.append(contentsOf: [0x5C, UInt8(ascii: "n")])
        case 0x0D: out.append(contentsOf: [0x5C, UInt8(ascii: "r")])
        case 0x09: out.append(contentsOf: [0x5C, UInt8(ascii: "t")])
        case 0x08: out.append(contentsOf: [0x5C, UInt8(ascii: "b")])
        case 0x0C: out.append(contentsOf: [0x5C, UInt8(ascii: "f")])
        case 0..<0x20:
            let hex = Array("0123456789abcdef".utf8)
            out.append(contentsOf: [0x5C, UInt8(ascii: "u"), 0x30, 0x30, hex[Int(b >> 4)], hex[Int(b & 0xF)]])
        default: out.append(b)
        }
    }

    /// The shortest text that reads back to `v`, without a trailing `.0` (as JSONEncoder writes it).
    package static func number(_ v: Double) throws -> [UInt8] {
        guard v.isFinite else { throw EncodingError.invalidValue(v, EncodingError.Context(codingPath: [], debugDescription: "not a JSON number")) }
        var text = v.description
        if text.hasSuffix(".0") { text.removeLast(2) }
        return Array(text.utf8)
    }
}

/// Writes a petlog JSON export (docs/json.md) into a sink one pet or record at a time: each is
/// written as bytes on its own (`JSONBytes`) and appended to the sink's buffer, so memory stays flat however many there are.
/// The layout around them (header, one item per line) is fixed, so the same data gives the same bytes.
public final class PetlogJSONWriter {
    private let sink: OutputSink
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
            try json.object(ExportShape.pet.members, ExportShape.values(p))
            try sink.write(json.bytes)
            try sink.write(i < sorted.count - 1 ? ",\n" : "\n")
        }
        try sink.write("],\n\"records\": [\n")
    }

    /// Appends one record; records go in id order.
    public func write(_ record: PetRecord) throws {
        json.clear()
        if recordCount > 0 { json.bytes.append(contentsOf: [UInt8(ascii: ","), 0x0A]) }
        try json.record(record)
        try sink.write(json.bytes)
        recordCount += 1
    }

    /// Closes the records, writes the budgets and the exchange rates, and closes the document.
    public func finish(budgets: [StoredBudget] = [], rates: [EuroRate] = []) throws {
        try sink.write("\n],\n\"budgets\": [\n")
        for (i, b) in budgets.sorted(by: { $0.id < $1.id }).enumerated() {
            json.clear()
            try json.object(ExportShape.budget.members, ExportShape.values(b))
            try sink.write(json.bytes)
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
