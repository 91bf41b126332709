import Foundation
import Localization
import PetModel
import PetStore

/// Writing to the terminal: colours only on a TTY, and no control character from user text ever
/// reaches it.
struct Terminal {
    let colors: Bool
    /// The language of the line said when standard output cannot be written.
    let l10n: L10n

    enum Style: String {
        case bold = "1", dim = "2", red = "31", green = "32", yellow = "33", blue = "34", magenta = "35", cyan = "36"
    }

    func styled(_ text: String, _ style: Style) -> String {
        colors ? "\u{1B}[\(style.rawValue)m\(text)\u{1B}[0m" : text
    }

    func line(_ text: String = "") {
        Terminal.write(text + "\n", to: STDOUT_FILENO, l10n: l10n)
    }

    func error(_ text: String) {
        Terminal.write("petlog: " + Terminal.sanitize(text) + "\n", to: STDERR_FILENO)
    }

    /// Checked writes (FileHandle.write traps on a full disk): a stdout that cannot be written (a
    /// redirect to a full disk) ends petlog with one line on stderr and exit 74 (73 for a path that
    /// cannot take it); a failing stderr is ignored.
    static func write(_ text: String, to fd: Int32, l10n: L10n = L10n(.en)) {
        var bytes = Array(text.utf8)
        var offset = 0
        while offset < bytes.count {
            // safe: the loop runs only while offset < bytes.count, so the buffer is not empty and has an address.
            let n = bytes.withUnsafeMutableBytes { Foundation.write(fd, $0.baseAddress! + offset, $0.count - offset) }
            if n < 0 {
                let code = errno
                if code == EINTR { continue }
                guard fd == STDOUT_FILENO else { return }
                let failure = Failure(OutputError(path: OutputFile.standardOutput, cause: OutputError.Cause(errno: code)))
                write("petlog: " + failure.message(l10n) + "\n", to: STDERR_FILENO)
                exit(failure.exitCode)
            }
            offset += n
        }
        bytes.removeAll()
    }

    /// Replaces control characters (C0, C1, DEL, bidi overrides, line separators) so user text cannot
    /// move the cursor, recolour, retitle or reorder the terminal; newlines and tabs become spaces.
    static func sanitize(_ text: String) -> String { PlainText.sanitized(text) }

    /// Display width: East Asian wide characters take two columns.
    static func width(_ text: String) -> Int {
        text.unicodeScalars.reduce(0) { w, s in
            let v = s.value
            if s.properties.generalCategory == .nonspacingMark || v == 0x200D || (0xFE00...0xFE0F).contains(v) { return w }
            let wide = (0x1100...0x115F).contains(v) || (0x2E80...0xA4CF).contains(v) || (0xAC00...0xD7A3).contains(v) ||
                (0xF900...0xFAFF).contains(v) || (0xFE30...0xFE4F).contains(v) || (0xFF00...0xFF60).contains(v) ||
                (0xFFE0...0xFFE6).contains(v) || (0x1F300...0x1FAFF).contains(v) || (0x20000...0x3FFFD).contains(v)
            return w + (wide ? 2 : 1)
        }
    }

    static func pad(_ text: String, to width: Int) -> String {
        text + String(repeating: " ", count: max(0, width - Terminal.width(text)))
    }

    /// A plain aligned table: a header row, then rows; every cell is sanitized.
    func table(header: [String], rows: [[String]]) {
        let clean = rows.map { $0.map(Terminal.sanitize) }
        var widths = header.map(Terminal.width)
        for r in clean { for (i, c) in r.enumerated() where i < widths.count { widths[i] = max(widths[i], Terminal.width(c)) } }
        let head = header.enumerated().map { i, h in i == header.count - 1 ? h : Terminal.pad(h, to: widths[i]) }.joined(separator: "  ")
        line(styled(head, .bold))
        for r in clean {
            line(r.enumerated().map { i, c in i == r.count - 1 ? c : Terminal.pad(c, to: widths[i]) }.joined(separator: "  "))
        }
    }

    /// Writes a JSON value with sorted keys, the stable machine format of every read command.
    func json(_ value: Any) {
        guard let data = try? JSONSerialization.data(withJSONObject: value, options: [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]) else { return }
        Terminal.write(Terminal.escapingC1AndBidi(String(decoding: data, as: UTF8.self)) + "\n", to: STDOUT_FILENO, l10n: l10n)
    }

    /// JSONSerialization escapes C0 controls only; C1 controls (U+009B is CSI to many terminals), line
    /// separators and bidi overrides are written as `\uXXXX` too, so `--json` on a terminal is as safe as
    /// the tables and still decodes to exactly the stored text. Outside strings JSON is ASCII, so this
    /// only ever touches string contents.
    static func escapingC1AndBidi(_ json: String) -> String {
        var out = String.UnicodeScalarView()
        for s in json.unicodeScalars {
            switch s.value {
            case 0x7F...0x9F, 0x2028, 0x2029, 0x202A...0x202E, 0x2066...0x2069:
                out.append(contentsOf: String(format: "\\u%04x", s.value).unicodeScalars)
            default: out.append(s)
            }
        }
        return String(out)
    }
}
