import Foundation
import PetModel
import PetStoreCore

/// The PostgreSQL implementation of the store protocols (`PetlogStore`): the same logic as the SQLite
/// store (`StoreCore`, written once over `SQLExecutor`), each call one transaction on one connection.
///
/// Isolation, and why: writes are SERIALIZABLE (PostgreSQL's SSI), so two staff adding records, or an
/// import run twice at once, behave as if one ran after the other; a serialization failure or deadlock is
/// rolled back and the whole call run again (`PostgresLink.transaction`), so an acknowledged record is in
/// the database once. Reads are REPEATABLE READ READ ONLY: one snapshot for every query of a command.
public final class PostgresRepository: PetlogStore {
    let link: PostgresLink
    public let now: @Sendable () -> Date
    /// The command line writes are recorded under for `undo`; nil: not recorded.
    public let undoCommand: String?

    /// Set when this connection made the `petlog` schema (the database had none): the rows it was made
    /// with, for `removeIfNeverWritten`.
    let seededRows: [String: Int]?

    /// Whether this command made the server's `petlog` schema (the server's "new database").
    public var createdSchema: Bool { seededRows != nil }

    /// Connects, and brings the `petlog` schema up to date (once, however many clients start together).
    public init(_ target: PostgresTarget, now: @escaping @Sendable () -> Date = { Date() }, undoCommand: String? = nil) throws {
        do {
            link = try PostgresLink(target)
            seededRows = try PostgresSchema.migrateNotingNew(link).seeded
        } catch {
            throw Self.storeError(error)
        }
        self.now = now
        self.undoCommand = undoCommand
    }

    /// The server's side of a file that goes again when the command that made it failed: the `petlog`
    /// schema this command made is dropped when nothing was written into it (every table holds only the
    /// rows it was made with). Under the migrators' lock and with every table locked, so no other client
    /// commits between the look and the drop; one whose write waits meanwhile fails and may try again.
    /// Returns whether it went.
    @discardableResult
    public func removeIfNeverWritten() -> Bool {
        guard let seeded = seededRows else { return false }
        return (try? link.transaction(.migration) { () -> Bool in
            try link.query("SELECT pg_advisory_xact_lock($1)", [.int(PostgresSchema.lockKey)])
            let tables = try PostgresSchema.tables(link)
            guard !tables.isEmpty else { return false }
            try link.execute(script: "LOCK TABLE " + tables.map { "petlog.\"\($0)\"" }.joined(separator: ", ") + " IN ACCESS EXCLUSIVE MODE")
            guard try PostgresSchema.rowCounts(link) == seeded else { return false }
            try link.execute(script: "DROP SCHEMA petlog CASCADE")
            return true
        }) ?? false
    }

    var target: PostgresTarget { link.target }

    // MARK: Transactions and errors

    func write<T>(recording: Bool = true, _ body: (StoreCore) throws -> T) throws -> T {
        do {
            return try link.transaction(.write) {
                let core = StoreCore(link, now: now, rolesWrite: true)
                let group = try recording ? undoCommand.map { try PostgresUndo.open(link, command: $0, at: core.nowSeconds) } : nil
                let result = try body(core)
                try PostgresSearch.refresh(link)
                if let group { try PostgresUndo.close(link, group: group) }
                return result
            }
        } catch {
            throw Self.storeError(error)
        }
    }

    func read<T>(_ body: (StoreCore) throws -> T) throws -> T {
        do {
            return try link.transaction(.read) { try body(StoreCore(link, now: now, rolesWrite: true)) }
        } catch {
            throw Self.storeError(error)
        }
    }

