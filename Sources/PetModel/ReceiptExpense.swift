import Foundation

/// A receipt's proposal with what the user typed on the same line, as the expense it would save:
/// a typed value wins over the read one; what the record needs and nobody gave is `missing`.
public struct ReceiptExpense: Equatable, Sendable {
    public var money: Money?
    public var merchant: String?
    public var payment: Payment?
    public var category: String
    public var items: [String]
    /// The receipt's day and time (nil when not read); a typed `--at` replaces both.
    public var day: LocalDate?
    public var time: ReceiptTime?
    /// Fields an expense needs that were neither read nor typed: `total`, `date`.
    public var missing: [String]

    public init(_ p: ReceiptProposal, amount: Money? = nil, merchant: String? = nil, payment: Payment? = nil, category: String? = nil,
                timeGiven: Bool = false) {
        money = amount ?? p.total?.value
        self.merchant = merchant ?? p.merchant?.value
        self.payment = payment ?? p.payment?.value
        self.category = category ?? "other"
        items = p.items.map(\.value.name)
        day = p.date?.value
        time = p.time?.value
        missing = []
        if money == nil { missing.append("total") }
        if day == nil && !timeGiven { missing.append("date") }
    }

    /// The instant it happened in `context`: the read day at the read time, else at noon (a receipt
    /// without a time is still that day wherever the clock is).
    public func instant(_ context: TimeContext) -> Date? {
        guard let day else { return nil }
        return context.instant(day, hour: time?.hour ?? 12, minute: time?.minute ?? 0)
    }
}
