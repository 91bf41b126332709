import ArgumentParser
import Foundation
import PetModel
import PetStoreCore
import PetViews

struct VisitCommand: ParsableCommand {
    @OptionGroup(title: Help.s(.helpGlobalOptionsTitle)) var global: GlobalOptions
    static var configuration: CommandConfiguration { CommandConfiguration(commandName: "visit", abstract: Help.s(.helpVisitCommandAbstract)) }
    @Argument(help: ArgumentHelp(Help.s(.helpVisitCommandPet)), completion: .petNames) var pet: String
    @Option(help: ArgumentHelp(Help.s(.helpVisitCommandClinic))) var clinic: String?
    @Option(help: ArgumentHelp(Help.s(.helpVisitCommandVet))) var vet: String?
    @Option(help: ArgumentHelp(Help.s(.helpVisitCommandReason))) var reason: String?
    @Option(help: ArgumentHelp(Help.s(.helpVisitCommandDiagnosis))) var diagnosis: String?
    @Option(help: ArgumentHelp(Help.s(.helpVisitCommandTreatment))) var treatment: String?
    @Option(help: ArgumentHelp(Help.s(.helpVisitCommandWeight))) var weight: String?
    @Option(parsing: .unconditional, help: ArgumentHelp(Help.s(.helpVisitCommandFollowUp))) var followUp: String?
    @Option(help: ArgumentHelp(Help.s(.helpVisitCommandCost))) var cost: String?
    @OptionGroup var money: CurrencyOption
    @Option(help: ArgumentHelp(Help.s(.helpVisitCommandAttach))) var attach: [String] = []
    @OptionGroup var record: RecordOptions

    func run() throws {
        try Session.run(global) { s in
            let visitDay = s.recordDay(try s.when(record.at))
            let visit = try RecordEntry.visit(clinic: clinic, vet: vet, reason: reason, diagnosis: diagnosis, treatment: treatment, weight: weight,
                                              followUp: followUp, cost: { try cost.map { try s.amount($0, defaultCurrency: try s.homeCurrency(money.currency)) } },
                                              visitDay: visitDay, defaultUnit: s.bareMassUnit, time: s.time)
            try s.log(pets: pet, record, attachments: attach, detail: visit, aside: weight.flatMap(s.bareMassAside))
        }
    }
}

struct VaccineCommand: ParsableCommand {
    @OptionGroup(title: Help.s(.helpGlobalOptionsTitle)) var global: GlobalOptions
    static var configuration: CommandConfiguration { CommandConfiguration(commandName: "vaccine", abstract: Help.s(.helpVaccineCommandAbstract)) }
    @Argument(help: ArgumentHelp(Help.s(.helpVaccineCommandPet)), completion: .petNames) var pet: String
    @Argument(help: ArgumentHelp(Help.s(.helpVaccineCommandVaccine))) var vaccine: String
    @Option(parsing: .unconditional, help: ArgumentHelp(Help.s(.helpVaccineCommandDate))) var date: String?
    @Option(parsing: .unconditional, help: ArgumentHelp(Help.s(.helpVaccineCommandNext))) var next: String?
    @Option(help: ArgumentHelp(Help.s(.helpVaccineCommandProduct))) var product: String?
    @Option(help: ArgumentHelp(Help.s(.helpVaccineCommandLot))) var lot: String?
    @Option(help: ArgumentHelp(Help.s(.helpVaccineCommandClinic))) var clinic: String?
    @Flag(help: ArgumentHelp(Help.s(.helpVaccineCommandAsWritten))) var asWritten = false
    @Flag(help: ArgumentHelp(Help.s(.helpVaccineCommandBooster))) var booster = false
    @Flag(help: ArgumentHelp(Help.s(.helpVaccineCommandInitial))) var initial = false
    @OptionGroup var record: RecordOptions

    func validate() throws {
        if date != nil && record.at != nil { throw ValidationError(global.settings.l10n.text(.errExclusive(flags: "--date, --at"))) }
        if booster && initial { throw ValidationError(global.settings.l10n.text(.errExclusive(flags: "--booster, --initial"))) }
    }

