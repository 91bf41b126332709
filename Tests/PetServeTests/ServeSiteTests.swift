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

/// `petlog serve` as a site, on SQLite and PostgreSQL: two servers (two apps, each with its own connection) on
/// one database act as one (sessions, the login throttle); `POST /undo` raced by a CLI write in between finding
/// the step and undoing it; 50 wrong passwords; a day ending at midnight where the household is (Tokyo, Los
/// Angeles); the names that could be markup on every page that shows one; `Accept: application/json` on every page.
final class ServeSiteTests: ServeTestCase, @unchecked Sendable {
    let utc = TimeZone(identifier: "UTC")!

    /// A clock the test moves (the throttle's waits, without waiting).
    final class TestClock: @unchecked Sendable {
        let now: Guarded<Date>
        init(_ start: Date) { now = Guarded(start) }
        func read() -> Date { now.withLockedValue { $0 } }
        func advance(_ seconds: Int) { now.withLockedValue { $0 = $0.addingTimeInterval(Double(seconds)) } }
    }

    /// A login try through the form (a fresh login token each time).
    func attempt(_ client: any TestClientProtocol, _ name: String, _ password: String) async throws -> TestResponse {
        let page = try await client.execute(uri: "/login", method: .get, headers: headers())
        let token = try XCTUnwrap(cookieValue(setCookies(page)[PetServer.loginCookie]))
        return try await client.execute(uri: "/login", method: .post, headers: headers(cookie: "\(PetServer.loginCookie)=\(token)", form: true),
                                        body: formBody(["name": name, "password": password, "csrf": token]))
    }

