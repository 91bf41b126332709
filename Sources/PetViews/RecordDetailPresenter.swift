import Foundation
import Localization
import PetModel
import PetStoreCore

/// `show ID` on screen: one record's header (id, kind, pet, local day and clock, star), then every field of
/// its kind as one labelled line each, then its attachments (position, name, media type, size). Values are
/// worded as the other views word them (ValueFormatter, RecordWording); user text goes through PlainText.
public struct RecordDetailPresenter: ContextPresenter {
    public let context: PresentationContext

    public init(_ context: PresentationContext) { self.context = context }

    /// The labelled fields of `r` in order: (label, value), values already sanitized.
    public func fields(_ r: PetRecord) -> [(String, String)] {
        let clean = PlainText.sanitized
        var out: [(String, String)] = []
        func add(_ label: L10n.Message, _ value: String?) { if let value { out.append((l10n.text(label), value)) } }
        func text(_ label: L10n.Message, _ value: String?) { add(label, value.map(clean)) }
        func flag(_ label: L10n.Message, _ value: Bool) { add(label, l10n.text(value ? .showYes : .showNo)) }
        func day(_ d: LocalDate?) -> String? { d.map { format.longDate($0) } }
        add(.fieldNameKind, wording.kindName(r.kind))
        add(.showPet, clean(r.petName ?? "-"))
        add(.showWhen, when(r.at, utcOffset: r.utcOffset))
        switch r.detail {
        case .weight(let w):
            add(.showWeight, format.mass(w.mass))
            add(.fieldNameBcs, w.bodyCondition.map { String($0) + "/9" })
        case .meal(let m):
            text(.fieldNameFood, m.food)
            add(.showMealType, l10n.code(.mealType, m.type.rawValue))
            add(.fieldNameAmount, m.amount.map(wording.amount))
        case .stool(let s):
            add(.fieldNameScore, String(s.score) + "/7")
            text(.fieldNameColor, s.color.map(wording.colorName))
            flag(.fieldBlood, s.blood)
            flag(.fieldMucus, s.mucus)
        case .urine(let u):
            add(.fieldNameAmount, u.amount.map { l10n.code(.urineAmount, $0.rawValue) })
            text(.fieldNameColor, u.color.map(wording.colorName))
            flag(.fieldStraining, u.straining)
            flag(.fieldBlood, u.blood)
        case .symptom(let s):
            add(.fieldNameSymptom, clean(wording.symptomName(s)))
            add(.fieldNameSeverity, String(s.severity) + "/5")
            add(.fieldNameDurationMinutes, s.durationMinutes.map { format.duration(minutes: $0) })
        case .diary(let d):
            text(.fieldNameTitle, d.title)
            text(.fieldNameDiary, d.text)
            add(.fieldNameMood, d.mood.map { l10n.code(.mood, $0.rawValue) })
        case .visit(let v):
            text(.fieldNameClinic, v.clinic)
            text(.showVet, v.vet)
            text(.fieldNameReason, v.reason)
            text(.fieldNameDiagnosis, v.diagnosis)
            text(.fieldNameTreatment, v.treatment)
            add(.showWeight, v.weight.map(format.mass))
            add(.fieldNameFollowUp, day(v.followUp))
            add(.showCost, v.cost.map(format.money))
        case .vaccination(let v):
            add(.fieldNameVaccine, clean(l10n.code(.vaccine, VaccineName.normalize(v.vaccine))))
            text(.fieldNameProduct, v.product)
            text(.fieldNameLot, v.lot)
            text(.fieldNameClinic, v.clinic)
            add(.fieldNameNext, day(v.nextDue))
        case .medication(let m):
            text(.fieldNameName, m.name)
            text(.fieldNameDose, m.dose)
            add(.fieldNameRoute, m.route.map { l10n.code(.route, $0.rawValue) })
            add(.showInterval, m.intervalSeconds.map(wording.interval))
            add(.showTimes, m.times.isEmpty ? nil : m.times.map { format.clock(hour: $0 / 60, minute: $0 % 60) }.joined(separator: ", "))
            add(.fieldNameUntil, day(m.endsOn))
            add(.showStopped, m.stoppedAt.map { when($0, utcOffset: time.utcOffset(at: $0)) })
        case .dose(let d):
            add(.showMedication, clean(d.medicationName) + " (#\(d.medicationId))")
            flag(.fieldSkipped, d.skipped)
        case .expense(let e):
            add(.showAmountPaid, format.money(e.money))
            add(.fieldNameCategory, clean(l10n.code(.category, e.category)))
            text(.fieldNameMerchant, e.merchant)
            add(.fieldNamePayment, e.payment.map(paymentName))
            add(.fieldNameItems, e.items.isEmpty ? nil : clean(e.items.joined(separator: ", ")))
            add(.showSplitOf, e.splitOf.map { "#\($0)" })
        default:
            // Every kind after the eleven shipped ones: its descriptor's members, with their labels.
            out += memberFields(r.detail)
        }
        text(.fieldNameNote, r.note)
        flag(.showStarred, r.starred)
        add(.showCreated, when(r.createdAt, utcOffset: time.utcOffset(at: r.createdAt)))
        add(.showUpdated, when(r.updatedAt, utcOffset: time.utcOffset(at: r.updatedAt)))
        text(.showWrittenBy, r.writtenBy)
        return out
    }

