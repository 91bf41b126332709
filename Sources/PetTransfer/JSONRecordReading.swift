import Foundation
import PetModel
import PetStoreCore

/// A record of a petlog JSON file read straight from its bytes, every kind alike: the shared keys, the
/// attachments, and the detail object of the record's kind read by its descriptor's key list
/// (`RecordKindTable.jsonRead`), so a new kind is read here as soon as its descriptor says how.
///
/// It reads what Foundation's JSONDecoder reads, the same way, or leaves the record to it: any value of
/// a shape it does not take on itself (a number with a fraction or an exponent for an integer, an
/// integer beyond 64 bits, a lone surrogate, text that is not UTF-8, a missing attachment key, JSON it
/// cannot follow) makes the record `decoder`, and the caller decodes those bytes with the JSONDecoder
/// as before, so every message and every accepted file stays what it was. One thing it refuses where the
/// decoder would take the first: a key given twice in a record or in one of its objects (`duplicateKey`),
/// since JSON leaves its meaning open (the document's own keys were already refused so).
enum JSONRecordReading {
    /// The bytes ran out before the record's end: read on and start again.
    struct NeedMore: Error {}
    /// Not JSON this reader follows: the caller takes the record as before.
    struct Unreadable: Error {}

    enum Outcome {
        case parsed(Parsed)
        /// Well-formed as far as read, but a value for the JSONDecoder to judge.
        case decoder
        case duplicateKey
    }

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
        var attachments: [ExportedAttachment]?
        var sawAttachments = false
        var kindIndex: Int?
        /// The detail's key was met after the kind and read then.
        var sawDetail = false
        /// The detail object's values by `jsonRead` index; nil when the record has no detail (absent or null).
        var detail: [Value]?

        /// The shared columns by database name, as `ExportedRecord.fields` gives them.
        func fields(_ location: SourceLocation) -> Fields {
            var f = FieldValues()
            f.put("id", id); f.put("pet_id", petId); f.put("kind", kindText ?? kind?.rawValue)
            f.put("at", at ?? atBytes.map { String(decoding: $0, as: UTF8.self) }); f.put("note", note); f.put("starred", starred)
            f.put("created_at", createdAt); f.put("updated_at", updatedAt)
            return Fields(values: f.values, location: location)
        }

        /// The detail's columns, as `ExportedRecord.detailFields` gives them.
        func detailFields(_ location: SourceLocation) -> Fields? {
            guard let detail, kind != nil else { return nil }
            var f = FieldValues()
            for (field, v) in zip(JSONRecordReading.detailForms[kindIndex ?? 0], detail) {
                switch (field.form, v) {
                case (_, .absent), (_, .null): break
                case (.text(let c), .text(let s)), (.integerOrText(let c), .text(let s)): f.put(c, s)
                case (.integer(let c), .int(let n)), (.integerOrText(let c), .int(let n)): f.put(c, n)
                case (.boolean(let c), .bool(let b)): f.put(c, b)
                case (.number(let c), .number(let x)): f.put(c, x)
                case (.codes(let c), .list(let l)): if !l.isEmpty { f.put(c, l.joined(separator: ",")) }
                case (.items(let c), .list(let l)): if !l.isEmpty { f.put(c, l.joined(separator: "\u{1F}")) }
                case (.money(let minor, let currency), .money(let m, let code)): f.put(minor, m); f.put(currency, code)
                default: break  // not made by the parser
                }
            }
            return Fields(values: f.values, location: location)
        }
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
        /// A value the JSONDecoder must judge was met.
        var forDecoder = false
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

        /// The bytes of the string that starts here, unescaped; `plain` when they are the file's own bytes.
        /// Text that is not UTF-8 or an escape JSON lacks is for the decoder (nil).
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
            if !ascii, String(validating: UnsafeBufferPointer(rebasing: b[start..<end]), as: UTF8.self) == nil { forDecoder = true; return nil }
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
            guard valid, String(validating: out, as: UTF8.self) != nil else { forDecoder = true; return nil }
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

