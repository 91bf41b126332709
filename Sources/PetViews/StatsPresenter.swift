import Foundation
import Localization
import PetModel
import PetStoreCore

/// What `stats` shows, read once: the month's records beside the previous month's (the same days while
/// the month is under way), its spending, and the monthly budgets asked about as of `asOf`.
public struct StatsFacts {
    public var month: LocalDate
    public var periods: ComparedPeriods
    public var comparison: MonthComparison
    /// The weighed pets' names, by id.
    public var petNames: [Int64: String]
    public var spending: SpendingComparison
    public var home: Currency
    /// The whole month as every other view totals it (days after today and payments booked ahead included).
    public var monthTotal: Money
    public var ahead: SpendingAhead
    public var budgets: [(budget: StoredBudget, status: BudgetStatus)]
    public var activePets: Int
    public var asOf: LocalDate
    public var isThisMonth: Bool
    /// This week's walks and the week's first day, when the month is this one.
    public var walkWeek: (first: LocalDate, walks: WalkTotals)?

    public init(month: LocalDate, periods: ComparedPeriods, comparison: MonthComparison, petNames: [Int64: String], spending: SpendingComparison,
                home: Currency, monthTotal: Money, ahead: SpendingAhead, budgets: [(budget: StoredBudget, status: BudgetStatus)], activePets: Int,
                asOf: LocalDate, isThisMonth: Bool) {
        self.month = month; self.periods = periods; self.comparison = comparison; self.petNames = petNames; self.spending = spending
        self.home = home; self.monthTotal = monthTotal; self.ahead = ahead; self.budgets = budgets; self.activePets = activePets
        self.asOf = asOf; self.isThisMonth = isThisMonth
    }
}

/// `stats` in the session's language: one row per compared item (label, this month, the previous one,
/// the change) with its machine key for `--json`, the title and header, and the merchant lines.
public struct StatsPresenter {
    public let context: PresentationContext
    var l10n: L10n { context.l10n }
    var format: ValueFormatter { context.format }
    var wording: RecordWording { context.wording }

    public init(_ context: PresentationContext) { self.context = context }

    /// Without a screen: the rows, headings and lines unstyled, wrapped at 80 columns.
    public init(l10n: L10n, format: ValueFormatter, wording: RecordWording) {
        self.init(PresentationContext(screen: TextScreen(colors: false, columns: 80), l10n: l10n, format: format, wording: wording, time: wording.time))
    }

    /// The whole `stats` text: the title and the table, the month's total with payments ahead, what no rate
    /// converts, the merchants, and the monthly budgets where they stand (their days left only this month).
    public func lines(_ facts: StatsFacts, rows: [Row]) -> [String] {
        let screen = context.screen
        let head = heading(facts)
        var out = screen.wrapped(screen.styled(head.title, .bold)) + screen.table(header: head.header, rows: rows.map(\.cells))
        if let week = facts.walkWeek, week.walks.count > 0 {
            let w = week.walks
            out += screen.wrapped(l10n.text(.statsWalkWeek(day: format.shortDay(week.first), count: String(w.count),
                                                           distance: w.meters > 0 ? wording.distance(w.meters) : "—",
                                                           time: w.minutes > 0 ? wording.hoursAndMinutes(w.minutes) : "—")))
        }
        if let total = monthTotalLine(facts) { out += screen.wrapped(total) + context.aheadLines(facts.ahead) }
        let unconverted = facts.spending.unconverted + facts.spending.previousUnconverted
        if unconverted > 0 { out += screen.wrapped(screen.styled(l10n.text(.budgetUnconverted(n: ValueFormatter.count(unconverted))), .yellow)) }
        if let merchants = merchants(facts) {
            out += [""] + screen.wrapped(screen.styled(merchants.title, .bold))
            for line in merchants.lines { out += screen.wrapped(line, indent: 5) }
        }
        if !facts.budgets.isEmpty {
            out += ["", screen.styled(l10n.text(.statsBudgetsTitle), .bold)]
            let budgets = BudgetPresenter(context)
            for (b, st) in facts.budgets {
                out += screen.wrapped("  #\(b.id) " + budgets.describe(b, activePets: facts.activePets), indent: 4)
                for line in budgets.statusLines(b.budget, st, on: facts.asOf, detailed: false, showDays: facts.isThisMonth) { out += screen.wrapped("    " + line, indent: 6) }
            }
        }
        return out
    }

    /// A table row and the same item for `--json` (machine keys are codes and pet ids, the same in every language).
    public struct Row {
        public var cells: [String]
        public var item: StatsJSON.Item
    }

