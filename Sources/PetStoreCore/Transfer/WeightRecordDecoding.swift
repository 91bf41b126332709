import Foundation

/// A weight record of a petlog JSON file (most of a big household's records) read straight from its
/// bytes into an `ExportedRecord`, without Foundation's JSONDecoder, which was most of an import's
/// time. Only the plain shape is read here: the record's known keys once each, text without escapes,
/// integers without fraction or exponent, no attachments. Anything else (another kind, an escape, an
/// unknown or repeated key, a value of another type) gives nil, and the caller decodes the record with
/// the JSONDecoder as before, so every message and every accepted file stays what it was.
enum WeightRecordDecoding {
    static func decode(_ data: Data) -> ExportedRecord? {
        data.withUnsafeBytes { raw -> ExportedRecord? in
            var p = Parser(bytes: raw.bindMemory(to: UInt8.self))
            return p.record()
        }
    }

    private struct Parser {
        let bytes: UnsafeBufferPointer<UInt8>
        var i = 0

        init(bytes: UnsafeBufferPointer<UInt8>) { self.bytes = bytes }

        mutating func space() {
            while i < bytes.count, bytes[i] == 0x20 || bytes[i] == 0x0A || bytes[i] == 0x0D || bytes[i] == 0x09 { i += 1 }
        }

        mutating func take(_ b: UInt8) -> Bool {
            space()
            guard i < bytes.count, bytes[i] == b else { return false }
            i += 1
            return true
        }

        /// The bytes of a string without escapes or control characters (nil otherwise).
        mutating func rawString() -> UnsafeBufferPointer<UInt8>? {
            space()
            guard i < bytes.count, bytes[i] == UInt8(ascii: "\"") else { return nil }
            let start = i + 1
            var j = start
            while j < bytes.count {
                let b = bytes[j]
                if b == UInt8(ascii: "\"") {
                    i = j + 1
                    return UnsafeBufferPointer(rebasing: bytes[start..<j])
                }
                if b == UInt8(ascii: "\\") || b < 0x20 { return nil }
                j += 1
            }
            return nil
        }

        mutating func null() -> Bool {
            space()
            guard i + 4 <= bytes.count, bytes[i] == 0x6E, bytes[i + 1] == 0x75, bytes[i + 2] == 0x6C, bytes[i + 3] == 0x6C else { return false }
            i += 4
            return delimited()
        }

        /// The literal just read ends here (not `nullx`, `12a`).
        func delimited() -> Bool {
            guard i < bytes.count else { return true }
            switch bytes[i] {
            case 0x20, 0x0A, 0x0D, 0x09, UInt8(ascii: ","), UInt8(ascii: "}"), UInt8(ascii: "]"): return true
            default: return false
            }
        }

        /// A string or null; `.failed` for anything else or text that is not valid UTF-8.
        mutating func optionalString() -> Scalar<String> {
            if null() { return .value(nil) }
            guard let raw = rawString(), let s = String(validating: raw, as: UTF8.self) else { return .failed }
            return .value(s)
        }

        /// An integer (`-?digits`, no leading zeros, in Int64) or null.
        mutating func optionalInt() -> Scalar<Int64> {
            if null() { return .value(nil) }
            space()
            var negative = false
            if i < bytes.count, bytes[i] == UInt8(ascii: "-") { negative = true; i += 1 }
            let start = i
            var v: Int64 = 0
            while i < bytes.count, (0x30...0x39).contains(bytes[i]) {
                let (m, o1) = v.multipliedReportingOverflow(by: 10)
                let (s, o2) = negative ? m.subtractingReportingOverflow(Int64(bytes[i] - 0x30)) : m.addingReportingOverflow(Int64(bytes[i] - 0x30))
                if o1 || o2 { return .failed }
                v = s
                i += 1
            }
            guard i > start, i - start == 1 || bytes[start] != 0x30, delimited() else { return .failed }
            return .value(v)
        }

        mutating func optionalBool() -> Scalar<Bool> {
            if null() { return .value(nil) }
            space()
            if i + 4 <= bytes.count, bytes[i] == 0x74, bytes[i + 1] == 0x72, bytes[i + 2] == 0x75, bytes[i + 3] == 0x65 {
                i += 4
                return delimited() ? .value(true) : .failed
            }
            if i + 5 <= bytes.count, bytes[i] == 0x66, bytes[i + 1] == 0x61, bytes[i + 2] == 0x6C, bytes[i + 3] == 0x73, bytes[i + 4] == 0x65 {
                i += 5
                return delimited() ? .value(false) : .failed
            }
            return .failed
        }

