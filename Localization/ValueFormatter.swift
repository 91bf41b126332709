import Foundation
import Synchronization
import PetModel

/// Masses, money, dates and ages written the way one language and unit system reads them.
public struct ValueFormatter: Sendable {
    public let l10n: L10n
    public let unitSystem: UnitSystem

    public init(_ l10n: L10n, unitSystem: UnitSystem) {
        self.l10n = l10n
        self.unitSystem = unitSystem
    }

    /// `850 g`, `4.25 kg`, `3.60 kg`, `120.50 kg`; imperial: `9.37 lb`, `12.3 oz` under a pound.
    /// One precision per unit everywhere (README, Decisions, "words"): kg and lb with two decimals,
    /// oz with one, g whole, trailing zeros kept, so `3.60 kg` stands beside `3.61 kg` (not `3.6 kg`).
    public func mass(_ m: Mass) -> String {
        switch unitSystem {
        case .metric:
            if m.grams < 1000 { return "\(m.grams) g" }
            return Self.massNumber(m.kilograms, unit: "kg") + " kg"
        case .imperial:
            if m.pounds < 1 {
                let oz = Self.massNumber(Double(m.grams) / 28.349523125, unit: "oz")
                // Under a twentieth of an ounce (1 g) the ounce's one decimal would say 0.0: such a mass is shown in grams.
                return Double(oz) == 0 ? "\(m.grams) g" : oz + " oz"
            }
            return Self.massNumber(m.pounds, unit: "lb") + " lb"
        }
    }

    /// The decimals a mass in `unit` is shown with: kg and lb 2, oz 1, g 0.
    public static func massDigits(unit: String) -> Int {
        switch unit {
        case "kg", "lb": 2
        case "oz": 1
        default: 0
        }
    }

    /// A mass's number in `unit` at that unit's one precision (`3.60` for kg): masses in tables, the
    /// text chart's range line and warnings all go through it.
    public static func massNumber(_ value: Double, unit: String) -> String {
        fixed(value, digits: massDigits(unit: unit))
    }

    /// A number with exactly `digits` decimals (`3.60`); `-0.00` is `0.00`.
    public static func fixed(_ v: Double, digits: Int) -> String {
        var text = trim(v, digits: digits)
        guard digits > 0 else { return text }
        if !text.contains(".") { text += "." }
        let have = text.count - 1 - (text.lastIndex(of: ".").map { text.distance(from: text.startIndex, to: $0) } ?? 0)
        return text + String(repeating: "0", count: max(0, digits - have))
    }

    /// A change with its sign as shown at `digits` decimals: `+1.5`, `−3`, and `±0` whenever it shows as
    /// zero at that precision (never `+0`, `−0` or `Δ −0`). Every change petlog prints (stats deltas,
    /// weight changes, money changes) says "no change" with this one `±0`.
    public static func signedChange(_ v: Double, digits: Int) -> String {
        let text = trim(abs(v), digits: digits)
        if isZero(text) { return noChange }
        return (v > 0 ? "+" : "−") + text
    }

    /// `+12%`, `−3%`, `±0%`.
    public static func signedPercent(_ p: Int) -> String { signedChange(Double(p), digits: 0) + "%" }

    /// What a change of nothing reads as.
    public static let noChange = "±0"

    /// Whether a shown number has no non-zero digit (`0`, `0.0`, `-0`).
    static func isZero(_ text: String) -> Bool { !text.contains { ("1"..."9").contains($0) } }

    /// `+120 g (+2.9 %)`, `−1.2 kg (−8 %)`, or `±0` for no change; the magnitude is at least a gram so a
    /// change never reads as nothing.
    public func massChange(_ c: MassChange) -> String {
        if c.grams == 0 { return Self.noChange }
        // One minus sign (U+2212); a percentage that rounds to zero has no sign.
        let percent = Self.trim(abs(c.percent), digits: 1)
        let sign = percent == "0" ? "" : c.percent > 0 ? "+" : "−"
        return (c.grams > 0 ? "+" : "−") + mass(Mass(grams: max(1, abs(c.grams)))) + " (" + sign + percent + " %)"
    }

