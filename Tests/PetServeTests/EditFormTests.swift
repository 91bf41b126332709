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

/// `GET/POST /records/ID/edit` for every kind, on SQLite and PostgreSQL: the form offers `edit`'s options for the
/// kind (`RecordEdit.fields`, the list `edit` itself refuses any other by), each prefilled with a value `edit`
/// reads back to the record's own; a change is the change `RecordEdit` (the CLI's reader) makes; a bad value is
/// the CLI's line and changes nothing; files are added and taken off as `edit --photo/--attach/--receipt/--detach`.
final class EditFormTests: ServeTestCase, @unchecked Sendable {
    override func setUpWithError() throws {
        try super.setUpWithError()
        store = try XCTUnwrap(try makeStoreKeepingFiles() as? SharedStore.Served)
        server = PetServer(store: SharedStore(store), settings: ServeSettings(timeZone: TimeZone(identifier: "UTC")!))
    }

    let ko = L10n(.ko)
    var time: TimeContext { TimeContext(now: Date(), timeZone: TimeZone(identifier: "UTC")!) }

    /// A small JPEG's first bytes (the type is read from them), as a file to attach.
    func photoFile(_ name: String) throws -> String {
        let dir = NSTemporaryDirectory() + "petlog-edit-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        let path = dir + "/" + name
        FileManager.default.createFile(atPath: path, contents: Data(RecordRouteTests.jpeg + Array(name.utf8)))
        return path
    }

    /// One record of every kind, each with every field `edit` offers set (so each prefilled value shows).
    func everyKind(_ pet: Pet) throws -> [RecordKind: PetRecord] {
        let ago = Date(timeIntervalSinceNow: -10 * 86_400)
        func add(_ detail: RecordDetail, files: [String] = []) throws -> PetRecord {
            try XCTUnwrap(try store.addRecord(pets: [.id(pet.id)], RecordDraft(at: ago, utcOffset: 0, note: "메모", detail: detail, attachmentPaths: files)).first)
        }
        let krw = try XCTUnwrap(Currency.named("KRW")), usd = try XCTUnwrap(Currency.named("USD"))
        let day = try XCTUnwrap(LocalDate(year: 2026, month: 12, day: 24))
        var out: [RecordKind: PetRecord] = [:]
        out[.weight] = try add(.weight(Weight(mass: Mass(grams: 4537), bodyCondition: try BodyConditionScore.parse("5", field: "bcs"))))
        out[.meal] = try add(.meal(Meal(food: "kibble", type: .meal, amount: Amount(value: 80, unit: .g))))
        out[.stool] = try add(.stool(Stool(score: try StoolScore.parse("4", field: "score"))))
        out[.urine] = try add(.urine(Urine(color: "yellow")))
        out[.symptom] = try add(.symptom(Symptom(code: "vomiting", isListed: true, severity: SymptomSeverity(clamping: 3))))
        out[.diary] = try add(.diary(Diary(text: "공원\n두 줄", title: "산책")), files: [try photoFile("park.jpg"), try photoFile("bench.jpg")])
        out[.visit] = try add(.visit(Visit(clinic: "해피동물병원", reason: "checkup", diagnosis: "healthy", treatment: "none", weight: Mass(grams: 4500),
                                           followUp: day, cost: Money(minorUnits: 45_000, currency: krw))), files: [try photoFile("lab.jpg")])
        out[.vaccination] = try add(.vaccination(Vaccination(vaccine: "rabies", lot: "L-1", clinic: "해피동물병원", nextDue: day)))
        out[.medication] = try add(.medication(Medication(name: "Apoquel", dose: "1 tablet")))
        out[.expense] = try add(.expense(Expense(money: Money(minorUnits: 1250, currency: usd), category: "food", merchant: "PetMart", payment: .card,
                                                 items: ["kibble", "treats"])), files: [try photoFile("receipt.jpg")])
        out[.grooming] = try add(.grooming(Grooming(tasks: [.bath, .nails], groomer: "トリマー田中", cost: Money(minorUnits: 30_000, currency: krw), next: day)),
                                 files: [try photoFile("clean.jpg")])
        out[.walk] = try add(.walk(Walk(meters: 3250, minutes: 45)), files: [try photoFile("walk.jpg")])
        // Each call its own course (`med give` finds it by name).
        let course = "Heartgard \(UUID().uuidString.prefix(6))"
        _ = try store.addRecord(pets: [.id(pet.id)], RecordDraft(at: ago.addingTimeInterval(-86_400), utcOffset: 0, detail: .medication(Medication(name: course))))
        out[.dose] = try XCTUnwrap(try store.giveMedication(pets: [.id(pet.id)], name: course, at: ago, utcOffset: 0, note: nil, skipped: false).first)
        XCTAssertEqual(Set(out.keys), Set(RecordKind.allCases), "every kind")
        return out
    }