        enum Scalar<T> { case value(T?), failed }

        /// The record's keys, by their index in `keys` (compared as bytes: no string made per key).
        static let keys: [[UInt8]] = ["id", "pet_id", "utc_offset_seconds", "pet", "kind", "at", "note", "starred", "attachments", "weight",
                                      "grams", "body_condition"].map { Array($0.utf8) }

        static func key(_ raw: UnsafeBufferPointer<UInt8>) -> Int? {
            for (i, k) in keys.enumerated() where k.count == raw.count && k.elementsEqual(raw) { return i }
            return nil
        }

        mutating func weight() -> ExportedDetail.Weight?? {
            if null() { return .some(nil) }
            guard take(UInt8(ascii: "{")) else { return nil }
            var w = ExportedDetail.Weight(grams: nil, bodyCondition: nil)
            var seen = (grams: false, bodyCondition: false)
            if take(UInt8(ascii: "}")) { return .some(w) }
            repeat {
                guard let raw = rawString(), let key = Self.key(raw), take(UInt8(ascii: ":")) else { return nil }
                switch key {
                case 10 where !seen.grams:
                    seen.grams = true
                    guard case .value(let v) = optionalInt() else { return nil }
                    w.grams = v
                case 11 where !seen.bodyCondition:
                    seen.bodyCondition = true
                    guard case .value(let v) = optionalInt() else { return nil }
                    w.bodyCondition = v
                default: return nil
                }
            } while take(UInt8(ascii: ","))
            guard take(UInt8(ascii: "}")) else { return nil }
            return .some(w)
        }

        mutating func record() -> ExportedRecord? {
            guard take(UInt8(ascii: "{")) else { return nil }
            var r = ExportedRecord(id: nil, petId: nil, pet: nil, kind: nil, at: nil, utcOffsetSeconds: nil, note: nil, starred: nil, attachments: nil, detail: nil)
            var seen: UInt32 = 0
            var found: ExportedDetail.Weight?
            if !take(UInt8(ascii: "}")) {
                repeat {
                    guard let raw = rawString(), let key = Self.key(raw), seen & (1 << key) == 0, take(UInt8(ascii: ":")) else { return nil }
                    seen |= 1 << key
                    switch key {
                    case 0: guard case .value(let v) = optionalInt() else { return nil }; r.id = v
                    case 1: guard case .value(let v) = optionalInt() else { return nil }; r.petId = v
                    case 2: guard case .value(let v) = optionalInt() else { return nil }; r.utcOffsetSeconds = v
                    case 3: guard case .value(let v) = optionalString() else { return nil }; r.pet = v
                    case 4: guard case .value(let v) = optionalString() else { return nil }; r.kind = v
                    case 5: guard case .value(let v) = optionalString() else { return nil }; r.at = v
                    case 6: guard case .value(let v) = optionalString() else { return nil }; r.note = v
                    case 7: guard case .value(let v) = optionalBool() else { return nil }; r.starred = v
                    case 8:
                        if null() { r.attachments = nil } else {
                            guard take(UInt8(ascii: "[")), take(UInt8(ascii: "]")) else { return nil }
                            r.attachments = []
                        }
                    case 9:
                        guard let w = weight() else { return nil }
                        found = w
                    default: return nil
                    }
                } while take(UInt8(ascii: ","))
                guard take(UInt8(ascii: "}")) else { return nil }
            }
            space()
            guard i == bytes.count, r.kind == "weight" else { return nil }
            r.detail = found.map(ExportedDetail.weight)
            return r
        }
    }
}

extension ExportedRecord {
    init(id: Int64?, petId: Int64?, pet: String?, kind: String?, at: String?, utcOffsetSeconds: Int64?, note: String?, starred: Bool?,
         attachments: [ExportedAttachment]?, detail: ExportedDetail?) {
        self.id = id; self.petId = petId; self.pet = pet; self.kind = kind; self.at = at; self.utcOffsetSeconds = utcOffsetSeconds
        self.note = note; self.starred = starred; self.attachments = attachments; self.detail = detail
    }
}
