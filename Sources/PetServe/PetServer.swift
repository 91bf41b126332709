import Foundation
import Hummingbird
import Localization
import Logging
import PetFiles
import PetModel
import PetStoreCore
import PetViews

/// How `petlog serve` runs: what the CLI read from its options, config and clock.
public struct ServeSettings: Sendable {
    /// The config's language: the last choice after the account's and the browser's `Accept-Language`.
    public var language: Language
    public var unitSystem: UnitSystem
    public var timeZone: TimeZone
    /// Cookies marked `Secure` (the server is reached over TLS).
    public var secureCookies: Bool
    public var sessionLifetime: TimeInterval
    public var now: @Sendable () -> Date
    /// Where the request lines go (stderr in the CLI); nil: `--quiet`.
    public var log: (@Sendable (String) -> Void)?
    /// The home currency (the CLI's `--currency`/`PETLOG_CURRENCY`/config); nil: the page language's.
    public var currency: Currency?

    public init(language: Language = .en, unitSystem: UnitSystem = .metric, timeZone: TimeZone = .current, secureCookies: Bool = false,
                sessionLifetime: TimeInterval = 30 * 86_400, now: @escaping @Sendable () -> Date = { Date() },
                log: (@Sendable (String) -> Void)? = nil, currency: Currency? = nil) {
        self.language = language; self.unitSystem = unitSystem; self.timeZone = timeZone; self.secureCookies = secureCookies
        self.sessionLifetime = sessionLifetime; self.now = now; self.log = log; self.currency = currency
    }
}

/// The store the handlers share. On a SQLite file its reads go to read-only connections of their own
/// (`WebRepository.readConcurrently`, up to `readConnections`) and its writes to its one writing connection, which
/// takes them in turn: the handlers call it side by side, and a page's reads never wait behind another page's
/// (issue 44). Elsewhere (a PostgreSQL store is one connection) the calls are taken one at a time here.
public final class SharedStore: @unchecked Sendable {
    public typealias Served = any PetlogStore & AccountStore
    private let store: Served
    private let lock = NSLock()
    /// The store takes calls side by side (else `run` takes them one at a time).
    let concurrent: Bool
    /// Values derived from the store, kept while its change marker stays the same (`StoreCache`, WebReads.swift).
    let cache = StoreCache()
    public init(_ store: Served, readConnections: Int = 4) {
        self.store = store
        concurrent = store.readConcurrently(connections: readConnections)
    }
    func run<T>(_ body: (Served) throws -> T) throws -> T {
        if concurrent { return try body(store) }
        lock.lock(); defer { lock.unlock() }
        return try body(store)
    }
}

/// Each request's context: Hummingbird's own, and the signed-in session if the cookie names a live one.
public struct ServeContext: RequestContext {
    public var coreContext: CoreRequestContextStorage
    public var session: WebSession?
    /// The peer's IP address (the login throttle's per-address count); nil where there is no socket (route tests).
    public let remoteAddress: String?
    public init(source: ApplicationRequestContextSource) {
        coreContext = .init(source: source)
        remoteAddress = source.channel.remoteAddress?.ipAddress
    }
}

/// `petlog serve`: the router with its pages, the middleware every request passes (session, security headers,
/// the request's log line) and the application that listens. Addresses: docs/serve.md.
public struct PetServer: Sendable {
    public static let sessionCookie = "petlog_session"
    public static let loginCookie = "petlog_login"
    /// The language chosen on the pages without an account (`POST /language`).
    public static let languageCookie = "petlog_lang"

    let store: SharedStore
    let settings: ServeSettings
    let throttle: LoginThrottle
    /// Receipt photos between `POST /receipts` and `POST /expenses`.
    let receipts: StagedReceipts

    public init(store: SharedStore, settings: ServeSettings, throttle: LoginThrottle = LoginThrottle(), receipts: StagedReceipts = StagedReceipts()) {
        self.store = store; self.settings = settings; self.throttle = throttle; self.receipts = receipts
        // Made now, not on the first login for an unknown name (which would then take longer than a wrong password).
        _ = Secrets.decoyHash
    }

