import Foundation
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

    public init(pets: [PetRef] = [], kinds: [RecordKind] = [], since: Date? = nil, until: Date? = nil,
                starredOnly: Bool = false, limit: Int? = nil, newestFirst: Bool = false) {
        self.pets = pets; self.kinds = kinds; self.since = since; self.until = until
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

/// Counts for a pet or the whole file.
public struct StoreSummary: Sendable, Equatable {
    public var pets: Int
    public var records: [RecordKind: Int]
}

/// A pet's weights as two columns (Unix seconds, grams): flat arrays, so a million points stay small.
public struct WeightColumns: Sendable, Equatable {
    public var times: [Double]
    public var grams: [Double]
    public init(times: [Double] = [], grams: [Double] = []) { self.times = times; self.grams = grams }
}

/// Everything the CLI may ask of the store. Every method is one transaction.
public protocol PetRepository: Sendable {
    // Pets
    func addPet(_ draft: PetDraft) throws -> Pet
    func pets(includeArchived: Bool) throws -> [Pet]
    func pet(_ ref: PetRef) throws -> Pet
    func editPet(_ ref: PetRef, _ draft: PetDraft) throws -> Pet
    func archivePet(_ ref: PetRef, reason: ArchiveReason, on day: LocalDate) throws -> Pet
    func unarchivePet(_ ref: PetRef) throws -> Pet
    /// Deletes the pet and every record of it; returns the pet and how many records went with it.
    func removePet(_ ref: PetRef) throws -> (Pet, Int)

    // Records
    /// Adds one record to each pet named (none for a pet-less expense), in one transaction.
    func addRecord(pets: [PetRef], _ draft: RecordDraft) throws -> [PetRecord]
    /// Adds several records (each to its pet, or none), in one transaction.
    func addRecords(_ items: [(PetRef?, RecordDraft)]) throws -> [PetRecord]
    func record(id: Int64) throws -> PetRecord
    func records(_ query: RecordQuery) throws -> [PetRecord]
    /// How many records match (limit and order ignored).
    func count(_ query: RecordQuery) throws -> Int
    func updateRecord(id: Int64, _ change: (PetRecord) throws -> RecordUpdate) throws -> PetRecord
    func deleteRecord(id: Int64) throws -> PetRecord
    func setStarred(id: Int64, _ starred: Bool) throws -> PetRecord
    func search(_ text: String, limit: Int) throws -> [PetRecord]
    func weightSeries(pet: Int64, since: Date?, until: Date?) throws -> WeightColumns

    // Medications
    func medications(pets: [PetRef], includeStopped: Bool) throws -> [MedicationCourse]
    func giveMedication(pets: [PetRef], name: String, at: Date, utcOffset: Int, note: String?, skipped: Bool) throws -> [PetRecord]
    func stopMedication(pet: PetRef, name: String, at: Date) throws -> PetRecord

    func summary() throws -> StoreSummary
}
