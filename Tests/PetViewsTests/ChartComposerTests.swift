import Foundation
import XCTest
import Localization
import PetCharts
import PetModel
import PetStoreCore
import PetStoreSQLite
@testable import PetViews

/// The chart composer over a real (in-memory SQLite) store: what it reads, converts, says and draws.
final class ChartComposerTests: XCTestCase {
    let zone = TimeZone(identifier: "Asia/Seoul") ?? .current
    /// 2026-11-23 10:00 in Seoul.
    let now = Date(timeIntervalSince1970: 1_795_395_600)
    var time: TimeContext { TimeContext(now: now, timeZone: zone) }

    func context(_ language: Language = .en, units: UnitSystem = .metric, columns: Int = 80, colors: Bool = false) -> PresentationContext {
        let l10n = L10n(language), format = ValueFormatter(l10n, unitSystem: units)
        return PresentationContext(screen: TextScreen(colors: colors, columns: columns), l10n: l10n, format: format,
                                   wording: RecordWording(format, time: time), time: time)
    }

    func store() throws -> any PetlogStore {
        let now = self.now
        return Store(SQLiteRepository(try AppDatabase.inMemory(), now: { now }))
    }

    func composer(_ store: any PetlogStore, _ language: Language = .en, units: UnitSystem = .metric) -> ChartComposer {
        ChartComposer(store: store, context: context(language, units: units), size: ChartSize(width: 800, height: 600), theme: .light)
    }

    @discardableResult
    func add(_ store: any PetlogStore, _ pet: String?, daysAgo: Double, _ detail: RecordDetail) throws -> PetRecord {
        try store.addRecord(pets: pet.map { [.name($0)] } ?? [],
                            RecordDraft(at: now.addingTimeInterval(-daysAgo * 86_400), utcOffset: 32_400, detail: detail))[0]
    }

    func json(_ view: any Encodable) throws -> [String: Any] {
        let data = Data(try JSONView.text(view).utf8)
        return try XCTUnwrap(JSONSerialization.jsonObject(with: data) as? [String: Any])
    }

    func testWeightInTheDisplayUnitWithEachPetsNameAndOneLineEach() throws {
        let repo = try store()
        _ = try repo.addPet(PetDraft(name: "Coco", species: .dog))
        _ = try repo.addPet(PetDraft(name: "Nabi", species: .cat))
        try add(repo, "Coco", daysAgo: 10, .weight(Weight(mass: Mass(grams: 4536))))
        try add(repo, "Coco", daysAgo: 2, .weight(Weight(mass: Mass(grams: 9072))))
        try add(repo, "Nabi", daysAgo: 3, .weight(Weight(mass: Mass(grams: 3000))))
        let chart = try composer(repo, units: .imperial).weight(pets: [.name("Coco"), .name("Nabi")], window: TimeWindow(), smoothing: nil)
        XCTAssertEqual(chart.warnings, [])
        let views = try XCTUnwrap(chart.json() as? [ChartJSON.WeightSeries])
        XCTAssertEqual(views.map(\.pet), ["Coco", "Nabi"])
        XCTAssertEqual(views[0].unit, "lb")
        XCTAssertEqual(views[0].points.map(\.1).map { ($0 * 100).rounded() / 100 }, [10, 20])
        // Instants on the viewer's clock, with its offset.
        XCTAssertTrue(views[0].points[0].0.hasSuffix("+09:00"), views[0].points[0].0)
        guard case .line(let spec) = chart.drawing() else { return XCTFail("a line chart") }
        XCTAssertEqual(spec.series.count, 2)
        XCTAssertTrue(spec.title.contains("Coco, Nabi"), spec.title)
        XCTAssertNil(spec.timeRange, "no window asked: the data's own range")
        let text = chart.text()
        XCTAssertTrue(text.contains { $0.contains("Coco") && $0.contains("20") }, text.joined(separator: "\n"))
        XCTAssertTrue(text.allSatisfy { DisplayColumns.width($0) <= 80 }, text.joined(separator: "\n"))
    }

    func testAnAskedWindowEndsNoLaterThanNow() {
        let since = now.addingTimeInterval(-86_400 * 30)
        let range = ChartComposer.timeRange(since: since, until: now.addingTimeInterval(86_400 * 5), series: [], now: now)
        XCTAssertEqual(range, since.timeIntervalSince1970...now.timeIntervalSince1970)
        XCTAssertNil(ChartComposer.timeRange(since: nil, until: nil, series: [], now: now))
    }

