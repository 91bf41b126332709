import ArgumentParser
import Foundation
import PetModel
import PetStore

struct VisitCommand: ParsableCommand {
    @OptionGroup(title: "Global options") var global: GlobalOptions
    static let configuration = CommandConfiguration(commandName: "visit", abstract: "Log a vet visit.")
    @Argument(help: "Pet name or id.", completion: .petNames) var pet: String
    @Option var clinic: String?
    @Option var vet: String?
    @Option var reason: String?
    @Option var diagnosis: String?
    @Option var treatment: String?
    @Option(help: "Weight on the vet's scale: 4.3kg.") var weight: String?
    @Option(parsing: .unconditional, help: "Follow-up day: 2026-12-20 or 2w.") var followUp: String?
    @Option(help: "Cost: 85000KRW, $120.50, ¥3000, 8만5천원 (a bare number is in the home currency); counts as vet spending.") var cost: String?
    @OptionGroup var money: CurrencyOption
    @Option(help: "A file to attach: lab results, prescription (repeat for several).") var attach: [String] = []
    @OptionGroup var record: RecordOptions

    func run() throws {
        try Session.run(global) { s in
            func label(_ v: String?, _ field: String) throws -> String? { try v.map { try TextField.label($0, field: field) } }
            let visitDay = s.localDay(try s.when(record.at).0)
            let visit = Visit(
                clinic: try label(clinic, "clinic"), vet: try label(vet, "vet"), reason: try label(reason, "reason"),
                diagnosis: try diagnosis.map { try TextField.text($0, field: "diagnosis", max: 10_000) },
                treatment: try treatment.map { try TextField.text($0, field: "treatment", max: 10_000) },
                weight: try weight.map { try Mass.parse($0, defaultUnit: s.unitSystem == .imperial ? .pound : .kilogram) },
                followUp: try followUp.map { try TimeParser.day($0, from: visitDay, context: s.time) },
                cost: try cost.map { try MoneyText.parse($0, defaultCurrency: try s.homeCurrency(money.currency)) })
            try s.log(pets: pet, record, attachments: attach, detail: .visit(visit))
        }
    }
}

struct VaccineCommand: ParsableCommand {
    @OptionGroup(title: "Global options") var global: GlobalOptions
    static let configuration = CommandConfiguration(commandName: "vaccine", abstract: "Log a vaccination (a combination vaccine is one record).")
    @Argument(help: "Pet name or id.", completion: .petNames) var pet: String
    @Argument(help: "rabies, dhpp, lepto, bordetella, civ, fvrcp, felv, rhdv2, myxo-rhd, distemper (or their Korean and Japanese names), or the product's name.") var vaccine: String
    @Option(parsing: .unconditional, help: "The day it was given (default: today).") var date: String?
    @Option(parsing: .unconditional, help: "Next due: 2027-11-20 or 1y.") var next: String?
    @Option var product: String?
    @Option var lot: String?
    @Option var clinic: String?
    @Flag(help: "Keep the name as typed, even when it is close to a listed vaccine.") var asWritten = false
    @Flag(help: "A routine booster: the next is due after the booster interval, whatever the history.") var booster = false
    @Flag(help: "An adult's first dose ever: its initial course applies (log each dose of that course with --initial).") var initial = false
    @OptionGroup var record: RecordOptions

    func validate() throws {
        if date != nil && record.at != nil { throw ValidationError(global.settings.l10n.text(.errExclusive(flags: "--date, --at"))) }
        if booster && initial { throw ValidationError(global.settings.l10n.text(.errExclusive(flags: "--booster, --initial"))) }
    }

