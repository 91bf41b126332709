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
            let (days, byDay) = CalendarPresenter.marks(records, first: first)
            if s.json {
                try s.terminal.json(CalendarJSON(month: first, days: days, marks: byDay))
                return
            }
            s.terminal.lines(CalendarPresenter(s.presentation).records(first: first, days: days, marks: byDay))
        }
    }

    /// `--spending`: each day's total in the home currency (`CalendarPresenter.spending`).
    func spendingCalendar(_ s: inout Session, first: LocalDate, next: LocalDate) throws {
        let home = try s.homeCurrency(money.currency)
        let entries = try s.repository().spending(SpendingQuery(pets: pet.map(PetModelText.pets) ?? [],
                                                                days: DayWindow(first: first, end: next)))
        let rates = try s.rates(for: entries, to: home)
        let daily = DailySpending(entries, month: first, in: home, rates: rates, context: s.time)
        let ahead = SpendingAhead(entries, in: home, rates: rates, now: s.time.now)
        if s.json {
            try s.terminal.json(SpendingCalendarJSON(month: first, daily: daily, ahead: ahead))
            return
        }
        s.terminal.lines(CalendarPresenter(s.presentation).spending(first: first, daily: daily, ahead: ahead, home: home))
    }
}

extension Session {
    /// `2026-11` → its first day; nil → this month.
    func monthStart(_ text: String?) throws -> LocalDate {
        guard let text else { return time.today.firstOfMonth }
        return try LocalDate.parseMonth(text)
    }
}
