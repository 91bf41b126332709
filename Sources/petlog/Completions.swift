import ArgumentParser
import Foundation
import PetStore

/// Shell completion of names from the current database: argument-parser's generated scripts call
/// `petlog ---completion …` when TAB is pressed on a PET or medication argument, and these closures
/// answer with the names in the database the command would use (`--db` on the line being completed,
/// else `PETLOG_DB`, else the config file's `database`, else the default). Read-only, never waits on a
/// lock, and silent: any trouble gives no candidates.
extension CompletionKind {
    /// Active pets' names (`petlog log <TAB>`).
    static var petNames: CompletionKind {
        .custom { words, _, _ in CompletionNames.pets(databasePath: ShellCompletion.databasePath(words: words)) }
    }

    /// Names of medications not stopped (`petlog med give Coco <TAB>`).
    static var medicationNames: CompletionKind {
        .custom { words, _, _ in CompletionNames.medications(databasePath: ShellCompletion.databasePath(words: words)) }
    }
}

enum ShellCompletion {
    /// The database the command being completed would open: `--db X` or `--db=X` among the shell's words
    /// (verbatim words: simple quotes and a leading `~/` are undone), else what `GlobalSettings` resolves.
    static func databasePath(words: [String]) -> String {
        var fromLine: String?
        for (i, w) in words.enumerated() {
            if w == "--" { break }
            if w == "--db", i + 1 < words.count { fromLine = words[i + 1] }
            if w.hasPrefix("--db=") { fromLine = String(w.dropFirst("--db=".count)) }
        }
        if let p = fromLine.map(unquoted), !p.isEmpty { return p }
        return GlobalSettings(config: ConfigFile.load()).resolvedDatabasePath
    }

    /// `'a b'`, `"a b"` and `a\ b` as the shell would pass them; `~/x` in the home folder.
    static func unquoted(_ word: String) -> String {
        var s = word
        if s.count >= 2, let f = s.first, f == s.last, f == "'" || f == "\"" { s = String(s.dropFirst().dropLast()) }
        else { s = s.replacingOccurrences(of: "\\ ", with: " ") }
        if s.hasPrefix("~/") { s = (s as NSString).expandingTildeInPath }
        return s
    }
}
