/// How a record reads in one line (`log`, `show`'s neighbours, the report's starred notes), said with its
/// kind's model (`RecordDetail.summary`) for every kind after the eleven shipped ones: its parts in order,
/// each worded by what it is (`RecordWording.summary`). When none of the `headline` parts has a value, the
/// kind's name stands in their place: a record of listed tasks with none listed reads as the kind's name and
/// the rest (`grooming · Happy Paws`), a walk with neither distance nor duration as `walk`.
public struct RecordSummary: Sendable, Equatable {
    public enum Part: Sendable, Equatable {
        /// Text as typed.
        case text(String)
        /// Money in its currency.
        case money(Money)
        /// Codes of a code group of the string tables, by their names, joined with commas.
        case codes(group: String, [String])
        /// Whole metres, as a distance in the user's units.
        case meters(Int)
        /// Whole minutes, as hours and minutes.
        case minutes(Int)
        /// The day of the next session the record asks for (`next: 2026-12-20`).
        case nextSession(LocalDate)
    }

    public var headline: [Part]
    public var rest: [Part]

    /// The parts that have a value, in order (nil: the record has none of it).
    public init(headline: [Part?], rest: [Part?] = []) {
        self.headline = headline.compactMap { $0 }
        self.rest = rest.compactMap { $0 }
    }
}
