import Foundation
import XCTest
import Localization
import PetCharts
import PetModel
import PetStoreCore
@testable import PetViews

/// The presenters moved out of the CLI: lines in, lines out, for any width and language.
final class PresenterTests: XCTestCase {
    let zone = TimeZone(identifier: "Asia/Seoul") ?? .current
    /// Monday 2026-11-23, 10:00 in Seoul.
    let now = Date(timeIntervalSince1970: 1_795_395_600)
    var time: TimeContext { TimeContext(now: now, timeZone: zone) }

    func context(_ language: Language = .en, columns: Int = 80, colors: Bool = false, sundayFirst: Bool = false) -> PresentationContext {
        let l10n = L10n(language), format = ValueFormatter(l10n, unitSystem: .metric)
        return PresentationContext(screen: TextScreen(colors: colors, columns: columns), l10n: l10n, format: format,
                                   wording: RecordWording(format, time: time), time: time, weekStartsOnSunday: sundayFirst)
    }

    func day(_ y: Int, _ m: Int, _ d: Int) -> LocalDate { LocalDate(clamping: y, month: m, day: d) }

    func testTheCalendarGridFollowsTheWeekStartAndMarksToday() {
        let first = day(2026, 11, 1)
        let days = (0..<30).map { first.adding(days: $0) }
        let marks: [LocalDate: [RecordKind: Int]] = [day(2026, 11, 20): [.weight: 1, .meal: 2]]
        let monday = CalendarPresenter(context()).records(first: first, days: days, marks: marks)
        // Nov 1, 2026 is a Sunday: Monday-first puts it in the last column of the first week.
        XCTAssertTrue(monday[1].hasPrefix(" Mon"), monday[1])
        XCTAssertEqual(monday[2].trimmingCharacters(in: .whitespaces), "1")
        XCTAssertTrue(monday.contains { $0.contains("[23]") }, "today in brackets without colour")
        let sunday = CalendarPresenter(context(sundayFirst: true)).records(first: first, days: days, marks: marks)
        XCTAssertTrue(sunday[1].hasPrefix(" Sun"), sunday[1])
        XCTAssertTrue(sunday[2].hasPrefix("  1 "), sunday[2])
        // Marks under the 20th: one letter per kind, in the kinds' order.
        let row = sunday.firstIndex { $0.hasPrefix(" 15 ") } ?? 0
        let marksLine = sunday[row + 1]
        let expected = String(RecordKind.allCases.filter { $0 == .weight || $0 == .meal }.map(\.calendarMark))
        // Nov 20 is that week's Friday: the sixth cell of 7 columns.
        XCTAssertEqual(String(marksLine.dropFirst(5 * 7 + 1).prefix(2)), expected, marksLine)
        // The legend wraps between entries on a narrow screen.
        let narrow = CalendarPresenter(context(columns: 30)).records(first: first, days: days, marks: marks)
        XCTAssertTrue(narrow.allSatisfy { DisplayColumns.width($0) <= 30 }, narrow.joined(separator: "\n"))
    }

    func testSpendingCalendarListsTheDaysWhenAmountsDoNotFitUnderThem() throws {
        let usd = try XCTUnwrap(Currency.named("USD"))
        let entries = [SpendingEntry(recordId: 1, petId: 1, petName: "Coco", at: now.addingTimeInterval(-86_400 * 3), utcOffset: 32_400,
                                     money: Money(minorUnits: 1_234_567, currency: usd), category: "vet")]
        let daily = DailySpending(entries, month: day(2026, 11, 1), in: usd, rates: RateTable([]), context: time)
        let ahead = SpendingAhead(entries, in: usd, rates: RateTable([]), now: now)
        let wide = CalendarPresenter(context()).spending(first: day(2026, 11, 1), daily: daily, ahead: ahead, home: usd)
        // Cut, not rounded, and under the day where 7 columns a day fit.
        XCTAssertTrue(wide.contains { $0.hasPrefix(String(repeating: " ", count: 4 * 7 + 1) + "12,345") }, wide.joined(separator: "\n"))
        let narrow = CalendarPresenter(context(columns: 28)).spending(first: day(2026, 11, 1), daily: daily, ahead: ahead, home: usd)
        XCTAssertTrue(narrow.contains("  Nov 20 Fri  12,345"), narrow.joined(separator: "\n"))
        XCTAssertTrue(narrow.contains { $0.contains("$12,345.67") }, "the month's total in full")
    }

