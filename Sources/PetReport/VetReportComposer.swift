import Foundation
import Localization
import PetCharts
import PetModel

/// Turns a pet's report facts into the vet report's blocks, with every string translated and formatted here.
public struct VetReportComposer {
    let f: ValueFormatter
    let labels: ChartLabels
    let facts: VisitReportFacts
    let generated: LocalDate
    let questions: [String]
    /// The period's visit costs added up in the home currency (nil: not shown).
    let costTotal: VisitReportFacts.CostTotal?
    /// Where an attachment's file is (nil: no photo page).
    let attachmentPath: ((Attachment) -> String?)?
    /// Who wrote the period's records and how many each (a PostgreSQL store's roles; empty for a file).
    let keptBy: [(name: String, records: Int)]
    /// Where the pet's profile photo is (a PNG or JPEG file; nil: none), drawn beside the profile.
    let profilePhotoPath: String?

    public init(format: ValueFormatter, labels: ChartLabels, facts: VisitReportFacts, generated: LocalDate, questions: [String],
                costTotal: VisitReportFacts.CostTotal? = nil, attachmentPath: ((Attachment) -> String?)? = nil,
                keptBy: [(name: String, records: Int)] = [], profilePhotoPath: String? = nil) {
        self.f = format; self.labels = labels; self.facts = facts; self.generated = generated; self.questions = questions
        self.costTotal = costTotal
        self.attachmentPath = attachmentPath
        self.keptBy = keptBy
        self.profilePhotoPath = profilePhotoPath
    }

    var l10n: L10n { f.l10n }
    /// Says "in 5 d" and "3 d late" as of the report's day.
    var w: RecordWording { RecordWording(f, time: facts.context) }
    var pet: Pet { facts.pet }
    func t(_ m: L10n.Message) -> String { l10n.text(m) }
    func day(_ date: Date) -> String { f.longDate(facts.context.localDate(of: date)) }
    /// A record's day on its own clock.
    func day(_ r: PetRecord) -> String { f.longDate(r.localDay) }

    /// The period's PNG and JPEG attachments of diary entries and visits, oldest first, captioned with
    /// their day, the record's kind and its text (the diary's text, the visit's reason and diagnosis,
    /// the note).
    func reportPhotos() -> [ReportPhoto] {
        guard let attachmentPath else { return [] }
        return facts.attachments.compactMap { r, a -> ReportPhoto? in
            guard facts.isInPeriod(r.at, utcOffset: r.utcOffset), r.kind == .diary || r.kind == .visit else { return nil }
            let format: ReportPhoto.Format
            switch a.mediaType.lowercased() {
            case "image/png": format = .png
            case "image/jpeg", "image/jpg": format = .jpeg
            default: return nil
            }
            guard let path = attachmentPath(a) else { return nil }
            var texts: [String] = []
            switch r.detail {
            case .diary(let d): texts.append(d.text)
            case .visit(let v): texts += [v.reason, v.diagnosis].compactMap { $0 }
            default: break
            }
            if let note = r.note { texts.append(note) }
            let text = texts.filter { !$0.isEmpty }.joined(separator: " — ")
            let caption = day(r) + f.listSeparator + w.kindName(r.kind) + (text.isEmpty ? "" : "\n" + text)
            return ReportPhoto(path: path, format: format, caption: caption)
        }
    }

    public func document(paper: Paper) -> ReportDocument {
        let age = f.age(months: facts.ageInMonths)
        var blocks: [ReportBlock] = []
        let subtitle = [w.speciesName(pet.species), pet.breed, w.sexLabel(pet), pet.born.map { _ in age }]
            .compactMap { $0 }.filter { !$0.isEmpty }.joined(separator: f.listSeparator)
        var period = subtitle + "\n" + t(.reportPeriod(from: facts.periodFirstDay.map(f.longDate) ?? day(facts.periodStart), to: f.longDate(generated)))
        if !keptBy.isEmpty {
            period += "\n" + t(.reportKeptBy(people: keptBy.map { t(.reportKeptByOne(name: $0.name, count: ValueFormatter.count($0.records))) }.joined(separator: ", ")))
        }
        blocks.append(.title(pet.name, subtitle: period))

        // Alerts first: what a vet must not miss.
        var alerts: [String] = []
        if !pet.health.allergies.isEmpty { alerts.append(t(.reportAlertAllergies(items: pet.health.allergies.joined(separator: ", ")))) }
        if !pet.health.conditions.isEmpty { alerts.append(t(.reportAlertConditions(items: pet.health.conditions.joined(separator: ", ")))) }
        // What the pet takes now: every course, whole (the box splits across pages rather than cut one).
        let currentCourses = facts.currentMedications.map { [$0.name, $0.dose].compactMap { $0 }.joined(separator: " ") }
        if !currentCourses.isEmpty { alerts.append(t(.reportAlertMedications(items: currentCourses.joined(separator: ", ")))) }
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
            alerts.append(t(.reportAlertSevere(count: ValueFormatter.count(facts.severeSymptoms.count), symptoms: Array(Set(facts.severeSymptoms.map(w.symptomName))).sorted().joined(separator: ", "))))
        }
        blocks.append(.alerts(alerts))