    /// `RecordEdit` as the web and the CLI make it: `values` by option.
    func reader(_ values: [String: String], payment: String? = nil, _ p: L10n) throws -> RecordEdit {
        try RecordEdit(at: nil, note: nil, pet: nil, values: values,
                       payment: payment.map { raw in ("--payment", { try TypedChoice.value(raw, option: "--payment", group: "payment") as Payment }) },
                       context: RecordEdit.Context(time: time, defaultUnit: .kilogram, language: p.language.rawValue,
                                                   homeCurrency: { Currency.named("KRW")! }, member: { m, raw, kind in
                                                       try PetServer.member(m, raw, kind, self.server.presentation(p.language))
                                                   }))
    }

    func edit(_ client: any TestClientProtocol, _ who: Who, _ id: Int64, _ fields: [String: String]) async throws -> TestResponse {
        try await client.execute(uri: "/records/\(id)/edit", method: .post, headers: self.headers(cookie: who.cookie, form: true),
                                 body: self.formBody(fields.merging(["csrf": who.csrf]) { a, _ in a }))
    }

    // MARK: Tests

    func testEveryKindsFormOffersEditsOptionsEachPrefilledWithTheRecordsValue() async throws {
        _ = try store.addAccount(name: "mina", role: .family, passwordHash: Self.hash, language: "en")
        let coco = try addPet("Coco")
        let bori = try addPet("Bori")
        let records = try everyKind(coco)
        let en = L10n(.en)
        try await Application(router: server.router()).test(.router) { client in
            let mina = try await self.signIn(client, "mina")
            for (kind, r) in records.sorted(by: { $0.key.rawValue < $1.key.rawValue }) {
                let page = try await client.execute(uri: "/records/\(r.id)/edit", method: .get, headers: self.headers(cookie: mina.cookie))
                XCTAssertEqual(page.status, .ok, kind.rawValue)
                let html = String(buffer: page.body)
                let current = RecordEdit.current(r, en)
                for f in RecordEdit.fields(kind) {
                    let v = try XCTUnwrap(current[f.option], "\(kind) \(f.option) has a value")
                    XCTAssertFalse(v.isEmpty, "\(kind) \(f.option): the record has one")
                    switch f.input {
                    case .line: XCTAssertTrue(html.contains("name=\"\(f.name)\" value=\"\(HTML.escape(v))\""), "\(kind) \(f.option) prefilled: \(html)")
                    case .lines: XCTAssertTrue(html.contains("name=\"\(f.name)\">\(HTML.escape(v))</textarea>"), "\(kind) \(f.option)")
                    case .choice: XCTAssertTrue(html.contains("<option value=\"\(v)\" selected>"), "\(kind) \(f.option)")
                    }
                }
                // `--pet`, `--at`, `--note` on every kind; the files `edit` adds to the kind, and `--detach` for each file.
                XCTAssertTrue(html.contains("<option value=\"\(coco.id)\" selected>") && html.contains("<option value=\"\(bori.id)\">"), kind.rawValue)
                XCTAssertTrue(html.contains("name=\"at\" value=\"") && html.contains("name=\"note\">메모</textarea>") || kind == .dose, kind.rawValue)
                let fileField = ["receipt": RecordKind.Files.receipts, "photo": .photos, "attach": .attachments].first { $0.value == kind.files }?.key
                for name in ["receipt", "photo", "attach"] {
                    XCTAssertEqual(html.contains("name=\"\(name)\" type=\"file\""), name == fileField, "\(kind): \(name)")
                }
                for n in r.attachments.indices { XCTAssertTrue(html.contains("name=\"detach-\(n + 1)\""), "\(kind) file \(n + 1)") }
                XCTAssertEqual(html.contains("enctype=\"multipart/form-data\""), kind.files != .none || !r.attachments.isEmpty, kind.rawValue)
            }
        }
        // The values the brief names, as a person reads them.
        func shown(_ k: RecordKind) -> [String: String] { RecordEdit.current(records[k]!, en) }
        XCTAssertEqual(shown(.meal)["--amount"], "80g")
        XCTAssertEqual(shown(.walk)["--distance"], "3.25km")
        XCTAssertEqual(shown(.walk)["--duration"], "45min")
        XCTAssertEqual(shown(.grooming)["--what"], "bath, nails")
        XCTAssertEqual(RecordEdit.current(records[.grooming]!, ko)["--what"], "\(ko.code(.groomingTask, "bath")), \(ko.code(.groomingTask, "nails"))")
        XCTAssertEqual(shown(.visit)["--cost"], "45000 KRW")
        XCTAssertEqual(shown(.expense)["--amount"], "12.50 USD")
        XCTAssertEqual(shown(.expense)["--payment"], "card")
        XCTAssertEqual(shown(.weight)["--weight"], "4.537kg")
    }

