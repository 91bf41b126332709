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

/// The money addresses through the router test client, on SQLite and PostgreSQL: `/money` (the month by day, the
/// spending calendar, budgets, a trip day by day and its chart) and its JSON against the CLI's views, home's money,
/// `POST /expenses` read by `expense`'s parsers, `POST /receipts` read as `expense scan` reads a photo, the language
/// switch, and every refusal changing nothing.
final class MoneyRouteTests: ServeTestCase, @unchecked Sendable {
    static let receipts = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("OCRTests/Fixtures/receipts")

    let now = Date()
    let utc = TimeZone(identifier: "UTC")!
    var today: LocalDate { TimeContext(now: now, timeZone: utc).today }

    override func setUpWithError() throws {
        try super.setUpWithError()
        store = try XCTUnwrap(try makeStore() as? SharedStore.Served)
        let fixed = now
        server = PetServer(store: SharedStore(store), settings: ServeSettings(timeZone: utc, now: { fixed }, currency: .krw))
    }

    // MARK: Helpers

    func expenses() throws -> [PetRecord] { try store.records(RecordQuery(kinds: [.expense])) }

    // MARK: Tests

    func testTheMoneyPageShowsTheMonthItsCalendarBudgetsAndATripLikeTheCLI() async throws {
        _ = try store.addAccount(name: "mina", role: .viewer, passwordHash: Self.hash)
        let coco = try addPet(Self.hostile[0])
        _ = try store.addRecord(pets: [.id(coco.id)], RecordDraft(at: now, utcOffset: 0, note: Self.hostile[1],
            detail: .expense(Expense(money: Money(minorUnits: 45_000, currency: .krw), category: "food", merchant: Self.hostile[1], payment: .card, items: ["kibble"]))))
        _ = try store.addRecord(pets: [], RecordDraft(at: now, utcOffset: 0, detail: .expense(Expense(money: Money(minorUnits: 12_000, currency: .krw), category: "toys"))))
        let monthly = try store.setBudget(BudgetDraft(pet: nil, budget: Budget(amount: Money(minorUnits: 100_000, currency: .krw), period: .monthly))).0
        let trip = try store.setBudget(BudgetDraft(pet: nil, budget: Budget(amount: Money(minorUnits: 300_000, currency: .krw),
                                                                             period: .days(from: today.adding(days: -1), through: today.adding(days: 1)),
                                                                             name: Self.hostile[0], place: "Jeju"))).0
        let month = String(today.description.prefix(7))
        let app = Application(router: server.router())
        try await app.test(.router) { client in
            let anonymous = try await client.execute(uri: "/money", method: .get, headers: self.headers())
            XCTAssertEqual(anonymous.headers[.location], "/login")
            let anonymousChart = try await client.execute(uri: "/budgets/\(trip.id)/chart.svg", method: .get, headers: self.headers())
            XCTAssertEqual(anonymousChart.headers[.location], "/login")
            let (cookie, _) = try await self.signIn(client, "mina")
            let page = try await client.execute(uri: "/money?month=\(month)", method: .get, headers: self.headers(cookie: cookie))
            XCTAssertEqual(page.status, .ok)
            let html = String(buffer: page.body)
            let en = L10n(.en), format = ValueFormatter(en, unitSystem: .metric)
            XCTAssertTrue(html.contains(en.text(.expenseListTitle(month: format.monthLabel(self.today.firstOfMonth)))), html)
            XCTAssertTrue(html.contains("<ol class=\"calendar\">") && html.contains("<span class=\"amt\">57,000</span>"), "the day's total in the grid: \(html)")
            XCTAssertTrue(html.contains(HTML.escape(en.text(.calendarSpendingTotal(amount: "₩57,000", n: "2")))), html)
            XCTAssertTrue(html.contains("₩45,000") && html.contains("₩12,000"), html)
            XCTAssertTrue(html.contains(en.text(.budgetSpentOf(spent: "₩57,000", amount: "₩100,000"))), "the monthly budget's standing: \(html)")
            XCTAssertTrue(html.contains("id=\"budget-\(monthly.id)\"") && html.contains("id=\"budget-\(trip.id)\""))
            XCTAssertTrue(html.contains("src=\"/budgets/\(trip.id)/chart.svg\"") && html.contains("<table class=\"daily\">"), "the trip day by day with its chart")
            XCTAssertTrue(html.contains("action=\"/expenses\"") == false, "a viewer gets no expense form")
            for h in Self.hostile { XCTAssertFalse(html.contains(h), "escaped: \(h)") }
            XCTAssertTrue(html.contains(HTML.escape(Self.hostile[1])))
            XCTAssertTrue(html.contains("action=\"/language\""), "the language switcher")

            // JSON: the CLI's three views of the month (expense list, calendar --spending, budget show).
            let json = try await client.execute(uri: "/money?month=\(month)", method: .get, headers: self.headers(cookie: cookie, accept: "application/json"))
            let object = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(buffer: json.body)) as? [String: Any])
            let entries = try self.store.spending(SpendingQuery(pets: [], days: DayWindow(first: self.today.firstOfMonth, end: self.today.firstOfMonth.adding(months: 1))))
            let time = TimeContext(now: self.now, timeZone: self.utc)
            let ahead = SpendingAhead(entries, in: .krw, rates: RateTable([]), now: self.now)
            func same(_ key: String, _ view: some Encodable) throws {
                let expected = try JSONSerialization.jsonObject(with: Data(try JSONView.text(view).utf8)) as? NSDictionary
                XCTAssertEqual(object[key] as? NSDictionary, expected, key)
            }
            try same("expenses", ExpenseListJSON(SpendingDays(entries, in: .krw, rates: RateTable([]), context: time), now: self.now, ahead: ahead, span: .month(self.today.firstOfMonth)))
            try same("calendar", SpendingCalendarJSON(month: self.today.firstOfMonth, daily: DailySpending(entries, month: self.today.firstOfMonth, in: .krw, rates: RateTable([]), context: time), ahead: ahead))
            XCTAssertEqual(((object["budgets"] as? [String: Any])?["budgets"] as? [Any])?.count, 2)

