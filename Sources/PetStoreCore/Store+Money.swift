import Foundation
import PetModel

/// Spending, budgets and exchange rates (`MoneyRepository`), written once over the engine.
extension Store {
    public func spending(_ query: SpendingQuery) throws -> [SpendingEntry] {
        try read { s in
            var clauses: [String] = []
            var args: [any SQLBindable] = []
            if !query.pets.isEmpty {
                let ids = try query.pets.map { try s.resolve($0).id }
                clauses.append("(r.pet_id IN (\(questionMarks(ids.count)))" + (query.includeHousehold ? " OR r.pet_id IS NULL)" : ")"))
                args += ids
            }
            if let s = query.since { clauses.append("r.at >= ?"); args.append(s.unixSeconds(.up)) }
            if let u = query.until { clauses.append("r.at < ?"); args.append(u.unixSeconds(.up)) }
            if let w = query.days { Store.dayClauses(w, into: &clauses, &args) }
            if query.starredOnly { clauses.append("r.starred = 1") }
            let filter = clauses.map { " AND " + $0 }.joined()
            var text = """
                SELECT r.id, r.pet_id, p.name AS pet_name, r.at, r.utc_offset, r.note, r.starred, 'expense' AS source,
                       e.amount_minor AS minor, e.currency, e.category, e.merchant, e.payment, e.split_of
                FROM record r JOIN expense e ON e.record_id = r.id LEFT JOIN pet p ON p.id = r.pet_id
                WHERE r.kind = 'expense' AND r.kind <> 'weight'\(filter)
                """
            var allArgs = args
            if query.includeVisits {
                // Every kind with a cost (a visit's is `vet` spending, a grooming's `grooming`), from its descriptor.
                for k in RecordKindTable.spent {
                    guard let c = k.spending else { continue }
                    text += """

                        UNION ALL
                        SELECT r.id, r.pet_id, p.name, r.at, r.utc_offset, r.note, r.starred, '\(k.table)',
                               v.\(c.minor), v.\(c.currency), '\(c.category)', v.\(c.merchant), NULL, NULL
                        FROM record r JOIN \(k.table) v ON v.record_id = r.id LEFT JOIN pet p ON p.id = r.pet_id
                        WHERE r.kind = '\(k.table)' AND r.kind <> 'weight' AND v.\(c.minor) IS NOT NULL\(filter)
                        """
                    allArgs += args
                }
            }
            text += "\nORDER BY 4, 1"
            var entries: [SpendingEntry] = []
            for row in try s.sql.rows(text, allArgs) {
                let id = row[0].int ?? 0
                let source = row.text("source").flatMap(RecordKind.init(rawValue:)) ?? .expense
                let table = source.rawValue
                let currency = try row.decode("currency", table: table, id: id, Currency.named)
                entries.append(SpendingEntry(
                    recordId: id, petId: row[1].int, petName: row[2].text,
                    at: Date(timeIntervalSince1970: Double(row[3].int ?? 0)), utcOffset: Int(row[4].int ?? 0),
                    money: Money(minorUnits: try row.required(row[8].int, "amount_minor", table: table, id: id), currency: currency),
                    category: try row.required(row[10].text, "category", table: table, id: id), merchant: row[11].text,
                    payment: try row.decodeIfPresent("payment", table: table, id: id, Payment.init(rawValue:)),
                    note: row[5].text, starred: row[6].int == 1, source: source, splitOf: row[13].int))
            }
            guard !entries.isEmpty else { return entries }
            // Items and attachment counts, only where there are any.
            var items: [Int64: [String]] = [:]
            var files: [Int64: Int] = [:]
            let haveItems = try s.sql.int("SELECT EXISTS (SELECT 1 FROM expense_item)", [SQLValue]()) == 1
            let haveFiles = try s.sql.int("SELECT EXISTS (SELECT 1 FROM attachment)", [SQLValue]()) == 1
            let allIds = entries.map(\.recordId)
            for chunk in stride(from: 0, to: allIds.count, by: 500).map({ Array(allIds[$0..<min($0 + 500, allIds.count)]) }) {
                let marks = questionMarks(chunk.count)
                if haveItems {
                    for row in try s.sql.rows("SELECT record_id, name FROM expense_item WHERE record_id IN (\(marks)) ORDER BY record_id, position", chunk) {
                        if let id = row[0].int, let name = row[1].text { items[id, default: []].append(name) }
                    }
                }
                if haveFiles {
                    for row in try s.sql.rows("SELECT record_id, count(*) AS n FROM attachment WHERE record_id IN (\(marks)) GROUP BY record_id", chunk) {
                        if let id = row[0].int { files[id] = Int(row[1].int ?? 0) }
                    }
                }
            }
            // A split purchase is converted whole, then split: each share learns the whole payment and
            // its place among the shares (record order, as `updateRecord` splits), its siblings read or not.
            var shares: [Int64: [(id: Int64, minor: Int64)]] = [:]
            let heads = Array(Set(entries.compactMap(\.splitOf))).sorted()
            for chunk in stride(from: 0, to: heads.count, by: 500).map({ Array(heads[$0..<min($0 + 500, heads.count)]) }) {
                let text = "SELECT split_of, record_id, amount_minor FROM expense WHERE split_of IN (\(questionMarks(chunk.count))) ORDER BY split_of, record_id"
                for row in try s.sql.rows(text, chunk) {
                    if let head = row[0].int, let id = row[1].int, let minor = row[2].int { shares[head, default: []].append((id, minor)) }
                }
            }
            for i in entries.indices {
                entries[i].items = items[entries[i].recordId] ?? []
                entries[i].attachments = files[entries[i].recordId] ?? 0
                if let head = entries[i].splitOf, let list = shares[head], list.count > 1,
                   let index = list.firstIndex(where: { $0.id == entries[i].recordId }) {
                    let total = list.reduce(Int64(0)) { $0.addingSaturated($1.minor) }
                    entries[i].share = PurchaseShare(total: Money(minorUnits: total, currency: entries[i].money.currency), index: index, count: list.count)
                }
            }
            return entries
        }
    }

