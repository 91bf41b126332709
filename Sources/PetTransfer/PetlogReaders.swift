import Foundation
import PetModel
import PetStoreCore

extension ImportBatch {
    /// Adds a pet of the file under its id (each id once); `index` maps the file's ids to the batch's pets.
    mutating func add(_ pet: ImportPet, index: inout [Int64: Int]) throws {
        guard let id = pet.fileId, index[id] == nil else { throw ImportError(location: pet.location, problem: .duplicateId(pet.fileId ?? 0)) }
        index[id] = pets.count
        pets.append(pet)
    }
}

extension Fields {
    /// The batch's pet that `pet_id` names (one of the file's, `index`); nil when there is none, which only a
    /// budget or an expense may leave out (a record of another `kind` is refused).
    func pet(_ index: [Int64: Int], kind: RecordKind? = nil) throws -> Int? {
        guard let id = try int("pet_id", 1...Int64.max) else {
            if let kind, kind != .expense { throw ImportError(location: location, problem: .missingColumn("pet_id")) }
            return nil
        }
        guard let i = index[id] else { throw ImportError(location: location, problem: .unknownPet(String(id))) }
        return i
    }

    /// A budget row (`budget.csv`, or a budget of a JSON file); `pet_id` is the file's pet id.
    func budget(petIndex: [Int64: Int]) throws -> ImportBudget {
        let pet = try self.pet(petIndex)
        let minor = try int("amount_minor", 1...Money.maximumMinorUnits) ?? { throw ImportError(location: location, problem: .missingColumn("amount_minor")) }()
        let period: Budget.Period
        switch (try day("first_day"), try day("last_day")) {
        case (nil, nil): period = .monthly
        case (let first?, let last?):
            guard first <= last else {
                throw ImportError(location: location, problem: .value(.beforeStart(field: "last_day", value: last.description, start: first.description)))
            }
            period = .days(from: first, through: last)
        case (_, nil): throw ImportError(location: location, problem: .missingColumn("last_day"))
        case (nil, _): throw ImportError(location: location, problem: .missingColumn("first_day"))
        }
        return ImportBudget(location: location, fileId: try int("id", 1...Int64.max), pet: pet, budget: Budget(
            amount: Money(minorUnits: minor, currency: try currency("currency")), period: period,
            category: try label("category"), perPet: try bool("per_pet"),
            name: try label("name"), place: try label("place"), people: try int("people", Int64(Budget.peopleRange.lowerBound)...Int64(Budget.peopleRange.upperBound)).map { Int($0) }))
    }

    /// An exchange rate row: 1 EUR = `rate` units of `currency` on `day`.
    func rate() throws -> EuroRate {
        guard let dayText = text("day"), let day = LocalDate.parseISO(Substring(dayText)) else {
            throw ImportError(location: location, problem: .value(.badDate(text("day") ?? "")))
        }
        guard let c = text("currency"), c.utf8.count == 3, c.allSatisfy({ $0.isASCII && $0.isUppercase }), c != "EUR" else {
            throw ImportError(location: location, problem: .value(.unknownCurrency(text("currency") ?? "")))
        }
        guard let rate = text("rate").flatMap({ ExactDecimal($0) }) else {
            throw ImportError(location: location, problem: .value(.notANumber(text("rate") ?? "")))
        }
        return EuroRate(day: day, currency: c, rate: rate)
    }
}

/// A petlog JSON export (docs/json.md), read as JSON whatever its whitespace or key order (`jq .`,
/// Python's `json.dump`, one line or many). The file is read a piece at a time and scanned byte by
/// byte without building a tree; each pet, record, budget and rate is read on its own by its members
/// (`JSONRecordReading`), so neither the file nor its tree is ever in memory whole. A location is the line
/// the pet or record starts on.
enum PetlogJSONReader {
    static func read(data: Data, file: String, options: ImportOptions, chunkSize: Int = 1 << 20) throws -> ImportBatch {
        var reader = Reading(scanner: JSONScanner(source: .bytes(data), file: file, chunkSize: chunkSize))
        return try reader.document()
    }

    /// Reads the open file `descriptor` from its start.
    static func read(descriptor: Int32, file: String, options: ImportOptions) throws -> ImportBatch {
        var reader = Reading(scanner: JSONScanner(source: .file(descriptor), file: file))
        return try reader.document()
    }

