import Foundation
import Hummingbird
import HummingbirdTesting
import Localization
import PetCharts
import PetModel
import PetStoreCore
import PetViews
import PetlogTestSupport
import XCTest
@testable import PetServe

/// The pet's views on `petlog serve` (issue 41) through the router test client, on SQLite and PostgreSQL:
/// the weight chart (`chart weight`'s drawing), the vet report and emergency card PDFs, the FHIR export and
/// the profile photo, the calendar feed and its reset; their refusals, and hostile names in what they draw.
final class PetViewRouteTests: ServeTestCase, @unchecked Sendable {
    static let utc = TimeZone(identifier: "UTC")!

    override func setUpWithError() throws {
        try super.setUpWithError()
        store = try XCTUnwrap(try makeStore() as? SharedStore.Served)
        // One clock for the whole test: a chart's period and axis count from it, so two requests draw alike.
        let now = Date()
        let lines = Guarded<[String]>([])
        logLines = lines
        server = PetServer(store: SharedStore(store), settings: ServeSettings(timeZone: Self.utc, now: { now },
                                                                             log: { line in lines.withLockedValue { $0.append(line) } }))
    }

    /// A dog with a microchip (the card and FHIR export show it), and an allergy if given.
    override func addPet(_ name: String, allergy: String? = nil) throws -> Pet {
        var draft = PetDraft()
        draft.name = name; draft.species = .dog; draft.microchip = "900123456789012"
        if let allergy { draft.health.addAllergies = [allergy] }
        return try store.addPet(draft)
    }

    func addWeights(_ pet: Pet) throws {
        // One a month for two years, up to yesterday.
        for month in 0..<24 {
            let at = Date(timeIntervalSinceNow: -86_400 - Double(month) * 30 * 86_400)
            _ = try store.addRecord(pets: [.id(pet.id)], RecordDraft(at: at, utcOffset: 0, detail: .weight(Weight(mass: Mass(grams: 4000 + month * 10)))))
        }
    }

    func presentation(_ language: Language) -> PresentationContext {
        server.presentation(language)
    }

    /// A program's standard output for `input` written to a file (poppler's pdftotext, pdfimages); skipped where missing.
    func tool(_ name: String, _ args: [String], input: Data) throws -> String {
        let path = "/usr/bin/\(name)"
        guard FileManager.default.isExecutableFile(atPath: path) else { throw XCTSkip("\(name) not installed") }
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("petview-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let file = dir.appendingPathComponent("in.pdf")
        try input.write(to: file)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: path)
        process.arguments = args + [file.path] + (name == "pdftotext" ? ["-"] : [])
        let pipe = Pipe()
        process.standardOutput = pipe
        try process.run()
        let out = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return String(decoding: out, as: UTF8.self)
    }

    func images(_ pdf: Data) throws -> Int { try tool("pdfimages", ["-list"], input: pdf).split(separator: "\n").count - 2 }

    func body(_ r: TestResponse) -> Data { Data(buffer: r.body) }

