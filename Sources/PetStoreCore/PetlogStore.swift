import Foundation
import PetFiles
import PetModel

/// Which records a timeline or list asks for.
public struct RecordQuery: Sendable {
    public var pets: [PetRef]
    public var kinds: [RecordKind]
    public var since: Date?
    public var until: Date?
    public var starredOnly: Bool
    public var limit: Int?
    public var newestFirst: Bool
    /// Records whose own local day (by their stored offset) lies in the window.
    public var days: DayWindow?

    public init(pets: [PetRef] = [], kinds: [RecordKind] = [], since: Date? = nil, until: Date? = nil, days: DayWindow? = nil,
                starredOnly: Bool = false, limit: Int? = nil, newestFirst: Bool = false) {
        self.pets = pets; self.kinds = kinds; self.since = since; self.until = until; self.days = days
        self.starredOnly = starredOnly; self.limit = limit; self.newestFirst = newestFirst
    }
}

/// A change to a stored record: the new header fields and detail (nil = keep).
public struct RecordUpdate: Sendable {
    public var at: Date?
    public var utcOffset: Int?
    public var note: String??
    public var pet: PetRef?
    public var detail: RecordDetail?
    public init(at: Date? = nil, utcOffset: Int? = nil, note: String?? = nil, pet: PetRef? = nil, detail: RecordDetail? = nil) {
        self.at = at; self.utcOffset = utcOffset; self.note = note; self.pet = pet; self.detail = detail
    }
    /// Nothing to change in the record itself.
    public var isEmpty: Bool { at == nil && utcOffset == nil && note == nil && pet == nil && detail == nil }
}

/// A medication course with what its doses say.
public struct MedicationCourse: Sendable, Equatable {
    public var record: PetRecord
    public var medication: Medication
    public var dosesGiven: Int
    public var lastDose: Date?
    public init(record: PetRecord, medication: Medication, dosesGiven: Int, lastDose: Date?) {
        self.record = record; self.medication = medication; self.dosesGiven = dosesGiven; self.lastDose = lastDose
    }
}

/// A pet's weights as columns (Unix seconds, grams), oldest first. A series whose instants lie within
/// 136 years of its first one and whose grams fit 32 bits (every real one) is held in 8 bytes a point:
/// the first instant once (`base`), each point's seconds after it (`offsets`) and its grams (`smallGrams`);
/// a million points are then 7.6 MiB where two `Double` columns were 15.3 (issue 34: the million-point
/// chart's peak RSS). A point that does not fit (or comes before the first) turns the series into the two
/// `Double` columns it always was (`isWide`). Either way `time(at:)` and `grams(at:)` give the same `Double`s.
public struct WeightColumns: Sendable, Equatable {
    public private(set) var base: Int64 = 0
    public private(set) var offsets: [UInt32] = []
    public private(set) var smallGrams: [Int32] = []
    /// The points are in `wideTimes` and `wideGrams` instead.
    public private(set) var isWide = false
    public private(set) var wideTimes: [Double] = []
    public private(set) var wideGrams: [Double] = []

    public init() {}
    /// The two columns as they are (tests; points that are not whole seconds and grams).
    public init(times: [Double], grams: [Double]) { isWide = true; wideTimes = times; wideGrams = grams }

    public var count: Int { isWide ? wideTimes.count : offsets.count }
    public var isEmpty: Bool { count == 0 }

    /// Point `i`'s instant, in Unix seconds.
    @inline(__always)
    public func time(at i: Int) -> Double { isWide ? wideTimes[i] : Double(base &+ Int64(offsets[i])) }
    /// Point `i`'s grams.
    @inline(__always)
    public func grams(at i: Int) -> Double { isWide ? wideGrams[i] : Double(smallGrams[i]) }

    /// Every instant as a column of its own (small series: the report, plausibility checks, tests).
    public var times: [Double] { isWide ? wideTimes : offsets.map { Double(base &+ Int64($0)) } }
    /// Every point's grams as a column of its own.
    public var grams: [Double] { isWide ? wideGrams : smallGrams.map(Double.init) }

