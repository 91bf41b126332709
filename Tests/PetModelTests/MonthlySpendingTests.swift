import Foundation
import XCTest
@testable import PetModel

/// `chart expenses`' bars: months, category order, and conversion at each entry's day's rate
/// against hand-computed values (the rates of ExchangeRatesTests' history file).
final class MonthlySpendingTests: XCTestCase {
    func day(_ s: String) -> LocalDate { LocalDate.parseISO(Substring(s))! }
    func money(_ minor: Int64, _ code: String) -> Money { Money(minorUnits: minor, currency: Currency.named(code)!) }
    func item(_ d: String, _ minor: Int64, _ code: String, _ category: String) -> SpendingItem {
        SpendingItem(day: day(d), money: money(minor, code), category: category)
    }
    var rates: RateTable { RateTable(try! ECBRates.parseCSV(ExchangeRatesTests.history)) }

    func testEachEntryIsConvertedAtItsOwnDaysRate() {
        let items = [
            item("2026-10-03", 30_000, "KRW", "food"),
            item("2026-11-18", 1250, "USD", "supplies"),   // 12.50 × 1460 / 1.04 (rates of 11-17) = 17,548.08 → 17,548
            item("2026-11-19", 1200, "JPY", "food"),       // 1,200 × 1470 / 161 = 10,956.52 → 10,957
            item("2026-11-21", 4599, "USD", "vet"),        // a Saturday: Friday 11-20's rates, 45.99 × 1476.55 / 1.0543 = 64,409
            item("2026-11-16", 999, "USD", "vet"),         // before the first published day: left out, not guessed
        ]
        let s = MonthlySpending(items, currency: .krw, rates: rates, from: day("2026-10-01"), through: day("2026-11-23"))
        XCTAssertEqual(s.months.map(\.description), ["2026-10-01", "2026-11-01"])
        XCTAssertEqual(s.categories.map(\.code), ["food", "vet", "supplies"])
        XCTAssertEqual(s.categories.map(\.minorUnits), [[30_000, 10_957], [0, 64_409], [0, 17_548]])
        XCTAssertEqual(s.monthTotals, [30_000, 92_914])
        XCTAssertEqual(s.unconverted, 1)
        XCTAssertEqual(s.outside, 0)
        XCTAssertEqual(s.currency.code, "KRW")
    }

    func testDollarsInMajorUnitsAndMonthsWithoutSpending() {
        let items = [item("2026-09-20", 1250, "USD", "food"), item("2026-11-02", 500, "USD", "food"),
                     item("2026-11-03", 8000, "USD", "vet"), item("2026-11-24", 100, "USD", "vet")]
        let usd = Currency.named("USD")!
        let s = MonthlySpending(items, currency: usd, rates: RateTable([]), from: day("2026-09-15"), through: day("2026-11-23"))
        XCTAssertEqual(s.months.map(\.description), ["2026-09-01", "2026-10-01", "2026-11-01"])
        XCTAssertEqual(s.categories.map { s.majorUnits($0) }, [[12.5, 0, 5], [0, 0, 80]])
        // The day after the last one is outside (so is one before the first); with no rates only dollars convert.
        XCTAssertEqual(s.outside, 1)
        XCTAssertEqual(MonthlySpending(items, currency: usd, rates: RateTable([]), from: day("2026-09-21"), through: day("2026-11-23")).outside, 2)
        XCTAssertEqual(s.unconverted, 0)
        XCTAssertFalse(s.isEmpty)
        XCTAssertTrue(MonthlySpending([], currency: usd, rates: RateTable([]), from: day("2026-11-01"), through: day("2026-11-23")).isEmpty)
    }

    func testCategoryOrderIsListedThenOwnWordsThenOther() {
        XCTAssertEqual(MonthlySpending.order(["other", "toys", "vet", "food", "Agility club", "insurance", "vet"]),
                       ["food", "vet", "insurance", "Agility club", "toys", "other"])
    }

    func testBudgetLineConvertsAtEachMonthsLastDay() {
        let s = MonthlySpending([], currency: Currency.named("USD")!, rates: rates, from: day("2026-10-01"), through: day("2026-11-23"))
        // October ends before the first published rate: no line there. November: 300,000 × 1.0543 / 1476.55 = 214.21.
        XCTAssertEqual(s.budgetLine(money(300_000, "KRW"), rates: rates), [nil, money(21_421, "USD")])
        XCTAssertEqual(s.budgetLine(money(25_000, "USD"), rates: RateTable([])), [money(25_000, "USD"), money(25_000, "USD")])
    }

    func testACategoryKeepsItsColourWhateverElseWasSpentOn() {
        XCTAssertEqual(MonthlySpending.colorSlot("vet", among: ["vet"]), 2)
        XCTAssertEqual(MonthlySpending.colorSlot("vet", among: ["food", "treats", "vet", "other"]), 2)
        XCTAssertEqual(MonthlySpending.colorSlot("food", among: ["food"]), 0)
        XCTAssertEqual(MonthlySpending.colorSlot("other", among: ["vet", "other"]), MonthlySpending.listedOrder.count)
        XCTAssertEqual(MonthlySpending.colorSlot("zoo", among: ["vet", "apples", "zoo"]), MonthlySpending.listedOrder.count + 2)
        for code in MonthlySpending.listedOrder {
            XCTAssertEqual(MonthlySpending.colorSlot(code, among: [code]), MonthlySpending.colorSlot(code, among: MonthlySpending.listedOrder + ["other"]))
        }
    }
}
