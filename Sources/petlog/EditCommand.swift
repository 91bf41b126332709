import ArgumentParser
import Foundation
import Localization
import PetModel
import PetStoreCore
import PetViews

struct EditCommand: ParsableCommand {
    @OptionGroup(title: Help.s(.helpGlobalOptionsTitle)) var global: GlobalOptions
    static var configuration: CommandConfiguration { CommandConfiguration(
        commandName: "edit", abstract: Help.s(.helpEditCommandAbstract),
        discussion: Help.s(.helpEditCommandDiscussion)) }
    @Argument(help: ArgumentHelp(Help.s(.helpEditCommandId))) var id: Int64
    @Option(parsing: .unconditional, help: ArgumentHelp(Help.s(.helpEditCommandAt))) var at: String?
    @Option(help: ArgumentHelp(Help.s(.helpEditCommandNote))) var note: String?
    @Option(help: ArgumentHelp(Help.s(.helpEditCommandPet))) var pet: String?
    @Option(help: ArgumentHelp(Help.s(.helpEditCommandWeight))) var weight: String?
    @Option(help: ArgumentHelp(Help.s(.helpEditCommandBcs))) var bcs: String?
    @Option(help: ArgumentHelp(Help.s(.helpEditCommandScore))) var score: String?
    @Option(help: ArgumentHelp(Help.s(.helpEditCommandSeverity))) var severity: String?
    @Option(help: ArgumentHelp(Help.s(.helpEditCommandText))) var text: String?
    @Option(help: ArgumentHelp(Help.s(.helpEditCommandTitle))) var title: String?
    @Option(help: ArgumentHelp(Help.s(.helpEditCommandFood))) var food: String?
    @Option(help: ArgumentHelp(Help.s(.helpEditCommandAmount))) var amount: String?
    @Option(help: ArgumentHelp(Help.s(.helpEditCommandClinic))) var clinic: String?
    @Option(help: ArgumentHelp(Help.s(.helpEditCommandReason))) var reason: String?
    @Option(help: ArgumentHelp(Help.s(.helpEditCommandDiagnosis))) var diagnosis: String?
    @Option(help: ArgumentHelp(Help.s(.helpEditCommandTreatment))) var treatment: String?
    @Option(parsing: .unconditional, help: ArgumentHelp(Help.s(.helpEditCommandFollowUp))) var followUp: String?
    @Option(help: ArgumentHelp(Help.s(.helpEditCommandCost))) var cost: String?
    @Option(parsing: .unconditional, help: ArgumentHelp(Help.s(.helpEditCommandNext))) var next: String?
    @Option(help: ArgumentHelp(Help.s(.helpEditCommandLot))) var lot: String?
    @Option(help: ArgumentHelp(Help.s(.helpEditCommandDose))) var dose: String?
    @Option(help: ArgumentHelp(Help.s(.helpEditCommandCategory))) var category: String?
    @Option(help: ArgumentHelp(Help.s(.helpEditCommandMerchant))) var merchant: String?
    @Option(help: ArgumentHelp(Help.s(.helpEditCommandItems))) var items: String?
    @Option(help: ArgumentHelp(Help.s(.helpEditCommandPayment))) var payment: Choice<Payment>?
    @Flag(help: ArgumentHelp(Help.s(.helpExpenseFieldOptionsCard))) var card = false
    @Flag(help: ArgumentHelp(Help.s(.helpExpenseFieldOptionsCash))) var cash = false
    @Option(help: ArgumentHelp(Help.s(.helpEditCommandWhat))) var what: String?
    @Option(name: .customLong("by"), help: ArgumentHelp(Help.s(.helpEditCommandBy))) var groomer: String?
    @Option(help: ArgumentHelp(Help.s(.helpEditCommandDistance))) var distance: String?
    @Option(help: ArgumentHelp(Help.s(.helpEditCommandDuration))) var duration: String?
    @Option(help: ArgumentHelp(Help.s(.helpEditCommandReceipt)), completion: .file()) var receipt: [String] = []
    @Option(help: ArgumentHelp(Help.s(.helpEditCommandPhoto)), completion: .file()) var photo: [String] = []
    @Option(help: ArgumentHelp(Help.s(.helpEditCommandAttach)), completion: .file()) var attach: [String] = []
    @Option(help: ArgumentHelp(Help.s(.helpEditCommandDetach))) var detach: [String] = []

    func validate() throws {
        try PaymentFlags.check(card: card, cash: cash, payment: payment)
    }

