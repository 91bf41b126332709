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
        let value: String
        switch detail {
        case .weight(let w): value = String(w.mass.grams)
        case .meal(let m): value = m.food + "|" + m.type.rawValue
        case .stool(let s): value = String(s.score)
        case .urine(let u): value = u.amount?.rawValue ?? ""
        case .symptom(let s): value = s.code
        case .diary(let d): value = d.text
        case .visit(let v): value = (v.reason ?? "") + "|" + (v.clinic ?? "")
        case .vaccination(let v): value = v.vaccine
        case .medication(let m): value = m.name
        case .dose(let d): value = String(d.medicationId)
        case .expense(let e): value = "\(e.money.minorUnits)|\(e.money.currency.code)|\(e.category)"
        }
        self.init(pet: pet, kind: detail.kind, at: at, value: value)
    }

    /// The same value in SQL over `d` (the detail row).
    static func valueSQL(_ kind: RecordKind) -> String { RecordKindTable.of(kind).duplicateValue }
}
