import Foundation
import XCTest
import PetlogTestSupport

/// The global options anywhere on the line, and choice options that help and completion can list
/// while a bad value still gets petlog's own line in the user's language.
final class OptionTests: CLITestCase {
    override class var firstStoreOnly: [String: String] { [
        "testGlobalOptionsBeforeBetweenAndAfterTheSubcommand": "where the command line takes its options",
        "testChoicesAreListedInHelpAndCompletionAndRefusedInTheUsersLanguage": "help, completion and the refusal's words",
    ] }

    func testGlobalOptionsBeforeBetweenAndAfterTheSubcommand() throws {
        try ok("pet", "add", "Coco", "--species", "dog")
        let db = dbPath
        for args in [["--db", db, "--json", "pet", "list"], ["pet", "--db", db, "list", "--json"], ["pet", "list", "--json", "--db", db],
                     ["--json", "pet", "list", "--db=\(db)"]] {
            let r = try run(args, useDefaultDB: true)
            XCTAssertEqual(r.status, 0, "\(args): \(r.stderr)")
            XCTAssertTrue(r.stdout.hasPrefix("["), "\(args): \(r.stdout)")
        }
        let ko = try run(["--lang", "ko", "pet", "list", "--bogus"])
        XCTAssertEqual(ko.status, 64)
        XCTAssertTrue(ko.stderr.contains("petlog pet list --help"), ko.stderr)
        XCTAssertTrue(ko.stderr.contains("도움말"), ko.stderr)
    }

    func testChoicesAreListedInHelpAndCompletionAndRefusedInTheUsersLanguage() throws {
        let bash = try run(["--generate-completion-script", "bash"], useDefaultDB: true)
        for word in ["guinea-pig", "passed-away", "inhaled", "grumpy", "letter", "severity", "imperial"] {
            XCTAssertTrue(bash.stdout.contains(word), "the bash completion does not offer \(word)")
        }
        let help = try run(["pet", "add", "--help"], useDefaultDB: true)
        XCTAssertTrue(help.stdout.contains("guinea-pig"), help.stdout)
        try ok("pet", "add", "Coco", "--species", "DOG", "--sex", "F")
        try expectRefused(["--lang", "ja", "pet", "add", "Mo", "--species", "dragon"], code: 65, mentions: "dragon")
        try expectRefused(["chart", "symptoms", "Coco", "--by", "colour"], code: 65, mentions: "severity, kind")
        try expectRefused(["--unit", "stone", "pet", "list"], code: 65, mentions: "metric, imperial")
    }
}

/// A negative number where a weight or an amount goes is said to be negative, not an unknown option.
final class NegativeValueTests: CLITestCase {
    func testNegativeWeightsAndAmountsAreNamed() throws {
        try ok("pet", "add", "Coco", "--species", "dog")
        try expectRefused(["weight", "Coco", "-3kg"], code: 65, mentions: "\"-3kg\" is below zero")
        try expectRefused(["meal", "Coco", "kibble", "-5g"], code: 65, mentions: "petlog meal --help")
        try expectRefused(["--lang", "ko", "weight", "Coco", "-3kg"], code: 65, mentions: "음수일 수 없습니다")
        try expectRefused(["--lang", "ja", "weight", "Coco", "－３kg"], code: 65, mentions: "負の値")
        XCTAssertEqual(try run(["weight", "Coco", "3kg", "--at", "-2d"]).status, 0, "a span back is not a negative value")
    }
}
