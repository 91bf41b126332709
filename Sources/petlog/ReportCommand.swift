import ArgumentParser
import Foundation
import Localization
import PetCharts
import PetModel
import PetReport
import PetStore

struct ReportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "report", abstract: "A vet-visit PDF report: profile, alerts, summary, charts, vaccines, medications, visits, notes.",
        discussion: "The same data and options give the same bytes; the generated day is --date, else $SOURCE_DATE_EPOCH, else today.")
    @Argument(help: "Pet name or id.") var pet: String
    @Option(name: .shortAndLong, help: "The PDF to write (.pdf).") var output: String
    @Option(parsing: .unconditional, help: "The period the summary covers: 90d, 6m, 1y, 2026-01-01.") var since = "90d"
    @Option(help: "a4 or letter.") var paper = "a4"
    @Option(help: "A question for the vet (repeat for several).") var question: [String] = []
    @Option(parsing: .unconditional, help: "The report's date (default: today).") var date: String?

    func run() throws {
        try Session.run { s in
            let paperSize: Paper
            switch paper.lowercased() {
            case "a4": paperSize = .a4
            case "letter": paperSize = .letter
            default: throw ParseError.unknownChoice(field: "--paper", value: paper, accepted: ["a4", "letter"])
            }
            if OutputFile.isStandardOutput(output) {
                throw UsageError(message: s.t(.errStdoutFormat, ["what": "PDF", "ext": ".pdf"]))
            }
            guard URL(fileURLWithPath: output).pathExtension.lowercased() == "pdf" else {
                throw UsageError(message: s.t(.errReportFormat, ["path": output]))
            }
            let questions = try question.map { try TextField.text($0, field: "--question", max: 2000) }
            var generated = s.time.today
            if let d = date {
                generated = try TimeParser.day(d, context: s.time)
            } else if let epoch = ProcessInfo.processInfo.environment["SOURCE_DATE_EPOCH"], let secs = Double(epoch) {
                generated = s.localDay(Date(timeIntervalSince1970: secs))
            }
            let periodStart = try TimeParser.since(since, context: s.time)
            let repo = try s.repository()
            let p = try repo.pet(PetRef(pet))
            let composer = VetReportComposer(session: s, pet: p, periodStart: periodStart, generated: generated, questions: questions)
            let doc = try composer.document(repo: repo, paper: paperSize)
            let summary = try s.renderOutput(output) { try ReportRenderer.render(doc, to: $0) }
            s.terminal.line(s.t(.reportWrote, ["path": Terminal.sanitize(output), "pages": String(summary.pageCount)]))
        }
    }
}

/// Turns a pet's records into the vet report's blocks, with every string translated and formatted here.
struct VetReportComposer {
    let session: Session
    let pet: Pet
    let periodStart: Date
    let generated: LocalDate
    let questions: [String]

    var s: Session { session }
    func t(_ k: L10n.Key, _ a: [String: String] = [:]) -> String { s.t(k, a) }

