import Foundation
import Hummingbird
import Localization
import PetModel
import PetStoreCore
import PetViews

/// Logging and records (docs/serve.md): one form per kind on `POST /pets/ID/log`, read by the CLI's readers
/// (`RecordEntry`), with photos through `Upload`; the record's page, its files, delete and star.
extension PetServer {
    /// The timeline's page size on the pet's page.
    static let timelinePage = 20

    func addRecordRoutes(_ router: Router<ServeContext>) {
        router.get("/pets/:id/log") { request, context in try logForm(request, context) }
        router.get("/records/:id") { request, context in try recordPage(request, context) }
        router.get("/records/:id/files/:n") { request, context in try recordFile(request, context) }
        router.get("/records/:id/files/:n/original") { request, context in try recordFile(request, context, original: true) }
        router.get("/records/:id/files/:n/thumb") { request, context in try thumbnail(request, context) }
        router.get("/records/:id/edit") { request, context in try editForm(request, context) }
        router.post("/records/:id/edit") { request, context in try await editRecord(request, context) }
        router.post("/records/:id/delete") { request, context in try await recordWrite(request, context, .delete) }
        router.post("/records/:id/star") { request, context in try await recordWrite(request, context, .star) }
        router.post("/records/:id/unstar") { request, context in try await recordWrite(request, context, .unstar) }
        router.post("/undo") { request, context in try await undoLast(request, context) }
    }

    // MARK: Undo steps named with the account

    /// The start of every `undo` step a web write of `account` makes: its id, then its name (`serve #3 (Mina): …`);
    /// the id first, so that no other account's name can make a step look like this one's.
    static func undoPrefix(_ account: Account) -> String { "serve #\(account.id) (" }

    /// `body` run on the store with its writes recorded as one `undo` step named `serve #ID (NAME): WHAT`.
    func named<T>(_ session: WebSession, _ what: String, _ body: (SharedStore.Served) throws -> T) throws -> T {
        let command = Self.undoPrefix(session.account) + PlainText.sanitized(session.account.name) + "): " + what
        return try UndoName.$command.withValue(command) { try store.run(body) }
    }

    /// The household's last `undo` step when it is `account`'s own web write (else nil: nothing to offer).
    static func ownLastStep(_ s: SharedStore.Served, _ account: Account) throws -> UndoEntry? {
        guard let last = try s.undoHistory(limit: 1).first, last.command.hasPrefix(undoPrefix(account)) else { return nil }
        return last
    }

    /// `POST /undo` (`csrf`, `back`: the page it was sent from): reverts the account's own last web change, only
    /// while it is the household's last step (`undo --list`); else a refusal (409) that changes nothing.
    func undoLast(_ request: Request, _ context: ServeContext) async throws -> Response {
        guard let session = context.session else { return Self.redirect("/login") }
        let checked = try await checkedWrite(request, context, session, needsWriter: true)
        if let refused = checked.refusal { return refused }
        let undone = try store.run { try UndoCheck.undoOwnLast($0, session.account) }
        guard undone != nil else { return refusal(.conflict, .webUndoNotLast, request, context) }
        let back = checked.form["back"] ?? "/"
        let parts = back.split(separator: "/", omittingEmptySubsequences: false)
        let safe = parts.count == 3 && parts[0].isEmpty && (parts[1] == "pets" || parts[1] == "records")
            && !parts[2].isEmpty && parts[2].count <= 18 && parts[2].allSatisfy { $0.isASCII && $0.isNumber }
        return Self.redirect(safe ? back : "/")
    }

    /// A number from the path (`:n`), digits only, like `petId`.
    func pathNumber(_ context: ServeContext, _ name: String) -> Int64? {
        guard let text = context.parameters.get(name), !text.isEmpty, text.count <= 18, text.allSatisfy({ $0.isASCII && $0.isNumber }),
              let n = Int64(text), n > 0 else { return nil }
        return n
    }

    // MARK: Logging

    /// `GET /pets/ID/log?kind=KIND`: the kind's form (an account that writes only).
    func logForm(_ request: Request, _ context: ServeContext) throws -> Response {
        guard let session = context.session else { return notSignedIn(request, context) }
        guard let id = petId(context) else { return refusal(.notFound, .webNotFound, request, context) }
        guard session.account.role.writes else { return refusal(.forbidden, .webForbidden, request, context) }
        guard let kind = request.uri.queryParameters.get("kind").flatMap(LogKind.init(rawValue:)) else {
            return refusal(.notFound, .webNotFound, request, context)
        }
        let p = presentation(language(request, context))
        do {
            let pet = try store.run { try $0.pet(.id(id)) }
            return Self.html(Pages(p).logForm(pet, kind, values: [:], notice: nil, session: session))
        } catch StoreError.petNotFound { return refusal(.notFound, .webNotFound, request, context) }
    }

