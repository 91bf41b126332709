import Foundation
import PetFiles
import PetModel

/// The store: every repository protocol (`PetlogStore`) written once, over an engine (`StoreEngine`). Each
/// method is one transaction of the engine running the store logic (`StoreCore`); what only an engine does
/// (its search index, weight series, bulk import, exports, attachment files, checks, undo) is the engine's
/// answer, the same interface for both. The CLI gets one from `StoreOpening` and never names an engine.
public struct Store: PetlogStore {
    public let engine: any StoreEngine

    public init(_ engine: any StoreEngine) { self.engine = engine }

    public var now: @Sendable () -> Date { engine.now }

    func read<T>(_ body: (StoreCore) throws -> T) throws -> T { try engine.readTransaction(body) }
    func write<T>(_ body: (StoreCore) throws -> T) throws -> T { try engine.writeTransaction(recording: true, body) }

    // MARK: Pets

    public func addPet(_ draft: PetDraft) throws -> Pet { try write { try $0.addPet(draft) } }
    public func pets(includeArchived: Bool) throws -> [Pet] { try read { try $0.pets(includeArchived: includeArchived) } }
    public func pet(_ ref: PetRef) throws -> Pet { try read { try $0.resolve(ref) } }
    public func editPet(_ ref: PetRef, _ draft: PetDraft) throws -> Pet { try write { try $0.editPet(ref, draft) } }
    public func archivePet(_ ref: PetRef, reason: ArchiveReason, on day: LocalDate) throws -> Pet {
        try write { try $0.archivePet(ref, reason: reason, on: day) }
    }
    public func unarchivePet(_ ref: PetRef) throws -> Pet { try write { try $0.unarchivePet(ref) } }
    public func removePet(_ ref: PetRef) throws -> (Pet, Int) { try write { try $0.removePet(ref) } }
    public func searchPets(_ text: String) throws -> [Pet] { try engine.searchPets(text) }

    // MARK: Records

    /// The pets are resolved first (a wrong name is said before any file is read), then the files are
    /// stored and the records written.
    public func addRecord(pets named: [PetRef], _ draft: RecordDraft) throws -> [PetRecord] {
        let (items, linkingSplit) = try read { try $0.items(pets: named, draft) }
        return try addRecords(items, linkingSplit: linkingSplit)
    }

    public func addRecords(_ items: [(PetRef?, RecordDraft)]) throws -> [PetRecord] { try addRecords(items, linkingSplit: false) }

    /// `linkingSplit`: the records are the shares of one expense; each names the first as `split_of`.
    func addRecords(_ items: [(PetRef?, RecordDraft)], linkingSplit: Bool) throws -> [PetRecord] {
        try engine.writeTransaction(storing: items.flatMap(\.1.attachmentPaths)) { core, stored in
            (try core.insert(items, linkingSplit: linkingSplit) { try Self.stored($0, in: stored) }, [])
        }
    }

    public func record(id: Int64) throws -> PetRecord { try read { try $0.loadRecord(id: id) } }
    public func records(_ query: RecordQuery) throws -> [PetRecord] { try read { try $0.records(query) } }
    public func count(_ query: RecordQuery) throws -> Int { try read { try $0.count(query) } }
    public func updateRecord(id: Int64, _ change: (PetRecord) throws -> RecordUpdate) throws -> PetRecord {
        try write { try $0.updateRecord(id: id, change) }
    }
    /// The files added are stored as `addRecords` stores them; detached files no record refers to any
    /// more are set aside in the quarantine, not deleted.
    public func editRecord(id: Int64, files: AttachmentEdit, _ change: (PetRecord) throws -> RecordUpdate) throws -> (record: PetRecord, files: AttachmentEditResult) {
        try engine.writeTransaction(storing: files.add) { core, stored in
            let result = try core.editRecord(id: id, files: files, attachment: { try Self.stored($0, in: stored) }, change)
            return (result, result.files.setAside)
        }
    }
    /// Every path was stored before the write; a miss would be a bug here, not bad input.
    static func stored(_ path: String, in stored: [String: Attachment]) throws -> Attachment {
        guard let a = stored[path] else { throw StoreError.attachmentUnreadable(path: path) }
        return a
    }
    public func deleteRecord(id: Int64) throws -> PetRecord { try write { try $0.deleteRecord(id: id) } }
    public func setStarred(id: Int64, _ starred: Bool) throws -> PetRecord { try write { try $0.setStarred(id: id, starred) } }
    public func search(_ text: String, limit: Int) throws -> [PetRecord] { try engine.searchRecords(text, limit: limit) }
    public func weightSeries(pet: Int64, since: Date?, until: Date?, days: DayWindow?) throws -> WeightColumns {
        try engine.weightSeries(pet: pet, since: since, until: until, days: days)
    }
    public func lastWeights(pets refs: [PetRef], since: Date, until: Date, days: DayWindow?) throws -> [Int64: (name: String, mass: Mass)] {
        try read { try $0.lastWeights(pets: refs, since: since, until: until, days: days) }
    }
    public func lastWeights(pets refs: [PetRef], windows: [DayWindow]) throws -> [[Int64: (name: String, mass: Mass)]] {
        try read { try $0.lastWeights(pets: refs, windows: windows) }
    }