        // Profile.
        let current = facts.currentMedications
        var profile: [(String, String)] = [
            (t(.colSpecies), w.speciesName(pet.species)), (t(.colBreed), pet.breed ?? "—"), (t(.colSex), w.sexLabel(pet)),
            (t(.colBorn), pet.born.map { age.isEmpty ? "\($0)" : "\($0) (\(age))" } ?? "—"), (t(.colMicrochip), pet.microchip ?? "—"),
        ]
        if let c = pet.color { profile.append((t(.colColor), c)) }
        profile.append((t(.reportCurrentMeds), current.isEmpty ? "—" : current.map { [$0.name, $0.dose].compactMap { $0 }.joined(separator: " ") }.joined(separator: ", ")))
        // The facts a vet asks first, where the owner gave them (the alert box repeats allergies and conditions).
        let h = pet.health
        if !h.allergies.isEmpty { profile.append((t(.colAllergies), h.allergies.joined(separator: ", "))) }
        if !h.conditions.isEmpty { profile.append((t(.colConditions), h.conditions.joined(separator: ", "))) }
        if let v = h.vetContact { profile.append((t(.colVetContact), v.text)) }
        for c in h.emergencyContacts { profile.append((t(.colEmergencyContact), c.text)) }
        if let i = h.insurance { profile.append((t(.colInsurance), i.text)) }
        blocks.append(.heading(t(.reportProfile)))
        blocks.append(.keyValues(profile, photoPNG: profilePhotoPath))

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
        // Walks a week over the period, and minutes a walk over the walks timed.
        let walks = facts.walks
        if walks.count > 0 {
            let perWeek = ValueFormatter.trim(walks.perWeek(days: facts.periodDays), digits: 1), count = ValueFormatter.count(walks.count)
            summaryRows.append([t(.reportWalks), walks.averageMinutes.map { t(.reportWalksValue(perWeek: perWeek, minutes: ValueFormatter.trim($0, digits: 0), count: count)) }
                                    ?? t(.reportWalksValueUntimed(perWeek: perWeek, count: count))])
        }
        if !facts.stools.isEmpty {
            let dist = facts.stools.counts.map { "\($0.score): \($0.count)" }.joined(separator: f.listSeparator)
            let flagged = facts.stools.flagged
            summaryRows.append([t(.reportStools), dist + (flagged > 0 ? " — " + t(.reportStoolFlags(count: ValueFormatter.count(flagged))) : "")])
        }
        blocks.append(.table(ReportTable(header: [t(.reportItem), t(.reportValue)], rows: summaryRows, columnWeights: [1, 2.4],
                                         emptyText: t(.reportNothing))))

        // Symptoms: count, worst severity, last seen; the most frequent first, then by name.
        let symptomRows = facts.symptoms.map { x -> [String] in
            [w.symptomName(x.sample), String(x.count), "\(x.worstSeverity)/5", day(x.lastSeen)]
        }.sorted { (Int($0[1]) ?? 0, $1[0]) > (Int($1[1]) ?? 0, $0[0]) }
        blocks.append(.heading(t(.reportSymptoms)))
        blocks.append(.table(ReportTable(header: [t(.reportSymptom), t(.reportCount), t(.reportMaxSeverity), t(.reportLastSeen)], rows: symptomRows,
                                         columnWeights: [2, 1, 1, 1.6], alignments: [.left, .right, .right, .left],
                                         emphasizedRows: Set(symptomRows.indices.filter { symptomRows[$0][2].hasPrefix("4") || symptomRows[$0][2].hasPrefix("5") }),
                                         emptyText: t(.reportNoSymptoms))))

