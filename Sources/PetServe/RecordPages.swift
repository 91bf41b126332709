import Foundation
import Localization
import PetModel
import PetStoreCore
import PetViews

/// The logging forms, the record's page and the pet page's timeline (RecordRoutes.swift), from the same words
/// (`fieldname.*`, `kind.*`, the codes' names) and presenters (`RecordDetailPresenter`, `RecordWording`) as the CLI.
extension Pages {
    /// One input of a form, named as the CLI's argument or option.
    enum Field {
        case text(String, String, required: Bool, placeholder: String, mode: String?)
        case area(String, String, required: Bool)
        case check(String, String)
        case choice(String, String, [(String, String)])
        case photos
        case attachments
    }

    func fieldName(_ name: String) -> String { context.l10n.code(.fieldname, name) }

    /// The kind's fields, then `at` and `note` (every logging command's `--at` and `--note`).
    func fields(_ kind: LogKind) -> [Field] {
        let l = context.l10n
        // `--cost` and `--currency` (visit, groom).
        let costFields: [Field] = [.text("cost", t(.showCost), required: false, placeholder: "45000", mode: nil),
                                   .text("currency", fieldName("currency"), required: false, placeholder: "KRW", mode: nil)]
        var out: [Field]
        switch kind {
        case .weight:
            out = [.text("weight", t(.kindWeight), required: true, placeholder: "4.2kg", mode: nil), .text("bcs", fieldName("bcs"), required: false, placeholder: "5", mode: "numeric")]
        case .meal:
            out = [.text("food", fieldName("food"), required: true, placeholder: "", mode: nil), .text("amount", fieldName("amount"), required: false, placeholder: "80g", mode: nil),
                   .check("snack", l.code(.mealType, "snack")), .check("treat", l.code(.mealType, "treat")), .check("water", l.code(.mealType, "water"))]
        case .stool:
            out = [.text("score", fieldName("score"), required: true, placeholder: "1–7", mode: "numeric"), .text("color", fieldName("color"), required: false, placeholder: "", mode: nil),
                   .check("blood", t(.fieldBlood)), .check("mucus", t(.fieldMucus))]
        case .urine:
            out = [.text("color", fieldName("color"), required: false, placeholder: "", mode: nil),
                   .choice("amount", fieldName("amount"), UrineAmount.allCases.map { ($0.rawValue, l.code(.urineAmount, $0.rawValue)) }),
                   .check("straining", t(.fieldStraining)), .check("blood", t(.fieldBlood))]
        case .symptom:
            out = [.text("symptom", fieldName("symptom"), required: true, placeholder: "", mode: nil), .text("severity", fieldName("severity"), required: false, placeholder: "1–5", mode: nil),
                   .text("duration", fieldName("duration"), required: false, placeholder: "2h", mode: nil), .check("as-written", fieldName("as-written"))]
        case .diary:
            out = [.area("text", fieldName("diary"), required: true), .text("title", fieldName("title"), required: false, placeholder: "", mode: nil),
                   .choice("mood", fieldName("mood"), Mood.allCases.map { ($0.rawValue, l.code(.mood, $0.rawValue)) }), .photos]
        case .walk:
            out = [.text("measure", t(.webFieldMeasure), required: true, placeholder: "3.2km 45min", mode: nil), .photos]
        case .visit:
            out = [.text("clinic", fieldName("clinic"), required: false, placeholder: "", mode: nil), .text("vet", fieldName("vet"), required: false, placeholder: "", mode: nil),
                   .text("reason", fieldName("reason"), required: false, placeholder: "", mode: nil), .area("diagnosis", fieldName("diagnosis"), required: false),
                   .area("treatment", fieldName("treatment"), required: false), .text("weight", t(.kindWeight), required: false, placeholder: "4.2kg", mode: nil),
                   .text("follow-up", fieldName("follow-up"), required: false, placeholder: "2w", mode: nil)] + costFields + [.attachments]
        case .vaccine:
            out = [.text("vaccine", fieldName("vaccine"), required: true, placeholder: "DHPP", mode: nil),
                   .text("next", fieldName("next"), required: false, placeholder: "1y", mode: nil),
                   .text("product", fieldName("product"), required: false, placeholder: "", mode: nil), .text("lot", fieldName("lot"), required: false, placeholder: "", mode: nil),
                   .text("clinic", fieldName("clinic"), required: false, placeholder: "", mode: nil),
                   .check("booster", fieldName("booster")), .check("initial", fieldName("initial")), .check("as-written", fieldName("as-written"))]
        case .dose:
            out = [.text("name", fieldName("name"), required: true, placeholder: "", mode: nil), .check("skipped", t(.fieldSkipped))]
        case .groom:
            out = [.text("what", fieldName("what"), required: false, placeholder: Grooming.Task.allCases.prefix(3).map { l.code(.groomingTask, $0.rawValue) }.joined(separator: " "), mode: nil),
                   .text("by", t(.webFieldGroomer), required: false, placeholder: "", mode: nil)] + costFields
                + [.text("next", fieldName("next"), required: false, placeholder: "4w", mode: nil), .photos]
        }
        return out + [.text("at", t(.webFieldAt), required: false, placeholder: "", mode: nil), .area("note", fieldName("note"), required: false)]
    }

