import Foundation
import Hummingbird
import Localization
import PetCharts
import PetModel
import PetReport
import PetStoreCore
import PetTransfer
import PetViews

/// A pet's views (issue 41): the weight chart, the vet report, the emergency card, the FHIR export and the
/// profile photo, each built by the code the CLI's `chart weight`, `report`, `card`, `export --format fhir`
/// use; and each account's calendar feed (`due --ics`). Addresses: docs/serve.md.
extension PetServer {
    /// The weight chart's periods the page links to: `?since=3m|1y|all` (default 1y).
    static let chartPeriods = ["3m", "1y", "all"]
    /// The chart's size on a page: a phone's column (as the trip's chart), so its words stay readable when the browser
    /// scales the vector drawing to the column.
    static let chartSize = ChartSize(width: 480, height: 320)

    /// `GET /pets/ID/weight.svg?since=3m|1y|all&theme=dark` (and `weight.png`): `chart weight`'s chart of the
    /// pet over the period, in the page's language. JSON: `chart weight --json`.
    func weightChart(_ request: Request, _ context: ServeContext, format: ChartFormat) throws -> Response {
        guard context.session != nil else { return notSignedIn(request, context) }
        guard let id = petId(context) else { return refusal(.notFound, .webNotFound, request, context) }
        let since = request.uri.queryParameters.get("since") ?? "1y"
        guard Self.chartPeriods.contains(since) else { return refusal(.notFound, .webNotFound, request, context) }
        let theme: ChartTheme = request.uri.queryParameters.get("theme") == "dark" ? .dark : .light
        let p = presentation(language(request, context))
        return try petAnswer(request, context) {
            if Self.wantsJSON(request) {
                let window = try Self.chartWindow(since, p.time)
                let chart = try store.run { try ChartComposer(store: $0, context: p, size: Self.chartSize, theme: theme).weight(pets: [.id(id)], window: window, smoothing: nil) }
                return Self.json(try JSONView.text(chart.json()))
            }
            let bytes = try weightChartBytes(pet: id, since: since, theme: theme, format: format, p)
            return Self.file(bytes, type: format == .svg ? "image/svg+xml" : "image/png")
        }
    }

    /// `GET /pets/ID/report.pdf?question=…&since=90d&date=YYYY-MM-DD&paper=a4|letter`: `report`'s vet report
    /// (`--question` repeated, `--since`, `--date`, `--paper`) in the page's language.
    func reportPDF(_ request: Request, _ context: ServeContext) throws -> Response {
        guard context.session != nil else { return notSignedIn(request, context) }
        guard let id = petId(context) else { return refusal(.notFound, .webNotFound, request, context) }
        let query = request.uri.queryParameters
        let p = presentation(language(request, context))
        let questions: [String]
        let paper: Paper
        do {
            questions = try query.getAll("question").filter { !$0.isEmpty }.map { try TextField.text(String($0), field: "--question", max: 2000) }
            switch query.get("paper") ?? "a4" {
            case "a4": paper = .a4
            case "letter": paper = .letter
            default: return refusal(.badRequest, .webBadForm, request, context)
            }
        } catch {
            return refusal(.badRequest, .webBadForm, request, context)
        }
        let since = query.get("since") ?? "90d", date = query.get("date")
        return try petAnswer(request, context) {
            let currency = settings.currency ?? HomeCurrency.fallback(languageCode: p.l10n.language.rawValue, region: nil)
            let scratch = ScratchFolder()
            let (name, doc) = try store.run { s -> (String, ReportDocument) in
                let doc: ReportDocument
                do {
                    doc = try PetDocuments(store: s, context: p).vetReport(pet: .id(id), since: since, date: date, generated: p.time.today,
                                                                       questions: questions, currency: currency, paper: paper, scratch: scratch.path)
                } catch is ParseError { throw HTTPError(.badRequest) }
                return (try s.pet(.id(id)).name, doc)
            }
            let bytes = try Self.rendered("report.pdf") { _ = try ReportRenderer.render(doc, to: $0) }
            return Self.file(bytes, type: "application/pdf", name: Self.downloadName(name, id: id, suffix: "report.pdf"))
        }
    }

