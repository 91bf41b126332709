/// Stools by faecal score 1–7, their mean, and how many showed blood or mucus: what `stats` and the report show.
public struct StoolDistribution: Equatable, Sendable {
    /// Every stool's score, in record order.
    public private(set) var scores: [Int] = []
    /// Stools with blood or mucus seen.
    public private(set) var flagged = 0

    public init(_ records: [PetRecord]) {
        for r in records {
            guard case .stool(let s) = r.detail else { continue }
            scores.append(s.score)
            if s.blood || s.mucus { flagged += 1 }
        }
    }

    public var isEmpty: Bool { scores.isEmpty }

    /// How many stools had each score seen, lowest score first.
    public var counts: [(score: Int, count: Int)] {
        (1...7).compactMap { score in
            let n = scores.filter { $0 == score }.count
            return n > 0 ? (score, n) : nil
        }
    }

    /// The mean score; nil with no stools.
    public var average: Double? { scores.isEmpty ? nil : Double(scores.reduce(0, +)) / Double(scores.count) }
}
