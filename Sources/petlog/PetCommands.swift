import ArgumentParser
import Foundation
import Localization
import PetModel
import PetStoreCore
import PetViews

/// `petlog pet …`: profiles.
struct PetGroup: ParsableCommand {
    @OptionGroup(title: Help.s(.helpGlobalOptionsTitle)) var global: GlobalOptions
    static var configuration: CommandConfiguration { CommandConfiguration(
        commandName: "pet", abstract: Help.s(.helpPetGroupAbstract),
        subcommands: [Add.self, List.self, Show.self, Edit.self, Archive.self, Unarchive.self, Remove.self]
    ) }

    /// Profile fields shared by `add` and `edit`.
    struct ProfileOptions: ParsableArguments {
        @Option(help: ArgumentHelp(Help.s(.helpPetGroupProfileOptionsSpecies))) var species: Choice<Species>?
        @Option(help: ArgumentHelp(Help.s(.helpPetGroupProfileOptionsBreed))) var breed: String?
        @Option(help: ArgumentHelp(Help.s(.helpPetGroupProfileOptionsSex))) var sex: Choice<Sex>?
        @Flag(inversion: .prefixedNo, help: ArgumentHelp(Help.s(.helpPetGroupProfileOptionsNeutered))) var neutered: Bool?
        @Option(help: ArgumentHelp(Help.s(.helpPetGroupProfileOptionsBorn))) var born: String?
        @Option(help: ArgumentHelp(Help.s(.helpPetGroupProfileOptionsChip))) var chip: String?
        @Option(help: ArgumentHelp(Help.s(.helpPetGroupProfileOptionsColor))) var color: String?
        @Option(help: ArgumentHelp(Help.s(.helpPetGroupProfileOptionsNotes))) var notes: String?
        @Option(name: .customLong("allergy"), help: ArgumentHelp(Help.s(.helpPetGroupProfileOptionsAllergy))) var allergies: [String] = []
        @Option(name: .customLong("no-allergy"), help: ArgumentHelp(Help.s(.helpPetGroupProfileOptionsNoAllergy))) var noAllergies: [String] = []
        @Option(name: .customLong("condition"), help: ArgumentHelp(Help.s(.helpPetGroupProfileOptionsCondition))) var conditions: [String] = []
        @Option(name: .customLong("no-condition"), help: ArgumentHelp(Help.s(.helpPetGroupProfileOptionsNoCondition))) var noConditions: [String] = []
        @Option(name: .customLong("vet-contact"), help: ArgumentHelp(Help.s(.helpPetGroupProfileOptionsVetContact))) var vetContact: String?
        @Option(name: .customLong("emergency-contact"), help: ArgumentHelp(Help.s(.helpPetGroupProfileOptionsEmergencyContact))) var emergencyContacts: [String] = []
        @Option(name: .customLong("no-emergency-contact"), help: ArgumentHelp(Help.s(.helpPetGroupProfileOptionsNoEmergencyContact))) var noEmergencyContacts: [String] = []
        @Option(help: ArgumentHelp(Help.s(.helpPetGroupProfileOptionsInsurance))) var insurance: String?

        func draft(_ time: TimeContext) throws -> PetDraft {
            var d = PetDraft()
            d.species = try species?.value("--species")
            if let b = breed { d.breed = .some(b.isEmpty ? nil : try TextField.label(b, field: "breed")) }
            d.sex = try sex?.value("--sex")
            d.neutered = neutered
            if let b = born { d.born = .some(b.isEmpty ? nil : try time.checkBorn(PartialDate.parse(b), raw: b)) }
            if let c = chip { d.microchip = .some(try Microchip.normalize(c)) }
            if let c = color { d.color = .some(c.isEmpty ? nil : try TextField.label(c, field: "color")) }
            if let n = notes { d.notes = .some(n.isEmpty ? nil : try TextField.text(n, field: "notes")) }
            d.health.addAllergies = try allergies.map { try PetHealth.item($0, field: "allergy") }
            d.health.removeAllergies = noAllergies
            d.health.addConditions = try conditions.map { try PetHealth.item($0, field: "condition") }
            d.health.removeConditions = noConditions
            if let v = vetContact { d.health.vetContact = .some(v.isEmpty ? nil : try PetContact.parse(v, field: "vet-contact")) }
            d.health.addEmergencyContacts = try emergencyContacts.map { try PetContact.parse($0, field: "emergency-contact") }
            d.health.removeEmergencyContacts = noEmergencyContacts
            if let v = insurance { d.health.insurance = .some(v.isEmpty ? nil : try PetInsurance.parse(v)) }
            return d
        }
    }

