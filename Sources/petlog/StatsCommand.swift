import ArgumentParser
import Foundation
import Localization
import PetModel
import PetStore
import PetViews

struct StatsCommand: ParsableCommand {
    @OptionGroup(title: Help.s(.helpGlobalOptionsTitle)) var global: GlobalOptions
    static var configuration: CommandConfiguration { CommandConfiguration(
        commandName: "stats", abstract: Help.s(.helpStatsCommandAbstract)) }
    @Argument(help: ArgumentHelp(Help.s(.helpStatsCommandPet)), completion: .petNames) var pet: String?
    @Option(help: ArgumentHelp(Help.s(.helpStatsCommandMonth))) var month: String?
    @OptionGroup var money: CurrencyOption

    /// `+12%`, `−3%`, `±0%`.
    static func percent(_ p: Int) -> String { ValueFormatter.signedPercent(p) }

    func run() throws {
        try Session.run(global) { s in
            let this = try s.monthStart(month)
            let previous = this.adding(months: -1)
            let repo = try s.repository()
            let refs = pet.map(PetModelText.pets) ?? []
            // A month under way is compared with the same days of the previous month (ComparedPeriods).
            let periods = ComparedPeriods(month: this, today: s.time.today)
            // Every record by its own local day (`DayWindow`), wherever it is read. The kinds counted one by
            // one; weights (most of a big household's records) as each pet's last, and spending below through
            // the spending view.
            let end = periods.last.adding(days: 1)
            let records = try repo.records(RecordQuery(pets: refs, kinds: [.meal, .stool, .symptom, .visit, .vaccination, .dose],
                                                       days: DayWindow(first: previous, end: end)))
            var comparison = MonthComparison(records, month: this, context: s.time, periods: periods)
            let always = (Date(timeIntervalSince1970: -9.2e18), Date(timeIntervalSince1970: 9.2e18))
            let lastThis = try repo.lastWeights(pets: refs, since: always.0, until: always.1, days: DayWindow(first: this, end: end))
            let lastPrevious = try repo.lastWeights(pets: refs, since: always.0, until: always.1,
                                                    days: DayWindow(first: previous, end: periods.previousLast.adding(days: 1)))
            comparison.this.lastWeight = lastThis.mapValues(\.mass)
            comparison.previous.lastWeight = lastPrevious.mapValues(\.mass)
            let a = comparison.this, b = comparison.previous
            var petNames: [Int64: String] = [:]
            for (id, w) in lastThis.merging(lastPrevious, uniquingKeysWith: { x, _ in x }) { petNames[id] = w.name }
            func delta(_ x: Int, _ y: Int) -> String { ValueFormatter.signedChange(Double(x) - Double(y), digits: 0) }
            var rows: [[String]] = []
            var json: [StatsJSON.Item] = []
            // Machine keys are codes and pet ids, the same in every language; the labels are translated.
            func add(_ label: String, _ key: String, _ x: String, _ y: String, _ d: String, _ raw: (StatsJSON.Value, StatsJSON.Value)) {
                rows.append([label, x, y, d])
                json.append(StatsJSON.Item(key, raw.0, raw.1))
            }
            func add(_ label: String, _ key: String, _ x: String, _ y: String, _ d: String, _ raw: (Int, Int)) {
                add(label, key, x, y, d, (.count(raw.0), .count(raw.1)))
            }
            for id in comparison.weighedPets.sorted(by: { (petNames[$0] ?? "", $0) < (petNames[$1] ?? "", $1) }) {
                let x = a.lastWeight[id], y = b.lastWeight[id]
                var d = ""
                if let x, let y { d = s.format.massChange(MassChange(from: y, to: x)) }
                add(s.t(.statsWeight(pet: petNames[id] ?? "-")), "weight_grams:\(id)", x.map(s.format.mass) ?? "—",
                    y.map(s.format.mass) ?? "—", d, (.grams(x?.grams), .grams(y?.grams)))
            }
            add(s.t(.statsMeals), "meals", String(a.meals.meals), String(b.meals.meals), delta(a.meals.meals, b.meals.meals), (a.meals.meals, b.meals.meals))
            add(s.t(.statsTreats), "treats", String(a.meals.treats), String(b.meals.treats), delta(a.meals.treats, b.meals.treats), (a.meals.treats, b.meals.treats))
            func stoolText(_ stools: StoolDistribution) -> String {
                guard let avg = stools.average else { return "—" }
                return ValueFormatter.trim(avg, digits: 1) + " (" + stools.counts.map { "\($0.score):\($0.count)" }.joined(separator: " ") + ")"
            }
            var stoolDelta = ""
            if let x = a.stools.average, let y = b.stools.average {
                stoolDelta = ValueFormatter.signedChange(x - y, digits: 1)
            }
            add(s.t(.statsStool), "stool_scores", stoolText(a.stools), stoolText(b.stools), stoolDelta, (.scores(a.stools.scores), .scores(b.stools.scores)))
            let totalA = a.symptomTotal, totalB = b.symptomTotal
            add(s.t(.statsSymptoms), "symptoms", String(totalA), String(totalB), delta(totalA, totalB), (totalA, totalB))
            func symptomLabel(_ key: String) -> String { (a.symptomSamples[key] ?? b.symptomSamples[key]).map(s.wording.symptomName) ?? key }
            // By name on screen; by code in --json, so machine output is in the same order in every language.
            let symptomKeys = s.json ? comparison.symptomKeys.sorted()
                : comparison.symptomKeys.sorted(by: { (symptomLabel($0), $0) < (symptomLabel($1), $1) })
            for key in symptomKeys {
                let x = a.symptoms[key] ?? 0, y = b.symptoms[key] ?? 0
                add("  " + symptomLabel(key), "symptom:\(key)", String(x), String(y), delta(x, y), (x, y))
            }
            add(s.t(.statsVisits), "visits", String(a.visits), String(b.visits), delta(a.visits, b.visits), (a.visits, b.visits))
            add(s.t(.statsVaccines), "vaccines", String(a.vaccines), String(b.vaccines), delta(a.vaccines, b.vaccines), (a.vaccines, b.vaccines))
            add(s.t(.statsDoses), "doses", String(a.doses), String(b.doses), delta(a.doses, b.doses), (a.doses, b.doses))
            // Spending in the home currency, each expense at its day's rate; other currencies also as spent.
            let home = try s.homeCurrency(money.currency)
            let entries = try repo.spending(SpendingQuery(pets: pet.map(PetModelText.pets) ?? [],
                                                          days: DayWindow(first: previous, end: this.adding(months: 1))))
            let spendingRates = try s.rates(for: entries, to: home)
            let spending = SpendingComparison(entries, month: this, in: home, rates: spendingRates, context: s.time,
                                              periods: periods)
            // The whole month as every other view totals it (days after today and payments booked ahead
            // included), beside the comparison of the same days.
            let thisMonthEntries = entries.filter { $0.localDay >= this && $0.localDay < this.adding(months: 1) }
            let monthTotal = SpendingTotal(thisMonthEntries, in: home, rates: spendingRates, context: s.time).converted
            let ahead = SpendingAhead(thisMonthEntries, in: home, rates: spendingRates, now: s.time.now)
            func change(_ from: Int64, _ to: Int64, _ currency: Currency) -> String {
                s.format.moneyChange(from: from, to: to, currency) + (SpendingComparison.percentChange(from: from, to: to).map { " (" + Self.percent($0) + ")" } ?? "")
            }
            func addMoney(_ label: String, _ key: String, _ x: Int64, _ y: Int64, _ currency: Currency) {
                rows.append([label, s.format.money(Money(minorUnits: x, currency: currency)), s.format.money(Money(minorUnits: y, currency: currency)),
                             change(y, x, currency)])
                json.append(StatsJSON.Item(key, .minorUnits(x), .minorUnits(y), percentChange: .some(SpendingComparison.percentChange(from: y, to: x))))
            }
            addMoney(s.t(.statsSpending(currency: home.code)), "spending:\(home.code)", spending.total, spending.previousTotal, home)
            for c in spending.categories {
                addMoney("  " + s.categoryName(c.category), "spending:\(home.code):\(c.category)", c.this, c.previous, home)
            }
            for f in spending.foreign {
                addMoney(s.t(.statsSpendingIn(currency: f.currency.code)), "spent_as:\(f.currency.code)", f.this, f.previous, f.currency)
            }
            // Monthly budgets of the pets asked about (every one without a pet), as of today in this month, else its last day.
            let petIds = try Set((pet.map(PetModelText.pets) ?? []).map { try repo.pet($0).id })
            let monthEnd = this.adding(months: 1).adding(days: -1)
            let isThisMonth = s.time.today >= this && s.time.today <= monthEnd
            let asOf = isThisMonth ? s.time.today : (s.time.today < this ? this : monthEnd)
            let activePets = try repo.pets(includeArchived: false).count
            var budgetLines: [(StoredBudget, BudgetStatus)] = []
            for b in try repo.budgets() where b.budget.period == .monthly && (petIds.isEmpty || b.petId.map(petIds.contains) == true) {
                budgetLines.append((b, try s.budgetStatus(b, on: asOf, activePets: activePets)))
            }
            if s.json {
                try s.terminal.json(StatsJSON(
                    month: this, periods: periods, items: json, currency: home, monthTotal: monthTotal, ahead: ahead,
                    unconverted: (spending.unconverted, spending.previousUnconverted),
                    merchants: spending.merchants.map { StatsJSON.Merchant(name: $0.name, amount: Money(minorUnits: $0.amount, currency: home), payments: $0.count) },
                    budgets: budgetLines.map { BudgetJSON($0, activePets: activePets, .status($1, on: asOf)) }))
                return
            }
            if periods.isPartial {
                let thisDays = s.dayRange(periods.first, periods.last), previousDays = s.dayRange(periods.previousFirst, periods.previousLast)
                s.terminal.wrapped(s.terminal.styled(s.t(.statsSameDays(this: thisDays, previous: previousDays)), .bold))
                s.terminal.table(header: [s.t(.reportItem), thisDays, previousDays, "Δ"], rows: rows)
            } else {
                s.terminal.wrapped(s.terminal.styled(s.t(.statsTitle(month: s.format.monthLabel(this), previous: s.format.monthLabel(previous))), .bold))
                s.terminal.table(header: [s.t(.reportItem), s.format.monthLabel(this), s.format.monthLabel(previous), "Δ"], rows: rows)
            }
            if monthTotal.minorUnits != spending.total || ahead.purchases > 0 {
                s.terminal.wrapped(s.t(.statsMonthTotal(month: s.format.monthLabel(this), amount: s.format.money(monthTotal))))
                s.printAhead(ahead)
            }
            let unconverted = spending.unconverted + spending.previousUnconverted
            if unconverted > 0 { s.terminal.wrapped(s.terminal.styled(s.t(.budgetUnconverted(n: Display.count(unconverted))), .yellow)) }
            if !spending.merchants.isEmpty {
                s.terminal.line()
                s.terminal.wrapped(s.terminal.styled(s.t(.statsMerchantsTitle(month: s.format.monthLabel(this))), .bold))
                for (i, m) in spending.merchants.enumerated() {
                    s.terminal.wrapped("  " + s.t(.statsMerchant(rank: String(i + 1), name: Terminal.sanitize(m.name),
                                                                 amount: s.format.money(Money(minorUnits: m.amount, currency: home)), n: Display.count(m.count))), indent: 5)
                }
            }
            if !budgetLines.isEmpty {
                s.terminal.line()
                s.terminal.line(s.terminal.styled(s.t(.statsBudgetsTitle), .bold))
                for (b, st) in budgetLines {
                    s.terminal.wrapped("  #\(b.id) " + s.describe(b, activePets: activePets), indent: 4)
                    for line in s.statusLines(b.budget, st, on: asOf, detailed: false, showDays: isThisMonth) { s.terminal.wrapped("    " + line, indent: 6) }
                }
            }
        }
    }
}

extension Session {
    /// `Nov 1–23`, `11월 1–23일`, `11月1日–23日`; one day alone as `Nov 1`.
    func dayRange(_ first: LocalDate, _ last: LocalDate) -> String {
        if first == last { return format.shortDay(first) }
        return t(.statsDayRange(mon: format.monthName(first.month), first: String(first.day), last: String(last.day)))
    }
}
