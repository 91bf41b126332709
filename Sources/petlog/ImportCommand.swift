import ArgumentParser
import Foundation
import PetModel
import PetStoreCore
import PetTransfer
import PetViews

struct ImportCommand: ParsableCommand {
    @OptionGroup(title: Help.s(.helpGlobalOptionsTitle)) var global: GlobalOptions
    static var configuration: CommandConfiguration { CommandConfiguration(
        commandName: "import",
        abstract: Help.s(.helpImportCommandAbstract),
        discussion: Help.s(.helpImportCommandDiscussion)) }
    @Argument(help: ArgumentHelp(Help.s(.helpImportCommandPath))) var path: String
    @Option(help: ArgumentHelp(Help.s(.helpImportCommandPet))) var pet: String?
    @Option(parsing: .unconditional, help: ArgumentHelp(Help.s(.helpImportCommandColumns))) var columns: String?
    @Option(name: .customLong("weight-unit"), help: ArgumentHelp(Help.s(.helpImportCommandUnit))) var unit: Choice<MassUnit>?
    @Option(help: ArgumentHelp(Help.s(.helpImportCommandAttachments))) var attachments: String?
    @Flag(help: ArgumentHelp(Help.s(.helpImportCommandStrict))) var strict = false
    @Option(help: ArgumentHelp(Help.s(.helpImportCommandDelimiter)))
    var delimiter: String?
    @Option(name: .customLong("date-format"), help: ArgumentHelp(Help.s(.helpImportCommandDateFormat)))
    var dateFormat: Choice<DateOrder>?

    func run() throws {
        try Session.run(global) { s in
            let massUnit = try unit?.value("--weight-unit")
            var options = ImportOptions(pet: pet.map(PetRef.init), columns: columns?.split(separator: ",").map(String.init), unit: massUnit,
                                        attachments: attachments.map { URL(fileURLWithPath: $0) }, timeZone: s.time.timeZone, now: s.time.now)
            if let d = delimiter {
                let known: [String: UInt8] = [",": 0x2C, ";": 0x3B, "tab": 0x09, "\t": 0x09, "|": 0x7C]
                guard let byte = known[d.lowercased()] else { throw ParseError.unknownChoice(field: "--delimiter", value: d, accepted: [",", ";", "tab", "|"]) }
                options.delimiter = byte
            }
            options.dateOrder = try dateFormat?.value("--date-format")
            options.strictAttachments = strict
            // Every row is read and checked before the database is opened.
            let bar = ProgressBar(label: s.t(.importWriting))
            let batch = try ImportReader.read(path: path, options: options)
            let skippedWithoutWeight = batch.skippedWithoutWeight
            let repo = try s.repository(creating: true)
            // Handed over: the store lets the rows go once written (its index sorts then have the memory).
            let summary = try repo.importBatch(consume batch) { done, total in bar.update(done, total) }
            bar.finish()
            if s.json {
                try s.terminal.json(ImportSummaryJSON(summary))
            } else {
                s.terminal.line(s.t(.importDone(added: Display.count(summary.recordsAdded), pets: Display.count(summary.petsAdded), path: Terminal.sanitize(path), existing: Display.count(summary.recordsAlreadyThere))))
                if skippedWithoutWeight > 0 {
                    s.terminal.line(s.t(.importSkippedNoWeight(count: Display.count(skippedWithoutWeight))))
                }
                if summary.budgetsAdded > 0 || summary.ratesAdded > 0 {
                    s.terminal.line(s.t(.importMoneyDone(budgets: String(summary.budgetsAdded), rates: Display.count(summary.ratesAdded))))
                }
            }
            // The records are in; the photos that were not beside the file are rows without their files.
            if summary.attachmentsMissing > 0 {
                s.terminal.error(s.t(.importAttachmentsMissing(count: Display.count(summary.attachmentsMissing))))
            }
        }
    }
}

/// A one-line progress bar on stderr, only when stderr is a terminal; redrawn at most every 1 %.
final class ProgressBar {
    let label: String
    let enabled = isatty(STDERR_FILENO) == 1
    var lastPercent = -1

    init(label: String) { self.label = label }

    func update(_ done: Int, _ total: Int) {
        guard enabled, total > 0 else { return }
        let percent = min(100, done * 100 / total)
        guard percent != lastPercent else { return }
        lastPercent = percent
        let filled = percent * 30 / 100
        let bar = String(repeating: "█", count: filled) + String(repeating: "░", count: 30 - filled)
        Terminal.write("\r\(label) \(bar) \(percent)% \(Display.count(done))/\(Display.count(total))", to: STDERR_FILENO)
    }

    func finish() {
        if enabled && lastPercent >= 0 { Terminal.write("\r\u{1B}[2K", to: STDERR_FILENO) }
    }
}
