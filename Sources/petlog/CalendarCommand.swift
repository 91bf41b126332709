import ArgumentParser
import Foundation
import Localization
import PetModel
import PetStoreCore
import PetViews

struct CalendarCommand: ParsableCommand {
    @OptionGroup(title: Help.s(.helpGlobalOptionsTitle)) var global: GlobalOptions
    static var configuration: CommandConfiguration { CommandConfiguration(
        commandName: "calendar", abstract: Help.s(.helpCalendarCommandAbstract),
        discussion: Help.s(.helpCalendarCommandDiscussion)) }
    @Argument(help: ArgumentHelp(Help.s(.helpCalendarCommandPet)), completion: .petNames) var pet: String?
    @Option(help: ArgumentHelp(Help.s(.helpCalendarCommandMonth))) var month: String?
    @Flag(help: ArgumentHelp(Help.s(.helpCalendarCommandSpending))) var spending = false
    @OptionGroup var money: CurrencyOption

    func run() throws {
        try Session.run(global) { s in
            let first = try s.monthStart(month)
            let next = first.adding(months: 1)
            if spending { try spendingCalendar(&s, first: first, next: next); return }
            let records = try s.repository().records(RecordQuery(pets: pet.map(PetModelText.pets) ?? [],
                                                                 days: DayWindow(first: first, end: next)))
            var byDay: [LocalDate: [RecordKind: Int]] = [:]
            for r in records { byDay[r.localDay, default: [:]][r.kind, default: 0] += 1 }
            let days = (0..<(next.dayNumber - first.dayNumber)).map { first.adding(days: $0) }
            if s.json {
                try s.terminal.json(CalendarJSON(month: first, days: days, marks: byDay))
                return
            }
            MonthGrid(terminal: s.terminal, format: s.format, today: s.time.today, weekStartsOnSunday: s.weekStartsOnSunday).print(first: first, days: days, marks: byDay)
        }
    }

    /// `--spending`: the grid with each day's total in the home currency, then the month's total and busiest day.
    func spendingCalendar(_ s: inout Session, first: LocalDate, next: LocalDate) throws {
        let home = try s.homeCurrency(money.currency)
        let entries = try s.repository().spending(SpendingQuery(pets: pet.map(PetModelText.pets) ?? [],
                                                                days: DayWindow(first: first, end: next)))
        let rates = try s.rates(for: entries, to: home)
        let daily = DailySpending(entries, month: first, in: home, rates: rates, context: s.time)
        func inHome(_ minor: Int64) -> Money { Money(minorUnits: minor, currency: home) }
        let ahead = SpendingAhead(entries, in: home, rates: rates, now: s.time.now)
        if s.json {
            try s.terminal.json(SpendingCalendarJSON(month: first, daily: daily, ahead: ahead))
            return
        }
        let style: CompactMoney.Style = switch s.l10n.language {
        case .ko: .korean
        case .ja: .japanese
        default: .western
        }
        let byDay = Dictionary(uniqueKeysWithValues: daily.days.map { ($0.day, $0) })
        let grid = MonthGrid(terminal: s.terminal, format: s.format, today: s.time.today, weekStartsOnSunday: s.weekStartsOnSunday)
        func amount(_ d: LocalDate) -> String {
            guard let day = byDay[d], day.entries > 0 else { return "" }
            // A day whose only expenses could not be converted shows `?`; the count is said below.
            return day.amount == 0 && day.unconverted > 0 ? "?" : CompactMoney.format(inHome(day.amount), style: style)
        }
        let title = s.format.monthLabel(first) + " · " + s.t(.calendarSpendingTitle(currency: home.code))
        let amounts = daily.days.map { ($0.day, amount($0.day)) }
        if amounts.allSatisfy({ Terminal.width($0.1) <= grid.cell - 1 }) {
            grid.print(first: first, days: daily.days.map(\.day), title: title, under: amount)
        } else {
            // Too narrow for the amounts under the days: the days that had spending as a list.
            s.terminal.wrapped(s.terminal.styled(title, .bold))
            let spent = amounts.filter { !$0.1.isEmpty }
            let dayWidth = spent.map { Terminal.width(s.format.shortDay($0.0) + " " + s.format.weekday($0.0)) }.max() ?? 0
            let amountWidth = spent.map { Terminal.width($0.1) }.max() ?? 0
            for (d, text) in spent {
                s.terminal.line("  " + Terminal.pad(s.format.shortDay(d) + " " + s.format.weekday(d), to: dayWidth) + "  "
                                + String(repeating: " ", count: amountWidth - Terminal.width(text)) + text)
            }
        }
        guard daily.days.contains(where: { $0.entries > 0 }) else {
            s.terminal.line(s.t(.calendarNoSpending(month: s.format.monthLabel(first))))
            return
        }
        let count = daily.days.reduce(0) { $0 + $1.entries }
        s.terminal.wrapped(s.t(.calendarSpendingTotal(amount: s.format.money(inHome(daily.total)), n: Display.count(count))))
        s.printAhead(ahead)
        if let busiest = daily.busiest {
            s.terminal.wrapped(s.t(.calendarBusiestDay(date: s.format.longDate(busiest.day), amount: s.format.money(inHome(busiest.amount)))))
        }
        if daily.unconverted > 0 { s.terminal.wrapped(s.terminal.styled(s.t(.budgetUnconverted(n: Display.count(daily.unconverted))), .yellow)) }
        s.terminal.wrapped(s.terminal.styled(s.t(.calendarCompactNote), .dim))
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

    /// The config's `week_start`, else Sunday-first where the locale is (US, Canada, Korea, Japan, …), Monday-first elsewhere.
    let weekStartsOnSunday: Bool

    /// One letter per kind (`RecordKind.calendarMark`), so the grid stays aligned in any terminal.
    static func mark(_ kind: RecordKind) -> Character { kind.calendarMark }

    /// Columns per day: 7 where the terminal has 49 columns, fewer on a narrower one (4 at least: a
    /// day number and today's brackets).
    var cell: Int { min(7, max(4, terminal.columns / 7)) }

    /// The grid with `under(day)` (at most `cell − 1` columns) under each day number.
    func print(first: LocalDate, days: [LocalDate], title: String, under: (LocalDate) -> String) {
        let sundayFirst = weekStartsOnSunday
        let order = sundayFirst ? [7, 1, 2, 3, 4, 5, 6] : [1, 2, 3, 4, 5, 6, 7]
        let cell = self.cell
        terminal.wrapped(terminal.styled(title, .bold))
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
                marksLine += " " + Terminal.pad(under(d), to: cell - 1)
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
    }

    func print(first: LocalDate, days: [LocalDate], marks: [LocalDate: [RecordKind: Int]]) {
        print(first: first, days: days, title: format.monthLabel(first)) { d in
            let kinds = RecordKind.allCases.filter { (marks[d]?[$0] ?? 0) > 0 }
            var m = String(kinds.map(MonthGrid.mark).prefix(cell - 1))
            if kinds.count > cell - 1 { m = String(m.dropLast()) + "+" }
            return m
        }
        // The legend wraps between entries, never inside one (`p 投与` stays together).
        let legend = RecordKind.allCases.map { "\(MonthGrid.mark($0)) \(format.l10n.code(.kind, $0.rawValue))" }
        for l in DisplayColumns.pack(legend, separator: " · ", columns: terminal.columns) { terminal.line(terminal.styled(l, .dim)) }
    }
}