    struct Add: ParsableCommand {
        @OptionGroup(title: Help.s(.helpGlobalOptionsTitle)) var global: GlobalOptions
        static var configuration: CommandConfiguration { CommandConfiguration(abstract: Help.s(.helpPetGroupAddAbstract)) }
        @Argument(help: ArgumentHelp(Help.s(.helpPetGroupAddName))) var name: String
        @OptionGroup var profile: ProfileOptions

        func run() throws {
            try Session.run(global) { s in
                var draft = try profile.draft(s.time)
                draft.name = try TextField.name(name)
                if draft.species == nil { draft.species = .other }
                let pet = try s.repository(creating: true).addPet(draft)
                if s.json { try s.terminal.json(PetJSON(pet)); return }
                s.terminal.line(s.t(.petAdded(name: Terminal.sanitize(pet.name), id: String(pet.id))))
            }
        }
    }

    struct List: ParsableCommand {
        @OptionGroup(title: Help.s(.helpGlobalOptionsTitle)) var global: GlobalOptions
        static var configuration: CommandConfiguration { CommandConfiguration(abstract: Help.s(.helpPetGroupListAbstract)) }
        @Flag(help: ArgumentHelp(Help.s(.helpPetGroupListAll))) var all = false

        func run() throws {
            try Session.run(global) { s in
                let pets = try s.repository().pets(includeArchived: all)
                if s.json { try s.terminal.json(pets.map(PetJSON.init)); return }
                s.terminal.lines(PetPresenter(s.presentation).list(pets))
            }
        }
    }

    struct Show: ParsableCommand {
        @OptionGroup(title: Help.s(.helpGlobalOptionsTitle)) var global: GlobalOptions
        static var configuration: CommandConfiguration { CommandConfiguration(abstract: Help.s(.helpPetGroupShowAbstract)) }
        @Argument(help: ArgumentHelp(Help.s(.helpPetGroupShowPet)), completion: .petNames) var pet: String

        func run() throws {
            try Session.run(global) { s in
                let repo = try s.repository()
                let p = try repo.pet(PetRef(pet))
                let latestWeight = try repo.records(RecordQuery(pets: [.id(p.id)], kinds: [.weight], limit: 1, newestFirst: true)).first
                let meds = try repo.medications(pets: [.id(p.id)], includeStopped: false)
                let counts = try repo.count(RecordQuery(pets: [.id(p.id)]))
                if s.json {
                    try s.terminal.json(PetShowJSON(pet: p, latestWeight: latestWeight, currentMedications: meds.map(\.record), recordCount: counts))
                    return
                }
                s.terminal.lines(PetPresenter(s.presentation).profile(p, latestWeight: latestWeight, medications: meds, records: counts))
            }
        }
    }

    struct Edit: ParsableCommand {
        @OptionGroup(title: Help.s(.helpGlobalOptionsTitle)) var global: GlobalOptions
        static var configuration: CommandConfiguration { CommandConfiguration(abstract: Help.s(.helpPetGroupEditAbstract)) }
        @Argument(help: ArgumentHelp(Help.s(.helpPetGroupEditPet)), completion: .petNames) var pet: String
        @Option(help: ArgumentHelp(Help.s(.helpPetGroupEditName))) var name: String?
        @Option(help: ArgumentHelp(Help.s(.helpPetGroupEditPhoto)), completion: .file()) var photo: String?
        @Flag(help: ArgumentHelp(Help.s(.helpPetGroupEditNoPhoto))) var noPhoto = false
        @OptionGroup var profile: ProfileOptions

        func run() throws {
            try Session.run(global) { s in
                if photo != nil && noPhoto { throw UsageError(message: s.t(.errExclusive(flags: "--photo, --no-photo"))) }
                var draft = try profile.draft(s.time)
                draft.name = try name.map(TextField.name)
                // The photo read and checked (an image by its content, the size cap) before anything is written.
                let change: PetPhotoChange? = try photo.map { try s.profilePhoto($0) } ?? (noPhoto ? .remove : nil)
                let p = try s.repository().editPet(PetRef(pet), draft, photo: change)
                if s.json { try s.terminal.json(PetJSON(p)); return }
                s.terminal.line(s.t(.petUpdated(name: Terminal.sanitize(p.name), id: String(p.id))))
            }
        }
    }

