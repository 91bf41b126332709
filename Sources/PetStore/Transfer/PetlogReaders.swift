import Foundation
import PetModel

/// Named values of one pet or record, from a JSON object or a CSV row; columns are named as in the
/// database (docs/json.md, docs/import.md). Every value is checked as the commands check it.
struct Fields {
    var values: [String: String]
    var location: SourceLocation

    func text(_ key: String) -> String? { values[key].flatMap { $0.isEmpty ? nil : $0 } }

    func required(_ key: String) throws -> String {
        guard let v = text(key) else { throw ImportError(location: location, problem: .missingColumn(key)) }
        return v
    }

    func int(_ key: String, _ range: ClosedRange<Int64>) throws -> Int64? {
        guard let raw = text(key) else { return nil }
        guard let v = Int64(raw), range.contains(v) else {
            throw ImportError(location: location, problem: .value(.outOfRange(field: key, value: raw, min: Int(range.lowerBound), max: Int(min(range.upperBound, Int64(Int32.max))))))
        }
        return v
    }

    func bool(_ key: String) throws -> Bool {
        switch text(key) {
        case nil, "0", "false": return false
        case "1", "true": return true
        case let v?: throw ImportError(location: location, problem: .value(.unknownChoice(field: key, value: v, accepted: ["true", "false"])))
        }
    }

    func choice<T: RawRepresentable & CaseIterable>(_ key: String, _ type: T.Type) throws -> T? where T.RawValue == String {
        guard let raw = text(key) else { return nil }
        guard let v = T(rawValue: raw) else {
            throw ImportError(location: location, problem: .value(.unknownChoice(field: key, value: raw, accepted: T.allCases.map(\.rawValue))))
        }
        return v
    }

    func day(_ key: String) throws -> LocalDate? {
        guard let raw = text(key) else { return nil }
        guard let d = LocalDate.parseISO(Substring(raw)) else { throw ImportError(location: location, problem: .badTime(raw)) }
        return d
    }

    func checked<T>(_ body: () throws -> T) throws -> T {
        do { return try body() } catch let e as ParseError {
            if case .badDate(let raw) = e { throw ImportError(location: location, problem: .badTime(raw)) }
            throw ImportError(location: location, problem: .value(e))
        }
    }

    func label(_ key: String) throws -> String? { try text(key).map { v in try checked { try TextField.label(v, field: key) } } }
    func longText(_ key: String) throws -> String? { try text(key).map { v in try checked { try TextField.text(v, field: key) } } }

    /// An instant written as RFC 3339 with its offset (`2026-11-20T08:30:00+09:00`).
    func instant(_ key: String) throws -> (Int64, Int) {
        let raw = try required(key)
        guard raw.utf8.count >= 20, let offset = ScaleCSVReader.rfc3339Offset(raw),
              let local = Array(raw.utf8.prefix(19)).withUnsafeBufferPointer({ CSVReader.localDateTime($0, 0..<19) }) else {
            throw ImportError(location: location, problem: .badTime(raw))
        }
        guard (-64800...64800).contains(offset) else { throw ImportError(location: location, problem: .badTime(raw)) }
        return (local - Int64(offset), offset)
    }

    func currency(_ key: String) throws -> Currency {
        let code = try required(key)
        guard let c = Currency.named(code) else { throw ImportError(location: location, problem: .value(.unknownCurrency(code))) }
        return c
    }

    func pet() throws -> ImportPet {
        let species = try choice("species", Species.self) ?? { throw ImportError(location: location, problem: .missingColumn("species")) }()
        let archivedOn = try day("archived_on")
        let reason = try choice("archive_reason", ArchiveReason.self)
        if (archivedOn == nil) != (reason == nil) { throw ImportError(location: location, problem: .missingColumn(archivedOn == nil ? "archived_on" : "archive_reason")) }
        return ImportPet(location: location, fileId: try int("id", 1...Int64.max), name: try checked { try TextField.name(try required("name")) },
                         species: species, breed: try label("breed"), sex: try choice("sex", Sex.self) ?? .unknown, neutered: try bool("neutered"),
                         born: try text("born").map { v in try checked { try PartialDate.parse(v) } }, microchip: try label("microchip"),
                         color: try label("color"), notes: try longText("notes"), archivedOn: archivedOn, archiveReason: reason)
    }

