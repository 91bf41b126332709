import Foundation
import XCTest
import PetlogTestSupport

/// `config` and the order settings are taken in: flag > environment > config file > locale.
final class ConfigCommandTests: CLITestCase {
    override class var onOneStoreOnly: String? { "about the config file and the order of settings, not the store" }
    var configPath: String { home.appendingPathComponent(".config/petlog/config.toml").path }

    func write(_ text: String) throws {
        try FileManager.default.createDirectory(atPath: (configPath as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        try Data(text.utf8).write(to: URL(fileURLWithPath: configPath))
    }

    func testSetGetUnsetAndThePrivateFile() throws {
        XCTAssertEqual(try ok("config", "path"), configPath + "\n")
        try ok("config", "set", "language", "ko")
        try ok("config", "set", "currency", "jpy")
        XCTAssertEqual(try ok("config", "get", "currency"), "JPY\n")
        let mode = try FileManager.default.attributesOfItem(atPath: configPath)[.posixPermissions] as? Int
        XCTAssertEqual(mode, 0o600)
        try expectRefused(["config", "set", "units", "stone"], code: 65, mentions: "imperial")
        try expectRefused(["config", "set", "colour", "red"], code: 65, mentions: "week_start")
        try ok("config", "unset", "currency")
        XCTAssertEqual(try run(["config", "get", "currency"]).status, 1)
        XCTAssertEqual(try String(contentsOfFile: configPath, encoding: .utf8), "language = \"ko\"\n")
    }

    func testFlagBeatsEnvironmentBeatsFileBeatsLocale() throws {
        try ok("pet", "add", "Coco", "--species", "dog")
        try write("language = \"ja\"\nunits = \"imperial\"\ncurrency = \"EUR\"\n")
        XCTAssertTrue(try ok("pet", "list").contains("犬"), "the file's language")
        XCTAssertTrue(try run(["pet", "list"], env: ["PETLOG_LANG": "ko"]).stdout.contains("개"), "the environment over the file")
        XCTAssertTrue(try run(["--lang", "en", "pet", "list"], env: ["PETLOG_LANG": "ko"]).stdout.contains("dog"), "the flag over all")
        try ok("weight", "Coco", "4kg")
        XCTAssertTrue(try ok("log").contains("lb"), "the file's units")
        XCTAssertTrue(try ok("--unit", "metric", "log").contains("kg"))
        let list = try XCTUnwrap(try json("expense", "list") as? [String: Any])
        XCTAssertEqual(list["currency"] as? String, "EUR")
        let env = try run(["expense", "list", "--json"], env: ["PETLOG_CURRENCY": "KRW"])
        XCTAssertTrue(env.stdout.contains("\"currency\" : \"KRW\""), env.stdout)
        XCTAssertTrue(try ok("expense", "list", "--currency", "USD", "--json").contains("\"currency\" : \"USD\""))
        let listed = try ok("config", "list")
        XCTAssertTrue(listed.contains("EUR"), listed)
    }

    func testTheDatabaseFromTheFileAndNeverAGuess() throws {
        let other = home.appendingPathComponent("elsewhere.sqlite").path
        try write("database = \"\(other)\"\n")
        XCTAssertEqual(try run(["pet", "add", "Nabi", "--species", "cat"], useDefaultDB: true).status, 0)
        XCTAssertTrue(FileManager.default.fileExists(atPath: other))
        XCTAssertTrue(try run(["pet", "list"], useDefaultDB: true).stdout.contains("Nabi"))
        // A file that is not TOML: commands that would use its database stop with one line naming the line.
        try write("language = \"ko\"\ndatabase = \"\(other)\n")
        let r = try run(["pet", "list"], useDefaultDB: true)
        checkRefusal(r, code: 78, mentions: "line 2", "broken config")
        // With --db the file is not needed for the database: a warning, then the command.
        let withDB = try run(["--db", other, "pet", "list"], useDefaultDB: true)
        XCTAssertEqual(withDB.status, 0, withDB.stderr)
        XCTAssertTrue(withDB.stdout.contains("Nabi"))
        XCTAssertEqual(withDB.stderr.split(separator: "\n").count, 1, withDB.stderr)
        // A bad value of another key is said and ignored.
        try write("database = \"\(other)\"\nunits = 5\n")
        let bad = try run(["pet", "list"], useDefaultDB: true)
        XCTAssertEqual(bad.status, 0)
        XCTAssertTrue(bad.stderr.contains("line 2") && bad.stderr.contains("units"), bad.stderr)
        // config itself still runs to mend the file, and refuses to edit a file it cannot read.
        try write("database = \"\(other)\n")
        XCTAssertEqual(try run(["config", "path"], useDefaultDB: true).status, 0)
        XCTAssertEqual(try run(["config", "set", "language", "ko"], useDefaultDB: true).status, 78)
    }
}
