import ArgumentParser
import Foundation
import Localization
import PetModel
import PetViews

/// Logging a record of any kind: resolve the time, build the detail, write once, print the new id.
extension Session {
    /// Every file is an image (or a PDF where `pdf` allows), by its content; a file that cannot be read is
    /// left for the store to name.
    func checkImages(_ paths: [String], pdf: Bool = false) throws {
        for path in paths {
            guard let head = MediaSniffer.head(of: path) else { continue }
            if MediaSniffer.imageType(head) == nil && !(pdf && MediaSniffer.isPDF(head)) {
                throw ParseError.notAnImage(path: Terminal.sanitize(path), pdfAllowed: pdf)
            }
        }
    }

    mutating func log(pets: String?, _ options: RecordOptions, attachments: [String] = [], detail: RecordDetail, aside: String? = nil) throws {
        let (at, offset) = try when(options.at, for: detail.kind)
        let draft = RecordDraft(at: at, utcOffset: offset, note: try options.noteText(), detail: detail, attachmentPaths: attachments)
        let records = try repository().addRecord(pets: pets.map(PetModelText.pets) ?? [], draft)
        try printAdded(records, aside: aside)
        try warnImplausible(records)
    }

    /// One line per record whose value looks like a typo (Plausibility); the record is kept.
    mutating func warnImplausible(_ records: [PetRecord]) throws {
        for w in try RecordAddedPresenter(presentation).warnings(records, store: try repository()) { terminal.error(w) }
    }
}

struct WeightCommand: ParsableCommand {
    @OptionGroup(title: Help.s(.helpGlobalOptionsTitle)) var global: GlobalOptions
    static var configuration: CommandConfiguration { CommandConfiguration(commandName: "weight", abstract: Help.s(.helpWeightCommandAbstract)) }
    @Argument(help: ArgumentHelp(Help.s(.helpWeightCommandPet)), completion: .petNames) var pet: String
    @Argument(help: ArgumentHelp(Help.s(.helpWeightCommandWeight))) var weight: [String]
    @Option(help: ArgumentHelp(Help.s(.helpWeightCommandBcs))) var bcs: String?
    @OptionGroup var record: RecordOptions

    func run() throws {
        try Session.run(global) { s in
            let typed = weight.joined(separator: " ")
            try s.log(pets: pet, record, detail: try RecordEntry.weight(typed, bcs: bcs, defaultUnit: s.bareMassUnit), aside: s.bareMassAside(typed))
        }
    }
}

struct MealCommand: ParsableCommand {
    @OptionGroup(title: Help.s(.helpGlobalOptionsTitle)) var global: GlobalOptions
    static var configuration: CommandConfiguration { CommandConfiguration(commandName: "meal", abstract: Help.s(.helpMealCommandAbstract)) }
    @Argument(help: ArgumentHelp(Help.s(.helpMealCommandPet)), completion: .petNames) var pet: String
    @Argument(help: ArgumentHelp(Help.s(.helpMealCommandFood))) var food: String
    @Argument(help: ArgumentHelp(Help.s(.helpMealCommandAmount))) var amount: [String] = []
    @Flag(help: ArgumentHelp(Help.s(.helpMealCommandSnack))) var snack = false
    @Flag(help: ArgumentHelp(Help.s(.helpMealCommandTreat))) var treat = false
    @Flag(help: ArgumentHelp(Help.s(.helpMealCommandWater))) var water = false
    @OptionGroup var record: RecordOptions

    func validate() throws {
        if [snack, treat, water].filter({ $0 }).count > 1 { throw ValidationError(global.settings.l10n.text(.errExclusive(flags: "--snack, --treat, --water"))) }
    }

    func run() throws {
        try Session.run(global) { s in
            // Water by its name (`water`, `물`, `水`, `お水`) is water, as --water says.
            let meal = try RecordEntry.meal(food: food, amount: amount.isEmpty ? nil : amount.joined(separator: " "), snack: snack, treat: treat, water: water)
            try s.log(pets: pet, record, detail: meal)
        }
    }
}

