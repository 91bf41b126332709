import ArgumentParser
import Foundation
import Localization
import PetModel
import PetStoreCore
import PetViews

struct StatsCommand: ParsableCommand {
    @OptionGroup(title: Help.s(.helpGlobalOptionsTitle)) var global: GlobalOptions
    static var configuration: CommandConfiguration { CommandConfiguration(
        commandName: "stats", abstract: Help.s(.helpStatsCommandAbstract)) }
    @Argument(help: ArgumentHelp(Help.s(.helpStatsCommandPet)), completion: .petNames) var pet: String?
    @Option(help: ArgumentHelp(Help.s(.helpStatsCommandMonth))) var month: String?
    @OptionGroup var money: CurrencyOption

    func run() throws {
        try Session.run(global) { s in
            let facts = try read(&s)
            let present = StatsPresenter(s.presentation)
            let rows = present.rows(facts, byCode: s.json)
            if s.json { try s.terminal.json(present.json(facts, rows: rows)); return }
            s.terminal.lines(present.lines(facts, rows: rows))
        }
    }

    /// Reads what `stats` shows from the store: the records of both months, the spending at each day's
    /// rate, and the monthly budgets of the pets asked about (every one without a pet).
    func read(_ s: inout Session) throws -> StatsFacts {
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
        // Every kind but those read otherwise (weights, spending) or not compared (urine, diaries, courses),
        // so a new kind is counted without naming it here.
        let notCounted: Set<RecordKind> = [.weight, .expense, .urine, .diary, .medication]
        let records = try repo.records(RecordQuery(pets: refs, kinds: RecordKind.allCases.filter { !notCounted.contains($0) },
                                                   days: DayWindow(first: previous, end: end)))
        var comparison = MonthComparison(records, month: this, context: s.time, periods: periods)
        let last = try repo.lastWeights(pets: refs, windows: [DayWindow(first: this, end: end),
                                                             DayWindow(first: previous, end: periods.previousLast.adding(days: 1))])
        let lastThis = last[0], lastPrevious = last[1]
        comparison.this.lastWeight = lastThis.mapValues(\.mass)
        comparison.previous.lastWeight = lastPrevious.mapValues(\.mass)
        var petNames: [Int64: String] = [:]
        for (id, w) in lastThis.merging(lastPrevious, uniquingKeysWith: { x, _ in x }) { petNames[id] = w.name }
        // Spending in the home currency, each expense at its day's rate.
        let home = try s.homeCurrency(money.currency)
        let entries = try repo.spending(SpendingQuery(pets: refs, days: DayWindow(first: previous, end: this.adding(months: 1))))
        let spendingRates = try s.rates(for: entries, to: home)
        let spending = SpendingComparison(entries, month: this, in: home, rates: spendingRates, context: s.time, periods: periods)
        let thisMonthEntries = entries.filter { $0.localDay >= this && $0.localDay < this.adding(months: 1) }
        let monthTotal = SpendingTotal(thisMonthEntries, in: home, rates: spendingRates, context: s.time).converted
        let ahead = SpendingAhead(thisMonthEntries, in: home, rates: spendingRates, now: s.time.now)
        // Monthly budgets as of today in this month, else its last day.
        let petIds = try Set(refs.map { try repo.pet($0).id })
        let monthEnd = this.adding(months: 1).adding(days: -1)
        let isThisMonth = s.time.today >= this && s.time.today <= monthEnd
        let asOf = isThisMonth ? s.time.today : (s.time.today < this ? this : monthEnd)
        let activePets = try repo.pets(includeArchived: false).count
        var budgets: [(budget: StoredBudget, status: BudgetStatus)] = []
        for b in try repo.budgets() where b.budget.period == .monthly && (petIds.isEmpty || b.petId.map(petIds.contains) == true) {
            budgets.append((b, try s.budgetStatus(b, on: asOf, activePets: activePets)))
        }
        var facts = StatsFacts(month: this, periods: periods, comparison: comparison, petNames: petNames, spending: spending, home: home,
                               monthTotal: monthTotal, ahead: ahead, budgets: budgets, activePets: activePets, asOf: asOf, isThisMonth: isThisMonth)
        // This week's walks (the records read reach back to the previous month's first day, so the whole week).
        if isThisMonth {
            let today = s.time.today
            let first = today.adding(days: -(s.presentation.weekStartsOnSunday ? today.isoWeekday % 7 : today.isoWeekday - 1))
            facts.walkWeek = (first, WalkTotals(records.filter { $0.localDay >= first && $0.localDay <= today }))
        }
        return facts
    }
}
