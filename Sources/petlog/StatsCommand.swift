import ArgumentParser
import Foundation
import Localization
import PetModel
import PetStore

struct StatsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "stats", abstract: "This month against the previous one: weight, meals, stool, symptoms, visits, vaccines, spending.")
    @Argument(help: "Pet name or id (default: all pets).") var pet: String?
    @Option(help: "The month: 2026-11 (default: this month).") var month: String?

    /// One month's figures.
    struct MonthFigures {
        var lastWeight: [String: Int] = [:]
        var meals = 0, treats = 0
        var stoolScores: [Int] = []
        var symptoms: [String: Int] = [:]
        var visits = 0, vaccines = 0, doses = 0
        var spending: [String: [String: Int64]] = [:]   // currency → category → minor units
    }

    func run() throws {
        try Session.run { s in
            let this = try s.monthStart(month)
            let previous = this.adding(months: -1)
            let repo = try s.repository()
            let refs = pet.map(PetModelText.pets) ?? []
            func figures(_ start: LocalDate) throws -> MonthFigures {
                let records = try repo.records(RecordQuery(pets: refs, since: s.time.startOfDay(start), until: s.time.startOfDay(start.adding(months: 1))))
                var f = MonthFigures()
                let meals = MealCounts(records, context: s.time)
                f.meals = meals.meals
                f.treats = meals.treats
                for r in records {
                    switch r.detail {
                    case .weight(let w): f.lastWeight[r.petName ?? "-"] = w.mass.grams
                    case .stool(let st): f.stoolScores.append(st.score)
                    case .symptom(let sy): f.symptoms[s.symptomName(sy), default: 0] += 1
                    case .visit: f.visits += 1
                    case .vaccination: f.vaccines += 1
                    case .dose(let d): if !d.skipped { f.doses += 1 }
                    case .expense(let e):
                        f.spending[e.money.currency.code, default: [:]][e.category, default: 0] =
                            (f.spending[e.money.currency.code]?[e.category] ?? 0).addingSaturated(e.money.minorUnits)
                    default: break
                    }
                }
                return f
            }
            let a = try figures(this), b = try figures(previous)
            func delta(_ x: Int, _ y: Int) -> String { x == y ? "±0" : (x > y ? "+" : "−") + String(abs(x - y)) }
            var rows: [[String]] = []
            var json: [[String: Any]] = []
            func add(_ label: String, _ key: String, _ x: String, _ y: String, _ d: String, _ raw: (Any, Any)) {
                rows.append([label, x, y, d])
                json.append(["item": key, "this_month": raw.0, "previous_month": raw.1])
            }
            for name in Set(a.lastWeight.keys).union(b.lastWeight.keys).sorted() {
                let x = a.lastWeight[name], y = b.lastWeight[name]
                var d = ""
                if let x, let y {
                    let pct = Double(x - y) / Double(y) * 100
                    d = (x >= y ? "+" : "−") + s.mass(Mass(grams: max(1, abs(x - y)))) + " (" + (pct >= 0 ? "+" : "") + Session.trim(pct, digits: 1) + " %)"
                    if x == y { d = "±0" }
                }
                add(s.t(.statsWeight, ["pet": name]), "weight_grams:\(name)", x.map { s.mass(Mass(grams: $0)) } ?? "—",
                    y.map { s.mass(Mass(grams: $0)) } ?? "—", d, (JSONShape.value(x), JSONShape.value(y)))
            }
            add(s.t(.statsMeals), "meals", String(a.meals), String(b.meals), delta(a.meals, b.meals), (a.meals, b.meals))
            add(s.t(.statsTreats), "treats", String(a.treats), String(b.treats), delta(a.treats, b.treats), (a.treats, b.treats))
            func stoolText(_ scores: [Int]) -> String {
                guard !scores.isEmpty else { return "—" }
                let avg = Double(scores.reduce(0, +)) / Double(scores.count)
                return Session.trim(avg, digits: 1) + " (" + (1...7).compactMap { n in
                    let c = scores.filter { $0 == n }.count
                    return c > 0 ? "\(n):\(c)" : nil
                }.joined(separator: " ") + ")"
            }
            func average(_ v: [Int]) -> Double? { v.isEmpty ? nil : Double(v.reduce(0, +)) / Double(v.count) }
            var stoolDelta = ""
            if let x = average(a.stoolScores), let y = average(b.stoolScores) {
                stoolDelta = (x >= y ? "+" : "−") + Session.trim(abs(x - y), digits: 1)
            }
            add(s.t(.statsStool), "stool_scores", stoolText(a.stoolScores), stoolText(b.stoolScores), stoolDelta, (a.stoolScores, b.stoolScores))
            let totalA = a.symptoms.values.reduce(0, +), totalB = b.symptoms.values.reduce(0, +)
            add(s.t(.statsSymptoms), "symptoms", String(totalA), String(totalB), delta(totalA, totalB), (totalA, totalB))
            for name in Set(a.symptoms.keys).union(b.symptoms.keys).sorted() {
                let x = a.symptoms[name] ?? 0, y = b.symptoms[name] ?? 0
                add("  " + name, "symptom:\(name)", String(x), String(y), delta(x, y), (x, y))
            }
            add(s.t(.statsVisits), "visits", String(a.visits), String(b.visits), delta(a.visits, b.visits), (a.visits, b.visits))
            add(s.t(.statsVaccines), "vaccines", String(a.vaccines), String(b.vaccines), delta(a.vaccines, b.vaccines), (a.vaccines, b.vaccines))
            add(s.t(.statsDoses), "doses", String(a.doses), String(b.doses), delta(a.doses, b.doses), (a.doses, b.doses))
            for currency in Set(a.spending.keys).union(b.spending.keys).sorted() {
                let cur = Currency.named(currency) ?? Currency(code: currency, minorDigits: 2, symbol: nil)
                let ca = a.spending[currency] ?? [:], cb = b.spending[currency] ?? [:]
                let ta = ca.values.reduce(Int64(0)) { $0.addingSaturated($1) }, tb = cb.values.reduce(Int64(0)) { $0.addingSaturated($1) }
                func m(_ v: Int64) -> String { s.money(Money(minorUnits: v, currency: cur)) }
                func md(_ x: Int64, _ y: Int64) -> String { x == y ? "±0" : (x > y ? "+" : "−") + m(abs(x - y)) }
                add(s.t(.statsSpending, ["currency": currency]), "spending:\(currency)", m(ta), m(tb), md(ta, tb), (ta, tb))
                for cat in Set(ca.keys).union(cb.keys).sorted() {
                    let x = ca[cat] ?? 0, y = cb[cat] ?? 0
                    add("  " + s.l10n.code(.category, cat), "spending:\(currency):\(cat)", m(x), m(y), md(x, y), (x, y))
                }
            }
            if s.json {
                s.terminal.json(["month": String(this.description.prefix(7)), "previous_month": String(previous.description.prefix(7)), "items": json])
                return
            }
            s.terminal.line(s.terminal.styled(s.t(.statsTitle, ["month": s.monthLabel(this), "previous": s.monthLabel(previous)]), .bold))
            s.terminal.table(header: [s.t(.reportItem), s.monthLabel(this), s.monthLabel(previous), "Δ"], rows: rows)
        }
    }
}