    /// `GET /pets/ID/card.pdf?paper=card|a4|letter`: `card`'s emergency card in the page's language.
    func cardPDF(_ request: Request, _ context: ServeContext) throws -> Response {
        guard context.session != nil else { return notSignedIn(request, context) }
        guard let id = petId(context) else { return refusal(.notFound, .webNotFound, request, context) }
        let layout: CardLayout
        switch request.uri.queryParameters.get("paper") ?? "card" {
        case "card": layout = .single
        case "a4": layout = .sheet(.a4)
        case "letter": layout = .sheet(.letter)
        default: return refusal(.badRequest, .webBadForm, request, context)
        }
        let p = presentation(language(request, context))
        return try petAnswer(request, context) {
            let scratch = ScratchFolder()
            let (pet, card) = try store.run { try PetDocuments(store: $0, context: p).emergencyCard(pet: .id(id), today: p.time.today, scratch: scratch.path) }
            do {
                try CardRenderer.fit(card)
            } catch is CardOverflow {
                // The CLI's refusal (a card that would leave out a fact), said on the page.
                return refusal(.unprocessableContent, .webCardTooFull, request, context)
            }
            let bytes = try Self.rendered("card.pdf") { _ = try CardRenderer.render(card, layout: layout, format: .pdf, to: $0) }
            return Self.file(bytes, type: "application/pdf", name: Self.downloadName(pet.name, id: id, suffix: "card.pdf"))
        }
    }

    /// `GET /pets/ID/fhir.json`: `export --format fhir --pet ID`, the pet's HL7 FHIR R4 bundle.
    func fhirJSON(_ request: Request, _ context: ServeContext) throws -> Response {
        guard context.session != nil else { return notSignedIn(request, context) }
        guard let id = petId(context) else { return refusal(.notFound, .webNotFound, request, context) }
        let p = presentation(language(request, context))
        return try petAnswer(request, context) {
            let (pet, bytes) = try store.run { s -> (Pet, [UInt8]) in
                let pet = try s.pet(.id(id))
                let records = try s.records(RecordQuery(pets: [.id(id)], kinds: FHIRBundle.kinds)).sorted { $0.id < $1.id }
                return (pet, FHIRBundle.bytes(pets: [pet], records: records, today: p.time.today, namespace: try s.householdNamespace()))
            }
            return Self.file(Data(bytes), type: "application/fhir+json; charset=utf-8", name: Self.downloadName(pet.name, id: id, suffix: "fhir.json"))
        }
    }

    /// `GET /pets/ID/photo`: the profile photo with its stored type (404 when the pet has none).
    func petPhoto(_ request: Request, _ context: ServeContext) throws -> Response {
        guard context.session != nil else { return notSignedIn(request, context) }
        guard let id = petId(context) else { return refusal(.notFound, .webNotFound, request, context) }
        return try petAnswer(request, context) {
            guard let photo = try store.run({ s -> (mediaType: String, data: Data)? in _ = try s.pet(.id(id)); return try s.petPhoto(id: id) }) else {
                return refusal(.notFound, .webNotFound, request, context)
            }
            return Self.file(photo.data, type: photo.mediaType)
        }
    }

    // MARK: The calendar feed

