import Foundation
import XCTest
import PetlogTestSupport

/// The wrong answers of issue 32 ("Answers"): each test failed before its fix.
final class EverydayAnswersTests: CLITestCase {
    override class var firstStoreOnly: [String: String] { [
        "testVersionPrintsThePackagesVersionAndExitsZero": "--version; no store is opened",
        "testWeightHelpSaysABareNumberIsTheDisplayUnit": "help text; no store is opened",
    ] }

    static let american = ["LANG": "en_US.UTF-8"], british = ["LANG": "en_GB.UTF-8"]
    static let korean = ["LANG": "ko_KR.UTF-8"], japanese = ["LANG": "ja_JP.UTF-8"]

    /// The newest record a `log` lists (records logged at one pinned instant come in id order).
    func newest(_ args: [String]) throws -> [String: Any] {
        try XCTUnwrap(try records(args).max { ($0["id"] as? Int ?? 0) < ($1["id"] as? Int ?? 0) })
    }

    /// Help text with its wrapping undone.
    func unwrapped(_ text: String) -> String {
        text.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }.joined(separator: " ")
    }

    /// Logs `weight Rex 12.5` under `env` (and `extra` arguments) and returns the grams stored and the line printed.
    func bareWeight(env: [String: String], _ extra: [String] = []) throws -> (grams: Int, line: String) {
        let r = try run(extra + ["weight", "Rex", "12.5"], env: env)
        XCTAssertEqual(r.status, 0, r.stderr)
        let last = try newest(["log", "Rex", "--kind", "weight"])
        return (detail(last)["grams"] as? Int ?? -1, r.stdout)
    }

    // MARK: A bare weight

    /// A bare number is in the unit weights are shown in, in every locale, and the line says which.
    func testABareWeightIsInTheDisplayUnitAndTheLineSaysSo() throws {
        try ok("pet", "add", "Rex", "--species", "dog")
        var w = try bareWeight(env: Self.american)
        XCTAssertEqual(w.grams, 5670)
        XCTAssertTrue(w.line.contains("12.50 lb (12.5 with no unit taken as lb)"), w.line)
        for env in [Self.british, ["LANG": "C.UTF-8"]] {
            w = try bareWeight(env: env)
            XCTAssertEqual(w.grams, 12_500, "\(env)")
            XCTAssertTrue(w.line.contains("12.50 kg (12.5 with no unit taken as kg)"), w.line)
        }
        w = try bareWeight(env: Self.korean)
        XCTAssertEqual(w.grams, 12_500)
        XCTAssertTrue(w.line.contains("12.50 kg (단위 없이 쓴 12.5의 단위: kg)"), w.line)
        w = try bareWeight(env: Self.japanese)
        XCTAssertEqual(w.grams, 12_500)
        XCTAssertTrue(w.line.contains("12.50 kg（単位なしの 12.5 は kg として記録）"), w.line)
        // --unit decides over the locale, both ways.
        XCTAssertEqual(try bareWeight(env: Self.american, ["--unit", "metric"]).grams, 12_500)
        XCTAssertEqual(try bareWeight(env: Self.korean, ["--unit", "imperial"]).grams, 5670)
        // So does the config's units.
        try ok("config", "set", "units", "imperial")
        w = try bareWeight(env: Self.british)
        XCTAssertEqual(w.grams, 5670)
        XCTAssertTrue(w.line.contains("taken as lb"), w.line)
        // A weight with its unit says nothing more.
        let typed = try run(["weight", "Rex", "5.6kg"], env: Self.american)
        XCTAssertFalse(typed.stdout.contains("taken as"), typed.stdout)
    }

    func testVisitAndEditWeightsTakeTheSameRule() throws {
        try ok("pet", "add", "Rex", "--species", "dog")
        let visit = try run(["visit", "Rex", "--weight", "12.5"], env: Self.american)
        XCTAssertEqual(visit.status, 0, visit.stderr)
        XCTAssertTrue(visit.stdout.contains("taken as lb"), visit.stdout)
        let stored = try XCTUnwrap(try records(["log", "Rex"]).first)
        XCTAssertEqual(detail(stored)["weight_grams"] as? Int ?? (detail(stored)["weight"] as? Int), 5670, "\(stored)")
        try ok("weight", "Rex", "5kg")
        let edit = try run(["edit", "2", "--weight", "6"], env: Self.japanese)
        XCTAssertEqual(edit.status, 0, edit.stderr)
        XCTAssertTrue(edit.stdout.contains("単位なしの 6 は kg として記録"), edit.stdout)
    }

    /// The help says the same rule in en, ko and ja.
    func testWeightHelpSaysABareNumberIsTheDisplayUnit() throws {
        let en = unwrapped(try run(["weight", "--help"], env: Self.american).stdout)
        XCTAssertFalse(en.contains("a bare number is kg"), en)
        XCTAssertTrue(en.contains("else lb for en_US and kg elsewhere"), en)
        let ko = unwrapped(try run(["weight", "--help"], env: Self.korean).stdout)
        XCTAssertTrue(ko.contains("en_US는 lb"), ko)
        let ja = unwrapped(try run(["weight", "--help"], env: Self.japanese).stdout)
        XCTAssertTrue(ja.contains("en_US では lb"), ja)
    }

    // MARK: --version

    func testVersionPrintsThePackagesVersionAndExitsZero() throws {
        let source = try String(contentsOf: URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Sources/PetModel/PetlogVersion.swift"), encoding: .utf8)
        let version = try XCTUnwrap(source.split(separator: "\"").dropFirst().first.map(String.init))
        // The schema the build writes: the SQLite store's newest migration (`Schema.currentVersion`).
        let schemaSource = try String(contentsOf: URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Sources/PetStoreSQLite/Schema.swift"), encoding: .utf8)
        let schema = try XCTUnwrap(schemaSource.components(separatedBy: "static let currentVersion = \"").dropFirst().first?
            .split(separator: "\"").first.map(String.init))
        XCTAssertTrue(schema.hasPrefix("v"), schema)
        for flag in ["--version", "-V"] {
            let r = try run([flag], useDefaultDB: true)
            XCTAssertEqual(r.status, 0, r.stderr)
            XCTAssertEqual(r.stdout, "petlog \(version) (database schema \(schema), export format v1)\n")
        }
        XCTAssertTrue(try run(["--version"], env: Self.korean, useDefaultDB: true).stdout.contains("데이터베이스 스키마 \(schema)"))
        XCTAssertTrue(try run(["--version"], env: Self.japanese, useDefaultDB: true).stdout.contains("データベーススキーマ \(schema)"))
    }

    // MARK: Water

    /// Water named in any language is water, as `--water` is: not a meal in `stats`.
    func testWaterByItsNameIsStoredAsWater() throws {
        try ok("pet", "add", "Rex", "--species", "dog")
        try ok("meal", "Rex", "bowl", "200ml", "--water")
        for food in ["water", "Water", "물", "식수", "水", "お水", "ｗａｔｅｒ"] { try ok("meal", "Rex", food, "200ml") }
        try ok("meal", "Rex", "kibble", "80g")
        let meals = try records(["log", "Rex", "--kind", "meal"]).map(detail)
        XCTAssertEqual(meals.filter { $0["type"] as? String == "water" }.count, 8, "\(meals)")
        XCTAssertEqual(meals.filter { $0["type"] as? String == "meal" }.map { $0["food"] as? String }, ["kibble"])
        // `--snack` still decides when it is given: a flag says what the owner means.
        try ok("meal", "Rex", "water", "--treat")
        XCTAssertEqual(detail(try newest(["log", "Rex", "--kind", "meal"]))["type"] as? String, "treat")
        // stats counts one meal this month (the kibble), not nine.
        let stats = try ok("stats", "Rex")
        let mealsLine = try XCTUnwrap(stats.split(separator: "\n").first { $0.hasPrefix("Meals") }, stats)
        XCTAssertEqual(mealsLine.split(separator: " ", omittingEmptySubsequences: true).dropFirst().first, "1", stats)
    }

    // MARK: Vaccine names

    /// A disease a dog's or cat's core vaccine covers is a dose of that vaccine, with its due date, and says so.
    func testAVaccineComponentIsItsCoreVaccineWithADueDate() throws {
        try ok("pet", "add", "Rex", "--species", "dog", "--born", "2020-01-01")
        try ok("pet", "add", "Nabi", "--species", "cat", "--born", "2021-01-01")
        try ok("pet", "add", "Usa", "--species", "rabbit")
        try ok("pet", "add", "Fe", "--species", "ferret")
        let ja = try run(["vaccine", "Rex", "ジステンパー"], env: Self.japanese)
        XCTAssertEqual(ja.status, 0, ja.stderr)
        XCTAssertEqual(ja.stderr, "", "no 'not in the schedule' warning")
        XCTAssertTrue(ja.stdout.contains("DHPP・次回接種 2029-11-23（ジステンパーは犬のDHPPに含まれるため"), ja.stdout)
        for name in ["犬ジステンパー", "개홍역", "parvo", "canine hepatitis", "パルボ"] {
            let r = try run(["vaccine", "Rex", name])
            XCTAssertEqual(r.stderr, "", name)
            XCTAssertTrue(r.stdout.contains("is covered by the dog vaccine DHPP"), r.stdout)
        }
        let ko = try run(["vaccine", "Nabi", "범백"], env: Self.korean)
        XCTAssertEqual(ko.stderr, "")
        XCTAssertTrue(ko.stdout.contains("FVRCP · 다음 접종 2029-11-23 (범백은 고양이 백신 FVRCP에 들어 있어"), ko.stdout)
        for name in ["calicivirus", "猫ヘルペス", "rhinotracheitis", "panleukopenia"] {
            XCTAssertTrue(try run(["vaccine", "Nabi", name]).stdout.contains("FVRCP · next due"), name)
        }
        // ウサギ出血病 is RHDV2 for a rabbit, as ウサギ出血病2型 is; a ferret's distemper vaccine stays its own.
        let rabbit = try run(["vaccine", "Usa", "ウサギ出血病"], env: Self.japanese)
        XCTAssertEqual(rabbit.stderr, "")
        XCTAssertTrue(rabbit.stdout.contains("RHDV2・次回接種"), rabbit.stdout)
        XCTAssertTrue(try ok("vaccine", "Fe", "ジステンパー").contains("Distemper · next due"))
        // Stored as the core vaccine's code, so `due` reminds the booster.
        let codes = try records(["log", "Rex", "--kind", "vaccination"]).map { detail($0)["vaccine"] as? String }
        XCTAssertEqual(Set(codes), ["dhpp"], "\(codes)")
        // Local names of listed vaccines.
        for (name, code) in [("광견병 예방접종", "rabies"), ("狂犬病予防注射", "rabies"), ("혼합백신", "dhpp"), ("rabies shot", "rabies")] {
            try ok("vaccine", "Rex", name)
            XCTAssertEqual(detail(try newest(["log", "Rex", "--kind", "vaccination"]))["vaccine"] as? String, code, name)
        }
    }

    // MARK: Messages that contradict themselves

    func testAtTomorrowIsInTheFutureNotAnInvalidDay() throws {
        try ok("pet", "add", "Rex", "--species", "dog")
        let r = try run(["weight", "Rex", "3kg", "--at", "tomorrow"])
        XCTAssertEqual(r.status, 65)
        XCTAssertEqual(r.stderr, "petlog: \"tomorrow\" is in the future: what happened can be dated up to 2026-11-23 10:10 AM\n")
        let ja = try run(["diary", "Rex", "x", "--at", "tomorrow 08:00"], env: Self.japanese)
        XCTAssertTrue(ja.stderr.contains("「tomorrow 08:00」は未来の日時です"), ja.stderr)
        // A plan may start tomorrow.
        XCTAssertTrue(try ok("med", "start", "Rex", "Apoquel", "--at", "tomorrow", "--every", "12h").contains("Apoquel"))
    }

    func testATooLongSpanBackKeepsItsMinusSign() throws {
        try ok("pet", "add", "Rex", "--species", "dog")
        let r = try run(["weight", "Rex", "3kg", "--at", "-1000000h"])
        XCTAssertEqual(r.status, 65)
        XCTAssertTrue(r.stderr.hasPrefix("petlog: \"-1000000h\" is more than petlog counts in one span (at most 100,000"), r.stderr)
        XCTAssertTrue(try run(["weight", "Rex", "3kg", "--at", "-5xh"]).stderr.contains("\"-5xh\""))
    }

    func testADiaryTextStartingWithADashIsNotANegativeWeight() throws {
        try ok("pet", "add", "Rex", "--species", "dog")
        let r = try run(["diary", "Rex", "-2+3"])
        XCTAssertFalse(r.stderr.contains("below zero"), r.stderr)
        XCTAssertTrue(r.stderr.contains("put -- before it"), r.stderr)
        XCTAssertEqual(r.status, 64)
        XCTAssertTrue(try ok("diary", "Rex", "--", "-2+3").contains("-2+3"))
        // Where a number goes, a negative one is still named as such.
        XCTAssertTrue(try run(["weight", "Rex", "-3kg"]).stderr.contains("below zero"))
        XCTAssertTrue(try run(["meal", "Rex", "kibble", "-5g"]).stderr.contains("below zero"))
    }

    /// Every count petlog prints is grouped the same way: "Exported 6,152" beside "Imported 6,152".
    func testExportAndImportCountsAreGroupedAlike() throws {
        let dir = ImportCommandTests.fixtures.appendingPathComponent("shelter-small").path
        XCTAssertTrue(try ok("import", dir).contains("Imported 6,152 records"))
        let out = home.appendingPathComponent("all.json").path
        let r = try run(["export", "-o", out])
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertTrue((r.stdout + r.stderr).contains("Exported 6,152 records"), r.stdout + r.stderr)
    }

    /// Japanese joins a Japanese name to its particle without a space.
    func testJapaneseJoinsNamesAndParticlesWithoutASpace() throws {
        try ok("pet", "add", "Rex", "--species", "dog")
        try ok("med", "start", "Rex", "フィラリア予防薬", "--every", "30d")
        let due = try run(["due"], env: Self.japanese).stdout
        XCTAssertTrue(due.contains("フィラリア予防薬の投与"), due)
        XCTAssertFalse(due.contains("フィラリア予防薬 の投与"), due)
        // A Latin name keeps its space.
        try ok("med", "start", "Rex", "Apoquel", "--every", "12h")
        XCTAssertTrue(try run(["due"], env: Self.japanese).stdout.contains("Apoquel の投与"))
    }

    /// `med list` says what its counts are: never a bare 0 or 1.
    func testMedListSaysWhatItsCountsAre() throws {
        try ok("pet", "add", "Rex", "--species", "dog")
        try ok("med", "start", "Rex", "Vitamin")
        try ok("med", "give", "Rex", "Vitamin")
        let en = try ok("med", "list")
        XCTAssertTrue(en.contains("1 given, none scheduled"), en)
        XCTAssertTrue(try run(["med", "list"], env: Self.korean).stdout.contains("1회, 예정 없음"))
        XCTAssertTrue(try run(["med", "list"], env: Self.japanese).stdout.contains("1回、予定なし"))
        try ok("med", "start", "Rex", "Apoquel", "--every", "12h", "--at", "-1d")
        try ok("med", "give", "Rex", "Apoquel")
        let scheduled = try ok("med", "list")
        XCTAssertTrue(scheduled.range(of: #"1 of \d+ given \(\d+ %\)"#, options: .regularExpression) != nil, scheduled)
    }
}