    /// `GET /pets/ID/log?kind=…`: the kind's form; after a refusal, the line and what was typed.
    func logForm(_ pet: Pet, _ kind: LogKind, values: [String: String], notice: String?, session: WebSession) -> HTML {
        let title = t(.webLogTitle(kind: wording.kindName(kind.recordKind)))
        let message: HTML = notice.map { "<p class=\"notice\" role=\"alert\">\($0)</p>" } ?? ""
        let inputs = fields(kind).map { f -> HTML in
            switch f {
            case .text(let name, let label, let required, let placeholder, let mode):
                let extra: HTML = (required ? " required" : "") + (mode.map { " inputmode=\"\($0)\"" } ?? "")
                return "<label for=\"f-\(name)\">\(label)</label><input id=\"f-\(name)\" name=\"\(name)\" value=\"\(values[name] ?? "")\" placeholder=\"\(placeholder)\"\(extra)>"
            case .area(let name, let label, let required):
                return "<label for=\"f-\(name)\">\(label)</label><textarea id=\"f-\(name)\" name=\"\(name)\"\(required ? " required" : "")>\(values[name] ?? "")</textarea>"
            case .check(let name, let label):
                let on = values[name].map { !$0.isEmpty } ?? false
                return "<label class=\"check\"><input type=\"checkbox\" name=\"\(name)\" value=\"1\"\(on ? " checked" : "")> \(label)</label>"
            case .choice(let name, let label, let options):
                let opts = options.map { code, shown -> HTML in "<option value=\"\(code)\"\(values[name] == code ? " selected" : "")>\(shown)</option>" }
                return "<label for=\"f-\(name)\">\(label)</label><select id=\"f-\(name)\" name=\"\(name)\"><option value=\"\"></option>\(opts)</select>"
            case .photos:
                return "<label for=\"f-photo\">\(t(.webFieldPhoto))</label><input id=\"f-photo\" name=\"photo\" type=\"file\" accept=\"image/*,.heic,.heif\" multiple>"
            case .attachments:
                return "<label for=\"f-attach\">\(t(.webFiles))</label><input id=\"f-attach\" name=\"attach\" type=\"file\" multiple>"
            }
        }
        let multipart: HTML = kind.takesPhotos || kind == .visit ? " enctype=\"multipart/form-data\"" : ""
        return layout(title: title, session: session, body: """
            <h1>\(title) · <a href="/pets/\(pet.id)"><bdi>\(pet.name)</bdi></a></h1>\(message)
            <form method="post" action="/pets/\(pet.id)/log" class="stack"\(multipart)>
            <input type="hidden" name="csrf" value="\(session.csrf)"><input type="hidden" name="kind" value="\(kind.rawValue)">
            \(inputs)
            <button type="submit">\(t(.webSave))</button>
            </form>
            """)
    }

