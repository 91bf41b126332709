/// A JSON object's key by its documented name (`pet_id`, `minor_units`): every `--json` view writes its keys
/// with it and the export's reader reads a record's with it (one type; PetViews and the export had one each).
public struct JSONKey: CodingKey, Sendable, Equatable {
    public let stringValue: String
    public init(_ name: String) { stringValue = name }
    public init?(stringValue: String) { self.stringValue = stringValue }
    public var intValue: Int? { nil }
    public init?(intValue: Int) { nil }
}