    public func router() -> Router<ServeContext> {
        let router = Router(context: ServeContext.self)
        router.add(middleware: ServeMiddleware(server: self))
        router.get("/healthz") { _, _ in try healthz() }
        router.get("/static/petlog.css") { _, _ in stylesheet() }
        router.get("/login") { request, context in loginPage(request, context) }
        router.post("/login") { request, context in try await login(request, context) }
        router.post("/logout") { request, context in try await logout(request, context) }
        router.get("/") { request, context in try home(request, context) }
        router.get("/pets/:id") { request, context in try petPage(request, context) }
        router.post("/pets/:id/log") { request, context in try await logRecord(request, context) }
        router.get("/pets/:id/weight.svg") { request, context in try weightChart(request, context, format: .svg) }
        router.get("/pets/:id/weight.png") { request, context in try weightChart(request, context, format: .png) }
        router.get("/pets/:id/report.pdf") { request, context in try reportPDF(request, context) }
        router.get("/pets/:id/card.pdf") { request, context in try cardPDF(request, context) }
        router.get("/pets/:id/fhir.json") { request, context in try fhirJSON(request, context) }
        router.get("/pets/:id/photo") { request, context in try petPhoto(request, context) }
        router.get("/feeds/:token") { request, context in try feed(request, context) }
        router.post("/account/feed") { request, context in try await resetFeed(request, context) }
        router.get("/money") { request, context in try moneyPage(request, context) }
        router.get("/budgets/:id/chart.svg") { request, context in try budgetChart(request, context) }
        router.post("/expenses") { request, context in try await addExpense(request, context) }
        router.post("/receipts") { request, context in try await readReceipt(request, context) }
        router.post("/language") { request, context in try await setLanguage(request, context) }
        addRecordRoutes(router)
        return router
    }

    /// The application listening on `address`; `onRunning` hears once it listens.
    /// With `tls`, HTTPS only (`--tls-cert/--tls-key`).
    public func application(_ address: ListenAddress, tls: ServeTLS? = nil, onRunning: @escaping @Sendable () async -> Void = {}) throws -> some ApplicationProtocol {
        var logger = Logger(label: "petlog-serve")
        logger.logLevel = .critical
        return Application(router: router(), server: try tls.map { try .tls(.http1(), tlsConfiguration: $0.configuration) } ?? .http1(),
                           configuration: .init(address: .hostname(address.host, port: address.port), serverName: nil),
                           onServerRunning: { _ in await onRunning() }, logger: logger)
    }

    // MARK: What every page needs

    /// The page's language: the account's, else the one chosen on the pages (a cookie), else the browser's first
    /// of en/ko/ja, else the config's.
    func language(_ request: Request, _ context: ServeContext) -> Language {
        if let l = context.session?.account.language.flatMap(Language.init(rawValue:)) { return l }
        if let l = request.cookies[Self.languageCookie].flatMap({ Language(rawValue: $0.value) }) { return l }
        if let header = request.headers[.acceptLanguage] {
            let tags = header.split(separator: ",").compactMap { part -> (Language, Double)? in
                let pieces = part.split(separator: ";").map { $0.trimmingCharacters(in: .whitespaces) }
                guard let tag = pieces.first, let l = Language.parse(tag) else { return nil }
                let q = pieces.dropFirst().first { $0.hasPrefix("q=") }.flatMap { Double($0.dropFirst(2)) } ?? 1
                return q > 0 ? (l, q) : nil
            }
            if let best = tags.enumerated().max(by: { ($0.element.1, -$0.offset) < ($1.element.1, -$1.offset) }) { return best.element.0 }
        }
        return settings.language
    }

    func presentation(_ language: Language, at now: Date? = nil) -> PresentationContext {
        let l10n = L10n(language)
        let time = TimeContext(now: now ?? settings.now(), timeZone: settings.timeZone)
        let format = ValueFormatter(l10n, unitSystem: settings.unitSystem)
        return PresentationContext(screen: TextScreen(colors: false, columns: 80), l10n: l10n, format: format,
                                   wording: RecordWording(format, time: time), time: time)
    }

    static func wantsJSON(_ request: Request) -> Bool {
        request.headers[.accept]?.lowercased().contains("application/json") == true
    }

    // MARK: Responses

    static func html(_ page: HTML, status: HTTPResponse.Status = .ok) -> Response {
        Response(status: status, headers: [.contentType: "text/html; charset=utf-8", .cacheControl: "no-store"],
                 body: .init(byteBuffer: ByteBuffer(string: page.raw)))
    }

    static func json(_ text: String, status: HTTPResponse.Status = .ok) -> Response {
        Response(status: status, headers: [.contentType: "application/json; charset=utf-8", .cacheControl: "no-store"],
                 body: .init(byteBuffer: ByteBuffer(string: text + "\n")))
    }

    static func redirect(_ location: String) -> Response {
        Response(status: .seeOther, headers: [.location: location, .cacheControl: "no-store"])
    }

    func refusal(_ status: HTTPResponse.Status, _ message: L10n.Message, _ request: Request, _ context: ServeContext) -> Response {
        let p = presentation(language(request, context))
        if Self.wantsJSON(request) { return Self.json((try? JSONView.text(["error": p.t(message)])) ?? "{}", status: status) }
        return Self.html(Pages(p).layout(title: p.t(message), session: context.session, body: "<p class=\"notice\">\(p.t(message))</p>"), status: status)
    }

    func cookie(_ name: String, _ value: String, maxAge: Int) -> Cookie {
        Cookie(name: name, value: value, maxAge: maxAge, path: "/", secure: settings.secureCookies, httpOnly: true, sameSite: .lax)
    }

    // MARK: Refusals every write checks

