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

/// Logging and records through the router (no socket), on SQLite and PostgreSQL: every kind's form read by the
/// CLI's readers (Korean and Japanese words too), bad fields, photos (a script named `.jpg`, 26 MB, a body cut
/// off), the record's page and JSON, its files, star and delete, the pet's timeline, and every refusal
/// (no session, CSRF, Origin, a viewer, `..` ids) changing nothing.
final class RecordRouteTests: ServeTestCase, @unchecked Sendable {
    static let jpeg: [UInt8] = [0xFF, 0xD8, 0xFF, 0xE0, 0x00, 0x10] + Array("JFIF".utf8) + Array(repeating: 0x42, count: 100)

    override func setUpWithError() throws {
        try super.setUpWithError()
        store = try XCTUnwrap(try makeStoreKeepingFiles() as? SharedStore.Served)
        server = PetServer(store: SharedStore(store), settings: ServeSettings(timeZone: TimeZone(identifier: "UTC")!))
    }

    // MARK: Helpers

    func records(_ pet: Pet) throws -> [PetRecord] { try store.records(RecordQuery(pets: [.id(pet.id)])) }

    // MARK: Tests

    func testEveryKindsFormReadsItsFieldsAsTheCLIDoes() async throws {
        _ = try store.addAccount(name: "mina", role: .family, passwordHash: Self.hash)
        let coco = try addPet("Coco")
        try await Application(router: server.router()).test(.router) { client in
            let mina = try await self.signIn(client, "mina")
            for kind in LogKind.allCases {
                let page = try await client.execute(uri: "/pets/\(coco.id)/log?kind=\(kind.rawValue)", method: .get, headers: self.headers(cookie: mina.cookie))
                XCTAssertEqual(page.status, .ok, kind.rawValue)
                let html = String(buffer: page.body)
                XCTAssertTrue(html.contains("name=\"kind\" value=\"\(kind.rawValue)\""), kind.rawValue)
                XCTAssertTrue(html.contains("name=\"csrf\" value=\"\(mina.csrf)\""))
                XCTAssertTrue(html.contains("name=\"at\"") && html.contains("name=\"note\""))
                XCTAssertEqual(html.contains("type=\"file\" accept=\"image/*"), kind.takesPhotos, kind.rawValue)
                XCTAssertFalse(html.contains("capture"), "the camera is offered, not forced")
            }
            let unknown = try await client.execute(uri: "/pets/\(coco.id)/log?kind=expense", method: .get, headers: self.headers(cookie: mina.cookie))
            XCTAssertEqual(unknown.status, .notFound, "the expense form is /expenses")
            let forms: [[String: String]] = [
                ["kind": "weight", "weight": "9lb 4oz", "bcs": "5", "at": "2026-11-20 08:30", "note": "체중 측정"],
                ["kind": "meal", "food": "물", "amount": "200ml"],
                ["kind": "meal", "food": "kibble", "amount": "80g", "treat": "1"],
                ["kind": "stool", "score": "4", "color": "노란색", "mucus": "1"],
                ["kind": "urine", "color": "黄色", "amount": "적음", "straining": "1"],
                ["kind": "symptom", "symptom": "嘔吐", "severity": "3", "duration": "2h"],
                ["kind": "diary", "text": "공원에서 놀았다", "mood": "ごきげん", "title": "산책"],
                ["kind": "walk", "measure": "3.2km 45min"],
                ["kind": "groom", "what": "목욕 발톱", "by": "トリマー田中"],
            ]
            for fields in forms {
                var f = fields
                f["csrf"] = mina.csrf
                let r = try await client.execute(uri: "/pets/\(coco.id)/log", method: .post, headers: self.headers(cookie: mina.cookie, form: true), body: self.formBody(f))
                XCTAssertEqual(r.status, .seeOther, "\(fields): \(String(buffer: r.body))")
                XCTAssertEqual(r.headers[.location], "/pets/\(coco.id)")
            }
        }
        let saved = try records(coco)
        XCTAssertEqual(saved.count, 9)
        func detail(_ kind: RecordKind) -> [RecordDetail] { saved.filter { $0.kind == kind }.map(\.detail) }
        guard case .weight(let w) = detail(.weight).first else { return XCTFail("a weight") }
        XCTAssertEqual(w.mass, try Mass.parse("9lb 4oz", defaultUnit: .kilogram), "the CLI's reader")
        XCTAssertEqual(w.bodyCondition, 5)
        let weight = try XCTUnwrap(saved.first { $0.kind == .weight })
        XCTAssertEqual(weight.note, "체중 측정")
        XCTAssertEqual(weight.at, try TimeParser.moment("2026-11-20 08:30", context: TimeContext(now: Date(), timeZone: TimeZone(identifier: "UTC")!), observed: true).date)
        let meals = detail(.meal).compactMap { d -> Meal? in if case .meal(let m) = d { return m } else { return nil } }
        XCTAssertEqual(Set(meals.map(\.type)), [.water, .treat], "물 is water, as `meal Coco 물` reads it")
        guard case .stool(let s) = detail(.stool).first, case .urine(let u) = detail(.urine).first, case .symptom(let sy) = detail(.symptom).first,
              case .diary(let d) = detail(.diary).first, case .walk(let walk) = detail(.walk).first, case .grooming(let g) = detail(.grooming).first
        else { return XCTFail("every kind saved") }
        XCTAssertEqual(s.color, "yellow"); XCTAssertTrue(s.mucus)
        XCTAssertEqual(u.color, "yellow"); XCTAssertEqual(u.amount, .small); XCTAssertTrue(u.straining)
        XCTAssertEqual(sy.code, "vomiting"); XCTAssertEqual(sy.durationMinutes, 120)
        XCTAssertEqual(d.mood, .happy); XCTAssertEqual(d.title, "산책")
        XCTAssertEqual(walk.meters, 3200); XCTAssertEqual(walk.minutes, 45)
        XCTAssertEqual(g.tasks, [.bath, .nails]); XCTAssertEqual(g.groomer, "トリマー田中")
    }

