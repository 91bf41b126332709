import Foundation
import PetModel

/// Where an imported value came from: the file's name and the line its row starts on.
public struct SourceLocation: Equatable, Sendable, CustomStringConvertible {
    public var file: String
    public var line: Int
    /// The character on the line where a JSON file breaks (nil: the whole line).
    public var column: Int?
    public init(file: String, line: Int, column: Int? = nil) { self.file = file; self.line = line; self.column = column }
    public var description: String { line > 0 ? "\(file):\(line)" + (column.map { ":\($0)" } ?? "") : file }
}

/// What a file that petlog cannot import looks like, from its first bytes.
public enum FileContent: Equatable, Sendable {
    case empty, binary, png, jpeg, gif, webp, heic, pdf, zip, gzip, sqlite, utf16
    /// Text whose first line has no field separator: prose, not a table.
    case plainText
}

/// Why an import was refused. Nothing is written when one is thrown.
public struct ImportError: Error, Equatable, Sendable {
    public enum Problem: Equatable, Sendable {
        case unreadable
        case unknownFormat
        /// A file that is neither JSON nor a table petlog reads, and what it looks like.
        case notImportable(FileContent)
        case unterminatedQuote
        case malformedRow
        case invalidUTF8
        case badJSON
        /// A JSON file that ends before its value does (cut short); the location is its end.
        case jsonEndsEarly
        case missingColumn(String)
        /// A column not found among those the header gave when split at `separator` (`--delimiter` changes it).
        case missingColumnWithSeparator(String, separator: String, found: [String])
        /// A date such as `11/03/2026` that reads as two days, in a file where every date does (`--date-format` decides).
        case ambiguousDate(String)
        case wrongFieldCount(expected: Int, found: Int)
        case value(ParseError)
        case unknownPet(String)
        case unknownMedication(Int64)
        /// An expense share whose first share (`split_of`) is not before it in the file.
        case unknownSplit(Int64)
        case duplicateId(Int64)
        case missingAttachment(String)
        case attachmentHashMismatch(String)
        case noRows
        /// Not a date or time an import reads (they differ from the command line's: no "today", no spans).
        case badTime(String)
        /// A plain weight CSV needs `--pet`.
        case needsPet
        /// A plain weight CSV's numbers have no unit: `--weight-unit` or a header such as `weight_kg`.
        case needsUnit
    }
    public var location: SourceLocation
    public var problem: Problem

    public init(location: SourceLocation, problem: Problem) { self.location = location; self.problem = problem }
    public init(file: String, line: Int, problem: Problem) { self.init(location: SourceLocation(file: file, line: line), problem: problem) }
}

/// A pet as an import file describes it, or a reference to one already in the database.
public struct ImportPet: Sendable {
    public var location: SourceLocation
    /// The file's own id (kept when importing into an empty database).
    public var fileId: Int64?
    /// Set for `--pet Coco`: the records go to this existing pet and the fields below are ignored.
    public var existing: PetRef?
    public var name: String
    public var species: Species
    public var breed: String?
    public var sex: Sex
    public var neutered: Bool
    public var born: PartialDate?
    public var microchip: String?
    public var color: String?
    public var notes: String?
    public var archivedOn: LocalDate?
    public var archiveReason: ArchiveReason?
    public var health: PetHealth
    /// When the pet was added and last changed (Unix seconds), as the file says; nil: the import's time.
    public var createdAt: Int64?
    public var updatedAt: Int64?

    public init(location: SourceLocation, fileId: Int64? = nil, existing: PetRef? = nil, name: String, species: Species,
                breed: String? = nil, sex: Sex = .unknown, neutered: Bool = false, born: PartialDate? = nil, microchip: String? = nil,
                color: String? = nil, notes: String? = nil, archivedOn: LocalDate? = nil, archiveReason: ArchiveReason? = nil,
                health: PetHealth = PetHealth(), createdAt: Int64? = nil, updatedAt: Int64? = nil) {
        self.location = location; self.fileId = fileId; self.existing = existing; self.name = name; self.species = species
        self.breed = breed; self.sex = sex; self.neutered = neutered; self.born = born; self.microchip = microchip
        self.color = color; self.notes = notes; self.archivedOn = archivedOn; self.archiveReason = archiveReason; self.health = health
        self.createdAt = createdAt; self.updatedAt = updatedAt
    }