    func document(repo: any PetlogStore, paper: Paper) throws -> ReportDocument {
        let all = try repo.records(RecordQuery(pets: [.id(pet.id)]))
        let inPeriod = all.filter { $0.at >= periodStart }
        let weights = try repo.weightSeries(pet: pet.id, since: nil, until: nil)
        let courses = try repo.medications(pets: [.id(pet.id)], includeStopped: true)
        let due = CareAgenda.items(pets: [pet], records: all.filter { [.vaccination, .visit, .medication, .dose].contains($0.kind) },
                                   schedule: .shipped, context: s.time)

        var blocks: [ReportBlock] = []
        let subtitle = [s.speciesName(pet.species), pet.breed, s.sexLabel(pet), pet.born.map { _ in s.age(pet) }]
            .compactMap { $0 }.filter { !$0.isEmpty }.joined(separator: " · ")
        blocks.append(.title(pet.name, subtitle: subtitle + "\n" + t(.reportPeriod, ["from": s.longDate(s.localDay(periodStart)), "to": s.longDate(generated)])))

        // Alerts first: what a vet must not miss.
        var alerts: [String] = []
        if let notes = pet.notes { alerts.append(notes) }
        let change = weightChanges(weights)
        for (days, pct) in [(30, change.d30), (90, change.d90)] {
            if let pct, pct <= -5 { alerts.append(t(.reportAlertWeightLoss, ["percent": Session.trim(-pct, digits: 1), "days": String(days)])) }
        }
        let overdue = due.filter { $0.isOverdue(s.time) }
        if !overdue.isEmpty {
            alerts.append(t(.reportAlertOverdue, ["items": overdue.map { s.dueWhat($0) }.joined(separator: ", ")]))
        }
        let severe = inPeriod.compactMap { r -> Symptom? in if case .symptom(let x) = r.detail, x.severity >= 4 { return x } else { return nil } }
        if !severe.isEmpty {
            alerts.append(t(.reportAlertSevere, ["count": String(severe.count), "symptoms": Array(Set(severe.map(s.symptomName))).sorted().joined(separator: ", ")]))
        }
        blocks.append(.alerts(alerts))

        // Profile.
        let current = courses.filter { CareAgenda.isActive($0.medication, at: s.time.now, context: s.time) }
        var profile: [(String, String)] = [
            (t(.colSpecies), s.speciesName(pet.species)), (t(.colBreed), pet.breed ?? "—"), (t(.colSex), s.sexLabel(pet)),
            (t(.colBorn), pet.born.map { "\($0) (\(s.age(pet)))" } ?? "—"), (t(.colMicrochip), pet.microchip ?? "—"),
        ]
        if let c = pet.color { profile.append((t(.colColor), c)) }
        profile.append((t(.reportCurrentMeds), current.isEmpty ? "—" : current.map { [$0.medication.name, $0.medication.dose].compactMap { $0 }.joined(separator: " ") }.joined(separator: ", ")))
        blocks.append(.heading(t(.reportProfile)))
        blocks.append(.keyValues(profile, photoPNG: nil))

        // Summary of the period.
        blocks.append(.heading(t(.reportSummary)))
        var summaryRows: [[String]] = []
        if weights.times.isEmpty {
            summaryRows.append([t(.reportLatestWeight), t(.reportNoWeights)])
        }
        if let last = weights.grams.last, let at = weights.times.last {
            summaryRows.append([t(.reportLatestWeight), s.mass(Mass(grams: Int(last))) + " (" + s.longDate(s.localDay(Date(timeIntervalSince1970: at))) + ")"])
            for (days, pct, grams) in [(30, change.d30, change.g30), (90, change.d90, change.g90)] {
                if let pct, let grams {
                    let sign = grams > 0 ? "+" : grams < 0 ? "−" : "±"
                    summaryRows.append([t(.reportChangeDays, ["days": String(days)]),
                                        sign + s.mass(Mass(grams: max(1, abs(Int(grams))))).replacingOccurrences(of: "-", with: "") + " (" + (pct > 0 ? "+" : "") + Session.trim(pct, digits: 1) + " %)"])
                }
            }
        }
        // The same counts as `stats`: water is neither a meal nor a treat; meals a day over the days with meals logged.
        let meals = MealCounts(inPeriod, context: s.time)
        if meals.meals + meals.treats > 0 {
            summaryRows.append([t(.reportMeals), t(.reportMealsValue, ["meals": String(meals.meals), "perDay": Session.trim(meals.mealsPerDay ?? 0, digits: 1),
                                                                       "days": String(meals.mealDays), "treats": String(meals.treats)])])
        }
        let stools = inPeriod.compactMap { r -> Stool? in if case .stool(let x) = r.detail { return x } else { return nil } }
        if !stools.isEmpty {
            let dist = (1...7).compactMap { score -> String? in
                let n = stools.filter { $0.score == score }.count
                return n > 0 ? "\(score): \(n)" : nil
            }.joined(separator: " · ")
            let flagged = stools.filter { $0.blood || $0.mucus }.count
            summaryRows.append([t(.reportStools), dist + (flagged > 0 ? " — " + t(.reportStoolFlags, ["count": String(flagged)]) : "")])
        }
        blocks.append(.table(ReportTable(header: [t(.reportItem), t(.reportValue)], rows: summaryRows, columnWeights: [1, 2.4],
                                         emptyText: t(.reportNothing))))

        // Symptoms: count, worst severity, last seen.
        let symptoms = inPeriod.compactMap { r -> (Date, Symptom)? in if case .symptom(let x) = r.detail { return (r.at, x) } else { return nil } }
        let byCode = Dictionary(grouping: symptoms) { $0.1.groupKey }
        let symptomRows = byCode.map { code, list -> [String] in
            [s.symptomName(list[0].1), String(list.count), "\(list.map(\.1.severity).max() ?? 0)/5", list.map(\.0).max().map { s.longDate(s.localDay($0)) } ?? ""]
        }.sorted { (Int($0[1]) ?? 0, $1[0]) > (Int($1[1]) ?? 0, $0[0]) }
        blocks.append(.heading(t(.reportSymptoms)))
        blocks.append(.table(ReportTable(header: [t(.reportSymptom), t(.reportCount), t(.reportMaxSeverity), t(.reportLastSeen)], rows: symptomRows,
                                         columnWeights: [2, 1, 1, 1.6], alignments: [.left, .right, .right, .left],
                                         emphasizedRows: Set(symptomRows.indices.filter { symptomRows[$0][2].hasPrefix("4") || symptomRows[$0][2].hasPrefix("5") }),
                                         emptyText: t(.reportNoSymptoms))))

        // Charts.
        let perUnit = s.unitSystem == .imperial ? 453.59237 : 1000.0
        let unit = s.unitSystem == .imperial ? "lb" : "kg"
        let chartStart = min(periodStart, Date(timeIntervalSince1970: weights.times.last ?? periodStart.timeIntervalSince1970).addingTimeInterval(-365 * 86_400))
        let lo = weights.times.firstIndex { $0 >= chartStart.timeIntervalSince1970 } ?? weights.times.count
        let series = LineSeries(label: pet.name, times: Array(weights.times[lo...]), values: weights.grams[lo...].map { $0 / perUnit })
        if !series.times.isEmpty {
            blocks.append(.heading(t(.reportWeightChart)))
            blocks.append(.weightChart(WeightChartSpec(title: "", yLabel: t(.chartWeightAxis), unitSuffix: unit, series: [series],
                                                   language: s.l10n.language.rawValue, labeler: s.axisLabeler, noDataText: t(.chartNoData)),
                                   heightFraction: 0.3))
        }
        if !symptoms.isEmpty {
            blocks.append(.barChart(symptomChart(symptoms), heightFraction: 0.25))
        }

        // Vaccinations.
        blocks.append(.heading(t(.reportVaccinations)))
        let vaccinations = all.compactMap { r -> (PetRecord, Vaccination)? in if case .vaccination(let v) = r.detail { return (r, v) } else { return nil } }
        // One row per vaccine by any of its names (`ジステンパー` is `distemper`; `Lyme` is `lyme`).
        let latestByCode = Dictionary(grouping: vaccinations) { VaccineName.key($0.1.vaccine) }.compactMap { $0.value.last }
            .sorted { ($0.0.at, $1.1.vaccine) > ($1.0.at, $0.1.vaccine) }
        var vaccineRows: [[String]] = []
        var overdueRows: Set<Int> = []
        for (r, v) in latestByCode {
            let item = due.first { if case .vaccine(let code) = $0.kind { return VaccineName.key(code) == VaccineName.key(v.vaccine) } else { return false } }
            let status: String
            if let item, item.isOverdue(s.time) { status = t(.reportOverdue); overdueRows.insert(vaccineRows.count) }
            else if item == nil && v.nextDue != nil { status = t(.reportCovered) }
            else { status = item.map { s.dueWhen($0) } ?? "—" }
            vaccineRows.append([s.l10n.code(.vaccine, VaccineName.normalize(v.vaccine)), s.longDate(s.localDay(r.at)), (item?.dueDay ?? v.nextDue).map(s.longDate) ?? "—", status])
        }
        for item in due where item.neverRecorded {
            if case .vaccine(let code) = item.kind {
                if item.isOverdue(s.time) { overdueRows.insert(vaccineRows.count) }
                vaccineRows.append([s.l10n.code(.vaccine, code), "—", s.longDate(item.dueDay), s.dueWhen(item)])
            }
        }
        blocks.append(.table(ReportTable(header: [t(.reportVaccine), t(.reportLastGiven), t(.reportNextDue), t(.reportStatus)], rows: vaccineRows,
                                         columnWeights: [1.6, 1.3, 1.3, 1], emphasizedRows: overdueRows, emptyText: t(.reportNoVaccinations))))

        // Medications and prevention with adherence.
        blocks.append(.heading(t(.reportMedications)))
        let doseRecords = all.filter { $0.kind == .dose }
        let medRows = courses.filter { c in CareAgenda.courseEnd(c.medication, context: s.time).map { $0 >= periodStart } ?? true }.map { c -> [String] in
            let m = c.medication
            // A course ends when stopped or at the end of its --until day; a planned end is shown too.
            let last = m.stoppedAt.map { s.localDay($0) } ?? m.endsOn
            let period = s.longDate(s.localDay(c.record.at)) + " – " + (last.map { s.longDate($0) } ?? t(.reportOngoing))
            return [m.name, [m.dose, s.everyText(m)].compactMap { $0 }.joined(separator: ", "), period,
                    s.adherenceText(s.timetable(c, doses: doseRecords), course: c)]
        }
        blocks.append(.table(ReportTable(header: [t(.colMedication), t(.colDose), t(.reportPeriodColumn), t(.colAdherence)], rows: medRows,
                                         columnWeights: [1.4, 1.4, 2, 1.2], emptyText: t(.reportNoMedications))))

        // Visits.
        blocks.append(.heading(t(.reportVisits)))
        let visitRows = all.reversed().compactMap { r -> [String]? in
            guard case .visit(let v) = r.detail else { return nil }
            return [s.longDate(s.localDay(r.at)), [v.clinic, v.vet].compactMap { $0 }.joined(separator: ", "), v.reason ?? "",
                    v.diagnosis ?? "", v.treatment ?? "", v.cost.map(s.money) ?? ""]
        }
        blocks.append(.table(ReportTable(header: [t(.reportDate), t(.reportClinic), t(.reportReason), t(.reportDiagnosis), t(.reportTreatment), t(.reportCost)],
                                         rows: visitRows, columnWeights: [1.2, 1.3, 1, 1.5, 1.8, 0.9], alignments: [.left, .left, .left, .left, .left, .right],
                                         emptyText: t(.reportNoVisits), continuationTitle: t(.reportContinued, ["section": t(.reportVisits)]))))

        // Starred notes, questions, attachments.
        let starred = all.filter(\.starred).map { r -> String in
            s.longDate(s.localDay(r.at)) + " — " + s.summary(r) + (r.note.map { " (\($0))" } ?? "")
        }
        if !starred.isEmpty {
            blocks.append(.heading(t(.reportStarred)))
            blocks.append(.bullets(starred))
        }
        blocks.append(.heading(t(.reportQuestions)))
        blocks.append(questions.isEmpty ? .paragraph(t(.reportNoQuestions)) : .bullets(questions))
        let files = all.flatMap { r in r.attachments.map { (r, $0) } }
        if !files.isEmpty {
            blocks.append(.heading(t(.reportAttachments)))
            blocks.append(.bullets(files.map { r, a in
                "\(s.longDate(s.localDay(r.at))) · \(s.kindName(r.kind)) · \(a.originalName) (\(a.mediaType), \(ByteCountFormatter.string(fromByteCount: a.size, countStyle: .file)))"
            }))
        }

        let l = s.l10n
        return ReportDocument(
            title: t(.reportTitle, ["pet": pet.name]), language: l.language.rawValue, paper: paper,
            headerLeft: t(.reportTitle, ["pet": pet.name]), headerRight: t(.reportGenerated, ["date": s.longDate(generated)]),
            footerNote: t(.reportFooter), pageLabel: { l.text(.reportPage, ["page": String($0), "pages": String($1)]) },
            blocks: blocks, creationDate: String(format: "%04d-%02d-%02dT00:00:00Z", generated.year, generated.month, generated.day))
    }

