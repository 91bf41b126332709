import Foundation
import XCTest
@testable import PetModel

final class SpendingComparisonTests: XCTestCase {
    let krw = Currency.named("KRW")!
    let seoul = TimeContext(now: Date(timeIntervalSince1970: 1_795_395_600), timeZone: TimeZone(identifier: "Asia/Seoul")!)
    var nextId: Int64 = 0

    func day(_ s: String) -> LocalDate { LocalDate.parseISO(Substring(s))! }
    func money(_ minor: Int64, _ code: String = "KRW") -> Money { Money(minorUnits: minor, currency: Currency.named(code)!) }
    func entry(_ at: String, _ minor: Int64, _ category: String = "food", in code: String = "KRW", merchant: String? = nil,
               source: SpendingEntry.Source = .expense, context: TimeContext? = nil) -> SpendingEntry {
        let c = context ?? seoul
        let parts = at.split(separator: " ")
        let clock = parts.count > 1 ? parts[1].split(separator: ":").compactMap { Int($0) } : [12, 0]
        let instant = c.instant(day(String(parts[0])), hour: clock[0], minute: clock[1])
        nextId += 1
        return SpendingEntry(recordId: nextId, petId: 1, petName: "Coco", at: instant, utcOffset: c.utcOffset(at: instant),
                             money: money(minor, code), category: category, merchant: merchant, source: source)
    }
    var rates: RateTable { RateTable((try? ECBRates.parse(Data(ExchangeRatesTests.history.utf8))) ?? []) }

    func testCategoriesAgainstThePreviousMonthWithChangeAndPercent() {
        let entries = [entry("2026-10-03", 40_000), entry("2026-10-12", 128_000, "vet", source: .visit),
                       entry("2026-11-02", 50_000, "food"), entry("2026-11-05", 10_000, "food"), entry("2026-11-09", 25_000, "grooming"),
                       entry("2026-11-30", 5_000, "treats"), entry("2026-12-01", 999_000, "food"), entry("2026-09-30", 999_000, "vet")]
        let c = SpendingComparison(entries, month: day("2026-11-15"), in: krw, rates: rates, context: seoul)
        XCTAssertEqual(c.month, day("2026-11-01"))
        XCTAssertEqual(c.previousMonth, day("2026-10-01"))
        XCTAssertEqual(c.categories.map(\.category), ["food", "grooming", "treats", "vet"], "largest this month first; vet only last month")
        XCTAssertEqual(c.categories.map(\.this), [60_000, 25_000, 5_000, 0])
        XCTAssertEqual(c.categories.map(\.previous), [40_000, 0, 0, 128_000])
        XCTAssertEqual(c.categories.map(\.percent), [50, nil, nil, -100], "no percent of nothing")
        XCTAssertEqual(c.total, 90_000)
        XCTAssertEqual(c.previousTotal, 168_000)
        XCTAssertEqual(c.totalPercent, -46, "−78,000 of 168,000 is −46.4%")
        XCTAssertEqual(c.foreign, [])
        XCTAssertEqual(c.unconverted, 0)
    }

    func testPercentRoundsHalfAwayFromZero() {
        XCTAssertEqual(SpendingComparison.percentChange(from: 200, to: 300), 50)
        XCTAssertEqual(SpendingComparison.percentChange(from: 3, to: 4), 33)
        XCTAssertEqual(SpendingComparison.percentChange(from: 3, to: 5), 67)
        XCTAssertEqual(SpendingComparison.percentChange(from: 8, to: 7), -13, "−12.5 rounds away from zero")
        XCTAssertEqual(SpendingComparison.percentChange(from: 8, to: 9), 13)
        XCTAssertEqual(SpendingComparison.percentChange(from: 100, to: 100), 0)
        XCTAssertNil(SpendingComparison.percentChange(from: 0, to: 5))
        XCTAssertEqual(SpendingComparison.percentChange(from: 1, to: .max), 1_000_000_000_000_000, "an overflow is capped, not a trap")
    }

    func testTopMerchantsByConvertedAmountThenPaymentsThenName() {
        let entries = [entry("2026-11-02", 30_000, merchant: "Pet Mart"), entry("2026-11-03", 20_000, merchant: "pet mart "),
                       entry("2026-11-04", 50_000, merchant: "Bark Shop"),
                       entry("2026-11-05", 85_000, "vet", merchant: "Happy Vet", source: .visit),
                       entry("2026-11-06", 10_000, merchant: "Zoo"), entry("2026-11-06", 10_000, merchant: "Ark"),
                       entry("2026-11-07", 1_000, merchant: nil), entry("2026-11-20", 1_250, in: "USD", merchant: "Amazon"),
                       entry("2026-11-09", 999, in: "SGD", merchant: "Changi"), entry("2026-10-09", 900_000, merchant: "Last Month")]
        let c = SpendingComparison(entries, month: day("2026-11-01"), in: krw, rates: rates, context: seoul, merchantLimit: 5)
        XCTAssertEqual(c.merchants.map(\.name), ["Happy Vet", "Pet Mart", "Bark Shop", "Amazon", "Ark"],
                       "a clinic counts; case and spaces do not split a merchant; 50,000 in two payments before 50,000 in one; ties by name")
        XCTAssertEqual(c.merchants.map(\.amount), [85_000, 50_000, 50_000, 17_506, 10_000], "12.50 USD at the 20th's rate")
        XCTAssertEqual(c.merchants[1].count, 2)
        XCTAssertEqual(c.unconverted, 1, "no SGD rate: not guessed")
        XCTAssertEqual(c.foreign.map(\.currency.code), ["SGD", "USD"])
        XCTAssertEqual(c.foreign.map(\.this), [999, 1_250], "as spent, converted or not")
        let three = SpendingComparison(entries, month: day("2026-11-01"), in: krw, rates: rates, context: seoul, merchantLimit: 3)
        XCTAssertEqual(three.merchants.count, 3)
    }