    /// The one place the server's faults become store errors (which the CLI says in one localized line).
    static func storeError(_ error: any Error) -> any Error {
        guard let fault = error as? PostgresFault else { return error }
        switch fault {
        case .unreachable(let target): return StoreError.serverUnreachable(target: target)
        case .authentication(let target): return StoreError.serverLogin(target: target)
        case .databaseMissing(let target, let database): return StoreError.serverDatabaseMissing(target: target, database: database)
        case .connectionLost(let target): return StoreError.serverConnectionLost(target: target)
        case .permissionDenied(let role): return StoreError.notPermitted(role: role)
        case .tls(let target, let problem): return StoreError.serverTLS(target: target, problem: problem)
        case .server(let state, let message):
            if state.hasPrefix("23") { return StoreError.constraint(message) }
            if state == "40001" || state == "40P01" || state == "55P03" { return StoreError.busy }
            return StoreError.server(state: state, message: message)
        }
    }

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
    public func searchPets(_ text: String) throws -> [Pet] { try read { _ in try PostgresSearch.pets(text, link: link) } }

    // MARK: Records

    public func addRecord(pets named: [PetRef], _ draft: RecordDraft) throws -> [PetRecord] {
        try write { core in
            let (items, linkingSplit) = try core.items(pets: named, draft)
            return try insert(items, linkingSplit: linkingSplit, core: core)
        }
    }

    public func addRecords(_ items: [(PetRef?, RecordDraft)]) throws -> [PetRecord] {
        try write { core in try insert(items, linkingSplit: false, core: core) }
    }

    /// The records, with their files stored in the database first (in the same transaction).
    func insert(_ items: [(PetRef?, RecordDraft)], linkingSplit: Bool, core: StoreCore) throws -> [PetRecord] {
        var stored: [String: Attachment] = [:]
        for path in items.flatMap(\.1.attachmentPaths) where stored[path] == nil {
            stored[path] = try PostgresAttachments.store(path: path, link: link)
        }
        return try core.insert(items, linkingSplit: linkingSplit) { p in
            guard let a = stored[p] else { throw StoreError.attachmentUnreadable(path: p) }
            return a
        }
    }

    public func record(id: Int64) throws -> PetRecord { try read { try $0.loadRecord(id: id) } }
    public func records(_ query: RecordQuery) throws -> [PetRecord] { try read { try $0.records(query) } }
    public func count(_ query: RecordQuery) throws -> Int { try read { try $0.count(query) } }
    public func updateRecord(id: Int64, _ change: (PetRecord) throws -> RecordUpdate) throws -> PetRecord {
        try write { try $0.updateRecord(id: id, change) }
    }
    /// The files stored in the same transaction; the chunks of detached files no record refers to any more
    /// move to `attachment_quarantine` in it too.
    public func editRecord(id: Int64, files: AttachmentEdit, _ change: (PetRecord) throws -> RecordUpdate) throws -> (record: PetRecord, files: AttachmentEditResult) {
        try write { core in
            var stored: [String: Attachment] = [:]
            for path in files.add where stored[path] == nil { stored[path] = try PostgresAttachments.store(path: path, link: link) }
            let result = try core.editRecord(id: id, files: files, attachment: { p in
                guard let a = stored[p] else { throw StoreError.attachmentUnreadable(path: p) }
                return a
            }, change)
            try PostgresAttachments.quarantine(result.files.setAside, link: link)
            return result
        }
    }
    public func deleteRecord(id: Int64) throws -> PetRecord { try write { try $0.deleteRecord(id: id) } }
    public func setStarred(id: Int64, _ starred: Bool) throws -> PetRecord { try write { try $0.setStarred(id: id, starred) } }
    public func search(_ text: String, limit: Int) throws -> [PetRecord] {
        try read { core in try core.loadRecords(ids: try PostgresSearch.records(text, limit: limit, link: link)) }
    }
    public func lastWeights(pets refs: [PetRef], since: Date, until: Date, days: DayWindow?) throws -> [Int64: (name: String, mass: Mass)] {
        try read { try $0.lastWeights(pets: refs, since: since, until: until, days: days) }
    }
    public func lastWeights(pets refs: [PetRef], windows: [DayWindow]) throws -> [[Int64: (name: String, mass: Mass)]] {
        try read { try $0.lastWeights(pets: refs, windows: windows) }
    }
    /// The series in one row: the server packs each point as two big-endian int8 (`int8send`) into one
    /// `bytea`, in order, so a million points cross the wire as 16 MB in one value instead of a million
    /// rows each decoded by postgres-nio (issue 34: 1.6 s → see docs/benchmarks.md). The same points and
    /// order as `StoreCore.weightSeries` (`WeightSeriesTests` holds both stores to it).
    ///
    /// Without whole days (`days`), the series comes from its packed chunks (`PostgresWeightSeries`, schema
    /// pg6) and the weights after them; when whole chunks' worth of weights wait after the last chunk and
    /// the role may write the chunks, a write of its own that is not recorded for `undo` packs them (a
    /// volunteer's chart reads them from the tables each time). A race lost to a writer, or any failure to
    /// pack, leaves the chart as read.
    public func weightSeries(pet: Int64, since: Date?, until: Date?, days: DayWindow?) throws -> WeightColumns {
        let lower = since.map { $0.unixSeconds(.up) } ?? Int64.min
        let upper = until.map { $0.unixSeconds(.up) } ?? Int64.max
        if days == nil, let cached = try read({ _ in try PostgresWeightSeries.read(link, pet: pet, lower: lower, upper: upper) }) {
            if cached.waiting >= PostgresWeightSeries.chunkPoints && cached.mayPack {
                _ = try? write(recording: false) { _ in try PostgresWeightSeries.fill(link, pet: pet) }
            }
            return cached.columns
        }
        return try weightSeriesFromTables(pet: pet, lower: lower, upper: upper, days: days)
    }

