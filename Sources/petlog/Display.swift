import Foundation
import Localization
import PetModel
import PetViews

/// Turning values into the words and numbers a person reads, in the session's language and units.
extension Session {
    /// What presenters lay out with: this terminal's screen, the language, formats, wording, clock and week start.
    var presentation: PresentationContext {
        PresentationContext(screen: terminal.screen, l10n: l10n, format: format, wording: wording, time: time, weekStartsOnSunday: weekStartsOnSunday)
    }

    func localDay(_ date: Date) -> LocalDate { time.localDate(of: date) }

    /// The day of an instant on the clock it happened on (`when`'s answer): the record's own day.
    func recordDay(_ when: (Date, Int)) -> LocalDate { RecordClock.day(when.0, utcOffset: when.1) }

    /// The time of day in the local zone, in the language's pattern (`8:30 AM`, `오전 8:30`, `8:30`).
    func clock(_ date: Date) -> String {
        let c = time.clock(of: date)
        return format.clock(hour: c.hour, minute: c.minute)
    }

    /// `2026-11-20 08:30` in the local zone.
    func dateTime(_ date: Date) -> String { "\(localDay(date)) \(clock(date))" }

    /// The line printed after a record is logged; `aside` (already localized) says how a value was read,
    /// such as the unit a bare number was taken in.
    func printAdded(_ records: [PetRecord], aside: String? = nil) throws {
        try printAdded(records) { _ in aside }
    }

    /// The lines after records are logged, each with its own aside (a vaccine each pet's schedule names differently).
    func printAdded(_ records: [PetRecord], aside: (PetRecord) -> String?) throws {
        if json {
            try terminal.json(records.map { RecordJSON($0) })
            return
        }
        terminal.lines(RecordAddedPresenter(presentation).lines(records, aside: aside))
    }
}

/// Numbers as people read them.
enum Display {
    /// A count with thousands grouped: 868,890.
    static func count<N: BinaryInteger>(_ n: N) -> String { ValueFormatter.count(n) }
}

extension Session {
    /// The unit of a weight typed as a bare number: the unit weights are shown in (`--unit`, else the
    /// config's `units`, else lb for en_US and kg everywhere else), so what is typed reads back as typed.
    var bareMassUnit: MassUnit { unitSystem == .imperial ? .pound : .kilogram }

    /// ` (12.5 taken as lb)` after the line of a weight typed without a unit; nil when it had one.
    func bareMassAside(_ typed: String) -> String? {
        guard Mass.isBareNumber(typed) else { return nil }
        return t(.recordBareMass(number: Terminal.sanitize(typed.trimmingCharacters(in: .whitespaces)), unit: bareMassUnit.rawValue))
    }
}
