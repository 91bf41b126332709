import Foundation
import PetModel
import PetStoreCore

/// A record of a petlog JSON file read straight from its bytes, every kind alike: the shared keys, the
/// attachments, and the detail object of the record's kind read by its descriptor's key list
/// (`RecordKindTable.jsonRead`), so a new kind is read here as soon as its descriptor says how.
///
/// It takes what Foundation's JSONDecoder took when it read the export's Codable shapes, with the same
/// values (a number with a fraction or an exponent that is an integer, `4.2e3`, for an integer; escaped
/// keys; any JSON under a key petlog does not keep), and refuses the rest where it starts: JSON that is
/// broken, and a value of another type than its key's (text for a number, a fraction or more than 64
/// bits for an integer, a lone surrogate or text that is not UTF-8, an attachment without one of its four
/// keys), each at its line and character (`Unreadable`, which the scanner names). One thing it refuses
/// where the decoder took the first: a key given twice in a record or in one of its objects
/// (`DuplicateKey`), since JSON leaves its meaning open (the document's own keys are refused so too).
enum JSONRecordReading {
    /// The bytes ran out before the record's end: read on and start again.
    struct NeedMore: Error {}
    /// Broken JSON, or a value of a type its key does not take: refused where the parser stopped.
    struct Unreadable: Error {}
    /// A key twice in the record or in one of its objects.
    struct DuplicateKey: Error {}

    /// A detail value as its descriptor's form reads it.
    enum Value {
        case absent
        case null
        case int(Int64)
        case text(String)
        case bool(Bool)
        case number(Double)
        case list([String])
        case money(minor: Int64?, currency: String?)
        case pair(String?, String?)
        case pairs([(String?, String?)])
    }

    struct Parsed {
        var id: Int64?, petId: Int64?
        /// The kind as text when it is not one petlog knows (for the message), else nil with `kind` set.
        var kindText: String?
        var kind: RecordKind?
        /// `at` as bytes (`atRange` into the parser's buffer) when it had no escape, else as text.
        var at: String?
        var atBytes: [UInt8]?
        var note: String?
        var starred: Bool?
        var createdAt: String?, updatedAt: String?
        var attachments: [Attachment]?
        var kindIndex: Int?
        /// The detail's key was met after the kind and read then.
        var sawDetail = false
        /// The detail object's values by `jsonRead` index; nil when the record has no detail (absent or null).
        var detail: [Value]?

        /// The shared columns by database name.
        func fields(_ location: SourceLocation) -> Fields {
            var f = FieldValues()
            f.put("id", id); f.put("pet_id", petId); f.put("kind", kindText ?? kind?.rawValue)
            f.put("at", at ?? atBytes.map { String(decoding: $0, as: UTF8.self) }); f.put("note", note); f.put("starred", starred)
            f.put("created_at", createdAt); f.put("updated_at", updatedAt)
            return Fields(values: f.values, location: location)
        }

        /// The detail's columns.
        func detailFields(_ location: SourceLocation) -> Fields? {
            guard let detail, kind != nil else { return nil }
            return JSONRecordReading.fields(JSONRecordReading.detailForms[kindIndex ?? 0], detail, location)
        }
    }

    /// The columns an object's values fill, by its members' forms.
    static func fields(_ members: [RecordKindTable.JSONRead], _ values: [Value], _ location: SourceLocation) -> Fields {
        var f = FieldValues()
        for (field, v) in zip(members, values) {
            switch (field.form, v) {
            case (_, .absent), (_, .null): break
            case (.text(let c), .text(let s)), (.integerOrText(let c), .text(let s)): f.put(c, s)
            case (.integer(let c), .int(let n)), (.integerOrText(let c), .int(let n)): f.put(c, n)
            case (.boolean(let c), .bool(let b)): f.put(c, b)
            case (.number(let c), .number(let x)): f.put(c, x)
            case (.codes(let c), .list(let l)), (.items(let c), .list(let l)), (.lines(let c), .list(let l)):
                if !l.isEmpty { f.put(c, l.joined(separator: String(field.form.separator))) }
            case (.money(let minor, let currency), .money(let m, let code)): f.put(minor, m); f.put(currency, code)
            case (.pair(let c, _, _), .pair(let a, let b)): f.put(c, [a, b].compactMap { $0 }.joined(separator: ", "))
            case (.pairs(let c, _, _), .pairs(let l)): if !l.isEmpty { f.put(c, l.map { [$0.0, $0.1].compactMap { $0 }.joined(separator: ", ") }.joined(separator: "\n")) }
            default: break  // not made by the parser
            }
        }
        return Fields(values: f.values, location: location)
    }

