import PetModel

/// Field validators used by several commands.
enum PetModelText {
    static func note(_ raw: String) throws -> String { try TextField.text(raw, field: "note") }

    /// A whole number in `range`; full-width digits (`３`) are the same digits.
    static func int(_ raw: String, field: String, range: ClosedRange<Int>) throws -> Int {
        let text = raw.precomposedStringWithCompatibilityMapping.trimmingCharacters(in: .whitespaces)
        guard text.count <= 6, let v = Int(text), text.allSatisfy({ $0.isASCII && ($0.isNumber || $0 == "-") }) else {
            throw ParseError.outOfRange(field: field, value: raw, min: range.lowerBound, max: range.upperBound)
        }
        guard range.contains(v) else {
            throw ParseError.outOfRange(field: field, value: raw, min: range.lowerBound, max: range.upperBound)
        }
        return v
    }

    static func pets(_ raw: String) -> [PetRef] {
        raw.split(separator: ",").map { PetRef(String($0).trimmingCharacters(in: .whitespaces)) }
    }
}