    /// A length of time in the largest whole unit from the tables: 720 min → "12 h", "12시간", "12時間";
    /// 14 days → "2 wk". Used for symptom durations, medication intervals and chart smoothing windows.
    public func duration(seconds: Int) -> String { duration(minutes: seconds / 60) }

    /// The same from minutes (a symptom's stored duration), for any stored value: nothing is multiplied.
    public func duration(minutes: Int) -> String {
        if minutes > 0, minutes % (7 * 1440) == 0 { return l10n.text(.unitWeeks(n: String(minutes / (7 * 1440)))) }
        if minutes > 0, minutes % 1440 == 0 { return l10n.text(.unitDays(n: String(minutes / 1440))) }
        if minutes > 0, minutes % 60 == 0 { return l10n.text(.unitHours(n: String(minutes / 60))) }
        return l10n.text(.unitMinutes(n: String(minutes)))
    }

    /// A span typed as `--smooth 7d`, `2w`, `12h` as the language says it: a week is said in days
    /// ("7일", "7日", "7 d"), two weeks and more in whole weeks ("2주"), hours and minutes as `duration`.
    public func span(_ s: Span) -> String {
        switch s {
        case .days(let d) where d >= 14 && d % 7 == 0: return l10n.text(.unitWeeks(n: String(d / 7)))
        case .days(let d): return l10n.text(.unitDays(n: String(d)))
        case .seconds(let seconds): return duration(seconds: seconds)
        case .months(let m): return l10n.text(.unitDays(n: String(m.multipliedReportingOverflow(by: 30).partialValue)))
        }
    }

    /// A number with at most `digits` decimals and no trailing zeros.
    /// An integer with its thousands grouped (868,890), by Foundation's number format; en, ko and ja
    /// all group by three with a comma.
    public static func grouped(_ n: Int64) -> String {
        n.formatted(.number.grouping(.automatic).locale(groupingLocale))
    }

    /// A count as every line petlog prints shows one: grouped (2,028), so "Exported 2,028 records" stands
    /// beside "Imported 2,028 records".
    public static func count<N: BinaryInteger>(_ n: N) -> String { grouped(Int64(n)) }

    static let groupingLocale = Locale(identifier: "en_US")

    public static func trim(_ v: Double, digits: Int) -> String {
        // By integers where they are exact (every mass and percent petlog shows): `String(format:)` costs
        // a C formatter call per number, and a list shows thousands.
        if (0...6).contains(digits), v.isFinite {
            var scale = 1.0
            for _ in 0..<digits { scale *= 10 }
            let scaled = (abs(v) * scale).rounded(.toNearestOrEven)
            if scaled < 9e15, (abs(v) * scale - scaled).magnitude != 0.5 {
                let n = Int64(scaled), p = Int64(scale)
                var text = String(n / p)
                var fraction = digits > 0 ? String(n % p) : ""
                if digits > 0 { fraction = String(repeating: "0", count: digits - fraction.count) + fraction }
                while fraction.hasSuffix("0") { fraction.removeLast() }
                if !fraction.isEmpty { text += "." + fraction }
                return (v < 0 && n != 0 ? "-" : "") + text
            }
        }
        var s = String(format: "%.\(digits)f", v)
        if s.contains(".") {
            while s.hasSuffix("0") { s.removeLast() }
            if s.hasSuffix(".") { s.removeLast() }
        }
        return s
    }

    /// An amount as the language writes it (README, Decisions: "Money display"): CLDR's currency
    /// format for en_US, ko_KR or ja_JP through Foundation (`$12.50`, `₩85,000`, `€12.50`; Korean
    /// `US$12.50`, `JP¥1,200`; `CHF 12.50` with a no-break space), except the home currency in Korean
    /// and Japanese, which receipts and apps write with the word after the number: `85,000원`,
    /// `1,200円` (CLDR's standard pattern would give `₩85,000` and `¥1,200`). A negative amount (a
    /// budget's "left" when over) takes U+2212 `−` before everything.
    /// Exact for every Int64: the minor units become a Decimal (never a Double) and are shown with as
    /// many fraction digits as the currency has, so nothing is rounded.
    public func money(_ m: Money) -> String {
        (m.minorUnits < 0 ? "−" : "") + amount(m.minorUnits.magnitude, m.currency)
    }

