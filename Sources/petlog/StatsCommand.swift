import ArgumentParser
import Foundation
import Localization
import PetModel
import PetStore

struct StatsCommand: ParsableCommand {
    @OptionGroup(title: "Global options") var global: GlobalOptions
    static let configuration = CommandConfiguration(
        commandName: "stats", abstract: "This month against the previous one: weight, meals, stool, symptoms, visits, vaccines, spending.")
    @Argument(help: "Pet name or id (default: all pets).") var pet: String?
    @Option(help: "The month: 2026-11 (default: this month).") var month: String?

    func run() throws {
        try Session.run(global) { s in
            let this = try s.monthStart(month)
            let previous = this.adding(months: -1)
            let repo = try s.repository()
            let records = try repo.records(RecordQuery(pets: pet.map(PetModelText.pets) ?? [], since: s.time.startOfDay(previous),
                                                       until: s.time.startOfDay(this.adding(months: 1))))
            let comparison = MonthComparison(records, month: this, context: s.time)
            let a = comparison.this, b = comparison.previous
            var petNames: [Int64: String] = [:]
            for r in records { if let id = r.petId { petNames[id] = r.petName ?? "-" } }
            func delta(_ x: Int, _ y: Int) -> String { x == y ? "±0" : (x > y ? "+" : "−") + String(abs(x - y)) }
            var rows: [[String]] = []
            var json: [[String: Any]] = []
            // Machine keys are codes and pet ids, the same in every language; the labels are translated.
            func add(_ label: String, _ key: String, _ x: String, _ y: String, _ d: String, _ raw: (Any, Any)) {
                rows.append([label, x, y, d])
                json.append(["item": key, "this_month": raw.0, "previous_month": raw.1])
            }
            for id in comparison.weighedPets.sorted(by: { (petNames[$0] ?? "", $0) < (petNames[$1] ?? "", $1) }) {
                let x = a.lastWeight[id], y = b.lastWeight[id]
                var d = ""
                if let x, let y { d = s.format.massChange(MassChange(from: y, to: x)) }
                add(s.t(.statsWeight(pet: petNames[id] ?? "-")), "weight_grams:\(id)", x.map(s.format.mass) ?? "—",
                    y.map(s.format.mass) ?? "—", d, (JSONShape.value(x?.grams), JSONShape.value(y?.grams)))
            }
            add(s.t(.statsMeals), "meals", String(a.meals.meals), String(b.meals.meals), delta(a.meals.meals, b.meals.meals), (a.meals.meals, b.meals.meals))
            add(s.t(.statsTreats), "treats", String(a.meals.treats), String(b.meals.treats), delta(a.meals.treats, b.meals.treats), (a.meals.treats, b.meals.treats))
            func stoolText(_ stools: StoolDistribution) -> String {
                guard let avg = stools.average else { return "—" }
                return ValueFormatter.trim(avg, digits: 1) + " (" + stools.counts.map { "\($0.score):\($0.count)" }.joined(separator: " ") + ")"
            }
            var stoolDelta = ""
            if let x = a.stools.average, let y = b.stools.average {
                stoolDelta = (x >= y ? "+" : "−") + ValueFormatter.trim(abs(x - y), digits: 1)
            }
            add(s.t(.statsStool), "stool_scores", stoolText(a.stools), stoolText(b.stools), stoolDelta, (a.stools.scores, b.stools.scores))
            let totalA = a.symptomTotal, totalB = b.symptomTotal
            add(s.t(.statsSymptoms), "symptoms", String(totalA), String(totalB), delta(totalA, totalB), (totalA, totalB))
            func symptomLabel(_ key: String) -> String { (a.symptomSamples[key] ?? b.symptomSamples[key]).map(s.wording.symptomName) ?? key }
            // By name on screen; by code in --json, so machine output is in the same order in every language.
            let symptomKeys = s.json ? comparison.symptomKeys.sorted()
                : comparison.symptomKeys.sorted(by: { (symptomLabel($0), $0) < (symptomLabel($1), $1) })
            for key in symptomKeys {
                let x = a.symptoms[key] ?? 0, y = b.symptoms[key] ?? 0
                add("  " + symptomLabel(key), "symptom:\(key)", String(x), String(y), delta(x, y), (x, y))
            }
            add(s.t(.statsVisits), "visits", String(a.visits), String(b.visits), delta(a.visits, b.visits), (a.visits, b.visits))
            add(s.t(.statsVaccines), "vaccines", String(a.vaccines), String(b.vaccines), delta(a.vaccines, b.vaccines), (a.vaccines, b.vaccines))
            add(s.t(.statsDoses), "doses", String(a.doses), String(b.doses), delta(a.doses, b.doses), (a.doses, b.doses))
            for currency in comparison.currencies {
                let cur = Currency.named(currency) ?? Currency(code: currency, minorDigits: 2, symbol: nil)
                let ca = a.spending[currency] ?? [:], cb = b.spending[currency] ?? [:]
                let ta = ca.values.reduce(Int64(0)) { $0.addingSaturated($1) }, tb = cb.values.reduce(Int64(0)) { $0.addingSaturated($1) }
                func m(_ v: Int64) -> String { s.format.money(Money(minorUnits: v, currency: cur)) }
                add(s.t(.statsSpending(currency: currency)), "spending:\(currency)", m(ta), m(tb), s.format.moneyChange(from: tb, to: ta, cur), (ta, tb))
                for cat in comparison.categories(currency) {
                    let x = ca[cat] ?? 0, y = cb[cat] ?? 0
                    add("  " + s.l10n.code(.category, cat), "spending:\(currency):\(cat)", m(x), m(y), s.format.moneyChange(from: y, to: x, cur), (x, y))
                }
            }
            if s.json {
                s.terminal.json(["month": String(this.description.prefix(7)), "previous_month": String(previous.description.prefix(7)), "items": json])
                return
            }
            s.terminal.line(s.terminal.styled(s.t(.statsTitle(month: s.format.monthLabel(this), previous: s.format.monthLabel(previous))), .bold))
            s.terminal.table(header: [s.t(.reportItem), s.format.monthLabel(this), s.format.monthLabel(previous), "Δ"], rows: rows)
        }
    }
}
