import XCTest
@testable import PetModel

final class TimeTests: XCTestCase {
    // Monday 2026-11-23 10:00 in Seoul (UTC+9).
    let seoul = TimeContext(now: Date(timeIntervalSince1970: 1_795_395_600), timeZone: TimeZone(identifier: "Asia/Seoul")!)

    func iso(_ d: Date, _ tz: String = "Asia/Seoul") -> String {
        let f = ISO8601DateFormatter()
        f.timeZone = TimeZone(identifier: tz)
        return f.string(from: d)
    }

    func testContextNow() {
        XCTAssertEqual(iso(seoul.now), "2026-11-23T10:00:00+09:00")
        XCTAssertEqual(seoul.today.description, "2026-11-23")
    }

    /// Issue 29: the clock as the locale shows it is read back, beside 24-hour text.
    func testTwelveHourClocksInEachLanguageAreRead() throws {
        XCTAssertEqual(iso(try TimeParser.instant("2026-11-20 2:32 PM", context: seoul)), "2026-11-20T14:32:00+09:00")
        XCTAssertEqual(iso(try TimeParser.instant("2026-11-20 12:05 am", context: seoul)), "2026-11-20T00:05:00+09:00")
        XCTAssertEqual(iso(try TimeParser.instant("2026-11-20 오후 2:32", context: seoul)), "2026-11-20T14:32:00+09:00")
        XCTAssertEqual(iso(try TimeParser.instant("2026-11-20 午前9:15", context: seoul)), "2026-11-20T09:15:00+09:00")
        XCTAssertEqual(iso(try TimeParser.instant("yesterday 6:00 pm", context: seoul)), "2026-11-22T18:00:00+09:00")
        XCTAssertEqual(iso(try TimeParser.instant("2026-11-20 14:32", context: seoul)), "2026-11-20T14:32:00+09:00")
        for bad in ["2026-11-20 13:00 pm", "2026-11-20 0:30 am", "2026-11-20 2:3 pm"] {
            XCTAssertThrowsError(try TimeParser.instant(bad, context: seoul), bad)
        }
    }

    /// Issue 29: one rule for a wall-clock time in a gap or an overlap, in any zone.
    func testAGapMovesForwardAndAnOverlapTakesTheEarlierInstant() throws {
        let chicago = TimeContext(now: Date(timeIntervalSince1970: 1_900_000_000), timeZone: TimeZone(identifier: "America/Chicago")!)
        let gap = try TimeParser.moment("2027-03-14 02:30", context: chicago)
        XCTAssertEqual(iso(gap.date, "America/Chicago"), "2027-03-14T03:30:00-05:00")
        XCTAssertEqual(gap.utcOffset, -18_000)
        let overlap = try TimeParser.moment("2027-11-07 01:30", context: chicago)
        XCTAssertEqual(iso(overlap.date, "UTC"), "2027-11-07T06:30:00Z")
        XCTAssertEqual(overlap.utcOffset, -18_000)
        let typed = try TimeParser.moment("2026-11-20T08:00:00+09:00", context: chicago)
        XCTAssertEqual(typed.utcOffset, 32_400, "the typed offset is kept")
        let local = try TimeParser.moment("2026-11-20 08:00", context: chicago)
        XCTAssertEqual(local.utcOffset, -21_600)
    }

    func testInstants() throws {
        XCTAssertEqual(iso(try TimeParser.instant("2026-11-20 08:30", context: seoul)), "2026-11-20T08:30:00+09:00")
        XCTAssertEqual(iso(try TimeParser.instant("2026-11-20T08:30:15", context: seoul)), "2026-11-20T08:30:15+09:00")
        XCTAssertEqual(iso(try TimeParser.instant("2026-11-20", context: seoul)), "2026-11-20T12:00:00+09:00")
        XCTAssertEqual(iso(try TimeParser.instant("yesterday", context: seoul)), "2026-11-22T10:00:00+09:00")
        XCTAssertEqual(iso(try TimeParser.instant("yesterday 18:00", context: seoul)), "2026-11-22T18:00:00+09:00")
        XCTAssertEqual(iso(try TimeParser.instant("08:30", context: seoul)), "2026-11-23T08:30:00+09:00")
        XCTAssertEqual(iso(try TimeParser.instant("-2d", context: seoul)), "2026-11-21T10:00:00+09:00")
        XCTAssertEqual(iso(try TimeParser.instant("-3h", context: seoul)), "2026-11-23T07:00:00+09:00")
        XCTAssertEqual(iso(try TimeParser.instant("2026-11-20T08:30Z", context: seoul)), "2026-11-20T17:30:00+09:00")
        XCTAssertEqual(iso(try TimeParser.instant("2026-11-20T08:30-05:00", context: seoul)), "2026-11-20T22:30:00+09:00")
    }