    /// `byCode`: symptoms in the order of their codes (`--json`, the same in every language) rather than of their names.
    public func rows(_ f: StatsFacts, byCode: Bool) -> [Row] {
        let a = f.comparison.this, b = f.comparison.previous
        var rows: [Row] = []
        func delta(_ x: Int, _ y: Int) -> String { ValueFormatter.signedChange(Double(x) - Double(y), digits: 0) }
        func add(_ label: String, _ key: String, _ x: String, _ y: String, _ d: String, _ raw: (StatsJSON.Value, StatsJSON.Value)) {
            rows.append(Row(cells: [label, x, y, d], item: StatsJSON.Item(key, raw.0, raw.1)))
        }
        func count(_ label: String, _ key: String, _ x: Int, _ y: Int) {
            add(label, key, String(x), String(y), delta(x, y), (.count(x), .count(y)))
        }
        for id in f.comparison.weighedPets.sorted(by: { (f.petNames[$0] ?? "", $0) < (f.petNames[$1] ?? "", $1) }) {
            let x = a.lastWeight[id], y = b.lastWeight[id]
            var d = ""
            if let x, let y { d = format.massChange(MassChange(from: y, to: x)) }
            add(l10n.text(.statsWeight(pet: f.petNames[id] ?? "-")), "weight_grams:\(id)", x.map(format.mass) ?? "—",
                y.map(format.mass) ?? "—", d, (.grams(x?.grams), .grams(y?.grams)))
        }
        count(l10n.text(.statsMeals), "meals", a.meals.meals, b.meals.meals)
        count(l10n.text(.statsTreats), "treats", a.meals.treats, b.meals.treats)
        func stoolText(_ stools: StoolDistribution) -> String {
            guard let avg = stools.average else { return "—" }
            return ValueFormatter.trim(avg, digits: 1) + " (" + stools.counts.map { "\($0.score):\($0.count)" }.joined(separator: " ") + ")"
        }
        var stoolDelta = ""
        if let x = a.stools.average, let y = b.stools.average { stoolDelta = ValueFormatter.signedChange(x - y, digits: 1) }
        add(l10n.text(.statsStool), "stool_scores", stoolText(a.stools), stoolText(b.stools), stoolDelta, (.scores(a.stools.scores), .scores(b.stools.scores)))
        count(l10n.text(.statsSymptoms), "symptoms", a.symptomTotal, b.symptomTotal)
        func symptomLabel(_ key: String) -> String { (a.symptomSamples[key] ?? b.symptomSamples[key]).map(wording.symptomName) ?? key }
        let symptomKeys = byCode ? f.comparison.symptomKeys.sorted()
            : f.comparison.symptomKeys.sorted(by: { (symptomLabel($0), $0) < (symptomLabel($1), $1) })
        for key in symptomKeys { count("  " + symptomLabel(key), "symptom:\(key)", a.symptoms[key] ?? 0, b.symptoms[key] ?? 0) }
        count(l10n.text(.statsVisits), "visits", a.visits, b.visits)
        count(l10n.text(.statsVaccines), "vaccines", a.vaccines, b.vaccines)
        // Groomings only in a month pair that had some: a household that keeps none sees no new row.
        let groomA = a.kindCounts[.grooming] ?? 0, groomB = b.kindCounts[.grooming] ?? 0
        if groomA + groomB > 0 { count(l10n.text(.statsGroomings), "groomings", groomA, groomB) }
        // Walks, likewise only where there were some: how many, how far, how long, and minutes a walk.
        let walkA = a.walks, walkB = b.walks
        if walkA.count + walkB.count > 0 {
            count(l10n.text(.statsWalks), "walks", walkA.count, walkB.count)
            func change(_ x: Int, _ y: Int, _ show: (Int) -> String) -> String { x == y ? ValueFormatter.noChange : (x > y ? "+" : "−") + show(abs(x - y)) }
            func shown(_ n: Int, _ show: (Int) -> String) -> String { n > 0 ? show(n) : "—" }
            add("  " + l10n.text(.statsWalkDistance), "walk_meters", shown(walkA.meters, wording.distance), shown(walkB.meters, wording.distance),
                change(walkA.meters, walkB.meters, wording.distance), (.count(walkA.meters), .count(walkB.meters)))
            add("  " + l10n.text(.statsWalkTime), "walk_minutes", shown(walkA.minutes, wording.hoursAndMinutes), shown(walkB.minutes, wording.hoursAndMinutes),
                change(walkA.minutes, walkB.minutes, wording.hoursAndMinutes), (.count(walkA.minutes), .count(walkB.minutes)))
            let avgA = walkA.averageMinutes, avgB = walkB.averageMinutes
            var avgDelta = ""
            if let x = avgA, let y = avgB { avgDelta = ValueFormatter.signedChange(x.rounded() - y.rounded(), digits: 0) }
            add("  " + l10n.text(.statsWalkAverage), "walk_average_minutes", avgA.map { ValueFormatter.trim($0, digits: 0) } ?? "—",
                avgB.map { ValueFormatter.trim($0, digits: 0) } ?? "—", avgDelta, (.number(avgA.map { Int($0.rounded()) }), .number(avgB.map { Int($0.rounded()) })))
        }
        count(l10n.text(.statsDoses), "doses", a.doses, b.doses)
        // Spending in the home currency, each expense at its day's rate; other currencies also as spent.
        func money(_ label: String, _ key: String, _ x: Int64, _ y: Int64, _ currency: Currency) {
            let percent = SpendingComparison.percentChange(from: y, to: x)
            let change = format.moneyChange(from: y, to: x, currency) + (percent.map { " (" + ValueFormatter.signedPercent($0) + ")" } ?? "")
            rows.append(Row(cells: [label, format.money(Money(minorUnits: x, currency: currency)), format.money(Money(minorUnits: y, currency: currency)), change],
                            item: StatsJSON.Item(key, .minorUnits(x), .minorUnits(y), percentChange: .some(percent))))
        }
        let s = f.spending, home = f.home
        money(l10n.text(.statsSpending(currency: home.code)), "spending:\(home.code)", s.total, s.previousTotal, home)
        for c in s.categories { money("  " + l10n.code(.category, c.category), "spending:\(home.code):\(c.category)", c.this, c.previous, home) }
        for x in s.foreign { money(l10n.text(.statsSpendingIn(currency: x.currency.code)), "spent_as:\(x.currency.code)", x.this, x.previous, x.currency) }
        return rows
    }

