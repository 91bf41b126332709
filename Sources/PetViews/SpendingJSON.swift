import Foundation
import PetModel

/// Payments booked for later days of the period: converted total and how many.
public struct AheadJSON: JSONObjectView {
    public let ahead: SpendingAhead
    public init(_ ahead: SpendingAhead) { self.ahead = ahead }
    func write(_ c: inout KeyedEncodingContainer<JSONKey>) throws {
        try c.put("converted", MoneyJSON(ahead.converted)); try c.put("count", ahead.purchases)
    }
}

/// A budget as `budget set/list/show/delete` and `stats` write it; `list` adds where it stands on a
/// day, `show` and `stats` its status.
public struct BudgetJSON: JSONObjectView {
    public enum Standing {
        case none
        case state(on: LocalDate)
        case status(BudgetStatus, on: LocalDate)
    }
    public let budget: StoredBudget
    public let activePets: Int
    public let standing: Standing
    public init(_ budget: StoredBudget, activePets: Int, _ standing: Standing = .none) {
        self.budget = budget; self.activePets = activePets; self.standing = standing
    }

    func write(_ c: inout KeyedEncodingContainer<JSONKey>) throws {
        let b = budget
        try c.put("id", b.id); try c.put("pet_id", b.petId); try c.put("pet", b.petName); try c.put("amount", MoneyJSON(b.budget.amount))
        try c.put("category", b.budget.category); try c.put("per_pet", b.budget.perPet)
        try c.put("pets", Budget.headcount(petBudget: b.petId != nil, activePets: activePets))
        try c.put("name", b.budget.name); try c.put("place", b.budget.place); try c.put("people", b.budget.people)
        switch b.budget.period {
        case .monthly: try c.put("period", "monthly"); try c.put("from", String?.none); try c.put("to", String?.none)
        case .days(let f, let l): try c.put("period", "days"); try c.put("from", f.description); try c.put("to", l.description)
        }
        switch standing {
        case .none: break
        case .state(let day):
            let standing = b.budget.standing(on: day)
            try c.put("standing", standing.code)
            var daysLeft: Int?, startsIn: Int?
            switch standing {
            case .current: daysLeft = b.budget.daysLeft(on: day)
            case .upcoming(let n): startsIn = n
            case .ended: break
            }
            try c.put("days_left", daysLeft); try c.put("starts_in", startsIn)
        case .status(let st, let day):
            try c.put("standing", b.budget.standing(on: day).code); try c.put("first_day", st.first.description); try c.put("last_day", st.last.description)
            try c.put("budget", MoneyJSON(st.amount)); try c.put("spent", MoneyJSON(st.spent)); try c.put("left", MoneyJSON(st.left))
            try c.put("over", st.isOver); try c.put("days_left", st.daysLeft); try c.put("per_day", st.perDay.map(MoneyJSON.init))
            try c.put("by_category", st.byCategory.map { CategorySpentJSON(category: $0.category, spent: $0.spent) })
            try c.put("unconverted", st.unconverted)
            try c.put("per_person", st.perPerson.map(PerPersonJSON.init))
        }
    }
}

/// A trip budget's share per person (two or more people).
public struct PerPersonJSON: JSONObjectView {
    public let share: BudgetStatus.PerPerson
    init(_ share: BudgetStatus.PerPerson) { self.share = share }
    func write(_ c: inout KeyedEncodingContainer<JSONKey>) throws {
        try c.put("people", share.people); try c.put("budget", MoneyJSON(share.amount)); try c.put("spent", MoneyJSON(share.spent))
        try c.put("left", MoneyJSON(share.left)); try c.put("over", share.left.minorUnits < 0); try c.put("per_day", share.perDay.map(MoneyJSON.init))
    }
}

public struct CategorySpentJSON: Encodable {
    public let category: String
    public let spent: MoneyJSON
    init(category: String, spent: Money) { self.category = category; self.spent = MoneyJSON(spent) }
}

/// `budget show --json`: the day and each budget's status on it.
public struct BudgetShowJSON: Encodable {
    public let date: String
    public let budgets: [BudgetJSON]
    public init(date: LocalDate, budgets: [BudgetJSON]) { self.date = date.description; self.budgets = budgets }
}