    /// Each kind's detail keys as bytes, by `RecordKind.allCases` position.
    static let detailKeys: [[[UInt8]]] = RecordKind.allCases.map { RecordKindTable.of($0).jsonRead.map { Array($0.key.utf8) } }
    static let detailForms: [[RecordKindTable.JSONRead]] = RecordKind.allCases.map { RecordKindTable.of($0).jsonRead }
    static let kindNames: [[UInt8]] = RecordKind.allCases.map { Array($0.rawValue.utf8) }
    /// The record's own keys.
    static let keys: [[UInt8]] = ["at", "attachments", "id", "kind", "note", "pet", "pet_id", "starred", "utc_offset_seconds",
                                  "created_at", "updated_at"].map { Array($0.utf8) }
    static let attachmentKeys: [[UInt8]] = ["sha256", "name", "media_type", "size"].map { Array($0.utf8) }
    static let moneyKeys: [[UInt8]] = ["minor_units", "currency", "amount"].map { Array($0.utf8) }

    struct Parser {
        let b: UnsafeBufferPointer<UInt8>
        var i: Int
        /// Line breaks passed.
        var lines = 0
        var duplicate = false
        /// Where the blank space the bytes ended in started (and the line breaks before it), when they did.
        var blank: Int?, blankLines = 0

        init(_ b: UnsafeBufferPointer<UInt8>, from i: Int) { self.b = b; self.i = i }

        @inline(__always) mutating func space() throws {
            let start = i, startLines = lines
            while true {
                guard i < b.count else { blank = start; blankLines = startLines; throw NeedMore() }
                switch b[i] {
                case 0x20, 0x09, 0x0D: i += 1
                case 0x0A: lines += 1; i += 1
                default: return
                }
            }
        }

        /// The next byte after whitespace, not taken.
        @inline(__always) mutating func next() throws -> UInt8 { try space(); return b[i] }

        @inline(__always) mutating func take(_ c: UInt8) throws -> Bool {
            if try next() == c { i += 1; return true }
            return false
        }

        @inline(__always) mutating func expect(_ c: UInt8) throws { guard try take(c) else { throw Unreadable() } }

        /// The bytes of the string that starts here, unescaped (nil `unescaped`: they are the file's own bytes).
        /// Text that is not UTF-8 or has a lone surrogate is nil: refused where text is read, passed over elsewhere.
        mutating func string() throws -> (start: Int, end: Int, unescaped: [UInt8]?)? {
            guard try next() == UInt8(ascii: "\"") else { throw Unreadable() }
            i += 1
            let start = i
            var ascii = true
            while true {
                guard i < b.count else { throw NeedMore() }
                let c = b[i]
                if c == UInt8(ascii: "\"") { break }
                if c == UInt8(ascii: "\\") { return try escapedString(from: start) }
                if c < 0x20 { throw Unreadable() }
                if c >= 0x80 { ascii = false }
                i += 1
            }
            let end = i
            i += 1
            if !ascii, String(validating: UnsafeBufferPointer(rebasing: b[start..<end]), as: UTF8.self) == nil { return nil }
            return (start, end, nil)
        }