    /// `--card`, `--cash` or `--payment WORD`, as `expense` takes them; nil when none is given.
    var paymentGiven: String? { card ? "--card" : cash ? "--cash" : payment.map { _ in "--payment" } }

    func run() throws {
        try Session.run(global) { s in
            let parsed = try at.map { try TimeParser.instantAndPrecision($0, context: s.time) }
            // The typed offset when `--at` has one, else the session zone's (as every command that logs).
            let when = try at.map { raw in try TimeParser.moment(raw, context: s.time) }.map { ($0.date, $0.utcOffset) }
            var noteChange: String??
            if let n = note { noteChange = .some(n.isEmpty ? nil : try PetModelText.note(n)) }
            // A vaccination's next due day that petlog computed moves with the record (a typed one stays).
            var movedNextDue: LocalDate??
            if let raw = at, next == nil {
                let repo = try s.repository()
                let current = try repo.record(id: id)
                if case .vaccination = current.detail, let petId = current.petId {
                    let newDay = s.recordDay(try s.when(raw))
                    let pet = try repo.pet(.id(petId))
                    let records = try repo.records(RecordQuery(pets: [.id(petId)], kinds: [.vaccination]))
                    movedNextDue = .some(VaccinationSchedule.shipped.movedNextDue(current, to: newDay, pet: pet, records: records))
                }
            }
            let session = s
            var recordChanged = false
            // Files to attach follow the record's kind as when it was logged (`expense --receipt`, `diary` and
            // `groom --photo`, `vet --attach`), with the same checks; all before anything is written.
            var files = AttachmentEdit(detach: detach)
            if !receipt.isEmpty || !photo.isEmpty || !attach.isEmpty {
                files.add = try attachmentPaths(kind: try s.repository().record(id: id).kind, s)
            }
            let change = { (current: PetRecord) throws -> RecordUpdate in
                // A record of something that happened cannot be moved into the future.
                if let (date, dayOnly) = parsed, let raw = at, RecordDating.isObservation(current.kind) {
                    _ = try session.time.checkObserved(date, dayOnly: dayOnly, raw: raw)
                }
                var detail = try changedDetail(current, session)
                if let moved = movedNextDue, case .vaccination(var v) = detail ?? current.detail, v.nextDue != moved {
                    v.nextDue = moved
                    detail = .vaccination(v)
                }
                let update = RecordUpdate(at: when?.0, utcOffset: when?.1, note: noteChange, pet: pet.map(PetRef.init), detail: detail)
                recordChanged = !update.isEmpty
                return update
            }
            let updated: PetRecord
            var fileChanges: AttachmentEditResult?
            if files.isEmpty {
                updated = try s.repository().updateRecord(id: id, change)
            } else {
                (updated, fileChanges) = try s.repository().editRecord(id: id, files: files, change)
            }
            // A file whose content the record has already: said, not added twice (exit 0).
            for d in fileChanges?.alreadyAttached ?? [] {
                s.terminal.error(s.t(.editAlreadyAttached(name: d.given.originalName, number: String(d.existing.position + 1), existing: d.existing.originalName)))
            }
            if amount != nil, case .expense(let e) = updated.detail { s.noteUnconvertible(e.money.currency, home: try s.homeCurrency(nil)) }
            if s.json { try s.terminal.json(RecordJSON(updated)); return }
            if let fileChanges, !recordChanged, fileChanges.added.isEmpty, fileChanges.detached.isEmpty {
                // Only files the record has already: nothing was written, nothing to undo.
                s.terminal.line(s.t(.recordUnchanged(id: String(updated.id), kind: s.wording.kindName(updated.kind), summary: Terminal.sanitize(s.wording.summary(updated)))))
                return
            }
            s.terminal.line(s.t(.recordUpdated(id: String(updated.id), kind: s.wording.kindName(updated.kind), summary: Terminal.sanitize(s.wording.summary(updated)))) + (weight.flatMap(s.bareMassAside) ?? ""))
            guard let fileChanges else { return }
            for a in fileChanges.detached {
                let name = Terminal.sanitize(a.originalName)
                s.terminal.line(s.t(fileChanges.setAside.contains(a.sha256) ? .editDetachedAside(name: name) : .editDetached(name: name)))
            }
            for a in fileChanges.added { s.terminal.line(s.t(.editAttached(name: Terminal.sanitize(a.originalName), number: String(a.position + 1)))) }
        }
    }

