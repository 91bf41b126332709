import Foundation
import Hummingbird
import HummingbirdTesting
import Localization
import PetModel
import PetStoreCore
import PetViews
import PetlogTestSupport
import XCTest
@testable import PetServe

/// `petlog serve`'s routes through Hummingbird's router test client (no socket), on SQLite and PostgreSQL:
/// signing in and out, the refusals (no session, bad CSRF token, foreign Origin, a viewer's POST, `..` in a
/// path), the pages and their JSON, and every user text escaped.
final class ServeRouteTests: ServeTestCase, @unchecked Sendable {


    override func setUpWithError() throws {
        try super.setUpWithError()
        store = try XCTUnwrap(try makeStore() as? SharedStore.Served)
        let lines = Guarded<[String]>([])
        logLines = lines
        server = PetServer(store: SharedStore(store), settings: ServeSettings(timeZone: TimeZone(identifier: "UTC")!, log: { line in lines.withLockedValue { $0.append(line) } }))
    }

    // MARK: Tests

    func testSignInShowsTheHouseholdAndSignOutEndsTheSession() async throws {
        _ = try store.addAccount(name: "mina", role: .owner, passwordHash: Self.hash)
        let coco = try addPet("Coco")
        _ = try store.addRecord(pets: [.id(coco.id)], RecordDraft(at: Date(timeIntervalSinceNow: -86_400 * 3), utcOffset: 0, detail: .weight(Weight(mass: Mass(grams: 4000)))))
        _ = try store.addRecord(pets: [.id(coco.id)], RecordDraft(at: Date(timeIntervalSinceNow: -3600), utcOffset: 0, detail: .weight(Weight(mass: Mass(grams: 4300)))))
        let app = Application(router: server.router())
        try await app.test(.router) { client in
            // Without a session: to the login form; its answer carries the security headers and a token cookie.
            let anonymous = try await client.execute(uri: "/", method: .get, headers: self.headers())
            XCTAssertEqual(anonymous.status, .seeOther)
            XCTAssertEqual(anonymous.headers[.location], "/login")
            let page = try await client.execute(uri: "/login", method: .get, headers: self.headers())
            XCTAssertEqual(page.status, .ok)
            XCTAssertEqual(page.headers[.contentSecurityPolicy]?.hasPrefix("default-src 'self'; frame-ancestors 'none'"), true)
            XCTAssertEqual(page.headers[.xContentTypeOptions], "nosniff")
            let loginCookie = try XCTUnwrap(self.setCookies(page)[PetServer.loginCookie])
            XCTAssertTrue(loginCookie.contains("HttpOnly") && loginCookie.contains("SameSite=Lax"), loginCookie)
            XCTAssertFalse(loginCookie.contains("Secure"), "no TLS here")
            XCTAssertTrue(String(buffer: page.body).contains("action=\"/login\""))

            let (cookie, csrf) = try await self.signIn(client, "MINA")
            let home = String(buffer: try await client.execute(uri: "/", method: .get, headers: self.headers(cookie: cookie)).body)
            XCTAssertTrue(home.contains("href=\"/pets/\(coco.id)\""), home)
            XCTAssertTrue(home.contains("↑"), "4.0 kg then 4.3 kg: rising")
            XCTAssertTrue(home.contains("/static/petlog.css"))
            XCTAssertFalse(home.contains("<script"), "no script in a page")
            let css = try await client.execute(uri: "/static/petlog.css", method: .get, headers: self.headers())
            XCTAssertEqual(css.headers[.contentType], "text/css; charset=utf-8")
            XCTAssertTrue(String(buffer: css.body).contains("prefers-color-scheme: dark"))

            // Signing out ends the session in the store: the old cookie no longer opens a page.
            let out = try await client.execute(uri: "/logout", method: .post, headers: self.headers(cookie: cookie, form: true), body: self.formBody(["csrf": csrf]))
            XCTAssertEqual(out.status, .seeOther)
            XCTAssertEqual(out.headers[.location], "/login")
            let after = try await client.execute(uri: "/", method: .get, headers: self.headers(cookie: cookie))
            XCTAssertEqual(after.headers[.location], "/login")
        }
        let lines = logLines.withLockedValue { $0 }
        XCTAssertTrue(lines.contains { $0.hasPrefix("GET / 303 ") && $0.hasSuffix(" -") }, "\(lines)")
        XCTAssertTrue(lines.contains { $0.hasPrefix("GET / 200 ") && $0.hasSuffix("ms mina") }, "\(lines)")
    }

