import Foundation
import XCTest
import PetlogTestSupport
import PetModel
@testable import PetFiles
@testable import PetStoreCore
@testable import PetStoreSQLite

/// Spending, splits, budgets and rates in the store.
final class MoneyRepositoryTests: StoreTestCase {
    var repo: (any PetlogStore)!
    let t0 = Date(timeIntervalSince1970: 1_795_395_600)  // 2026-11-23 10:00 +09:00
    let krw = Currency.krw
    let usd = Currency.named("USD")!  // safe: a known code

    override func setUpWithError() throws {
        repo = try makeStore(now: { Date(timeIntervalSince1970: 1_795_395_600) })
        for name in ["Coco", "Nabi", "Mochi"] { _ = try repo.addPet(PetDraft(name: name, species: .dog)) }
    }

    func expense(_ minor: Int64, _ currency: Currency, category: String = "food", items: [String] = [], hoursAgo: Double = 0) -> RecordDraft {
        RecordDraft(at: t0.addingTimeInterval(-hoursAgo * 3600), utcOffset: 32_400,
                    detail: .expense(Expense(money: Money(minorUnits: minor, currency: currency), category: category, items: items)))
    }

    func testASplitIsOneRecordPerPetLinkedToTheFirst() throws {
        let shares = try repo.addRecord(pets: [.name("Coco"), .name("Nabi"), .name("Mochi")], expense(100, krw, items: ["a", "b"]))
        let amounts = shares.map { r -> Int64 in if case .expense(let e) = r.detail { return e.money.minorUnits } else { return -1 } }
        XCTAssertEqual(amounts, [34, 33, 33])
        for r in shares {
            guard case .expense(let e) = r.detail else { return XCTFail() }
            XCTAssertEqual(e.splitOf, shares[0].id)
            XCTAssertEqual(e.items, ["a", "b"])
        }
        XCTAssertEqual(try repo.splitShares(of: shares[2].id).map(\.id), shares.map(\.id))
        // One pet alone is not a split.
        let single = try repo.addRecord(pets: [.name("Coco")], expense(100, krw))
        if case .expense(let e) = single[0].detail { XCTAssertNil(e.splitOf) }
        XCTAssertEqual(try repo.splitShares(of: single[0].id), [])
        // A new amount on any share is the new total; deleting any share deletes the purchase.
        _ = try repo.updateRecord(id: shares[1].id) { r in
            guard case .expense(var e) = r.detail else { return RecordUpdate() }
            e.money = Money(minorUnits: 1000, currency: self.krw)
            return RecordUpdate(detail: .expense(e))
        }
        XCTAssertEqual(try repo.splitShares(of: shares[0].id).map { r -> Int64 in
            if case .expense(let e) = r.detail { return e.money.minorUnits } else { return -1 }
        }, [334, 333, 333])
        _ = try repo.deleteRecord(id: shares[2].id)
        XCTAssertEqual(try repo.count(RecordQuery(kinds: [.expense])), 1)
        XCTAssertEqual(try repo.check(), [])
    }

    func testSpendingReadsExpensesAndVisitCostsOnce() throws {
        _ = try repo.addRecord(pets: [.name("Coco")], expense(15000, krw))
        _ = try repo.addRecord(pets: [], expense(20000, krw, category: "supplies"))
        _ = try repo.addRecord(pets: [.name("Coco")], RecordDraft(at: t0, utcOffset: 32_400, detail: .visit(Visit(clinic: "Happy Paws", cost: Money(minorUnits: 85000, currency: krw)))))
        _ = try repo.addRecord(pets: [.name("Nabi")], RecordDraft(at: t0, utcOffset: 32_400, detail: .visit(Visit(clinic: "No cost"))))
        let all = try repo.spending(SpendingQuery())
        XCTAssertEqual(all.map(\.money.minorUnits).reduce(0, +), 120_000)
        XCTAssertEqual(all.filter { $0.source == .visit }.map(\.category), ["vet"])
        XCTAssertEqual(all.filter { $0.source == .visit }.map(\.merchant), ["Happy Paws"])
        XCTAssertEqual(try repo.spending(SpendingQuery(pets: [.name("Coco")])).count, 2)
        XCTAssertEqual(try repo.spending(SpendingQuery(pets: [.name("Coco")], includeHousehold: true)).count, 3)
        XCTAssertEqual(try repo.spending(SpendingQuery(includeVisits: false)).count, 2)
        XCTAssertEqual(try repo.spending(SpendingQuery(since: t0.addingTimeInterval(1))).count, 0)
    }

