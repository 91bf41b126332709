import Foundation
import PetFiles
import PetModel

/// The store: every repository protocol (`PetlogStore`) written once, over an engine (`StoreEngine`). Each
/// method is one transaction of the engine, its statements written here in plain SQL both engines read the
/// same way (`?` placeholders, no engine's own functions); what only an engine does (its search index,
/// weight series, bulk import, JSON export, attachment files, checks, undo) is the engine's answer, the same
/// interface for both. The CLI gets one from `StoreOpening` and never names an engine.
///
/// A method opens its transaction with `read` or `write` and writes its logic over the store that
/// transaction gives (`s`, whose `sql` is the transaction's connection); a method called on that store
/// runs inside the same transaction, so the logic is written once whether it is a command's whole call or
/// a step of another (an edit resolves a pet, an export reads the budgets of its snapshot). Split by
/// subject: Store+Pets, Store+Records, Store+Medications, Store+Money, Store+Exports, Store+Checks,
/// AttachmentEdit (a record's files) and DemoStore.
public struct Store: PetlogStore {
    public let engine: any StoreEngine
    /// The transaction this store runs in (its statements go to `sql`); `.none` outside one, where each
    /// method opens its own.
    public let transaction: Transaction
    /// The connection of `transaction`; outside one, every statement is refused (`NoTransaction`). A store
    /// in a transaction lives inside the engine's call that holds it open, on its thread, never sent away.
    nonisolated(unsafe) public let sql: any SQLExecutor

    public enum Transaction: Sendable { case none, read, write }

    public init(_ engine: any StoreEngine) { self.init(engine, sql: NoTransaction(), transaction: .none) }

    /// The store inside a transaction the engine holds open on `sql` (an engine's bulk paths and checks
    /// run the store's logic so).
    public init(_ engine: any StoreEngine, in sql: any SQLExecutor, writing: Bool) {
        self.init(engine, sql: sql, transaction: writing ? .write : .read)
    }

    init(_ engine: any StoreEngine, sql: any SQLExecutor, transaction: Transaction) {
        self.engine = engine
        self.sql = sql
        self.transaction = transaction
    }

    /// The clock writes are stamped with.
    public var now: @Sendable () -> Date { engine.now }
    public var nowSeconds: Int64 { now().unixSeconds() }
    /// PostgreSQL's records name the role that wrote them (`written_by`); a SQLite file has no such column.
    public var rolesWrite: Bool { engine.rolesWrite }

    /// `body` in one read transaction (one snapshot), or in the transaction this store already runs in.
    func read<T>(_ body: (Store) throws -> T) throws -> T {
        if transaction != .none { return try body(self) }
        return try engine.readTransaction { try body(Store(engine, sql: $0, transaction: .read)) }
    }

    /// `body` in one write transaction, recorded for `undo`, or in the write transaction this store runs in.
    func write<T>(_ body: (Store) throws -> T) throws -> T {
        switch transaction {
        case .write: return try body(self)
        case .read: throw StoreError.constraint("a write inside a read transaction")
        case .none: return try engine.writeTransaction(recording: true) { try body(Store(engine, sql: $0, transaction: .write)) }
        }
    }

    /// `body` in one recorded write that first stores the files at `paths` (`stored`: each path's
    /// attachment) and after it sets aside the files `body` names (`StoreEngine.writeTransaction(storing:)`).
    func write<T>(storing paths: [String], _ body: (Store, _ stored: (String) throws -> Attachment) throws -> (result: T, setAside: [String])) throws -> T {
        try engine.writeTransaction(storing: paths) { sql, stored in
            try body(Store(engine, sql: sql, transaction: .write)) { path in
                // Every path was stored before the write; a miss would be a bug here, not bad input.
                guard let a = stored[path] else { throw StoreError.attachmentUnreadable(path: path) }
                return a
            }
        }
    }

    // MARK: What only the engine does: its answer, the same interface for both

    public func importBatch(_ batch: consuming ImportBatch, progress: ImportProgress?) throws -> ImportSummary {
        try engine.importBatch(consume batch, progress: progress)
    }
    public func householdNamespace() throws -> String? { try engine.householdNamespace() }
    public func readableAttachment(sha256: String, scratch: () throws -> String) -> String? {
        engine.readableAttachment(sha256: sha256, scratch: scratch)
    }
    public func check() throws -> [StoreProblem] { try engine.check() }
    public func repair(_ problems: [StoreProblem]) throws -> RepairReport { try engine.repair(problems) }
    public func backup(to destination: String) throws -> BackupReport { try engine.backup(to: destination) }
    public func undo(ifLast id: Int64?) throws -> UndoResult? { try engine.undo(ifLast: id) }
    public func undoHistory(limit: Int) throws -> [UndoEntry] { try engine.undoHistory(limit: limit) }
}

/// The connection of a store outside any transaction: a statement there is a bug (a method that forgot
/// its `read` or `write`), refused rather than run on no transaction.
public struct NoTransaction: SQLExecutor {
    public init() {}
    func refuse() -> StoreError { StoreError.constraint("a statement outside a transaction") }
    public func rows(_ sql: String, _ arguments: [SQLValue]) throws -> [SQLRow] { throw refuse() }
    public func execute(_ sql: String, _ arguments: [SQLValue]) throws -> Int { throw refuse() }
    public func insertReturningId(_ sql: String, _ arguments: [SQLValue]) throws -> Int64 { throw refuse() }
    public func forEachRow(_ sql: String, _ arguments: [SQLValue], columns: (([String]) -> Void)?, _ body: ([SQLValue]) throws -> Void) throws {
        throw refuse()
    }
    public func columns(_ sql: String) throws -> [String] { throw refuse() }
}

/// The transfer code's name for the store's logic inside a transaction (it was a type of its own,
/// `StoreCore`, until the store was written once over the engine). Kept so the transfer code compiles
/// while it moves into its own module; new code says `Store`.
public typealias StoreCore = Store
