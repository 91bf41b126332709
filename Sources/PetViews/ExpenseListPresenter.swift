import Foundation
import Localization
import PetModel

/// `expense list` on screen: a month's, a day's or every starred expense under their days, a purchase
/// shared by pets one line with each pet's share, amounts converted into the home currency at their day's rate.
public struct ExpenseListPresenter {
    public let context: PresentationContext

    public init(_ context: PresentationContext) { self.context = context }

    var screen: TextScreen { context.screen }
    var format: ValueFormatter { context.format }
    var wording: RecordWording { context.wording }
    var time: TimeContext { context.time }
    func t(_ m: L10n.Message) -> String { context.t(m) }

    /// The title, then each day with its total and its purchases (id, clock on the record's own clock,
    /// amount with its conversion, pet shares, category, merchant, items, payment, marks, note), then the
    /// span's total, payments ahead, the converted total and what no rate converts.
    public func lines(_ days: SpendingDays, span: ExpenseListJSON.Span, showPet: Bool, ahead: SpendingAhead) -> [String] {
        var out: [String] = []
        switch span {
        case .month(let m): out.append(screen.styled(t(.expenseListTitle(month: format.monthLabel(m))), .bold))
        case .day(let d): out.append(screen.styled(t(.expenseListDayTitle(day: format.longDate(d))), .bold))
        case .everything: out.append(screen.styled(t(.expenseListStarredTitle), .bold))
        }
        guard !days.days.isEmpty else {
            switch span {
            case .month: out.append(t(.expenseListEmpty))
            case .day: out.append(t(.expenseListEmptyDay))
            case .everything: out.append(t(.expenseListEmptyStarred))
            }
            return out
        }
        let home = days.currency
        let idWidth = days.days.flatMap(\.entries).map { String($0.recordId).count }.max() ?? 1
        func totalText(_ total: SpendingTotal) -> String {
            total.isSingleCurrency ? format.money(total.converted)
                : total.currencies.map { format.money(Money(minorUnits: total.byCurrency[$0] ?? 0, currency: Currency.named($0) ?? home)) }.joined(separator: " + ")
        }
        let clocks = days.days.flatMap(\.entries).map { RecordClockText.text($0.at, utcOffset: $0.utcOffset, format: format, time: time) }
        let clockWidth = clocks.map(DisplayColumns.width).max() ?? 5
        for day in days.days {
            out.append("")
            out.append(screen.styled("\(format.longDate(day.day)) \(format.weekday(day.day))", .bold) + "  " + totalText(day.total))
            for (group, converted) in purchases(day, merge: showPet) {
                let entry = group[0]
                var parts: [String] = []
                if showPet {
                    // A purchase shared by pets is one line: each pet with its share.
                    parts.append(group.count == 1 ? PlainText.sanitized(entry.petName ?? t(.expenseHousehold))
                        : group.map { PlainText.sanitized($0.petName ?? t(.expenseHousehold)) + " " + format.money($0.money) }.joined(separator: ", "))
                }
                var what = context.categoryName(entry.category)
                // A cost kept on another kind of record (a visit's) says which, unless the names are the same (grooming).
                if entry.source != .expense, wording.kindName(entry.source) != what { what += " (" + wording.kindName(entry.source) + ")" }
                parts.append(what)
                if let m = entry.merchant { parts.append(PlainText.sanitized(m)) }
                if !entry.items.isEmpty { parts.append(PlainText.sanitized(entry.items.joined(separator: ", "))) }
                if let p = entry.payment { parts.append(ScanProposalPresenter(context).paymentName(p)) }
                if entry.splitOf != nil { parts.append(t(.expenseShared)) }
                if entry.isAhead(of: time.now) { parts.append(t(.expenseAhead)) }
                if entry.attachments > 0 { parts.append(t(.expenseReceipts(count: ValueFormatter.count(entry.attachments)))) }
                let paid = Money(minorUnits: group.reduce(0) { $0.addingSaturated($1.money.minorUnits) }, currency: entry.money.currency)
                var amount = format.money(paid)
                if entry.money.currency != home {
                    amount += converted.map { " (≈ " + format.money($0) + ")" } ?? " (" + t(.expenseNoRate) + ")"
                }
                var line = "  " + screen.styled(String(repeating: " ", count: idWidth - String(entry.recordId).count) + "#\(entry.recordId)", .dim)
                let clock = RecordClockText.text(entry.at, utcOffset: entry.utcOffset, format: format, time: time)
                line += "  " + String(repeating: " ", count: max(0, clockWidth - DisplayColumns.width(clock))) + clock + "  " + amount + "  " + parts.joined(separator: format.listSeparator)
                if let n = entry.note { line += screen.styled("  — " + PlainText.sanitized(n), .dim) }
                if entry.starred { line += " ★" }
                out.append(line)
            }
        }
        out.append("")
        let total = days.total
        switch span {
        case .month(let m): out.append(screen.styled(t(.expenseMonthTotal(month: format.monthLabel(m), total: totalText(total))), .bold))
        case .day(let d): out.append(screen.styled(t(.expenseMonthTotal(month: format.longDate(d), total: totalText(total))), .bold))
        case .everything: out.append(screen.styled(t(.expenseListTotal(total: totalText(total))), .bold))
        }
        out += context.aheadLines(ahead)
        let foreign = days.days.flatMap { zip($0.entries, $0.converted) }.filter { $0.0.money.currency != home }
        if !total.isSingleCurrency && foreign.contains(where: { $0.1 != nil }) {
            out.append(t(.expenseConvertedTotal(currency: home.code, total: format.money(total.converted))))
        }
        if total.unconverted > 0, total.unconvertedHaveNoECBRate {
            // TWD, VND: the ECB never publishes them, so `rates update` would not help; say how to import one.
            let codes = total.unconvertedCurrencies
            out.append(screen.styled(t(.expenseUnconvertedNoECB(count: ValueFormatter.count(total.unconverted), codes: codes.joined(separator: ", "),
                                                                 currency: home.code, code: codes[0])), .yellow))
        } else if total.unconverted > 0 {
            out.append(screen.styled(t(.expenseUnconverted(count: ValueFormatter.count(total.unconverted), currency: home.code)), .yellow))
        }
        return out
    }

    /// A day's entries as purchases: with `merge`, the shares of one split purchase together (they
    /// share its time), converted as one (nil when any share has no rate); else one entry each.
    public func purchases(_ day: SpendingDays.Day, merge: Bool) -> [([SpendingEntry], Money?)] {
        var order: [Int64] = [], groups: [Int64: ([SpendingEntry], Money?)] = [:]
        for (e, c) in zip(day.entries, day.converted) {
            let key = merge ? e.purchaseId : e.recordId
            if var g = groups[key] {
                g.0.append(e)
                g.1 = g.1.flatMap { sum in c.map { Money(minorUnits: sum.minorUnits.addingSaturated($0.minorUnits), currency: sum.currency) } }
                groups[key] = g
            } else {
                order.append(key); groups[key] = ([e], c)
            }
        }
        return order.compactMap { groups[$0] }
    }
}