    /// `POST /pets/ID/log` (`kind` and the kind's fields, named as the CLI's arguments and options, `csrf`;
    /// `multipart/form-data` where photos come): the record, read by the CLI's readers, then the pet's page.
    /// A bad field: the form again with the CLI's line, 400, nothing written.
    func logRecord(_ request: Request, _ context: ServeContext) async throws -> Response {
        guard let session = context.session else { return Self.redirect("/login") }
        let written = try await writeForm(request, context, session)
        let form = written.form, upload = written.upload
        defer { upload?.discard() }
        if let refused = written.refusal { return refused }
        guard let id = petId(context) else { return refusal(.notFound, .webNotFound, request, context) }
        guard let kind = form["kind"].flatMap(LogKind.init(rawValue:)) else { return refusal(.badRequest, .webBadForm, request, context) }
        let p = presentation(language(request, context))
        let pet: Pet
        do { pet = try store.run { try $0.pet(.id(id)) } } catch StoreError.petNotFound { return refusal(.notFound, .webNotFound, request, context) }
        let photos = upload?.files(named: "photo") ?? []
        var draft: RecordDraft?
        var dose: (name: String, at: Date, offset: Int, note: String?)?
        var vaccine: (name: (listed: String, disease: String?), given: (Date, Int), next: LocalDate?, note: String?)?
        do {
            if kind == .vaccine {
                // `vaccine PET VACCINE [--next] [--product] [--lot] [--clinic] [--as-written] [--booster|--initial]`.
                if flag(form, "booster") && flag(form, "initial") { throw FormLine(text: p.t(.errExclusive(flags: "--booster, --initial"))) }
                let name = try VaccineEntry.name(form["vaccine"] ?? "", asWritten: flag(form, "as-written"))
                let (at, offset, note) = try when(form, .vaccination, p)
                let next = try field(form, "next").map { try TimeParser.day($0, from: RecordClock.day(at, utcOffset: offset), context: p.time) }
                vaccine = (name, (at, offset), next, note)
            } else if kind == .dose {
                // `med give PET NAME [--skipped]`: the store finds the course by its name, as on the CLI.
                guard let name = form["name"], !name.trimmingCharacters(in: .whitespaces).isEmpty else { throw ParseError.emptyText(field: "name") }
                let (at, offset, note) = try when(form, .dose, p)
                dose = (name, at, offset, note)
            } else {
                draft = try entry(kind, form, photos: photos, attachments: upload?.files(named: "attach") ?? [], p)
            }
        } catch {
            let line: String
            switch error {
            case let e as ParseError: line = e.message(p.l10n)
            case let e as Walk.Refusal: line = RecordEntry.text(e, p.l10n)
            case let e as FormLine: line = e.text
            default: throw error
            }
            return Self.html(Pages(p).logForm(pet, kind, values: form, notice: line, session: session), status: .badRequest)
        }
        do {
            if let draft {
                _ = try named(session, kind.rawValue) { try $0.addRecord(pets: [.id(id)], draft) }
            } else if let vaccine {
                _ = try named(session, "vaccine") { s -> [PetRecord] in
                    let d = try VaccineEntry.dose(vaccine.name, pet: pet, product: field(form, "product"), lot: field(form, "lot"), clinic: field(form, "clinic"),
                                                  nextDue: vaccine.next, given: vaccine.given,
                                                  earlier: { try s.records(RecordQuery(pets: [.id(id)], kinds: [.vaccination])) },
                                                  intent: flag(form, "booster") ? .booster : flag(form, "initial") ? .initial : .automatic, time: p.time)
                    return try s.addRecord(pets: [.id(id)], RecordDraft(at: vaccine.given.0, utcOffset: vaccine.given.1, note: vaccine.note,
                                                                        detail: .vaccination(d.vaccination)))
                }
            } else if let dose {
                _ = try named(session, "med give") {
                    try $0.giveMedication(pets: [.id(id)], name: dose.name, at: dose.at, utcOffset: dose.offset, note: dose.note,
                                          skipped: form["skipped"].map { !$0.isEmpty && $0 != "0" } ?? false)
                }
            }
        } catch let e as ParseError {
            return Self.html(Pages(p).logForm(pet, kind, values: form, notice: e.message(p.l10n), session: session), status: .badRequest)
        } catch let e as StoreError {
            if case .petNotFound = e { return refusal(.notFound, .webNotFound, request, context) }
            // The store's refusal of this record (an archived pet, a medication it does not take): the CLI's line.
            guard let line = e.recordText(p.l10n) else { throw e }
            return Self.html(Pages(p).logForm(pet, kind, values: form, notice: line, session: session), status: .badRequest)
        }
        return Self.redirect("/pets/\(id)")
    }