            // The trip's chart: `chart expenses --budget ID` as SVG, light and dark.
            for theme in ["", "?theme=dark"] {
                let svg = try await client.execute(uri: "/budgets/\(trip.id)/chart.svg\(theme)", method: .get, headers: self.headers(cookie: cookie))
                XCTAssertEqual(svg.status, .ok)
                XCTAssertEqual(svg.headers[.contentType], "image/svg+xml")
                XCTAssertTrue(String(buffer: svg.body).contains("<svg"), String(buffer: svg.body).prefix(200).description)
            }
            let noBudget = try await client.execute(uri: "/budgets/999/chart.svg", method: .get, headers: self.headers(cookie: cookie))
            XCTAssertEqual(noBudget.status, .notFound)
            for bad in ["..", "%2e%2e", "1%2f..", "-1", "0", "1e3"] {
                let r = try await client.execute(uri: "/budgets/\(bad)/chart.svg", method: .get, headers: self.headers(cookie: cookie))
                XCTAssertEqual(r.status, .notFound, bad)
            }
            for bad in ["2026-13", "../../etc", "2026-1", "%2e%2e"] {
                let r = try await client.execute(uri: "/money?month=\(bad)", method: .get, headers: self.headers(cookie: cookie))
                XCTAssertEqual(r.status, .badRequest, bad)
            }
            // Another month: nothing spent, said as the CLI says it.
            let empty = String(buffer: try await client.execute(uri: "/money?month=2001-01", method: .get, headers: self.headers(cookie: cookie)).body)
            XCTAssertTrue(empty.contains(en.text(.expenseListEmpty)), empty)

