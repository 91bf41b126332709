import Foundation
import FuzzSupport
import PetModel

// Span.parse (--every, --within, --since 30d, --duration, -2d in --at) and span arithmetic.
let context = TimeContext(now: Date(timeIntervalSince1970: 1_795_395_600), timeZone: TimeZone(identifier: "Asia/Seoul")!)

/// The shortest text for a span, in the units petlog accepts.
func canonical(_ s: Span) -> String {
    switch s {
    case .seconds(let n): return n % 3600 == 0 ? "\(n / 3600)h" : "\(n / 60)min"
    case .days(let n): return n % 7 == 0 ? "\(n / 7)w" : "\(n)d"
    case .months(let n): return n % 12 == 0 ? "\(n / 12)y" : "\(n)m"
    }
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    fuzzText(data, size) { text in
        guard text.utf8.count <= 256 else { return }
        // med start --times 08:00,20:00: minutes of the day, sorted, distinct, and they read back.
        if let times = try? Medication.parseTimes(text) {
            check(!times.isEmpty && times == Array(Set(times)).sorted() && times.allSatisfy { (0..<1440).contains($0) }, "times \(times)")
            check((try? Medication.parseTimes(Medication.formatTimes(times))) == times, "\(times) does not read back")
        }
        for calendarUnits in [true, false] {
            guard let span = try? Span.parse(text, allowCalendarUnits: calendarUnits) else { continue }
            if !calendarUnits, case .months = span { check(false, "a calendar unit without allowCalendarUnits: \(span)") }
            check(span.approximateSeconds > 0 && span.approximateSeconds <= 100_000 * 12 * 30 * 86_400, "\(span) lasts \(span.approximateSeconds) s")
            switch span {
            case .seconds(let n): check(n % 60 == 0, "\(span) is not whole minutes")
            default: break
            }
            let again = try? Span.parse(canonical(span), allowCalendarUnits: calendarUnits)
            check(again == span, "\(text) → \(span) → \(canonical(span)) → \(String(describing: again))")
            // Arithmetic never traps and moves the right way.
            let back = span.subtracted(from: context.now, in: context)
            check(back < context.now, "\(span) back from now is \(back)")
            let ahead = span.added(to: context.today)
            check(ahead >= context.today, "\(span) ahead of today is \(ahead)")
            _ = context.localDate(of: back)
        }
    }
}
