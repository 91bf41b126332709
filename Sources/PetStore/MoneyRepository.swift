import Foundation
import GRDB
import PetModel

/// Which spending a money view asks for.
public struct SpendingQuery: Sendable {
    /// Pets whose spending counts; empty: every pet and the household.
    public var pets: [PetRef]
    /// With `pets`, also the household's own expenses (no pet).
    public var includeHousehold: Bool
    public var since: Date?
    public var until: Date?
    /// Expenses only, or visit costs too (every spending figure counts them; `expense list --no-visits` does not).
    public var includeVisits: Bool
    public var starredOnly: Bool

    public init(pets: [PetRef] = [], includeHousehold: Bool = false, since: Date? = nil, until: Date? = nil,
                includeVisits: Bool = true, starredOnly: Bool = false) {
        self.pets = pets; self.includeHousehold = includeHousehold; self.since = since; self.until = until
        self.includeVisits = includeVisits; self.starredOnly = starredOnly
    }
}

/// What `budget set` stores: whom it covers and its terms.
public struct BudgetDraft: Sendable {
    public var pet: PetRef?
    public var budget: Budget
    public init(pet: PetRef?, budget: Budget) { self.pet = pet; self.budget = budget }
}

/// What storing a file of rates did.
public struct RatesStoreSummary: Equatable, Sendable {
    /// Rates new to the database, rates that replaced a different stored value, and the days the file covered.
    public var added: Int, changed: Int, days: Int
    public var firstDay: LocalDate?, lastDay: LocalDate?
}

/// Spending, budgets and exchange rates. Every method is one transaction.
public protocol MoneyRepository: Sendable {
    /// Expenses and visit costs in time order (oldest first, then by id).
    func spending(_ query: SpendingQuery) throws -> [SpendingEntry]
    /// The shares of a split expense, in order (the first share first).
    func splitShares(of recordId: Int64) throws -> [PetRecord]
    /// Sets a budget, replacing the one with the same scope (pet, category, period); `replaced` says so.
    func setBudget(_ draft: BudgetDraft) throws -> (budget: StoredBudget, replaced: Bool)
    func budgets() throws -> [StoredBudget]
    func deleteBudget(id: Int64) throws -> StoredBudget
    /// Stores rates (a rate already stored for the day and currency is replaced) and notes the fetch.
    func storeRates(_ rates: [EuroRate], source: String, at: Date, localDay: LocalDate) throws -> RatesStoreSummary
    /// Rates of `currencies` (all when empty) in force from `from` through `through`: every published
    /// day in that span and the last one before it.
    func rateTable(currencies: [String], from: LocalDate?, through: LocalDate?) throws -> RateTable
    /// The rates of the last published day on or before `day` (the newest when nil), and that day.
    func rates(on day: LocalDate?) throws -> (day: LocalDate, rates: [EuroRate])?
    /// The most recent fetch or import of rates.
    func lastRatesFetch() throws -> RatesFetch?
    /// Every stored rate, by day then currency (for export).
    func allRates() throws -> [EuroRate]
}

extension SQLiteRepository {
    public func spending(_ query: SpendingQuery) throws -> [SpendingEntry] {
        try read { db in try spending(query, db: db) }
    }

