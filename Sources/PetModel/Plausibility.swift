import Foundation

/// Values that are possible but likely typos (`42kg` for `4.2kg`): saved, and said at once in one line.
public enum Plausibility {
    /// A weight more than this fraction away from the previous one…
    public static let weightChange = 0.20
    /// …logged within this many seconds of it.
    public static let weightWindow: TimeInterval = 7 * 86_400

    /// The change from the pet's previous weight when it is larger than `weightChange` and the previous
    /// weight is at most `weightWindow` before (or after) this one; nil otherwise.
    public static func weightJump(_ mass: Mass, at: Date, previous: (at: Date, mass: Mass)?) -> MassChange? {
        guard let previous, abs(at.timeIntervalSince(previous.at)) <= weightWindow, previous.mass.grams > 0 else { return nil }
        let change = MassChange(from: previous.mass, to: mass)
        return abs(change.percent) > weightChange * 100 ? change : nil
    }

    /// A portion of food or water heavier than a quarter of the pet (a dog eats 2–4 % of its weight a
    /// day), or than 5 kg when its weight is not known. Cups and pieces are never judged.
    public static func mealTooLarge(_ amount: Amount, petWeight: Mass?) -> Bool {
        guard amount.unit == .g || amount.unit == .ml else { return false }
        let limit = petWeight.map { Double($0.grams) / 4 } ?? 5000
        return amount.value > limit
    }
}
