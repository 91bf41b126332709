import Foundation
import PetModel

/// The demo household's money: a year of spending in won (food comes with the pets' own plans, the
/// household's supplies with the household), a few online orders in dollars and a trip to Japan paid in
/// yen, one purchase split between Coco and Nabi, the household's monthly budgets, and the euro
/// reference rates of the last month's weekdays (ECB-like values, embedded, so the demo is the same
/// on every machine). Visit costs are the vet spending and grooming costs the grooming spending; no expense copies one.
extension DemoHousehold {
    /// 300,000 won a month for everything, 150,000 of it for the vet.
    var budgets: [Budget] {
        [Budget(amount: Money(minorUnits: 300_000, currency: .krw), period: .monthly),
         Budget(amount: Money(minorUnits: 150_000, currency: .krw), period: .monthly, category: "vet")]
    }

    /// Units per euro, newest first, one per weekday going back from the day before `end` (the ECB
    /// publishes at 16:00 CET, after the end of a Korean day).
    static let ratesNewestFirst: [(currency: String, rates: [String])] = [
        ("USD", ["1.1580", "1.1570", "1.1590", "1.1581", "1.1568", "1.1531", "1.1522", "1.1567", "1.1584", "1.1626", "1.1636", "1.1652",
                 "1.1660", "1.1592", "1.1627", "1.1647", "1.1668", "1.1599", "1.1528", "1.1492", "1.1473", "1.1485", "1.1483"]),
        ("JPY", ["178.20", "177.80", "177.99", "178.24", "177.82", "178.89", "179.24", "179.99", "179.60", "179.14", "178.92", "178.86",
                 "179.25", "179.41", "179.13", "178.53", "178.20", "178.96", "178.46", "178.61", "178.88", "177.94", "177.97"]),
        ("KRW", ["1668.40", "1656.64", "1654.77", "1654.16", "1649.43", "1652.30", "1651.94", "1643.47", "1648.23", "1652.09", "1657.56",
                 "1665.92", "1668.03", "1668.73", "1661.14", "1664.72", "1661.15", "1658.52", "1651.18", "1645.59", "1642.53", "1649.94", "1638.20"]),
        ("GBP", ["0.8795", "0.8802", "0.8847", "0.8865", "0.8806", "0.8728", "0.8739", "0.8717", "0.8682", "0.8712", "0.8746", "0.8751",
                 "0.8758", "0.8771", "0.8820", "0.8839", "0.8855", "0.8872", "0.8824", "0.8863", "0.8893", "0.8909", "0.8848"]),
    ]

    /// The weekdays the rates are for, newest first: the 23 weekdays before `end`.
    var rateDays: [LocalDate] {
        var days: [LocalDate] = []
        var d = end.adding(days: -1)
        while days.count < Self.ratesNewestFirst[0].rates.count {
            if d.isoWeekday <= 5 { days.append(d) }
            d = d.adding(days: -1)
        }
        return days
    }

    var rates: [EuroRate] {
        let days = rateDays
        return Self.ratesNewestFirst.flatMap { currency, values in
            zip(days, values).compactMap { day, text in ExactDecimal(text).map { EuroRate(day: day, currency: currency, rate: $0) } }
        }
    }

