import Foundation
import Hummingbird
import Localization
import PetModel
import PetStoreCore
import PetViews

/// `GET/POST /records/ID/edit` (docs/serve.md): every option `petlog edit ID` offers for the record's kind, from
/// `edit`'s own list (`RecordEdit.fields`, PetViews), prefilled with the record's values (`RecordEdit.current`);
/// `pet`, `at`, `note`; the files `edit` adds to the kind (`--receipt`, `--photo`, `--attach`) and takes off
/// (`--detach`). Read by `RecordEdit`, as `edit` reads its options; one undo step.
extension PetServer {
    /// The form's values of `r` by field name (the option without `--`): what a POST compares with, so that only a
    /// field typed anew is read and written.
    static func editValues(_ r: PetRecord, _ p: PresentationContext) -> [String: String] {
        var out: [String: String] = [:]
        for (option, value) in RecordEdit.current(r, p.l10n) { out[String(option.dropFirst(2))] = value }
        let c = RecordClock.day(r.at, utcOffset: r.utcOffset)
        let minutes = (Int(r.at.timeIntervalSince1970) + r.utcOffset) / 60
        out["at"] = String(format: "%@ %02d:%02d", c.description, ((minutes / 60) % 24 + 24) % 24, (minutes % 60 + 60) % 60)
        out["note"] = r.note ?? ""
        out["pet"] = r.petId.map(String.init) ?? ""
        return out
    }

    /// The form field of the files `edit` adds to a record of `kind` (`receipt`, `photo`, `attach`), nil when none.
    static func fileField(_ kind: RecordKind) -> String? {
        switch kind.files {
        case .receipts: "receipt"
        case .photos: "photo"
        case .attachments: "attach"
        case .none: nil
        }
    }

    /// `GET /records/ID/edit`: the form, prefilled (an account that writes only).
    func editForm(_ request: Request, _ context: ServeContext) throws -> Response {
        guard let session = context.session else { return notSignedIn(request, context) }
        guard session.account.role.writes else { return refusal(.forbidden, .webForbidden, request, context) }
        guard let record = try pathRecord(context) else { return refusal(.notFound, .webNotFound, request, context) }
        let p = presentation(language(request, context))
        let pets = try store.run { try $0.pets(includeArchived: false) }
        return Self.html(Pages(p).editForm(record, current: Self.editValues(record, p), values: [:], pets: pets, notice: nil, session: session))
    }