            // Home: this month's spending against the budget, and the trip under way.
            let home = String(buffer: try await client.execute(uri: "/", method: .get, headers: self.headers(cookie: cookie)).body)
            XCTAssertTrue(home.contains(en.text(.webSpentThisMonth(amount: "₩57,000"))), home)
            XCTAssertTrue(home.contains(en.text(.webTripUnderWay)) && home.contains("Jeju"), home)
            XCTAssertFalse(home.contains(Self.hostile[0]))
        }
    }

    func testTheExpenseFormReadsTheCLIsWordsAndRefusesWhatItMust() async throws {
        _ = try store.addAccount(name: "mina", role: .family, passwordHash: Self.hash)
        _ = try store.addAccount(name: "sitter", role: .viewer, passwordHash: Self.hash)
        let coco = try addPet("Coco")
        let app = Application(router: server.router())
        try await app.test(.router) { client in
            let family = try await self.signIn(client, "mina")
            let viewer = try await self.signIn(client, "sitter")
            func post(_ who: (cookie: String, csrf: String)?, _ fields: [String: String], csrf: String? = nil, origin: String? = "http://localhost") async throws -> TestResponse {
                var f = fields
                f["csrf"] = csrf ?? who?.csrf
                return try await client.execute(uri: "/expenses", method: .post, headers: self.headers(cookie: who?.cookie, origin: origin, form: true), body: self.formBody(f))
            }
            let form = ["amount": "4만5천원", "category": "food", "merchant": "멍냥펫샵", "payment": "card"]
            let noSession = try await post(nil, form, csrf: family.csrf)
            XCTAssertEqual(noSession.headers[.location], "/login")
            let noToken = try await post(family, form, csrf: "")
            XCTAssertEqual(noToken.status, .forbidden)
            let otherToken = try await post(family, form, csrf: viewer.csrf)
            XCTAssertEqual(otherToken.status, .forbidden)
            let foreign = try await post(family, form, origin: "http://evil.example")
            XCTAssertEqual(foreign.status, .forbidden)
            let viewerPost = try await post(viewer, form)
            XCTAssertEqual(viewerPost.status, .forbidden)
            for bad in ["..", "%2e%2e", "-1", "1e3", "Coco"] {
                let r = try await post(family, form.merging(["pet": bad]) { $1 })
                XCTAssertEqual(r.status, .notFound, bad)
            }
            let badAmount = try await post(family, ["amount": "lots"])
            XCTAssertEqual(badAmount.status, .badRequest)
            XCTAssertTrue(String(buffer: badAmount.body).contains(HTML.escape(L10n(.en).text(.errBadMoney(value: "lots")))), String(buffer: badAmount.body))
            let badTime = try await post(family, ["amount": "100 KRW", "at": "someday"])
            XCTAssertEqual(badTime.status, .badRequest)
            let noPet = try await post(family, form.merging(["pet": "999"]) { $1 })
            XCTAssertEqual(noPet.status, .notFound)
            XCTAssertEqual(try self.expenses().count, 0, "nothing written by a refused POST")
            // The pet page links to the form with the pet chosen; the viewer's page has no link.
            let petPage = String(buffer: try await client.execute(uri: "/pets/\(coco.id)", method: .get, headers: self.headers(cookie: family.cookie)).body)
            XCTAssertTrue(petPage.contains("href=\"/money?pet=\(coco.id)#add-expense\""), petPage)
            let viewerPet = String(buffer: try await client.execute(uri: "/pets/\(coco.id)", method: .get, headers: self.headers(cookie: viewer.cookie)).body)
            XCTAssertFalse(viewerPet.contains("#add-expense"))
            let money = String(buffer: try await client.execute(uri: "/money?pet=\(coco.id)", method: .get, headers: self.headers(cookie: family.cookie)).body)
            XCTAssertTrue(money.contains("<option value=\"\(coco.id)\" selected>Coco</option>"), money)

            let saved = try await post(family, form)
            XCTAssertEqual(saved.status, .seeOther)
            XCTAssertEqual(saved.headers[.location], "/money?month=" + String(self.today.description.prefix(7)), "to the expense's month")
            let yen = try await post(family, ["amount": "¥3,200", "pet": String(coco.id), "at": "yesterday 18:00", "note": "<b>vet</b>", "items": "chews, shampoo"])
            XCTAssertEqual(yen.status, .seeOther)
            let all = try self.expenses()
            XCTAssertEqual(all.count, 2)
            let household = try XCTUnwrap(all.first { $0.petId == nil })
            guard case .expense(let e) = household.detail else { return XCTFail("an expense") }
            XCTAssertEqual(e.money, Money(minorUnits: 45_000, currency: .krw))
            XCTAssertEqual(e.merchant, "멍냥펫샵")
            XCTAssertEqual(e.payment, .card)
            XCTAssertEqual(e.category, "food")
            let cocos = try XCTUnwrap(all.first { $0.petId == coco.id })
            guard case .expense(let y) = cocos.detail else { return XCTFail("an expense") }
            XCTAssertEqual(y.money.minorUnits, 3_200)
            XCTAssertEqual(y.money.currency.code, "JPY")
            XCTAssertEqual(y.items, ["chews", "shampoo"])
            XCTAssertEqual(cocos.note, "<b>vet</b>")
            XCTAssertEqual(TimeContext(now: self.now, timeZone: self.utc).localDate(of: cocos.at), self.today.adding(days: -1))
        }
    }

    func testAReceiptPhotoIsReadAsExpenseScanReadsItAndSavedWithThePhoto() async throws {
        guard FileManager.default.fileExists(atPath: "/usr/share/tesseract-ocr/5/tessdata/kor.traineddata") else {
            throw XCTSkip("tesseract-ocr-kor is not installed (make setup installs it)")
        }
        // A store that keeps the photo (an in-memory SQLite store has no attachment folder).
        let folder = NSTemporaryDirectory() + "petlog-money-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        addTeardownBlock { try? FileManager.default.removeItem(atPath: folder) }
        store = try XCTUnwrap(try makeStoreKeepingFiles(in: folder) as? SharedStore.Served)
        let fixed = now
        server = PetServer(store: SharedStore(store), settings: ServeSettings(timeZone: utc, now: { fixed }, currency: .krw))
        _ = try store.addAccount(name: "mina", role: .family, passwordHash: Self.hash)
        _ = try store.addAccount(name: "sitter", role: .viewer, passwordHash: Self.hash)
        let coco = try addPet("Coco")
        let photo = Array(try Data(contentsOf: Self.receipts.appendingPathComponent("ko-01.jpg")))
        let app = Application(router: server.router())
        try await app.test(.router) { client in
            let family = try await self.signIn(client, "mina")
            let viewer = try await self.signIn(client, "sitter")
            func upload(_ who: (cookie: String, csrf: String)?, csrf: String?, bytes: [UInt8], filename: String = "receipt.jpg", origin: String? = "http://localhost") async throws -> TestResponse {
                try await client.execute(uri: "/receipts", method: .post, headers: self.headers(cookie: who?.cookie, origin: origin, multipart: true),
                                         body: self.multipart(csrf.map { ["csrf": $0] } ?? [:], files: [("receipt", filename, bytes)]))
            }
            let noSession = try await upload(nil, csrf: family.csrf, bytes: photo)
            XCTAssertEqual(noSession.headers[.location], "/login")
            let badToken = try await upload(family, csrf: viewer.csrf, bytes: photo)
            XCTAssertEqual(badToken.status, .forbidden)
            let foreign = try await upload(family, csrf: family.csrf, bytes: photo, origin: "http://evil.example")
            XCTAssertEqual(foreign.status, .forbidden)
            let viewerUpload = try await upload(viewer, csrf: viewer.csrf, bytes: photo)
            XCTAssertEqual(viewerUpload.status, .forbidden)
            let script = try await upload(family, csrf: family.csrf, bytes: Array("#!/bin/sh\necho hi\n".utf8), filename: "evil.jpg")
            XCTAssertEqual(script.status, .unsupportedMediaType, "a script named .jpg is not a photo")

            let read = try await upload(family, csrf: family.csrf, bytes: photo)
            XCTAssertEqual(read.status, .ok)
            let form = String(buffer: read.body)
            // What `expense scan ko-01.jpg` reads (ExpenseScanTests): 93,100 won at 멍냥펫샵 on 2026-08-19 17:24.
            XCTAssertTrue(form.contains("value=\"93100 KRW\""), form)
            XCTAssertTrue(form.contains("멍냥펫샵"), form)
            XCTAssertTrue(form.contains("value=\"2026-08-19 17:24\""), form)
            let token = try XCTUnwrap(form.components(separatedBy: "name=\"receipt\" value=\"").dropFirst().first?.prefix(64)).description
            XCTAssertEqual(try self.expenses().count, 0, "reading saves nothing")

            let fields = ["csrf": family.csrf, "receipt": token, "amount": "93100 KRW", "at": "2026-08-19 17:24", "merchant": "멍냥펫샵",
                          "category": "food", "pet": String(coco.id)]
            let viewerSave = try await client.execute(uri: "/expenses", method: .post, headers: self.headers(cookie: viewer.cookie, form: true),
                                                      body: self.formBody(fields.merging(["csrf": viewer.csrf]) { $1 }))
            XCTAssertEqual(viewerSave.status, .forbidden)
            let saved = try await client.execute(uri: "/expenses", method: .post, headers: self.headers(cookie: family.cookie, form: true), body: self.formBody(fields))
            XCTAssertEqual(saved.status, .seeOther, String(buffer: saved.body))
            let records = try self.expenses()
            XCTAssertEqual(records.count, 1)
            XCTAssertEqual(records.first?.attachments.first?.mediaType, "image/jpeg", "the photo stays with the record")
            guard case .expense(let e) = records.first?.detail else { return XCTFail("an expense") }
            XCTAssertEqual(e.money, Money(minorUnits: 93_100, currency: .krw))
            // The token is spent: the same form again (or a made-up token) saves nothing.
            let again = try await client.execute(uri: "/expenses", method: .post, headers: self.headers(cookie: family.cookie, form: true), body: self.formBody(fields))
            XCTAssertEqual(again.status, .gone)
            for bad in [String(repeating: "0", count: 64), "../../etc/passwd", String(repeating: "a", count: 63) + "/"] {
                let r = try await client.execute(uri: "/expenses", method: .post, headers: self.headers(cookie: family.cookie, form: true),
                                                 body: self.formBody(fields.merging(["receipt": bad]) { $1 }))
                XCTAssertEqual(r.status, .gone, bad)
            }
            XCTAssertEqual(try self.expenses().count, 1)
        }
    }

    /// A receipt over 25 MB, a body cut off half way, or no photo at all: refused, nothing staged, nothing saved.
    func testReceiptUploadsOverTheCapOrCutOffAreRefused() async throws {
        _ = try store.addAccount(name: "mina", role: .family, passwordHash: Self.hash)
        let staged = NSTemporaryDirectory() + "petlog-staged-" + UUID().uuidString
        addTeardownBlock { try? FileManager.default.removeItem(atPath: staged) }
        server = PetServer(store: SharedStore(store), settings: ServeSettings(timeZone: utc, currency: .krw), receipts: StagedReceipts(folder: staged))
        let app = Application(router: server.router())
        try await app.test(.router) { client in
            let mina = try await self.signIn(client, "mina")
            let jpeg: [UInt8] = [0xFF, 0xD8, 0xFF, 0xE0] + Array(repeating: 0, count: 26 * 1024 * 1024)
            let huge = try await client.execute(uri: "/receipts", method: .post, headers: self.headers(cookie: mina.cookie, multipart: true),
                                                body: self.multipart(["csrf": mina.csrf], files: [("receipt", "big.jpg", jpeg)]))
            XCTAssertEqual(huge.status, .contentTooLarge)
            XCTAssertTrue(String(buffer: huge.body).contains(L10n(.en).text(.webUploadTooLarge(mb: "25"))), String(buffer: huge.body))
            var cut = self.multipart(["csrf": mina.csrf], files: [("receipt", "r.jpg", [0xFF, 0xD8, 0xFF, 0xE0] + Array(repeating: 1, count: 4096))])
            cut = cut.getSlice(at: 0, length: cut.readableBytes / 2)!
            let half = try await client.execute(uri: "/receipts", method: .post, headers: self.headers(cookie: mina.cookie, multipart: true), body: cut)
            XCTAssertEqual(half.status, .badRequest)
            let none = try await client.execute(uri: "/receipts", method: .post, headers: self.headers(cookie: mina.cookie, multipart: true),
                                                body: self.multipart(["csrf": mina.csrf]))
            XCTAssertEqual(none.status, .unsupportedMediaType)
        }
        XCTAssertEqual((try? FileManager.default.contentsOfDirectory(atPath: staged)) ?? [], [], "nothing staged")
        XCTAssertEqual(try expenses().count, 0)
    }

    func testTheLanguageSwitchIsSavedOnTheAccountOrInACookie() async throws {
        _ = try store.addAccount(name: "mina", role: .viewer, passwordHash: Self.hash)
        let app = Application(router: server.router())
        try await app.test(.router) { client in
            // Without an account: a cookie, and the login page in that language.
            let anonymous = try await client.execute(uri: "/language", method: .post, headers: self.headers(form: true, referer: "http://localhost/login"),
                                                     body: self.formBody(["language": "ko"]))
            XCTAssertEqual(anonymous.status, .seeOther)
            XCTAssertEqual(anonymous.headers[.location], "/login")
            XCTAssertEqual(self.cookieValue(anonymous, PetServer.languageCookie), "ko")
            let login = String(buffer: try await client.execute(uri: "/login", method: .get, headers: [.cookie: "\(PetServer.languageCookie)=ko"]).body)
            XCTAssertTrue(login.contains("<html lang=\"ko\">") && login.contains(L10n(.ko).text(.webPassword)), login)
            let foreign = try await client.execute(uri: "/language", method: .post, headers: self.headers(origin: "http://evil.example", form: true),
                                                   body: self.formBody(["language": "ja"]))
            XCTAssertEqual(foreign.status, .forbidden)

            let mina = try await self.signIn(client, "mina")
            for (language, csrf) in [("ja", "0"), ("ja", ""), ("fr", mina.csrf)] {
                let r = try await client.execute(uri: "/language", method: .post, headers: self.headers(cookie: mina.cookie, form: true),
                                                 body: self.formBody(["language": language, "csrf": csrf]))
                XCTAssertEqual(r.status, language == "fr" ? .badRequest : .forbidden)
            }
            XCTAssertNil(try self.store.account(named: "mina")?.account.language, "nothing changed by a refused switch")
            let r = try await client.execute(uri: "/language", method: .post, headers: self.headers(cookie: mina.cookie, form: true, referer: "http://localhost/money?month=2026-11"),
                                             body: self.formBody(["language": "ja", "csrf": mina.csrf]))
            XCTAssertEqual(r.headers[.location], "/money?month=2026-11", "back to the page")
            XCTAssertEqual(try self.store.account(named: "mina")?.account.language, "ja")
            let home = String(buffer: try await client.execute(uri: "/", method: .get, headers: self.headers(cookie: mina.cookie)).body)
            XCTAssertTrue(home.contains("<html lang=\"ja\">") && home.contains(L10n(.ja).text(.webMoneyTitle)), home)
            XCTAssertTrue(home.contains("value=\"ja\" lang=\"ja\" aria-current=\"true\""), "the current language is marked")
            // A Referer of another site is never where the switch sends the browser.
            let away = try await client.execute(uri: "/language", method: .post, headers: self.headers(cookie: mina.cookie, origin: nil, form: true, referer: "http://localhost//evil.example/x"),
                                                body: self.formBody(["language": "en", "csrf": mina.csrf]))
            XCTAssertEqual(away.headers[.location], "/")
        }
    }
}