        /// The rest of a string with escapes, from its first byte `start`.
        mutating func escapedString(from start: Int) throws -> (start: Int, end: Int, unescaped: [UInt8]?)? {
            var out = Array(b[start..<i])
            var valid = true
            while true {
                guard i < b.count else { throw NeedMore() }
                let c = b[i]
                if c == UInt8(ascii: "\"") { i += 1; break }
                if c < 0x20 { throw Unreadable() }
                guard c == UInt8(ascii: "\\") else { out.append(c); i += 1; continue }
                guard i + 1 < b.count else { throw NeedMore() }
                let e = b[i + 1]
                i += 2
                switch e {
                case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): out.append(e)
                case UInt8(ascii: "b"): out.append(0x08)
                case UInt8(ascii: "f"): out.append(0x0C)
                case UInt8(ascii: "n"): out.append(0x0A)
                case UInt8(ascii: "r"): out.append(0x0D)
                case UInt8(ascii: "t"): out.append(0x09)
                case UInt8(ascii: "u"):
                    var unit = try hex4()
                    var scalar: Unicode.Scalar?
                    if (0xD800...0xDBFF).contains(unit) {
                        // A high surrogate must be followed by an escaped low one.
                        guard i + 1 < b.count else { throw NeedMore() }
                        if b[i] == UInt8(ascii: "\\"), b[i + 1] == UInt8(ascii: "u") {
                            i += 2
                            let low = try hex4()
                            if (0xDC00...0xDFFF).contains(low) {
                                scalar = Unicode.Scalar(0x10000 + ((unit - 0xD800) << 10) + (low - 0xDC00))
                            } else { valid = false; unit = low }
                        } else { valid = false }
                    } else {
                        scalar = Unicode.Scalar(unit)  // nil for a lone low surrogate
                    }
                    if let scalar { out.append(contentsOf: Array(String(Character(scalar)).utf8)) } else { valid = false }
                default: throw Unreadable()
                }
            }
            guard valid, String(validating: out, as: UTF8.self) != nil else { return nil }
            return (start, i - 1, out)
        }

        mutating func hex4() throws -> UInt32 {
            guard i + 4 <= b.count else { throw NeedMore() }
            var v: UInt32 = 0
            for k in 0..<4 {
                let c = b[i + k]
                let d: UInt8
                switch c {
                case 0x30...0x39: d = c - 0x30
                case 0x41...0x46: d = c - 0x41 + 10
                case 0x61...0x66: d = c - 0x61 + 10
                default: throw Unreadable()
                }
                v = v << 4 | UInt32(d)
            }
            i += 4
            return v
        }

        /// A JSON string's value as text (one that is not UTF-8 or has a lone surrogate is refused).
        mutating func text() throws -> String {
            _ = try next()
            let m = mark
            guard let s = try string() else { try refuse(m) }
            return s.unescaped.map { String(decoding: $0, as: UTF8.self) } ?? String(decoding: UnsafeBufferPointer(rebasing: b[s.start..<s.end]), as: UTF8.self)
        }

        /// A string's text, nil for text that is not UTF-8 and for any other value, which is passed over (the
        /// document's `format` and `namespace`: not one petlog knows).
        mutating func textElseSkip() throws -> String? {
            guard try next() == UInt8(ascii: "\"") else { try skip(); return nil }
            guard let s = try string() else { return nil }
            return s.unescaped.map { String(decoding: $0, as: UTF8.self) } ?? String(decoding: UnsafeBufferPointer(rebasing: b[s.start..<s.end]), as: UTF8.self)
        }

        /// A number's bytes as JSON writes one; whether it is a plain integer.
        mutating func number() throws -> (start: Int, end: Int, integer: Bool) {
            _ = try next()
            let start = i
            var integer = true
            func digits() throws -> Int {
                let from = i
                while true {
                    guard i < b.count else { throw NeedMore() }
                    guard (0x30...0x39).contains(b[i]) else { return i - from }
                    i += 1
                }
            }
            guard i < b.count else { throw NeedMore() }
            if b[i] == UInt8(ascii: "-") { i += 1 }
            guard i < b.count else { throw NeedMore() }
            let first = i
            guard try digits() > 0, b[first] != 0x30 || i - first == 1 else { throw Unreadable() }
            if b[i] == UInt8(ascii: ".") {
                integer = false
                i += 1
                guard try digits() > 0 else { throw Unreadable() }
            }
            if b[i] == UInt8(ascii: "e") || b[i] == UInt8(ascii: "E") {
                integer = false
                i += 1
                guard i < b.count else { throw NeedMore() }
                if b[i] == UInt8(ascii: "+") || b[i] == UInt8(ascii: "-") { i += 1 }
                guard try digits() > 0 else { throw Unreadable() }
            }
            try delimited()
            return (start, i, integer)
        }

