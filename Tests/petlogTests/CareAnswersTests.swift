import Foundation
import XCTest
import PetlogTestSupport

/// The care answers of issue 42 that went wrong in plain use: each test failed before its fix.
final class CareAnswersTests: CLITestCase {
    static let american = ["LANG": "en_US.UTF-8"], posix = ["LANG": "C"]
    static let korean = ["LANG": "ko_KR.UTF-8"], japanese = ["LANG": "ja_JP.UTF-8"]

    /// The next due days of `pet`'s vaccinations, oldest first.
    func nextDue(_ pet: String) throws -> [String] {
        try records(["log", pet, "--kind", "vaccination"]).sorted { ($0["id"] as? Int ?? 0) < ($1["id"] as? Int ?? 0) }
            .map { detail($0)["next_due"] as? String ?? "-" }
    }

    // MARK: Vaccine series past 16 weeks

    /// A 17-week-old kitten's or puppy's first recorded core dose is its initial course, not a three-yearly booster.
    func testASeventeenWeekOldsFirstCoreDoseIsFollowedByItsCourseAndFirstBooster() throws {
        // Now is 2026-11-23: born 2026-07-26, they are 17 weeks old.
        try ok("pet", "add", "Tama", "--species", "cat", "--born", "2026-07-26")
        try ok("pet", "add", "Bori", "--species", "dog", "--born", "2026-07-26")
        let tama = try run(["vaccine", "Tama", "fvrcp"], env: Self.american)
        XCTAssertEqual(tama.status, 0, tama.stderr)
        XCTAssertTrue(tama.stdout.contains("2026-12-14"), "a second FHV/FCV dose three weeks later: \(tama.stdout)")
        XCTAssertTrue(try ok("vaccine", "Bori", "dhpp").contains("2027-01-24"), "the first booster at 26 weeks")
        // The whole course, each dose given on the day petlog said: born 2026-05-01, first dose at 17 weeks.
        try ok("pet", "add", "Kit", "--species", "cat", "--born", "2026-05-01")
        try ok("pet", "add", "Pup", "--species", "dog", "--born", "2026-05-01")
        for day in ["2026-08-28", "2026-09-18", "2026-10-30"] { try ok("vaccine", "Kit", "fvrcp", "--date", day) }
        XCTAssertEqual(try nextDue("Kit"), ["2026-09-18", "2026-10-30", "2029-10-30"])
        for day in ["2026-08-28", "2026-10-30"] { try ok("vaccine", "Pup", "dhpp", "--date", day) }
        XCTAssertEqual(try nextDue("Pup"), ["2026-10-30", "2029-10-30"])
    }

    // MARK: Enumerated choices in the user's language