    /// A later kind's fields (`RecordKindTable.members`): each member its descriptor lists, in its columns'
    /// order, labelled as the descriptor says and worded by what its value is; an empty member is left out.
    public func memberFields(_ detail: RecordDetail) -> [(String, String)] {
        let columns = RecordKindTable.columnValues(detail)
        return (RecordKindTable.of(detail.kind).members ?? []).compactMap { m in
            shown(m, columns).map { (l10n.text(key: m.label) ?? m.label, $0) }
        }
    }

    /// A member's value as `show ID` words it, nil when it has none.
    func shown(_ m: RecordKindTable.JSONField, _ columns: [String: SQLValue]) -> String? {
        let first = columns[m.columns[0]] ?? .null
        switch m.value {
        case .text: return first.text.map(PlainText.sanitized)
        case .day: return first.text.flatMap { LocalDate.parseISO(Substring($0)) }.map { format.longDate($0) }
        case .money:
            guard let minor = first.int, let currency = columns[m.columns[1]]?.text.flatMap(Currency.named) else { return nil }
            return format.money(Money(minorUnits: minor, currency: currency))
        case .codes(let group):
            let codes = first.text.map { $0.split(separator: ",").map(String.init) } ?? []
            guard !codes.isEmpty else { return nil }
            return codes.map { code in L10n.CodeGroup(rawValue: group).map { l10n.code($0, code) } ?? code }.map(PlainText.sanitized).joined(separator: ", ")
        case .meters: return first.int.map { wording.distance(Int($0)) }
        case .minutes: return first.int.map { wording.hoursAndMinutes(Int($0)) }
        }
    }

    /// The lines on screen: `#ID kind` in bold, the fields aligned by display width, then the attachments.
    public func lines(_ r: PetRecord) -> [String] {
        let clean = PlainText.sanitized
        var out = [screen.styled("#\(r.id) " + wording.kindName(r.kind) + (r.starred ? " ★" : ""), .bold)]
        let rows = fields(r)
        let width = rows.map { DisplayColumns.width($0.0) }.max() ?? 0
        for (label, value) in rows {
            out += screen.wrapped("  " + screen.styled(DisplayColumns.pad(label, to: width), .cyan) + "  " + value, indent: 4 + width)
        }
        out.append("")
        if r.attachments.isEmpty {
            out.append(l10n.text(.showNoAttachments))
            return out
        }
        out.append(screen.styled(l10n.text(.showAttachments(count: ValueFormatter.count(r.attachments.count))), .bold))
        for (i, a) in r.attachments.sorted(by: { $0.position < $1.position }).enumerated() {
            let parts = [clean(a.originalName), clean(a.mediaType), l10n.text(.showBytes(count: ValueFormatter.count(a.size)))]
            out += screen.wrapped("  \(i + 1). " + parts.joined(separator: l10n.text(.listSeparator)), indent: 5)
        }
        return out
    }

    /// A local day and clock as `log` shows them: `Nov 25, 2026 Wed 8:00 AM` (offset beside it when it
    /// differs from the viewer's).
    func when(_ at: Date, utcOffset: Int) -> String {
        let day = RecordClock.day(at, utcOffset: utcOffset)
        return "\(format.longDate(day)) \(format.weekday(day)) " + RecordClockText.text(at, utcOffset: utcOffset, format: format, time: time)
    }

    func paymentName(_ p: Payment) -> String {
        switch p {
        case .cash: l10n.text(.paymentCash)
        case .card: l10n.text(.paymentCard)
        case .transfer: l10n.text(.paymentTransfer)
        case .other: l10n.text(.paymentOther)
        }
    }
}
