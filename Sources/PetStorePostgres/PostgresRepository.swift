import Foundation
import PetModel
import PetStoreCore

/// The PostgreSQL engine of the store (`StoreEngine`; `Store` is the repository protocols written once over
/// it): each call one transaction on one connection; attachments as chunks in the database, the folded
/// search text, the packed weight series in one `bytea`, undo by trigger, the bulk path through COPY.
///
/// Isolation, and why: writes are SERIALIZABLE (PostgreSQL's SSI), so two staff adding records, or an
/// import run twice at once, behave as if one ran after the other; a serialization failure or deadlock is
/// rolled back and the whole call run again (`PostgresLink.transaction`), so an acknowledged record is in
/// the database once. Reads are REPEATABLE READ READ ONLY: one snapshot for every query of a command.
public final class PostgresRepository: StoreEngine {
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

    func write<T>(recording: Bool = true, _ body: (Store) throws -> T) throws -> T {
        let command = recording ? UndoName.command ?? undoCommand : nil
        do {
            return try link.transaction(.write) {
                let store = Store(self, in: link, writing: true)
                let group = try command.map { try PostgresUndo.open(link, command: $0, at: store.nowSeconds) }
                let result = try body(store)
                try PostgresSearch.refresh(link)
                if let group { try PostgresUndo.close(link, group: group) }
                return result
            }
        } catch {
            throw Self.storeError(error)
        }
    }

    func read<T>(_ body: (Store) throws -> T) throws -> T {
        do {
            return try link.transaction(.read) { try body(Store(self, in: link, writing: false)) }
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

    // MARK: Transactions, files and search for the store

    /// Records name the role that wrote them (`written_by`).
    public var rolesWrite: Bool { true }

    public func readTransaction<T>(_ body: (any SQLExecutor) throws -> T) throws -> T { try read { try body($0.sql) } }
    public func writeTransaction<T>(recording: Bool, _ body: (any SQLExecutor) throws -> T) throws -> T {
        try write(recording: recording) { try body($0.sql) }
    }

    /// The files stored in the same transaction (chunks); the chunks of files set aside move to
    /// `attachment_quarantine` in it too.
    public func writeTransaction<T>(storing paths: [String], _ body: (any SQLExecutor, [String: Attachment]) throws -> (result: T, setAside: [String])) throws -> T {
        try write { store in
            var stored: [String: Attachment] = [:]
            for path in paths where stored[path] == nil { stored[path] = try PostgresAttachments.store(path: path, link: link) }
            let written = try body(store.sql, stored)
            try PostgresAttachments.quarantine(written.setAside, link: link)
            return written.result
        }
    }

    /// Written on first use into `scratch`; nil when the server holds no chunks of it.
    public func readableAttachment(sha256: String, scratch: () throws -> String) -> String? {
        guard let folder = try? scratch() else { return nil }
        let path = folder + "/" + sha256
        if !FileManager.default.fileExists(atPath: path) { try? Store(self).writeAttachment(sha256: sha256, to: path) }
        return FileManager.default.fileExists(atPath: path) ? path : nil
    }

    public func searchPets(_ text: String) throws -> [Pet] { try read { s in try PostgresSearch.pets(text, store: s, link: link) } }
    public func searchRecords(_ text: String, limit: Int) throws -> [PetRecord] {
        try read { s in try s.loadRecords(ids: try PostgresSearch.records(text, limit: limit, link: link)) }
    }

    // MARK: The weight series

    /// The series from its packed chunks (`PostgresWeightSeries`, schema pg6) and the weights after them; a
    /// role that may not write the chunks (a volunteer) never packs, and reads them from the tables each
    /// time. A race lost to a writer, or any failure to pack, leaves the chart as read.
    public func packedWeightSeries(pet: Int64, lower: Int64, upper: Int64) throws -> (columns: WeightColumns, packMore: Bool)? {
        guard let cached = try read({ _ in try PostgresWeightSeries.read(link, pet: pet, lower: lower, upper: upper) }) else { return nil }
        return (cached.columns, cached.waiting >= PostgresWeightSeries.chunkPoints && cached.mayPack)
    }

    public func packWeightSeries(pet: Int64) throws {
        _ = try write(recording: false) { _ in try PostgresWeightSeries.fill(link, pet: pet) }
    }

    /// The series in one row: the server packs each point as two big-endian int8 (`int8send`) into one
    /// `bytea`, in order, so a million points cross the wire as 16 MB in one value instead of a million
    /// rows each decoded by postgres-nio (issue 34: 1.6 s → see docs/benchmarks.md). The same points and
    /// order as `Store.weightSeriesByRows` (`WeightSeriesTests` holds both stores to it); the read before
    /// the chunks, which their tests compare with.
    public func weightSeriesFromTables(pet: Int64, lower: Int64, upper: Int64, days: DayWindow?) throws -> WeightColumns {
        try read { _ in
            let (dayClauses, dayArgs) = days.map(Store.dayBounds) ?? ([], [])
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
}
