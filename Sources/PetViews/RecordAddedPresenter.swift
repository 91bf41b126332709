import Foundation
import Localization
import PetModel
import PetStoreCore

/// What is said after records are logged: one line per record (id, kind, pet, summary, and an aside such as
/// the unit a bare number was taken in), and one warning per value that looks like a typo (`Plausibility`:
/// a weight far from the pet's last, a meal too large for its weight), which keeps the record.
public struct RecordAddedPresenter {
    public let context: PresentationContext

    public init(_ context: PresentationContext) { self.context = context }

    func t(_ m: L10n.Message) -> String { context.t(m) }

    /// The lines after records are logged, each with its own aside (already localized).
    public func lines(_ records: [PetRecord], aside: (PetRecord) -> String?) -> [String] {
        let wording = context.wording
        return records.map { r in
            t(.recordAdded(id: String(r.id), kind: wording.kindName(r.kind), pet: r.petName.map(PlainText.sanitized) ?? t(.expenseHousehold),
                           summary: PlainText.sanitized(wording.summary(r)))) + (aside(r) ?? "")
        }
    }

    /// The warnings for standard error, read from the pets' earlier weights in `store`.
    public func warnings(_ records: [PetRecord], store: any RecordsRepository) throws -> [String] {
        let format = context.format
        var out: [String] = []
        for r in records {
            guard let petId = r.petId else { continue }
            let name = PlainText.sanitized(r.petName ?? "-")
            switch r.detail {
            case .weight(let w):
                let previous = try store.weightBefore(r, mass: w.mass, within: Plausibility.weightWindow)
                if let change = Plausibility.weightJump(w.mass, at: r.at, previous: previous), let p = previous {
                    out.append(t(.warnWeightJump(mass: format.mass(w.mass), change: format.massChange(change), pet: name,
                                                 previous: format.mass(p.mass), day: format.shortDay(context.time.localDate(of: p.at)), id: String(r.id))))
                }
            case .meal(let m):
                guard let amount = m.amount else { continue }
                let weight = try store.weightAtOrBefore(pet: petId, r.at)
                if Plausibility.mealTooLarge(amount, petWeight: weight) {
                    out.append(t(.warnMealLarge(amount: context.wording.amount(amount), pet: name, id: String(r.id))))
                }
            default: break
            }
        }
        return out
    }
}
