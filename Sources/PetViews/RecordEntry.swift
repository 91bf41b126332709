import Foundation
import Localization
import PetModel
import PetStoreCore

/// A record's fields as a person types them, read into its detail: the one reader behind the CLI's logging
/// commands (`petlog weight Coco 9lb 4oz`, `meal`, `stool`, `urine`, `symptom`, `diary`, `walk`, `groom`) and
/// `petlog serve`'s forms (`POST /pets/ID/log`, fields named as the commands' arguments and options), so
/// `4만5천원`, `9lb 4oz`, `목욕 발톱` and `3.2km 45min` read the same in both. Refusals are `ParseError`s
/// (`text(_:)` says them) or `Walk.Refusal`s (`RecordEntry.text(_:_:)`).
public enum RecordEntry {
    /// `weight PET WEIGHT… [--bcs N]`: a bare number in `defaultUnit`.
    public static func weight(_ typed: String, bcs: String?, defaultUnit: MassUnit) throws -> RecordDetail {
        let mass = try Mass.parse(typed, defaultUnit: defaultUnit)
        let score = try bcs.map { try BodyConditionScore.parse($0, field: "--bcs") }
        return .weight(Weight(mass: mass, bodyCondition: score))
    }

    /// `meal PET FOOD [AMOUNT…] [--snack|--treat|--water]`: water by its name (`water`, `물`, `水`) is water.
    public static func meal(food: String, amount: String?, snack: Bool, treat: Bool, water: Bool) throws -> RecordDetail {
        let food = try TextField.label(food, field: "food")
        let type: MealType = snack ? .snack : treat ? .treat : water || CareNames.shipped.isWater(food) ? .water : .meal
        let typed = amount.flatMap { $0.trimmingCharacters(in: .whitespaces).isEmpty ? nil : $0 }
        return .meal(Meal(food: food, type: type, amount: try typed.map { try Amount.parse($0, volume: type == .water) }))
    }

    /// `stool PET SCORE [--color C] [--blood] [--mucus]`.
    public static func stool(score: String, color: String?, blood: Bool, mucus: Bool) throws -> RecordDetail {
        .stool(Stool(score: try StoolScore.parse(score, field: "score"), color: try color.map(ColorWord.typed), blood: blood, mucus: mucus))
    }

    /// `urine PET [--color C] [--amount A] [--straining] [--blood]`.
    public static func urine(color: String?, amount: String?, straining: Bool, blood: Bool) throws -> RecordDetail {
        .urine(Urine(color: try color.map(ColorWord.typed), amount: try amount.map { try TypedChoice.value($0, option: "--amount", group: "urineAmount") },
                     straining: straining, blood: blood))
    }

    /// `symptom PET SYMPTOM [--severity S] [--duration D] [--as-written]`.
    public static func symptom(_ symptom: String, severity: String, duration: String?, asWritten: Bool) throws -> RecordDetail {
        let sev = try SymptomSeverity.typed(severity, field: "--severity")
        let minutes = try duration.map { try Span.parse($0, allowCalendarUnits: false).approximateSeconds / 60 }
        let entry = try CareNames.shipped.symptomEntry(symptom, asWritten: asWritten)
        return .symptom(Symptom(code: entry.text, isListed: entry.isListed, severity: sev, durationMinutes: minutes))
    }

    /// `diary PET TEXT [--mood M] [--title T]`.
    public static func diary(text: String, mood: String?, title: String?) throws -> RecordDetail {
        .diary(Diary(text: try TextField.text(text, field: "diary"), mood: try mood.map { try TypedChoice.value($0, option: "--mood", group: "mood") },
                     title: try title.map { try TextField.label($0, field: "title") }))
    }

    /// `visit PET [--clinic] [--vet] [--reason] [--diagnosis] [--treatment] [--weight] [--follow-up] [--cost]`: a
    /// follow-up span counts from the visit's day; `cost` is read by the caller (the home currency is its).
    public static func visit(clinic: String?, vet: String?, reason: String?, diagnosis: String?, treatment: String?, weight: String?,
                             followUp: String?, cost: () throws -> Money?, visitDay: LocalDate, defaultUnit: MassUnit, time: TimeContext) throws -> RecordDetail {
        func label(_ v: String?, _ field: String) throws -> String? { try v.map { try TextField.label($0, field: field) } }
        return .visit(Visit(
            clinic: try label(clinic, "clinic"), vet: try label(vet, "vet"), reason: try label(reason, "reason"),
            diagnosis: try diagnosis.map { try TextField.text($0, field: "diagnosis", max: 10_000) },
            treatment: try treatment.map { try TextField.text($0, field: "treatment", max: 10_000) },
            weight: try weight.map { try Mass.parse($0, defaultUnit: defaultUnit) },
            followUp: try followUp.map { try TimeParser.day($0, from: visitDay, context: time) },
            cost: try cost()))
    }