    func testPagesEscapeEveryUserText() async throws {
        _ = try store.addAccount(name: "mina", role: .family, passwordHash: Self.hash)
        var added: [Pet] = []
        for name in Self.hostile {
            var draft = PetDraft()
            draft.name = name; draft.species = .cat; draft.breed = "\u{202E}" + name; draft.notes = name + String(repeating: "長", count: 10_000)
            draft.health.addAllergies = [name]
            added.append(try store.addPet(draft))
        }
        let app = Application(router: server.router())
        let pets = added
        try await app.test(.router) { client in
            let (cookie, _) = try await self.signIn(client, "mina")
            var pages = [String(buffer: try await client.execute(uri: "/", method: .get, headers: self.headers(cookie: cookie)).body)]
            for p in pets {
                pages.append(String(buffer: try await client.execute(uri: "/pets/\(p.id)", method: .get, headers: self.headers(cookie: cookie)).body))
            }
            for page in pages {
                XCTAssertFalse(page.contains("<script>alert"), page)
                XCTAssertFalse(page.contains("<img src=x"), page)
                XCTAssertFalse(page.contains("\"><img"), page)
            }
            for page in [pages[0], pages[1]] { XCTAssertTrue(page.contains("&lt;script&gt;alert(1)&lt;/script&gt;"), page) }
            for page in [pages[0], pages[2]] { XCTAssertTrue(page.contains("&quot;&gt;&lt;img src=x onerror=alert(1)&gt;"), page) }
            XCTAssertTrue(pages[1].contains("<strong class=\"allergy\"><bdi>&lt;script&gt;"), "allergies marked: \(pages[1])")
            XCTAssertTrue(pages[1].contains("<bdi>\u{202E}&lt;script&gt;"), "a bidi override stays inside its <bdi>")
            XCTAssertTrue(pages[1].contains(String(repeating: "長", count: 10_000)), "10,000 characters of notes shown whole")
        }
    }

    /// The page's language: the account's, else the browser's `Accept-Language` (by weight), else the config's.
    func testPagesSpeakTheAccountsOrTheBrowsersLanguage() async throws {
        _ = try store.addAccount(name: "mina", role: .family, passwordHash: Self.hash, language: "ko")
        _ = try store.addAccount(name: "jun", role: .family, passwordHash: Self.hash)
        let app = Application(router: server.router())
        try await app.test(.router) { client in
            func home(_ who: String, _ acceptLanguage: String?) async throws -> String {
                let (cookie, _) = try await self.signIn(client, who)
                var h = self.headers(cookie: cookie)
                if let acceptLanguage { h[.acceptLanguage] = acceptLanguage }
                return String(buffer: try await client.execute(uri: "/", method: .get, headers: h).body)
            }
            let korean = try await home("mina", "ja")
            XCTAssertTrue(korean.contains("<html lang=\"ko\">") && korean.contains(L10n(.ko).text(.webHomeTitle)), korean)
            let japanese = try await home("jun", "fr, en;q=0.5, ja;q=0.8")
            XCTAssertTrue(japanese.contains("<html lang=\"ja\">") && japanese.contains(L10n(.ja).text(.webSignOut)), japanese)
            let english = try await home("jun", nil)
            XCTAssertTrue(english.contains("<html lang=\"en\">"), english)
            let login = String(buffer: try await client.execute(uri: "/login", method: .get, headers: [.acceptLanguage: "ko-KR,ko;q=0.9"]).body)
            XCTAssertTrue(login.contains(L10n(.ko).text(.webPassword)), login)
        }
    }

