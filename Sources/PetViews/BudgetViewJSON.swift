import Foundation
import Localization
import PetModel
import PetStoreCore

/// `budget show ID --daily --json`: one budget day by day (docs/json.md), written by `JSONView`.
public struct BudgetDailyJSON: Encodable {
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
    public func encode(to encoder: Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(id, forKey: .id); try c.encode(name, forKey: .name); try c.encode(place, forKey: .place)
        try c.encode(people, forKey: .people); try c.encode(date, forKey: .date); try c.encode(firstDay, forKey: .firstDay)
        try c.encode(lastDay, forKey: .lastDay); try c.encode(budget, forKey: .budget); try c.encode(budgetPerPerson, forKey: .budgetPerPerson)
        try c.encode(perPet, forKey: .perPet); try c.encode(pets, forKey: .pets); try c.encode(days, forKey: .days)
        try c.encode(unconverted, forKey: .unconverted)
    }

    public init(_ b: StoredBudget, _ d: BudgetDays, on day: LocalDate, pets: Int) {
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


/// `chart expenses --budget ID --json` (docs/json.md), written by `JSONView`.
struct BudgetChartJSON: Encodable {
    struct Stack: Encodable { var category: String; var minor: [Int64] }
    struct Line: Encodable {
        var id: Int64
        var amountMinor: Int64
        var currency: String
        /// The daily share in the chart's currency (nil: no rate to convert the budget).
        var dailyMinor: Int64?
        enum CodingKeys: String, CodingKey { case id, amountMinor = "amount_minor", currency, dailyMinor = "daily_minor" }
        func encode(to encoder: Encoder) throws {
            var c = encoder.container(keyedBy: CodingKeys.self)
            try c.encode(id, forKey: .id); try c.encode(amountMinor, forKey: .amountMinor); try c.encode(currency, forKey: .currency)
            try c.encode(dailyMinor, forKey: .dailyMinor)
        }
    }
    var currency: String
    var days: [String]
    var stacks: [Stack]
    var unconverted: Int
    var ahead: BudgetDailyJSON.Amount
    var aheadCount: Int
    var budget: Line

    enum CodingKeys: String, CodingKey { case currency, days, stacks, unconverted, ahead, budget }
    enum AheadKeys: String, CodingKey { case converted, count }
    func encode(to encoder: Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(currency, forKey: .currency); try c.encode(days, forKey: .days); try c.encode(stacks, forKey: .stacks)
        try c.encode(unconverted, forKey: .unconverted); try c.encode(budget, forKey: .budget)
        var a = c.nestedContainer(keyedBy: AheadKeys.self, forKey: .ahead)
        try a.encode(ahead, forKey: .converted); try a.encode(aheadCount, forKey: .count)
    }
}