    /// A chart's axis or bar label for `major` units of `currency` (a tick or a total, already a Double):
    /// short, grouped by thousands, and **cut, never rounded** (as the spending calendar), so a label never
    /// says more than was spent. Korean and Japanese count in ten-thousands: `45만원`, `2.3万円` (23,708
    /// yen), `1.2억원`; English in thousands: `$45k`, `$1.2M`. Below 10,000 the grouped amount: `6,600원`,
    /// `$2,000`, `$12.5`. The home currency in Korean (KRW) and Japanese (JPY) takes its word after the
    /// number, as `money` does; other currencies the symbol `money` gives them in the language (`US$` in
    /// Korean), so that an axis and a legend name one currency alike.
    public func chartMoney(_ major: Double, _ currency: Currency) -> String {
        guard major.isFinite else { return "" }
        var scale: Double = 1
        for _ in 0..<currency.minorDigits { scale *= 10 }
        // The exact minor units the Double stands for (a tick like 0.3 is 0.29999…), then integer cuts.
        let minor = (abs(major) * scale).rounded()
        guard minor < 9.0e18 else { return "" }
        let m = UInt64(minor), unit = UInt64(scale)
        let whole = m / unit
        let sign = major < 0 && m > 0 ? "−" : ""
        // The symbol or word `money` writes in this language (`US$` in Korean, `원` after the number), so an
        // axis says what the legend and the totals say.
        let (prefix, suffix) = moneyAffixes(currency)
        let steps: [(UInt64, String)] = switch l10n.language {
        case .ko: [(1_000_000_000_000, "조"), (100_000_000, "억"), (10_000, "만")]
        case .ja: [(1_000_000_000_000, "兆"), (100_000_000, "億"), (10_000, "万")]
        case .en: [(1_000_000_000_000, "T"), (1_000_000_000, "B"), (1_000_000, "M"), (10_000, "k")]
        }
        var number: String
        if let (size, suffix) = steps.first(where: { whole >= $0.0 }) {
            // `k` counts thousands from 10,000 up (`$45k`); every other step counts itself.
            let divisor = suffix == "k" ? 1_000 : size
            let count = whole / divisor
            let tenth = (whole % divisor) / (divisor / 10)
            number = CompactMoney.grouped(count) + (count < 100 && tenth > 0 ? "." + String(tenth) : "") + suffix
        } else {
            number = CompactMoney.grouped(whole)
            let fraction = m % unit
            if fraction > 0 {
                var digits = String(fraction)
                digits = String(repeating: "0", count: currency.minorDigits - digits.count) + digits
                while digits.hasSuffix("0") { digits.removeLast() }
                number += "." + digits
            }
        }
        return sign + prefix + number + suffix
    }

    /// What `money` writes before and after the digits of an amount of `currency` in this language:
    /// (`$`, ``), (`US$`, ``), (``, `원`), (`CHF\u{A0}`, ``).
    func moneyAffixes(_ currency: Currency) -> (prefix: String, suffix: String) {
        var unit: UInt64 = 1
        for _ in 0..<max(0, min(currency.minorDigits, 6)) { unit *= 10 }
        let text = amount(5 * unit, currency)
        guard let first = text.firstIndex(where: \.isNumber), let last = text.lastIndex(where: \.isNumber) else {
            return (currency.symbol ?? "", "")
        }
        return (String(text[..<first]), String(text[text.index(after: last)...]))
    }

    /// `+85,000원`, `−$12.50`, or `±0`: the change from `earlier` to `later` minor units. The difference
    /// of two Int64 always fits a UInt64, so even `.min` to `.max` is shown exactly.
    public func moneyChange(from earlier: Int64, to later: Int64, _ currency: Currency) -> String {
        if earlier == later { return Self.noChange }
        let up = later > earlier
        let magnitude = up ? UInt64(bitPattern: later &- earlier) : UInt64(bitPattern: earlier &- later)
        return (up ? "+" : "−") + amount(magnitude, currency)
    }

    /// The locale whose CLDR data writes money for each language.
    var moneyLocale: Locale {
        switch l10n.language {
        case .en: return Locale(identifier: "en_US")
        case .ko: return Locale(identifier: "ko_KR")
        case .ja: return Locale(identifier: "ja_JP")
        }
    }

