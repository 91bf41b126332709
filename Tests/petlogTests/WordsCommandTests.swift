import XCTest
import PetlogTestSupport

/// Issue 18, "words": Korean and Japanese output without English field names, spans or durations;
/// `--help` in the user's language; `stats` comparing like with like; numbers typed as people type them.
final class WordsCommandTests: CLITestCase {
    override class var firstStoreOnly: [String: String] { [
        "testHelpIsInKoreanAndJapanese": "help text; no store is opened",
        "testManualAndCompletionsStayEnglish": "the manual and completion scripts; no store is opened",
        "testKoreanAndJapaneseMessagesNameFieldsSpansAndDurationsInTheirOwnWords": "the words of messages in Korean and Japanese",
    ] }

    static let korean = ["LANG": "ko_KR.UTF-8"], japanese = ["LANG": "ja_JP.UTF-8"]

    /// English input and unit names a Korean or Japanese message must not show (an option a message tells
    /// to type, `--severity`, is not a word of the message; the values to type are listed as they are typed).
    static let englishWords = ["score", "diary", "severity", "mood", "food", "name", "breed", "notes", "note", "color",
                               "search", "next", "until", "duration", "min", "mean", "field", "items", "question",
                               "week_start", "language", "lot", "product", "clinic", "device", "today", "yesterday"]

    func englishWordsIn(_ text: String) -> [String] {
        Self.englishWords.filter { word in
            text.range(of: "(?<![-\\w])\(word)(?![-\\w])", options: [.regularExpression, .caseInsensitive]) != nil
        }
    }

    func testKoreanAndJapaneseMessagesNameFieldsSpansAndDurationsInTheirOwnWords() throws {
        try ok("pet", "add", "Coco", "--species", "dog")
        let refused: [[String]] = [
            ["stool", "Coco", "9"], ["diary", "Coco", ""], ["symptom", "Coco", "vomiting", "--severity", "9"],
            ["diary", "Coco", "hi", "--mood", "zz"], ["meal", "Coco", ""], ["pet", "add", ""], ["search", " "],
            ["pet", "edit", "Coco", "--breed", "a\u{1}b"], ["weight", "Coco", "4kg", "--bcs", "12"],
            ["vaccine", "Coco", "rabies", "--date", "2026-11-01", "--next", "2026-10-01"],
            ["med", "start", "Coco", "Apoquel", "--until", "2020-01-01"], ["config", "set", "week_start", "friday"],
            ["report", "Coco", "-o", home.appendingPathComponent("r.pdf").path, "--question", ""],
            ["weight", "Coco", "4kg", "--at", "someday"], ["due", "--within", "soon"],
        ]
        for env in [Self.korean, Self.japanese] {
            for args in refused {
                let r = try run(args, env: env)
                XCTAssertNotEqual(r.status, 0, "\(args) under \(env)")
                XCTAssertFalse(r.stderr.isEmpty, "\(args)")
                XCTAssertEqual(englishWordsIn(r.stderr), [], "\(env) \(args): \(r.stderr)")
            }
        }
        // A 12-hour symptom is 12 hours, not 720 minutes, in the record line and the timeline.
        let ja = try run(["symptom", "Coco", "vomiting", "--duration", "12h"], env: Self.japanese)
        XCTAssertTrue(ja.stdout.contains("12時間") && !ja.stdout.contains("720"), ja.stdout)
        let ko = try run(["log", "Coco"], env: Self.korean)
        XCTAssertTrue(ko.stdout.contains("12시간") && !ko.stdout.contains("720"), ko.stdout)
        for env in [Self.korean, Self.japanese] {
            for args in [["log", "Coco"], ["pet", "show", "Coco"], ["stats"], ["due"]] {
                let r = try run(args, env: env)
                XCTAssertEqual(r.status, 0, "\(args): \(r.stderr)")
                XCTAssertEqual(englishWordsIn(r.stdout + r.stderr), [], "\(env) \(args): \(r.stdout)")
            }
        }
        let stool = try run(["stool", "Coco", "9"], env: Self.korean)
        XCTAssertTrue(stool.stderr.contains("대변 점수 값 \"9\""), stool.stderr)
        let mood = try run(["diary", "Coco", "hi", "--mood", "zz"], env: Self.korean)
        XCTAssertTrue(mood.stderr.contains("기분(--mood) 값 \"zz\"") && mood.stderr.contains("happy(기분 좋음)"), mood.stderr)
        let route = try run(["med", "start", "Coco", "Apoquel", "--route", "nose"], env: Self.japanese)
        XCTAssertTrue(route.stderr.contains("oral（経口）"), route.stderr)
        let diary = try run(["diary", "Coco", ""], env: Self.japanese)
        XCTAssertTrue(diary.stderr.contains("日記は空にできません"), diary.stderr)
    }

