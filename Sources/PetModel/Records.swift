import Foundation

/// Every kind of dated record; all share one supertable (id, pet, time, note, star).
public enum RecordKind: String, CaseIterable, Sendable, Codable {
    case weight, meal, stool, urine, symptom, diary, visit, vaccination, medication, dose, expense, grooming, walk

    /// A comma-separated list of kinds (`,`, `、` or `，`); `names` reads a word that is not a code or alias
    /// (a kind's name in another language).
    public static func parseList(_ raw: String, names: (String) -> String? = { _ in nil }) throws -> [RecordKind] {
        try raw.split(whereSeparator: { ",、，".contains($0) }).map { part in
            let p = part.trimmingCharacters(in: .whitespaces).lowercased()
            let alias = ["vaccine": "vaccination", "med": "medication", "meds": "medication", "weights": "weight",
                         "symptoms": "symptom", "visits": "visit", "expenses": "expense", "meals": "meal", "groom": "grooming", "walks": "walk"][p] ?? p
            guard let k = RecordKind(rawValue: alias) ?? names(p).flatMap(RecordKind.init(rawValue:)) else {
                throw ParseError.unknownChoice(field: "kind", value: p, accepted: RecordKind.allCases.map(\.rawValue))
            }
            return k
        }
    }
}

extension RecordKind {
    /// Records something that happened, so it cannot be dated in the future (`RecordDating`); a course may
    /// start later and an expense may be booked ahead.
    public var isObservation: Bool {
        switch self {
        case .weight, .meal, .stool, .urine, .symptom, .diary, .visit, .vaccination, .dose, .grooming, .walk: true
        case .medication, .expense: false
        }
    }

    /// One letter per kind under a day of `calendar`'s grid (and its legend), so the grid stays aligned in any terminal.
    public var calendarMark: Character {
        switch self {
        case .weight: "w"
        case .meal: "m"
        case .stool: "s"
        case .urine: "u"
        case .symptom: "!"
        case .diary: "d"
        case .visit: "V"
        case .vaccination: "X"
        case .medication: "P"
        case .dose: "p"
        case .expense: "$"
        case .grooming: "G"
        case .walk: "k"
        }
    }

    /// The files a record of the kind is logged with, and so the files `edit` adds to it.
    public enum Files: Sendable { case none, receipts, photos, attachments }

    /// An expense's receipts (`--receipt`: images and PDFs), a diary's, grooming's or walk's photos (`--photo`),
    /// a visit's attachments (`--attach`: any file); other kinds have none.
    public var files: Files {
        switch self {
        case .expense: .receipts
        case .diary, .grooming, .walk: .photos
        case .visit: .attachments
        case .weight, .meal, .stool, .urine, .symptom, .vaccination, .medication, .dose: .none
        }
    }
}

public enum MealType: String, CaseIterable, Sendable, Codable { case meal, snack, treat, water }

/// A food or water amount: `80g`, `200ml`, `1cup`, `2pc`.
public struct Amount: Equatable, Sendable, Codable {
    public enum Unit: String, CaseIterable, Sendable, Codable { case g, ml, cup, piece }
    public var value: Double
    public var unit: Unit

    public init(value: Double, unit: Unit) { self.value = value; self.unit = unit }

