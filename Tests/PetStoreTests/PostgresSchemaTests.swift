import Foundation
import XCTest
import PetlogTestSupport
import PetModel
@testable import PetFiles
@testable import PetStoreCore
@testable import PetStoreSQLite
@testable import PetStorePostgres

/// The `petlog` schema on a real server: migrations once, concurrently, newer refused; connection faults named.
final class PostgresSchemaTests: XCTestCase, OnOneStore {
    static let onOneStore = "PostgreSQL: the server's schema, its migrations and its connection faults (SQLite's: MigrationTests, RecordKindTableTests)"
    func link(_ url: String, env: [String: String] = [:]) throws -> PostgresLink { try connect(url, env: env) }

    func testMigrationsRunOnceAndTheTablesHaveTheirChecks() throws {
        let server = try requireServer()
        let url = try server.newDatabase()
        let l = try link(url)
        let all = PostgresSchema.migrations.map(\.id)
        XCTAssertEqual(all.first, "pg1")
        XCTAssertEqual(try PostgresSchema.migrate(l), all)
        XCTAssertEqual(try PostgresSchema.migrate(l), [])
        XCTAssertEqual(try PostgresSchema.appliedMigrations(l), all)
        let tables = try l.query("SELECT table_name FROM information_schema.tables WHERE table_schema = 'petlog' ORDER BY 1").compactMap { $0[0].text }
        for t in ["pet", "record", "weight", "meal", "stool", "urine", "symptom", "diary", "visit", "vaccination", "medication", "dose",
                  "expense", "expense_item", "attachment", "attachment_chunk", "budget", "exchange_rate", "rates_fetch", "schema_migration"] {
            XCTAssertTrue(tables.contains(t), t)
        }
        // The same CHECKs as SQLite: a weight of 0 g and an unknown kind are refused by the server itself.
        try l.query("INSERT INTO pet (name, name_key, species, created_at, updated_at) VALUES ('Coco', 'coco', 'dog', 0, 0)")
        XCTAssertThrowsError(try l.query("INSERT INTO record (pet_id, kind, at, utc_offset, created_at, updated_at) VALUES (1, 'sneeze', 0, 0, 0, 0)"))
        let id = try l.query("INSERT INTO record (pet_id, kind, at, utc_offset, created_at, updated_at) VALUES (1, 'weight', 0, 0, 0, 0) RETURNING id, written_by")
        XCTAssertEqual(id.first?[1].text, "postgres", "each record names the role that wrote it")
        XCTAssertThrowsError(try l.query("INSERT INTO weight (record_id, grams) VALUES ($1, 0)", [id[0][0]]))
        // A shelter may have two active pets of one name (two "Penny"s), as in SQLite since v2.
        XCTAssertNoThrow(try l.query("INSERT INTO pet (name, name_key, species, created_at, updated_at) VALUES ('coco', 'coco', 'dog', 0, 0)"))
    }

    /// `check`'s queries are anti-joins the planner runs without a subplan per row: `id IN (SELECT …)` inside
    /// a CASE was a SubPlan, re-scanned per record once the detail table outgrew `work_mem` (cost 5.6e9 at
    /// 1M weights). Asserted on the plan's shape (no timing): no SubPlan, an Anti Join per kind. At 1M weights
    /// with the default work_mem the plan is the same (a merge or hash anti join; measured once by hand).
    func testCheckQueriesAreAntiJoinsWithoutASubplanPerRow() throws {
        let server = try requireServer()
        let l = try link(try server.newDatabase())
        try PostgresSchema.migrate(l)
        try l.query("INSERT INTO pet (name, name_key, species, created_at, updated_at) VALUES ('Coco', 'coco', 'dog', 0, 0)")
        try l.query("INSERT INTO record (pet_id, kind, at, utc_offset, created_at, updated_at) SELECT 1, 'weight', g, 0, 0, 0 FROM generate_series(1, 20000) AS g")
        try l.query("INSERT INTO weight (record_id, grams) SELECT id, 4000 FROM record WHERE id % 1000 <> 0")
        try l.query("ANALYZE")
        for sql in [Store.recordsWithoutDetailSQL,
                    "SELECT DISTINCT c.sha256 FROM attachment_chunk c WHERE NOT EXISTS (SELECT 1 FROM attachment a WHERE a.sha256 = c.sha256)"] {
            let plan = try l.query("EXPLAIN " + sql).compactMap { $0[0].text }.joined(separator: "\n")
            XCTAssertFalse(plan.contains("SubPlan"), plan)
            XCTAssertTrue(plan.contains("Anti Join"), plan)
        }
        // And it finds the 20 headers without their weight.
        XCTAssertEqual(try l.query(Store.recordsWithoutDetailSQL).count, 20)
    }