struct StoolCommand: ParsableCommand {
    @OptionGroup(title: Help.s(.helpGlobalOptionsTitle)) var global: GlobalOptions
    static var configuration: CommandConfiguration { CommandConfiguration(commandName: "stool", abstract: Help.s(.helpStoolCommandAbstract)) }
    @Argument(help: ArgumentHelp(Help.s(.helpStoolCommandPet)), completion: .petNames) var pet: String
    @Argument(help: ArgumentHelp(Help.s(.helpStoolCommandScore))) var score: String
    @Option(help: ArgumentHelp(Help.s(.helpStoolCommandColor))) var color: String?
    @Flag(help: ArgumentHelp(Help.s(.helpStoolCommandBlood))) var blood = false
    @Flag(help: ArgumentHelp(Help.s(.helpStoolCommandMucus))) var mucus = false
    @OptionGroup var record: RecordOptions

    func run() throws {
        try Session.run(global) { s in
            try s.log(pets: pet, record, detail: try RecordEntry.stool(score: score, color: color, blood: blood, mucus: mucus))
        }
    }
}

struct UrineCommand: ParsableCommand {
    @OptionGroup(title: Help.s(.helpGlobalOptionsTitle)) var global: GlobalOptions
    static var configuration: CommandConfiguration { CommandConfiguration(commandName: "urine", abstract: Help.s(.helpUrineCommandAbstract)) }
    @Argument(help: ArgumentHelp(Help.s(.helpUrineCommandPet)), completion: .petNames) var pet: String
    @Option(help: ArgumentHelp(Help.s(.helpUrineCommandColor))) var color: String?
    @Option(help: ArgumentHelp(Help.s(.helpUrineCommandAmount))) var amount: Choice<UrineAmount>?
    @Flag(help: ArgumentHelp(Help.s(.helpUrineCommandStraining))) var straining = false
    @Flag(help: ArgumentHelp(Help.s(.helpUrineCommandBlood))) var blood = false
    @OptionGroup var record: RecordOptions

    func run() throws {
        try Session.run(global) { s in
            try s.log(pets: pet, record, detail: try RecordEntry.urine(color: color, amount: amount?.raw, straining: straining, blood: blood))
        }
    }
}

struct SymptomCommand: ParsableCommand {
    @OptionGroup(title: Help.s(.helpGlobalOptionsTitle)) var global: GlobalOptions
    static var configuration: CommandConfiguration { CommandConfiguration(commandName: "symptom", abstract: Help.s(.helpSymptomCommandAbstract)) }
    @Argument(help: ArgumentHelp(Help.s(.helpSymptomCommandPet)), completion: .petNames) var pet: String
    @Argument(help: ArgumentHelp(Help.s(.helpSymptomCommandSymptom))) var symptom: String
    @Option(help: ArgumentHelp(Help.s(.helpSymptomCommandSeverity))) var severity: String = "2"
    @Option(help: ArgumentHelp(Help.s(.helpSymptomCommandDuration))) var duration: String?
    @Flag(help: ArgumentHelp(Help.s(.helpSymptomCommandAsWritten))) var asWritten = false
    @OptionGroup var record: RecordOptions

    func run() throws {
        try Session.run(global) { s in
            try s.log(pets: pet, record, detail: try RecordEntry.symptom(symptom, severity: severity, duration: duration, asWritten: asWritten))
        }
    }
}

struct DiaryCommand: ParsableCommand {
    @OptionGroup(title: Help.s(.helpGlobalOptionsTitle)) var global: GlobalOptions
    static var configuration: CommandConfiguration { CommandConfiguration(commandName: "diary", abstract: Help.s(.helpDiaryCommandAbstract)) }
    @Argument(help: ArgumentHelp(Help.s(.helpDiaryCommandPet)), completion: .petNames) var pet: String
    @Argument(help: ArgumentHelp(Help.s(.helpDiaryCommandText))) var text: String
    @Option(help: ArgumentHelp(Help.s(.helpDiaryCommandMood))) var mood: Choice<Mood>?
    @Option(help: ArgumentHelp(Help.s(.helpDiaryCommandTitle))) var title: String?
    @Option(help: ArgumentHelp(Help.s(.helpDiaryCommandPhoto))) var photo: [String] = []
    @OptionGroup var record: RecordOptions

    func run() throws {
        try Session.run(global) { s in
            let diary = try RecordEntry.diary(text: text, mood: mood?.raw, title: title)
            try s.checkImages(photo)
            try s.log(pets: pet, record, attachments: photo, detail: diary)
        }
    }
}
