import Foundation
import Localization
import PetModel
import PetStoreCore

/// `edit ID [--at] [--note] [--weight] …`'s options turned into a change of the record: the one reader behind the
/// CLI's `edit` and `petlog serve`'s `POST /records/ID/edit` (fields named as the options, without `--`). Spans
/// (`--follow-up 2w`, `--next 1y`) count from the record's day, its new `--at` when that changes too; a
/// vaccination's next due day that petlog computed moves with the record (a typed one stays); a record of
/// something that happened cannot be moved into the future. An option that does not fit the record's kind is
/// a `NotForKind`; a bad value, a `ParseError`.
public struct RecordEdit {
    /// An option given that the record's kind has no field for (`--weight` on a diary).
    public struct NotForKind: Error, Equatable {
        public let flag: String
        public let kind: RecordKind
        public init(flag: String, kind: RecordKind) { self.flag = flag; self.kind = kind }
    }

    /// What reading the options needs from the caller.
    public struct Context {
        public let time: TimeContext
        /// A bare number's mass unit (`--weight 12.5`).
        public let defaultUnit: MassUnit
        /// The language money is read in (`4만5천원`).
        public let language: String
        /// The home currency, when an amount names none and the record has none.
        public let homeCurrency: () throws -> Currency
        /// A later kind's member that the command logging the kind reads (a grooming's tasks, a walk's measures).
        public let member: (RecordKindTable.JSONField, String, RecordKind) throws -> SQLValue

        public init(time: TimeContext, defaultUnit: MassUnit, language: String, homeCurrency: @escaping () throws -> Currency,
                    member: @escaping (RecordKindTable.JSONField, String, RecordKind) throws -> SQLValue) {
            self.time = time; self.defaultUnit = defaultUnit; self.language = language; self.homeCurrency = homeCurrency; self.member = member
        }
    }

    /// The value options in the order a stray one is reported, as typed (`--weight` → `12.5`).
    public static let options = ["--weight", "--bcs", "--score", "--severity", "--text", "--title", "--food", "--amount", "--clinic", "--reason",
                                 "--diagnosis", "--treatment", "--follow-up", "--cost", "--next", "--lot", "--dose", "--category", "--merchant",
                                 "--items", "--payment", "--what", "--by", "--distance", "--duration"]

    /// `--at` as typed (nil: unchanged).
    public var at: String?
    /// `--note` as typed (nil: unchanged; empty: cleared).
    public var note: String?
    /// `--pet`.
    public var pet: PetRef?
    /// The value options given, by their names in `options`.
    public var values: [String: String]
    /// `--card`, `--cash` or `--payment`: the flag given and its value (read only when the record is an expense).
    public var payment: (flag: String, value: () throws -> Payment?)?
    public let context: Context

    /// `--at` read: the instant and whether only a day was typed.
    let parsed: (Date, Bool)?
    /// `--at`'s moment with the typed offset (else the zone's).
    let when: (Date, Int)?
    /// `--note` read (`.some(nil)`: cleared).
    let noteChange: String??

    /// The options read: `--at` and `--note` here, before the store is touched; the rest against the record.
    public init(at: String?, note: String?, pet: PetRef?, values: [String: String], payment: (flag: String, value: () throws -> Payment?)?,
                context: Context) throws {
        self.at = at; self.note = note; self.pet = pet; self.values = values; self.payment = payment; self.context = context
        parsed = try at.map { try TimeParser.instantAndPrecision($0, context: context.time) }
        // The typed offset when `--at` has one, else the session zone's (as every command that logs).
        when = try at.map { raw in try TimeParser.moment(raw, context: context.time) }.map { ($0.date, $0.utcOffset) }
        var noteChange: String??
        if let n = note { noteChange = .some(n.isEmpty ? nil : try RecordEntry.note(n)) }
        self.noteChange = noteChange
    }

    /// The record's day: `--at`'s when given, else its own.
    func recordDay(_ r: PetRecord) -> LocalDate { when.map { RecordClock.day($0.0, utcOffset: $0.1) } ?? r.localDay }

