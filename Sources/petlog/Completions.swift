import ArgumentParser
import Foundation
import PetModel
import StoreOpening

/// Shell completion of names from the current database: argument-parser's generated scripts call
/// `petlog ---completion …` when TAB is pressed on a PET or medication argument, and these closures
/// answer with the names in the database the command would use (`--db` on the line being completed,
/// else `PETLOG_DB`, else the config file's `database`, else the default). Read-only, never waits on a
/// lock, and silent: any trouble gives no candidates. Names are data, never shell code: each is
/// answered as itself, one a line, and the scripts (`CompletionScript`) hand them to the shell as
/// literal candidates that it quotes on insertion.
extension CompletionKind {
    /// Active pets' names (`petlog log <TAB>`).
    static var petNames: CompletionKind {
        .custom { words, index, prefix in
            ShellCompletion.offered(CompletionNames.pets(databasePath: ShellCompletion.databasePath(words: words)),
                                    words: words, index: index, prefix: prefix)
        }
    }

    /// Names of medications not stopped, of the pet (or pets) named before them on the line
    /// (`petlog med give Coco <TAB>`); every active pet's when none is named.
    static var medicationNames: CompletionKind {
        .custom { words, index, prefix in
            let pets = ShellCompletion.positional(words: words, before: index, after: ["give", "stop"])
                .map { PetModelText.pets($0).map(\.description) } ?? []
            return ShellCompletion.offered(CompletionNames.medications(
                databasePath: ShellCompletion.databasePath(words: words), pets: pets), words: words, index: index, prefix: prefix)
        }
    }
}

enum ShellCompletion {
    /// The first argument of a completion request from argument-parser's scripts.
    static let requestWord = "---completion"

    /// Marks a name the scripts insert after a `--` of its own (`-- -rf`): a control character, which no
    /// offered name holds (`CompletionNames` leaves such names out).
    static let afterSeparator = "\u{1F}"

    /// The names to answer: those that complete what is typed (`matching`). A name that starts with `-`
    /// would be read as an option where it lands, so unless a `--` comes before the word being completed
    /// it goes in after one: bash's and zsh's scripts insert `-- -rf` for a name marked `afterSeparator`;
    /// fish quotes every candidate as one word, so it is offered `--` (the dash names as its description),
    /// and the next TAB, after the `--`, offers the names themselves.
    static func offered(_ names: [String], words: [String], index: Int, prefix: String) -> [String] {
        let matched = matching(prefix, names)
        let separated = words.prefix(min(index, words.count)).dropFirst().contains("--")
        guard !separated, matched.contains(where: { $0.hasPrefix("-") }) else { return matched }
        let plain = matched.filter { !$0.hasPrefix("-") }
        // Only in a word begun bare (not in an open quote) that the dash names still complete.
        let dashed = matched.filter { $0.hasPrefix("-") && $0.hasPrefix(ShellWord.unquoted(prefix)) }
        guard prefix.isEmpty || prefix.hasPrefix("-"), !dashed.isEmpty else { return plain }
        switch shell {
        case "fish": return plain + ["--\t" + dashed.joined(separator: " ")]
        case "bash", "zsh": return plain + dashed.map { afterSeparator + $0 }
        default: return plain + dashed
        }
    }

    /// Options that take a value among those of the commands that complete names (global and record
    /// options): their value is not a positional argument.
    static let valueOptions: Set<String> = ["--db", "--lang", "--unit", "--tz", "--at", "--note"]

    /// The shell running the completion, as argument-parser's scripts say (`SAP_SHELL`).
    static var shell: String { ProcessInfo.processInfo.environment["SAP_SHELL"] ?? "" }

    /// A word of the line as the command will receive it. bash and zsh (and fish 4) hand over the
    /// words as typed, quotes and all; fish 3 hands them over unquoted already.
    static func literal(_ word: String) -> String {
        if shell == "fish" {
            let major = Int(ProcessInfo.processInfo.environment["SAP_SHELL_VERSION"]?.split(separator: ".").first ?? "") ?? 0
            if major < 4 { return word }
        }
        return ShellWord.unquoted(word)
    }

    /// The candidates that complete what is typed. zsh and fish match the typed word themselves, with
    /// their own quoting rules; bash's script adds what it is given as it is, so the matching is done
    /// here, against the word both as typed (`O\'Ma`) and as the shell reads it (`O'Ma`).
    static func matching(_ prefix: String, _ names: [String]) -> [String] {
        guard shell == "bash", !prefix.isEmpty else { return names }
        let read = ShellWord.unquoted(prefix)
        return names.filter { $0.hasPrefix(read) || $0.hasPrefix(prefix) }
    }

    /// The first positional argument after one of the subcommand words `after`, before the word at
    /// `index` (the one being completed), as the command will receive it.
    static func positional(words: [String], before index: Int, after: Set<String>) -> String? {
        guard let start = words.prefix(index).firstIndex(where: after.contains) else { return nil }
        var i = start + 1
        while i < min(index, words.count) {
            let w = words[i]
            if w == "--" { return i + 1 < min(index, words.count) ? literal(words[i + 1]) : nil }
            if w.hasPrefix("-") {
                i += valueOptions.contains(w) ? 2 : 1
                continue
            }
            return literal(w)
        }
        return nil
    }