    /// The kind descriptors (`RecordKindTable`) describe the server's tables as they do the SQLite file's,
    /// and the clinical scales' CHECKs refuse what `Score` refuses.
    func testTheKindDescriptorsMatchTheServersTables() throws {
        let server = try requireServer()
        let l = try link(try server.newDatabase())
        try PostgresSchema.migrate(l)
        for k in RecordKindTable.all {
            let columns = try l.query("SELECT column_name FROM information_schema.columns WHERE table_schema = 'petlog' AND table_name = $1 ORDER BY ordinal_position",
                                      [.text(k.table)]).compactMap { $0[0].text }
            XCTAssertEqual(columns, ["record_id"] + k.columns, k.table)
        }
        try l.query("INSERT INTO pet (name, name_key, species, created_at, updated_at) VALUES ('Coco', 'coco', 'dog', 0, 0)")
        func record(_ kind: String) throws -> SQLValue {
            try l.query("INSERT INTO record (pet_id, kind, at, utc_offset, created_at, updated_at) VALUES (1, $1, 0, 0, 0, 0) RETURNING id", [.text(kind)])[0][0]
        }
        let stool = try record("stool"), symptom = try record("symptom"), weight = try record("weight")
        for (score, ok) in [(0, false), (1, true), (8, false)] {
            let insert = { _ = try l.query("INSERT INTO stool (record_id, score) VALUES ($1, $2)", [stool, .int(Int64(score))]) }
            if ok { XCTAssertNoThrow(try insert()); _ = try l.query("DELETE FROM stool WHERE record_id = $1", [stool]) } else { XCTAssertThrowsError(try insert(), "\(score)") }
            XCTAssertEqual(StoolScore(score) != nil, ok)
        }
        XCTAssertThrowsError(try l.query("INSERT INTO symptom (record_id, code, listed, severity) VALUES ($1, 'x', 0, 6)", [symptom]))
        XCTAssertNoThrow(try l.query("INSERT INTO symptom (record_id, code, listed, severity) VALUES ($1, 'x', 0, 5)", [symptom]))
        XCTAssertThrowsError(try l.query("INSERT INTO weight (record_id, grams, body_condition) VALUES ($1, 100, 10)", [weight]))
        XCTAssertNoThrow(try l.query("INSERT INTO weight (record_id, grams, body_condition) VALUES ($1, 100, 9)", [weight]))
    }

    /// Writes queue for the database's writer turn (a session advisory lock taken before the transaction):
    /// a write waits while another holds it, at most its link's budget in total, then fails as busy (55P03)
    /// with nothing written; the turn is given back after a write, committed or not.
    func testWritesQueueForTheWriterTurnWithinTheirBudget() throws {
        let server = try requireServer()
        let url = try server.newDatabase()
        let target = try PostgresTarget.parse(url, environment: [:], home: "/nonexistent")
        let holder = try connect(url)
        try PostgresSchema.migrate(holder)
        let key = SQLValue.int(PostgresLink.writerTurnKey)
        func turnIsFree() throws -> Bool {
            let free = try holder.query("SELECT pg_try_advisory_lock($1)", [key]).first?.first?.int == 1
            if free { try holder.query("SELECT pg_advisory_unlock($1)", [key]) }
            return free
        }
        @Sendable func insertPet(_ link: PostgresLink, _ name: String) throws {
            try link.transaction(.write) {
                try link.query("INSERT INTO pet (name, name_key, species, created_at, updated_at) VALUES ($1, $1, 'dog', 0, 0)", [.text(name)])
            }
        }

        // Held by another session: the write waits its whole budget (1 s) in the server's lock queue, then is
        // refused as busy by the server's lock timeout. No clock decides: the message says who refused.
        try holder.query("SELECT pg_advisory_lock($1)", [key])
        let patient = try PostgresLink(target, waitLimit: 1)
        XCTAssertThrowsError(try insertPet(patient, "Never")) { error in
            guard case .server("55P03", let message)? = error as? PostgresFault else { return XCTFail("\(error)") }
            XCTAssertTrue(message.contains("lock timeout"), "waited in the server's queue: \(message)")
        }
        // The budget is the command's in total: a second write gives up at once, without queueing again.
        XCTAssertThrowsError(try insertPet(patient, "Never")) { error in
            guard case .server("55P03", let message)? = error as? PostgresFault else { return XCTFail("\(error)") }
            XCTAssertEqual(message, "the writer turn stayed busy", "the budget was already spent")
        }

        // Given back within the budget: the queued write goes on and commits. The turn is given back once
        // the server shows the write waiting for it (a lock not granted); a minute is only a failure guard.
        let queued = try PostgresLink(target, waitLimit: 60)
        let done = DispatchSemaphore(value: 0)
        let outcome = Locked<Error?>(nil)
        DispatchQueue.global().async {
            do { try insertPet(queued, "Queued") } catch { outcome.update { $0 = error } }
            done.signal()
        }
        try holder.query("""
            DO $$ BEGIN FOR i IN 1..6000 LOOP
              EXIT WHEN EXISTS (SELECT 1 FROM pg_locks WHERE locktype = 'advisory' AND NOT granted);
              PERFORM pg_sleep(0.01);
            END LOOP; END $$
            """)
        XCTAssertEqual(try holder.query("SELECT count(*) FROM pg_locks WHERE locktype = 'advisory' AND NOT granted").first?.first?.int, 1,
                       "the write queued for the turn")
        try holder.query("SELECT pg_advisory_unlock($1)", [key])
        XCTAssertEqual(done.wait(timeout: .now() + 60), .success)
        XCTAssertNil(outcome.value)
        XCTAssertEqual(try holder.query("SELECT name FROM pet ORDER BY id").compactMap { $0[0].text }, ["Queued"])

        // The turn is free after a write that committed and after one that failed.
        XCTAssertTrue(try turnIsFree())
        XCTAssertThrowsError(try queued.transaction(.write) { try queued.query("SELECT 1/0") })
        XCTAssertTrue(try turnIsFree())
        // Reads never take it.
        try holder.query("SELECT pg_advisory_lock($1)", [key])
        XCTAssertEqual(try queued.transaction(.read) { try queued.query("SELECT count(*) FROM pet") }.first?.first?.int, 1)
        try holder.query("SELECT pg_advisory_unlock($1)", [key])
    }

