import Foundation
import PetModel
import PetStoreCore

/// `expense list --csv`: the listed spending as one sheet a spreadsheet opens, one row a payment (a
/// purchase split among pets is one row naming them all, its amount the whole). Amounts are decimals
/// in their own currency (`12.50`, `45000`) beside the amount converted into `currency` at the day's
/// rate (empty without a rate); text cells are guarded as every petlog CSV's (`CSVText`). Dates and
/// times are the payment's own local ones. Round trips keep using `export --format csv`
/// (`expense.csv`'s `amount_minor`).
public enum ExpenseSheet {
    public static let columns = ["id", "date", "time", "amount", "currency", "converted", "converted_currency",
                                 "merchant", "category", "items", "payment", "pets", "note"]

    /// The header and one line per payment, each ending in CRLF (RFC 4180).
    public static func lines(_ days: SpendingDays) -> [String] {
        var out = [columns.joined(separator: ",")]
        for day in days.days {
            let rows = Array(zip(day.entries, day.converted))
            var seen = Set<Int64>()
            for (entry, _) in rows where seen.insert(entry.purchaseId).inserted {
                let g = rows.filter { $0.0.purchaseId == entry.purchaseId }
                let entries = g.map(\.0).sorted { $0.recordId < $1.recordId }, first = entries[0]
                let total = entries.reduce(Int64(0)) { $0.addingSaturated($1.money.minorUnits) }
                let converted: Money? = g.contains { $0.1 == nil } ? nil
                    : Money(minorUnits: g.reduce(Int64(0)) { $0.addingSaturated($1.1?.minorUnits ?? 0) }, currency: days.currency)
                let minute = ((first.at.unixSeconds() + Int64(first.utcOffset)) % 86_400 + 86_400) % 86_400 / 60
                let time = String(format: "%02d:%02d", Int(minute / 60), Int(minute % 60))
                let pets = entries.compactMap(\.petName)
                let cells: [String] = [
                    String(first.purchaseId), first.localDay.description, time,
                    Money(minorUnits: total, currency: first.money.currency).decimalString, first.money.currency.code,
                    converted?.decimalString ?? "", days.currency.code,
                    CSVText.cell(text: first.merchant ?? ""), CSVText.cell(text: first.category),
                    CSVText.cell(text: first.items.joined(separator: ", ")), first.payment?.rawValue ?? "",
                    CSVText.cell(text: pets.joined(separator: ", ")), CSVText.cell(text: first.note ?? ""),
                ]
                out.append(cells.joined(separator: ","))
            }
        }
        return out
    }
}
