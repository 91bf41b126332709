import Foundation
import Hummingbird
import Localization
import PetModel
import PetStoreCore
import PetViews

/// The handlers, one per address (docs/serve.md).
extension PetServer {
    /// `GET /healthz`: `ok` when the store answers (no session needed, nothing about the household said).
    func healthz() throws -> Response {
        let ok = (try? store.run { try $0.accountCount() }) != nil
        return Response(status: ok ? .ok : .serviceUnavailable, headers: [.contentType: "text/plain; charset=utf-8", .cacheControl: "no-store"],
                        body: .init(byteBuffer: ByteBuffer(string: ok ? "ok\n" : "unavailable\n")))
    }

    /// `GET /static/petlog.css`, from the binary.
    func stylesheet() -> Response {
        Response(status: .ok, headers: [.contentType: "text/css; charset=utf-8", .cacheControl: "max-age=3600"],
                 body: .init(byteBuffer: ByteBuffer(bytes: PackageResources.petlog_css)))
    }

    // MARK: Signing in and out

    /// `GET /login`: the form, with a fresh token in a cookie and in the form (the login's CSRF pair).
    func loginPage(_ request: Request, _ context: ServeContext, name: String = "", notice: String? = nil,
                   status: HTTPResponse.Status = .ok) -> Response {
        if context.session != nil, notice == nil { return Self.redirect("/") }
        let token = Secrets.token()
        var response = Self.html(Pages(presentation(language(request, context))).login(csrf: token, name: name, notice: notice), status: status)
        response.setCookie(cookie(Self.loginCookie, token, maxAge: 3600))
        return response
    }

    /// `POST /login` (`name`, `password`, `csrf`): a session and its cookie, then home. A wrong name and a
    /// wrong password get the same answer after the same work (a decoy hash is verified for an unknown name);
    /// after repeated failures per name and per address each try waits longer, said on the page.
    func login(_ request: Request, _ context: ServeContext) async throws -> Response {
        guard Self.sameOrigin(request) else { return refusal(.forbidden, .webBadForm, request, context) }
        let form = try await Self.form(request)
        guard let sent = form["csrf"], let expected = request.cookies[Self.loginCookie]?.value, Secrets.same(sent, expected) else {
            return refusal(.forbidden, .webBadForm, request, context)
        }
        let p = presentation(language(request, context))
        let name = form["name"] ?? "", password = form["password"] ?? ""
        let keys = ["name:" + Store.accountKey(name), "address:" + Self.clientAddress(request, context)]
        let now = settings.now()
        let wait = try store.run { try throttle.wait($0, keys: keys, now: now) }
        if wait > 0 {
            return loginPage(request, context, name: name, notice: p.t(.webLoginWait(seconds: String(wait))), status: .tooManyRequests)
        }
        let found = try store.run { try $0.account(named: name) }
        let verified = Secrets.verify(password, hash: found?.passwordHash ?? Secrets.decoyHash)
        guard let account = found?.account, verified, !password.isEmpty else {
            try store.run { try throttle.failed($0, keys: keys, now: now) }
            return loginPage(request, context, name: name, notice: p.t(.webLoginFailed), status: .unauthorized)
        }
        try store.run { try throttle.succeeded($0, key: keys[0]) }
        let token = Secrets.token()
        try store.run {
            try $0.createSession(tokenHash: Secrets.digest(token), account: account.id, csrf: Secrets.token(),
                                 expiresAt: now.addingTimeInterval(settings.sessionLifetime))
        }
        var response = Self.redirect("/")
        response.setCookie(cookie(Self.sessionCookie, token, maxAge: Int(settings.sessionLifetime)))
        response.setCookie(cookie(Self.loginCookie, "", maxAge: 0))
        return response
    }

    /// `POST /logout` (`csrf`): the session ends in the store, the cookie is cleared.
    func logout(_ request: Request, _ context: ServeContext) async throws -> Response {
        guard let session = context.session else { return Self.redirect("/login") }
        if let refused = try await checkedWrite(request, context, session, needsWriter: false).refusal { return refused }
        if let token = request.cookies[Self.sessionCookie]?.value { try store.run { try $0.endSession(tokenHash: Secrets.digest(token)) } }
        var response = Self.redirect("/login")
        response.setCookie(cookie(Self.sessionCookie, "", maxAge: 0))
        return response
    }

    /// The peer's address for the login throttle (`-` where the channel has none, as in route tests).
    static func clientAddress(_ request: Request, _ context: ServeContext) -> String {
        context.remoteAddress ?? "-"
    }

