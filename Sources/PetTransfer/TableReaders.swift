import Foundation
import PetModel
import PetStoreCore

/// What `petlog import` was told besides the path.
/// The order of day, month and year in dates written with slashes or dots (`11/03/2026`, `03.11.2026`).
public enum DateOrder: String, CaseIterable, Sendable {
    case ymd, mdy, dmy
}

public struct ImportOptions: Sendable {
    /// `--pet`: the pet a plain weight CSV belongs to.
    public var pet: PetRef?
    /// `--columns date,weight`: names for a plain CSV's columns in order (`-` skips one).
    public var columns: [String]?
    /// `--weight-unit`: the unit of bare weight numbers when the header does not say.
    public var unit: MassUnit?
    /// Where attachment files are (`--attachments DIR`; default the folder `export` writes beside a JSON
    /// file, `FILE.attachments`, then an `attachments` folder beside it; in a CSV folder, its `attachments`).
    public var attachments: URL?
    /// `--strict`: refuse the whole import when an attachment's file is in neither place.
    public var strictAttachments = false
    /// The zone local times without an offset are in.
    public var timeZone: TimeZone
    /// Now, for the dating rules (`RecordDating`): an observation dated after now plus the tolerance,
    /// or a birth after today, is refused with its file and line, as on the command line.
    public var now: Date
    /// `--delimiter`: the field separator of a CSV (nil: found from its first line).
    public var delimiter: UInt8?
    /// `--date-format`: how a scale CSV's `11/03/2026` reads (nil: found from the file where unambiguous).
    public var dateOrder: DateOrder?

    public init(pet: PetRef? = nil, columns: [String]? = nil, unit: MassUnit? = nil, attachments: URL? = nil, timeZone: TimeZone = .current,
                now: Date = Date()) {
        self.pet = pet; self.columns = columns; self.unit = unit; self.attachments = attachments; self.timeZone = timeZone; self.now = now
    }

    /// `RecordDating`'s rule for one weight row (the bulk path has no `ImportRecord` to check later).
    func checkWeight(at: Int64, utcOffset: Int, location: SourceLocation) throws {
        let now = self.now.unixSeconds()
        guard RecordDating.isAcceptable(.weight, at: at, utcOffset: utcOffset, now: now) else {
            throw ImportError(location: location, problem: .value(RecordDating.futureError(at: at, utcOffset: utcOffset, now: now)))
        }
    }
}

