import ArgumentParser
import Localization

/// The help texts — every command's abstract and discussion, every option's and argument's help, the
/// "Global options" title — in the language the command line asks for (`--lang`, else PETLOG_LANG,
/// else the config file, else the locale), from the tables (`help.*` keys). argument-parser builds
/// `--help` from the command definitions themselves, so the language is read from the arguments
/// before parsing (`GlobalSettings.forRefusals`, as for its refusals) and the definitions ask `Help`
/// for their texts: `configuration` is computed, and option help is evaluated when argument-parser
/// reads a command's options. argument-parser's own words (USAGE:, OPTIONS:, SUBCOMMANDS:, its
/// usage errors) stay English. The man page (`--experimental-dump-help`, `make man`) and the
/// completion scripts are always English, whatever the locale of the machine that builds them.
enum Help {
    static let l10n: L10n = {
        let arguments = Array(CommandLine.arguments.dropFirst())
        if arguments.contains(where: { $0 == "--experimental-dump-help" || $0.hasPrefix("--generate-completion-script") }) {
            return L10n(.en)
        }
        return GlobalSettings.forRefusals(arguments).l10n
    }()

    /// A help text in the chosen language.
    static func s(_ message: L10n.Message) -> String { l10n.text(message) }
}
