import Foundation
import Localization
import PetModel

/// `calendar` on screen: a month as week rows (day numbers, today marked, something under each day), in
/// the order of the context's week; the records' one-letter marks with their legend, or `--spending`'s
/// compact amounts with the month's total, busiest day and what could not be converted.
public struct CalendarPresenter {
    public let context: PresentationContext

    public init(_ context: PresentationContext) { self.context = context }

    var screen: TextScreen { context.screen }
    var format: ValueFormatter { context.format }
    func t(_ m: L10n.Message) -> String { context.t(m) }

    /// Columns per day: 7 where the screen has 49 columns, fewer on a narrower one (4 at least: a day
    /// number and today's brackets).
    public var cell: Int { min(7, max(4, screen.columns / 7)) }

    /// The grid with `under(day)` (at most `cell − 1` columns) under each day number.
    public func grid(first: LocalDate, days: [LocalDate], title: String, under: (LocalDate) -> String) -> [String] {
        let sundayFirst = context.weekStartsOnSunday
        let order = sundayFirst ? [7, 1, 2, 3, 4, 5, 6] : [1, 2, 3, 4, 5, 6, 7]
        let cell = self.cell, today = context.time.today
        var out = screen.wrapped(screen.styled(title, .bold))
        out.append(order.map { DisplayColumns.pad(" " + format.weekday(iso: $0), to: cell) }.joined())
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
                n = d == today ? (screen.colors ? screen.styled(" " + n + " ", .bold) : "[" + n + "]") : " " + n + " "
                numbers += n + String(repeating: " ", count: cell - 4)
                marksLine += " " + DisplayColumns.pad(under(d), to: cell - 1)
            }
            out.append(numbers)
            out.append(screen.styled(marksLine, .cyan))
            week = []
        }
        for d in days {
            week.append(d)
            if week.count == 7 { flush() }
        }
        flush()
        return out
    }

    /// `calendar`'s data (the terminal's grid, `--json` and `petlog serve`'s month): each day of the month starting
    /// `first`, and how many records of each kind each day has.
    public static func marks(_ records: [PetRecord], first: LocalDate) -> (days: [LocalDate], marks: [LocalDate: [RecordKind: Int]]) {
        let next = first.adding(months: 1)
        var byDay: [LocalDate: [RecordKind: Int]] = [:]
        for r in records { byDay[r.localDay, default: [:]][r.kind, default: 0] += 1 }
        return ((0..<(next.dayNumber - first.dayNumber)).map { first.adding(days: $0) }, byDay)
    }

    /// The month's records: one letter per kind under each day (`RecordKind.calendarMark`, so the grid
    /// stays aligned in any terminal; `+` when more kinds than fit), then the legend, wrapped between
    /// entries, never inside one (`p 投与` stays together).
    public func records(first: LocalDate, days: [LocalDate], marks: [LocalDate: [RecordKind: Int]]) -> [String] {
        let cell = self.cell
        var out = grid(first: first, days: days, title: format.monthLabel(first)) { d in
            let kinds = RecordKind.allCases.filter { (marks[d]?[$0] ?? 0) > 0 }
            var m = String(kinds.map(\.calendarMark).prefix(cell - 1))
            if kinds.count > cell - 1 { m = String(m.dropLast()) + "+" }
            return m
        }
        let legend = RecordKind.allCases.map { "\($0.calendarMark) \(context.l10n.code(.kind, $0.rawValue))" }
        for l in DisplayColumns.pack(legend, separator: format.listSeparator, columns: screen.columns) { out.append(screen.styled(l, .dim)) }
        return out
    }

    /// `--spending`: the grid with each day's total in `home`, compact (`1.2만`, `1.2万`, `12K`); a day whose
    /// only expenses could not be converted shows `?`. Too narrow for the amounts under the days, the days
    /// that had spending as a list. Then the month's total, payments ahead, busiest day and unconverted count.
    public func spending(first: LocalDate, daily: DailySpending, ahead: SpendingAhead, home: Currency) -> [String] {
        func inHome(_ minor: Int64) -> Money { Money(minorUnits: minor, currency: home) }
        let style: CompactMoney.Style = switch context.l10n.language {
        case .ko: .korean
        case .ja: .japanese
        default: .western
        }
        let byDay = Dictionary(uniqueKeysWithValues: daily.days.map { ($0.day, $0) })
        func amount(_ d: LocalDate) -> String {
            guard let day = byDay[d], day.entries > 0 else { return "" }
            return day.amount == 0 && day.unconverted > 0 ? "?" : CompactMoney.format(inHome(day.amount), style: style)
        }
        let title = format.monthLabel(first) + format.listSeparator + t(.calendarSpendingTitle(currency: home.code))
        let amounts = daily.days.map { ($0.day, amount($0.day)) }
        var out: [String]
        if amounts.allSatisfy({ DisplayColumns.width($0.1) <= cell - 1 }) {
            out = grid(first: first, days: daily.days.map(\.day), title: title, under: amount)
        } else {
            out = screen.wrapped(screen.styled(title, .bold))
            let spent = amounts.filter { !$0.1.isEmpty }
            let dayWidth = spent.map { DisplayColumns.width(format.shortDay($0.0) + " " + format.weekday($0.0)) }.max() ?? 0
            let amountWidth = spent.map { DisplayColumns.width($0.1) }.max() ?? 0
            for (d, text) in spent {
                out.append("  " + DisplayColumns.pad(format.shortDay(d) + " " + format.weekday(d), to: dayWidth) + "  "
                           + String(repeating: " ", count: amountWidth - DisplayColumns.width(text)) + text)
            }
        }
        guard daily.days.contains(where: { $0.entries > 0 }) else {
            return out + [t(.calendarNoSpending(month: format.monthLabel(first)))]
        }
        let count = daily.days.reduce(0) { $0 + $1.entries }
        out += screen.wrapped(t(.calendarSpendingTotal(amount: format.money(inHome(daily.total)), n: ValueFormatter.count(count))))
        out += context.aheadLines(ahead)
        if let busiest = daily.busiest {
            out += screen.wrapped(t(.calendarBusiestDay(date: format.longDate(busiest.day), amount: format.money(inHome(busiest.amount)))))
        }
        if daily.unconverted > 0 { out += screen.wrapped(screen.styled(t(.budgetUnconverted(n: ValueFormatter.count(daily.unconverted))), .yellow)) }
        out += screen.wrapped(screen.styled(t(.calendarCompactNote), .dim))
        return out
    }
}
