/// A clinical scale with a fixed range of whole numbers (faecal score 1–7, body condition 1–9,
/// symptom severity 1–5). The range is said once, here: the CLI parses through `Score.parse`, the
/// importers check through `Score.init(_:)`, the stored rows decode through it, and both schemas'
/// CHECK constraints are written from `range`.
public protocol ScoreScale: Sendable {
    static var range: ClosedRange<Int> { get }
}

/// A value on `Scale`; there is no way to make one outside the scale's range.
public struct Score<Scale: ScoreScale>: Hashable, Comparable, Sendable, CustomStringConvertible {
    public let value: Int

    /// nil outside `Scale.range`.
    public init?(_ value: Int) {
        guard Scale.range.contains(value) else { return nil }
        self.value = value
    }

    /// As `init?`, for a number already read from some input: outside the range is
    /// `ParseError.outOfRange` naming `field` (the option or column the user wrote).
    public init(_ value: Int, field: String) throws {
        guard let score = Self(value) else { throw Self.outOfRange(field: field, value: String(value)) }
        self = score
    }

    /// A whole number typed by the user (full-width digits `３` are the same digits); anything else,
    /// or a number outside the range, is `ParseError.outOfRange` naming `field` and quoting `raw`.
    public static func parse(_ raw: String, field: String) throws -> Self {
        let text = raw.precomposedStringWithCompatibilityMapping.trimmingCharacters(in: .whitespaces)
        guard text.count <= 6, let v = Int(text), text.allSatisfy({ $0.isASCII && ($0.isNumber || $0 == "-") }),
              let score = Self(v) else {
            throw outOfRange(field: field, value: raw)
        }
        return score
    }

    public static var range: ClosedRange<Int> { Scale.range }
    /// The nearest value on the scale (a generated value, never user input: that is refused, not moved).
    public init(clamping value: Int) { self.value = min(max(value, Scale.range.lowerBound), Scale.range.upperBound) }

    /// The bottom of the scale, which every scale has.
    public static var lowest: Self { Self(uncheckedValue: Scale.range.lowerBound) }
    private init(uncheckedValue: Int) { value = uncheckedValue }
    public static var all: [Self] { Scale.range.compactMap(Self.init) }

    static func outOfRange(field: String, value: String) -> ParseError {
        .outOfRange(field: field, value: value, min: Scale.range.lowerBound, max: Scale.range.upperBound)
    }

    public static func < (a: Self, b: Self) -> Bool { a.value < b.value }
    public var description: String { String(value) }
}

/// The faecal score of a stool: 1 (hard) – 7 (watery).
public enum FaecalScale: ScoreScale { public static let range = 1...7 }
/// The WSAVA body condition score: 1 (emaciated) – 9 (obese).
public enum BodyConditionScale: ScoreScale { public static let range = 1...9 }
/// How bad a symptom was: 1 (mild) – 5 (severe).
public enum SeverityScale: ScoreScale { public static let range = 1...5 }

public typealias StoolScore = Score<FaecalScale>
public typealias BodyConditionScore = Score<BodyConditionScale>
public typealias SymptomSeverity = Score<SeverityScale>