    func run() throws {
        try Session.run(global) { s in
            var options = record
            if let d = date { options.at = d }
            let (at, _) = try s.when(options.at, for: .vaccination)
            // A span counts from the day it was given, not from today.
            let nextDue = try next.map { try TimeParser.day($0, from: s.localDay(at), context: s.time) }
            let code = try CareNames.shipped.vaccineEntry(vaccine, asWritten: asWritten)
            let base = Vaccination(vaccine: code, product: try product.map { try TextField.label($0, field: "product") },
                                   lot: try lot.map { try TextField.label($0, field: "lot") },
                                   clinic: try clinic.map { try TextField.label($0, field: "clinic") }, nextDue: nextDue)
            let (when, offset) = try s.when(options.at, for: .vaccination)
            let note = try options.noteText()
            let repo = try s.repository()
            var items: [(PetRef?, RecordDraft)] = []
            for ref in PetModelText.pets(pet) {
                var v = base
                if nextDue == nil {
                    let schedule = VaccinationSchedule.shipped
                    let p = try repo.pet(ref)
                    if let entry = schedule.vaccine(code, for: p.species) {
                        let earlier = try repo.records(RecordQuery(pets: [.id(p.id)], kinds: [.vaccination]))
                        v.nextDue = schedule.nextDue(entry, givenOn: s.localDay(when), to: p, records: earlier,
                                                     intent: booster ? .booster : initial ? .initial : .automatic, context: s.time)
                    } else {
                        s.terminal.error(s.t(.vaccineNoSchedule(vaccine: s.l10n.code(.vaccine, code), species: s.wording.speciesName(p.species))))
                    }
                }
                items.append((ref, RecordDraft(at: when, utcOffset: offset, note: note, detail: .vaccination(v))))
            }
            s.printAdded(try repo.addRecords(items))
        }
    }
}

/// `petlog med …`: medication courses and their doses.
struct MedGroup: ParsableCommand {
    @OptionGroup(title: "Global options") var global: GlobalOptions
    static let configuration = CommandConfiguration(
        commandName: "med", abstract: "Medication courses: start, give a dose, stop, list.",
        subcommands: [Start.self, Give.self, Stop.self, List.self]
    )

    struct Start: ParsableCommand {
        @OptionGroup(title: "Global options") var global: GlobalOptions
        static let configuration = CommandConfiguration(abstract: "Start a medication course.")
        @Argument(help: "Pet name or id (several: Coco,Nabi).", completion: .petNames) var pet: String
        @Argument(help: "Medication name.") var name: String
        @Option(help: "Dose: \"1 chew\", \"5 mg\".") var dose: String?
        @Option(help: "How it is given.") var route: Choice<Route>?
        @Option(help: "Interval between doses: 12h, 1d, 30d, 12w.") var every: String?
        @Option(help: "Fixed times each day instead: 08:00,20:00.") var times: String?
        @Option(help: "Last day of the course: 2026-12-31 or 10d.") var until: String?
        @OptionGroup var record: RecordOptions

        func validate() throws {
            if every != nil && times != nil { throw ValidationError(global.settings.l10n.text(.errExclusive(flags: "--every, --times"))) }
        }

        func run() throws {
            try Session.run(global) { s in
                let interval = try every.map { raw -> Int in
                    let span = try Span.parse(raw, allowCalendarUnits: false)
                    return span.approximateSeconds
                }
                let med = Medication(name: try TextField.label(name, field: "name"),
                                     dose: try dose.map { try TextField.label($0, field: "dose") },
                                     route: try route?.value("--route"),
                                     intervalSeconds: interval, times: try times.map(Medication.parseTimes) ?? [],
                                     endsOn: try until.map { try TimeParser.day($0, from: s.localDay(try s.when(record.at).0), context: s.time) })
                try s.log(pets: pet, record, detail: .medication(med))
            }
        }
    }

    struct Give: ParsableCommand {
        @OptionGroup(title: "Global options") var global: GlobalOptions
        static let configuration = CommandConfiguration(abstract: "Record a dose given (several pets: Coco,Nabi).")
        @Argument(help: "Pet name or id (several: Coco,Nabi).", completion: .petNames) var pet: String
        @Argument(help: "Medication name (a prefix is enough).", completion: .medicationNames) var name: String
        @Flag(help: "Record the dose as skipped.") var skipped = false
        @OptionGroup var record: RecordOptions