    func testABadFieldShowsTheFormAgainWithTheCLIsLineAndWritesNothing() async throws {
        _ = try store.addAccount(name: "mina", role: .family, passwordHash: Self.hash, language: "ko")
        let coco = try addPet("Coco")
        let ko = L10n(.ko)
        try await Application(router: server.router()).test(.router) { client in
            let mina = try await self.signIn(client, "mina")
            let cases: [([String: String], String)] = [
                (["kind": "weight", "weight": "-3kg"], ParseError.negative("-3kg").message(ko)),
                (["kind": "weight", "weight": "4.2kg", "at": "2099-01-01"], ""),
                (["kind": "meal", "food": "kibble", "snack": "1", "water": "1"], ko.text(.errExclusive(flags: "--snack, --treat, --water"))),
                (["kind": "stool", "score": "9"], ""),
                (["kind": "urine", "amount": "lots"], ""),
                (["kind": "diary", "text": "", "mood": "happy"], ParseError.emptyText(field: "diary").message(ko)),
                (["kind": "walk", "measure": "fast"], RecordEntry.text(.notAMeasure("fast"), ko)),
                (["kind": "groom", "what": "목욕 quux"], ""),
                (["kind": "symptom", "symptom": "vomiting", "severity": "9"], ""),
            ]
            for (fields, line) in cases {
                var f = fields
                f["csrf"] = mina.csrf
                let r = try await client.execute(uri: "/pets/\(coco.id)/log", method: .post, headers: self.headers(cookie: mina.cookie, form: true), body: self.formBody(f))
                XCTAssertEqual(r.status, .badRequest, "\(fields)")
                let html = String(buffer: r.body)
                XCTAssertTrue(html.contains("class=\"notice\" role=\"alert\""), "\(fields)")
                if !line.isEmpty { XCTAssertTrue(html.contains(HTML.escape(line)), "\(fields): \(html)") }
                XCTAssertTrue(html.contains("name=\"kind\" value=\"\(fields["kind"]!)\""), "the form again")
                if let typed = fields.first(where: { $0.key != "kind" && !$0.value.isEmpty && $0.value != "1" }) {
                    XCTAssertTrue(html.contains(HTML.escape(typed.value)), "what was typed is kept: \(typed)")
                }
            }
            let noKind = try await client.execute(uri: "/pets/\(coco.id)/log", method: .post, headers: self.headers(cookie: mina.cookie, form: true),
                                                  body: self.formBody(["kind": "../../etc", "csrf": mina.csrf]))
            XCTAssertEqual(noKind.status, .badRequest)
        }
        XCTAssertEqual(try records(coco), [], "nothing written")
    }