    public static func existing(_ ref: PetRef) -> ImportPet {
        ImportPet(location: SourceLocation(file: "--pet", line: 0), existing: ref, name: ref.description, species: .other)
    }
}

/// One record of any kind; `pet` indexes `ImportBatch.pets` (nil: a household expense).
public struct ImportRecord: Sendable {
    public var location: SourceLocation
    public var fileId: Int64?
    public var pet: Int?
    public var at: Int64
    public var utcOffset: Int
    public var note: String?
    public var starred: Bool
    /// For doses, `medicationId` is the medication's id in the file.
    public var detail: RecordDetail
    public var attachments: [Attachment]
    /// When the record was first written and last changed (Unix seconds), as the file says; nil: the import's time.
    public var createdAt: Int64?
    public var updatedAt: Int64?

    public init(location: SourceLocation, fileId: Int64? = nil, pet: Int?, at: Int64, utcOffset: Int, note: String? = nil,
                starred: Bool = false, detail: RecordDetail, attachments: [Attachment] = [], createdAt: Int64? = nil, updatedAt: Int64? = nil) {
        self.location = location; self.fileId = fileId; self.pet = pet; self.at = at; self.utcOffset = utcOffset; self.note = note
        self.starred = starred; self.detail = detail; self.attachments = attachments; self.createdAt = createdAt; self.updatedAt = updatedAt
    }

    /// `createdAt` and `updatedAt`, the import's time `now` where the file said nothing.
    public func written(now: Int64) -> (created: Int64, updated: Int64) {
        let created = createdAt ?? now
        return (created, updatedAt ?? created)
    }
}

/// Weights by the hundred thousand, column by column (no note, star or attachment; no file ids).
public struct ImportBudget: Sendable {
    public var location: SourceLocation
    public var fileId: Int64?
    public var pet: Int?
    public var budget: Budget
    public init(location: SourceLocation, fileId: Int64?, pet: Int?, budget: Budget) {
        self.location = location; self.fileId = fileId; self.pet = pet; self.budget = budget
    }
}

public struct ImportWeights: Sendable {
    public var pet: [Int32] = []
    public var at: [Int64] = []
    public var utcOffset: [Int32] = []
    public var grams: [Int32] = []
    public var bodyCondition: [Int8] = []  // 0: none
    /// Weights of a petlog JSON file, which have ids and lines and sit among the file's other records:
    /// each one's id, line, and how many of the batch's `records` come before it in the file. The
    /// importer then writes them in file order with the rest; empty for the spreadsheet paths.
    public var fileId: [Int64] = []
    public var line: [Int32] = []
    public var recordsBefore: [Int32] = []
    /// When each weight of a petlog JSON file was written and last changed (Unix seconds), `ImportWeights.notSaid`
    /// where the file does not say; empty for the spreadsheet paths (the import's time for all).
    public var createdAt: [Int64] = []
    public var updatedAt: [Int64] = []
    public static let notSaid = Int64.min
    /// The file `line` refers to.
    public var file = ""
    public var count: Int { at.count }
    /// In file order among the batch's records (see `fileId`).
    public var inFileOrder: Bool { !recordsBefore.isEmpty }
    public init() {}

    /// One weight record of a petlog JSON file (no note, star or attachment: those stay `ImportRecord`s).
    package mutating func append(fileId id: Int64, line l: Int, recordsBefore n: Int, pet p: Int, at t: Int64, utcOffset o: Int, grams g: Int, bodyCondition b: Int?,
                         createdAt c: Int64? = nil, updatedAt u: Int64? = nil) {
        append(pet: p, at: t, utcOffset: o, grams: g, bodyCondition: b)
        fileId.append(id); line.append(Int32(clamping: l)); recordsBefore.append(Int32(clamping: n))
        createdAt.append(c ?? Self.notSaid); updatedAt.append(u ?? Self.notSaid)
    }