    /// Plans the year of spending after every other record (pets 0 Coco, 1 Nabi, 2 Mochi).
    func seedSpending(ctx: TimeContext, now: Date, rng: inout SeededGenerator, into batch: inout ImportBatch) {
        let krw = Currency.krw
        func won(_ amount: Int64) -> Money { Money(minorUnits: amount, currency: krw) }
        @discardableResult
        func spend(_ e: Expense, pet: Int?, _ day: LocalDate, _ hour: Int, _ minute: Int = 0, note: String? = nil) -> Int64? {
            guard day <= end, ctx.instant(day, hour: hour, minute: minute) <= now else { return nil }
            return add(.expense(e), pet: pet, day: day, hour: hour, minute: minute, note: note, ctx: ctx, into: &batch)
        }
        let firstMonth = end.firstOfMonth.adding(months: -11)
        for m in 0..<12 {
            let month = firstMonth.adding(months: m)
            // Insurance on the 25th, for the dog and the cat.
            spend(Expense(money: won(32_000), category: "insurance", merchant: "Meritz Pet Insurance", payment: .card), pet: 0, month.adding(days: 24), 9)
            spend(Expense(money: won(24_000), category: "insurance", merchant: "Meritz Pet Insurance", payment: .card), pet: 1, month.adding(days: 24), 9, 1)
            // Treats once or twice a month.
            let chews = 9_900 + Int64(rng.unit() * 7) * 1_000
            spend(Expense(money: won(chews), category: "treats", merchant: "Pet Mart", payment: .card, items: ["dental chews", "duck jerky"]),
                  pet: 0, month.adding(days: 9 + Int(rng.unit() * 8)), 18, 20)
            if rng.chance(0.6) {
                spend(Expense(money: won(12_900), category: "treats", merchant: "Coupang", payment: .card, items: ["Ciao Churu 20 sticks"]),
                      pet: 1, month.adding(days: 12 + Int(rng.unit() * 10)), 21, 5)
            }
            if m % 3 == 1 {
                spend(Expense(money: won(8_500), category: "treats", merchant: "Pet Mart", payment: .cash, items: ["ferretone"]),
                      pet: 2, month.adding(days: 6), 17, 40)
            }
            // Litter for the cat; grooming for the dog every other month, a nail trim for the cat each quarter.
            spend(Expense(money: won(27_900), category: "supplies", merchant: "Coupang", payment: .card, items: ["tofu litter 7L × 3"]),
                  pet: 1, month.adding(days: 19), 20, 30)
            // Groomings are records of their own, their cost `grooming` spending (no expense copies one).
            func groom(_ g: Grooming, pet: Int, _ day: LocalDate, _ hour: Int, _ minute: Int = 0) {
                guard day <= end, ctx.instant(day, hour: hour, minute: minute) <= now else { return }
                add(.grooming(g), pet: pet, day: day, hour: hour, minute: minute, note: nil, ctx: ctx, into: &batch)
            }
            if m % 2 == 0 {
                groom(Grooming(tasks: [.bath, .haircut], groomer: "Fluffy Grooming Salon", cost: won(55_000),
                               next: month.adding(days: 17).adding(months: 2)), pet: 0, month.adding(days: 17), 14)
            }
            if m % 3 == 2 {
                groom(Grooming(tasks: [.nails], groomer: "Fluffy Grooming Salon", cost: won(15_000)), pet: 1, month.adding(days: 17), 14, 45)
            }
            // Parasite prevention bought in packs at the clinic (the doses are logged with the pets).
            if m % 6 == 1 {
                spend(Expense(money: won(54_000), category: "medication", merchant: "Happy Paws Clinic", payment: .card, items: ["Heartgard Plus × 6"]),
                      pet: 0, month.adding(days: 2), 11)
            }
            if m % 3 == 0 {
                spend(Expense(money: won(46_500), category: "medication", merchant: "Happy Paws Clinic", payment: .card, items: ["Revolution Plus × 3"]),
                      pet: 1, month.adding(days: 2), 11, 10)
            }
        }
        // One pet camera for the living room, shared by Coco and Nabi: one purchase, two linked shares.
        let cameraDay = end.firstOfMonth.adding(months: -3).adding(days: 13)
        let camera = Money(minorUnits: 59_990, currency: krw)
        let head = Int64(batch.records.count + 1)
        if ctx.instant(cameraDay, hour: 19) <= now {
            for (pet, share) in zip([0, 1], ExpenseSplit.shares(of: camera, among: 2)) {
                spend(Expense(money: share, category: "supplies", merchant: "Coupang", payment: .card, items: ["pet camera"], splitOf: head),
                      pet: pet, cameraDay, 19)
            }
        }
        // Online orders paid in dollars, and a long weekend in Fukuoka with Coco paid in yen: all in the
        // month the demo's rates cover, so they convert.
        let usd = Currency.named("USD") ?? krw, jpy = Currency.named("JPY") ?? krw
        spend(Expense(money: Money(minorUnits: 2_847, currency: usd), category: "supplies", merchant: "iHerb", payment: .card,
                      items: ["salmon oil 16 oz", "probiotic chews"]), pet: 0, end.adding(days: -12), 22, 10)
        spend(Expense(money: Money(minorUnits: 1_999, currency: usd), category: "supplies", merchant: "Amazon.com", payment: .card,
                      items: ["feather wand", "catnip kicker"]), pet: 1, end.adding(days: -5), 23, 30)
        let trip = end.adding(days: -20)
        spend(Expense(money: Money(minorUnits: 3_300, currency: jpy), category: "boarding", merchant: "Hotel Hakata (pet room)", payment: .card),
              pet: 0, trip, 16, note: "Fukuoka trip")
        spend(Expense(money: Money(minorUnits: 1_980, currency: jpy), category: "treats", merchant: "Pet Paradise Tenjin", payment: .cash,
                      items: ["yuzu dog cookies", "dried sweet potato"]), pet: 0, trip.adding(days: 1), 13, 15, note: "Fukuoka trip")
        spend(Expense(money: Money(minorUnits: 2_400, currency: jpy), category: "transport", merchant: "Pet taxi", payment: .cash),
              pet: 0, trip.adding(days: 2), 10, note: "Fukuoka trip")
    }
}
