import Foundation
import PetModel
import PetStoreCore

/// The one writer of petlog's `--json` views (docs/json.md): every view is an `Encodable` type, written
/// here with sorted keys, two-space pretty printing and slashes as they are, the bytes the views have
/// always had. Encoding errors are thrown, never swallowed.
public enum JSONView {
    public static func text<View: Encodable>(_ view: View) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return escapingC1AndBidi(String(decoding: try encoder.encode(view), as: UTF8.self))
    }

    /// The encoder escapes C0 controls only; C1 controls (U+009B is CSI to many terminals), line
    /// separators and bidi overrides are written as `\uXXXX` too, so `--json` on a terminal is as safe as
    /// the tables and still decodes to exactly the stored text. Outside strings JSON is ASCII, so this
    /// only ever touches string contents.
    public static func escapingC1AndBidi(_ json: String) -> String {
        var out = String.UnicodeScalarView()
        for s in json.unicodeScalars {
            switch s.value {
            case 0x7F...0x9F, 0x2028, 0x2029, 0x202A...0x202E, 0x2066...0x2069:
                out.append(contentsOf: String(format: "\\u%04x", s.value).unicodeScalars)
            default: out.append(s)
            }
        }
        return String(out)
    }

    /// An instant as RFC 3339 with the offset it happened at.
    public static func instant(_ date: Date, offset: Int) -> String {
        // By arithmetic, so any stored value has an answer: Foundation's formatter traps on an offset of
        // ±18:00 and far outside the years petlog keeps. It is kept for offsets with seconds (local mean
        // time before 1900), which it writes its own way.
        guard offset % 60 != 0, abs(offset) < 64800, (-6.2e10...2.534e11).contains(date.timeIntervalSince1970) else {
            return RFC3339.format(seconds: date.unixSeconds(), offset: offset)
        }
        let f = ISO8601DateFormatter()
        f.timeZone = TimeZone(secondsFromGMT: offset)
        f.formatOptions = [.withInternetDateTime]
        return f.string(from: date)
    }

    /// `2026-11` of a month's first day.
    public static func month(_ first: LocalDate) -> String { String(first.description.prefix(7)) }
}

extension KeyedEncodingContainer where K == JSONKey {
    /// One key of a view; an optional value without one is written as `null` (the documented shapes
    /// keep every key, so a script can tell "none" from "not asked").
    public mutating func put<T: Encodable>(_ key: String, _ value: T) throws {
        try encode(value, forKey: JSONKey(key))
    }
}

/// A JSON object written by hand-picked keys: the views below encode through it.
protocol JSONObjectView: Encodable {
    func write(_ c: inout KeyedEncodingContainer<JSONKey>) throws
}

extension JSONObjectView {
    public func encode(to encoder: Encoder) throws {
        var c = encoder.container(keyedBy: JSONKey.self)
        try write(&c)
    }
}