    func spending(_ query: SpendingQuery, db: Database) throws -> [SpendingEntry] {
        var clauses: [String] = []
        var args: [any DatabaseValueConvertible] = []
        if !query.pets.isEmpty {
            let ids = try query.pets.map { try resolve($0, db: db).id }
            clauses.append("(r.pet_id IN (\(databaseQuestionMarks(count: ids.count)))" + (query.includeHousehold ? " OR r.pet_id IS NULL)" : ")"))
            args += ids
        }
        if let s = query.since { clauses.append("r.at >= ?"); args.append(s.unixSeconds(.up)) }
        if let u = query.until { clauses.append("r.at < ?"); args.append(u.unixSeconds(.up)) }
        if query.starredOnly { clauses.append("r.starred = 1") }
        let filter = clauses.map { " AND " + $0 }.joined()
        var sql = """
            SELECT r.id, r.pet_id, p.name AS pet_name, r.at, r.utc_offset, r.note, r.starred, 'expense' AS source,
                   e.amount_minor AS minor, e.currency, e.category, e.merchant, e.payment, e.split_of
            FROM record r JOIN expense e ON e.record_id = r.id LEFT JOIN pet p ON p.id = r.pet_id
            WHERE r.kind = 'expense' AND r.kind <> 'weight'\(filter)
            """
        var allArgs = args
        if query.includeVisits {
            sql += """

                UNION ALL
                SELECT r.id, r.pet_id, p.name, r.at, r.utc_offset, r.note, r.starred, 'visit',
                       v.cost_minor, v.cost_currency, 'vet', v.clinic, NULL, NULL
                FROM record r JOIN visit v ON v.record_id = r.id LEFT JOIN pet p ON p.id = r.pet_id
                WHERE r.kind = 'visit' AND r.kind <> 'weight' AND v.cost_minor IS NOT NULL\(filter)
                """
            allArgs += args
        }
        sql += "\nORDER BY 4, 1"
        var entries: [SpendingEntry] = []
        var expenseIds: [Int64] = []
        for row in try Row.fetchAll(db, sql: sql, arguments: StatementArguments(allArgs)) {
            let id: Int64 = row["id"]
            let source: String = row["source"]
            let table = source == "visit" ? "visit" : "expense"
            let currency = try row.decode("currency", table: table, id: id, Currency.named)
            entries.append(SpendingEntry(
                recordId: id, petId: row["pet_id"], petName: row["pet_name"],
                at: Date(timeIntervalSince1970: Double(row["at"] as Int64)), utcOffset: row["utc_offset"],
                money: Money(minorUnits: row["minor"], currency: currency), category: row["category"], merchant: row["merchant"],
                payment: try row.decodeIfPresent("payment", table: table, id: id, Payment.init(rawValue:)),
                note: row["note"], starred: row["starred"], source: source == "visit" ? .visit : .expense, splitOf: row["split_of"]))
            if source == "expense" { expenseIds.append(id) }
        }
        guard !entries.isEmpty else { return entries }
        // Items and attachment counts, only where there are any.
        var items: [Int64: [String]] = [:]
        var files: [Int64: Int] = [:]
        let haveItems = try Bool.fetchOne(db, sql: "SELECT EXISTS (SELECT 1 FROM expense_item)") ?? false
        let haveFiles = try Bool.fetchOne(db, sql: "SELECT EXISTS (SELECT 1 FROM attachment)") ?? false
        let allIds = entries.map(\.recordId)
        for chunk in stride(from: 0, to: allIds.count, by: 500).map({ Array(allIds[$0..<min($0 + 500, allIds.count)]) }) {
            let marks = databaseQuestionMarks(count: chunk.count)
            if haveItems {
                for row in try Row.fetchAll(db, sql: "SELECT record_id, name FROM expense_item WHERE record_id IN (\(marks)) ORDER BY record_id, position",
                                            arguments: StatementArguments(chunk)) {
                    items[row["record_id"], default: []].append(row["name"])
                }
            }
            if haveFiles {
                for row in try Row.fetchAll(db, sql: "SELECT record_id, count(*) AS n FROM attachment WHERE record_id IN (\(marks)) GROUP BY record_id",
                                            arguments: StatementArguments(chunk)) {
                    files[row["record_id"]] = row["n"]
                }
            }
        }
        for i in entries.indices {
            entries[i].items = items[entries[i].recordId] ?? []
            entries[i].attachments = files[entries[i].recordId] ?? 0
        }
        return entries
    }

    public func splitShares(of recordId: Int64) throws -> [PetRecord] {
        try read { db in try splitShares(of: recordId, db: db) }
    }

    func splitShares(of recordId: Int64, db: Database) throws -> [PetRecord] {
        guard let head = try Int64.fetchOne(db, sql: "SELECT split_of FROM expense WHERE record_id = ?", arguments: [recordId]) else { return [] }
        return try loadRecords(sql: "WHERE r.id IN (SELECT record_id FROM expense WHERE split_of = ?) ORDER BY r.id", arguments: [head], db: db)
    }