    // MARK: Medications

    public func careRecords(pets ids: [Int64]) throws -> [PetRecord] { try read { try $0.careRecords(pets: ids) } }
    public func medications(pets refs: [PetRef], includeStopped: Bool) throws -> [MedicationCourse] {
        try read { try $0.courses(pets: refs, includeStopped: includeStopped) }
    }
    public func giveMedication(pets refs: [PetRef], name: String, at: Date, utcOffset: Int, note: String?, skipped: Bool) throws -> [PetRecord] {
        try write { try $0.giveMedication(pets: refs, name: name, at: at, utcOffset: utcOffset, note: note, skipped: skipped) }
    }
    public func stopMedication(pet ref: PetRef, name: String, at: Date) throws -> PetRecord {
        try write { try $0.stopMedication(pet: ref, name: name, at: at) }
    }

    // MARK: Money

    public func spending(_ query: SpendingQuery) throws -> [SpendingEntry] { try read { try $0.spending(query) } }
    public func splitShares(of recordId: Int64) throws -> [PetRecord] { try read { try $0.splitShares(of: recordId) } }
    public func setBudget(_ draft: BudgetDraft) throws -> (budget: StoredBudget, replaced: Bool) { try write { try $0.setBudget(draft) } }
    public func budgets() throws -> [StoredBudget] { try read { try $0.loadBudgets(id: nil) } }
    public func deleteBudget(id: Int64) throws -> StoredBudget { try write { try $0.deleteBudget(id: id) } }
    public func editBudget(id: Int64, _ edit: BudgetEdit) throws -> (before: StoredBudget, after: StoredBudget) { try write { try $0.editBudget(id: id, edit) } }
    public func storeRates(_ rates: [EuroRate], source: String, at: Date, localDay: LocalDate) throws -> RatesStoreSummary {
        try write { try $0.storeRates(rates, source: source, at: at, localDay: localDay) }
    }
    public func rateTable(currencies: [String], from: LocalDate?, through: LocalDate?) throws -> RateTable {
        try read { try $0.rateTable(currencies: currencies, from: from, through: through) }
    }
    public func rates(on day: LocalDate?) throws -> (day: LocalDate, rates: [EuroRate])? { try read { try $0.rates(on: day) } }
    public func allRates() throws -> [EuroRate] { try read { try $0.allRates() } }
    public func lastRatesFetch() throws -> RatesFetch? { try read { try $0.lastRatesFetch() } }

    // MARK: Transfer: the engine's bulk path and exports

    public func importBatch(_ batch: consuming ImportBatch, progress: ImportProgress?) throws -> ImportSummary {
        try engine.importBatch(consume batch, progress: progress)
    }
    public func seedDemo(_ batch: ImportBatch, budgets: [Budget], rates: [EuroRate]) throws -> ImportSummary {
        try engine.seedDemo(batch, budgets: budgets, rates: rates)
    }
    public func forEachRecordBatch(size: Int, _ body: ([PetRecord]) throws -> Void) throws { try engine.forEachRecordBatch(size: size, body) }
    public func exportJSON(to sink: OutputSink) throws -> Int { try engine.exportJSON(to: sink) }
    public func householdNamespace() throws -> String? { try engine.householdNamespace() }
    public func exportCSV(to directory: String, bom: Bool) throws -> (records: Int, tables: Int) { try engine.exportCSV(to: directory, bom: bom) }
    public func exportCSVTable(_ table: String, to path: String, bom: Bool) throws -> Int { try engine.exportCSVTable(table, to: path, bom: bom) }

    // MARK: Attachment files

    public func attachmentHashes() throws -> [String] { try engine.attachmentHashes() }
    @discardableResult
    public func verifyAttachments(allowingMissing: Bool) throws -> AttachmentInventory { try engine.verifyAttachments(allowingMissing: allowingMissing) }
    public func copyAttachments(to directory: String, allowingMissing: Bool) throws -> (copied: Int, missing: [String]) {
        try engine.copyAttachments(to: directory, allowingMissing: allowingMissing)
    }
    public func writeAttachment(sha256: String, to path: String) throws { try engine.writeAttachment(sha256: sha256, to: path) }
    public func readableAttachment(sha256: String, scratch: () throws -> String) -> String? {
        engine.readableAttachment(sha256: sha256, scratch: scratch)
    }

    // MARK: Checks and undo

    public func check() throws -> [StoreProblem] { try engine.check() }
    public func repair(_ problems: [StoreProblem]) throws -> RepairReport { try engine.repair(problems) }
    public func backup(to destination: String) throws -> BackupReport { try engine.backup(to: destination) }
    public func undo() throws -> UndoResult? { try engine.undo() }
    public func undoHistory(limit: Int) throws -> [UndoEntry] { try engine.undoHistory(limit: limit) }
}