    /// `volume`: the meal is water or a drink, so `oz` is a fluid ounce (ml), not a mass. `fl oz` is a volume in any meal.
    public static func parse(_ raw: String, volume: Bool = false) throws -> Amount {
        let text = raw.precomposedStringWithCompatibilityMapping.trimmingCharacters(in: .whitespaces).lowercased()
        if text.hasPrefix("-"), text.dropFirst().first?.asciiDigit != nil { throw ParseError.negative(raw) }
        let number = text.prefix(while: { $0.asciiDigit != nil || $0 == "." })
        let unitText = text.dropFirst(number.count).trimmingCharacters(in: .whitespaces)
        guard let d = DecimalText(number) else { throw ParseError.badAmount(raw) }
        var v = d.doubleValue
        let unit: Unit
        switch unitText {
        case "g", "gram", "grams": unit = .g
        case "kg": unit = .g; v *= 1000
        case "fl oz", "floz", "fl. oz", "fl.oz", "fluid ounce", "fluid ounces": unit = .ml; v *= 29.5735295625
        case "oz", "ounce", "ounces": if volume { unit = .ml; v *= 29.5735295625 } else { unit = .g; v *= 28.349523125 }
        case "ml": unit = .ml
        case "l": unit = .ml; v *= 1000
        case "cup", "cups": unit = .cup
        case "pc", "pcs", "piece", "pieces", "x", "": unit = .piece
        default:
            // A mass in any unit petlog reads (`1 lb`, `9 lb 4 oz`, `１.２ｋｇ`) is that many grams.
            guard let mass = try? Mass.parse(raw), mass.grams <= 100_000 else { throw ParseError.badAmount(raw) }
            return Amount(value: Double(mass.grams), unit: .g)
        }
        let kept = (v * 10).rounded() / 10 // one decimal is kept: check what is kept, so 0.04g is not stored as 0 g
        guard kept > 0, kept <= 100_000 else { throw ParseError.badAmount(raw) }
        return Amount(value: kept, unit: unit)
    }
}

public enum UrineAmount: String, CaseIterable, Sendable, Codable { case none, small, normal, large }
public enum Mood: String, CaseIterable, Sendable, Codable { case happy, calm, playful, tired, anxious, grumpy, unwell }
/// How an expense was paid; `transfer` is a bank transfer (계좌이체, 振込).
public enum Payment: String, CaseIterable, Sendable, Codable { case cash, card, transfer, other }
public enum Route: String, CaseIterable, Sendable, Codable { case oral, topical, injection, eye, ear, inhaled, other }

/// The kind-specific part of a record. The kinds with many fields are held in a box of their own (`indirect`): inline,
/// the largest made every record 444 bytes, and `due`'s thousands of vaccinations were copied at that size from the
/// rows to the records and into each pet's agenda (issue 44).
public enum RecordDetail: Equatable, Sendable {
    case weight(Weight)
    case meal(Meal)
    case stool(Stool)
    case urine(Urine)
    case symptom(Symptom)
    case diary(Diary)
    indirect case visit(Visit)
    indirect case vaccination(Vaccination)
    indirect case medication(Medication)
    case dose(Dose)
    indirect case expense(Expense)
    indirect case grooming(Grooming)
    case walk(Walk)

    public var kind: RecordKind {
        switch self {
        case .weight: .weight
        case .meal: .meal
        case .stool: .stool
        case .urine: .urine
        case .symptom: .symptom
        case .diary: .diary
        case .visit: .visit
        case .vaccination: .vaccination
        case .medication: .medication
        case .dose: .dose
        case .expense: .expense
        case .grooming: .grooming
        case .walk: .walk
        }
    }

    /// The day a record asks for the next session of its kind (a grooming's `--next`): `due` lists it until a
    /// later record of the kind answers it, and the calendar file holds it. Not before the record's own day.
    public var nextSession: LocalDate? {
        if case .grooming(let g) = self { return g.next }
        return nil
    }

    /// How a record of a kind after the eleven shipped ones reads in one line (`RecordWording.summary` words
    /// it); nil for those eleven, whose lines are written by hand there. A new kind's case is asked for here.
    public var summary: RecordSummary? {
        typealias P = RecordSummary.Part
        switch self {
        case .weight, .meal, .stool, .urine, .symptom, .diary, .visit, .vaccination, .medication, .dose, .expense: return nil
        case .grooming(let g):
            return RecordSummary(headline: [g.tasks.isEmpty ? nil : P.codes(group: "groomingTask", g.tasks.map(\.rawValue))],
                                 rest: [g.groomer.map(P.text), g.cost.map(P.money), g.next.map(P.nextSession)])
        case .walk(let w):
            return RecordSummary(headline: [w.meters.map(P.meters), w.minutes.map(P.minutes)])
        }
    }
}

