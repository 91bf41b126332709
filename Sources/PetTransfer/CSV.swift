import Foundation
import PetModel
import PetStoreCore

/// An RFC 4180 reader over a file's bytes: quoted fields may hold commas, quotes (doubled) and line
/// breaks; CRLF or LF ends a row; a UTF-8 byte order mark is skipped. Fields are byte ranges, so the
/// bulk path reads numbers without making strings.
public struct CSVReader {
    public let bytes: [UInt8]
    public let file: String
    var position: Int
    /// The line the current row starts on (1-based, counting the header).
    public private(set) var line = 0
    var nextLine = 1
    /// Field ranges of the current row; quoted fields with doubled quotes are unescaped on demand.
    public private(set) var fields: [Range<Int>] = []
    var quoted: [Bool] = []

    /// The field separator: `,`, or `;` and tab as European spreadsheets and some scales write them.
    public let delimiter: UInt8
    /// With `;` as the separator, a comma in a number is its decimal point (`4,2`), as in those files.
    public var decimalComma: Bool { delimiter == 0x3B }

    /// A comma-separated reader (petlog's own files), or one with `delimiter`.
    public init(bytes: [UInt8], file: String, delimiter: UInt8 = 0x2C) {
        self.bytes = bytes
        self.file = file
        position = bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? 3 : 0
        self.delimiter = delimiter
    }

    /// A file from elsewhere (a scale, a spreadsheet): `delimiter` nil is the one its first line uses.
    public init(sniffing bytes: [UInt8], file: String, delimiter: UInt8?) {
        self.init(bytes: bytes, file: file, delimiter: delimiter ?? Self.sniffDelimiter(bytes))
    }