    /// `POST /records/ID/edit` (`csrf`, fields named as `edit`'s options; `multipart/form-data` with files): as
    /// `edit ID --FIELD VALUE… [--pet] [--photo F] [--detach N]`, read by `RecordEdit` (the CLI's reader) for the
    /// fields that differ from the record's current values; one undo step. A bad field: the form again with the
    /// CLI's line, 400, nothing written.
    func editRecord(_ request: Request, _ context: ServeContext) async throws -> Response {
        guard let session = context.session else { return Self.redirect("/login") }
        let written = try await writeForm(request, context, session)
        let form = written.form, upload = written.upload
        defer { upload?.discard() }
        if let refused = written.refusal { return refused }
        guard let record = try pathRecord(context) else { return refusal(.notFound, .webNotFound, request, context) }
        let id = record.id
        let p = presentation(language(request, context))
        let current = Self.editValues(record, p)
        // Only what was typed anew (a browser sends a textarea's lines with CR LF).
        func typed(_ name: String) -> String? {
            guard let sent = form[name]?.replacingOccurrences(of: "\r\n", with: "\n"), sent != (current[name] ?? "") else { return nil }
            return sent
        }
        var values: [String: String] = [:]
        for option in RecordEdit.options where option != "--payment" {
            if let v = typed(String(option.dropFirst(2))) { values[option] = v }
        }
        let payment = typed("payment")
        let at = typed("at").flatMap { $0.trimmingCharacters(in: .whitespaces).isEmpty ? nil : $0 }
        let note = typed("note")
        let pet = typed("pet").flatMap { $0.isEmpty ? nil : $0 }
        // Files: those of the field that fits the kind (as `edit` takes `--receipt`, `--photo` or `--attach`), and
        // the ones ticked to take off (`detach-N`, N as `show ID` numbers them).
        let added = upload?.files ?? []
        let detach = record.attachments.indices.map { String($0 + 1) }.filter { n in form["detach-" + n].map { !$0.isEmpty && $0 != "0" } ?? false }
        let pets = try store.run { try $0.pets(includeArchived: false) }
        func again(_ line: String) -> Response {
            Self.html(Pages(p).editForm(record, current: current, values: form, pets: pets, notice: line, session: session), status: .badRequest)
        }
        guard !values.isEmpty || payment != nil || at != nil || note != nil || pet != nil || !added.isEmpty || !detach.isEmpty else {
            return Self.redirect("/records/\(id)")
        }
        do {
            let fitting = Self.fileField(record.kind)
            if let stray = added.first(where: { $0.field != fitting }) {
                throw RecordEdit.NotForKind(flag: "--" + stray.field, kind: record.kind)
            }
            // Checked as the command that logs the kind checks them (`expense --receipt`: an image or a PDF; `--photo`: an image).
            for f in added where record.kind.files == .photos && f.imageType == nil || record.kind.files == .receipts && f.imageType == nil && !f.isPDF {
                throw ParseError.notAnImage(path: PlainText.sanitized(f.filename), pdfAllowed: record.kind.files == .receipts)
            }
            let petRef: PetRef? = try pet.map { raw in
                guard let n = Int64(raw), n > 0, raw.allSatisfy({ $0.isASCII && $0.isNumber }) else {
                    throw ParseError.unknownChoice(field: "--pet", value: raw, accepted: pets.map { String($0.id) })
                }
                return .id(n)
            }
            let edit = try RecordEdit(at: at, note: note, pet: petRef, values: values,
                                      payment: payment.map { raw in ("--payment", { try TypedChoice.value(raw, option: "--payment", group: "payment") as Payment }) },
                                      context: RecordEdit.Context(
                                          time: p.time, defaultUnit: settings.unitSystem == .imperial ? .pound : .kilogram, language: p.l10n.language.rawValue,
                                          homeCurrency: { homeCurrency(p) }, member: { m, raw, kind in try Self.member(m, raw, kind, p) }))
            let files = AttachmentEdit(add: added.map(\.path), detach: detach)
            _ = try named(session, "edit \(id)") { s -> PetRecord in
                let moved = try edit.movedNextDue(try s.record(id: id), pet: { try s.pet(.id($0)) },
                                                  vaccinations: { try s.records(RecordQuery(pets: [.id($0)], kinds: [.vaccination])) })
                if files.isEmpty { return try s.updateRecord(id: id) { try edit.update($0, moved: moved) } }
                return try s.editRecord(id: id, files: files) { try edit.update($0, moved: moved) }.record
            }
        } catch let e as ParseError {
            return again(e.message(p.l10n))
        } catch let e as RecordEdit.NotForKind {
            return again(p.t(.errFlagNotForKind(flag: e.flag, kind: p.wording.kindName(e.kind))))
        } catch let e as Walk.Refusal {
            return again(RecordEntry.text(e, p.l10n))
        } catch let e as FormLine {
            return again(e.text)
        } catch StoreError.recordNotFound {
            return refusal(.notFound, .webNotFound, request, context)
        } catch let e as StoreError {
            // The store's refusal (a pet that is not there or archived): the CLI's line.
            guard let line = e.recordText(p.l10n) else { throw e }
            return again(line)
        }
        return Self.redirect("/records/\(id)")
    }

    /// A later kind's codes and measures, as the commands that log them read them (`groom`'s tasks, `walk`'s
    /// distance and duration; empty clears a measure).
    static func member(_ m: RecordKindTable.JSONField, _ raw: String, _ kind: RecordKind, _ p: PresentationContext) throws -> SQLValue {
        switch m.value {
        case .codes where kind == .grooming:
            return SQLValue(Grooming(tasks: try RecordEntry.groomingTasks(raw.split(whereSeparator: \.isWhitespace).map(String.init), p.l10n)).taskList)
        case .meters, .minutes:
            do {
                return try RecordEntry.walkMeasure(raw, distance: m.value == .meters).map { .int(Int64($0)) } ?? .null
            } catch let e as RecordEntry.NotOneMeasure {
                throw FormLine(text: e.text(p.l10n))
            }
        default:
            throw RecordEdit.NotForKind(flag: m.option ?? m.key, kind: kind)
        }
    }
}