    func testPhotosComeByMultipartAndAreCheckedByContent() async throws {
        _ = try store.addAccount(name: "mina", role: .family, passwordHash: Self.hash)
        _ = try store.addAccount(name: "sitter", role: .viewer, passwordHash: Self.hash)
        let coco = try addPet("Coco")
        try await Application(router: server.router()).test(.router) { client in
            let mina = try await self.signIn(client, "mina")
            let sitter = try await self.signIn(client, "sitter")
            func post(_ who: Who?, _ fields: [String: String], files: [(String, String, [UInt8])] = [], close: Bool = true,
                      origin: String? = "http://localhost") async throws -> TestResponse {
                try await client.execute(uri: "/pets/\(coco.id)/log", method: .post, headers: self.headers(cookie: who?.cookie, origin: origin, multipart: true),
                                         body: self.multipart(fields, files: files, close: close))
            }
            let diary = ["kind": "diary", "text": "사진 일기", "csrf": mina.csrf]
            // Refusals first: each writes nothing.
            let script = try await post(mina, diary, files: [("photo", "cute.jpg", Array("#!/bin/sh\nrm -rf ~\n".utf8))])
            XCTAssertEqual(script.status, .badRequest)
            XCTAssertTrue(String(buffer: script.body).contains(HTML.escape(ParseError.notAnImage(path: "cute.jpg", pdfAllowed: false).message(L10n(.en)))))
            let big = try await post(mina, diary, files: [("photo", "big.jpg", Self.jpeg + Array(repeating: 0, count: 26 * 1024 * 1024))])
            XCTAssertEqual(big.status, .contentTooLarge)
            let cut = try await post(mina, diary, files: [("photo", "half.jpg", Self.jpeg)], close: false)
            XCTAssertEqual(cut.status, .badRequest, "a body cut off before its closing boundary")
            var noToken = diary; noToken["csrf"] = "x"
            let badToken = try await post(mina, noToken, files: [("photo", "a.jpg", Self.jpeg)])
            XCTAssertEqual(badToken.status, .forbidden)
            let foreign = try await post(mina, diary, files: [("photo", "a.jpg", Self.jpeg)], origin: "http://evil.example")
            XCTAssertEqual(foreign.status, .forbidden)
            var viewerDiary = diary; viewerDiary["csrf"] = sitter.csrf
            let viewer = try await post(sitter, viewerDiary, files: [("photo", "a.jpg", Self.jpeg)])
            XCTAssertEqual(viewer.status, .forbidden)
            let viewerForm = try await client.execute(uri: "/pets/\(coco.id)/log?kind=diary", method: .get, headers: self.headers(cookie: sitter.cookie))
            XCTAssertEqual(viewerForm.status, .forbidden, "a viewer gets no form")
            let noPet = try await client.execute(uri: "/pets/999999/log?kind=diary", method: .get, headers: self.headers(cookie: mina.cookie))
            XCTAssertEqual(noPet.status, .notFound)
            let anonymous = try await post(nil, diary, files: [("photo", "a.jpg", Self.jpeg)])
            XCTAssertEqual(anonymous.headers[.location], "/login")
            XCTAssertEqual(try self.records(coco), [], "no refused upload wrote a record")

            let ok = try await post(mina, diary, files: [("photo", "../../coco.jpg", Self.jpeg), ("photo", "", [])])
            XCTAssertEqual(ok.status, .seeOther, String(buffer: ok.body))
            let saved = try XCTUnwrap(try self.records(coco).first)
            XCTAssertEqual(saved.attachments.map(\.originalName), ["coco.jpg"], "the base name only; an empty file input sends nothing")
            XCTAssertEqual(saved.attachments.first?.mediaType, "image/jpeg")
            let file = try await client.execute(uri: "/records/\(saved.id)/files/1", method: .get, headers: self.headers(cookie: mina.cookie))
            XCTAssertEqual(file.status, .ok)
            XCTAssertEqual(file.headers[.contentType], "image/jpeg")
            XCTAssertEqual(file.headers[.contentDisposition]?.hasPrefix("inline"), true)
            XCTAssertEqual(Array(buffer: file.body), Self.jpeg)
            let pet = String(buffer: try await client.execute(uri: "/pets/\(coco.id)", method: .get, headers: self.headers(cookie: mina.cookie)).body)
            XCTAssertTrue(pet.contains("<a href=\"/records/\(saved.id)/files/1\"><img class=\"thumb\" src=\"/records/\(saved.id)/files/1/thumb\""), "a thumbnail opens the photo")
        }
    }