    /// Every fixed choice of the CLI reads its words in en/ko/ja whatever the UI language, and common short forms.
    func testEveryChoiceReadsItsWordsInEveryLanguage() throws {
        let languages = [Self.korean, Self.japanese, Self.american, Self.posix]
        // Every species by its Korean, Japanese and English name, under every UI language.
        let species: [(code: String, words: [String])] = [
            ("dog", ["개", "犬", "dog", "강아지", "いぬ"]), ("cat", ["고양이", "猫", "cat", "ねこ", "냥이"]),
            ("rabbit", ["토끼", "ウサギ", "rabbit"]), ("ferret", ["페럿", "フェレット", "ferret"]),
            ("parrot", ["앵무새", "オウム・インコ", "parrot", "インコ"]), ("hamster", ["햄스터", "ハムスター", "hamster"]),
            ("guinea-pig", ["기니피그", "モルモット", "guinea pig"]), ("tortoise", ["육지거북", "リクガメ", "tortoise"]),
            ("bird", ["새", "鳥", "bird"]), ("reptile", ["파충류", "爬虫類", "reptile"]), ("fish", ["물고기", "魚", "fish"]),
            ("other", ["기타", "その他", "other"]),
        ]
        var n = 0
        for (code, words) in species {
            for (i, word) in words.enumerated() {
                n += 1
                let r = try run(["pet", "add", "P\(n)", "--species", word], env: languages[i % languages.count])
                XCTAssertEqual(r.status, 0, "\(word): \(r.stderr)")
                let pets = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(try ok("pet", "show", "P\(n)", "--json").utf8)) as? [String: Any])
                XCTAssertEqual(pets["species"] as? String, code, word)
            }
        }
        // Sex, archive reason, mood, urine amount, route, severity, kind, units: a word of each in each language.
        for (i, sex) in ["암컷", "メス", "female", "f", "수컷", "オス", "male"].enumerated() {
            XCTAssertEqual(try run(["pet", "edit", "P1", "--sex", sex], env: languages[i % 4]).status, 0, sex)
        }
        for (i, mood) in ["기분 좋음", "ごきげん", "happy", "피곤함", "疲れ気味"].enumerated() {
            let r = try run(["diary", "P1", "x", "--mood", mood], env: languages[i % 4])
            XCTAssertEqual(r.status, 0, "\(mood): \(r.stderr)")
        }
        for (i, amount) in ["적음", "少なめ", "small", "많음", "多め"].enumerated() {
            let r = try run(["urine", "P1", "--amount", amount], env: languages[i % 4])
            XCTAssertEqual(r.status, 0, "\(amount): \(r.stderr)")
        }
        for (i, route) in ["경구", "経口", "oral", "点眼", "안약"].enumerated() {
            let r = try run(["med", "start", "P1", "Drug\(i)", "--route", route, "--every", "1d"], env: languages[i % 4])
            XCTAssertEqual(r.status, 0, "\(route): \(r.stderr)")
        }
        for (i, severity) in ["심함", "重い", "severe", "mild", "가벼움", "3"].enumerated() {
            let r = try run(["symptom", "P1", "vomiting", "--severity", severity], env: languages[i % 4])
            XCTAssertEqual(r.status, 0, "\(severity): \(r.stderr)")
        }
        let levels = try records(["log", "P1", "--kind", "symptom"]).sorted { ($0["id"] as? Int ?? 0) < ($1["id"] as? Int ?? 0) }
            .map { detail($0)["severity"] as? Int ?? 0 }
        XCTAssertEqual(levels, [5, 5, 5, 1, 1, 3])
        let moods = try records(["log", "P1", "--kind", "일기"], env: Self.japanese).compactMap { detail($0)["mood"] as? String }
        XCTAssertEqual(Set(moods), ["happy", "tired"])
        try ok("weight", "P1", "4kg")
        for (i, kind) in ["체중", "体重", "weight", "몸무게", "体重、症状"].enumerated() {
            let r = try records(["log", "P1", "--kind", kind], env: languages[i % 4])
            XCTAssertTrue(r.contains { $0["kind"] as? String == "weight" }, kind)
            XCTAssertFalse(r.contains { $0["kind"] as? String == "diary" }, kind)
        }
        for (i, units) in ["미터법", "メートル法", "imperial", "ヤード・ポンド法"].enumerated() {
            let r = try run(["--unit", units, "log", "P1", "--kind", "weight"], env: languages[i % 4])
            XCTAssertEqual(r.status, 0, "\(units): \(r.stderr)")
        }
        for (i, reason) in ["실종", "迷子", "lost"].enumerated() {
            let r = try run(["pet", "archive", "P\(20 + i)", "--reason", reason], env: languages[i % 4])
            XCTAssertEqual(r.status, 0, "\(reason): \(r.stderr)")
        }
        // A word of no choice is still refused, in the user's language, naming the words it takes.
        let bad = try run(["pet", "add", "Nope", "--species", "드래곤"], env: Self.korean)
        XCTAssertEqual(bad.status, 65)
        XCTAssertTrue(bad.stderr.contains("cat(고양이)"), bad.stderr)
    }

    /// A disease's short form names the vaccine that covers it: `カリシ` is the cat's FVRCP, as `カリシウイルス` is.
    func testAShortDiseaseNameIsItsVaccine() throws {
        try ok("pet", "add", "タマ", "--species", "猫")
        for name in ["カリシ", "カリシウイルス", "猫カリシ"] {
            let r = try run(["vaccine", "タマ", name], env: Self.japanese)
            XCTAssertEqual(r.status, 0, r.stderr)
            XCTAssertTrue(r.stdout.contains("FVRCP"), "\(name): \(r.stdout)")
        }
        let codes = try records(["log", "タマ", "--kind", "vaccination"]).map { detail($0)["vaccine"] as? String }
        XCTAssertEqual(Set(codes), ["fvrcp"], "\(codes)")
    }

    // MARK: Courses

    /// A dose of a course taken less often than daily is due on its day: a course started now is not overdue a
    /// minute later (in `due`, `due --check` and the report's alerts), only once its day has passed.
    func testAMonthlyCourseIsNotOverdueAMinuteAfterItStarts() throws {
        try ok("pet", "add", "Coco", "--species", "dog")
        try ok("med", "start", "Coco", "Heartgard", "--every", "30d")
        let minuteLater = ["PETLOG_NOW": "2026-11-23T10:01:00+09:00"]
        let items = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(try run(["due", "--json"], env: minuteLater).stdout.utf8)) as? [[String: Any]])
        XCTAssertEqual(items.first?["overdue"] as? Bool, false, "\(items)")
        XCTAssertEqual(try run(["due", "--check"], env: minuteLater).status, 0)
        let table = try run(["due"], env: minuteLater.merging(Self.american) { $1 }).stdout
        XCTAssertFalse(table.contains("late"), table)
        let pdf = home.appendingPathComponent("r.pdf").path
        XCTAssertEqual(try run(["report", "Coco", "-o", pdf], env: minuteLater).status, 0)
        XCTAssertFalse(try pdfText(pdf).lowercased().contains("overdue"), "no alert for a dose due today")
        // The next day it is late, by days.
        let dayLater = ["PETLOG_NOW": "2026-11-24T10:01:00+09:00"]
        XCTAssertEqual(try run(["due", "--check"], env: dayLater).status, 1)
        XCTAssertTrue(try run(["due"], env: dayLater).stdout.contains("1 d late"))
        // A daily course keeps its minutes: 30 min after its time it is late.
        try ok("med", "start", "Coco", "Apoquel", "--every", "1d", "--at", "2026-11-23 09:30")
        XCTAssertTrue(try ok("due").contains("30 min late"))
    }

    /// `--at tomorrow` (or a day) for doses at listed times: the first dose is that day's first listed time.
    func testACourseAtListedTimesStartsOnTheDayItsStartNames() throws {
        try ok("pet", "add", "Nabi", "--species", "cat")
        try ok("med", "start", "Nabi", "Drops", "--times", "08:00", "--at", "tomorrow")
        try ok("med", "start", "Nabi", "Pill", "--times", "08:00,20:00", "--at", "2026-11-25")
        try ok("med", "start", "Nabi", "Ointment", "--times", "09:00", "--at", "내일")
        let list = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(try ok("med", "list", "--json").utf8)) as? [[String: Any]])
        let next = Dictionary(uniqueKeysWithValues: list.map { (($0["medication"] as? [String: Any])?["name"] as? String ?? "", $0["next_dose"] as? String ?? "-") })
        XCTAssertEqual(next["Drops"], "2026-11-24T08:00:00+09:00", "\(list)")
        XCTAssertEqual(next["Pill"], "2026-11-25T08:00:00+09:00", "\(list)")
        XCTAssertEqual(next["Ointment"], "2026-11-24T09:00:00+09:00", "\(list)")
    }

    // MARK: Amounts as typed

    /// A weight finer than the whole grams petlog keeps is refused, not rounded; a small weight never shows as 0.0 oz.
    func testAWeightIsKeptAsTypedOrRefused() throws {
        try ok("pet", "add", "Nabi", "--species", "hamster")
        for env in [Self.american, Self.korean, Self.japanese, Self.posix] {
            let r = try run(["weight", "Nabi", "0.5g"], env: env)
            XCTAssertEqual(r.status, 65, r.stderr)
            XCTAssertTrue(r.stderr.contains("0.5g") && r.stderr.contains("1 g"), r.stderr)
            XCTAssertEqual(r.stderr.split(separator: "\n").count, 1, r.stderr)
        }
        XCTAssertEqual(try records(["log", "Nabi"]).count, 0, "nothing stored")
        let one = try run(["weight", "Nabi", "1g"], env: Self.american)
        XCTAssertTrue(one.stdout.contains("1 g"), one.stdout)
        XCTAssertFalse(one.stdout.contains("0.0 oz"), one.stdout)
        try ok("weight", "Nabi", "1.00oz")
        XCTAssertEqual(try records(["log", "Nabi", "--kind", "weight"]).compactMap { detail($0)["grams"] as? Int }.sorted(), [1, 28])
    }

    /// Water and drinks are volumes: `oz` is a fluid ounce there, `fl oz` is read in any meal; `1.5 cup` is plural.
    func testWaterIsAVolume() throws {
        try ok("pet", "add", "Max", "--species", "dog")
        for (typed, ml) in [("8oz", 236.6), ("8 fl oz", 236.6), ("1l", 1000.0), ("250ml", 250.0)] {
            let r = try run(["meal", "Max", "water", typed], env: Self.american)
            XCTAssertEqual(r.status, 0, "\(typed): \(r.stderr)")
            let meal = try XCTUnwrap(try records(["log", "Max", "--kind", "meal"]).max { ($0["id"] as? Int ?? 0) < ($1["id"] as? Int ?? 0) })
            XCTAssertEqual(detail(meal)["amount_unit"] as? String, "ml", "\(typed): \(meal)")
            XCTAssertEqual(detail(meal)["amount"] as? Double ?? 0, ml, accuracy: 0.05, typed)
        }
        // Food in ounces stays a mass.
        try ok("meal", "Max", "kibble", "8oz")
        let cups = try run(["meal", "Max", "kibble", "1.5", "cup"], env: Self.american)
        XCTAssertTrue(cups.stdout.contains("1.5 cups"), cups.stdout)
        XCTAssertTrue(try run(["meal", "Max", "kibble", "1cup"], env: Self.american).stdout.contains("1 cup"))
    }

    // MARK: Words shown

    /// `due`'s When column writes a dose time on the same clock as its Due column (the language's).
    func testDueSaysADoseTimeOnOneClock() throws {
        try ok("pet", "add", "Coco", "--species", "dog")
        try ok("med", "start", "Coco", "Drops", "--times", "20:00")
        let en = try run(["due"], env: Self.american).stdout
        XCTAssertTrue(en.contains("today 8:00 PM"), en)
        XCTAssertFalse(en.contains("20:00"), en)
        let ko = try run(["due"], env: Self.korean).stdout
        XCTAssertTrue(ko.contains("오후 8:00"), ko)
        XCTAssertFalse(ko.contains("20:00"), ko)
    }
}