    func testJSONIsTheCLIsView() async throws {
        _ = try store.addAccount(name: "mina", role: .viewer, passwordHash: Self.hash)
        let coco = try addPet("Coco")
        _ = try store.addRecord(pets: [.id(coco.id)], RecordDraft(at: Date(timeIntervalSinceNow: -3600), utcOffset: 0, detail: .weight(Weight(mass: Mass(grams: 4200)))))
        let app = Application(router: server.router())
        try await app.test(.router) { client in
            let refused = try await client.execute(uri: "/", method: .get, headers: self.headers(accept: "application/json"))
            XCTAssertEqual(refused.status, .unauthorized)
            let (cookie, _) = try await self.signIn(client, "mina")
            let list = try await client.execute(uri: "/", method: .get, headers: self.headers(cookie: cookie, accept: "application/json"))
            XCTAssertEqual(list.headers[.contentType], "application/json; charset=utf-8")
            XCTAssertEqual(String(buffer: list.body), try JSONView.text(try self.store.pets(includeArchived: false).map(PetJSON.init)) + "\n")
            let show = try await client.execute(uri: "/pets/\(coco.id)", method: .get, headers: self.headers(cookie: cookie, accept: "application/json"))
            let latest = try self.store.records(RecordQuery(pets: [.id(coco.id)], kinds: [.weight], limit: 1, newestFirst: true)).first
            XCTAssertEqual(String(buffer: show.body), try JSONView.text(PetShowJSON(pet: coco, latestWeight: latest, currentMedications: [], recordCount: 1)) + "\n")
        }
    }

    func testWritesAreRefusedWithoutTokenFromAnotherSiteOrForAViewer() async throws {
        _ = try store.addAccount(name: "mina", role: .family, passwordHash: Self.hash)
        _ = try store.addAccount(name: "sitter", role: .viewer, passwordHash: Self.hash)
        let coco = try addPet("Coco")
        let app = Application(router: server.router())
        try await app.test(.router) { client in
            let family = try await self.signIn(client, "mina")
            let viewer = try await self.signIn(client, "sitter")
            func post(_ who: (cookie: String, csrf: String)?, csrf: String?, origin: String? = "http://localhost", uri: String? = nil) async throws -> TestResponse {
                var fields = ["kind": "weight", "weight": "4.2kg"]
                fields["csrf"] = csrf
                return try await client.execute(uri: uri ?? "/pets/\(coco.id)/log", method: .post,
                                                headers: self.headers(cookie: who?.cookie, origin: origin, form: true), body: self.formBody(fields))
            }
            let noSession = try await post(nil, csrf: family.csrf)
            XCTAssertEqual(noSession.headers[.location], "/login")
            let awaited1 = try await post(family, csrf: nil).status
            XCTAssertEqual(awaited1, .forbidden)
            let awaited2 = try await post(family, csrf: viewer.csrf).status
            XCTAssertEqual(awaited2, .forbidden, "another session's token")
            let awaited3 = try await post(family, csrf: family.csrf, origin: "http://evil.example").status
            XCTAssertEqual(awaited3, .forbidden)
            let awaited4 = try await post(family, csrf: family.csrf, origin: "null").status
            XCTAssertEqual(awaited4, .forbidden)
            let viewerPost = try await post(viewer, csrf: viewer.csrf)
            XCTAssertEqual(viewerPost.status, .forbidden)
            XCTAssertTrue(String(buffer: viewerPost.body).contains(L10n(.en).text(.webForbidden)))
            XCTAssertEqual(try self.store.count(RecordQuery(pets: [.id(coco.id)])), 0, "nothing written by a refused POST")
            let huge = try await client.execute(uri: "/pets/\(coco.id)/log", method: .post, headers: self.headers(cookie: family.cookie, form: true),
                                                body: ByteBuffer(string: "kind=weight&weight=4kg&csrf=\(family.csrf)&note=" + String(repeating: "x", count: 70_000)))
            XCTAssertEqual(huge.status, .contentTooLarge, "a form over 64 KiB")

            for bad in ["..", "%2e%2e", "%2E%2E", "..%2f1", "1%2f..", "1..", "-1", "0", "1e3", "%31", "999999", "99999999999999999999"] {
                let r = try await post(family, csrf: family.csrf, uri: "/pets/\(bad)/log")
                XCTAssertEqual(r.status, .notFound, bad)
                let page = try await client.execute(uri: "/pets/\(bad)", method: .get, headers: self.headers(cookie: family.cookie))
                XCTAssertEqual(page.status, .notFound, bad)
            }
            let awaited5 = try await client.execute(uri: "/pets/../login", method: .get, headers: self.headers(cookie: family.cookie)).status
            XCTAssertEqual(awaited5, .notFound,
                           "`..` is not resolved into another address")
            XCTAssertEqual(try self.store.count(RecordQuery(pets: [.id(coco.id)])), 0)

            let bad = try await client.execute(uri: "/pets/\(coco.id)/log", method: .post, headers: self.headers(cookie: family.cookie, form: true),
                                               body: self.formBody(["kind": "weight", "weight": "-3kg", "csrf": family.csrf]))
            XCTAssertEqual(bad.status, .badRequest)
            let ok = try await post(family, csrf: family.csrf)
            XCTAssertEqual(ok.status, .seeOther)
            XCTAssertEqual(ok.headers[.location], "/pets/\(coco.id)")
            let weights = try self.store.records(RecordQuery(pets: [.id(coco.id)], kinds: [.weight]))
            XCTAssertEqual(weights.count, 1)
            if case .weight(let w) = weights.first?.detail { XCTAssertEqual(w.mass.grams, 4200) } else { XCTFail("a weight") }
        }
    }