    func testTheRecordPageFilesStarAndDelete() async throws {
        _ = try store.addAccount(name: "mina", role: .family, passwordHash: Self.hash)
        _ = try store.addAccount(name: "sitter", role: .viewer, passwordHash: Self.hash)
        let hostile = "<script>alert(1)</script>"
        let coco = try addPet(hostile)
        let folder = NSTemporaryDirectory() + "record-route-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try Data("a,b\n".utf8).write(to: URL(fileURLWithPath: folder + "/labs.csv"))
        try Data(Self.jpeg).write(to: URL(fileURLWithPath: folder + "/x.jpg"))
        let visit = try XCTUnwrap(try store.addRecord(pets: [.id(coco.id)], RecordDraft(at: Date(timeIntervalSinceNow: -3600), utcOffset: 0, note: hostile,
                                                                                         detail: .diary(Diary(text: hostile)), attachmentPaths: [folder + "/labs.csv", folder + "/x.jpg"])).first)
        try await Application(router: server.router()).test(.router) { client in
            let mina = try await self.signIn(client, "mina")
            let sitter = try await self.signIn(client, "sitter")
            let page = try await client.execute(uri: "/records/\(visit.id)", method: .get, headers: self.headers(cookie: sitter.cookie))
            XCTAssertEqual(page.status, .ok)
            let html = String(buffer: page.body)
            let p = self.server.presentation(.en)
            for (label, value) in RecordDetailPresenter(p).fields(visit) {
                XCTAssertTrue(html.contains("<dt>\(HTML.escape(label))</dt><dd><bdi>\(HTML.escape(value))</bdi></dd>"), "show's field \(label)")
            }
            XCTAssertFalse(html.contains(hostile), "escaped")
            for uri in ["/pets/\(coco.id)", "/pets/\(coco.id)/log?kind=diary"] {
                let other = String(buffer: try await client.execute(uri: uri, method: .get, headers: self.headers(cookie: mina.cookie)).body)
                XCTAssertFalse(other.contains(hostile), "escaped on \(uri)")
                XCTAssertTrue(other.contains(HTML.escape(hostile)), uri)
            }
            XCTAssertTrue(html.contains("/records/\(visit.id)/files/1") && html.contains("/records/\(visit.id)/files/2"))
            XCTAssertFalse(html.contains("action=\"/records/\(visit.id)/delete\""), "a viewer sees no write")
            let json = try await client.execute(uri: "/records/\(visit.id)", method: .get, headers: self.headers(cookie: sitter.cookie, accept: "application/json"))
            XCTAssertEqual(String(buffer: json.body), try JSONView.text(RecordJSON(try self.store.record(id: visit.id))) + "\n", "show ID --json")
            let csv = try await client.execute(uri: "/records/\(visit.id)/files/1", method: .get, headers: self.headers(cookie: sitter.cookie))
            XCTAssertEqual(csv.headers[.contentType], "text/csv")
            XCTAssertEqual(csv.headers[.contentDisposition], "attachment; filename*=UTF-8''labs.csv", "not an image or a PDF: a download")
            XCTAssertEqual(String(buffer: csv.body), "a,b\n")
            for bad in ["3", "0", "..", "%2e%2e", "1%2f..", "-1", "01x"] {
                let r = try await client.execute(uri: "/records/\(visit.id)/files/\(bad)", method: .get, headers: self.headers(cookie: sitter.cookie))
                XCTAssertEqual(r.status, .notFound, bad)
            }
            for bad in ["..", "%2e%2e", "999999", "1e3", "-1"] {
                let r = try await client.execute(uri: "/records/\(bad)", method: .get, headers: self.headers(cookie: sitter.cookie))
                XCTAssertEqual(r.status, .notFound, bad)
                let d = try await client.execute(uri: "/records/\(bad)/delete", method: .post, headers: self.headers(cookie: mina.cookie, form: true),
                                                 body: self.formBody(["csrf": mina.csrf]))
                XCTAssertEqual(d.status, .notFound, bad)
            }
            let anonymous = try await client.execute(uri: "/records/\(visit.id)/files/1", method: .get, headers: self.headers())
            XCTAssertEqual(anonymous.headers[.location], "/login")

            func write(_ action: String, _ who: Who, csrf: String? = nil, origin: String = "http://localhost") async throws -> TestResponse {
                try await client.execute(uri: "/records/\(visit.id)/\(action)", method: .post, headers: self.headers(cookie: who.cookie, origin: origin, form: true),
                                         body: self.formBody(["csrf": csrf ?? who.csrf]))
            }
            for action in ["star", "delete"] {
                let viewer = try await write(action, sitter)
                XCTAssertEqual(viewer.status, .forbidden)
                let token = try await write(action, mina, csrf: sitter.csrf)
                XCTAssertEqual(token.status, .forbidden)
                let foreign = try await write(action, mina, origin: "http://evil.example")
                XCTAssertEqual(foreign.status, .forbidden)
            }
            XCTAssertEqual(try self.store.record(id: visit.id).starred, false, "refused: nothing changed")
            let star = try await write("star", mina)
            XCTAssertEqual(star.headers[.location], "/records/\(visit.id)")
            XCTAssertTrue(try self.store.record(id: visit.id).starred)
            let starred = String(buffer: try await client.execute(uri: "/records/\(visit.id)", method: .get, headers: self.headers(cookie: mina.cookie)).body)
            XCTAssertTrue(starred.contains("action=\"/records/\(visit.id)/unstar\""))
            _ = try await write("unstar", mina)
            XCTAssertFalse(try self.store.record(id: visit.id).starred)
            let delete = try await write("delete", mina)
            XCTAssertEqual(delete.headers[.location], "/pets/\(coco.id)")
            XCTAssertEqual(try self.records(coco), [])
            let gone = try await client.execute(uri: "/records/\(visit.id)", method: .get, headers: self.headers(cookie: mina.cookie))
            XCTAssertEqual(gone.status, .notFound)
        }
    }