        /// The literal or number just read ends here (not `nullx`, `12a`).
        @inline(__always) func delimited() throws {
            guard i < b.count else { throw NeedMore() }
            switch b[i] {
            case 0x20, 0x0A, 0x0D, 0x09, UInt8(ascii: ","), UInt8(ascii: "}"), UInt8(ascii: "]"): return
            default: throw Unreadable()
            }
        }

        /// `true`, `false` or `null` (nil: none of them here).
        mutating func literal() throws -> Bool?? {
            let c = try next()
            func word(_ w: StaticString) throws -> Bool {
                let n = w.utf8CodeUnitCount
                guard i + n <= b.count else { throw NeedMore() }
                for k in 0..<n where b[i + k] != w.utf8Start[k] { return false }
                i += n
                try delimited()
                return true
            }
            switch c {
            case UInt8(ascii: "t"): guard try word("true") else { throw Unreadable() }; return .some(true)
            case UInt8(ascii: "f"): guard try word("false") else { throw Unreadable() }; return .some(false)
            case UInt8(ascii: "n"): guard try word("null") else { throw Unreadable() }; return .some(nil)
            default: return nil
            }
        }

        @inline(__always) mutating func null() throws -> Bool {
            guard try next() == UInt8(ascii: "n") else { return false }
            guard case .some(.none) = try literal() else { throw Unreadable() }
            return true
        }

        /// Skips any value, checking it is JSON (its text and numbers are not judged: the decoder never reads them).
        mutating func skip(depth: Int = 0) throws {
            guard depth < JSONScanner.maximumDepth else { throw Unreadable() }
            switch try next() {
            case UInt8(ascii: "\""): _ = try string()
            case UInt8(ascii: "{"):
                i += 1
                if try take(UInt8(ascii: "}")) { return }
                repeat {
                    _ = try string()
                    try expect(UInt8(ascii: ":"))
                    try skip(depth: depth + 1)
                } while try take(UInt8(ascii: ","))
                try expect(UInt8(ascii: "}"))
            case UInt8(ascii: "["):
                i += 1
                if try take(UInt8(ascii: "]")) { return }
                repeat { try skip(depth: depth + 1) } while try take(UInt8(ascii: ","))
                try expect(UInt8(ascii: "]"))
            case UInt8(ascii: "t"), UInt8(ascii: "f"), UInt8(ascii: "n"): _ = try literal()
            default: _ = try number()
            }
        }

        /// Which of `keys` the key string that starts here is, escaped or not (nil: another).
        mutating func key(_ keys: [[UInt8]]) throws -> Int? {
            guard let s = try string() else { return nil }
            if let u = s.unescaped { return keys.firstIndex(of: u) }
            let n = s.end - s.start
            for (k, key) in keys.enumerated() where key.count == n {
                var same = true
                for j in 0..<n where key[j] != b[s.start + j] { same = false; break }
                if same { return k }
            }
            return nil
        }

        /// Marks key `k` seen; a second time is a duplicate.
        @inline(__always) mutating func see(_ k: Int, _ seen: inout UInt64) {
            if seen & (1 << UInt64(k)) != 0 { duplicate = true }
            seen |= 1 << UInt64(k)
        }

        /// Where the parser is (the byte and the line breaks passed), to refuse a value where it starts.
        var mark: (i: Int, lines: Int) { (i, lines) }

        /// Refuses the value that starts at `m`: a type its key does not take (the scanner names the place).
        mutating func refuse(_ m: (i: Int, lines: Int)) throws -> Never {
            (i, lines) = m
            throw Unreadable()
        }

        // Values of one type, or null (nil); another type is refused where it starts.

        mutating func optionalInt() throws -> Int64? {
            let c = try next(), m = mark
            switch c {
            case UInt8(ascii: "n"): _ = try literal(); return nil
            case UInt8(ascii: "-"), 0x30...0x39:
                let n = try number()
                guard let v = n.integer ? Self.int64(b, n.start, n.end) : Self.exactInteger(b, n.start, n.end) else { try refuse(m) }
                return v
            default: try refuse(m)
            }
        }

