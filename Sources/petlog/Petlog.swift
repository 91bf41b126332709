import Foundation
import ArgumentParser
import PetModel
import Localization
import StoreOpening

/// The `petlog` command: every subcommand is one file in this folder.
struct Petlog: ParsableCommand {
    @OptionGroup(title: Help.s(.helpGlobalOptionsTitle)) var global: GlobalOptions
    static var configuration: CommandConfiguration { CommandConfiguration(
        commandName: "petlog",
        abstract: Help.s(.helpPetlogAbstract),
        discussion: Help.s(.helpPetlogDiscussion),
        version: Help.s(.versionLine(version: PetlogVersion.current, schema: SchemaVersions.database, export: SchemaVersions.export)),
        subcommands: [
            PetGroup.self,
            WeightCommand.self, MealCommand.self, StoolCommand.self, UrineCommand.self, SymptomCommand.self, DiaryCommand.self,
            VisitCommand.self, VaccineCommand.self, MedGroup.self, GroomCommand.self, WalkCommand.self, ExpenseGroup.self,
            BudgetGroup.self,
            ChartGroup.self, ReportCommand.self, CardCommand.self, DueCommand.self, CalendarCommand.self, StatsCommand.self,
            LogCommand.self, SearchCommand.self, StarCommand.self, UnstarCommand.self, StarredCommand.self,
            ShowCommand.self, EditCommand.self, DeleteCommand.self, ExportCommand.self, ImportCommand.self, BackupCommand.self, RestoreCommand.self, CheckCommand.self, DemoCommand.self,
            RatesGroup.self, ConfigGroup.self, UndoCommand.self, PgGroup.self, ServeCommand.self, UserGroup.self,
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
            // A completion answer (`petlog ---completion …`) goes to the shell's script byte for byte: zsh's
            // script drops its last line, the " " argument-parser adds, which trimming would turn into a blank
            // line that `$(…)` strips (so the last real name was dropped instead), and a long name is not
            // help to wrap.
            if arguments.first == ShellCompletion.requestWord {
                Terminal.write(text + "\n", to: STDOUT_FILENO)
                Foundation.exit(0)
            }
            Terminal.write(HelpLayout.rewrapped(text, columns: Terminal.screenColumns()) + "\n", to: STDOUT_FILENO)
            if let failed = StandardOutput.failed {
                let failure = Failure(failed)
                Terminal(colors: false).error(failure.message(L10n(.en)))
                Foundation.exit(failure.exitCode)
            }
            Foundation.exit(0)
        }
        // An ExitCode was thrown after Session.run had already said why.
        guard !(error is ExitCode), exitCode(for: error).rawValue == Failure.usage else { exit(withError: error) }
        let l10n = GlobalSettings.forRefusals(arguments).l10n
        // `weight Coco -3kg` reads -3kg as an option; say what is wrong with it instead. Only where a
        // number goes: `diary Rex "-2+3"` is a text that starts with a dash, and `--` lets it through.
        if let negative = negativeValue(arguments) {
            if command(arguments) is TakesMoney.Type {
                Terminal(colors: false).error(l10n.text(.errNegativeAmountHelp(value: negative, command: commandPath(arguments))))
                Foundation.exit(Failure.dataError)
            }
            if command(arguments) is TakesNumbers.Type {
                Terminal(colors: false).error(l10n.text(.errNegative(value: negative, command: commandPath(arguments))))
                Foundation.exit(Failure.dataError)
            }
            Terminal(colors: false).error(l10n.text(.errDashText(value: negative, command: commandPath(arguments))))
            Foundation.exit(Failure.usage)
        }
        let line = l10n.text(.errUsageHint(message: message(for: error), command: commandPath(arguments)))
        Terminal(colors: false).error(line)
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
        subcommands(arguments).map(name).joined(separator: " ")
    }

    /// The command the arguments run (`MedGroup.Start` for `med start Coco …`).
    static func command(_ arguments: [String]) -> ParsableCommand.Type {
        subcommands(arguments).last ?? Petlog.self
    }

    static func name(_ c: ParsableCommand.Type) -> String { c.configuration.commandName ?? String(describing: c).lowercased() }

    /// The commands named at the front of the arguments, from `Petlog` down.
    static func subcommands(_ arguments: [String]) -> [ParsableCommand.Type] {
        var command: ParsableCommand.Type = Petlog.self
        var names: [ParsableCommand.Type] = [Petlog.self]
        var rest = arguments[...]
        while let a = rest.popFirst(), a != "--" {
            // The global options may come first: skip them and their values.
            if ["--db", "--lang", "--unit"].contains(a) { _ = rest.popFirst(); continue }
            if a.hasPrefix("-") { continue }
            guard let sub = command.configuration.subcommands.first(where: { name($0) == a }) else { break }
            command = sub
            names.append(sub)
        }
        return names
    }
}

/// A command with a number where an argument goes (a weight, an amount, a score): a negative one
/// there is named as such, never as an unknown option.
protocol TakesNumbers {}

extension WeightCommand: TakesNumbers {}
extension MealCommand: TakesNumbers {}
extension StoolCommand: TakesNumbers {}
extension ExpenseGroup: TakesNumbers {}
extension ExpenseAddCommand: TakesNumbers {}
extension BudgetGroup.Set: TakesNumbers {}

/// A command whose number is an amount of money: a negative one is named as money, not as a weight.
protocol TakesMoney {}

extension ExpenseGroup: TakesMoney {}
extension ExpenseAddCommand: TakesMoney {}
extension BudgetGroup.Set: TakesMoney {}

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