    // MARK: Budgets

    public func setBudget(_ draft: BudgetDraft) throws -> (budget: StoredBudget, replaced: Bool) {
        try write { db in
            let pet = try draft.pet.map { try resolve($0, db: db, activeOnly: true) }
            let b = draft.budget
            var first: String?, last: String?
            if case .days(let f, let l) = b.period { first = f.description; last = l.description }
            let scope: [any DatabaseValueConvertible] = [pet?.id ?? 0, b.category ?? "", first ?? "", last ?? ""]
            let existing = try Int64.fetchOne(db, sql: """
                SELECT id FROM budget WHERE coalesce(pet_id, 0) = ? AND coalesce(category, '') = ? AND coalesce(first_day, '') = ? AND coalesce(last_day, '') = ?
                """, arguments: StatementArguments(scope))
            let t = nowSeconds
            let id: Int64
            if let existing {
                try db.execute(sql: "UPDATE budget SET amount_minor = ?, currency = ?, per_pet = ?, updated_at = ? WHERE id = ?",
                               arguments: [b.amount.minorUnits, b.amount.currency.code, b.perPet, t, existing])
                id = existing
            } else {
                try db.execute(sql: """
                    INSERT INTO budget (pet_id, amount_minor, currency, first_day, last_day, category, per_pet, created_at, updated_at)
                    VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
                    """, arguments: [pet?.id, b.amount.minorUnits, b.amount.currency.code, first, last, b.category, b.perPet, t, t])
                id = db.lastInsertedRowID
            }
            guard let stored = try loadBudgets(db: db, id: id).first else { throw StoreError.constraint("budget") }
            return (stored, existing != nil)
        }
    }

    public func budgets() throws -> [StoredBudget] {
        try read { db in try loadBudgets(db: db, id: nil) }
    }

    public func deleteBudget(id: Int64) throws -> StoredBudget {
        try write { db in
            guard let b = try loadBudgets(db: db, id: id).first else { throw StoreError.budgetNotFound(id) }
            try db.execute(sql: "DELETE FROM budget WHERE id = ?", arguments: [id])
            return b
        }
    }

    func loadBudgets(db: Database, id: Int64?) throws -> [StoredBudget] {
        let rows = try Row.fetchAll(db, sql: """
            SELECT b.*, p.name AS pet_name FROM budget b LEFT JOIN pet p ON p.id = b.pet_id
            \(id == nil ? "" : "WHERE b.id = ?") ORDER BY b.pet_id IS NOT NULL, p.name, b.pet_id, b.category IS NOT NULL, b.category, b.first_day, b.id
            """, arguments: id.map { [$0] } ?? [])
        return try rows.map { row in
            let id: Int64 = row["id"]
            func day(_ column: String) throws -> LocalDate? {
                try row.decodeIfPresent(column, table: "budget", id: id) { LocalDate.parseISO(Substring($0)) }
            }
            let currency = try row.decode("currency", table: "budget", id: id, Currency.named)
            let period: Budget.Period
            if let f = try day("first_day"), let l = try day("last_day") { period = .days(from: f, through: l) } else { period = .monthly }
            return StoredBudget(id: id, petId: row["pet_id"], petName: row["pet_name"],
                                budget: Budget(amount: Money(minorUnits: row["amount_minor"], currency: currency), period: period,
                                               category: row["category"], perPet: row["per_pet"]))
        }
    }

    // MARK: Rates

