import Foundation
import GRDB
import XCTest
import PetlogTestSupport
import PetModel
@testable import PetFiles
@testable import PetStoreCore
@testable import PetStoreSQLite

/// Every shipped schema version has a fixture file in `Fixtures/<version>/`, written by the build that
/// shipped it (a demo household plus an archived pet, a photo, a star and a deleted record). Each is
/// upgraded here: backup beside it first, then the current schema, every record kept, `check` clean.
final class MigrationTests: XCTestCase, OnOneStore {
    static let onOneStore = "SQLite: each shipped schema version's file upgraded (the server's migrations: PostgresSchemaTests)"
    var dir: URL!

    override func setUpWithError() throws {
        dir = FileManager.default.temporaryDirectory.appendingPathComponent("petlog-migrate-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(at: dir)
    }

    static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures")

    /// Copies `Fixtures/<version>` (the file and its attachments) into the temporary directory.
    func fixture(_ version: String) throws -> String {
        let source = Self.fixtures.appendingPathComponent(version)
        let target = dir.appendingPathComponent(version)
        try FileManager.default.copyItem(at: source, to: target)
        return target.appendingPathComponent("\(version).sqlite").path
    }

    func testEveryShippedVersionHasAFixture() throws {
        for version in Schema.migrator.migrations {
            XCTAssertTrue(FileManager.default.fileExists(atPath: Self.fixtures.appendingPathComponent("\(version)/\(version).sqlite").path),
                          "ship a fixture for \(version): make it with the build that introduces it")
        }
    }

    static let fixtureRecords = ["v1": 1957, "v2": 1957, "v3": 1957, "v4": 2027, "v5": 2027, "v6": 2027, "v7": 2027, "v8": 2027, "v9": 2027, "v10": 2027, "v11": 2027, "v12": 2027, "v13": 2061, "v14": 2061, "v15": 2061, "v16": 2061, "v17": 2061]

    func testEveryFixtureOpensWithTheCurrentSchemaAndChecksClean() throws {
        for version in Schema.migrator.migrations {
            let database = try AppDatabase.open(path: try fixture(version))
            XCTAssertEqual(try database.appliedMigrations(), Schema.migrator.migrations, version)
            let repo = Store(SQLiteRepository(database))
            XCTAssertEqual(try repo.check(), [], version)
            // Each fixture holds the demo of the build that made it (v4's has a year of spending).
            XCTAssertEqual(try repo.count(RecordQuery()), Self.fixtureRecords[version] ?? 1957, version)
            XCTAssertEqual(try repo.pets(includeArchived: true).map(\.name), ["Coco", "Mochi", "Nabi", "Bori"], version)
        }
    }

    func testV1UpgradesKeepingEveryRecord() throws {
        let path = try fixture("v1")
        let before = try DatabaseQueue(path: path).read { db in
            (try Int.fetchOne(db, sql: "SELECT count(*) FROM record")!,
             try Row.fetchAll(db, sql: "SELECT kind, count(*) AS n, sum(starred) AS s FROM record GROUP BY kind ORDER BY kind").map { "\($0[0] as String) \($0[1] as Int) \($0[2] as Int)" },
             try String.fetchAll(db, sql: "SELECT name FROM pet ORDER BY id"),
             try Int.fetchOne(db, sql: "SELECT max(id) FROM record")!)
        }
        XCTAssertEqual(before.0, 1957)
        let original = try Data(contentsOf: URL(fileURLWithPath: path))

        let database = try AppDatabase.open(path: path)
        XCTAssertEqual(try database.appliedMigrations(), Schema.migrator.migrations)
        let backups = try FileManager.default.contentsOfDirectory(atPath: dir.appendingPathComponent("v1").path).filter { $0.hasPrefix("v1.sqlite.before-") }
        XCTAssertEqual(backups.count, 1)
        let backup = dir.appendingPathComponent("v1/\(backups[0])").path
        XCTAssertEqual(try DatabaseQueue(path: backup).read { db in try String.fetchAll(db, sql: "SELECT identifier FROM grdb_migrations") }, ["v1"])
        XCTAssertEqual((try FileManager.default.attributesOfItem(atPath: backup)[.posixPermissions] as! NSNumber).intValue, 0o600)
        XCTAssertFalse(original.isEmpty)

        try database.dbQueue.read { db in
            XCTAssertEqual(try Int.fetchOne(db, sql: "SELECT count(*) FROM record"), before.0)
            XCTAssertEqual(try Row.fetchAll(db, sql: "SELECT kind, count(*) AS n, sum(starred) AS s FROM record GROUP BY kind ORDER BY kind").map { "\($0[0] as String) \($0[1] as Int) \($0[2] as Int)" }, before.1)
            XCTAssertEqual(try String.fetchAll(db, sql: "SELECT name FROM pet ORDER BY id"), before.2)
            XCTAssertEqual(try Int.fetchOne(db, sql: "SELECT max(id) FROM record"), before.3)
            XCTAssertEqual(try Int.fetchOne(db, sql: "SELECT count(*) FROM pragma_foreign_key_check"), 0)
        }
        let repo = Store(SQLiteRepository(database))
        XCTAssertEqual(try repo.check(), [])
        // The v1 CHECK on kinds still holds after the rebuild, and records still cascade with their pet.
        XCTAssertThrowsError(try database.dbQueue.write { db in
            try db.execute(sql: "INSERT INTO record (pet_id, kind, at, utc_offset, created_at, updated_at) VALUES (1, 'swim', 0, 0, 0, 0)")
        })
        let coco = try repo.pet(.name("Coco"))
        let (_, removed) = try repo.removePet(.id(coco.id))
        XCTAssertGreaterThan(removed, 0)
        try database.dbQueue.read { db in
            XCTAssertEqual(try Int.fetchOne(db, sql: "SELECT count(*) FROM weight w LEFT JOIN record r ON r.id = w.record_id WHERE r.id IS NULL"), 0)
        }
    }

    func testV3DropsThePhotoColumnNothingWrote() throws {
        for version in ["v1", "v2"] {
            let path = try fixture(version)
            let before = try DatabaseQueue(path: path).read { db in
                (try db.columns(in: "pet").map(\.name), try Row.fetchAll(db, sql: "SELECT id, name, species, born, archived_on FROM pet ORDER BY id"))
            }
            XCTAssertTrue(before.0.contains("photo_sha256"), version)
            let database = try AppDatabase.open(path: path)
            try database.dbQueue.read { db in
                XCTAssertEqual(try db.columns(in: "pet").map(\.name),
                               before.0.filter { $0 != "photo_sha256" } + ["allergies", "conditions", "vet_contact", "emergency_contacts", "insurance"]
                                   + ["photo", "photo_type", "photo_size", "photo_sha256"], "\(version) (v15 gave the photo back its column, and the photo)")
                XCTAssertEqual(try Row.fetchAll(db, sql: "SELECT id, name, species, born, archived_on FROM pet ORDER BY id"), before.1, version)
            }
            // The CHECKs that stay still hold.
            XCTAssertThrowsError(try database.dbQueue.write { db in
                try db.execute(sql: "INSERT INTO pet (name, name_key, species, sex, created_at, updated_at) VALUES ('X', 'x', 'dog', 'other', 0, 0)")
            })
        }
    }

    /// v7 rebuilds `record` once more: its kinds are the rows of `record_kind` (a later kind is one insert
    /// there, no rebuild), every record, star and index is kept, the undo and search triggers are made again,
    /// and a grooming is written, found, undone and refused off its table's rules.
    func testV7ListsKindsInATableAndAddsGrooming() throws {
        for version in ["v1", "v4", "v6"] {
            let path = try fixture(version)
            let before = try DatabaseQueue(path: path).read { db in
                try Row.fetchAll(db, sql: "SELECT id, pet_id, kind, at, utc_offset, note, starred, created_at, updated_at FROM record ORDER BY id")
            }
            let database = try AppDatabase.open(path: path)
            try database.dbQueue.read { db in
                XCTAssertEqual(try Row.fetchAll(db, sql: "SELECT id, pet_id, kind, at, utc_offset, note, starred, created_at, updated_at FROM record ORDER BY id"),
                               before, version)
                XCTAssertEqual(try String.fetchAll(db, sql: "SELECT kind FROM record_kind ORDER BY kind"), RecordKind.allCases.map(\.rawValue).sorted())
                XCTAssertEqual(Set(try String.fetchAll(db, sql: "SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = 'record'")),
                               ["record_pet_kind_at", "record_at", "record_starred", "record_events_at", "record_care"], version)
                let triggers = Set(try String.fetchAll(db, sql: "SELECT name FROM sqlite_master WHERE type = 'trigger' AND tbl_name IN ('record', 'grooming')"))
                XCTAssertTrue(triggers.isSuperset(of: ["undo_record_insert", "undo_record_update", "undo_record_delete", "search_record_insert",
                                                       "search_record_update", "search_record_delete", "undo_grooming_insert", "search_grooming_insert"]),
                              "\(version): \(triggers)")
                XCTAssertFalse(try String.fetchOne(db, sql: "SELECT sql FROM sqlite_master WHERE name = 'record'")!.contains("'vaccination'"), version)
            }
            // A kind no row of record_kind names is refused.
            XCTAssertThrowsError(try database.dbQueue.write { db in
                try db.execute(sql: "INSERT INTO record (pet_id, kind, at, utc_offset, created_at, updated_at) VALUES (1, 'swim', 0, 0, 0, 0)")
            }, version)
            let repo = Store(SQLiteRepository(database, undoCommand: "petlog groom Coco bath"))
            let coco = try repo.pet(.name("Coco"))
            let added = try repo.addRecord(pets: [.id(coco.id)], RecordDraft(at: Date(timeIntervalSince1970: 1_763_000_000), utcOffset: 32_400,
                detail: .grooming(Grooming(tasks: [.bath, .nails], groomer: "Zorba Salon", cost: Money(minorUnits: 30_000, currency: .krw)))))
            XCTAssertEqual(try repo.record(id: added[0].id).detail, added[0].detail)
            XCTAssertEqual(try repo.search("zorba", limit: 10).map(\.id), [added[0].id], version)
            XCTAssertTrue(try repo.spending(SpendingQuery(pets: [.id(coco.id)])).contains { $0.recordId == added[0].id && $0.category == "grooming" })
            XCTAssertEqual(try repo.check(), [], version)
            _ = try repo.undo()
            XCTAssertThrowsError(try repo.record(id: added[0].id), version)
            // The table's own rules: tasks are codes, a cost has its currency.
            XCTAssertThrowsError(try database.dbQueue.write { db in
                try db.execute(sql: "INSERT INTO grooming (record_id, tasks) VALUES (1, 'Bath')")
            }, version)
            XCTAssertThrowsError(try database.dbQueue.write { db in
                try db.execute(sql: "INSERT INTO grooming (record_id, cost_minor) VALUES (1, 5)")
            }, version)
        }
    }

    /// v6 adds the health facts: every earlier file's pets get none, their notes stay as they were, and
    /// the remade undo triggers put an edit of the new columns back.
    func testV6AddsHealthFactsKeepingTheNotes() throws {
        for version in ["v1", "v2", "v3", "v4", "v5"] {
            let database = try AppDatabase.open(path: try fixture(version))
            let repo = Store(SQLiteRepository(database, undoCommand: "petlog pet edit Coco --allergy chicken"))
            let coco = try repo.pet(.name("Coco"))
            XCTAssertEqual(coco.notes, "Allergic to chicken. Luxating patella (left, grade 1).", version)
            XCTAssertEqual(coco.health, PetHealth(), version)
            var draft = PetDraft()
            draft.health.addAllergies = ["chicken"]
            draft.health.vetContact = .some(PetContact(name: "Happy Clinic", phone: "02-555-0142"))
            XCTAssertEqual(try repo.editPet(.id(coco.id), draft).health.allergies, ["chicken"], version)
            XCTAssertEqual(try repo.undo()?.command, "petlog pet edit Coco --allergy chicken", version)
            XCTAssertEqual(try repo.pet(.id(coco.id)).health, PetHealth(), version)
            XCTAssertEqual(try repo.check(), [], version)
        }
    }

    /// v8 adds a budget's name, place and people: every earlier file's budgets get none, and the remade
    /// undo triggers put an edit of the new columns back.
    func testV8AddsNamePlaceAndPeopleToEveryEarlierFilesBudgets() throws {
        for version in ["v4", "v5", "v6"] {  // budgets came with v4
            let database = try AppDatabase.open(path: try fixture(version))
            let repo = Store(SQLiteRepository(database, undoCommand: "petlog budget edit 1 --name Trip"))
            let budgets = try repo.budgets()
            XCTAssertFalse(budgets.isEmpty, version)
            XCTAssertTrue(budgets.allSatisfy { $0.budget.name == nil && $0.budget.place == nil && $0.budget.people == nil }, version)
            let id = budgets[0].id
            let (_, after) = try repo.editBudget(id: id, BudgetEdit(name: .some("Trip"), place: .some("서울"), people: .some(2)))
            XCTAssertEqual([after.budget.name, after.budget.place], ["Trip", "서울"], version)
            XCTAssertEqual(after.budget.people, 2, version)
            XCTAssertEqual(try repo.undo()?.command, "petlog budget edit 1 --name Trip", version)
            XCTAssertEqual(try repo.budgets().first { $0.id == id }, budgets[0], version)
            XCTAssertEqual(try repo.check(), [], version)
        }
    }

    /// v9 adds the packed weight series (`weight_chunk`, empty in every earlier file): a chart of an upgraded
    /// file reads what the tables say, packed or not, and an edit or its undo drops the chunks it must.
    func testV9PacksTheWeightSeriesOfEveryEarlierFile() throws {
        for version in ["v1", "v4", "v8"] {
            let database = try AppDatabase.open(path: try fixture(version))
            let engine = SQLiteRepository(database, undoCommand: "petlog edit")
            let repo = Store(engine)
            let coco = try repo.pet(.name("Coco"))
            let tables = { try engine.read { db in try engine.store(db, writing: false).weightSeriesByRows(pet: coco.id, since: nil, until: nil, days: nil) } }
            let before = try tables()
            XCTAssertGreaterThan(before.times.count, 10, version)
            XCTAssertEqual(try repo.weightSeries(pet: coco.id, since: nil, until: nil), before, version)
            try database.dbQueue.write { db in try WeightSeriesCache.fill(db, pet: coco.id, chunkPoints: 4) }
            XCTAssertEqual(try repo.weightSeries(pet: coco.id, since: nil, until: nil), before, version)
            XCTAssertEqual(try repo.check(), [], version)
            let first = try repo.records(RecordQuery(pets: [.id(coco.id)], kinds: [.weight])).min { $0.at < $1.at }!
            _ = try repo.updateRecord(id: first.id) { _ in RecordUpdate(detail: .weight(Weight(mass: Mass(grams: 9999)))) }
            XCTAssertEqual(try repo.weightSeries(pet: coco.id, since: nil, until: nil), try tables(), version)
            XCTAssertNotEqual(try tables(), before, version)
            XCTAssertNotNil(try repo.undo(), version)
            XCTAssertEqual(try repo.weightSeries(pet: coco.id, since: nil, until: nil), before, version)
            XCTAssertEqual(try repo.check(), [], version)
        }
    }

    /// v11 rebuilds `expense` so that a bank transfer is a payment: every earlier file keeps each expense, its
    /// payment, items and split, its search text and undo, and takes `transfer`.
    func testV11KeepsEveryEarlierFilesExpensesAndTakesABankTransfer() throws {
        for version in ["v4", "v5", "v6", "v7", "v8", "v9", "v10"] {
            let path = try fixture(version)
            let before = try DatabaseQueue(path: path).read { db in
                try Row.fetchAll(db, sql: "SELECT record_id, amount_minor, currency, category, merchant, payment, split_of FROM expense ORDER BY record_id")
            }
            let database = try AppDatabase.open(path: path)
            let after = try database.dbQueue.read { db in
                try Row.fetchAll(db, sql: "SELECT record_id, amount_minor, currency, category, merchant, payment, split_of FROM expense ORDER BY record_id")
            }
            XCTAssertEqual(after, before, version)
            XCTAssertFalse(before.isEmpty, "\(version): the fixture has expenses")
            let repo = Store(SQLiteRepository(database))
            XCTAssertEqual(try repo.check(), [], version)
            let id = try XCTUnwrap(before.first?["record_id"] as Int64?)
            try database.dbQueue.write { db in try db.execute(sql: "UPDATE expense SET payment = 'transfer' WHERE record_id = ?", arguments: [id]) }
            XCTAssertEqual(try database.dbQueue.read { db in try String.fetchOne(db, sql: "SELECT payment FROM expense WHERE record_id = ?", arguments: [id]) }, "transfer")
            XCTAssertThrowsError(try database.dbQueue.write { db in try db.execute(sql: "UPDATE expense SET payment = 'cheque' WHERE record_id = ?", arguments: [id]) })
            let triggers = try database.dbQueue.read { db in try String.fetchAll(db, sql: "SELECT name FROM sqlite_master WHERE type = 'trigger' AND tbl_name = 'expense' ORDER BY name") }
            XCTAssertEqual(triggers, ["search_expense_delete", "search_expense_insert", "search_expense_update",
                                      "undo_expense_delete", "undo_expense_insert", "undo_expense_update"], version)
        }
    }

    /// v17 adds the indexes `due` reads from (issue 44): `record_care`, the care kinds' headers with every column
    /// `loadRecords` reads, and the follow-ups and next sessions; every earlier file gains them holding each of its
    /// care records, a record added later is in them, one removed is gone, and `check` stays clean.
    func testV17IndexesTheCareRecordsOfEveryEarlierFile() throws {
        let care = "(kind = 'vaccination' OR kind = 'medication' OR kind = 'dose' OR kind = 'visit' OR kind = 'grooming')"
        for version in ["v1", "v7", "v16"] {
            let database = try AppDatabase.open(path: try fixture(version))
            let repo = Store(SQLiteRepository(database))
            func counts() throws -> [Int] {
                try database.dbQueue.read { db in
                    try ["SELECT count(*) FROM record INDEXED BY record_care WHERE \(care)", "SELECT count(*) FROM record NOT INDEXED WHERE \(care)",
                         "SELECT count(*) FROM visit INDEXED BY visit_follow_up WHERE follow_up IS NOT NULL",
                         "SELECT count(*) FROM visit NOT INDEXED WHERE follow_up IS NOT NULL",
                         "SELECT count(*) FROM grooming INDEXED BY grooming_next_due WHERE next_due IS NOT NULL"].map { try Int.fetchOne(db, sql: $0) ?? -1 }
                }
            }
            let before = try counts()
            XCTAssertGreaterThan(before[0], 0, version)
            XCTAssertEqual(before[0], before[1], version)
            XCTAssertEqual(before[2], before[3], version)
            let coco = try repo.pet(.name("Coco"))
            let added = try repo.addRecord(pets: [.id(coco.id)], RecordDraft(at: Date(timeIntervalSince1970: 1_795_000_000), utcOffset: 0,
                                                                          detail: .visit(Visit(followUp: LocalDate(year: 2026, month: 12, day: 1)))))
            XCTAssertEqual(try counts()[0...3].map { $0 }, [before[0] + 1, before[1] + 1, before[2] + 1, before[3] + 1], version)
            XCTAssertTrue(try repo.careRecords(pets: [coco.id]).contains { $0.id == added[0].id }, version)
            _ = try repo.deleteRecord(id: added[0].id)
            XCTAssertEqual(try counts(), before, version)
            XCTAssertEqual(try repo.check(), [], version)
        }
    }

    /// v16 adds the login throttle's failures (`web_login_failure`) and makes `web_session` anew with its token
    /// hash NOT NULL: a v15 file's live sessions are kept (the same session opens), a row without a token (which
    /// v15 took and nothing could open) goes; every earlier file gains both; the throttle counts, waits and forgets.
    func testV16KeepsTheThrottleInTheFileAndRefusesASessionWithoutAToken() throws {
        for version in ["v1", "v14", "v15"] {
            let path = try fixture(version)
            let token = String(repeating: "0", count: 64), csrf = String(repeating: "1", count: 64)
            if version != "v1" {
                try DatabaseQueue(path: path).write { db in
                    try db.execute(sql: "INSERT INTO web_account (name, name_key, role, password_hash, created_at, password_changed_at) VALUES ('Jun', 'jun', 'family', ?, 0, 0)",
                                   arguments: ["$2b$12$" + String(repeating: "a", count: 53)])
                    let jun = db.lastInsertedRowID
                    try db.execute(sql: "INSERT INTO web_session (token_hash, account_id, csrf, created_at, expires_at) VALUES (?, ?, ?, 0, 9999999999)", arguments: [token, jun, csrf])
                    try db.execute(sql: "INSERT INTO web_session (token_hash, account_id, csrf, created_at, expires_at) VALUES (NULL, ?, ?, 0, 9999999999)", arguments: [jun, csrf])
                    XCTAssertEqual(try Int.fetchOne(db, sql: "SELECT count(*) FROM web_session WHERE token_hash IS NULL"), 1, "\(version) took it")
                }
            }
            let database = try AppDatabase.open(path: path)
            let repo = Store(SQLiteRepository(database))
            try database.dbQueue.read { db in
                XCTAssertEqual(try Int.fetchOne(db, sql: "SELECT count(*) FROM web_login_failure"), 0, version)
                XCTAssertEqual(try Int.fetchOne(db, sql: "SELECT count(*) FROM web_session WHERE token_hash IS NULL"), 0, version)
                XCTAssertEqual(try Int.fetchOne(db, sql: "SELECT \"notnull\" FROM pragma_table_info('web_session') WHERE name = 'token_hash'"), 1, version)
                XCTAssertEqual(try Int.fetchOne(db, sql: "SELECT count(*) FROM sqlite_master WHERE type = 'index' AND name = 'web_session_account'"), 1, version)
            }
            if version != "v1" { XCTAssertEqual(try repo.session(tokenHash: token)?.account.name, "Jun", "\(version): the live session kept") }
            if version != "v1" {
                XCTAssertThrowsError(try database.dbQueue.write { db in
                    try db.execute(sql: "INSERT INTO web_session (token_hash, account_id, csrf, created_at, expires_at) VALUES (NULL, (SELECT id FROM web_account WHERE name_key = 'jun'), ?, 0, 1)",
                                   arguments: [csrf])
                }, version)
            }
            let steps = try repo.undoHistory(limit: 1)
            // The counts: two failures free, then a wait that doubles from the last failure; a success forgets.
            let key = String(repeating: "ab", count: 32), now = Date(timeIntervalSince1970: 2_000_000_000)
            func delay(_ n: Int) -> Int { n < 2 ? 0 : 1 << (n - 2) }
            for _ in 0..<3 { try repo.loginFailed(keys: [key], now: now) }
            XCTAssertEqual(try repo.loginWait(keys: [key], now: now, delay: delay), 2, version)
            XCTAssertEqual(try repo.loginWait(keys: [key], now: now.addingTimeInterval(2), delay: delay), 0, "\(version): waited")
            XCTAssertEqual(try repo.loginWait(keys: [key], now: now.addingTimeInterval(2), delay: delay), 2, "\(version): the try that went ahead took the turn")
            try repo.loginSucceeded(key: key)
            XCTAssertEqual(try repo.loginWait(keys: [key], now: now, delay: delay), 0, version)
            try repo.loginFailed(keys: [key], now: now)
            try repo.loginFailed(keys: [String(repeating: "cd", count: 32)], now: now.addingTimeInterval(86_401))
            XCTAssertEqual(try database.dbQueue.read { try Int.fetchOne($0, sql: "SELECT count(*) FROM web_login_failure") }, 1, "\(version): a key quiet for a day is forgotten")
            XCTAssertEqual(try repo.undoHistory(limit: 1), steps, "\(version): the throttle's writes are no undo step")
            XCTAssertEqual(try repo.check(), [], version)
        }
    }

    /// v15 adds the pet's profile photo (in its row, with its type, size and SHA-256) and an account's calendar
    /// feed token hash: an earlier file's pets have none; a photo set is one `undo` step (the pet's undo triggers
    /// were made anew with the new columns), its CHECKs hold, a feed token is found by its hash only, `check` stays clean.
    func testV15AddsThePetPhotoAndTheFeedTokenToEveryEarlierFile() throws {
        for version in ["v1", "v6", "v14"] {
            let database = try AppDatabase.open(path: try fixture(version))
            let repo = Store(SQLiteRepository(database, undoCommand: "petlog pet edit Coco --photo coco.png"))
            XCTAssertEqual(try repo.pets(includeArchived: true).compactMap(\.photo), [], version)
            let bytes = Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 1, 2, 3])
            let coco = try repo.editPet(.name("Coco"), PetDraft(), photo: .set(bytes, mediaType: "image/png"))
            XCTAssertEqual(coco.photo?.mediaType, "image/png", version)
            XCTAssertEqual(coco.photo?.size, 11, version)
            XCTAssertEqual(coco.photo?.sha256.count, 64, version)
            XCTAssertEqual(try repo.petPhoto(id: coco.id)?.data, bytes, version)
            XCTAssertEqual(try repo.check(), [], version)
            XCTAssertNotNil(try repo.undo(), version)
            XCTAssertNil(try repo.pet(.id(coco.id)).photo, "\(version): undone")
            XCTAssertNil(try repo.petPhoto(id: coco.id), version)
            XCTAssertThrowsError(try database.dbQueue.write { db in try db.execute(sql: "UPDATE pet SET photo_type = 'text/html'") }, version)
            if version != "v14" { _ = try repo.addAccount(name: "Mina", role: .owner, passwordHash: "$2b$12$" + String(repeating: "a", count: 53)) }
            let hash = String(repeating: "ab", count: 32)
            XCTAssertNil(try repo.account(feedTokenHash: hash), version)
            _ = try repo.setFeedToken(name: "mina", tokenHash: hash)
            XCTAssertEqual(try repo.account(feedTokenHash: hash)?.name, "Mina", version)
            XCTAssertThrowsError(try repo.setFeedToken(name: "nobody", tokenHash: hash), version)
        }
    }

    /// v14 adds the accounts and sessions of `petlog serve`: every earlier file gains the empty tables; an account
    /// and its session are kept outside `undo` (an undo after them reverts the household's last change, not them),
    /// a password change ends the sessions, and `check` stays clean.
    func testV14AddsAccountsAndSessionsToEveryEarlierFile() throws {
        for version in ["v1", "v13"] {
            let database = try AppDatabase.open(path: try fixture(version))
            try database.dbQueue.read { db in
                XCTAssertEqual(try Int.fetchOne(db, sql: "SELECT count(*) FROM web_account"), 0, version)
                XCTAssertEqual(try Int.fetchOne(db, sql: "SELECT count(*) FROM web_session"), 0, version)
                XCTAssertEqual(try Int.fetchOne(db, sql: "SELECT count(*) FROM sqlite_master WHERE type = 'trigger' AND tbl_name LIKE 'web\\_%' ESCAPE '\\'"), 0, version)
            }
            let repo = Store(SQLiteRepository(database, undoCommand: "petlog user add"))
            let hash = "$2b$12$" + String(repeating: "a", count: 53)
            let mina = try repo.addAccount(name: "Mina", role: .owner, passwordHash: hash)
            try repo.createSession(tokenHash: String(repeating: "0", count: 64), account: mina.id, csrf: String(repeating: "1", count: 64),
                                   expiresAt: Date().addingTimeInterval(3600))
            XCTAssertEqual(try repo.session(tokenHash: String(repeating: "0", count: 64))?.account, mina, version)
            XCTAssertThrowsError(try repo.addAccount(name: "mina", role: .viewer, passwordHash: hash), version)
            XCTAssertThrowsError(try database.dbQueue.write { db in try db.execute(sql: "UPDATE web_account SET role = 'admin'") }, version)
            XCTAssertThrowsError(try database.dbQueue.write { db in try db.execute(sql: "UPDATE web_account SET password_hash = 'plain'") }, version)
            XCTAssertEqual(try repo.check(), [], version)
            XCTAssertNotEqual(try repo.undoHistory(limit: 1).first?.command, "petlog user add", "\(version): accounts are not undone")
            _ = try repo.setPassword(name: "MINA", passwordHash: hash)
            XCTAssertNil(try repo.session(tokenHash: String(repeating: "0", count: 64)), version)
        }
    }

    /// v13 adds the walk kind: every earlier file gains an empty `walk` table and its `record_kind` row, keeps
    /// its records, takes a walk (exported, undone), and the CHECKs hold the ranges `Walk` reads.
    func testV13AddsTheWalkKindToEveryEarlierFile() throws {
        for version in ["v1", "v7", "v12"] {
            let path = try fixture(version)
            let before = try DatabaseQueue(path: path).read { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM record") }
            let database = try AppDatabase.open(path: path)
            try database.dbQueue.read { db in
                XCTAssertEqual(try Int.fetchOne(db, sql: "SELECT count(*) FROM record"), before, version)
                XCTAssertEqual(try Int.fetchOne(db, sql: "SELECT count(*) FROM walk"), 0, version)
                XCTAssertEqual(try Int.fetchOne(db, sql: "SELECT count(*) FROM record_kind WHERE kind = 'walk'"), 1, version)
            }
            let repo = Store(SQLiteRepository(database, undoCommand: "petlog walk"))
            let draft = RecordDraft(at: Date(timeIntervalSince1970: 1_795_000_000), utcOffset: 32_400, note: "zanzibar trail", detail: .walk(Walk(meters: 2400, minutes: 35)))
            let added = try repo.addRecord(pets: [.name("Coco")], draft)
            XCTAssertEqual(try repo.record(id: added[0].id).detail, .walk(Walk(meters: 2400, minutes: 35)), version)
            XCTAssertEqual(try repo.search("zanzibar", limit: 10).map(\.id), [added[0].id], version)
            XCTAssertThrowsError(try database.dbQueue.write { db in try db.execute(sql: "UPDATE walk SET distance_m = 0") }, version)
            XCTAssertThrowsError(try database.dbQueue.write { db in try db.execute(sql: "UPDATE walk SET duration_min = 1441") }, version)
            XCTAssertEqual(try repo.check(), [], version)
            XCTAssertEqual(try repo.undo()?.command, "petlog walk", version)
            XCTAssertEqual(try database.dbQueue.read { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM walk") }, 0, version)
            XCTAssertEqual(try repo.check(), [], version)
        }
    }

    /// v12 adds a diary entry's title: every earlier file's entries keep their text and mood and have none,
    /// a title is searched, the remade undo triggers put an edit of it back, and the CHECK holds one to 200.
    func testV12AddsATitleToEveryEarlierFilesDiary() throws {
        for version in ["v1", "v7", "v11"] {
            let path = try fixture(version)
            let before = try DatabaseQueue(path: path).read { db in
                try Row.fetchAll(db, sql: "SELECT record_id, text, mood FROM diary ORDER BY record_id")
            }
            XCTAssertFalse(before.isEmpty, "\(version): the fixture has diary entries")
            let database = try AppDatabase.open(path: path)
            let after = try database.dbQueue.read { db in
                try Row.fetchAll(db, sql: "SELECT record_id, text, mood FROM diary ORDER BY record_id")
            }
            XCTAssertEqual(after, before, version)
            XCTAssertEqual(try database.dbQueue.read { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM diary WHERE title IS NOT NULL") }, 0, version)
            let repo = Store(SQLiteRepository(database, undoCommand: "petlog edit --title"))
            let id = try XCTUnwrap(before.first?["record_id"] as Int64?)
            let original = try repo.record(id: id)
            guard case .diary(var d) = original.detail else { return XCTFail("\(version): not a diary entry") }
            XCTAssertNil(d.title, version)
            d.title = "Zanzibarwalk"
            _ = try repo.updateRecord(id: id) { _ in RecordUpdate(detail: .diary(d)) }
            guard case .diary(let edited) = try repo.record(id: id).detail else { return XCTFail(version) }
            XCTAssertEqual(edited.title, "Zanzibarwalk", version)
            XCTAssertEqual(try repo.search("zanzibarwalk", limit: 10).map(\.id), [id], version)
            XCTAssertEqual(try repo.undo()?.command, "petlog edit --title", version)
            XCTAssertEqual(try repo.record(id: id).detail, original.detail, version)
            XCTAssertEqual(try repo.search("zanzibarwalk", limit: 10).map(\.id), [], version)
            XCTAssertThrowsError(try database.dbQueue.write { db in try db.execute(sql: "UPDATE diary SET title = '' WHERE record_id = ?", arguments: [id]) })
            XCTAssertEqual(try repo.check(), [], version)
        }
    }

    func testV5IndexesTheTextOfEveryEarlierFile() throws {
        for version in ["v1", "v2", "v3", "v4"] {
            let database = try AppDatabase.open(path: try fixture(version))
            let repo = Store(SQLiteRepository(database))
            // Quotes in the query are text, not FTS5 syntax.
            let sofa = try repo.search("\"VERY\" happy", limit: 10)
            XCTAssertEqual(sofa.count, 1, version)
            XCTAssertEqual(try repo.search("눈이", limit: 10).map(\.id), sofa.map(\.id), version)
            XCTAssertEqual(try repo.searchPets("coc").map(\.name), ["Coco"], version)
            try database.dbQueue.read { db in
                let rows = try Int.fetchOne(db, sql: "SELECT count(*) FROM search_index") ?? 0
                XCTAssertEqual(rows, try Int.fetchOne(db, sql: "SELECT count(*) FROM (\(SearchIndex.everything))"), version)
                XCTAssertGreaterThan(rows, 100, version)
                XCTAssertEqual(try Int.fetchOne(db, sql: "SELECT count(*) FROM search_stale"), 0, version)
            }
            // v4's undo triggers still record, and an undone change comes back into the index.
            let undoable = Store(SQLiteRepository(database, undoCommand: "petlog diary"))
            _ = try undoable.updateRecord(id: sofa[0].id) { r in RecordUpdate(note: .some("garden"), detail: r.detail) }
            XCTAssertEqual(try repo.search("garden", limit: 10).map(\.id), sofa.map(\.id), version)
            XCTAssertNotNil(try undoable.undo(), version)
            XCTAssertEqual(try repo.search("garden", limit: 10), [], version)
            XCTAssertEqual(try repo.check(), [], version)
        }
    }

    func testV2AllowsTwoActivePetsOfTheSameNameAndAsksForTheNumber() throws {
        let database = try AppDatabase.open(path: dir.appendingPathComponent("p.sqlite").path)
        let repo = Store(SQLiteRepository(database))
        _ = try repo.addPet(PetDraft(name: "Penny", species: .dog))
        try database.dbQueue.write { db in
            try db.execute(sql: "INSERT INTO pet (name, name_key, species, created_at, updated_at) VALUES ('Penny', 'penny', 'ferret', 0, 0)")
        }
        XCTAssertThrowsError(try repo.pet(.name("Penny"))) { error in
            guard case StoreError.ambiguousPetName("Penny", let candidates) = error else { return XCTFail("\(error)") }
            XCTAssertEqual(candidates, ["#2 ferret", "#1 dog"])
        }
        XCTAssertEqual(try repo.pet(.id(2)).species, .ferret)
        XCTAssertThrowsError(try repo.addPet(PetDraft(name: "penny", species: .cat)))
    }
}