        static func int64(_ b: UnsafeBufferPointer<UInt8>, _ start: Int, _ end: Int) -> Int64? {
            var k = start
            let negative = b[k] == UInt8(ascii: "-")
            if negative { k += 1 }
            var v: Int64 = 0
            while k < end {
                let (m, o1) = v.multipliedReportingOverflow(by: 10)
                let d = Int64(b[k] - 0x30)
                let (s, o2) = negative ? m.subtractingReportingOverflow(d) : m.addingReportingOverflow(d)
                if o1 || o2 { return nil }
                v = s
                k += 1
            }
            return v
        }

        /// The integer a number with a fraction or an exponent is exactly (`4.2e3`, `1.0`, `-0.0`, as the
        /// JSONDecoder took them); nil when it is not an integer or needs more than 64 bits.
        static func exactInteger(_ b: UnsafeBufferPointer<UInt8>, _ start: Int, _ end: Int) -> Int64? {
            var k = start, exponent = 0, fraction = false
            let negative = b[k] == UInt8(ascii: "-")
            if negative { k += 1 }
            var digits: [UInt8] = []
            while k < end, b[k] | 0x20 != UInt8(ascii: "e") {
                if b[k] == UInt8(ascii: ".") { fraction = true } else { digits.append(b[k] - 0x30); if fraction { exponent -= 1 } }
                k += 1
            }
            if k < end {  // the exponent, its sign, its digits (held below a million: any more is out of range anyway)
                k += 1
                let sign = b[k] == UInt8(ascii: "-") ? -1 : 1
                if b[k] == UInt8(ascii: "-") || b[k] == UInt8(ascii: "+") { k += 1 }
                var e = 0
                while k < end { e = min(e * 10 + Int(b[k] - 0x30), 1_000_000); k += 1 }
                exponent += sign * e
            }
            while digits.first == 0 { digits.removeFirst() }
            while digits.last == 0 { digits.removeLast(); exponent += 1 }
            guard exponent >= 0 || digits.isEmpty, digits.count + exponent <= 19 else { return nil }
            var v: Int64 = 0
            for d in digits + [UInt8](repeating: 0, count: digits.isEmpty ? 0 : exponent) {
                let (m, o1) = v.multipliedReportingOverflow(by: 10)
                let (s, o2) = negative ? m.subtractingReportingOverflow(Int64(d)) : m.addingReportingOverflow(Int64(d))
                if o1 || o2 { return nil }
                v = s
            }
            return v
        }

        mutating func optionalText() throws -> String? {
            let c = try next(), m = mark
            switch c {
            case UInt8(ascii: "n"): _ = try literal(); return nil
            case UInt8(ascii: "\""): return try text()
            default: try refuse(m)
            }
        }

        mutating func optionalBool() throws -> Bool? {
            let c = try next(), m = mark
            guard c == UInt8(ascii: "n") || c == UInt8(ascii: "t") || c == UInt8(ascii: "f"), let value = try literal() else { try refuse(m) }
            return value
        }

        mutating func optionalNumber() throws -> Double? {
            let c = try next(), m = mark
            switch c {
            case UInt8(ascii: "n"): _ = try literal(); return nil
            case UInt8(ascii: "-"), 0x30...0x39:
                let n = try number()
                guard let v = Double(String(decoding: UnsafeBufferPointer(rebasing: b[n.start..<n.end]), as: UTF8.self)), v.isFinite else { try refuse(m) }
                return v
            default: try refuse(m)
            }
        }

        /// The array that starts here or null (nil), each element read by `element`.
        mutating func optionalArray<T>(_ element: (inout Parser) throws -> T) throws -> [T]? {
            if try null() { return nil }
            guard try take(UInt8(ascii: "[")) else { try refuse(mark) }
            var out: [T] = []
            if try take(UInt8(ascii: "]")) { return out }
            repeat { out.append(try element(&self)) } while try take(UInt8(ascii: ","))
            try expect(UInt8(ascii: "]"))
            return out
        }

