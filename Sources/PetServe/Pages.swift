import Foundation
import Localization
import PetModel
import PetStoreCore
import PetViews

/// The pages, written as typed HTML (`HTML`: every value escaped on its way in) from the same values, words
/// and wording the CLI's presenters use. Mobile first: one column, the stylesheet from `/static`, no script.
struct Pages {
    let context: PresentationContext
    init(_ context: PresentationContext) { self.context = context }

    func t(_ m: L10n.Message) -> String { context.t(m) }
    var wording: RecordWording { context.wording }
    var format: ValueFormatter { context.format }
    var time: TimeContext { context.time }

    /// The page around a body: the language, the title, the stylesheet, and for a signed-in account the
    /// home link, the account's name and the sign-out form.
    func layout(title: String, session: WebSession?, body: HTML) -> HTML {
        var nav: HTML = ""
        if let session {
            nav = """
            <nav><a class="button" href="/">\(t(.webHomeTitle))</a><a class="button" href="/money">\(t(.webMoneyTitle))</a><span class="who"><bdi>\(session.account.name)</bdi></span>\
            <form method="post" action="/logout"><input type="hidden" name="csrf" value="\(session.csrf)">\
            <button type="submit">\(t(.webSignOut))</button></form></nav>
            """
        }
        return """
        <!doctype html>
        <html lang="\(context.l10n.language.rawValue)">
        <head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">\
        <meta name="color-scheme" content="light dark"><title>\(title) · petlog</title>\
        <link rel="stylesheet" href="/static/petlog.css"></head>
        <body><header>\(nav)</header><main>
        \(body)
        </main><footer>\(languageSwitcher(session))</footer></body></html>

        """
    }

    /// The language switcher on every page: a form per choice of en / 한국어 / 日本語 (`POST /language`; an account's
    /// choice is saved on the account, else in a cookie), each language named in itself.
    func languageSwitcher(_ session: WebSession?) -> HTML {
        let token: HTML = session.map { "<input type=\"hidden\" name=\"csrf\" value=\"\($0.csrf)\">" } ?? ""
        let buttons = [(Language.en, "English"), (.ko, "한국어"), (.ja, "日本語")].map { l, name -> HTML in
            let current: HTML = l == context.l10n.language ? " aria-current=\"true\" disabled" : ""
            return "<button type=\"submit\" name=\"language\" value=\"\(l.rawValue)\" lang=\"\(l.rawValue)\"\(current)>\(name)</button>"
        }
        return "<form method=\"post\" action=\"/language\" class=\"languages\" aria-label=\"\(t(.webLanguage))\">\(token)\(buttons)</form>"
    }

    func login(csrf: String, name: String, notice: String?) -> HTML {
        let message: HTML = notice.map { "<p class=\"notice\" role=\"alert\">\($0)</p>" } ?? ""
        return layout(title: t(.webLoginTitle), session: nil, body: """
            <h1>\(t(.webLoginTitle))</h1>\(message)
            <form method="post" action="/login" class="stack">
            <input type="hidden" name="csrf" value="\(csrf)">
            <label for="name">\(t(.webName))</label><input id="name" name="name" autocomplete="username" required value="\(name)">
            <label for="password">\(t(.webPassword))</label><input id="password" name="password" type="password" autocomplete="current-password" required>
            <button type="submit">\(t(.webSignIn))</button>
            </form>
            """)
    }

    /// A weight and the arrow from the one before it (`↑` rising, `↓` falling, `→` the same within 1 %).
    func weightLine(_ latest: PetRecord?, _ before: PetRecord?) -> HTML {
        guard let latest, case .weight(let w) = latest.detail else { return "<span class=\"muted\">\(t(.webNoWeight))</span>" }
        var trend: HTML = ""
        if let before, case .weight(let b) = before.detail {
            let change = w.mass.grams - b.mass.grams
            let steady = abs(change) * 100 <= b.mass.grams
            let (arrow, word) = steady ? ("→", t(.webTrendSteady)) : change > 0 ? ("↑", t(.webTrendUp)) : ("↓", t(.webTrendDown))
            trend = " <span class=\"trend\" title=\"\(word)\" aria-label=\"\(word)\">\(arrow)</span>"
        }
        return "<span class=\"weight\">\(format.mass(w.mass))</span>\(trend) <span class=\"muted\">\(latest.localDay.description)</span>"
    }

    func dueList(_ items: [DueItem], showPet: Bool) -> HTML {
        guard !items.isEmpty else { return "<p class=\"muted\">\(t(.webNothingDue))</p>" }
        let rows = items.map { i -> HTML in
            let overdue = i.isOverdue(time)
            let pet: HTML = showPet ? "<bdi>\(i.petName)</bdi> · " : ""
            return """
            <li class="\(overdue ? "overdue" : "soon")"><span class="when">\(wording.dueWhen(i))</span> \(pet)<bdi>\(wording.dueWhat(i))</bdi> \
            <span class="muted">\(i.dueDay.description)</span></li>
            """
        }
        return "<ul class=\"due\">\(rows)</ul>"
    }

    struct HomePet { let pet: Pet; let latest: PetRecord?; let before: PetRecord? }

