import Foundation
import PetModel
import PetStoreCore

/// `check --json`: each problem found.
public struct ProblemJSON: Encodable {
    public let kind: String
    public let detail: String
    public let repairable: Bool
    public init(_ p: StoreProblem) { kind = p.kind.rawValue; detail = p.detail; repairable = p.repairable }
}

/// `import --json`: what the import added and what was already there.
public struct ImportSummaryJSON: Encodable {
    public let summary: ImportSummary
    public init(_ summary: ImportSummary) { self.summary = summary }
    enum CodingKeys: String, CodingKey {
        case recordsAdded = "records_added", recordsAlreadyThere = "records_already_there", petsAdded = "pets_added"
        case petsMatched = "pets_matched", attachmentsAdded = "attachments_added", attachmentsMissing = "attachments_missing"
    }
    public func encode(to encoder: Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(summary.recordsAdded, forKey: .recordsAdded); try c.encode(summary.recordsAlreadyThere, forKey: .recordsAlreadyThere)
        try c.encode(summary.petsAdded, forKey: .petsAdded); try c.encode(summary.petsMatched, forKey: .petsMatched)
        try c.encode(summary.attachmentsAdded, forKey: .attachmentsAdded); try c.encode(summary.attachmentsMissing, forKey: .attachmentsMissing)
    }
}

/// `undo --list --json`: what can be undone, newest first.
public struct UndoEntryJSON: Encodable {
    public let id: Int64
    public let command: String
    public let at: String
    public init(_ e: UndoEntry, context: TimeContext) { id = e.id; command = e.command; at = JSONView.instant(e.at, offset: context.utcOffset(at: e.at)) }
}

/// `config list --json`: the file, the value each key takes and where from, and the file's own values.
public struct ConfigListJSON: Encodable {
    public let path: String
    public let exists: Bool
    public let settings: [String: String]
    public let file: [String: String]
    public init(path: String, exists: Bool, settings: [String: String], file: [String: String]) {
        self.path = path; self.exists = exists; self.settings = settings; self.file = file
    }
}

/// The rates views: `rates update` when the day's rates were already fetched, `rates import/update`
/// when rates were stored, `rates list` (with or without rates for the day asked).
public enum RatesJSON {
    public struct AlreadyFetched: JSONObjectView {
        public let source: String
        public let lastDay: LocalDate?
        public let fetchedAt: String
        public init(source: String, lastDay: LocalDate?, fetchedAt: String) { self.source = source; self.lastDay = lastDay; self.fetchedAt = fetchedAt }
        func write(_ c: inout KeyedEncodingContainer<JSONKey>) throws {
            try c.put("fetched", false); try c.put("source", source); try c.put("last_day", lastDay?.description); try c.put("fetched_at", fetchedAt)
        }
    }

    public struct Stored: JSONObjectView {
        public let source: String
        public let file: RatesUpdate.FileSummary
        public let added: Int
        public let changed: Int
        public init(source: String, file: RatesUpdate.FileSummary, added: Int, changed: Int) {
            self.source = source; self.file = file; self.added = added; self.changed = changed
        }
        func write(_ c: inout KeyedEncodingContainer<JSONKey>) throws {
            try c.put("fetched", true); try c.put("source", source); try c.put("rates", file.rates); try c.put("days", file.days)
            try c.put("currencies", file.currencies); try c.put("first_day", file.firstDay?.description); try c.put("last_day", file.lastDay?.description)
            try c.put("added", added); try c.put("changed", changed)
        }
    }

    /// The last fetch or import; `file` is the imported file's path (null for a download).
    public struct LastFetch: JSONObjectView {
        public let at: String
        public let source: String
        public let localDay: LocalDate
        public let file: String?
        public init(at: String, source: String, localDay: LocalDate, file: String?) { self.at = at; self.source = source; self.localDay = localDay; self.file = file }
        func write(_ c: inout KeyedEncodingContainer<JSONKey>) throws {
            try c.put("at", at); try c.put("source", source); try c.put("local_day", localDay.description)
            try c.put("imported", file != nil); try c.put("file", file)
        }
    }

    /// One currency's rate per euro, its cross rate to the home currency, and the cross rate as shown
    /// (per 100 or 1,000 units where it is small).
    public struct Rate: JSONObjectView {
        public let currency: String
        public let perEuro: String
        public let inHomeCurrency: String?
        public let shownPer: Int64?
        public let shownInHomeCurrency: String?
        public init(currency: String, perEuro: String, inHomeCurrency: String?, shownPer: Int64?, shownInHomeCurrency: String?) {
            self.currency = currency; self.perEuro = perEuro; self.inHomeCurrency = inHomeCurrency
            self.shownPer = shownPer; self.shownInHomeCurrency = shownInHomeCurrency
        }
        func write(_ c: inout KeyedEncodingContainer<JSONKey>) throws {
            try c.put("currency", currency); try c.put("per_euro", perEuro); try c.put("in_home_currency", inHomeCurrency)
            try c.put("shown_per", shownPer); try c.put("shown_in_home_currency", shownInHomeCurrency)
        }
    }