    /// The word written after the number instead of CLDR's symbol: the won in Korean, the yen in Japanese.
    var homeCurrencyWord: (code: String, word: String) {
        switch l10n.language {
        case .en: return ("", "")
        case .ko: return ("KRW", "원")
        case .ja: return ("JPY", "円")
        }
    }

    /// A non-negative amount of `magnitude` minor units, unsigned.
    func amount(_ magnitude: UInt64, _ currency: Currency) -> String {
        let key = "\(l10n.language.rawValue) \(currency.code) \(currency.minorDigits)"
        if let pattern = Self.patterns.withLock({ $0[key] }) ?? learnPattern(currency, key: key) {
            return pattern.format(magnitude)
        }
        return foundationAmount(magnitude, currency)
    }

    /// Foundation's CLDR formatting of one amount (exact: a Decimal built from the integer).
    func foundationAmount(_ magnitude: UInt64, _ currency: Currency) -> String {
        let digits = max(0, currency.minorDigits)
        let value = Decimal(sign: .plus, exponent: -digits, significand: Decimal(magnitude))
        let home = homeCurrencyWord
        if currency.code == home.code {
            return value.formatted(.number.grouping(.automatic).precision(.fractionLength(digits)).locale(moneyLocale)) + home.word
        }
        return value.formatted(.currency(code: currency.code).grouping(.automatic).precision(.fractionLength(digits)).locale(moneyLocale))
    }

    /// How Foundation writes a currency in a language, learned once from one sample: what comes before and
    /// after the digits, the grouping and decimal separators. A pattern is kept only when it reproduces
    /// Foundation's own result for two samples, so every amount reads exactly as Foundation writes it,
    /// without a formatter per amount (a list of a thousand expenses formats a thousand times).
    struct MoneyPattern: Sendable {
        var prefix: String, suffix: String, group: String, decimal: String, digits: Int
        /// Its parts in one line, for the tests to compare.
        var text: String { "\(prefix)|\(group)|\(decimal)|\(suffix)|\(digits)" }

        func format(_ magnitude: UInt64) -> String {
            var divisor: UInt64 = 1
            for _ in 0..<digits { divisor *= 10 }
            let whole = String(magnitude / divisor)
            var grouped = ""
            for (i, c) in whole.enumerated() {
                if i > 0 && (whole.count - i) % 3 == 0 { grouped += group }
                grouped.append(c)
            }
            var out = prefix + grouped
            if digits > 0 {
                let fraction = String(magnitude % divisor)
                out += decimal + String(repeating: "0", count: digits - fraction.count) + fraction
            }
            return out + suffix
        }
    }

    /// What `learnPattern` learns for the home currencies of the three languages and the euro, known from the start:
    /// learning asks Foundation's formatter three times, and its first use loads CLDR's data, a twentieth of `stats`
    /// (issue 44). `MoneyPatternTests` checks every amount they write against Foundation's own.
    static let knownPatterns: [String: MoneyPattern] = {
        var known: [String: MoneyPattern] = [:]
        for (language, code, digits, prefix, suffix) in [
            ("en", "USD", 2, "$", ""), ("en", "KRW", 0, "₩", ""), ("en", "JPY", 0, "¥", ""), ("en", "EUR", 2, "€", ""),
            ("ko", "USD", 2, "US$", ""), ("ko", "KRW", 0, "", "원"), ("ko", "JPY", 0, "JP¥", ""), ("ko", "EUR", 2, "€", ""),
            ("ja", "USD", 2, "$", ""), ("ja", "KRW", 0, "₩", ""), ("ja", "JPY", 0, "", "円"), ("ja", "EUR", 2, "€", ""),
        ] {
            known["\(language) \(code) \(digits)"] = MoneyPattern(prefix: prefix, suffix: suffix, group: ",", decimal: digits > 0 ? "." : "", digits: digits)
        }
        return known
    }()

    static let patterns = Mutex<[String: MoneyPattern]>(knownPatterns)

