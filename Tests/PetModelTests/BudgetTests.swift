import Foundation
import XCTest
@testable import PetModel

final class BudgetTests: XCTestCase {
    let krw = Currency.named("KRW")!
    func day(_ s: String) -> LocalDate { LocalDate.parseISO(Substring(s))! }
    func won(_ n: Int64) -> Money { Money(minorUnits: n, currency: krw) }
    func item(_ d: String, _ n: Int64, _ c: String = "food") -> SpendingItem { SpendingItem(day: day(d), money: won(n), category: c) }

    func testAMonthlyBudgetCountsItsCalendarMonthUpToToday() {
        let budget = Budget(amount: won(300_000), period: .monthly)
        let items = [item("2026-10-31", 50_000), item("2026-11-01", 40_000), item("2026-11-20", 35_000, "vet"),
                     item("2026-11-23", 10_000), item("2026-11-24", 99_000), item("2026-12-01", 1)]
        let s = BudgetStatus(budget: budget, items: items, asOf: day("2026-11-23"))
        XCTAssertEqual(s.first, day("2026-11-01"))
        XCTAssertEqual(s.last, day("2026-11-30"))
        XCTAssertEqual(s.spent, won(85_000), "the 31st is last month's; the 24th has not happened yet")
        XCTAssertEqual(s.left, won(215_000))
        XCTAssertEqual(s.daysLeft, 8, "the 23rd through the 30th")
        XCTAssertEqual(s.perDay, won(26_875))
        XCTAssertEqual(s.byCategory.map(\.category), ["food", "vet"])
        XCTAssertFalse(s.isOver)
        // February of a leap year, and the last day of a month.
        let feb = BudgetStatus(budget: budget, items: [], asOf: day("2028-02-29"))
        XCTAssertEqual(feb.last, day("2028-02-29"))
        XCTAssertEqual(feb.daysLeft, 1)
    }

    func testAStretchOfDaysBeforeDuringAndAfter() {
        let budget = Budget(amount: won(500_000), period: .days(from: day("2026-12-01"), through: day("2027-02-28")), category: "vet")
        let items = [item("2026-12-05", 200_000, "vet"), item("2026-12-06", 9_000, "food"), item("2027-01-10", 350_000, "vet")]
        let before = BudgetStatus(budget: budget, items: items, asOf: day("2026-11-23"))
        XCTAssertEqual(before.daysLeft, 90, "the whole stretch")
        XCTAssertEqual(before.spent, won(0))
        let during = BudgetStatus(budget: budget, items: items, asOf: day("2027-01-31"))
        XCTAssertEqual(during.spent, won(550_000), "only vet")
        XCTAssertTrue(during.isOver)
        XCTAssertEqual(during.left, won(-50_000))
        XCTAssertNil(during.perDay, "nothing left to spend")
        XCTAssertEqual(during.daysLeft, 29)
        let after = BudgetStatus(budget: budget, items: items, asOf: day("2027-03-01"))
        XCTAssertEqual(after.daysLeft, 0)
        XCTAssertNil(after.perDay)
    }

    func testPerPetDividesAndOtherCurrenciesConvertOrAreCounted() throws {
        let budget = Budget(amount: won(300_000), period: .monthly, perPet: true)
        let rates = RateTable(try ECBRates.parse(Data(ExchangeRatesTests.history.utf8)))
        let items = [item("2026-11-20", 100_000), SpendingItem(day: day("2026-11-20"), money: Money(minorUnits: 1250, currency: Currency.named("USD")!), category: "food"),
                     SpendingItem(day: day("2026-11-21"), money: Money(minorUnits: 500, currency: Currency.named("SGD")!), category: "food")]
        let s = BudgetStatus(budget: budget, items: items, asOf: day("2026-11-23"), pets: 3, rates: rates)
        XCTAssertEqual(s.amount, won(100_000))
        XCTAssertEqual(s.spent, won((100_000 + 17_506) / 3), "12.50 USD at the 20th's rate is 17,506 won")
        XCTAssertEqual(s.unconverted, 1, "no SGD rate: said, not guessed")
    }

    func testPeopleDivideTheWholeBudgetAndPerPetStaysPerPet() {
        var budget = Budget(amount: won(1_000_001), period: .days(from: day("2026-12-20"), through: day("2026-12-29")), people: 3)
        let items = [item("2026-12-20", 100_000), item("2026-12-22", 200_001), item("2026-12-27", 50_000)]
        let s = BudgetStatus(budget: budget, items: items, asOf: day("2026-12-24"))
        XCTAssertEqual(s.spent, won(300_001))
        guard let pp = s.perPerson else { return XCTFail("two or more people: figures per person") }
        XCTAssertEqual(pp.amount, won(333_333), "1,000,001 / 3 rounded down")
        XCTAssertEqual(pp.spent, won(100_000))
        XCTAssertEqual(pp.left, won(233_333))
        XCTAssertEqual(pp.perDay, won(38_888), "233,333 over the 24th–29th")
        budget.perPet = true
        let shared = BudgetStatus(budget: budget, items: items, asOf: day("2026-12-24"), pets: 2)
        XCTAssertEqual(shared.amount, won(500_000), "per pet as before")
        XCTAssertEqual(shared.perPerson?.amount, won(333_333), "per person from the whole budget")
        budget.people = 1
        XCTAssertNil(BudgetStatus(budget: budget, items: items, asOf: day("2026-12-24")).perPerson, "one person: the figures are already theirs")
    }

    func testDaysListEveryDayWithTheRunningTotalAndWhatIsAhead() {
        let budget = Budget(amount: won(100_000), period: .days(from: day("2026-12-30"), through: day("2027-01-02")), category: "food", people: 2)
        let items = [item("2026-12-29", 9), item("2026-12-30", 60_000), item("2026-12-30", 1_001), item("2026-12-31", 7, "vet"),
                     item("2027-01-02", 40_000), item("2027-01-03", 5)]
        let d = BudgetDays(budget: budget, items: items, asOf: day("2026-12-31"))
        XCTAssertEqual(d.days.map(\.day), [day("2026-12-30"), day("2026-12-31"), day("2027-01-01"), day("2027-01-02")])
        XCTAssertEqual(d.days.map(\.spent), [won(61_001), won(0), won(0), won(40_000)], "food only, in the span")
        XCTAssertEqual(d.days.map(\.count), [2, 0, 0, 1])
        XCTAssertEqual(d.days.map(\.total), [won(61_001), won(61_001), won(61_001), won(101_001)])
        XCTAssertEqual(d.days.map(\.isOver), [false, false, false, true])
        XCTAssertEqual(d.days.map(\.ahead), [false, false, true, true])
        XCTAssertEqual(d.days.last?.left, won(-1_001))
        XCTAssertEqual(d.amountPerPerson, won(50_000))
        XCTAssertEqual(d.days.first?.spentPerPerson, won(30_500))
        XCTAssertEqual(d.days.last?.leftPerPerson, won(50_000 - 50_500))
        // The running total on the as-of day is the status's spent.
        XCTAssertEqual(d.days[1].total, BudgetStatus(budget: budget, items: items, asOf: day("2026-12-31")).spent)
        // A monthly budget: its month as of the day.
        XCTAssertEqual(BudgetDays(budget: Budget(amount: won(1), period: .monthly), items: [], asOf: day("2028-02-10")).days.count, 29)
    }
}