/// Reads a file or folder into an `ImportBatch`, recognizing the format:
/// - a petlog JSON export (`"format": "petlog"`);
/// - a folder of petlog CSVs (`pet.csv`, `record.csv`, one file per table; `petlog export --format csv`);
/// - a folder of spreadsheet tables by name (`pets.csv`, `weights.csv`, `symptoms.csv`, `visits.csv`,
///   `vaccinations.csv`, `expenses.csv`; docs/import.md lists the columns), such as a shelter's;
/// - one plain CSV of weights from a smart scale or a spreadsheet, for the pet given with `--pet`.
public enum ImportReader {
    public static func read(path: String, options: ImportOptions) throws -> ImportBatch {
        let url = URL(fileURLWithPath: path)
        var isDir: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDir) else {
            throw ImportError(file: url.lastPathComponent, line: 0, problem: .unreadable)
        }
        // Only regular files and folders: a FIFO or /dev/zero would never end.
        let type = (try? FileManager.default.attributesOfItem(atPath: path)[.type] as? FileAttributeType) ?? nil
        guard isDir.boolValue || type == .typeRegular else { throw ImportError(file: url.lastPathComponent, line: 0, problem: .unreadable) }
        var batch: ImportBatch
        if isDir.boolValue {
            let has = { (name: String) in FileManager.default.fileExists(atPath: url.appendingPathComponent(name).path) }
            if has("record.csv") && has("pet.csv") {
                batch = try PetlogCSVReader.read(directory: url, options: options)
            } else if has("pets.csv") {
                batch = try SpreadsheetTables.read(directory: url, options: options)
            } else {
                throw ImportError(file: url.lastPathComponent, line: 0, problem: .unknownFormat)
            }
            batch.attachmentSources = [options.attachments ?? url.appendingPathComponent("attachments")]
        } else {
            batch = try readFile(path: path, file: url.lastPathComponent, options: options)
            batch.attachmentSources = options.attachments.map { [$0] }
                ?? [URL(fileURLWithPath: path + ".attachments"), url.deletingLastPathComponent().appendingPathComponent("attachments")]
        }
        batch.attachmentsRequired = options.strictAttachments
        if batch.rowCount == 0 && batch.budgets.isEmpty && batch.rates.isEmpty && batch.pets.allSatisfy({ $0.existing != nil }) {
            throw ImportError(file: url.lastPathComponent, line: 0, problem: .noRows)
        }
        try checkDates(batch, options: options)
        return batch
    }

    /// The command line's dating rules for what a file holds: no observation after now plus the
    /// tolerance, no birth after today, no next due day, follow-up or last day before its record's day.
    /// Spreadsheet weights were checked as they were read; a petlog JSON file's weights (`inFileOrder`)
    /// are checked here in file order among its other records, as when they were records.
    static func checkDates(_ batch: ImportBatch, options: ImportOptions) throws {
        let now = options.now.unixSeconds()
        let today = TimeContext(now: options.now, timeZone: options.timeZone).today
        for p in batch.pets where p.existing == nil {
            if let born = p.born, born.earliestDay > today {
                throw ImportError(location: p.location, problem: .value(.inFuture(born.description, limit: DatingLimit(today))))
            }
        }
        func check(_ detail: RecordDetail, at: Int64, utcOffset: Int, location: @autoclosure () -> SourceLocation) throws {
            do { try RecordDating.check(detail, at: at, utcOffset: utcOffset, now: now) } catch let e as ParseError {
                throw ImportError(location: location(), problem: .value(e))
            }
        }
        let w = batch.weights
        var nextWeight = 0
        func checkWeights(upTo records: Int) throws {
            try w.forEach(upTo: records, from: &nextWeight) { i in
                try check(w.detail(i), at: w.at[i], utcOffset: Int(w.utcOffset[i]), location: w.location(i))
            }
        }
        for (n, r) in batch.records.enumerated() {
            try checkWeights(upTo: n)
            try check(r.detail, at: r.at, utcOffset: r.utcOffset, location: r.location)
        }
        try checkWeights(upTo: batch.records.count)
    }
}

extension ImportReader {
    /// Whether a file starting with `head` is JSON (a petlog export) rather than a weight CSV.
    static func startsJSON<C: Collection<UInt8>>(_ head: C) -> Bool {
        let first = head.prefix(64).drop(while: { $0 == 0x20 || $0 == 0x0A || $0 == 0x0D || $0 == 0x09 || $0 == 0xEF || $0 == 0xBB || $0 == 0xBF }).first
        return first == UInt8(ascii: "{") || first == UInt8(ascii: "[")
    }

    /// What a file that is neither JSON nor a table looks like, from its first bytes (`head`, the whole
    /// file when shorter than asked for); nil for text that may be JSON or a CSV.
    static func content(_ head: [UInt8], whole: Bool, delimiter: UInt8?) -> FileContent? {
        func starts(_ magic: [UInt8], at offset: Int = 0) -> Bool { head.count >= offset + magic.count && Array(head[offset..<offset + magic.count]) == magic }
        let ascii = { (s: String) in Array(s.utf8) }
        if head.allSatisfy({ $0 == 0x20 || $0 == 0x0A || $0 == 0x0D || $0 == 0x09 }) && whole { return .empty }
        if starts([0x89, 0x50, 0x4E, 0x47]) { return .png }
        if starts([0xFF, 0xD8, 0xFF]) { return .jpeg }
        if starts(ascii("GIF8")) { return .gif }
        if starts(ascii("RIFF")) && starts(ascii("WEBP"), at: 8) { return .webp }
        if starts(ascii("ftyp"), at: 4), head.count >= 12, ["heic", "heix", "mif1", "msf1", "avif"].contains(String(decoding: head[8..<12], as: UTF8.self)) { return .heic }
        if starts(ascii("%PDF-")) { return .pdf }
        if starts([0x50, 0x4B, 0x03, 0x04]) || starts([0x50, 0x4B, 0x05, 0x06]) { return .zip }
        if starts([0x1F, 0x8B]) { return .gzip }
        if starts(ascii("SQLite format 3") + [0]) { return .sqlite }
        if starts([0xFF, 0xFE]) || starts([0xFE, 0xFF]) { return .utf16 }
        // UTF-16 without its mark: every other byte zero.
        if head.count >= 8, (stride(from: 0, to: head.count - 1, by: 2).allSatisfy { head[$0] == 0 } || stride(from: 1, to: head.count, by: 2).allSatisfy { head[$0] == 0 }) {
            return .utf16
        }
        // Binary: a NUL or a control character no text has, on the first line (a stray one in a later row
        // of a CSV is that row's error).
        if head.prefix(512).prefix(while: { $0 != 0x0A }).contains(where: { ($0 < 0x20 && $0 != 0x09 && $0 != 0x0A && $0 != 0x0D && $0 != 0x0C) || $0 == 0x7F }) { return .binary }
        if startsJSON(head) { return nil }
        // Text with no separator on its first line is prose, not a table.
        let first = head.prefix { $0 != 0x0A }
        let separators: [UInt8] = delimiter.map { [$0] } ?? [0x2C, 0x3B, 0x09]
        if !first.contains(where: { separators.contains($0) }) && (whole || first.count < head.count) { return .plainText }
        return nil
    }

