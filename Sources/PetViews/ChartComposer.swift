import Foundation
import Localization
import PetCharts
import PetModel
import PetReport
import PetStoreCore

/// One chart, composed once and shown one of three ways: its `--json` view, its text for the terminal, or
/// its drawing for a file. Each face is built only when asked for (a long weight series is not laid out as
/// braille on its way to a PNG). The command picks the face and writes it; nothing here touches a terminal.
public struct ComposedChart {
    public enum Drawing {
        case line(WeightChartSpec)
        case bars(BarChartSpec)
    }

    /// Lines for standard error before anything else (expenses no rate converts), as `--json` sees them…
    public let jsonWarnings: [String]
    /// …and as the text and the file see them (a chart with nothing converted says so once, in its text).
    public let warnings: [String]
    /// Lines for standard error just before a file is written (payments booked ahead, said in the text otherwise).
    public let fileNotes: [String]
    public let json: () -> any Encodable
    public let text: () -> [String]
    public let drawing: () -> Drawing

    public init(jsonWarnings: [String] = [], warnings: [String] = [], fileNotes: [String] = [], json: @escaping () -> any Encodable,
                text: @escaping () -> [String], drawing: @escaping () -> Drawing) {
        self.jsonWarnings = jsonWarnings; self.warnings = warnings; self.fileNotes = fileNotes
        self.json = json; self.text = text; self.drawing = drawing
    }
}

/// Turns store facts into charts, as `VetReportComposer` turns report facts into the report: which rows
/// are read, the series and stacks, titles, axis labels and legends in the language, the budget line, the
/// currency every amount is converted to and what could not be. `chart` parses its arguments and calls one
/// of these; the report draws its weight chart from the same `ChartLabels`.
public struct ChartComposer {
    public let store: any PetlogStore
    public let context: PresentationContext
    public let size: ChartSize
    public let theme: ChartTheme

    public init(store: any PetlogStore, context: PresentationContext, size: ChartSize, theme: ChartTheme) {
        self.store = store; self.context = context; self.size = size; self.theme = theme
    }

    var format: ValueFormatter { context.format }
    var time: TimeContext { context.time }
    func t(_ m: L10n.Message) -> String { context.t(m) }
    var labels: ChartLabels { ChartLabels(format: context.format, wording: context.wording, timeZone: context.time.timeZone) }
    var text: TextChartPresenter { TextChartPresenter(context) }

    /// `chart weight PET…`: a line per pet over instants in the display unit, optionally smoothed. Whole days
    /// keep the weights of those days on their own clocks (`RecordClock`); the axis spans them in the session zone.
    public func weight(pets refs: [PetRef], window: TimeWindow, smoothing: Span?) throws -> ComposedChart {
        let since = window.since ?? window.days?.first.map(time.startOfDay)
        let until = window.until ?? window.days?.end.map(time.startOfDay)
        let perUnit = format.unitSystem.gramsPerUnit
        var series: [LineSeries] = []
        var names: [String] = []
        for ref in refs {
            let pet = try store.pet(ref)
            let columns = try store.weightSeries(pet: pet.id, since: window.since, until: window.until, days: window.days)
            // The store's packed columns as they are (8 bytes a point; a value is worked out where it is
            // used: issue 34, the million-point chart's memory), or its two Double columns.
            series.append(columns.isWide
                ? LineSeries(label: pet.name, times: columns.wideTimes, values: columns.wideGrams.map { $0 / perUnit })
                : LineSeries(label: pet.name, base: columns.base, offsets: columns.offsets, grams: columns.smallGrams, divisor: perUnit))
            names.append(pet.name)
        }
        let unit = format.unitSystem.symbol
        let l10n = context.l10n
        return ComposedChart(
            json: {
                series.map { line in
                    ChartJSON.WeightSeries(pet: line.label, unit: unit, points: (0..<line.count).map { i in
                        let t = line.time(at: i), v = line.value(at: i)
                        let at = Date(timeIntervalSince1970: t)
                        return (JSONView.instant(at, offset: time.utcOffset(at: at)), v)
                    })
                }
            },
            text: { text.lines(series, unit: unit) },
            drawing: {
                .line(WeightChartSpec(
                    title: l10n.text(.chartWeightTitle(pets: names.joined(separator: ", "))), yLabel: l10n.text(.chartWeightAxis),
                    unitSuffix: unit, series: series, smoothingWindow: smoothing.map { Double($0.approximateSeconds) },
                    smoothingLabel: smoothing.map { l10n.text(.chartSmoothLabel(window: format.span($0))) },
                    timeRange: ChartComposer.timeRange(since: since, until: until, series: series, now: time.now), size: size, theme: theme,
                    language: l10n.language.rawValue, labeler: labels.axisLabeler, noDataText: l10n.text(.chartNoData)))
            })
    }