    /// A vaccination's computed next due day moved to the record's new day (`--at` without `--next`); nil when
    /// nothing moves. `pet` and `vaccinations` read the store (the pet, its vaccinations).
    public func movedNextDue(_ current: PetRecord, pet: (Int64) throws -> Pet, vaccinations: (Int64) throws -> [PetRecord]) throws -> LocalDate?? {
        guard at != nil, values["--next"] == nil, case .vaccination = current.detail, let petId = current.petId else { return nil }
        return .some(VaccinationSchedule.shipped.movedNextDue(current, to: recordDay(current), pet: try pet(petId),
                                                              records: try vaccinations(petId)))
    }

    /// The change of `current`: `--at`, `--note`, `--pet` and the value options, with `moved` (`movedNextDue`).
    public func update(_ current: PetRecord, moved: LocalDate??) throws -> RecordUpdate {
        // A record of something that happened cannot be moved into the future.
        if let (date, dayOnly) = parsed, let raw = at, RecordDating.isObservation(current.kind) {
            _ = try context.time.checkObserved(date, dayOnly: dayOnly, raw: raw)
        }
        var detail = try changedDetail(current)
        if let moved, case .vaccination(var v) = detail ?? current.detail, v.nextDue != moved {
            v.nextDue = moved
            detail = .vaccination(v)
        }
        return RecordUpdate(at: when?.0, utcOffset: when?.1, note: noteChange, pet: pet, detail: detail)
    }