    /// A file by path: a petlog JSON export is read a piece at a time (it may be hundreds of
    /// megabytes); a weight CSV is read whole.
    static func readFile(path: String, file: String, options: ImportOptions) throws -> ImportBatch {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { throw ImportError(file: file, line: 0, problem: .unreadable) }
        defer { close(fd) }
        let head = try JSONSource.file(fd).read(at: 0, count: 4096, file: file)
        if let what = content(head, whole: head.count < 4096, delimiter: options.delimiter) {
            throw ImportError(file: file, line: 0, problem: .notImportable(what))
        }
        if startsJSON(head) { return try PetlogJSONReader.read(descriptor: fd, file: file, options: options) }
        guard let data = FileManager.default.contents(atPath: path) else { throw ImportError(file: file, line: 0, problem: .unreadable) }
        return try read(data: data, file: file, options: options)
    }

    /// One file's contents: a petlog JSON export (it starts with `{`), else one pet's weight CSV.
    public static func read(data: Data, file: String, options: ImportOptions) throws -> ImportBatch {
        if let what = content([UInt8](data.prefix(4096)), whole: data.count <= 4096, delimiter: options.delimiter) {
            throw ImportError(file: file, line: 0, problem: .notImportable(what))
        }
        if startsJSON(data) { return try PetlogJSONReader.read(data: data, file: file, options: options) }
        return try ScaleCSVReader.read(bytes: [UInt8](data), file: file, pet: options.pet, options: options)
    }
}

/// A header row's column positions by name (case-insensitive), with aliases.
struct Header {
    var index: [String: Int] = [:]
    var names: [String] = []
    let file: String

    init(_ reader: CSVReader) throws {
        file = reader.file
        for i in 0..<reader.count {
            let name = (try reader.string(i) ?? "").trimmingCharacters(in: .whitespaces).lowercased()
            names.append(name)
            if index[name] == nil { index[name] = i }
        }
    }

    func find(_ aliases: String...) -> Int? { find(aliases) }
    func find(_ aliases: [String]) -> Int? { aliases.lazy.compactMap { index[$0] }.first }

    func require(_ aliases: String...) throws -> Int { try require(aliases) }
    func require(_ aliases: [String]) throws -> Int {
        guard let i = find(aliases) else { throw ImportError(file: file, line: 1, problem: .missingColumn(aliases[0])) }
        return i
    }
}

/// A spreadsheet table of records (`SpreadsheetTables.recordSheets`): every row is a pet's (or, without
/// `petRequired`, maybe the household's) at a local time, and `read` makes the rest of the record from it.
struct RecordSheet: Sendable {
    var file: String
    var petRequired = true
    var at: [String]
    var required: [[String]] = []
    var optional: [[String]] = []
    var read: @Sendable (SheetRow) throws -> (note: String?, detail: RecordDetail)
}

/// One row of a spreadsheet table, its cells by the first alias of their column.
struct SheetRow {
    let r: CSVReader
    let columns: [String: Int]
    /// The table's weight column and its unit, when it has one (a visit's weight).
    var weight: (Int, MassUnit?)? = nil