public struct Weight: Equatable, Sendable {
    public var mass: Mass
    /// Body condition score 1–9 (WSAVA), optional.
    public var bodyConditionScore: BodyConditionScore?
    public var bodyCondition: Int? { bodyConditionScore?.value }
    public init(mass: Mass, bodyCondition: BodyConditionScore? = nil) { self.mass = mass; self.bodyConditionScore = bodyCondition }
}

public struct Meal: Equatable, Sendable {
    public var food: String
    public var type: MealType
    public var amount: Amount?
    public init(food: String, type: MealType, amount: Amount?) { self.food = food; self.type = type; self.amount = amount }
}

public struct Stool: Equatable, Sendable {
    /// Faecal score 1 (hard) – 7 (watery).
    public var faecalScore: StoolScore
    public var score: Int { faecalScore.value }
    public var color: String?
    public var blood: Bool
    public var mucus: Bool
    public init(score: StoolScore, color: String? = nil, blood: Bool = false, mucus: Bool = false) {
        self.faecalScore = score; self.color = color; self.blood = blood; self.mucus = mucus
    }
}

public struct Urine: Equatable, Sendable {
    public var color: String?
    public var amount: UrineAmount?
    public var straining: Bool
    public var blood: Bool
    public init(color: String? = nil, amount: UrineAmount? = nil, straining: Bool = false, blood: Bool = false) {
        self.color = color; self.amount = amount; self.straining = straining; self.blood = blood
    }
}

public struct Symptom: Equatable, Sendable {
    /// A code from the shipped list (`vomiting`) or the owner's own words.
    public var code: String
    public var isListed: Bool
    public var severityLevel: SymptomSeverity
    public var severity: Int { severityLevel.value }
    public var durationMinutes: Int?
    public init(code: String, isListed: Bool, severity: SymptomSeverity, durationMinutes: Int? = nil) {
        self.code = code; self.isListed = isListed; self.severityLevel = severity; self.durationMinutes = durationMinutes
    }
}

public struct Diary: Equatable, Sendable {
    public var text: String
    public var mood: Mood?
    /// A short heading (one line), as the diary apps have; none on entries from before v12.
    public var title: String?
    public init(text: String, mood: Mood? = nil, title: String? = nil) { self.text = text; self.mood = mood; self.title = title }
}

public struct Visit: Equatable, Sendable {
    public var clinic: String?
    public var vet: String?
    public var reason: String?
    public var diagnosis: String?
    public var treatment: String?
    public var weight: Mass?
    public var followUp: LocalDate?
    public var cost: Money?
    public init(clinic: String? = nil, vet: String? = nil, reason: String? = nil, diagnosis: String? = nil, treatment: String? = nil,
                weight: Mass? = nil, followUp: LocalDate? = nil, cost: Money? = nil) {
        self.clinic = clinic; self.vet = vet; self.reason = reason; self.diagnosis = diagnosis; self.treatment = treatment
        self.weight = weight; self.followUp = followUp; self.cost = cost
    }
}

public struct Vaccination: Equatable, Sendable {
    public var vaccine: String
    public var product: String?
    public var lot: String?
    public var clinic: String?
    public var nextDue: LocalDate?
    public init(vaccine: String, product: String? = nil, lot: String? = nil, clinic: String? = nil, nextDue: LocalDate? = nil) {
        self.vaccine = vaccine; self.product = product; self.lot = lot; self.clinic = clinic; self.nextDue = nextDue
    }
}

/// A medication course; its doses are separate `dose` records pointing at it.
public struct Medication: Equatable, Sendable {
    public var name: String
    public var dose: String?
    public var route: Route?
    /// Seconds between doses; nil with no `times` = as needed.
    public var intervalSeconds: Int?
    /// Fixed local times of day (minutes after midnight), instead of an interval.
    public var times: [Int]
    public var endsOn: LocalDate?
    public var stoppedAt: Date?
    public init(name: String, dose: String? = nil, route: Route? = nil, intervalSeconds: Int? = nil, times: [Int] = [],
                endsOn: LocalDate? = nil, stoppedAt: Date? = nil) {
        self.name = name; self.dose = dose; self.route = route; self.intervalSeconds = intervalSeconds; self.times = times
        self.endsOn = endsOn; self.stoppedAt = stoppedAt
    }