/// The TLS files `petlog serve --tls-cert/--tls-key` is given, checked before it listens.
final class ServeTLSPartsTests: XCTestCase {
    func testCertificatesAndKeysAreCheckedBeforeListening() throws {
        let dir = NSTemporaryDirectory() + "petlog-tls-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        func make(_ name: String) throws -> (String, String) {
            let p = Process()
            p.executableURL = URL(fileURLWithPath: "/usr/bin/openssl")
            p.arguments = ["req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes", "-keyout", "\(dir)/\(name).key",
                           "-out", "\(dir)/\(name).crt", "-days", "1", "-subj", "/CN=petlog"]
            p.standardError = FileHandle.nullDevice
            guard (try? p.run()) != nil else { throw XCTSkip("no openssl") }
            p.waitUntilExit()
            return ("\(dir)/\(name).crt", "\(dir)/\(name).key")
        }
        let (cert, key) = try make("a")
        let (_, other) = try make("b")
        XCTAssertNoThrow(try ServeTLS.load(certificate: cert, key: key))
        XCTAssertEqual(try? { () throws -> ServeTLS.Problem? in
            do { _ = try ServeTLS.load(certificate: cert, key: other); return nil } catch let p as ServeTLS.Problem { return p }
        }(), .mismatch(certificate: cert, key: other))
        XCTAssertThrowsError(try ServeTLS.load(certificate: key, key: key)) { e in
            guard case .invalid(let path, _) = e as? ServeTLS.Problem else { return XCTFail("\(e)") }
            XCTAssertEqual(path, key)
        }
        XCTAssertThrowsError(try ServeTLS.load(certificate: dir + "/none.crt", key: key)) { e in
            XCTAssertEqual(e as? ServeTLS.Problem, .unreadable(path: dir + "/none.crt", detail: String(cString: strerror(ENOENT))))
        }
    }
}