    func text(_ name: String) throws -> String? { try r.text(columns[name]) }
    func required(_ name: String) throws -> String { try r.requiredText(columns[name] ?? Int.max, field: name) }
    func label(_ name: String) throws -> String? { try text(name).map { try TextField.label($0, field: name) } }
    func longText(_ name: String, max: Int = 100_000) throws -> String? { try text(name).map { try TextField.text($0, field: name, max: max) } }
    /// A day written `YYYY-MM-DD`.
    func day(_ name: String) throws -> LocalDate? {
        try text(name).map { raw in try LocalDate.parseISO(Substring(raw)) ?? { throw ParseError.badDate(raw) }() }
    }
}

/// Helpers that turn a parse failure into an error naming the file and line.
extension CSVReader {
    func value<T>(_ body: () throws -> T) throws -> T { try Fields.checked(at: location, body) }

    func text(_ i: Int?) throws -> String? {
        guard let i, i < count else { return nil }
        return try string(i).map(CSVText.restore)
    }

    func requiredText(_ i: Int, field: String) throws -> String {
        guard i < count, let s = try text(i) else { throw ImportError(location: location, problem: .value(.emptyText(field: field))) }
        return s
    }

    func requireFields(_ n: Int) throws {
        if count < n { throw ImportError(location: location, problem: .wrongFieldCount(expected: n, found: count)) }
    }
}

/// The spreadsheet tables a shelter or another program keeps (the benchmark kit's `shelter` set):
/// `pets.csv` with `pet_id`, then tables that point at it. Local times are in `options.timeZone`;
/// a date alone is noon, as on the command line.
enum SpreadsheetTables {
    static func read(directory: URL, options: ImportOptions) throws -> ImportBatch {
        var batch = ImportBatch()
        var converter = LocalTimeConverter(timeZone: options.timeZone)
        var petIndex: [Int64: Int] = [:]
        /// A table's rows, its columns found by their aliases (the first naming them), in the order given; nil
        /// without the file or a row.
        func open(_ name: String, required: [[String]], optional: [[String]] = []) throws -> (CSVReader, Header, [String: Int])? {
            let url = directory.appendingPathComponent(name)
            guard FileManager.default.fileExists(atPath: url.path) else { return nil }
            var r = try CSVReader(contentsOf: url, sniffing: true, delimiter: options.delimiter)
            guard try r.next() else { return nil }
            let h = try Header(r)
            var columns: [String: Int] = [:]
            for aliases in required { columns[aliases[0]] = try h.require(aliases) }
            for aliases in optional { columns[aliases[0]] = h.find(aliases) }
            return (r, h, columns)
        }
        func pet(_ r: CSVReader, _ column: Int) throws -> Int {
            guard let id = r.integer(column), let i = petIndex[id] else {
                throw ImportError(location: r.location, problem: .unknownPet((try? r.text(column)) ?? ""))
            }
            return i
        }
        func local(_ r: CSVReader, _ column: Int) throws -> (Int64, Int) {
            guard column < r.count, var t = r.localDateTime(column) else {
                throw ImportError(location: r.location, problem: .badTime((try? r.text(column)) ?? ""))
            }
            if r.fields[column].count == 10 { t += 12 * 3600 }
            return converter.instant(local: t)
        }

        guard case var (r, h, c)? = try open("pets.csv", required: [["pet_id", "id"], ["name"], ["species"]], optional: [
            ["breed"], ["sex"], ["birth_date", "born", "birthday"], ["deceased_on", "died_on"], ["neutered"], ["microchip"], ["color", "colour"], ["notes", "note"],
        ]) else { throw ImportError(file: "pets.csv", line: 0, problem: .noRows) }
        // safe: `open` returns a table only when every required column (pet_id here) is found.
        let cId = c["pet_id"]!
        while try r.next() {
            try r.requireFields(h.names.count)
            guard let id = r.integer(cId) else { throw ImportError(location: r.location, problem: .value(.notANumber(try r.text(cId) ?? ""))) }
            let row = SheetRow(r: r, columns: c)
            let pet = try r.value { () -> ImportPet in
                let name = try TextField.name(try row.required("name")), speciesText = try row.required("species").lowercased()
                guard let species = Species(rawValue: speciesText) else {
                    throw ParseError.unknownChoice(field: "species", value: speciesText, accepted: Species.allCases.map(\.rawValue))
                }
                let died = try row.day("deceased_on")
                return ImportPet(location: r.location, fileId: id, name: name, species: species,
                                 breed: try row.label("breed"), sex: try row.text("sex").map(Sex.parse) ?? .unknown,
                                 neutered: try row.text("neutered").map(SpreadsheetTables.flag) ?? false,
                                 born: try row.text("birth_date").map(PartialDate.parse), microchip: try row.text("microchip").flatMap(Microchip.normalize),
                                 color: try row.label("color"), notes: try row.longText("notes"), archivedOn: died, archiveReason: died == nil ? nil : .passedAway)
            }
            try batch.add(pet, index: &petIndex)
        }

        // weights.csv: the bulk path, numbers read from bytes.
        if case var (r, h, c)? = try open("weights.csv", required: [["pet_id"], ["measured_at", "date", "time", "at"]], optional: [["body_condition", "bcs"]]) {
            // safe: `open` returns a table only when every required column (pet_id, measured_at) is found.
            let (cPet, cAt, (cWeight, unit)) = (c["pet_id"]!, c["measured_at"]!, try weightColumn(h, fallback: options.unit))
            batch.weights.reserve(r.bytes.count / 24)
            while try r.next() {
                if r.count != h.names.count { throw ImportError(location: r.location, problem: .wrongFieldCount(expected: h.names.count, found: r.count)) }
                let p = try pet(r, cPet)
                let (at, offset) = try local(r, cAt)
                let grams = try SpreadsheetTables.grams(r, cWeight, unit)
                let bcs = try c["body_condition"].flatMap { col in try r.integer(col).map { v in try r.value { try BodyConditionScore(Int(clamping: v), field: "body_condition").value } } }
                try options.checkWeight(at: at, utcOffset: offset, location: r.location)
                batch.weights.append(pet: p, at: at, utcOffset: offset, grams: grams, bodyCondition: bcs)
            }
        }
        for sheet in recordSheets {
            guard case var (r, h, c)? = try open(sheet.file, required: (sheet.petRequired ? [["pet_id"]] : []) + [sheet.at] + sheet.required,
                                                optional: (sheet.petRequired ? [] : [["pet_id"]]) + sheet.optional) else { continue }
            // safe: `open` returns a table only when every required column (the sheet's time column) is found.
            let cPet = c["pet_id"], cAt = c[sheet.at[0]]!, weight = try? weightColumn(h, fallback: .kilogram)
            while try r.next() {
                try r.requireFields(h.names.count)
                let p: Int? = try cPet.flatMap { c in sheet.petRequired || !r.fields[c].isEmpty ? try pet(r, c) : nil }
                let (at, offset) = try local(r, cAt)
                let (note, detail) = try r.value { try sheet.read(SheetRow(r: r, columns: c, weight: weight)) }
                batch.records.append(ImportRecord(location: r.location, pet: p, at: at, utcOffset: offset, note: note, detail: detail))
            }
        }
        batch.records.sort { ($0.at, $0.location.file, $0.location.line) < ($1.at, $1.location.file, $1.location.line) }
        return batch
    }

