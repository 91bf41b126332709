import ArgumentParser
import Foundation
import Localization
import PetModel
import PetStore

struct CalendarCommand: ParsableCommand {
    @OptionGroup(title: "Global options") var global: GlobalOptions
    static let configuration = CommandConfiguration(
        commandName: "calendar", abstract: "A month grid marking the days with records, by kind; today highlighted.")
    @Argument(help: "Pet name or id (default: all pets; several: Coco,Nabi).") var pet: String?
    @Option(help: "The month: 2026-11 (default: this month).") var month: String?

    func run() throws {
        try Session.run(global) { s in
            let first = try s.monthStart(month)
            let next = first.adding(months: 1)
            let records = try s.repository().records(RecordQuery(pets: pet.map(PetModelText.pets) ?? [],
                                                                 since: s.time.startOfDay(first), until: s.time.startOfDay(next)))
            var byDay: [LocalDate: [RecordKind: Int]] = [:]
            for r in records { byDay[s.localDay(r.at), default: [:]][r.kind, default: 0] += 1 }
            let days = (0..<(next.dayNumber - first.dayNumber)).map { first.adding(days: $0) }
            if s.json {
                s.terminal.json(["month": String(first.description.prefix(7)),
                                 "days": days.map { d -> [String: Any] in
                                     ["date": d.description, "kinds": (byDay[d] ?? [:]).reduce(into: [String: Int]()) { $0[$1.key.rawValue] = $1.value }]
                                 }])
                return
            }
            MonthGrid(terminal: s.terminal, format: s.format, today: s.time.today).print(first: first, days: days, marks: byDay)
        }
    }
}

extension Session {
    /// `2026-11` → its first day; nil → this month.
    func monthStart(_ text: String?) throws -> LocalDate {
        guard let text else { return time.today.firstOfMonth }
        return try LocalDate.parseMonth(text)
    }
}

/// A month as week rows for the terminal: day numbers, one letter per kind of record under each day, today marked.
struct MonthGrid {
    let terminal: Terminal
    let format: ValueFormatter
    let today: LocalDate

    /// Sunday-first where the locale is (US, Canada, Korea, Japan, …), Monday-first elsewhere.
    var weekStartsOnSunday: Bool {
        if let region = POSIXLocale().region(.time) { return ["US", "CA", "JP", "KR", "TW", "HK", "MX", "BR", "IL", "PH", "AU"].contains(region) }
        return format.l10n.language != .en
    }

    /// One letter per kind, so the grid stays aligned in any terminal.
    static func mark(_ kind: RecordKind) -> Character {
        switch kind {
        case .weight: "w"
        case .meal: "m"
        case .stool: "s"
        case .urine: "u"
        case .symptom: "!"
        case .diary: "d"
        case .visit: "V"
        case .vaccination: "X"
        case .medication: "P"
        case .dose: "p"
        case .expense: "$"
        }
    }

    func print(first: LocalDate, days: [LocalDate], marks: [LocalDate: [RecordKind: Int]]) {
        let sundayFirst = weekStartsOnSunday
        let order = sundayFirst ? [7, 1, 2, 3, 4, 5, 6] : [1, 2, 3, 4, 5, 6, 7]
        let cell = 7
        terminal.line(terminal.styled(format.monthLabel(first), .bold))
        terminal.line(order.map { Terminal.pad(" " + format.weekday(iso: $0), to: cell) }.joined())
        // Column of a day: 0-based position in the week.
        func column(_ d: LocalDate) -> Int { sundayFirst ? d.isoWeekday % 7 : d.isoWeekday - 1 }
        var week: [LocalDate?] = Array(repeating: nil, count: column(first))
        func flush() {
            guard !week.isEmpty else { return }
            while week.count < 7 { week.append(nil) }
            var numbers = "", marksLine = ""
            for d in week {
                guard let d else { numbers += String(repeating: " ", count: cell); marksLine += String(repeating: " ", count: cell); continue }
                var n = String(format: "%2d", d.day)
                n = d == today ? (terminal.colors ? terminal.styled(" " + n + " ", .bold) : "[" + n + "]") : " " + n + " "
                numbers += n + String(repeating: " ", count: cell - 4)
                let kinds = RecordKind.allCases.filter { (marks[d]?[$0] ?? 0) > 0 }
                var m = String(kinds.map(MonthGrid.mark).prefix(cell - 1))
                if kinds.count > cell - 1 { m = String(m.dropLast()) + "+" }
                marksLine += " " + Terminal.pad(m, to: cell - 1)
            }
            terminal.line(numbers)
            terminal.line(terminal.styled(marksLine, .cyan))
            week = []
        }
        for d in days {
            week.append(d)
            if week.count == 7 { flush() }
        }
        flush()
        let legend = RecordKind.allCases.map { "\(MonthGrid.mark($0)) \(format.l10n.code(.kind, $0.rawValue))" }.joined(separator: " · ")
        terminal.line(terminal.styled(legend, .dim))
    }
}