extension Pages {
    /// `GET /records/ID/edit`: `edit`'s options for the record's kind (`RecordEdit.fields`), prefilled with
    /// `current`; the pet, the time and the note; the files to add and to take off. After a refusal, the line
    /// and what was typed (`values`).
    func editForm(_ r: PetRecord, current: [String: String], values: [String: String], pets: [Pet], notice: String?, session: WebSession) -> HTML {
        let title = "\(t(.webEdit)) #\(r.id) \(wording.kindName(r.kind))"
        let message: HTML = notice.map { "<p class=\"notice\" role=\"alert\">\($0)</p>" } ?? ""
        func value(_ name: String) -> String { values[name] ?? current[name] ?? "" }
        func line(_ name: String, _ label: String) -> HTML {
            "<label for=\"f-\(name)\">\(label)</label><input id=\"f-\(name)\" name=\"\(name)\" value=\"\(value(name))\">"
        }
        func lines(_ name: String, _ label: String) -> HTML {
            "<label for=\"f-\(name)\">\(label)</label><textarea id=\"f-\(name)\" name=\"\(name)\">\(value(name))</textarea>"
        }
        var inputs: [HTML] = RecordEdit.fields(r.kind).map { f -> HTML in
            let label = context.l10n.text(key: f.label) ?? f.name
            switch f.input {
            case .line: return line(f.name, label)
            case .lines: return lines(f.name, label)
            case .choice(let group, let codes):
                // No empty choice once the record has one: `edit` sets a choice, it does not clear it.
                let none: HTML = current[f.name, default: ""].isEmpty ? "<option value=\"\"></option>" : ""
                let opts = codes.map { code -> HTML in
                    "<option value=\"\(code)\"\(value(f.name) == code ? " selected" : "")>\(context.l10n.text(key: "\(group).\(code)") ?? code)</option>"
                }
                return "<label for=\"f-\(f.name)\">\(label)</label><select id=\"f-\(f.name)\" name=\"\(f.name)\">\(none)\(opts)</select>"
            }
        }
        // `--pet`: the household's pets (the record's own even when it is archived).
        var choices = pets.map { ($0.id, $0.name) }
        if let id = r.petId, !choices.contains(where: { $0.0 == id }) { choices.insert((id, r.petName ?? String(id)), at: 0) }
        let none: HTML = r.petId == nil ? "<option value=\"\"></option>" : ""
        let petOptions = choices.map { id, name -> HTML in "<option value=\"\(String(id))\"\(value("pet") == String(id) ? " selected" : "")>\(name)</option>" }
        inputs.append("<label for=\"f-pet\">\(t(.showPet))</label><select id=\"f-pet\" name=\"pet\">\(none)\(petOptions)</select>")
        inputs.append(line("at", t(.webFieldAt)))
        inputs.append(lines("note", fieldName("note")))
        // Files: `edit --receipt/--photo/--attach` as the kind takes them, and `--detach N`.
        let field = PetServer.fileField(r.kind)
        switch r.kind.files {
        case .receipts: inputs.append("<label for=\"f-receipt\">\(t(.webReceiptPhoto))</label><input id=\"f-receipt\" name=\"receipt\" type=\"file\" accept=\"image/*,.heic,.heif,application/pdf\" multiple>")
        case .photos: inputs.append("<label for=\"f-photo\">\(t(.webFieldPhoto))</label><input id=\"f-photo\" name=\"photo\" type=\"file\" accept=\"image/*,.heic,.heif\" multiple>")
        case .attachments: inputs.append("<label for=\"f-attach\">\(t(.webFiles))</label><input id=\"f-attach\" name=\"attach\" type=\"file\" multiple>")
        case .none: break
        }
        let files = r.attachments.sorted { $0.position < $1.position }
        if !files.isEmpty {
            let boxes = files.enumerated().map { i, a -> HTML in
                let on = values["detach-\(i + 1)"].map { !$0.isEmpty } ?? false
                return "<label class=\"check\"><input type=\"checkbox\" name=\"detach-\(i + 1)\" value=\"1\"\(on ? " checked" : "")> \(t(.webFieldDetach)) \(i + 1). <bdi>\(a.originalName)</bdi></label>"
            }
            inputs.append("<fieldset><legend>\(t(.webFiles))</legend>\(boxes)</fieldset>")
        }
        // Multipart whenever files may come or go, so one form says it all.
        let multipart: HTML = field != nil || !files.isEmpty ? " enctype=\"multipart/form-data\"" : ""
        return layout(title: title, session: session, body: """
            <h1><a href="/records/\(r.id)">\(title)</a></h1>\(message)
            <form method="post" action="/records/\(r.id)/edit" class="stack"\(multipart)>
            <input type="hidden" name="csrf" value="\(session.csrf)">
            \(inputs)
            <button type="submit">\(t(.webSave))</button>
            </form>
            """)
    }
}
