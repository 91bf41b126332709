import Foundation

/// A date printed on a receipt, before it is checked against the calendar and today.
struct DateReading {
    var year: Int
    var month: Int
    var day: Int
    /// The matched text.
    var read: String
    /// How sure the shape is (a two-digit year is less sure than four digits).
    var certainty: Double
    /// Set when day and month could be swapped and the language chose.
    var ambiguous: Bool = false
}

/// The shapes of dates and times on receipts, tried in order on each line (docs/receipts.md).
enum ReceiptPatterns {
    static func make(_ pattern: String, ignoringCase: Bool = true) -> NSRegularExpression {
        // safe: every pattern is a literal in these files, compiled by the tests on every run.
        try! NSRegularExpression(pattern: pattern, options: ignoringCase ? [.caseInsensitive] : [])
    }

    /// Four digits for the year, then month and day with the same separator: the shape `repairedYearFirstDate` repairs.
    static let anyYearFirst = make(#"(?<![0-9])([0-9]{4})\s*([-./])\s*([0-9]{1,2})\s*\2\s*([0-9]{1,2})(?![0-9])"#)
    static let yearFirst = make(#"(?<![0-9])(20[0-9]{2}|19[0-9]{2})\s*([-./])\s*([0-9]{1,2})\s*\2\s*([0-9]{1,2})(?![0-9])"#)
    static let cjkYearFirst = make(#"(?<![0-9成和元RrHh])([0-9]{2,4})\s*[년年]\s*([0-9]{1,2})\s*[월月]\s*([0-9]{1,2})\s*[일日]"#)
    static let era = make(#"(令\s*和|平\s*成|(?<![a-z])[RH])\s*([0-9]{1,2}|元)\s*[年./]\s*([0-9]{1,2})\s*[月./]\s*([0-9]{1,2})"#)
    /// An era with one of its two characters misread (`令基8年`, `信和8年`, `平戌31年`): the other one and `年月日` anchor it.
    static let eraMisread = make(#"(令\s*\S|\S\s*和|平\s*\S|\S\s*成)\s*([0-9]{1,2}|元)\s*年\s*([0-9]{1,2})\s*月\s*([0-9]{1,2})\s*日"#)
    /// Year first with one separator lost or read as a space (`2026 08-16`, `2026.08 16`).
    static let yearFirstLoose = make(#"(?<![0-9])(20[0-9]{2})\s*[-./ ]\s*([0-9]{1,2})\s*[-./ ]\s*([0-9]{1,2})(?![0-9:])"#)
    /// `2026년 6월 8일` with `년` and `일` misread while `월` was read, which anchors it: `년` as one other
    /// character or as one or two digits before a space (`20264 6 월 8S`, `202614 1월 192!`), `일` as a digit
    /// after the day (`192!`: three digits, the day is the first two). Digits run straight into the month
    /// (`202611월20`) are the month's, not a misread `년`.
    static let koreanMonthAnchored = make(#"(?<![0-9])(20[0-9]{2})(?:[^\s0-9]|[0-9]{1,2}(?=\s))?\s*([0-9]{1,2})\s*월\s*([0-9]{1,3})(?![0-9])"#)
    /// `2026년 6월 8일 15:31` with all three units misread (`202614 6A 8일 15:31`, `20264 99 29 11:58`): the
    /// year's first four digits, then two tokens before the clock time whose last character was the unit.
    static let garbledUnits = make(#"(?<![0-9])(20[0-9]{2})[0-9A-Za-z]{0,2}\s+([0-9]{1,2}\S?)\s+([0-9]{1,2}\S?)\s+[0-9]{1,2}:[0-9]{2}"#)
    static let bracketedWeekday = make(#"[(\[]\s*([월화수목금토일月火水木金土日])(?:요일|曜日?)?\s*[)\]]"#)
    static let latinWeekday = make(#"\b(mon|tue|tues|wed|thu|thur|thurs|fri|sat|sun|monday|tuesday|wednesday|thursday|friday|saturday|sunday)\b\.?"#)
    static let monthName = make(#"\b(jan|feb|mar|apr|may|jun|jul|aug|sep|sept|oct|nov|dec)[a-z]*\.?\s+([0-9]{1,2})(?:st|nd|rd|th)?,?\s+([0-9]{4})(?![0-9])"#)
    static let dayMonthName = make(#"(?<![0-9])([0-9]{1,2})(?:st|nd|rd|th)?[\s-]+(jan|feb|mar|apr|may|jun|jul|aug|sep|sept|oct|nov|dec)[a-z]*\.?,?[\s-]+([0-9]{4})(?![0-9])"#)
    static let yearLast = make(#"(?<![0-9])([0-9]{1,2})\s*([-./])\s*([0-9]{1,2})\s*\2\s*([0-9]{4})(?![0-9])"#)
    /// American month/day/two-digit year with one-digit parts: `1/5/26`, `11-2-26`.
    static let usShortYear = make(#"(?<![0-9.,/-])([0-9]{1,2})([-/.])([0-9]{1,2})\2([0-9]{2})(?![0-9.,/-])"#)
    static let shortYear = make(#"(?<![0-9.,/-])([0-9]{2})([-./])([0-9]{1,2})\2([0-9]{1,2})(?![0-9.,/-])"#)

    static let meridiemFirst = make(#"(오전|오후|午前|午後|\bam\b|\bpm\b)\s*([0-9]{1,2})\s*[:時시]\s*([0-9]{1,2})"#)
    static let clock = make(#"(?<![0-9])([0-9]{1,2}):([0-9]{2})(?::([0-9]{2}))?(?![0-9])(?:\s*([ap]\.?[mny]\.?)(?![a-z]))?"#)
    static let cjkClock = make(#"(?<![0-9])([0-9]{1,2})\s*[時시]\s*([0-9]{1,2})\s*[分분]"#)

    /// English receipts in these currencies write day/month (`20/11/2026`); in the others (`$`) month/day.
    static let dayFirstCurrencies: Set<String> = ["GBP", "EUR", "AUD", "NZD", "INR", "ZAR", "SGD", "HKD", "MYR", "NGN", "KES", "PKR"]
    /// A look-alike letter between or beside digits (`2O26/1O/31`, `l1/20/26`), read as the digit it stands for.
    static let digitLookalike = make(#"(?<=[0-9])[Oo](?=[0-9./:-])|(?<=[0-9./:-])[Oo](?=[0-9])|(?<=[0-9])[lI|](?=[0-9./:-])|(?<=[0-9./:-])[lI|](?=[0-9])"#, ignoringCase: false)

    static let months = ["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"]

    /// Each match's groups (nil for a group that did not take part).
    static func matches(_ regex: NSRegularExpression, in text: String) -> [[String?]] {
        let ns = text as NSString
        return regex.matches(in: text, range: NSRange(location: 0, length: ns.length)).map { m in
            (0..<m.numberOfRanges).map { g in
                let r = m.range(at: g)
                return r.location == NSNotFound ? nil : ns.substring(with: r)
            }
        }
    }
}

extension ReceiptReading {
    /// Every date reading on a line, in the order of the rules; `language` settles `03/04/2026`.
    /// `dayFirst`: an English receipt in a day-first country's currency; `orderSettled`: its currency was printed,
    /// so `03/04/2026` is no longer ambiguous.
    static func dateReadings(_ line: ScannedLine, language: ReceiptLanguage, dayFirst: Bool = false, orderSettled: Bool = false) -> [DateReading] {
        typealias P = ReceiptPatterns
        var text = line.normalized
        for _ in 0..<2 {
            let ns = text as NSString
            for m in P.digitLookalike.matches(in: text, range: NSRange(location: 0, length: ns.length)).reversed() {
                let c = ns.substring(with: m.range)
                text = (text as NSString).replacingCharacters(in: m.range, with: c == "O" || c == "o" ? "0" : "1")
            }
        }
        var found: [DateReading] = []
        for g in P.matches(P.yearFirst, in: text) {
            if let y = Int(g[1] ?? ""), let m = Int(g[3] ?? ""), let d = Int(g[4] ?? "") {
                found.append(DateReading(year: y, month: m, day: d, read: g[0] ?? "", certainty: 1.0))
            }
        }
        for g in P.matches(P.cjkYearFirst, in: text) {
            if let y = Int(g[1] ?? ""), let m = Int(g[2] ?? ""), let d = Int(g[3] ?? "") {
                let year = y < 100 ? 2000 + y : y
                found.append(DateReading(year: year, month: m, day: d, read: g[0] ?? "", certainty: y < 100 ? 0.9 : 1.0))
            }
        }
        if found.isEmpty {
            // One separator at least: `2026 12 31` is no date.
            for g in P.matches(P.yearFirstLoose, in: text) where (g[0] ?? "").contains(where: { "-./".contains($0) }) {
                if let y = Int(g[1] ?? ""), let m = Int(g[2] ?? ""), let d = Int(g[3] ?? "") {
                    found.append(DateReading(year: y, month: m, day: d, read: g[0] ?? "", certainty: 0.8))
                }
            }
        }
        if found.isEmpty {
            for g in P.matches(P.koreanMonthAnchored, in: text) {
                let dayDigits = g[3] ?? ""
                if let y = Int(g[1] ?? ""), let m = Int(g[2] ?? ""), let d = Int(dayDigits.count == 3 ? String(dayDigits.prefix(2)) : dayDigits) {
                    found.append(DateReading(year: y, month: m, day: d, read: g[0] ?? "", certainty: 0.7))
                }
            }
        }
        if found.isEmpty && language != .english {
            // A token that ends in its unit (월, 일, 月, 日) loses it; one whose unit was read as another
            // character (a digit or a letter) loses that last character; one digit alone stays.
            func value(_ token: String) -> Int? {
                var t = Substring(token)
                if let last = t.last, "월일月日".contains(last) { t = t.dropLast() } else if t.count >= 2 { t = t.dropLast() }
                return Int(t)
            }
            for g in P.matches(P.garbledUnits, in: text) {
                if let y = Int(g[1] ?? ""), let m = value(g[2] ?? ""), let d = value(g[3] ?? "") {
                    found.append(DateReading(year: y, month: m, day: d, read: g[0] ?? "", certainty: 0.6))
                }
            }
        }
        for g in P.matches(P.era, in: text) {
            // Reiwa 1 is 2019, Heisei 1 is 1989; `元` is the first year.
            let base = (g[1]?.hasPrefix("令") == true || g[1]?.uppercased() == "R") ? 2018 : 1988
            let n = g[2] == "元" ? 1 : Int(g[2] ?? "")
            if let n, let m = Int(g[3] ?? ""), let d = Int(g[4] ?? "") {
                found.append(DateReading(year: base + n, month: m, day: d, read: g[0] ?? "", certainty: 1.0))
            }
        }
        if found.isEmpty {
            for g in P.matches(P.eraMisread, in: text) where !(g[1] ?? "").hasPrefix("令和") && !(g[1] ?? "").hasPrefix("平成") {
                let base = (g[1] ?? "").contains("令") || (g[1] ?? "").contains("和") ? 2018 : 1988
                let n = g[2] == "元" ? 1 : Int(g[2] ?? "")
                if let n, let m = Int(g[3] ?? ""), let d = Int(g[4] ?? "") {
                    found.append(DateReading(year: base + n, month: m, day: d, read: g[0] ?? "", certainty: 0.8))
                }
            }
        }
        for g in P.matches(P.monthName, in: text) {
            if let name = g[1]?.lowercased().prefix(3), let m = P.months.firstIndex(of: String(name)), let d = Int(g[2] ?? ""), let y = Int(g[3] ?? "") {
                found.append(DateReading(year: y, month: m + 1, day: d, read: g[0] ?? "", certainty: 1.0))
            }
        }
        for g in P.matches(P.dayMonthName, in: text) {
            if let name = g[2]?.lowercased().prefix(3), let m = P.months.firstIndex(of: String(name)), let d = Int(g[1] ?? ""), let y = Int(g[3] ?? "") {
                found.append(DateReading(year: y, month: m + 1, day: d, read: g[0] ?? "", certainty: 1.0))
            }
        }
        for g in P.matches(P.yearLast, in: text) {
            guard let a = Int(g[1] ?? ""), let b = Int(g[3] ?? ""), let y = Int(g[4] ?? "") else { continue }
            let read = g[0] ?? ""
            if a > 12 && b <= 12 {
                found.append(DateReading(year: y, month: b, day: a, read: read, certainty: 0.95))
            } else if b > 12 && a <= 12 {
                found.append(DateReading(year: y, month: a, day: b, read: read, certainty: 0.95))
            } else {
                // Both could be the month: American English writes month/day, the others (and `£`, `€` receipts) day/month.
                let monthFirst = language == .english && !dayFirst
                found.append(DateReading(year: y, month: monthFirst ? a : b, day: monthFirst ? b : a, read: read,
                                         certainty: a == b ? 0.95 : orderSettled ? 0.9 : 0.7, ambiguous: a != b && !orderSettled))
            }
        }
        for g in P.matches(P.shortYear, in: text) {
            guard let a = Int(g[1] ?? ""), let b = Int(g[3] ?? ""), let c = Int(g[4] ?? "") else { continue }
            // `26-11-20` is year first in Korea and Japan; English receipts write `11/20/26` (or `20/11/26`).
            if language == .english, dayFirst, b <= 12, a <= 31 {
                found.append(DateReading(year: 2000 + c, month: b, day: a, read: g[0] ?? "", certainty: 0.8))
            } else if language == .english, a <= 12 {
                found.append(DateReading(year: 2000 + c, month: a, day: b, read: g[0] ?? "", certainty: 0.8))
            } else if language == .english, b <= 12 {
                found.append(DateReading(year: 2000 + c, month: b, day: a, read: g[0] ?? "", certainty: 0.8))
            }
            found.append(DateReading(year: 2000 + a, month: b, day: c, read: g[0] ?? "", certainty: 0.8))
        }
        if language == .english {
            // `1/5/26`: one-digit month or day, which the year-first shape above cannot be.
            for g in P.matches(P.usShortYear, in: text) where (g[1]?.count ?? 0) == 1 || (g[3]?.count ?? 0) == 1 {
                guard let a = Int(g[1] ?? ""), let b = Int(g[3] ?? ""), let c = Int(g[4] ?? "") else { continue }
                if dayFirst, b <= 12 {
                    found.append(DateReading(year: 2000 + c, month: b, day: a, read: g[0] ?? "", certainty: 0.8))
                } else if a <= 12 {
                    found.append(DateReading(year: 2000 + c, month: a, day: b, read: g[0] ?? "", certainty: 0.8))
                } else if b <= 12 {
                    found.append(DateReading(year: 2000 + c, month: b, day: a, read: g[0] ?? "", certainty: 0.8))
                }
            }
        }
        return found
    }

    /// The first date that is a real day from a year before today to tomorrow (time zones); without one, the
    /// first real day since 2000 in the future or further back, proposed but asked about (unsure, note
    /// `dateAsked`); then the time on the date's line, or else the first time anywhere.
    static func readDateAndTime(_ lines: [ScannedLine], language: ReceiptLanguage, dayFirst: Bool = false, orderSettled: Bool = false, today: LocalDate,
                                notes: inout [ReceiptNote]) -> (ReceiptField<LocalDate>?, ReceiptField<ReceiptTime>?) {
        var date: ReceiptField<LocalDate>?
        var dateLine: Int?
        var asked: (field: ReceiptField<LocalDate>, line: Int, note: ReceiptNote, certainty: Double, reading: DateReading)?
        var rejected: [ReceiptNote] = []
        search: for (i, line) in lines.enumerated() {
            for reading in dateReadings(line, language: language, dayFirst: dayFirst, orderSettled: orderSettled) {
                guard let day = LocalDate(year: reading.year, month: reading.month, day: reading.day) else {
                    rejected.append(.dateRejected(read: reading.read, reason: .noSuchDay)); continue
                }
                if day.year < 2000 { rejected.append(.dateRejected(read: reading.read, reason: .tooOld)); continue }
                let reason: ReceiptDateRejection? = day > today.adding(days: 1) ? .future : day < today.adding(days: -400) ? .longAgo : nil
                if let reason {
                    rejected.append(.dateRejected(read: reading.read, reason: reason))
                    // Of several, the surest shape (`平成31年` is 2019, not a two-digit 2031), the first among equals.
                    if reading.certainty > asked?.certainty ?? 0 {
                        asked = (line.field(day, certainty: reading.certainty * 0.5, unsure: true), i, .dateAsked(read: reading.read, date: day, reason: reason),
                                 reading.certainty, reading)
                    }
                    continue
                }
                if reading.ambiguous { notes.append(.ambiguousDate(read: reading.read, chose: day, because: language)) }
                // A date on a line OCR read at under 60 is often a digit off (`2026-06-19` for 06-12 on a blurred photo): asked about.
                date = line.field(day, certainty: reading.certainty, unsure: reading.ambiguous || reading.certainty < 0.7 || line.confidence < Self.doubtfulDateLine)
                dateLine = i
                break search
            }
        }
        if date == nil, asked == nil, let (i, day) = repairedYearFirstDate(lines, today: today) {
            // Blurred print's digits read as their look-alikes (`2626.18.14` for 2026.10.14): asked about, never silent.
            // A real day in the future or long ago is asked about as read (an expiry date is no misread one).
            date = lines[i].field(day, certainty: 0.5, unsure: true)
            dateLine = i
            notes += rejected
        } else if date == nil, let asked, abs(asked.reading.year - today.year) > 2,
                  let day = lookalikeRepair(year: String(asked.reading.year), month: String(asked.reading.month), day: String(asked.reading.day),
                                            today: today, weekday: printedWeekday(lines[asked.line])) {
            // A year no receipt has (`2626年8月28日(金)`: blurred print's 0 read as 6) whose look-alike digits make one day of
            // the last 400 (the printed weekday's, when there is one): that day, asked about.
            date = lines[asked.line].field(day, certainty: 0.5, unsure: true)
            dateLine = asked.line
            notes += rejected
        } else if date == nil, let asked {
            date = asked.field
            dateLine = asked.line
            notes += rejected.filter { if case .dateRejected(let read, _) = $0, case .dateAsked(let askedRead, _, _) = asked.note { read != askedRead } else { true } }
            notes.append(asked.note)
        } else {
            notes += rejected
        }
        // A weekday printed beside the date that is not the date's (`2026年4月5日(水)`: the 5th is a Sunday, the 15th a
        // Wednesday: a digit lost): the date is asked about.
        if var d = date, let i = dateLine, let printed = printedWeekday(lines[i]), printed != d.value.isoWeekday {
            d.unsure = true
            date = d
        }
        var time: ReceiptField<ReceiptTime>?
        let order = dateLine.map { first in [first] + lines.indices.filter { $0 != first } } ?? Array(lines.indices)
        for i in order {
            if let t = readTime(lines[i]) { time = lines[i].field(t, certainty: 0.9); break }
        }
        return (date, time)
    }

    /// The weekday a date line prints (ISO, 1 = Monday): `(토)`, `(土)`, `（水）`, `Sat`, `SATURDAY`; nil without one.
    /// Korean and Japanese weekdays only in brackets (`일` and `日` also end the date itself).
    static func printedWeekday(_ line: ScannedLine) -> Int? {
        let cjk: [Character: Int] = ["월": 1, "화": 2, "수": 3, "목": 4, "금": 5, "토": 6, "일": 7,
                                     "月": 1, "火": 2, "水": 3, "木": 4, "金": 5, "土": 6, "日": 7]
        if let g = ReceiptPatterns.matches(ReceiptPatterns.bracketedWeekday, in: line.normalized).first, let w = g[1]?.first { return cjk[w] }
        if let g = ReceiptPatterns.matches(ReceiptPatterns.latinWeekday, in: line.normalized).first, let w = g[1]?.lowercased() {
            return ["mon": 1, "tue": 2, "wed": 3, "thu": 4, "fri": 5, "sat": 6, "sun": 7][String(w.prefix(3))]
        }
        return nil
    }

    /// The line confidence under which a date read on it is asked about.
    static let doubtfulDateLine = 60.0

    /// A year-first date (`2626.18.14`, one separator throughout) that is no day at all as read, but is
    /// exactly one when one or two of its digits are taken for the digits blurred print turns them into (0, 6, 8 and
    /// 9; 3 and 8; 5 and 6; 1 and 7): the first line with such a date, and the day. Two days as near: none.
    static func repairedYearFirstDate(_ lines: [ScannedLine], today: LocalDate) -> (Int, LocalDate)? {
        let lookalikes: [Character: String] = ["0": "689", "6": "058", "8": "0369", "9": "08", "3": "8", "5": "6", "1": "7", "7": "1"]
        let earliest = today.adding(days: -400), latest = today.adding(days: 1)
        for (i, line) in lines.enumerated() {
            for g in ReceiptPatterns.matches(ReceiptPatterns.anyYearFirst, in: line.normalized) {
                guard let y = g[1], let m = g[3], let d = g[4] else { continue }
                let digits = Array(y + m + d)
                func day(_ ds: [Character]) -> LocalDate? {
                    let n = ds.map(String.init)
                    guard let year = Int(n[0..<4].joined()), let month = Int(n[4..<(4 + m.count)].joined()), let dd = Int(n[(4 + m.count)...].joined()),
                          let date = LocalDate(year: year, month: month, day: dd), date >= earliest, date <= latest else { return nil }
                    return date
                }
                if day(digits) != nil { continue }  // read as a day already: not this rule's
                if let only = lookalikeRepair(year: y, month: m, day: d, today: today, weekday: printedWeekday(line)) { return (i, only) }
            }
        }
        return nil
    }

    /// The one day from a year (400 days) before `today` to the day after that the digits make when one or two of them
    /// are taken for the digits blurred print turns them into (0, 6, 8 and 9; 3 and 8; 5 and 6; 1 and 7), fewest changes
    /// first; with a printed weekday, only days on that weekday count (none on it: any day, as when none is printed).
    /// Two days as near: nil.
    static func lookalikeRepair(year: String, month: String, day: String, today: LocalDate, weekday: Int?) -> LocalDate? {
        if let weekday, let found = lookalikeRepair(year: year, month: month, day: day, today: today, only: weekday) { return found }
        return lookalikeRepair(year: year, month: month, day: day, today: today, only: nil)
    }

    static func lookalikeRepair(year: String, month: String, day: String, today: LocalDate, only weekday: Int?) -> LocalDate? {
        let lookalikes: [Character: String] = ["0": "689", "6": "058", "8": "0369", "9": "08", "3": "8", "5": "6", "1": "7", "7": "1"]
        let earliest = today.adding(days: -400), latest = today.adding(days: 1)
        let digits = Array(year + month + day)
        guard year.count == 4, digits.allSatisfy({ $0.asciiDigit != nil }) else { return nil }
        func date(_ ds: [Character]) -> LocalDate? {
            let n = ds.map(String.init)
            guard let y = Int(n[0..<4].joined()), let m = Int(n[4..<(4 + month.count)].joined()), let dd = Int(n[(4 + month.count)...].joined()),
                  let found = LocalDate(year: y, month: m, day: dd), found >= earliest, found <= latest, weekday.map({ found.isoWeekday == $0 }) ?? true
            else { return nil }
            return found
        }
        for changes in 1...2 {
            var found = Set<LocalDate>()
            func vary(_ ds: [Character], from: Int, left: Int) {
                if left == 0 { if let d = date(ds) { found.insert(d) }; return }
                for k in from..<ds.count { for c in lookalikes[ds[k]] ?? "" { var t = ds; t[k] = c; vary(t, from: k + 1, left: left - 1) } }
            }
            vary(digits, from: 0, left: changes)
            if found.count == 1 { return found.first }
            if found.count > 1 { return nil }
        }
        return nil
    }

    /// The first time on a line: `14:32`, `14:32:05`, `오후 2:32`, `午後2時32分`, `2:32 PM`.
    static func readTime(_ line: ScannedLine) -> ReceiptTime? {
        typealias P = ReceiptPatterns
        let text = line.normalized
        func make(_ h: Int, _ m: Int, meridiem: String?) -> ReceiptTime? {
            guard (0...59).contains(m) else { return nil }
            guard let meridiem = meridiem?.lowercased().replacingOccurrences(of: ".", with: "") else {
                return (0...23).contains(h) ? ReceiptTime(hour: h, minute: m) : nil
            }
            guard (0...12).contains(h) else { return nil }
            // OCR reads the M of PM as N or Y now and then (`1:53 py`).
            let pm = ["오후", "午後"].contains(meridiem) || meridiem.hasPrefix("p")
            return ReceiptTime(hour: pm ? (h % 12) + 12 : h % 12, minute: m)
        }
        for g in P.matches(P.meridiemFirst, in: text) {
            if let h = Int(g[2] ?? ""), let m = Int(g[3] ?? ""), let t = make(h, m, meridiem: g[1]) { return t }
        }
        for g in P.matches(P.cjkClock, in: text) {
            if let h = Int(g[1] ?? ""), let m = Int(g[2] ?? ""), let t = make(h, m, meridiem: nil) { return t }
        }
        for g in P.matches(P.clock, in: text) {
            if let h = Int(g[1] ?? ""), let m = Int(g[2] ?? ""), let t = make(h, m, meridiem: g[4]) { return t }
        }
        return nil
    }

    /// The first date reading on a line, checked or not: enough to tell a line is a date line.
    static func firstDate(_ line: ScannedLine) -> DateReading? {
        dateReadings(line, language: .korean).first
    }
}