    private struct Reading {
        var scanner: JSONScanner
        var batch = ImportBatch()
        var petIndex: [Int64: Int] = [:]
        var sawPets = false
        /// Records that came before "pets" (a key order nothing writes, but valid JSON): read once the pets are known.
        var earlyRecords: JSONScanner.Position?

        mutating func document() throws -> ImportBatch {
            try scanner.skipByteOrderMark()
            try scanner.skipWhitespace()
            let firstLine = scanner.line
            guard try scanner.take(UInt8(ascii: "{")) else { throw ImportError(file: scanner.file, line: firstLine, problem: .unknownFormat) }
            var format: String?
            var seenKeys: Set<String> = []
            var first = true
            while true {
                try scanner.skipWhitespace()
                if try scanner.take(UInt8(ascii: "}")) { break }
                if !first { try scanner.expect(UInt8(ascii: ",")); try scanner.skipWhitespace() }
                first = false
                let keyLine = scanner.line
                let key = try scanner.string()
                // A key twice would read its pets or records twice; JSON leaves the meaning open, so refuse it.
                guard seenKeys.insert(key).inserted else { throw ImportError(file: scanner.file, line: keyLine, problem: .badJSON) }
                try scanner.skipWhitespace()
                try scanner.expect(UInt8(ascii: ":"))
                try scanner.skipWhitespace()
                switch key {
                case "format":
                    let start = scanner.line
                    format = try scanner.read { try $0.textElseSkip() }
                    if format != PetlogJSON.format { throw ImportError(file: scanner.file, line: start, problem: .unknownFormat) }
                case "pets":
                    try elements(.pets)
                    sawPets = true
                    if let early = earlyRecords {
                        let resume = scanner.position
                        scanner.seek(early)
                        try elements(.records)
                        scanner.seek(resume)
                        earlyRecords = nil
                    }
                case "namespace":
                    // The household's namespace (32 hex digits); anything else is not one and is left out.
                    if let text = try scanner.read({ try $0.textElseSkip() }), text.utf8.count == 32, text.utf8.allSatisfy({ (0x30...0x39).contains($0) || (0x61...0x66).contains($0) }) {
                        batch.namespace = text
                    }
                case "budgets":
                    try elements(.budgets)
                case "rates":
                    try elements(.rates)
                case "records":
                    if sawPets { try elements(.records) } else {
                        earlyRecords = scanner.position
                        try elements(.passed)
                    }
                default:
                    try scanner.skip()
                }
            }
            try scanner.skipWhitespace()
            guard try scanner.atEnd() else { throw scanner.brokenHere }
            guard format == PetlogJSON.format else { throw ImportError(file: scanner.file, line: firstLine, problem: .unknownFormat) }
            if let early = earlyRecords {  // records but no pets: each record then names a pet the file lacks
                scanner.seek(early)
                try elements(.records)
            }
            return batch
        }

        enum Section { case pets, records, budgets, rates, passed }

        /// Reads each element of the array that starts here as a pet or a record (`passed`: skipped, one at a
        /// time); a key twice in one is refused at its line.
        mutating func elements(_ section: Section) throws {
            try scanner.expect(UInt8(ascii: "["))
            try scanner.skipWhitespace()
            if try scanner.take(UInt8(ascii: "]")) { return }
            while true {
                try scanner.skipWhitespace()
                scanner.releaseBefore()  // what came before this element is never read again
                let line = scanner.line
                do {
                    switch section {
                    case .records: try recordFromBytes(line)
                    case .passed: try scanner.skip()
                    case .pets: try pet(try object(.pet), line)
                    case .budgets: batch.budgets.append(try fields(.budget, try object(.budget), line).budget(petIndex: petIndex))
                    case .rates: batch.rates.append(try fields(.rate, try object(.rate), line).rate())
                    }
                } catch is JSONRecordReading.DuplicateKey { throw ImportError(file: scanner.file, line: line, problem: .badJSON) }
                try scanner.skipWhitespace()
                if try scanner.take(UInt8(ascii: "]")) { return }
                try scanner.expect(UInt8(ascii: ","))
            }
        }