    /// The record a form describes: the kind's fields through `RecordEntry` (the CLI's readers), `at` through
    /// the CLI's time parser (an observation in the future refused), `note`, and the photos (images by content).
    func entry(_ kind: LogKind, _ form: [String: String], photos: [Upload.File], attachments: [Upload.File] = [], _ p: PresentationContext) throws -> RecordDraft {
        func text(_ name: String) -> String? {
            guard let v = form[name], !v.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty else { return nil }
            return v
        }
        func flag(_ name: String) -> Bool { form[name].map { !$0.isEmpty && $0 != "0" } ?? false }
        func required(_ name: String, _ field: String) throws -> String {
            guard let v = text(name) else { throw ParseError.emptyText(field: field) }
            return v
        }
        let detail: RecordDetail
        switch kind {
        case .weight:
            detail = try RecordEntry.weight(try required("weight", "weight"), bcs: text("bcs"),
                                            defaultUnit: settings.unitSystem == .imperial ? .pound : .kilogram)
        case .meal:
            if [flag("snack"), flag("treat"), flag("water")].filter({ $0 }).count > 1 {
                throw FormLine(text: p.t(.errExclusive(flags: "--snack, --treat, --water")))
            }
            detail = try RecordEntry.meal(food: form["food"] ?? "", amount: text("amount"), snack: flag("snack"), treat: flag("treat"), water: flag("water"))
        case .stool:
            detail = try RecordEntry.stool(score: try required("score", "score"), color: text("color"), blood: flag("blood"), mucus: flag("mucus"))
        case .urine:
            detail = try RecordEntry.urine(color: text("color"), amount: text("amount"), straining: flag("straining"), blood: flag("blood"))
        case .symptom:
            detail = try RecordEntry.symptom(form["symptom"] ?? "", severity: text("severity") ?? "2", duration: text("duration"), asWritten: flag("as-written"))
        case .diary:
            detail = try RecordEntry.diary(text: form["text"] ?? "", mood: text("mood"), title: text("title"))
        case .walk:
            detail = .walk(try Walk.parse((form["measure"] ?? "").split(whereSeparator: \.isWhitespace).map(String.init)))
        case .visit:
            // The visit's day: `at`'s (a follow-up span counts from it); `cost` as `visit --cost [--currency]` reads it.
            let (at, offset, _) = try when(form, .visit, p)
            detail = try RecordEntry.visit(clinic: text("clinic"), vet: text("vet"), reason: text("reason"), diagnosis: text("diagnosis"),
                                           treatment: text("treatment"), weight: text("weight"), followUp: text("follow-up"), cost: { try cost(form, p) },
                                           visitDay: RecordClock.day(at, utcOffset: offset),
                                           defaultUnit: settings.unitSystem == .imperial ? .pound : .kilogram, time: p.time)
        case .dose, .vaccine:
            throw ParseError.emptyText(field: "kind")  // `med give`, `vaccine`: not drafts alone (logRecord writes them)
        case .groom:
            let tasks = try RecordEntry.groomingTasks((form["what"] ?? "").split(whereSeparator: \.isWhitespace).map(String.init), p.l10n)
            // `groom --cost [--currency] --next`: a span counts from the grooming's day.
            let (at, offset, _) = try when(form, .grooming, p)
            detail = .grooming(Grooming(tasks: tasks, groomer: try text("by").map { try TextField.label($0, field: "groomer") }, cost: try cost(form, p),
                                        next: try text("next").map { try TimeParser.day($0, from: RecordClock.day(at, utcOffset: offset), context: p.time) }))
        }
        let (at, offset, note) = try when(form, detail.kind, p)
        // Photos: images by their content, as `--photo` checks them (a script named `.jpg` is refused).
        for f in photos where f.imageType == nil { throw ParseError.notAnImage(path: PlainText.sanitized(f.filename), pdfAllowed: false) }
        // Attachments (`visit --attach`): any file, its type read by the store from its content.
        let paths = kind.takesPhotos ? photos.map(\.path) : kind == .visit ? attachments.map(\.path) : []
        return RecordDraft(at: at, utcOffset: offset, note: note, detail: detail, attachmentPaths: paths)
    }