    static let png: Data = {
        // 4×4 RGB, stored deflate (the same maker as the CLI tests').
        func crc(_ bytes: [UInt8]) -> UInt32 {
            var c: UInt32 = 0xFFFF_FFFF
            for byte in bytes { c ^= UInt32(byte); for _ in 0..<8 { c = (c & 1) == 1 ? (c >> 1) ^ 0xEDB8_8320 : c >> 1 } }
            return ~c
        }
        func be(_ v: UInt32) -> [UInt8] { withUnsafeBytes(of: v.bigEndian, Array.init) }
        func chunk(_ type: String, _ data: [UInt8]) -> [UInt8] { be(UInt32(data.count)) + Array(type.utf8) + data + be(crc(Array(type.utf8) + data)) }
        var raw: [UInt8] = []
        for _ in 0..<4 { raw.append(0); for _ in 0..<4 { raw += [10, 200, 90] } }
        var a: UInt32 = 1, b: UInt32 = 0
        for byte in raw { a = (a + UInt32(byte)) % 65_521; b = (b + a) % 65_521 }
        let n = raw.count
        let z: [UInt8] = [0x78, 0x01, 1, UInt8(n & 0xFF), UInt8(n >> 8), UInt8(~n & 0xFF), UInt8((~n >> 8) & 0xFF)] + raw + be((b << 16) | a)
        return Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + chunk("IHDR", be(4) + be(4) + [8, 2, 0, 0, 0]) + chunk("IDAT", z) + chunk("IEND", []))
    }()

    // MARK: The weight chart

    func testWeightChartIsChartWeightsDrawingOverThePeriod() async throws {
        _ = try store.addAccount(name: "mina", role: .viewer, passwordHash: Self.hash)
        let coco = try addPet("Coco")
        try addWeights(coco)
        let app = Application(router: server.router())
        try await app.test(.router) { client in
            let anonymous = try await client.execute(uri: "/pets/\(coco.id)/weight.svg", method: .get, headers: self.headers())
            XCTAssertEqual(anonymous.status, .seeOther)
            XCTAssertEqual(anonymous.headers[.location], "/login")
            let (cookie, _) = try await self.signIn(client, "mina")
            var svgs: [String: Data] = [:]
            for since in ["3m", "1y", "all"] {
                let r = try await client.execute(uri: "/pets/\(coco.id)/weight.svg?since=\(since)", method: .get, headers: self.headers(cookie: cookie))
                XCTAssertEqual(r.status, .ok)
                XCTAssertEqual(r.headers[.contentType], "image/svg+xml")
                XCTAssertEqual(r.headers[.xContentTypeOptions], "nosniff")
                svgs[since] = self.body(r)
                // The same drawing `chart weight --since` makes from the start of the day that long ago, from the same
                // composer and renderer.
                let p = self.presentation(.en)
                let window = since == "all" ? TimeWindow()
                    : TimeWindow(since: p.time.startOfDay(p.time.localDate(of: try TimeParser.since(since, context: p.time))))
                let chart = try ChartComposer(store: self.store, context: p, size: PetServer.chartSize, theme: .light).weight(pets: [.id(coco.id)], window: window, smoothing: nil)
                let expected = try PetServer.rendered("w.svg") { path in
                    guard case .line(let spec) = chart.drawing() else { return XCTFail("a weight chart is a line chart") }
                    try ChartRenderer.render(spec, to: path, format: .svg)
                }
                XCTAssertEqual(svgs[since], expected, since)
            }
            XCTAssertEqual(Set(svgs.values).count, 3, "three periods, three drawings")
            let plain = try await client.execute(uri: "/pets/\(coco.id)/weight.svg", method: .get, headers: self.headers(cookie: cookie))
            XCTAssertEqual(self.body(plain), svgs["1y"], "one year by default")
            // Its labels in the page's language; dark where asked; a PNG for phones; the chart's JSON.
            let korean = try await client.execute(uri: "/pets/\(coco.id)/weight.svg", method: .get, headers: self.headers(cookie: cookie, language: "ko"))
            XCTAssertNotEqual(self.body(korean), svgs["1y"])
            let dark = try await client.execute(uri: "/pets/\(coco.id)/weight.svg?theme=dark", method: .get, headers: self.headers(cookie: cookie))
            XCTAssertNotEqual(self.body(dark), svgs["1y"])
            let png = try await client.execute(uri: "/pets/\(coco.id)/weight.png?since=all", method: .get, headers: self.headers(cookie: cookie))
            XCTAssertEqual(png.headers[.contentType], "image/png")
            XCTAssertEqual(Array(self.body(png).prefix(4)), [0x89, 0x50, 0x4E, 0x47])
            let json = try await client.execute(uri: "/pets/\(coco.id)/weight.svg?since=all", method: .get, headers: self.headers(cookie: cookie, accept: "application/json"))
            let points = try XCTUnwrap(try JSONSerialization.jsonObject(with: self.body(json)) as? [[String: Any]]).first?["count"] as? Int
            XCTAssertEqual(points, 24)
            // Refused: another period, an unknown pet, a path that is not an id.
            for uri in ["/pets/\(coco.id)/weight.svg?since=5y", "/pets/999/weight.svg", "/pets/..%2f1/weight.svg", "/pets/%2e%2e/weight.svg", "/pets/1x/weight.png"] {
                let r = try await client.execute(uri: uri, method: .get, headers: self.headers(cookie: cookie))
                XCTAssertEqual(r.status, .notFound, uri)
            }
        }
    }

    // MARK: The report, the card, the FHIR export, the photo

    func testReportAndCardAreTheCLIsDocumentsWithThePhotoAndHostileNamesAsText() async throws {
        _ = try store.addAccount(name: "mina", role: .viewer, passwordHash: Self.hash)
        let evil = try addPet(Self.hostile[0], allergy: Self.hostile[1])
        try addWeights(evil)
        let app = Application(router: server.router())
        try await app.test(.router) { client in
            let anonymous = try await client.execute(uri: "/pets/\(evil.id)/report.pdf", method: .get, headers: self.headers())
            XCTAssertEqual(anonymous.headers[.location], "/login")
            let (cookie, _) = try await self.signIn(client, "mina")
            let p = self.presentation(.en)
            let question = "Why does she scratch?".addingPercentEncoding(withAllowedCharacters: .alphanumerics)!
            let second = Self.hostile[1].addingPercentEncoding(withAllowedCharacters: .alphanumerics)!
            let report = try await client.execute(uri: "/pets/\(evil.id)/report.pdf?question=\(question)&question=\(second)", method: .get, headers: self.headers(cookie: cookie))
            XCTAssertEqual(report.status, .ok)
            XCTAssertEqual(report.headers[.contentType], "application/pdf")
            XCTAssertEqual(report.headers[.contentDisposition], "inline; filename=\"pet-\(evil.id)-report.pdf\"", "a name that is not plain ASCII is not in the header")
            let text = try self.tool("pdftotext", [], input: self.body(report))
            XCTAssertTrue(text.contains(Self.hostile[0]), "the name is text in the PDF: \(text.prefix(400))")
            XCTAssertTrue(text.contains("Why does she scratch?") && text.contains(Self.hostile[1]), "both questions")
            let reportImages = try self.images(self.body(report))
            let card = try await client.execute(uri: "/pets/\(evil.id)/card.pdf", method: .get, headers: self.headers(cookie: cookie))
            XCTAssertEqual(card.headers[.contentType], "application/pdf")
            XCTAssertEqual(card.headers[.contentDisposition], "inline; filename=\"pet-\(evil.id)-card.pdf\"")
            let cardText = try self.tool("pdftotext", [], input: self.body(card))
            XCTAssertTrue(cardText.contains(Self.hostile[0]) && cardText.contains(L10n(.en).text(.colAllergies)), cardText)
            XCTAssertEqual(try self.images(self.body(card)), 0)

            // In the page's language.
            let korean = try await client.execute(uri: "/pets/\(evil.id)/card.pdf", method: .get, headers: self.headers(cookie: cookie, language: "ko"))
            XCTAssertTrue(try self.tool("pdftotext", [], input: self.body(korean)).contains(L10n(.ko).text(.colMicrochip)))

            // With a profile photo: the report's header and the card's front embed it.
            _ = try self.store.editPet(.id(evil.id), PetDraft(), photo: .set(Self.png, mediaType: "image/png"))
            let withPhoto = try await client.execute(uri: "/pets/\(evil.id)/report.pdf", method: .get, headers: self.headers(cookie: cookie))
            XCTAssertEqual(try self.images(self.body(withPhoto)), reportImages + 1)
            let cardWithPhoto = try await client.execute(uri: "/pets/\(evil.id)/card.pdf", method: .get, headers: self.headers(cookie: cookie))
            XCTAssertEqual(try self.images(self.body(cardWithPhoto)), 1)

            // Refused: an unknown pet, a path that is not an id, a paper petlog does not know.
            for uri in ["/pets/999/report.pdf", "/pets/%2e%2e/card.pdf", "/pets/../fhir.json", "/pets/999/card.pdf", "/pets/999/fhir.json"] {
                let r = try await client.execute(uri: uri, method: .get, headers: self.headers(cookie: cookie))
                XCTAssertEqual(r.status, .notFound, uri)
            }
            for uri in ["/pets/\(evil.id)/card.pdf?paper=a3", "/pets/\(evil.id)/report.pdf?paper=a3", "/pets/\(evil.id)/report.pdf?since=soon",
                        "/pets/\(evil.id)/report.pdf?date=2026-02-30"] {
                let r = try await client.execute(uri: uri, method: .get, headers: self.headers(cookie: cookie))
                XCTAssertEqual(r.status, .badRequest, uri)
            }
            // The CLI's period and day: a report of last month's first day has no weight after it.
            let dated = try await client.execute(uri: "/pets/\(evil.id)/report.pdf?since=30d&date=\(p.time.today.adding(days: -40))&paper=letter",
                                                 method: .get, headers: self.headers(cookie: cookie))
            XCTAssertEqual(dated.status, .ok)
            XCTAssertTrue(try self.tool("pdftotext", [], input: self.body(dated)).contains(p.format.longDate(p.time.today.adding(days: -40))))
        }
    }

    func testFHIRExportAndPhotoAreThePetsOwn() async throws {
        _ = try store.addAccount(name: "mina", role: .viewer, passwordHash: Self.hash)
        let coco = try addPet("Coco"), nabi = try addPet("Nabi")
        try addWeights(coco)
        let app = Application(router: server.router())
        try await app.test(.router) { client in
            let anonymous = try await client.execute(uri: "/pets/\(coco.id)/photo", method: .get, headers: self.headers())
            XCTAssertEqual(anonymous.headers[.location], "/login")
            let (cookie, _) = try await self.signIn(client, "mina")
            let fhir = try await client.execute(uri: "/pets/\(coco.id)/fhir.json", method: .get, headers: self.headers(cookie: cookie))
            XCTAssertEqual(fhir.headers[.contentType], "application/fhir+json; charset=utf-8")
            XCTAssertEqual(fhir.headers[.contentDisposition], "inline; filename=\"Coco-fhir.json\"")
            let bundle = try XCTUnwrap(try JSONSerialization.jsonObject(with: self.body(fhir)) as? [String: Any])
            let entries = try XCTUnwrap(bundle["entry"] as? [[String: Any]])
            XCTAssertEqual(entries.count, 1 + 24, "the patient and its 24 weights")
            XCTAssertFalse(String(decoding: self.body(fhir), as: UTF8.self).contains("Nabi"), "only that pet")

            let none = try await client.execute(uri: "/pets/\(coco.id)/photo", method: .get, headers: self.headers(cookie: cookie))
            XCTAssertEqual(none.status, .notFound)
            _ = try self.store.editPet(.id(coco.id), PetDraft(), photo: .set(Self.png, mediaType: "image/png"))
            let photo = try await client.execute(uri: "/pets/\(coco.id)/photo", method: .get, headers: self.headers(cookie: cookie))
            XCTAssertEqual(photo.status, .ok)
            XCTAssertEqual(photo.headers[.contentType], "image/png")
            XCTAssertEqual(self.body(photo), Self.png)
            for uri in ["/pets/\(nabi.id)/photo", "/pets/%2e%2e/photo", "/pets/999/photo"] {
                let r = try await client.execute(uri: uri, method: .get, headers: self.headers(cookie: cookie))
                XCTAssertEqual(r.status, .notFound, uri)
            }

            // The pages show it: home's card and the pet's page, with the chart, its periods and the documents.
            let home = String(buffer: try await client.execute(uri: "/", method: .get, headers: self.headers(cookie: cookie)).body)
            XCTAssertTrue(home.contains("src=\"/pets/\(coco.id)/photo\""), home)
            XCTAssertFalse(home.contains("src=\"/pets/\(nabi.id)/photo\""), "no photo, no image")
            let page = String(buffer: try await client.execute(uri: "/pets/\(coco.id)", method: .get, headers: self.headers(cookie: cookie)).body)
            for part in ["src=\"/pets/\(coco.id)/photo\"", "src=\"/pets/\(coco.id)/weight.svg?since=1y\"", "href=\"/pets/\(coco.id)?since=3m#weight\"",
                         "href=\"/pets/\(coco.id)?since=all#weight\"", "action=\"/pets/\(coco.id)/report.pdf\"", "name=\"question\"",
                         "href=\"/pets/\(coco.id)/card.pdf\"", "href=\"/pets/\(coco.id)/fhir.json\"", "weight.svg?since=1y&amp;theme=dark"] {
                XCTAssertTrue(page.contains(part), part)
            }
            let threeMonths = String(buffer: try await client.execute(uri: "/pets/\(coco.id)?since=3m", method: .get, headers: self.headers(cookie: cookie)).body)
            XCTAssertTrue(threeMonths.contains("src=\"/pets/\(coco.id)/weight.svg?since=3m\""))
            XCTAssertTrue(threeMonths.contains("aria-current=\"page\" href=\"/pets/\(coco.id)?since=3m#weight\""))
            let bogus = String(buffer: try await client.execute(uri: "/pets/\(coco.id)?since=%22%3E%3Cscript%3E", method: .get, headers: self.headers(cookie: cookie)).body)
            XCTAssertTrue(bogus.contains("weight.svg?since=1y\"") && !bogus.contains("<script>"), "an unknown period is the default")
            let korean = String(buffer: try await client.execute(uri: "/pets/\(coco.id)", method: .get, headers: self.headers(cookie: cookie, language: "ja")).body)
            XCTAssertTrue(korean.contains(L10n(.ja).text(.webChart3Months)) && korean.contains(L10n(.ja).text(.webEmergencyCard)))
        }
    }

    func testHostileNamesOnThePetViewsPartsAreEscaped() async throws {
        _ = try store.addAccount(name: "mina", role: .family, passwordHash: Self.hash)
        var pets: [Pet] = []
        for name in Self.hostile {
            let p = try addPet(name)
            _ = try store.editPet(.id(p.id), PetDraft(), photo: .set(Self.png, mediaType: "image/png"))
            pets.append(p)
        }
        let app = Application(router: server.router())
        let added = pets
        try await app.test(.router) { client in
            let (cookie, _) = try await self.signIn(client, "mina")
            for p in added {
                let page = String(buffer: try await client.execute(uri: "/pets/\(p.id)", method: .get, headers: self.headers(cookie: cookie)).body)
                XCTAssertTrue(page.contains("alt=\"\(HTML.escape(p.name))\""), "the photo's alt text escaped")
                XCTAssertFalse(page.contains("<script>alert") || page.contains("<img src=x"), page)
                let svg = String(decoding: self.body(try await client.execute(uri: "/pets/\(p.id)/weight.svg", method: .get, headers: self.headers(cookie: cookie))), as: UTF8.self)
                XCTAssertTrue(svg.contains("<svg"))
                XCTAssertFalse(svg.contains("<script") || svg.contains("onerror"), "the name is drawn, never markup in the SVG")
                let fhir = try await client.execute(uri: "/pets/\(p.id)/fhir.json", method: .get, headers: self.headers(cookie: cookie))
                XCTAssertEqual(fhir.headers[.contentDisposition], "inline; filename=\"pet-\(p.id)-fhir.json\"")
            }
        }
    }

    // MARK: The calendar feed

    func testTheCalendarFeedAnswersItsTokenOnlyAndAResetEndsTheOldOne() async throws {
        _ = try store.addAccount(name: "mina", role: .viewer, passwordHash: Self.hash, language: "ko")
        _ = try store.addAccount(name: "jun", role: .family, passwordHash: Self.hash)
        let coco = try addPet(Self.hostile[0])
        // A rabies shot a year ago, the next one due in ten days.
        let today = server.presentation(.en).time.today
        _ = try store.addRecord(pets: [.id(coco.id)], RecordDraft(at: Date(timeIntervalSinceNow: -355 * 86_400), utcOffset: 0,
                                                                    detail: .vaccination(Vaccination(vaccine: "rabies", nextDue: today.adding(days: 10)))))
        let token = Secrets.token()
        _ = try store.setFeedToken(name: "mina", tokenHash: Secrets.digest(token))
        let app = Application(router: server.router())
        try await app.test(.router) { client in
            // No session needed: the token is the secret. `due --ics`'s calendar in the account's language.
            let feed = try await client.execute(uri: "/feeds/\(token).ics", method: .get, headers: [:])
            XCTAssertEqual(feed.status, .ok)
            XCTAssertEqual(feed.headers[.contentType], "text/calendar; charset=utf-8")
            let text = String(buffer: feed.body)
            let p = self.presentation(.ko)
            let items = CareAgenda.items(pets: [coco], records: try self.store.careRecords(pets: [coco.id]), schedule: .shipped, context: p.time)
                .filter { $0.dueDay <= p.time.today.adding(days: 366) }
            XCTAssertFalse(items.isEmpty)
            XCTAssertEqual(text.replacingOccurrences(of: #"DTSTAMP:[0-9TZ]+"#, with: "", options: .regularExpression),
                           DueCalendar.document(items, p).replacingOccurrences(of: #"DTSTAMP:[0-9TZ]+"#, with: "", options: .regularExpression))
            XCTAssertTrue(text.contains("BEGIN:VALARM") && text.contains("<script>alert(1)</script>"), "alarms; the name is calendar text: \(text)")

            // Anything else: 404 and nothing more (a wrong token, its hash, upper case, no .ics, a path).
            for uri in ["/feeds/\(Secrets.token()).ics", "/feeds/\(Secrets.digest(token)).ics", "/feeds/\(token.uppercased()).ics",
                        "/feeds/\(token)", "/feeds/\(token).ics.ics", "/feeds/..%2f\(token).ics", "/feeds/%2e%2e.ics"] {
                let r = try await client.execute(uri: uri, method: .get, headers: [:])
                XCTAssertEqual(r.status, .notFound, uri)
                XCTAssertFalse(String(buffer: r.body).contains("mina"), uri)
            }

            // The account's home offers a new address; the refusals change nothing.
            let (cookie, csrf) = try await self.signIn(client, "mina")
            let home = String(buffer: try await client.execute(uri: "/", method: .get, headers: self.headers(cookie: cookie)).body)
            XCTAssertTrue(home.contains("action=\"/account/feed\""), home)
            let anonymous = try await client.execute(uri: "/account/feed", method: .post, headers: self.headers(form: true), body: self.formBody(["csrf": csrf]))
            XCTAssertEqual(anonymous.headers[.location], "/login")
            let (otherCookie, _) = try await self.signIn(client, "jun")
            for (h, fields, what) in [(self.headers(cookie: cookie, form: true), [String: String](), "no token"),
                                      (self.headers(cookie: cookie, form: true), ["csrf": String(repeating: "0", count: 64)], "a wrong token"),
                                      (self.headers(cookie: otherCookie, form: true), ["csrf": csrf], "another session's token"),
                                      (self.headers(cookie: cookie, origin: "http://evil.example", form: true), ["csrf": csrf], "a foreign Origin"),
                                      (self.headers(cookie: cookie, origin: "null", form: true), ["csrf": csrf], "Origin null")] {
                let r = try await client.execute(uri: "/account/feed", method: .post, headers: h, body: self.formBody(fields))
                XCTAssertEqual(r.status, .forbidden, what)
                let still = try await client.execute(uri: "/feeds/\(token).ics", method: .get, headers: [:])
                XCTAssertEqual(still.status, .ok, "\(what): the old address still works")
            }
            // A viewer's feed is its own: a viewer may make a new one.
            let made = try await client.execute(uri: "/account/feed", method: .post, headers: self.headers(cookie: cookie, form: true), body: self.formBody(["csrf": csrf]))
            XCTAssertEqual(made.status, .ok)
            let page = String(buffer: made.body)
            let newToken = try XCTUnwrap(page.range(of: #"/feeds/[0-9a-f]{64}\.ics"#, options: .regularExpression).map { String(page[$0].dropFirst(7).prefix(64)) })
            XCTAssertNotEqual(newToken, token)
            XCTAssertTrue(page.contains("http://localhost/feeds/\(newToken).ics") && page.contains("webcal://localhost/feeds/\(newToken).ics"), page)
            let old = try await client.execute(uri: "/feeds/\(token).ics", method: .get, headers: [:])
            XCTAssertEqual(old.status, .notFound, "the old address stops")
            let new = try await client.execute(uri: "/feeds/\(newToken).ics", method: .get, headers: [:])
            XCTAssertEqual(new.status, .ok)
        }
        XCTAssertNil(try store.account(feedTokenHash: Secrets.digest(token)))
        let lines = logLines.withLockedValue { $0 }
        XCTAssertTrue(lines.contains { $0.hasPrefix("GET /feeds/… 200 ") }, "\(lines)")
        XCTAssertFalse(lines.contains { $0.contains(token) }, "the log line never shows a feed's token")
    }
}