    /// `--note`.
    public static func note(_ raw: String) throws -> String { try TextField.text(raw, field: "note") }

    /// `walk PET [DISTANCE] [DURATION]`'s refusal as one line.
    public static func text(_ refusal: Walk.Refusal, _ l: L10n) -> String {
        switch refusal {
        case .notAMeasure(let v): return l.text(.errWalkMeasure(value: v))
        case .ambiguous(let v, let n): return l.text(.errWalkAmbiguous(value: v, number: n))
        case .twice(let v): return l.text(.errWalkTwice(value: v))
        case .outOfRange(let v): return l.text(.errWalkRange(value: v))
        }
    }

    /// One walk measure as `edit` reads it (`--distance 3.2km`, `--duration 1h10m`, read by `Walk.parse`): its
    /// metres or minutes; nil for an empty value (it clears the measure). Throws `Walk.Refusal`, or `NotOneMeasure`
    /// for a value that is not that one measure alone.
    public static func walkMeasure(_ raw: String, distance: Bool) throws -> Int? {
        guard !raw.trimmingCharacters(in: .whitespaces).isEmpty else { return nil }
        let typed = try Walk.parse([raw])
        guard let v = distance ? typed.meters : typed.minutes, typed.meters == nil || typed.minutes == nil else {
            throw NotOneMeasure(value: raw, distance: distance)
        }
        return v
    }

    /// `walkMeasure`'s refusal of a value that is not the one measure asked for.
    public struct NotOneMeasure: Error {
        public let value: String
        public let distance: Bool
        public func text(_ l: L10n) -> String { l.text(distance ? .errWalkDistance(value: value) : .errWalkDuration(value: value)) }
    }

    /// `groom PET [WHAT…]`: the tasks named by `words`, in en/ko/ja (`bath`, `목욕`, `シャンプー`), each word or
    /// comma-separated list once; a name of several words may come as several words (`귀 청소`). A word that
    /// names no task is refused with the list in `l`'s language.
    public static func groomingTasks(_ words: [String], _ l: L10n) throws -> [Grooming.Task] {
        let parts = words.flatMap { $0.split(whereSeparator: { $0 == "," || $0 == "、" || $0 == "，" }).map(String.init) }
            .map { $0.trimmingCharacters(in: .whitespacesAndNewlines) }.filter { !$0.isEmpty }
        var out: [Grooming.Task] = []
        var i = 0
        while i < parts.count {
            // The longest run of words from here that names a task (`귀 청소`, `nail trim`).
            var found: (Grooming.Task, Int)?
            for end in stride(from: min(parts.count, i + 4), to: i, by: -1) {
                if case .listed(let code) = CareNames.shipped.groomingTask(parts[i..<end].joined(separator: " ")),
                   let task = Grooming.Task(rawValue: code) {
                    found = (task, end); break
                }
            }
            guard let (task, end) = found else {
                _ = try TextField.label(parts[i], field: "what")
                throw ParseError.unknownChoice(field: "what", value: parts[i], accepted: Grooming.Task.allCases.map { l.code(.groomingTask, $0.rawValue) })
            }
            out.append(task)
            i = end
        }
        return out
    }
}

/// `vaccine PET VACCINE …`: the name read (a listed vaccine in any language, a disease a core vaccine covers:
/// `ジステンパー`, `개홍역`, `parvo`), then for each pet the dose's record: the vaccine a disease stands for on
/// that species, and the next due day from the shipped schedule when none is given.
public enum VaccineEntry {
    /// The typed name: its listed code (or the name as written) and the disease it names, if any. The disease
    /// is read before the typo check, so a disease is never "nearly" a vaccine.
    public static func name(_ typed: String, asWritten: Bool) throws -> (listed: String, disease: String?) {
        let disease = asWritten ? nil : CareNames.shipped.diseaseCode(typed)
        let listed = try disease != nil && CareNames.shipped.vaccineCode(typed) == nil
            ? TextField.label(typed, field: "vaccine") : CareNames.shipped.vaccineEntry(typed, asWritten: asWritten)
        return (listed, disease)
    }

