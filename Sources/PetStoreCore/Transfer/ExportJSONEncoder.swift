import Foundation

/// The export's encoder: Codable values to JSON bytes as the export has always been written
/// (JSONSerialization with sorted keys and unescaped slashes), straight into bytes. Foundation's
/// JSONEncoder gives the same bytes but builds a tree and makes a dynamic cast per key, which was
/// most of an export's time; this one writes each value where it is encoded. Records and pets are now
/// written by `JSONBytes` (ExportJSONWriting.swift) without Codable; this encoder writes the budgets
/// and is the reference `ExportJSONWritingTests` holds those bytes to.
final class ExportJSONEncoder {
    func encode<T: Encodable>(_ value: T) throws -> [UInt8] {
        let encoder = ByteEncoder(codingPath: [])
        try value.encode(to: encoder)
        var out: [UInt8] = []
        out.reserveCapacity(512)
        encoder.write(into: &out)
        return out
    }
}

/// One value being encoded: an object (members sorted by key when written), an array, or one scalar.
private final class ByteEncoder: Encoder {
    enum Part {
        case bytes([UInt8])
        case nested(ByteEncoder)
    }

    let codingPath: [CodingKey]
    var userInfo: [CodingUserInfoKey: Any] { [:] }
    var members: [(key: String, value: Part)]?
    var elements: [Part]?
    var scalar: [UInt8]?

    init(codingPath: [CodingKey]) { self.codingPath = codingPath }

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        if members == nil { members = [] }
        return KeyedEncodingContainer(KeyedWriter<Key>(encoder: self))
    }

    func unkeyedContainer() -> UnkeyedEncodingContainer {
        if elements == nil { elements = [] }
        return UnkeyedWriter(encoder: self)
    }

    func singleValueContainer() -> SingleValueEncodingContainer { ScalarWriter(encoder: self) }

    func write(into out: inout [UInt8]) {
        if let members {
            out.append(UInt8(ascii: "{"))
            // The export's keys are lower-case ASCII and underscores, where this order is the one
            // JSONSerialization's sorted keys gave; a key encoded twice keeps the order it came in.
            let sorted = members.enumerated().sorted { ($0.element.key, $0.offset) < ($1.element.key, $1.offset) }.map(\.element)
            for (i, m) in sorted.enumerated() {
                if i > 0 { out.append(UInt8(ascii: ",")) }
                JSONText.string(m.key, into: &out)
                out.append(UInt8(ascii: ":"))
                Self.write(m.value, into: &out)
            }
            out.append(UInt8(ascii: "}"))
        } else if let elements {
            out.append(UInt8(ascii: "["))
            for (i, e) in elements.enumerated() {
                if i > 0 { out.append(UInt8(ascii: ",")) }
                Self.write(e, into: &out)
            }
            out.append(UInt8(ascii: "]"))
        } else {
            out.append(contentsOf: scalar ?? Array("{}".utf8))  // an Encodable that encoded nothing is an empty object, as in JSONEncoder
        }
    }

    static func write(_ part: Part, into out: inout [UInt8]) {
        switch part {
        case .bytes(let b): out.append(contentsOf: b)
        case .nested(let e): e.write(into: &out)
        }
    }

    /// A value of a type the containers have no overload for (a struct, an array, an Optional), in a
    /// nested encoder.
    func part<T: Encodable>(_ value: T, at path: [CodingKey]) throws -> Part {
        let nested = ByteEncoder(codingPath: path)
        try value.encode(to: nested)
        return .nested(nested)
    }
}

/// JSON text for the scalars the export holds.
enum JSONText {
    static func string(_ s: String) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(s.utf8.count + 2)
        string(s, into: &out)
        return out
    }

    /// Quoted, with `"`, `\` and control characters escaped as JSONSerialization escapes them. The
    /// runs between escapes are copied whole (most text has none).
    static func string(_ s: String, into out: inout [UInt8]) {
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
    static func number(_ v: Double) throws -> [UInt8] {
        guard v.isFinite else { throw EncodingError.invalidValue(v, EncodingError.Context(codingPath: [], debugDescription: "not a JSON number")) }
        var text = v.description
        if text.hasSuffix(".0") { text.removeLast(2) }
        return Array(text.utf8)
    }
}

private struct KeyedWriter<Key: CodingKey>: KeyedEncodingContainerProtocol {
    let encoder: ByteEncoder
    var codingPath: [CodingKey] { encoder.codingPath }

    private func add(_ key: Key, _ part: ByteEncoder.Part) { encoder.members?.append((key.stringValue, part)) }
    private func add(_ key: Key, _ text: String) { add(key, .bytes(Array(text.utf8))) }

    mutating func encodeNil(forKey key: Key) throws { add(key, "null") }
    mutating func encode(_ value: Bool, forKey key: Key) throws { add(key, value ? "true" : "false") }
    mutating func encode(_ value: String, forKey key: Key) throws { add(key, .bytes(JSONText.string(value))) }
    mutating func encode(_ value: Double, forKey key: Key) throws { add(key, .bytes(try JSONText.number(value))) }
    mutating func encode(_ value: Float, forKey key: Key) throws { add(key, .bytes(try JSONText.number(Double(value)))) }
    mutating func encode(_ value: Int, forKey key: Key) throws { add(key, String(value)) }
    mutating func encode(_ value: Int8, forKey key: Key) throws { add(key, String(value)) }
    mutating func encode(_ value: Int16, forKey key: Key) throws { add(key, String(value)) }
    mutating func encode(_ value: Int32, forKey key: Key) throws { add(key, String(value)) }
    mutating func encode(_ value: Int64, forKey key: Key) throws { add(key, String(value)) }
    mutating func encode(_ value: UInt, forKey key: Key) throws { add(key, String(value)) }
    mutating func encode(_ value: UInt8, forKey key: Key) throws { add(key, String(value)) }
    mutating func encode(_ value: UInt16, forKey key: Key) throws { add(key, String(value)) }
    mutating func encode(_ value: UInt32, forKey key: Key) throws { add(key, String(value)) }
    mutating func encode(_ value: UInt64, forKey key: Key) throws { add(key, String(value)) }
    mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws {
        add(key, try encoder.part(value, at: codingPath + [key]))
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type, forKey key: Key) -> KeyedEncodingContainer<NestedKey> {
        let nested = ByteEncoder(codingPath: codingPath + [key])
        add(key, .nested(nested))
        return nested.container(keyedBy: keyType)
    }