    func testSeveralClientsStartingAtOnceMigrateOnce() throws {
        let server = try requireServer()
        let url = try server.newDatabase()
        let results = LockedList<Result<[String], Error>>()
        DispatchQueue.concurrentPerform(iterations: 6) { _ in
            do {
                let l = try connect(url)
                results.append(.success(try PostgresSchema.migrate(l)))
            } catch {
                results.append(.failure(error))
            }
        }
        let applied = results.items.compactMap { try? $0.get() }
        XCTAssertEqual(applied.count, 6, "\(results.items)")
        let all = PostgresSchema.migrations.map(\.id)
        XCTAssertEqual(applied.filter { !$0.isEmpty }, [all], "exactly one client applied the migrations")
        XCTAssertEqual(try PostgresSchema.appliedMigrations(link(url)), all)
    }

    func testASchemaFromANewerPetlogIsRefusedUntouched() throws {
        let server = try requireServer()
        let url = try server.newDatabase()
        let l = try link(url)
        try PostgresSchema.migrate(l)
        try l.query("INSERT INTO petlog.schema_migration (identifier) VALUES ('pg99')")
        let before = try l.query("SELECT count(*) FROM information_schema.tables WHERE table_schema = 'petlog'")
        XCTAssertThrowsError(try PostgresSchema.migrate(l)) { e in
            guard case StoreError.newerSchema(let where_, let found)? = e as? StoreError else { return XCTFail("\(e)") }
            XCTAssertEqual(found, ["pg99"])
            XCTAssertEqual(where_, url, "the server named as typed (this URL has no password)")
        }
        XCTAssertEqual(try l.query("SELECT count(*) FROM information_schema.tables WHERE table_schema = 'petlog'"), before)
    }

    /// pg8 lets a bank transfer be a payment: a schema of pg7 with an expense upgrades, keeps the payment and
    /// takes `transfer`; a word outside the four is still refused by the server.
    func testPg8TakesABankTransferAsAPayment() throws {
        let server = try requireServer()
        let owner = try link(try server.newDatabase())
        try migrate(owner, first: 7)
        try owner.execute(script: """
            SET search_path = petlog;
            INSERT INTO record (id, kind, at, utc_offset, created_at, updated_at) VALUES (1, 'expense', 1700000000, 0, 0, 0);
            INSERT INTO expense (record_id, amount_minor, currency, category, payment) VALUES (1, 5000, 'KRW', 'food', 'card');
            """)
        XCTAssertThrowsError(try owner.query("UPDATE petlog.expense SET payment = 'transfer'"), "pg7 refuses it")
        try PostgresSchema.migrate(owner)
        XCTAssertEqual(try owner.query("SELECT payment FROM petlog.expense").first?.first?.text, "card")
        try owner.query("UPDATE petlog.expense SET payment = 'transfer'")
        XCTAssertEqual(try owner.query("SELECT payment FROM petlog.expense").first?.first?.text, "transfer")
        XCTAssertThrowsError(try owner.query("UPDATE petlog.expense SET payment = 'cheque'"))
    }

    /// pg9 adds a diary entry's title: a schema of pg8 with an entry upgrades, keeps its text with no title,
    /// takes one, and the server refuses an empty one.
    func testPg9AddsATitleToAnEarlierDiary() throws {
        let server = try requireServer()
        let owner = try link(try server.newDatabase())
        try migrate(owner, first: 8)
        try owner.execute(script: """
            SET search_path = petlog;
            INSERT INTO pet (name, name_key, species, created_at, updated_at) VALUES ('Coco', 'coco', 'dog', 0, 0);
            INSERT INTO record (id, pet_id, kind, at, utc_offset, created_at, updated_at) VALUES (1, 1, 'diary', 1700000000, 0, 0, 0);
            INSERT INTO diary (record_id, text) VALUES (1, 'first snow');
            """)
        XCTAssertThrowsError(try owner.query("UPDATE petlog.diary SET title = 'Snow'"), "pg8 has no title")
        XCTAssertEqual(try PostgresSchema.migrate(owner), Array(PostgresSchema.migrations.map(\.id).dropFirst(8)))
        XCTAssertEqual(try owner.query("SELECT text FROM petlog.diary").first?.first?.text, "first snow")
        XCTAssertEqual(try owner.query("SELECT count(*) FROM petlog.diary WHERE title IS NULL").first?.first?.int, 1)
        try owner.query("UPDATE petlog.diary SET title = 'Snow'")
        XCTAssertEqual(try owner.query("SELECT title FROM petlog.diary").first?.first?.text, "Snow")
        XCTAssertThrowsError(try owner.query("UPDATE petlog.diary SET title = ''"))
    }