        /// A JSON string's value as text, nil when it is for the decoder.
        mutating func text() throws -> String? {
            guard let s = try string() else { return nil }
            if let u = s.unescaped { return String(decoding: u, as: UTF8.self) }
            return String(decoding: UnsafeBufferPointer(rebasing: b[s.start..<s.end]), as: UTF8.self)
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

        /// Which of `keys` the key string that starts here is (nil: another, or one with an escape, which the
        /// decoder then matches: `forDecoder`).
        mutating func key(_ keys: [[UInt8]]) throws -> Int? {
            guard let s = try string() else { return nil }
            if s.unescaped != nil { forDecoder = true; return nil }
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

        // Values of one type, or null; another type is the decoder's to refuse.

        mutating func optionalInt() throws -> Int64?? {
            switch try next() {
            case UInt8(ascii: "n"): _ = try literal(); return .some(nil)
            case UInt8(ascii: "-"), 0x30...0x39:
                let n = try number()
                guard n.integer, let v = Self.int64(b, n.start, n.end) else { forDecoder = true; return nil }
                return .some(v)
            default: try skip(); forDecoder = true; return nil
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

        mutating func optionalText() throws -> String?? {
            switch try next() {
            case UInt8(ascii: "n"): _ = try literal(); return .some(nil)
            case UInt8(ascii: "\""):
                guard let s = try text() else { return nil }
                return .some(s)
            default: try skip(); forDecoder = true; return nil
            }
        }

        mutating func optionalBool() throws -> Bool?? {
            switch try next() {
            case UInt8(ascii: "n"), UInt8(ascii: "t"), UInt8(ascii: "f"):
                guard let value = try literal() else { throw Unreadable() }
                return .some(value)
            default: try skip(); forDecoder = true; return nil
            }
        }

        mutating func optionalNumber() throws -> Double?? {
            switch try next() {
            case UInt8(ascii: "n"): _ = try literal(); return .some(nil)
            case UInt8(ascii: "-"), 0x30...0x39:
                let n = try number()
                guard let v = Double(String(decoding: UnsafeBufferPointer(rebasing: b[n.start..<n.end]), as: UTF8.self)), v.isFinite else {
                    forDecoder = true; return nil
                }
                return .some(v)
            default: try skip(); forDecoder = true; return nil
            }
        }

        /// A list of strings or null.
        mutating func optionalList() throws -> [String]?? {
            if try null() { return .some(nil) }
            guard try next() == UInt8(ascii: "[") else { try skip(); forDecoder = true; return nil }
            i += 1
            var out: [String] = []
            if try take(UInt8(ascii: "]")) { return .some(out) }
            var ok = true
            repeat {
                if case let s?? = try optionalText() { out.append(s) } else { ok = false }
            } while try take(UInt8(ascii: ","))
            try expect(UInt8(ascii: "]"))
            if !ok { forDecoder = true; return nil }
            return .some(out)
        }

        /// The export's money object or null.
        mutating func optionalMoney() throws -> Value? {
            if try null() { return .null }
            guard try next() == UInt8(ascii: "{") else { try skip(); forDecoder = true; return nil }
            i += 1
            var minor: Int64?, currency: String?
            var seen: UInt64 = 0
            var ok = true
            if !(try take(UInt8(ascii: "}"))) {
                repeat {
                    let k = try key(JSONRecordReading.moneyKeys)
                    try expect(UInt8(ascii: ":"))
                    switch k {
                    case 0?: see(0, &seen); if case let v? = try optionalInt() { minor = v } else { ok = false }
                    case 1?: see(1, &seen); if case let v? = try optionalText() { currency = v } else { ok = false }
                    case 2?: see(2, &seen); if case .none = try optionalText() { ok = false }
                    default: try skip()
                    }
                } while try take(UInt8(ascii: ","))
                try expect(UInt8(ascii: "}"))
            }
            return ok ? .money(minor: minor, currency: currency) : nil
        }

        /// The attachments list or null (each with its four keys, required).
        mutating func attachments() throws -> [ExportedAttachment]?? {
            if try null() { return .some(nil) }
            guard try next() == UInt8(ascii: "[") else { try skip(); forDecoder = true; return nil }
            i += 1
            var out: [ExportedAttachment] = []
            if try take(UInt8(ascii: "]")) { return .some(out) }
            var ok = true
            repeat {
                guard try next() == UInt8(ascii: "{") else { try skip(); ok = false; continue }
                i += 1
                var sha: String?, name: String?, media: String?, size: Int64?
                var seen: UInt64 = 0
                if !(try take(UInt8(ascii: "}"))) {
                    repeat {
                        let k = try key(JSONRecordReading.attachmentKeys)
                        try expect(UInt8(ascii: ":"))
                        switch k {
                        case 0?: see(0, &seen); sha = try optionalText() ?? nil
                        case 1?: see(1, &seen); name = try optionalText() ?? nil
                        case 2?: see(2, &seen); media = try optionalText() ?? nil
                        case 3?: see(3, &seen); size = try optionalInt() ?? nil
                        default: try skip()
                        }
                    } while try take(UInt8(ascii: ","))
                    try expect(UInt8(ascii: "}"))
                }
                if let sha, let name, let media, let size {
                    out.append(ExportedAttachment(sha256: sha, name: name, mediaType: media, size: size))
                } else { ok = false }  // a missing or null key: the decoder's error
            } while try take(UInt8(ascii: ","))
            try expect(UInt8(ascii: "]"))
            if !ok { forDecoder = true; return nil }
            return .some(out)
        }

        /// The detail object of `kind` here, or null (nil).
        mutating func detail(_ kind: RecordKind, index: Int) throws -> [Value]? {
            if try null() { return nil }
            guard try next() == UInt8(ascii: "{") else { try skip(); forDecoder = true; return nil }
            i += 1
            let fields = JSONRecordReading.detailForms[index]
            var values = [Value](repeating: .absent, count: fields.count)
            var seen: UInt64 = 0
            if !(try take(UInt8(ascii: "}"))) {
                repeat {
                    let k = try key(JSONRecordReading.detailKeys[index])
                    try expect(UInt8(ascii: ":"))
                    guard let k else { try skip(); continue }
                    see(k, &seen)
                    if values[k].isSet { try skip(); continue }  // a duplicate, refused anyway
                    switch fields[k].form {
                    case .text: if case let v? = try optionalText() { values[k] = v.map(Value.text) ?? .null }
                    case .integer: if case let v? = try optionalInt() { values[k] = v.map(Value.int) ?? .null }
                    case .boolean: if case let v? = try optionalBool() { values[k] = v.map(Value.bool) ?? .null }
                    case .number: if case let v? = try optionalNumber() { values[k] = v.map(Value.number) ?? .null }
                    case .codes, .items: if case let v? = try optionalList() { values[k] = v.map(Value.list) ?? .null }
                    case .money: if let v = try optionalMoney() { values[k] = v }
                    case .integerOrText:
                        if try next() == UInt8(ascii: "\"") {
                            if case let v? = try optionalText() { values[k] = v.map(Value.text) ?? .null }
                        } else if case let v? = try optionalInt() { values[k] = v.map(Value.int) ?? .null }
                    }
                } while try take(UInt8(ascii: ","))
                try expect(UInt8(ascii: "}"))
            }
            return values
        }

        /// The record object that starts here.
        mutating func record() throws -> Outcome {
            guard try take(UInt8(ascii: "{")) else { throw Unreadable() }
            var r = Parsed()
            var seen: UInt64 = 0
            // Keys that may be the detail's, kept until the kind is known: where each value starts.
            var others: [(start: Int, end: Int, value: Int, lines: Int)] = []
            if !(try take(UInt8(ascii: "}"))) {
                repeat {
                    let keyStart = i
                    let k = try key(JSONRecordReading.keys)
                    try expect(UInt8(ascii: ":"))
                    if let k { see(k, &seen) }
                    switch k {
                    case 0?:  // at
                        if try next() == UInt8(ascii: "\"") {
                            if let s = try string() {
                                if let u = s.unescaped { r.at = String(decoding: u, as: UTF8.self) } else { r.atBytes = Array(b[s.start..<s.end]) }
                            }
                        } else if try !null() { try skip(); forDecoder = true }
                    case 1?: r.sawAttachments = true; if case let v?? = try attachments() { r.attachments = v }
                    case 2?: if case let v?? = try optionalInt() { r.id = v }
                    case 3?:
                        switch try next() {
                        case UInt8(ascii: "\""):
                            guard let s = try string() else { break }
                            if s.unescaped == nil, let k = JSONRecordReading.kindNames.firstIndex(where: { $0.elementsEqual(b[s.start..<s.end]) }) {
                                r.kind = RecordKind.allCases[k]; r.kindIndex = k
                            } else {
                                let t = s.unescaped.map { String(decoding: $0, as: UTF8.self) } ?? String(decoding: UnsafeBufferPointer(rebasing: b[s.start..<s.end]), as: UTF8.self)
                                if let k = RecordKind.allCases.firstIndex(where: { $0.rawValue == t }) {
                                    r.kind = RecordKind.allCases[k]; r.kindIndex = k
                                } else { r.kindText = t }
                            }
                        default: if try !null() { try skip(); forDecoder = true }
                        }
                    case 4?: if case let v?? = try optionalText() { r.note = v }
                    case 5?: _ = try optionalText()  // the pet's name, for people: checked as text, not kept
                    case 6?: if case let v?? = try optionalInt() { r.petId = v }
                    case 7?: if case let v?? = try optionalBool() { r.starred = v }
                    case 8?: _ = try optionalInt()  // `at`'s offset again, for other readers
                    case 9?: if case let v?? = try optionalText() { r.createdAt = v }
                    case 10?: if case let v?? = try optionalText() { r.updatedAt = v }
                    default:
                        // The key's own bytes (without quotes) when plain; a key with an escape went to the decoder.
                        var p = Parser(b, from: keyStart)
                        guard let ks = try p.string(), ks.unescaped == nil else { try skip(); break }
                        if let kind = r.kind, let index = r.kindIndex, JSONRecordReading.kindNames[index].elementsEqual(b[ks.start..<ks.end]) {
                            // The kind came first (as the export writes a weight): its object is read now.
                            if r.sawDetail { duplicate = true }
                            r.sawDetail = true
                            r.detail = try detail(kind, index: index)
                        } else {
                            _ = try next()
                            others.append((ks.start, ks.end, i, lines))
                            try skip()
                        }
                    }
                } while try take(UInt8(ascii: ","))
                try expect(UInt8(ascii: "}"))
            }
            if duplicate { return .duplicateKey }
            if let kind = r.kind, let index = r.kindIndex {
                let name = JSONRecordReading.kindNames[index]
                let matches = others.filter { name.elementsEqual(b[$0.start..<$0.end]) }
                if matches.count + (r.sawDetail ? 1 : 0) > 1 { return .duplicateKey }
                if let m = matches.first {
                    let end = i, endLines = lines
                    i = m.value; lines = m.lines
                    r.detail = try detail(kind, index: index)
                    i = end; lines = endLines
                    if duplicate { return .duplicateKey }
                }
            }
            return forDecoder ? .decoder : .parsed(r)
        }
    }

    /// Reads the record that starts at `from` in `bytes`: the outcome, where it ended and the line breaks passed.
    static func read(_ bytes: UnsafeBufferPointer<UInt8>, from: Int) throws -> (Outcome, end: Int, lines: Int) {
        var p = Parser(bytes, from: from)
        do {
            let o = try p.record()
            return (o, p.i, p.lines)
        } catch is Unreadable {
            return (.decoder, from, 0)
        }
    }
}

extension JSONRecordReading.Value {
    var isSet: Bool { if case .absent = self { return false } else { return true } }
}