    /// The seconds a 429 page says to wait.
    func waitSaid(_ r: TestResponse) -> Int? {
        let text = String(buffer: r.body)
        guard let range = text.range(of: #"after \d+ seconds"#, options: .regularExpression) else { return nil }
        return Int(text[range].filter(\.isNumber))
    }

    // MARK: Two servers, one site

    func testTwoServersOnOneDatabaseShareSessionsAndTheLoginThrottle() async throws {
        let stores = try makeStoresOnOneDatabase(2).map { try XCTUnwrap($0 as? SharedStore.Served) }
        store = stores[0]
        _ = try store.addAccount(name: "mina", role: .owner, passwordHash: Self.hash)
        let clock = TestClock(Date())
        // Each server has its own throttle value and its own connection: only the store is shared.
        let a = PetServer(store: SharedStore(stores[0]), settings: ServeSettings(timeZone: utc, now: { clock.read() }), throttle: LoginThrottle(free: 2, maximum: 60))
        let b = PetServer(store: SharedStore(stores[1]), settings: ServeSettings(timeZone: utc, now: { clock.read() }), throttle: LoginThrottle(free: 2, maximum: 60))
        try await Application(router: a.router()).test(.router) { ca in
            try await Application(router: b.router()).test(.router) { cb in
                // A session begun on one server opens the other's pages; signing out on the other ends it on both.
                let m = try await self.signIn(ca, "mina")
                let onB = try await cb.execute(uri: "/", method: .get, headers: self.headers(cookie: m.cookie))
                XCTAssertEqual(onB.status, .ok)
                let out = try await cb.execute(uri: "/logout", method: .post, headers: self.headers(cookie: m.cookie, form: true), body: self.formBody(["csrf": m.csrf]))
                XCTAssertEqual(out.status, .seeOther)
                let onA = try await ca.execute(uri: "/", method: .get, headers: self.headers(cookie: m.cookie))
                XCTAssertEqual(onA.headers[.location], "/login", "signed out on B: signed out on A")

                // Failures on A count on B: after A's two free failures, B makes the right password wait.
                for _ in 0..<2 {
                    let wrong = try await self.attempt(ca, "mina", "wrong password")
                    XCTAssertEqual(wrong.status, .unauthorized)
                }
                let waiting = try await self.attempt(cb, "mina", Self.password)
                XCTAssertEqual(waiting.status, .tooManyRequests, "B counts A's failures")
                XCTAssertEqual(self.waitSaid(waiting), 1)
                XCTAssertNil(self.setCookies(waiting)[PetServer.sessionCookie])
                // Once the wait is over a try goes ahead on B; its failure makes A's next wait twice as long.
                clock.advance(1)
                let third = try await self.attempt(cb, "mina", "wrong again")
                XCTAssertEqual(third.status, .unauthorized)
                let longer = try await self.attempt(ca, "mina", Self.password)
                XCTAssertEqual(longer.status, .tooManyRequests)
                XCTAssertEqual(self.waitSaid(longer), 2, "the wait doubled, counted across both servers")
                clock.advance(2)
                let m2 = try await self.signIn(ca, "mina")
                let onB2 = try await cb.execute(uri: "/", method: .get, headers: self.headers(cookie: m2.cookie))
                XCTAssertEqual(onB2.status, .ok)
            }
        }
    }

    /// 50 wrong passwords: each refused (401, then 429 once the free tries are used), no session made; the
    /// waits double as tries go on; the right password afterwards works once its wait is over.
    func testFiftyWrongPasswordsAreRefusedAndWaitLongerEachTime() async throws {
        store = try XCTUnwrap(try makeStore() as? SharedStore.Served)
        _ = try store.addAccount(name: "mina", role: .owner, passwordHash: Self.hash)
        let clock = TestClock(Date())
        server = PetServer(store: SharedStore(store), settings: ServeSettings(timeZone: utc, now: { clock.read() }))
        try await Application(router: server.router()).test(.router) { client in
            var statuses: [HTTPResponse.Status] = []
            for _ in 0..<50 {
                let r = try await self.attempt(client, "mina", "wrong password")
                statuses.append(r.status)
                XCTAssertNil(self.setCookies(r)[PetServer.sessionCookie])
            }
            XCTAssertEqual(statuses, Array(repeating: .unauthorized, count: 5) + Array(repeating: .tooManyRequests, count: 45))
            var waits: [Int] = []
            for _ in 0..<3 {
                let r = try await self.attempt(client, "mina", "wrong password")
                let wait = try XCTUnwrap(self.waitSaid(r), String(buffer: r.body))
                waits.append(wait)
                clock.advance(wait)
                let tried = try await self.attempt(client, "mina", "wrong password")
                XCTAssertEqual(tried.status, .unauthorized)
            }
            XCTAssertEqual(waits, [1, 2, 4], "each further try waits twice as long")
            let r = try await self.attempt(client, "mina", Self.password)
            XCTAssertEqual(r.status, .tooManyRequests, "the right password waits too: nothing says it was right")
            clock.advance(try XCTUnwrap(self.waitSaid(r)))
            let ok = try await self.attempt(client, "mina", Self.password)
            XCTAssertEqual(ok.status, .seeOther)
        }
    }

    // MARK: Undo against another process's write

    /// The CLI's `petlog weight` lands between `POST /undo` finding the account's last step and undoing it:
    /// 409, the CLI's weight and the web's both kept. Without the race the same request undoes the web's step.
    func testAnUndoRacedByACLIWriteIsRefusedAndUndoesNothing() async throws {
        let stores = try makeStoresOnOneDatabase(2).map { try XCTUnwrap($0 as? SharedStore.Served) }
        store = stores[0]
        let cli = stores[1]
        _ = try store.addAccount(name: "mina", role: .family, passwordHash: Self.hash)
        let coco = try addPet("Coco")
        server = PetServer(store: SharedStore(store), settings: ServeSettings(timeZone: utc))
        let cliWrite: @Sendable () throws -> Void = {
            _ = try UndoName.$command.withValue("petlog weight Coco 5kg") {
                try cli.addRecord(pets: [.id(coco.id)], RecordDraft(at: Date(), utcOffset: 0, detail: .weight(Weight(mass: Mass(grams: 5000)))))
            }
        }
        try await Application(router: server.router()).test(.router) { client in
            let m = try await self.signIn(client, "mina")
            func log() async throws {
                let r = try await client.execute(uri: "/pets/\(coco.id)/log", method: .post, headers: self.headers(cookie: m.cookie, form: true),
                                                 body: self.formBody(["kind": "weight", "weight": "4.2kg", "csrf": m.csrf]))
                XCTAssertEqual(r.status, .seeOther)
            }
            func undo() async throws -> TestResponse {
                try await client.execute(uri: "/undo", method: .post, headers: self.headers(cookie: m.cookie, form: true),
                                         body: self.formBody(["csrf": m.csrf, "back": "/pets/\(coco.id)"]))
            }
            try await log()
            let raced = try await UndoCheck.$betweenFindingAndUndoing.withValue(cliWrite) { try await undo() }
            XCTAssertEqual(raced.status, .conflict)
            XCTAssertEqual(try self.store.records(RecordQuery(pets: [.id(coco.id)])).count, 2, "the CLI's weight and the web's: nothing undone")
            XCTAssertEqual(try self.store.undoHistory(limit: 1).first?.command, "petlog weight Coco 5kg", "the CLI's step is still the last")
            try await log()
            let plain = try await undo()
            XCTAssertEqual(plain.status, .seeOther)
            XCTAssertEqual(try self.store.records(RecordQuery(pets: [.id(coco.id)])).count, 2, "the web's own last step undone")
        }
    }

    // MARK: A day ends at midnight where the household is

    /// A weight and an expense at 23:30 on the last day of a month (October), in Tokyo and in Los Angeles (the server's
    /// zone), are on that day on the timeline and the calendar and in that month's money; a record the CLI wrote
    /// in another zone is on its own day on the timeline as on the calendar (`timeline` and `calendar` agree).
    func testARecordAtHalfPastElevenIsOnItsLocalDayEverywhere() async throws {
        for zoneName in ["Asia/Tokyo", "America/Los_Angeles"] {
            let zone = try XCTUnwrap(TimeZone(identifier: zoneName))
            var calendar = Calendar(identifier: .gregorian)
            calendar.timeZone = zone
            let now = try XCTUnwrap(calendar.date(from: DateComponents(year: 2026, month: 11, day: 1, hour: 10)))
            store = try XCTUnwrap(try makeStore() as? SharedStore.Served)
            _ = try store.addAccount(name: "mina", role: .family, passwordHash: Self.hash)
            let coco = try addPet("Coco")
            // Written by the CLI somewhere 14 hours ahead of UTC: 2026-11-01 00:30 there.
            let elsewhere = try XCTUnwrap(calendar.date(from: DateComponents(timeZone: TimeZone(secondsFromGMT: 14 * 3600), year: 2026, month: 11, day: 1, hour: 0, minute: 30)))
            let cliRecord = try XCTUnwrap(try store.addRecord(pets: [.id(coco.id)], RecordDraft(at: elsewhere, utcOffset: 14 * 3600, detail: .weight(Weight(mass: Mass(grams: 3900))))).first)
            server = PetServer(store: SharedStore(store), settings: ServeSettings(timeZone: zone, now: { now }, currency: .krw))
            try await Application(router: server.router()).test(.router) { client in
                let m = try await self.signIn(client, "mina")
                let logged = try await client.execute(uri: "/pets/\(coco.id)/log", method: .post, headers: self.headers(cookie: m.cookie, form: true),
                                                      body: self.formBody(["kind": "weight", "weight": "4.2kg", "at": "2026-10-31 23:30", "csrf": m.csrf]))
                XCTAssertEqual(logged.status, .seeOther, zoneName)
                let spent = try await client.execute(uri: "/expenses", method: .post, headers: self.headers(cookie: m.cookie, form: true),
                                                     body: self.formBody(["amount": "12000원", "pet": "\(coco.id)", "category": "food", "at": "2026-10-31 23:30", "csrf": m.csrf]))
                XCTAssertEqual(spent.headers[.location], "/money?month=2026-10", zoneName)
                let weight = try XCTUnwrap(try self.store.records(RecordQuery(pets: [.id(coco.id)], kinds: [.weight])).first { $0.id != cliRecord.id })
                XCTAssertEqual(weight.localDay.description, "2026-10-31", zoneName)

                let page = String(buffer: try await client.execute(uri: "/pets/\(coco.id)?month=2026-10", method: .get, headers: self.headers(cookie: m.cookie)).body)
                let timeline = try XCTUnwrap(page.components(separatedBy: "<ul class=\"timeline plain\">").last)
                let lines = timeline.components(separatedBy: "<li>").dropFirst()
                XCTAssertTrue(lines.contains { $0.contains("/records/\(weight.id)\"") && $0.contains("2026-10-31") }, "\(zoneName): \(timeline)")
                XCTAssertTrue(lines.contains { $0.contains("/records/\(cliRecord.id)\"") && $0.contains("2026-11-01") }, "\(zoneName): the CLI's record on its own day: \(timeline)")
                XCTAssertTrue(page.contains("<span class=\"day\">31</span><span class=\"marks\""), "\(zoneName): the calendar marks the 31st")
                let november = String(buffer: try await client.execute(uri: "/pets/\(coco.id)?month=2026-11", method: .get, headers: self.headers(cookie: m.cookie)).body)
                XCTAssertTrue(november.contains("<span class=\"day\">1</span><span class=\"marks\""), "\(zoneName): the CLI's record on the 1st")

                let format = ValueFormatter(L10n(.en), unitSystem: .metric)
                let october = String(buffer: try await client.execute(uri: "/money?month=2026-10", method: .get, headers: self.headers(cookie: m.cookie)).body)
                XCTAssertTrue(october.contains(format.longDate(LocalDate(clamping: 2026, month: 10, day: 31))) && october.contains("₩12,000"), "\(zoneName): \(october)")
                let next = String(buffer: try await client.execute(uri: "/money?month=2026-11", method: .get, headers: self.headers(cookie: m.cookie)).body)
                XCTAssertFalse(next.contains("₩12,000"), zoneName)
            }
        }
    }

    // MARK: A disk too full for a photo

    /// A diary's photo on a disk too full for it (SQLite keeps files beside the database): the page says the CLI's
    /// line in the page's language ("cannot write …: no space left on device"), 507, never "unexpected error", and
    /// nothing is written: no record, no file, no folder.
    func testAPhotoOnAFullDiskIsRefusedInTheCLIsWords() async throws {
        guard !onServer else { throw XCTSkip("about the database file: PostgreSQL keeps the photo in the database") }
        guard getuid() == 0 else { throw XCTSkip("mounting a small tmpfs needs root") }
        let disk = NSTemporaryDirectory() + "petlog-full-disk-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: disk, withIntermediateDirectories: true)
        func shell(_ args: [String]) throws -> Int32 {
            let p = Process()
            p.executableURL = URL(fileURLWithPath: args[0])
            p.arguments = Array(args.dropFirst())
            try p.run()
            p.waitUntilExit()
            return p.terminationStatus
        }
        guard try shell(["/bin/mount", "-t", "tmpfs", "-o", "size=2m", "tmpfs", disk]) == 0 else { throw XCTSkip("cannot mount a tmpfs here") }
        addTeardownBlock { _ = try? shell(["/bin/umount", disk]); try? FileManager.default.removeItem(atPath: disk) }
        store = try XCTUnwrap(try makeStoreKeepingFiles(in: disk) as? SharedStore.Served)
        server = PetServer(store: SharedStore(store), settings: ServeSettings(timeZone: utc, currency: .krw))
        _ = try store.addAccount(name: "mina", role: .family, passwordHash: Self.hash, language: "ko")
        let coco = try addPet("Coco")
        try Data(count: 1_200_000).write(to: URL(fileURLWithPath: disk + "/filler"))
        // A JPEG by its first bytes, then bytes no other file has: more than the disk has left.
        let photo = RecordRouteTests.jpeg + (0..<1_400_000).map { UInt8(truncatingIfNeeded: ($0 &* 2_654_435_761) >> 13) }
        let files = try FileManager.default.contentsOfDirectory(atPath: disk).sorted()
        try await Application(router: server.router()).test(.router) { client in
            let m = try await self.signIn(client, "mina")
            let r = try await client.execute(uri: "/pets/\(coco.id)/log", method: .post, headers: self.headers(cookie: m.cookie, multipart: true),
                                             body: self.multipart(["kind": "diary", "text": "강가 산책", "csrf": m.csrf], files: [("photo", "walk.jpg", photo)]))
            let page = String(buffer: r.body)
            XCTAssertEqual(r.status.code, 507, page)
            XCTAssertTrue(page.contains(HTML.escape(L10n(.ko).text(.errOutputNoSpace))), page)
            XCTAssertFalse(page.contains(HTML.escape(L10n(.ko).text(.errUnexpected(detail: "OutputError")))), page)
        }
        XCTAssertEqual(try store.records(RecordQuery(pets: [.id(coco.id)])), [], "nothing written")
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: disk).filter { !$0.hasSuffix("-wal") && !$0.hasSuffix("-shm") }.sorted(),
                       files.filter { !$0.hasSuffix("-wal") && !$0.hasSuffix("-shm") }, "nothing left beside the database")
    }

    // MARK: Every page

    /// Names that could be markup (`<script>…`, `"><img …>`), a bidi override and 10,000 characters, in every
    /// text a page shows (a pet's name, breed, notes and allergy; the account's name; a record's note and text; a
    /// file's name; an expense's merchant; a trip's name), on every page that shows one, for an owner (who sees
    /// every form): never as markup, always as text. `Accept: application/json` on every page with a CLI view
    /// answers JSON, with a session only.
    func testEveryPageShowsHostileTextAsTextAndAnswersJSON() async throws {
        store = try XCTUnwrap(try makeStoreKeepingFiles() as? SharedStore.Served)
        server = PetServer(store: SharedStore(store), settings: ServeSettings(timeZone: utc, currency: .krw))
        let bidi = "\u{202E}" + Self.hostile[0]
        let long = Self.hostile[1] + String(repeating: "長", count: 10_000)
        let owner = Self.hostile[1]
        _ = try store.addAccount(name: owner, role: .owner, passwordHash: Self.hash)
        var draft = PetDraft()
        draft.name = Self.hostile[0]; draft.species = .dog; draft.breed = bidi; draft.notes = long
        draft.health.addAllergies = [Self.hostile[1]]
        let pet = try store.addPet(draft)
        let folder = NSTemporaryDirectory() + "serve-site-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let file = folder + "/\"><img src=x onerror=alert(1)>.csv"
        try Data("a,b\n".utf8).write(to: URL(fileURLWithPath: file))
        let now = Date()
        let diary = try XCTUnwrap(try store.addRecord(pets: [.id(pet.id)], RecordDraft(at: now.addingTimeInterval(-7200), utcOffset: 0, note: Self.hostile[0],
                                                                                       detail: .diary(Diary(text: bidi)), attachmentPaths: [file])).first)
        let weight = try XCTUnwrap(try store.addRecord(pets: [.id(pet.id)], RecordDraft(at: now.addingTimeInterval(-3600), utcOffset: 0, note: long,
                                                                                        detail: .weight(Weight(mass: Mass(grams: 4200))))).first)
        _ = try store.addRecord(pets: [.id(pet.id)], RecordDraft(at: now, utcOffset: 0, note: Self.hostile[1],
            detail: .expense(Expense(money: Money(minorUnits: 45_000, currency: .krw), category: "food", merchant: Self.hostile[0], payment: .card, items: [Self.hostile[1]]))))
        let today = TimeContext(now: now, timeZone: utc).today
        _ = try store.setBudget(BudgetDraft(pet: nil, budget: Budget(amount: Money(minorUnits: 300_000, currency: .krw),
                                                                    period: .days(from: today.adding(days: -1), through: today.adding(days: 1)), name: Self.hostile[0], place: bidi)))
        let id = pet.id
        try await Application(router: server.router()).test(.router) { client in
            let o = try await self.signIn(client, owner)
            // A vaccination from 2024 (DHPP, its next dose due in January 2025): home lists it as overdue, with the pet's name.
            let vaccine = try await client.execute(uri: "/pets/\(id)/log", method: .post, headers: self.headers(cookie: o.cookie, form: true),
                                                   body: self.formBody(["kind": "vaccine", "vaccine": "DHPP", "at": "2024-01-10", "next": "2025-01-10", "csrf": o.csrf]))
            XCTAssertEqual(vaccine.status, .seeOther)
            let home = String(buffer: try await client.execute(uri: "/", method: .get, headers: self.headers(cookie: o.cookie)).body)
            let due = try XCTUnwrap(home.components(separatedBy: "<ul class=\"due\">").dropFirst().first, home)
            XCTAssertTrue(due.contains("<li class=\"overdue\">") && due.contains(HTML.escape(Self.hostile[0])), due)
            var pages = ["/", "/pets/\(id)", "/pets/\(id)?month=" + String(today.description.prefix(7)), "/records/\(diary.id)", "/records/\(weight.id)",
                         "/records/\(diary.id)/edit", "/records/\(weight.id)/edit", "/money"]
            pages += LogKind.allCases.map { "/pets/\(id)/log?kind=\($0.rawValue)" }
            for uri in pages {
                let r = try await client.execute(uri: uri, method: .get, headers: self.headers(cookie: o.cookie))
                XCTAssertEqual(r.status, .ok, uri)
                let html = String(buffer: r.body)
                for h in Self.hostile { XCTAssertFalse(html.contains(h), "\(uri): \(h) as markup") }
                XCTAssertFalse(html.contains("<img src=x"), uri)
                XCTAssertTrue(html.contains(HTML.escape(owner)), "\(uri): the account's name, escaped")
                XCTAssertFalse(html.contains("<script"), "\(uri): no script at all")
            }
            func page(_ uri: String) async throws -> String { String(buffer: try await client.execute(uri: uri, method: .get, headers: self.headers(cookie: o.cookie)).body) }
            let petPage = try await page("/pets/\(id)")
            XCTAssertTrue(petPage.contains("<bdi>" + HTML.escape(bidi)), "a bidi override stays inside its <bdi>")
            XCTAssertTrue(petPage.contains(HTML.escape(long)), "10,000 characters shown whole")
            for uri in ["/", "/pets/\(id)", "/money", "/records/\(diary.id)"] {
                let text = try await page(uri)
                XCTAssertTrue(text.contains(HTML.escape(Self.hostile[0])), "\(uri) shows the name as text")
            }
            let record = try await page("/records/\(diary.id)")
            XCTAssertTrue(record.contains(HTML.escape("\"><img src=x onerror=alert(1)>.csv")), "the file's name as text")

            // JSON: each page with a CLI view, with the session only.
            for uri in ["/", "/pets/\(id)", "/records/\(diary.id)", "/money", "/pets/\(id)/weight.svg"] {
                let anonymous = try await client.execute(uri: uri, method: .get, headers: self.headers(accept: "application/json"))
                XCTAssertEqual(anonymous.status, .unauthorized, uri)
                let r = try await client.execute(uri: uri, method: .get, headers: self.headers(cookie: o.cookie, accept: "application/json"))
                XCTAssertEqual(r.status, .ok, uri)
                XCTAssertEqual(r.headers[.contentType], "application/json; charset=utf-8", uri)
                XCTAssertNotNil(try? JSONSerialization.jsonObject(with: Data(String(buffer: r.body).utf8)), "\(uri): JSON")
                XCTAssertFalse(String(buffer: r.body).contains("<html"), uri)
            }
        }
    }

    // MARK: Addresses are an interface

    /// Every address in docs/serve.md's table answers as an address (never 404 or 405) for a signed-in owner with a
    /// pet that has a photo and a record with a file, a trip budget and a live feed; every POST among them sent
    /// without its token is refused and writes nothing.
    func testEveryDocumentedAddressIsServed() async throws {
        store = try XCTUnwrap(try makeStoreKeepingFiles() as? SharedStore.Served)
        server = PetServer(store: SharedStore(store), settings: ServeSettings(timeZone: utc, currency: .krw))
        _ = try store.addAccount(name: "mina", role: .owner, passwordHash: Self.hash)
        let coco = try addPet("Coco")
        _ = try store.editPet(.id(coco.id), PetDraft(), photo: .set(PetViewRouteTests.png, mediaType: "image/png"))
        let folder = NSTemporaryDirectory() + "serve-addresses-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try Data("a,b\n".utf8).write(to: URL(fileURLWithPath: folder + "/labs.csv"))
        try PetViewRouteTests.png.write(to: URL(fileURLWithPath: folder + "/photo.png"))   // file 2: an image, for `/thumb`
        let record = try XCTUnwrap(try store.addRecord(pets: [.id(coco.id)], RecordDraft(at: Date(timeIntervalSinceNow: -3600), utcOffset: 0,
                                                                                         detail: .weight(Weight(mass: Mass(grams: 4200))), attachmentPaths: [folder + "/labs.csv", folder + "/photo.png"])).first)
        let today = TimeContext(now: Date(), timeZone: utc).today
        let budget = try store.setBudget(BudgetDraft(pet: nil, budget: Budget(amount: Money(minorUnits: 300_000, currency: .krw),
                                                                             period: .days(from: today.adding(days: -1), through: today.adding(days: 1)), name: "Jeju"))).0
        let feed = Secrets.token()
        _ = try store.setFeedToken(name: "mina", tokenHash: Secrets.digest(feed))

        let docs = try String(contentsOf: TestServer.repoRoot.appendingPathComponent("docs/serve.md"), encoding: .utf8)
        let table = try XCTUnwrap(docs.components(separatedBy: "## Addresses").dropFirst().first?.components(separatedBy: "\n## ").first)
        var addresses: [(method: String, path: String)] = []
        for row in table.split(separator: "\n") where row.hasPrefix("| `") {
            let cell = row.dropFirst(2).prefix { $0 != "|" }
            let parts = cell.components(separatedBy: "`").enumerated().filter { $0.offset % 2 == 1 }.map(\.element)
            guard let first = parts.first, let space = first.firstIndex(of: " ") else { continue }
            let method = String(first[..<space])
            let path = String(first[first.index(after: space)...]).components(separatedBy: "?")[0].components(separatedBy: "[")[0]
            addresses.append((method, path))
            // `POST /records/ID/delete`, `/star`, `/unstar`: the same address with another last part.
            for more in parts.dropFirst() where more.hasPrefix("/") {
                addresses.append((method, path.split(separator: "/").dropLast().map { "/" + $0 }.joined() + more))
            }
        }
        XCTAssertGreaterThan(addresses.count, 25, "the table was read: \(addresses)")
        func real(_ path: String) -> String {
            var p = path.replacingOccurrences(of: "/pets/ID", with: "/pets/\(coco.id)").replacingOccurrences(of: "/records/ID", with: "/records/\(record.id)")
            p = p.replacingOccurrences(of: "/files/N/thumb", with: "/files/2/thumb")   // a thumbnail is an image's only
            p = p.replacingOccurrences(of: "/budgets/ID", with: "/budgets/\(budget.id)").replacingOccurrences(of: "/files/N", with: "/files/1")
            return p.replacingOccurrences(of: "TOKEN", with: feed)
        }
        let before = try store.count(RecordQuery())
        let requests = addresses.map { (method: $0.method, path: $0.path, uri: real($0.path) + ($0.path.hasSuffix("/log") && $0.method == "GET" ? "?kind=weight" : "")) }
        try await Application(router: server.router()).test(.router) { client in
            let m = try await self.signIn(client, "mina")
            for (method, path, uri) in requests {
                let r = try await client.execute(uri: uri, method: method == "GET" ? .get : .post,
                                                 headers: self.headers(cookie: m.cookie, form: method == "POST"), body: method == "POST" ? self.formBody(["kind": "weight", "weight": "5kg"]) : nil)
                XCTAssertNotEqual(r.status, .notFound, "\(method) \(uri)")
                XCTAssertNotEqual(r.status, .methodNotAllowed, "\(method) \(uri)")
                if method == "GET" { XCTAssertLessThan(r.status.code, 400, "\(method) \(uri): \(r.status)") }
                if method == "POST" && path != "/logout" { XCTAssertEqual(r.status.code / 100, 4, "\(method) \(uri) without its token: \(r.status)") }
            }
        }
        XCTAssertEqual(try store.count(RecordQuery()), before, "no POST without its token wrote anything")
        XCTAssertNotNil(try store.record(id: record.id))
    }
}