    /// The files of the flag that fits `kind` (`--receipt` for an expense, `--photo` for a diary or a grooming,
    /// `--attach` for a visit), checked as the command that logs the kind checks them; another flag is refused.
    func attachmentPaths(kind: RecordKind, _ s: Session) throws -> [String] {
        let fitting: String? = switch kind.files {
        case .receipts: "--receipt"
        case .photos: "--photo"
        case .attachments: "--attach"
        case .none: nil
        }
        for (flag, paths) in [("--receipt", receipt), ("--photo", photo), ("--attach", attach)] where !paths.isEmpty && flag != fitting {
            throw UsageError(message: s.t(.errFlagNotForKind(flag: flag, kind: s.wording.kindName(kind))))
        }
        switch kind.files {
        case .receipts: try s.checkImages(receipt, pdf: true); return receipt
        case .photos: try s.checkImages(photo); return photo
        case .attachments, .none: return attach
        }
    }

    /// The detail with the value flags applied; a flag that does not fit the kind is a usage error.
    func changedDetail(_ r: PetRecord, _ s: Session) throws -> RecordDetail? {
        var used: Set<String> = []
        func take<T>(_ value: String?, _ flag: String, _ parse: (String) throws -> T) throws -> T? {
            guard let v = value else { return nil }
            used.insert(flag)
            return try parse(v)
        }
        // An empty value clears an optional text field (`--merchant ""`), as `--note ""` does.
        func cleared(_ raw: String, _ read: (String) throws -> String) throws -> String? {
            raw.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty ? nil : try read(raw)
        }
        let unit = s.bareMassUnit
        var detail = r.detail
        // Spans (`--follow-up 2w`, `--next 1y`) count from the record's day: its new `--at` when that changes too.
        let recordDay = try at.map { s.recordDay(try s.when($0)) } ?? r.localDay
        // Every value option, as typed (nil: not given).
        let given: [(String, String?)] = [
            ("--weight", weight), ("--bcs", bcs), ("--score", score), ("--severity", severity), ("--text", text), ("--title", title), ("--food", food),
            ("--amount", amount), ("--clinic", clinic), ("--reason", reason), ("--diagnosis", diagnosis), ("--treatment", treatment),
            ("--follow-up", followUp), ("--cost", cost), ("--next", next), ("--lot", lot), ("--dose", dose),
            ("--category", category), ("--merchant", merchant), ("--items", items), (paymentGiven ?? "--payment", paymentGiven),
            ("--what", what), ("--by", groomer), ("--distance", distance), ("--duration", duration),
        ]
        switch detail {
        case .weight(var w):
            if let m = try take(weight, "--weight", { try Mass.parse($0, defaultUnit: unit) }) { w.mass = m }
            if let b = try take(bcs, "--bcs", { try BodyConditionScore.parse($0, field: "--bcs") }) { w.bodyConditionScore = b }
            detail = .weight(w)
        case .stool(var st):
            if let v = try take(score, "--score", { try StoolScore.parse($0, field: "--score") }) { st.faecalScore = v }
            detail = .stool(st)
        case .symptom(var sy):
            if let v = try take(severity, "--severity", { try SymptomSeverity.typed($0, field: "--severity") }) { sy.severityLevel = v }
            detail = .symptom(sy)
        case .diary(var d):
            if let v = try take(text, "--text", { try TextField.text($0, field: "diary") }) { d.text = v }
            if let v = try take(title, "--title", { try cleared($0) { try TextField.label($0, field: "title") } }) { d.title = v }
            detail = .diary(d)
        case .meal(var m):
            if let v = try take(food, "--food", { try TextField.label($0, field: "food") }) { m.food = v }
            if let v = try take(amount, "--amount", { try Amount.parse($0, volume: m.type == .water) }) { m.amount = v }
            detail = .meal(m)
        case .visit(var v):
            if let x = try take(clinic, "--clinic", { try cleared($0) { try TextField.label($0, field: "clinic") } }) { v.clinic = x }
            if let x = try take(reason, "--reason", { try cleared($0) { try TextField.label($0, field: "reason") } }) { v.reason = x }
            if let x = try take(diagnosis, "--diagnosis", { try cleared($0) { try TextField.text($0, field: "diagnosis", max: 10_000) } }) { v.diagnosis = x }
            if let x = try take(treatment, "--treatment", { try cleared($0) { try TextField.text($0, field: "treatment", max: 10_000) } }) { v.treatment = x }
            if let x = try take(weight, "--weight", { try Mass.parse($0, defaultUnit: unit) }) { v.weight = x }
            if let x = try take(followUp, "--follow-up", { try TimeParser.day($0, from: recordDay, context: s.time) }) { v.followUp = x }
            if let x = try take(cost, "--cost", { try s.amount($0, defaultCurrency: try v.cost?.currency ?? s.homeCurrency(nil)) }) { v.cost = x }
            detail = .visit(v)
        case .vaccination(var v):
            if let x = try take(clinic, "--clinic", { try cleared($0) { try TextField.label($0, field: "clinic") } }) { v.clinic = x }
            if let x = try take(next, "--next", { try TimeParser.day($0, from: recordDay, context: s.time) }) { v.nextDue = x }
            if let x = try take(lot, "--lot", { try cleared($0) { try TextField.label($0, field: "lot") } }) { v.lot = x }
            detail = .vaccination(v)
        case .medication(var m):
            if let x = try take(dose, "--dose", { try cleared($0) { try TextField.label($0, field: "dose") } }) { m.dose = x }
            detail = .medication(m)
        case .expense(var e):
            if let x = try take(amount, "--amount", { try MoneyText.expenseAmount($0, defaultCurrency: e.money.currency, language: s.l10n.language.rawValue) }) { e.money = x }
            if let x = try take(category, "--category", { try CareNames.shipped.categoryEntry($0) }) { e.category = x }
            if let x = try take(merchant, "--merchant", { try cleared($0) { try TextField.label($0, field: "merchant") } }) { e.merchant = x }
            if let x = try take(items, "--items", { raw in try Expense.parseItems(raw).map { try TextField.label($0, field: "items") } }) { e.items = x }
            if let x = try take(paymentGiven, paymentGiven ?? "--payment", { _ in try PaymentFlags.value(card: card, cash: cash, payment: payment) }) { e.payment = x }
            detail = .expense(e)
        case .urine, .dose:
            break
        default:
            // Every kind after the eleven shipped ones: the options its descriptor's members name, in their order.
            var columns = RecordKindTable.columnValues(detail)
            for m in RecordKindTable.of(r.kind).members ?? [] {
                guard let option = m.option, let typed = given.first(where: { $0.0 == option })?.1 else { continue }
                used.insert(option)
                for (column, value) in try memberValue(m, typed, columns, recordDay: recordDay, kind: r.kind, s) { columns[column] = value }
            }
            if !used.isEmpty { detail = try RecordKindTable.of(r.kind).detail(columns) }
        }
        if let stray = given.first(where: { $0.1 != nil && !used.contains($0.0) }) {
            throw UsageError(message: s.t(.errFlagNotForKind(flag: stray.0, kind: s.wording.kindName(r.kind))))
        }
        return used.isEmpty ? nil : detail
    }

