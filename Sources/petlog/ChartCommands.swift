import ArgumentParser
import Cairo
import Foundation
import Localization
import PetCharts
import PetModel
import PetReport
import PetFiles
import PetStoreCore
import PetViews

/// `petlog chart …`: weight, symptom and expense trends to PNG, PDF or SVG, or as text in the terminal.
struct ChartGroup: ParsableCommand {
    @OptionGroup(title: Help.s(.helpGlobalOptionsTitle)) var global: GlobalOptions
    static var configuration: CommandConfiguration { CommandConfiguration(
        commandName: "chart", abstract: Help.s(.helpChartGroupAbstract),
        subcommands: [Weight.self, Symptoms.self, Expenses.self]
    ) }

    /// Output options shared by every chart.
    struct Output: ParsableArguments {
        @Option(name: .shortAndLong, help: ArgumentHelp(Help.s(.helpChartGroupOutputOutput))) var output: String?
        @Option(parsing: .unconditional, help: ArgumentHelp(Help.s(.helpChartGroupOutputSince))) var since: String?
        @Option(parsing: .unconditional, help: ArgumentHelp(Help.s(.helpChartGroupOutputUntil))) var until: String?
        @Option(help: ArgumentHelp(Help.s(.helpChartGroupOutputSize))) var size = "1600x900"
        @Flag(help: ArgumentHelp(Help.s(.helpChartGroupOutputDark))) var dark = false

        func format(_ s: Session) throws -> ChartFormat? {
            guard let o = output else { return nil }
            // Standard output takes the one text format.
            if OutputFile.isStandardOutput(o) { return .svg }
            guard let f = ChartFormat(pathExtension: URL(fileURLWithPath: o).pathExtension) else {
                throw UsageError(message: s.t(.errChartFormat(path: o)))
            }
            return f
        }

        func chartSize(_ s: Session) throws -> ChartSize {
            guard let c = ChartSize(size), c.isValid else {
                throw ParseError.badSize(size)
            }
            return c
        }

        func window(_ s: Session) throws -> TimeWindow {
            try TimeWindow(since: since, until: until, context: s.time)
        }
    }

    struct Weight: ParsableCommand {
        @OptionGroup(title: Help.s(.helpGlobalOptionsTitle)) var global: GlobalOptions
        static var configuration: CommandConfiguration { CommandConfiguration(abstract: Help.s(.helpChartGroupWeightAbstract)) }
        @Argument(help: ArgumentHelp(Help.s(.helpChartGroupWeightPets)), completion: .petNames) var pets: [String]
        @Option(help: ArgumentHelp(Help.s(.helpChartGroupWeightSmooth))) var smooth: String?
        @OptionGroup var out: Output

        func run() throws {
            try Session.run(global) { s in
                let repo = try s.repository()
                // A line over instants: whole days keep the weights of those days on their own clocks
                // (`RecordClock`); the axis spans them in the session zone.
                let window = try out.window(s)
                let since = window.since ?? window.days?.first.map(s.time.startOfDay)
                let until = window.until ?? window.days?.end.map(s.time.startOfDay)
                let smoothing = try smooth.map { try Span.parse($0, allowCalendarUnits: false) }
                let size = try out.chartSize(s)
                let format = try out.format(s)
                let perUnit = s.unitSystem.gramsPerUnit
                var series: [LineSeries] = []
                var names: [String] = []
                for ref in pets.flatMap(PetModelText.pets) {
                    let pet = try repo.pet(ref)
                    var columns = try repo.weightSeries(pet: pet.id, since: window.since, until: window.until, days: window.days)
                    for i in columns.grams.indices { columns.grams[i] /= perUnit }
                    series.append(LineSeries(label: pet.name, times: columns.times, values: columns.grams))
                    names.append(pet.name)
                }
                let unit = s.unitSystem.symbol
                if s.json {
                    try s.terminal.json(series.map { line in
                        ChartJSON.WeightSeries(pet: line.label, unit: unit, points: zip(line.times, line.values).map { t, v in
                            let at = Date(timeIntervalSince1970: t)
                            return (JSONView.instant(at, offset: s.time.utcOffset(at: at)), v)
                        })
                    })
                    return
                }
                guard let format, let path = out.output else {
                    s.printTextChart(series, unit: unit)
                    return
                }
                let spec = WeightChartSpec(
                    title: s.t(.chartWeightTitle(pets: names.joined(separator: ", "))), yLabel: s.t(.chartWeightAxis),
                    unitSuffix: unit, series: series, smoothingWindow: smoothing.map { Double($0.approximateSeconds) },
                    smoothingLabel: smoothing.map { s.t(.chartSmoothLabel(window: s.format.span($0))) },
                    timeRange: s.timeRange(since: since, until: until, series: series), size: size, theme: out.dark ? .dark : .light,
                    language: s.l10n.language.rawValue, labeler: s.chartLabels.axisLabeler, noDataText: s.t(.chartNoData))
                try s.writeChart(path) { try ChartRenderer.render(spec, to: $0, format: format) }
            }
        }
    }