    /// pg10 adds the walk kind to a pg9 database: its `record_kind` row and table, the bulk load's table list
    /// and the undo trigger; the server refuses values off `Walk`'s ranges. Applied in one transaction with the
    /// others, the migrations still list in this build's order (pg10 after pg9, not after pg1).
    func testPg10AddsTheWalkKind() throws {
        let server = try requireServer()
        let owner = try link(try server.newDatabase())
        try migrate(owner, first: 9)
        try owner.execute(script: """
            SET search_path = petlog;
            INSERT INTO pet (name, name_key, species, created_at, updated_at) VALUES ('Coco', 'coco', 'dog', 0, 0);
            INSERT INTO record (id, pet_id, kind, at, utc_offset, created_at, updated_at) VALUES (1, 1, 'diary', 1700000000, 0, 0, 0);
            INSERT INTO diary (record_id, text) VALUES (1, 'first snow');
            """)
        XCTAssertThrowsError(try owner.query("INSERT INTO petlog.record (id, pet_id, kind, at, utc_offset, created_at, updated_at) VALUES (2, 1, 'walk', 1700000000, 0, 0, 0)"),
                             "pg9 has no walk kind")
        XCTAssertEqual(try PostgresSchema.migrate(owner), Array(PostgresSchema.migrations.map(\.id).dropFirst(9)))
        XCTAssertEqual(try PostgresSchema.appliedMigrations(owner).dropLast(PostgresSchema.migrations.count - 10).last, "pg10")
        try owner.execute(script: """
            SET search_path = petlog;
            INSERT INTO record (id, pet_id, kind, at, utc_offset, created_at, updated_at) VALUES (2, 1, 'walk', 1700000000, 0, 0, 0);
            INSERT INTO walk (record_id, distance_m, duration_min) VALUES (2, 3200, 45);
            """)
        XCTAssertEqual(try owner.query("SELECT distance_m, duration_min FROM petlog.walk").first?.map(\.int), [3200, 45])
        XCTAssertThrowsError(try owner.query("UPDATE petlog.walk SET distance_m = 200001"))
        XCTAssertThrowsError(try owner.query("UPDATE petlog.walk SET duration_min = 0"))
        XCTAssertEqual(try owner.query("SELECT count(*) FROM unnest(petlog.bulk_tables()) AS t WHERE t = 'petlog.walk'::regclass").first?.first?.int, 1)
        // A fresh database applies every migration in one transaction: they list in this build's order.
        let fresh = try link(try server.newDatabase())
        try PostgresSchema.migrate(fresh)
        XCTAssertEqual(try PostgresSchema.appliedMigrations(fresh), PostgresSchema.migrations.map(\.id))
        XCTAssertEqual(try PostgresSchema.migrate(fresh), [])
    }

    /// pg11 adds the accounts and sessions of `petlog serve` to a pg10 database: names unique by their key, a
    /// bcrypt hash's length, a session gone with its account; no undo trigger (they are not the household's records).
    func testPg11AddsAccountsAndSessions() throws {
        let server = try requireServer()
        let owner = try link(try server.newDatabase())
        try migrate(owner, first: 10)
        XCTAssertThrowsError(try owner.query("SELECT 1 FROM petlog.web_account"), "pg10 has no accounts")
        XCTAssertEqual(try PostgresSchema.migrate(owner), ["pg11", "pg12", "pg13", "pg14"])
        let hash = "$2b$12$" + String(repeating: "a", count: 53)
        try owner.execute(script: """
            SET search_path = petlog;
            INSERT INTO web_account (name, name_key, role, password_hash, created_at, password_changed_at) VALUES ('Mina', 'mina', 'owner', '\(hash)', 0, 0);
            INSERT INTO web_session (token_hash, account_id, csrf, created_at, expires_at) VALUES ('\(String(repeating: "0", count: 64))', 1, '\(String(repeating: "1", count: 64))', 0, 10);
            """)
        XCTAssertThrowsError(try owner.query("INSERT INTO petlog.web_account (name, name_key, role, password_hash, created_at, password_changed_at) VALUES ('MINA', 'mina', 'viewer', '\(hash)', 0, 0)"))
        XCTAssertThrowsError(try owner.query("INSERT INTO petlog.web_account (name, name_key, role, password_hash, created_at, password_changed_at) VALUES ('Jun', 'jun', 'admin', '\(hash)', 0, 0)"))
        XCTAssertThrowsError(try owner.query("INSERT INTO petlog.web_account (name, name_key, role, password_hash, created_at, password_changed_at) VALUES ('Jun', 'jun', 'viewer', 'plain', 0, 0)"))
        XCTAssertEqual(try owner.query("SELECT count(*) FROM pg_trigger WHERE tgrelid IN ('petlog.web_account'::regclass, 'petlog.web_session'::regclass) AND NOT tgisinternal").first?.first?.int, 0)
        try owner.query("DELETE FROM petlog.web_account")
        XCTAssertEqual(try owner.query("SELECT count(*) FROM petlog.web_session").first?.first?.int, 0, "sessions go with their account")
    }