    func learnPattern(_ currency: Currency, key: String) -> MoneyPattern? {
        let digits = max(0, currency.minorDigits)
        guard digits <= 6 else { return nil }
        var scale: UInt64 = 1
        for _ in 0..<digits { scale *= 10 }
        // 1234567 whole units and a fraction of 1..digits: every separator appears.
        let sample = 1_234_567 * scale + (digits > 0 ? (scale - 1) / 9 : 0)
        let text = foundationAmount(sample, currency)
        let wholeDigits = "1234567"
        guard let first = text.firstIndex(of: "1") else { return nil }
        let prefix = String(text[..<first])
        var rest = text[first...]
        // The grouping separator: whatever stands between "1" and "234".
        rest = rest.dropFirst()
        let group = String(rest.prefix { !$0.isNumber })
        var pattern = MoneyPattern(prefix: prefix, suffix: "", group: group, decimal: "", digits: digits)
        if digits > 0 {
            guard let lastSeven = text.range(of: "567") else { return nil }
            let afterWhole = text[lastSeven.upperBound...]
            pattern.decimal = String(afterWhole.prefix { !$0.isNumber })
            let fraction = afterWhole.dropFirst(pattern.decimal.count)
            pattern.suffix = String(fraction.drop { $0.isNumber })
        } else {
            guard let lastSeven = text.range(of: "567", options: .backwards) else { return nil }
            pattern.suffix = String(text[lastSeven.upperBound...])
        }
        _ = wholeDigits
        // Kept only when it writes both samples exactly as Foundation does.
        for check in [sample, 5 * scale + 7] where pattern.format(check) != foundationAmount(check, currency) { return nil }
        Self.patterns.withLock { $0[key] = pattern }
        return pattern
    }

    /// What joins a list of facts in one line (species, breed, sex, age; a record's parts): ` · ` in English
    /// and Korean, `・` with no spaces in Japanese.
    public var listSeparator: String { l10n.text(.listSeparator) }

    public func monthName(_ month: Int) -> String {
        let months: [L10n.Message] = [.monthJan, .monthFeb, .monthMar, .monthApr, .monthMay, .monthJun, .monthJul, .monthAug, .monthSep, .monthOct, .monthNov, .monthDec]
        return l10n.text(months[(month - 1 + 12) % 12])
    }

    /// Nov 20, 2026 · 2026년 11월 20일 · 2026年11月20日
    public func longDate(_ d: LocalDate) -> String {
        l10n.text(.dateLong(mon: monthName(d.month), d: String(d.day), y: String(d.year)))
    }

    /// A time of day in the language's CLDR pattern: 2:32 PM · 오후 2:32 · 14:32.
    public func clock(hour: Int, minute: Int) -> String {
        let h = ((hour % 24) + 24) % 24, m = ((minute % 60) + 60) % 60
        let mm = String(format: "%02d", m)
        // CLDR's preferred hour cycle: 12 hours in English (US) and Korean, 24 in Japanese.
        guard l10n.language != .ja else { return l10n.text(.clockTwentyFourHour(h: String(h), mm: mm)) }
        return l10n.text(.clockTwelveHour(h: String(h % 12 == 0 ? 12 : h % 12), mm: mm, ampm: l10n.text(h < 12 ? .clockAM : .clockPM)))
    }

    /// Nov 20 · 11월 20일 · 11月20日
    public func shortDay(_ d: LocalDate) -> String { l10n.text(.chartAxisDay(mon: monthName(d.month), d: String(d.day))) }

    /// Nov 2026 · 2026년 11월 · 2026年11月
    public func monthLabel(_ d: LocalDate) -> String { l10n.text(.chartAxisMonth(mon: monthName(d.month), y: String(d.year))) }

    /// Mon · 월 · 月
    public func weekday(_ day: LocalDate) -> String { weekday(iso: day.isoWeekday) }

    /// The name of ISO weekday `n`: 1 is Monday, 7 Sunday.
    public func weekday(iso n: Int) -> String {
        let keys: [L10n.Message] = [.weekdayMon, .weekdayTue, .weekdayWed, .weekdayThu, .weekdayFri, .weekdaySat, .weekdaySun]
        return l10n.text(keys[((n - 1) % 7 + 7) % 7])
    }

    /// Months under two years, then whole years; empty when unknown.
    public func age(months: Int?) -> String {
        guard let months else { return "" }
        if months < 24 { return l10n.text(.ageMonths(n: String(months))) }
        return l10n.text(.ageYears(n: String(months / 12)))
    }
}
