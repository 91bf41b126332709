import Foundation
import PetModel

/// Writing and reading the detail table of each record kind.
///
/// Cached statements rather than a record type per table: every import writes its records through
/// `insert`, and a record type measured 25-40 % slower there (see `importRows`).
/// What the stores and the transfer formats know of one record kind, said once: its detail table and
/// columns, the text `search` finds it by, the value that makes two imported records the same one, and
/// the tables written with it. Its row is bound by `RecordDetailTables.values` and read back by
/// `RecordDetailTables.detail` (exhaustive switches beside this, so a new kind cannot miss them); both
/// stores' inserts and reads, the import's prepared statements, the CSV tables, the duplicate check,
/// the search text and `check` are written from it. Shipped migrations keep their literal SQL.
public struct RecordKindTable: Sendable {
    public let kind: RecordKind
    /// The detail table: the kind's own name.
    public var table: String { kind.rawValue }
    /// The detail columns after `record_id`, in the order `values` gives them (and the CSV export writes them).
    public let columns: [String]
    /// Tables written with the detail row and read back into it (an expense's items).
    public let children: [String]
    /// The text `search` finds the record by, as SQL over the detail row's own (unqualified) columns,
    /// given the dialect's field separator and an expense's joined item names; nil when the kind is found
    /// only by its note and files.
    let searchText: (@Sendable (_ separator: String, _ items: String) -> String)?
    /// The kind's main value as SQL over the detail row `d` (`DuplicateKey.value` in Swift).
    let duplicateValue: String
    /// Where a kind with a cost keeps it, and the spending category the cost counts in (a visit's is `vet`,
    /// a grooming's `grooming`): every spending view reads these records beside the expenses (one union),
    /// so each cost counts once; nil for kinds without a cost.
    public let spending: Spending?
    /// The column holding the day of the next session a record asks for (`RecordDetail.nextSession`): `due`
    /// reads the kind's records of the pets that have one.
    public let nextSession: String?
    /// The kind's object in the JSON export, made from its columns (`ExportedColumns`), keys in sorted
    /// order; nil for the kinds whose shipped shape is written by hand in `ExportedDetail`. The CSV table
    /// is the columns as they are.
    public let json: [JSONField]?
    /// A column holding listed codes, comma-separated (a grooming's `tasks`), and the codes whose names
    /// in any language contain a query (`목욕` → `bath`): `search` finds the kind's records by them.
    public let listedCodes: (column: String, containing: @Sendable (String) -> [String])?
    /// The detail from its columns (a JSON object flattened to them, or a CSV row), each value checked as
    /// the commands check it; with `json`.
    let read: (@Sendable (Fields) throws -> RecordDetail)?

    /// How the JSON import reads the kind's object (`JSONRecordReading`): each key, the column it fills and
    /// the JSON type its value must have (another type refuses the record, as the Codable shapes of
    /// `ExportedDetail` do). Made from `json` for the kinds that have one.
    public var jsonRead: [JSONRead] { JSONRead.fields(of: self) }

    /// A key of the kind's JSON object as the import reads it.
    public struct JSONRead: Sendable {
        public enum Form: Sendable {
            /// A string, kept as it is.
            case text(String)
            /// An integer, kept in decimal.
            case integer(String)
            /// `true` or `false`, kept as 1 or 0.
            case boolean(String)
            /// Any number, kept as Swift writes the Double.
            case number(String)
            /// An integer (a file from before the value was text) or a string.
            case integerOrText(String)
            /// A list of strings, kept comma-separated (an empty list: none).
            case codes(String)
            /// A list of strings, kept separated by U+001F (an empty list: none), as an expense's items travel.
            case items(String)
            /// The export's money object: `minor_units` and `currency` into the two columns (`amount` is for people).
            case money(minor: String, currency: String)
        }
        public let key: String
        public let form: Form
        init(_ key: String, _ form: Form) { self.key = key; self.form = form }