    /// A volunteer reads every record but no account's password hash and no session, whether `init-roles`
    /// ran before pg11 (its default privileges reach the new tables) or after (its grants on all tables).
    func testVolunteersReadNoAccountOrSession() throws {
        try TestServer.shared().holdRoles(for: self)
        let server = try requireServer()
        for rolesFirst in [true, false] {
            let owner = try link(try server.newDatabase())
            if rolesFirst {
                try migrate(owner, first: 10)
                try owner.execute(script: PostgresRoles.sql)
                XCTAssertEqual(try PostgresSchema.migrate(owner), ["pg11", "pg12", "pg13", "pg14"])
            } else {
                _ = try PostgresSchema.migrate(owner)
                try owner.execute(script: PostgresRoles.sql)
            }
            func may(_ table: String) throws -> Int64? {
                try owner.query("SELECT has_table_privilege('petlog_volunteer', 'petlog.\(table)', 'SELECT')").first?.first?.int
            }
            XCTAssertEqual(try may("pet"), 1, "roles first: \(rolesFirst)")
            XCTAssertEqual(try may("web_account"), 0, "roles first: \(rolesFirst)")
            XCTAssertEqual(try may("web_session"), 0, "roles first: \(rolesFirst)")
            XCTAssertEqual(try may("web_login_failure"), 0, "roles first: \(rolesFirst)")
        }
    }

    /// pg12 adds the pet's profile photo to a pg11 database (its type checked, the row's undo trigger kept) and an
    /// account's feed token hash (unique, 64 hex); staff may change it (a server's "new calendar address"),
    /// whether `init-roles` ran before pg12 or after; a volunteer still reads no account.
    func testPg12AddsThePetPhotoAndTheFeedToken() throws {
        try TestServer.shared().holdRoles(for: self)
        let server = try requireServer()
        for rolesFirst in [true, false] {
            let owner = try link(try server.newDatabase())
            try migrate(owner, first: 11)
            if rolesFirst { try owner.execute(script: PostgresRoles.sql) }
            XCTAssertEqual(try PostgresSchema.migrate(owner), ["pg12", "pg13", "pg14"])
            if !rolesFirst { try owner.execute(script: PostgresRoles.sql) }
            let hash = "$2b$12$" + String(repeating: "a", count: 53)
            try owner.execute(script: """
                SET search_path = petlog;
                INSERT INTO pet (name, name_key, species, created_at, updated_at) VALUES ('Coco', 'coco', 'dog', 0, 0);
                UPDATE pet SET photo = '\\x89504e47', photo_type = 'image/png', photo_size = 4, photo_sha256 = '\(String(repeating: "0", count: 64))';
                INSERT INTO web_account (name, name_key, role, password_hash, created_at, password_changed_at) VALUES ('Mina', 'mina', 'owner', '\(hash)', 0, 0);
                UPDATE web_account SET feed_token_hash = '\(String(repeating: "1", count: 64))';
                """)
            XCTAssertEqual(try owner.query("SELECT octet_length(photo) FROM petlog.pet").first?.first?.int, 4)
            XCTAssertThrowsError(try owner.query("UPDATE petlog.pet SET photo_type = 'text/html'"))
            XCTAssertThrowsError(try owner.query("UPDATE petlog.web_account SET feed_token_hash = 'short'"))
            func may(_ role: String, _ column: String, _ what: String) throws -> Int64? {
                try owner.query("SELECT has_column_privilege('\(role)', 'petlog.web_account', '\(column)', '\(what)')").first?.first?.int
            }
            XCTAssertEqual(try may("petlog_staff", "feed_token_hash", "UPDATE"), 1, "roles first: \(rolesFirst)")
            XCTAssertEqual(try may("petlog_staff", "feed_token_hash", "SELECT"), 1, "roles first: \(rolesFirst)")
            XCTAssertEqual(try may("petlog_volunteer", "feed_token_hash", "SELECT"), 0, "roles first: \(rolesFirst)")
        }
    }

    /// pg13 adds the login throttle's failures to a pg12 database (a key's SHA-256, its count, its last failure):
    /// a server run as staff keeps them and may set an account's page language, a volunteer reads neither the
    /// failures nor an account, whether `init-roles` ran before pg13 or after; `backup` as a volunteer leaves
    /// the table out of its `pg_dump` line.
    func testPg13AddsTheLoginFailures() throws {
        try TestServer.shared().holdRoles(for: self)
        let server = try requireServer()
        for rolesFirst in [true, false] {
            let owner = try link(try server.newDatabase())
            try migrate(owner, first: 12)
            if rolesFirst { try owner.execute(script: PostgresRoles.sql) }
            XCTAssertEqual(try PostgresSchema.migrate(owner), ["pg13", "pg14"])
            if !rolesFirst { try owner.execute(script: PostgresRoles.sql) }
            try owner.query("INSERT INTO petlog.web_login_failure (key_hash, failures, last_at) VALUES ($1, 1, 0)", [.text(String(repeating: "a", count: 64))])
            XCTAssertThrowsError(try owner.query("INSERT INTO petlog.web_login_failure (key_hash, failures, last_at) VALUES ('short', 1, 0)"))
            XCTAssertThrowsError(try owner.query("INSERT INTO petlog.web_login_failure (key_hash, failures, last_at) VALUES ($1, 0, 0)", [.text(String(repeating: "b", count: 64))]))
            func may(_ role: String, _ what: String) throws -> Int64? {
                try owner.query("SELECT has_table_privilege('\(role)', 'petlog.web_login_failure', '\(what)')").first?.first?.int
            }
            for what in ["SELECT", "INSERT", "UPDATE", "DELETE"] { XCTAssertEqual(try may("petlog_staff", what), 1, "\(what), roles first: \(rolesFirst)") }
            XCTAssertEqual(try may("petlog_volunteer", "SELECT"), 0, "roles first: \(rolesFirst)")
            XCTAssertEqual(try owner.query("SELECT has_column_privilege('petlog_staff', 'petlog.web_account', 'language', 'UPDATE')").first?.first?.int, 1,
                           "roles first: \(rolesFirst)")
            XCTAssertEqual(try owner.query("SELECT has_table_privilege('petlog_volunteer', 'petlog.web_account', 'SELECT')").first?.first?.int, 0)
        }
        XCTAssertTrue(PostgresRepository.dumpCommand(try PostgresTarget.parse("postgres://v@/petlog", environment: [:]), to: "x.dump", withoutAccounts: true)
            .contains("--exclude-table=petlog.web_login_failure"))
    }

