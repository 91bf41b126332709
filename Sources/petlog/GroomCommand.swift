import ArgumentParser
import Foundation
import PetModel
import PetStoreCore
import PetViews

/// `petlog groom PET [WHAT…]`: a bath, a cut, nails; its cost is `grooming` spending, `--next` a reminder.
struct GroomCommand: ParsableCommand {
    @OptionGroup(title: Help.s(.helpGlobalOptionsTitle)) var global: GlobalOptions
    static var configuration: CommandConfiguration { CommandConfiguration(commandName: "groom", abstract: Help.s(.helpGroomCommandAbstract),
                                                                          discussion: Help.s(.helpGroomCommandDiscussion)) }
    @Argument(help: ArgumentHelp(Help.s(.helpGroomCommandPet)), completion: .petNames) var pet: String
    @Argument(help: ArgumentHelp(Help.s(.helpGroomCommandWhat))) var what: [String] = []
    @Option(name: .customLong("by"), help: ArgumentHelp(Help.s(.helpGroomCommandBy))) var groomer: String?
    @Option(help: ArgumentHelp(Help.s(.helpGroomCommandCost))) var cost: String?
    @OptionGroup var money: CurrencyOption
    @Option(parsing: .unconditional, help: ArgumentHelp(Help.s(.helpGroomCommandNext))) var next: String?
    @Option(help: ArgumentHelp(Help.s(.helpGroomCommandPhoto))) var photo: [String] = []
    @OptionGroup var record: RecordOptions

    func run() throws {
        try Session.run(global) { s in
            let tasks = try Self.tasks(what, s)
            let day = s.recordDay(try s.when(record.at, for: .grooming))
            let grooming = Grooming(tasks: tasks, groomer: try groomer.map { try TextField.label($0, field: "groomer") },
                                    cost: try cost.map { try s.amount($0, defaultCurrency: try s.homeCurrency(money.currency)) },
                                    // A span counts from the day of the grooming (on its own clock), not from today.
                                    next: try next.map { try TimeParser.day($0, from: day, context: s.time) })
            try s.checkImages(photo)
            try s.log(pets: pet, record, attachments: photo, detail: .grooming(grooming))
        }
    }

    /// The tasks named by `words`, in en/ko/ja (`bath`, `목욕`, `シャンプー`), each word or comma-separated
    /// list once; a name of several words may come as several arguments (`귀 청소` unquoted). A word that
    /// names no task is refused with the list in the user's language.
    static func tasks(_ words: [String], _ s: Session) throws -> [Grooming.Task] {
        try RecordEntry.groomingTasks(words, s.l10n)
    }
}

extension GroomCommand: KindCommand {
    static var kind: RecordKind { .grooming }

    /// `edit --what`: the tasks are replaced by the ones named (`--what "bath nails"`, `--what 목욕,발톱`).
    static func typed(_ raw: String, for m: RecordKindTable.JSONField, _ s: Session) throws -> SQLValue {
        SQLValue(Grooming(tasks: try tasks(raw.split(whereSeparator: \.isWhitespace).map(String.init), s)).taskList)
    }
}