    /// One pet's dose: `component` is the core vaccine a disease name stood for on its species (the CLI says so),
    /// `unscheduled` that no schedule gives its next due day (the CLI warns).
    public static func dose(_ name: (listed: String, disease: String?), pet p: Pet, product: String?, lot: String?, clinic: String?,
                            nextDue: LocalDate?, given: (Date, Int), earlier: () throws -> [PetRecord], intent: DoseIntent,
                            time: TimeContext) throws -> (vaccination: Vaccination, component: String?, unscheduled: Bool) {
        let schedule = VaccinationSchedule.shipped
        var code = name.listed, component: String?
        if schedule.vaccine(name.listed, for: p.species) == nil, let disease = name.disease, let entry = schedule.vaccine(covering: disease, for: p.species) {
            code = entry.code
            component = entry.code
        }
        var v = Vaccination(vaccine: code, product: try product.map { try TextField.label($0, field: "product") },
                            lot: try lot.map { try TextField.label($0, field: "lot") },
                            clinic: try clinic.map { try TextField.label($0, field: "clinic") }, nextDue: nextDue)
        var unscheduled = false
        if nextDue == nil {
            if let entry = schedule.vaccine(code, for: p.species) {
                v.nextDue = schedule.nextDue(entry, givenOn: RecordClock.day(given.0, utcOffset: given.1), to: p, records: try earlier(),
                                             intent: intent, context: time)
            } else {
                unscheduled = true
            }
        }
        return (v, component, unscheduled)
    }
}

/// A value from a fixed list typed by its code or by a word of it in any language (`ChoiceWords`: `행복`,
/// `げんき`), else `unknownChoice` naming the option and the accepted words: the CLI's `Choice` and the forms.
public enum TypedChoice {
    public static func value<V>(_ raw: String, option: String, group: String, codes: [String], choice: (String) -> V?) throws -> V {
        guard let v = choice(raw) ?? ChoiceWords.code(raw, group: group, codes: codes).flatMap(choice) else {
            throw ParseError.unknownChoice(field: option, value: raw, accepted: codes)
        }
        return v
    }

    /// A `String`-coded list (`Mood`, `UrineAmount`): the code in any case.
    public static func value<V: CaseIterable & RawRepresentable>(_ raw: String, option: String, group: String) throws -> V where V.RawValue == String {
        try value(raw, option: option, group: group, codes: V.allCases.map(\.rawValue)) { V(rawValue: $0.lowercased()) }
    }
}

/// `urine --color`, `stool --color`: a colour petlog knows, typed in any language (`yellow`, `노란색`, `黄色`), is
/// stored as its code so search and stats agree; any other word is kept as typed.
public enum ColorWord {
    public static func typed(_ raw: String) throws -> String {
        let label = try TextField.label(raw, field: "color")
        return ChoiceWords.code(label, group: "color", codes: ChoiceWords.known["color"] ?? []) ?? label
    }
}

extension SymptomSeverity {
    /// A severity typed as its number or as the word help shows for it (`mild`, `심함`, `重い`).
    public static func typed(_ raw: String, field: String) throws -> SymptomSeverity {
        try parse(ChoiceWords.code(raw, group: "severity", codes: SeverityScale.range.map(String.init)) ?? raw, field: field)
    }
}

extension StoreError {
    /// The refusals about the household's pets and records as one line in `l`'s language (the CLI's stderr
    /// line, a form's notice); nil for the others (files, servers: the CLI's `Failure` says those).
    public func recordText(_ l: L10n) -> String? {
        switch self {
        case .petNotFound(let name, let suggestion?): return l.text(.errPetNotFoundSuggest(name: name, suggestion: suggestion))
        case .petNotFound(let name, nil): return l.text(.errPetNotFound(name: name))
        case .duplicatePetName(let name): return l.text(.errDuplicatePet(name: name))
        case .ambiguousPetName(let name, let candidates): return l.text(.errAmbiguousPet(name: name, candidates: candidates.joined(separator: ", ")))
        case .recordNotFound(let id): return l.text(.errRecordNotFound(id: String(id)))
        case .budgetNotFound(let id): return l.text(.errBudgetNotFound(id: String(id)))
        case .medicationNotFound(let pet, let name): return l.text(.errMedicationNotFound(pet: pet, name: name))
        case .ambiguousMedication(let pet, let name, let candidates):
            return l.text(.errAmbiguousMedication(name: name, pet: pet, candidates: candidates.joined(separator: ", ")))
        case .petArchived(let name): return l.text(.errPetArchived(name: name, quoted: ShellWord.quoted(name)))
        case .petNotArchived(let name): return l.text(.errPetNotArchived(name: name))
        default: return nil
        }
    }
}