        /// A pet by its members. A line break or other control character inside one item of its lists, its
        /// contacts or its insurance (a hand-written file) is refused, since the store keeps a list one item a line.
        mutating func pet(_ values: [JSONRecordReading.Value], _ line: Int) throws {
            let location = SourceLocation(file: scanner.file, line: line)
            for (key, field) in [("allergies", "allergy"), ("conditions", "condition"), ("emergency_contacts", "emergency-contact"),
                                 ("vet_contact", "vet-contact"), ("insurance", "insurance")] {
                let parts: [String?]
                switch values[ExportShape.pet.members.firstIndex { $0.key == key } ?? 0] {
                case .list(let l): parts = l
                case .pair(let a, let b): parts = [a, b]
                case .pairs(let l): parts = l.flatMap { [$0.0, $0.1] }
                default: parts = []
                }
                if parts.contains(where: { $0?.unicodeScalars.contains { $0.properties.generalCategory == .control } == true }) {
                    throw ImportError(location: location, problem: .value(.controlCharacters(field: field)))
                }
            }
            try batch.add(fields(.pet, values, line).pet(), index: &petIndex)
        }

        /// An object of the document's (a pet, a budget, a rate) read by its members; null or another value, or
        /// one of another type than its key's, is refused where it starts, a key twice at its line.
        mutating func object(_ shape: ExportShape) throws -> [JSONRecordReading.Value] {
            try scanner.read { p in
                _ = try p.next()
                let m = p.mark
                guard let v = try p.members(shape.members, shape.keys) else { try p.refuse(m) }
                if p.duplicate { throw JSONRecordReading.DuplicateKey() }
                return v
            }
        }

        /// The columns an object's values fill.
        func fields(_ shape: ExportShape, _ values: [JSONRecordReading.Value], _ line: Int) -> Fields {
            JSONRecordReading.fields(shape.members, values, SourceLocation(file: scanner.file, line: line))
        }

        /// The record that starts here, read from the scanner's bytes (`JSONRecordReading`): broken JSON or a
        /// value of another type than its key's is refused where it starts, a key twice at the record's line.
        mutating func recordFromBytes(_ line: Int) throws {
            let r = try scanner.read { try $0.record() }
            let location = SourceLocation(file: scanner.file, line: line)
            if try plainWeight(r, line) { return }
            try add(head: r.fields(location), detail: r.detailFields(location), attachments: r.attachments, location: location)
        }

        /// A weight with every value valid and nothing but its weight (no note, star or attachment), put
        /// straight into the weight columns; false for anything else, which then goes through `Fields` as
        /// every record, with its checks and messages.
        mutating func plainWeight(_ r: JSONRecordReading.Parsed, _ line: Int) throws -> Bool {
            guard r.kind == .weight, let detail = r.detail, detail.count == 2, case .int(let grams) = detail[0], (1...Int64(Mass.maximumGrams)).contains(grams),
                  let id = r.id, id >= 1, let petId = r.petId, petId >= 1, let pet = petIndex[petId],
                  r.note == nil, r.starred != true, r.attachments?.isEmpty ?? true,
                  let at = r.atBytes, let (t, offset) = Fields.instant(utf8: at) else { return false }
            var bodyCondition: Int?
            switch detail[1] {
            case .absent, .null: break
            case .int(let v) where BodyConditionScore.range.contains(Int(v)): bodyCondition = Int(v)
            default: return false
            }
            batch.weights.file = scanner.file
            let location = SourceLocation(file: scanner.file, line: line)
            let created = try r.createdAt.map { try Fields(values: ["created_at": $0], location: location).writtenAt("created_at") } ?? nil
            let updated = try r.updatedAt.map { try Fields(values: ["updated_at": $0], location: location).writtenAt("updated_at") } ?? nil
            batch.weights.append(fileId: id, line: line, recordsBefore: batch.records.count, pet: pet, at: t, utcOffset: offset,
                                 grams: Int(grams), bodyCondition: bodyCondition, createdAt: created, updatedAt: updated)
            return true
        }