    func testFailedLoginsSayNothingAboutTheAccountAndSlowDown() async throws {
        _ = try store.addAccount(name: "mina", role: .owner, passwordHash: Self.hash)
        let throttle = LoginThrottle(free: 2, maximum: 60)
        // The throttle's clock stands still: a bcrypt verify on a busy machine takes longer than the first wait.
        let start = Date()
        server = PetServer(store: SharedStore(store), settings: ServeSettings(now: { start }), throttle: throttle)
        let app = Application(router: server.router())
        try await app.test(.router) { client in
            func attempt(_ name: String, _ password: String, csrf: String? = nil, origin: String? = "http://localhost") async throws -> TestResponse {
                let page = try await client.execute(uri: "/login", method: .get, headers: self.headers())
                let token = try XCTUnwrap(self.cookieValue(self.setCookies(page)[PetServer.loginCookie]))
                return try await client.execute(uri: "/login", method: .post, headers: self.headers(cookie: "\(PetServer.loginCookie)=\(token)", origin: origin, form: true),
                                                body: self.formBody(["name": name, "password": password, "csrf": csrf ?? token]))
            }
            let awaited6 = try await attempt("mina", Self.password, csrf: String(repeating: "0", count: 64)).status
            XCTAssertEqual(awaited6, .forbidden, "a token not the cookie's")
            let awaited7 = try await attempt("mina", Self.password, origin: "https://evil.example").status
            XCTAssertEqual(awaited7, .forbidden)
            let wrongPassword = try await attempt("mina", "wrong password")
            let noAccount = try await attempt("nobody", "wrong password")
            XCTAssertEqual(wrongPassword.status, .unauthorized)
            XCTAssertEqual(noAccount.status, wrongPassword.status)
            let sayWrong = L10n(.en).text(.webLoginFailed)
            XCTAssertTrue(String(buffer: wrongPassword.body).contains(sayWrong))
            XCTAssertEqual(String(buffer: noAccount.body).replacingOccurrences(of: "nobody", with: "mina").components(separatedBy: "csrf\" value=\"").first,
                           String(buffer: wrongPassword.body).components(separatedBy: "csrf\" value=\"").first, "the same page but for the name typed")
            XCTAssertNil(self.setCookies(wrongPassword)[PetServer.sessionCookie])
            // The name typed comes back in the form's value attribute, escaped.
            let hostile = String(buffer: try await attempt("\"><script>alert(1)</script>", "x").body)
            XCTAssertTrue(hostile.contains("value=\"&quot;&gt;&lt;script&gt;alert(1)&lt;/script&gt;\""), hostile)
            XCTAssertFalse(hostile.contains("<script>"), hostile)
            // The address's second failure used its free tries: the right password now waits too.
            let waiting = try await attempt("mina", Self.password)
            XCTAssertEqual(waiting.status, .tooManyRequests)
            XCTAssertTrue(String(buffer: waiting.body).contains("seconds"), String(buffer: waiting.body))
            XCTAssertNil(self.setCookies(waiting)[PetServer.sessionCookie])
        }
    }

