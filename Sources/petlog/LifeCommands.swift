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
            let mass = try Mass.parse(typed, defaultUnit: s.bareMassUnit)
            let score = try bcs.map { try BodyConditionScore.parse($0, field: "--bcs") }
            try s.log(pets: pet, record, detail: .weight(Weight(mass: mass, bodyCondition: score)), aside: s.bareMassAside(typed))
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
            let food = try TextField.label(food, field: "food")
            // Water by its name (`water`, `물`, `水`, `お水`) is water, as --water says.
            let type: MealType = snack ? .snack : treat ? .treat : water || CareNames.shipped.isWater(food) ? .water : .meal
            let meal = Meal(food: food, type: type, amount: try amount.isEmpty ? nil : Amount.parse(amount.joined(separator: " "), volume: type == .water))
            try s.log(pets: pet, record, detail: .meal(meal))
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
            let stool = Stool(score: try StoolScore.parse(score, field: "score"),
                              color: try color.map(ColorWord.typed), blood: blood, mucus: mucus)
            try s.log(pets: pet, record, detail: .stool(stool))
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
            let urine = Urine(color: try color.map(ColorWord.typed),
                              amount: try amount?.value("--amount"),
                              straining: straining, blood: blood)
            try s.log(pets: pet, record, detail: .urine(urine))
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
            let sev = try SymptomSeverity.typed(severity, field: "--severity")
            let minutes = try duration.map { try Span.parse($0, allowCalendarUnits: false).approximateSeconds / 60 }
            let entry = try CareNames.shipped.symptomEntry(symptom, asWritten: asWritten)
            let detail = Symptom(code: entry.text, isListed: entry.isListed,
                                 severity: sev, durationMinutes: minutes)
            try s.log(pets: pet, record, detail: .symptom(detail))
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
            let diary = Diary(text: try TextField.text(text, field: "diary"), mood: try mood?.value("--mood"),
                              title: try title.map { try TextField.label($0, field: "title") })
            try s.checkImages(photo)
            try s.log(pets: pet, record, attachments: photo, detail: .diary(diary))
        }
    }
}