    func run() throws {
        try Session.run(global) { s in
            var options = record
            if let d = date { options.at = d }
            let given = try s.when(options.at, for: .vaccination)
            // A span counts from the day it was given (on its own clock), not from today.
            let nextDue = try next.map { try TimeParser.day($0, from: s.recordDay(given), context: s.time) }
            // The disease a name stands for (`parvo`), read before the typo check so a disease is never "nearly" a vaccine.
            let typed = try VaccineEntry.name(vaccine, asWritten: asWritten)
            let repo = try s.repository()
            let refs = PetModelText.pets(pet)
            let pets = try refs.map { try repo.pet($0) }
            let (when, offset) = given
            let note = try options.noteText()
            var items: [(PetRef?, RecordDraft)] = []
            var asides: [Int64: String] = [:]
            for (ref, p) in zip(refs, pets) {
                // A disease the pet's core vaccine covers (`ジステンパー`, `개홍역`, `parvo` for a dog) is a dose of that
                // vaccine, with its due date; the line says so.
                let dose = try VaccineEntry.dose(typed, pet: p, product: product, lot: lot, clinic: clinic, nextDue: nextDue, given: given,
                                                 earlier: { try repo.records(RecordQuery(pets: [.id(p.id)], kinds: [.vaccination])) },
                                                 intent: booster ? .booster : initial ? .initial : .automatic, time: s.time)
                if let component = dose.component {
                    asides[p.id] = s.t(.vaccineComponent(typed: Terminal.sanitize(vaccine), species: s.wording.speciesName(p.species),
                                                         vaccine: s.l10n.code(.vaccine, component)))
                }
                if dose.unscheduled {
                    s.terminal.error(s.t(.vaccineNoSchedule(vaccine: s.l10n.code(.vaccine, dose.vaccination.vaccine), species: s.wording.speciesName(p.species))))
                }
                items.append((ref, RecordDraft(at: when, utcOffset: offset, note: note, detail: .vaccination(dose.vaccination))))
            }
            try s.printAdded(try repo.addRecords(items)) { $0.petId.flatMap { asides[$0] } }
        }
    }
}

/// `petlog med …`: medication courses and their doses.
struct MedGroup: ParsableCommand {
    @OptionGroup(title: Help.s(.helpGlobalOptionsTitle)) var global: GlobalOptions
    static var configuration: CommandConfiguration { CommandConfiguration(
        commandName: "med", abstract: Help.s(.helpMedGroupAbstract),
        subcommands: [Start.self, Give.self, Stop.self, List.self]
    ) }

