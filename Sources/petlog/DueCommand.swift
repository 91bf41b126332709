import ArgumentParser
import Foundation
import PetModel
import PetFiles
import PetViews

struct DueCommand: ParsableCommand {
    @OptionGroup(title: Help.s(.helpGlobalOptionsTitle)) var global: GlobalOptions
    static var configuration: CommandConfiguration { CommandConfiguration(
        commandName: "due", abstract: Help.s(.helpDueCommandAbstract),
        discussion: Help.s(.helpDueCommandDiscussion)) }
    @Argument(help: ArgumentHelp(Help.s(.helpDueCommandPet)), completion: .petNames) var pet: String?
    @Option(help: ArgumentHelp(Help.s(.helpDueCommandWithin))) var within = "30d"
    @Flag(help: ArgumentHelp(Help.s(.helpDueCommandCheck))) var check = false
    @Option(help: ArgumentHelp(Help.s(.helpDueCommandIcs))) var ics: String?

    func run() throws {
        try Session.run(global) { s in
            let icsToStdout = ics.map(OutputFile.isStandardOutput) ?? false
            if icsToStdout && s.json { throw UsageError(message: s.t(.errStdoutTwice(first: "--ics -", second: "--json"))) }
            let span = try Span.parse(within)
            // Days and months count on the calendar from today (`1m` on Jan 31 is Feb 28, over a DST change too);
            // hours reach the day of that instant on the reader's clock.
            let horizon: LocalDate
            if case .seconds(let secs) = span { horizon = s.localDay(s.time.now.addingTimeInterval(Double(secs))) }
            else { horizon = span.added(to: s.time.today) }
            let items = try s.dueItems(pets: pet.map(PetModelText.pets) ?? []).filter { $0.dueDay <= horizon }
            let overdue = items.filter { $0.isOverdue(s.time) }
            if let path = ics {
                try s.writeICS(items, to: path)
            }
            if icsToStdout {
                // Standard output carries the calendar only.
            } else if s.json {
                try s.terminal.json(items.map { DueItemJSON($0, context: s.time) })
            } else if ics == nil || !items.isEmpty {
                s.terminal.lines(PetPresenter(s.presentation).due(items, days: span))
            }
            if check && !overdue.isEmpty { throw ExitCode(1) }
        }
    }
}

extension Session {
    /// Due items of the named pets (all active pets when none), from their care records.
    mutating func dueItems(pets refs: [PetRef]) throws -> [DueItem] {
        let repo = try repository()
        let pets = refs.isEmpty ? try repo.pets(includeArchived: false) : try refs.map { try repo.pet($0) }
        let records = try repo.careRecords(pets: pets.map(\.id))
        return CareAgenda.items(pets: pets, records: records, schedule: .shipped, context: time)
    }

    func writeICS(_ items: [DueItem], to path: String) throws {
        let text = DueCalendar.document(items, presentation)
        try OutputFile.write(Data(text.utf8), to: path)
        if !OutputFile.isStandardOutput(path) {
            terminal.error(t(.icsWrote(count: Display.count(items.count), path: Terminal.sanitize(path))))
        }
    }
}