    /// When the `i`th weight was written and last changed, the import's time `now` where the file said nothing.
    public func written(_ i: Int, now: Int64) -> (created: Int64, updated: Int64) {
        guard i < createdAt.count else { return (now, now) }
        let created = createdAt[i] == Self.notSaid ? now : createdAt[i]
        return (created, updatedAt[i] == Self.notSaid ? created : updatedAt[i])
    }

    /// The `i`th weight as the record detail it stores.
    package func detail(_ i: Int) -> RecordDetail {
        .weight(Weight(mass: Mass(grams: Int(grams[i])), bodyCondition: BodyConditionScore(Int(bodyCondition[i]))))
    }

    /// Where the `i`th weight of a petlog JSON file stands in it.
    package func location(_ i: Int) -> SourceLocation { SourceLocation(file: file, line: Int(line[i])) }

    /// Calls `body` with each weight from `next` on that comes before record number `records` of the file
    /// (file order; nothing for the spreadsheet paths), moving `next` past it.
    package func forEach(upTo records: Int, from next: inout Int, _ body: (Int) throws -> Void) rethrows {
        guard inFileOrder else { return }
        while next < count, Int(recordsBefore[next]) <= records {
            let i = next
            next += 1
            try body(i)
        }
    }

    public mutating func reserve(_ n: Int) {
        pet.reserveCapacity(n); at.reserveCapacity(n); utcOffset.reserveCapacity(n); grams.reserveCapacity(n); bodyCondition.reserveCapacity(n)
    }

    public mutating func append(pet p: Int, at t: Int64, utcOffset o: Int, grams g: Int, bodyCondition b: Int? = nil) {
        pet.append(Int32(p)); at.append(t); utcOffset.append(Int32(o)); grams.append(Int32(g)); bodyCondition.append(Int8(b ?? 0))
    }
}

/// Everything one `petlog import` adds, validated before the database is touched.
public struct ImportBatch: Sendable {
    public var pets: [ImportPet] = []
    public var records: [ImportRecord] = []
    public var weights = ImportWeights()
    /// Where to copy attachment files from, by SHA-256, when the store lacks them (the first that has it).
    public var attachmentSources: [URL] = []
    /// `import --strict`: an attachment found neither in the store nor in `attachmentSources` refuses the
    /// whole batch. Otherwise its rows go in all the same, marked missing (`check` lists the file).
    public var attachmentsRequired = false
    /// The exporting database's household namespace (petlog JSON files only), which an import into an
    /// empty database takes.
    public var namespace: String?
    /// Budgets (a pet is an index into `pets`) and exchange rates (petlog JSON files only).
    public var budgets: [ImportBudget] = []
    /// Rows of a scale's CSV with no weight in them (other measurements only), left out.
    public var skippedWithoutWeight = 0
    public var rates: [EuroRate] = []
    /// Refused (nothing written) unless the database has no pet and no record: the demo household,
    /// whose ids must be the ones it planned.
    public var needsEmptyDatabase = false
    public var rowCount: Int { records.count + weights.count }
    public init() {}
}

extension ImportBatch {
    /// Where the file of `sha` is in `attachmentSources` (as `<sha>` or as a store keeps it, `ab/<sha>`), if anywhere.
    public func attachmentSource(_ sha: String) -> URL? {
        attachmentSources.lazy.flatMap { [$0.appendingPathComponent(sha), $0.appendingPathComponent(String(sha.prefix(2))).appendingPathComponent(sha)] }
            .first { FileManager.default.fileExists(atPath: $0.path) }
    }
}

/// What an import did.
public struct ImportSummary: Equatable, Sendable {
    public var petsAdded = 0
    public var petsMatched = 0
    public var recordsAdded = 0
    public var recordsAlreadyThere = 0
    public var budgetsAdded = 0
    public var ratesAdded = 0
    public var attachmentsAdded = 0
    /// Attachment files (by SHA-256) the batch names that were neither in the store nor beside the file.
    public var attachmentsMissing = 0
    public init() {}
}
