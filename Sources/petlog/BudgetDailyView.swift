import Foundation
import Localization
import PetModel
import PetStoreCore

/// `budget show ID --daily --json`: one budget day by day (docs/json.md), written by `JSONView`.
struct BudgetDailyJSON: Encodable {
    struct Amount: Encodable {
        var minorUnits: Int64
        var currency: String
        var amount: String
        init(_ m: Money) { minorUnits = m.minorUnits; currency = m.currency.code; amount = m.decimalString }
        enum CodingKeys: String, CodingKey { case minorUnits = "minor_units", currency, amount }
    }
    struct Day: Encodable {
        var day: String
        var spent: Amount
        var expenses: Int
        var total: Amount
        var left: Amount
        var over: Bool
        var ahead: Bool
        var perPerson: PerPerson?
        enum CodingKeys: String, CodingKey { case day, spent, expenses, total, left, over, ahead, perPerson = "per_person" }
        func encode(to encoder: Encoder) throws {
            var c = encoder.container(keyedBy: CodingKeys.self)
            try c.encode(day, forKey: .day); try c.encode(spent, forKey: .spent); try c.encode(expenses, forKey: .expenses)
            try c.encode(total, forKey: .total); try c.encode(left, forKey: .left); try c.encode(over, forKey: .over)
            try c.encode(ahead, forKey: .ahead); try c.encode(perPerson, forKey: .perPerson)  // null without people
        }
    }
    struct PerPerson: Encodable { var spent: Amount; var total: Amount; var left: Amount }

    var id: Int64
    var name: String?
    var place: String?
    var people: Int?
    var date: String
    var firstDay: String
    var lastDay: String
    var budget: Amount
    var budgetPerPerson: Amount?
    var perPet: Bool
    var pets: Int
    var days: [Day]
    var unconverted: Int

    enum CodingKeys: String, CodingKey {
        case id, name, place, people, date, firstDay = "first_day", lastDay = "last_day", budget, budgetPerPerson = "budget_per_person"
        case perPet = "per_pet", pets, days, unconverted
    }
    func encode(to encoder: Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(id, forKey: .id); try c.encode(name, forKey: .name); try c.encode(place, forKey: .place)
        try c.encode(people, forKey: .people); try c.encode(date, forKey: .date); try c.encode(firstDay, forKey: .firstDay)
        try c.encode(lastDay, forKey: .lastDay); try c.encode(budget, forKey: .budget); try c.encode(budgetPerPerson, forKey: .budgetPerPerson)
        try c.encode(perPet, forKey: .perPet); try c.encode(pets, forKey: .pets); try c.encode(days, forKey: .days)
        try c.encode(unconverted, forKey: .unconverted)
    }

    init(_ b: StoredBudget, _ d: BudgetDays, on day: LocalDate, pets: Int) {
        id = b.id; name = b.budget.name; place = b.budget.place; people = b.budget.people
        date = day.description; firstDay = d.first.description; lastDay = d.last.description
        budget = Amount(d.amount); budgetPerPerson = d.amountPerPerson.map(Amount.init)
        perPet = b.budget.perPet; self.pets = pets; unconverted = d.unconverted
        days = d.days.map { r in
            var perPerson: PerPerson?
            if let s = r.spentPerPerson, let t = r.totalPerPerson, let l = r.leftPerPerson { perPerson = PerPerson(spent: Amount(s), total: Amount(t), left: Amount(l)) }
            return Day(day: r.day.description, spent: Amount(r.spent), expenses: r.count, total: Amount(r.total), left: Amount(r.left),
                       over: r.isOver, ahead: r.ahead, perPerson: perPerson)
        }
    }
}

extension Session {
    /// The most days `--daily` lists (ten years).
    static let dailyMaxDays = 3_660