    struct Symptoms: ParsableCommand {
        @OptionGroup(title: Help.s(.helpGlobalOptionsTitle)) var global: GlobalOptions
        static var configuration: CommandConfiguration { CommandConfiguration(abstract: Help.s(.helpChartGroupSymptomsAbstract)) }
        @Argument(help: ArgumentHelp(Help.s(.helpChartGroupSymptomsPet)), completion: .petNames) var pet: String
        @Option(help: ArgumentHelp(Help.s(.helpChartGroupSymptomsBy))) var by: Choice<SymptomGrouping> = Choice(.severity)
        @Option(help: ArgumentHelp(Help.s(.helpChartGroupSymptomsSymptom))) var symptom: String?
        @OptionGroup var out: Output

        func run() throws {
            try Session.run(global) { s in
                let byKind = try by.value("--by") == .kind
                let repo = try s.repository()
                let p = try repo.pet(PetRef(pet))
                var window = try out.window(s)
                if window.since == nil && window.days?.first == nil { window.since = Span.days(26 * 7).subtracted(from: s.time.now, in: s.time) }
                let size = try out.chartSize(s)
                let format = try out.format(s)
                // One symptom by any of its names: `--symptom 구토` also counts records stored as `vomiting`.
                let wantedSymptom = symptom.map { raw in SymptomCode.match(raw).map { Symptom(code: $0.rawValue, isListed: true, severity: .lowest) }
                    ?? Symptom(code: raw, isListed: false, severity: .lowest) }
                let wanted = wantedSymptom?.groupKey
                let records = try repo.records(RecordQuery(pets: [.id(p.id)], kinds: [.symptom], since: window.since, until: window.until, days: window.days))
                let symptoms: [(day: LocalDate, symptom: Symptom)] = records.compactMap { r in
                    guard case .symptom(let sy) = r.detail, wanted == nil || sy.groupKey == wanted else { return nil }
                    return (r.localDay, sy)
                }
                let lastDay = window.lastDay(s.time) ?? s.time.today
                let counts = WeeklySymptomCounts(symptoms, from: window.firstDay(s.time) ?? s.time.today, through: lastDay, by: byKind ? .kind : .severity,
                                                 weekStartsOnSunday: s.weekStartsOnSunday)
                let weeks = counts.weeks, stacks = s.chartLabels.symptomStacks(counts)
                let categories = weeks.map { s.format.shortDay($0) }
                if s.json {
                    try s.terminal.json(ChartJSON.Symptoms(pet: p.name, weeks: weeks, stacks: stacks.map { ($0.label, $0.values) }))
                    return
                }
                let title = s.t(.chartSymptomsTitle(pet: p.name)) + (wantedSymptom.map { " — " + s.wording.symptomName($0) } ?? "")
                guard let format, let path = out.output else {
                    s.printBars(title: title, categories: categories, stacks: stacks)
                    return
                }
                let spec = BarChartSpec(title: title, yLabel: s.t(.chartSymptomsAxis), categories: categories, stacks: stacks, size: size,
                                        theme: out.dark ? .dark : .light, language: s.l10n.language.rawValue, noDataText: s.t(.chartNoData))
                try s.writeChart(path) { try ChartRenderer.render(spec, to: $0, format: format) }
            }
        }
    }

    struct Expenses: ParsableCommand {
        @OptionGroup(title: Help.s(.helpGlobalOptionsTitle)) var global: GlobalOptions
        static var configuration: CommandConfiguration { CommandConfiguration(
            abstract: Help.s(.helpChartGroupExpensesAbstract),
            discussion: Help.s(.helpChartGroupExpensesDiscussion)) }
        @Argument(help: ArgumentHelp(Help.s(.helpChartGroupExpensesPet)), completion: .petNames) var pet: String?
        @Option(help: ArgumentHelp(Help.s(.helpChartGroupExpensesBudget))) var budget: Int64?
        @OptionGroup var money: CurrencyOption
        @OptionGroup var out: Output

