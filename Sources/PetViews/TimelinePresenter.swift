import Foundation
import Localization
import PetModel

/// A record's time on its own clock in the language's pattern (`8:00 AM`), with its offset beside it
/// (`8:00 AM +09:00`) where that differs from the viewer's offset at the same instant.
public enum RecordClockText {
    public static func text(_ at: Date, utcOffset: Int, format: ValueFormatter, time: TimeContext) -> String {
        let c = RecordClock.clock(at, utcOffset: utcOffset)
        let text = format.clock(hour: c.hour, minute: c.minute)
        guard utcOffset != time.utcOffset(at: at) else { return text }
        return text + " " + offset(utcOffset)
    }

    /// `+09:00`, `-08:00`.
    public static func offset(_ offset: Int) -> String {
        let a = abs(offset)
        return String(format: "%@%02d:%02d", offset < 0 ? "-" : "+", a / 3600, a % 3600 / 60)
    }
}

/// `log`, `search` and `starred` on screen: records under their days, each a line of id, clock, pet,
/// kind and summary (and note, star, writer), the columns aligned by display width across the listing.
public struct TimelinePresenter: ContextPresenter {
    public let context: PresentationContext

    public init(_ context: PresentationContext) { self.context = context }

    /// The lines, wrapped to the screen. `showWriter`: each line ends with the database role that wrote the
    /// record (a PostgreSQL store keeps it; a SQLite file has one user and says `-`).
    public func lines(_ records: [PetRecord], showPet: Bool, showWriter: Bool = false) -> [String] {
        if records.isEmpty { return [l10n.text(.logEmpty)] }
        var out: [String] = []
        let clean = PlainText.sanitized
        var currentDay: LocalDate?
        let idWidth = records.map { String($0.id).count }.max() ?? 1
        // The pet and kind columns line up by display width across the listing, as `due` and `pet list` do.
        let petWidth = showPet ? records.map { DisplayColumns.width(clean($0.petName ?? "-")) }.max() ?? 1 : 0
        let kindWidth = records.map { DisplayColumns.width(wording.kindName($0.kind)) }.max() ?? 1
        // Long lines wrap under the summary; when that column is past half the width, under the time.
        // Clocks in the language's pattern (`9:05 AM`, `10:05 AM`), right-aligned to the widest.
        let clocks = Dictionary(records.map { ($0.id, RecordClockText.text($0.at, utcOffset: $0.utcOffset, format: format, time: time)) },
                                uniquingKeysWith: { a, _ in a })
        let clockWidth = clocks.values.map(DisplayColumns.width).max() ?? 5
        let summaryColumn = 2 + idWidth + 1 + 2 + clockWidth + (showPet ? 2 + petWidth : 0) + 2 + kindWidth + 2
        let hanging = summaryColumn <= screen.columns / 2 ? summaryColumn : 4 + idWidth + 1
        // Each record under the day on its own clock; a trip across the date line can put a later
        // instant on an earlier day, so the days are ordered, and within a day the instants.
        let ordered = records.enumerated().sorted { ($0.element.localDay, $0.offset) < ($1.element.localDay, $1.offset) }.map(\.element)
        for r in ordered {
            let day = r.localDay
            if day != currentDay {
                if currentDay != nil { out.append("") }
                out.append(screen.styled("\(format.longDate(day)) \(format.weekday(day))", .bold))
                currentDay = day
            }
            var line = "  " + screen.styled(String(repeating: " ", count: idWidth - String(r.id).count) + "#\(r.id)", .dim)
            let clock = clocks[r.id] ?? ""
            line += "  " + String(repeating: " ", count: max(0, clockWidth - DisplayColumns.width(clock))) + clock
            if showPet { line += "  " + DisplayColumns.pad(clean(r.petName ?? "-"), to: petWidth) }
            line += "  " + screen.styled(DisplayColumns.pad(wording.kindName(r.kind), to: kindWidth), .cyan) + "  " + clean(wording.summary(r))
            if let n = r.note { line += screen.styled("  — " + clean(n), .dim) }
            if r.starred { line += " ★" }
            if showWriter { line += screen.styled("  " + l10n.text(.logWrittenBy(role: clean(r.writtenBy ?? "-"))), .dim) }
            out += screen.wrapped(line, indent: hanging)
        }
        return out
    }
}