    public init(contentsOf url: URL, sniffing: Bool = false, delimiter: UInt8? = nil) throws {
        // Read straight into the array (not through `Data` and a copy: a big table was in memory twice).
        guard let file = fopen(url.path, "rb") else { throw ImportError(file: url.lastPathComponent, line: 0, problem: .unreadable) }
        defer { fclose(file) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        if fseeko(file, 0, SEEK_END) == 0 { let size = ftello(file); if size > 0 { bytes.reserveCapacity(Int(size)) } }
        rewind(file)
        while true {
            let n = chunk.withUnsafeMutableBytes { fread($0.baseAddress, 1, $0.count, file) }
            if n > 0 { bytes.append(contentsOf: chunk[0..<n]) }
            if n < chunk.count {
                if ferror(file) != 0 { throw ImportError(file: url.lastPathComponent, line: 0, problem: .unreadable) }
                break
            }
        }
        self.init(bytes: bytes, file: url.lastPathComponent, delimiter: delimiter ?? (sniffing ? Self.sniffDelimiter(bytes) : 0x2C))
    }

    /// The separator of the first line: `,`, `;` or tab, whichever appears most outside quotes.
    public static func sniffDelimiter(_ bytes: [UInt8]) -> UInt8 {
        var counts: [UInt8: Int] = [0x2C: 0, 0x3B: 0, 0x09: 0]
        var inQuotes = false
        for b in bytes.prefix(65_536) {
            if b == 0x22 { inQuotes.toggle(); continue }
            if inQuotes { continue }
            if b == 0x0A { break }
            if counts[b] != nil { counts[b, default: 0] += 1 }
        }
        let best = counts.max { ($0.value, $0.key == 0x2C ? 1 : 0) < ($1.value, $1.key == 0x2C ? 1 : 0) }
        return (best?.value ?? 0) > 0 ? (best?.key ?? 0x2C) : 0x2C
    }

    /// The separator as people write it, for messages.
    public var delimiterName: String { delimiter == 0x09 ? "tab" : String(UnicodeScalar(delimiter)) }

    public var location: SourceLocation { SourceLocation(file: file, line: line) }

    /// Reads the next row; false at the end. An unterminated quote is an error naming its line.
    public mutating func next() throws -> Bool {
        fields.removeAll(keepingCapacity: true)
        quoted.removeAll(keepingCapacity: true)
        let n = bytes.count
        // Skip blank lines.
        while position < n && (bytes[position] == 0x0A || bytes[position] == 0x0D) {
            if bytes[position] == 0x0A { nextLine += 1 }
            position += 1
        }
        guard position < n else { return false }
        line = nextLine
        let delimiter = self.delimiter
        return try bytes.withUnsafeBufferPointer { b -> Bool in
            var i = position
            while true {
                if i < n && b[i] == 0x22 { // quoted field
                    let start = i + 1
                    i += 1
                    while true {
                        guard i < n else { throw ImportError(location: location, problem: .unterminatedQuote) }
                        if b[i] == 0x22 {
                            if i + 1 < n && b[i + 1] == 0x22 { i += 2; continue }
                            break
                        }
                        if b[i] == 0x0A { nextLine += 1 }
                        i += 1
                    }
                    fields.append(start..<i)
                    quoted.append(true)
                    i += 1
                    guard i >= n || b[i] == delimiter || b[i] == 0x0A || b[i] == 0x0D else {
                        throw ImportError(location: location, problem: .malformedRow)
                    }
                } else {
                    let start = i
                    while i < n && b[i] != delimiter && b[i] != 0x0A && b[i] != 0x0D {
                        if b[i] == 0x22 { throw ImportError(location: location, problem: .malformedRow) }
                        i += 1
                    }
                    fields.append(start..<i)
                    quoted.append(false)
                }
                if i < n && b[i] == delimiter { i += 1; continue }
                // End of row.
                if i < n && b[i] == 0x0D { i += 1 }
                if i < n && b[i] == 0x0A { i += 1; nextLine += 1 }
                position = i
                return true
            }
        }
    }

    public var count: Int { fields.count }

    /// Field `i` as text (nil when empty: an empty field is NULL), quotes unescaped, UTF-8 checked.
    public func string(_ i: Int) throws -> String? {
        if fields[i].isEmpty { return nil }
        guard let s = String(validating: bytes[fields[i]], as: UTF8.self) else { throw ImportError(location: location, problem: .invalidUTF8) }
        return quoted[i] && s.contains("\"") ? s.replacingOccurrences(of: "\"\"", with: "\"") : s
    }

    /// Field `i` as a non-negative integer without making a string; nil when empty or not digits.
    public func integer(_ i: Int) -> Int64? {
        let r = fields[i]
        guard !r.isEmpty, r.count <= 18 else { return nil }
        var v: Int64 = 0
        for k in r {
            let d = bytes[k] &- 0x30
            guard d < 10 else { return nil }
            v = v * 10 + Int64(d)
        }
        return v
    }

    /// Field `i` as an exact decimal `digits / 10^scale` (no sign, no exponent); nil when not one.
    public func decimal(_ i: Int) -> (digits: Int64, scale: Int)? {
        let r = fields[i]
        guard !r.isEmpty, r.count <= 16 else { return nil }
        var v: Int64 = 0, scale = 0, seenDot = false, digits = 0
        for k in r {
            let c = bytes[k]
            if c == 0x2E || (c == 0x2C && decimalComma) { if seenDot { return nil }; seenDot = true; continue }
            let d = c &- 0x30
            guard d < 10 else { return nil }
            v = v * 10 + Int64(d)
            digits += 1
            if seenDot { scale += 1 }
        }
        guard digits > 0, !(seenDot && scale == 0) else { return nil }
        return (v, scale)
    }

    /// Field `i` as a local date-time `YYYY-MM-DD[ T]HH:MM[:SS]` or a date `YYYY-MM-DD` (midnight):
    /// seconds since 1970-01-01T00:00 as if it were UTC; nil when not one (or not a real day).
    public func localDateTime(_ i: Int) -> Int64? {
        let r = fields[i]
        return bytes.withUnsafeBufferPointer { b in RFC3339.localSeconds(b, r) }
    }
}