        /// A record from its shared columns, its detail's and its attachments, checked as every import checks them.
        mutating func add(head: Fields, detail detailFields: Fields?, attachments: [Attachment]?, location: SourceLocation) throws {
            let line = location.line
            guard let kind = try head.choice("kind", RecordKind.self) else { throw ImportError(location: location, problem: .missingColumn("kind")) }
            guard let detailFields else { throw ImportError(location: location, problem: .missingColumn(kind.rawValue)) }
            let detail = try detailFields.detail(kind)
            let pet = try head.pet(petIndex, kind: kind)
            let (at, offset) = try head.instant("at")
            let attachments = attachments ?? []
            for a in attachments where a.sha256.utf8.count != 64 || !a.sha256.utf8.allSatisfy({ (0x30...0x39).contains($0) || (0x61...0x66).contains($0) }) || a.size < 0 {
                throw ImportError(location: location, problem: .badJSON)
            }
            var record = ImportRecord(location: location, fileId: try head.int("id", 1...Int64.max), pet: pet, at: at, utcOffset: offset,
                                      note: try head.longText("note"), starred: try head.bool("starred"), detail: detail, attachments: attachments)
            record.createdAt = try head.writtenAt("created_at")
            record.updatedAt = try head.writtenAt("updated_at")
            // A plain weight (most of a big file) is kept as columns, not as a record: memory stays small.
            if case .weight(let w) = detail, let id = record.fileId, let pet, record.note == nil, !record.starred, attachments.isEmpty,
               w.mass.grams <= Int(Int32.max), (Int(Int32.min)...Int(Int32.max)).contains(offset) {
                batch.weights.file = scanner.file
                batch.weights.append(fileId: id, line: line, recordsBefore: batch.records.count, pet: pet, at: at, utcOffset: offset,
                                     grams: w.mass.grams, bodyCondition: w.bodyCondition, createdAt: record.createdAt, updatedAt: record.updatedAt)
            } else {
                batch.records.append(record)
            }
        }
    }
}

/// Where a scanner's bytes come from: an open file read with pread (from any offset, so the scanner can
/// go back), or bytes already in memory.
enum JSONSource {
    case file(Int32)
    case bytes(Data)

    /// Up to `count` bytes from `offset`; empty at the end.
    func read(at offset: Int, count: Int, file: String) throws -> [UInt8] {
        switch self {
        case .bytes(let data):
            guard offset < data.count else { return [] }
            let from = data.startIndex + offset
            return [UInt8](data[from..<min(from + count, data.endIndex)])
        case .file(let fd):
            var chunk = [UInt8](repeating: 0, count: count)
            while true {
                let n = chunk.withUnsafeMutableBytes { pread(fd, $0.baseAddress, count, off_t(offset)) }
                if n >= 0 { chunk.removeLast(count - n); return chunk }
                if errno != EINTR { throw ImportError(file: file, line: 0, problem: .unreadable) }
            }
        }
    }
}

/// A petlog JSON file as the one tokenizer reads it (`JSONRecordReading.Parser`): the input held in a window
/// that grows as the reading goes on and drops what lies before the value being read, so memory follows the
/// largest value, not the file; line numbers and columns for messages. Every value is read by the parser
/// over the window (`read`), which reads on and starts the value again when the window ends inside it; the
/// whitespace and punctuation between a document's values are stepped here.
struct JSONScanner {
    typealias Parser = JSONRecordReading.Parser
    let file: String
    private let source: JSONSource
    private let chunkSize: Int
    private var window: [UInt8] = []
    /// The input offset of `window[0]`.
    private var windowStart = 0
    private var exhausted = false
    /// The input offset of the next byte.
    private(set) var offset = 0
    private(set) var line = 1
    /// The input offset of the first byte of `line`, for the column a message names.
    private var lineStart = 0
    /// Where the blank space that runs to the end of the input starts: a file cut short breaks there
    /// (a one-line file with its line break still breaks on line 1).
    private var blankToEnd: Position?
    static let maximumDepth = 64

    init(source: JSONSource, file: String, chunkSize: Int = 1 << 20) {
        self.source = source; self.file = file; self.chunkSize = max(1, chunkSize)
    }

    init(bytes: [UInt8], file: String, chunkSize: Int = 1 << 20) {
        self.init(source: .bytes(Data(bytes)), file: file, chunkSize: chunkSize)
    }

    /// Where the scan stopped, as a message names it: the line and the character on it (counted in the
    /// bytes still held; a part of a very long line already let go counts a byte a character); at the end
    /// of the input, the file is cut short.
    var brokenHere: ImportError {
        let atEnd = exhausted && offset >= windowStart + window.count
        let (offset, line, lineStart) = atEnd ? blankToEnd ?? position : position
        let held = max(lineStart, windowStart)
        let end = min(offset, windowStart + window.count)
        var column = 1 + (held - lineStart)
        if held < end { column += window[(held - windowStart)..<(end - windowStart)].reduce(0) { $0 + ($1 & 0xC0 == 0x80 ? 0 : 1) } }
        column += max(0, offset - end)
        return ImportError(location: SourceLocation(file: file, line: line, column: column), problem: atEnd ? .jsonEndsEarly : .badJSON)
    }