    mutating func nestedUnkeyedContainer(forKey key: Key) -> UnkeyedEncodingContainer {
        let nested = ByteEncoder(codingPath: codingPath + [key])
        add(key, .nested(nested))
        return nested.unkeyedContainer()
    }

    mutating func superEncoder() -> Encoder {
        let nested = ByteEncoder(codingPath: codingPath)
        encoder.members?.append(("super", .nested(nested)))
        return nested
    }

    mutating func superEncoder(forKey key: Key) -> Encoder {
        let nested = ByteEncoder(codingPath: codingPath + [key])
        add(key, .nested(nested))
        return nested
    }
}

private struct IndexKey: CodingKey {
    let intValue: Int?
    var stringValue: String { String(intValue ?? 0) }
    init(_ i: Int) { intValue = i }
    init?(stringValue: String) { return nil }
    init?(intValue: Int) { self.intValue = intValue }
}

private struct UnkeyedWriter: UnkeyedEncodingContainer {
    let encoder: ByteEncoder
    var codingPath: [CodingKey] { encoder.codingPath }
    var count: Int { encoder.elements?.count ?? 0 }

    private func add(_ part: ByteEncoder.Part) { encoder.elements?.append(part) }
    private func add(_ text: String) { add(.bytes(Array(text.utf8))) }

    mutating func encodeNil() throws { add("null") }
    mutating func encode(_ value: Bool) throws { add(value ? "true" : "false") }
    mutating func encode(_ value: String) throws { add(.bytes(JSONText.string(value))) }
    mutating func encode(_ value: Double) throws { add(.bytes(try JSONText.number(value))) }
    mutating func encode(_ value: Float) throws { add(.bytes(try JSONText.number(Double(value)))) }
    mutating func encode(_ value: Int) throws { add(String(value)) }
    mutating func encode(_ value: Int8) throws { add(String(value)) }
    mutating func encode(_ value: Int16) throws { add(String(value)) }
    mutating func encode(_ value: Int32) throws { add(String(value)) }
    mutating func encode(_ value: Int64) throws { add(String(value)) }
    mutating func encode(_ value: UInt) throws { add(String(value)) }
    mutating func encode(_ value: UInt8) throws { add(String(value)) }
    mutating func encode(_ value: UInt16) throws { add(String(value)) }
    mutating func encode(_ value: UInt32) throws { add(String(value)) }
    mutating func encode(_ value: UInt64) throws { add(String(value)) }
    mutating func encode<T: Encodable>(_ value: T) throws { add(try encoder.part(value, at: codingPath + [IndexKey(count)])) }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type) -> KeyedEncodingContainer<NestedKey> {
        let nested = ByteEncoder(codingPath: codingPath + [IndexKey(count)])
        add(.nested(nested))
        return nested.container(keyedBy: keyType)
    }

    mutating func nestedUnkeyedContainer() -> UnkeyedEncodingContainer {
        let nested = ByteEncoder(codingPath: codingPath + [IndexKey(count)])
        add(.nested(nested))
        return nested.unkeyedContainer()
    }

    mutating func superEncoder() -> Encoder {
        let nested = ByteEncoder(codingPath: codingPath + [IndexKey(count)])
        add(.nested(nested))
        return nested
    }
}

private struct ScalarWriter: SingleValueEncodingContainer {
    let encoder: ByteEncoder
    var codingPath: [CodingKey] { encoder.codingPath }

    private func set(_ bytes: [UInt8]) { encoder.scalar = bytes }
    private func set(_ text: String) { set(Array(text.utf8)) }

    mutating func encodeNil() throws { set("null") }
    mutating func encode(_ value: Bool) throws { set(value ? "true" : "false") }
    mutating func encode(_ value: String) throws { set(JSONText.string(value)) }
    mutating func encode(_ value: Double) throws { set(try JSONText.number(value)) }
    mutating func encode(_ value: Float) throws { set(try JSONText.number(Double(value))) }
    mutating func encode(_ value: Int) throws { set(String(value)) }
    mutating func encode(_ value: Int8) throws { set(String(value)) }
    mutating func encode(_ value: Int16) throws { set(String(value)) }
    mutating func encode(_ value: Int32) throws { set(String(value)) }
    mutating func encode(_ value: Int64) throws { set(String(value)) }
    mutating func encode(_ value: UInt) throws { set(String(value)) }
    mutating func encode(_ value: UInt8) throws { set(String(value)) }
    mutating func encode(_ value: UInt16) throws { set(String(value)) }
    mutating func encode(_ value: UInt32) throws { set(String(value)) }
    mutating func encode(_ value: UInt64) throws { set(String(value)) }
    mutating func encode<T: Encodable>(_ value: T) throws {
        let nested = ByteEncoder(codingPath: codingPath)
        try value.encode(to: nested)
        var out: [UInt8] = []
        nested.write(into: &out)
        set(out)
    }
}
