import FuzzSupport
import PetModel

// LocalDate (ISO days: follow-ups, due dates) and PartialDate (birth dates known to the day, month or year).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    fuzzText(data, size) { text in
        guard text.utf8.count <= 256 else { return }
        if let d = LocalDate.parseISO(Substring(text)) {
            check(d.isSupported && LocalDate(year: d.year, month: d.month, day: d.day) == d, "\(d) is not a valid date")
            check(d.description == text, "\(text) parsed as \(d): only the canonical YYYY-MM-DD may parse")
            check(LocalDate(dayNumber: d.dayNumber) == d, "\(d) does not survive its day number")
            check((1...7).contains(d.isoWeekday), "\(d) has weekday \(d.isoWeekday)")
            let n = number(from: text, in: -4_000_000...4_000_000)
            check(d.adding(days: n).adding(days: -n) == d, "\(d) + \(n) − \(n) days")
            check(d.adding(days: 1).dayNumber == d.dayNumber + 1, "\(d) + 1 day")
            let m = number(from: text + "m", in: -120_000...120_000)
            let moved = d.adding(months: m)
            check(m == 0 ? moved == d : (m > 0 ? moved > d : moved < d), "\(d) + \(m) months = \(moved) did not move that way")
            check((1...12).contains(moved.month) && moved.day <= LocalDate.daysIn(month: moved.month, year: moved.year), "\(d) + \(m) months = \(moved)")
            if moved.isSupported { check(LocalDate.parseISO(Substring(moved.description)) == moved, "\(moved) does not read back") }
        }
        if let p = try? PartialDate.parse(text) {
            check((1900...9999).contains(p.year), "birth year \(p.year)")
            check((try? PartialDate.parse(p.description)) == p, "\(p) does not read back")
            check(p.earliestDay.year == p.year && p.earliestDay.isSupported, "earliest day \(p.earliestDay) of \(p)")
            if let m = p.month { check(p.earliestDay.month == m, "earliest day \(p.earliestDay) of \(p)") }
            check(p.day == nil || p.month != nil, "\(p) has a day but no month")
        }
    }
}