    public mutating func reserveCapacity(_ n: Int) {
        if isWide { wideTimes.reserveCapacity(n); wideGrams.reserveCapacity(n) } else { offsets.reserveCapacity(n); smallGrams.reserveCapacity(n) }
    }

    /// Adds a point after the others.
    @inline(__always)
    public mutating func append(at: Int64, grams: Int64) {
        if !isWide {
            if offsets.isEmpty { base = at }
            let (offset, overflow) = at.subtractingReportingOverflow(base)
            if !overflow, offset >= 0, offset <= Int64(UInt32.max), let small = Int32(exactly: grams) {
                offsets.append(UInt32(truncatingIfNeeded: offset)); smallGrams.append(small)
                return
            }
            widen()
        }
        wideTimes.append(Double(at)); wideGrams.append(Double(grams))
    }

    /// From now on the points are two `Double` columns.
    mutating func widen() {
        wideTimes = times; wideGrams = grams
        isWide = true
        base = 0; offsets = []; smallGrams = []
    }

    /// Appends a packed chunk's points — (instant, grams) pairs of 64-bit integers, 16 bytes a point, big-endian
    /// (PostgreSQL's `int8send`) or little-endian (the SQLite file's) — in `lower ..< upper` (all of them when
    /// `lower` is nil); false when the chunk contradicts its own row (its first or last instant, or instants going back).
    public mutating func appendChunk(_ base: UnsafeRawPointer, count: Int, bigEndian: Bool, firstAt: Int64, lastAt: Int64,
                                     lower: Int64?, upper: Int64) -> Bool {
        var previous = firstAt
        for i in 0..<count {
            let rawAt = base.loadUnaligned(fromByteOffset: i * 16, as: Int64.self)
            let rawGrams = base.loadUnaligned(fromByteOffset: i * 16 + 8, as: Int64.self)
            let at = bigEndian ? Int64(bigEndian: rawAt) : Int64(littleEndian: rawAt)
            let grams = bigEndian ? Int64(bigEndian: rawGrams) : Int64(littleEndian: rawGrams)
            if at < previous || (i == 0 && at != firstAt) { return false }
            previous = at
            if let lower, at < lower || at >= upper { continue }
            append(at: at, grams: grams)
        }
        return previous == lastAt
    }

    public static func == (a: WeightColumns, b: WeightColumns) -> Bool {
        guard a.count == b.count else { return false }
        for i in 0..<a.count where a.time(at: i) != b.time(at: i) || a.grams(at: i) != b.grams(at: i) { return false }
        return true
    }
}

/// The pets of a household: adding, finding by name or id, editing, archiving, removing. Every method is one transaction.
public protocol PetsRepository: Sendable {
    func addPet(_ draft: PetDraft) throws -> Pet
    func pets(includeArchived: Bool) throws -> [Pet]
    func pet(_ ref: PetRef) throws -> Pet
    func editPet(_ ref: PetRef, _ draft: PetDraft) throws -> Pet
    func archivePet(_ ref: PetRef, reason: ArchiveReason, on day: LocalDate) throws -> Pet
    func unarchivePet(_ ref: PetRef) throws -> Pet
    /// `editPet` and a new profile photo (its bytes, its type by content) or none, in one write (one `undo` step).
    func editPet(_ ref: PetRef, _ draft: PetDraft, photo: PetPhotoChange?) throws -> Pet
    /// The pet's profile photo (nil: none).
    func petPhoto(id: Int64) throws -> (mediaType: String, data: Data)?
    /// Deletes the pet and every record of it; returns the pet and how many records went with it.
    func removePet(_ ref: PetRef) throws -> (Pet, Int)
    /// Pets whose name, breed, colour, microchip or profile notes (allergies, conditions) contain `text`, any case.
    func searchPets(_ text: String) throws -> [Pet]
}