        static func fields(of t: RecordKindTable) -> [JSONRead] {
            if let json = t.json {
                return json.map { f in
                    switch f.form {
                    case .text(let c): return JSONRead(f.key, .text(c))
                    case .integer(let c): return JSONRead(f.key, .integer(c))
                    case .codes(let c): return JSONRead(f.key, .codes(c))
                    case .money(let m, let c): return JSONRead(f.key, .money(minor: m, currency: c))
                    }
                }
            }
            // The shipped kinds' objects, as `ExportedDetail`'s Codable shapes write them.
            func text(_ names: String...) -> [JSONRead] { names.map { JSONRead($0, .text($0)) } }
            switch t.kind {
            case .weight: return [JSONRead("grams", .integer("grams")), JSONRead("body_condition", .integer("body_condition"))]
            case .meal: return text("food", "type") + [JSONRead("amount", .number("amount"))] + text("amount_unit")
            case .stool: return [JSONRead("score", .integer("score"))] + text("color") + [JSONRead("blood", .boolean("blood")), JSONRead("mucus", .boolean("mucus"))]
            case .urine: return text("color", "amount") + [JSONRead("straining", .boolean("straining")), JSONRead("blood", .boolean("blood"))]
            case .symptom:
                return text("code") + [JSONRead("listed", .boolean("listed")), JSONRead("severity", .integer("severity")),
                                       JSONRead("duration_minutes", .integer("duration_minutes"))]
            case .diary: return text("text", "mood", "title")
            case .visit:
                return text("clinic", "vet", "reason", "diagnosis", "treatment") + [JSONRead("weight_grams", .integer("weight_grams"))] + text("follow_up")
                    + [JSONRead("cost", .money(minor: "cost_minor", currency: "cost_currency"))]
            case .vaccination: return text("vaccine", "product", "lot", "clinic", "next_due")
            case .medication:
                return text("name", "dose", "route") + [JSONRead("interval_seconds", .integer("interval_seconds"))] + text("times", "ends_on")
                    + [JSONRead("stopped_at", .integerOrText("stopped_at"))]
            case .dose: return [JSONRead("medication_id", .integer("medication_id"))] + text("medication") + [JSONRead("skipped", .boolean("skipped"))]
            case .expense:
                return [JSONRead("money", .money(minor: "amount_minor", currency: "currency"))] + text("category", "merchant", "payment")
                    + [JSONRead("items", .items("items")), JSONRead("split_of", .integer("split_of"))]
            case .grooming, .walk: return []  // have `json`
            }
        }
    }

    /// A key of the kind's JSON object and the columns it is made of.
    public struct JSONField: Sendable {
        public enum Form: Sendable {
            /// Text or a day, as stored.
            case text(String)
            /// A whole number, written as a JSON number.
            case integer(String)
            /// A list of codes, stored comma-separated (`bath,nails`), written as a JSON list.
            case codes(String)
            /// Money: an amount and its currency (both or neither), written as the export's money object.
            case money(minor: String, currency: String)
        }
        public let key: String
        public let form: Form
        init(_ key: String, _ form: Form) { self.key = key; self.form = form }
    }

    public struct Spending: Sendable {
        /// The amount and currency columns (both or neither), the category, and the column shown as its merchant.
        let minor: String, currency: String, category: String, merchant: String
    }

    /// The descriptor of `kind`.
    public static func of(_ kind: RecordKind) -> RecordKindTable { all.first { $0.kind == kind } ?? make(kind) }