    /// Every prefilled value, read by `RecordEdit` as `edit --OPTION VALUE` reads it, is the record's own value:
    /// leaving a field as shown or typing it again changes nothing.
    func testEveryShownValueReadsBackToTheRecordsOwnValue() throws {
        let coco = try addPet("Coco")
        for l in [L10n(.en), ko, L10n(.ja)] {
            for (kind, r) in try everyKind(coco) {
                let current = RecordEdit.current(r, l)
                for f in RecordEdit.fields(kind) {
                    let v = try XCTUnwrap(current[f.option])
                    let edit = f.option == "--payment" ? try reader([:], payment: v, l) : try reader([f.option: v], l)
                    XCTAssertEqual(try edit.changedDetail(r), r.detail, "\(l.language) \(kind) \(f.option) \(v)")
                }
            }
        }
        // The list is `edit`'s: every value option is some kind's, and an option outside a kind's list is refused.
        XCTAssertEqual(Set(RecordKind.allCases.flatMap { RecordEdit.fields($0).map(\.option) }), Set(RecordEdit.options))
        let weight = try XCTUnwrap(try everyKind(coco)[.weight])
        XCTAssertThrowsError(try reader(["--distance": "3km"], ko).changedDetail(weight)) { e in
            XCTAssertEqual(e as? RecordEdit.NotForKind, RecordEdit.NotForKind(flag: "--distance", kind: .weight))
        }
    }

    /// Each kind's change through the form is the change `RecordEdit` makes of the same words, with Korean and
    /// Japanese input, one undo step; `pet` moves the record.
    func testAChangeOfEveryKindIsTheChangeEditMakes() async throws {
        let account = try store.addAccount(name: "mina", role: .family, passwordHash: Self.hash, language: "ko")
        let coco = try addPet("Coco")
        let bori = try addPet("Bori")
        let viaWeb = try everyKind(coco)
        let viaReader = try everyKind(coco)
        let changes: [RecordKind: [String: String]] = [
            .weight: ["--weight": "9lb 4oz", "--bcs": "6"],
            .meal: ["--food": "ドッグフード", "--amount": "1.5cup"],
            .stool: ["--score": "3"],
            .symptom: ["--severity": "4"],
            .diary: ["--text": "오늘은 공원에서 놀았어요", "--title": "散歩"],
            .visit: ["--cost": "4만5천원", "--follow-up": "2w", "--reason": "예방접종", "--weight": "4.4kg"],
            .vaccination: ["--lot": "AB12", "--next": "1y", "--clinic": ""],
            .medication: ["--dose": "1정"],
            .expense: ["--amount": "¥3,200", "--category": "사료", "--merchant": "", "--items": "사료, 간식"],
            .grooming: ["--what": "목욕 발톱 귀", "--cost": "3만원", "--by": "", "--next": "4w"],
            .walk: ["--distance": "5km", "--duration": "1시간 10분"],
        ]
        XCTAssertEqual(Set(changes.keys), Set(RecordKind.allCases.filter { !RecordEdit.fields($0).isEmpty }), "every kind with options")
        try await Application(router: server.router()).test(.router) { client in
            let mina = try await self.signIn(client, "mina")
            for (kind, change) in changes {
                var fields = Dictionary(uniqueKeysWithValues: change.map { (String($0.key.dropFirst(2)), $0.value) })
                if kind == .expense { fields["payment"] = "cash" }
                let r = try await self.edit(client, mina, viaWeb[kind]!.id, fields)
                XCTAssertEqual(r.status, .seeOther, "\(kind): \(String(buffer: r.body))")
                XCTAssertEqual(try self.store.undoHistory(limit: 1).first?.command, "serve #\(account.id) (mina): edit \(viaWeb[kind]!.id)")
                let twin = viaReader[kind]!
                let expected = try XCTUnwrap(try self.reader(change, payment: kind == .expense ? "cash" : nil, self.ko).changedDetail(twin))
                XCTAssertEqual(try self.store.record(id: viaWeb[kind]!.id).detail, expected, kind.rawValue)
            }
            // The pet: `--pet`.
            let moved = try await self.edit(client, mina, viaWeb[.urine]!.id, ["pet": String(bori.id)])
            XCTAssertEqual(moved.status, .seeOther)
            XCTAssertEqual(try self.store.record(id: viaWeb[.urine]!.id).petId, bori.id)
        }
        // Spot checks of what the words mean.
        guard case .meal(let m) = try store.record(id: viaWeb[.meal]!.id).detail, case .walk(let w) = try store.record(id: viaWeb[.walk]!.id).detail,
              case .grooming(let g) = try store.record(id: viaWeb[.grooming]!.id).detail,
              case .expense(let e) = try store.record(id: viaWeb[.expense]!.id).detail,
              case .visit(let v) = try store.record(id: viaWeb[.visit]!.id).detail else { return XCTFail("the kinds") }
        XCTAssertEqual(m.amount, Amount(value: 1.5, unit: .cup))
        XCTAssertEqual(w.meters, 5000); XCTAssertEqual(w.minutes, 70)
        XCTAssertEqual(g.tasks, [.bath, .nails, .ears]); XCTAssertNil(g.groomer); XCTAssertEqual(g.cost?.minorUnits, 30_000)
        XCTAssertEqual(e.payment, .cash); XCTAssertEqual(e.category, "food"); XCTAssertNil(e.merchant); XCTAssertEqual(e.money.currency.code, "JPY")
        XCTAssertEqual(v.cost, Money(minorUnits: 45_000, currency: Currency.named("KRW")!))
    }

