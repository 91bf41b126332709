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
        subcommands: [Weight.self, Symptoms.self, Activity.self, Expenses.self]
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

        /// The chart composer for these options: the size and format checked first, in that order.
        func composer(_ s: Session, _ store: any PetlogStore) throws -> ChartComposer {
            let size = try chartSize(s)
            _ = try format(s)
            return ChartComposer(store: store, context: s.presentation, size: size, theme: dark ? .dark : .light)
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
                let window = try out.window(s)
                let smoothing = try smooth.map { try Span.parse($0, allowCalendarUnits: false) }
                let composer = try out.composer(s, repo)
                try s.show(try composer.weight(pets: pets.flatMap(PetModelText.pets), window: window, smoothing: smoothing), out: out)
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
                let window = try out.window(s)
                let composer = try out.composer(s, repo)
                try s.show(try composer.symptoms(pet: p, window: window, byKind: byKind, symptom: symptom), out: out)
            }
        }
    }

    struct Activity: ParsableCommand {
        @OptionGroup(title: Help.s(.helpGlobalOptionsTitle)) var global: GlobalOptions
        static var configuration: CommandConfiguration { CommandConfiguration(abstract: Help.s(.helpChartGroupActivityAbstract)) }
        @Argument(help: ArgumentHelp(Help.s(.helpChartGroupActivityPet)), completion: .petNames) var pet: String
        @OptionGroup var out: Output

        func run() throws {
            try Session.run(global) { s in
                let repo = try s.repository()
                let p = try repo.pet(PetRef(pet))
                let window = try out.window(s)
                let composer = try out.composer(s, repo)
                try s.show(try composer.activity(pet: p, window: window), out: out)
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
                    let b = try s.budget(budget)
                    let composer = try out.composer(s, try s.repository())
                    let currency = try money.currency.map { try s.homeCurrency($0) } ?? b.budget.amount.currency
                    _ = try s.dailySpan(b, asOf: s.time.today)
                    try s.show(try composer.budget(b, currency: currency), out: out)
                    return
                }
                let repo = try s.repository()
                let window = try out.window(s)
                let composer = try out.composer(s, repo)
                let currency = try s.homeCurrency(money.currency)
                try s.show(try composer.expenses(pets: pet.map(PetModelText.pets) ?? [], window: window, currency: currency), out: out)
            }
        }
    }
}

extension Session {
    /// Axis labels and symptom bars in the session's language.
    var chartLabels: ChartLabels { ChartLabels(format: format, wording: wording, timeZone: time.timeZone) }

    /// Shows a composed chart: its `--json` view, else its text without `-o`, else its drawing written to the file.
    /// The chart is taken: for a file, its drawing is made and the chart let go, so that the renderer holds the
    /// only copy of the series and can drop it before painting (issue 44: the million-point chart's peak RSS).
    func show(_ chart: consuming ComposedChart, out: ChartGroup.Output) throws {
        for w in json ? chart.jsonWarnings : chart.warnings { terminal.error(w) }
        if json { try terminal.json(chart.json()); return }
        guard let format = try out.format(self), let path = out.output else { terminal.lines(chart.text()); return }
        for n in chart.fileNotes { terminal.error(n) }
        var drawing = Optional(chart.drawing())
        _ = consume chart
        try writeChart(path) { file in
            switch drawing.take() {
            case .line(let spec)?: try ChartRenderer.render(consume spec, to: file, format: format)
            case .bars(let spec)?: try ChartRenderer.render(spec, to: file, format: format)
            case nil: break
            }
        }
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
}