    func testBudgetsAreOnePerScope() throws {
        let monthly = Budget(amount: Money(minorUnits: 300_000, currency: krw), period: .monthly)
        let (first, replaced) = try repo.setBudget(BudgetDraft(pet: nil, budget: monthly))
        XCTAssertFalse(replaced)
        var more = monthly
        more.amount.minorUnits = 350_000
        let (second, replacedAgain) = try repo.setBudget(BudgetDraft(pet: nil, budget: more))
        XCTAssertTrue(replacedAgain)
        XCTAssertEqual(second.id, first.id)
        XCTAssertEqual(second.budget.amount.minorUnits, 350_000)
        let from = LocalDate(year: 2026, month: 12, day: 1)!, to = LocalDate(year: 2027, month: 2, day: 28)!  // safe: valid days
        _ = try repo.setBudget(BudgetDraft(pet: .name("Coco"), budget: Budget(amount: Money(minorUnits: 500_000, currency: krw),
                                                                              period: .days(from: from, through: to), category: "vet")))
        let all = try repo.budgets()
        XCTAssertEqual(all.count, 2)
        XCTAssertEqual(all.last?.petName, "Coco")
        XCTAssertEqual(all.last?.budget.period, .days(from: from, through: to))
        _ = try repo.deleteBudget(id: first.id)
        XCTAssertThrowsError(try repo.deleteBudget(id: first.id)) { XCTAssertEqual($0 as? StoreError, .budgetNotFound(first.id)) }
        // A pet's budgets go with the pet.
        _ = try repo.removePet(.name("Coco"))
        XCTAssertEqual(try repo.budgets().count, 0)
    }

    func testRatesAreStoredReplacedAndReadAsOfADay() throws {
        let d19 = LocalDate(year: 2026, month: 11, day: 19)!, d20 = LocalDate(year: 2026, month: 11, day: 20)!  // safe: valid days
        func rate(_ day: LocalDate, _ c: String, _ r: String) -> EuroRate { EuroRate(day: day, currency: c, rate: ExactDecimal(r)!) }  // safe: literals
        let summary = try repo.storeRates([rate(d19, "USD", "1.05"), rate(d19, "KRW", "1500"), rate(d20, "USD", "1.2")], source: "test", at: t0, localDay: d20)
        XCTAssertEqual(summary.added, 3)
        XCTAssertEqual(summary.days, 2)
        let again = try repo.storeRates([rate(d20, "USD", "1.2"), rate(d20, "KRW", "1510")], source: "test", at: t0, localDay: d20)
        XCTAssertEqual(again.added, 1)
        XCTAssertEqual(again.changed, 0)
        let changed = try repo.storeRates([rate(d20, "USD", "1.21")], source: "test", at: t0, localDay: d20)
        XCTAssertEqual(changed.changed, 1)
        XCTAssertEqual(try repo.lastRatesFetch()?.localDay, d20)
        let sunday = LocalDate(year: 2026, month: 11, day: 22)!  // safe: a valid day
        XCTAssertEqual(try repo.rates(on: sunday)?.day, d20)
        XCTAssertNil(try repo.rates(on: LocalDate(year: 2026, month: 1, day: 1)!))  // safe: a valid day
        let table = try repo.rateTable(currencies: ["USD", "KRW"], from: sunday, through: sunday)
        // 10.00 USD on the Sunday at the Friday's rates: 1000 × 1510 / 1.21 / 100 = 12,479.34 → 12,479 KRW.
        XCTAssertEqual(table.convert(Money(minorUnits: 1000, currency: usd), to: krw, on: sunday)?.minorUnits, 12_479)
        XCTAssertEqual(try repo.allRates().count, 4)
    }
}

/// A budget's name, place and people in the store (both stores by construction).
final class BudgetTermsRepositoryTests: StoreTestCase {
    var repo: (any PetlogStore)!

    override func setUpWithError() throws {
        repo = try makeStore(now: { Date(timeIntervalSince1970: 1_795_395_600) })
    }

    func testNamePlaceAndPeopleAreStoredReplacedKeptAndEdited() throws {
        let usd = Currency.named("USD")!  // safe: a known code
        let days = Budget.Period.days(from: LocalDate.parseISO("2026-12-20")!, through: LocalDate.parseISO("2026-12-29")!)
        let trip = Budget(amount: Money(minorUnits: 200_000, currency: usd), period: days, name: "Japan trip", place: "東京", people: 2)
        let (stored, replaced) = try repo.setBudget(BudgetDraft(pet: nil, budget: trip))
        XCTAssertFalse(replaced)
        XCTAssertEqual(stored.budget, trip)
        // The same scope again: the amount replaced, the name and people kept, the place given replaced.
        let again = Budget(amount: Money(minorUnits: 250_000, currency: usd), period: days, place: "大阪")
        let (second, replacedNow) = try repo.setBudget(BudgetDraft(pet: nil, budget: again))
        XCTAssertTrue(replacedNow)
        XCTAssertEqual(second.id, stored.id)
        XCTAssertEqual(second.budget.amount.minorUnits, 250_000)
        XCTAssertEqual([second.budget.name, second.budget.place], ["Japan trip", "大阪"])
        XCTAssertEqual(second.budget.people, 2)
        // Edit: cleared, set, kept.
        let (before, after) = try repo.editBudget(id: stored.id, BudgetEdit(name: .some(nil), people: .some(4)))
        XCTAssertEqual(before, second)
        XCTAssertNil(after.budget.name)
        XCTAssertEqual(after.budget.place, "大阪")
        XCTAssertEqual(after.budget.people, 4)
        XCTAssertEqual(try repo.budgets(), [after])
        XCTAssertThrowsError(try repo.editBudget(id: 99, BudgetEdit(name: .some("x")))) { error in
            XCTAssertEqual(error as? StoreError, .budgetNotFound(99))
        }
        XCTAssertEqual(try repo.check(), [])
    }
}