    /// The x range: the asked window where given (its end no later than now), else the data's own range.
    static func timeRange(since: Date?, until: Date?, series: [LineSeries], now: Date) -> ClosedRange<Double>? {
        guard since != nil || until != nil else { return nil }
        let first = series.compactMap(\.firstTime).min()
        let last = series.compactMap(\.lastTime).max()
        guard let lo = since?.timeIntervalSince1970 ?? first,
              let hi = until.map({ min($0.timeIntervalSince1970, now.timeIntervalSince1970) }) ?? last ?? Optional(now.timeIntervalSince1970),
              hi > lo else { return nil }
        return lo...hi
    }

    /// `chart symptoms PET`: weekly bars of symptom records, stacked by severity (or by kind), over the last
    /// 26 weeks unless a window is given; `symptom` counts one symptom by any of its names (`구토` also
    /// counts records stored as `vomiting`).
    public func symptoms(pet p: Pet, window asked: TimeWindow, byKind: Bool, symptom: String?) throws -> ComposedChart {
        var window = asked
        if window.since == nil && window.days?.first == nil { window.since = Span.days(26 * 7).subtracted(from: time.now, in: time) }
        let wantedSymptom = symptom.map { raw in SymptomCode.match(raw).map { Symptom(code: $0.rawValue, isListed: true, severity: .lowest) }
            ?? Symptom(code: raw, isListed: false, severity: .lowest) }
        let wanted = wantedSymptom?.groupKey
        let records = try store.records(RecordQuery(pets: [.id(p.id)], kinds: [.symptom], since: window.since, until: window.until, days: window.days))
        let symptoms: [(day: LocalDate, symptom: Symptom)] = records.compactMap { r in
            guard case .symptom(let sy) = r.detail, wanted == nil || sy.groupKey == wanted else { return nil }
            return (r.localDay, sy)
        }
        let lastDay = window.lastDay(time) ?? time.today
        let counts = WeeklySymptomCounts(symptoms, from: window.firstDay(time) ?? time.today, through: lastDay, by: byKind ? .kind : .severity,
                                         weekStartsOnSunday: context.weekStartsOnSunday)
        let weeks = counts.weeks, stacks = labels.symptomStacks(counts)
        let categories = weeks.map { format.shortDay($0) }
        let title = t(.chartSymptomsTitle(pet: p.name)) + (wantedSymptom.map { " — " + context.wording.symptomName($0) } ?? "")
        let l10n = context.l10n
        return ComposedChart(
            json: { ChartJSON.Symptoms(pet: p.name, weeks: weeks, stacks: stacks.map { ($0.label, $0.values) }) },
            text: { text.bars(title: title, categories: categories, stacks: stacks) },
            drawing: {
                .bars(BarChartSpec(title: title, yLabel: l10n.text(.chartSymptomsAxis), categories: categories, stacks: stacks, size: size,
                                   theme: theme, language: l10n.language.rawValue, noDataText: l10n.text(.chartNoData)))
            })
    }

    /// `chart activity PET`: minutes walked each week (`WeeklyWalkMinutes`), over the last 26 weeks unless a
    /// window is given, as one bar a week.
    public func activity(pet p: Pet, window asked: TimeWindow) throws -> ComposedChart {
        var window = asked
        if window.since == nil && window.days?.first == nil { window.since = Span.days(26 * 7).subtracted(from: time.now, in: time) }
        let records = try store.records(RecordQuery(pets: [.id(p.id)], kinds: [.walk], since: window.since, until: window.until, days: window.days))
        let walks: [(day: LocalDate, walk: Walk)] = records.compactMap { r in if case .walk(let w) = r.detail { return (r.localDay, w) } else { return nil } }
        let weekly = WeeklyWalkMinutes(walks, from: window.firstDay(time) ?? time.today, through: window.lastDay(time) ?? time.today,
                                       weekStartsOnSunday: context.weekStartsOnSunday)
        let title = t(.chartActivityTitle(pet: p.name)), axis = t(.chartActivityAxis)
        let stacks = [BarStack(label: t(.statsWalks), color: .palette(0), values: weekly.minutes.map(Double.init))]
        let categories = weekly.weeks.map { format.shortDay($0) }
        let l10n = context.l10n
        return ComposedChart(
            json: { ChartJSON.Activity(pet: p.name, weeks: weekly.weeks, minutes: weekly.minutes, walks: weekly.walks) },
            text: { text.bars(title: title, categories: categories, stacks: stacks) },
            drawing: {
                .bars(BarChartSpec(title: title, yLabel: axis, categories: categories, stacks: stacks, size: size,
                                   theme: theme, language: l10n.language.rawValue, noDataText: l10n.text(.chartNoData)))
            })
    }

