import Foundation
import Localization
import PetModel
import PetStoreCore

/// Budgets in words: what a budget is called and for whom, its period and state, where it stands (spent,
/// left, per day, per person), and the `budget list`, `budget show` and `budget show ID --daily` layouts.
public struct BudgetPresenter {
    public let context: PresentationContext

    public init(_ context: PresentationContext) { self.context = context }

    var format: ValueFormatter { context.format }
    func t(_ m: L10n.Message) -> String { context.t(m) }
    func count(_ n: Int) -> String { ValueFormatter.count(n) }

    /// `under way, 6 days left`, `upcoming, starts in 27 days`, `ended Nov 29, 2026`; a monthly budget
    /// is always under way, with the days left in this month.
    public func state(_ budget: Budget, on day: LocalDate) -> String {
        switch budget.standing(on: day) {
        case .current: t(.budgetUnderWay(n: count(budget.daysLeft(on: day))))
        case .upcoming(let n): t(.budgetUpcoming(n: count(n)))
        case .ended: t(.budgetEnded(date: format.longDate(budget.span(asOf: day).last)))
        }
    }

    public func who(_ b: StoredBudget) -> String { b.petId == nil ? t(.budgetHousehold) : (b.petName ?? "#\(b.petId ?? 0)") }

    public func period(_ budget: Budget) -> String {
        switch budget.period {
        case .monthly: t(.budgetMonthly)
        case .days(let from, let through): t(.budgetSpan(from: format.longDate(from), to: format.longDate(through)))
        }
    }

    /// `Japan trip · Tokyo · 2 people`: what a budget is called, where and for how many; empty when none is said.
    public func label(_ budget: Budget) -> String {
        var parts: [String] = []
        if let name = budget.name { parts.append(PlainText.sanitized(name)) }
        if let place = budget.place { parts.append(PlainText.sanitized(place)) }
        if let people = budget.people { parts.append(t(.budgetPeople(n: count(people)))) }
        // Japanese joins a name and its place with the katakana middle dot (`Japan trip・Tokyo`): the Latin
        // one set in a Japanese font hugs the next word in a chart's title.
        return parts.joined(separator: t(.budgetLabelJoin))
    }

    /// `Japan trip · Tokyo · 2 people · Household · US$2,000.00 · Dec 20 – 29 · all categories`;
    /// `Coco · ₩300,000 · monthly · vet · per pet (÷1)`.
    public func describe(_ b: StoredBudget, activePets: Int) -> String {
        let named = label(b.budget)
        var parts = (named.isEmpty ? [] : [named]) + [who(b), format.money(b.budget.amount), period(b.budget),
                                                      b.budget.category.map(context.categoryName) ?? t(.budgetAllCategories)]
        if b.budget.perPet { parts.append(t(.budgetPerPet(n: count(Budget.headcount(petBudget: b.petId != nil, activePets: activePets))))) }
        return parts.joined(separator: format.listSeparator)
    }

    /// `over by ₩1,000` (red on a colour screen) or `₩1,000 left`.
    func leftText(_ left: Money, over: Bool) -> String {
        over ? context.screen.styled(t(.budgetOver(over: format.money(Money(minorUnits: left.minorUnits == .min ? .max : -left.minorUnits, currency: left.currency)))), .red)
            : t(.budgetLeft(left: format.money(left)))
    }

    /// Spent of amount with what is left (over budget in words, red on a terminal), days left with the
    /// allowance per day, and with `detailed` the span, the categories and the unconverted count.
    public func statusLines(_ budget: Budget, _ st: BudgetStatus, on day: LocalDate, detailed: Bool, showDays: Bool = true) -> [String] {
        var lines: [String] = []
        let standing = budget.standing(on: day)
        if detailed {
            var span = t(.budgetSpan(from: format.longDate(st.first), to: format.longDate(st.last)))
            switch standing {
            case .current: break
            case .upcoming(let n): span += format.listSeparator + t(.budgetStartsIn(n: count(n)))
            case .ended: span += format.listSeparator + t(.budgetEnded(date: format.longDate(st.last)))
            }
            lines.append(span)
        }
        lines.append(t(.budgetSpentOf(spent: format.money(st.spent), amount: format.money(st.amount))) + format.listSeparator + leftText(st.left, over: st.isOver))
        if case .ended = standing {} else if showDays {
            var days = t(.budgetDaysLeft(n: count(st.daysLeft)))
            if let perDay = st.perDay { days += format.listSeparator + t(.budgetPerDay(amount: format.money(perDay))) }
            lines.append(days)
        }
        if let pp = st.perPerson {
            var line = t(.budgetPerPerson(n: count(pp.people))) + ": " + t(.budgetSpentOf(spent: format.money(pp.spent), amount: format.money(pp.amount)))
                + format.listSeparator + leftText(pp.left, over: pp.left.minorUnits < 0)
            if case .ended = standing {} else if showDays, let perDay = pp.perDay { line += format.listSeparator + t(.budgetPerDay(amount: format.money(perDay))) }
            lines.append(line)
        }
        if detailed && !st.byCategory.isEmpty {
            lines.append(t(.budgetByCategory(list: st.byCategory.map { context.categoryName($0.category) + " " + format.money($0.spent) }.joined(separator: format.listSeparator))))
        }
        if st.unconverted > 0 { lines.append(unconvertedLine(st.unconverted, currencies: st.unconvertedCurrencies)) }
        return lines
    }