    private static func make(_ kind: RecordKind) -> RecordKindTable {
        func t(_ columns: String, children: [String] = [], search: (@Sendable (String, String) -> String)? = nil, duplicate: String,
               spending: Spending? = nil, nextSession: String? = nil, json: [JSONField]? = nil,
               listedCodes: (column: String, containing: @Sendable (String) -> [String])? = nil,
               read: (@Sendable (Fields) throws -> RecordDetail)? = nil) -> RecordKindTable {
            RecordKindTable(kind: kind, columns: columns.components(separatedBy: ", "), children: children, searchText: search, duplicateValue: duplicate,
                            spending: spending, nextSession: nextSession, json: json, listedCodes: listedCodes, read: read)
        }
        switch kind {
        case .weight: return t("grams, body_condition", duplicate: "CAST(d.grams AS TEXT)")
        case .meal: return t("food, type, amount, amount_unit", search: { _, _ in "food" }, duplicate: "d.food || '|' || d.type")
        case .stool: return t("score, color, blood, mucus", duplicate: "CAST(d.score AS TEXT)")
        case .urine: return t("color, amount, straining, blood", duplicate: "coalesce(d.amount, '')")
        case .symptom: return t("code, listed, severity, duration_minutes", search: { _, _ in "code" }, duplicate: "d.code")
        case .diary: return t("text, mood, title", search: { _, _ in "coalesce(title || ' ', '') || text" }, duplicate: "d.text")
        case .visit:
            return t("clinic, vet, reason, diagnosis, treatment, weight_grams, follow_up, cost_minor, cost_currency",
                     search: { _, _ in "coalesce(clinic, '') || ' ' || coalesce(vet, '') || ' ' || coalesce(reason, '') || ' ' || coalesce(diagnosis, '') || ' ' || coalesce(treatment, '')" },
                     duplicate: "coalesce(d.reason, '') || '|' || coalesce(d.clinic, '')",
                     spending: Spending(minor: "cost_minor", currency: "cost_currency", category: "vet", merchant: "clinic"))
        case .vaccination:
            return t("vaccine, product, lot, clinic, next_due", search: { _, _ in "vaccine || ' ' || coalesce(product, '') || ' ' || coalesce(clinic, '')" },
                     duplicate: "d.vaccine")
        case .medication: return t("name, dose, route, interval_seconds, times, ends_on, stopped_at", search: { _, _ in "name" }, duplicate: "d.name")
        case .dose: return t("medication_id, skipped", duplicate: "CAST(d.medication_id AS TEXT)")
        case .expense:
            return t("amount_minor, currency, category, merchant, payment, split_of", children: ["expense_item"],
                     search: { separator, items in "category || ' ' || coalesce(merchant, '') || \(separator) || coalesce(\(items), '')" },
                     duplicate: "d.amount_minor || '|' || d.currency || '|' || d.category")
        case .grooming:
            // `tasks`: the codes in the order typed, comma-separated (`bath,nails`); `next_due`: the next session's day.
            return t("tasks, groomer, cost_minor, cost_currency, next_due",
                     search: { _, _ in "coalesce(groomer, '') || ' ' || coalesce(tasks, '')" },
                     duplicate: "coalesce(d.tasks, '') || '|' || coalesce(d.groomer, '')",
                     spending: Spending(minor: "cost_minor", currency: "cost_currency", category: "grooming", merchant: "groomer"),
                     nextSession: "next_due",
                     json: [JSONField("cost", .money(minor: "cost_minor", currency: "cost_currency")), JSONField("groomer", .text("groomer")),
                            JSONField("next_due", .text("next_due")), JSONField("tasks", .codes("tasks"))],
                     listedCodes: ("tasks", { CareNames.shipped.groomingCodes(containing: $0) }),
                     read: { f in
                         var cost: Money?
                         if let minor = try f.int("cost_minor", 0...Money.maximumMinorUnits) { cost = Money(minorUnits: minor, currency: try f.currency("cost_currency")) }
                         let tasks = try f.text("tasks").map { raw in
                             try raw.split(separator: ",", omittingEmptySubsequences: false).map { code -> Grooming.Task in
                                 guard let t = Grooming.Task(rawValue: String(code)) else {
                                     throw ImportError(location: f.location, problem: .value(.unknownChoice(field: "tasks", value: String(code),
                                                                                                              accepted: Grooming.Task.allCases.map(\.rawValue))))
                                 }
                                 return t
                             }
                         } ?? []
                         return .grooming(Grooming(tasks: tasks, groomer: try f.label("groomer"), cost: cost, next: try f.day("next_due")))
                     })
        case .walk:
            // Whole metres and whole minutes, either or both; found by its note only.
            return t("distance_m, duration_min", duplicate: "coalesce(CAST(d.distance_m AS TEXT), '') || '|' || coalesce(CAST(d.duration_min AS TEXT), '')",
                     json: [JSONField("distance_m", .integer("distance_m")), JSONField("duration_min", .integer("duration_min"))],
                     read: { f in
                         func whole(_ key: String, _ r: ClosedRange<Int>) throws -> Int? { try f.int(key, Int64(r.lowerBound)...Int64(r.upperBound)).map(Int.init) }
                         return .walk(Walk(meters: try whole("distance_m", Walk.meterRange), minutes: try whole("duration_min", Walk.minuteRange)))
                     })
        }
    }