    /// Reads the next piece of input into the window; false at the end of the input.
    private mutating func readOn() throws -> Bool {
        if exhausted { return false }
        let chunk = try source.read(at: windowStart + window.count, count: chunkSize, file: file)
        if chunk.isEmpty { exhausted = true; return false }
        window.append(contentsOf: chunk)
        return true
    }

    /// The byte at `offset`, reading on as needed; nil at the end of the input.
    private mutating func peek() throws -> UInt8? {
        while offset - windowStart >= window.count { guard try readOn() else { return nil } }
        return window[offset - windowStart]
    }

    mutating func atEnd() throws -> Bool { try peek() == nil }

    /// The position `lines` line breaks on from window index `from` to `to`.
    private func position(from: Int, to: Int, lines: Int) -> Position {
        guard lines > 0, let last = window[from..<to].lastIndex(of: 0x0A) else { return (windowStart + to, line, lineStart) }
        return (windowStart + to, line + lines, windowStart + last + 1)
    }

    /// Runs `body` with the parser on the bytes from `offset` on and moves past what it read. When the
    /// window ends inside the value it reads on and runs `body` again; when the input ends there, the file
    /// ends early (at the blank space running to its end). JSON the parser cannot follow is thrown where it broke.
    mutating func read<T>(_ body: (inout Parser) throws -> T) throws -> T {
        while true {
            let from = offset - windowStart
            var stop = (i: from, lines: 0, blank: Int?.none, blankLines: 0)
            func run(_ bytes: [UInt8]) throws -> T {
                try bytes.withUnsafeBufferPointer { b in
                    var p = Parser(b, from: from)
                    defer { stop = (p.i, p.lines, p.blank, p.blankLines) }
                    return try body(&p)
                }
            }
            do {
                let value = try run(window)
                (offset, line, lineStart) = position(from: from, to: stop.i, lines: stop.lines)
                return value
            } catch is JSONRecordReading.NeedMore {
                if try readOn() { continue }
                // A number or `true` last in the input ends there (a blank after it changes nothing).
                let ended = stop
                if let value = try? run(window + [0x20]), stop.i <= window.count {
                    (offset, line, lineStart) = position(from: from, to: stop.i, lines: stop.lines)
                    return value
                }
                if let blank = ended.blank { blankToEnd = position(from: from, to: blank, lines: ended.blankLines) }
                (offset, line, lineStart) = position(from: from, to: window.count, lines: ended.lines)
                throw brokenHere
            } catch is JSONRecordReading.Unreadable {
                (offset, line, lineStart) = position(from: from, to: stop.i, lines: stop.lines)
                throw brokenHere
            }
        }
    }

    typealias Position = (offset: Int, line: Int, lineStart: Int)
    var position: Position { (offset, line, lineStart) }

    /// Goes back (or on) to a position met before.
    mutating func seek(_ p: Position) {
        if p.offset < windowStart || p.offset > windowStart + window.count {
            window = []
            windowStart = p.offset
            exhausted = false
        }
        (offset, line, lineStart) = p
        blankToEnd = nil
    }

    /// Forgets the bytes before `offset` once there are enough of them to be worth moving the rest.
    mutating func releaseBefore() {
        let done = offset - windowStart
        guard done >= 4 * chunkSize || (done > 0 && done == window.count) else { return }
        window.removeFirst(done)
        windowStart = offset
    }

    mutating func skipByteOrderMark() throws {
        guard offset == 0, try peek() == 0xEF else { return }
        offset = 1
        if try peek() == 0xBB { offset = 2; if try peek() == 0xBF { offset = 3; return } }
        offset = 0
    }

    mutating func skipWhitespace() throws {
        let start = position
        defer { if blankToEnd == nil, exhausted, offset >= windowStart + window.count { blankToEnd = start } }
        while let b = try peek() {
            switch b {
            case 0x0A: line += 1; lineStart = offset + 1
            case 0x20, 0x09, 0x0D: break
            default: return
            }
            offset += 1
        }
    }

    mutating func take(_ byte: UInt8) throws -> Bool {
        guard try peek() == byte else { return false }
        offset += 1
        return true
    }

    mutating func expect(_ byte: UInt8) throws { guard try take(byte) else { throw brokenHere } }