    /// Every write's checks, in order: the Origin, the session's CSRF token, the role. The form when they pass.
    /// A write's form and its files: `multipart/form-data` read by `Upload` (the Origin and the writer checked before
    /// a byte of it is written, then its CSRF token), else a plain form through `checkedWrite`. The caller discards
    /// the upload once done with its files.
    func writeForm(_ request: Request, _ context: ServeContext, _ session: WebSession) async throws
        -> (form: [String: String], upload: Upload?, refusal: Response?) {
        guard Upload.isMultipart(request) else {
            let checked = try await checkedWrite(request, context, session, needsWriter: true)
            return (checked.form, nil, checked.refusal)
        }
        guard Self.sameOrigin(request) else { return ([:], nil, refusal(.forbidden, .webBadForm, request, context)) }
        // A viewer's upload is refused before a byte of it is written.
        guard session.account.role.writes else { return ([:], nil, refusal(.forbidden, .webForbidden, request, context)) }
        let upload: Upload
        do { upload = try await Upload.read(request) } catch let e as Upload.Failure {
            return ([:], nil, refusal(e.status, .webBadForm, request, context))
        }
        guard let sent = upload.fields["csrf"], Secrets.same(sent, session.csrf) else {
            upload.discard()
            return ([:], nil, refusal(.forbidden, .webBadForm, request, context))
        }
        return (upload.fields, upload, nil)
    }

    func checkedWrite(_ request: Request, _ context: ServeContext, _ session: WebSession, needsWriter: Bool) async throws
        -> (form: [String: String], refusal: Response?) {
        guard Self.sameOrigin(request) else { return ([:], refusal(.forbidden, .webBadForm, request, context)) }
        let form = try await Self.form(request)
        guard let sent = form["csrf"], Secrets.same(sent, session.csrf) else { return ([:], refusal(.forbidden, .webBadForm, request, context)) }
        if needsWriter && !session.account.role.writes { return ([:], refusal(.forbidden, .webForbidden, request, context)) }
        return (form, nil)
    }

    /// The answer for a browser without a session: to `/login` (JSON: 401).
    func notSignedIn(_ request: Request, _ context: ServeContext) -> Response {
        if Self.wantsJSON(request) { return refusal(.unauthorized, .webLoginTitle, request, context) }
        return Self.redirect("/login")
    }

    /// A pet id from the path: digits only (`pet list --json`'s ids); anything else (`..`, `%2e%2e`) is not found.
    func petId(_ context: ServeContext) -> Int64? {
        guard let text = context.parameters.get("id"), !text.isEmpty, text.count <= 18, text.allSatisfy({ $0.isASCII && $0.isNumber }),
              let id = Int64(text), id > 0 else { return nil }
        return id
    }

    // MARK: Pages

    /// `GET /`: each active pet with its last weight and trend, and what is overdue or due in 30 days.
    /// JSON: `pet list --json`.
    func home(_ request: Request, _ context: ServeContext) throws -> Response {
        guard let session = context.session else { return notSignedIn(request, context) }
        let p = presentation(language(request, context))
        if Self.wantsJSON(request) {
            return Self.json(try JSONView.text(try store.run { try $0.pets(includeArchived: false) }.map(PetJSON.init)))
        }
        let (list, due, money) = try homeParts(p)
        return Self.html(Pages(p).home(list: list, due: due, session: session, money: money))
    }

    /// `GET /pets/ID`: the profile, health facts, latest weights and what is due. JSON: `pet show --json`.
    func petPage(_ request: Request, _ context: ServeContext) throws -> Response {
        guard let session = context.session else { return notSignedIn(request, context) }
        guard let id = petId(context) else { return refusal(.notFound, .webNotFound, request, context) }
        let p = presentation(language(request, context))
        do {
            if Self.wantsJSON(request) {
                let view = try store.run { s -> PetShowJSON in
                    let pet = try s.pet(.id(id))
                    let latest = try s.records(RecordQuery(pets: [.id(id)], kinds: [.weight], limit: 1, newestFirst: true)).first
                    let meds = try s.medications(pets: [.id(id)], includeStopped: false)
                    return PetShowJSON(pet: pet, latestWeight: latest, currentMedications: meds.map(\.record), recordCount: try s.count(RecordQuery(pets: [.id(id)])))
                }
                return Self.json(try JSONView.text(view))
            }
            let page = Self.timelinePageNumber(request), month = Self.timelineMonth(request, p.time)
            let (data, running, undo) = try petPageParts(pet: id, month: month, page: page, account: session.account)
            let timeline = PetTimeline(records: data.timeline, page: page, hasOlder: data.hasOlder, undo: undo, month: month,
                                       days: data.days, marks: data.marks)
            return Self.html(Pages(p).pet(data.pet, weights: data.weights, medications: running,
                                          due: Self.due([data.pet], care: data.care, p.time), session: session,
                                          chartSince: request.uri.queryParameters.get("since"), timeline: timeline))
        } catch let e as StoreError {
            if case .petNotFound = e { return refusal(.notFound, .webNotFound, request, context) }
            throw e
        }
    }
}