    /// The pet page's part: the kind chooser (an account that writes) and the timeline, newest first, a page at
    /// a time, photos as thumbnails that open the full photo.
    func petRecords(_ pet: Pet, _ timeline: PetTimeline?, session: WebSession) -> HTML {
        guard let timeline else { return "" }
        var out: HTML = undoForm(timeline.undo, back: "/pets/\(pet.id)", session: session)
        if session.account.role.writes {
            let links = LogKind.allCases.map { k -> HTML in "<a class=\"button\" href=\"/pets/\(pet.id)/log?kind=\(k.rawValue)\">\(wording.kindName(k.recordKind))</a>" }
            out += "<h2>\(t(.webLogChoose))</h2><nav class=\"kinds\">\(links)</nav>"
        }
        out += monthCalendar(pet, timeline)
        out += "<h2>\(t(.webTimeline))</h2>"
        if timeline.records.isEmpty { return out + "<p class=\"muted\">\(t(.webNoRecords))</p>" }
        let rows = timeline.records.map { r -> HTML in
            let thumbs = r.attachments.sorted { $0.position < $1.position }.enumerated().compactMap { i, a -> HTML? in
                guard a.mediaType.lowercased().hasPrefix("image/") else { return nil }
                return "<a href=\"/records/\(r.id)/files/\(i + 1)\"><img class=\"thumb\" src=\"/records/\(r.id)/files/\(i + 1)/thumb\" width=\"96\" height=\"96\" loading=\"lazy\" alt=\"\(a.originalName)\"></a>"
            }
            let star: HTML = r.starred ? " ★" : ""
            return """
            <li><a href="/records/\(r.id)">\(wording.kindName(r.kind))</a>\(star) <bdi>\(wording.summary(r))</bdi> \
            <span class="muted">\(r.localDay.description)</span>\(thumbs.isEmpty ? "" : "<div class=\"thumbs\">\(thumbs)</div>" as HTML)</li>
            """
        }
        out += "<ul class=\"timeline plain\">\(rows)</ul>"
        var pager: [HTML] = []
        if timeline.page > 0 { pager.append("<a class=\"button\" href=\"/pets/\(pet.id)?page=\(timeline.page - 1)\">\(t(.webNewer))</a>") }
        if timeline.hasOlder { pager.append("<a class=\"button\" href=\"/pets/\(pet.id)?page=\(timeline.page + 1)\">\(t(.webOlder))</a>") }
        if !pager.isEmpty { out += "<nav class=\"pager\">\(pager)</nav>" }
        return out
    }

    /// The month as `calendar PET --month` shows it: week rows in the context's week order, today marked, each
    /// day's kinds by their one-letter marks (named in a tooltip and the legend); the months before and after.
    func monthCalendar(_ pet: Pet, _ tl: PetTimeline) -> HTML {
        let sundayFirst = context.weekStartsOnSunday
        let order = sundayFirst ? [7, 1, 2, 3, 4, 5, 6] : [1, 2, 3, 4, 5, 6, 7]
        func column(_ d: LocalDate) -> Int { sundayFirst ? d.isoWeekday % 7 : d.isoWeekday - 1 }
        var cells: [HTML] = Array(repeating: "<td></td>", count: tl.days.first.map(column) ?? 0)
        var rows: [HTML] = []
        for d in tl.days {
            let kinds = RecordKind.allCases.filter { (tl.marks[d]?[$0] ?? 0) > 0 }
            let names = kinds.map { wording.kindName($0) }.joined(separator: format.listSeparator)
            let marks: HTML = kinds.isEmpty ? "" : "<span class=\"marks\" title=\"\(names)\">\(String(kinds.map(\.calendarMark)))</span>"
            cells.append("<td class=\"\(d == time.today ? "today" : "")\"><span class=\"day\">\(d.day)</span>\(marks)</td>")
            if cells.count == 7 { rows.append("<tr>\(cells)</tr>"); cells = [] }
        }
        if !cells.isEmpty { rows.append("<tr>\(cells + Array(repeating: "<td></td>", count: 7 - cells.count))</tr>") }
        let head = order.map { n -> HTML in "<th>\(format.weekday(iso: n))</th>" }
        func monthText(_ m: LocalDate) -> String { String(format: "%04d-%02d", m.year, m.month) }
        let used = RecordKind.allCases.filter { k in tl.marks.values.contains { ($0[k] ?? 0) > 0 } }
        let legend = used.map { "\($0.calendarMark) \(wording.kindName($0))" }.joined(separator: format.listSeparator)
        return """
            <h2>\(format.monthLabel(tl.month))</h2>
            <table class="month"><thead><tr>\(head)</tr></thead><tbody>\(rows)</tbody></table>
            <p class="muted">\(legend)</p>
            <nav class="pager"><a class="button" href="/pets/\(pet.id)?month=\(monthText(tl.month.adding(months: -1)))">\(format.monthLabel(tl.month.adding(months: -1)))</a>\
            <a class="button" href="/pets/\(pet.id)?month=\(monthText(tl.month.adding(months: 1)))">\(format.monthLabel(tl.month.adding(months: 1)))</a></nav>
            """
    }

