import Foundation
import Localization
import PetModel

/// Turning values into the words and numbers a person reads, in the session's language and units.
extension Session {
    func localDay(_ date: Date) -> LocalDate { time.localDate(of: date) }

    /// `08:30` in the local zone.
    func clock(_ date: Date) -> String {
        let c = time.clock(of: date)
        return String(format: "%02d:%02d", c.hour, c.minute)
    }

    /// `2026-11-20 08:30` in the local zone.
    func dateTime(_ date: Date) -> String { "\(localDay(date)) \(clock(date))" }

    /// The line printed after a record is logged; `aside` (already localized) says how a value was read,
    /// such as the unit a bare number was taken in.
    func printAdded(_ records: [PetRecord], aside: String? = nil) {
        printAdded(records) { _ in aside }
    }

    /// The lines after records are logged, each with its own aside (a vaccine each pet's schedule names differently).
    func printAdded(_ records: [PetRecord], aside: (PetRecord) -> String?) {
        if json {
            terminal.json(records.map(JSONShape.record))
            return
        }
        for r in records {
            terminal.line(t(.recordAdded(id: String(r.id), kind: wording.kindName(r.kind), pet: r.petName.map(Terminal.sanitize) ?? t(.expenseHousehold), summary: Terminal.sanitize(wording.summary(r)))) + (aside(r) ?? ""))
        }
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
