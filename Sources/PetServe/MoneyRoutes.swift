import Foundation
import Hummingbird
import Localization
import PetCharts
import PetModel
import PetStoreCore
import PetViews
import ReceiptScan

/// The money addresses (docs/serve.md): `/money`, a trip's chart, the expense form, receipts, and the language choice.
extension PetServer {
    /// The currency totals are shown in: the CLI's (`--currency`'s fallbacks, as `serve` read them), else the page language's.
    func homeCurrency(_ p: PresentationContext) -> Currency {
        settings.currency ?? HomeCurrency.fallback(languageCode: p.l10n.language.rawValue, region: nil)
    }

    /// `GET /money?month=YYYY-MM` (default this month): the month by day, the spending calendar, the budgets and
    /// trips. JSON: `expense list --month --json` as `expenses`, `calendar --spending --json` as `calendar`,
    /// `budget show --json` as `budgets`.
    func moneyPage(_ request: Request, _ context: ServeContext) throws -> Response {
        guard let session = context.session else { return notSignedIn(request, context) }
        let p = presentation(language(request, context))
        let first: LocalDate
        if let text = request.uri.queryParameters.get("month") {
            guard text.count == 7, let month = try? LocalDate.parseMonth(text) else { return refusal(.badRequest, .errBadMonth(value: text), request, context) }
            first = month
        } else {
            first = p.time.today.firstOfMonth
        }
        let home = homeCurrency(p)
        let today = p.time.today
        let pet = request.uri.queryParameters.get("pet").map { String($0) }.flatMap { $0.count <= 18 && $0.allSatisfy { $0.isASCII && $0.isNumber } ? $0 : nil }
        var page = try store.run { s -> Pages.MoneyMonth in
            let month = try MoneyViews.month(s, first: first, home: home, time: p.time)
            let (shown, activePets) = try MoneyViews.shownBudgets(s, on: today, time: p.time)
            var trips: [Int64: BudgetDays] = [:]
            for (b, _) in shown {
                guard case .days(let from, let through) = b.budget.period, through.dayNumber - from.dayNumber < 3_660 else { continue }
                trips[b.id] = try MoneyViews.budgetDays(s, b, first: from, last: through, on: today, activePets: activePets, time: p.time)
            }
            return Pages.MoneyMonth(first: first, days: month.days, daily: month.daily, ahead: month.ahead, budgets: shown,
                                    activePets: activePets, trips: trips, pets: try s.pets(includeArchived: false))
        }
        page.pet = pet
        if Self.wantsJSON(request) {
            return Self.json(try JSONView.text(MoneyPageJSON(
                expenses: ExpenseListJSON(page.days, now: p.time.now, ahead: page.ahead, span: .month(first)),
                calendar: SpendingCalendarJSON(month: first, daily: page.daily, ahead: page.ahead),
                budgets: BudgetShowJSON(date: today, budgets: page.budgets.map { BudgetJSON($0, activePets: page.activePets, .status($1, on: today)) }))))
        }
        return Self.html(Pages(p).money(page, session: session))
    }

    /// Home's money: this month's spending in the home currency, the household's monthly budgets and the trips under way.
    func homeMoney(_ s: SharedStore.Served, _ p: PresentationContext) throws -> Pages.HomeMoney {
        let today = p.time.today
        let month = try MoneyViews.month(s, first: today.firstOfMonth, home: homeCurrency(p), time: p.time)
        let (shown, activePets) = try MoneyViews.shownBudgets(s, on: today, time: p.time)
        let monthly = shown.filter { $0.0.budget.period == .monthly && $0.0.petId == nil }
        let trips = shown.filter { b, _ in
            if case .days(let from, let through) = b.budget.period { return from <= today && today <= through }
            return false
        }
        return Pages.HomeMoney(spent: Money(minorUnits: month.daily.total, currency: month.daily.currency), monthly: monthly, trips: trips, activePets: activePets)
    }

