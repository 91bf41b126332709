import Foundation
import ArgumentParser

/// The `petlog` command: every subcommand is one file in this folder.
struct Petlog: ParsableCommand {
    @OptionGroup(title: Help.s(.helpGlobalOptionsTitle)) var global: GlobalOptions
    static var configuration: CommandConfiguration { CommandConfiguration(
        commandName: "petlog",
        abstract: Help.s(.helpPetlogAbstract),
        discussion: Help.s(.helpPetlogDiscussion),
        subcommands: [
            PetGroup.self,
            WeightCommand.self, MealCommand.self, StoolCommand.self, UrineCommand.self, SymptomCommand.self, DiaryCommand.self,
            VisitCommand.self, VaccineCommand.self, MedGroup.self, ExpenseGroup.self,
            BudgetGroup.self,
            ChartGroup.self, ReportCommand.self, DueCommand.self, CalendarCommand.self, StatsCommand.self,
            LogCommand.self, SearchCommand.self, StarCommand.self, UnstarCommand.self, StarredCommand.self,
            EditCommand.self, DeleteCommand.self, ExportCommand.self, ImportCommand.self, BackupCommand.self, RestoreCommand.self, CheckCommand.self, DemoCommand.self,
            RatesGroup.self, ConfigGroup.self, UndoCommand.self, PgGroup.self,
        ]
    ) }
}

extension Petlog {
    /// argument-parser's own refusals (a missing argument, an unknown option, a value its type cannot
    /// hold, a `validate()` error) as one line naming the help to read, exit 64, like every other
    /// refusal; help and petlog's own exit codes pass through unchanged.
    static func exit(oneLine error: Error, arguments: [String]) -> Never {
        // Help (and --version) is laid out by display columns to the terminal's width (HelpLayout);
        // --experimental-dump-help is JSON for tools and passes through.
        if !(error is ExitCode), exitCode(for: error) == .success, !arguments.contains("--experimental-dump-help") {
            let text = fullMessage(for: error, columns: HelpLayout.unwrapped)
            Terminal.write(HelpLayout.rewrapped(text, columns: Terminal.screenColumns()) + "\n", to: STDOUT_FILENO)
            Foundation.exit(0)
        }
        // An ExitCode was thrown after Session.run had already said why.
        guard !(error is ExitCode), exitCode(for: error).rawValue == Failure.usage else { exit(withError: error) }
        let l10n = GlobalSettings.forRefusals(arguments).l10n
        // `weight Coco -3kg` reads -3kg as an option; say what is wrong with it instead.
        if let negative = negativeValue(arguments) {
            Terminal(colors: false, l10n: l10n).error(l10n.text(.errNegative(value: negative, command: commandPath(arguments))))
            Foundation.exit(Failure.dataError)
        }
        let line = l10n.text(.errUsageHint(message: message(for: error), command: commandPath(arguments)))
        Terminal(colors: false, l10n: l10n).error(line)
        Foundation.exit(Failure.usage)
    }

    /// A negative number typed where a value goes (`-3kg`, `-5g`, `-1`), not as the value of an option
    /// (`--at -2d` is a time two days back).
    static func negativeValue(_ arguments: [String]) -> String? {
        for (i, a) in arguments.enumerated() where a.count > 1 && a.hasPrefix("-") {
            let next = a.dropFirst().precomposedStringWithCompatibilityMapping
            guard let first = next.first, first.isASCII, first.isNumber else { continue }
            if i > 0, arguments[i - 1].hasPrefix("-") { continue }
            return a
        }
        return nil
    }

    /// `petlog med start` for `med start Coco …`: the subcommands named at the front of the arguments.
    static func commandPath(_ arguments: [String]) -> String {
        var command: ParsableCommand.Type = Petlog.self
        func name(_ c: ParsableCommand.Type) -> String { c.configuration.commandName ?? String(describing: c).lowercased() }
        var names = [name(Petlog.self)]
        var rest = arguments[...]
        while let a = rest.popFirst(), a != "--" {
            // The global options may come first: skip them and their values.
            if ["--db", "--lang", "--unit"].contains(a) { _ = rest.popFirst(); continue }
            if a.hasPrefix("-") { continue }
            guard let sub = command.configuration.subcommands.first(where: { name($0) == a }) else { break }
            command = sub
            names.append(a)
        }
        return names.joined(separator: " ")
    }
}

/// `--at` and `--note`, shared by every command that logs a record.
struct RecordOptions: ParsableArguments {
    @Option(parsing: .unconditional, help: ArgumentHelp(Help.s(.helpRecordOptionsAt)))
    var at: String?

    @Option(help: ArgumentHelp(Help.s(.helpRecordOptionsNote)))
    var note: String?

    func noteText() throws -> String? {
        try note.map { try PetModelText.note($0) }
    }
}