    // MARK: Budgets

    public func setBudget(_ draft: BudgetDraft) throws -> (budget: StoredBudget, replaced: Bool) {
        try write { s in
            let pet = try draft.pet.map { try s.resolve($0, activeOnly: true) }
            let b = draft.budget
            var first: String?, last: String?
            if case .days(let f, let l) = b.period { first = f.description; last = l.description }
            let existing = try s.sql.int("""
                SELECT id FROM budget WHERE coalesce(pet_id, 0) = ? AND coalesce(category, '') = ? AND coalesce(first_day, '') = ? AND coalesce(last_day, '') = ?
                """, [pet?.id ?? 0, b.category ?? "", first ?? "", last ?? ""])
            let t = s.nowSeconds
            let id: Int64
            if let existing {
                // Setting the same scope again replaces the amount and --per-pet; a name, place or people
                // given replace the stored ones, those not given are kept (`budget edit` clears them).
                try s.sql.execute("""
                    UPDATE budget SET amount_minor = ?, currency = ?, per_pet = ?, name = coalesce(?, name), place = coalesce(?, place),
                    people = coalesce(?, people), updated_at = ? WHERE id = ?
                    """, [b.amount.minorUnits, b.amount.currency.code, b.perPet, b.name, b.place, b.people.map(Int64.init), t, existing])
                id = existing
            } else {
                id = try s.sql.insertReturningId("""
                    INSERT INTO budget (pet_id, amount_minor, currency, first_day, last_day, category, per_pet, name, place, people, created_at, updated_at)
                    VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                    """, [pet?.id, b.amount.minorUnits, b.amount.currency.code, first, last, b.category, b.perPet, b.name, b.place, b.people.map(Int64.init), t, t])
            }
            guard let stored = try s.budget(id: id) else { throw StoreError.constraint("budget") }
            return (stored, existing != nil)
        }
    }

