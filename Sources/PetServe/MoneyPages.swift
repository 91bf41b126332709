import Foundation
import Localization
import PetModel
import PetStoreCore
import PetViews

/// The money pages: the month by day (`expense list`), the spending calendar (`calendar --spending`), the
/// budgets (`budget show`) and trips day by day (`budget show --daily`) with their chart, the expense form and
/// the receipt's proposal; and home's summary. The same values and words as the CLI's presenters.
extension Pages {
    /// What `/money` shows of one month.
    struct MoneyMonth {
        let first: LocalDate
        let days: SpendingDays
        let daily: DailySpending
        let ahead: SpendingAhead
        let budgets: [(StoredBudget, BudgetStatus)]
        let activePets: Int
        /// The trips (budgets for a stretch of days) shown, day by day.
        let trips: [Int64: BudgetDays]
        let pets: [Pet]
        /// The pet the expense form starts with (`?pet=ID`, from the pet's page).
        var pet: String? = nil
    }

    /// Home's part: this month's spending against the household's monthly budgets, and a trip under way.
    struct HomeMoney {
        let spent: Money
        let monthly: [(StoredBudget, BudgetStatus)]
        let trips: [(StoredBudget, BudgetStatus)]
        let activePets: Int
    }

    func budgets(_ shown: [(StoredBudget, BudgetStatus)], activePets: Int, link: Bool) -> HTML {
        let presenter = BudgetPresenter(context)
        let items = shown.map { b, st -> HTML in
            let lines = presenter.statusLines(b.budget, st, on: time.today, detailed: true).map { l -> HTML in "<li>\(l)</li>" }
            let title: HTML = link ? "<a href=\"/money#budget-\(b.id)\"><bdi>\(presenter.describe(b, activePets: activePets))</bdi></a>"
                : "<bdi>\(presenter.describe(b, activePets: activePets))</bdi>"
            let share = st.amount.minorUnits > 0 ? min(100, max(0, Int(Double(st.spent.minorUnits) * 100 / Double(st.amount.minorUnits)))) : 0
            return """
            <li class="card\(st.isOver ? " over" : "")" id="budget-\(b.id)"><div class="budget-title">#\(b.id) \(title)</div>\
            <meter min="0" max="100" low="80" high="99" optimum="0" value="\(share)">\(share)%</meter><ul class="plain">\(lines)</ul></li>
            """
        }
        return "<ul class=\"cards\">\(items)</ul>"
    }

    /// Home: this month's total, each monthly household budget's standing, and a trip under way.
    func homeMoney(_ m: HomeMoney?) -> HTML {
        guard let m else { return "" }
        var out: HTML = "<h2><a href=\"/money\">\(t(.webMoneyTitle))</a></h2><p>\(t(.webSpentThisMonth(amount: format.money(m.spent))))</p>"
        if !m.monthly.isEmpty { out += budgets(m.monthly, activePets: m.activePets, link: true) }
        if !m.trips.isEmpty { out += "<h3>\(t(.webTripUnderWay))</h3>" + budgets(m.trips, activePets: m.activePets, link: true) }
        return out
    }

    func monthLink(_ d: LocalDate) -> String { "/money?month=" + String(d.description.prefix(7)) }

    func money(_ m: MoneyMonth, session: WebSession) -> HTML {
        let title = t(.expenseListTitle(month: format.monthLabel(m.first)))
        let nav: HTML = """
            <nav class="months"><a class="button" href="\(monthLink(m.first.adding(months: -1)))" rel="prev">‹ \(t(.webMonthPrevious))</a>\
            <a class="button" href="\(monthLink(m.first.adding(months: 1)))" rel="next">\(t(.webMonthNext)) ›</a></nav>
            """
        let trips = m.budgets.filter { if case .days = $0.0.budget.period { return true } else { return false } }
        let others = m.budgets.filter { if case .days = $0.0.budget.period { return false } else { return true } }
        var body: HTML = "<h1>\(title)</h1>\(nav)"
        body += "<h2>\(t(.webSpendingCalendar))</h2>" + spendingCalendar(m)
        body += dayList(m.days, first: m.first)
        if session.account.role.writes { body += expenseForm(session: session, pets: m.pets, pet: m.pet) }
        body += "<h2>\(t(.webBudgetsTitle))</h2>"
        body += others.isEmpty && trips.isEmpty ? "<p class=\"muted\">\(t(.budgetNoneOn(date: format.longDate(time.today))))</p>"
            : budgets(others, activePets: m.activePets, link: false)
        if !trips.isEmpty {
            body += "<h2>\(t(.webTripsTitle))</h2>" + budgets(trips, activePets: m.activePets, link: false)
            for (b, _) in trips { if let days = m.trips[b.id] { body += tripDays(b, days) } }
        }
        return layout(title: title, session: session, body: body)
    }