    public func json(_ f: StatsFacts, rows: [Row]) -> StatsJSON {
        StatsJSON(month: f.month, periods: f.periods, items: rows.map(\.item), currency: f.home, monthTotal: f.monthTotal, ahead: f.ahead,
                  unconverted: (f.spending.unconverted, f.spending.previousUnconverted),
                  merchants: f.spending.merchants.map { StatsJSON.Merchant(name: $0.name, amount: Money(minorUnits: $0.amount, currency: f.home), payments: $0.count) },
                  budgets: f.budgets.map { BudgetJSON($0.budget, activePets: f.activePets, .status($0.status, on: f.asOf)) })
    }

    /// The title and the table's header: the same days of both months while this one is under way, else the two months.
    public func heading(_ f: StatsFacts) -> (title: String, header: [String]) {
        let p = f.periods
        if p.isPartial {
            let thisDays = dayRange(p.first, p.last), previousDays = dayRange(p.previousFirst, p.previousLast)
            return (l10n.text(.statsSameDays(this: thisDays, previous: previousDays)), [l10n.text(.reportItem), thisDays, previousDays, "Δ"])
        }
        let this = format.monthLabel(f.month), previous = format.monthLabel(f.month.adding(months: -1))
        return (l10n.text(.statsTitle(month: this, previous: previous)), [l10n.text(.reportItem), this, previous, "Δ"])
    }

    /// The whole month's total, when it differs from the compared days' (or payments are booked ahead).
    public func monthTotalLine(_ f: StatsFacts) -> String? {
        guard f.monthTotal.minorUnits != f.spending.total || f.ahead.purchases > 0 else { return nil }
        return l10n.text(.statsMonthTotal(month: format.monthLabel(f.month), amount: format.money(f.monthTotal)))
    }

    /// The month's top merchants, ranked; nil when there were none.
    public func merchants(_ f: StatsFacts) -> (title: String, lines: [String])? {
        guard !f.spending.merchants.isEmpty else { return nil }
        return (l10n.text(.statsMerchantsTitle(month: format.monthLabel(f.month))),
                f.spending.merchants.enumerated().map { i, m in
                    "  " + l10n.text(.statsMerchant(rank: String(i + 1), name: PlainText.sanitized(m.name),
                                                    amount: format.money(Money(minorUnits: m.amount, currency: f.home)), n: ValueFormatter.count(m.count)))
                })
    }

    /// `Nov 1–23`, `11월 1–23일`, `11月1日–23日`; one day alone as `Nov 1`.
    public func dayRange(_ first: LocalDate, _ last: LocalDate) -> String {
        if first == last { return format.shortDay(first) }
        return l10n.text(.statsDayRange(mon: format.monthName(first.month), first: String(first.day), last: String(last.day)))
    }
}
