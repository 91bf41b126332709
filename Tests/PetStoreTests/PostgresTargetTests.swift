import Foundation
import XCTest
@testable import PetFiles
@testable import PetStoreCore
@testable import PetStoreSQLite

/// `--db postgres://…` read as libpq reads it: URL, environment, password file, defaults.
final class PostgresTargetTests: XCTestCase {
    let noEnv: [String: String] = [:]

    func parse(_ url: String, env: [String: String] = [:], home: String = "/nonexistent") throws -> PostgresTarget {
        try PostgresTarget.parse(url, environment: env, home: home, loginName: "kim")
    }

    func testTheForms() throws {
        let t = try parse("postgres://staff:s3cr%40t@db.shelter.lan:5433/petlog?sslmode=require")
        XCTAssertEqual(t.host, "db.shelter.lan")
        XCTAssertEqual(t.port, 5433)
        XCTAssertEqual(t.user, "staff")
        XCTAssertEqual(t.password, "s3cr@t")
        XCTAssertEqual(t.database, "petlog")
        XCTAssertEqual(t.sslMode, .require)
        XCTAssertNil(t.socketPath)

        let s = try parse("postgres:///petlog?host=/run/postgresql")
        XCTAssertNil(s.host)
        XCTAssertEqual(s.socketDirectory, "/run/postgresql")
        XCTAssertEqual(s.socketPath, "/run/postgresql/.s.PGSQL.5432")
        XCTAssertEqual(s.user, "kim", "libpq's last default is the login name")
        XCTAssertEqual(s.database, "petlog")

        let encoded = try parse("postgresql://%2Fvar%2Frun%2Fpostgresql/records")
        XCTAssertEqual(encoded.socketDirectory, "/var/run/postgresql")
        XCTAssertEqual(encoded.database, "records")

        let v6 = try parse("postgres://u@[::1]:6000/d")
        XCTAssertEqual(v6.host, "::1")
        XCTAssertEqual(v6.port, 6000)

        let bare = try parse("postgres://")
        XCTAssertEqual(bare.socketDirectory, "/var/run/postgresql")
        XCTAssertEqual(bare.database, "kim", "the database defaults to the user's name")
        XCTAssertEqual(bare.sslMode, .prefer)
    }

    func testTheEnvironmentFillsWhatTheURLLeavesOut() throws {
        let env = ["PGHOST": "10.0.0.5", "PGPORT": "5444", "PGUSER": "vol", "PGDATABASE": "shelter", "PGSSLMODE": "verify-full", "PGPASSWORD": "pw"]
        let t = try parse("postgres://", env: env)
        XCTAssertEqual([t.host, String(t.port), t.user, t.database, t.password], ["10.0.0.5", "5444", "vol", "shelter", "pw"])
        XCTAssertEqual(t.sslMode, .verifyFull)
        let url = try parse("postgres://owner:fromurl@h/db", env: env)
        XCTAssertEqual([url.host, url.user, url.database, url.password], ["h", "owner", "db", "fromurl"], "the URL wins over the environment")
        XCTAssertEqual(url.port, 5444)
    }

    func testBadURLsAndParametersAreRefusedWithoutThePassword() {
        XCTAssertThrowsError(try parse("postgres://u:pw@h:99999/db")) { e in
            XCTAssertEqual(e as? PostgresTarget.Problem, .badParameter(name: "port", value: "99999"))
        }
        XCTAssertThrowsError(try parse("postgres://u@h/db?sslmode=sometimes")) { e in
            XCTAssertEqual(e as? PostgresTarget.Problem, .badParameter(name: "sslmode", value: "sometimes"))
        }
        XCTAssertThrowsError(try parse("postgres://u@h/db?colour=blue"))
        XCTAssertEqual(PostgresTarget.redactPassword("postgres://u:hunter2@h/db?password=hunter2"), "postgres://u:***@h/db?password=***")
        XCTAssertFalse(try parse("postgres://u:hunter2@h/db").redacted.contains("hunter2"))
    }

    func testThePasswordFileIsReadOnlyWhenPrivate() throws {
        let home = FileManager.default.temporaryDirectory.appendingPathComponent("pgpass-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: home, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: home) }
        let file = home + "/.pgpass"
        try """
        # staff passwords
        db.shelter.lan:5432:petlog:staff:first\\:pw
        *:*:*:vol:volunteer
        localhost:5432:*:kim:socket-pw
        """.write(toFile: file, atomically: true, encoding: .utf8)
        chmod(file, 0o600)
        XCTAssertEqual(try parse("postgres://staff@db.shelter.lan/petlog", home: home).password, "first:pw")
        XCTAssertEqual(try parse("postgres://vol@anywhere:1/x", home: home).password, "volunteer")
        XCTAssertEqual(try parse("postgres:///any", home: home).password, "socket-pw", "a socket matches localhost, as in libpq")
        XCTAssertNil(try parse("postgres://staff@db.shelter.lan/other", home: home).password)

        chmod(file, 0o644)
        let open = try parse("postgres://vol@anywhere/x", home: home)
        XCTAssertNil(open.password, "a file others can read is ignored, as libpq does")
        XCTAssertEqual(open.ignoredPasswordFile, file)
        chmod(file, 0o600)
        XCTAssertEqual(try parse("postgres://vol@anywhere/x", env: ["PGPASSFILE": file], home: "/nonexistent").password, "volunteer")
    }
}
