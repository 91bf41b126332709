import Foundation
import PetModel

/// What the plausibility warnings (`Plausibility`) compare a new record with, read through the record
/// protocols so that every store answers the same.
extension RecordsRepository {
    /// The pet's weight just before `record` (a weight) within `window`: the latest earlier one, the record
    /// itself left out (it is the last of its second: the newest id).
    public func weightBefore(_ record: PetRecord, mass: Mass, within window: TimeInterval) throws -> (at: Date, mass: Mass)? {
        guard let petId = record.petId else { return nil }
        let series = try weightSeries(pet: petId, since: record.at.addingTimeInterval(-window), until: record.at.addingTimeInterval(1))
        var points = Array(zip(series.times, series.grams))
        if let i = points.lastIndex(where: { Int64($0.0) == record.at.unixSeconds() && Int($0.1) == mass.grams }) { points.remove(at: i) }
        return points.last.map { (Date(timeIntervalSince1970: $0.0), Mass(grams: Int($0.1))) }
    }

    /// The pet's last weight at or before `moment` (what a meal's size is weighed against), if any.
    public func weightAtOrBefore(pet petId: Int64, _ moment: Date) throws -> Mass? {
        try lastWeights(pets: [.id(petId)], since: Date(timeIntervalSince1970: -62_135_596_800), until: moment.addingTimeInterval(1))[petId]?.mass
    }
}