    // MARK: --help

    /// English help sentences that must not be left in a Korean or Japanese `--help`.
    static let englishHelp = ["Keep your pets' health records", "Global options", "Log a weight", "Body condition score",
                              "Pet name or id", "When it happened", "A note to keep", "The database file", "Machine-readable",
                              "How weights are shown", "Spending budgets", "Add, list, show"]

    func testHelpIsInKoreanAndJapanese() throws {
        let cases: [([String], [String: String], [String])] = [
            (["--help"], Self.korean, ["반려동물의 건강 기록을 로컬 파일 하나에 보관합니다.", "전역 옵션", "체중 기록"]),
            (["weight", "--help"], Self.korean, ["체중 기록: 4.2kg", "체형 점수 1–9.", "있었던 때 (기본: 지금): 2일 전, 어제", "반려동물 이름 또는 ID"]),
            (["--help"], Self.japanese, ["ペットの健康記録をローカルのファイル1つに保管します。", "全体のオプション"]),
            (["weight", "--help"], Self.japanese, ["体重の記録：4.2kg", "体型スコア 1–9。", "あった日時（既定：今）：2日前、昨日"]),
            (["--lang", "ja", "weight", "--help"], Self.korean, ["体重の記録：4.2kg"]),
            (["help", "stats"], Self.korean, ["한 달을 지난달과 비교", "진행 중인 이번 달은"]),
            (["med", "start", "--help"], Self.japanese, ["投与の間隔：12時間、1日、30日、12週間。"]),
        ]
        for (args, env, expected) in cases {
            let r = try run(args, env: env)
            XCTAssertEqual(r.status, 0, "\(args): \(r.stderr)")
            for text in expected { XCTAssertTrue(r.stdout.contains(text), "\(args) \(env) lacks \(text):\n\(r.stdout)") }
            for english in Self.englishHelp { XCTAssertFalse(r.stdout.contains(english), "\(args) \(env) still says \(english)") }
        }
        // Every command's help in Korean and Japanese: no help sentence of petlog's own left in English.
        for env in [Self.korean, Self.japanese] {
            for command in [["pet", "add"], ["meal"], ["stool"], ["symptom"], ["visit"], ["vaccine"], ["expense", "add"], ["budget", "set"],
                            ["chart", "weight"], ["report"], ["due"], ["stats"], ["log"], ["edit"], ["export"], ["import"], ["rates", "update"],
                            ["config", "set"], ["undo"], ["check"]] {
                let r = try run(command + ["--help"], env: env)
                XCTAssertEqual(r.status, 0, "\(command)")
                // No English sentence (four words in a row) of petlog's own: argument-parser's "Show help
                // information." and its headers are its own words.
                for line in r.stdout.split(separator: "\n") where !line.hasPrefix("USAGE") {
                    if line.range(of: "[A-Za-z]{2,} [a-z]{2,} [a-z]{2,} [a-z]{2,}", options: .regularExpression) != nil {
                        XCTFail("\(command) \(env): an English help line: \(line)")
                    }
                }
            }
        }
        // English stays English.
        let en = try run(["weight", "--help"])
        XCTAssertTrue(en.stdout.contains("Log a weight") && en.stdout.contains("Body condition score 1–9."), en.stdout)
    }