    public func editBudget(id: Int64, _ edit: BudgetEdit) throws -> (before: StoredBudget, after: StoredBudget) {
        try write { s in
            guard let before = try s.budget(id: id) else { throw StoreError.budgetNotFound(id) }
            // Only what differs is written: an edit that changes nothing leaves no step for `undo`.
            var sets: [String] = [], values: [any SQLBindable] = []
            if let name = edit.name, name != before.budget.name { sets.append("name = ?"); values.append(name) }
            if let place = edit.place, place != before.budget.place { sets.append("place = ?"); values.append(place) }
            if let people = edit.people, people != before.budget.people { sets.append("people = ?"); values.append(people.map(Int64.init)) }
            if let span = edit.days, before.budget.period != .days(from: span.first, through: span.last) {
                sets.append("first_day = ?, last_day = ?"); values += [span.first.description, span.last.description]
            }
            guard !sets.isEmpty else { return (before, before) }
            try s.sql.execute("UPDATE budget SET \(sets.joined(separator: ", ")), updated_at = ? WHERE id = ?", values + [s.nowSeconds, id])
            guard let after = try s.budget(id: id) else { throw StoreError.budgetNotFound(id) }
            return (before, after)
        }
    }

    public func deleteBudget(id: Int64) throws -> StoredBudget {
        try write { s in
            guard let b = try s.budget(id: id) else { throw StoreError.budgetNotFound(id) }
            try s.sql.execute("DELETE FROM budget WHERE id = ?", [id])
            return b
        }
    }

    /// A budget's columns, with its pet's name, over `budget b`.
    static let budgetColumns = """
        SELECT b.id, b.pet_id, b.amount_minor, b.currency, b.first_day, b.last_day, b.category, b.per_pet, b.name, b.place, b.people, p.name AS pet_name
        FROM budget b LEFT JOIN pet p ON p.id = b.pet_id
        """

    /// The budget a row of `budgetColumns` describes.
    static func budget(_ row: SQLRow) throws -> StoredBudget {
        let id = row[0].int ?? 0
        func day(_ column: String) throws -> LocalDate? {
            try row.decodeIfPresent(column, table: "budget", id: id) { LocalDate.parseISO(Substring($0)) }
        }
        let currency = try row.decode("currency", table: "budget", id: id, Currency.named)
        let period: Budget.Period
        if let f = try day("first_day"), let l = try day("last_day") { period = .days(from: f, through: l) } else { period = .monthly }
        return StoredBudget(id: id, petId: row.int64("pet_id"), petName: row.text("pet_name"),
                            budget: Budget(amount: Money(minorUnits: try row.required(row.int64("amount_minor"), "amount_minor", table: "budget", id: id),
                                                         currency: currency),
                                           period: period, category: row.text("category"), perPet: row.bool("per_pet") ?? false,
                                           name: row.text("name"), place: row.text("place"), people: row.int64("people").map { Int($0) }))
    }

    /// Every budget, the household's first, then by pet name, category and period (NULLs first on both
    /// engines: PostgreSQL would sort them last).
    public func budgets() throws -> [StoredBudget] {
        try read { s in
            try s.sql.rows(Self.budgetColumns + """

                ORDER BY b.pet_id IS NOT NULL, p.name, b.pet_id, b.category IS NOT NULL, b.category, b.first_day IS NOT NULL, b.first_day, b.id
                """, [SQLValue]()).map(Self.budget)
        }
    }

    /// The budget `id`, if there is one.
    func budget(id: Int64) throws -> StoredBudget? { try sql.rows(Self.budgetColumns + " WHERE b.id = ?", [id]).first.map(Self.budget) }

    // MARK: Rates