    func home(_ pets: [HomePet], due: [DueItem], session: WebSession, money: HomeMoney? = nil) -> HTML {
        home(list: homeList(pets), due: dueList(due, showPet: true), session: session, money: money)
    }

    /// Home's pets as cards (their photo, name, species and last weight with its trend).
    func homeList(_ pets: [HomePet]) -> HTML {
        let cards = pets.map { h -> HTML in
            """
            <li class="card">\(PetPages(context).thumbnail(h.pet))<a class="title" href="/pets/\(h.pet.id)"><bdi>\(h.pet.name)</bdi></a>\
            <span class="muted">\(wording.speciesName(h.pet.species))</span><div>\(weightLine(h.latest, h.before))</div></li>
            """
        }
        return pets.isEmpty ? "<p class=\"muted\">\(t(.petNone))</p>" : "<ul class=\"cards\">\(cards)</ul>"
    }

    /// Home from its parts: the pets' cards, the due list, the account's feed form and the month's money.
    func home(list: HTML, due: HTML, session: WebSession, money: HomeMoney?) -> HTML {
        layout(title: t(.webHomeTitle), session: session, body: """
            <h1>\(t(.webHomeTitle))</h1>
            \(list)
            <h2>\(t(.webDue))</h2>
            \(due)
            \(PetPages(context).feedForm(session))
            \(homeMoney(money))
            """)
    }

    /// The pet's page: the profile's facts under `pet show`'s labels (allergies marked), the latest weights,
    /// what is due and, for an account that writes, the weight form.
    func pet(_ p: Pet, weights: [PetRecord], medications: [MedicationCourse], due: [DueItem], session: WebSession, chartSince: String? = nil,
             timeline: PetTimeline? = nil) -> HTML {
        let h = p.health
        var facts: [(L10n.Message, HTML)] = [(.colSpecies, "\(wording.speciesName(p.species))"), (.colSex, "\(wording.sexLabel(p))")]
        if let b = p.breed { facts.append((.colBreed, "<bdi>\(b)</bdi>")) }
        if let born = p.born { facts.append((.colBorn, "\(born.description) (\(format.age(months: p.ageInMonths(on: time.today))))")) }
        if let c = p.microchip { facts.append((.colMicrochip, "<bdi>\(c)</bdi>")) }
        if let c = p.color { facts.append((.colColor, "<bdi>\(c)</bdi>")) }
        if !h.allergies.isEmpty {
            facts.append((.colAllergies, h.allergies.map { a -> HTML in "<strong class=\"allergy\"><bdi>\(a)</bdi></strong>" }.joined(separator: ", ")))
        }
        if !h.conditions.isEmpty { facts.append((.colConditions, h.conditions.map { c -> HTML in "<bdi>\(c)</bdi>" }.joined(separator: ", "))) }
        for c in h.emergencyContacts { facts.append((.colEmergencyContact, "<bdi>\(c.text)</bdi>")) }
        if let v = h.vetContact { facts.append((.colVetContact, "<bdi>\(v.text)</bdi>")) }
        if let i = h.insurance { facts.append((.colInsurance, "<bdi>\(i.text)</bdi>")) }
        if !medications.isEmpty {
            facts.append((.colMedications, medications.map { m -> HTML in
                "<bdi>\([m.medication.name, m.medication.dose].compactMap { $0 }.joined(separator: " "))</bdi>" }.joined(separator: ", ")))
        }
        if let n = p.notes { facts.append((.colNotes, "<bdi>\(n)</bdi>")) }
        let dl = facts.map { k, v -> HTML in "<dt>\(t(k))</dt><dd>\(v)</dd>" }
        let weightRows = weights.map { r -> HTML in "<li><bdi>\(wording.summary(r))</bdi> <span class=\"muted\">\(r.localDay.description)</span></li>" }
        let weightList: HTML = weights.isEmpty ? "<p class=\"muted\">\(t(.webNoWeight))</p>" : "<ul class=\"plain\">\(weightRows)</ul>"
        var form: HTML = ""
        if session.account.role.writes {
            form = """
            <form method="post" action="/pets/\(p.id)/log" class="inline">
            <input type="hidden" name="csrf" value="\(session.csrf)"><input type="hidden" name="kind" value="weight">
            <label for="weight">\(t(.kindWeight))</label><input id="weight" name="weight" inputmode="decimal" required placeholder="4.2kg">
            <button type="submit">\(t(.webLogWeight))</button></form>
            """
        }
        return layout(title: p.name, session: session, body: """
            <h1><bdi>\(p.name)</bdi> <span class="muted">#\(p.id)</span></h1>
            <dl class="facts">\(dl)</dl>
            <h2>\(t(.webLatestWeights))</h2>
            \(weightList)
            \(form)
            <h2>\(t(.webDue))</h2>
            \(dueList(due, showPet: false))
            \(PetPages(context).views(p, since: chartSince))
            \(expenseLink(p, session: session))
            \(petRecords(p, timeline, session: session))
            """)
    }
}

extension Array where Element == HTML {
    func joined(separator: String) -> HTML { HTML(trusted: map(\.raw).joined(separator: HTML.escape(separator))) }
}