    /// `rates list --json`; `day` nil (and no rates, no `cross_decimals`) when none are stored on or before the date asked.
    public struct List: JSONObjectView {
        public let requested: LocalDate?
        public let day: LocalDate?
        public let home: Currency
        public let crossDecimals: Int
        public let rates: [Rate]
        public let lastFetch: LastFetch?
        public init(requested: LocalDate?, day: LocalDate?, home: Currency, crossDecimals: Int, rates: [Rate], lastFetch: LastFetch?) {
            self.requested = requested; self.day = day; self.home = home; self.crossDecimals = crossDecimals; self.rates = rates; self.lastFetch = lastFetch
        }
        func write(_ c: inout KeyedEncodingContainer<JSONKey>) throws {
            try c.put("requested_date", requested?.description); try c.put("day", day?.description); try c.put("home_currency", home.code)
            if day != nil { try c.put("cross_decimals", crossDecimals) }
            try c.put("rates", rates); try c.put("last_fetch", lastFetch)
        }
    }
}

/// The chart views: the numbers each chart draws.
public enum ChartJSON {
    /// `chart weight --json`: one series per pet, each point an instant and a weight in the display unit.
    public struct WeightSeries: JSONObjectView {
        public let pet: String
        public let unit: String
        public let points: [(String, Double)]
        public init(pet: String, unit: String, points: [(String, Double)]) { self.pet = pet; self.unit = unit; self.points = points }
        struct Point: Encodable {
            let at: String, value: Double
            func encode(to encoder: Encoder) throws { var c = encoder.unkeyedContainer(); try c.encode(at); try c.encode(value) }
        }
        func write(_ c: inout KeyedEncodingContainer<JSONKey>) throws {
            try c.put("pet", pet); try c.put("unit", unit); try c.put("count", points.count); try c.put("points", points.map { Point(at: $0.0, value: $0.1) })
        }
    }

    /// `chart symptoms --json`: week starts and one stack of counts per severity (or kind).
    public struct Symptoms: Encodable {
        public struct Stack: Encodable { public let label: String, values: [Double] }
        public let pet: String
        public let weeks: [String]
        public let stacks: [Stack]
        public init(pet: String, weeks: [LocalDate], stacks: [(label: String, values: [Double])]) {
            self.pet = pet; self.weeks = weeks.map(\.description); self.stacks = stacks.map { Stack(label: $0.label, values: $0.values) }
        }
    }

    /// `chart activity --json`: the weeks' first days, minutes walked and walks in each.
    public struct Activity: Encodable {
        public let pet: String
        public let weeks: [String]
        public let minutes: [Int]
        public let walks: [Int]
        public init(pet: String, weeks: [LocalDate], minutes: [Int], walks: [Int]) {
            self.pet = pet; self.weeks = weeks.map(\.description); self.minutes = minutes; self.walks = walks
        }
    }

    /// `chart expenses --json`: months, minor units per category, and the budget line when one is drawn.
    public struct Expenses: JSONObjectView {
        public struct Stack: Encodable { public let category: String, minor: [Int64] }
        public struct BudgetLine: Encodable {
            public let amountMinor: Int64
            public let currency: String
            public let lineMinor: [Int64?]
            enum CodingKeys: String, CodingKey { case amountMinor = "amount_minor", currency, lineMinor = "line_minor" }
        }
        public let currency: Currency
        public let months: [LocalDate]
        public let stacks: [Stack]
        public let unconverted: Int
        public let ahead: SpendingAhead
        public let budget: BudgetLine?
        public init(currency: Currency, months: [LocalDate], stacks: [(category: String, minor: [Int64])], unconverted: Int, ahead: SpendingAhead,
                    budget: Money?, budgetLine: [Money?]?) {
            self.currency = currency; self.months = months; self.stacks = stacks.map { Stack(category: $0.category, minor: $0.minor) }
            self.unconverted = unconverted; self.ahead = ahead
            if let budget, let budgetLine {
                self.budget = BudgetLine(amountMinor: budget.minorUnits, currency: budget.currency.code, lineMinor: budgetLine.map { $0?.minorUnits })
            } else {
                self.budget = nil
            }
        }
        func write(_ c: inout KeyedEncodingContainer<JSONKey>) throws {
            try c.put("currency", currency.code); try c.put("months", months.map(JSONView.month)); try c.put("stacks", stacks)
            try c.put("unconverted", unconverted); try c.put("ahead", AheadJSON(ahead))
            if let budget { try c.put("budget", budget) }
        }
    }
}