    /// The man page and the completion scripts are English whatever the locale they are generated in.
    func testManualAndCompletionsStayEnglish() throws {
        let dump = try run(["--experimental-dump-help"], env: Self.korean)
        XCTAssertEqual(dump.status, 0, dump.stderr)
        XCTAssertTrue(dump.stdout.contains("Keep your pets' health records"))
        XCTAssertFalse(dump.stdout.contains("반려동물의 건강 기록"))
        let fish = try run(["--generate-completion-script", "fish"], env: Self.japanese, useDefaultDB: true)
        XCTAssertEqual(fish.status, 0, fish.stderr)
        XCTAssertTrue(fish.stdout.contains("Body condition score"), "completion descriptions in English")
        XCTAssertFalse(fish.stdout.contains("体型スコア"))
    }

    // MARK: stats

    func testStatsComparesTheMonthSoFarWithTheSameDaysBefore() throws {
        try ok("pet", "add", "Coco", "--species", "dog")
        try ok("expense", "Coco", "10000", "KRW", "--at", "2026-10-10")
        try ok("expense", "Coco", "50000", "KRW", "--at", "2026-10-28")
        try ok("expense", "Coco", "20000", "KRW", "--at", "2026-11-05")
        try ok("weight", "Coco", "4.1kg", "--at", "2026-10-20")
        try ok("weight", "Coco", "4.9kg", "--at", "2026-10-30")
        try ok("weight", "Coco", "4.2kg", "--at", "2026-11-20")
        let stats = try XCTUnwrap(try json("stats", "--currency", "KRW") as? [String: Any])
        XCTAssertEqual(stats["same_days"] as? Bool, true)
        XCTAssertEqual(stats["days"] as? [String: String], ["first": "2026-11-01", "last": "2026-11-23"])
        XCTAssertEqual(stats["previous_days"] as? [String: String], ["first": "2026-10-01", "last": "2026-10-23"])
        let items = try XCTUnwrap(stats["items"] as? [[String: Any]])
        let spending = try XCTUnwrap(items.first { $0["item"] as? String == "spending:KRW" })
        XCTAssertEqual(spending["this_month"] as? Int, 20_000)
        XCTAssertEqual(spending["previous_month"] as? Int, 10_000, "Oct 28 is after Oct 23")
        let weight = try XCTUnwrap(items.first { ($0["item"] as? String)?.hasPrefix("weight_grams:") == true })
        XCTAssertEqual(weight["previous_month"] as? Int, 4100, "the last weight on or before Oct 23")
        // Wide enough for the title on one line (at 80 columns it wraps).
        let en = try run(["stats", "--currency", "KRW"], env: ["COLUMNS": "200"]).stdout
        XCTAssertTrue(en.contains("Nov 1–23 against Oct 1–23: the month so far against the same days of the previous month"), en)
        XCTAssertFalse(en.contains("+0") || en.contains("−0") || en.contains("Δ −0"), en)
        let ko = try run(["stats", "--currency", "KRW"], env: Self.korean)
        XCTAssertTrue(ko.stdout.contains("11월 1–23일과 10월 1–23일 비교"), ko.stdout)
        let ja = try run(["stats", "--currency", "KRW"], env: Self.japanese)
        XCTAssertTrue(ja.stdout.contains("11月1日–23日と10月1日–23日の比較"), ja.stdout)
        // A past month is whole against the whole month before it.
        let october = try XCTUnwrap(try json("stats", "--month", "2026-10", "--currency", "KRW") as? [String: Any])
        XCTAssertEqual(october["same_days"] as? Bool, false)
        XCTAssertEqual(october["days"] as? [String: String], ["first": "2026-10-01", "last": "2026-10-31"])
        let whole = try XCTUnwrap((october["items"] as? [[String: Any]])?.first { $0["item"] as? String == "spending:KRW" })
        XCTAssertEqual(whole["this_month"] as? Int, 60_000)
        XCTAssertTrue(try ok("stats", "--month", "2026-10", "--currency", "KRW").contains("Oct 2026 against Sep 2026"))
    }

    // MARK: input