    /// A string key, unescaped (one that is not UTF-8 is refused where it starts).
    mutating func string() throws -> String { try read { try $0.text() } }

    /// Passes the value that starts here without keeping it.
    mutating func skip() throws { try skipWhitespace(); try read { try $0.skip() } }
}

/// A folder written by `petlog export --format csv`: one CSV per table, columns as in the database
/// (instants as RFC 3339 with their offset; docs/import.md).
enum PetlogCSVReader {
    static func rows(_ directory: URL, _ table: String) throws -> [Fields] {
        var out: [Fields] = []
        try forEachRow(directory, table) { out.append($0) }
        return out
    }

    /// Each row of `table.csv` in file order (nothing when there is no such file): one row at a time, so a
    /// table of a million weights is never held as rows.
    static func forEachRow(_ directory: URL, _ table: String, _ body: (Fields) throws -> Void) throws {
        let url = directory.appendingPathComponent("\(table).csv")
        guard FileManager.default.fileExists(atPath: url.path) else { return }
        var r = try CSVReader(contentsOf: url)
        guard try r.next() else { return }
        let header = try Header(r)
        while try r.next() {
            if r.count != header.names.count { throw ImportError(location: r.location, problem: .wrongFieldCount(expected: header.names.count, found: r.count)) }
            var values: [String: String] = [:]
            for (i, name) in header.names.enumerated() { values[name] = try r.text(i) }
            try body(Fields(values: values, location: r.location))
        }
    }

    /// A weight row's values when plain (grams in range, a body condition in range or none), kept as numbers.
    static func plainWeight(_ f: Fields) -> (grams: Int32, bodyCondition: Int8)? {
        guard f.values.count <= 3, let g = f.text("grams").flatMap({ Int64($0) }), (1...Int64(Mass.maximumGrams)).contains(g) else { return nil }
        guard let raw = f.text("body_condition") else { return (Int32(g), 0) }
        guard let b = Int(raw), BodyConditionScore.range.contains(b) else { return nil }
        return (Int32(g), Int8(b))
    }

    /// The plain weight rows by record id: two sorted columns while `weight.csv` is in id order (as `export`
    /// writes it: 14 MB for a shelter's 868,890, where a map took three times that), else a map, later rows
    /// replacing earlier ones as before.
    struct PlainWeights {
        var ids: [Int64] = []
        var values: [(grams: Int32, bodyCondition: Int8)] = []
        var map: [Int64: (grams: Int32, bodyCondition: Int8)]?

        mutating func set(_ id: Int64, _ w: (grams: Int32, bodyCondition: Int8)?) {
            if map == nil, let w, ids.last.map({ $0 < id }) ?? true {
                ids.append(id); values.append(w)
                return
            }
            if map == nil, w == nil, ids.last.map({ $0 < id }) ?? true { return }  // a row kept whole, after every plain one
            if map == nil {
                var m: [Int64: (grams: Int32, bodyCondition: Int8)] = [:]
                for (i, v) in zip(ids, values) { m[i] = v }
                map = m
                ids = []; values = []
            }
            map?[id] = w
        }

        subscript(id: Int64) -> (grams: Int32, bodyCondition: Int8)? {
            if let map { return map[id] }
            var lo = 0, hi = ids.count
            while lo < hi {
                let mid = (lo + hi) / 2
                if ids[mid] < id { lo = mid + 1 } else { hi = mid }
            }
            return lo < ids.count && ids[lo] == id ? values[lo] : nil
        }
    }