        func run() throws {
            try Session.run(global) { s in
                if let budget {
                    guard pet == nil && out.since == nil && out.until == nil else { throw UsageError(message: s.t(.errChartBudgetWith)) }
                    try s.budgetChart(id: budget, currency: money.currency, out: out)
                    return
                }
                let repo = try s.repository()
                var window = try out.window(s)
                // By default the last twelve whole calendar months, this one included.
                if window.since == nil && window.days?.first == nil {
                    window.days = DayWindow(first: s.time.today.firstOfMonth.adding(months: -11), end: window.days?.end)
                }
                let size = try out.chartSize(s)
                let format = try out.format(s)
                let currency = try s.homeCurrency(money.currency)
                let refs = pet.map(PetModelText.pets) ?? []
                let petIds = try refs.map { try repo.pet($0).id }
                let entries = try repo.spending(SpendingQuery(pets: refs, since: window.since, until: window.until, days: window.days))
                let first = window.firstDay(s.time) ?? s.time.today
                // Through the end of this month: a month's bar totals what every view totals, payments
                // booked ahead included (and said below).
                let last = window.lastDay(s.time) ?? s.time.today.firstOfMonth.adding(months: 1).adding(days: -1)
                let budget = MonthlySpending.chartBudget(try repo.budgets(), pets: petIds)
                // Rates for every currency involved, through the last month's last day (the budget line's day).
                let currencies = Set(entries.map(\.money.currency.code) + [currency.code] + (budget.map { [$0.currency.code] } ?? []))
                let rates = currencies.count > 1
                    ? try repo.rateTable(currencies: currencies.sorted(), from: first, through: last.firstOfMonth.adding(months: 1).adding(days: -1))
                    : RateTable([])
                let spending = MonthlySpending(entries.map { $0.item(s.time) }, currency: currency, rates: rates, from: first, through: last)
                // Purchases, not shares: a split purchase with no rate is one expense left out.
                let unconvertedPurchases = Set(entries.filter { e in
                    e.localDay >= first && e.localDay <= last && rates.convert(e.money, to: currency, on: e.localDay) == nil
                }.map(\.purchaseId)).count
                // With nothing converted, the one line says so (instead of "no spending" beside a warning).
                let nothingConverted = spending.isEmpty && unconvertedPurchases > 0
                if unconvertedPurchases > 0 && !(nothingConverted && !s.json) {
                    s.terminal.error(s.t(.chartUnconverted(count: Display.count(unconvertedPurchases), currency: currency.code)))
                }
                let months = spending.months
                let ahead = SpendingAhead(entries.filter { $0.localDay >= first && $0.localDay <= last }, in: currency, rates: rates, now: s.time.now)
                let codes = spending.categories.map(\.code)
                let stacks = spending.categories.map { c in
                    BarStack(label: s.categoryName(c.code), color: .palette(MonthlySpending.colorSlot(c.code, among: codes)), values: spending.majorUnits(c))
                }
                let budgetLine = budget.map { spending.budgetLine($0, rates: rates) }
                let labels = months.map { s.format.monthLabel($0) }
                if s.json {
                    // Codes, not names: machine output is the same in every language.
                    try s.terminal.json(ChartJSON.Expenses(currency: currency, months: months, stacks: spending.categories.map { ($0.code, $0.minorUnits) },
                                                           unconverted: spending.unconverted, ahead: ahead, budget: budget, budgetLine: budgetLine))
                    return
                }
                // One pet's chart names the pet (as it is stored); the household's or several pets' does not.
                let onePet = petIds.count == 1 ? try repo.pet(.id(petIds[0])).name : nil
                let title = onePet.map { s.t(.chartExpensesPetTitle(pet: Terminal.sanitize($0), currency: currency.code)) }
                    ?? s.t(.chartExpensesTitle(currency: currency.code))
                let budgetLabel = budget.map { b in b.currency == currency ? s.t(.chartBudgetLine(amount: s.format.money(b)))
                    : s.t(.chartBudgetLineConverted(amount: s.format.money(b), currency: currency.code)) } ?? ""
                let nothing = nothingConverted
                    ? s.t(.chartNothingConverted(currency: currency.code, count: Display.count(unconvertedPurchases)))
                    : s.t(.chartNothingToPlot(first: labels.first ?? "", last: labels.last ?? ""))
                guard let format, let path = out.output else {
                    if spending.isEmpty { s.terminal.line(nothing); return }
                    s.printBars(title: title, categories: labels, stacks: stacks,
                                totalTexts: spending.monthTotals.map { s.format.money(Money(minorUnits: $0, currency: currency)) })
                    if budget != nil { s.terminal.line(budgetLabel) }
                    s.printAhead(ahead)
                    return
                }
                if ahead.purchases > 0 {
                    s.terminal.error(s.t(.spendingAheadNote(amount: s.format.money(ahead.converted), n: Display.count(ahead.purchases))))
                }
                let reference = budget.flatMap { b in budgetLine.map { line in
                    BarReferenceLine(label: budgetLabel, values: line.map { $0.map { currency.majorUnits($0.minorUnits) } })
                } }
                let formatter = s.format
                let spec = BarChartSpec(title: title, yLabel: currency.code, categories: labels, stacks: stacks, size: size,
                                        theme: out.dark ? .dark : .light, language: s.l10n.language.rawValue, noDataText: nothing,
                                        valueFormatter: { v in formatter.chartMoney(v, currency) }, referenceLine: reference)
                try s.writeChart(path) { try ChartRenderer.render(spec, to: $0, format: format) }
            }
        }
    }
}