    /// The columns a typed option sets for member `m` of a later kind: text (an empty one clears it), a day (a
    /// span from the record's day), money (in the record's currency unless it names one) read here; codes and
    /// measures by the command that logs the kind (`KindCommand`), as it reads them.
    func memberValue(_ m: RecordKindTable.JSONField, _ raw: String, _ columns: [String: SQLValue], recordDay: LocalDate, kind: RecordKind,
                     _ s: Session) throws -> [(String, SQLValue)] {
        let column = m.columns[0]
        switch m.value {
        case .text:
            guard !raw.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty else { return [(column, .null)] }
            return [(column, .text(try TextField.label(raw, field: m.key)))]
        case .day:
            return [(column, .text(try TimeParser.day(raw, from: recordDay, context: s.time).description))]
        case .money:
            let current = columns[m.columns[1]]?.text.flatMap(Currency.named)
            let money = try s.amount(raw, defaultCurrency: try current ?? s.homeCurrency(nil))
            return [(column, .int(money.minorUnits)), (m.columns[1], .text(money.currency.code))]
        case .codes, .meters, .minutes:
            guard let command = Petlog.configuration.subcommands.lazy.compactMap({ $0 as? any KindCommand.Type }).first(where: { $0.kind == kind }) else {
                throw UsageError(message: s.t(.errFlagNotForKind(flag: m.option ?? m.key, kind: s.wording.kindName(kind))))
            }
            return [(column, try command.typed(raw, for: m, s))]
        }
    }
}

/// The command that logs a kind whose members `edit` does not read alone (a grooming's tasks, a walk's
/// distance and duration): `edit` finds it among the registered commands (`Petlog`) by its kind.
protocol KindCommand: ParsableCommand {
    static var kind: RecordKind { get }
    /// The stored value of member `m` from what `edit`'s option was given, read as the command reads it.
    static func typed(_ raw: String, for m: RecordKindTable.JSONField, _ s: Session) throws -> SQLValue
}
