import XCTest
import PetModel
@testable import Localization

/// Issue 18, "words": one word per concept (docs/glossary.md), input names and durations from the
/// tables, one precision per mass unit, and no `+0`/`−0`.
final class WordsTests: XCTestCase {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// The glossary's rows: concept → (ko word, ja word, ko words ruled out, ja words ruled out).
    static func glossary() throws -> [(concept: String, ko: String, ja: String, koNot: [String], jaNot: [String])] {
        let text = try String(contentsOf: root.appendingPathComponent("docs/glossary.md"), encoding: .utf8)
        var rows: [(String, String, String, [String], [String])] = []
        for line in text.split(separator: "\n") where line.hasPrefix("| ") && !line.hasPrefix("| concept") {
            let cells = line.split(separator: "|", omittingEmptySubsequences: false).dropFirst().dropLast()
                .map { $0.trimmingCharacters(in: .whitespaces) }
            guard cells.count == 6 else { continue }
            func words(_ s: String) -> [String] { s.split(separator: "/").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty } }
            rows.append((cells[0], cells[2], cells[3], words(cells[4]), words(cells[5])))
        }
        return rows
    }

    func testTablesUseOnlyTheGlossarysWordForEachConcept() throws {
        let rows = try Self.glossary()
        XCTAssertGreaterThanOrEqual(rows.count, 8, "docs/glossary.md lost its table")
        let tables = L10n.tables
        for row in rows {
            for (language, chosen, ruledOut) in [(Language.ko, row.ko, row.koNot), (.ja, row.ja, row.jaNot)] {
                // A kind's short forms (`kindWords.*`) are words petlog reads, never says: 똥 and おしっこ are typed.
                let table = (tables[language] ?? [:]).filter { !$0.key.contains("Words.") }
                XCTAssertTrue(table.values.contains { $0.contains(chosen) }, "\(language): \"\(chosen)\" (\(row.concept)) is used nowhere")
                for word in ruledOut {
                    let users = table.filter { $0.value.contains(word) }.keys.sorted()
                    XCTAssertEqual(users, [], "\(language): \"\(word)\" is used for \(row.concept), which is \"\(chosen)\"")
                }
            }
        }
    }

    /// The Korean report says 최고 중증도 in its table and the same 중증도 on each record line.
    func testSeverityIsOneWord() {
        XCTAssertTrue(L10n(.ko).text(.reportMaxSeverity).contains("중증도"))
        XCTAssertTrue(L10n(.ko).text(.fieldSeverity(severity: "3")).contains("중증도"))
        XCTAssertTrue(L10n(.ja).text(.fieldSeverity(severity: "3")).contains("重症度"))
    }

    /// Every input name the sources pass as a `field:` (or an option to `Choice.value`, or a day
    /// checked against its start) has a name in every language, and the Korean and Japanese ones are
    /// words of those languages, not the English identifier.
    func testEveryFieldNamedInAMessageHasALocalizedName() throws {
        let sources = Self.root.appendingPathComponent("Sources")
        let files = FileManager.default.enumerator(at: sources, includingPropertiesForKeys: nil)?
            .compactMap { $0 as? URL }.filter { $0.pathExtension == "swift" } ?? []
        let patterns = [#"field: "([^"]+)""#, #"\.value\("(--[a-z-]+)"\)"#, #"check\([^,()]+, "([^"]+)"\)"#]
        var names: Set<String> = []
        for file in files {
            let text = try String(contentsOf: file, encoding: .utf8)
            for p in patterns {
                let regex = try NSRegularExpression(pattern: p)
                for m in regex.matches(in: text, range: NSRange(text.startIndex..., in: text)) {
                    if let r = Range(m.range(at: 1), in: text) { names.insert(String(text[r])) }
                }
            }
        }
        XCTAssertGreaterThan(names.count, 30, "the source scan found too few field names")
        for name in names.sorted() {
            let bare = String(name.drop { $0 == "-" }).replacingOccurrences(of: "_", with: "-")
            XCTAssertNotNil(L10n.Key(rawValue: "fieldname." + bare), "\(name) has no entry")
            for language in [Language.ko, .ja] {
                // The option typed may stand beside the name; the name itself is in the language.
                let shown = L10n(language).fieldName(name).replacingOccurrences(of: name, with: "")
                XCTAssertFalse(shown.unicodeScalars.contains { ("a"..."z").contains(Character($0)) || ("A"..."Z").contains(Character($0)) },
                               "\(language): \(name) is shown as \(shown)")
            }
        }
        XCTAssertEqual(L10n(.ko).fieldName("--severity"), "중증도(--severity)")
        XCTAssertEqual(L10n(.ja).fieldName("--until"), "終了日（--until）")
        XCTAssertEqual(L10n(.en).fieldName("--until"), "--until", "English names the option as typed")
        XCTAssertEqual(L10n(.en).fieldName("score"), "stool score")
        XCTAssertEqual(L10n(.ja).fieldName("diary"), "日記")
        XCTAssertEqual(L10n(.ko).fieldName("duration_minutes"), "지속 시간(분)")
        XCTAssertEqual(L10n(.en).fieldName("owner's own"), "owner's own")
    }

    func testDurationsUseTheLargestWholeUnit() throws {
        let ja = ValueFormatter(L10n(.ja), unitSystem: .metric), ko = ValueFormatter(L10n(.ko), unitSystem: .metric)
        let en = ValueFormatter(L10n(.en), unitSystem: .metric)
        XCTAssertEqual(ja.duration(seconds: 720 * 60), "12時間")
        XCTAssertEqual(ko.duration(seconds: 7 * 86_400), "1주")
        XCTAssertEqual(ko.duration(seconds: 3 * 86_400), "3일")
        XCTAssertEqual(ja.duration(seconds: 90 * 60), "90分")
        XCTAssertEqual(en.duration(seconds: 14 * 86_400), "2 wk")
        XCTAssertEqual(en.duration(minutes: .max), en.l10n.text(.unitMinutes(n: String(Int.max))), "a stored extreme is shown, not multiplied")
        XCTAssertEqual(ko.duration(minutes: -60), "-60분")
        XCTAssertEqual(L10n(.ko).text(.chartSmoothLabel(window: ko.span(try Span.parse("7d", allowCalendarUnits: false)))), "7일 이동평균")
        XCTAssertEqual(L10n(.ja).text(.chartSmoothLabel(window: ja.span(try Span.parse("4w", allowCalendarUnits: false)))), "4週 移動平均")
        XCTAssertEqual(en.span(try Span.parse("12h", allowCalendarUnits: false)), "12 h")
    }

    func testSymptomDurationIsInHoursNotMinutes() {
        let time = TimeContext(now: Date(timeIntervalSince1970: 1_795_395_600), timeZone: TimeZone(identifier: "Asia/Tokyo") ?? .current)
        let ja = RecordWording(ValueFormatter(L10n(.ja), unitSystem: .metric), time: time)
        let at = Date(timeIntervalSince1970: 1_795_300_000)
        let record = PetRecord(id: 1, petId: 1, petName: "Coco", at: at, utcOffset: 32_400, note: nil, starred: false, createdAt: at, updatedAt: at,
                               detail: .symptom(Symptom(code: "vomiting", isListed: true, severity: 3, durationMinutes: 720)))
        let text = ja.summary(record)
        XCTAssertTrue(text.contains("12時間"), text)
        XCTAssertFalse(text.contains("720"), text)
    }

    func testMassesHaveOnePrecisionPerUnit() {
        let metric = ValueFormatter(L10n(.en), unitSystem: .metric), imperial = ValueFormatter(L10n(.en), unitSystem: .imperial)
        XCTAssertEqual(metric.mass(Mass(grams: 3600)), "3.60 kg")
        XCTAssertEqual(metric.mass(Mass(grams: 3610)), "3.61 kg")
        XCTAssertEqual(metric.mass(Mass(grams: 25000)), "25.00 kg")
        XCTAssertEqual(metric.mass(Mass(grams: 120_500)), "120.50 kg")
        XCTAssertEqual(metric.mass(Mass(grams: 850)), "850 g")
        XCTAssertEqual(imperial.mass(Mass(grams: 4536)), "10.00 lb")
        XCTAssertEqual(imperial.mass(Mass(grams: 340)), "12.0 oz")
        XCTAssertEqual(ValueFormatter.massNumber(3.6, unit: "kg"), "3.60")
        XCTAssertEqual(ValueFormatter.massNumber(9.255, unit: "lb"), "9.26")
        XCTAssertEqual(ValueFormatter.fixed(-0.001, digits: 2), "0.00")
    }

    func testAZeroChangeIsNeverSigned() {
        XCTAssertEqual(ValueFormatter.signedChange(0, digits: 1), "±0")
        XCTAssertEqual(ValueFormatter.signedChange(-0.04, digits: 1), "±0")
        XCTAssertEqual(ValueFormatter.signedChange(0.04, digits: 1), "±0")
        XCTAssertEqual(ValueFormatter.signedChange(-0.5, digits: 1), "−0.5")
        XCTAssertEqual(ValueFormatter.signedChange(3, digits: 0), "+3")
        XCTAssertEqual(ValueFormatter.signedPercent(0), "±0%")
        XCTAssertEqual(ValueFormatter.signedPercent(-7), "−7%")
        let f = ValueFormatter(L10n(.ko), unitSystem: .metric)
        XCTAssertEqual(f.massChange(MassChange(from: Mass(grams: 4000), to: Mass(grams: 4000))), "±0")
    }
}
