import ArgumentParser
import Foundation
import Localization
import PetCharts
import PetModel
import PetReport
import PetStore

struct ReportCommand: ParsableCommand {

    @OptionGroup(title: "Global options") var global: GlobalOptions
    static let configuration = CommandConfiguration(
        commandName: "report", abstract: "A vet-visit PDF report: profile, alerts, summary, charts, vaccines, medications, visits, notes.",
        discussion: """
        The same data and options give the same bytes; the generated day is --date, else $SOURCE_DATE_EPOCH, else today.
        --date also fixes the report's today: ages, alerts, due dates, current medications and the --since period are as of the end of that day, and later records are left out.
        """)
    @Argument(help: "Pet name or id.") var pet: String
    @Option(name: .shortAndLong, help: "The PDF to write (.pdf).") var output: String
    @Option(parsing: .unconditional, help: "The period the summary covers: 90d, 6m, 1y, 2026-01-01.") var since = "90d"
    @Option(help: "The paper size.") var paper: Choice<Paper> = Choice(.a4)
    @Option(help: "A question for the vet (repeat for several).") var question: [String] = []
    @Option(parsing: .unconditional, help: "The day the report is as of (default: today).") var date: String?

    func run() throws {
        try Session.run(global) { s in
            let paperSize = try paper.value("--paper")
            if OutputFile.isStandardOutput(output) {
                throw UsageError(message: s.t(.errStdoutFormat(what: "PDF", ext: ".pdf")))
            }
            guard URL(fileURLWithPath: output).pathExtension.lowercased() == "pdf" else {
                throw UsageError(message: s.t(.errReportFormat(path: output)))
            }
            let questions = try question.map { try TextField.text($0, field: "--question", max: 2000) }
            var generated = s.time.today
            // --date is the report's "today": ages, alerts, current medications and the period count from
            // the end of that day, and nothing after it is shown.
            var asOf = s.time
            if let d = date {
                generated = try TimeParser.day(d, context: s.time)
                if generated != s.time.today {
                    asOf = TimeContext(now: s.time.startOfDay(generated.adding(days: 1)).addingTimeInterval(-1), timeZone: s.time.timeZone)
                }
            } else if let epoch = ProcessInfo.processInfo.environment["SOURCE_DATE_EPOCH"], let secs = Double(epoch) {
                generated = s.localDay(Date(timeIntervalSince1970: secs))
            }
            let periodStart = try TimeParser.since(since, context: asOf)
            let repo = try s.repository()
            let p = try repo.pet(PetRef(pet))
            let weights = try repo.weightSeries(pet: p.id, since: nil, until: nil)
            let facts = VisitReportFacts(pet: p, records: try repo.records(RecordQuery(pets: [.id(p.id)])), weightTimes: weights.times,
                                         weightGrams: weights.grams, periodStart: periodStart, schedule: .shipped, context: asOf)
            let doc = VetReportComposer(session: s, facts: facts, generated: generated, questions: questions).document(paper: paperSize)
            let summary = try s.renderOutput(output) { try ReportRenderer.render(doc, to: $0) }
            s.terminal.line(s.t(.reportWrote(path: Terminal.sanitize(output), pages: String(summary.pageCount))))
        }
    }
}

/// Turns a pet's report facts into the vet report's blocks, with every string translated and formatted here.
struct VetReportComposer {
    let session: Session
    let facts: VisitReportFacts
    let generated: LocalDate
    let questions: [String]

    var s: Session { session }
    var f: ValueFormatter { session.format }
    /// Says "in 5 d" and "3 d late" as of the report's day.
    var w: RecordWording { RecordWording(session.format, time: facts.context) }
    var pet: Pet { facts.pet }
    func t(_ m: L10n.Message) -> String { s.t(m) }
    func day(_ date: Date) -> String { f.longDate(facts.context.localDate(of: date)) }

