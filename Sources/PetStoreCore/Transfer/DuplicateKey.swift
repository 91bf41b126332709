import Foundation
import PetModel

/// When two records are the same one: pet, kind, instant and the kind's main value.
struct DuplicateKey: Hashable {
    var pet: Int64
    var kind: RecordKind
    var at: Int64
    var value: String

    init(pet: Int64, kind: RecordKind, at: Int64, value: String) {
        self.pet = pet; self.kind = kind; self.at = at; self.value = value
    }

    init(pet: Int64, at: Int64, detail: RecordDetail) {
        self.init(pet: pet, kind: detail.kind, at: at, value: RecordDetailTables.duplicateValue(detail))
    }

    /// The same value in SQL over `d` (the detail row).
    static func valueSQL(_ kind: RecordKind) -> String { RecordKindTable.of(kind).duplicateValue }
}