    /// The detail of `kind` from its columns.
    func detail(_ kind: RecordKind) throws -> RecordDetail {
        switch kind {
        case .weight:
            return .weight(Weight(mass: Mass(grams: Int(try int("grams", 1...Int64(Mass.maximumGrams)) ?? { throw ImportError(location: location, problem: .missingColumn("grams")) }())),
                                  bodyCondition: try int("body_condition", 1...9).map(Int.init)))
        case .meal:
            let unit = try choice("amount_unit", Amount.Unit.self)
            var amount: Amount?
            if let raw = text("amount") {
                guard let v = Double(raw), v > 0, v <= 100_000, let unit else { throw ImportError(location: location, problem: .value(.badAmount(raw))) }
                amount = Amount(value: v, unit: unit)
            }
            return .meal(Meal(food: try label("food") ?? { throw ImportError(location: location, problem: .missingColumn("food")) }(),
                              type: try choice("type", MealType.self) ?? .meal, amount: amount))
        case .stool:
            return .stool(Stool(score: Int(try int("score", 1...7) ?? { throw ImportError(location: location, problem: .missingColumn("score")) }()),
                                color: try label("color"), blood: try bool("blood"), mucus: try bool("mucus")))
        case .urine:
            return .urine(Urine(color: try label("color"), amount: try choice("amount", UrineAmount.self), straining: try bool("straining"), blood: try bool("blood")))
        case .symptom:
            return .symptom(Symptom(code: try label("code") ?? { throw ImportError(location: location, problem: .missingColumn("code")) }(),
                                    isListed: try bool("listed"), severity: Int(try int("severity", 1...5) ?? 3),
                                    durationMinutes: try int("duration_minutes", 0...1_000_000_000).map(Int.init)))
        case .diary:
            return .diary(Diary(text: try longText("text") ?? { throw ImportError(location: location, problem: .missingColumn("text")) }(),
                                mood: try choice("mood", Mood.self)))
        case .visit:
            var cost: Money?
            if let minor = try int("cost_minor", 0...Money.maximumMinorUnits) { cost = Money(minorUnits: minor, currency: try currency("cost_currency")) }
            return .visit(Visit(clinic: try label("clinic"), vet: try label("vet"), reason: try label("reason"),
                                diagnosis: try longText("diagnosis"), treatment: try longText("treatment"),
                                weight: try int("weight_grams", 1...Int64(Mass.maximumGrams)).map { Mass(grams: Int($0)) },
                                followUp: try day("follow_up"), cost: cost))
        case .vaccination:
            return .vaccination(Vaccination(vaccine: try label("vaccine") ?? { throw ImportError(location: location, problem: .missingColumn("vaccine")) }(),
                                            product: try label("product"), lot: try label("lot"), clinic: try label("clinic"), nextDue: try day("next_due")))
        case .medication:
            var stopped: Date?
            if let raw = text("stopped_at") {
                if let seconds = Int64(raw) { stopped = Date(timeIntervalSince1970: Double(seconds)) } else {
                    let (t, _) = try instant("stopped_at")
                    stopped = Date(timeIntervalSince1970: Double(t))
                }
            }
            return .medication(Medication(name: try label("name") ?? { throw ImportError(location: location, problem: .missingColumn("name")) }(),
                                          dose: try label("dose"), route: try choice("route", Route.self),
                                          intervalSeconds: try int("interval_seconds", 1...Int64(Int32.max)).map(Int.init),
                                          times: try text("times").map { v in try checked { try Medication.parseTimes(v) } } ?? [],
                                          endsOn: try day("ends_on"), stoppedAt: stopped))
        case .dose:
            return .dose(Dose(medicationId: try int("medication_id", 1...Int64.max) ?? { throw ImportError(location: location, problem: .missingColumn("medication_id")) }(),
                              medicationName: text("medication") ?? "", skipped: try bool("skipped")))
        case .expense:
            let minor = try int("amount_minor", 0...Money.maximumMinorUnits) ?? { throw ImportError(location: location, problem: .missingColumn("amount_minor")) }()
            return .expense(Expense(money: Money(minorUnits: minor, currency: try currency("currency")),
                                    category: try label("category") ?? { throw ImportError(location: location, problem: .missingColumn("category")) }(),
                                    merchant: try label("merchant"), payment: try choice("payment", Payment.self)))
        }
    }
}

