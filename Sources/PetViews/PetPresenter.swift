import Foundation
import Localization
import PetModel
import PetStoreCore

/// Pets and their medications on screen: `pet list`'s table, `pet show`'s labelled profile, `med list`'s
/// courses with adherence and the last and next doses. User text is sanitized on its way to the screen.
public struct PetPresenter {
    public let context: PresentationContext

    public init(_ context: PresentationContext) { self.context = context }

    func t(_ m: L10n.Message) -> String { context.t(m) }
    var format: ValueFormatter { context.format }
    var wording: RecordWording { context.wording }
    var time: TimeContext { context.time }

    /// `2026-11-20 08:30` in the viewer's zone.
    public func dateTime(_ date: Date) -> String {
        let c = time.clock(of: date)
        return "\(time.localDate(of: date)) " + format.clock(hour: c.hour, minute: c.minute)
    }

    /// `pet list`: id, name, species, breed, sex, age, and why an archived pet was archived.
    public func list(_ pets: [Pet]) -> [String] {
        if pets.isEmpty { return [t(.petNone)] }
        return context.screen.table(
            header: [t(.colId), t(.colName), t(.colSpecies), t(.colBreed), t(.colSex), t(.colAge), t(.colStatus)],
            rows: pets.map { p in
                [String(p.id), p.name, wording.speciesName(p.species), p.breed ?? "", wording.sexLabel(p), format.age(months: p.ageInMonths(on: time.today)),
                 p.archiveReason.map { context.l10n.code(.archiveReason, $0.rawValue) } ?? ""]
            })
    }

    /// `pet show`: the name and id, then one labelled line per fact given, the labels aligned.
    public func profile(_ p: Pet, latestWeight: PetRecord?, medications meds: [MedicationCourse], records counts: Int) -> [String] {
        let h = p.health
        var rows: [(L10n.Message, String?)] = [
            (.colSpecies, wording.speciesName(p.species)), (.colBreed, p.breed), (.colSex, wording.sexLabel(p)),
            (.colBorn, p.born.map { "\($0) (\(format.age(months: p.ageInMonths(on: time.today))))" }), (.colMicrochip, p.microchip), (.colColor, p.color),
        ]
        // The health facts, each contact a line of its own; only those given (their labels then
        // count for the column's width, so a pet without them shows as before).
        if !h.allergies.isEmpty { rows.append((.colAllergies, h.allergies.joined(separator: ", "))) }
        if !h.conditions.isEmpty { rows.append((.colConditions, h.conditions.joined(separator: ", "))) }
        for c in h.emergencyContacts { rows.append((.colEmergencyContact, c.text)) }
        if let v = h.vetContact { rows.append((.colVetContact, v.text)) }
        if let i = h.insurance { rows.append((.colInsurance, i.text)) }
        rows += [
            (.colNotes, p.notes),
            (.colPhoto, p.photo.map { "\($0.mediaType), " + ($0.size < 1_048_576 ? "\(($0.size + 1023) / 1024) KiB" : String(format: "%.1f MiB", Double($0.size) / 1_048_576)) }),
            (.colStatus, p.archiveReason.map { context.l10n.code(.archiveReason, $0.rawValue) + " " + (p.archivedOn?.description ?? "") }),
            (.colLatestWeight, latestWeight.map { wording.summary($0) + " (" + time.localDate(of: $0.at).description + ")" }),
            (.colMedications, meds.isEmpty ? nil : meds.map { [$0.medication.name, $0.medication.dose].compactMap { $0 }.joined(separator: " ") }.joined(separator: ", ")),
            (.colRecords, String(counts)),
        ]
        var out = [context.screen.styled(PlainText.sanitized(p.name), .bold) + "  #\(p.id)"]
        let labelWidth = rows.map { DisplayColumns.width(t($0.0)) }.max() ?? 0
        for (k, v) in rows { if let v { out.append("  " + DisplayColumns.pad(t(k), to: labelWidth) + "  " + PlainText.sanitized(v)) } }
        return out
    }

    /// `med list`: one row per course with its timetable (`CareAgenda.timetable`), stopped or ended courses marked.
    public func medications(_ courses: [MedicationCourse], timetables tables: [MedicationTimetable]) -> [String] {
        if courses.isEmpty { return [t(.medNone)] }
        return context.screen.table(
            header: [t(.colId), t(.colPet), t(.colMedication), t(.colDose), t(.colEvery), t(.colStarted),
                     t(.colAdherence), t(.colLastDose), t(.colNextDose)],
            rows: zip(courses, tables).map { c, tt in
                let m = c.medication
                return [String(c.record.id), c.record.petName ?? "", m.name + (m.stoppedAt != nil ? " (" + t(.fieldStoppedShort) + ")"
                           : CareAgenda.isActive(m, at: time.now, context: time) ? "" : " (" + t(.fieldEndedShort) + ")"),
                        m.dose ?? "", wording.everyText(m), time.localDate(of: c.record.at).description, wording.adherenceText(tt, dosesGiven: c.dosesGiven),
                        c.lastDose.map(dateTime) ?? "-", tt.next.map(dateTime) ?? "-"]
            })
    }

    /// `due`: when, pet, what, the due day (or instant) and when it was last done; overdue rows red.
    public func due(_ items: [DueItem], days: Span) -> [String] {
        if items.isEmpty { return [t(.dueNothing(days: String(days.approximateSeconds / 86_400)))] }
        let rows = items.map { i -> [String] in
            [wording.dueWhen(i), i.petName, wording.dueWhat(i), i.dueAt.map(dateTime) ?? i.dueDay.description, i.lastDoneDay(time)?.description ?? "-"]
        }
        return context.screen.table(header: [t(.colWhen), t(.colPet), t(.colWhat), t(.colDue), t(.colLast)], rows: rows) { items[$0].isOverdue(time) ? .red : nil }
    }

    /// `search`'s pets whose profile matches, above the records: name and id, species, breed, notes.
    public func searchPets(_ pets: [Pet]) -> [String] {
        guard !pets.isEmpty else { return [] }
        return [context.screen.styled(t(.searchPets), .bold)] + pets.map { p in
            var parts = [PlainText.sanitized(p.name) + " (#\(p.id))", wording.speciesName(p.species)]
            if let b = p.breed { parts.append(PlainText.sanitized(b)) }
            if let n = p.notes { parts.append(PlainText.sanitized(n)) }
            return "  " + parts.joined(separator: format.listSeparator)
        }
    }
}