    /// `GET /budgets/ID/chart.svg[?theme=dark]`: `chart expenses --budget ID` drawn as SVG.
    func budgetChart(_ request: Request, _ context: ServeContext) throws -> Response {
        guard context.session != nil else { return notSignedIn(request, context) }
        guard let id = petId(context) else { return refusal(.notFound, .webNotFound, request, context) }
        let p = presentation(language(request, context))
        let theme: ChartTheme = request.uri.queryParameters.get("theme") == "dark" ? .dark : .light
        let folder = NSTemporaryDirectory() + "petlog-serve-chart-" + Secrets.token().prefix(16)
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: false, attributes: [.posixPermissions: 0o700])
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let path = folder + "/chart.svg"
        let found = try store.run { s -> Bool in
            guard let b = try s.budgets().first(where: { $0.id == id }) else { return false }
            let composer = ChartComposer(store: s, context: p, size: ChartSize(width: 480, height: 360), theme: theme)
            guard case .bars(let spec) = try composer.budget(b, currency: b.budget.amount.currency).drawing() else { return false }
            try ChartRenderer.render(spec, to: path, format: .svg)
            return true
        }
        guard found else { return refusal(.notFound, .webNotFound, request, context) }
        let svg = try Data(contentsOf: URL(fileURLWithPath: path))
        return Response(status: .ok, headers: [.contentType: "image/svg+xml", .cacheControl: "no-store"], body: .init(byteBuffer: ByteBuffer(bytes: svg)))
    }

    // MARK: Writes

    /// `POST /expenses` (`amount`, `pet`, `category`, `merchant`, `payment`, `items`, `at`, `note`, `csrf`, and from
    /// a receipt's proposal `receipt`): an expense read by `expense`'s parsers, the receipt photo attached; to its month's `/money`.
    func addExpense(_ request: Request, _ context: ServeContext) async throws -> Response {
        guard let session = context.session else { return Self.redirect("/login") }
        let checked = try await checkedWrite(request, context, session, needsWriter: true)
        if let refused = checked.refusal { return refused }
        let form = checked.form
        let p = presentation(language(request, context))
        func field(_ name: String) -> String? {
            form[name].map { $0.trimmingCharacters(in: .whitespacesAndNewlines) }.flatMap { $0.isEmpty ? nil : $0 }
        }
        var photo: String?
        if let token = field("receipt") {
            guard let staged = receipts.path(token) else { return refusal(.gone, .webReceiptExpired, request, context) }
            photo = staged
        }
        let draft: RecordDraft
        let pets: [PetRef]
        do {
            // `--currency`: a bare amount's currency (else the home one), as `expense` reads it.
            let currency = try field("currency").map { code in try Currency.named(code).map { $0 } ?? { throw ParseError.unknownCurrency(code) }() }
            let amount = try MoneyText.parse(field("amount") ?? "", defaultCurrency: currency ?? homeCurrency(p), language: p.l10n.language.rawValue)
            guard amount.minorUnits > 0 else { throw ParseError.amountNotPositive(field("amount") ?? "") }
            let expense = Expense(
                money: amount,
                category: try field("category").map { try CareNames.shipped.categoryEntry($0) } ?? "other",
                merchant: try field("merchant").map { try TextField.label($0, field: "merchant") },
                payment: try field("payment").map { raw in
                    guard let pay = Payment(rawValue: raw) else { throw ParseError.unknownChoice(field: "--payment", value: raw, accepted: Payment.allCases.map(\.rawValue)) }
                    return pay
                },
                items: try field("items").map { raw in try Expense.parseItems(raw).map { try TextField.label($0, field: "items") } } ?? [])
            let at = try field("at").map { try TimeParser.moment($0, context: p.time, observed: false) }
            let when = at?.date ?? p.time.now
            draft = RecordDraft(at: when, utcOffset: at?.utcOffset ?? p.time.utcOffset(at: when), note: try field("note").map { try TextField.text($0, field: "note") },
                                detail: .expense(expense), attachmentPaths: photo.map { [$0] } ?? [])
            guard let petText = field("pet") else { pets = []; return try saveExpense(draft, pets: [], token: field("receipt"), request, context) }
            guard petText.count <= 18, petText.allSatisfy({ $0.isASCII && $0.isNumber }), let id = Int64(petText), id > 0 else {
                return refusal(.notFound, .webNotFound, request, context)
            }
            pets = [.id(id)]
        } catch let e as ParseError {
            let line = e.message(p.l10n)
            return Self.html(Pages(p).layout(title: line, session: session,
                                             body: "<p class=\"notice\">\(line)</p><p><a class=\"button\" href=\"/money#add-expense\">\(p.t(.webMoneyTitle))</a></p>"),
                             status: .badRequest)
        }
        return try saveExpense(draft, pets: pets, token: field("receipt"), request, context)
    }

    func saveExpense(_ draft: RecordDraft, pets: [PetRef], token: String?, _ request: Request, _ context: ServeContext) throws -> Response {
        do {
            _ = try store.run { try $0.addRecord(pets: pets, draft) }
        } catch let e as StoreError {
            if case .petNotFound = e { return refusal(.notFound, .webNotFound, request, context) }
            throw e
        }
        if let token { receipts.remove(token) }
        // To the month the expense is in (a receipt's day may be months back).
        let day = RecordClock.day(draft.at, utcOffset: draft.utcOffset)
        return Self.redirect("/money?month=" + String(day.description.prefix(7)))
    }

    /// `POST /receipts` (multipart: `receipt`, a photo, and `csrf`): the photo read as `expense scan` reads it, answered
    /// with the proposal as an editable form; the photo waits (staged under a random token) for `POST /expenses`.
    func readReceipt(_ request: Request, _ context: ServeContext) async throws -> Response {
        guard let session = context.session else { return Self.redirect("/login") }
        guard Self.sameOrigin(request) else { return refusal(.forbidden, .webBadForm, request, context) }
        let p = presentation(language(request, context))
        let upload: Upload
        do { upload = try await Upload.read(request) } catch let e as Upload.Failure {
            return e == .tooLarge ? refusal(.contentTooLarge, .webUploadTooLarge(mb: String(Upload.fileLimit / 1_048_576)), request, context)
                : refusal(.badRequest, .webBadForm, request, context)
        }
        defer { upload.discard() }
        guard let sent = upload.fields["csrf"], Secrets.same(sent, session.csrf) else { return refusal(.forbidden, .webBadForm, request, context) }
        guard session.account.role.writes else { return refusal(.forbidden, .webForbidden, request, context) }
        guard let file = upload.files(named: "receipt").first, file.imageType != nil else {
            return refusal(.unsupportedMediaType, .webUploadNotImage, request, context)
        }
        let token = try receipts.stage(file.path, type: file.imageType ?? "image/jpeg", now: settings.now())
        let scan: ReceiptScan
        do {
            scan = try ReceiptScan.read(image: receipts.path(token) ?? file.path, fixed: nil, uiLanguage: p.l10n.language.rawValue,
                                        homeCurrency: homeCurrency(p), today: p.time.today)
        } catch let e as ScanFailure {
            receipts.remove(token)
            let line = e.message(p.l10n)
            return Self.html(Pages(p).layout(title: line, session: session, body: "<p class=\"notice\">\(line)</p>"),
                             status: e.exitCode == 65 ? .unprocessableContent : .serviceUnavailable)
        }
        let draft = ReceiptExpense(scan.proposal)
        let pets = try store.run { try $0.pets(includeArchived: false) }
        return Self.html(Pages(p).receiptProposal(draft, proposal: scan.proposal, token: token, pets: pets, session: session, lines: scan.reading.text))
    }

    /// `POST /language` (`language`: en, ko or ja; `csrf` for a signed-in account): saved on the account, and in a
    /// cookie (a year) for the pages without one; back to the page it came from (its `Referer`, this site's), else home.
    func setLanguage(_ request: Request, _ context: ServeContext) async throws -> Response {
        let form: [String: String]
        if let session = context.session {
            let checked = try await checkedWrite(request, context, session, needsWriter: false)
            if let refused = checked.refusal { return refused }
            form = checked.form
        } else {
            guard Self.sameOrigin(request) else { return refusal(.forbidden, .webBadForm, request, context) }
            form = try await Self.form(request)
        }
        guard let chosen = form["language"].flatMap(Language.init(rawValue:)) else { return refusal(.badRequest, .webBadForm, request, context) }
        // Back to the page the switch was made on (its Referer, this site's: sameOrigin passed), else home.
        let back = request.headers[.referer].flatMap(URLComponents.init(string:)).flatMap { c -> String? in
            let path = c.percentEncodedPath + (c.percentEncodedQuery.map { "?" + $0 } ?? "")
            return path.hasPrefix("/") && !path.hasPrefix("//") && path.unicodeScalars.allSatisfy { $0.value > 0x20 && $0.value < 0x7F } ? path : nil
        } ?? "/"
        var response = Self.redirect(back)
        if let session = context.session {
            try store.run { try $0.setLanguage(account: session.account.id, language: chosen.rawValue) }
        }
        response.setCookie(cookie(Self.languageCookie, chosen.rawValue, maxAge: 365 * 86_400))
        return response
    }
}

