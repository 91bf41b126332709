import Foundation
import PetModel

/// Named values of one pet or record, from a JSON object or a CSV row; columns are named as in the
/// database (docs/json.md, docs/import.md). Every value is checked as the commands check it.
package struct Fields {
    package var values: [String: String]
    package var location: SourceLocation
    package init(values: [String: String], location: SourceLocation) { self.values = values; self.location = location }

    package func text(_ key: String) -> String? { values[key].flatMap { $0.isEmpty ? nil : $0 } }

    package func required(_ key: String) throws -> String {
        guard let v = text(key) else { throw ImportError(location: location, problem: .missingColumn(key)) }
        return v
    }

    package func int(_ key: String, _ range: ClosedRange<Int64>) throws -> Int64? {
        guard let raw = text(key) else { return nil }
        guard let v = Int64(raw), range.contains(v) else {
            throw ImportError(location: location, problem: .value(.outOfRange(field: key, value: raw, min: Int(range.lowerBound), max: Int(min(range.upperBound, Int64(Int32.max))))))
        }
        return v
    }

    /// A value on a clinical scale (`score`, `severity`, `body_condition`), refused as `int` refuses.
    package func score<S>(_ key: String, _: Score<S>.Type) throws -> Score<S>? {
        try int(key, Int64(S.range.lowerBound)...Int64(S.range.upperBound)).flatMap { Score<S>(Int($0)) }
    }

    package func bool(_ key: String) throws -> Bool {
        switch text(key) {
        case nil, "0", "false": return false
        case "1", "true": return true
        case let v?: throw ImportError(location: location, problem: .value(.unknownChoice(field: key, value: v, accepted: ["true", "false"])))
        }
    }

    package func choice<T: RawRepresentable & CaseIterable>(_ key: String, _ type: T.Type) throws -> T? where T.RawValue == String {
        guard let raw = text(key) else { return nil }
        guard let v = T(rawValue: raw) else {
            throw ImportError(location: location, problem: .value(.unknownChoice(field: key, value: raw, accepted: T.allCases.map(\.rawValue))))
        }
        return v
    }

    package func day(_ key: String) throws -> LocalDate? {
        guard let raw = text(key) else { return nil }
        guard let d = LocalDate.parseISO(Substring(raw)) else { throw ImportError(location: location, problem: .badTime(raw)) }
        return d
    }

    package func checked<T>(_ body: () throws -> T) throws -> T { try Self.checked(at: location, body) }
    /// `body`, a `ParseError` it throws refused at `location` (a bad day as a bad time, as every import words it).
    package static func checked<T>(at location: SourceLocation, _ body: () throws -> T) throws -> T {
        do { return try body() } catch let e as ParseError {
            if case .badDate(let raw) = e { throw ImportError(location: location, problem: .badTime(raw)) }
            throw ImportError(location: location, problem: .value(e))
        }
    }

    package func label(_ key: String) throws -> String? { try text(key).map { v in try checked { try TextField.label(v, field: key) } } }
    package func longText(_ key: String) throws -> String? { try text(key).map { v in try checked { try TextField.text(v, field: key) } } }

    /// An instant written as RFC 3339 with its offset (`2026-11-20T08:30:00+09:00`).
    package func instant(_ key: String) throws -> (Int64, Int) {
        let raw = try required(key)
        guard let instant = Self.instant(raw) else { throw ImportError(location: location, problem: .badTime(raw)) }
        return instant
    }

    /// When a row was written or changed (`created_at`, `updated_at`), as Unix seconds; nil when the file
    /// does not say (files written before petlog kept them: the import's time is taken).
    package func writtenAt(_ key: String) throws -> Int64? {
        guard let raw = text(key) else { return nil }
        guard let instant = Self.instant(raw) else { throw ImportError(location: location, problem: .badTime(raw)) }
        return instant.0
    }

    /// The instant and offset of RFC 3339 text; nil when it is not one petlog reads.
    package static func instant(_ raw: String) -> (Int64, Int)? {
        guard raw.utf8.count >= 20, let offset = RFC3339.offset(raw),
              let local = Array(raw.utf8.prefix(19)).withUnsafeBufferPointer({ RFC3339.localSeconds($0, 0..<19) }),
              (-64800...64800).contains(offset) else { return nil }
        return (local - Int64(offset), offset)
    }

    /// `instant(_:)` of text given as its UTF-8 bytes: the forms the export writes (`…Z`, `…+09:00`) read
    /// from the bytes, anything else as text.
    package static func instant(utf8 b: [UInt8]) -> (Int64, Int)? {
        let n = b.count
        guard n >= 20 else { return nil }
        var offset: Int?
        let last = b[n - 1]
        if last == UInt8(ascii: "Z") || last == UInt8(ascii: "z") {
            offset = 0
        } else if b[n - 6] == UInt8(ascii: "+") || b[n - 6] == UInt8(ascii: "-") {
            let d = [b[n - 5], b[n - 4], b[n - 2], b[n - 1]].map { Int($0) - 0x30 }
            if d.allSatisfy({ (0...9).contains($0) }) {
                offset = (b[n - 6] == UInt8(ascii: "-") ? -1 : 1) * ((d[0] * 10 + d[1]) * 3600 + (d[2] * 10 + d[3]) * 60)
            }
        }
        guard let offset else { return instant(String(decoding: b, as: UTF8.self)) }
        guard let local = b.withUnsafeBufferPointer({ RFC3339.localSeconds($0, 0..<19) }), (-64800...64800).contains(offset) else { return nil }
        return (local - Int64(offset), offset)
    }

    package func currency(_ key: String) throws -> Currency {
        let code = try required(key)
        guard let c = Currency.named(code) else { throw ImportError(location: location, problem: .value(.unknownCurrency(code))) }
        return c
    }

    package func pet() throws -> ImportPet {
        let species = try choice("species", Species.self) ?? { throw ImportError(location: location, problem: .missingColumn("species")) }()
        let archivedOn = try day("archived_on")
        let reason = try choice("archive_reason", ArchiveReason.self)
        if (archivedOn == nil) != (reason == nil) { throw ImportError(location: location, problem: .missingColumn(archivedOn == nil ? "archived_on" : "archive_reason")) }
        return ImportPet(location: location, fileId: try int("id", 1...Int64.max), name: try checked { try TextField.name(try required("name")) },
                         species: species, breed: try label("breed"), sex: try choice("sex", Sex.self) ?? .unknown, neutered: try bool("neutered"),
                         born: try text("born").map { v in try checked { try PartialDate.parse(v) } }, microchip: try label("microchip").flatMap { v in try checked { try Microchip.normalize(v) } },
                         color: try label("color"), notes: try longText("notes"), archivedOn: archivedOn, archiveReason: reason,
                         health: try checked { try PetHealth.fromStored(allergies: text("allergies"), conditions: text("conditions"),
                                                                         vetContact: text("vet_contact"), emergencyContacts: text("emergency_contacts"),
                                                                         insurance: text("insurance")) },
                         createdAt: try writtenAt("created_at"), updatedAt: try writtenAt("updated_at"))
    }

    /// The detail of `kind` from its columns, as its descriptor reads it (`RecordKindTable.Codec`).
    package func detail(_ kind: RecordKind) throws -> RecordDetail { try RecordKindTable.of(kind).codec.read(self) }

    /// An amount in minor units and its currency (both or neither), as a visit's or a grooming's cost.
    package func money(_ minor: String, _ currency: String) throws -> Money? {
        try int(minor, 0...Money.maximumMinorUnits).map { Money(minorUnits: $0, currency: try self.currency(currency)) }
    }

    /// A value the record cannot be without, or the column missing.
    package func must<T>(_ value: T?, _ key: String) throws -> T {
        guard let value else { throw ImportError(location: location, problem: .missingColumn(key)) }
        return value
    }
}
