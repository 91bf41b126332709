import Foundation
import Localization
import PetModel
import PetReport
import PetStoreCore

/// The pet's printable documents, built the one way `petlog report`, `petlog card` and `petlog serve`
/// (`/pets/ID/report.pdf`, `/pets/ID/card.pdf`) share: which records are read, the period, who kept them,
/// the visit costs in one currency, the current medications, the profile photo. The caller renders the
/// result (`ReportRenderer`, `CardRenderer`) to a file of its choosing.
public struct PetDocuments {
    public let store: any PetlogStore
    public let context: PresentationContext

    public init(store: any PetlogStore, context: PresentationContext) {
        self.store = store; self.context = context
    }

    /// `report`'s document. `since`: the period (`90d`, `2026-04-01`); `date`: the report's "today" (ages,
    /// alerts, current medications and the period count from the end of that day; nothing after it is shown);
    /// `generated`: the day printed when no `date` is given. `scratch` hands out a private folder for a store
    /// that keeps no files of its own (its photos are written there while the document is drawn).
    public func vetReport(pet ref: PetRef, since: String, date: String?, generated: LocalDate, questions: [String], currency: Currency,
                          paper: Paper, scratch: @escaping () throws -> String) throws -> ReportDocument {
        let time = context.time
        var generated = generated
        var asOf = time
        if let d = date {
            generated = try TimeParser.day(d, context: time)
            if generated != time.today {
                asOf = TimeContext(now: time.startOfDay(generated.adding(days: 1)).addingTimeInterval(-1), timeZone: time.timeZone)
            }
        }
        let periodStart = try TimeParser.since(since, context: asOf)
        // A named day (`--since 2026-04-01`) starts the period on each record's own local day.
        let periodFirstDay = try TimeWindow(since: since, until: nil, context: asOf).days?.first
        let p = try store.pet(ref)
        let weights = try store.weightSeries(pet: p.id, since: nil, until: nil)
        let records = try store.records(RecordQuery(pets: [.id(p.id)]))
        // On a server, who kept the period's records (the roles that wrote them, most first).
        var writers: [String: Int] = [:]
        for r in records where (periodFirstDay.map { r.localDay >= $0 } ?? (r.at >= periodStart)) && r.at <= asOf.now { if let by = r.writtenBy { writers[by, default: 0] += 1 } }
        let keptBy = writers.sorted { $0.value != $1.value ? $0.value > $1.value : $0.key < $1.key }.map { (name: $0.key, records: $0.value) }
        let facts = VisitReportFacts(pet: p, records: records, weightTimes: weights.times,
                                     weightGrams: weights.grams, periodStart: periodStart, periodFirstDay: periodFirstDay, schedule: .shipped, context: asOf,
                                     weekStartsOnSunday: context.weekStartsOnSunday)
        // The period's visit costs in the home currency, each at its own day's rate.
        let costs = facts.periodVisitCosts
        let currencies = Set(costs.map(\.cost.currency.code) + [currency.code])
        let rates = currencies.count > 1 && !costs.isEmpty
            ? try store.rateTable(currencies: currencies.sorted(), from: costs.map(\.day).min(), through: costs.map(\.day).max())
            : RateTable([])
        let store = self.store
        return VetReportComposer(format: context.format, labels: labels, facts: facts, generated: generated, questions: questions,
                                 costTotal: facts.costTotal(in: currency, rates: rates),
                                 attachmentPath: { store.readableAttachment(sha256: $0.sha256, scratch: scratch) }, keptBy: keptBy,
                                 profilePhotoPath: profilePhotoPath(p, scratch: scratch)).document(paper: paper)
    }

    /// `card`'s card: the pet and its current medications as `med list` shows them (courses not stopped and
    /// not ended), the age counted to `today`, the profile photo on the front.
    public func emergencyCard(pet ref: PetRef, today: LocalDate, scratch: @escaping () throws -> String) throws -> (pet: Pet, card: EmergencyCard) {
        let time = context.time
        let p = try store.pet(ref)
        let medications = try store.medications(pets: [.id(p.id)], includeStopped: false)
            .map(\.medication).filter { CareAgenda.isActive($0, at: time.now, context: time) }
        var card = EmergencyCardComposer(format: context.format, wording: context.wording, pet: p, medications: medications, today: today).card()
        card.photoPath = profilePhotoPath(p, scratch: scratch)
        return (p, card)
    }

    /// Axis labels and symptom bars in the context's language.
    public var labels: ChartLabels { ChartLabels(format: context.format, wording: context.wording, timeZone: context.time.timeZone) }

    /// The pet's profile photo written into the private folder `scratch` hands out (nil: none, or not written).
    func profilePhotoPath(_ p: Pet, scratch: @escaping () throws -> String) -> String? {
        guard p.photo != nil, let photo = try? store.petPhoto(id: p.id), let folder = try? scratch() else { return nil }
        let path = folder + "/profile-photo-\(p.id)"
        guard FileManager.default.createFile(atPath: path, contents: photo.data, attributes: [.posixPermissions: 0o600]) else { return nil }
        return path
    }
}

/// A private (0700) temporary folder made on first use (a server's attachment files while a report is
/// drawn); removed with this object.
public final class ScratchFolder {
    private var made: String?

    public init() {}

    public func path() throws -> String {
        if let made { return made }
        let path = NSTemporaryDirectory() + "petlog-attachments-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        made = path
        return path
    }

    deinit { if let made { try? FileManager.default.removeItem(atPath: made) } }
}
