import Foundation
import XCTest
import Localization
import PetModel
@testable import PetViews

/// The timeline and the table layout are pure: lines in, lines out, for any width.
final class TimelinePresenterTests: XCTestCase {
    let context = TimeContext(now: Date(timeIntervalSince1970: 1_795_395_600), timeZone: TimeZone(identifier: "Asia/Seoul") ?? .current)

    private func record(_ id: Int64, hoursAgo: Double, offset: Int = 32400, pet: String = "Coco", note: String? = nil, starred: Bool = false,
                        _ detail: RecordDetail) -> PetRecord {
        let at = context.now.addingTimeInterval(-hoursAgo * 3600)
        return PetRecord(id: id, petId: 1, petName: pet, at: at, utcOffset: offset, note: note, starred: starred, createdAt: at, updatedAt: at, detail: detail)
    }

    private func presenter(_ language: Language = .en, columns: Int = 100, colors: Bool = false) -> TimelinePresenter {
        let l10n = L10n(language), format = ValueFormatter(l10n, unitSystem: .metric)
        return TimelinePresenter(screen: TextScreen(colors: colors, columns: columns), l10n: l10n, format: format,
                                 wording: RecordWording(format, time: context), time: context)
    }

    func testDaysThenAlignedRecords() {
        let records = [record(9, hoursAgo: 1, note: "a\u{1B}[2Jb", starred: true, .diary(Diary(text: "walk"))),
                       record(10, hoursAgo: 30, pet: "Nabi\u{202E}", .weight(Weight(mass: Mass(grams: 4250))))]
        let lines = presenter().lines(records, showPet: true)
        XCTAssertEqual(lines.count, 5, lines.joined(separator: "\n"))
        XCTAssertEqual(lines[2], "")
        // The older day first.
        XCTAssertTrue(lines[1].hasPrefix("  #10  "), lines[1])
        XCTAssertTrue(lines[4].hasPrefix("   #9  "), lines[4])
        XCTAssertTrue(lines[4].hasSuffix(" ★"), lines[4])
        XCTAssertFalse(lines.joined().contains("\u{1B}"), "no control character from a note reaches the terminal")
        XCTAssertFalse(lines.joined().contains("\u{202E}"))
        // The kind column starts at the same display column on both lines.
        let kind1 = lines[4].range(of: "diary"), kind2 = lines[1].range(of: "weight")
        XCTAssertEqual(kind1.map { lines[4].distance(from: lines[4].startIndex, to: $0.lowerBound) },
                       kind2.map { lines[1].distance(from: lines[1].startIndex, to: $0.lowerBound) })
    }

    func testEmptyWriterOffsetAndColours() {
        XCTAssertEqual(presenter(.ko).lines([], showPet: false), [L10n(.ko).text(.logEmpty)])
        let away = record(3, hoursAgo: 2, offset: -8 * 3600, .diary(Diary(text: "x")))
        let lines = presenter(columns: 200).lines([away], showPet: false, showWriter: true)
        XCTAssertTrue(lines[1].contains("-08:00"), lines[1])
        XCTAssertTrue(lines[1].hasSuffix(L10n(.en).text(.logWrittenBy(role: "-"))), lines[1])
        XCTAssertTrue(presenter(colors: true).lines([away], showPet: false)[0].hasPrefix("\u{1B}[1m"))
    }

    func testLongLinesWrapWithinTheWidth() {
        let long = record(1, hoursAgo: 1, .diary(Diary(text: String(repeating: "word ", count: 40))))
        for columns in [30, 50, 80] {
            let lines = presenter(columns: columns).lines([long], showPet: false)
            XCTAssertGreaterThan(lines.count, 2)
            for l in lines { XCTAssertLessThanOrEqual(DisplayColumns.width(l), columns, "\(columns): \(l)") }
        }
    }

    func testTableFitsOrStacks() {
        let screen = TextScreen(colors: false, columns: 40)
        let wide = screen.table(header: ["A", "B"], rows: [["x\u{7}", "yy"]])
        XCTAssertEqual(wide[0], "A" + String(repeating: " ", count: DisplayColumns.width(PlainText.sanitized("x\u{7}")) + 1) + "B")
        XCTAssertEqual(wide.count, 2)
        XCTAssertFalse(wide[1].contains("\u{7}"))
        let narrow = TextScreen(colors: false, columns: 12).table(header: ["Name", "Species", "Breed"], rows: [["Coco", "dog", "Maltese mix"]])
        XCTAssertEqual(narrow.first, "Name")
        // Stacked: the first cell, then the others below it, each on its own line when they do not fit side by side.
        XCTAssertEqual(narrow, ["Name", "  Species", "  Breed", "Coco", "  dog", "  Maltese mix"])
        XCTAssertTrue(narrow.contains { $0.hasPrefix("Coco") })
    }
}