    func testABudgetOverItsAmountIsSaidInWordsAndRedOnlyInColour() {
        let budget = Budget(amount: Money(minorUnits: 10_000, currency: .krw), period: .monthly, name: "Food", people: 2)
        let status = BudgetStatus(budget: budget, items: [SpendingItem(day: day(2026, 11, 20), money: Money(minorUnits: 12_500, currency: .krw), category: "food")],
                                  asOf: day(2026, 11, 23))
        let plain = BudgetPresenter(context()).statusLines(budget, status, on: day(2026, 11, 23), detailed: false)
        XCTAssertTrue(plain[0].contains("₩2,500"), plain[0])
        XCTAssertFalse(plain.joined().contains("\u{1B}["), "no colour on a plain screen")
        XCTAssertTrue(plain.contains { $0.contains("2") && $0.contains(":") }, "per person: \(plain)")
        let coloured = BudgetPresenter(context(colors: true)).statusLines(budget, status, on: day(2026, 11, 23), detailed: false)
        XCTAssertTrue(coloured[0].contains("\u{1B}[31m"), coloured[0])
        let stored = StoredBudget(id: 3, petId: nil, petName: nil, budget: budget)
        XCTAssertEqual(BudgetPresenter(context()).label(budget), "Food · 2 people")
        XCTAssertTrue(BudgetPresenter(context(.ko)).describe(stored, activePets: 2).hasPrefix("Food · 2명"),
                      BudgetPresenter(context(.ko)).describe(stored, activePets: 2))
    }

    func testTextBarsFitTheScreenAndScaleToTheLargest() {
        let stacks = [BarStack(label: "a", color: .palette(0), values: [1, 4, 0])]
        let lines = TextChartPresenter(context(columns: 30)).bars(title: "T\u{1B}[2J", categories: ["Jan", "Feb", "Mar"], stacks: stacks)
        XCTAssertEqual(lines[0], PlainText.sanitized("T\u{1B}[2J"))
        XCTAssertFalse(lines[0].contains("\u{1B}"), "a title is user text")
        XCTAssertEqual(lines.count, 4)
        let bars = lines.dropFirst().map { $0.filter { $0 == "█" }.count }
        XCTAssertEqual(bars[2], 0)
        XCTAssertEqual(bars[1], 30 - 3 - 2 - 1 - 1, "the longest takes what the labels and totals leave")
        XCTAssertEqual(bars[0], Int((Double(bars[1]) / 4).rounded()))
        XCTAssertTrue(lines.allSatisfy { DisplayColumns.width($0) <= 30 }, lines.joined(separator: "\n"))
        XCTAssertEqual(TextChartPresenter(context()).bars(title: "T", categories: ["x"], stacks: [BarStack(label: "a", color: .palette(0), values: [0])]),
                       ["T", L10n(.en).text(.chartNoData)])
    }

    func testThePresentersShareOneContext() {
        let c = context(.ja, columns: 50)
        let records = [PetRecord(id: 7, petId: 1, petName: "ココ", at: now, utcOffset: 32_400, note: nil, starred: false, createdAt: now, updatedAt: now,
                                 detail: .weight(Weight(mass: Mass(grams: 4250))))]
        let viaContext = TimelinePresenter(c).lines(records, showPet: true)
        let viaFields = TimelinePresenter(screen: c.screen, l10n: c.l10n, format: c.format, wording: c.wording, time: c.time).lines(records, showPet: true)
        XCTAssertEqual(viaContext, viaFields)
        XCTAssertEqual(RecordDetailPresenter(c).fields(records[0]).map(\.1), RecordDetailPresenter(screen: c.screen, l10n: c.l10n, format: c.format,
                                                                                                     wording: c.wording, time: c.time).fields(records[0]).map(\.1))
        XCTAssertTrue(viaContext.allSatisfy { DisplayColumns.width($0) <= 50 })
    }
}
