import Foundation
import Localization
import PetModel
import PetStoreCore
import PetViews

/// The pet's views on its page and the home page (issue 41): the profile photo, the weight chart with its
/// periods, the links to the vet report, the emergency card and the FHIR export; the account's calendar feed.
struct PetPages {
    let context: PresentationContext
    init(_ context: PresentationContext) { self.context = context }
    func t(_ m: L10n.Message) -> String { context.t(m) }

    /// The profile photo as a small square (the home page's cards), or nothing.
    func thumbnail(_ p: Pet) -> HTML {
        guard p.photo != nil else { return "" }
        return "<img class=\"pet-photo small\" src=\"/pets/\(p.id)/photo\" alt=\"\" width=\"56\" height=\"56\">"
    }

    /// The pet page's part: the photo, the weight chart over `since` (3 months, 1 year, all: links to this
    /// page with `?since=`; the dark drawing where the system is dark), and the documents.
    func views(_ p: Pet, since asked: String?) -> HTML {
        let since = asked.flatMap { PetServer.chartPeriods.contains($0) ? $0 : nil } ?? "1y"
        let photo: HTML = p.photo == nil ? "" : "<img class=\"pet-photo\" src=\"/pets/\(p.id)/photo\" alt=\"\(p.name)\">"
        let periods: [(String, L10n.Message)] = [("3m", .webChart3Months), ("1y", .webChart1Year), ("all", .webChartAll)]
        let links = periods.map { key, word -> HTML in
            key == since ? "<a class=\"button current\" aria-current=\"page\" href=\"/pets/\(p.id)?since=\(key)#weight\">\(t(word))</a>"
                : "<a class=\"button\" href=\"/pets/\(p.id)?since=\(key)#weight\">\(t(word))</a>"
        }
        let chart = "/pets/\(p.id)/weight.svg?since=\(since)"
        return """
            \(photo)
            <h2 id="weight">\(t(.webWeightChart))</h2>
            <nav class="periods">\(links)</nav>
            <picture><source srcset="\(chart)&amp;theme=dark" media="(prefers-color-scheme: dark)">
            <img class="chart" src="\(chart)" alt="\(t(.webWeightChart))" width="960" height="540"></picture>
            <h2>\(t(.webDocuments))</h2>
            <form method="get" action="/pets/\(p.id)/report.pdf" class="stack">
            <label for="question">\(t(.webReportQuestion))</label><input id="question" name="question" maxlength="2000">
            <input name="question" maxlength="2000" aria-label="\(t(.webReportQuestion))">
            <button type="submit">\(t(.webVetReport))</button></form>
            <p class="links"><a class="button" href="/pets/\(p.id)/card.pdf">\(t(.webEmergencyCard))</a> \
            <a class="button" href="/pets/\(p.id)/fhir.json">\(t(.webFHIRExport))</a></p>
            """
    }

    /// The home page's part for the signed-in account: its calendar feed (a new secret address on request).
    func feedForm(_ session: WebSession) -> HTML {
        """
        <h2>\(t(.webFeedTitle))</h2>
        <p class="muted">\(t(.webFeedAbout))</p>
        <form method="post" action="/account/feed" class="inline"><input type="hidden" name="csrf" value="\(session.csrf)">\
        <button type="submit">\(t(.webFeedNew))</button></form>
        """
    }

    /// The page after a new feed address: shown this once (the store keeps only its hash).
    func feedMade(url: String, session: WebSession) -> HTML {
        Pages(context).layout(title: t(.webFeedTitle), session: session, body: """
            <h1>\(t(.webFeedTitle))</h1>
            <p>\(t(.webFeedMade))</p>
            <p><input readonly value="\(url)" aria-label="\(t(.webFeedTitle))"></p>
            <p><a class="button" href="\(url.replacingOccurrences(of: "https://", with: "webcal://").replacingOccurrences(of: "http://", with: "webcal://"))">\(t(.webFeedSubscribe))</a> \
            <a class="button" href="/">\(t(.webHomeTitle))</a></p>
            """)
    }
}