    /// `GET /feeds/TOKEN.ics`: `due --ics` for the household (what is overdue and due within a year, with
    /// alarms), for a calendar app to subscribe to. No session: the token is the secret; the store keeps only
    /// its SHA-256. Anything but a known token is 404, and nothing more is said.
    func feed(_ request: Request, _ context: ServeContext) throws -> Response {
        guard let name = context.parameters.get("token"), name.hasSuffix(".ics") else { throw HTTPError(.notFound) }
        let token = String(name.dropLast(4))
        guard token.count == 64, token.allSatisfy({ $0.isHexDigit && ($0.isNumber || $0.isLowercase) }),
              let account = try store.run({ try $0.account(feedTokenHash: Secrets.digest(token)) }) else {
            return Response(status: .notFound, headers: [.contentType: "text/plain; charset=utf-8", .cacheControl: "no-store"],
                            body: .init(byteBuffer: ByteBuffer(string: "not found\n")))
        }
        let p = presentation(account.language.flatMap(Language.init(rawValue:)) ?? settings.language)
        let items = try store.run { s -> [DueItem] in
            let pets = try s.pets(includeArchived: false)
            let horizon = p.time.today.adding(days: 366)
            return CareAgenda.items(pets: pets, records: try s.careRecords(pets: pets.map(\.id)), schedule: .shipped, context: p.time)
                .filter { $0.dueDay <= horizon }
        }
        let text = DueCalendar.document(items, p)
        return Response(status: .ok, headers: [.contentType: "text/calendar; charset=utf-8", .cacheControl: "no-store"],
                        body: .init(byteBuffer: ByteBuffer(string: text)))
    }

    /// `POST /account/feed` (`csrf`): the signed-in account's calendar feed gets a new secret token (the old
    /// one stops working); the page shows its address once. Any role: the feed is the account's own.
    func resetFeed(_ request: Request, _ context: ServeContext) async throws -> Response {
        guard let session = context.session else { return Self.redirect("/login") }
        let checked = try await checkedWrite(request, context, session, needsWriter: false)
        if let refused = checked.refusal { return refused }
        let token = Secrets.token()
        _ = try store.run { try $0.setFeedToken(name: session.account.name, tokenHash: Secrets.digest(token)) }
        let p = presentation(language(request, context))
        let host = request.head.authority ?? "localhost"
        let url = (settings.secureCookies ? "https://" : "http://") + host + Self.feedPath(token)
        return Self.html(PetPages(p).feedMade(url: url, session: session))
    }

    /// A path as the request's log line shows it: a calendar feed's token (a secret) left out.
    static func loggedPath(_ path: String) -> String {
        path.hasPrefix("/feeds/") ? "/feeds/…" : path
    }

    /// The address path of a feed token (`user feed-reset` prints it too).
    public static func feedPath(_ token: String) -> String { "/feeds/\(token).ics" }

    // MARK: Helpers

    /// `body`'s answer; an unknown pet is 404 (a bad period 400), as on the pet's page.
    func petAnswer(_ request: Request, _ context: ServeContext, _ body: () throws -> Response) throws -> Response {
        do {
            return try body()
        } catch let e as StoreError {
            if case .petNotFound = e { return refusal(.notFound, .webNotFound, request, context) }
            throw e
        } catch let e as HTTPError where e.status == .badRequest {
            return refusal(.badRequest, .webBadForm, request, context)
        }
    }

    /// What `render` writes to a file of a private temporary folder, read back (the renderers write files).
    static func rendered(_ name: String, _ render: (String) throws -> Void) throws -> Data {
        let scratch = ScratchFolder()
        let path = try scratch.path() + "/" + name
        try render(path)
        return try Data(contentsOf: URL(fileURLWithPath: path))
    }

    /// A file's answer: its type, `inline` with an ASCII file name when it has one; private (`no-store`).
    static func file(_ data: Data, type: String, name: String? = nil) -> Response {
        var headers: HTTPFields = [.contentType: type, .cacheControl: "private, no-store"]
        if let name { headers[.contentDisposition] = "inline; filename=\"\(name)\"" }
        return Response(status: .ok, headers: headers, body: .init(byteBuffer: ByteBuffer(bytes: data)))
    }

    /// A file name for a header: the pet's name where it is plain ASCII letters, digits, `-` and `_` (at most
    /// 40), else `pet-ID`; then `-suffix`. Nothing a header or a file system could misread.
    static func downloadName(_ petName: String, id: Int64, suffix: String) -> String {
        let plain = petName.unicodeScalars.allSatisfy { $0.isASCII && (CharacterSet.alphanumerics.contains($0) || $0 == "-" || $0 == "_") }
        let stem = plain && !petName.isEmpty && petName.count <= 40 ? petName : "pet-\(id)"
        return stem + "-" + suffix
    }
}