    public func storeRates(_ rates: [EuroRate], source: String, at: Date, localDay: LocalDate) throws -> RatesStoreSummary {
        try write { s in
            var added = 0, changed = 0
            for r in rates where r.currency != "EUR" {
                let stored = try s.sql.row("SELECT rate FROM exchange_rate WHERE currency = ? AND day = ?", [r.currency, r.day.description])?[0].text
                if stored == nil { added += 1 } else if stored != r.rate.description { changed += 1 } else { continue }
                try s.sql.execute("""
                    INSERT INTO exchange_rate (day, currency, rate) VALUES (?, ?, ?) ON CONFLICT (currency, day) DO UPDATE SET rate = excluded.rate
                    """, [r.day.description, r.currency, r.rate.description])
            }
            let days = Set(rates.map(\.day))
            try s.sql.execute("INSERT INTO rates_fetch (fetched_at, local_day, source, rates, last_rate_day) VALUES (?, ?, ?, ?, ?)",
                            [at.unixSeconds(), localDay.description, source, rates.count, days.max()?.description])
            return RatesStoreSummary(added: added, changed: changed, days: days.count, firstDay: days.min(), lastDay: days.max())
        }
    }

    public func rateTable(currencies: [String], from: LocalDate?, through: LocalDate?) throws -> RateTable {
        try read { s in
            var clauses: [String] = []
            var args: [any SQLBindable] = []
            let wanted = currencies.filter { $0 != "EUR" }
            if !currencies.isEmpty {
                guard !wanted.isEmpty else { return RateTable([]) }
                clauses.append("x.currency IN (\(questionMarks(wanted.count)))")
                args += wanted
            }
            if let through { clauses.append("x.day <= ?"); args.append(through.description) }
            if let from {
                // From the last published day on or before `from` (per currency).
                clauses.append("x.day >= coalesce((SELECT max(y.day) FROM exchange_rate y WHERE y.currency = x.currency AND y.day <= ?), '')")
                args.append(from.description)
            }
            let text = "SELECT day, currency, rate FROM exchange_rate x" + (clauses.isEmpty ? "" : " WHERE " + clauses.joined(separator: " AND "))
            return RateTable(try s.loadRates(text, args))
        }
    }

    public func rates(on day: LocalDate?) throws -> (day: LocalDate, rates: [EuroRate])? {
        try read { s in
            let found: String? = if let day {
                try s.sql.row("SELECT max(day) FROM exchange_rate WHERE day <= ?", [day.description])?[0].text
            } else {
                try s.sql.row("SELECT max(day) FROM exchange_rate", [SQLValue]())?[0].text
            }
            guard let found, let d = LocalDate.parseISO(Substring(found)) else { return nil }
            return (d, try s.loadRates("SELECT day, currency, rate FROM exchange_rate WHERE day = ? ORDER BY currency", [found]))
        }
    }

    func loadRates(_ text: String, _ arguments: [any SQLBindable]) throws -> [EuroRate] {
        try sql.rows(text, arguments).map { row in
            let rateText = row.text("rate") ?? "", dayText = row.text("day") ?? ""
            guard let rate = ExactDecimal(rateText), let day = LocalDate.parseISO(Substring(dayText)), let currency = row.text("currency") else {
                throw InvalidStoredValue(table: "exchange_rate", id: 0, column: "rate", text: "\(dayText) \(rateText)")
            }
            return EuroRate(day: day, currency: currency, rate: rate)
        }
    }

    public func allRates() throws -> [EuroRate] {
        try read { s in
            try s.loadRates("SELECT day, currency, rate FROM exchange_rate ORDER BY day, currency", [SQLValue]())
        }
    }

    public func lastRatesFetch() throws -> RatesFetch? {
        try read { s in
            guard let row = try s.sql.row("SELECT id, fetched_at, local_day, source, rates, last_rate_day FROM rates_fetch ORDER BY id DESC LIMIT 1",
                                        [SQLValue]()) else { return nil }
            let id = row[0].int ?? 0
            return RatesFetch(fetchedAt: Date(timeIntervalSince1970: Double(row[1].int ?? 0)),
                              localDay: try row.decode("local_day", table: "rates_fetch", id: id) { LocalDate.parseISO(Substring($0)) },
                              source: row.text("source") ?? "", rates: Int(row[4].int ?? 0),
                              lastRateDay: try row.decodeIfPresent("last_rate_day", table: "rates_fetch", id: id) { LocalDate.parseISO(Substring($0)) })
        }
    }
}