/// `expense list --json`: one month, one day or every starred expense, by day, with totals per currency.
public struct ExpenseListJSON: JSONObjectView {
    public enum Span { case month(LocalDate), day(LocalDate), everything }
    public let days: SpendingDays
    public let now: Date
    public let ahead: SpendingAhead
    public let span: Span
    public init(_ days: SpendingDays, now: Date, ahead: SpendingAhead, span: Span) {
        self.days = days; self.now = now; self.ahead = ahead; self.span = span
    }

    struct Total: JSONObjectView {
        let total: SpendingTotal
        func write(_ c: inout KeyedEncodingContainer<JSONKey>) throws {
            try c.put("by_currency", total.currencies.map { CurrencyMinorJSON(currency: $0, minorUnits: total.byCurrency[$0] ?? 0) })
            try c.put("converted", MoneyJSON(total.converted)); try c.put("unconverted", total.unconverted)
        }
    }

    struct Day: JSONObjectView {
        let day: SpendingDays.Day
        let now: Date
        func write(_ c: inout KeyedEncodingContainer<JSONKey>) throws {
            try c.put("day", day.day.description); try c.put("total", Total(total: day.total))
            try c.put("entries", zip(day.entries, day.converted).map { Entry(entry: $0, converted: $1, now: now) })
        }
    }

    struct Entry: JSONObjectView {
        let entry: SpendingEntry
        let converted: Money?
        let now: Date
        func write(_ c: inout KeyedEncodingContainer<JSONKey>) throws {
            let e = entry
            try c.put("id", e.recordId); try c.put("source", e.source.rawValue); try c.put("pet_id", e.petId); try c.put("pet", e.petName)
            try c.put("at", JSONView.instant(e.at, offset: e.utcOffset)); try c.put("money", MoneyJSON(e.money))
            try c.put("converted", converted.map(MoneyJSON.init)); try c.put("category", e.category); try c.put("merchant", e.merchant)
            try c.put("payment", e.payment?.rawValue); try c.put("items", e.items); try c.put("note", e.note); try c.put("starred", e.starred)
            try c.put("split_of", e.splitOf); try c.put("attachments", e.attachments); try c.put("ahead", e.isAhead(of: now))
        }
    }

    func write(_ c: inout KeyedEncodingContainer<JSONKey>) throws {
        switch span {
        case .month(let m): try c.put("month", JSONView.month(m)); try c.put("day", String?.none)
        case .day(let d): try c.put("month", JSONView.month(d)); try c.put("day", d.description)
        case .everything: try c.put("month", String?.none); try c.put("day", String?.none)
        }
        try c.put("currency", days.currency.code)
        try c.put("days", days.days.map { Day(day: $0, now: now) })
        try c.put("total", Total(total: days.total))
        try c.put("ahead", AheadJSON(ahead))
    }
}

public struct CurrencyMinorJSON: Encodable {
    public let currency: String
    public let minorUnits: Int64
    enum CodingKeys: String, CodingKey { case currency, minorUnits = "minor_units" }
}

/// `calendar --spending --json`: each day's total in the home currency, the month's total, its busiest day.
public struct SpendingCalendarJSON: JSONObjectView {
    public let month: LocalDate
    public let daily: DailySpending
    public let ahead: SpendingAhead
    public init(month: LocalDate, daily: DailySpending, ahead: SpendingAhead) { self.month = month; self.daily = daily; self.ahead = ahead }

    struct Day: JSONObjectView {
        let day: DailySpending.Day
        func write(_ c: inout KeyedEncodingContainer<JSONKey>) throws {
            try c.put("date", day.day.description); try c.put("minor_units", day.amount); try c.put("entries", day.entries)
            try c.put("unconverted", day.unconverted)
        }
    }

    struct Busiest: Encodable {
        let date: String
        let amount: MoneyJSON
    }

    func write(_ c: inout KeyedEncodingContainer<JSONKey>) throws {
        let home = daily.currency
        try c.put("month", JSONView.month(month)); try c.put("currency", home.code)
        try c.put("days", daily.days.map(Day.init))
        try c.put("total", MoneyJSON(Money(minorUnits: daily.total, currency: home))); try c.put("unconverted", daily.unconverted)
        try c.put("ahead", AheadJSON(ahead))
        try c.put("busiest_day", daily.busiest.map { Busiest(date: $0.day.description, amount: MoneyJSON(Money(minorUnits: $0.amount, currency: home))) })
    }
}
