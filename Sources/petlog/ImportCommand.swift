import ArgumentParser
import Foundation
import PetModel
import PetStore

struct ImportCommand: ParsableCommand {
    @OptionGroup(title: "Global options") var global: GlobalOptions
    static let configuration = CommandConfiguration(
        commandName: "import",
        abstract: "Import a petlog export (JSON or CSV folder), a folder of spreadsheet tables, or one pet's weight CSV.",
        discussion: """
        All or nothing: a bad row names its file and line and nothing is written. Importing the same file again adds nothing.
        Formats and columns: docs/import.md. Local times without an offset are in this computer's time zone (TZ).
          petlog import backup.json
          petlog import export-folder/            (petlog export --format csv)
          petlog import shelter/                  (pets.csv, weights.csv, symptoms.csv, visits.csv, vaccinations.csv, expenses.csv)
          petlog import scale.csv --pet Coco --columns date,weight --weight-unit kg
        """)
    @Argument(help: "The file or folder to import.") var path: String
    @Option(help: "The pet a weight CSV belongs to (name or id).") var pet: String?
    @Option(parsing: .unconditional, help: "A weight CSV's columns in order, e.g. date,weight or date,time,-,weight_kg (- skips one).") var columns: String?
    @Option(name: .customLong("weight-unit"), help: "The unit of bare weight numbers (default: from the header, e.g. weight_kg).") var unit: Choice<MassUnit>?
    @Option(help: "Where the attachment files are (default: the attachments folder beside the file).") var attachments: String?

    func run() throws {
        try Session.run(global) { s in
            let massUnit = try unit?.value("--weight-unit")
            let options = ImportOptions(pet: pet.map(PetRef.init), columns: columns?.split(separator: ",").map(String.init), unit: massUnit,
                                        attachments: attachments.map { URL(fileURLWithPath: $0) }, timeZone: s.time.timeZone, now: s.time.now)
            // Every row is read and checked before the database is opened.
            let bar = ProgressBar(label: s.t(.importWriting))
            let batch = try ImportReader.read(path: path, options: options)
            let repo = try s.repository(creating: true)
            let summary = try repo.importBatch(batch) { done, total in bar.update(done, total) }
            bar.finish()
            if s.json {
                s.terminal.json(["records_added": summary.recordsAdded, "records_already_there": summary.recordsAlreadyThere,
                                 "pets_added": summary.petsAdded, "pets_matched": summary.petsMatched, "attachments_added": summary.attachmentsAdded])
            } else {
                s.terminal.line(s.t(.importDone(added: Display.count(summary.recordsAdded), pets: String(summary.petsAdded), path: Terminal.sanitize(path), existing: Display.count(summary.recordsAlreadyThere))))
                if summary.budgetsAdded > 0 || summary.ratesAdded > 0 {
                    s.terminal.line(s.t(.importMoneyDone(budgets: String(summary.budgetsAdded), rates: Display.count(summary.ratesAdded))))
                }
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
