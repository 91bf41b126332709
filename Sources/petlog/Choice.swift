import ArgumentParser
import PetModel
import PetReport
import PetStoreCore

/// A value an option takes from a fixed list (`--species dog`).
protocol ChoiceValue: CaseIterable, Sendable {
    /// The value a typed word names (any case), if any.
    static func choice(_ raw: String) -> Self?
    /// The word shown in help and completions.
    var choiceName: String { get }
}

extension ChoiceValue where Self: RawRepresentable, RawValue == String {
    static func choice(_ raw: String) -> Self? { Self(rawValue: raw.lowercased()) }
    var choiceName: String { rawValue }
}

/// An option typed by its list of values: argument-parser shows them in `--help` and offers them to
/// shell completion, while a word outside the list is refused by petlog itself when the command
/// reads it (`value(_:)`), in the user's language with exit 65, like every other bad value.
struct Choice<Value: ChoiceValue>: ExpressibleByArgument, Sendable {
    let raw: String

    init?(argument: String) { raw = argument }
    init(_ value: Value) { raw = value.choiceName }

    static var allValueStrings: [String] { Value.allCases.map(\.choiceName) }
    static var defaultCompletionKind: CompletionKind { .list(allValueStrings) }
    var defaultValueDescription: String { raw }

    /// The value, or `unknownChoice` naming the option and the accepted words.
    func value(_ option: String) throws -> Value {
        guard let v = Value.choice(raw) else {
            throw ParseError.unknownChoice(field: option, value: raw, accepted: Self.allValueStrings)
        }
        return v
    }
}

extension Species: ChoiceValue {}
extension ArchiveReason: ChoiceValue {}
extension Mood: ChoiceValue {}
extension UrineAmount: ChoiceValue {}
extension Route: ChoiceValue {}
extension Payment: ChoiceValue {}
extension DateOrder: ChoiceValue {}
extension UnitSystem: ChoiceValue {}

extension Sex: ChoiceValue {
    /// `f`, `m`, `u` and `?` too.
    static func choice(_ raw: String) -> Sex? { try? Sex.parse(raw) }
}

extension MassUnit: ChoiceValue {
    static func choice(_ raw: String) -> MassUnit? { MassUnit(symbol: raw.lowercased()) }
}

extension Paper: ChoiceValue {
    static func choice(_ raw: String) -> Paper? { allCases.first { $0.choiceName == raw.lowercased() } }
    var choiceName: String { self == .a4 ? "a4" : "letter" }
}

/// `chart symptoms --by`: bars coloured by severity, or stacked by symptom.
enum SymptomGrouping: String, ChoiceValue { case severity, kind }

/// `export --format`.
enum ExportFormat: String, ChoiceValue { case json, csv, fhir }