    /// `budget show ID --daily`: each day of the budget's span as of `day` with its spending, the running
    /// total and what is left (per pet with --per-pet, per person with two or more people).
    mutating func showBudgetDaily(id: Int64, on day: LocalDate) throws {
        let repo = try repository()
        guard let b = try repo.budgets().first(where: { $0.id == id }) else { throw StoreError.budgetNotFound(id) }
        let (first, last) = b.budget.span(asOf: day)
        let length = last.dayNumber - first.dayNumber + 1
        guard length <= Session.dailyMaxDays else {
            throw UsageError(message: t(.errBudgetDailyTooLong(id: String(id), n: Display.count(length), max: Display.count(Session.dailyMaxDays))), code: Failure.dataError)
        }
        let activePets = try repo.pets(includeArchived: false).count
        let pets = Budget.headcount(petBudget: b.petId != nil, activePets: activePets)
        let query = SpendingQuery(pets: b.petId.map { [PetRef.id($0)] } ?? [], days: DayWindow(first: first, end: last.adding(days: 1)))
        let entries = try repo.spending(query)
        let rates = try rates(for: entries, to: b.budget.amount.currency)
        let days = BudgetDays(budget: b.budget, items: entries.map { $0.item(time) }, asOf: day, pets: pets, rates: rates)
        if json { try terminal.json(BudgetDailyJSON(b, days, on: day, pets: pets)); return }
        terminal.line(terminal.styled(t(.budgetDailyTitle(id: String(b.id), what: describe(b, activePets: activePets))), .bold))
        // Narrow enough for 80 columns: the day with its mark (today, ahead), the day's spending, the
        // running total and what is left (a minus sign and red once over; the line below says it in
        // words), and with people the running total and what is left per person.
        let perPerson = days.amountPerPerson != nil
        var header = [t(.budgetColDay), t(.budgetColSpent), t(.budgetColTotal), t(.budgetColLeft)]
        if perPerson { header += [t(.budgetColPerPerson(what: t(.budgetColTotal))), t(.budgetColPerPerson(what: t(.budgetColLeft)))] }
        func signed(_ m: Money) -> String {
            m.minorUnits < 0 ? "−" + format.money(Money(minorUnits: m.minorUnits == .min ? .max : -m.minorUnits, currency: m.currency)) : format.money(m)
        }
        let rows: [[String]] = days.days.map { r in
            var label = format.shortDay(r.day)
            if r.day == day { label += " · " + t(.budgetDailyToday) } else if r.ahead && r.count > 0 { label += " · " + t(.budgetDayAhead) }
            var row = [label, r.count == 0 ? "–" : format.money(r.spent), format.money(r.total), signed(r.left)]
            if perPerson { row += [format.money(r.totalPerPerson ?? r.total), signed(r.leftPerPerson ?? r.left)] }
            return row
        }
        let overRows = Set(days.days.enumerated().filter { $0.element.isOver }.map(\.offset))
        terminal.table(header: header, rows: rows) { overRows.contains($0) ? .red : nil }
        func standing(_ spent: Money, of amount: Money) -> String {
            let left = amount.minorUnits.subtractingReportingOverflow(spent.minorUnits).partialValue
            let leftText = left < 0
                ? t(.budgetOver(over: format.money(Money(minorUnits: left == .min ? .max : -left, currency: amount.currency))))
                : t(.budgetLeft(left: format.money(Money(minorUnits: left, currency: amount.currency))))
            return t(.budgetSpentOf(spent: format.money(spent), amount: format.money(amount))) + " · " + leftText
        }
        if let lastRow = days.days.last {
            terminal.line(standing(lastRow.total, of: days.amount))
            if let pp = days.amountPerPerson {
                terminal.line(t(.budgetPerPerson(n: Display.count(b.budget.people ?? 1))) + ": " + standing(lastRow.totalPerPerson ?? lastRow.total, of: pp))
            }
        }
        if days.unconverted > 0 { terminal.line(t(.budgetUnconverted(n: Display.count(days.unconverted)))) }
    }
}
