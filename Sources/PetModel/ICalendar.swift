import Foundation

/// A minimal RFC 5545 writer: CRLF lines folded at 75 octets, escaped text, all-day or timed events.
public enum ICalendar {
    public struct Event: Sendable {
        public var uid: String
        public var summary: String
        public var description: String?
        /// An all-day event on this day…
        public var day: LocalDate?
        /// …or a 15-minute event at this instant.
        public var start: Date?

        public init(uid: String, summary: String, description: String?, day: LocalDate?, start: Date?) {
            self.uid = uid; self.summary = summary; self.description = description; self.day = day; self.start = start
        }
    }

    public static func document(_ events: [Event], stamp: Date) -> String {
        // No METHOD: a calendar file for import, not an iTIP message (METHOD:PUBLISH would need an ORGANIZER).
        var lines = ["BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//petlog//petlog due//EN", "CALSCALE:GREGORIAN"]
        for e in events {
            lines += ["BEGIN:VEVENT", "UID:\(e.uid)@petlog", "DTSTAMP:\(utc(stamp))", "SUMMARY:\(escape(e.summary))"]
            if let d = e.day {
                lines.append("DTSTART;VALUE=DATE:\(compact(d))")
                lines.append("DTEND;VALUE=DATE:\(compact(d.adding(days: 1)))")
            } else if let s = e.start {
                lines.append("DTSTART:\(utc(s))")
                lines.append("DURATION:PT15M")
            }
            if let d = e.description { lines.append("DESCRIPTION:\(escape(d))") }
            lines += ["TRANSP:TRANSPARENT", "BEGIN:VALARM", "ACTION:DISPLAY", "DESCRIPTION:\(escape(e.summary))", "TRIGGER:-PT0M", "END:VALARM", "END:VEVENT"]
        }
        lines.append("END:VCALENDAR")
        return lines.map(fold).joined(separator: "\r\n") + "\r\n"
    }

    static func compact(_ d: LocalDate) -> String { String(format: "%04d%02d%02d", d.year, d.month, d.day) }

    static func utc(_ date: Date) -> String {
        let c = TimeContext(now: date, timeZone: TimeZone(secondsFromGMT: 0) ?? .gmt).clock(of: date)
        return String(format: "%04d%02d%02dT%02d%02d%02dZ", c.day.year, c.day.month, c.day.day, c.hour, c.minute, c.second)
    }

    static func escape(_ text: String) -> String {
        var out = ""
        for ch in PlainText.sanitized(text) {
            switch ch {
            case "\\": out += "\\\\"
            case ";": out += "\\;"
            case ",": out += "\\,"
            default: out.append(ch)
            }
        }
        return out
    }

    /// Folds a content line to 75 octets without splitting a UTF-8 character.
    static func fold(_ line: String) -> String {
        var out = ""
        var count = 0
        for ch in line {
            let n = String(ch).utf8.count
            if count + n > 75 {
                out += "\r\n "
                count = 1
            }
            out.append(ch)
            count += n
        }
        return out
    }
}
