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
            let edit = try notForKind(s) { try recordEdit(s) }
            // A vaccination's next due day that petlog computed moves with the record (a typed one stays).
            var movedNextDue: LocalDate??
            if at != nil, next == nil {
                let repo = try s.repository()
                movedNextDue = try edit.movedNextDue(try repo.record(id: id), pet: { try repo.pet(.id($0)) },
                                                     vaccinations: { try repo.records(RecordQuery(pets: [.id($0)], kinds: [.vaccination])) })
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
                let update = try notForKind(session) { try edit.update(current, moved: movedNextDue) }
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

    /// The options as `RecordEdit` reads them (shared with `petlog serve`'s edit form).
    func recordEdit(_ s: Session) throws -> RecordEdit {
        let typed: [(String, String?)] = [
            ("--weight", weight), ("--bcs", bcs), ("--score", score), ("--severity", severity), ("--text", text), ("--title", title), ("--food", food),
            ("--amount", amount), ("--clinic", clinic), ("--reason", reason), ("--diagnosis", diagnosis), ("--treatment", treatment),
            ("--follow-up", followUp), ("--cost", cost), ("--next", next), ("--lot", lot), ("--dose", dose),
            ("--category", category), ("--merchant", merchant), ("--items", items),
            ("--what", what), ("--by", groomer), ("--distance", distance), ("--duration", duration),
        ]
        let (card, cash, payment) = (card, cash, payment)
        let context = RecordEdit.Context(
            time: s.time, defaultUnit: s.bareMassUnit, language: s.l10n.language.rawValue, homeCurrency: { try s.homeCurrency(nil) },
            member: { m, raw, kind in
                // A later kind's codes and measures: read by the command that logs the kind (`KindCommand`), as it reads them.
                guard let command = Petlog.configuration.subcommands.lazy.compactMap({ $0 as? any KindCommand.Type }).first(where: { $0.kind == kind }) else {
                    throw RecordEdit.NotForKind(flag: m.option ?? m.key, kind: kind)
                }
                return try command.typed(raw, for: m, s)
            })
        return try RecordEdit(at: at, note: note, pet: pet.map(PetRef.init),
                              values: Dictionary(uniqueKeysWithValues: typed.compactMap { o, v in v.map { (o, $0) } }),
                              payment: paymentGiven.map { ($0, { try PaymentFlags.value(card: card, cash: cash, payment: payment) }) },
                              context: context)
    }

    /// `body`, with an option that does not fit the record's kind said as a usage error.
    func notForKind<T>(_ s: Session, _ body: () throws -> T) throws -> T {
        do { return try body() } catch let e as RecordEdit.NotForKind {
            throw UsageError(message: s.t(.errFlagNotForKind(flag: e.flag, kind: s.wording.kindName(e.kind))))
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
