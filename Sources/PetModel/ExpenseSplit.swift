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
