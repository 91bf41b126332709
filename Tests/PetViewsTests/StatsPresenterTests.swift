import Foundation
import XCTest
import Localization
import PetModel
import PetStoreCore
@testable import PetViews

/// `stats` from facts alone, without a database: the rows and their machine keys, the heading of a
/// month under way, money rows with their change, and the same items in `--json`.
final class StatsPresenterTests: XCTestCase {
    let zone = TimeZone(identifier: "Asia/Seoul") ?? .current
    lazy var context = TimeContext(now: Date(timeIntervalSince1970: 1_795_395_600), timeZone: zone)  // 2026-11-23 10:00 +09:00
    let month = LocalDate(clamping: 2026, month: 11, day: 1)

    private func record(_ id: Int64, _ day: Int, _ detail: RecordDetail, month m: Int = 11) -> PetRecord {
        let at = context.startOfDay(LocalDate(clamping: 2026, month: m, day: day)).addingTimeInterval(3600 * 9)
        return PetRecord(id: id, petId: 1, petName: "Coco", at: at, utcOffset: 32400, note: nil, starred: false, createdAt: at, updatedAt: at, detail: detail)
    }

    private func facts(_ records: [PetRecord], spending entries: [SpendingEntry]) -> StatsFacts {
        let periods = ComparedPeriods(month: month, today: context.today)
        var comparison = MonthComparison(records, month: month, context: context, periods: periods)
        comparison.this.lastWeight = [1: Mass(grams: 4250)]
        let rates = RateTable([])
        let spending = SpendingComparison(entries, month: month, in: .krw, rates: rates, context: context, periods: periods)
        return StatsFacts(month: month, periods: periods, comparison: comparison, petNames: [1: "Coco"], spending: spending, home: .krw,
                          monthTotal: Money(minorUnits: spending.total, currency: .krw), ahead: SpendingAhead(entries, in: .krw, rates: rates, now: context.now),
                          budgets: [], activePets: 1, asOf: context.today, isThisMonth: true)
    }

    private func expense(_ id: Int64, _ day: Int, _ minor: Int64, month m: Int) -> SpendingEntry {
        let at = context.startOfDay(LocalDate(clamping: 2026, month: m, day: day)).addingTimeInterval(3600 * 12)
        return SpendingEntry(recordId: id, petId: 1, petName: "Coco", at: at, utcOffset: 32400, money: Money(minorUnits: minor, currency: .krw), category: "food")
    }

    func testRowsCarryTheirMachineKeysAndTheJSONItemsMatch() throws {
        let records = [record(1, 3, .meal(Meal(food: "kibble", type: .meal, amount: nil))), record(2, 4, .meal(Meal(food: "kibble", type: .meal, amount: nil))),
                       record(3, 5, .meal(Meal(food: "chew", type: .treat, amount: nil))), record(4, 6, .meal(Meal(food: "kibble", type: .meal, amount: nil)), month: 10)]
        let f = facts(records, spending: [expense(10, 2, 20000, month: 11), expense(11, 2, 10000, month: 10)])
        let present = StatsPresenter(l10n: L10n(.en), format: ValueFormatter(L10n(.en), unitSystem: .metric), wording: RecordWording(ValueFormatter(L10n(.en), unitSystem: .metric), time: context))
        let rows = present.rows(f, byCode: true)
        XCTAssertEqual(rows.map(\.item.key), ["weight_grams:1", "meals", "treats", "stool_scores", "symptoms", "visits", "vaccines", "doses",
                                              "spending:KRW", "spending:KRW:food"])
        let meals = try XCTUnwrap(rows.first { $0.item.key == "meals" })
        XCTAssertEqual(Array(meals.cells.dropFirst()), ["2", "1", "+1"])
        let money = try XCTUnwrap(rows.first { $0.item.key == "spending:KRW" })
        XCTAssertTrue(money.cells[3].hasSuffix("(+100%)"), money.cells[3])
        let weight = try XCTUnwrap(rows.first)
        XCTAssertEqual(weight.cells[2], "—")
        // A month under way is compared day for day: the heading names both ranges.
        let heading = present.heading(f)
        XCTAssertEqual(heading.header.count, 4)
        XCTAssertEqual(heading.header[1], present.dayRange(f.periods.first, f.periods.last))
        XCTAssertTrue(heading.title.contains(heading.header[2]), heading.title)
        // --json: the same items in the same order, money with its percent change, counts without.
        let text = try JSONView.text(present.json(f, rows: rows))
        XCTAssertTrue(text.contains("\"item\" : \"meals\",\n      \"previous_month\" : 1,\n      \"this_month\" : 2"), text)
        XCTAssertTrue(text.contains("\"percent_change\" : 100"), text)
        XCTAssertTrue(text.contains("\"same_days\" : true"), text)
        XCTAssertEqual(text.components(separatedBy: "percent_change").count - 1, 2, text)
    }

    func testKoreanLabelsAndMerchants() throws {
        var f = facts([], spending: [])
        XCTAssertNil(StatsPresenter(l10n: L10n(.ko), format: ValueFormatter(L10n(.ko), unitSystem: .metric),
                                    wording: RecordWording(ValueFormatter(L10n(.ko), unitSystem: .metric), time: context)).merchants(f))
        f = facts([], spending: [SpendingEntry(recordId: 1, petId: 1, petName: "Coco", at: context.now, utcOffset: 32400,
                                               money: Money(minorUnits: 5000, currency: .krw), category: "food", merchant: "펫\u{1B}[31m마트")])
        let ko = StatsPresenter(l10n: L10n(.ko), format: ValueFormatter(L10n(.ko), unitSystem: .metric),
                                wording: RecordWording(ValueFormatter(L10n(.ko), unitSystem: .metric), time: context))
        let rows = ko.rows(f, byCode: false)
        XCTAssertEqual(rows.first { $0.item.key == "spending:KRW:food" }?.cells.first, "  " + L10n(.ko).code(.category, "food"))
        let merchants = try XCTUnwrap(ko.merchants(f))
        XCTAssertEqual(merchants.lines.count, 1)
        XCTAssertFalse(merchants.lines[0].contains("\u{1B}"), merchants.lines[0])
        XCTAssertTrue(merchants.lines[0].hasPrefix("  "), merchants.lines[0])
    }
}
