import XCTest
@testable import PetConfig

final class PetlogConfigTests: XCTestCase {
    func testKeysAreReadAndNormalized() {
        let c = PetlogConfig(text: """
        # my petlog
        database = "~/pets/household.sqlite"
        language = "KO"
        units = "imperial"
        currency = "jpy"
        paper = "letter"
        week_start = "Sunday"
        """)
        XCTAssertEqual(c.problems, [])
        XCTAssertEqual(c[.database], "~/pets/household.sqlite")
        XCTAssertEqual(c[.language], "ko")
        XCTAssertEqual(c[.units], "imperial")
        XCTAssertEqual(c[.currency], "JPY")
        XCTAssertEqual(c[.paper], "letter")
        XCTAssertEqual(c[.weekStart], "sunday")
    }

    func testEachProblemNamesItsLineAndKeyAndTheRestIsStillRead() {
        let c = PetlogConfig(text: "language = \"ja\"\n\nunits = 5\ncurency = \"KRW\"\npaper = \"a5\"\n")
        XCTAssertEqual(c[.language], "ja")
        XCTAssertNil(c[.units])
        XCTAssertEqual(c.problems, [
            ConfigProblem(line: 3, key: "units", kind: .badValue("5")),
            ConfigProblem(line: 4, key: "curency", kind: .unknownKey),
            ConfigProblem(line: 5, key: "paper", kind: .badValue("a5")),
        ])
        XCTAssertFalse(c.problems.contains(where: \.isWholeFile))
    }

    func testASyntaxErrorLeavesNothingKnown() {
        let c = PetlogConfig(text: "language = \"ko\"\ndatabase = \"/x\n")
        XCTAssertEqual(c.values, [:])
        XCTAssertEqual(c.problems.count, 1)
        XCTAssertEqual(c.problems.first?.line, 2)
        XCTAssertTrue(c.problems.first?.isWholeFile ?? false)
    }

    func testSettingKeepsCommentsAndOtherLines() {
        let text = "# prefs\nlanguage = \"ko\" # mine\n\n[extra]\nx = 1\n"
        let set = PetlogConfig.setting(.language, to: "ja", in: text)
        XCTAssertEqual(set, "# prefs\nlanguage = \"ja\"\n\n[extra]\nx = 1\n")
        let added = PetlogConfig.setting(.currency, to: "KRW", in: text)
        XCTAssertEqual(added, "# prefs\nlanguage = \"ko\" # mine\n\ncurrency = \"KRW\"\n[extra]\nx = 1\n")
        XCTAssertEqual(PetlogConfig.setting(.database, to: "C:\\a \"b\"", in: ""), "database = \"C:\\\\a \\\"b\\\"\"\n")
        XCTAssertEqual(PetlogConfig(text: PetlogConfig.setting(.database, to: "C:\\a \"b\"", in: ""))[.database], "C:\\a \"b\"")
        XCTAssertEqual(PetlogConfig.unsetting(.language, in: text), "# prefs\n\n[extra]\nx = 1\n")
        XCTAssertEqual(PetlogConfig.unsetting(.paper, in: text), text)
    }

    func testThePathFollowsXDG() {
        XCTAssertEqual(PetlogConfig.path(environment: ["XDG_CONFIG_HOME": "/c", "HOME": "/h"]), "/c/petlog/config.toml")
        XCTAssertEqual(PetlogConfig.path(environment: ["XDG_CONFIG_HOME": "relative", "HOME": "/h"]), "/h/.config/petlog/config.toml")
    }
}