    /// A bad value of each kind: the form again with the CLI's line in the account's language, 400, nothing written.
    func testABadValueOfEveryKindIsTheCLIsLineAndChangesNothing() async throws {
        _ = try store.addAccount(name: "mina", role: .family, passwordHash: Self.hash, language: "ko")
        let coco = try addPet("Coco")
        let records = try everyKind(coco)
        func line(_ body: () throws -> Void) -> String {
            do { try body() } catch let e as ParseError { return e.message(ko) } catch let e as Walk.Refusal { return RecordEntry.text(e, ko) } catch let e as RecordEntry.NotOneMeasure {
                return e.text(ko)
            } catch {
                return "\(error)"
            }
            return ""
        }
        let cases: [(RecordKind, [String: String], String)] = [
            (.weight, ["weight": "-3kg"], line { _ = try Mass.parse("-3kg", defaultUnit: .kilogram) }),
            (.meal, ["amount": "lots"], line { _ = try Amount.parse("lots") }),
            (.stool, ["score": "9"], line { _ = try StoolScore.parse("9", field: "--score") }),
            (.symptom, ["severity": "9"], line { _ = try SymptomSeverity.typed("9", field: "--severity") }),
            (.diary, ["text": " "], line { _ = try TextField.text(" ", field: "diary") }),
            (.visit, ["cost": "abc"], line { _ = try MoneyText.parse("abc", defaultCurrency: Currency.named("KRW"), language: "ko") }),
            (.vaccination, ["next": "someday"], line { _ = try TimeParser.day("someday", from: records[.vaccination]!.localDay, context: self.time) }),
            (.expense, ["payment": "bitcoin"], line { _ = try TypedChoice.value("bitcoin", option: "--payment", group: "payment") as Payment }),
            (.grooming, ["what": "목욕 quux"], line { _ = try RecordEntry.groomingTasks(["목욕", "quux"], self.ko) }),
            (.walk, ["distance": "45min"], line { _ = try RecordEntry.walkMeasure("45min", distance: true) }),
            (.walk, ["duration": "fast"], line { _ = try Walk.parse(["fast"]) }),
            (.weight, ["distance": "3km"], ko.text(.errFlagNotForKind(flag: "--distance", kind: ko.code(.kind, "weight")))),
            (.urine, ["at": "2099-01-01"], ""),
            (.medication, ["pet": "999999"], ""),
        ]
        let before = try store.records(RecordQuery(pets: [.id(coco.id)]))
        try await Application(router: server.router()).test(.router) { client in
            let mina = try await self.signIn(client, "mina")
            for (kind, fields, expected) in cases {
                let r = try await self.edit(client, mina, records[kind]!.id, fields)
                XCTAssertEqual(r.status, .badRequest, "\(kind) \(fields)")
                let html = String(buffer: r.body)
                XCTAssertTrue(html.contains("class=\"notice\" role=\"alert\""), "\(kind) \(fields)")
                if !expected.isEmpty { XCTAssertTrue(html.contains(HTML.escape(expected)), "\(kind) \(fields): \(expected) in \(html)") }
                if let first = fields.first, first.value != " ", first.key == "at" || RecordEdit.fields(kind).contains(where: { $0.name == first.key }) {
                    XCTAssertTrue(html.contains(HTML.escape(first.value)), "what was typed is kept")
                }
            }
        }
        XCTAssertEqual(try store.records(RecordQuery(pets: [.id(coco.id)])), before, "nothing written")
        XCTAssertNil(try store.undoHistory(limit: 1).first, "no undo step")
    }