    /// pg14's `bulk_end` (issue 44): each key to a table the load filled is checked with hash joins off (a merge of
    /// the two indexes, not every record hashed in batches), a key to a small table as before; whichever way, an
    /// orphan the load brought is still refused, every key comes back validated, the caller's `enable_hashjoin`
    /// (on or off) is as it was, and the statistics it takes are the small sample (target 10: at most 11
    /// histogram bounds of `record.at`, where the server's default target keeps 101) that autovacuum redoes.
    func testPg14BulkEndChecksEveryKeyByMergeAndLeavesTheSessionAsItWas() throws {
        let server = try requireServer()
        let owner = try link(try server.newDatabase())
        try migrate(owner, first: 13)
        XCTAssertEqual(try PostgresSchema.migrate(owner), ["pg14"])
        try owner.query("INSERT INTO petlog.pet (name, name_key, species, created_at, updated_at) VALUES ('Coco', 'coco', 'dog', 0, 0)")
        let keys = try owner.query("SELECT count(*) FROM pg_constraint WHERE contype = 'f' AND conrelid = ANY (petlog.bulk_tables())").first?.first?.int
        func load(orphan: String?, hashing: String) throws {
            try owner.execute(script: """
                BEGIN; SET LOCAL enable_hashjoin = \(hashing); SELECT petlog.bulk_begin();
                INSERT INTO petlog.record (id, pet_id, kind, at, utc_offset, created_at, updated_at)
                  SELECT g, 1, CASE WHEN g % 10 = 0 THEN 'symptom' ELSE 'weight' END, g * 60, 0, 0, 0 FROM generate_series(1, 3000) AS g;
                INSERT INTO petlog.weight (record_id, grams) SELECT id, 4000 FROM petlog.record WHERE kind = 'weight';
                INSERT INTO petlog.symptom (record_id, code, listed, severity) SELECT id, 'vomiting', 1, 2 FROM petlog.record WHERE kind = 'symptom';
                \(orphan ?? "")
                SELECT petlog.bulk_end();
                """)
        }
        for (orphan, what) in [("INSERT INTO petlog.weight (record_id, grams) VALUES (999999, 4000);", "a weight without its record"),
                               ("INSERT INTO petlog.symptom (record_id, code, listed, severity) VALUES (999998, 'cough', 1, 2);", "a symptom without its record"),
                               ("INSERT INTO petlog.record (id, pet_id, kind, at, utc_offset, created_at, updated_at) VALUES (999997, 7, 'diary', 0, 0, 0, 0);"
                                + " INSERT INTO petlog.diary (record_id, text) VALUES (999997, 'x');", "a record of no pet")] {
            XCTAssertThrowsError(try load(orphan: orphan, hashing: "on"), what)
            try owner.execute(script: "ROLLBACK")
            XCTAssertEqual(try owner.query("SELECT count(*) FROM petlog.record").first?.first?.int, 0, what)
        }
        for hashing in ["off", "on"] {
            try load(orphan: nil, hashing: hashing)
            XCTAssertEqual(try owner.query("SELECT current_setting('enable_hashjoin'), current_setting('default_statistics_target')").first?.compactMap(\.text),
                           [hashing, "100"], "the session's settings as they were")
            XCTAssertEqual(try owner.query("""
                SELECT count(*) FILTER (WHERE convalidated), count(*) FROM pg_constraint WHERE contype = 'f' AND conrelid = ANY (petlog.bulk_tables())
                """).first?.compactMap(\.int), [keys, keys].compactMap { $0 }, "every key back, validated")
            XCTAssertEqual(try owner.query("SELECT count(*) FROM petlog.bulk_saved").first?.first?.int, 0)
            let bounds = try owner.query("SELECT array_length(histogram_bounds::text::bigint[], 1) FROM pg_stats WHERE schemaname = 'petlog' AND tablename = 'record' AND attname = 'at'")
            XCTAssertEqual(bounds.first?.first?.int, 11, "bulk_end's sample")
            try owner.execute(script: "ROLLBACK")
        }
    }

    /// The `petlog` schema as a petlog of the first `count` migrations left it: the earlier database a later
    /// migration upgrades.
    func migrate(_ owner: PostgresLink, first count: Int) throws {
        try owner.execute(script: """
            CREATE SCHEMA petlog; SET search_path = petlog;
            CREATE TABLE petlog.schema_migration (identifier text PRIMARY KEY, applied_at timestamptz NOT NULL DEFAULT now());
            """)
        for m in PostgresSchema.migrations.prefix(count) {
            try owner.execute(script: "SET search_path = petlog;\n" + m.sql)
            try owner.query("INSERT INTO petlog.schema_migration (identifier) VALUES ($1)", [.text(m.id)])
        }
    }