/// Dated records of every kind: adding, reading, changing, starring, searching. Every method is one transaction.
public protocol RecordsRepository: Sendable {
    /// Adds one record to each pet named (none for a pet-less expense), in one transaction.
    func addRecord(pets: [PetRef], _ draft: RecordDraft) throws -> [PetRecord]
    /// Adds several records (each to its pet, or none), in one transaction.
    func addRecords(_ items: [(PetRef?, RecordDraft)]) throws -> [PetRecord]
    func record(id: Int64) throws -> PetRecord
    func records(_ query: RecordQuery) throws -> [PetRecord]
    /// How many records match (limit and order ignored).
    func count(_ query: RecordQuery) throws -> Int
    func updateRecord(id: Int64, _ change: (PetRecord) throws -> RecordUpdate) throws -> PetRecord
    /// `updateRecord` and the attachments added and taken off (`edit --receipt/--photo/--attach`, `--detach`),
    /// one transaction: a detached file no record refers to any more is set aside in the quarantine, not deleted.
    func editRecord(id: Int64, files: AttachmentEdit, _ change: (PetRecord) throws -> RecordUpdate) throws -> (record: PetRecord, files: AttachmentEditResult)
    func deleteRecord(id: Int64) throws -> PetRecord
    func setStarred(id: Int64, _ starred: Bool) throws -> PetRecord
    func search(_ text: String, limit: Int) throws -> [PetRecord]
    /// A pet's weights in `[since, until)`, oldest first; with `days`, only those whose own local day is in it.
    func weightSeries(pet: Int64, since: Date?, until: Date?, days: DayWindow?) throws -> WeightColumns
    /// Each pet's last weight in `[since, until)` (nil: unbounded on that side) whose own local day is in
    /// each of `windows` when given (the latest time, then the highest id), with its name, in the windows'
    /// order, read at once: what `stats` shows (its month and the month before), without reading every weight.
    func lastWeights(pets: [PetRef], since: Date?, until: Date?, windows: [DayWindow?]) throws -> [[Int64: (name: String, mass: Mass)]]
}

/// Medication courses and their doses. Every method is one transaction.
public protocol CareRepository: Sendable {
    /// Courses of the pets; without `includeStopped`, only those running at `activeAt` (nil: now): a course
    /// stopped or past its `--until` day is finished.
    func medications(pets: [PetRef], includeStopped: Bool, activeAt: Date?) throws -> [MedicationCourse]
    func giveMedication(pets: [PetRef], name: String, at: Date, utcOffset: Int, note: String?, skipped: Bool) throws -> [PetRecord]
    func stopMedication(pet: PetRef, name: String, at: Date) throws -> PetRecord
    /// What `CareAgenda.items` reads for these pets, in no order (it orders each pet's): vaccinations, medication courses and
    /// doses, and the visits of the pets that have a visit with a follow-up (a later visit answers it;
    /// other visits make no item), so `due` for a whole shelter reads the few records it needs.
    func careRecords(pets: [Int64]) throws -> [PetRecord]
}

/// How far an import has got: rows written so far, of how many.
public typealias ImportProgress = (_ done: Int, _ total: Int) -> Void