        /// The object that starts here or null (false), each member's key index in `keys` (nil: another
        /// key) and value read by `member`; a key twice is a duplicate.
        mutating func optionalObject(_ keys: [[UInt8]], _ member: (inout Parser, Int?) throws -> Void) throws -> Bool {
            if try null() { return false }
            guard try take(UInt8(ascii: "{")) else { try refuse(mark) }
            var seen: UInt64 = 0
            if try take(UInt8(ascii: "}")) { return true }
            repeat {
                let k = try key(keys)
                try expect(UInt8(ascii: ":"))
                if let k { see(k, &seen) }
                try member(&self, k)
            } while try take(UInt8(ascii: ","))
            try expect(UInt8(ascii: "}"))
            return true
        }

        /// A list of strings or null (a null in it is refused).
        mutating func optionalList() throws -> [String]? {
            try optionalArray { p in
                _ = try p.next()
                let m = p.mark
                guard let s = try p.optionalText() else { try p.refuse(m) }
                return s
            }
        }

        /// The export's money object or null.
        mutating func optionalMoney() throws -> Value {
            var minor: Int64?, currency: String?
            let present = try optionalObject(JSONRecordReading.moneyKeys) { p, k in
                switch k {
                case 0?: minor = try p.optionalInt()
                case 1?: currency = try p.optionalText()
                case 2?: _ = try p.optionalText()
                default: try p.skip()
                }
            }
            return present ? .money(minor: minor, currency: currency) : .null
        }

        /// An object of two strings (keys `first` and `second`, either null or left out) or null (nil).
        mutating func optionalPair(_ first: String, _ second: String) throws -> (String?, String?)? {
            var a: String?, b: String?
            let present = try optionalObject([Array(first.utf8), Array(second.utf8)]) { p, k in
                switch k {
                case 0?: a = try p.optionalText()
                case 1?: b = try p.optionalText()
                default: try p.skip()
                }
            }
            return present ? (a, b) : nil
        }

        /// The attachments list or null (each with its four keys, none null), numbered in the list's order.
        mutating func attachments() throws -> [Attachment]? {
            var position = 0
            return try optionalArray { p in
                _ = try p.next()
                let m = p.mark
                var sha: String?, name: String?, media: String?, size: Int64?
                let present = try p.optionalObject(JSONRecordReading.attachmentKeys) { p, k in
                    switch k {
                    case 0?: sha = try p.optionalText()
                    case 1?: name = try p.optionalText()
                    case 2?: media = try p.optionalText()
                    case 3?: size = try p.optionalInt()
                    default: try p.skip()
                    }
                }
                guard present, let sha, let name, let media, let size else { try p.refuse(m) }
                position += 1
                return Attachment(sha256: sha, originalName: name, mediaType: media, size: size, position: position - 1)
            }
        }

        /// The detail object of kind `index` here, or null (nil).
        mutating func detail(index: Int) throws -> [Value]? {
            try members(JSONRecordReading.detailForms[index], JSONRecordReading.detailKeys[index])
        }

        /// The object here read by its members (`fields`, their keys' bytes `keys`), the values by position; nil for null.
        mutating func members(_ fields: [RecordKindTable.JSONRead], _ keys: [[UInt8]]) throws -> [Value]? {
            var values = [Value](repeating: .absent, count: fields.count)
            let present = try optionalObject(keys) { p, k in
                guard let k, !values[k].isSet else { try p.skip(); return }  // another key, or a duplicate (refused anyway)
                switch fields[k].form {
                case .text: values[k] = try p.optionalText().map(Value.text) ?? .null
                case .integer: values[k] = try p.optionalInt().map(Value.int) ?? .null
                case .boolean: values[k] = try p.optionalBool().map(Value.bool) ?? .null
                case .number: values[k] = try p.optionalNumber().map(Value.number) ?? .null
                case .codes, .items, .lines: values[k] = try p.optionalList().map(Value.list) ?? .null
                case .money: values[k] = try p.optionalMoney()
                case .pair(_, let a, let b): values[k] = try p.optionalPair(a, b).map { Value.pair($0.0, $0.1) } ?? .null
                case .pairs(_, let a, let b):
                    values[k] = try p.optionalArray { p in
                        _ = try p.next()
                        let m = p.mark
                        guard let pair = try p.optionalPair(a, b) else { try p.refuse(m) }
                        return pair
                    }.map(Value.pairs) ?? .null
                case .integerOrText:
                    if try p.next() == UInt8(ascii: "\"") { values[k] = try p.optionalText().map(Value.text) ?? .null } else {
                        values[k] = try p.optionalInt().map(Value.int) ?? .null
                    }
                }
            }
            return present ? values : nil
        }