extension Session {
    /// Axis labels and symptom bars in the session's language.
    var chartLabels: ChartLabels { ChartLabels(format: format, wording: wording, timeZone: time.timeZone) }

    /// The x range: the asked window where given, else the data's own range.
    func timeRange(since: Date?, until: Date?, series: [LineSeries]) -> ClosedRange<Double>? {
        guard since != nil || until != nil else { return nil }
        let first = series.compactMap { $0.times.first }.min()
        let last = series.compactMap { $0.times.last }.max()
        guard let lo = since?.timeIntervalSince1970 ?? first,
              let hi = until.map({ min($0.timeIntervalSince1970, time.now.timeIntervalSince1970) }) ?? last ?? Optional(time.now.timeIntervalSince1970),
              hi > lo else { return nil }
        return lo...hi
    }

    /// Renders into the temporary file `OutputFile` hands out (then renamed over the file `path` names,
    /// or copied to standard output for `-`), then says where.
    func writeChart(_ path: String, _ render: (String) throws -> Void) throws {
        try renderOutput(path, render)
        if !OutputFile.isStandardOutput(path) {
            terminal.line(t(.chartWrote(path: Terminal.sanitize(path))))
        }
    }

    /// A cairo renderer writing `path` through `OutputFile`: what cairo reports as a write error
    /// (its errno lost) is an I/O error on `path`; file errors are `OutputError`s, mapped in `Failure`.
    @discardableResult
    func renderOutput<T>(_ path: String, _ render: (String) throws -> T) throws -> T {
        do {
            return try OutputFile.write(to: path, viaTemporaryPath: render)
        } catch let e as OutputError {
            throw e
        } catch let e as ParseError {
            throw e
        } catch let e as CairoError {
            if case .writeError = e { throw OutputError(path: path, cause: .ioError) }
            throw RenderFailure(path: path, cause: .cairo(e))
        } catch let e as ChartError {
            throw RenderFailure(path: path, cause: .chart(e))
        } catch let e as ReportError {
            throw RenderFailure(path: path, cause: .report(e))
        }
    }