    /// `calendar --spending` as a grid of seven columns: each day's total, compact, in the home currency.
    func spendingCalendar(_ m: MoneyMonth) -> HTML {
        let sundayFirst = context.weekStartsOnSunday
        let order = sundayFirst ? [7, 1, 2, 3, 4, 5, 6] : [1, 2, 3, 4, 5, 6, 7]
        let style: CompactMoney.Style = switch context.l10n.language {
        case .ko: .korean
        case .ja: .japanese
        default: .western
        }
        let head = order.map { n -> HTML in "<li class=\"wd\">\(format.weekday(iso: n))</li>" }
        let lead = sundayFirst ? m.first.isoWeekday % 7 : m.first.isoWeekday - 1
        let blanks = Array(repeating: HTML("<li class=\"blank\"></li>"), count: lead)
        let cells = m.daily.days.map { d -> HTML in
            let amount = d.entries == 0 ? "" : d.amount == 0 && d.unconverted > 0 ? "?" : CompactMoney.format(Money(minorUnits: d.amount, currency: m.daily.currency), style: style)
            let today = d.day == time.today ? " today" : ""
            return "<li class=\"day\(today)\"><span class=\"n\">\(Int(d.day.day))</span><span class=\"amt\">\(amount)</span></li>"
        }
        var out: HTML = "<p class=\"muted\">\(t(.calendarSpendingTitle(currency: m.daily.currency.code)))</p><ol class=\"calendar\">\(head)\(blanks)\(cells)</ol>"
        if m.daily.days.contains(where: { $0.entries > 0 }) {
            let count = m.daily.days.reduce(0) { $0 + $1.entries }
            out += "<p>\(t(.calendarSpendingTotal(amount: format.money(Money(minorUnits: m.daily.total, currency: m.daily.currency)), n: ValueFormatter.count(count))))</p>"
            for line in context.aheadLines(m.ahead) { out += "<p class=\"muted\">\(line)</p>" }
        }
        return out
    }

    /// `expense list --month`: each day with its total and its purchases.
    func dayList(_ days: SpendingDays, first: LocalDate) -> HTML {
        guard !days.days.isEmpty else { return "<p class=\"muted\">\(t(.expenseListEmpty))</p>" }
        let presenter = ExpenseListPresenter(context)
        let scan = ScanProposalPresenter(context)
        let list = days.days.map { day -> HTML in
            let rows = presenter.purchases(day, merge: true).map { group, converted -> HTML in
                let e = group[0]
                let paid = Money(minorUnits: group.reduce(0) { $0.addingSaturated($1.money.minorUnits) }, currency: e.money.currency)
                var amount = format.money(paid)
                if e.money.currency != days.currency { amount += converted.map { " (≈ " + format.money($0) + ")" } ?? " (" + t(.expenseNoRate) + ")" }
                var parts: [String] = [group.map { $0.petName ?? t(.expenseHousehold) }.joined(separator: ", "), context.categoryName(e.category)]
                if let merchant = e.merchant { parts.append(merchant) }
                if !e.items.isEmpty { parts.append(e.items.joined(separator: ", ")) }
                if let p = e.payment { parts.append(scan.paymentName(p)) }
                if e.attachments > 0 { parts.append(t(.expenseReceipts(count: ValueFormatter.count(e.attachments)))) }
                let note: HTML = e.note.map { "<span class=\"muted\"> — <bdi>\($0)</bdi></span>" } ?? ""
                let clock = RecordClockText.text(e.at, utcOffset: e.utcOffset, format: format, time: time)
                return "<li><span class=\"muted\">#\(e.recordId) \(clock)</span> <strong>\(amount)</strong> <bdi>\(parts.joined(separator: format.listSeparator))</bdi>\(note)\(e.starred ? " ★" : "")</li>"
            }
            return "<li><h3>\(format.longDate(day.day)) \(format.weekday(day.day)) <span class=\"muted\">\(totalText(day.total, days.currency))</span></h3><ul class=\"plain\">\(rows)</ul></li>"
        }
        return """
            <ul class="days">\(list)</ul>
            <p><strong>\(t(.expenseMonthTotal(month: format.monthLabel(first), total: totalText(days.total, days.currency))))</strong></p>
            """
    }

