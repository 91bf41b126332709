import Foundation
import PetFiles
import PetModel

// The JSON export file (docs/json.md): a record's shape as the export writes it (`JSONBytes`, in
// PetTransfer's ExportJSONWriting.swift, keys in sorted order) and the byte reader (`JSONRecordReading`)
// reads it, so the `--json` display shapes of the read commands can change without touching the format.
// The writer writes every key, absent values as null, as the export always has.

public enum PetlogJSON {
    /// The header's values; the layout around them is `PetlogJSONWriter`'s.
    package static let format = "petlog"
    public static let schema = "v1"
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

extension RecordKindTable.JSONRead.Form {
    /// What a list of strings is kept with, joined in one column: a comma (codes), U+001F (an expense's
    /// items) or a line break (a pet's allergies, and a pet's contacts one a line).
    package var separator: Character {
        switch self {
        case .codes: return ","
        case .items: return "\u{1F}"
        default: return "\n"
        }
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
            case .lines, .pair, .pairs: return (m.key, .text(nil))  // a pet's forms, no kind's
            case .money(let minor, let currency):
                let money = d.values[minor].flatMap { Int64($0) }.flatMap { m in d.values[currency].flatMap(Currency.named).map { Money(minorUnits: m, currency: $0) } }
                return (m.key, .money(money))
            }
        }
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