    struct Archive: ParsableCommand {
        @OptionGroup(title: Help.s(.helpGlobalOptionsTitle)) var global: GlobalOptions
        static var configuration: CommandConfiguration { CommandConfiguration(abstract: Help.s(.helpPetGroupArchiveAbstract)) }
        @Argument(help: ArgumentHelp(Help.s(.helpPetGroupArchivePet)), completion: .petNames) var pet: String
        @Option(help: ArgumentHelp(Help.s(.helpPetGroupArchiveReason))) var reason: Choice<ArchiveReason> = Choice(.other)
        @Option(parsing: .unconditional, help: ArgumentHelp(Help.s(.helpPetGroupArchiveOn))) var on: String?

        func run() throws {
            try Session.run(global) { s in
                let r = try reason.value("--reason")
                let day = try on.map { try TimeParser.day($0, context: s.time) } ?? s.time.today
                let p = try s.repository().archivePet(PetRef(pet), reason: r, on: day)
                s.terminal.line(s.t(.petArchived(name: Terminal.sanitize(p.name), reason: s.l10n.code(.archiveReason, r.rawValue))))
            }
        }
    }

    struct Unarchive: ParsableCommand {
        @OptionGroup(title: Help.s(.helpGlobalOptionsTitle)) var global: GlobalOptions
        static var configuration: CommandConfiguration { CommandConfiguration(abstract: Help.s(.helpPetGroupUnarchiveAbstract)) }
        @Argument(help: ArgumentHelp(Help.s(.helpPetGroupUnarchivePet))) var pet: String

        func run() throws {
            try Session.run(global) { s in
                let p = try s.repository().unarchivePet(PetRef(pet))
                s.terminal.line(s.t(.petUnarchived(name: Terminal.sanitize(p.name))))
            }
        }
    }

    struct Remove: ParsableCommand {
        @OptionGroup(title: Help.s(.helpGlobalOptionsTitle)) var global: GlobalOptions
        static var configuration: CommandConfiguration { CommandConfiguration(abstract: Help.s(.helpPetGroupRemoveAbstract)) }
        @Argument(help: ArgumentHelp(Help.s(.helpPetGroupRemovePet)), completion: .petNames) var pet: String
        @Flag(help: ArgumentHelp(Help.s(.helpPetGroupRemoveYes))) var yes = false

        func run() throws {
            try Session.run(global) { s in
                guard yes else { throw UsageError(message: s.t(.errRemoveNeedsYes(name: pet))) }
                let (p, n) = try s.repository().removePet(PetRef(pet))
                s.terminal.line(s.t(.petRemoved(name: Terminal.sanitize(p.name), count: Display.count(n))))
            }
        }
    }
}

extension Session {
    /// `pet edit --photo FILE`: the file's bytes and their type, checked as `--photo` checks a record's
    /// (an image by its content; HEIC kept as it is) and no larger than `PetPhoto.maxBytes`.
    func profilePhoto(_ path: String) throws -> PetPhotoChange {
        try checkImages([path])
        guard let head = MediaSniffer.head(of: path) else { throw StoreError.attachmentUnreadable(path: path) }
        guard let type = MediaSniffer.imageType(head) else { throw ParseError.notAnImage(path: Terminal.sanitize(path), pdfAllowed: false) }
        let size = (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? NSNumber)?.intValue ?? 0
        if size > PetPhoto.maxBytes { throw PhotoTooLarge(path: path, bytes: size) }
        guard let data = FileManager.default.contents(atPath: path) else { throw StoreError.attachmentUnreadable(path: path) }
        if data.count > PetPhoto.maxBytes { throw PhotoTooLarge(path: path, bytes: data.count) }
        return .set(data, mediaType: type)
    }
}

/// A profile photo over `PetPhoto.maxBytes`: refused before anything is written.
struct PhotoTooLarge: Error, UserFacingError {
    let path: String
    let bytes: Int
    var exitCode: Int32 { Failure.dataError }
    func message(_ l: L10n, database: String) -> String {
        l.text(.errPhotoTooLarge(path: Terminal.sanitize(path), size: String(format: "%.1f", Double(bytes) / 1_048_576),
                                 max: String(PetPhoto.maxBytes / 1_048_576)))
    }
}