    /// `08:00,20:00` → minutes after midnight, sorted.
    public static func parseTimes(_ raw: String) throws -> [Int] {
        let parts = raw.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
        var out: [Int] = []
        for p in parts {
            let hm = p.split(separator: ":", omittingEmptySubsequences: false)
            guard hm.count == 2, hm[0].count == 2, hm[1].count == 2, let h = Int(hm[0]), let m = Int(hm[1]),
                  hm.allSatisfy({ $0.allSatisfy { $0.isASCII && $0.isNumber } }), h < 24, m < 60 else { throw ParseError.badTime(raw) }
            out.append(h * 60 + m)
        }
        guard !out.isEmpty, Set(out).count == out.count else { throw ParseError.badTime(raw) }
        return out.sorted()
    }

    public static func formatTimes(_ times: [Int]) -> String {
        times.map { String(format: "%02d:%02d", $0 / 60, $0 % 60) }.joined(separator: ",")
    }
}

public struct Dose: Equatable, Sendable {
    public var medicationId: Int64
    public var medicationName: String
    public var skipped: Bool
    public init(medicationId: Int64, medicationName: String, skipped: Bool = false) {
        self.medicationId = medicationId; self.medicationName = medicationName; self.skipped = skipped
    }
}

public struct Expense: Equatable, Sendable {
    /// This record's amount: the whole expense, or this pet's share of a split one.
    public var money: Money
    public var category: String
    public var merchant: String?
    public var payment: Payment?
    /// What was bought, in receipt order (`--items "kibble 2kg, chews"`).
    public var items: [String]
    /// For a share of an expense split among pets: the record id of the first share (the first names
    /// itself); nil when the expense is not split.
    public var splitOf: Int64?
    public init(money: Money, category: String, merchant: String? = nil, payment: Payment? = nil, items: [String] = [], splitOf: Int64? = nil) {
        self.money = money; self.category = category; self.merchant = merchant; self.payment = payment
        self.items = items; self.splitOf = splitOf
    }

    /// `"kibble 2kg, chews"` → `["kibble 2kg", "chews"]`: split on commas (also `、` and `，`), trimmed, empties dropped.
    public static func parseItems(_ raw: String) -> [String] {
        raw.precomposedStringWithCompatibilityMapping.split(whereSeparator: { $0 == "," || $0 == "、" })
            .map { $0.trimmingCharacters(in: .whitespacesAndNewlines) }.filter { !$0.isEmpty }
    }
}

/// What a groomer (or the owner) did: a bath, a cut, nails. Its cost is `grooming` spending, as a
/// visit's cost is `vet` spending; `next` is when the next session is due (`due`, the calendar file).
public struct Grooming: Equatable, Sendable {
    public enum Task: String, CaseIterable, Sendable, Codable { case bath, haircut, nails, ears, teeth, brushing, deshedding }
    /// In the order first typed, without repeats; may be empty ("groomed").
    public var tasks: [Task]
    public var groomer: String?
    public var cost: Money?
    public var next: LocalDate?
    public init(tasks: [Task] = [], groomer: String? = nil, cost: Money? = nil, next: LocalDate? = nil) {
        var seen = Set<Task>()
        self.tasks = tasks.filter { seen.insert($0).inserted }; self.groomer = groomer; self.cost = cost; self.next = next
    }

    /// The tasks as stored and exported: their codes joined by commas (`bath,nails`), nil when none.
    public var taskList: String? { tasks.isEmpty ? nil : tasks.map(\.rawValue).joined(separator: ",") }

    /// `bath,nails` → the tasks; nil when a code is not one petlog writes.
    public static func parseTaskList(_ raw: String) -> [Task]? {
        var out: [Task] = []
        for part in raw.split(separator: ",", omittingEmptySubsequences: false) {
            guard let t = Task(rawValue: String(part)) else { return nil }
            out.append(t)
        }
        return out
    }
}