    /// A form's `cost` as a kind's `--cost` reads it: its own currency, else `currency` (`--currency`), else the home one.
    func cost(_ form: [String: String], _ p: PresentationContext) throws -> Money? {
        guard let raw = field(form, "cost") else { return nil }
        let home = try field(form, "currency").map { code in
            guard let c = Currency.named(code.trimmingCharacters(in: .whitespaces)) else { throw ParseError.unknownCurrency(code) }
            return c
        } ?? homeCurrency(p)
        return try MoneyText.parse(raw, defaultCurrency: home, language: p.l10n.language.rawValue)
    }

    /// A form's text field; empty is absent.
    func field(_ form: [String: String], _ name: String) -> String? {
        guard let v = form[name], !v.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty else { return nil }
        return v
    }

    /// A form's checkbox (`--flag`).
    func flag(_ form: [String: String], _ name: String) -> Bool { form[name].map { !$0.isEmpty && $0 != "0" } ?? false }

    /// `--at` (empty: now; an observation in the future refused, as `Session.when` reads it) and `--note`.
    func when(_ form: [String: String], _ kind: RecordKind, _ p: PresentationContext) throws -> (Date, Int, String?) {
        func text(_ name: String) -> String? {
            guard let v = form[name], !v.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty else { return nil }
            return v
        }
        let note = try text("note").map(RecordEntry.note)
        let moment = try text("at").map { try TimeParser.moment($0, context: p.time, observed: RecordDating.isObservation(kind)) }
        let at = moment?.date ?? p.time.now
        return (at, moment?.utcOffset ?? p.time.utcOffset(at: at), note)
    }

    // MARK: Records

    /// A record id from the path; a record that is not there is `nil` too (404 either way).
    func pathRecord(_ context: ServeContext) throws -> PetRecord? {
        guard let id = pathNumber(context, "id") else { return nil }
        do { return try store.run { try $0.record(id: id) } } catch StoreError.recordNotFound { return nil }
    }

    /// `GET /records/ID`: the record as `show ID` shows it (the same presenter's fields), its files and, for
    /// an account that writes, delete and star. JSON: `show ID --json`.
    func recordPage(_ request: Request, _ context: ServeContext) throws -> Response {
        guard let session = context.session else { return notSignedIn(request, context) }
        guard let record = try pathRecord(context) else { return refusal(.notFound, .webNotFound, request, context) }
        if Self.wantsJSON(request) { return Self.json(try JSONView.text(RecordJSON(record))) }
        let p = presentation(language(request, context))
        let undo = try store.run { try Self.ownLastStep($0, session.account) }
        return Self.html(Pages(p).record(record, session: session, undo: undo))
    }

    /// `GET /records/ID/files/N` (N as `show ID` numbers them): the file with its stored type; a download
    /// unless it is an image or a PDF; a HEIC photo as a JPEG rendering (`…/N/original`: the stored file, a
    /// download). Only the record and the number choose the file.
    func recordFile(_ request: Request, _ context: ServeContext, original: Bool = false) throws -> Response {
        guard context.session != nil else { return notSignedIn(request, context) }
        guard let record = try pathRecord(context), let n = pathNumber(context, "n") else { return refusal(.notFound, .webNotFound, request, context) }
        let files = record.attachments.sorted { $0.position < $1.position }
        guard n <= Int64(files.count) else { return refusal(.notFound, .webNotFound, request, context) }
        let a = files[Int(n - 1)]
        let scratch = ScratchDirectory()
        defer { scratch.remove() }
        guard let path = try store.run({ s in s.readableAttachment(sha256: a.sha256, scratch: { try scratch.path() }) }),
              let data = FileManager.default.contents(atPath: path) else { return refusal(.notFound, .webNotFound, request, context) }
        if !original, let rendered = browserRendering(a, path: path) { return rendered }
        let shown = !original && Self.inlineTypes.contains(a.mediaType.lowercased())
        let name = a.originalName.addingPercentEncoding(withAllowedCharacters: .alphanumerics.union(CharacterSet(charactersIn: "-._~"))) ?? "file"
        // The original of a photo keeps its image type (`…/original`, a download); other files as before.
        let type = shown || original && a.mediaType.hasPrefix("image/") || a.mediaType.hasPrefix("text/") ? a.mediaType : "application/octet-stream"
        return Response(status: .ok, headers: [.contentType: type, .cacheControl: "private, max-age=3600",
                                               .contentDisposition: "\(shown ? "inline" : "attachment"); filename*=UTF-8''\(name)"],
                        body: .init(byteBuffer: ByteBuffer(bytes: data)))
    }