    /// Files: `photo` adds a diary's photos (images by content, as `edit --photo`), `detach-N` takes file N off,
    /// in one step; a script named `.jpg`, a file field the kind does not take, and a viewer change nothing.
    func testFilesAreAddedAndTakenOffAsEditDoes() async throws {
        _ = try store.addAccount(name: "mina", role: .family, passwordHash: Self.hash, language: "ko")
        _ = try store.addAccount(name: "sitter", role: .viewer, passwordHash: Self.hash)
        let coco = try addPet("Coco")
        let records = try everyKind(coco)
        let diary = records[.diary]!
        try await Application(router: server.router()).test(.router) { client in
            let mina = try await self.signIn(client, "mina")
            let sitter = try await self.signIn(client, "sitter")
            func post(_ id: Int64, _ who: Who, _ fields: [String: String], _ files: [(String, String, [UInt8])]) async throws -> TestResponse {
                try await client.execute(uri: "/records/\(id)/edit", method: .post, headers: self.headers(cookie: who.cookie, multipart: true),
                                         body: self.multipart(fields.merging(["csrf": who.csrf]) { a, _ in a }, files: files))
            }
            let script = Array("#!/bin/sh\nrm -rf ~\n".utf8)
            let refused = [
                try await post(diary.id, mina, [:], [("photo", "evil.jpg", script)]),
                try await post(records[.weight]!.id, mina, [:], [("photo", "a.jpg", RecordRouteTests.jpeg)]),
                try await post(records[.visit]!.id, mina, [:], [("photo", "a.jpg", RecordRouteTests.jpeg)]),
            ]
            for r in refused { XCTAssertEqual(r.status, .badRequest, String(buffer: r.body)) }
            XCTAssertTrue(String(buffer: refused[1].body).contains(HTML.escape(self.ko.text(.errFlagNotForKind(flag: "--photo", kind: self.ko.code(.kind, "weight"))))))
            let viewer = try await post(diary.id, sitter, [:], [("photo", "a.jpg", RecordRouteTests.jpeg)])
            XCTAssertEqual(viewer.status, .forbidden)
            XCTAssertEqual(try self.store.record(id: diary.id).attachments.count, 2, "nothing added")

            let ok = try await post(diary.id, mina, ["detach-1": "1", "title": "벤치"], [("photo", "new.jpg", RecordRouteTests.jpeg + [1, 2, 3])])
            XCTAssertEqual(ok.status, .seeOther, String(buffer: ok.body))
            // A visit's attachment of any type, and an expense's receipt.
            let pdf = Array("%PDF-1.4\n%%EOF\n".utf8)
            let visit = try await post(records[.visit]!.id, mina, [:], [("attach", "lab.pdf", pdf)])
            XCTAssertEqual(visit.status, .seeOther, String(buffer: visit.body))
            let receipt = try await post(records[.expense]!.id, mina, [:], [("receipt", "r.pdf", pdf)])
            XCTAssertEqual(receipt.status, .seeOther, String(buffer: receipt.body))
        }
        let after = try store.record(id: diary.id)
        XCTAssertEqual(after.attachments.sorted { $0.position < $1.position }.map(\.originalName), ["bench.jpg", "new.jpg"])
        guard case .diary(let d) = after.detail else { return XCTFail("a diary") }
        XCTAssertEqual(d.title, "벤치", "the fields and the files in one form")
        XCTAssertEqual(try store.record(id: records[.visit]!.id).attachments.count, 2)
        XCTAssertEqual(try store.record(id: records[.expense]!.id).attachments.count, 2)
        // One undo step takes the files back too.
        _ = try store.undo() // the receipt
        _ = try store.undo() // the visit's file
        _ = try store.undo() // the diary
        XCTAssertEqual(try store.record(id: diary.id).attachments.map(\.originalName).sorted(), ["bench.jpg", "park.jpg"])
    }
}