    func testStrictness() {
        for bad in ["2024-02-30", "2023-02-29", "25:00", "12:60", "2026-11-20 24:00", "2026-1-5", "20261120", "tomorrow-ish",
                    "nan", "inf", "2026-11-20 08:30:99", "-2x", "-0d", "2026-11-20T08:30+19:00", "１２:６０"] {
            XCTAssertThrowsError(try TimeParser.instant(bad, context: seoul), bad)
        }
        XCTAssertNoThrow(try TimeParser.instant("2024-02-29", context: seoul))
        // Full-width digits are the same digits (issue 18: accepted everywhere a number is).
        XCTAssertEqual(try TimeParser.instant("１２:００", context: seoul), try TimeParser.instant("12:00", context: seoul))
    }

    func testDays() throws {
        XCTAssertEqual(try TimeParser.day("2w", context: seoul).description, "2026-12-07")
        XCTAssertEqual(try TimeParser.day("+1m", context: seoul).description, "2026-12-23")
        XCTAssertEqual(try TimeParser.day("1y", context: seoul).description, "2027-11-23")
        XCTAssertEqual(try TimeParser.day("tomorrow", context: seoul).description, "2026-11-24")
        XCTAssertEqual(try TimeParser.day("-3d", context: seoul).description, "2026-11-20")
        XCTAssertThrowsError(try TimeParser.day("2026-02-29", context: seoul))
    }

    func testSinceAndUntil() throws {
        XCTAssertEqual(iso(try TimeParser.since("30d", context: seoul)), "2026-10-24T10:00:00+09:00")
        XCTAssertEqual(iso(try TimeParser.since("2026-01-01", context: seoul)), "2026-01-01T00:00:00+09:00")
        XCTAssertEqual(iso(try TimeParser.until("2026-01-01", context: seoul)), "2026-01-02T00:00:00+09:00")
    }

    /// The stored `YYYY-MM-DD` is read from its bytes; every other text goes the character-by-character
    /// way, and both give the same answers.
    func testISODatesReadFromBytesAsCharacterByCharacter() {
        let cases: [(String, LocalDate?)] = [
            ("2024-02-29", LocalDate(year: 2024, month: 2, day: 29)), ("1800-01-01", LocalDate(year: 1800, month: 1, day: 1)),
            ("9999-12-31", LocalDate(year: 9999, month: 12, day: 31)), ("2023-02-29", nil), ("2024-13-01", nil), ("2024-00-10", nil),
            ("1799-12-31", nil), ("2024-1-01", nil), ("2024/01/01", nil), ("2024-01-0a", nil), (" 2024-01-01", nil), ("2024-01-01 ", nil),
            ("２０２４-01-01", nil), ("2024-01-01\u{301}", nil), ("+024-01-01", nil), ("", nil), ("2024-01", nil),
        ]
        for (text, expected) in cases {
            XCTAssertEqual(LocalDate.parseISO(Substring(text)), expected, text)
            // Inside a longer string, as a slice of it, the same.
            XCTAssertEqual(LocalDate.parseISO(("x" + text + "x").dropFirst().dropLast()), expected, text)
        }
    }

    func testLocalDateArithmetic() {
        let d = LocalDate(year: 2024, month: 1, day: 31)!
        XCTAssertEqual(d.adding(months: 1).description, "2024-02-29")
        XCTAssertEqual(d.adding(days: 30).description, "2024-03-01")
        XCTAssertEqual(LocalDate(dayNumber: d.dayNumber), d)
        XCTAssertEqual(LocalDate(year: 2026, month: 11, day: 23)!.isoWeekday, 1)
        XCTAssertEqual(LocalDate(year: 1970, month: 1, day: 1)!.dayNumber, 0)
    }

    func testPartialBirthDates() throws {
        XCTAssertEqual(try PartialDate.parse("2019-04-02").precision, .day)
        XCTAssertEqual(try PartialDate.parse("2019-04").precision, .month)
        XCTAssertEqual(try PartialDate.parse("2019").precision, .year)
        for bad in ["2019-13", "2019-02-30", "19", "2019-4", "abcd"] { XCTAssertThrowsError(try PartialDate.parse(bad), bad) }
    }

    func testSpans() throws {
        XCTAssertEqual(try Span.parse("12h"), .seconds(43_200))
        XCTAssertEqual(try Span.parse("2w"), .days(14))
        XCTAssertThrowsError(try Span.parse("1m", allowCalendarUnits: false))
        XCTAssertThrowsError(try Span.parse("0d"))
        XCTAssertThrowsError(try Span.parse("1.5d"))
    }

