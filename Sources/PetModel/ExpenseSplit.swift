/// One expense shared by several pets (`expense 45000 --pets Coco,Nabi,Mochi`): each gets the total
/// divided evenly in minor units, and the remainder goes one minor unit at a time to the first pets
/// in the order given (45,000 won / 3 = 15,000 each; 100 won / 3 = 34, 33, 33; $10.00 / 3 = $3.34,
/// $3.33, $3.33). The shares always add up to the total exactly.
public enum ExpenseSplit {
    /// The shares of `total` for `count` pets, in order (none for no pet).
    public static func shares(of total: Money, among count: Int) -> [Money] {
        guard count >= 1 else { return [] }
        let (base, remainder) = total.minorUnits.quotientAndRemainder(dividingBy: Int64(count))
        return (0..<count).map { i in
            Money(minorUnits: base + (Int64(i) < remainder ? 1 : 0), currency: total.currency)
        }
    }
}

/// Where one pet's share sits in the purchase it belongs to: the whole payment, the share's place
/// among the shares (record order) and how many there are.
public struct PurchaseShare: Equatable, Sendable {
    public var total: Money
    public var index: Int
    public var count: Int

    public init(total: Money, index: Int, count: Int) {
        self.total = total; self.index = index; self.count = count
    }
}

extension RateTable {
    /// A share of a purchase in `target`: the whole payment converted once, then split as the payment
    /// was (`ExpenseSplit`), so the shares add up to the converted whole in every currency (45,000
    /// won by two is ¥4,733 at 203 won to ¥1,930, never two rounded halves of ¥2,367). `money`
    /// alone when it is no share, or a share that is not the split of `share.total` it claims to be.
    public func convert(_ money: Money, share: PurchaseShare?, to target: Currency, on day: LocalDate) -> Money? {
        guard let share, share.count > 1, share.index >= 0, share.index < share.count,
              share.total.currency == money.currency, money.currency.code != target.code,
              ExpenseSplit.shares(of: share.total, among: share.count)[share.index] == money
        else { return convert(money, to: target, on: day) }
        guard let whole = convert(share.total, to: target, on: day) else { return nil }
        return ExpenseSplit.shares(of: whole, among: share.count)[share.index]
    }
}