    func document(paper: Paper) -> ReportDocument {
        let age = f.age(months: facts.ageInMonths)
        var blocks: [ReportBlock] = []
        let subtitle = [s.wording.speciesName(pet.species), pet.breed, s.wording.sexLabel(pet), pet.born.map { _ in age }]
            .compactMap { $0 }.filter { !$0.isEmpty }.joined(separator: " · ")
        blocks.append(.title(pet.name, subtitle: subtitle + "\n" + t(.reportPeriod(from: day(facts.periodStart), to: f.longDate(generated)))))

        // Alerts first: what a vet must not miss.
        var alerts: [String] = []
        if let notes = pet.notes { alerts.append(notes) }
        for (days, change) in [(30, facts.change30), (90, facts.change90)] {
            if let change, change.percent <= -5 {
                alerts.append(t(.reportAlertWeightLoss(percent: ValueFormatter.trim(-change.percent, digits: 1), days: String(days))))
            }
        }
        if !facts.overdue.isEmpty {
            alerts.append(t(.reportAlertOverdue(items: facts.overdue.map(w.dueWhat).joined(separator: ", "))))
        }
        if !facts.severeSymptoms.isEmpty {
            alerts.append(t(.reportAlertSevere(count: String(facts.severeSymptoms.count), symptoms: Array(Set(facts.severeSymptoms.map(s.wording.symptomName))).sorted().joined(separator: ", "))))
        }
        blocks.append(.alerts(alerts))

        // Profile.
        let current = facts.currentMedications
        var profile: [(String, String)] = [
            (t(.colSpecies), s.wording.speciesName(pet.species)), (t(.colBreed), pet.breed ?? "—"), (t(.colSex), s.wording.sexLabel(pet)),
            (t(.colBorn), pet.born.map { age.isEmpty ? "\($0)" : "\($0) (\(age))" } ?? "—"), (t(.colMicrochip), pet.microchip ?? "—"),
        ]
        if let c = pet.color { profile.append((t(.colColor), c)) }
        profile.append((t(.reportCurrentMeds), current.isEmpty ? "—" : current.map { [$0.name, $0.dose].compactMap { $0 }.joined(separator: " ") }.joined(separator: ", ")))
        blocks.append(.heading(t(.reportProfile)))
        blocks.append(.keyValues(profile, photoPNG: nil))

        // Summary of the period.
        blocks.append(.heading(t(.reportSummary)))
        var summaryRows: [[String]] = []
        if let latest = facts.latestWeight {
            summaryRows.append([t(.reportLatestWeight), f.mass(latest.mass) + " (" + day(latest.at) + ")"])
            for (days, change) in [(30, facts.change30), (90, facts.change90)] {
                if let change { summaryRows.append([t(.reportChangeDays(days: String(days))), f.massChange(change)]) }
            }
        } else {
            summaryRows.append([t(.reportLatestWeight), t(.reportNoWeights)])
        }
        // The same counts as `stats`: water is neither a meal nor a treat; meals a day over the days with meals logged.
        let meals = facts.meals
        if meals.meals + meals.treats > 0 {
            summaryRows.append([t(.reportMeals), t(.reportMealsValue(meals: String(meals.meals), perDay: ValueFormatter.trim(meals.mealsPerDay ?? 0, digits: 1), days: String(meals.mealDays), treats: String(meals.treats)))])
        }
        if !facts.stools.isEmpty {
            let dist = facts.stools.counts.map { "\($0.score): \($0.count)" }.joined(separator: " · ")
            let flagged = facts.stools.flagged
            summaryRows.append([t(.reportStools), dist + (flagged > 0 ? " — " + t(.reportStoolFlags(count: String(flagged))) : "")])
        }
        blocks.append(.table(ReportTable(header: [t(.reportItem), t(.reportValue)], rows: summaryRows, columnWeights: [1, 2.4],
                                         emptyText: t(.reportNothing))))

        // Symptoms: count, worst severity, last seen; the most frequent first, then by name.
        let symptomRows = facts.symptoms.map { x -> [String] in
            [s.wording.symptomName(x.sample), String(x.count), "\(x.worstSeverity)/5", day(x.lastSeen)]
        }.sorted { (Int($0[1]) ?? 0, $1[0]) > (Int($1[1]) ?? 0, $0[0]) }
        blocks.append(.heading(t(.reportSymptoms)))
        blocks.append(.table(ReportTable(header: [t(.reportSymptom), t(.reportCount), t(.reportMaxSeverity), t(.reportLastSeen)], rows: symptomRows,
                                         columnWeights: [2, 1, 1, 1.6], alignments: [.left, .right, .right, .left],
                                         emphasizedRows: Set(symptomRows.indices.filter { symptomRows[$0][2].hasPrefix("4") || symptomRows[$0][2].hasPrefix("5") }),
                                         emptyText: t(.reportNoSymptoms))))

        // Charts.
        let perUnit = s.unitSystem.gramsPerUnit
        let series = LineSeries(label: pet.name, times: facts.chartTimes, values: facts.chartGrams.map { $0 / perUnit })
        if !series.times.isEmpty {
            blocks.append(.heading(t(.reportWeightChart)))
            blocks.append(.weightChart(WeightChartSpec(title: "", yLabel: t(.chartWeightAxis), unitSuffix: s.unitSystem.symbol, series: [series],
                                                   language: s.l10n.language.rawValue, labeler: s.axisLabeler, noDataText: t(.chartNoData)),
                                   heightFraction: 0.3))
        }
        if let weekly = facts.weeklySymptoms {
            blocks.append(.barChart(BarChartSpec(title: t(.chartSymptomsTitle(pet: pet.name)), yLabel: t(.chartSymptomsAxis),
                                                 categories: weekly.weeks.map(f.shortDay), stacks: s.symptomStacks(weekly),
                                                 language: s.l10n.language.rawValue, noDataText: t(.chartNoData)),
                                    heightFraction: 0.25))
        }

        // Vaccinations.
        blocks.append(.heading(t(.reportVaccinations)))
        var overdueRows: Set<Int> = []
        let vaccineRows = facts.vaccines.enumerated().map { i, v -> [String] in
            if v.isOverdue { overdueRows.insert(i) }
            let status: String
            switch v.status {
            case .overdue(let item): status = v.lastGiven == nil ? w.dueWhen(item) : t(.reportOverdue)
            case .due(let item): status = w.dueWhen(item)
            case .covered: status = t(.reportCovered)
            case .unknown: status = "—"
            }
            return [s.l10n.code(.vaccine, v.vaccine), v.lastGiven.map(day) ?? "—", v.nextDue.map(f.longDate) ?? "—", status]
        }
        blocks.append(.table(ReportTable(header: [t(.reportVaccine), t(.reportLastGiven), t(.reportNextDue), t(.reportStatus)], rows: vaccineRows,
                                         columnWeights: [1.6, 1.3, 1.3, 1], emphasizedRows: overdueRows, emptyText: t(.reportNoVaccinations))))

        // Medications and prevention with adherence.
        blocks.append(.heading(t(.reportMedications)))
        let medRows = facts.courses.map { c -> [String] in
            let m = c.medication
            // A course ends when stopped or at the end of its --until day; a planned end is shown too.
            let period = day(c.record.at) + " – " + (c.lastDay.map(f.longDate) ?? t(.reportOngoing))
            return [m.name, [m.dose, s.wording.everyText(m)].compactMap { $0 }.joined(separator: ", "), period,
                    s.wording.adherenceText(c.timetable, dosesGiven: c.dosesGiven)]
        }
        blocks.append(.table(ReportTable(header: [t(.colMedication), t(.colDose), t(.reportPeriodColumn), t(.colAdherence)], rows: medRows,
                                         columnWeights: [1.4, 1.4, 2, 1.2], emptyText: t(.reportNoMedications))))

        // Visits.
        blocks.append(.heading(t(.reportVisits)))
        let visitRows = facts.visits.map { at, v -> [String] in
            [day(at), [v.clinic, v.vet].compactMap { $0 }.joined(separator: ", "), v.reason ?? "",
             v.diagnosis ?? "", v.treatment ?? "", v.cost.map(f.money) ?? ""]
        }
        blocks.append(.table(ReportTable(header: [t(.reportDate), t(.reportClinic), t(.reportReason), t(.reportDiagnosis), t(.reportTreatment), t(.reportCost)],
                                         rows: visitRows, columnWeights: [1.2, 1.3, 1, 1.5, 1.8, 0.9], alignments: [.left, .left, .left, .left, .left, .right],
                                         emptyText: t(.reportNoVisits), continuationTitle: t(.reportContinued(section: t(.reportVisits))))))

        // Starred notes, questions, attachments.
        let starred = facts.starred.map { r -> String in
            day(r.at) + " — " + s.wording.summary(r) + (r.note.map { " (\($0))" } ?? "")
        }
        if !starred.isEmpty {
            blocks.append(.heading(t(.reportStarred)))
            blocks.append(.bullets(starred))
        }
        blocks.append(.heading(t(.reportQuestions)))
        blocks.append(questions.isEmpty ? .paragraph(t(.reportNoQuestions)) : .bullets(questions))
        if !facts.attachments.isEmpty {
            blocks.append(.heading(t(.reportAttachments)))
            blocks.append(.bullets(facts.attachments.map { r, a in
                "\(day(r.at)) · \(s.wording.kindName(r.kind)) · \(a.originalName) (\(a.mediaType), \(ByteCountFormatter.string(fromByteCount: a.size, countStyle: .file)))"
            }))
        }

        let l = s.l10n
        return ReportDocument(
            title: t(.reportTitle(pet: pet.name)), language: l.language.rawValue, paper: paper,
            headerLeft: t(.reportTitle(pet: pet.name)), headerRight: t(.reportGenerated(date: f.longDate(generated))),
            footerNote: t(.reportFooter), pageLabel: { l.text(.reportPage(page: String($0), pages: String($1))) },
            blocks: blocks, creationDate: String(format: "%04d-%02d-%02dT00:00:00Z", generated.year, generated.month, generated.day))
    }
}
