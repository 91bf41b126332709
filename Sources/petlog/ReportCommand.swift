import ArgumentParser
import Foundation
import Localization
import PetCharts
import PetModel
import PetReport
import PetFiles
import PetStoreCore

struct ReportCommand: ParsableCommand {
    @OptionGroup(title: Help.s(.helpGlobalOptionsTitle)) var global: GlobalOptions
    static var configuration: CommandConfiguration { CommandConfiguration(
        commandName: "report", abstract: Help.s(.helpReportCommandAbstract),
        discussion: Help.s(.helpReportCommandDiscussion)) }
    @Argument(help: ArgumentHelp(Help.s(.helpReportCommandPet)), completion: .petNames) var pet: String
    @Option(name: .shortAndLong, help: ArgumentHelp(Help.s(.helpReportCommandOutput))) var output: String
    @Option(parsing: .unconditional, help: ArgumentHelp(Help.s(.helpReportCommandSince))) var since = "90d"
    @Option(help: ArgumentHelp(Help.s(.helpReportCommandPaper))) var paper: Choice<Paper>?
    @Option(help: ArgumentHelp(Help.s(.helpReportCommandQuestion))) var question: [String] = []
    @Option(parsing: .unconditional, help: ArgumentHelp(Help.s(.helpReportCommandDate))) var date: String?
    @OptionGroup var money: CurrencyOption

    func run() throws {
        try Session.run(global) { s in
            let paperSize = try (paper ?? s.settings.config.values[.paper].flatMap { Choice<Paper>(argument: $0) } ?? Choice(.a4)).value("--paper")
            if OutputFile.isStandardOutput(output) {
                throw UsageError(message: s.t(.errStdoutFormat(what: "PDF", ext: ".pdf")))
            }
            guard URL(fileURLWithPath: output).pathExtension.lowercased() == "pdf" else {
                throw UsageError(message: s.t(.errReportFormat(path: output)))
            }
            let questions = try question.map { try TextField.text($0, field: "--question", max: 2000) }
            var generated = s.time.today
            // --date is the report's "today": ages, alerts, current medications and the period count from
            // the end of that day, and nothing after it is shown.
            var asOf = s.time
            if let d = date {
                generated = try TimeParser.day(d, context: s.time)
                if generated != s.time.today {
                    asOf = TimeContext(now: s.time.startOfDay(generated.adding(days: 1)).addingTimeInterval(-1), timeZone: s.time.timeZone)
                }
            } else if let epoch = ProcessInfo.processInfo.environment["SOURCE_DATE_EPOCH"], let secs = Double(epoch) {
                generated = s.localDay(Date(timeIntervalSince1970: secs))
            }
            let periodStart = try TimeParser.since(since, context: asOf)
            // A named day (`--since 2026-04-01`) starts the period on each record's own local day.
            let periodFirstDay = try TimeWindow(since: since, until: nil, context: asOf).days?.first
            let repo = try s.repository()
            let p = try repo.pet(PetRef(pet))
            let weights = try repo.weightSeries(pet: p.id, since: nil, until: nil)
            let records = try repo.records(RecordQuery(pets: [.id(p.id)]))
            // On a server, who kept the period's records (the roles that wrote them, most first).
            var writers: [String: Int] = [:]
            for r in records where (periodFirstDay.map { r.localDay >= $0 } ?? (r.at >= periodStart)) && r.at <= asOf.now { if let by = r.writtenBy { writers[by, default: 0] += 1 } }
            let keptBy = writers.sorted { $0.value != $1.value ? $0.value > $1.value : $0.key < $1.key }.map { (name: $0.key, records: $0.value) }
            let facts = VisitReportFacts(pet: p, records: records, weightTimes: weights.times,
                                         weightGrams: weights.grams, periodStart: periodStart, periodFirstDay: periodFirstDay, schedule: .shipped, context: asOf,
                                         weekStartsOnSunday: s.weekStartsOnSunday)
            // The period's visit costs in the home currency, each at its own day's rate.
            let currency = try s.homeCurrency(money.currency)
            let costs = facts.periodVisitCosts
            let currencies = Set(costs.map(\.cost.currency.code) + [currency.code])
            let rates = currencies.count > 1 && !costs.isEmpty
                ? try repo.rateTable(currencies: currencies.sorted(), from: costs.map(\.day).min(), through: costs.map(\.day).max())
                : RateTable([])
            // A store that keeps no files of its own writes the photos into a private folder, made on first use.
            let scratch = ScratchFolder()
            let doc = VetReportComposer(format: s.format, labels: s.chartLabels, facts: facts, generated: generated, questions: questions,
                                        costTotal: facts.costTotal(in: currency, rates: rates),
                                        attachmentPath: { repo.readableAttachment(sha256: $0.sha256, scratch: scratch.path) }, keptBy: keptBy).document(paper: paperSize)
            let summary = try s.renderOutput(output) { try ReportRenderer.render(doc, to: $0) }
            s.terminal.line(s.t(.reportWrote(path: Terminal.sanitize(output), pages: Display.count(summary.pageCount))))
        }
    }
}