    func totalText(_ total: SpendingTotal, _ home: Currency) -> String {
        total.isSingleCurrency ? format.money(total.converted)
            : total.currencies.map { format.money(Money(minorUnits: total.byCurrency[$0] ?? 0, currency: Currency.named($0) ?? home)) }.joined(separator: " + ")
    }

    /// A trip day by day (`budget show ID --daily`) and its chart (`chart expenses --budget ID`, as SVG; the dark one in dark mode).
    func tripDays(_ b: StoredBudget, _ days: BudgetDays) -> HTML {
        let rows = days.days.map { r -> HTML in
            var label = format.shortDay(r.day)
            if r.day == time.today { label += format.listSeparator + t(.budgetDailyToday) } else if r.ahead && r.count > 0 { label += format.listSeparator + t(.budgetDayAhead) }
            return "<tr class=\"\(r.isOver ? "over" : "")\"><td>\(label)</td><td>\(r.count == 0 ? "–" : format.money(r.spent))</td><td>\(format.money(r.total))</td><td>\(format.money(r.left))</td></tr>"
        }
        return """
            <h3>\(t(.webDayByDay)) · #\(b.id)</h3>
            <picture><source srcset="/budgets/\(b.id)/chart.svg?theme=dark" media="(prefers-color-scheme: dark)">\
            <img class="chart" src="/budgets/\(b.id)/chart.svg" alt="\(t(.budgetDailyTitle(id: String(b.id), what: BudgetPresenter(context).label(b.budget))))"></picture>
            <div class="scroll"><table class="daily"><thead><tr><th>\(t(.budgetColDay))</th><th>\(t(.budgetColSpent))</th><th>\(t(.budgetColTotal))</th>\
            <th>\(t(.budgetColLeft))</th></tr></thead><tbody>\(rows)</tbody></table></div>
            """
    }

    /// The pet page's way to the expense form, with the pet chosen (an account that writes).
    func expenseLink(_ p: Pet, session: WebSession) -> HTML {
        guard session.account.role.writes else { return "" }
        return "<p><a class=\"button\" href=\"/money?pet=\(p.id)#add-expense\">\(t(.webAddExpense))</a></p>"
    }

    /// The pet choice of the expense forms: the household, or one pet (`expense`'s PET).
    func petChoice(_ pets: [Pet], selected: String?) -> HTML {
        let options = pets.map { p -> HTML in "<option value=\"\(p.id)\"\(selected == String(p.id) ? " selected" : "")>\(p.name)</option>" }
        return """
            <label for="pet">\(t(.scanPet))</label><select id="pet" name="pet"><option value="">\(t(.expenseHousehold))</option>\(options)</select>
            """
    }

    func categoryChoice(_ selected: String?) -> HTML {
        let options = CareNames.shipped.categoryCodes.map { c -> HTML in
            "<option value=\"\(c)\"\((selected ?? "other") == c ? " selected" : "")>\(context.categoryName(c))</option>"
        }
        return "<label for=\"category\">\(t(.scanCategory))</label><select id=\"category\" name=\"category\">\(options)</select>"
    }

    func paymentChoice(_ selected: Payment?, mark: HTML = "") -> HTML {
        let scan = ScanProposalPresenter(context)
        let options = Payment.allCases.map { p -> HTML in "<option value=\"\(p.rawValue)\"\(selected == p ? " selected" : "")>\(scan.paymentName(p))</option>" }
        return "<label for=\"payment\">\(t(.scanPayment))\(mark)</label><select id=\"payment\" name=\"payment\"><option value=\"\"></option>\(options)</select>"
    }