/// A petlog JSON export (docs/json.md). Its lines are read one object at a time when it has the
/// layout `petlog export` writes (one pet or record per line), so a big file is never one big tree.
enum PetlogJSONReader {
    static func read(data: Data, file: String, options: ImportOptions) throws -> ImportBatch {
        var batch = ImportBatch()
        var petIndex: [Int64: Int] = [:]
        var section = ""
        var sawHeader = false, sawEnd = false
        var lineNumber = 0
        for rawLine in data.split(separator: 0x0A, omittingEmptySubsequences: false) {
            lineNumber += 1
            var line = rawLine
            while let last = line.last, last == 0x0D || last == 0x20 { line = line.dropLast() }
            if line.last == UInt8(ascii: ",") { line = line.dropLast() }
            if line.isEmpty { continue }
            let location = SourceLocation(file: file, line: lineNumber)
            if !sawHeader {
                guard line.starts(with: Array("{\"format\": \"petlog\"".utf8)) else { throw ImportError(location: location, problem: .unknownFormat) }
                sawHeader = true
                if line.last == UInt8(ascii: "[") { section = "pets" }  // same line as "pets": [
                continue
            }
            if line.elementsEqual(Array("\"pets\": [".utf8)) { section = "pets"; continue }
            if line.elementsEqual(Array("],".utf8)) || line.elementsEqual(Array("]".utf8)) { section = ""; continue }
            if line.elementsEqual(Array("\"records\": [".utf8)) { section = "records"; continue }
            if line.elementsEqual(Array("]}".utf8)) { sawEnd = true; section = ""; continue }
            guard line.first == UInt8(ascii: "{"), !section.isEmpty,
                  let object = try? JSONSerialization.jsonObject(with: Data(line)) as? [String: Any] else {
                throw ImportError(location: location, problem: .badJSON)
            }
            if section == "pets" {
                let pet = try fields(object, location).pet()
                guard let id = pet.fileId, petIndex[id] == nil else { throw ImportError(location: location, problem: .duplicateId(pet.fileId ?? 0)) }
                petIndex[id] = batch.pets.count
                batch.pets.append(pet)
            } else {
                batch.records.append(try record(object, location, petIndex))
            }
        }
        guard sawHeader, sawEnd else { throw ImportError(file: file, line: lineNumber, problem: .badJSON) }
        return batch
    }

    /// Flattens an object to column names: nested money becomes `cost_minor`/`cost_currency` or
    /// `amount_minor`/`currency`, numbers and booleans become their text.
    static func fields(_ object: [String: Any], _ location: SourceLocation) throws -> Fields {
        var values: [String: String] = [:]
        for (k, v) in object {
            switch v {
            case let s as String: values[k] = s
            case let n as NSNumber:
                if String(describing: type(of: n)).contains("Boolean") || String(cString: n.objCType) == "c" { values[k] = n.boolValue ? "1" : "0" } else {
                    guard let i = Int64(exactly: n.doubleValue) ?? (n.stringValue.contains(".") ? nil : Int64(n.stringValue)) else {
                        values[k] = n.stringValue; continue
                    }
                    values[k] = String(i)
                }
            case is NSNull: break
            case let money as [String: Any] where k == "cost" || k == "money":
                let minor = (money["minor_units"] as? NSNumber).map { String($0.int64Value) }
                let code = money["currency"] as? String
                if k == "cost" { values["cost_minor"] = minor; values["cost_currency"] = code } else { values["amount_minor"] = minor; values["currency"] = code }
            default: break
            }
        }
        return Fields(values: values, location: location)
    }

    static func record(_ object: [String: Any], _ location: SourceLocation, _ petIndex: [Int64: Int]) throws -> ImportRecord {
        let head = try fields(object, location)
        guard let kind = try head.choice("kind", RecordKind.self) else { throw ImportError(location: location, problem: .missingColumn("kind")) }
        guard let detailObject = object[kind.rawValue] as? [String: Any] else { throw ImportError(location: location, problem: .missingColumn(kind.rawValue)) }
        let detail = try fields(detailObject, location).detail(kind)
        var pet: Int?
        if let id = try head.int("pet_id", 1...Int64.max) {
            guard let i = petIndex[id] else { throw ImportError(location: location, problem: .unknownPet(String(id))) }
            pet = i
        } else if kind != .expense {
            throw ImportError(location: location, problem: .missingColumn("pet_id"))
        }
        let (at, offset) = try head.instant("at")
        var attachments: [Attachment] = []
        for (i, a) in ((object["attachments"] as? [[String: Any]]) ?? []).enumerated() {
            guard let sha = a["sha256"] as? String, sha.count == 64, sha.allSatisfy({ $0.isHexDigit && !$0.isUppercase }),
                  let name = a["name"] as? String, let type = a["media_type"] as? String, let size = (a["size"] as? NSNumber)?.int64Value else {
                throw ImportError(location: location, problem: .badJSON)
            }
            attachments.append(Attachment(sha256: sha, originalName: name, mediaType: type, size: size, position: i))
        }
        return ImportRecord(location: location, fileId: try head.int("id", 1...Int64.max), pet: pet, at: at, utcOffset: offset,
                            note: try head.longText("note"), starred: try head.bool("starred"), detail: detail, attachments: attachments)
    }
}

