import ArgumentParser
import Foundation
import Localization
import PetModel

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

    mutating func log(pets: String?, _ options: RecordOptions, attachments: [String] = [], detail: RecordDetail) throws {
        let (at, offset) = try when(options.at, for: detail.kind)
        let draft = RecordDraft(at: at, utcOffset: offset, note: try options.noteText(), detail: detail, attachmentPaths: attachments)
        let records = try repository().addRecord(pets: pets.map(PetModelText.pets) ?? [], draft)
        printAdded(records)
        try warnImplausible(records)
    }

    /// One line per record whose value looks like a typo (Plausibility); the record is kept.
    mutating func warnImplausible(_ records: [PetRecord]) throws {
        let repo = try repository()
        for r in records {
            guard let petId = r.petId else { continue }
            let name = Terminal.sanitize(r.petName ?? "-")
            switch r.detail {
            case .weight(let w):
                let window = Plausibility.weightWindow
                // Weights up to this one's second; this one is the last of its second (the newest id), so drop it.
                let series = try repo.weightSeries(pet: petId, since: r.at.addingTimeInterval(-window), until: r.at.addingTimeInterval(1))
                var points = Array(zip(series.times, series.grams))
                if let i = points.lastIndex(where: { Int64($0.0) == r.at.unixSeconds() && Int($0.1) == w.mass.grams }) { points.remove(at: i) }
                let previous = points.last.map { (Date(timeIntervalSince1970: $0.0), Mass(grams: Int($0.1))) }
                if let change = Plausibility.weightJump(w.mass, at: r.at, previous: previous), let p = previous {
                    terminal.error(t(.warnWeightJump(mass: format.mass(w.mass), change: format.massChange(change), pet: name,
                                                     previous: format.mass(p.1), day: format.shortDay(localDay(p.0)), id: String(r.id))))
                }
            case .meal(let m):
                guard let amount = m.amount else { continue }
                let weight = try repo.lastWeights(pets: [.id(petId)], since: Date(timeIntervalSince1970: -62_135_596_800), until: r.at.addingTimeInterval(1))[petId]?.mass
                if Plausibility.mealTooLarge(amount, petWeight: weight) {
                    let shown = ValueFormatter.trim(amount.value, digits: 1) + " " + amount.unit.rawValue
                    terminal.error(t(.warnMealLarge(amount: shown, pet: name, id: String(r.id))))
                }
            default: break
            }
        }
    }
}

struct WeightCommand: ParsableCommand {
    @OptionGroup(title: "Global options") var global: GlobalOptions
    static let configuration = CommandConfiguration(commandName: "weight", abstract: "Log a weight: 4.2kg, 4200g, 9.3lb, \"9lb 4oz\".")
    @Argument(help: "Pet name or id (several: Coco,Nabi).", completion: .petNames) var pet: String
    @Argument(help: "The weight with its unit (a bare number is kg, or lb with --unit imperial).") var weight: [String]
    @Option(help: "Body condition score 1–9.") var bcs: String?
    @OptionGroup var record: RecordOptions

    func run() throws {
        try Session.run(global) { s in
            let mass = try Mass.parse(weight.joined(separator: " "), defaultUnit: s.unitSystem == .imperial ? .pound : .kilogram)
            let score = try bcs.map { try PetModelText.int($0, field: "--bcs", range: 1...9) }
            try s.log(pets: pet, record, detail: .weight(Weight(mass: mass, bodyCondition: score)))
        }
    }
}

struct MealCommand: ParsableCommand {
    @OptionGroup(title: "Global options") var global: GlobalOptions
    static let configuration = CommandConfiguration(commandName: "meal", abstract: "Log food or water: meal Coco \"chicken kibble\" 80g.")
    @Argument(help: "Pet name or id.", completion: .petNames) var pet: String
    @Argument(help: "What was eaten.") var food: String
    @Argument(help: "How much: 80g, 200ml, 1cup, 2pc.") var amount: String?
    @Flag(help: "A snack.") var snack = false
    @Flag(help: "A treat.") var treat = false
    @Flag(help: "Water.") var water = false
    @OptionGroup var record: RecordOptions

    func validate() throws {
        if [snack, treat, water].filter({ $0 }).count > 1 { throw ValidationError(global.settings.l10n.text(.errExclusive(flags: "--snack, --treat, --water"))) }
    }

