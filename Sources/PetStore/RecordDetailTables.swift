import Foundation
import GRDB
import PetModel

/// Writing and reading the detail table of each record kind.
///
/// Cached statements rather than a record type per table: every import writes its records through
/// `insert`, and a record type measured 25-40 % slower there (see `importRows`).
enum RecordDetailTables {
    static func insert(_ detail: RecordDetail, id: Int64, db: Database) throws {
        switch detail {
        case .weight(let w):
            try db.cachedStatement(sql: "INSERT INTO weight (record_id, grams, body_condition) VALUES (?, ?, ?)").execute(
                           arguments: [id, w.mass.grams, w.bodyCondition])
        case .meal(let m):
            try db.cachedStatement(sql: "INSERT INTO meal (record_id, food, type, amount, amount_unit) VALUES (?, ?, ?, ?, ?)").execute(
                           arguments: [id, m.food, m.type.rawValue, m.amount?.value, m.amount?.unit.rawValue])
        case .stool(let s):
            try db.cachedStatement(sql: "INSERT INTO stool (record_id, score, color, blood, mucus) VALUES (?, ?, ?, ?, ?)").execute(
                           arguments: [id, s.score, s.color, s.blood, s.mucus])
        case .urine(let u):
            try db.cachedStatement(sql: "INSERT INTO urine (record_id, color, amount, straining, blood) VALUES (?, ?, ?, ?, ?)").execute(
                           arguments: [id, u.color, u.amount?.rawValue, u.straining, u.blood])
        case .symptom(let s):
            try db.cachedStatement(sql: "INSERT INTO symptom (record_id, code, listed, severity, duration_minutes) VALUES (?, ?, ?, ?, ?)").execute(
                           arguments: [id, s.code, s.isListed, s.severity, s.durationMinutes])
        case .diary(let d):
            try db.cachedStatement(sql: "INSERT INTO diary (record_id, text, mood) VALUES (?, ?, ?)").execute(
                           arguments: [id, d.text, d.mood?.rawValue])
        case .visit(let v):
            try db.cachedStatement(sql: """
                INSERT INTO visit (record_id, clinic, vet, reason, diagnosis, treatment, weight_grams, follow_up, cost_minor, cost_currency)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                """).execute(arguments: [id, v.clinic, v.vet, v.reason, v.diagnosis, v.treatment, v.weight?.grams,
                                 v.followUp?.description, v.cost?.minorUnits, v.cost?.currency.code])
        case .vaccination(let v):
            try db.cachedStatement(sql: "INSERT INTO vaccination (record_id, vaccine, product, lot, clinic, next_due) VALUES (?, ?, ?, ?, ?, ?)").execute(
                           arguments: [id, v.vaccine, v.product, v.lot, v.clinic, v.nextDue?.description])
        case .medication(let m):
            try db.cachedStatement(sql: """
                INSERT INTO medication (record_id, name, dose, route, interval_seconds, times, ends_on, stopped_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)
                """).execute(arguments: [id, m.name, m.dose, m.route?.rawValue, m.intervalSeconds, m.times.isEmpty ? nil : Medication.formatTimes(m.times),
                                 m.endsOn?.description,
                                 m.stoppedAt.map { $0.unixSeconds() }])
        case .dose(let d):
            try db.cachedStatement(sql: "INSERT INTO dose (record_id, medication_id, skipped) VALUES (?, ?, ?)").execute(
                           arguments: [id, d.medicationId, d.skipped])
        case .expense(let e):
            try db.cachedStatement(sql: "INSERT INTO expense (record_id, amount_minor, currency, category, merchant, payment, split_of) VALUES (?, ?, ?, ?, ?, ?, ?)").execute(
                           arguments: [id, e.money.minorUnits, e.money.currency.code, e.category, e.merchant, e.payment?.rawValue, e.splitOf])
            for (i, item) in e.items.enumerated() {
                try db.cachedStatement(sql: "INSERT INTO expense_item (record_id, position, name) VALUES (?, ?, ?)").execute(arguments: [id, i, item])
            }
        }
    }

    static func delete(kind: RecordKind, id: Int64, db: Database) throws {
        try db.execute(sql: "DELETE FROM \(kind.rawValue) WHERE record_id = ?", arguments: [id])
    }