    struct Start: ParsableCommand {
        @OptionGroup(title: Help.s(.helpGlobalOptionsTitle)) var global: GlobalOptions
        static var configuration: CommandConfiguration { CommandConfiguration(abstract: Help.s(.helpMedGroupStartAbstract)) }
        @Argument(help: ArgumentHelp(Help.s(.helpMedGroupStartPet)), completion: .petNames) var pet: String
        @Argument(help: ArgumentHelp(Help.s(.helpMedGroupStartName))) var name: String
        @Option(help: ArgumentHelp(Help.s(.helpMedGroupStartDose))) var dose: String?
        @Option(help: ArgumentHelp(Help.s(.helpMedGroupStartRoute))) var route: Choice<Route>?
        @Option(help: ArgumentHelp(Help.s(.helpMedGroupStartEvery))) var every: String?
        @Option(help: ArgumentHelp(Help.s(.helpMedGroupStartTimes))) var times: String?
        @Option(help: ArgumentHelp(Help.s(.helpMedGroupStartUntil))) var until: String?
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
                // Doses at listed times from a day named without a time (`--at tomorrow`, `--at 2026-12-01`): the
                // course starts at the start of that day, so its first dose is that day's first listed time.
                var options = record
                if times != nil, let at = record.at, at != "now", TimeWords.canonical(at) != "today" {
                    let (instant, dayOnly) = try TimeParser.instantAndPrecision(at, context: s.time)
                    if dayOnly || TimeWords.canonical(at) == "tomorrow" { options.at = s.time.localDate(of: instant).description + " 00:00" }
                }
                let med = Medication(name: try TextField.label(name, field: "name"),
                                     dose: try dose.map { try TextField.label($0, field: "dose") },
                                     route: try route?.value("--route"),
                                     intervalSeconds: interval, times: try times.map(Medication.parseTimes) ?? [],
                                     endsOn: try until.map { try TimeParser.day($0, from: s.recordDay(try s.when(options.at)), context: s.time) })
                try s.log(pets: pet, options, detail: .medication(med))
            }
        }
    }

    struct Give: ParsableCommand {
        @OptionGroup(title: Help.s(.helpGlobalOptionsTitle)) var global: GlobalOptions
        static var configuration: CommandConfiguration { CommandConfiguration(abstract: Help.s(.helpMedGroupGiveAbstract)) }
        @Argument(help: ArgumentHelp(Help.s(.helpMedGroupGivePet)), completion: .petNames) var pet: String
        @Argument(help: ArgumentHelp(Help.s(.helpMedGroupGiveName)), completion: .medicationNames) var name: String
        @Flag(help: ArgumentHelp(Help.s(.helpMedGroupGiveSkipped))) var skipped = false
        @OptionGroup var record: RecordOptions

        func run() throws {
            try Session.run(global) { s in
                let (at, offset) = try s.when(record.at, for: .dose)
                let records = try s.repository().giveMedication(pets: PetModelText.pets(pet), name: name, at: at, utcOffset: offset,
                                                                note: try record.noteText(), skipped: skipped)
                try s.printAdded(records)
            }
        }
    }

    struct Stop: ParsableCommand {
        @OptionGroup(title: Help.s(.helpGlobalOptionsTitle)) var global: GlobalOptions
        static var configuration: CommandConfiguration { CommandConfiguration(abstract: Help.s(.helpMedGroupStopAbstract)) }
        @Argument(help: ArgumentHelp(Help.s(.helpMedGroupStopPet)), completion: .petNames) var pet: String
        @Argument(help: ArgumentHelp(Help.s(.helpMedGroupStopName)), completion: .medicationNames) var name: String
        @Option(parsing: .unconditional, help: ArgumentHelp(Help.s(.helpMedGroupStopAt))) var at: String?

        func run() throws {
            try Session.run(global) { s in
                let (when, _) = try s.when(at)
                let r = try s.repository().stopMedication(pet: PetRef(pet), name: name, at: when)
                if s.json { try s.terminal.json(RecordJSON(r)); return }
                s.terminal.line(s.t(.medStopped(name: Terminal.sanitize(s.wording.summary(r)), pet: Terminal.sanitize(r.petName ?? ""), id: String(r.id))))
            }
        }
    }

    struct List: ParsableCommand {
        @OptionGroup(title: Help.s(.helpGlobalOptionsTitle)) var global: GlobalOptions
        static var configuration: CommandConfiguration { CommandConfiguration(abstract: Help.s(.helpMedGroupListAbstract)) }
        @Argument(help: ArgumentHelp(Help.s(.helpMedGroupListPet)), completion: .petNames) var pet: String?
        @Flag(help: ArgumentHelp(Help.s(.helpMedGroupListAll))) var all = false

        func run() throws {
            try Session.run(global) { s in
                let repo = try s.repository()
                let courses = try repo.medications(pets: pet.map(PetModelText.pets) ?? [], includeStopped: all)
                // The dose records of every pet concerned, read once for all courses.
                let petIds = Set(courses.compactMap(\.record.petId)).sorted()
                let doses = petIds.isEmpty ? [] : try repo.records(RecordQuery(pets: petIds.map { .id($0) }, kinds: [.dose]))
                let tables = courses.map { CareAgenda.timetable(course: $0.record, $0.medication, doseRecords: doses, context: s.time) }
                if s.json {
                    try s.terminal.json(zip(courses, tables).map { c, t in
                        MedicationCourseJSON(record: c.record, dosesGiven: c.dosesGiven, dosesDue: t.due,
                                             active: CareAgenda.isActive(c.medication, at: s.time.now, context: s.time),
                                             nextDose: t.next.map { JSONView.instant($0, offset: s.time.utcOffset(at: $0)) },
                                             lastDose: c.lastDose.map { JSONView.instant($0, offset: s.time.utcOffset(at: $0)) })
                    })
                    return
                }
                s.terminal.lines(PetPresenter(s.presentation).medications(courses, timetables: tables))
            }
        }
    }
}