    /// The spending stacks of a chart, one per category, coloured by the category's slot among those shown.
    func spendingStacks(_ categories: [(code: String, values: [Double])]) -> [BarStack] {
        let codes = categories.map(\.code)
        return categories.map { c in
            BarStack(label: context.categoryName(c.code), color: .palette(MonthlySpending.colorSlot(c.code, among: codes)), values: c.values)
        }
    }

    /// The warnings and texts every spending chart shares: how many purchases no rate converts (said on
    /// standard error, or as the whole text when nothing converted), and what an empty chart says.
    struct SpendingNotes {
        var jsonWarnings: [String] = []
        var warnings: [String] = []
        var nothing: String

        init(_ chart: ChartComposer, unconvertedPurchases: Int, isEmpty: Bool, currency: Currency, labels: [String]) {
            let nothingConverted = isEmpty && unconvertedPurchases > 0
            if unconvertedPurchases > 0 {
                let line = chart.t(.chartUnconverted(count: ValueFormatter.count(unconvertedPurchases), currency: currency.code))
                jsonWarnings = [line]
                if !nothingConverted { warnings = [line] }
            }
            nothing = nothingConverted
                ? chart.t(.chartNothingConverted(currency: currency.code, count: ValueFormatter.count(unconvertedPurchases)))
                : chart.t(.chartNothingToPlot(first: labels.first ?? "", last: labels.last ?? ""))
        }
    }