/// A folder written by `petlog export --format csv`: one CSV per table, columns as in the database
/// (instants as RFC 3339 with their offset; docs/import.md).
enum PetlogCSVReader {
    static func rows(_ directory: URL, _ table: String) throws -> [Fields] {
        let url = directory.appendingPathComponent("\(table).csv")
        guard FileManager.default.fileExists(atPath: url.path) else { return [] }
        var r = try CSVReader(contentsOf: url)
        guard try r.next() else { return [] }
        let header = try Header(r)
        var out: [Fields] = []
        while try r.next() {
            if r.count != header.names.count { throw ImportError(location: r.location, problem: .wrongFieldCount(expected: header.names.count, found: r.count)) }
            var values: [String: String] = [:]
            for (i, name) in header.names.enumerated() { values[name] = try r.text(i) }
            out.append(Fields(values: values, location: r.location))
        }
        return out
    }

    static func read(directory: URL, options: ImportOptions) throws -> ImportBatch {
        var batch = ImportBatch()
        var petIndex: [Int64: Int] = [:]
        for f in try rows(directory, "pet") {
            let pet = try f.pet()
            guard let id = pet.fileId, petIndex[id] == nil else { throw ImportError(location: f.location, problem: .duplicateId(pet.fileId ?? 0)) }
            petIndex[id] = batch.pets.count
            batch.pets.append(pet)
        }
        var details: [RecordKind: [Int64: Fields]] = [:]
        for kind in RecordKind.allCases {
            var byId: [Int64: Fields] = [:]
            for f in try rows(directory, kind.rawValue) {
                guard let id = try f.int("record_id", 1...Int64.max) else { throw ImportError(location: f.location, problem: .missingColumn("record_id")) }
                byId[id] = f
            }
            details[kind] = byId
        }
        var files: [Int64: [Attachment]] = [:]
        for f in try rows(directory, "attachment") {
            guard let id = try f.int("record_id", 1...Int64.max), let sha = f.text("sha256"), sha.count == 64 else {
                throw ImportError(location: f.location, problem: .missingColumn("sha256"))
            }
            files[id, default: []].append(Attachment(sha256: sha, originalName: try f.required("original_name"), mediaType: try f.required("media_type"),
                                                     size: try f.int("size", 0...Int64.max) ?? 0, position: Int(try f.int("position", 0...10_000) ?? 0)))
        }
        for f in try rows(directory, "record") {
            guard let id = try f.int("id", 1...Int64.max) else { throw ImportError(location: f.location, problem: .missingColumn("id")) }
            guard let kind = try f.choice("kind", RecordKind.self) else { throw ImportError(location: f.location, problem: .missingColumn("kind")) }
            guard let detailFields = details[kind]?[id] else { throw ImportError(location: f.location, problem: .missingColumn(kind.rawValue)) }
            var pet: Int?
            if let p = try f.int("pet_id", 1...Int64.max) {
                guard let i = petIndex[p] else { throw ImportError(location: f.location, problem: .unknownPet(String(p))) }
                pet = i
            } else if kind != .expense {
                throw ImportError(location: f.location, problem: .missingColumn("pet_id"))
            }
            let (at, offset) = try f.instant("at")
            batch.records.append(ImportRecord(location: f.location, fileId: id, pet: pet, at: at, utcOffset: offset, note: try f.longText("note"),
                                              starred: try f.bool("starred"), detail: try detailFields.detail(kind),
                                              attachments: (files[id] ?? []).sorted { $0.position < $1.position }))
        }
        batch.records.sort { ($0.fileId ?? 0) < ($1.fileId ?? 0) }
        return batch
    }
}