    /// The spreadsheet tables of records, in the order they are read: a table's file, its pet column
    /// (`expenses.csv` may leave it empty: the household's), its time column and the columns it requires
    /// and may have (aliases in order, the first naming it in messages and in `SheetRow`), and the record
    /// a row is, its checks in the order a row's faults are reported.
    static let recordSheets: [RecordSheet] = [
        RecordSheet(file: "symptoms.csv", at: ["observed_at", "at", "date"], required: [["symptom", "code"], ["severity"]],
                    optional: [["note", "notes"], ["duration_minutes"]]) { row in
            let raw = try TextField.label(try row.required("symptom"), field: "symptom")
            let code = SymptomCode.match(raw)
            let severityText = try row.text("severity") ?? ""
            guard let severity = Int(severityText).flatMap(SymptomSeverity.init) else {
                throw ParseError.outOfRange(field: "severity", value: severityText, min: SymptomSeverity.range.lowerBound, max: SymptomSeverity.range.upperBound)
            }
            let note = try row.longText("note")
            return (note, .symptom(Symptom(code: code?.rawValue ?? raw, isListed: code != nil, severity: severity,
                                           durationMinutes: try row.text("duration_minutes").map { try count($0, field: "duration_minutes") })))
        },
        RecordSheet(file: "visits.csv", at: ["visited_on", "date", "at"],
                    optional: [["clinic"], ["vet"], ["reason"], ["diagnosis"], ["treatment"]]) { row in
            var grams: Int?
            if let (c, unit) = row.weight, c < row.r.count, !row.r.fields[c].isEmpty { grams = try SpreadsheetTables.grams(row.r, c, unit) }
            return (nil, .visit(Visit(clinic: try row.label("clinic"), vet: try row.label("vet"), reason: try row.label("reason"),
                                      diagnosis: try row.longText("diagnosis", max: 2000), treatment: try row.longText("treatment", max: 2000),
                                      weight: grams.map(Mass.init(grams:)))))
        },
        RecordSheet(file: "vaccinations.csv", at: ["given_on", "date", "at"], required: [["vaccine"]],
                    optional: [["valid_until", "next_due"], ["lot"], ["product"], ["clinic"]]) { row in
            let due = try row.day("valid_until")
            return (nil, .vaccination(Vaccination(vaccine: VaccineName.normalize(try TextField.label(try row.required("vaccine"), field: "vaccine")),
                                                  product: try row.label("product"), lot: try row.label("lot"), clinic: try row.label("clinic"), nextDue: due)))
        },
        RecordSheet(file: "expenses.csv", petRequired: false, at: ["spent_on", "date", "at"], required: [["category"], ["amount"], ["currency"]],
                    optional: [["description", "note"], ["merchant"]]) { row in
            let code = try row.required("currency").uppercased()
            guard let currency = Currency.named(code) else { throw ParseError.unknownCurrency(code) }
            let money = try Money.parse(try row.required("amount"), defaultCurrency: currency)
            let note = try row.longText("description")
            return (note, .expense(Expense(money: money, category: try TextField.label(try row.required("category"), field: "category"),
                                           merchant: try row.label("merchant"))))
        },
    ]