    /// `chart expenses [PET]`: monthly bars stacked by category in `currency` (each expense at its own day's
    /// rate), by default over the last twelve whole calendar months, this one included, through the end of
    /// this month (a month's bar totals what every view totals, payments booked ahead included, and said).
    /// A monthly budget of the pets (or the household) is the line.
    public func expenses(pets refs: [PetRef], window asked: TimeWindow, currency: Currency) throws -> ComposedChart {
        var window = asked
        if window.since == nil && window.days?.first == nil {
            window.days = DayWindow(first: time.today.firstOfMonth.adding(months: -11), end: window.days?.end)
        }
        let petIds = try refs.map { try store.pet($0).id }
        let entries = try store.spending(SpendingQuery(pets: refs, since: window.since, until: window.until, days: window.days))
        let first = window.firstDay(time) ?? time.today
        let last = window.lastDay(time) ?? time.today.firstOfMonth.adding(months: 1).adding(days: -1)
        let budget = MonthlySpending.chartBudget(try store.budgets(), pets: petIds)
        // Rates for every currency involved, through the last month's last day (the budget line's day).
        let currencies = Set(entries.map(\.money.currency.code) + [currency.code] + (budget.map { [$0.currency.code] } ?? []))
        let rates = currencies.count > 1
            ? try store.rateTable(currencies: currencies.sorted(), from: first, through: last.firstOfMonth.adding(months: 1).adding(days: -1))
            : RateTable([])
        let spending = MonthlySpending(entries.map { $0.item(time) }, currency: currency, rates: rates, from: first, through: last)
        // Purchases, not shares: a split purchase with no rate is one expense left out.
        let unconvertedPurchases = Set(entries.filter { e in
            e.localDay >= first && e.localDay <= last && e.converted(to: currency, rates: rates) == nil
        }.map(\.purchaseId)).count
        let months = spending.months
        let ahead = SpendingAhead(entries.filter { $0.localDay >= first && $0.localDay <= last }, in: currency, rates: rates, now: time.now)
        let stacks = spendingStacks(spending.categories.map { ($0.code, spending.majorUnits($0)) })
        // A month whose spending none converts has no bar: it has no budget line either (nothing to measure
        // against it), and the chart says why under the bars.
        let monthTotals = spending.monthTotals
        let unconvertedByMonth = Dictionary(grouping: entries.filter { e in
            e.localDay >= first && e.localDay <= last && rates.convert(e.money, to: currency, on: e.localDay) == nil
        }) { e in months.lastIndex { $0 <= e.localDay } ?? 0 }.mapValues { Set($0.map(\.purchaseId)).count }
        let blankMonths = months.indices.filter { (unconvertedByMonth[$0] ?? 0) > 0 && monthTotals[$0] == 0 }
        let budgetLine = budget.map { b in
            spending.budgetLine(b, rates: rates).enumerated().map { i, m in blankMonths.contains(i) ? nil : m }
        }
        let labels = months.map { format.monthLabel($0) }
        let monthNotes = blankMonths.map { i in
            t(.chartNothingConvertedIn(when: labels[i], currency: currency.code, count: ValueFormatter.count(unconvertedByMonth[i] ?? 0)))
        }
        // One pet's chart names the pet (as it is stored); the household's or several pets' does not.
        let onePet = petIds.count == 1 ? try store.pet(.id(petIds[0])).name : nil
        let title = onePet.map { t(.chartExpensesPetTitle(pet: PlainText.sanitized($0), currency: currency.code)) }
            ?? t(.chartExpensesTitle(currency: currency.code))
        let budgetLabel = budget.map { b in b.currency == currency ? t(.chartBudgetLine(amount: format.money(b)))
            : t(.chartBudgetLineConverted(amount: format.money(b), currency: currency.code)) } ?? ""
        let notes = SpendingNotes(self, unconvertedPurchases: unconvertedPurchases, isEmpty: spending.isEmpty, currency: currency, labels: labels)
        return ComposedChart(
            jsonWarnings: notes.jsonWarnings, warnings: notes.warnings, fileNotes: aheadNote(ahead),
            // Codes, not names: machine output is the same in every language.
            json: { ChartJSON.Expenses(currency: currency, months: months, stacks: spending.categories.map { ($0.code, $0.minorUnits) },
                                       unconverted: spending.unconverted, ahead: ahead, budget: budget, budgetLine: budgetLine) },
            text: {
                if spending.isEmpty { return [notes.nothing] }
                return text.bars(title: title, categories: labels, stacks: stacks,
                                 totalTexts: spending.monthTotals.map { format.money(Money(minorUnits: $0, currency: currency)) })
                    + (budget != nil ? [budgetLabel] : []) + monthNotes + context.aheadLines(ahead)
            },
            drawing: {
                let reference = budget.flatMap { b in budgetLine.map { line in
                    BarReferenceLine(label: budgetLabel, values: line.map { $0.map { currency.majorUnits($0.minorUnits) } })
                } }
                return .bars(BarChartSpec(title: title, yLabel: currency.code, categories: labels, stacks: stacks, size: size,
                                          theme: theme, language: context.l10n.language.rawValue, noDataText: notes.nothing,
                                          valueFormatter: { [format] v in format.chartMoney(v, currency) },
                                          totalFormatter: ChartComposer.moneyTotal(format, currency), referenceLine: reference, notes: monthNotes))
            })
    }

    /// A bar's total as every view writes the amount (`$6.10`, not `$6.1`): the language's one money format.
    static func moneyTotal(_ format: ValueFormatter, _ currency: Currency) -> @Sendable (Double) -> String {
        { major in
            var scale = 1.0
            for _ in 0..<currency.minorDigits { scale *= 10 }
            let minor = (major * scale).rounded()
            guard minor.isFinite, abs(minor) < 9.0e18 else { return "" }
            return format.money(Money(minorUnits: Int64(minor), currency: currency))
        }
    }

    /// Payments booked ahead, said on standard error before a file (the terminal's text says it below the bars).
    func aheadNote(_ ahead: SpendingAhead) -> [String] {
        ahead.purchases > 0 ? [t(.spendingAheadNote(amount: format.money(ahead.converted), n: ValueFormatter.count(ahead.purchases)))] : []
    }