    func testAnEditReadsItsFieldsAsEditDoesAndIsOneUndoStepNamedWithTheAccount() async throws {
        let mina = try store.addAccount(name: "mina", role: .family, passwordHash: Self.hash, language: "ko")
        _ = try store.addAccount(name: "sitter", role: .viewer, passwordHash: Self.hash)
        var draft = PetDraft()
        draft.name = "Rex"
        draft.species = .dog
        draft.born = PartialDate(year: 2020, month: 1, day: 1)
        let rex = try store.addPet(draft)
        let ago = Date(timeIntervalSinceNow: -10 * 86_400)
        func add(_ detail: RecordDetail) throws -> PetRecord {
            try XCTUnwrap(try store.addRecord(pets: [.id(rex.id)], RecordDraft(at: ago, utcOffset: 0, detail: detail)).first)
        }
        let weight = try add(.weight(Weight(mass: Mass(grams: 5000))))
        let diary = try add(.diary(Diary(text: "hi")))
        let meal = try add(.meal(Meal(food: "kibble", type: .meal, amount: nil)))
        let time = TimeContext(now: Date(), timeZone: TimeZone(identifier: "UTC")!)
        let dose = try VaccineEntry.dose(try VaccineEntry.name("dhpp", asWritten: false), pet: rex, product: nil, lot: nil, clinic: nil, nextDue: nil,
                                         given: (ago, 0), earlier: { [] }, intent: .automatic, time: time)
        let vaccination = try add(.vaccination(dose.vaccination))
        try await Application(router: server.router()).test(.router) { client in
            let who = try await self.signIn(client, "mina")
            let sitter = try await self.signIn(client, "sitter")
            func edit(_ id: String, _ fields: [String: String], _ w: Who? = nil, csrf: String? = nil, origin: String = "http://localhost") async throws -> TestResponse {
                let w = w ?? who
                return try await client.execute(uri: "/records/\(id)/edit", method: .post, headers: self.headers(cookie: w.cookie, origin: origin, form: true),
                                                body: self.formBody(fields.merging(["csrf": csrf ?? w.csrf]) { a, _ in a }))
            }
            // The form, prefilled; a viewer has neither the link nor the form.
            let form = try await client.execute(uri: "/records/\(weight.id)/edit", method: .get, headers: self.headers(cookie: who.cookie))
            XCTAssertEqual(form.status, .ok)
            XCTAssertTrue(String(buffer: form.body).contains("name=\"weight\" value=\"5kg\""), String(buffer: form.body))
            let page = String(buffer: try await client.execute(uri: "/records/\(weight.id)", method: .get, headers: self.headers(cookie: who.cookie)).body)
            XCTAssertTrue(page.contains("href=\"/records/\(weight.id)/edit\""))
            let viewerPage = String(buffer: try await client.execute(uri: "/records/\(weight.id)", method: .get, headers: self.headers(cookie: sitter.cookie)).body)
            XCTAssertFalse(viewerPage.contains("/edit\""))
            let viewerForm = try await client.execute(uri: "/records/\(weight.id)/edit", method: .get, headers: self.headers(cookie: sitter.cookie))
            XCTAssertEqual(viewerForm.status, .forbidden)

            // Refusals change nothing: a viewer, a bad token, a foreign Origin, ids that are not numbers, a bad value, the future.
            let before = try self.store.record(id: weight.id)
            let viewer = try await edit(String(weight.id), ["weight": "4"], sitter)
            XCTAssertEqual(viewer.status, .forbidden)
            let token = try await edit(String(weight.id), ["weight": "4"], csrf: sitter.csrf)
            XCTAssertEqual(token.status, .forbidden)
            let foreign = try await edit(String(weight.id), ["weight": "4"], origin: "http://evil.example")
            XCTAssertEqual(foreign.status, .forbidden)
            for bad in ["..", "%2e%2e", "999999", "1e3", "-1"] {
                let r = try await edit(bad, ["weight": "4"])
                XCTAssertEqual(r.status, .notFound, bad)
            }
            let badValue = try await edit(String(weight.id), ["weight": "무게"])
            XCTAssertEqual(badValue.status, .badRequest)
            var line = ""
            do { _ = try Mass.parse("무게", defaultUnit: .kilogram) } catch let e as ParseError { line = e.message(L10n(.ko)) }
            XCTAssertFalse(line.isEmpty)
            XCTAssertTrue(String(buffer: badValue.body).contains(HTML.escape(line)), "the CLI's line, in the account's language")
            let future = try await edit(String(weight.id), ["at": "2099-01-01"])
            XCTAssertEqual(future.status, .badRequest, "an observation cannot move into the future")
            XCTAssertEqual(try self.store.record(id: weight.id), before, "nothing written")
            XCTAssertNil(try self.store.undoHistory(limit: 1).first, "no undo step")

            // Edits, with Korean and Japanese input; only what was typed anew is read.
            let ok = try await edit(String(weight.id), ["weight": "4.5", "note": "산책 후"])
            XCTAssertEqual(ok.headers[.location], "/records/\(weight.id)", String(buffer: ok.body))
            XCTAssertEqual(try self.store.undoHistory(limit: 1).first?.command, "serve #\(mina.id) (mina): edit \(weight.id)", "undo --list names the account")
            _ = try await edit(String(diary.id), ["text": "오늘은 공원에서 놀았어요", "title": "散歩"])
            _ = try await edit(String(meal.id), ["food": "ドッグフード"])
            // A vaccination moved: its computed next due day moves with it, as `edit ID --at` moves it.
            let current = try self.store.record(id: vaccination.id)
            let newDay = current.localDay.adding(days: -30)
            let expected = VaccinationSchedule.shipped.movedNextDue(current, to: newDay, pet: rex,
                                                                    records: try self.store.records(RecordQuery(pets: [.id(rex.id)], kinds: [.vaccination])))
            let moved = try await edit(String(vaccination.id), ["at": newDay.description])
            XCTAssertEqual(moved.status, .seeOther, String(buffer: moved.body))
            guard case .vaccination(let v) = try self.store.record(id: vaccination.id).detail else { return XCTFail("a vaccination") }
            XCTAssertEqual(try self.store.record(id: vaccination.id).localDay, newDay)
            XCTAssertNotEqual(v.nextDue, dose.vaccination.nextDue, "the due day moved")
            XCTAssertEqual(v.nextDue, expected)
        }
        guard case .weight(let w) = try store.record(id: weight.id).detail else { return XCTFail("a weight") }
        XCTAssertEqual(w.mass.grams, 4500, "a bare number in kilograms")
        XCTAssertEqual(try store.record(id: weight.id).note, "산책 후")
        guard case .diary(let d) = try store.record(id: diary.id).detail else { return XCTFail("a diary") }
        XCTAssertEqual(d.text, "오늘은 공원에서 놀았어요")
        XCTAssertEqual(d.title, "散歩")
        guard case .meal(let m) = try store.record(id: meal.id).detail else { return XCTFail("a meal") }
        XCTAssertEqual(m.food, "ドッグフード")
    }

