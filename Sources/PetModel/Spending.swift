import Foundation

/// One amount of money spent, as every spending view reads it: an expense (or one pet's share of a
/// split expense), or a visit's cost, which counts as `vet` spending at the visit's clinic. Each
/// record is one entry, so a visit cost counts exactly once wherever spending is summed.
public struct SpendingEntry: Equatable, Sendable {
    /// The kind of record the spending is: an expense, or the cost of a visit or a grooming.
    public typealias Source = RecordKind

    public var recordId: Int64
    public var petId: Int64?
    public var petName: String?
    public var at: Date
    public var utcOffset: Int
    public var money: Money
    public var category: String
    public var merchant: String?
    public var payment: Payment?
    public var items: [String]
    public var note: String?
    public var starred: Bool
    public var source: Source
    /// The first share's record id when the expense is split among pets.
    public var splitOf: Int64?
    /// Receipts and other files attached.
    public var attachments: Int
    /// The whole payment and this share's place in it, when the expense is split (converted whole, then split).
    public var share: PurchaseShare?

    public init(recordId: Int64, petId: Int64?, petName: String?, at: Date, utcOffset: Int, money: Money, category: String,
                merchant: String? = nil, payment: Payment? = nil, items: [String] = [], note: String? = nil, starred: Bool = false,
                source: Source = .expense, splitOf: Int64? = nil, attachments: Int = 0, share: PurchaseShare? = nil) {
        self.recordId = recordId; self.petId = petId; self.petName = petName; self.at = at; self.utcOffset = utcOffset
        self.money = money; self.category = category; self.merchant = merchant; self.payment = payment; self.items = items
        self.note = note; self.starred = starred; self.source = source; self.splitOf = splitOf; self.attachments = attachments
        self.share = share
    }

    /// The purchase this entry belongs to: the first share's record for a split expense, else its own
    /// record. A purchase shared by three pets is one payment wherever payments are counted.
    public var purchaseId: Int64 { splitOf ?? recordId }

    /// Booked for later than `now` (a payment dated ahead): counted in its month's total like any
    /// other, and marked as still ahead in every view.
    public func isAhead(of now: Date) -> Bool { at > now }

    /// The entry as a budget sees it, on its own local day (wherever it is read).
    public func item(_ context: TimeContext) -> SpendingItem {
        SpendingItem(day: localDay, money: money, category: category, share: share, purchase: purchaseId)
    }

    /// The entry in `target` at its day's rate: a share of a split purchase as its part of the whole
    /// payment converted once; nil when a rate is missing.
    public func converted(to target: Currency, rates: RateTable) -> Money? {
        rates.convert(money, share: share, to: target, on: localDay)
    }
}

/// A budget as stored: its id, whom it covers (nil: the household) and its terms.
public struct StoredBudget: Equatable, Sendable {
    public var id: Int64
    public var petId: Int64?
    public var petName: String?
    public var budget: Budget

    public init(id: Int64, petId: Int64?, petName: String?, budget: Budget) {
        self.id = id; self.petId = petId; self.petName = petName; self.budget = budget
    }
}

/// One time rates were fetched or imported.
public struct RatesFetch: Equatable, Sendable {
    public var fetchedAt: Date
    /// The local calendar day of the fetch: a second fetch on the same day uses the stored rates.
    public var localDay: LocalDate
    public var source: String
    public var rates: Int
    /// The newest day the fetched file held.
    public var lastRateDay: LocalDate?

    public init(fetchedAt: Date, localDay: LocalDate, source: String, rates: Int, lastRateDay: LocalDate?) {
        self.fetchedAt = fetchedAt; self.localDay = localDay; self.source = source; self.rates = rates; self.lastRateDay = lastRateDay
    }
}

/// Spending added up: per currency as spent, and in one currency at each entry's day's rate.
public struct SpendingTotal: Equatable, Sendable {
    /// Currency code → minor units, as spent.
    public var byCurrency: [String: Int64]
    /// Everything that could be converted, in the target currency.
    public var converted: Money
    /// Purchases (a split one once) in another currency with no rate for their day: in `byCurrency`, not in `converted`.
    public var unconverted: Int
    /// The currencies of those purchases, in code order.
    public var unconvertedCurrencies: [String] = []

    public init(_ entries: [SpendingEntry], in target: Currency, rates: RateTable, context: TimeContext) {
        var byCurrency: [String: Int64] = [:]
        var total: Int64 = 0
        var unconverted: Set<Int64> = []
        var unconvertedCodes: Set<String> = []
        for e in entries {
            byCurrency[e.money.currency.code, default: 0] = byCurrency[e.money.currency.code, default: 0].addingSaturated(e.money.minorUnits)
            if let m = e.converted(to: target, rates: rates) {
                total = total.addingSaturated(m.minorUnits)
            } else {
                unconverted.insert(e.purchaseId)
                unconvertedCodes.insert(e.money.currency.code)
            }
        }
        self.byCurrency = byCurrency
        self.converted = Money(minorUnits: total, currency: target)
        self.unconverted = unconverted.count
        self.unconvertedCurrencies = unconvertedCodes.sorted()
    }

    /// True when every purchase left out is in a currency the ECB never publishes (`TWD`): `rates update`
    /// cannot bring its rate, only a rate imported by hand can.
    public var unconvertedHaveNoECBRate: Bool {
        !unconvertedCurrencies.isEmpty && unconvertedCurrencies.allSatisfy { Currency.named($0)?.hasECBRate == false }
    }

    /// The currencies spent in, in code order.
    public var currencies: [String] { byCurrency.keys.sorted() }
    /// True when everything was spent in the target currency (no conversion happened).
    public var isSingleCurrency: Bool { byCurrency.keys.allSatisfy { $0 == converted.currency.code } }
}

/// The home currency's default per language: Korean won for Korean, yen for Japanese; for English the
/// currency of the monetary locale's region (`en_GB` pounds), else US dollars.
public enum HomeCurrency {
    public static func fallback(languageCode: String, region: String?) -> Currency {
        switch languageCode {
        case "ko": return .krw
        case "ja": return Currency.named("JPY") ?? .krw
        default:
            if let region, let code = regionCurrencies[region.uppercased()], let c = Currency.named(code) { return c }
            return Currency.named("USD") ?? .krw
        }
    }

    static let regionCurrencies = ["KR": "KRW", "JP": "JPY", "US": "USD", "GB": "GBP", "CA": "CAD", "AU": "AUD", "NZ": "NZD",
                                   "CH": "CHF", "SE": "SEK", "CN": "CNY", "TW": "TWD", "HK": "HKD", "SG": "SGD",
                                   "DE": "EUR", "FR": "EUR", "IT": "EUR", "ES": "EUR", "NL": "EUR", "IE": "EUR", "AT": "EUR",
                                   "BE": "EUR", "FI": "EUR", "PT": "EUR"]
}

/// What of some spending is still ahead (booked later than now): its amount converted as every view
/// converts it, and how many purchases (a split purchase once). Every view that totals a month says
/// this beside the same total.
public struct SpendingAhead: Equatable, Sendable {
    public var converted: Money
    public var purchases: Int

    public init(_ entries: [SpendingEntry], in target: Currency, rates: RateTable, now: Date) {
        let ahead = entries.filter { $0.isAhead(of: now) }
        converted = Money(minorUnits: ahead.compactMap { $0.converted(to: target, rates: rates)?.minorUnits }
            .reduce(0) { $0.addingSaturated($1) }, currency: target)
        purchases = Set(ahead.map(\.purchaseId)).count
    }
}
