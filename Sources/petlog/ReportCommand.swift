import ArgumentParser
import Foundation
import Localization
import PetCharts
import PetModel
import PetReport
import PetFiles
import PetStoreCore
import PetViews

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
            if date == nil, let epoch = ProcessInfo.processInfo.environment["SOURCE_DATE_EPOCH"], let secs = Double(epoch) {
                generated = s.localDay(Date(timeIntervalSince1970: secs))
            }
            let currency = try s.homeCurrency(money.currency)
            // A store that keeps no files of its own writes the photos into a private folder, made on first use.
            let scratch = ScratchFolder()
            let doc = try PetDocuments(store: try s.repository(), context: s.presentation)
                .vetReport(pet: PetRef(pet), since: since, date: date, generated: generated, questions: questions, currency: currency,
                           paper: paperSize, scratch: scratch.path)
            let summary = try s.renderOutput(output) { try ReportRenderer.render(doc, to: $0) }
            s.terminal.line(s.t(.reportWrote(path: Terminal.sanitize(output), pages: Display.count(summary.pageCount))))
        }
    }
}
