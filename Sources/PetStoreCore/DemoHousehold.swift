import Foundation
import PetModel

/// SplitMix64: a tiny seeded generator, so a demo seed always gives the same household.
struct SeededGenerator: RandomNumberGenerator {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
    mutating func unit() -> Double { Double(next() >> 11) / Double(1 << 53) }
    mutating func chance(_ p: Double) -> Bool { unit() < p }
    mutating func normal() -> Double {
        let u1 = max(unit(), 1e-12), u2 = unit()
        return (-2 * log(u1)).squareRoot() * cos(2 * .pi * u2)
    }
}

/// A realistic household for `petlog demo`: Coco the dog, Nabi the cat and Mochi the ferret, two years
/// of every record kind ending on `end`, a year of spending (in won, with a few dollar and yen
/// purchases), a monthly budget and a month of euro reference rates; identical for the same seed and end day.
public struct DemoHousehold {
    public var seed: UInt64
    public var end: LocalDate
    public var timeZone: TimeZone

    public init(seed: UInt64 = 42, end: LocalDate, timeZone: TimeZone) {
        self.seed = seed; self.end = end; self.timeZone = timeZone
    }

    public struct Counts: Sendable { public var pets: Int; public var records: Int }

    struct PetPlan {
        var pet: ImportPet
        var baseGrams: Double
        var seasonal: Double
        var trendPerYear: Double
    }

    /// Writes the household into an empty database in one transaction, through the import path (one way
    /// in for pets and records): pets get ids 1, 2, 3 and records 1, 2, … in the order planned; its
    /// budgets and rates in the same transaction.
    public func seed(into store: any DemoRepository) throws -> Counts {
        let now = store.now()
        var rng = SeededGenerator(seed: seed)
        let ctx = TimeContext(now: now, timeZone: timeZone)
        // Two years back, but never before the first day petlog can store.
        let start = max(end.adding(months: -24), LocalDate(clamping: LocalDate.supportedYears.lowerBound, month: 1, day: 1))
        let demo = SourceLocation(file: "demo", line: 0)
        let plans = [
            PetPlan(pet: ImportPet(location: demo, fileId: 1, name: "Coco", species: .dog, breed: "Maltese", sex: .female, neutered: true,
                                   born: PartialDate(year: 2019, month: 4, day: 2), microchip: "900123456789012", color: "white",
                                   notes: "Anxious at the clinic: calmer with her blanket.",
                                   health: PetHealth(allergies: ["chicken", "penicillin"], conditions: ["luxating patella (left, grade 1)"],
                                                     vetContact: PetContact(name: "Seoul Animal Medical Center", phone: "02-555-0142"),
                                                     emergencyContacts: [PetContact(name: "Jiwoo Kim", phone: "010-5550-1234"),
                                                                         PetContact(name: "Minjun Park", phone: "+82 10-5550-5678")],
                                                     insurance: PetInsurance(insurer: "PetCare Mutual", policy: "PC-2024-118830"))),
                    baseGrams: 4200, seasonal: 0.01, trendPerYear: -0.04),
            PetPlan(pet: ImportPet(location: demo, fileId: 2, name: "Nabi", species: .cat, breed: "Korean Shorthair", sex: .male, neutered: true,
                                   born: PartialDate(year: 2020, month: 6), microchip: "410098765432109", color: "tabby",
                                   notes: "Hairballs in spring."),
                    baseGrams: 5100, seasonal: 0.015, trendPerYear: 0.05),
            PetPlan(pet: ImportPet(location: demo, fileId: 3, name: "Mochi", species: .ferret, breed: "Sable", sex: .female, neutered: true,
                                   born: PartialDate(year: 2022, month: 3), color: "sable"),
                    baseGrams: 900, seasonal: 0.08, trendPerYear: 0),
        ]
        var batch = ImportBatch()
        batch.needsEmptyDatabase = true
        batch.pets = plans.map(\.pet)
        for (index, plan) in plans.enumerated() {
            seedRecords(for: index, plan: plan, from: start, rng: &rng, ctx: ctx, now: now, into: &batch)
        }
        // Household expenses with no single pet.
        var month = start.firstOfMonth
        while month <= end {
            let day = month.adding(days: 2)
            if day <= end && ctx.instant(day, hour: 18) <= now {
                add(.expense(Expense(money: Money(minorUnits: 42_000 + Int64(rng.unit() * 6) * 1000, currency: .krw),
                                     category: "supplies", merchant: "Pet Mart", payment: .card, items: ["cat litter 10L", "poop bags", "pee pads"])),
                    pet: nil, day: day, hour: 18, ctx: ctx, into: &batch)
            }
            month = month.adding(months: 1)
        }
        var spendingRNG = SeededGenerator(seed: seed ^ 0x5045_544C_4F47)
        seedSpending(ctx: ctx, now: now, rng: &spendingRNG, into: &batch)
        // Coco's evening walks over the last eight weeks, from a generator of their own and planned last, so
        // every other record keeps its id and values; a few untimed, a few without a distance.
        var walkRNG = SeededGenerator(seed: seed ^ 0x5741_4C4B)
        for back in stride(from: 55, through: 0, by: -1) {
            let day = end.adding(days: -back)
            let walked = walkRNG.chance(0.7), minutes = 20 + Int(walkRNG.unit() * 30), pace = 55 + Int(walkRNG.unit() * 20)
            let minute = Int(walkRNG.unit() * 45), timed = !walkRNG.chance(0.1), measured = !walkRNG.chance(0.15)
            guard walked, day >= start, ctx.instant(day, hour: 19, minute: minute) <= now else { continue }
            add(.walk(Walk(meters: measured ? minutes * pace / 10 * 10 : nil, minutes: timed ? minutes : nil)), pet: 0, day: day, hour: 19, minute: minute,
                ctx: ctx, into: &batch)
        }
        let summary = try store.seedDemo(batch, budgets: budgets, rates: rates)
        return Counts(pets: summary.petsAdded, records: summary.recordsAdded)
    }

