import Foundation
import PetModel
import Localization
import PetStoreCore

/// What `check` prints: the file and how many problems, the first few (all with `--verbose`), where the
/// rest are, and what `--repair` did with a damaged file.
struct CheckPresenter {
    /// Problems shown without `--verbose`: a damaged file has hundreds, one line each would bury the summary.
    static let shown = 5

    let l10n: L10n
    /// The database as the user named it (sanitized here).
    let path: String

    /// The summary: nothing when all is well.
    func lines(_ problems: [StoreProblem], verbose: Bool, repairing: Bool) -> [String] {
        guard !problems.isEmpty else { return [] }
        let damaged = problems.contains { $0.kind == .integrity }
        let count = Display.count(problems.count)
        var out = [damaged ? l10n.text(.checkDamagedSummary(path: clean(path), count: count)) : l10n.text(.checkSummary(path: clean(path), count: count))]
        let listed = verbose ? problems : Array(problems.prefix(Self.shown))
        out += listed.map { "  " + $0.kind.rawValue + ": " + clean($0.detail) }
        if listed.count < problems.count { out.append(l10n.text(.checkMore(count: Display.count(problems.count - listed.count)))) }
        if damaged && !repairing { out.append(l10n.text(.checkRepairHint)) }
        return out
    }

    /// The copy `--repair` made of a damaged file, and how to use it or put it in place.
    func recovered(copy: String, pets: Int, records: Int) -> [String] {
        let aside = path + ".broken"
        let move = "mv \(quoted(path)) \(quoted(aside)) && mv \(quoted(copy)) \(quoted(path)) && petlog --db \(quoted(path)) check"
        return [l10n.text(.checkRecovered(path: clean(path), records: Display.count(records), pets: Display.count(pets), copy: clean(copy))),
                l10n.text(.checkRecoveredNext(copy: quoted(copy), move: move))]
    }

    /// A damaged file of which nothing can be read: only a backup brings the records back.
    func nothingReadable() -> String {
        let restore = "mv \(quoted(path)) \(quoted(path + ".broken")) && petlog --db \(quoted(path)) restore BACKUP"
        return l10n.text(.checkNothingReadable(path: clean(path), restore: restore))
    }

    private func clean(_ text: String) -> String { Terminal.sanitize(text) }

    /// A path to paste into a shell, word for word (`ShellWord`: control characters as `$'…'` escapes).
    private func quoted(_ text: String) -> String { ShellWord.quoted(text) }
}