    /// A POST is refused when its `Origin` (or, without one, its `Referer`) names another site than the one
    /// it was sent to (its authority: HTTP/1's `Host`); a request with neither (not a browser's) is left to the CSRF token.
    static func sameOrigin(_ request: Request) -> Bool {
        guard let host = request.head.authority else { return false }
        func hostOf(_ url: String) -> String? {
            guard let c = URLComponents(string: url), let h = c.host, c.scheme == "http" || c.scheme == "https" else { return nil }
            let hostText = h.contains(":") && !h.hasPrefix("[") ? "[\(h)]" : h
            return c.port.map { "\(hostText):\($0)" } ?? hostText
        }
        if let origin = request.headers[.origin] { return hostOf(origin)?.lowercased() == host.lowercased() }
        if let referer = request.headers[.referer] { return hostOf(referer)?.lowercased() == host.lowercased() }
        return true
    }

    /// The form of a POST: at most 64 KiB of `application/x-www-form-urlencoded`.
    static func form(_ request: Request) async throws -> [String: String] {
        var request = request
        let body: ByteBuffer
        do { body = try await request.collectBody(upTo: 64 * 1024) } catch { throw HTTPError(.contentTooLarge) }
        return FormBody.parse(String(buffer: body))
    }
}

/// What every request passes: the session looked up from its cookie, the security headers on every answer
/// (pages, refusals, errors), and one line on stderr (method, path without its query, status, ms, account).
struct ServeMiddleware: RouterMiddleware {
    typealias Context = ServeContext
    let server: PetServer

    static let insufficientStorage = HTTPResponse.Status(code: 507, reasonPhrase: "Insufficient Storage")

    /// A store's failure as a status: busy or its server gone 503, a full disk 507, the rest 500.
    static func status(_ e: StoreError) -> HTTPResponse.Status {
        switch e {
        case .busy, .serverConnectionLost, .serverUnreachable: .serviceUnavailable
        case .file(_, .noSpace): insufficientStorage
        default: .internalServerError
        }
    }

    func handle(_ request: Request, context: ServeContext, next: (Request, ServeContext) async throws -> Response) async throws -> Response {
        let started = ContinuousClock.now
        var context = context
        if let token = request.cookies[PetServer.sessionCookie]?.value, token.count == 64, token.allSatisfy(\.isHexDigit) {
            context.session = try? server.store.run { try $0.session(tokenHash: Secrets.digest(token)) }
        }
        var response: Response
        do {
            response = try await next(request, context)
        } catch let e as HTTPError where e.status == .notFound || e.status == .methodNotAllowed {
            response = server.refusal(e.status, .webNotFound, request, context)
        } catch let e as HTTPError where e.status == .contentTooLarge {
            response = server.refusal(e.status, .webBadForm, request, context)
        } catch {
            let p = server.presentation(server.language(request, context))
            // What the CLI would say in one line, where the failure is not the request's: a file the write needed
            // that could not be stored (a full disk: 507, the write undone by the store), the store's own failures
            // (busy or its server gone: 503; read-only, damaged, an I/O error: 500), each in the CLI's words.
            let (line, status): (String, HTTPResponse.Status) = switch error {
            case let e as OutputError: (e.message(p.l10n), e.cause == .noSpace ? Self.insufficientStorage : .internalServerError)
            case let e as StoreError: (e.message(p.l10n, defaultDatabase: ""), Self.status(e))
            default: (p.t(.errUnexpected(detail: String(describing: type(of: error)))), .internalServerError)
            }
            if PetServer.wantsJSON(request) {
                response = PetServer.json((try? JSONView.text(["error": line])) ?? "{}", status: status)
            } else {
                response = PetServer.html(Pages(p).layout(title: line, session: context.session, body: "<p class=\"notice\">\(line)</p>"), status: status)
            }
        }
        response.headers[.contentSecurityPolicy] = "default-src 'self'; frame-ancestors 'none'; form-action 'self'; base-uri 'none'"
        response.headers[.xContentTypeOptions] = "nosniff"
        if let log = server.settings.log {
            let ms = started.duration(to: .now).components
            let millis = ms.seconds * 1000 + ms.attoseconds / 1_000_000_000_000_000
            let path = PlainText.sanitized(PetServer.loggedPath(request.uri.path))
            let user = context.session.map { PlainText.sanitized($0.account.name) } ?? "-"
            log("\(request.method.rawValue) \(path) \(response.status.code) \(millis)ms \(user)")
        }
        return response
    }
}

/// `application/x-www-form-urlencoded`: `a=1&b=x+y%21`; a name given twice keeps its first value.
enum FormBody {
    static func parse(_ text: String) -> [String: String] {
        var out: [String: String] = [:]
        for pair in text.split(separator: "&") {
            let kv = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            guard let k = decode(kv[0]) else { continue }
            let v = kv.count > 1 ? decode(kv[1]) : ""
            if out[k] == nil, let v { out[k] = v }
        }
        return out
    }

    static func decode(_ s: Substring) -> String? {
        String(s).replacingOccurrences(of: "+", with: " ").removingPercentEncoding
    }
}