    /// Every kind's descriptor, in `RecordKind.allCases` order.
    public static let all: [RecordKindTable] = RecordKind.allCases.map(make)

    /// The kinds whose detail holds text to search.
    public static var searched: [RecordKindTable] { all.filter { $0.searchText != nil } }

    /// `record_id` and the detail columns, as a SELECT or INSERT lists them.
    public var columnList: String { (["record_id"] + columns).joined(separator: ", ") }

    /// The detail row's INSERT, one placeholder per column.
    public var insertSQL: String {
        "INSERT INTO \(table) (\(columnList)) VALUES (\(Array(repeating: "?", count: columns.count + 1).joined(separator: ", ")))"
    }

    /// The kinds whose records are spending besides expenses (a visit's cost, a grooming's).
    public static var spent: [RecordKindTable] { all.filter { $0.spending != nil } }

    /// The kind names as a SQL list (`'weight', 'meal', …`), as the kind CHECK and kind filters spell them.
    public static var kindList: String { all.map { "'\($0.table)'" }.joined(separator: ", ") }
}

public enum RecordDetailTables {
    /// A kind's detail columns, in the order `values` gives them (and the CSV export writes them).
    public static func columns(_ kind: RecordKind) -> String { RecordKindTable.of(kind).columnList }

    /// How many columns `columns(kind)` names.
    public static func width(_ kind: RecordKind) -> Int { RecordKindTable.of(kind).columns.count + 1 }

    /// The detail row of record `id` (an expense's items are rows of `expense_item`, written apart).
    public static func values(_ detail: RecordDetail, id: Int64) -> [SQLValue] {
        // Built as `SQLValue`s directly (no array of existentials): every import row binds through here.
        typealias V = SQLValue
        switch detail {
        case .weight(let w): return [.int(id), V(w.mass.grams), V(w.bodyCondition)]
        case .meal(let m): return [.int(id), V(m.food), V(m.type.rawValue), V(m.amount?.value), V(m.amount?.unit.rawValue)]
        case .stool(let s): return [.int(id), V(s.score), V(s.color), V(s.blood), V(s.mucus)]
        case .urine(let u): return [.int(id), V(u.color), V(u.amount?.rawValue), V(u.straining), V(u.blood)]
        case .symptom(let s): return [.int(id), V(s.code), V(s.isListed), V(s.severity), V(s.durationMinutes)]
        case .diary(let d): return [.int(id), V(d.text), V(d.mood?.rawValue), V(d.title)]
        case .visit(let v): return [.int(id), V(v.clinic), V(v.vet), V(v.reason), V(v.diagnosis), V(v.treatment), V(v.weight?.grams),
                                    V(v.followUp?.description), V(v.cost?.minorUnits), V(v.cost?.currency.code)]
        case .vaccination(let v): return [.int(id), V(v.vaccine), V(v.product), V(v.lot), V(v.clinic), V(v.nextDue?.description)]
        case .medication(let m): return [.int(id), V(m.name), V(m.dose), V(m.route?.rawValue), V(m.intervalSeconds),
                                         V(m.times.isEmpty ? nil : Medication.formatTimes(m.times)), V(m.endsOn?.description),
                                         V(m.stoppedAt.map { $0.unixSeconds() })]
        case .dose(let d): return [.int(id), V(d.medicationId), V(d.skipped)]
        case .expense(let e): return [.int(id), V(e.money.minorUnits), V(e.money.currency.code), V(e.category), V(e.merchant),
                                      V(e.payment?.rawValue), V(e.splitOf)]
        case .grooming(let g): return [.int(id), V(g.taskList), V(g.groomer), V(g.cost?.minorUnits), V(g.cost?.currency.code), V(g.next?.description)]
        case .walk(let w): return [.int(id), V(w.meters), V(w.minutes)]
        }
    }