    /// The database the command being completed would open: `--db X` or `--db=X` among the shell's words
    /// (read as the command will receive it; a leading `~/` is the home folder), else what
    /// `GlobalSettings` resolves.
    static func databasePath(words: [String]) -> String {
        var fromLine: String?
        for (i, w) in words.enumerated() {
            if w == "--" { break }
            if w == "--db", i + 1 < words.count { fromLine = words[i + 1] }
            if w.hasPrefix("--db=") { fromLine = String(w.dropFirst("--db=".count)) }
        }
        if let typed = fromLine {
            var p = literal(typed)
            if typed.hasPrefix("~/") { p = (p as NSString).expandingTildeInPath }
            if !p.isEmpty { return p }
        }
        return GlobalSettings(config: ConfigFile.load()).resolvedDatabasePath
    }
}

/// The completion scripts argument-parser generates, made safe for names from the database. Its bash
/// script passes the names through `compgen -W "$(…)"`, which expands `$(…)`, backticks and `$VAR`
/// inside them again (a pet named `$(rm -rf ~)` would run on TAB) and splits `Miss Kitty` in two; here
/// each name goes into COMPREPLY as one shell-quoted word, as bash quotes a file name it completes. zsh's script handed them to `_describe`, which reads `a:b` as a name and a
/// description; here they go to `compadd` as they are. fish already offers them literally.
enum CompletionScript {
    static func script(for shell: CompletionShell) -> String {
        let generated = Petlog.completionScript(for: shell)
        switch shell {
        case .bash: return bash(generated)
        case .zsh: return zsh(generated)
        default: return generated
        }
    }

    /// The shell named by `--generate-completion-script SHELL` (or `=SHELL`) when that is what is asked.
    static func requested(_ arguments: [String]) -> CompletionShell? {
        guard let i = arguments.firstIndex(where: { $0 == "--generate-completion-script" || $0.hasPrefix("--generate-completion-script=") }) else { return nil }
        let word = arguments[i]
        let name = word.contains("=") ? String(word.split(separator: "=", maxSplits: 1)[1])
                                      : (i + 1 < arguments.count ? arguments[i + 1] : "")
        return CompletionShell(rawValue: name)
    }

    static func bash(_ script: String) -> String {
        let prefix = "__petlog"
        var out = script.replacingOccurrences(
            of: "\(prefix)_add_completions -W \"$(\(prefix)_custom_complete ",
            with: "\(prefix)_add_literal_completions \"$(\(prefix)_custom_complete ")
        // Each name is quoted here, as bash quotes a file name it completes (`printf %q`: `O\'Malley`,
        // `F\ \$HOME`); bash's own quoting of other candidates (`-o filenames`) leaves `$` and backticks
        // bare when no such file exists, so it is switched off for these. In a word begun with a quote
        // (readline closes the quote itself), a name is written as that quote needs it.
        let literal = """
            \(prefix)_add_literal_completions() {
                local candidate quoted typed="${COMP_WORDS[COMP_CWORD]}"
                compopt +o filenames 2>/dev/null
                while IFS='' read -r candidate; do
                    [[ -n "${candidate}" ]] || continue
                    case "${candidate}" in
                    $'\\x1f'*) printf -v quoted '%q' "${candidate#$'\\x1f'}"; COMPREPLY+=("-- ${quoted}"); continue ;;
                    esac
                    case "${typed}" in
                    \\'*) quoted="${candidate//\\'/\\'\\\\\\'\\'}" ;;
                    \\"*) quoted="${candidate//\\\\/\\\\\\\\}"; quoted="${quoted//\\"/\\\\\\"}"; quoted="${quoted//\\$/\\\\\\$}"; quoted="${quoted//\\`/\\\\\\`}" ;;
                    *) printf -v quoted '%q' "${candidate}" ;;
                    esac
                    COMPREPLY+=("${quoted}")
                done <<< "${1}"
            }

            complete -o filenames -F
            """
        out = out.replacingOccurrences(of: "complete -o filenames -F", with: literal)
        return out
    }

    /// zsh: the names go to `compadd` as they are (it quotes them on insertion and matches them itself);
    /// a name marked `ShellCompletion.afterSeparator` goes in as `-- NAME`, quoted here (`-Q`), and
    /// already matched by petlog (`-U`).
    static func zsh(_ script: String) -> String {
        let prefix = "__petlog"
        return script.replacingOccurrences(
            of: "        \(prefix)_complete \"${completions[@]:0:-1}\"\n",
            with: """
                        local -a names separated
                        local name
                        for name in "${completions[@]:0:-1}"; do
                            if [[ "${name}" == $'\\x1f'* ]]; then separated+=("-- ${(q)${name#$'\\x1f'}}"); else names+=("${name}"); fi
                        done
                        compadd -- "${names[@]}"
                        (( ${#separated[@]} )) && compadd -U -Q -- "${separated[@]}"

                """)
    }
}