    /// The weight column and its unit: from the header (`weight_kg`, `weight (lb)`, `grams`), else `fallback`.
    static func weightColumn(_ h: Header, fallback: MassUnit?) throws -> (Int, MassUnit?) {
        for (i, name) in h.names.enumerated() {
            if let unit = weightUnit(inHeader: name) { return (i, unit) }
        }
        // A weight column in another language names its unit as it likes (`Gewicht (kg)`, `체중_kg`).
        let words = ["weight", "gewicht", "poids", "peso", "vikt", "vekt", "vægt", "paino", "waga", "체중", "몸무게", "무게", "体重", "重量"]
        for (i, name) in h.names.enumerated() where words.contains(where: { name.hasPrefix($0) }) {
            if let unit = unit(inAnyHeader: name) { return (i, unit) }
        }
        if let i = h.find("weight", "mass", "gewicht", "poids", "peso", "체중", "몸무게", "体重") { return (i, fallback) }
        throw ImportError(file: h.file, line: 1, problem: .missingColumn("weight"))
    }

    /// The unit a weight column's header names: `weight_kg`, `Weight (lb)`, `weight[g]`, `grams`; nil for none.
    static func weightUnit(inHeader name: String) -> MassUnit? {
        let n = name.trimmingCharacters(in: .whitespaces).lowercased().replacingOccurrences(of: " ", with: "")
        for (suffix, unit) in [("kg", MassUnit.kilogram), ("lb", .pound), ("lbs", .pound), ("g", .gram), ("oz", .ounce)] {
            if n == "weight_\(suffix)" || n == "weight(\(suffix))" || n == "weight[\(suffix)]" { return unit }
        }
        return n == "grams" ? .gram : nil
    }

