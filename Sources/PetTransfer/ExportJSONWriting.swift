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

extension ExportedMoney {
    func write(to j: inout JSONBytes) {
        j.openObject()
        j.key("amount"); j.value(amount)
        j.key("currency"); j.value(currency)
        j.key("minor_units"); j.value(minorUnits)
        j.closeObject()
    }
}

extension ExportedAttachment {
    func write(to j: inout JSONBytes) {
        j.openObject()
        j.key("media_type"); j.value(mediaType)
        j.key("name"); j.value(name)
        j.key("sha256"); j.value(sha256)
        j.key("size"); j.value(size)
        j.closeObject()
    }
}

extension ExportedPet {
    func write(to j: inout JSONBytes) {
        func list(_ items: [String]?) {
            j.openArray()
            for item in items ?? [] { j.element(); j.value(item) }
            j.closeArray()
        }
        func contact(_ c: ExportedContact) {
            j.openObject()
            j.key("name"); j.value(c.name)
            j.key("phone"); j.value(c.phone)
            j.closeObject()
        }
        j.openObject()
        j.key("allergies"); list(allergies)
        j.key("archive_reason"); j.value(archiveReason)
        j.key("archived_on"); j.value(archivedOn)
        j.key("born"); j.value(born)
        j.key("breed"); j.value(breed)
        j.key("color"); j.value(color)
        j.key("conditions"); list(conditions)
        j.key("created_at"); j.value(createdAt)
        j.key("emergency_contacts")
        j.openArray()
        for c in emergencyContacts ?? [] { j.element(); contact(c) }
        j.closeArray()
        j.key("id"); j.value(id)
        j.key("insurance")
        if let i = insurance {
            j.openObject()
            j.key("insurer"); j.value(i.insurer)
            j.key("policy"); j.value(i.policy)
            j.closeObject()
        } else {
            j.null()
        }
        j.key("microchip"); j.value(microchip)
        j.key("name"); j.value(name)
        j.key("neutered"); j.value(neutered)
        j.key("notes"); j.value(notes)
        j.key("sex"); j.value(sex)
        j.key("species"); j.value(species)
        j.key("updated_at"); j.value(updatedAt)
        j.key("vet_contact")
        if let v = vetContact { contact(v) } else { j.null() }
        j.closeObject()
    }
}

/// An object of the export other than a pet or a record, said once as its members (each key, its JSON
/// type and the column it fills, keys sorted): its reader (`JSONRecordReading.Parser.members`) and its
/// writer (`JSONBytes.object`) walk the one list.
struct ExportShape {
    let members: [RecordKindTable.JSONRead]
    let keys: [[UInt8]]

    init(_ members: [RecordKindTable.JSONRead]) { self.members = members; keys = members.map { Array($0.key.utf8) } }

    /// A budget; `pet_id` is the pet's id in the file (null: the household).
    static let budget = ExportShape([.init("category", .text("category")), .init("first_day", .text("first_day")), .init("id", .integer("id")),
                                     .init("last_day", .text("last_day")), .init("money", .money(minor: "amount_minor", currency: "currency")),
                                     .init("name", .text("name")), .init("people", .integer("people")), .init("per_pet", .boolean("per_pet")),
                                     .init("pet_id", .integer("pet_id")), .init("place", .text("place"))])
    /// An exchange rate: 1 EUR = `rate` units of `currency` on `day` (written by hand, `PetlogJSONWriter.finish`).
    static let rate = ExportShape([.init("currency", .text("currency")), .init("day", .text("day")), .init("rate", .text("rate"))])

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
        func money(_ minor: String, _ currency: String) -> ExportedMoney? {
            guard values[minor] != nil || values[currency] != nil else { return nil }
            if let m = values[minor].flatMap({ Int64($0) }), let c = values[currency].flatMap(Currency.named) { return ExportedMoney(Money(minorUnits: m, currency: c)) }
            return ExportedMoney(minorUnits: values[minor].flatMap { Int64($0) }, currency: values[currency], amount: nil)
        }
        openObject()
        for m in members {
            key(m.key)
            switch m.form {
            case .text(let col), .integerOrText(let col): value(values[col])
            case .integer(let col): value(values[col].flatMap { Int64($0) })
            case .boolean(let col): value(values[col].map { $0 == "1" })
            case .number(let col): try value(values[col].flatMap { Double($0) })
            case .codes(let col), .items(let col):
                openArray()
                for v in list(col, m.form.isItems ? "\u{1F}" : ",") { element(); value(v) }
                closeArray()
            case .money(let minor, let currency): if let v = money(minor, currency) { v.write(to: &self) } else { null() }
            }
        }
        closeObject()
    }
}

private extension RecordKindTable.JSONRead.Form {
    var isItems: Bool { if case .items = self { return true }; return false }
}

extension ExportedRecord {
    /// The record's own keys in sorted order; the detail's key (the kind) goes before the first of them
    /// that sorts after it, as a sorted-keys encoder places it.
    private static let sharedKeys = ["at", "attachments", "created_at", "id", "kind", "note", "pet", "pet_id", "starred", "updated_at", "utc_offset_seconds"]
    private static func detailSlot(_ kind: String) -> Int { sharedKeys.firstIndex { kind < $0 } ?? sharedKeys.count }
    private static let slots: [String: Int] = Dictionary(uniqueKeysWithValues: RecordKind.allCases.map { ($0.rawValue, detailSlot($0.rawValue)) })

    func write(to j: inout JSONBytes) throws {
        let slot: Int
        if let kind, detail != nil { slot = Self.slots[kind] ?? Self.detailSlot(kind) } else { slot = -1 }
        j.openObject()
        for i in 0...Self.sharedKeys.count {
            if i == slot, let kind, let detail {
                j.key(kind)
                try detail.write(to: &j)
            }
            switch i {
            case 0: j.key("at"); j.value(at)
            case 1:
                j.key("attachments")
                if let attachments {
                    j.openArray()
                    for a in attachments { j.element(); a.write(to: &j) }
                    j.closeArray()
                } else { j.null() }
            case 2: j.key("created_at"); j.value(createdAt)
            case 3: j.key("id"); j.value(id)
            case 4: j.key("kind"); j.value(kind)
            case 5: j.key("note"); j.value(note)
            case 6: j.key("pet"); j.value(pet)
            case 7: j.key("pet_id"); j.value(petId)
            case 8: j.key("starred"); j.value(starred)
            case 9: j.key("updated_at"); j.value(updatedAt)
            case 10: j.key("utc_offset_seconds"); j.value(utcOffsetSeconds)
            default: break
            }
        }
        j.closeObject()
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