    /// `budget list`: one row per budget, in the order given; the name column (name · place · people) only
    /// when a budget has one of them, so a household without trips sees the table as before.
    public func list(_ budgets: [StoredBudget], activePets: Int, on today: LocalDate) -> [String] {
        guard !budgets.isEmpty else { return [t(.budgetNone)] }
        let named = budgets.contains { !label($0.budget).isEmpty }
        return context.screen.table(
            header: ["#"] + (named ? [t(.budgetColName)] : []) + [t(.budgetColFor), t(.budgetColAmount), t(.budgetColPeriod), t(.budgetColCategory), t(.budgetColState)],
            rows: budgets.map { b -> [String] in
                let pets = count(Budget.headcount(petBudget: b.petId != nil, activePets: activePets))
                let amount: String = format.money(b.budget.amount) + (b.budget.perPet ? " " + t(.budgetPerPet(n: pets)) : "")
                let category: String = b.budget.category.map(context.categoryName) ?? t(.budgetAllCategories)
                return [String(b.id)] + (named ? [label(b.budget)] : []) + [who(b), amount, period(b.budget), category, state(b.budget, on: today)]
            })
    }

    /// `budget show`: each budget shown on `day`, its description in bold and its detailed status below.
    /// `pet`: the pet asked for, named when it has none in force.
    public func show(_ shown: [(StoredBudget, BudgetStatus)], activePets: Int, on day: LocalDate, pet: String? = nil) -> [String] {
        guard !shown.isEmpty else {
            return [pet.map { t(.budgetNoneOnFor(pet: $0, date: format.longDate(day))) } ?? t(.budgetNoneOn(date: format.longDate(day)))]
        }
        var out: [String] = []
        for (i, (b, status)) in shown.enumerated() {
            if i > 0 { out.append("") }
            out.append(context.screen.styled("#\(b.id) " + describe(b, activePets: activePets), .bold))
            out += statusLines(b.budget, status, on: day, detailed: true).map { "  " + $0 }
        }
        return out
    }

    /// `budget show ID --daily`: the day with its mark (today, ahead), the day's spending, the running total
    /// and what is left (a minus sign and red once over; the line below says it in words), and with people
    /// the running total and what is left per person; narrow enough for 80 columns.
    public func daily(_ b: StoredBudget, _ days: BudgetDays, activePets: Int, on day: LocalDate) -> [String] {
        var out = [context.screen.styled(t(.budgetDailyTitle(id: String(b.id), what: describe(b, activePets: activePets))), .bold)]
        let perPerson = days.amountPerPerson != nil
        var header = [t(.budgetColDay), t(.budgetColSpent), t(.budgetColTotal), t(.budgetColLeft)]
        if perPerson { header += [t(.budgetColPerPerson(what: t(.budgetColTotal))), t(.budgetColPerPerson(what: t(.budgetColLeft)))] }
        func signed(_ m: Money) -> String {
            m.minorUnits < 0 ? "−" + format.money(Money(minorUnits: m.minorUnits == .min ? .max : -m.minorUnits, currency: m.currency)) : format.money(m)
        }
        let rows: [[String]] = days.days.map { r in
            var label = format.shortDay(r.day)
            if r.day == day { label += format.listSeparator + t(.budgetDailyToday) } else if r.ahead && r.count > 0 { label += format.listSeparator + t(.budgetDayAhead) }
            var row = [label, r.count == 0 ? "–" : format.money(r.spent), format.money(r.total), signed(r.left)]
            if perPerson { row += [format.money(r.totalPerPerson ?? r.total), signed(r.leftPerPerson ?? r.left)] }
            return row
        }
        let overRows = Set(days.days.enumerated().filter { $0.element.isOver }.map(\.offset))
        out += context.screen.table(header: header, rows: rows) { overRows.contains($0) ? .red : nil }
        func standing(_ spent: Money, of amount: Money) -> String {
            let left = amount.minorUnits.subtractingReportingOverflow(spent.minorUnits).partialValue
            let leftText = left < 0
                ? t(.budgetOver(over: format.money(Money(minorUnits: left == .min ? .max : -left, currency: amount.currency))))
                : t(.budgetLeft(left: format.money(Money(minorUnits: left, currency: amount.currency))))
            return t(.budgetSpentOf(spent: format.money(spent), amount: format.money(amount))) + format.listSeparator + leftText
        }
        if let lastRow = days.days.last {
            out.append(standing(lastRow.total, of: days.amount))
            if let pp = days.amountPerPerson {
                out.append(t(.budgetPerPerson(n: count(b.budget.people ?? 1))) + ": " + standing(lastRow.totalPerPerson ?? lastRow.total, of: pp))
            }
        }
        if days.unconverted > 0 { out.append(unconvertedLine(days.unconverted, currencies: days.unconvertedCurrencies)) }
        return out
    }

    /// What was left out for want of a rate; when all of it is in currencies the ECB never publishes
    /// (`TWD`), it says so and how to import a rate instead of suggesting `rates update`.
    func unconvertedLine(_ n: Int, currencies: [String]) -> String {
        if !currencies.isEmpty, currencies.allSatisfy({ Currency.named($0)?.hasECBRate == false }) {
            return t(.budgetUnconvertedNoECB(n: count(n), codes: currencies.joined(separator: ", "), code: currencies[0]))
        }
        return t(.budgetUnconverted(n: count(n)))
    }
}