    /// The unit any header names, in any language: in parentheses or brackets (`Gewicht (kg)`, `体重[lb]`),
    /// or last after an underscore, a space or " in " (`peso_g`, `Poids kg`, `Weight in lb`); nil for none.
    static func unit(inAnyHeader name: String) -> MassUnit? {
        if let unit = weightUnit(inHeader: name) { return unit }
        let n = name.trimmingCharacters(in: .whitespaces).lowercased()
        let units: [String: MassUnit] = ["kg": .kilogram, "kgs": .kilogram, "kilogram": .kilogram, "kilograms": .kilogram, "kilo": .kilogram,
                                         "kilos": .kilogram, "킬로그램": .kilogram, "キログラム": .kilogram, "キロ": .kilogram, "公斤": .kilogram,
                                         "g": .gram, "gr": .gram, "gram": .gram, "grams": .gram, "gramm": .gram, "gramos": .gram, "grammes": .gram,
                                         "그램": .gram, "グラム": .gram, "克": .gram,
                                         "lb": .pound, "lbs": .pound, "pound": .pound, "pounds": .pound, "파운드": .pound, "ポンド": .pound,
                                         "oz": .ounce, "ounce": .ounce, "ounces": .ounce, "온스": .ounce, "オンス": .ounce]
        // The last bracketed part: `Gewicht (kg)`, `Weight [lb]`, `体重（kg）`.
        for (open, close) in [("(", ")"), ("[", "]"), ("（", "）"), ("【", "】")] {
            if n.hasSuffix(close), let o = n.range(of: open, options: .backwards) {
                let inner = n[o.upperBound..<n.index(before: n.endIndex)].trimmingCharacters(in: .whitespaces)
                return units[inner]
            }
        }
        // The last word after an underscore or a space: `peso_g`, `Gewicht kg`, `Weight in lb`.
        guard let cut = n.lastIndex(where: { $0 == "_" || $0 == " " }) else { return nil }
        return units[String(n[n.index(after: cut)...])]
    }

    /// Grams from a weight cell: fast for plain decimals, else through `Mass.parse` ("4.2 kg", "9lb 4oz").
    static func grams(_ r: CSVReader, _ column: Int, _ unit: MassUnit?) throws -> Int {
        guard column < r.count else { throw ImportError(location: r.location, problem: .wrongFieldCount(expected: column + 1, found: r.count)) }
        if let unit, let (digits, scale) = r.decimal(column), scale <= 6 {
            var pow: Int64 = 1
            for _ in 0..<scale { pow *= 10 }
            let mgPerUnit: Int64 = unit == .kilogram ? 1_000_000 : unit == .gram ? 1000 : unit == .pound ? 453_592 : 28_350
            let (mg, overflow) = digits.multipliedReportingOverflow(by: mgPerUnit)
            if !overflow {
                let g = (mg / pow + 500) / 1000
                guard g > 0, g <= Int64(Mass.maximumGrams) else {
                    throw ImportError(location: r.location, problem: .value(.massOutOfRange((try? r.text(column)) ?? "")))
                }
                if unit == .kilogram || unit == .gram { return Int(g) }
            }
        }
        var raw = (try r.text(column)) ?? ""
        if r.decimalComma { raw = raw.replacingOccurrences(of: ",", with: ".") }  // `4,2 kg` in a `;` file
        return try r.value { try Mass.parse(raw, defaultUnit: unit).grams }
    }

    static func flag(_ raw: String) throws -> Bool {
        switch raw.lowercased() {
        case "1", "true", "yes", "y": return true
        case "0", "false", "no", "n": return false
        default: throw ParseError.unknownChoice(field: "neutered", value: raw, accepted: ["0", "1"])
        }
    }

    static func count(_ raw: String, field: String) throws -> Int {
        guard let v = Int(raw), v >= 0, v <= 1_000_000_000 else { throw ParseError.outOfRange(field: field, value: raw, min: 0, max: 1_000_000_000) }
        return v
    }
}

/// Local wall-clock seconds (as if UTC) to the instant and its offset in a zone, cached per local day:
/// a day whose offset is the same at both ends needs no further lookups.
public struct LocalTimeConverter {
    let timeZone: TimeZone
    var cache: [Int64: Int] = [:]  // local day number → offset, for days without a transition

    public init(timeZone: TimeZone) { self.timeZone = timeZone }

    /// The UTC instant and offset for a local time, by `WallClockRule` as every entry path reads one.
    public mutating func instant(local: Int64) -> (at: Int64, offset: Int) {
        let day = local >= 0 ? local / 86400 : (local - 86399) / 86400
        if let o = cache[day] { return (local - Int64(o), o) }
        let start = WallClockRule.resolve(local: day * 86400, in: timeZone).offset
        let end = WallClockRule.resolve(local: day * 86400 + 86399, in: timeZone).offset
        let noon = WallClockRule.resolve(local: day * 86400 + 43200, in: timeZone).offset
        if start == end && start == noon { cache[day] = start; return (local - Int64(start), start) }
        return WallClockRule.resolve(local: local, in: timeZone)
    }
}
