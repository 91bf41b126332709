import Foundation
import Localization
import PetModel
import PetFiles
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

    typealias Style = TextScreen.Style

    /// The layout of this terminal's lines (`TextScreen`).
    var screen: TextScreen { TextScreen(colors: colors, columns: columns) }

    func styled(_ text: String, _ style: Style) -> String { screen.styled(text, style) }

    func line(_ text: String = "") {
        Terminal.write(text + "\n", to: STDOUT_FILENO)
    }

    /// Lines a presenter laid out (`TextScreen`), each as it is.
    func lines(_ texts: [String]) {
        // One write for all of them, not a system call per line.
        guard !texts.isEmpty else { return }
        var text = ""
        text.reserveCapacity(texts.reduce(0) { $0 + $1.utf8.count + 1 })
        for t in texts { text += t; text += "\n" }
        Terminal.write(text, to: STDOUT_FILENO)
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
        for l in screen.wrapped(text, indent: indent) { line(l) }
    }

    /// A plain aligned table (`TextScreen.table`): a header row, then rows; every cell is sanitized.
    func table(header: [String], rows: [[String]], style: (Int) -> Style? = { _ in nil }) {
        // One write for the whole table (a thousand rows were a thousand system calls).
        var text = ""
        for l in screen.table(header: header, rows: rows, style: style) { text += l; text += "\n" }
        Terminal.write(text, to: STDOUT_FILENO)
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
