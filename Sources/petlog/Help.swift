import ArgumentParser
import Foundation
import Localization
import PetModel

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

/// argument-parser wraps help by Character count, so Hangul and kana lines ran past the edge and the
/// hanging indents of petlog's own lists were lost. petlog asks it for the help unwrapped (one line
/// per paragraph or option) and wraps that here by display columns, each line with its own hanging
/// indent: under the text of an option or subcommand (after its label and the gap of spaces), under
/// `USAGE:`'s first word, else under the line's own indentation. When that indent would leave less
/// than half the width, the text moves under its label, indented by 6.
enum HelpLayout {
    /// The width argument-parser is told, so that it never wraps a line itself.
    static let unwrapped = 100_000

    static func rewrapped(_ help: String, columns: Int) -> String {
        help.split(separator: "\n", omittingEmptySubsequences: false).flatMap { raw -> [String] in
            let line = String(raw.reversed().drop(while: { $0 == " " }).reversed())
            guard DisplayColumns.width(line) > columns else { return [line] }
            let lead = line.prefix(while: { $0 == " " }).count
            if line.hasPrefix("USAGE: ") { return DisplayColumns.wrap(line, columns: columns, indent: 7) }
            if let textColumn = labelGap(line, lead: lead) {
                if textColumn <= columns / 2 { return DisplayColumns.wrap(line, columns: columns, indent: textColumn) }
                let label = String(line.prefix(textColumn)).trimmingCharacters(in: .whitespaces)
                let text = String(line.dropFirst(textColumn))
                return [String(repeating: " ", count: lead) + label] + narrow(text, columns: columns)
            }
            if lead <= columns / 2 { return DisplayColumns.wrap(line, columns: columns, indent: lead) }
            return narrow(String(line.dropFirst(lead)), columns: columns)
        }.joined(separator: "\n")
    }

    /// The column where the text after an option's or a list item's label starts: a short ASCII label
    /// at the start of an indented line, then two or more spaces (or argument-parser's column 26).
    static func labelGap(_ line: String, lead: Int) -> Int? {
        guard lead > 0, lead <= 8 else { return nil }
        let chars = Array(line)
        var i = lead
        while i < chars.count, i < lead + 40, chars[i].isASCII {
            if chars[i] == " " {
                var j = i
                while j < chars.count, chars[j] == " " { j += 1 }
                if j - i >= 2 || (lead == 2 && j == 26) { return j < chars.count ? j : nil }
                i = j
            } else {
                i += 1
            }
        }
        return nil
    }

    private static func narrow(_ text: String, columns: Int) -> [String] {
        DisplayColumns.wrap(String(repeating: " ", count: 6) + text, columns: columns, indent: 6)
    }
}