        /// Whether the key string at `keyStart` (read before) is `name`, escaped or not.
        func key(at keyStart: Int, is name: [UInt8]) throws -> Bool {
            var p = Parser(b, from: keyStart)
            guard let s = try p.string() else { return false }
            return s.unescaped.map { $0 == name } ?? name.elementsEqual(b[s.start..<s.end])
        }

        /// The record object that starts here.
        mutating func record() throws -> Parsed {
            _ = try next()
            guard try take(UInt8(ascii: "{")) else { try refuse(mark) }
            var r = Parsed()
            var seen: UInt64 = 0
            // Keys that may be the detail's, kept until the kind is known: where each key and its value start.
            var others: [(key: Int, value: Int, lines: Int)] = []
            if !(try take(UInt8(ascii: "}"))) {
                repeat {
                    let keyStart = i
                    let k = try key(JSONRecordReading.keys)
                    try expect(UInt8(ascii: ":"))
                    if let k { see(k, &seen) }
                    let c = try next(), m = mark
                    switch k {
                    case 0?:  // at
                        if c == UInt8(ascii: "\""), let s = try string() {
                            if let u = s.unescaped { r.at = String(decoding: u, as: UTF8.self) } else { r.atBytes = Array(b[s.start..<s.end]) }
                        } else if try !null() { try refuse(m) }
                    case 1?: r.attachments = try attachments()
                    case 2?: r.id = try optionalInt()
                    case 3?:
                        if c == UInt8(ascii: "\""), let s = try string(), s.unescaped == nil,
                           let k = JSONRecordReading.kindNames.firstIndex(where: { $0.elementsEqual(b[s.start..<s.end]) }) {
                            r.kind = RecordKind.allCases[k]; r.kindIndex = k
                            break
                        }
                        (i, lines) = m  // escaped, another kind or another type: read again as text
                        guard let t = try optionalText() else { break }
                        if let k = RecordKind.allCases.firstIndex(where: { $0.rawValue == t }) {
                            r.kind = RecordKind.allCases[k]; r.kindIndex = k
                        } else { r.kindText = t }
                    case 4?: r.note = try optionalText()
                    case 5?: _ = try optionalText()  // the pet's name, for people: checked as text, not kept
                    case 6?: r.petId = try optionalInt()
                    case 7?: r.starred = try optionalBool()
                    case 8?: _ = try optionalInt()  // `at`'s offset again, for other readers
                    case 9?: r.createdAt = try optionalText()
                    case 10?: r.updatedAt = try optionalText()
                    default:
                        if let index = r.kindIndex, try key(at: keyStart, is: JSONRecordReading.kindNames[index]) {
                            // The kind came first (as the export writes a weight): its object is read now.
                            if r.sawDetail { duplicate = true }
                            r.sawDetail = true
                            r.detail = try detail(index: index)
                        } else {
                            others.append((keyStart, i, lines))
                            try skip()
                        }
                    }
                } while try take(UInt8(ascii: ","))
                try expect(UInt8(ascii: "}"))
            }
            if let index = r.kindIndex {
                let matches = try others.filter { try key(at: $0.key, is: JSONRecordReading.kindNames[index]) }
                if matches.count + (r.sawDetail ? 1 : 0) > 1 { duplicate = true }
                if let m = matches.first, !duplicate {
                    let end = i, endLines = lines
                    (i, lines) = (m.value, m.lines)
                    r.detail = try detail(index: index)
                    (i, lines) = (end, endLines)
                }
            }
            if duplicate { throw DuplicateKey() }
            return r
        }
    }

    /// Reads the record that starts at `from` in `bytes`: the record, where it ended and the line breaks passed.
    static func read(_ bytes: UnsafeBufferPointer<UInt8>, from: Int) throws -> (Parsed, end: Int, lines: Int) {
        var p = Parser(bytes, from: from)
        let r = try p.record()
        return (r, p.i, p.lines)
    }
}

extension JSONRecordReading.Value {
    var isSet: Bool { if case .absent = self { return false } else { return true } }
}
