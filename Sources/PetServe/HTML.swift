/// A piece of HTML. Built only from literal markup written here and from values that went through
/// `HTML.escape`, the one escaping function: a `String` interpolated into an `HTML` literal is escaped, an
/// `HTML` interpolated is kept. So `HTML("<p>\(pet.name)</p>")` can never carry a pet's name as markup,
/// in text or in an attribute's value (attributes are always written in double quotes).
public struct HTML: Sendable, Equatable, ExpressibleByStringInterpolation, CustomStringConvertible {
    public private(set) var raw: String

    public init(stringLiteral value: String) { raw = value }
    public init(stringInterpolation: Interpolation) { raw = stringInterpolation.raw }
    /// Already HTML: only for markup this module wrote itself (a literal, or `HTML` values joined).
    init(trusted: String) { raw = trusted }
    public var description: String { raw }

    /// Text as HTML text or as a double-quoted attribute's value: `&`, `<`, `>`, `"` and `'` as entities;
    /// the bidi overrides and isolates as their numeric references are kept as text (shown, never applied
    /// across the page: each user text sits in a `<bdi>` where it may be mixed with others).
    public static func escape(_ text: String) -> String {
        var out = ""
        out.reserveCapacity(text.utf8.count)
        for s in text.unicodeScalars {
            switch s {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&#39;"
            case "\u{0}": out += "\u{FFFD}"
            default: out.unicodeScalars.append(s)
            }
        }
        return out
    }

    public struct Interpolation: StringInterpolationProtocol {
        var raw = ""
        public init(literalCapacity: Int, interpolationCount: Int) { raw.reserveCapacity(literalCapacity * 2) }
        public mutating func appendLiteral(_ literal: String) { raw += literal }
        public mutating func appendInterpolation(_ text: String) { raw += HTML.escape(text) }
        public mutating func appendInterpolation(_ text: String?) { raw += HTML.escape(text ?? "") }
        public mutating func appendInterpolation(_ html: HTML) { raw += html.raw }
        public mutating func appendInterpolation(_ parts: [HTML]) { raw += parts.map(\.raw).joined() }
        public mutating func appendInterpolation(_ n: Int) { raw += String(n) }
        public mutating func appendInterpolation(_ n: Int64) { raw += String(n) }
    }

    public static func + (a: HTML, b: HTML) -> HTML { HTML(trusted: a.raw + b.raw) }
    public static func += (a: inout HTML, b: HTML) { a.raw += b.raw }
}

extension Array where Element == HTML {
    func joined() -> HTML { HTML(trusted: map(\.raw).joined()) }
}
