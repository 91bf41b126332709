import PetModel
import PetViews

/// Field validators used by several commands.
enum PetModelText {
    static func note(_ raw: String) throws -> String { try RecordEntry.note(raw) }

    static func pets(_ raw: String) -> [PetRef] {
        raw.split(separator: ",").map { PetRef(String($0).trimmingCharacters(in: .whitespaces)) }
    }
}
