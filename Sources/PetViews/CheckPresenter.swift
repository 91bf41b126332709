import Foundation
import PetModel
import Localization
import PetStoreCore

/// What `check` prints: the file and how many problems, the first few (all with `--verbose`), where the
/// rest are, and what `--repair` did with a damaged file.
public struct CheckPresenter {
    /// Problems shown without `--verbose`: a damaged file has hundreds, one line each would bury the summary.
    public static let shown = 5

    let l10n: L10n
    /// The database as the user named it (sanitized here).
    let path: String

    public init(l10n: L10n, path: String) { self.l10n = l10n; self.path = path }

    /// The summary: nothing when all is well.
    public func lines(_ problems: [StoreProblem], verbose: Bool, repairing: Bool) -> [String] {
        guard !problems.isEmpty else { return [] }
        let damaged = problems.contains { $0.kind == .integrity }
        let count = ValueFormatter.count(problems.count)
        var out = [damaged ? l10n.text(.checkDamagedSummary(path: clean(path), count: count)) : l10n.text(.checkSummary(path: clean(path), count: count))]
        let listed = verbose ? problems : Array(problems.prefix(Self.shown))
        out += listed.map { "  " + line($0) }
        if listed.count < problems.count { out.append(l10n.text(.checkMore(count: ValueFormatter.count(problems.count - listed.count)))) }
        if damaged && !repairing { out.append(l10n.text(.checkRepairHint)) }
        return out
    }

    /// The copy `--repair` made of a damaged file, and how to use it or put it in place.
    public func recovered(copy: String, pets: Int, records: Int) -> [String] {
        let aside = path + ".broken"
        let move = "mv \(quoted(path)) \(quoted(aside)) && mv \(quoted(copy)) \(quoted(path)) && petlog --db \(quoted(path)) check"
        return [l10n.text(.checkRecovered(path: clean(path), records: ValueFormatter.count(records), pets: ValueFormatter.count(pets), copy: clean(copy))),
                l10n.text(.checkRecoveredNext(copy: quoted(copy), move: move))]
    }

    /// A damaged file of which nothing can be read: only a backup brings the records back.
    public func nothingReadable() -> String {
        let restore = "mv \(quoted(path)) \(quoted(path + ".broken")) && petlog --db \(quoted(path)) restore BACKUP"
        return l10n.text(.checkNothingReadable(path: clean(path), restore: restore))
    }

    /// One problem: its kind and what it is about, in the session's language (English keeps the codes
    /// and texts `check --json` writes); paths, SQLite's messages and stored values are shown as they are.
    public func line(_ p: StoreProblem) -> String {
        l10n.text(.checkProblemLine(kind: l10n.code(.checkProblem, p.kind.rawValue), detail: clean(p.words.map(words) ?? p.detail)))
    }

    func words(_ w: StoreProblem.Words) -> String {
        switch w {
        case .attachment(let sha): l10n.text(.checkAttachment(sha: sha))
        case .rowsOutOfStep(let table, let count): l10n.text(.checkRowsOutOfStep(table: table, count: String(count)))
        case .foreignKey(let table, let rowid, let parent): l10n.text(.checkForeignKey(table: table, rowid: String(rowid), parent: parent))
        }
    }

    private func clean(_ text: String) -> String { PlainText.sanitized(text) }

    /// A path to paste into a shell, word for word (`ShellWord`: control characters as `$'…'` escapes).
    private func quoted(_ text: String) -> String { ShellWord.quoted(text) }
}