    func testSymptomsByKindCountOneSymptomByAnyOfItsNames() throws {
        let repo = try store()
        let coco = try repo.addPet(PetDraft(name: "Coco", species: .dog))
        let severity = try XCTUnwrap(SymptomSeverity(3))
        try add(repo, "Coco", daysAgo: 3, .symptom(Symptom(code: "vomiting", isListed: true, severity: severity)))
        try add(repo, "Coco", daysAgo: 4, .symptom(Symptom(code: "vomiting", isListed: true, severity: severity)))
        try add(repo, "Coco", daysAgo: 5, .symptom(Symptom(code: "cough", isListed: true, severity: severity)))
        let all = try composer(repo).symptoms(pet: coco, window: TimeWindow(), byKind: true, symptom: nil)
        let counts = try json(all.json())
        let stacks = try XCTUnwrap(counts["stacks"] as? [[String: Any]])
        XCTAssertEqual(stacks.count, 2, "one stack per kind")
        XCTAssertEqual((counts["weeks"] as? [String])?.count, 27, "26 weeks back by default, this one included")
        // `구토` is vomiting's Korean name: the one symptom, counted twice.
        let one = try composer(repo, .ko).symptoms(pet: coco, window: TimeWindow(), byKind: true, symptom: "구토")
        let oneStacks = try XCTUnwrap(try json(one.json())["stacks"] as? [[String: Any]])
        XCTAssertEqual(oneStacks.count, 1)
        XCTAssertEqual((oneStacks[0]["values"] as? [Double])?.reduce(0, +), 2)
        guard case .bars(let spec) = one.drawing() else { return XCTFail("bars") }
        XCTAssertTrue(spec.title.hasSuffix(" — 구토"), spec.title)
    }

    func testExpensesWithNoRateAreCountedAndSaidWhereTheyMustBe() throws {
        let repo = try store()
        _ = try repo.addPet(PetDraft(name: "Coco", species: .dog))
        let usd = try XCTUnwrap(Currency.named("USD"))
        try add(repo, "Coco", daysAgo: 3, .expense(Expense(money: Money(minorUnits: 1250, currency: usd), category: "food")))
        // Only a purchase no rate converts: the text says so once, instead of a warning beside "no spending".
        let nothing = try composer(repo).expenses(pets: [], window: TimeWindow(), currency: .krw)
        XCTAssertEqual(nothing.warnings, [])
        XCTAssertEqual(nothing.jsonWarnings.count, 1)
        XCTAssertEqual(nothing.text().count, 1)
        XCTAssertTrue(nothing.text()[0].contains("KRW"), nothing.text()[0])
        // With something converted, the warning goes to standard error and the bars show the rest.
        try add(repo, "Coco", daysAgo: 2, .expense(Expense(money: Money(minorUnits: 30_000, currency: .krw), category: "vet")))
        let some = try composer(repo).expenses(pets: [.name("Coco")], window: TimeWindow(), currency: .krw)
        XCTAssertEqual(some.warnings.count, 1)
        XCTAssertEqual(some.warnings, some.jsonWarnings)
        let view = try json(some.json())
        XCTAssertEqual(view["unconverted"] as? Int, 1)
        XCTAssertEqual((view["months"] as? [String])?.count, 12, "the last twelve calendar months, this one included")
        XCTAssertTrue(some.text().contains { $0.contains("₩30,000") }, some.text().joined(separator: "\n"))
        guard case .bars(let spec) = some.drawing() else { return XCTFail("bars") }
        XCTAssertTrue(spec.title.contains("Coco"), "one pet's chart names it: \(spec.title)")
        XCTAssertEqual(spec.stacks.map(\.label), [L10n(.en).code(.category, "vet")])
        XCTAssertNil(spec.referenceLine, "no budget, no line")
    }