    /// A schema one migration behind this petlog (pg1 only), met first by a staff role that may not add to
    /// it: one clear error (the owner runs petlog once), nothing changed; the owner's petlog then upgrades it.
    func testAnOlderSchemaMetByStaffIsLeftForTheOwner() throws {
        try TestServer.shared().holdRoles(for: self)
        let server = try requireServer()
        let url = try server.newDatabase()
        let owner = try link(url)
        try PostgresSchema.migrate(owner)
        try owner.execute(script: """
            DROP FUNCTION petlog.bulk_begin(); DROP FUNCTION petlog.bulk_end(); DROP FUNCTION petlog.bulk_tables(); DROP FUNCTION petlog.bulk_allowed();
            DROP TABLE petlog.bulk_saved; DELETE FROM petlog.schema_migration WHERE identifier <> 'pg1';
            DROP TABLE petlog.grooming; DROP TABLE petlog.walk; ALTER TABLE petlog.record DROP CONSTRAINT record_kind_fkey; DROP TABLE petlog.record_kind;
            ALTER TABLE petlog.record ADD CONSTRAINT record_kind_check CHECK (kind IN ('weight', 'meal', 'stool', 'urine', 'symptom', 'diary', 'visit',
              'vaccination', 'medication', 'dose', 'expense'));
            ALTER TABLE petlog.pet DROP COLUMN allergies, DROP COLUMN conditions, DROP COLUMN vet_contact, DROP COLUMN emergency_contacts, DROP COLUMN insurance;
            ALTER TABLE petlog.budget DROP COLUMN name, DROP COLUMN place, DROP COLUMN people;
            DROP TABLE petlog.weight_chunk; DROP FUNCTION petlog.series_weight_changed() CASCADE; DROP FUNCTION petlog.series_record_changed() CASCADE;
            DROP FUNCTION petlog.series_truncated() CASCADE; DROP FUNCTION petlog.series_drop(jsonb);
            DROP TABLE petlog.household; ALTER TABLE petlog.diary DROP COLUMN title; DROP TABLE petlog.web_session; DROP TABLE petlog.web_account; DROP TABLE petlog.web_login_failure;
            ALTER TABLE petlog.pet DROP COLUMN photo, DROP COLUMN photo_type, DROP COLUMN photo_size, DROP COLUMN photo_sha256;
            """)
        try owner.execute(script: PostgresRoles.sql)
        try owner.query("DROP ROLE IF EXISTS schemastaff")
        try owner.query("CREATE ROLE schemastaff LOGIN IN ROLE petlog_staff")
        defer { _ = try? owner.query("DROP OWNED BY schemastaff"); _ = try? owner.query("DROP ROLE schemastaff") }
        let staff = try link(url.replacingOccurrences(of: "postgres://postgres@", with: "postgres://schemastaff@"))
        XCTAssertThrowsError(try PostgresSchema.migrate(staff)) { XCTAssertEqual($0 as? StoreError, .schemaNeedsOwner(role: "schemastaff")) }
        XCTAssertEqual(try PostgresSchema.appliedMigrations(owner), ["pg1"], "nothing changed")
        XCTAssertEqual(try PostgresSchema.migrate(owner), Array(PostgresSchema.migrations.map(\.id).dropFirst()))
        XCTAssertEqual(try PostgresSchema.migrate(staff), [])
    }

    /// pg6 adds the packed weight series to a pg5 database that holds weights: no chunks at first, the
    /// first chart reads the tables and packs, and every chart after it is the same series.
    func testPg6PacksTheWeightSeriesOfAnEarlierDatabase() throws {
        let server = try requireServer()
        let url = try server.newDatabase()
        let owner = try link(url)
        try migrate(owner, first: 5)
        try owner.execute(script: """
            SET search_path = petlog;
            INSERT INTO pet (name, name_key, species, created_at, updated_at) VALUES ('Coco', 'coco', 'dog', 0, 0);
            INSERT INTO record (id, pet_id, kind, at, utc_offset, created_at, updated_at)
              SELECT g, 1, 'weight', 1700000000 + (g / 3) * 60, 0, 0, 0 FROM generate_series(1, 9000) AS g;
            INSERT INTO weight (record_id, grams) SELECT g, 4000 + g % 17 FROM generate_series(1, 9000) AS g;
            SELECT setval(pg_get_serial_sequence('petlog.record', 'id'), 9001, false);
            """)
        XCTAssertEqual(try PostgresSchema.appliedMigrations(owner), ["pg1", "pg2", "pg3", "pg4", "pg5"])
        let repo = try PostgresRepository(PostgresTarget.parse(url, environment: [:]))
        defer { repo.link.close() }
        XCTAssertEqual(try PostgresSchema.appliedMigrations(owner), PostgresSchema.migrations.map(\.id), "pg6 and after")
        XCTAssertEqual(try owner.query("SELECT count(*) FROM petlog.weight_chunk").first?.first?.int, 0)
        let want = try repo.weightSeriesFromTables(pet: 1, lower: .min, upper: .max, days: nil)
        XCTAssertEqual(want.times.count, 9000)
        XCTAssertEqual(try Store(repo).weightSeries(pet: 1, since: nil, until: nil, days: nil), want)
        XCTAssertEqual(try owner.query("SELECT count(*) FROM petlog.weight_chunk").first?.first?.int, 2, "9,000 points: two chunks of 4,096")
        XCTAssertEqual(try Store(repo).weightSeries(pet: 1, since: nil, until: nil, days: nil), want)
        XCTAssertEqual(try repo.check(), [])
    }

