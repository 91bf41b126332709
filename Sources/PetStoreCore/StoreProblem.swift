import Foundation
import PetModel

/// One problem `check` found.
public struct StoreProblem: Equatable, Sendable {
    public enum Kind: String, Sendable {
        /// Damage in a table (rows may be lost): repaired into a recovered copy beside the file, never in place.
        case integrity
        /// Damage in an index only (the rows are intact): repaired in place by REINDEX.
        case index
        case foreignKey = "foreign-key", missingFile = "missing-file", quarantinedFile = "quarantined-file", badHash = "bad-hash", orphanFile = "orphan-file", orphanRecord = "orphan-record"
        /// A value petlog never writes (see `InvalidStoredValue`): reads refuse it, and only the user knows what it should be.
        case invalidValue = "invalid-value"
        /// `search_index` says other than the tables (see `SearchIndex`): rebuilt from them by `check --repair`.
        case searchIndex = "search-index"
        /// The packed weight series (`weight_chunk`, SQLite) says other than the tables: `check --repair`
        /// drops the chunks that differ, and the next chart packs them again from the tables.
        case weightSeries = "weight-series"
    }
    public var kind: Kind
    /// What `check` prints about it (a path, a SQLite message, `#12 weight`): for people, never parsed back.
    public var detail: String
    /// The record the problem is about (an orphan record header), by id and kind: what `repair` acts on.
    public var record: RecordKey?
    /// What petlog itself says in `detail`, for `check` to say in the user's language; nil where the detail
    /// is data (a path, SQLite's own message, a stored value), which `check` shows as it is.
    public var words: Words?
    public init(kind: Kind, detail: String) { self.kind = kind; self.detail = detail }
    public init(kind: Kind, _ words: Words) { self.kind = kind; self.detail = words.english; self.words = words }

    /// The problems petlog describes in its own words.
    public enum Words: Equatable, Sendable {
        /// An attachment file, named by its hash.
        case attachment(sha256: String)
        /// A search column or table whose rows do not say what the records say.
        case rowsOutOfStep(table: String, count: Int)
        /// A row whose parent row is missing.
        case foreignKey(table: String, rowid: Int64, parent: String)

        /// The detail as `check --json` writes it (its documented, stable text).
        public var english: String {
            switch self {
            case .attachment(let sha): "attachment \(sha)"
            case .rowsOutOfStep(let table, let count): "\(table): \(count) rows out of step"
            case .foreignKey(let table, let rowid, let parent): "\(table) rowid \(rowid) → \(parent)"
            }
        }
    }

    /// A record header whose detail row is missing.
    public static func orphanRecord(_ record: RecordKey) -> StoreProblem {
        var problem = StoreProblem(kind: .orphanRecord, detail: "#\(record.id) \(record.kind.rawValue)")
        problem.record = record
        return problem
    }

    /// A record named by a problem: its id and its kind.
    public struct RecordKey: Equatable, Sendable {
        public var id: Int64
        public var kind: RecordKind
        public init(id: Int64, kind: RecordKind) { self.id = id; self.kind = kind }
    }
    /// Something `check --repair` can fix without losing anything: an orphan file (quarantined), a record
    /// header without its detail, an index (rebuilt), or a damaged table (recovered into a copy).
    public var repairable: Bool { kind == .orphanFile || kind == .quarantinedFile || kind == .orphanRecord || kind == .index || kind == .integrity || kind == .searchIndex || kind == .weightSeries }
}

/// What `check --repair` did.
public struct RepairReport: Equatable, Sendable {
    /// Problems fixed in place (orphan record headers removed, indexes rebuilt, files quarantined).
    public var fixed = 0
    /// Where orphan files were moved, if any were.
    public var quarantine: String?
    /// A recovered copy of a file whose tables are damaged: its path, the pets and records kept, and an
    /// estimate of the rows that could not be read.
    public var recovered: (path: String, pets: Int, records: Int, rowsLost: Int)?
    /// The file is damaged and not one row of it could be read: no copy was made.
    public var nothingReadable = false

    public init() {}

    public static func == (a: RepairReport, b: RepairReport) -> Bool {
        a.fixed == b.fixed && a.quarantine == b.quarantine && a.recovered?.path == b.recovered?.path && a.nothingReadable == b.nothingReadable
    }
}

/// What `backup` wrote.
public struct BackupReport: Equatable, Sendable {
    public var database: String
    public var attachmentsFolder: String?
    public var attachments: Int
    /// Attachments the database names whose files are missing (the backup is made without them).
    public var missing: [String]

    public init(database: String, attachmentsFolder: String?, attachments: Int, missing: [String]) {
        self.database = database; self.attachmentsFolder = attachmentsFolder; self.attachments = attachments; self.missing = missing
    }
}