    /// The stored types a browser may show in place (images by content, PDFs); everything else downloads.
    static let inlineTypes: Set<String> = ["image/jpeg", "image/png", "image/gif", "image/webp", "image/heic", "image/avif", "image/tiff",
                                           "image/bmp", "application/pdf"]

    enum RecordAction { case delete, star, unstar }

    /// `POST /records/ID/delete`, `/star`, `/unstar` (`csrf`): as `delete ID`, `star ID`, `unstar ID`; then the pet's
    /// page (delete) or the record's.
    func recordWrite(_ request: Request, _ context: ServeContext, _ action: RecordAction) async throws -> Response {
        guard let session = context.session else { return Self.redirect("/login") }
        let checked = try await checkedWrite(request, context, session, needsWriter: true)
        if let refused = checked.refusal { return refused }
        guard let id = pathNumber(context, "id") else { return refusal(.notFound, .webNotFound, request, context) }
        do {
            switch action {
            case .delete:
                let r = try named(session, "delete \(id)") { try $0.deleteRecord(id: id) }
                return Self.redirect(r.petId.map { "/pets/\($0)" } ?? "/")
            case .star, .unstar:
                _ = try named(session, "\(action == .star ? "star" : "unstar") \(id)") { try $0.setStarred(id: id, action == .star) }
                return Self.redirect("/records/\(id)")
            }
        } catch StoreError.recordNotFound { return refusal(.notFound, .webNotFound, request, context) }
    }

    /// The pet page's calendar month: `?month=YYYY-MM` (`calendar PET --month`'s data), else this month.
    static func timelineMonth(_ request: Request, _ time: TimeContext) -> LocalDate {
        request.uri.queryParameters.get("month").flatMap { try? LocalDate.parseMonth(String($0)) } ?? time.today.firstOfMonth
    }

    /// `?page=N` of a pet's page (0 when absent or not a small number).
    static func timelinePageNumber(_ request: Request) -> Int {
        guard let t = request.uri.queryParameters.get("page"), t.count <= 4, t.allSatisfy({ $0.isASCII && $0.isNumber }) else { return 0 }
        return Int(t) ?? 0
    }
}

/// A form's refusal that is already a line (the CLI's own words for it).
struct FormLine: Error { let text: String }

/// A pet page's slice of its timeline.
struct PetTimeline {
    let records: [PetRecord]
    let page: Int
    let hasOlder: Bool
    /// The account's own last web change while it is the household's last `undo` step.
    let undo: UndoEntry?
    /// The month calendar: its first day, its days and each day's kinds (`calendar`'s marks).
    let month: LocalDate
    let days: [LocalDate]
    let marks: [LocalDate: [RecordKind: Int]]
}

/// The forms `POST /pets/ID/log` takes, by the CLI command's name (`kind=weight`, `kind=groom` …).
enum LogKind: String, CaseIterable {
    case weight, meal, stool, urine, symptom, diary, walk, groom, visit, vaccine, dose

    var recordKind: RecordKind {
        switch self {
        case .weight: .weight
        case .meal: .meal
        case .stool: .stool
        case .urine: .urine
        case .symptom: .symptom
        case .diary: .diary
        case .walk: .walk
        case .groom: .grooming
        case .visit: .visit
        case .vaccine: .vaccination
        case .dose: .dose
        }
    }

    /// The kinds that take `--photo` on the CLI.
    var takesPhotos: Bool { self == .diary || self == .walk || self == .groom }
}

/// A private temporary folder made on first use (an attachment file a PostgreSQL store writes out), removed by `remove()`.
final class ScratchDirectory: @unchecked Sendable {
    private var made: String?
    func path() throws -> String {
        if let made { return made }
        let path = NSTemporaryDirectory() + "petlog-serve-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        made = path
        return path
    }
    func remove() { if let made { try? FileManager.default.removeItem(atPath: made) } }
}