/// `/money`'s JSON: the three CLI views it is made of, each as the CLI writes it.
struct MoneyPageJSON: Encodable {
    let expenses: ExpenseListJSON
    let calendar: SpendingCalendarJSON
    let budgets: BudgetShowJSON
}

/// Receipt photos between `POST /receipts` and `POST /expenses`: each in a private folder under a random token
/// (64 hex digits: no name a browser sent reaches the file system), removed once saved, and after a day.
public final class StagedReceipts: @unchecked Sendable {
    private let folder: String
    private let lock = NSLock()
    static let lifetime: TimeInterval = 86_400

    public init(folder: String = NSTemporaryDirectory() + "petlog-serve-receipts-" + String(Secrets.token().prefix(16))) {
        self.folder = folder
    }

    deinit { try? FileManager.default.removeItem(atPath: folder) }

    /// Copies the upload at `path` in; its token.
    func stage(_ path: String, type: String, now: Date) throws -> String {
        lock.lock(); defer { lock.unlock() }
        let fm = FileManager.default
        try fm.createDirectory(atPath: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        for old in (try? fm.contentsOfDirectory(atPath: folder)) ?? [] {
            let dir = folder + "/" + old
            if let made = (try? fm.attributesOfItem(atPath: dir))?[.modificationDate] as? Date, now.timeIntervalSince(made) > Self.lifetime {
                try? fm.removeItem(atPath: dir)
            }
        }
        let token = Secrets.token()
        let ext = ["image/jpeg": "jpg", "image/png": "png", "image/heic": "heic", "image/webp": "webp", "image/gif": "gif", "image/tiff": "tiff",
                   "image/avif": "avif", "image/bmp": "bmp"][type.lowercased()] ?? "jpg"
        try fm.createDirectory(atPath: folder + "/" + token, withIntermediateDirectories: false, attributes: [.posixPermissions: 0o700])
        try fm.copyItem(atPath: path, toPath: folder + "/" + token + "/receipt." + ext)
        return token
    }

    /// The staged photo of `token`, when the token is one (64 hex digits) and its photo is still here.
    func path(_ token: String) -> String? {
        guard token.count == 64, token.allSatisfy({ $0.isASCII && $0.isHexDigit }) else { return nil }
        lock.lock(); defer { lock.unlock() }
        let dir = folder + "/" + token
        guard let name = (try? FileManager.default.contentsOfDirectory(atPath: dir))?.first else { return nil }
        return dir + "/" + name
    }

    func remove(_ token: String) {
        guard token.count == 64, token.allSatisfy({ $0.isASCII && $0.isHexDigit }) else { return }
        lock.lock(); defer { lock.unlock() }
        try? FileManager.default.removeItem(atPath: folder + "/" + token)
    }
}
