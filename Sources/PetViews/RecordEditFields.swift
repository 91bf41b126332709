import Foundation
import Localization
import PetModel
import PetStoreCore

/// The value options `edit ID` offers for each kind of record, said once: `RecordEdit` refuses any other
/// (`NotForKind`), and `petlog serve`'s edit form (`GET /records/ID/edit`) shows exactly these, each
/// prefilled with the record's value written so that `edit` reads it back to the same value (`current`).
/// `--at`, `--note` and `--pet` fit every record; files follow `RecordKind.files` (`--receipt`, `--photo`,
/// `--attach`) and `--detach` takes any of a record's files.
extension RecordEdit {
    /// How a form asks for a value.
    public enum Input: Equatable, Sendable {
        /// One line.
        case line
        /// Several lines (a diary's text, a diagnosis).
        case lines
        /// One of a fixed list of codes, shown by their names in the string group `group` (`payment.card`).
        case choice(group: String, codes: [String])
    }

    /// One value option of `edit` for a kind.
    public struct Field: Equatable, Sendable {
        /// The option as typed (`--weight`); a form's field is named without the dashes.
        public let option: String
        /// The key of its label in the string tables (`fieldname.bcs`, `show.cost`).
        public let label: String
        public let input: Input
        public var name: String { String(option.dropFirst(2)) }
        init(_ option: String, _ label: String, _ input: Input = .line) { self.option = option; self.label = label; self.input = input }
    }

    /// The value options `edit` takes for a record of `kind`, in the order a form shows them. A later kind's
    /// are its descriptor's members that name an option (`RecordKindTable.JSONField.option`).
    public static func fields(_ kind: RecordKind) -> [Field] {
        switch kind {
        case .weight: return [Field("--weight", "show.weight"), Field("--bcs", "fieldname.bcs")]
        case .meal: return [Field("--food", "fieldname.food"), Field("--amount", "fieldname.amount")]
        case .stool: return [Field("--score", "fieldname.score")]
        case .symptom: return [Field("--severity", "fieldname.severity")]
        case .diary: return [Field("--text", "fieldname.diary", .lines), Field("--title", "fieldname.title")]
        case .visit:
            return [Field("--clinic", "fieldname.clinic"), Field("--reason", "fieldname.reason"), Field("--diagnosis", "fieldname.diagnosis", .lines),
                    Field("--treatment", "fieldname.treatment", .lines), Field("--weight", "show.weight"), Field("--follow-up", "fieldname.follow-up"),
                    Field("--cost", "show.cost")]
        case .vaccination: return [Field("--clinic", "fieldname.clinic"), Field("--next", "fieldname.next"), Field("--lot", "fieldname.lot")]
        case .medication: return [Field("--dose", "fieldname.dose")]
        case .expense:
            return [Field("--amount", "fieldname.amount"), Field("--category", "fieldname.category"), Field("--merchant", "fieldname.merchant"),
                    Field("--items", "fieldname.items"), Field("--payment", "fieldname.payment", .choice(group: "payment", codes: Payment.allCases.map(\.rawValue)))]
        case .urine, .dose: return []
        default:
            return (RecordKindTable.of(kind).members ?? []).compactMap { m in
                guard let option = m.option, options.contains(option) else { return nil }
                return Field(option, m.label)
            }
        }
    }

    /// The record's value of each of `fields(r.kind)`, by option, written as `edit` reads it back to the same
    /// value: a mass in kilograms (`4.5kg`), money with its currency (`45000 KRW`), an amount with its unit
    /// (`80g`), a walk's measures (`3.2km`, `45min`), codes by their names in `l`'s language (`목욕, 발톱`),
    /// days as `YYYY-MM-DD`, text as stored; empty where the record has none.
    public static func current(_ r: PetRecord, _ l: L10n) -> [String: String] {
        func mass(_ m: Mass?) -> String { m.map { "\(Decimal($0.grams) / 1000)kg" } ?? "" }
        func day(_ d: LocalDate?) -> String { d?.description ?? "" }
        var out: [String: String] = [:]
        switch r.detail {
        case .weight(let w): out = ["--weight": mass(w.mass), "--bcs": w.bodyConditionScore.map { String($0.value) } ?? ""]
        case .meal(let m): out = ["--food": m.food, "--amount": m.amount.map(amountText) ?? ""]
        case .stool(let st): out = ["--score": String(st.faecalScore.value)]
        case .symptom(let sy): out = ["--severity": String(sy.severityLevel.value)]
        case .diary(let d): out = ["--text": d.text, "--title": d.title ?? ""]
        case .visit(let v):
            out = ["--clinic": v.clinic ?? "", "--reason": v.reason ?? "", "--diagnosis": v.diagnosis ?? "", "--treatment": v.treatment ?? "",
                   "--weight": mass(v.weight), "--follow-up": day(v.followUp), "--cost": v.cost.map(moneyText) ?? ""]
        case .vaccination(let v): out = ["--clinic": v.clinic ?? "", "--next": day(v.nextDue), "--lot": v.lot ?? ""]
        case .medication(let m): out = ["--dose": m.dose ?? ""]
        case .expense(let e):
            out = ["--amount": moneyText(e.money), "--category": l.code(.category, e.category), "--merchant": e.merchant ?? "",
                   "--items": e.items.joined(separator: ", "), "--payment": e.payment?.rawValue ?? ""]
        case .urine, .dose: break
        default:
            let columns = RecordKindTable.columnValues(r.detail)
            for m in RecordKindTable.of(r.kind).members ?? [] {
                guard let option = m.option, options.contains(option) else { continue }
                let value = columns[m.columns[0]] ?? .null
                switch m.value {
                case .text, .day: out[option] = value.text ?? ""
                case .money:
                    out[option] = value.int.flatMap { minor in
                        columns[m.columns[1]]?.text.flatMap(Currency.named).map { moneyText(Money(minorUnits: minor, currency: $0)) }
                    } ?? ""
                case .codes(let group):
                    out[option] = (value.text ?? "").split(separator: ",").map { l.text(key: "\(group).\($0)") ?? String($0) }.joined(separator: ", ")
                case .meters: out[option] = value.int.map { "\(Decimal($0) / 1000)km" } ?? ""
                case .minutes: out[option] = value.int.map { "\($0)min" } ?? ""
                }
            }
        }
        return out
    }

    /// Money as `MoneyText` reads it back exactly: the amount with its minor digits, then the currency's code.
    public static func moneyText(_ m: Money) -> String {
        var d = Decimal(m.minorUnits)
        for _ in 0..<m.currency.minorDigits { d /= 10 }
        var s = "\(d)"
        if m.currency.minorDigits > 0 {
            let fraction = s.split(separator: ".", maxSplits: 1).dropFirst().first.map(String.init) ?? ""
            s = (fraction.isEmpty ? s + "." : s) + String(repeating: "0", count: max(0, m.currency.minorDigits - fraction.count))
        }
        return s + " " + m.currency.code
    }

    /// A meal's amount as `Amount.parse` reads it back (`80g`, `200ml`, `1.5cup`, `2pc`).
    static func amountText(_ a: Amount) -> String {
        let v = a.value == a.value.rounded() ? String(Int(a.value)) : String(a.value)
        return v + (a.unit == .piece ? "pc" : a.unit.rawValue)
    }
}