    public func storeRates(_ rates: [EuroRate], source: String, at: Date, localDay: LocalDate) throws -> RatesStoreSummary {
        try write { db in
            var added = 0, changed = 0
            for r in rates where r.currency != "EUR" {
                let stored = try String.fetchOne(db, sql: "SELECT rate FROM exchange_rate WHERE currency = ? AND day = ?",
                                                 arguments: [r.currency, r.day.description])
                if stored == nil { added += 1 } else if stored != r.rate.description { changed += 1 } else { continue }
                try db.execute(sql: "INSERT OR REPLACE INTO exchange_rate (day, currency, rate) VALUES (?, ?, ?)",
                               arguments: [r.day.description, r.currency, r.rate.description])
            }
            let days = Set(rates.map(\.day))
            try db.execute(sql: "INSERT INTO rates_fetch (fetched_at, local_day, source, rates, last_rate_day) VALUES (?, ?, ?, ?, ?)",
                           arguments: [at.unixSeconds(), localDay.description, source, rates.count, days.max()?.description])
            return RatesStoreSummary(added: added, changed: changed, days: days.count, firstDay: days.min(), lastDay: days.max())
        }
    }

    public func rateTable(currencies: [String], from: LocalDate?, through: LocalDate?) throws -> RateTable {
        try read { db in
            var clauses: [String] = []
            var args: [any DatabaseValueConvertible] = []
            let wanted = currencies.filter { $0 != "EUR" }
            if !currencies.isEmpty {
                guard !wanted.isEmpty else { return RateTable([]) }
                clauses.append("x.currency IN (\(databaseQuestionMarks(count: wanted.count)))")
                args += wanted
            }
            if let through { clauses.append("x.day <= ?"); args.append(through.description) }
            if let from {
                // From the last published day on or before `from` (per currency).
                clauses.append("x.day >= coalesce((SELECT max(y.day) FROM exchange_rate y WHERE y.currency = x.currency AND y.day <= ?), '')")
                args.append(from.description)
            }
            let sql = "SELECT day, currency, rate FROM exchange_rate x" + (clauses.isEmpty ? "" : " WHERE " + clauses.joined(separator: " AND "))
            return RateTable(try loadRates(db: db, sql: sql, arguments: StatementArguments(args)))
        }
    }

    public func rates(on day: LocalDate?) throws -> (day: LocalDate, rates: [EuroRate])? {
        try read { db in
            let found: String? = if let day {
                try String.fetchOne(db, sql: "SELECT max(day) FROM exchange_rate WHERE day <= ?", arguments: [day.description])
            } else {
                try String.fetchOne(db, sql: "SELECT max(day) FROM exchange_rate")
            }
            guard let found, let d = LocalDate.parseISO(Substring(found)) else { return nil }
            return (d, try loadRates(db: db, sql: "SELECT day, currency, rate FROM exchange_rate WHERE day = ? ORDER BY currency", arguments: [found]))
        }
    }

    func loadRates(db: Database, sql: String, arguments: StatementArguments) throws -> [EuroRate] {
        try Row.fetchAll(db, sql: sql, arguments: arguments).map { row in
            let text: String = row["rate"], dayText: String = row["day"]
            guard let rate = ExactDecimal(text), let day = LocalDate.parseISO(Substring(dayText)) else {
                throw InvalidStoredValue(table: "exchange_rate", id: 0, column: "rate", text: "\(dayText) \(text)")
            }
            return EuroRate(day: day, currency: row["currency"], rate: rate)
        }
    }

    public func allRates() throws -> [EuroRate] {
        try read { db in try loadRates(db: db, sql: "SELECT day, currency, rate FROM exchange_rate ORDER BY day, currency", arguments: []) }
    }

    public func lastRatesFetch() throws -> RatesFetch? {
        try read { db in
            guard let row = try Row.fetchOne(db, sql: "SELECT * FROM rates_fetch ORDER BY id DESC LIMIT 1") else { return nil }
            let id: Int64 = row["id"]
            return RatesFetch(fetchedAt: Date(timeIntervalSince1970: Double(row["fetched_at"] as Int64)),
                              localDay: try row.decode("local_day", table: "rates_fetch", id: id) { LocalDate.parseISO(Substring($0)) },
                              source: row["source"], rates: row["rates"],
                              lastRateDay: try row.decodeIfPresent("last_rate_day", table: "rates_fetch", id: id) { LocalDate.parseISO(Substring($0)) })
        }
    }
}