    /// Each of these trapped (a force-unwrapped LocalDate or time zone) or, for far-ahead spans,
    /// silently answered today; now each is a clear error.
    func testDaysOutsideTheStorableYearsAreRefusedNotATrap() {
        func expectRange(_ raw: String, _ parse: (String) throws -> Any, line: UInt = #line) {
            XCTAssertThrowsError(try parse(raw), raw, line: line) { XCTAssertEqual($0 as? ParseError, .dateOutOfRange(raw), line: line) }
        }
        for raw in ["-300y", "-250y", "100000y", "8000y", "+8000y", "-100000w"] { expectRange(raw) { try TimeParser.day($0, context: seoul) } }
        for raw in ["-100000d", "-100000w", "9999-12-31 23:00-12:00", "1800-01-01 00:00+14:00"] {
            expectRange(raw) { try TimeParser.instant($0, context: seoul) }
        }
        for raw in ["300y", "100000y"] { expectRange(raw) { try TimeParser.since($0, context: seoul) } }
        XCTAssertThrowsError(try TimeParser.instant("2026-11-20 08:30+18:59", context: seoul)) { XCTAssertEqual($0 as? ParseError, .badTime("2026-11-20 08:30+18:59")) }
        XCTAssertNoThrow(try TimeParser.instant("1800-01-01 00:00", context: seoul))
        XCTAssertNoThrow(try TimeParser.instant("9999-12-31 23:59", context: seoul))
        XCTAssertEqual(try TimeParser.day("7000y", context: seoul).description, "9026-11-23")
    }

    func testLocalDateOfAnyInstantIsTotal() {
        // A record from before 1800 (written by an older petlog) is shown, not a trap.
        let old = seoul.localDate(of: Date(timeIntervalSince1970: -7_000_000_000))
        XCTAssertEqual(old.year, 1748)
        XCTAssertFalse(old.isSupported)
        XCTAssertEqual(seoul.localDate(of: Date(timeIntervalSince1970: 1_795_395_600)).description, "2026-11-23")
    }

    /// `adding(months:)` answered the same day past 9999, so month loops (demo --end 9999-12-31) never ended.
    func testAddingMonthsAlwaysMoves() {
        let last = LocalDate(year: 9999, month: 12, day: 31)!
        XCTAssertGreaterThan(last.adding(months: 1), last)
        XCTAssertFalse(last.adding(months: 1).isSupported)
        XCTAssertLessThan(LocalDate(year: 1800, month: 1, day: 31)!.adding(months: -1), LocalDate(year: 1800, month: 1, day: 1)!)
        XCTAssertEqual(LocalDate(year: 1800, month: 3, day: 31)!.adding(months: -25).description, "1798-02-28")
        XCTAssertEqual(LocalDate(year: 2024, month: 1, day: 31)!.adding(months: -13).description, "2022-12-31")
    }
}

final class TextFieldTests: XCTestCase {
    func testNameKeysMatchAcrossCaseWidthAndHangulForm() {
        XCTAssertEqual(TextField.nameKey("Coco"), TextField.nameKey("coco"))
        XCTAssertEqual(TextField.nameKey("ＣＯＣＯ"), TextField.nameKey("coco"))
        let composed = "나비"
        let decomposed = composed.decomposedStringWithCanonicalMapping
        XCTAssertNotEqual(Array(composed.unicodeScalars), Array(decomposed.unicodeScalars))
        XCTAssertEqual(TextField.nameKey(decomposed), TextField.nameKey(composed))
    }

    func testNamesAreValidated() throws {
        XCTAssertEqual(try TextField.name("  Coco "), "Coco")
        XCTAssertThrowsError(try TextField.name(""))
        XCTAssertThrowsError(try TextField.name("Co\u{1B}[31mco"))
        XCTAssertThrowsError(try TextField.name("123"))
        XCTAssertThrowsError(try TextField.name(String(repeating: "a", count: 101)))
    }

    func testAmounts() throws {
        XCTAssertEqual(try Amount.parse("80g"), Amount(value: 80, unit: .g))
        XCTAssertEqual(try Amount.parse("0.2l"), Amount(value: 200, unit: .ml))
        XCTAssertEqual(try Amount.parse("2pc").unit, .piece)
        XCTAssertThrowsError(try Amount.parse("-5g"))
        XCTAssertThrowsError(try Amount.parse("nan"))
        // What is kept is one decimal: an amount that rounds to nothing is refused, not stored as 0.
        XCTAssertThrowsError(try Amount.parse("0.04g"))
        XCTAssertThrowsError(try Amount.parse("0.00001kg"))
        XCTAssertEqual(try Amount.parse("0.05g"), Amount(value: 0.1, unit: .g))
        XCTAssertThrowsError(try Amount.parse("100000.04l"))
    }
}