    /// A braille line chart with its value range at the left, its first and last days below (with the
    /// year when the range crosses one or is not this year's), and a legend per pet (sparkline, min,
    /// max, last), all within the terminal's width: one colour per pet on a colour terminal; with
    /// NO_COLOR or off a TTY, the second pet on are drawn with their own marker instead.
    func printTextChart(_ series: [LineSeries], unit: String) {
        let nonEmpty = series.filter { !$0.times.isEmpty }
        let columns = max(terminal.columns, 20)
        var top = "", bottom = ""
        if let lo = nonEmpty.flatMap(\.values).filter(\.isFinite).min(), let hi = nonEmpty.flatMap(\.values).filter(\.isFinite).max() {
            top = ValueFormatter.massNumber(hi, unit: unit) + " " + unit
            bottom = ValueFormatter.massNumber(lo, unit: unit) + " " + unit
        }
        let axis = max(Terminal.width(top), Terminal.width(bottom))
        let plotWidth = max(8, min(60, columns - axis - 2))
        guard let grid = TextChart.brailleGrid(series: nonEmpty, width: plotWidth, height: 12),
              grid.valueRange != nil, let times = grid.timeRange else { terminal.line(t(.chartNoData)); return }
        let colors: [Terminal.Style] = [.blue, .yellow, .green, .magenta, .cyan, .red]
        let markers: [Character] = ["•", "×", "+", "◆", "○", "▲", "■"]
        func cell(_ c: Character, owner: Int?) -> String {
            guard let owner, nonEmpty.count > 1 else { return String(c) }
            if terminal.colors { return terminal.styled(String(c), colors[owner % colors.count]) }
            return owner == 0 ? String(c) : String(markers[(owner - 1) % markers.count])
        }
        func symbol(_ i: Int) -> String {
            if terminal.colors { return terminal.styled("━━", colors[i % colors.count]) }
            return i == 0 ? "⣿" : String(markers[(i - 1) % markers.count])
        }
        for row in 0..<grid.height {
            let label = row == 0 ? top : (row == grid.height - 1 ? bottom : "")
            let text = (0..<grid.width).map { c in cell(grid.cells[row * grid.width + c], owner: grid.owners[row * grid.width + c]) }.joined()
            terminal.line(String(repeating: " ", count: axis - Terminal.width(label)) + label + " ┤" + text)
        }
        let firstDay = localDay(Date(timeIntervalSince1970: times.lowerBound))
        let lastDay = localDay(Date(timeIntervalSince1970: times.upperBound))
        let withYear = firstDay.year != lastDay.year || lastDay.year != time.today.year
        let first = withYear ? format.longDate(firstDay) : format.shortDay(firstDay)
        let last = withYear ? format.longDate(lastDay) : format.shortDay(lastDay)
        let right = axis + 2 + grid.width, wFirst = Terminal.width(first), wLast = Terminal.width(last)
        // Under the plot when both fit there, else as far left as needed, else on two lines.
        let start = min(axis + 2, right - wFirst - 1 - wLast)
        if start >= 0 {
            terminal.line(String(repeating: " ", count: start) + first + String(repeating: " ", count: right - start - wFirst - wLast) + last)
        } else {
            terminal.line(String(repeating: " ", count: max(0, min(axis + 2, columns - wFirst))) + first)
            terminal.line(String(repeating: " ", count: max(0, min(right, columns) - wLast)) + last)
        }
        for (i, s) in nonEmpty.enumerated() {
            guard let lo = s.values.min(), let hi = s.values.max(), let lastValue = s.values.last else { continue }
            let name = DisplayColumns.truncated(Terminal.sanitize(s.label), to: max(4, columns / 3))
            let head = symbol(i) + " " + name + "  "
            let range = t(.chartTextRange(min: ValueFormatter.massNumber(lo, unit: unit), max: ValueFormatter.massNumber(hi, unit: unit),
                                          last: ValueFormatter.massNumber(lastValue, unit: unit), unit: unit))
            // The sparkline takes what the line has left, up to 40; when that is too little for it beside
            // the figures, the figures go below, wrapped between entries.
            let besides = columns - Terminal.width(head) - 2 - Terminal.width(range)
            if besides >= 12 {
                terminal.line(head + TextChart.sparkline(s.values, width: min(40, besides)) + "  " + range)
            } else {
                terminal.line(head + TextChart.sparkline(s.values, width: max(1, min(40, columns - Terminal.width(head)))))
                for l in DisplayColumns.pack(range.components(separatedBy: " · "), separator: " · ", columns: columns - 3) {
                    terminal.line("   " + l)
                }
            }
        }
    }

    /// Horizontal text bars, one line per category, for a quick look without a file.
    /// `totalTexts`: each bar's total as written (money), instead of the plain number.
    func printBars(title: String, categories: [String], stacks: [BarStack], totalTexts: [String]? = nil) {
        terminal.line(terminal.styled(Terminal.sanitize(title), .bold))
        let totals = categories.indices.map { i in stacks.reduce(0) { $0 + $1.values[i] } }
        guard let top = totals.max(), top > 0 else { terminal.line(t(.chartNoData)); return }
        let width = categories.map(Terminal.width).max() ?? 0
        let totalsWidth = categories.indices.map { i in Terminal.width(totalTexts?[i] ?? ValueFormatter.trim(totals[i], digits: 2)) }.max() ?? 0
        // The longest bar takes what the terminal has left beside the labels and totals, up to 40.
        let longest = Double(max(4, min(40, terminal.columns - width - 2 - 1 - totalsWidth)))
        for (i, c) in categories.enumerated() {
            let n = Int((totals[i] / top * longest).rounded())
            terminal.line(Terminal.pad(c, to: width) + "  " + String(repeating: "█", count: n) + (totals[i] > 0 ? " " + (totalTexts?[i] ?? ValueFormatter.trim(totals[i], digits: 2)) : ""))
        }
    }
}
