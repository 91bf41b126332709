import Foundation
import Localization
import PetModel
import PetStore
import PetViews
import Synchronization

/// Writing to the terminal: colours only on a TTY, no control character from user text ever
/// reaches it, and every line laid out fits `columns` display columns.
struct Terminal {
    let colors: Bool
    /// The width every layout fits (`Terminal.screenColumns()`).
    var columns: Int = Terminal.screenColumns()

    /// The one width source: the terminal's own width when standard output is one (TIOCGWINSZ), else
    /// `COLUMNS` when it is a positive number, else 80.
    static func screenColumns() -> Int {
        if isatty(STDOUT_FILENO) == 1 {
            var size = winsize()
            if ioctl(STDOUT_FILENO, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0 { return Int(size.ws_col) }
        }
        if let text = ProcessInfo.processInfo.environment["COLUMNS"], let n = Int(text.trimmingCharacters(in: .whitespaces)), n > 0 {
            return n
        }
        return 80
    }

    enum Style: String {
        case bold = "1", dim = "2", red = "31", green = "32", yellow = "33", blue = "34", magenta = "35", cyan = "36"
    }

    func styled(_ text: String, _ style: Style) -> String {
        colors ? "\u{1B}[\(style.rawValue)m\(text)\u{1B}[0m" : text
    }

    func line(_ text: String = "") {
        Terminal.write(text + "\n", to: STDOUT_FILENO)
    }

    func error(_ text: String) {
        Terminal.write("petlog: " + Terminal.sanitize(text) + "\n", to: STDERR_FILENO)
    }

    /// Checked writes (FileHandle.write traps on a full disk). A standard output that cannot be written
    /// (a redirect to a full disk) is kept as `StandardOutput.failure`: nothing more is written to it, and
    /// `Session.run` (or `Petlog.exit` for help) throws it, so that it ends petlog the way every failure
    /// does, as one line on stderr and exit 74 (73 for a path that cannot take it). A failing stderr is ignored.
    static func write(_ text: String, to fd: Int32) {
        if fd == STDOUT_FILENO && StandardOutput.failed != nil { return }
        var bytes = Array(text.utf8)
        var offset = 0
        while offset < bytes.count {
            // safe: the loop runs only while offset < bytes.count, so the buffer is not empty and has an address.
            let n = bytes.withUnsafeMutableBytes { Foundation.write(fd, $0.baseAddress! + offset, $0.count - offset) }
            if n < 0 {
                let code = errno
                if code == EINTR { continue }
                if fd == STDOUT_FILENO { StandardOutput.fail(OutputError(path: OutputFile.standardOutput, cause: OutputError.Cause(errno: code))) }
                return
            }
            offset += n
        }
        bytes.removeAll()
    }

    /// Replaces control characters (C0, C1, DEL, bidi overrides, line separators) so user text cannot
    /// move the cursor, recolour, retitle or reorder the terminal; newlines and tabs become spaces.
    static func sanitize(_ text: String) -> String { PlainText.sanitized(text) }

    /// Display width: East Asian wide characters take two columns (`DisplayColumns`).
    static func width(_ text: String) -> Int { DisplayColumns.width(text) }

    static func pad(_ text: String, to width: Int) -> String { DisplayColumns.pad(text, to: width) }

    /// A text wrapped to the terminal's width; lines after the first are indented by `indent`.
    func wrapped(_ text: String, indent: Int = 0) {
        for l in DisplayColumns.wrap(text, columns: columns, indent: indent) { line(l) }
    }

    /// A plain aligned table: a header row, then rows; every cell is sanitized. When the columns do not
    /// fit the terminal, each row is its first cell on a line and the others below it (the header
    /// says their order), so nothing wraps in the middle of a column.
    /// `style(row)`: a colour for a whole row (an overdue item), or nil.
    func table(header: [String], rows: [[String]], style: (Int) -> Style? = { _ in nil }) {
        let clean = rows.map { $0.map(Terminal.sanitize) }
        var widths = header.map(Terminal.width)
        for r in clean { for (i, c) in r.enumerated() where i < widths.count { widths[i] = max(widths[i], Terminal.width(c)) } }
        let total = widths.dropLast().reduce(0) { $0 + $1 + 2 } + (widths.last ?? 0)
        if total > columns && header.count > 1 {
            line(styled(header[0], .bold))
            for l in DisplayColumns.pack(Array(header.dropFirst()), separator: " · ", columns: columns - 2) { line(styled("  " + l, .bold)) }
            for (i, r) in clean.enumerated() {
                let rest = r.dropFirst().map { $0.trimmingCharacters(in: .whitespaces).isEmpty ? "-" : $0 }
                // The other cells two columns in from the first cell's own indentation (stats' sub-rows).
                let margin = (r.first ?? "").prefix(while: { $0 == " " }).count + 2
                let below = DisplayColumns.pack(Array(rest), separator: " · ", columns: columns - margin)
                for l in DisplayColumns.wrap(r.first ?? "", columns: columns, indent: margin) + below.map({ String(repeating: " ", count: margin) + $0 }) {
                    line(style(i).map { styled(l, $0) } ?? l)
                }
            }
            return
        }
        let head = header.enumerated().map { i, h in i == header.count - 1 ? h : Terminal.pad(h, to: widths[i]) }.joined(separator: "  ")
        line(styled(head, .bold))
        for (n, r) in clean.enumerated() {
            let l = r.enumerated().map { i, c in i == r.count - 1 ? c : Terminal.pad(c, to: widths[i]) }.joined(separator: "  ")
            line(style(n).map { styled(l, $0) } ?? l)
        }
    }

    /// Writes a `--json` view (`JSONView`, the stable machine format of every read command).
    func json<View: Encodable>(_ view: View) throws {
        Terminal.write(try JSONView.text(view) + "\n", to: STDOUT_FILENO)
    }
}

/// Standard output's first failed write, if any: kept (instead of ending the process where it
/// happened) for the one place that turns failures into a line and an exit code.
enum StandardOutput {
    private static let failure = Mutex<OutputError?>(nil)

    static var failed: OutputError? { failure.withLock { $0 } }

    static func fail(_ error: OutputError) {
        failure.withLock { if $0 == nil { $0 = error } }
    }

    /// Throws the failed write, if there was one.
    static func check() throws {
        if let failed { throw failed }
    }
}