    /// `GET /records/ID`: `show ID`'s fields (the same presenter), the files by number, delete and star.
    /// The undo button for the account's own last web change (`undo` of that step only), sent back to `back`.
    func undoForm(_ step: UndoEntry?, back: String, session: WebSession) -> HTML {
        guard let step, session.account.role.writes else { return "" }
        let what = step.command.range(of: "): ").map { String(step.command[$0.upperBound...]) } ?? step.command
        return """
            <form method="post" action="/undo" class="inline"><input type="hidden" name="csrf" value="\(session.csrf)">\
            <input type="hidden" name="back" value="\(back)"><button type="submit">\(t(.webUndo))</button> <span class="muted"><bdi>\(what)</bdi></span></form>
            """
    }

    func record(_ r: PetRecord, session: WebSession, undo: UndoEntry? = nil) -> HTML {
        let fields = RecordDetailPresenter(context).fields(r).map { k, v -> HTML in "<dt>\(k)</dt><dd><bdi>\(v)</bdi></dd>" }
        let files = r.attachments.sorted { $0.position < $1.position }.enumerated().map { i, a -> HTML in
            let image = a.mediaType.lowercased().hasPrefix("image/")
            let thumb: HTML = image ? "<img class=\"thumb\" src=\"/records/\(r.id)/files/\(i + 1)/thumb\" width=\"96\" height=\"96\" loading=\"lazy\" alt=\"\">" : ""
            return """
            <li><a href="/records/\(r.id)/files/\(i + 1)">\(thumb)\(i + 1). <bdi>\(a.originalName)</bdi></a> \
            <span class="muted">\(a.mediaType) · \(t(.showBytes(count: ValueFormatter.count(a.size))))</span>\(Thumbnails.heifTypes.contains(a.mediaType.lowercased()) ? " <a href=\"/records/\(r.id)/files/\(i + 1)/original\" download>\(t(.webFileOriginal))</a>" as HTML : "")</li>
            """
        }
        let fileList: HTML = files.isEmpty ? "" : "<h2>\(t(.webFiles))</h2><ul class=\"plain files\">\(files)</ul>"
        var actions: HTML = ""
        if session.account.role.writes {
            func post(_ path: String, _ label: String) -> HTML {
                "<form method=\"post\" action=\"/records/\(r.id)/\(path)\"><input type=\"hidden\" name=\"csrf\" value=\"\(session.csrf)\"><button type=\"submit\">\(label)</button></form>"
            }
            actions = "<div class=\"actions\"><a class=\"button\" href=\"/records/\(r.id)/edit\">\(t(.webEdit))</a>\(r.starred ? post("unstar", t(.webUnstar)) : post("star", t(.webStar)))\(post("delete", t(.webDelete)))</div>"
        }
        let back: HTML = r.petId.map { "<p><a class=\"button\" href=\"/pets/\($0)\"><bdi>\(r.petName ?? "")</bdi></a></p>" } ?? ""
        let title = "#\(r.id) \(wording.kindName(r.kind))"
        return layout(title: title, session: session, body: """
            <h1>\(title)\(r.starred ? " ★" : "")</h1>
            \(undoForm(undo, back: "/records/\(r.id)", session: session))
            <dl class="facts">\(fields)</dl>
            \(fileList)
            \(actions)
            \(back)
            """)
    }
}
