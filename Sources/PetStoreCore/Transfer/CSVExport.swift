import Foundation
import PetFiles
import PetModel

/// `petlog export --format csv`'s tables: one RFC 4180 file per table (written by `PetTransfer`'s
/// `CSVTableWriter`), header row first, rows in id order. Columns are the database's, except: `pet` leaves
/// out its search key and timestamps, `record` writes `at` as RFC 3339 with the offset it happened at (and
/// leaves out `utc_offset` and timestamps), `medication.stopped_at` is RFC 3339 UTC, `attachment` leaves out
/// its row id. Text cells that a spreadsheet would run as a formula get a leading `'` (`CSVText`), which
/// import removes again.
/// A table `export --format csv` writes: its file name and the SELECT that reads it.
public struct CSVTable: Sendable {
    public let name: String
    public let select: String
}

/// The tables and their columns, the same on both stores.
public enum CSVExport {
    public static let tables: [CSVTable] = [
        CSVTable(name: "pet", select: "SELECT id, name, species, breed, sex, neutered, born, microchip, color, notes, archived_on, archive_reason, allergies, conditions, vet_contact, emergency_contacts, insurance FROM pet ORDER BY id"),
        CSVTable(name: "record", select: "SELECT id, pet_id, kind, at, utc_offset, note, starred FROM record ORDER BY id"),
    ] + RecordKind.allCases.map { kind in
        CSVTable(name: kind.rawValue, select: "SELECT \(RecordDetailTables.columns(kind)) FROM \(kind.rawValue) ORDER BY record_id")
    } + [CSVTable(name: "attachment", select: "SELECT record_id, position, sha256, original_name, media_type, size FROM attachment ORDER BY record_id, position"),
         CSVTable(name: "expense_item", select: "SELECT record_id, position, name FROM expense_item ORDER BY record_id, position"),
         CSVTable(name: "budget", select: "SELECT id, pet_id, amount_minor, currency, first_day, last_day, category, per_pet, name, place, people FROM budget ORDER BY id"),
         CSVTable(name: "exchange_rate", select: "SELECT day, currency, rate FROM exchange_rate ORDER BY day, currency")]

    /// The tables `export --format csv` writes, in order (`--table` takes one of them).
    public static var tableNames: [String] { tables.map(\.name) }

    public static func table(_ name: String) throws -> CSVTable {
        guard let t = tables.first(where: { $0.name == name }) else {
            throw ParseError.unknownChoice(field: "--table", value: name, accepted: tableNames)
        }
        return t
    }
}

/// A stored attachment whose content no longer has the SHA-256 it is stored under.
public struct AttachmentHashMismatch: Error, Equatable, Sendable {
    public let path: String
    public let expected: String
    public let found: String

    public init(path: String, expected: String, found: String) { self.path = path; self.expected = expected; self.found = found }
}

/// RFC 3339 instants with a given offset, without a formatter per call.
public enum RFC3339 {
    /// Any Int64 a file holds has an answer (years beyond 9999 are written out in full, which an import
    /// then refuses with the row's line); the sum with the offset saturates instead of trapping.
    public static func format(seconds: Int64, offset: Int) -> String {
        let (sum, overflow) = seconds.addingReportingOverflow(Int64(offset))
        let local = overflow ? (offset > 0 ? Int64.max : Int64.min) : sum
        let (q, r) = local.quotientAndRemainder(dividingBy: 86400)
        let day = Int(r < 0 ? q - 1 : q)
        let secs = Int(r < 0 ? r + 86400 : r)
        let d = LocalDate(dayNumber: day)
        if (0...9999).contains(d.year), abs(offset) < 360_000 { return fixedWidth(d, secs, offset) }
        let zone: String
        if offset == 0 { zone = "Z" } else {
            let a = abs(offset)
            zone = (offset < 0 ? "-" : "+") + two(a / 3600) + ":" + two(a % 3600 / 60)
        }
        return "\(Self.day(d))T\(two(secs / 3600)):\(two(secs % 3600 / 60)):\(two(secs % 60))\(zone)"
    }