    func testTheLocalDayDecidesTheMonth() throws {
        // 00:30 on Nov 1 in Seoul is still Oct 31 in UTC; 23:30 on Oct 31 in New York is Nov 1 in UTC.
        let early = entry("2026-11-01 00:30", 7_000)
        XCTAssertEqual(Calendar(identifier: .gregorian).dateComponents(in: TimeZone(identifier: "UTC")!, from: early.at).day, 31)
        let c = SpendingComparison([early], month: day("2026-11-01"), in: krw, rates: rates, context: seoul)
        XCTAssertEqual(c.total, 7_000)
        XCTAssertEqual(c.previousTotal, 0)
        let ny = TimeContext(now: seoul.now, timeZone: try XCTUnwrap(TimeZone(identifier: "America/New_York")))
        let late = entry("2026-10-31 23:30", 8_000, context: ny)
        XCTAssertEqual(Calendar(identifier: .gregorian).dateComponents(in: TimeZone(identifier: "UTC")!, from: late.at).day, 1)
        let n = SpendingComparison([late], month: day("2026-11-01"), in: krw, rates: rates, context: ny)
        XCTAssertEqual(n.total, 0)
        XCTAssertEqual(n.previousTotal, 8_000, "it was spent on the 31st where it happened")
    }

    func testDailySpendingPerDayWithTheBusiestDay() {
        let entries = [entry("2028-02-01", 5_000), entry("2028-02-10", 20_000), entry("2028-02-10", 1_250, in: "USD"),
                       entry("2028-02-29 23:30", 20_000), entry("2028-02-14", 100, in: "SGD"), entry("2028-03-01 00:10", 9_000)]
        let d = DailySpending(entries, month: day("2028-02-01"), in: krw, rates: RateTable([]), context: seoul)
        XCTAssertEqual(d.days.count, 29, "February of a leap year")
        XCTAssertEqual(d.days.last?.day, day("2028-02-29"))
        XCTAssertEqual(d.days.last?.amount, 20_000, "23:30 on the 29th is the 29th")
        XCTAssertEqual(d.days[9].entries, 2)
        XCTAssertEqual(d.days[9].unconverted, 1, "no rates at all: the dollars are counted, not guessed")
        XCTAssertEqual(d.total, 45_000)
        XCTAssertEqual(d.unconverted, 2)
        XCTAssertEqual(d.busiest?.day, day("2028-02-10"), "a tie goes to the earlier day")
        XCTAssertNil(DailySpending([], month: day("2028-02-01"), in: krw, rates: rates, context: seoul).busiest)
    }

    func testCompactAmountsFitSixColumnsAndAreCutNotRounded() {
        let cases: [(Int64, String, CompactMoney.Style, String)] = [
            (0, "KRW", .western, "0"), (85_000, "KRW", .western, "85,000"), (99_999, "KRW", .korean, "99,999"),
            (155_900, "KRW", .western, "155k"), (155_900, "KRW", .korean, "15.5만"), (155_900, "KRW", .japanese, "15.5万"),
            (1_299_999, "KRW", .western, "1.2M"), (1_299_999, "KRW", .korean, "129만"), (100_000, "KRW", .korean, "10만"),
            (99_990_000, "KRW", .korean, "9999만"), (120_000_000, "KRW", .korean, "1.2억"), (3_000_000_000, "JPY", .japanese, "30億"),
            (1_250, "USD", .western, "12.50"), (99_999, "USD", .western, "999.99"), (123_456, "USD", .western, "1,234"),
            (-4_500, "KRW", .western, "−4,500"), (1_000_000, "KRW", .western, "1M"),
        ]
        for (minor, code, style, expected) in cases {
            XCTAssertEqual(CompactMoney.format(money(minor, code), style: style), expected, "\(minor) \(code) \(style)")
        }
    }

    func testBudgetStandingAndWhatShowLists() {
        let monthly = Budget(amount: money(300_000), period: .monthly)
        XCTAssertEqual(monthly.standing(on: day("2027-01-31")), .current)
        XCTAssertEqual(monthly.span(asOf: day("2027-01-31")).last, day("2027-01-31"))
        XCTAssertEqual(monthly.span(asOf: day("2027-02-01")).last, day("2027-02-28"), "the month after a 31st is February")
        let trip = Budget(amount: money(500_000), period: .days(from: day("2026-12-01"), through: day("2027-02-28")))
        XCTAssertEqual(trip.standing(on: day("2026-11-23")), .upcoming(days: 8))
        XCTAssertEqual(trip.standing(on: day("2026-12-01")), .current)
        XCTAssertEqual(trip.standing(on: day("2027-02-28")), .current)
        XCTAssertEqual(trip.standing(on: day("2027-03-01")), .ended(days: 1))
        XCTAssertTrue(trip.isShown(on: day("2027-03-31")), "31 days after its last day")
        XCTAssertFalse(trip.isShown(on: day("2027-04-01")))
        XCTAssertEqual(Budget.headcount(petBudget: true, activePets: 3), 1)
        XCTAssertEqual(Budget.headcount(petBudget: false, activePets: 3), 3)
        XCTAssertEqual(Budget.headcount(petBudget: false, activePets: 0), 1)
    }
}
