import Foundation
import PetFiles
import PetModel

/// What only an engine does, apart from the store's logic (`Store`, written once over this): its
/// transactions, where it keeps attachment files, its search index, its weight series' fast path, its
/// bulk import and one-pass JSON export, its integrity checks and its undo capture. `SQLiteRepository` (a
/// file, GRDB) and `PostgresRepository` (a server, postgres-nio) are the two engines, and only
/// `StoreOpening` names them.
///
/// The maintenance and history requirements are the repository protocols' own (the engine answers them whole).
public protocol StoreEngine: MaintenanceRepository, HistoryRepository {
    /// The clock the engine stamps its writes with (pinned by `PETLOG_NOW`).
    var now: @Sendable () -> Date { get }
    /// PostgreSQL's records name the role that wrote them (`written_by`); a SQLite file has no such column.
    var rolesWrite: Bool { get }
    /// `WebRepository.changeMarker`: differs after any committed write (nil: the engine cannot tell).
    func changeMarker() throws -> String?
    /// `WebRepository.readConcurrently`.
    func readConcurrently(connections: Int) -> Bool

    // MARK: Transactions

    /// One read transaction (one snapshot): `body` on its connection.
    func readTransaction<T>(_ body: (any SQLExecutor) throws -> T) throws -> T
    /// One write transaction: recorded for `undo` under the command line the engine was opened with unless
    /// `recording` is false; the search index brought up to date with the write's rows before it commits.
    func writeTransaction<T>(recording: Bool, _ body: (any SQLExecutor) throws -> T) throws -> T

    // MARK: Attachments

    /// A recorded write that first stores the files at `paths` (`stored`: each path's attachment) and after
    /// it sets the files `body` names aside (`setAside`: detached files no record refers to any more; moved
    /// to the quarantine, never deleted). Beside a SQLite file the files are copied before the transaction
    /// and removed again when it fails; on a server they are chunks written inside it.
    func writeTransaction<T>(storing paths: [String], _ body: (any SQLExecutor, _ stored: [String: Attachment]) throws -> (result: T, setAside: [String])) throws -> T
    /// The bytes of the attachment `sha256` as the engine holds them, handed to `body` in order a piece at a
    /// time (the file beside a SQLite database, 1 MiB at a time; a server's chunks, in one read
    /// transaction), and how an error names it (`name`: the file's path, or the server and the hash).
    /// `held` is false, and `body` is not called, when the engine has none of it (no file, no chunk); a file
    /// that is there but cannot be read throws. `Store.verifyAttachments`, `copyAttachments` and
    /// `writeAttachment` are written once over this.
    func readAttachment(sha256: String, _ body: (Data) throws -> Void) throws -> (held: Bool, name: String)
    /// `TransferRepository.readableAttachment`.
    func readableAttachment(sha256: String, scratch: () throws -> String) -> String?

    // MARK: Search index and the weight series

    /// Pets whose name, breed, colour, microchip or profile notes contain `text` (any case), through the index.
    func searchPets(_ text: String) throws -> [Pet]
    /// Records whose text contains `text` (any case), newest first, through the index.
    func searchRecords(_ text: String, limit: Int) throws -> [PetRecord]
    /// A pet's weights in `lower ..< upper` (Unix seconds), oldest first, from the packed chunks and the
    /// weights after them, in a read transaction; nil when the chunks cannot answer (none to read, or one
    /// that does not decode). `packMore`: whole chunks' worth wait after the last chunk and this engine may
    /// pack them.
    func packedWeightSeries(pet: Int64, lower: Int64, upper: Int64) throws -> (columns: WeightColumns, packMore: Bool)?
    /// Packs the weights waiting after `pet`'s last chunk, in a write of its own not recorded for `undo`.
    func packWeightSeries(pet: Int64) throws
    /// A pet's weights in `lower ..< upper` whose own local day is in `days` (when given), oldest first, from
    /// the tables, the engine's fastest way (SQLite's raw statement, the server's one packed row).
    func weightSeriesFromTables(pet: Int64, lower: Int64, upper: Int64, days: DayWindow?) throws -> WeightColumns

    // MARK: The bulk paths

    /// One write for a bulk load, not recorded for `undo`: `body` on its connection, with the engine's way of
    /// writing rows in bulk (`ImportWriter`: SQLite's prepared statements with the foreign keys off, the
    /// server's COPY).
    func bulkTransaction<T>(_ body: (any SQLExecutor, any ImportWriter) throws -> T) throws -> T
    /// `TransferRepository.importBatch`: the engine's prepared statements or COPY, the matching `Store.importRows`.
    func importBatch(_ batch: consuming ImportBatch, progress: ImportProgress?) throws -> ImportSummary
    /// `TransferRepository.householdNamespace` (nil in a file older than the table).
    func householdNamespace() throws -> String?
}