    func testAPasswordChangeOrRemovalEndsTheSessions() async throws {
        _ = try store.addAccount(name: "mina", role: .owner, passwordHash: Self.hash)
        _ = try store.addAccount(name: "jun", role: .family, passwordHash: Self.hash)
        let app = Application(router: server.router())
        try await app.test(.router) { client in
            let mina = try await self.signIn(client, "mina")
            let jun = try await self.signIn(client, "jun")
            _ = try self.store.setPassword(name: "mina", passwordHash: Self.hash)
            _ = try self.store.removeAccount(name: "JUN")
            for cookie in [mina.cookie, jun.cookie] {
                let awaited8 = try await client.execute(uri: "/", method: .get, headers: self.headers(cookie: cookie)).headers[.location]
                XCTAssertEqual(awaited8, "/login")
            }
            let awaited9 = try await client.execute(uri: "/healthz", method: .get).status
            XCTAssertEqual(awaited9, .ok)
        }
        XCTAssertEqual(try store.accounts().map(\.name), ["mina"])
        XCTAssertThrowsError(try store.removeAccount(name: "nobody"))
        XCTAssertThrowsError(try store.addAccount(name: "MINA", role: .viewer, passwordHash: Self.hash), "names are unique in any case")
    }
}

/// The pieces without a store: the one escaping function, the listen address, the throttle's delays.
final class ServePartsTests: XCTestCase {
    func testHTMLEscapesEveryInterpolatedString() {
        let name = "<script>alert(1)</script>\"'&"
        let html: HTML = "<p title=\"\(name)\">\(name)</p>"
        XCTAssertEqual(html.raw, "<p title=\"&lt;script&gt;alert(1)&lt;/script&gt;&quot;&#39;&amp;\">&lt;script&gt;alert(1)&lt;/script&gt;&quot;&#39;&amp;</p>")
        let inner: HTML = "<b>\("x<y")</b>"
        XCTAssertEqual(HTML("<p>\(inner)</p>").raw, "<p><b>x&lt;y</b></p>", "HTML kept, text escaped")
    }

    func testListenAddresses() {
        XCTAssertEqual(ListenAddress.parse("127.0.0.1:8080"), ListenAddress(host: "127.0.0.1", port: 8080))
        XCTAssertEqual(ListenAddress.default, ListenAddress(host: "127.0.0.1", port: 8080), "loopback by default")
        XCTAssertEqual(ListenAddress.parse(":9000"), ListenAddress(host: "127.0.0.1", port: 9000))
        XCTAssertEqual(ListenAddress.parse("[::1]:8080")?.isLoopback, true)
        XCTAssertEqual(ListenAddress.parse("localhost:80")?.isLoopback, true)
        XCTAssertEqual(ListenAddress.parse("127.1.2.3:80")?.isLoopback, true)
        XCTAssertEqual(ListenAddress.parse("0.0.0.0:8080")?.isLoopback, false)
        XCTAssertEqual(ListenAddress.parse("192.168.1.5:8080")?.isLoopback, false)
        XCTAssertEqual(ListenAddress.parse("[::]:8080")?.isLoopback, false)
        XCTAssertEqual(ListenAddress.parse("127.0.0.1.evil.example:80")?.isLoopback, false)
        for bad in ["8080", "host:", "host:0", "host:65536", "host:80a", "::1:80", "a b:80", "[::1]8080", "host:+80"] {
            XCTAssertNil(ListenAddress.parse(bad), bad)
        }
    }

    /// The throttle's rule (its counts are the store's: ServeSiteTests, MigrationTests' v16).
    func testTheThrottleDoublesItsWaitAfterTheFreeTries() {
        let t = LoginThrottle(free: 2, maximum: 8)
        XCTAssertEqual((0..<16).map(t.delay(after:)), [0, 0, 1, 2, 4, 8, 8, 8, 8, 8, 8, 8, 8, 8, 8, 8], "capped")
        XCTAssertEqual(LoginThrottle().delay(after: 5), 1)
        XCTAssertEqual(LoginThrottle().delay(after: 1_000), 300)
        XCTAssertEqual(LoginThrottle.stored("name:mina").count, 64, "kept as a SHA-256, not as typed")
    }

    func testPasswordsAreHashedWithBcryptAtCost12AtLeast() {
        let h = Secrets.hashPassword("a password", cost: 4)
        XCTAssertTrue(h.hasPrefix("$2b$12$") || h.hasPrefix("$2a$12$") || h.hasPrefix("$2y$12$"), h)
        XCTAssertTrue(Secrets.verify("a password", hash: h))
        XCTAssertFalse(Secrets.verify("a passwore", hash: h))
    }
}