        func run() throws {
            try Session.run(global) { s in
                let (at, offset) = try s.when(record.at, for: .dose)
                let records = try s.repository().giveMedication(pets: PetModelText.pets(pet), name: name, at: at, utcOffset: offset,
                                                                note: try record.noteText(), skipped: skipped)
                s.printAdded(records)
            }
        }
    }

    struct Stop: ParsableCommand {
        @OptionGroup(title: "Global options") var global: GlobalOptions
        static let configuration = CommandConfiguration(abstract: "Stop a medication course (its history stays).")
        @Argument(help: "Pet name or id.", completion: .petNames) var pet: String
        @Argument(help: "Medication name.", completion: .medicationNames) var name: String
        @Option(parsing: .unconditional, help: "When it was stopped (default: now).") var at: String?

        func run() throws {
            try Session.run(global) { s in
                let (when, _) = try s.when(at)
                let r = try s.repository().stopMedication(pet: PetRef(pet), name: name, at: when)
                if s.json { s.terminal.json(JSONShape.record(r)); return }
                s.terminal.line(s.t(.medStopped(name: Terminal.sanitize(s.wording.summary(r)), pet: Terminal.sanitize(r.petName ?? ""), id: String(r.id))))
            }
        }
    }

    struct List: ParsableCommand {
        @OptionGroup(title: "Global options") var global: GlobalOptions
        static let configuration = CommandConfiguration(abstract: "List medication courses with doses given.")
        @Argument(help: "Pet name or id (default: all pets).", completion: .petNames) var pet: String?
        @Flag(help: "Include stopped courses.") var all = false

        func run() throws {
            try Session.run(global) { s in
                let repo = try s.repository()
                let courses = try repo.medications(pets: pet.map(PetModelText.pets) ?? [], includeStopped: all)
                // The dose records of every pet concerned, read once for all courses.
                let petIds = Set(courses.compactMap(\.record.petId)).sorted()
                let doses = petIds.isEmpty ? [] : try repo.records(RecordQuery(pets: petIds.map { .id($0) }, kinds: [.dose]))
                let tables = courses.map { CareAgenda.timetable(course: $0.record, $0.medication, doseRecords: doses, context: s.time) }
                if s.json {
                    s.terminal.json(zip(courses, tables).map { c, t -> [String: Any] in
                        var o = JSONShape.record(c.record)
                        o["doses_given"] = c.dosesGiven
                        o["doses_due"] = t.due
                        o["active"] = CareAgenda.isActive(c.medication, at: s.time.now, context: s.time)
                        o["next_dose"] = JSONShape.value(t.next.map { JSONShape.instant($0, offset: s.time.utcOffset(at: $0)) })
                        o["last_dose"] = JSONShape.value(c.lastDose.map { JSONShape.instant($0, offset: s.time.utcOffset(at: $0)) })
                        return o
                    })
                    return
                }
                if courses.isEmpty { s.terminal.line(s.t(.medNone)); return }
                s.terminal.table(
                    header: [s.t(.colId), s.t(.colPet), s.t(.colMedication), s.t(.colDose), s.t(.colEvery), s.t(.colStarted),
                             s.t(.colAdherence), s.t(.colLastDose), s.t(.colNextDose)],
                    rows: zip(courses, tables).map { c, t in
                        let m = c.medication
                        return [String(c.record.id), c.record.petName ?? "", m.name + (m.stoppedAt != nil ? " (" + s.t(.fieldStoppedShort) + ")"
                                   : CareAgenda.isActive(m, at: s.time.now, context: s.time) ? "" : " (" + s.t(.fieldEndedShort) + ")"),
                                m.dose ?? "", s.wording.everyText(m), s.localDay(c.record.at).description, s.wording.adherenceText(t, dosesGiven: c.dosesGiven),
                                c.lastDose.map(s.dateTime) ?? "-", t.next.map(s.dateTime) ?? "-"]
                    })
            }
        }
    }
}
