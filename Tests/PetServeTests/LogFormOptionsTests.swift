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

/// Every argument and option of each kind's logging command (`petlog visit --cost`, `groom --next`) has its field
/// in the kind's web form (`GET /pets/ID/log?kind=…`), by the same name: the commands' options are read from the
/// built `petlog` itself (ArgumentParser's `--experimental-dump-help`), so an option added to a command without
/// its form field fails here.
final class LogFormOptionsTests: ServeTestCase, @unchecked Sendable {
    override func setUpWithError() throws {
        try super.setUpWithError()
        store = try XCTUnwrap(try makeStore() as? SharedStore.Served)
        server = PetServer(store: SharedStore(store), settings: ServeSettings(timeZone: TimeZone(identifier: "UTC")!))
    }

    /// The command that logs each form's kind.
    static let commands: [LogKind: [String]] = [
        .weight: ["weight"], .meal: ["meal"], .stool: ["stool"], .urine: ["urine"], .symptom: ["symptom"], .diary: ["diary"],
        .walk: ["walk"], .groom: ["groom"], .visit: ["visit"], .vaccine: ["vaccine"], .dose: ["med", "give"],
    ]

    /// A command's arguments and options by name (an option's long name, a positional argument's value name).
    func arguments(_ command: [String]) throws -> [String] {
        let p = Process()
        p.executableURL = CLITestCase.binary
        p.arguments = command + ["--experimental-dump-help"]
        let out = Pipe()
        p.standardOutput = out
        p.standardError = FileHandle.nullDevice
        try p.run()
        let data = out.fileHandleForReading.readDataToEndOfFile()
        p.waitUntilExit()
        let json = try XCTUnwrap(try JSONSerialization.jsonObject(with: data) as? [String: Any], String(decoding: data, as: UTF8.self))
        let info = try XCTUnwrap(json["command"] as? [String: Any])
        let args = try XCTUnwrap(info["arguments"] as? [[String: Any]])
        return args.compactMap { a in
            let names = (a["names"] as? [[String: Any]]) ?? []
            if let long = names.first(where: { $0["kind"] as? String == "long" })?["name"] as? String { return long }
            return a["kind"] as? String == "positional" ? a["valueName"] as? String : nil
        }
    }

    /// `petlog edit`'s options are `RecordEdit`'s list (the one the web edit form is made from) and the options every
    /// record takes (`--at`, `--note`, `--pet`, the payment's other names, the files).
    func testEditsOptionsAreRecordEditsList() throws {
        let global = Set(try arguments(["star"])).subtracting(["id"])
        let edit = Set(try arguments(["edit"])).subtracting(global).subtracting(["id"])
        let everyRecord: Set<String> = ["at", "note", "pet", "card", "cash", "receipt", "photo", "attach", "detach"]
        XCTAssertEqual(edit, Set(RecordEdit.options.map { String($0.dropFirst(2)) }).union(everyRecord))
    }

    /// `expense add`'s options against the expense form on `/money` (and its receipt upload); `currency` read as `--currency`.
    func testEveryOptionOfExpenseHasItsFieldInTheExpenseForm() async throws {
        let global = Set(try arguments(["star"])).subtracting(["id"])
        let elsewhere: [String: String] = [
            "words": "the amount: `amount`", "pets": "one pet or the household: `pet`", "card": "a `payment` choice", "cash": "a `payment` choice",
            "as-written": "the category is a choice of the listed ones",
        ]
        _ = try store.addAccount(name: "mina", role: .family, passwordHash: Self.hash)
        try await Application(router: server.router()).test(.router) { client in
            let mina = try await self.signIn(client, "mina")
            let html = String(buffer: try await client.execute(uri: "/money", method: .get, headers: self.headers(cookie: mina.cookie)).body)
            let fields = Set(html.components(separatedBy: " name=\"").dropFirst().map { String($0.prefix { $0 != "\"" }) })
            for o in try self.arguments(["expense", "add"]) where !global.contains(o) && elsewhere[o] == nil {
                XCTAssertTrue(fields.contains(o), "`petlog expense add --\(o)` has no field in the expense form (\(fields.sorted()))")
            }
            let r = try await client.execute(uri: "/expenses", method: .post, headers: self.headers(cookie: mina.cookie, form: true),
                                             body: self.formBody(["amount": "3200", "currency": "JPY", "items": "kibble, treats", "csrf": mina.csrf]))
            XCTAssertEqual(r.status, .seeOther, String(buffer: r.body))
            let bad = try await client.execute(uri: "/expenses", method: .post, headers: self.headers(cookie: mina.cookie, form: true),
                                               body: self.formBody(["amount": "3200", "currency": "XYZ", "csrf": mina.csrf]))
            XCTAssertEqual(bad.status, .badRequest)
            XCTAssertTrue(String(buffer: bad.body).contains(HTML.escape(ParseError.unknownCurrency("XYZ").message(L10n(.en)))))
        }
        let saved = try store.records(RecordQuery(kinds: [.expense]))
        XCTAssertEqual(saved.count, 1, "the bad currency wrote nothing")
        guard case .expense(let e) = saved.first?.detail else { return XCTFail("an expense") }
        XCTAssertEqual(e.money, Money(minorUnits: 3200, currency: Currency.named("JPY")!))
        XCTAssertEqual(e.items, ["kibble", "treats"])
    }

    func testEveryOptionOfAKindsCommandHasItsFieldInTheKindsForm() async throws {
        XCTAssertTrue(FileManager.default.isExecutableFile(atPath: CLITestCase.binary.path), "build petlog first")
        XCTAssertEqual(Set(Self.commands.keys), Set(LogKind.allCases), "every form")
        // Every command's own (`--db`, `--json`, `--lang`, `--help` …): `star ID` has no other.
        let global = Set(try arguments(["star"])).subtracting(["id"])
        // Named otherwise in the form, and why.
        let elsewhere: [String: String] = [
            "pet": "the address: /pets/ID/log",
            "date": "vaccine's other name for --at: the form's `at`",
        ]
        _ = try store.addAccount(name: "mina", role: .family, passwordHash: Self.hash)
        let coco = try addPet("Coco")
        try await Application(router: server.router()).test(.router) { client in
            let mina = try await self.signIn(client, "mina")
            for kind in LogKind.allCases {
                let page = try await client.execute(uri: "/pets/\(coco.id)/log?kind=\(kind.rawValue)", method: .get, headers: self.headers(cookie: mina.cookie))
                let html = String(buffer: page.body)
                let fields = Set(html.components(separatedBy: " name=\"").dropFirst().map { String($0.prefix { $0 != "\"" }) })
                let options = try self.arguments(Self.commands[kind]!).filter { !global.contains($0) && elsewhere[$0] == nil }
                XCTAssertFalse(options.isEmpty, kind.rawValue)
                for o in options {
                    XCTAssertTrue(fields.contains(o), "`petlog \(Self.commands[kind]!.joined(separator: " ")) --\(o)` has no field in the \(kind.rawValue) form (\(fields.sorted()))")
                }
            }
        }
    }
}
