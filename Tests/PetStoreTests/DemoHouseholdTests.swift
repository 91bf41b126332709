import Foundation
import XCTest
import PetlogTestSupport
import PetModel
@testable import PetFiles
@testable import PetStoreCore
@testable import PetStoreSQLite

/// The demo goes in through the import batch: ids as planned, doses on their own courses, and only into an empty file.
final class DemoHouseholdTests: StoreTestCase {
    let now = Date(timeIntervalSince1970: 1_795_395_600)
    let demo = DemoHousehold(seed: 42, end: LocalDate(year: 2026, month: 11, day: 20)!, timeZone: TimeZone(identifier: "Asia/Seoul")!)

    func store() throws -> any PetlogStore {
        let fixed = now
        return try makeStore(now: { fixed })
    }

    func testPetsAndRecordsGetTheIdsPlannedAndDosesTheirCourse() throws {
        let repo = try store()
        let counts = try demo.seed(into: repo)
        XCTAssertEqual(try repo.pets(includeArchived: true).map { "\($0.id) \($0.name) \($0.species.rawValue)" }.sorted(),
                       ["1 Coco dog", "2 Nabi cat", "3 Mochi ferret"])
        let records = try repo.records(RecordQuery())
        XCTAssertEqual(records.map(\.id).sorted(), Array(1...Int64(counts.records)))
        let byId = Dictionary(uniqueKeysWithValues: records.map { ($0.id, $0) })
        var doses = 0
        for r in records {
            guard case .dose(let d) = r.detail else { continue }
            doses += 1
            let course = try XCTUnwrap(byId[d.medicationId], "dose #\(r.id)")
            XCTAssertEqual(course.kind, .medication)
            XCTAssertEqual(course.petId, r.petId)
            XCTAssertLessThan(course.id, r.id)
        }
        XCTAssertGreaterThan(doses, 20)
        XCTAssertFalse(records.contains { $0.at > now }, "nothing later than the store's clock")
        XCTAssertTrue(records.contains { $0.starred })
        XCTAssertTrue(records.contains { $0.petId == nil }, "household expenses")
        XCTAssertEqual(records.map(\.createdAt).max(), now)
    }

    func testAFileWithAnythingInItIsRefusedAndLeftAlone() throws {
        let repo = try store()
        _ = try repo.addRecord(pets: [], RecordDraft(at: now, utcOffset: 0, detail: .expense(Expense(money: Money(minorUnits: 100, currency: .krw),
                                                                                                          category: "food"))))
        XCTAssertThrowsError(try demo.seed(into: repo)) { XCTAssertEqual($0 as? StoreError, .constraint("not empty")) }
        XCTAssertEqual(try repo.count(RecordQuery()), 1)
        XCTAssertEqual(try repo.pets(includeArchived: true), [])
    }

    func testAYearOfSpendingBudgetsAndAMonthOfRates() throws {
        let repo = try store()
        _ = try demo.seed(into: repo)
        let spending = try repo.spending(SpendingQuery())
        let expenses = spending.filter { $0.source == .expense }
        // Visit costs are the vet spending: no expense copies one.
        XCTAssertFalse(expenses.contains { $0.category == "vet" })
        XCTAssertTrue(spending.contains { $0.source == .visit && $0.category == "vet" })
        // Grooming costs are the groomings' own (grooming spending), as visit costs are the vet's.
        XCTAssertEqual(Set(expenses.map(\.category)),
                       ["food", "treats", "supplies", "insurance", "medication", "boarding", "transport"])
        XCTAssertEqual(Set(spending.filter { $0.source == .grooming }.map(\.category)), ["grooming"])
        XCTAssertEqual(spending.filter { $0.source == .grooming }.count, 10)
        XCTAssertEqual(Set(expenses.map(\.money.currency.code)), ["KRW", "USD", "JPY"])
        XCTAssertGreaterThanOrEqual(expenses.filter { $0.money.currency.code != "KRW" }.count, 4)
        XCTAssertTrue(expenses.contains { $0.items.count >= 2 && $0.merchant != nil })
        XCTAssertFalse(spending.contains { $0.at > now })
        // Every month of the last year has spending.
        let ctx = TimeContext(now: now, timeZone: demo.timeZone)
        XCTAssertEqual(Set(expenses.filter { $0.at >= ctx.startOfDay(LocalDate(year: 2025, month: 12, day: 1)!) }
            .map { ctx.localDate(of: $0.at).firstOfMonth }).count, 12)
        // One purchase split between Coco and Nabi: two linked shares that add up.
        let split = expenses.filter { $0.splitOf != nil }
        XCTAssertEqual(split.map(\.petName), ["Coco", "Nabi"])
        XCTAssertEqual(split.map(\.splitOf), [split[0].recordId, split[0].recordId])
        XCTAssertEqual(split.map(\.money.minorUnits).reduce(0, +), 59_990)
        XCTAssertEqual(try repo.splitShares(of: split[1].recordId).map(\.id), split.map(\.recordId))
        // The household's budgets.
        XCTAssertEqual(try repo.budgets().map { "\($0.petId.map(String.init) ?? "-") \($0.budget.category ?? "all") \($0.budget.amount.minorUnits) \($0.budget.amount.currency.code)" },
                       ["- all 300000 KRW", "- vet 150000 KRW"])
        // 23 weekdays of USD, JPY, KRW and GBP before the end day; nothing logged as fetched.
        let rates = try repo.rateTable(currencies: [], from: nil, through: nil)
        let latest = try XCTUnwrap(try repo.rates(on: nil))
        XCTAssertEqual(latest.day, LocalDate(year: 2026, month: 11, day: 19))
        XCTAssertEqual(latest.rates.map { "\($0.currency) \($0.rate)" }, ["GBP 0.8795", "JPY 178.20", "KRW 1668.40", "USD 1.1580"])
        XCTAssertEqual(try repo.rates(on: LocalDate(year: 2026, month: 11, day: 15))?.day, LocalDate(year: 2026, month: 11, day: 13), "no weekend rates")
        XCTAssertEqual(rates.lastDay, LocalDate(year: 2026, month: 11, day: 19))
        XCTAssertNil(try repo.lastRatesFetch())
        // Every foreign purchase converts to won with the demo's own rates.
        XCTAssertEqual(SpendingTotal(spending, in: .krw, rates: rates, context: ctx).unconverted, 0)
    }

    func testTheSameSeedAndEndGiveTheSameSpending() throws {
        let a = try store(), b = try store()
        _ = try demo.seed(into: a)
        _ = try demo.seed(into: b)
        XCTAssertEqual(try a.spending(SpendingQuery()), try b.spending(SpendingQuery()))
        XCTAssertEqual(try a.rates(on: nil)?.rates, try b.rates(on: nil)?.rates)
    }
}
