import PetModel

/// Field validators used by several commands.
enum PetModelText {
    static func note(_ raw: String) throws -> String { try TextField.text(raw, field: "note") }

    static func pets(_ raw: String) -> [PetRef] {
        raw.split(separator: ",").map { PetRef(String($0).trimmingCharacters(in: .whitespaces)) }
    }
}