    /// The detail with the value options applied (nil: none given); an option that does not fit the kind is refused.
    public func changedDetail(_ r: PetRecord) throws -> RecordDetail? {
        var used: Set<String> = []
        func take<T>(_ flag: String, _ parse: (String) throws -> T) throws -> T? {
            guard let v = values[flag] else { return nil }
            used.insert(flag)
            return try parse(v)
        }
        // An empty value clears an optional text field (`--merchant ""`), as `--note ""` does.
        func cleared(_ raw: String, _ read: (String) throws -> String) throws -> String? {
            raw.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty ? nil : try read(raw)
        }
        func amount(_ raw: String, _ currency: Currency?) throws -> Money {
            try MoneyText.parse(raw, defaultCurrency: currency, language: context.language)
        }
        let unit = context.defaultUnit
        let time = context.time
        var detail = r.detail
        // Spans (`--follow-up 2w`, `--next 1y`) count from the record's day: its new `--at` when that changes too.
        let day = recordDay(r)
        // Every value option, as typed (nil: not given); the payment's slot under the flag given.
        let paymentFlag = payment?.flag ?? "--payment"
        let given: [(String, String?)] = Self.options.map { $0 == "--payment" ? (paymentFlag, payment.map(\.flag)) : ($0, values[$0]) }
        // The kind's options (`fields`, the list the web form shows too): any other given is refused before a value is read.
        let offered = Set(Self.fields(r.kind).map(\.option))
        if let stray = zip(Self.options, given).first(where: { $1.1 != nil && !offered.contains($0) }) {
            throw NotForKind(flag: stray.1.0, kind: r.kind)
        }
        switch detail {
        case .weight(var w):
            if let m = try take("--weight", { try Mass.parse($0, defaultUnit: unit) }) { w.mass = m }
            if let b = try take("--bcs", { try BodyConditionScore.parse($0, field: "--bcs") }) { w.bodyConditionScore = b }
            detail = .weight(w)
        case .stool(var st):
            if let v = try take("--score", { try StoolScore.parse($0, field: "--score") }) { st.faecalScore = v }
            detail = .stool(st)
        case .symptom(var sy):
            if let v = try take("--severity", { try SymptomSeverity.typed($0, field: "--severity") }) { sy.severityLevel = v }
            detail = .symptom(sy)
        case .diary(var d):
            if let v = try take("--text", { try TextField.text($0, field: "diary") }) { d.text = v }
            if let v = try take("--title", { try cleared($0) { try TextField.label($0, field: "title") } }) { d.title = v }
            detail = .diary(d)
        case .meal(var m):
            if let v = try take("--food", { try TextField.label($0, field: "food") }) { m.food = v }
            if let v = try take("--amount", { try Amount.parse($0, volume: m.type == .water) }) { m.amount = v }
            detail = .meal(m)
        case .visit(var v):
            if let x = try take("--clinic", { try cleared($0) { try TextField.label($0, field: "clinic") } }) { v.clinic = x }
            if let x = try take("--reason", { try cleared($0) { try TextField.label($0, field: "reason") } }) { v.reason = x }
            if let x = try take("--diagnosis", { try cleared($0) { try TextField.text($0, field: "diagnosis", max: 10_000) } }) { v.diagnosis = x }
            if let x = try take("--treatment", { try cleared($0) { try TextField.text($0, field: "treatment", max: 10_000) } }) { v.treatment = x }
            if let x = try take("--weight", { try Mass.parse($0, defaultUnit: unit) }) { v.weight = x }
            if let x = try take("--follow-up", { try TimeParser.day($0, from: day, context: time) }) { v.followUp = x }
            if let x = try take("--cost", { try amount($0, try v.cost?.currency ?? context.homeCurrency()) }) { v.cost = x }
            detail = .visit(v)
        case .vaccination(var v):
            if let x = try take("--clinic", { try cleared($0) { try TextField.label($0, field: "clinic") } }) { v.clinic = x }
            if let x = try take("--next", { try TimeParser.day($0, from: day, context: time) }) { v.nextDue = x }
            if let x = try take("--lot", { try cleared($0) { try TextField.label($0, field: "lot") } }) { v.lot = x }
            detail = .vaccination(v)
        case .medication(var m):
            if let x = try take("--dose", { try cleared($0) { try TextField.label($0, field: "dose") } }) { m.dose = x }
            detail = .medication(m)
        case .expense(var e):
            if let x = try take("--amount", { try MoneyText.expenseAmount($0, defaultCurrency: e.money.currency, language: context.language) }) { e.money = x }
            if let x = try take("--category", { try CareNames.shipped.categoryEntry($0) }) { e.category = x }
            if let x = try take("--merchant", { try cleared($0) { try TextField.label($0, field: "merchant") } }) { e.merchant = x }
            if let x = try take("--items", { raw in try Expense.parseItems(raw).map { try TextField.label($0, field: "items") } }) { e.items = x }
            if let payment {
                used.insert(payment.flag)
                e.payment = try payment.value()
            }
            detail = .expense(e)
        case .urine, .dose:
            break
        default:
            // Every kind after the eleven shipped ones: the options its descriptor's members name, in their order.
            var columns = RecordKindTable.columnValues(detail)
            for m in RecordKindTable.of(r.kind).members ?? [] {
                guard let option = m.option, let typed = given.first(where: { $0.0 == option })?.1 else { continue }
                used.insert(option)
                for (column, value) in try memberValue(m, typed, columns, recordDay: day, kind: r.kind) { columns[column] = value }
            }
            if !used.isEmpty { detail = try RecordKindTable.of(r.kind).detail(columns) }
        }
        if let stray = given.first(where: { $0.1 != nil && !used.contains($0.0) }) {
            throw NotForKind(flag: stray.0, kind: r.kind)
        }
        return used.isEmpty ? nil : detail
    }

    /// The columns a typed option sets for member `m` of a later kind: text (an empty one clears it), a day (a
    /// span from the record's day), money (in the record's currency unless it names one) read here; codes and
    /// measures by the command that logs the kind (`Context.member`), as it reads them.
    func memberValue(_ m: RecordKindTable.JSONField, _ raw: String, _ columns: [String: SQLValue], recordDay: LocalDate,
                     kind: RecordKind) throws -> [(String, SQLValue)] {
        let column = m.columns[0]
        switch m.value {
        case .text:
            guard !raw.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty else { return [(column, .null)] }
            return [(column, .text(try TextField.label(raw, field: m.key)))]
        case .day:
            return [(column, .text(try TimeParser.day(raw, from: recordDay, context: context.time).description))]
        case .money:
            let current = columns[m.columns[1]]?.text.flatMap(Currency.named)
            let money = try MoneyText.parse(raw, defaultCurrency: try current ?? context.homeCurrency(), language: context.language)
            return [(column, .int(money.minorUnits)), (m.columns[1], .text(money.currency.code))]
        case .codes, .meters, .minutes:
            return [(column, try context.member(m, raw, kind))]
        }
    }
}