    func run() throws {
        try Session.run(global) { s in
            let type: MealType = snack ? .snack : treat ? .treat : water ? .water : .meal
            let meal = Meal(food: try TextField.label(food, field: "food"), type: type, amount: try amount.map(Amount.parse))
            try s.log(pets: pet, record, detail: .meal(meal))
        }
    }
}

struct StoolCommand: ParsableCommand {
    @OptionGroup(title: "Global options") var global: GlobalOptions
    static let configuration = CommandConfiguration(commandName: "stool", abstract: "Log a stool by faecal score 1 (hard) – 7 (watery).")
    @Argument(help: "Pet name or id.", completion: .petNames) var pet: String
    @Argument(help: "Faecal score 1–7.") var score: String
    @Option var color: String?
    @Flag(help: "Blood seen.") var blood = false
    @Flag(help: "Mucus seen.") var mucus = false
    @OptionGroup var record: RecordOptions

    func run() throws {
        try Session.run(global) { s in
            let stool = Stool(score: try PetModelText.int(score, field: "score", range: 1...7),
                              color: try color.map { try TextField.label($0, field: "color") }, blood: blood, mucus: mucus)
            try s.log(pets: pet, record, detail: .stool(stool))
        }
    }
}

struct UrineCommand: ParsableCommand {
    @OptionGroup(title: "Global options") var global: GlobalOptions
    static let configuration = CommandConfiguration(commandName: "urine", abstract: "Log urination: colour, amount, straining.")
    @Argument(help: "Pet name or id.", completion: .petNames) var pet: String
    @Option var color: String?
    @Option(help: "How much.") var amount: Choice<UrineAmount>?
    @Flag(help: "Straining to urinate.") var straining = false
    @Flag(help: "Blood seen.") var blood = false
    @OptionGroup var record: RecordOptions

    func run() throws {
        try Session.run(global) { s in
            let urine = Urine(color: try color.map { try TextField.label($0, field: "color") },
                              amount: try amount?.value("--amount"),
                              straining: straining, blood: blood)
            try s.log(pets: pet, record, detail: .urine(urine))
        }
    }
}

struct SymptomCommand: ParsableCommand {
    @OptionGroup(title: "Global options") var global: GlobalOptions
    static let configuration = CommandConfiguration(commandName: "symptom", abstract: "Log a symptom with its severity 1–5.")
    @Argument(help: "Pet name or id.", completion: .petNames) var pet: String
    @Argument(help: "vomiting, diarrhea, coughing, sneezing, itching, lethargy, limping, appetite-loss, … (in English, Korean or Japanese) or your own words.") var symptom: String
    @Option(help: "1 (mild) – 5 (severe).") var severity: String = "2"
    @Option(help: "How long it lasted: 30min, 2h, 1d.") var duration: String?
    @Flag(help: "Keep the name as typed, even when it is close to a listed symptom.") var asWritten = false
    @OptionGroup var record: RecordOptions

    func run() throws {
        try Session.run(global) { s in
            let sev = try PetModelText.int(severity, field: "--severity", range: 1...5)
            let minutes = try duration.map { try Span.parse($0, allowCalendarUnits: false).approximateSeconds / 60 }
            let entry = try CareNames.shipped.symptomEntry(symptom, asWritten: asWritten)
            let detail = Symptom(code: entry.text, isListed: entry.isListed,
                                 severity: sev, durationMinutes: minutes)
            try s.log(pets: pet, record, detail: .symptom(detail))
        }
    }
}

struct DiaryCommand: ParsableCommand {
    @OptionGroup(title: "Global options") var global: GlobalOptions
    static let configuration = CommandConfiguration(commandName: "diary", abstract: "Write a diary entry, with photos in order.")
    @Argument(help: "Pet name or id.", completion: .petNames) var pet: String
    @Argument(help: "The entry.") var text: String
    @Option(help: "The mood of the day.") var mood: Choice<Mood>?
    @Option(help: "A photo to attach (repeat for several).") var photo: [String] = []
    @OptionGroup var record: RecordOptions

    func run() throws {
        try Session.run(global) { s in
            let diary = Diary(text: try TextField.text(text, field: "diary"), mood: try mood?.value("--mood"))
            try s.checkImages(photo)
            try s.log(pets: pet, record, attachments: photo, detail: .diary(diary))
        }
    }
}