    func testThePetPagesTimelineComesAPageAtATime() async throws {
        _ = try store.addAccount(name: "mina", role: .family, passwordHash: Self.hash)
        let coco = try addPet("Coco")
        let base = Date(timeIntervalSinceNow: -86_400 * 40)
        for i in 0..<25 {
            _ = try store.addRecord(pets: [.id(coco.id)], RecordDraft(at: base.addingTimeInterval(Double(i) * 86_400), utcOffset: 0,
                                                                       detail: .weight(Weight(mass: Mass(grams: 4000 + i)))))
        }
        let ids = try records(coco).sorted { $0.at > $1.at }.map(\.id)
        try await Application(router: server.router()).test(.router) { client in
            let mina = try await self.signIn(client, "mina")
            let first = String(buffer: try await client.execute(uri: "/pets/\(coco.id)", method: .get, headers: self.headers(cookie: mina.cookie)).body)
            XCTAssertTrue(first.contains("href=\"/records/\(ids[0])\""), "the newest first")
            XCTAssertTrue(first.contains("href=\"/records/\(ids[19])\""))
            XCTAssertFalse(first.contains("href=\"/records/\(ids[20])\""), "20 a page")
            XCTAssertTrue(first.contains("href=\"/pets/\(coco.id)?page=1\""))
            XCTAssertTrue(first.contains("href=\"/pets/\(coco.id)/log?kind=diary\""), "the kind chooser")
            let second = String(buffer: try await client.execute(uri: "/pets/\(coco.id)?page=1", method: .get, headers: self.headers(cookie: mina.cookie)).body)
            XCTAssertTrue(second.contains("href=\"/records/\(ids[24])\""))
            XCTAssertFalse(second.contains("href=\"/records/\(ids[19])\""))
            XCTAssertFalse(second.contains("?page=2"))
            XCTAssertTrue(second.contains("href=\"/pets/\(coco.id)?page=0\""))
            // The month calendar: `calendar Coco --month`'s marks (`w` weight) under the days that have records.
            let month = try self.store.record(id: ids[0]).localDay
            let monthText = String(format: "%04d-%02d", month.year, month.month)
            let cal = String(buffer: try await client.execute(uri: "/pets/\(coco.id)?month=\(monthText)", method: .get, headers: self.headers(cookie: mina.cookie)).body)
            XCTAssertTrue(cal.contains("<table class=\"month\">"))
            XCTAssertTrue(cal.contains("<span class=\"day\">\(month.day)</span><span class=\"marks\" title=\"weight\">\(RecordKind.weight.calendarMark)</span>"), cal)
            let empty = String(buffer: try await client.execute(uri: "/pets/\(coco.id)?month=2001-02", method: .get, headers: self.headers(cookie: mina.cookie)).body)
            XCTAssertFalse(empty.contains("class=\"marks\""), "no records that month")
            XCTAssertTrue(empty.contains("<span class=\"day\">28</span>") && !empty.contains("<span class=\"day\">29</span>"))
        }
    }