        // Charts.
        let perUnit = f.unitSystem.gramsPerUnit
        let series = LineSeries(label: pet.name, times: facts.chartTimes, values: facts.chartGrams.map { $0 / perUnit })
        if !series.times.isEmpty {
            blocks.append(.heading(t(.reportCharts)))
            // The report's period on the time axis, as the symptom chart's weeks and the tables.
            let periodEnd = facts.context.now.timeIntervalSince1970, periodBegin = facts.periodStart.timeIntervalSince1970
            blocks.append(.weightChart(WeightChartSpec(title: t(.chartWeightTitle(pets: pet.name)), yLabel: t(.chartWeightAxis), unitSuffix: f.unitSystem.symbol, series: [series],
                                                   timeRange: periodBegin < periodEnd ? periodBegin...periodEnd : nil,
                                                   language: l10n.language.rawValue, labeler: labels.axisLabeler, noDataText: t(.chartNoData)),
                                   heightFraction: 0.3))
        }
        if let weekly = facts.weeklySymptoms {
            if series.times.isEmpty { blocks.append(.heading(t(.reportCharts))) }
            blocks.append(.barChart(BarChartSpec(title: t(.chartSymptomsTitle(pet: pet.name)), yLabel: t(.chartSymptomsAxis),
                                                 categories: weekly.weeks.map(f.shortDay), stacks: labels.symptomStacks(weekly),
                                                 language: l10n.language.rawValue, noDataText: t(.chartNoData)),
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
            return [l10n.code(.vaccine, v.vaccine), v.lastGiven.map(day) ?? "—", v.nextDue.map(f.longDate) ?? "—", status]
        }
        blocks.append(.table(ReportTable(header: [t(.reportVaccine), t(.reportLastGiven), t(.reportNextDue), t(.reportStatus)], rows: vaccineRows,
                                         columnWeights: [1.6, 1.3, 1.3, 1], emphasizedRows: overdueRows, emptyText: t(.reportNoVaccinations))))

        // Medications and prevention with adherence.
        blocks.append(.heading(t(.reportMedications)))
        let medRows = facts.courses.map { c -> [String] in
            let m = c.medication
            // A course ends when stopped or at the end of its --until day; a planned end is shown too.
            let period = day(c.record) + " – " + (c.lastDay.map(f.longDate) ?? t(.reportOngoing))
            return [m.name, [m.dose, w.everyText(m)].compactMap { $0 }.joined(separator: ", "), period,
                    w.adherenceText(c.timetable, dosesGiven: c.dosesGiven)]
        }
        blocks.append(.table(ReportTable(header: [t(.colMedication), t(.colDose), t(.reportPeriodColumn), t(.colAdherence)], rows: medRows,
                                         columnWeights: [1.4, 1.4, 2, 1.2], emptyText: t(.reportNoMedications))))

        // Visits.
        blocks.append(.heading(t(.reportVisits)))
        // The weight taken at the visit (its own, else that day's nearest record) and the follow-up day.
        let visitRows = zip(facts.visits, facts.visitWeights).map { visit, weight -> [String] in
            let (at, offset, v) = visit
            return [f.longDate(RecordClock.day(at, utcOffset: offset)), [v.clinic, v.vet].compactMap { $0 }.joined(separator: ", "), v.reason ?? "",
                    v.diagnosis ?? "", v.treatment ?? "", weight.map(f.mass) ?? "", v.followUp.map(f.longDate) ?? "",
                    v.cost.map(f.money) ?? ""]
        }
        blocks.append(.table(ReportTable(header: [t(.reportDate), t(.reportClinic), t(.reportReason), t(.reportDiagnosis), t(.reportTreatment),
                                                  t(.reportWeightColumn), t(.reportFollowUpColumn), t(.reportCost)],
                                         rows: visitRows, columnWeights: [1.2, 1.3, 1, 1.5, 1.8, 0.8, 1.2, 0.9],
                                         alignments: [.left, .left, .left, .left, .left, .right, .left, .right],
                                         emptyText: t(.reportNoVisits), continuationTitle: t(.reportContinued(section: t(.reportVisits))))))
        // The period's total, in one currency; costs in others said (converted at their day's rate, or not counted).
        if let c = costTotal, c.visits > 0 {
            var lines = [t(.reportVisitCostTotal(total: f.money(c.total)))]
            func codes(_ d: [String: Int]) -> String { d.keys.sorted().joined(separator: ", ") }
            let converted = c.converted.values.reduce(0, +), unconverted = c.unconverted.values.reduce(0, +)
            if converted > 0 { lines.append(t(.reportVisitCostConverted(count: ValueFormatter.count(converted), currencies: codes(c.converted)))) }
            if unconverted > 0 { lines.append(t(.reportVisitCostUnconverted(count: ValueFormatter.count(unconverted), currencies: codes(c.unconverted)))) }
            blocks.append(.paragraph(lines.joined(separator: "\n")))
        }

        // Starred notes, questions, attachments.
        let starred = facts.starred.map { r -> String in
            day(r) + " — " + w.summary(r) + (r.note.map { " (\($0))" } ?? "")
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
                [day(r), w.kindName(r.kind), "\(a.originalName) (\(a.mediaType), \(ByteCountFormatter.string(fromByteCount: a.size, countStyle: .file)))"]
                    .joined(separator: f.listSeparator)
            }))
        }

        // Photos of the period's diary entries and visits, as thumbnails with their day and note.
        let photos = reportPhotos()
        if !photos.isEmpty {
            blocks.append(.pageBreak)
            blocks.append(.heading(t(.reportPhotos)))
            blocks.append(.photos(photos))
        }

        let l = l10n
        return ReportDocument(
            title: t(.reportTitle(pet: pet.name)), language: l.language.rawValue, paper: paper,
            headerLeft: t(.reportTitle(pet: pet.name)), headerRight: t(.reportGenerated(date: f.longDate(generated))),
            footerNote: t(.reportFooter), pageLabel: { l.text(.reportPage(page: String($0), pages: String($1))) },
            blocks: blocks, creationDate: String(format: "%04d-%02d-%02dT00:00:00Z", generated.year, generated.month, generated.day))
    }
}