/// Whole households in and out: imports (all or nothing), exports a batch at a time, attachment files.
public protocol TransferRepository: Sendable {
    /// The clock the store stamps its writes with (pinned by `PETLOG_NOW`); the demo stops at it.
    var now: @Sendable () -> Date { get }
    /// Writes the batch in one transaction; see `SQLiteRepository.importBatch` for the matching rules.
    /// Consumed: pass `consume batch` to let its rows go as soon as they are written.
    func importBatch(_ batch: consuming ImportBatch, progress: ImportProgress?) throws -> ImportSummary
    /// Every record in id order, a batch at a time (memory stays flat on big files).
    func forEachRecordBatch(size: Int, _ body: ([PetRecord]) throws -> Void) throws
    /// What an export reads, from one snapshot: `body` runs inside one read transaction and writes the
    /// export (`PetTransfer`'s JSON and CSV writers) from the rows it is handed.
    func exportSnapshot<T>(_ body: (ExportSnapshot) throws -> T) throws -> T
    /// The household's namespace (random, made once per database), which the FHIR addresses derive from.
    func householdNamespace() throws -> String?
    /// The SHA-256 of every attachment file the records name, sorted (nothing read but the rows).
    func attachmentHashes() throws -> [String]
    /// Every attachment's file read and checked against its SHA-256: a damaged one is thrown, a missing
    /// one too unless `allowingMissing` (an import without its photos leaves them so; `check` lists them).
    @discardableResult
    func verifyAttachments(allowingMissing: Bool) throws -> AttachmentInventory
    /// Copies every attachment file the store holds into `directory`, named by SHA-256, after checking
    /// them all (`verifyAttachments`); the folder is made only when there is a file to copy.
    func copyAttachments(to directory: String, allowingMissing: Bool) throws -> (copied: Int, missing: [String])
    /// The file of the attachment `sha256` written to `path` (`OutputFile`: whole or not at all), a chunk at
    /// a time (`show --save`).
    func writeAttachment(sha256: String, to path: String) throws
    /// A path the file of the attachment `sha256` can be read at (the report's photos): the store's own file
    /// where it keeps files (nil when it is missing), else written on first use into the folder `scratch`
    /// gives (the caller makes it once and removes it).
    func readableAttachment(sha256: String, scratch: () throws -> String) -> String?
}

extension TransferRepository {
    public func importBatch(_ batch: consuming ImportBatch) throws -> ImportSummary { try importBatch(consume batch, progress: nil) }
    public func forEachRecordBatch(_ body: ([PetRecord]) throws -> Void) throws { try forEachRecordBatch(size: 2000, body) }
}

/// The attachment files the records name: those the store holds (each checked against its SHA-256) and
/// those it names without holding them (marked missing: `check` lists them as `missing-file`).
public struct AttachmentInventory: Equatable, Sendable {
    public var present: [String]
    public var missing: [String]
    public init(present: [String] = [], missing: [String] = []) { self.present = present; self.missing = missing }
}

/// The file itself: checks and repairs, and a verified copy (what only a local database file has).
public protocol MaintenanceRepository: Sendable {
    /// Every problem found; empty when all is well. A damaged file is reported, not thrown.
    func check() throws -> [StoreProblem]
    /// Fixes what can be fixed without losing anything.
    func repair(_ problems: [StoreProblem]) throws -> RepairReport
    /// A checked copy of the database and its attachments at `destination`.
    func backup(to destination: String) throws -> BackupReport
}

/// Everything the CLI may ask of the store, as one existential: `let repo = try s.repository()`.
public typealias PetlogStore = PetsRepository & RecordsRepository & CareRepository & MoneyRepository & TransferRepository & MaintenanceRepository & HistoryRepository & DemoRepository & WebRepository

extension RecordsRepository {
    public func weightSeries(pet: Int64, since: Date?, until: Date?) throws -> WeightColumns {
        try weightSeries(pet: pet, since: since, until: until, days: nil)
    }

    /// Each pet's last weight in `[since, until)` whose own local day is in `days` when given.
    public func lastWeights(pets: [PetRef], since: Date, until: Date, days: DayWindow? = nil) throws -> [Int64: (name: String, mass: Mass)] {
        try lastWeights(pets: pets, since: since, until: until, windows: [days])[0]
    }

    /// Each pet's last weight whose own local day is in each of `windows`, in that order, read at once
    /// (`stats`'s month and the month before).
    public func lastWeights(pets: [PetRef], windows: [DayWindow]) throws -> [[Int64: (name: String, mass: Mass)]] {
        try lastWeights(pets: pets, since: nil, until: nil, windows: windows)
    }
}

extension CareRepository {
    /// Courses of the pets; without `includeStopped`, only those running now.
    public func medications(pets: [PetRef], includeStopped: Bool) throws -> [MedicationCourse] {
        try medications(pets: pets, includeStopped: includeStopped, activeAt: nil)
    }
}