    /// The household's plain expense form (`expense [PET] AMOUNT`, its options as fields) and the receipt upload.
    func expenseForm(session: WebSession, pets: [Pet], pet: String? = nil) -> HTML {
        """
        <h2 id="add-expense">\(t(.webAddExpense))</h2>
        <form method="post" action="/expenses" class="stack">
        <input type="hidden" name="csrf" value="\(session.csrf)">
        <label for="amount">\(t(.webAmount))</label><input id="amount" name="amount" required placeholder="4만5천원 · ¥3,200 · 12.50 USD">
        \(petChoice(pets, selected: pet))\(categoryChoice(nil))
        <label for="merchant">\(t(.scanMerchant))</label><input id="merchant" name="merchant">
        \(paymentChoice(nil))
        <label for="items">\(fieldName("items"))</label><input id="items" name="items" placeholder="kibble, treats">
        <label for="currency">\(fieldName("currency"))</label><input id="currency" name="currency" placeholder="KRW · JPY · USD">
        <label for="at">\(t(.webWhen))</label><input id="at" name="at" placeholder="now · yesterday 18:00 · 2026-11-20">
        <label for="note">\(t(.webNote))</label><input id="note" name="note">
        <button type="submit">\(t(.webSave))</button>
        </form>
        <form method="post" action="/receipts" enctype="multipart/form-data" class="stack">
        <input type="hidden" name="csrf" value="\(session.csrf)">
        <label for="receipt">\(t(.webReceiptPhoto))</label><input id="receipt" name="receipt" type="file" accept="image/*" required>
        <button type="submit">\(t(.webReadReceipt))</button>
        </form>
        """
    }

    /// The receipt's proposal as an editable form: every field prefilled with what `expense scan` read, the
    /// unsure ones marked; the photo travels as the staged upload's token.
    func receiptProposal(_ d: ReceiptExpense, proposal: ReceiptProposal, token: String, pets: [Pet], session: WebSession, lines: [String]) -> HTML {
        // The currency is part of the total's field: a currency assumed marks the total.
        func unsure(_ field: String) -> Bool {
            d.missing.contains(field) || proposal.unsure.contains(field) || (field == "total" && proposal.unsure.contains("currency"))
        }
        func mark(_ field: String) -> HTML { unsure(field) ? " <span class=\"unsure\">(\(t(.webCheckField)))</span>" : "" }
        func unsureClass(_ field: String) -> String { unsure(field) ? "unsure" : "" }
        let when: String = d.day.map { day in d.time.map { day.description + String(format: " %02d:%02d", $0.hour, $0.minute) } ?? day.description } ?? ""
        let amount = d.money.map { $0.decimalString + " " + $0.currency.code } ?? ""
        let text = lines.map { l -> HTML in "<li><bdi>\(l)</bdi></li>" }
        return layout(title: t(.scanTitle), session: session, body: """
            <h1>\(t(.scanTitle))</h1>
            <form method="post" action="/expenses" class="stack">
            <input type="hidden" name="csrf" value="\(session.csrf)"><input type="hidden" name="receipt" value="\(token)">
            <label for="amount">\(t(.scanTotal))\(mark("total"))</label><input id="amount" name="amount" class="\(unsureClass("total"))" required value="\(amount)">
            <label for="at">\(t(.scanDate))\(mark("date"))</label><input id="at" name="at" class="\(unsureClass("date"))" value="\(when)">
            <label for="merchant">\(t(.scanMerchant))\(mark("merchant"))</label><input id="merchant" name="merchant" class="\(unsureClass("merchant"))" value="\(d.merchant)">
            \(paymentChoice(d.payment, mark: mark("payment")))\(categoryChoice(d.category))\(petChoice(pets, selected: nil))
            <label for="items">\(t(.scanItems))</label><input id="items" name="items" value="\(d.items.joined(separator: ", "))">
            <label for="note">\(t(.webNote))</label><input id="note" name="note">
            <p class="muted">\(t(.webReceiptKept))</p>
            <button type="submit">\(t(.webSave))</button>
            </form>
            <details><summary>\(t(.scanReceiptText))</summary><ul class="plain">\(text)</ul></details>
            """)
    }
}