    /// Loads the details of `ids`, all of one kind.
    static func load(kind: RecordKind, ids: [Int64], db: Database) throws -> [Int64: RecordDetail] {
        var out: [Int64: RecordDetail] = [:]
        for chunk in stride(from: 0, to: ids.count, by: 500).map({ Array(ids[$0..<min($0 + 500, ids.count)]) }) {
            let placeholders = databaseQuestionMarks(count: chunk.count)
            let sql: String
            if kind == .dose {
                sql = "SELECT d.*, m.name AS medication_name FROM dose d JOIN medication m ON m.record_id = d.medication_id WHERE d.record_id IN (\(placeholders))"
            } else {
                sql = "SELECT * FROM \(kind.rawValue) WHERE record_id IN (\(placeholders))"
            }
            for row in try Row.fetchAll(db, sql: sql, arguments: StatementArguments(chunk)) {
                out[row["record_id"]] = try detail(kind: kind, row: row)
            }
            if kind == .expense {
                for row in try Row.fetchAll(db, sql: "SELECT record_id, name FROM expense_item WHERE record_id IN (\(placeholders)) ORDER BY record_id, position",
                                            arguments: StatementArguments(chunk)) {
                    let id: Int64 = row["record_id"]
                    if case .expense(var e)? = out[id] { e.items.append(row["name"]); out[id] = .expense(e) }
                }
            }
        }
        return out
    }

    /// The detail a row of `kind`'s table describes; a value petlog never writes (an unknown meal type, a
    /// date that does not parse) is thrown as `InvalidStoredValue`, never replaced by a default.
    static func detail(kind: RecordKind, row: Row) throws -> RecordDetail {
        let id: Int64 = row["record_id"]
        let table = kind.rawValue
        func text<T>(_ column: String, _ parse: (String) -> T?) throws -> T { try row.decode(column, table: table, id: id, parse) }
        func optional<T>(_ column: String, _ parse: (String) -> T?) throws -> T? { try row.decodeIfPresent(column, table: table, id: id, parse) }
        func day(_ column: String) throws -> LocalDate? { try optional(column) { LocalDate.parseISO(Substring($0)) } }
        switch kind {
        case .weight:
            return .weight(Weight(mass: Mass(grams: row["grams"]), bodyCondition: row["body_condition"]))
        case .meal:
            // The schema holds amount and unit together (both or neither).
            let amount: Amount? = try (row["amount"] as Double?).map { v in Amount(value: v, unit: try text("amount_unit", Amount.Unit.init(rawValue:))) }
            return .meal(Meal(food: row["food"], type: try text("type", MealType.init(rawValue:)), amount: amount))
        case .stool:
            return .stool(Stool(score: row["score"], color: row["color"], blood: row["blood"], mucus: row["mucus"]))
        case .urine:
            return .urine(Urine(color: row["color"], amount: try optional("amount", UrineAmount.init(rawValue:)),
                                straining: row["straining"], blood: row["blood"]))
        case .symptom:
            return .symptom(Symptom(code: row["code"], isListed: row["listed"], severity: row["severity"], durationMinutes: row["duration_minutes"]))
        case .diary:
            return .diary(Diary(text: row["text"], mood: try optional("mood", Mood.init(rawValue:))))
        case .visit:
            // The schema holds amount and currency together (both or neither). Every writer takes only the
            // currencies petlog knows, so another code has no minor digits to go by.
            let cost: Money? = try (row["cost_minor"] as Int64?).map { Money(minorUnits: $0, currency: try text("cost_currency", Currency.named)) }
            return .visit(Visit(clinic: row["clinic"], vet: row["vet"], reason: row["reason"], diagnosis: row["diagnosis"],
                                treatment: row["treatment"], weight: (row["weight_grams"] as Int?).map(Mass.init(grams:)),
                                followUp: try day("follow_up"), cost: cost))
        case .vaccination:
            return .vaccination(Vaccination(vaccine: row["vaccine"], product: row["product"], lot: row["lot"], clinic: row["clinic"],
                                            nextDue: try day("next_due")))
        case .medication:
            return .medication(Medication(name: row["name"], dose: row["dose"], route: try optional("route", Route.init(rawValue:)),
                                          intervalSeconds: row["interval_seconds"],
                                          times: try optional("times") { try? Medication.parseTimes($0) } ?? [],
                                          endsOn: try day("ends_on"),
                                          stoppedAt: (row["stopped_at"] as Int64?).map { Date(timeIntervalSince1970: Double($0)) }))
        case .dose:
            return .dose(Dose(medicationId: row["medication_id"], medicationName: row["medication_name"], skipped: row["skipped"]))
        case .expense:
            return .expense(Expense(money: Money(minorUnits: row["amount_minor"], currency: try text("currency", Currency.named)),
                                    category: row["category"], merchant: row["merchant"],
                                    payment: try optional("payment", Payment.init(rawValue:)), splitOf: row["split_of"]))
        }
    }
}