/// A walk: how far and how long, either, both or neither (whole metres, whole minutes). `parse` reads what
/// `walk` is given: `3.2km`, `2mi`, `800m`, `45min`, `1h10m`, `1.5h`, and the Korean and Japanese words
/// (`3.2킬로`, `45분`, `1시간 10분`, `2キロ`, `1時間10分`). `m` alone is metres from 100 up (`800m`), minutes
/// right after hours (`1h10m`); below 100 (`90m`) it could be either and is refused (`.ambiguous`).
public struct Walk: Equatable, Sendable {
    /// Up to 200 km and up to a day.
    public static let meterRange = 1...200_000, minuteRange = 1...1440
    public var meters: Int?
    public var minutes: Int?
    public init(meters: Int? = nil, minutes: Int? = nil) { self.meters = meters; self.minutes = minutes }

    /// Why typed words are not a walk's distance and duration; each names the typed word.
    public enum Refusal: Error, Equatable, Sendable {
        case notAMeasure(String), ambiguous(String, number: String), twice(String), outOfRange(String)
    }

    /// Units as typed (after width folding and lowercasing), longest first so `min` is not read as `mi`.
    static let units: [(word: String, unit: String)] = [
        ("kilometres", "km"), ("kilometers", "km"), ("kilometre", "km"), ("kilometer", "km"), ("km", "km"), ("킬로미터", "km"), ("킬로", "km"),
        ("키로", "km"), ("キロメートル", "km"), ("キロ", "km"), ("metres", "metre"), ("meters", "metre"), ("metre", "metre"), ("meter", "metre"),
        ("미터", "metre"), ("メートル", "metre"), ("miles", "mi"), ("mile", "mi"), ("mi", "mi"), ("마일", "mi"), ("マイル", "mi"),
        ("minutes", "min"), ("minute", "min"), ("mins", "min"), ("min", "min"), ("분", "min"), ("分間", "min"), ("分", "min"),
        ("hours", "h"), ("hour", "h"), ("hrs", "h"), ("hr", "h"), ("h", "h"), ("시간", "h"), ("時間", "h"), ("m", "m"),
    ].sorted { $0.0.count > $1.0.count }

    /// The walk `words` describe (joined with spaces: `3.2 km`, `1시간 10분` may come as several arguments).
    public static func parse(_ words: [String]) throws -> Walk {
        let text = words.joined(separator: " ").precomposedStringWithCompatibilityMapping.lowercased()
        var rest = Substring(text)
        var walk = Walk()
        var hours: (shown: String, value: DecimalText, from: Substring)?  // an hours part waiting for its minutes (`1h` of `1h10m`)
        // `value` × `per` ÷ `divisor`, exactly, in the unit kept; nil when it is not whole (rounded instead with `round`).
        func whole(_ value: DecimalText, _ per: Int64, divisor: Int64 = 1, round: Bool = false) -> Int? {
            var d = divisor
            for _ in 0..<value.scale { d = d.multipliedReportingOverflow(by: 10).partialValue }
            let (n, overflow) = value.digits.multipliedReportingOverflow(by: per)
            guard !overflow, d > 0 else { return nil }
            if round { return Int((n + d / 2) / d) }
            return n % d == 0 ? Int(n / d) : nil
        }
        func setMinutes(_ n: Int?, _ shown: String) throws {
            guard walk.minutes == nil else { throw Refusal.twice(shown) }
            guard let n else { throw Refusal.notAMeasure(shown) }  // whole minutes only (`45.5min`)
            guard minuteRange.contains(n) else { throw Refusal.outOfRange(shown) }
            walk.minutes = n
        }
        func flushHours() throws { if let h = hours { hours = nil; try setMinutes(whole(h.value, 60), h.shown) } }
        while true {
            rest = rest.drop { $0 == " " || $0 == "," || $0 == "、" }
            guard !rest.isEmpty else { break }
            let start = rest
            let typed = String(start.prefix { $0 != " " })
            let number = rest.prefix { $0.isASCII && ($0.isNumber || $0 == ".") }
            rest = rest.dropFirst(number.count).drop { $0 == " " }
            guard let value = DecimalText(number), value.digits > 0,
                  let (word, unit) = units.first(where: { rest.hasPrefix($0.word) }) else { throw Refusal.notAMeasure(typed) }
            rest = rest.dropFirst(word.count)
            // A unit runs into no letters (`10mx`, `45minutes2` are not measures).
            if let next = rest.first, next.isLetter { throw Refusal.notAMeasure(typed) }
            let shown = String(start.prefix(start.count - rest.count))
            switch unit {
            case "h":
                try flushHours()
                hours = (shown, value, start)
            case "min", "m" where hours != nil:
                if let h = hours {
                    // Minutes after whole hours: `1h10m`, `1시간 10분`.
                    hours = nil
                    // Both as typed, with what stood between them (`1시간 10분`).
                    let both = String(h.from.prefix(h.from.count - rest.count))
                    guard h.value.scale == 0, let m = whole(value, 1) else { throw Refusal.notAMeasure(both) }
                    try setMinutes(whole(h.value, 60).map { $0 + m }, both)
                } else {
                    try setMinutes(whole(value, 1), shown)
                }
            default:
                try flushHours()
                let meters: Int?
                switch unit {
                case "km": meters = whole(value, 1000, round: true)
                case "mi": meters = whole(value, 1_609_344, divisor: 1000, round: true)
                case "metre": meters = whole(value, 1)
                default:
                    // `m` alone: metres from 100 up; below, minutes are as likely (`90m`).
                    guard value.digits >= 100 * pow10(value.scale) else { throw Refusal.ambiguous(shown, number: String(number)) }
                    meters = whole(value, 1)
                }
                guard walk.meters == nil else { throw Refusal.twice(shown) }
                guard let meters else { throw Refusal.notAMeasure(shown) }  // whole metres when typed in metres
                guard meterRange.contains(meters) else { throw Refusal.outOfRange(shown) }
                walk.meters = meters
            }
        }
        try flushHours()
        return walk
    }

