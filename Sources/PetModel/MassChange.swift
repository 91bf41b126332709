import Foundation

/// How much a mass went up or down from an earlier one, in grams and as a share of the earlier mass.
public struct MassChange: Equatable, Sendable {
    /// Positive when the later mass is heavier.
    public var grams: Int
    /// The change as a percentage of the earlier mass.
    public var percent: Double

    public init(from earlier: Mass, to later: Mass) {
        grams = later.grams - earlier.grams
        // A stored mass is never zero; a zero here would be a hand-made value, shown as no change in percent.
        percent = earlier.grams == 0 ? 0 : Double(grams) / Double(earlier.grams) * 100
    }

    /// The latest weight against the one nearest before `days` days earlier; nil when no weight lies in
    /// the 30 days before that point (an old weight says nothing about the last month). `times` are Unix
    /// seconds in ascending order, `grams` the weights at them.
    public static func over(days: Int, times: [Double], grams: [Double]) -> MassChange? {
        guard let lastT = times.last, let last = grams.last else { return nil }
        let target = lastT - Double(days) * 86_400
        guard let i = times.lastIndex(where: { $0 <= target }), target - times[i] < 30 * 86_400 else { return nil }
        return MassChange(from: Mass(grams: Int(grams[i])), to: Mass(grams: Int(last)))
    }
}