    /// What the import sends with COPY comes back exactly: integers (negative, the extremes), doubles,
    /// text with tabs, newlines, carriage returns and backslashes (short and long), bytes, NULL.
    func testCopyRowsComeBackExactly() throws {
        let server = try requireServer()
        let l = try link(try server.newDatabase())
        try l.query("CREATE TEMP TABLE t (i bigint, d double precision, s text, b bytea)")
        let rows: [[SQLValue]] = [
            [.int(0), .double(0.1), .text("plain"), .bytes([0, 1, 0xAB, 0xFF])],
            [.int(-42), .double(-1e-300), .text("tab\there\nnew\rline \\ back\\slash \\N"), .bytes([])],
            [.int(Int64.max), .double(123456.789), .text("첫 눈 ❄️ ＣＯＣＯ"), .null],
            [.int(Int64.min), .double(.infinity), .null, .bytes(Array(0...255).map(UInt8.init))],
            [.null, .null, .text(""), .null],
            // Longer than a small string, with nothing to escape, one at the end, one at the start.
            [.int(1), .null, .text(String(repeating: "long plain text, 긴 글 ", count: 20)), .null],
            [.int(2), .null, .text(String(repeating: "x", count: 40) + "\\"), .null],
            [.int(3), .null, .text("\t" + String(repeating: "y", count: 40)), .null],
        ]
        var copy = CopyRows()
        for r in rows { copy.append(r) }
        XCTAssertEqual(copy.count, rows.count)
        try l.copy(into: "t", columns: ["i", "d", "s", "b"], data: copy.take())
        XCTAssertEqual(copy.count, 0, "taken")
        let back = try l.query("SELECT i, d, s, b FROM t")
        XCTAssertEqual(back, rows)
    }

    func testConnectionFaultsAreNamed() throws {
        try TestServer.shared().holdRoles(for: self)
        let server = try requireServer()
        let url = try server.newDatabase()
        let admin = try link(url)
        try admin.query("CREATE ROLE staff LOGIN PASSWORD 'right-pw'")
        try admin.query("GRANT CONNECT ON DATABASE postgres TO staff")
        let db = try PostgresTarget.parse(url, environment: [:]).database

        XCTAssertNoThrow(try link("postgres://staff:right-pw@127.0.0.1:\(server.port)/\(db)?sslmode=disable"))
        XCTAssertNoThrow(try link("postgres://staff@127.0.0.1:\(server.port)/\(db)?sslmode=disable", env: ["PGPASSWORD": "right-pw"]))
        XCTAssertThrowsError(try link("postgres://staff:wrong-pw@127.0.0.1:\(server.port)/\(db)?sslmode=disable")) { e in
            XCTAssertEqual(e as? PostgresFault, .authentication(target: "postgres://staff@127.0.0.1:\(server.port)/\(db)"))
        }
        XCTAssertThrowsError(try link("postgres://staff@127.0.0.1:\(server.port)/\(db)?sslmode=disable")) { e in
            XCTAssertEqual(e as? PostgresFault, .authentication(target: "postgres://staff@127.0.0.1:\(server.port)/\(db)"), "no password at all")
        }
        XCTAssertThrowsError(try link("postgres://postgres@/no_such_db?host=\(server.directory)&port=\(server.port)")) { e in
            guard case .databaseMissing(_, "no_such_db")? = e as? PostgresFault else { return XCTFail("\(e)") }
        }
        let closed = try freePort()
        XCTAssertThrowsError(try link("postgres://staff:pw@127.0.0.1:\(closed)/x?sslmode=disable")) { e in
            guard case .unreachable? = e as? PostgresFault else { return XCTFail("\(e)") }
        }
        // TLS that cannot be set up: the test server's certificate is self-signed (scripts/pg-test-server.sh),
        // so verify-full refuses it (and without openssl the server has no TLS at all: refused as well).
        XCTAssertThrowsError(try link("postgres://staff:pw@127.0.0.1:\(server.port)/x?sslmode=verify-full")) { e in
            guard case .tls? = e as? PostgresFault else { return XCTFail("\(e)") }
        }
    }

    func freePort() throws -> Int {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(fd) }
        var addr = sockaddr_in()
        addr.sin_family = sa_family_t(AF_INET)
        addr.sin_addr.s_addr = inet_addr("127.0.0.1")
        var len = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &addr) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, len) } }
        _ = withUnsafeMutablePointer(to: &addr) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &len) } }
        return Int(UInt16(bigEndian: addr.sin_port))
    }
}

func connect(_ url: String, env: [String: String] = [:]) throws -> PostgresLink {
    try PostgresLink(PostgresTarget.parse(url, environment: env, home: "/nonexistent"))
}
