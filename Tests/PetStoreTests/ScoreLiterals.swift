import PetModel

/// Tests write scores as literals (`Stool(score: 4)`); one outside its scale stops the test run, since
/// petlog itself has no way to make one (`Score.init?` and `Score.parse` refuse it).
extension Score: ExpressibleByIntegerLiteral {
    public init(integerLiteral value: Int) {
        guard let score = Score(value) else { preconditionFailure("\(value) is outside \(Score.range)") }
        self = score
    }
}