    /// The kind's main value (`DuplicateKey`), as its descriptor's `duplicateValue` computes it in SQL.
    static func duplicateValue(_ detail: RecordDetail) -> String {
        switch detail {
        case .weight(let w): return String(w.mass.grams)
        case .meal(let m): return m.food + "|" + m.type.rawValue
        case .stool(let s): return String(s.score)
        case .urine(let u): return u.amount?.rawValue ?? ""
        case .symptom(let s): return s.code
        case .diary(let d): return d.text
        case .visit(let v): return (v.reason ?? "") + "|" + (v.clinic ?? "")
        case .vaccination(let v): return v.vaccine
        case .medication(let m): return m.name
        case .dose(let d): return String(d.medicationId)
        case .expense(let e): return "\(e.money.minorUnits)|\(e.money.currency.code)|\(e.category)"
        case .grooming(let g): return (g.taskList ?? "") + "|" + (g.groomer ?? "")
        case .walk(let w): return (w.meters.map(String.init) ?? "") + "|" + (w.minutes.map(String.init) ?? "")
        }
    }

    public static func insert(_ detail: RecordDetail, id: Int64, sql: any SQLExecutor) throws {
        try sql.execute(RecordKindTable.of(detail.kind).insertSQL, values(detail, id: id))
        if case .expense(let e) = detail {
            for (i, item) in e.items.enumerated() {
                try sql.execute("INSERT INTO expense_item (record_id, position, name) VALUES (?, ?, ?)", [id, i, item])
            }
        }
    }

    static func delete(kind: RecordKind, id: Int64, sql: any SQLExecutor) throws {
        try sql.execute("DELETE FROM \(kind.rawValue) WHERE record_id = ?", [id])
    }

    /// Loads the details of `ids`, all of one kind.
    public static func load(kind: RecordKind, ids: [Int64], sql: any SQLExecutor) throws -> [Int64: RecordDetail] {
        var out: [Int64: RecordDetail] = [:]
        out.reserveCapacity(ids.count)
        for chunk in stride(from: 0, to: ids.count, by: 500).map({ Array(ids[$0..<min($0 + 500, ids.count)]) }) {
            let placeholders = questionMarks(chunk.count)
            let query: String
            if kind == .dose {
                query = "SELECT d.*, m.name AS medication_name FROM dose d JOIN medication m ON m.record_id = d.medication_id WHERE d.record_id IN (\(placeholders))"
            } else {
                query = "SELECT * FROM \(kind.rawValue) WHERE record_id IN (\(placeholders))"
            }
            for row in try sql.rows(query, chunk) {
                out[try row.required(row.int64("record_id"), "record_id", table: kind.rawValue, id: 0)] = try detail(kind: kind, row: row)
            }
            if kind == .expense {
                for row in try sql.rows("SELECT record_id, name FROM expense_item WHERE record_id IN (\(placeholders)) ORDER BY record_id, position", chunk) {
                    let id = row.int64("record_id") ?? 0
                    if case .expense(var e)? = out[id] {
                        e.items.append(try row.required(row.text("name"), "name", table: "expense_item", id: id))
                        out[id] = .expense(e)
                    }
                }
            }
        }
        return out
    }

