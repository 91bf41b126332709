import ArgumentParser
import Localization
import PetModel
import PetReport
import PetStoreCore
import PetTransfer
import PetViews

/// A value an option takes from a fixed list (`--species dog`).
protocol ChoiceValue: CaseIterable, Sendable {
    /// The value a typed word names (any case), if any.
    static func choice(_ raw: String) -> Self?
    /// The word shown in help and completions.
    var choiceName: String { get }
    /// The group its words are read from in any language (`ChoiceWords`: `species` for `고양이`, `猫`, `ねこ`).
    static var wordGroup: String { get }
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

    /// The value named by its code, or by a word of it in any language (`ChoiceWords`), or `unknownChoice`
    /// naming the option and the accepted words.
    func value(_ option: String) throws -> Value {
        try TypedChoice.value(raw, option: option, group: Value.wordGroup, codes: Self.allValueStrings, choice: Value.choice)
    }
}

extension Species: ChoiceValue { static var wordGroup: String { "species" } }
extension ArchiveReason: ChoiceValue { static var wordGroup: String { "archiveReason" } }
extension Mood: ChoiceValue { static var wordGroup: String { "mood" } }
extension UrineAmount: ChoiceValue { static var wordGroup: String { "urineAmount" } }
extension Route: ChoiceValue { static var wordGroup: String { "route" } }
extension Payment: ChoiceValue { static var wordGroup: String { "payment" } }
extension DateOrder: ChoiceValue { static var wordGroup: String { "dateOrder" } }
extension UnitSystem: ChoiceValue { static var wordGroup: String { "units" } }

extension Sex: ChoiceValue {
    /// `f`, `m`, `u` and `?` too.
    static func choice(_ raw: String) -> Sex? { try? Sex.parse(raw) }
    static var wordGroup: String { "sex" }
}

extension MassUnit: ChoiceValue {
    static func choice(_ raw: String) -> MassUnit? { MassUnit(symbol: raw.lowercased()) }
    static var wordGroup: String { "massUnit" }
}

extension Paper: ChoiceValue {
    static func choice(_ raw: String) -> Paper? { allCases.first { $0.choiceName == raw.lowercased() } }
    var choiceName: String { self == .a4 ? "a4" : "letter" }
    static var wordGroup: String { "paper" }
}

/// `chart symptoms --by`: bars coloured by severity, or stacked by symptom.
enum SymptomGrouping: String, ChoiceValue {
    case severity, kind
    static var wordGroup: String { "symptomGrouping" }
}

/// `export --format`.
enum ExportFormat: String, ChoiceValue {
    case json, csv, fhir
    static var wordGroup: String { "exportFormat" }
}

extension RecordKind {
    /// A `--kind` list typed in any language (`체중`, `体重,症状`, `vaccine`).
    static func typedList(_ raw: String) throws -> [RecordKind] {
        try parseList(raw) { ChoiceWords.code($0, group: "kind", codes: RecordKind.allCases.map(\.rawValue)) }
    }
}