    /// Issue 42: the budget line was drawn over a month with no bar because nothing in it could be converted.
    /// Such a month has no line and a note says why (on the chart and under the terminal's bars); totals
    /// above the bars are money as every view writes it.
    func testAMonthWithNothingConvertibleHasNoBudgetLineAndSaysSo() throws {
        let repo = try store()
        _ = try repo.addPet(PetDraft(name: "Coco", species: .dog))
        let usd = try XCTUnwrap(Currency.named("USD"))
        _ = try repo.setBudget(BudgetDraft(pet: nil, budget: Budget(amount: Money(minorUnits: 2_000, currency: usd), period: .monthly)))
        // Last month: only yen, which no rate converts to dollars. This month: dollars.
        try add(repo, "Coco", daysAgo: 40, .expense(Expense(money: Money(minorUnits: 1_200, currency: try XCTUnwrap(Currency.named("JPY"))), category: "food")))
        try add(repo, "Coco", daysAgo: 2, .expense(Expense(money: Money(minorUnits: 610, currency: usd), category: "food")))
        let chart = try composer(repo).expenses(pets: [], window: TimeWindow(), currency: usd)
        guard case .bars(let spec) = chart.drawing() else { return XCTFail("bars") }
        let line = try XCTUnwrap(spec.referenceLine)
        let blank = try XCTUnwrap(spec.categories.firstIndex(of: ValueFormatter(L10n(.en), unitSystem: .metric).monthLabel(time.today.firstOfMonth.adding(months: -1))))
        XCTAssertNil(line.values[blank], "no line over a month with nothing converted")
        XCTAssertEqual(line.values.last ?? nil, 20, "the line where there is something to measure")
        XCTAssertEqual(line.values.compactMap { $0 }.count, line.values.count - 1, "a month with nothing spent keeps its line")
        XCTAssertEqual(spec.notes.count, 1)
        XCTAssertTrue(spec.notes[0].contains(spec.categories[blank]) && spec.notes[0].contains("USD"), spec.notes[0])
        XCTAssertTrue(chart.text().contains(spec.notes[0]), chart.text().joined(separator: "\n"))
        XCTAssertEqual(spec.totalFormatter?(6.1), "$6.10")
        XCTAssertEqual(spec.valueFormatter?(200), "$200")
        // In Korean the axis carries the symbol the legend's money has.
        let ko = try composer(repo, .ko).expenses(pets: [], window: TimeWindow(), currency: usd)
        guard case .bars(let koSpec) = ko.drawing() else { return XCTFail("bars") }
        XCTAssertEqual(koSpec.valueFormatter?(200), "US$200")
        XCTAssertEqual(koSpec.totalFormatter?(6.1), "US$6.10")
        XCTAssertTrue(koSpec.referenceLine?.label.contains("US$20.00") == true, koSpec.referenceLine?.label ?? "")
    }

    func testABudgetChartDrawsItsDailyShareInTheBudgetsCurrency() throws {
        let repo = try store()
        _ = try repo.addPet(PetDraft(name: "Coco", species: .dog))
        let first = time.today.adding(days: -4), last = time.today.adding(days: 5)
        let (b, _) = try repo.setBudget(BudgetDraft(pet: nil, budget: Budget(amount: Money(minorUnits: 100_000, currency: .krw),
                                                                             period: .days(from: first, through: last), name: "Jeju trip")))
        try add(repo, "Coco", daysAgo: 1, .expense(Expense(money: Money(minorUnits: 25_000, currency: .krw), category: "food")))
        let chart = try composer(repo).budget(b, currency: .krw)
        guard case .bars(let spec) = chart.drawing() else { return XCTFail("bars") }
        XCTAssertEqual(spec.categories.count, 10, "one bar a day of the trip")
        XCTAssertTrue(spec.title.contains("Jeju trip"), spec.title)
        let line = try XCTUnwrap(spec.referenceLine)
        XCTAssertEqual(Set(line.values), [10_000], "₩100,000 over ten days")
        let view = try json(chart.json())
        XCTAssertEqual((view["budget"] as? [String: Any])?["daily_minor"] as? Int, 10_000)
        XCTAssertTrue(chart.text().contains { $0.contains("₩10,000") }, chart.text().joined(separator: "\n"))
        XCTAssertEqual(spec.notes, [])
        // A day whose only purchase no rate converts: no bar, no share line over it, and a note.
        try add(repo, "Coco", daysAgo: 2, .expense(Expense(money: Money(minorUnits: 1_500, currency: try XCTUnwrap(Currency.named("USD"))), category: "food")))
        let blank = try composer(repo).budget(b, currency: .krw)
        guard case .bars(let blankSpec) = blank.drawing() else { return XCTFail("bars") }
        let values = try XCTUnwrap(blankSpec.referenceLine).values
        XCTAssertEqual(values.filter { $0 == nil }.count, 1, "\(values)")
        XCTAssertNil(values[2], "the trip's third day (two days ago)")
        XCTAssertEqual(blankSpec.notes.count, 1)
        XCTAssertTrue(blankSpec.notes[0].hasPrefix(blankSpec.categories[2]), blankSpec.notes[0])
    }
}