    static func pow10(_ n: Int) -> Int64 { (0..<n).reduce(Int64(1)) { p, _ in p.multipliedReportingOverflow(by: 10).partialValue } }
}

/// A stored file attached to a record (photo, receipt, lab PDF), addressed by its SHA-256.
public struct Attachment: Equatable, Sendable {
    public var sha256: String
    public var originalName: String
    public var mediaType: String
    public var size: Int64
    public var position: Int
    public init(sha256: String, originalName: String, mediaType: String, size: Int64, position: Int) {
        self.sha256 = sha256; self.originalName = originalName; self.mediaType = mediaType; self.size = size; self.position = position
    }
}

/// A record as stored: the shared header plus its detail.
public struct PetRecord: Equatable, Sendable {
    public var id: Int64
    public var petId: Int64?
    public var petName: String?
    public var at: Date
    /// Seconds east of UTC where and when it happened.
    public var utcOffset: Int
    public var note: String?
    public var starred: Bool
    public var createdAt: Date
    public var updatedAt: Date
    public var detail: RecordDetail
    public var attachments: [Attachment]
    /// The database role that wrote it, on a PostgreSQL store (nil in a SQLite file, which has one user).
    public var writtenBy: String?

    public init(id: Int64, petId: Int64?, petName: String?, at: Date, utcOffset: Int, note: String?, starred: Bool,
                createdAt: Date, updatedAt: Date, detail: RecordDetail, attachments: [Attachment] = [], writtenBy: String? = nil) {
        self.id = id; self.petId = petId; self.petName = petName; self.at = at; self.utcOffset = utcOffset
        self.note = note; self.starred = starred; self.createdAt = createdAt; self.updatedAt = updatedAt
        self.detail = detail; self.attachments = attachments; self.writtenBy = writtenBy
    }

    public var kind: RecordKind { detail.kind }
}

/// A record to be written: when, a note, the detail, and files to attach.
public struct RecordDraft: Sendable {
    public var at: Date
    public var utcOffset: Int
    public var note: String?
    public var detail: RecordDetail
    public var attachmentPaths: [String]

    public init(at: Date, utcOffset: Int, note: String? = nil, detail: RecordDetail, attachmentPaths: [String] = []) {
        self.at = at; self.utcOffset = utcOffset; self.note = note; self.detail = detail; self.attachmentPaths = attachmentPaths
    }
}