    /// The common case, years 0…9999: `YYYY-MM-DDThh:mm:ss` and `Z` or `±hh:mm`, written into bytes
    /// (one string made, not one per part).
    private static func fixedWidth(_ d: LocalDate, _ secs: Int, _ offset: Int) -> String {
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 25) { b in
            func put(_ v: Int, _ at: Int, _ digits: Int) {
                var v = v
                for k in stride(from: at + digits - 1, through: at, by: -1) { b[k] = 0x30 + UInt8(v % 10); v /= 10 }
            }
            put(d.year, 0, 4); b[4] = UInt8(ascii: "-"); put(d.month, 5, 2); b[7] = UInt8(ascii: "-"); put(d.day, 8, 2)
            b[10] = UInt8(ascii: "T"); put(secs / 3600, 11, 2); b[13] = UInt8(ascii: ":"); put(secs % 3600 / 60, 14, 2)
            b[16] = UInt8(ascii: ":"); put(secs % 60, 17, 2)
            if offset == 0 {
                b[19] = UInt8(ascii: "Z")
                return String(decoding: UnsafeBufferPointer(rebasing: b[0..<20]), as: UTF8.self)
            }
            let a = abs(offset)
            b[19] = offset < 0 ? UInt8(ascii: "-") : UInt8(ascii: "+")
            put(a / 3600, 20, 2); b[22] = UInt8(ascii: ":"); put(a % 3600 / 60, 23, 2)
            return String(decoding: UnsafeBufferPointer(rebasing: b[0..<25]), as: UTF8.self)
        }
    }

    /// `LocalDate.description` (`%04d-%02d-%02d`) without `String(format:)`, which was a tenth of an
    /// export's time: the year zero-padded to four characters, a minus sign counting as one.
    static func day(_ d: LocalDate) -> String {
        let digits = String(d.year.magnitude)
        let width = d.year < 0 ? 3 : 4
        let year = (d.year < 0 ? "-" : "") + String(repeating: "0", count: max(0, width - digits.count)) + digits
        return "\(year)-\(two(d.month))-\(two(d.day))"
    }

    static func two(_ v: Int) -> String { v < 10 ? "0\(v)" : String(v) }
}

/// RFC 4180 writing with spreadsheet formula neutralization: a text cell starting with `=`, `+`, `-`,
/// `@`, tab or CR gets a leading `'` so a spreadsheet shows it instead of running it. A cell that
/// starts with `'` before such a cell gets one more, so reading back (`CSVText.restore`) is exact.
public enum CSVText {
    static let triggers: Set<Character> = ["=", "+", "-", "@", "\t", "\r"]

    static func needsGuard(_ s: Substring) -> Bool {
        guard let f = s.first else { return false }
        if triggers.contains(f) { return true }
        return f == "'" && needsGuard(s.dropFirst())
    }

    /// The cell for a text value.
    public static func cell(text: String) -> String {
        let guarded = needsGuard(Substring(text)) ? "'" + text : text
        return quoteIfNeeded(guarded)
    }

    /// The cell for a number or other non-text value (never neutralized).
    public static func quoteIfNeeded(_ s: String) -> String {
        if s.contains(where: { $0 == "," || $0 == "\"" || $0 == "\n" || $0 == "\r" }) {
            return "\"" + s.replacingOccurrences(of: "\"", with: "\"\"") + "\""
        }
        return s
    }

    /// Undoes `cell(text:)`'s guard.
    public static func restore(_ s: String) -> String {
        if s.first == "'" && needsGuard(Substring(s).dropFirst()) { return String(s.dropFirst()) }
        return s
    }
}

extension RFC3339 {
    /// The local date and time (`YYYY-MM-DD`, `…THH:MM`, `…THH:MM:SS`; a space for the `T` too) in bytes `r` of `b`, as
    /// seconds since 1970-01-01T00:00 as if it were UTC; nil when not one (or not a real day).
    public static func localSeconds(_ b: UnsafeBufferPointer<UInt8>, _ r: Range<Int>) -> Int64? {
        func num(_ at: Int, _ len: Int) -> Int? {
            var v = 0
            for k in at..<(at + len) {
                let d = b[k] &- 0x30
                guard d < 10 else { return nil }
                v = v * 10 + Int(d)
            }
            return v
        }
        let s = r.lowerBound, len = r.count
        guard len == 10 || len == 16 || len == 19, b[s + 4] == 0x2D, b[s + 7] == 0x2D,
              let y = num(s, 4), let m = num(s + 5, 2), let d = num(s + 8, 2),
              let day = LocalDate(year: y, month: m, day: d)?.dayNumber else { return nil }
        var secs = 0
        if len > 10 {
            guard b[s + 10] == 0x54 || b[s + 10] == 0x20, b[s + 13] == 0x3A, let h = num(s + 11, 2), let mi = num(s + 14, 2), h < 24, mi < 60 else { return nil }
            secs = h * 3600 + mi * 60
            if len == 19 {
                guard b[s + 16] == 0x3A, let sec = num(s + 17, 2), sec < 60 else { return nil }
                secs += sec
            }
        }
        return Int64(day) * 86400 + Int64(secs)
    }

    /// The offset written at the end of an RFC 3339 time, in seconds east of UTC.
    public static func offset(_ text: String) -> Int? {
        if text.hasSuffix("Z") || text.hasSuffix("z") { return 0 }
        let tail = text.suffix(6)
        guard tail.count == 6, let sign = tail.first, sign == "+" || sign == "-", let h = Int(tail.dropFirst().prefix(2)), let m = Int(tail.suffix(2)) else { return nil }
        return (sign == "-" ? -1 : 1) * (h * 3600 + m * 60)
    }
}