    /// Change of weight over 30 and 90 days: the latest weight against the one nearest to that many days before.
    func weightChanges(_ w: WeightColumns) -> (d30: Double?, d90: Double?, g30: Double?, g90: Double?) {
        guard let lastT = w.times.last, let last = w.grams.last else { return (nil, nil, nil, nil) }
        func change(_ days: Double) -> (Double?, Double?) {
            let target = lastT - days * 86_400
            guard let i = w.times.lastIndex(where: { $0 <= target }), target - w.times[i] < 30 * 86_400 else { return (nil, nil) }
            let before = w.grams[i]
            return ((last - before) / before * 100, last - before)
        }
        let a = change(30), b = change(90)
        return (a.0, b.0, a.1, b.1)
    }

    func symptomChart(_ symptoms: [(Date, Symptom)]) -> BarChartSpec {
        let (weeks, stacks) = s.weeklySymptomBars(symptoms.map { (s.localDay($0.0), $0.1) }, from: s.localDay(periodStart),
                                                  through: s.time.today, byKind: false)
        return BarChartSpec(title: t(.chartSymptomsTitle, ["pet": pet.name]), yLabel: t(.chartSymptomsAxis), categories: weeks.map(s.shortDay),
                            stacks: stacks, language: s.l10n.language.rawValue, noDataText: t(.chartNoData))
    }
}

extension Session {
    /// Nov 20, 2026 · 2026년 11월 20일 · 2026年11月20日
    func longDate(_ d: LocalDate) -> String {
        t(.dateLong, ["y": String(d.year), "d": String(d.day), "mon": monthName(d.month)])
    }
}