    func testAWebWriteIsOneUndoStepNamedWithTheAccountAndOnlyItsOwnLastStepIsUndone() async throws {
        let mina = try store.addAccount(name: "mina", role: .family, passwordHash: Self.hash)
        _ = try store.addAccount(name: "joon", role: .family, passwordHash: Self.hash)
        _ = try store.addAccount(name: "sitter", role: .viewer, passwordHash: Self.hash)
        let coco = try addPet("Coco")
        try await Application(router: server.router()).test(.router) { client in
            let m = try await self.signIn(client, "mina")
            let j = try await self.signIn(client, "joon")
            let v = try await self.signIn(client, "sitter")
            func log(_ who: Who, _ weight: String) async throws {
                let r = try await client.execute(uri: "/pets/\(coco.id)/log", method: .post, headers: self.headers(cookie: who.cookie, form: true),
                                                 body: self.formBody(["kind": "weight", "weight": weight, "csrf": who.csrf]))
                XCTAssertEqual(r.status, .seeOther)
            }
            func undo(_ who: Who, back: String = "/pets/\(coco.id)", origin: String = "http://localhost") async throws -> TestResponse {
                try await client.execute(uri: "/undo", method: .post, headers: self.headers(cookie: who.cookie, origin: origin, form: true),
                                         body: self.formBody(["csrf": who.csrf, "back": back]))
            }
            try await log(m, "4.2kg")
            XCTAssertEqual(try self.store.undoHistory(limit: 1).first?.command, "serve #\(mina.id) (mina): weight", "undo --list names the account")
            let page = String(buffer: try await client.execute(uri: "/pets/\(coco.id)", method: .get, headers: self.headers(cookie: m.cookie)).body)
            XCTAssertTrue(page.contains("action=\"/undo\""), "the undo of the change, on the page it was made from")
            let joonsPage = String(buffer: try await client.execute(uri: "/pets/\(coco.id)", method: .get, headers: self.headers(cookie: j.cookie)).body)
            XCTAssertFalse(joonsPage.contains("action=\"/undo\""), "not another account's step")
            let viewer = try await undo(v)
            XCTAssertEqual(viewer.status, .forbidden)
            let foreign = try await undo(m, origin: "http://evil.example")
            XCTAssertEqual(foreign.status, .forbidden)
            let other = try await undo(j)
            XCTAssertEqual(other.status, .conflict)
            XCTAssertTrue(String(buffer: other.body).contains(HTML.escape(L10n(.en).text(.webUndoNotLast))))
            XCTAssertEqual(try self.records(coco).count, 1, "refused: nothing undone")
            let undone = try await undo(m)
            XCTAssertEqual(undone.status, .seeOther)
            XCTAssertEqual(undone.headers[.location], "/pets/\(coco.id)")
            XCTAssertEqual(try self.records(coco), [], "the weight is undone")

            // Once another change follows (the CLI here), the web change is no longer the last: refused.
            try await log(m, "4.3kg")
            _ = try UndoName.$command.withValue("weight Coco 5kg") {
                try self.store.addRecord(pets: [.id(coco.id)], RecordDraft(at: Date(), utcOffset: 0, detail: .weight(Weight(mass: Mass(grams: 5000)))))
            }
            let late = try await undo(m)
            XCTAssertEqual(late.status, .conflict)
            XCTAssertEqual(try self.records(coco).count, 2)
            // Delete and star are steps of their own; `back` leads only to a page of this site.
            let id = try XCTUnwrap(try self.records(coco).first?.id)
            let star = try await client.execute(uri: "/records/\(id)/star", method: .post, headers: self.headers(cookie: m.cookie, form: true), body: self.formBody(["csrf": m.csrf]))
            XCTAssertEqual(star.status, .seeOther)
            XCTAssertEqual(try self.store.undoHistory(limit: 1).first?.command, "serve #\(mina.id) (mina): star \(id)")
            let away = try await undo(m, back: "//evil.example/pets/1")
            XCTAssertEqual(away.headers[.location], "/")
            XCTAssertFalse(try self.store.record(id: id).starred)
        }
    }

    func testAMedicationDoseIsGivenByItsNameAsMedGiveGivesIt() async throws {
        _ = try store.addAccount(name: "mina", role: .family, passwordHash: Self.hash, language: "ja")
        let coco = try addPet("Coco")
        _ = try store.addRecord(pets: [.id(coco.id)], RecordDraft(at: Date(timeIntervalSinceNow: -86_400), utcOffset: 0,
                                                                   detail: .medication(Medication(name: "アポキル", dose: "5mg", intervalSeconds: 86_400))))
        try await Application(router: server.router()).test(.router) { client in
            let mina = try await self.signIn(client, "mina")
            let form = String(buffer: try await client.execute(uri: "/pets/\(coco.id)/log?kind=dose", method: .get, headers: self.headers(cookie: mina.cookie)).body)
            XCTAssertTrue(form.contains("name=\"name\"") && form.contains("name=\"skipped\""))
            let unknown = try await client.execute(uri: "/pets/\(coco.id)/log", method: .post, headers: self.headers(cookie: mina.cookie, form: true),
                                                   body: self.formBody(["kind": "dose", "name": "ない薬", "csrf": mina.csrf]))
            XCTAssertEqual(unknown.status, .badRequest)
            XCTAssertTrue(String(buffer: unknown.body).contains(HTML.escape(StoreError.medicationNotFound(pet: "Coco", name: "ない薬").recordText(L10n(.ja)) ?? "-")),
                          String(buffer: unknown.body))
            XCTAssertEqual(try self.store.records(RecordQuery(pets: [.id(coco.id)], kinds: [.dose])), [], "nothing written")
            let given = try await client.execute(uri: "/pets/\(coco.id)/log", method: .post, headers: self.headers(cookie: mina.cookie, form: true),
                                                 body: self.formBody(["kind": "dose", "name": "アポキル", "skipped": "1", "note": "吐き出した", "csrf": mina.csrf]))
            XCTAssertEqual(given.status, .seeOther, String(buffer: given.body))
        }
        let doses = try store.records(RecordQuery(pets: [.id(coco.id)], kinds: [.dose]))
        XCTAssertEqual(doses.count, 1)
        XCTAssertEqual(doses.first?.note, "吐き出した")
        if case .dose(let d) = doses.first?.detail { XCTAssertTrue(d.skipped) } else { XCTFail("a dose") }
        XCTAssertEqual(try store.undoHistory(limit: 1).first?.command.hasSuffix("(mina): med give"), true)
    }

