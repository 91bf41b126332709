import Foundation

/// One calendar month's figures: each pet's last weight, meals, stools, symptoms, care and spending.
public struct MonthFigures: Equatable, Sendable {
    /// The month's last weight of each pet, by pet id.
    public var lastWeight: [Int64: Mass] = [:]
    public var meals = MealCounts()
    public var stools = StoolDistribution([])
    /// Episodes by symptom group key (a listed code, or `~` and the owner's words compared without case).
    public var symptoms: [String: Int] = [:]
    /// The first symptom of each group key, to name it.
    public var symptomSamples: [String: Symptom] = [:]
    public var visits = 0, vaccines = 0
    /// Records of each kind (every kind read), for the counts `stats` shows only when there are any.
    public var kindCounts: [RecordKind: Int] = [:]
    /// Doses given (skipped ones are not).
    public var doses = 0
    public var walks = WalkTotals()
    /// Currency code → category → minor units.
    public var spending: [String: [String: Int64]] = [:]

    public init(_ records: [PetRecord], context: TimeContext) {
        meals = MealCounts(records, context: context)
        stools = StoolDistribution(records)
        for r in records {
            kindCounts[r.kind, default: 0] += 1
            switch r.detail {
            case .weight(let w): if let id = r.petId { lastWeight[id] = w.mass }
            case .symptom(let s):
                symptoms[s.groupKey, default: 0] += 1
                if symptomSamples[s.groupKey] == nil { symptomSamples[s.groupKey] = s }
            case .visit: visits += 1
            case .vaccination: vaccines += 1
            case .dose(let d): if !d.skipped { doses += 1 }
            case .walk(let w): walks.add(w)
            case .expense(let e):
                spending[e.money.currency.code, default: [:]][e.category, default: 0] =
                    (spending[e.money.currency.code]?[e.category] ?? 0).addingSaturated(e.money.minorUnits)
            default: break
            }
        }
    }

    public var symptomTotal: Int { symptoms.values.reduce(0, +) }
}

/// A month's figures beside the previous month's: what `stats` shows.
public struct MonthComparison: Equatable, Sendable {
    /// The first days of the two months.
    public var month: LocalDate, previousMonth: LocalDate
    public var this: MonthFigures, previous: MonthFigures

    /// `records` may span any days: each counts in the month of its local day, and only these two months count
    /// (only the days of `periods` when given: a month under way against the same days of the previous one).
    public init(_ records: [PetRecord], month: LocalDate, context: TimeContext, periods: ComparedPeriods? = nil) {
        self.month = month.firstOfMonth
        previousMonth = self.month.adding(months: -1)
        let p = periods ?? ComparedPeriods(month: self.month, today: self.month.adding(months: 2))
        let days = records.map(\.localDay)
        this = MonthFigures(zip(records, days).filter { p.containsThis($0.1) }.map(\.0), context: context)
        previous = MonthFigures(zip(records, days).filter { p.containsPrevious($0.1) }.map(\.0), context: context)
    }

    /// Pet ids with a weight in either month.
    public var weighedPets: [Int64] { Set(this.lastWeight.keys).union(previous.lastWeight.keys).sorted() }
    /// Symptom group keys seen in either month, in key order.
    public var symptomKeys: [String] { Set(this.symptoms.keys).union(previous.symptoms.keys).sorted() }
    /// Currency codes spent in either month, in code order.
    public var currencies: [String] { Set(this.spending.keys).union(previous.spending.keys).sorted() }
    /// Categories of `currency` spent on in either month, in code order.
    public func categories(_ currency: String) -> [String] {
        Set((this.spending[currency] ?? [:]).keys).union((previous.spending[currency] ?? [:]).keys).sorted()
    }
}
