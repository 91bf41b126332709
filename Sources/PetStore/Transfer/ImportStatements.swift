import Foundation
import GRDB
import GRDBSQLite
import PetModel

/// The import's inserts of records and their details: each statement prepared once per import and
/// rebound per row with raw values, as `insertWeights` does for the spreadsheet weights. GRDB's
/// `cachedStatement(…).execute(arguments:)` built an argument array and looked the statement up by
/// its SQL on every row, which was most of a record's write. The same SQL and values as
/// `RecordDetailTables.insert`, which the rest of petlog writes with.
final class ImportStatements {
    private let connection: SQLiteConnection?
    private var prepared: [RecordKind: SQLiteStatement] = [:]
    private var record: SQLiteStatement?
    private var item: SQLiteStatement?
    private var exists: SQLiteStatement?

    init(_ db: Database) { connection = db.sqliteConnection }

    deinit {
        for s in prepared.values { sqlite3_finalize(s) }
        sqlite3_finalize(record)
        sqlite3_finalize(item)
        sqlite3_finalize(exists)
    }

    private static let transient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)

    private func check(_ rc: Int32) throws {
        if rc != SQLITE_OK && rc != SQLITE_DONE {
            throw DatabaseError(resultCode: ResultCode(rawValue: rc), message: String(cString: sqlite3_errmsg(connection)))
        }
    }

    private func prepare(_ sql: String) throws -> SQLiteStatement {
        var s: SQLiteStatement?
        try check(sqlite3_prepare_v2(connection, sql, -1, &s, nil))
        guard let s else { throw DatabaseError(resultCode: .SQLITE_MISUSE, message: "empty statement") }
        return s
    }

    /// Binds with `bind`, runs once, and resets with the bindings cleared.
    private func run(_ s: SQLiteStatement, _ bind: (Binder) -> Void) throws {
        bind(Binder(statement: s))
        let rc = sqlite3_step(s)
        sqlite3_reset(s)
        sqlite3_clear_bindings(s)
        try check(rc)
    }

    struct Binder {
        let statement: SQLiteStatement
        func callAsFunction(_ i: Int32, _ v: Int64?) { if let v { sqlite3_bind_int64(statement, i, v) } else { sqlite3_bind_null(statement, i) } }
        func callAsFunction(_ i: Int32, _ v: Int?) { self(i, v.map(Int64.init)) }
        func callAsFunction(_ i: Int32, _ v: Bool) { sqlite3_bind_int64(statement, i, v ? 1 : 0) }
        func callAsFunction(_ i: Int32, _ v: Double?) { if let v { sqlite3_bind_double(statement, i, v) } else { sqlite3_bind_null(statement, i) } }
        func callAsFunction(_ i: Int32, _ v: String?) {
            guard let v else { sqlite3_bind_null(statement, i); return }
            _ = v.withCString { sqlite3_bind_text(statement, i, $0, -1, ImportStatements.transient) }
        }
    }

    /// Whether a record has the id `id` (for ids kept from the file).
    func recordExists(_ id: Int64) throws -> Bool {
        if exists == nil { exists = try prepare("SELECT 1 FROM record WHERE id = ?") }
        guard let s = exists else { return false }
        sqlite3_bind_int64(s, 1, id)
        let rc = sqlite3_step(s)
        sqlite3_reset(s)
        if rc == SQLITE_ROW { return true }
        try check(rc)
        return false
    }

    func insertRecord(id: Int64, petId: Int64?, kind: RecordKind, at: Int64, utcOffset: Int, note: String?, starred: Bool, now t: Int64) throws {
        if record == nil {
            record = try prepare("INSERT INTO record (id, pet_id, kind, at, utc_offset, note, starred, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)")
        }
        guard let s = record else { return }
        try run(s) { b in
            b(1, id); b(2, petId); b(3, kind.rawValue); b(4, at); b(5, utcOffset); b(6, note); b(7, starred); b(8, t); b(9, t)
        }
    }

    func insertDetail(_ detail: RecordDetail, id: Int64) throws {
        let kind = detail.kind
        let s: SQLiteStatement
        if let p = prepared[kind] { s = p } else {
            s = try prepare(Self.sql(kind))
            prepared[kind] = s
        }
        switch detail {
        case .weight(let w): try run(s) { b in b(1, id); b(2, w.mass.grams); b(3, w.bodyCondition) }
        case .meal(let m): try run(s) { b in b(1, id); b(2, m.food); b(3, m.type.rawValue); b(4, m.amount?.value); b(5, m.amount?.unit.rawValue) }
        case .stool(let x): try run(s) { b in b(1, id); b(2, x.score); b(3, x.color); b(4, x.blood); b(5, x.mucus) }
        case .urine(let u): try run(s) { b in b(1, id); b(2, u.color); b(3, u.amount?.rawValue); b(4, u.straining); b(5, u.blood) }
        case .symptom(let x): try run(s) { b in b(1, id); b(2, x.code); b(3, x.isListed); b(4, x.severity); b(5, x.durationMinutes) }
        case .diary(let d): try run(s) { b in b(1, id); b(2, d.text); b(3, d.mood?.rawValue) }
        case .visit(let v):
            try run(s) { b in
                b(1, id); b(2, v.clinic); b(3, v.vet); b(4, v.reason); b(5, v.diagnosis); b(6, v.treatment); b(7, v.weight?.grams)
                b(8, v.followUp?.description); b(9, v.cost?.minorUnits); b(10, v.cost?.currency.code)
            }
        case .vaccination(let v):
            try run(s) { b in b(1, id); b(2, v.vaccine); b(3, v.product); b(4, v.lot); b(5, v.clinic); b(6, v.nextDue?.description) }
        case .medication(let m):
            try run(s) { b in
                b(1, id); b(2, m.name); b(3, m.dose); b(4, m.route?.rawValue); b(5, m.intervalSeconds)
                b(6, m.times.isEmpty ? nil : Medication.formatTimes(m.times)); b(7, m.endsOn?.description); b(8, m.stoppedAt.map { $0.unixSeconds() })
            }
        case .dose(let d): try run(s) { b in b(1, id); b(2, d.medicationId); b(3, d.skipped) }
        case .expense(let e):
            try run(s) { b in
                b(1, id); b(2, e.money.minorUnits); b(3, e.money.currency.code); b(4, e.category); b(5, e.merchant); b(6, e.payment?.rawValue); b(7, e.splitOf)
            }
            if !e.items.isEmpty && item == nil { item = try prepare("INSERT INTO expense_item (record_id, position, name) VALUES (?, ?, ?)") }
            for (i, name) in e.items.enumerated() {
                guard let itemStatement = item else { break }
                try run(itemStatement) { b in b(1, id); b(2, i); b(3, name) }
            }
        }
    }

    static func sql(_ kind: RecordKind) -> String {
        switch kind {
        case .weight: return "INSERT INTO weight (record_id, grams, body_condition) VALUES (?, ?, ?)"
        case .meal: return "INSERT INTO meal (record_id, food, type, amount, amount_unit) VALUES (?, ?, ?, ?, ?)"
        case .stool: return "INSERT INTO stool (record_id, score, color, blood, mucus) VALUES (?, ?, ?, ?, ?)"
        case .urine: return "INSERT INTO urine (record_id, color, amount, straining, blood) VALUES (?, ?, ?, ?, ?)"
        case .symptom: return "INSERT INTO symptom (record_id, code, listed, severity, duration_minutes) VALUES (?, ?, ?, ?, ?)"
        case .diary: return "INSERT INTO diary (record_id, text, mood) VALUES (?, ?, ?)"
        case .visit:
            return "INSERT INTO visit (record_id, clinic, vet, reason, diagnosis, treatment, weight_grams, follow_up, cost_minor, cost_currency) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"
        case .vaccination: return "INSERT INTO vaccination (record_id, vaccine, product, lot, clinic, next_due) VALUES (?, ?, ?, ?, ?, ?)"
        case .medication:
            return "INSERT INTO medication (record_id, name, dose, route, interval_seconds, times, ends_on, stopped_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)"
        case .dose: return "INSERT INTO dose (record_id, medication_id, skipped) VALUES (?, ?, ?)"
        case .expense: return "INSERT INTO expense (record_id, amount_minor, currency, category, merchant, payment, split_of) VALUES (?, ?, ?, ?, ?, ?, ?)"
        }
    }
}