    func testAVaccinationByADiseaseNameIsItsCoreVaccineAsOnTheCLI() async throws {
        _ = try store.addAccount(name: "mina", role: .family, passwordHash: Self.hash, language: "ja")
        var draft = PetDraft()
        draft.name = "Rex"
        draft.species = .dog
        draft.born = PartialDate(year: 2020, month: 1, day: 1)
        let rex = try store.addPet(draft)
        try await Application(router: server.router()).test(.router) { client in
            let mina = try await self.signIn(client, "mina")
            let both = try await client.execute(uri: "/pets/\(rex.id)/log", method: .post, headers: self.headers(cookie: mina.cookie, form: true),
                                                body: self.formBody(["kind": "vaccine", "vaccine": "ジステンパー", "booster": "1", "initial": "1", "csrf": mina.csrf]))
            XCTAssertEqual(both.status, .badRequest)
            XCTAssertTrue(String(buffer: both.body).contains(HTML.escape(L10n(.ja).text(.errExclusive(flags: "--booster, --initial")))))
            let lot = try await client.execute(uri: "/pets/\(rex.id)/log", method: .post, headers: self.headers(cookie: mina.cookie, form: true),
                                               body: self.formBody(["kind": "vaccine", "vaccine": "ジステンパー", "lot": String(repeating: "x", count: 500), "csrf": mina.csrf]))
            XCTAssertEqual(lot.status, .badRequest, "a label over its length: the CLI's refusal")
            XCTAssertEqual(try self.records(rex), [])
            let ok = try await client.execute(uri: "/pets/\(rex.id)/log", method: .post, headers: self.headers(cookie: mina.cookie, form: true),
                                              body: self.formBody(["kind": "vaccine", "vaccine": "ジステンパー", "lot": "A12", "csrf": mina.csrf]))
            XCTAssertEqual(ok.status, .seeOther, String(buffer: ok.body))
        }
        let saved = try records(rex)
        guard case .vaccination(let v) = saved.first?.detail else { return XCTFail("a vaccination") }
        let expected = try VaccineEntry.dose(try VaccineEntry.name("ジステンパー", asWritten: false), pet: rex, product: nil, lot: "A12", clinic: nil, nextDue: nil,
                                             given: (saved[0].at, saved[0].utcOffset), earlier: { [] }, intent: .automatic,
                                             time: TimeContext(now: Date(), timeZone: TimeZone(identifier: "UTC")!))
        XCTAssertEqual(v.vaccine, "dhpp", "distemper is a dog's DHPP")
        XCTAssertEqual(v, expected.vaccination)
        XCTAssertNotNil(v.nextDue, "its due day from the schedule")
    }

    func testAVisitWithAttachments() async throws {
        _ = try store.addAccount(name: "mina", role: .family, passwordHash: Self.hash)
        let coco = try addPet("Coco")
        try await Application(router: server.router()).test(.router) { client in
            let mina = try await self.signIn(client, "mina")
            let form = String(buffer: try await client.execute(uri: "/pets/\(coco.id)/log?kind=visit", method: .get, headers: self.headers(cookie: mina.cookie)).body)
            XCTAssertTrue(form.contains("enctype=\"multipart/form-data\"") && form.contains("name=\"attach\" type=\"file\""))
            let fields = ["kind": "visit", "clinic": "행복동물병원", "diagnosis": "외이염", "weight": "9lb 4oz", "follow-up": "2w", "at": "2026-11-20 10:00", "csrf": mina.csrf]
            let bad = try await client.execute(uri: "/pets/\(coco.id)/log", method: .post, headers: self.headers(cookie: mina.cookie, multipart: true),
                                               body: self.multipart(fields.merging(["weight": "heavy"]) { $1 }, files: [("attach", "labs.csv", Array("a,b\n".utf8))]))
            XCTAssertEqual(bad.status, .badRequest)
            XCTAssertEqual(try self.records(coco), [])
            let ok = try await client.execute(uri: "/pets/\(coco.id)/log", method: .post, headers: self.headers(cookie: mina.cookie, multipart: true),
                                              body: self.multipart(fields, files: [("attach", "labs.csv", Array("a,b\n".utf8)), ("attach", "x-ray.pdf", Array("%PDF-1.7\n".utf8))]))
            XCTAssertEqual(ok.status, .seeOther, String(buffer: ok.body))
            let visit = try XCTUnwrap(try self.records(coco).first)
            guard case .visit(let v) = visit.detail else { return XCTFail("a visit") }
            XCTAssertEqual(v.clinic, "행복동물병원"); XCTAssertEqual(v.diagnosis, "외이염")
            XCTAssertEqual(v.weight, try Mass.parse("9lb 4oz", defaultUnit: .kilogram))
            XCTAssertEqual(v.followUp, LocalDate(year: 2026, month: 12, day: 4), "two weeks from the visit's day")
            XCTAssertEqual(visit.attachments.sorted { $0.position < $1.position }.map(\.mediaType), ["text/csv", "application/pdf"])
            let pdf = try await client.execute(uri: "/records/\(visit.id)/files/2", method: .get, headers: self.headers(cookie: mina.cookie))
            XCTAssertEqual(pdf.headers[.contentType], "application/pdf")
            XCTAssertEqual(pdf.headers[.contentDisposition], "inline; filename*=UTF-8''x-ray.pdf")
        }
    }
}