    /// Plans one record; its id is its place in the batch (the database is empty), which doses use to name their course.
    @discardableResult
    func add(_ detail: RecordDetail, pet: Int?, day: LocalDate, hour: Int, minute: Int = 0, note: String? = nil, starred: Bool = false,
             ctx: TimeContext, into batch: inout ImportBatch) -> Int64 {
        let at = ctx.instant(day, hour: hour, minute: minute)
        let id = Int64(batch.records.count + 1)
        batch.records.append(ImportRecord(location: SourceLocation(file: "demo", line: 0), fileId: id, pet: pet, at: at.unixSeconds(),
                                          utcOffset: ctx.utcOffset(at: at), note: note, starred: starred, detail: detail))
        return id
    }

    func seedRecords(for index: Int, plan: PetPlan, from start: LocalDate, rng: inout SeededGenerator, ctx: TimeContext, now: Date,
                     into batch: inout ImportBatch) {
        let pet = plan.pet
        func put(_ d: RecordDetail, _ day: LocalDate, _ hour: Int, _ minute: Int = 0, note: String? = nil, starred: Bool = false) -> Int64 {
            // Nothing later than now: a demo ending today stops at the current hour.
            if ctx.instant(day, hour: hour, minute: minute) > now { return -1 }
            return add(d, pet: index, day: day, hour: hour, minute: minute, note: note, starred: starred, ctx: ctx, into: &batch)
        }
        let krw = Currency.krw
        let totalDays = end.dayNumber - start.dayNumber
        var drift = 0.0
        var sickUntil = -1
        // Medication course: monthly heartworm/flea prevention for the dog and the cat.
        var courseId: Int64?
        if pet.species != .ferret {
            let name = pet.species == .dog ? "Heartgard Plus" : "Revolution Plus"
            courseId = put(.medication(Medication(name: name, dose: pet.species == .dog ? "1 chew" : "1 pipette",
                                                      route: pet.species == .dog ? .oral : .topical, intervalSeconds: 30 * 86_400)),
                               start, 9)
        }
        for offset in 0...totalDays {
            let day = start.adding(days: offset)
            let yearFraction = Double(day.dayNumber % 365) / 365
            drift = drift * 0.97 + rng.normal() * 0.004
            let sick = offset <= sickUntil
            // Weight: weekly on Sundays (daily for two weeks while ill), with seasonal swing, trend and scale noise.
            if day.isoWeekday == 7 || (sick && rng.chance(0.8)) {
                let trend = plan.trendPerYear * Double(offset) / 365
                let season = plan.seasonal * cos(2 * .pi * (yearFraction - 0.05))
                let sickDip = sick ? -0.04 : 0
                let grams = plan.baseGrams * (1 + trend + season + drift + sickDip + rng.normal() * 0.006)
                let rounded = plan.baseGrams >= 1000 ? (grams / 10).rounded() * 10 : grams.rounded()
                let bcs: BodyConditionScore? = day.day <= 7 ? BodyConditionScore(clamping: pet.species == .cat ? 6 : 5) : nil
                _ = put(.weight(Weight(mass: Mass(grams: Int(rounded)), bodyCondition: bcs)), day, 8, Int(rng.unit() * 30))
            }
            // Meals: logged for the last 60 days, two a day plus the odd treat.
            if totalDays - offset < 60 {
                let food = pet.species == .dog ? "salmon kibble" : pet.species == .cat ? "chicken-free wet food" : "ferret kibble"
                let grams = pet.species == .dog ? 55.0 : pet.species == .cat ? 40 : 25
                _ = put(.meal(Meal(food: food, type: .meal, amount: Amount(value: grams, unit: .g))), day, 7, 30)
                _ = put(.meal(Meal(food: food, type: .meal, amount: Amount(value: sick ? grams / 2 : grams, unit: .g))), day, 19)
                if rng.chance(0.3) {
                    _ = put(.meal(Meal(food: pet.species == .dog ? "dental chew" : "freeze-dried treat", type: .treat,
                                           amount: Amount(value: 1, unit: .piece))), day, 15)
                }
            }
            // Stool every few days; looser while ill.
            if rng.chance(0.35) {
                let score = sick ? 5 + Int(rng.unit() * 2.5) : 3 + Int(rng.unit() * 2)
                _ = put(.stool(Stool(score: StoolScore(clamping: score), blood: sick && rng.chance(0.1), mucus: sick && rng.chance(0.3))), day, 8, 45)
            }
            if pet.species == .cat && rng.chance(0.1) {
                _ = put(.urine(Urine(amount: .normal)), day, 10)
            }
            // Symptoms: summer itching for the dog, spring hairballs for the cat, and one bad episode for each.
            let month = day.month
            if pet.species == .dog && (6...8).contains(month) && rng.chance(0.15) {
                _ = put(.symptom(Symptom(code: "itching", isListed: true, severity: SymptomSeverity(clamping: 1 + Int(rng.unit() * 3)))), day, 21)
            }
            if pet.species == .cat && (3...5).contains(month) && rng.chance(0.08) {
                _ = put(.symptom(Symptom(code: "vomiting", isListed: true, severity: SymptomSeverity(clamping: 1 + Int(rng.unit() * 2)))), day, 6, note: "hairball")
            }
            if pet.species == .ferret && rng.chance(0.01) {
                _ = put(.symptom(Symptom(code: "sneezing", isListed: true, severity: .lowest)), day, 12)
            }
            if offset == totalDays - 40 - (pet.species == .dog ? 0 : pet.species == .cat ? 200 : 400) {
                sickUntil = offset + 10
                let code = pet.species == .cat ? "vomiting" : "diarrhea"
                _ = put(.symptom(Symptom(code: code, isListed: true, severity: SymptomSeverity(clamping: 4), durationMinutes: 240)), day, 7, note: "three times since last night")
                _ = put(.symptom(Symptom(code: "lethargy", isListed: true, severity: SymptomSeverity(clamping: 3))), day, 12)
                _ = put(.visit(Visit(clinic: "Happy Paws Clinic", vet: "Dr. Kim", reason: "illness",
                                         diagnosis: pet.species == .cat ? "Gastritis" : "Acute gastroenteritis",
                                         treatment: "Fluids, bland diet, metronidazole 5 days",
                                         weight: Mass(grams: Int(plan.baseGrams * 0.96)), followUp: day.adding(days: 7),
                                         cost: Money(minorUnits: 128_000, currency: krw))), day.adding(days: 1), 11)
                let antibiotic = put(.medication(Medication(name: "Metronidazole", dose: pet.species == .ferret ? "10 mg" : "50 mg",
                                                                route: .oral, intervalSeconds: 12 * 3600, endsOn: day.adding(days: 6),
                                                                stoppedAt: ctx.instant(day.adding(days: 6), hour: 20))), day.adding(days: 1), 12)
                for k in 0..<10 where rng.chance(0.9) {
                    _ = put(.dose(Dose(medicationId: antibiotic, medicationName: "Metronidazole")), day.adding(days: 1 + k / 2), k % 2 == 0 ? 8 : 20)
                }
                _ = put(.visit(Visit(clinic: "Happy Paws Clinic", vet: "Dr. Kim", reason: "follow-up", diagnosis: "Recovered",
                                         cost: Money(minorUnits: 35_000, currency: krw))), day.adding(days: 8), 10)
            }
            // Monthly prevention dose, on the course's day of month.
            if let course = courseId, day.day == start.day {
                let name = pet.species == .dog ? "Heartgard Plus" : "Revolution Plus"
                if !rng.chance(0.06) { _ = put(.dose(Dose(medicationId: course, medicationName: name)), day, 9, 5) }
            }
            // Yearly check-up with vaccines, near the birthday month.
            if day.month == (pet.born?.month ?? 1), day.day == 15 {
                let weightAtVet = Mass(grams: Int(plan.baseGrams * (1 + plan.trendPerYear * Double(offset) / 365)))
                let vaccines: [String] = pet.species == .dog ? ["rabies", "dhpp"] : pet.species == .cat ? ["rabies", "fvrcp"] : ["distemper", "rabies"]
                // The visit's cost is the check-up and its vaccines: spending once, as `vet` (no separate expense).
                _ = put(.visit(Visit(clinic: "Happy Paws Clinic", vet: "Dr. Kim", reason: "checkup", diagnosis: "Healthy",
                                         treatment: "Dental cleaning advised", weight: weightAtVet,
                                         cost: Money(minorUnits: 55_000 + Int64(vaccines.count) * 30_000, currency: krw))), day, 10)
                for v in vaccines {
                    _ = put(.vaccination(Vaccination(vaccine: v, product: nil, lot: "L\(100_000 + Int(rng.unit() * 900_000))",
                                                         clinic: "Happy Paws Clinic", nextDue: day.adding(months: v == "dhpp" || v == "fvrcp" ? 36 : 12))),
                                day, 10, 20)
                }
            }
            // Diary: a few entries a month; the first of each quarter starred for the vet.
            if rng.chance(0.06) {
                let lines = DemoHousehold.diaryLines[pet.species == .dog ? 0 : pet.species == .cat ? 1 : 2]
                let text = lines[Int(rng.unit() * Double(lines.count))]
                let moods: [Mood] = [.happy, .calm, .playful, .tired]
                _ = put(.diary(Diary(text: text, mood: moods[Int(rng.unit() * 4)])), day, 20, 15,
                            starred: day.day <= 3 && [1, 4, 7, 10].contains(day.month))
            }
            // Food purchases.
            if day.day == 5 {
                _ = put(.expense(Expense(money: Money(minorUnits: pet.species == .dog ? 48_000 : pet.species == .cat ? 39_000 : 27_000, currency: krw),
                                             category: "food", merchant: "Pet Mart", payment: .card,
                                             items: [pet.species == .dog ? "salmon kibble 6kg" : pet.species == .cat ? "chicken-free wet food 24 cans" : "ferret kibble 2kg"])),
                        day, 17)
            }
        }
    }

    static let diaryLines: [[String]] = [
        ["Long walk by the river, very happy.", "First snow walk — she loved it.", "Met a new friend at the park.",
         "Slept all afternoon after grooming.", "Learned to wait for her food."],
        ["Spent the day in the sunny window.", "Chased the laser for ten minutes.", "Very cuddly tonight.",
         "Knocked a cup off the table again.", "Hid in the box from the delivery."],
        ["Stole a sock and hid it under the sofa.", "Played in the tunnel for an hour.", "War dance after dinner.",
         "Slept 18 hours today.", "Explored the new hammock."],
    ]
}