    /// The series from the tables alone, in one row (the read before the chunks; the chunks' tests compare with it).
    func weightSeriesFromTables(pet: Int64, lower: Int64, upper: Int64, days: DayWindow?) throws -> WeightColumns {
        try read { _ in
            let (dayClauses, dayArgs) = days.map(StoreCore.dayBounds) ?? ([], [])
            // For this read only (SET LOCAL ends with its transaction): a million-point sort in memory
            // instead of on disk (it needs about 90 MB; the default 4 MB spills); no JIT compilation,
            // which costs the query more than it saves (75 ms measured on the bench's 1M-point series);
            // and no hash join: when most of the tables are the pet's weights, the planner hashed a
            // million weights (server CPU 1.2 s) where a merge join of the two primary keys takes 0.7 s;
            // a pet with few weights still gets its index scan and nested loop.
            try link.execute("SET LOCAL work_mem = '128MB'", [SQLValue]())
            try link.execute("SET LOCAL jit = off", [SQLValue]())
            try link.execute("SET LOCAL enable_hashjoin = off", [SQLValue]())
            let rows = try link.rows("""
                SELECT string_agg(int8send(r.at) || int8send(w.grams), ''::bytea ORDER BY r.at, r.id)
                FROM record r JOIN weight w ON w.record_id = r.id
                WHERE r.pet_id = ? AND r.kind = 'weight' AND r.at >= ? AND r.at < ?\(dayClauses.map { " AND " + $0 }.joined())
                """, [SQLValue.int(pet), .int(lower), .int(upper)] + dayArgs.map { SQLValue.int($0) })
            guard case .bytes(let packed)? = rows.first?.values.first else { return WeightColumns() }
            return Self.weightColumns(packed: packed)
        }
    }

    /// Points packed as (at, grams) pairs of big-endian 64-bit integers.
    static func weightColumns(packed: [UInt8]) -> WeightColumns {
        var columns = WeightColumns()
        appendPoints(packed: packed, to: &columns)
        return columns
    }

    /// Appends points packed as (at, grams) pairs of big-endian 64-bit integers; how many.
    @discardableResult
    static func appendPoints(packed: [UInt8], to columns: inout WeightColumns) -> Int {
        let n = packed.count / 16
        columns.reserveCapacity(columns.count + n)
        packed.withUnsafeBytes { raw in
            for i in 0..<n {
                let at = Int64(bigEndian: raw.loadUnaligned(fromByteOffset: i * 16, as: Int64.self))
                let grams = Int64(bigEndian: raw.loadUnaligned(fromByteOffset: i * 16 + 8, as: Int64.self))
                columns.append(at: at, grams: grams)
            }
        }
        return n
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
}
