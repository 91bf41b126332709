import Foundation
import Localization
import PetModel

/// `rates list`: one day's euro rates, each also as a cross rate into the home currency where the day has
/// one (a small cross rate per 100 or 1,000 units: `1,000 KRW = 0.6843 USD`, not `0.0007`), for the
/// terminal (a table under the day, then the last fetch or import) and for `--json` alike.
public struct RatesPresenter {
    public let context: PresentationContext
    /// Decimals of a cross rate.
    public let crossDecimals: Int

    public init(_ context: PresentationContext, crossDecimals: Int) { self.context = context; self.crossDecimals = crossDecimals }

    func t(_ m: L10n.Message) -> String { context.t(m) }
    var format: ValueFormatter { context.format }

    /// The table's rows and the same rates for `--json`, sorted by currency code.
    public func rates(_ rates: [EuroRate], on day: LocalDate, home: Currency) -> (rows: [[String]], json: [RatesJSON.Rate], haveHome: Bool) {
        let table = RateTable(rates)
        let haveHome = table.rate(home.code, on: day) != nil
        var rows: [[String]] = []
        var json: [RatesJSON.Rate] = []
        for r in rates.sorted(by: { $0.currency < $1.currency }) {
            let cross = r.currency == home.code ? nil : table.crossRate(from: r.currency, to: home.code, on: day, decimals: crossDecimals)
            let shown = r.currency == home.code ? nil : table.shownCrossRate(from: r.currency, to: home.code, on: day, decimals: crossDecimals)
            var row = [r.currency, t(.ratesEquals(from: "EUR", rate: Self.grouped(r.rate.description), to: r.currency))]
            if haveHome {
                row.append(shown.map { t(.ratesEqualsPer(n: ValueFormatter.grouped($0.per), from: r.currency, rate: Self.grouped($0.rate.description), to: home.code)) } ?? "")
            }
            rows.append(row)
            json.append(RatesJSON.Rate(currency: r.currency, perEuro: r.rate.description, inHomeCurrency: cross?.description,
                                       shownPer: shown?.per, shownInHomeCurrency: shown?.rate.description))
        }
        return (rows, json, haveHome)
    }

    /// The text: which day's rates (the day before the one asked, when it had none), the table, a line when
    /// the home currency has no rate that day, and when and from where the rates were last fetched or imported.
    public func lines(rows: [[String]], haveHome: Bool, day: LocalDate, requested: LocalDate?, home: Currency, last: RatesFetch?) -> [String] {
        var out: [String] = []
        if let requested, requested != day {
            out.append(t(.ratesOfDayBefore(day: format.longDate(day), date: format.longDate(requested))))
        } else {
            out.append(t(.ratesOfDay(day: format.longDate(day))))
        }
        var header = [t(.colCurrency), t(.colPerEuro)]
        if haveHome { header.append(t(.colInCurrency(currency: home.code))) }
        out += context.screen.table(header: header, rows: rows)
        if !haveHome { out.append(t(.ratesNoHomeRate(currency: home.code))) }
        if let last {
            let c = context.time.clock(of: last.fetchedAt)
            let when = format.longDate(c.day) + " " + format.clock(hour: c.hour, minute: c.minute)
            // `rates import FILE` stores its file as a file: URL: said as an import from that file.
            if let file = Self.importedFile(last.source) {
                out.append(t(.ratesLastImported(when: when, file: PlainText.sanitized(file))))
            } else {
                out.append(t(.ratesLastFetched(when: when, source: PlainText.sanitized(last.source))))
            }
        }
        return out
    }

    /// The file an import read (`file:///home/me/eurofxref.zip` → its path), or nil for a download.
    public static func importedFile(_ source: String) -> String? {
        guard source.hasPrefix("file:"), let url = URL(string: source), url.isFileURL else { return nil }
        return url.path
    }

    /// `1476.55` → `1,476.55`: the whole part grouped like every count, the decimals as they are.
    public static func grouped(_ decimal: String) -> String {
        let parts = decimal.split(separator: ".", maxSplits: 1)
        guard let whole = parts.first.flatMap({ Int64($0) }) else { return decimal }
        return ValueFormatter.grouped(whole) + (parts.count > 1 ? "." + parts[1] : "")
    }
}
