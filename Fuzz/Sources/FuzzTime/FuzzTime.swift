import Foundation
import FuzzSupport
import PetModel

// TimeParser (--at, --since, --until, day arguments) in three zones: Seoul (the tests' zone, with
// historical DST and a local mean time offset), New York (DST both ways) and UTC.
let now = Date(timeIntervalSince1970: 1_795_395_600) // 2026-11-23 10:00 +09:00
let contexts = ["Asia/Seoul", "America/New_York", "UTC"].map { TimeContext(now: now, timeZone: TimeZone(identifier: $0)!) }

/// `2026-11-20 08:30:15` in the context's zone: text TimeParser.instant must read back to the same wall clock.
func wallClock(_ date: Date, _ context: TimeContext) -> String {
    let c = context.calendar.dateComponents([.hour, .minute, .second], from: date)
    return "\(context.localDate(of: date)) " + String(format: "%02d:%02d:%02d", c.hour!, c.minute!, c.second!)
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    fuzzText(data, size) { text in
        guard text.utf8.count <= 256 else { return }
        for context in contexts {
            if let instant = try? TimeParser.instant(text, context: context) {
                let day = context.localDate(of: instant)
                check(day.isSupported, "instant \(instant) is on \(day), outside the storable years")
                check(LocalDate.parseISO(Substring(day.description)) == day, "day \(day) does not read back")
                let clock = wallClock(instant, context)
                let again = try? TimeParser.instant(clock, context: context)
                check(again != nil, "\(clock) (formatted from \(instant)) does not parse")
                if let again {
                    check(wallClock(again, context) == clock, "\(clock) reads back as \(wallClock(again, context))")
                    check(again <= instant, "a repeated wall-clock time must give the earlier instant")
                }
            }
            if let day = try? TimeParser.day(text, context: context) {
                check(day.isSupported, "day \(day) outside the storable years")
                check(LocalDate(year: day.year, month: day.month, day: day.day) == day, "day \(day) is not a valid date")
                check((try? TimeParser.day(day.description, context: context)) == day, "day \(day) does not read back")
            }
            let since = try? TimeParser.since(text, context: context)
            let until = try? TimeParser.until(text, context: context)
            if let since { check(context.localDate(of: since).isSupported, "since \(since) outside the storable years") }
            if let until { check(context.localDate(of: until).year <= 10_000, "until \(until) far outside the storable years") }
            if let d = LocalDate.parseISO(Substring(text.trimmingCharacters(in: .whitespaces).lowercased())), let since, let until {
                check(since < until, "\(d): since \(since) is not before until \(until)")
                check(context.localDate(of: since) == d, "since \(d) starts on \(context.localDate(of: since))")
            }
        }
    }
}
