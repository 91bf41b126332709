import Foundation
import PetModel

/// `stats --json`: the month beside the previous one, item by item (machine keys are codes and pet ids,
/// the same in every language), then spending, merchants and monthly budgets.
public struct StatsJSON: JSONObjectView {
    /// One compared value: a count, a weight in grams (null when none), stool scores, minor units.
    public enum Value: Encodable {
        case count(Int), grams(Int?), scores([Int]), minorUnits(Int64)
        /// A whole number that may be missing (a walk's average minutes in a month with none timed).
        case number(Int?)
        public func encode(to encoder: Encoder) throws {
            var c = encoder.singleValueContainer()
            switch self {
            case .count(let n): try c.encode(n)
            case .grams(let g): if let g { try c.encode(g) } else { try c.encodeNil() }
            case .scores(let s): try c.encode(s)
            case .minorUnits(let m): try c.encode(m)
            case .number(let n): if let n { try c.encode(n) } else { try c.encodeNil() }
            }
        }
    }

    public struct Item: JSONObjectView {
        public let key: String
        public let this: Value
        public let previous: Value
        /// Money items only: the change in percent, null when the previous month had none.
        public let percentChange: Int??
        public init(_ key: String, _ this: Value, _ previous: Value, percentChange: Int?? = nil) {
            self.key = key; self.this = this; self.previous = previous; self.percentChange = percentChange
        }
        func write(_ c: inout KeyedEncodingContainer<JSONKey>) throws {
            try c.put("item", key); try c.put("this_month", this); try c.put("previous_month", previous)
            if let percentChange { try c.put("percent_change", percentChange) }
        }
    }

    public struct Merchant: Encodable {
        public let name: String
        public let amount: MoneyJSON
        public let payments: Int
        public init(name: String, amount: Money, payments: Int) { self.name = name; self.amount = MoneyJSON(amount); self.payments = payments }
    }

    public let month: LocalDate
    public let periods: ComparedPeriods
    public let items: [Item]
    public let currency: Currency
    public let monthTotal: Money
    public let ahead: SpendingAhead
    public let unconverted: (this: Int, previous: Int)
    public let merchants: [Merchant]
    public let budgets: [BudgetJSON]

    public init(month: LocalDate, periods: ComparedPeriods, items: [Item], currency: Currency, monthTotal: Money, ahead: SpendingAhead,
                unconverted: (this: Int, previous: Int), merchants: [Merchant], budgets: [BudgetJSON]) {
        self.month = month; self.periods = periods; self.items = items; self.currency = currency; self.monthTotal = monthTotal
        self.ahead = ahead; self.unconverted = unconverted; self.merchants = merchants; self.budgets = budgets
    }

    struct Days: Encodable { let first: String, last: String }
    struct Unconverted: Encodable {
        let this: Int, previous: Int
        enum CodingKeys: String, CodingKey { case this = "this_month", previous = "previous_month" }
    }

    func write(_ c: inout KeyedEncodingContainer<JSONKey>) throws {
        try c.put("month", JSONView.month(month)); try c.put("previous_month", JSONView.month(month.adding(months: -1))); try c.put("items", items)
        try c.put("days", Days(first: periods.first.description, last: periods.last.description))
        try c.put("previous_days", Days(first: periods.previousFirst.description, last: periods.previousLast.description))
        try c.put("same_days", periods.isPartial)
        try c.put("currency", currency.code)
        try c.put("month_total", MoneyJSON(monthTotal))
        try c.put("ahead", AheadJSON(ahead))
        try c.put("unconverted", Unconverted(this: unconverted.this, previous: unconverted.previous))
        try c.put("top_merchants", merchants)
        try c.put("budgets", budgets)
    }
}