    /// The detail a row of `kind`'s table describes; a value petlog never writes (an unknown meal type, a
    /// date that does not parse, a NULL where the schema has none) is thrown as `InvalidStoredValue`,
    /// never replaced by a default.
    public static func detail<R: StoredRow>(kind: RecordKind, row: R) throws -> RecordDetail {
        let id = row.int64("record_id") ?? 0
        let table = kind.rawValue
        func text<T>(_ column: String, _ parse: (String) -> T?) throws -> T { try row.decode(column, table: table, id: id, parse) }
        func optional<T>(_ column: String, _ parse: (String) -> T?) throws -> T? { try row.decodeIfPresent(column, table: table, id: id, parse) }
        func day(_ column: String) throws -> LocalDate? { try optional(column) { LocalDate.parseISO(Substring($0)) } }
        func string(_ column: String) throws -> String { try row.required(row.text(column), column, table: table, id: id) }
        func int(_ column: String) throws -> Int { try row.required(row.int(column), column, table: table, id: id) }
        func int64(_ column: String) throws -> Int64 { try row.required(row.int64(column), column, table: table, id: id) }
        func flag(_ column: String) throws -> Bool { try row.required(row.bool(column), column, table: table, id: id) }
        func score<S>(_ column: String, _: Score<S>.Type) throws -> Score<S> { try row.required(row.int(column).flatMap(Score<S>.init), column, table: table, id: id) }
        switch kind {
        case .weight:
            return .weight(Weight(mass: Mass(grams: try int("grams")), bodyCondition: row.isNull("body_condition") ? nil : try score("body_condition", BodyConditionScore.self)))
        case .meal:
            // The schema holds amount and unit together (both or neither).
            let amount: Amount? = try row.double("amount").map { v in Amount(value: v, unit: try text("amount_unit", Amount.Unit.init(rawValue:))) }
            return .meal(Meal(food: try string("food"), type: try text("type", MealType.init(rawValue:)), amount: amount))
        case .stool:
            return .stool(Stool(score: try score("score", StoolScore.self), color: row.text("color"), blood: try flag("blood"), mucus: try flag("mucus")))
        case .urine:
            return .urine(Urine(color: row.text("color"), amount: try optional("amount", UrineAmount.init(rawValue:)),
                                straining: try flag("straining"), blood: try flag("blood")))
        case .symptom:
            return .symptom(Symptom(code: try string("code"), isListed: try flag("listed"), severity: try score("severity", SymptomSeverity.self),
                                    durationMinutes: row.int("duration_minutes")))
        case .diary:
            return .diary(Diary(text: try string("text"), mood: try optional("mood", Mood.init(rawValue:)), title: row.text("title")))
        case .visit:
            // The schema holds amount and currency together (both or neither). Every writer takes only the
            // currencies petlog knows, so another code has no minor digits to go by.
            let cost: Money? = try row.int64("cost_minor").map { Money(minorUnits: $0, currency: try text("cost_currency", Currency.named)) }
            return .visit(Visit(clinic: row.text("clinic"), vet: row.text("vet"), reason: row.text("reason"), diagnosis: row.text("diagnosis"),
                                treatment: row.text("treatment"), weight: row.int("weight_grams").map(Mass.init(grams:)),
                                followUp: try day("follow_up"), cost: cost))
        case .vaccination:
            return .vaccination(Vaccination(vaccine: try string("vaccine"), product: row.text("product"), lot: row.text("lot"), clinic: row.text("clinic"),
                                            nextDue: try day("next_due")))
        case .medication:
            return .medication(Medication(name: try string("name"), dose: row.text("dose"), route: try optional("route", Route.init(rawValue:)),
                                          intervalSeconds: row.int("interval_seconds"),
                                          times: try optional("times") { try? Medication.parseTimes($0) } ?? [],
                                          endsOn: try day("ends_on"),
                                          stoppedAt: row.int64("stopped_at").map { Date(timeIntervalSince1970: Double($0)) }))
        case .dose:
            return .dose(Dose(medicationId: try int64("medication_id"), medicationName: try string("medication_name"), skipped: try flag("skipped")))
        case .expense:
            return .expense(Expense(money: Money(minorUnits: try int64("amount_minor"), currency: try text("currency", Currency.named)),
                                    category: try string("category"), merchant: row.text("merchant"),
                                    payment: try optional("payment", Payment.init(rawValue:)), splitOf: row.int64("split_of")))
        case .grooming:
            let cost: Money? = try row.int64("cost_minor").map { Money(minorUnits: $0, currency: try text("cost_currency", Currency.named)) }
            return .grooming(Grooming(tasks: try optional("tasks", Grooming.parseTaskList) ?? [], groomer: row.text("groomer"), cost: cost,
                                      next: try day("next_due")))
        case .walk:
            func whole(_ column: String, _ range: ClosedRange<Int>) throws -> Int? {
                row.isNull(column) ? nil : try row.required(row.int(column).flatMap { range.contains($0) ? $0 : nil }, column, table: table, id: id)
            }
            return .walk(Walk(meters: try whole("distance_m", Walk.meterRange), minutes: try whole("duration_min", Walk.minuteRange)))
        }
    }
}