    /// Full-width digits and units, a space before the unit and pounds with ounces, wherever a number is typed.
    func testNumbersAreReadAsPeopleTypeThemEverywhere() throws {
        try ok("pet", "add", "Coco", "--species", "dog")
        let accepted: [[String]] = [
            ["weight", "Coco", "１.２kg"], ["weight", "Coco", "4.2", "kg"], ["weight", "Coco", "4.2 kg"], ["weight", "Coco", "9", "lb", "4", "oz"],
            ["weight", "Coco", "4kg", "--bcs", "５"],
            ["meal", "Coco", "kibble", "８０ｇ"], ["meal", "Coco", "kibble", "80", "g"], ["meal", "Coco", "kibble", "80 g"],
            ["meal", "Coco", "kibble", "1 lb 4 oz"], ["meal", "Coco", "kibble", "１.２ｋｇ"],
            ["stool", "Coco", "４"], ["symptom", "Coco", "vomiting", "--severity", "３", "--duration", "１２ｈ"],
            ["med", "start", "Coco", "Apoquel", "--dose", "５ mg", "--every", "１２ｈ"],
            ["expense", "Coco", "１２０００", "KRW"], ["expense", "Coco", "12000 KRW"], ["expense", "Coco", "１２，０００원"],
            ["budget", "set", "３０００００", "KRW"], ["budget", "set", "Coco", "120 USD"],
            ["visit", "Coco", "--cost", "８５０００원", "--weight", "４.３ kg"], ["visit", "Coco", "--cost", "85000 KRW", "--weight", "9 lb 4 oz"],
        ]
        for args in accepted {
            let r = try run(args)
            XCTAssertEqual(r.status, 0, "\(args): \(r.stderr)")
        }
        let weights = try XCTUnwrap(try json("log", "Coco", "--kind", "weight") as? [[String: Any]])
        let grams = weights.compactMap { ($0["weight"] as? [String: Any])?["grams"] as? Int }.sorted()
        XCTAssertEqual(grams, [1200, 4000, 4196, 4200, 4200], "\(weights)")
        let meals = try XCTUnwrap(try json("log", "Coco", "--kind", "meal") as? [[String: Any]])
        XCTAssertEqual(meals.count, 5)
        // edit takes the same forms.
        let weightId = try XCTUnwrap(weights.first?["id"] as? Int), mealId = try XCTUnwrap(meals.first?["id"] as? Int)
        for args in [["edit", String(weightId), "--weight", "４.５ kg"], ["edit", String(weightId), "--weight", "9 lb 4 oz"],
                     ["edit", String(mealId), "--amount", "９０ ｇ"], ["edit", String(weightId), "--bcs", "６"]] {
            let r = try run(args)
            XCTAssertEqual(r.status, 0, "\(args): \(r.stderr)")
        }
    }

    /// A Korean or Japanese refusal shows its examples in the words that language types: 오늘, 3일 전, 今日, 3日前.
    func testExamplesInRefusalsUseLocalTimeWords() throws {
        try ok("pet", "add", "Coco", "--species", "dog")
        let ko = try run(["vaccine", "Coco", "rabies", "--date", "someday"], env: Self.korean)
        XCTAssertTrue(ko.stderr.contains("오늘") && ko.stderr.contains("3일 전"), ko.stderr)
        let ja = try run(["vaccine", "Coco", "rabies", "--date", "someday"], env: Self.japanese)
        XCTAssertTrue(ja.stderr.contains("今日") && ja.stderr.contains("3日前"), ja.stderr)
        for (env, args) in [(Self.korean, ["weight", "Coco", "4kg", "--at", "someday"]), (Self.japanese, ["weight", "Coco", "4kg", "--at", "someday"]),
                            (Self.korean, ["due", "--within", "soon"]), (Self.japanese, ["due", "--within", "soon"])] {
            let r = try run(args, env: env)
            XCTAssertNotEqual(r.status, 0)
            for english in ["today", "yesterday", "now", "-2d", "-3d", "30d", "2w", "1y", "12h"] {
                XCTAssertNil(r.stderr.range(of: "(?<![\\w-])\(english)(?![\\w])", options: .regularExpression), "\(args): \(r.stderr)")
            }
        }
    }
}