    static func read(directory: URL, options: ImportOptions) throws -> ImportBatch {
        var batch = ImportBatch()
        var petIndex: [Int64: Int] = [:]
        for f in try rows(directory, "pet") { try batch.add(f.pet(), index: &petIndex) }
        // The detail rows by record id. Plain weights (most rows of a big file) are kept as two numbers, not
        // as their row's values; any other weight row is kept whole for the shared checks and messages.
        var details: [RecordKind: [Int64: Fields]] = [:]
        var plainWeights = PlainWeights()
        for kind in RecordKind.allCases {
            var byId: [Int64: Fields] = [:]
            try forEachRow(directory, kind.rawValue) { f in
                guard let id = try f.int("record_id", 1...Int64.max) else { throw ImportError(location: f.location, problem: .missingColumn("record_id")) }
                if kind == .weight, let w = plainWeight(f) {
                    plainWeights.set(id, w)
                    byId[id] = nil
                } else {
                    byId[id] = f
                    if kind == .weight { plainWeights.set(id, nil) }
                }
            }
            details[kind] = byId
        }
        // Items travel in expense_item.csv; they join their expense's values as the JSON reader passes them.
        var items: [Int64: [(Int64, String)]] = [:]
        for f in try rows(directory, "expense_item") {
            guard let id = try f.int("record_id", 1...Int64.max) else { throw ImportError(location: f.location, problem: .missingColumn("record_id")) }
            items[id, default: []].append((try f.int("position", 0...10_000) ?? 0, try f.required("name")))
        }
        for (id, list) in items {
            guard var f = details[.expense]?[id] else { continue }
            f.values["items"] = list.sorted { $0.0 < $1.0 }.map(\.1).joined(separator: "\u{1F}")
            details[.expense]?[id] = f
        }
        batch.budgets = try rows(directory, "budget").map { try $0.budget(petIndex: petIndex) }
        batch.rates = try rows(directory, "exchange_rate").map { try $0.rate() }
        var files: [Int64: [Attachment]] = [:]
        for f in try rows(directory, "attachment") {
            guard let id = try f.int("record_id", 1...Int64.max), let sha = f.text("sha256"), sha.count == 64 else {
                throw ImportError(location: f.location, problem: .missingColumn("sha256"))
            }
            files[id, default: []].append(Attachment(sha256: sha, originalName: try f.required("original_name"), mediaType: try f.required("media_type"),
                                                     size: try f.int("size", 0...Int64.max) ?? 0, position: Int(try f.int("position", 0...10_000) ?? 0)))
        }
        // Records in file order: a plain weight (no note, star or file) goes into the weight columns among
        // the others, as the JSON reader keeps it; `record.csv` as `export` writes it is in id order.
        var ascending = true
        var lastId: Int64 = 0
        try forEachRow(directory, "record") { f in
            guard let id = try f.int("id", 1...Int64.max) else { throw ImportError(location: f.location, problem: .missingColumn("id")) }
            guard let kind = try f.choice("kind", RecordKind.self) else { throw ImportError(location: f.location, problem: .missingColumn("kind")) }
            let plain = kind == .weight ? plainWeights[id] : nil
            let detailFields = plain == nil ? details[kind]?[id] : nil
            guard plain != nil || detailFields != nil else { throw ImportError(location: f.location, problem: .missingColumn(kind.rawValue)) }
            let pet = try f.pet(petIndex, kind: kind)
            let (at, offset) = try f.instant("at")
            let note = try f.longText("note"), starred = try f.bool("starred")
            if id <= lastId { ascending = false }
            lastId = max(lastId, id)
            if let w = plain, let pet, note == nil, !starred, files[id] == nil, (Int(Int32.min)...Int(Int32.max)).contains(offset) {
                batch.weights.file = f.location.file
                batch.weights.append(fileId: id, line: f.location.line, recordsBefore: batch.records.count, pet: pet, at: at, utcOffset: offset,
                                     grams: Int(w.grams), bodyCondition: w.bodyCondition > 0 ? Int(w.bodyCondition) : nil)
                return
            }
            let detail: RecordDetail
            if let w = plain {
                detail = .weight(Weight(mass: Mass(grams: Int(w.grams)), bodyCondition: BodyConditionScore(Int(w.bodyCondition))))
            } else if let detailFields {
                detail = try detailFields.detail(kind)
            } else {
                throw ImportError(location: f.location, problem: .missingColumn(kind.rawValue))
            }
            batch.records.append(ImportRecord(location: f.location, fileId: id, pet: pet, at: at, utcOffset: offset, note: note,
                                              starred: starred, detail: detail, attachments: (files[id] ?? []).sorted { $0.position < $1.position }))
        }
        if !ascending {
            // Rows out of id order (a hand-made folder): every record as a record, sorted by id, as before.
            let w = batch.weights
            for i in 0..<w.count {
                batch.records.append(ImportRecord(location: w.location(i), fileId: w.fileId[i], pet: Int(w.pet[i]), at: w.at[i],
                                                  utcOffset: Int(w.utcOffset[i]), detail: w.detail(i)))
            }
            batch.weights = ImportWeights()
            batch.records.sort { ($0.fileId ?? 0) < ($1.fileId ?? 0) }
        }
        return batch
    }
}