    /// `chart expenses --budget ID`: the budget's days (a trip's, or a monthly budget's month as of today)
    /// stacked by category, in `currency` (the budget's own unless `--currency` says another), with the
    /// budget's share of a day as the line.
    public func budget(_ b: StoredBudget, currency: Currency) throws -> ComposedChart {
        let today = time.today
        let (first, last) = b.budget.span(asOf: today)
        let entries = try store.spending(SpendingQuery(pets: b.petId.map { [PetRef.id($0)] } ?? [], days: DayWindow(first: first, end: last.adding(days: 1))))
        let currencies = Set(entries.map(\.money.currency.code) + [currency.code, b.budget.amount.currency.code])
        let rates = currencies.count > 1 ? try store.rateTable(currencies: currencies.sorted(), from: first, through: last) : RateTable([])
        let spending = BudgetDaySpending(entries.map { $0.item(time) }, budget: b.budget, asOf: today, currency: currency, rates: rates)
        let counted = entries.filter { e in b.budget.category.map { $0 == e.category } ?? true }
        let unconvertedPurchases = Set(counted.filter { $0.converted(to: currency, rates: rates) == nil }.map(\.purchaseId)).count
        let ahead = SpendingAhead(counted, in: currency, rates: rates, now: time.now)
        let share = spending.dailyShare(of: b.budget.amount, rates: rates)
        let presenter = BudgetPresenter(context)
        let label = presenter.label(b.budget)
        let what = label.isEmpty ? "#\(b.id) " + presenter.who(b) : label
        let title = t(.chartBudgetDaysTitle(what: PlainText.sanitized(what), currency: currency.code))
        let n = ValueFormatter.count(spending.days.count)
        let lineLabel: String = share.map { share in
            b.budget.amount.currency == currency
                ? t(.chartBudgetDailyShare(amount: format.money(share), total: format.money(b.budget.amount), n: n))
                : t(.chartBudgetDailyShareConverted(amount: format.money(share), total: format.money(b.budget.amount), n: n,
                                                    currency: currency.code, date: format.longDate(last)))
        } ?? ""
        let labels = spending.days.map { format.shortDay($0) }
        let stacks = spendingStacks(spending.categories.map { ($0.code, spending.majorUnits($0)) })
        let notes = SpendingNotes(self, unconvertedPurchases: unconvertedPurchases, isEmpty: spending.isEmpty, currency: currency, labels: labels)
        // A day whose spending none converts has no bar and no share line over it, and says why (as a month does).
        let dayTotals = spending.dayTotals
        let unconvertedByDay = Dictionary(grouping: counted.filter { rates.convert($0.money, to: currency, on: $0.localDay) == nil }) {
            spending.days.firstIndex(of: $0.localDay) ?? -1
        }.mapValues { Set($0.map(\.purchaseId)).count }
        let blankDays = spending.days.indices.filter { (unconvertedByDay[$0] ?? 0) > 0 && dayTotals[$0] == 0 }
        let dayNotes = blankDays.map { i in
            t(.chartNothingConvertedIn(when: labels[i], currency: currency.code, count: ValueFormatter.count(unconvertedByDay[i] ?? 0)))
        }
        return ComposedChart(
            jsonWarnings: notes.jsonWarnings, warnings: notes.warnings, fileNotes: aheadNote(ahead),
            json: {
                BudgetChartJSON(
                    currency: currency.code, days: spending.days.map(\.description),
                    stacks: spending.categories.map { .init(category: $0.code, minor: $0.minorUnits) },
                    unconverted: spending.unconverted, ahead: .init(ahead.converted), aheadCount: ahead.purchases,
                    budget: .init(id: b.id, amountMinor: b.budget.amount.minorUnits, currency: b.budget.amount.currency.code, dailyMinor: share?.minorUnits))
            },
            text: {
                if spending.isEmpty { return [notes.nothing] }
                return text.bars(title: title, categories: labels, stacks: stacks,
                                 totalTexts: spending.dayTotals.map { format.money(Money(minorUnits: $0, currency: currency)) })
                    + (share != nil ? [lineLabel] : []) + dayNotes + context.aheadLines(ahead)
            },
            drawing: {
                let reference = share.map { s in
                    BarReferenceLine(label: lineLabel, values: spending.days.indices.map { blankDays.contains($0) ? nil : currency.majorUnits(s.minorUnits) })
                }
                return .bars(BarChartSpec(title: title, yLabel: currency.code, categories: labels, stacks: stacks, size: size,
                                          theme: theme, language: context.l10n.language.rawValue, noDataText: notes.nothing,
                                          valueFormatter: { [format] v in format.chartMoney(v, currency) },
                                          totalFormatter: ChartComposer.moneyTotal(format, currency), referenceLine: reference, notes: dayNotes))
            })
    }
}
