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
    /// How the kind travels in the export formats: `.legacy` for the eleven kinds shipped before the
    /// descriptor carried a kind's shape, `.columns` for every later kind. Not optional: a kind without
    /// its codec does not compile.
    let codec: Codec
    /// The `--json` and export object of a later kind (`.columns`), nil for a shipped kind's hand-written one.
    /// Stored as well as in `codec`: a multi-payload enum keeps its case in the pointer's spare bits, where
    /// LeakSanitizer (the fuzz build) does not see the array, and reported this global's arrays as leaks.
    public let jsonFields: [JSONField]?
    /// A column holding listed codes, comma-separated (a grooming's `tasks`), and the codes whose names
    /// in any language contain a query (`목욕` → `bath`): `search` finds the kind's records by them.
    public let listedCodes: (column: String, containing: @Sendable (String) -> [String])?
    /// How a kind's record travels in the JSON and CSV formats, said with the kind.
    enum Codec: Sendable {
        /// One of the eleven kinds shipped before grooming: its JSON object is written by hand in
        /// `ExportedDetail` (a shape named by `Legacy`, a closed list: no kind is added to it), `keys` are
        /// the members the JSON import reads and their forms, `read` the detail from the flattened columns.
        case legacy(Legacy, keys: [JSONRead], read: @Sendable (Fields) throws -> RecordDetail)
        /// A later kind: its JSON object is `json` (each key and the columns it is made of, keys in sorted
        /// order; `ExportedColumns` encodes, decodes and byte-writes it from that one list, and `RecordJSON`
        /// writes the `--json` object from it), `read` the detail from the flattened columns of a JSON
        /// object or a CSV row, each value checked as the commands check it.
        case columns(json: [JSONField], read: @Sendable (Fields) throws -> RecordDetail)

        /// The detail from its columns (a JSON object flattened to them, or a CSV row).
        var read: @Sendable (Fields) throws -> RecordDetail {
            switch self {
            case .legacy(_, _, let read), .columns(_, let read): return read
            }
        }
    }

    /// The hand-written JSON objects of the kinds shipped before the descriptor carried a kind's shape
    /// (`ExportedDetail`'s nested types). Closed: a new kind is `.columns`.
    public enum Legacy: Sendable, CaseIterable {
        case weight, meal, stool, urine, symptom, diary, visit, vaccination, medication, dose, expense
    }

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
            /// A list of strings, kept one a line (an empty list: none), as a pet's allergies are stored.
            case lines(String)
            /// An object of two strings or null (a pet's contact, its insurance), kept as their stored form
            /// `FIRST, SECOND`; the writer's value holds the two apart by U+001F.
            case pair(String, first: String, second: String)
            /// A list of such objects, kept one a line (a pet's emergency contacts).
            case pairs(String, first: String, second: String)
        }
        public let key: String
        public let form: Form
        package init(_ key: String, _ form: Form) { self.key = key; self.form = form }

        static func fields(of t: RecordKindTable) -> [JSONRead] {
            switch t.codec {
            case .legacy(_, let keys, _): return keys
            case .columns(let json, _):
                return json.map { f in
                    switch f.form {
                    case .text(let c): return JSONRead(f.key, .text(c))
                    case .integer(let c): return JSONRead(f.key, .integer(c))
                    case .codes(let c): return JSONRead(f.key, .codes(c))
                    case .money(let m, let c): return JSONRead(f.key, .money(minor: m, currency: c))
                    }
                }
            }
        }
    }

    /// A member of a later kind: a key of its JSON object and the columns it is made of, what its value is,
    /// the label `show ID` gives it and the `edit` option that changes it. `show ID`'s fields and `edit`'s
    /// options of a `.columns` kind come from these alone (`RecordDetailPresenter`, `EditCommand`).
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
        /// What the value is: how `show ID` words it and how `edit` reads a typed one.
        public enum Value: Sendable, Equatable {
            /// Text, shown as typed (cleaned); `edit` takes a label, an empty one clears it. Form `.text`.
            case text
            /// A day, shown long; `edit` takes a day or a span from the record's day. Form `.text`.
            case day
            /// Money, shown in its currency; `edit` takes an amount, in the record's currency unless it names one. Form `.money`.
            case money
            /// Codes of a code group of the string tables (`groomingTask`), shown by their names; read by the
            /// kind's command (typed names in any language). Form `.codes`.
            case codes(group: String)
            /// Whole metres, shown as a distance in the user's units; read by the kind's command. Form `.integer`.
            case meters
            /// Whole minutes, shown as hours and minutes; read by the kind's command. Form `.integer`.
            case minutes
        }
        public let key: String
        public let form: Form
        public let value: Value
        /// The key of `show ID`'s label in the string tables (`fieldname.distance`, `show.cost`): a string
        /// without placeholders (`RecordKindTableTests` and `RecordDetailPresenterTests` check every one).
        public let label: String
        /// The `edit` option that changes the member (`--distance`), nil when `edit` does not change it.
        public let option: String?
        init(_ key: String, _ form: Form, _ value: Value, label: String, option: String?) {
            self.key = key; self.form = form; self.value = value; self.label = label; self.option = option
        }

        /// The columns the member is made of.
        public var columns: [String] {
            switch form {
            case .text(let c), .integer(let c), .codes(let c): return [c]
            case .money(let minor, let currency): return [minor, currency]
            }
        }
    }

    /// A later kind's members in its columns' order, as `show ID` lists them and `edit` reads them; nil for a
    /// shipped kind (`.legacy`), whose fields and options are written by hand.
    public var members: [JSONField]? {
        jsonFields.map { fields in fields.sorted { (columns.firstIndex(of: $0.columns[0]) ?? 0) < (columns.firstIndex(of: $1.columns[0]) ?? 0) } }
    }

    /// The detail's columns by name, as the store writes them.
    public static func columnValues(_ detail: RecordDetail) -> [String: SQLValue] {
        Dictionary(uniqueKeysWithValues: zip(of(detail.kind).columns, RecordDetailTables.values(detail, id: 0).dropFirst()))
    }

    /// The detail of this kind that `columns` hold (a missing column is NULL), read as the store reads its row:
    /// a value petlog never writes is `InvalidStoredValue`. `edit` changes a later kind's members this way.
    public func detail(_ columns: [String: SQLValue]) throws -> RecordDetail {
        try RecordDetailTables.detail(kind: kind, row: ColumnValues(values: columns.merging(["record_id": .int(0)]) { a, _ in a }))
    }

    public struct Spending: Sendable {
        /// The amount and currency columns (both or neither), the category, and the column shown as its merchant.
        let minor: String, currency: String, category: String, merchant: String
    }

    /// The descriptor of `kind`.
    public static func of(_ kind: RecordKind) -> RecordKindTable { all.first { $0.kind == kind } ?? make(kind) }

    private static func make(_ kind: RecordKind) -> RecordKindTable {
        func t(_ columns: String, children: [String] = [], search: (@Sendable (String, String) -> String)? = nil, duplicate: String,
               spending: Spending? = nil, nextSession: String? = nil,
               listedCodes: (column: String, containing: @Sendable (String) -> [String])? = nil, codec: Codec) -> RecordKindTable {
            RecordKindTable(kind: kind, columns: columns.components(separatedBy: ", "), children: children, searchText: search, duplicateValue: duplicate,
                            spending: spending, nextSession: nextSession, codec: codec,
                            jsonFields: { if case .columns(let json, _) = codec { return json } else { return nil } }(), listedCodes: listedCodes)
        }
        // The shipped kinds' JSON members as the import reads them (`ExportedDetail`'s Codable shapes write them).
        func text(_ names: String...) -> [JSONRead] { names.map { JSONRead($0, .text($0)) } }
        func integer(_ name: String) -> JSONRead { JSONRead(name, .integer(name)) }
        func boolean(_ name: String) -> JSONRead { JSONRead(name, .boolean(name)) }
        switch kind {
        case .weight:
            return t("grams, body_condition", duplicate: "CAST(d.grams AS TEXT)",
                     codec: .legacy(.weight, keys: [integer("grams"), integer("body_condition")], read: { f in
                         .weight(Weight(mass: Mass(grams: Int(try f.must(f.int("grams", 1...Int64(Mass.maximumGrams)), "grams"))),
                                        bodyCondition: try f.score("body_condition", BodyConditionScore.self)))
                     }))
        case .meal:
            return t("food, type, amount, amount_unit", search: { _, _ in "food" }, duplicate: "d.food || '|' || d.type",
                     codec: .legacy(.meal, keys: text("food", "type") + [JSONRead("amount", .number("amount"))] + text("amount_unit"), read: { f in
                         let unit = try f.choice("amount_unit", Amount.Unit.self)
                         var amount: Amount?
                         if let raw = f.text("amount") {
                             guard let v = Double(raw), v > 0, v <= 100_000, let unit else { throw ImportError(location: f.location, problem: .value(.badAmount(raw))) }
                             amount = Amount(value: v, unit: unit)
                         }
                         return .meal(Meal(food: try f.must(f.label("food"), "food"), type: try f.choice("type", MealType.self) ?? .meal, amount: amount))
                     }))
        case .stool:
            return t("score, color, blood, mucus", duplicate: "CAST(d.score AS TEXT)",
                     codec: .legacy(.stool, keys: [integer("score")] + text("color") + [boolean("blood"), boolean("mucus")], read: { f in
                         .stool(Stool(score: try f.must(f.score("score", StoolScore.self), "score"), color: try f.label("color"),
                                      blood: try f.bool("blood"), mucus: try f.bool("mucus")))
                     }))
        case .urine:
            return t("color, amount, straining, blood", duplicate: "coalesce(d.amount, '')",
                     codec: .legacy(.urine, keys: text("color", "amount") + [boolean("straining"), boolean("blood")], read: { f in
                         .urine(Urine(color: try f.label("color"), amount: try f.choice("amount", UrineAmount.self), straining: try f.bool("straining"),
                                      blood: try f.bool("blood")))
                     }))
        case .symptom:
            return t("code, listed, severity, duration_minutes", search: { _, _ in "code" }, duplicate: "d.code",
                     codec: .legacy(.symptom, keys: text("code") + [boolean("listed"), integer("severity"), integer("duration_minutes")], read: { f in
                         .symptom(Symptom(code: try f.must(f.label("code"), "code"), isListed: try f.bool("listed"),
                                          severity: try f.score("severity", SymptomSeverity.self) ?? SymptomSeverity(clamping: 3),
                                          durationMinutes: try f.int("duration_minutes", 0...1_000_000_000).map(Int.init)))
                     }))
        case .diary:
            return t("text, mood, title", search: { _, _ in "coalesce(title || ' ', '') || text" }, duplicate: "d.text",
                     codec: .legacy(.diary, keys: text("text", "mood", "title"), read: { f in
                         .diary(Diary(text: try f.must(f.longText("text"), "text"), mood: try f.choice("mood", Mood.self), title: try f.label("title")))
                     }))
        case .visit:
            return t("clinic, vet, reason, diagnosis, treatment, weight_grams, follow_up, cost_minor, cost_currency",
                     search: { _, _ in "coalesce(clinic, '') || ' ' || coalesce(vet, '') || ' ' || coalesce(reason, '') || ' ' || coalesce(diagnosis, '') || ' ' || coalesce(treatment, '')" },
                     duplicate: "coalesce(d.reason, '') || '|' || coalesce(d.clinic, '')",
                     spending: Spending(minor: "cost_minor", currency: "cost_currency", category: "vet", merchant: "clinic"),
                     codec: .legacy(.visit, keys: text("clinic", "vet", "reason", "diagnosis", "treatment") + [integer("weight_grams")] + text("follow_up")
                                        + [JSONRead("cost", .money(minor: "cost_minor", currency: "cost_currency"))], read: { f in
                         .visit(Visit(clinic: try f.label("clinic"), vet: try f.label("vet"), reason: try f.label("reason"),
                                      diagnosis: try f.longText("diagnosis"), treatment: try f.longText("treatment"),
                                      weight: try f.int("weight_grams", 1...Int64(Mass.maximumGrams)).map { Mass(grams: Int($0)) },
                                      followUp: try f.day("follow_up"), cost: try f.money("cost_minor", "cost_currency")))
                     }))
        case .vaccination:
            return t("vaccine, product, lot, clinic, next_due", search: { _, _ in "vaccine || ' ' || coalesce(product, '') || ' ' || coalesce(clinic, '')" },
                     duplicate: "d.vaccine",
                     codec: .legacy(.vaccination, keys: text("vaccine", "product", "lot", "clinic", "next_due"), read: { f in
                         .vaccination(Vaccination(vaccine: try f.must(f.label("vaccine"), "vaccine"), product: try f.label("product"), lot: try f.label("lot"),
                                                  clinic: try f.label("clinic"), nextDue: try f.day("next_due")))
                     }))
        case .medication:
            // `stopped_at`: Unix seconds in a CSV row, an RFC 3339 instant in the JSON export.
            return t("name, dose, route, interval_seconds, times, ends_on, stopped_at", search: { _, _ in "name" }, duplicate: "d.name",
                     codec: .legacy(.medication, keys: text("name", "dose", "route") + [integer("interval_seconds")] + text("times", "ends_on")
                                        + [JSONRead("stopped_at", .integerOrText("stopped_at"))], read: { f in
                         var stopped: Date?
                         if let raw = f.text("stopped_at") {
                             stopped = Date(timeIntervalSince1970: Double(try Int64(raw) ?? f.instant("stopped_at").0))
                         }
                         return .medication(Medication(name: try f.must(f.label("name"), "name"), dose: try f.label("dose"), route: try f.choice("route", Route.self),
                                                       intervalSeconds: try f.int("interval_seconds", 1...Int64(Int32.max)).map(Int.init),
                                                       times: try f.text("times").map { v in try f.checked { try Medication.parseTimes(v) } } ?? [],
                                                       endsOn: try f.day("ends_on"), stoppedAt: stopped))
                     }))
        case .dose:
            return t("medication_id, skipped", duplicate: "CAST(d.medication_id AS TEXT)",
                     codec: .legacy(.dose, keys: [integer("medication_id")] + text("medication") + [boolean("skipped")], read: { f in
                         .dose(Dose(medicationId: try f.must(f.int("medication_id", 1...Int64.max), "medication_id"), medicationName: f.text("medication") ?? "",
                                    skipped: try f.bool("skipped")))
                     }))
        case .expense:
            return t("amount_minor, currency, category, merchant, payment, split_of", children: ["expense_item"],
                     search: { separator, items in "category || ' ' || coalesce(merchant, '') || \(separator) || coalesce(\(items), '')" },
                     duplicate: "d.amount_minor || '|' || d.currency || '|' || d.category",
                     codec: .legacy(.expense, keys: [JSONRead("money", .money(minor: "amount_minor", currency: "currency"))] + text("category", "merchant", "payment")
                                        + [JSONRead("items", .items("items")), integer("split_of")], read: { f in
                         let minor = try f.must(f.int("amount_minor", 0...Money.maximumMinorUnits), "amount_minor")
                         // Items travel as one text, separated by U+001F (which no item may contain).
                         let items = try f.text("items").map { all in
                             try all.split(separator: "\u{1F}", omittingEmptySubsequences: false).map { v in try f.checked { try TextField.label(String(v), field: "items") } }
                         } ?? []
                         return .expense(Expense(money: Money(minorUnits: minor, currency: try f.currency("currency")), category: try f.must(f.label("category"), "category"),
                                                 merchant: try f.label("merchant"), payment: try f.choice("payment", Payment.self),
                                                 items: items, splitOf: try f.int("split_of", 1...Int64.max)))
                     }))
        case .grooming:
            // `tasks`: the codes in the order typed, comma-separated (`bath,nails`); `next_due`: the next session's day.
            return t("tasks, groomer, cost_minor, cost_currency, next_due",
                     search: { _, _ in "coalesce(groomer, '') || ' ' || coalesce(tasks, '')" },
                     duplicate: "coalesce(d.tasks, '') || '|' || coalesce(d.groomer, '')",
                     spending: Spending(minor: "cost_minor", currency: "cost_currency", category: "grooming", merchant: "groomer"),
                     nextSession: "next_due",
                     listedCodes: ("tasks", { CareNames.shipped.groomingCodes(containing: $0) }),
                     codec: .columns(json: [JSONField("cost", .money(minor: "cost_minor", currency: "cost_currency"), .money, label: "show.cost", option: "--cost"),
                                            JSONField("groomer", .text("groomer"), .text, label: "fieldname.groomer", option: "--by"),
                                            JSONField("next_due", .text("next_due"), .day, label: "fieldname.next", option: "--next"),
                                            JSONField("tasks", .codes("tasks"), .codes(group: "groomingTask"), label: "fieldname.tasks", option: "--what")], read: { f in
                         let tasks = try f.text("tasks").map { raw in
                             try raw.split(separator: ",", omittingEmptySubsequences: false).map { code -> Grooming.Task in
                                 guard let t = Grooming.Task(rawValue: String(code)) else {
                                     throw ImportError(location: f.location, problem: .value(.unknownChoice(field: "tasks", value: String(code),
                                                                                                              accepted: Grooming.Task.allCases.map(\.rawValue))))
                                 }
                                 return t
                             }
                         } ?? []
                         return .grooming(Grooming(tasks: tasks, groomer: try f.label("groomer"), cost: try f.money("cost_minor", "cost_currency"), next: try f.day("next_due")))
                     }))
        case .walk:
            // Whole metres and whole minutes, either or both; found by its note only.
            return t("distance_m, duration_min", duplicate: "coalesce(CAST(d.distance_m AS TEXT), '') || '|' || coalesce(CAST(d.duration_min AS TEXT), '')",
                     codec: .columns(json: [JSONField("distance_m", .integer("distance_m"), .meters, label: "fieldname.distance", option: "--distance"),
                                            JSONField("duration_min", .integer("duration_min"), .minutes, label: "fieldname.duration", option: "--duration")], read: { f in
                         func whole(_ key: String, _ r: ClosedRange<Int>) throws -> Int? { try f.int(key, Int64(r.lowerBound)...Int64(r.upperBound)).map(Int.init) }
                         return .walk(Walk(meters: try whole("distance_m", Walk.meterRange), minutes: try whole("duration_min", Walk.minuteRange)))
                     }))
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

/// A detail row held in memory (`RecordKindTable.detail(_:)`): the columns by name.
private struct ColumnValues: StoredRow {
    let values: [String: SQLValue]
    func int64(_ column: String) -> Int64? { values[column]?.int }
    func double(_ column: String) -> Double? { values[column]?.double }
    func text(_ column: String) -> String? { values[column]?.text }
    func isNull(_ column: String) -> Bool { values[column]?.isNull ?? true }
    func describe(_ column: String) -> String {
        switch values[column] ?? .null {
        case .null: return "NULL"
        case .int(let v): return String(v)
        case .double(let v): return "\(v)"
        case .text(let v): return "\"\(v)\""
        case .bytes(let b): return "\(b.count) bytes"
        }
    }
}
