import Foundation
import Localization
import PetModel

/// Which proposal fields the owner gave on the command line or at the prompt (shown as given, not with a confidence).
public struct ScanGiven {
    public var date = false, total = false, merchant = false, payment = false, category = false, items = false, currency = false
    public init() {}
}

/// `expense scan`'s proposal on screen: the fields read from the receipt (date, time, merchant, total,
/// payment, category, pet) each with its confidence or "given", beside the receipt's own lines; then the
/// whole item list and what the reader noticed (a turned photo, an ambiguous date, an assumed currency).
public struct ScanProposalPresenter {
    public let context: PresentationContext

    public init(_ context: PresentationContext) { self.context = context }

    func t(_ m: L10n.Message) -> String { context.t(m) }

    /// `cash`, `card`, `other` in the language.
    public func paymentName(_ p: Payment) -> String {
        switch p {
        case .cash: t(.paymentCash)
        case .card: t(.paymentCard)
        case .transfer: t(.paymentTransfer)
        case .other: t(.paymentOther)
        }
    }

    /// `receiptLines`: the text the OCR read, one entry a line; `rotation`: how far the photo was turned to read it.
    public func lines(_ p: ReceiptProposal, _ d: ReceiptExpense, receiptLines: [String], rotation: Int?, given: ScanGiven = ScanGiven(),
                      pet: String? = nil) -> [String] {
        let screen = context.screen, format = context.format, clean = PlainText.sanitized
        // A guessed field's confidence is followed by `?` (docs/receipts.md, "Unsure").
        func confidence<V>(_ f: ReceiptField<V>?, given: Bool, unsure: Bool? = nil) -> String {
            given ? t(.scanGiven) : f.map { "(\(Int($0.confidence.rounded())) %)" + ((unsure ?? $0.unsure) ? " ?" : "") } ?? ""
        }
        var rows: [[String]] = []
        rows.append([t(.scanDate), d.day.map { format.longDate($0) } ?? "—", confidence(p.date, given: given.date)])
        rows.append([t(.scanTime), d.time.map { context.format.clock(hour: $0.hour, minute: $0.minute) } ?? "—", confidence(p.time, given: given.date)])
        rows.append([t(.scanMerchant), d.merchant.map(clean) ?? "—", confidence(p.merchant, given: given.merchant)])
        // The total is as unsure as its currency.
        rows.append([t(.scanTotal), d.money.map(format.money) ?? "—",
                     confidence(p.total, given: given.total, unsure: p.total.map { $0.unsure || (p.currency.unsure && !given.currency) })])
        rows.append([t(.scanPayment), d.payment.map(paymentName) ?? "—", confidence(p.payment, given: given.payment)])
        rows.append([t(.scanCategory), context.categoryName(d.category), given.category ? t(.scanGiven) : ""])
        rows.append([t(.scanPet), pet.map(clean) ?? t(.expenseHousehold), ""])
        func fit(_ text: String, _ width: Int) -> String {
            guard DisplayColumns.width(text) > width else { return text }
            var out = ""
            for c in text { if DisplayColumns.width(out + String(c)) > width - 1 { break }; out.append(c) }
            return out + "…"
        }
        let left = rows.map { row -> String in
            DisplayColumns.pad(row[0], to: 10) + "  " + DisplayColumns.pad(fit(row[1], 24), to: 24) + " " + row[2]
        }
        // The receipt's own lines, with the long runs of spaces Tesseract keeps for columns shortened.
        let receiptText = receiptLines.map { line -> String in
            clean(line).replacingOccurrences(of: " {4,}", with: "    ", options: .regularExpression)
        }
        var out = [screen.styled(t(.scanTitle), .bold) + String(repeating: " ", count: max(2, 50 - DisplayColumns.width(t(.scanTitle))))
                   + screen.styled(t(.scanReceiptText), .dim)]
        for i in 0..<max(left.count, receiptText.count) {
            let l = i < left.count ? left[i] : ""
            let r = i < receiptText.count ? screen.styled("│ " + receiptText[i], .dim) : ""
            out.append(DisplayColumns.pad(l, to: 50) + r)
        }
        // The whole item list, one a line and never cut: what will be saved is what is shown.
        if !d.items.isEmpty {
            out.append(t(.scanItems) + (given.items ? " " + t(.scanGiven) : ""))
            for (i, name) in d.items.enumerated() {
                let price = !given.items && i < p.items.count ? "  " + format.money(p.items[i].value.price) : ""
                out.append("  · " + clean(name) + price)
            }
        }
        if let turn = rotation, turn != 0 { out.append(t(.scanNoteTurned(degrees: String(turn)))) }
        // Which currency and why, unless the owner named it.
        if !given.currency {
            let code = p.currency.value.code
            switch p.currencyEvidence {
            case .mark(let mark): out.append(t(.scanCurrencyMark(currency: code, mark: clean(mark))))
            case .language(.korean): out.append(t(.scanCurrencyKorean(currency: code)))
            case .language(.japanese): out.append(t(.scanCurrencyJapanese(currency: code)))
            case .cents: out.append(t(.scanCurrencyCents(currency: code)))
            case .language(.english), .home: out.append(t(.scanNoteCurrency(currency: code)))
            }
        }
        for note in p.notes {
            switch note {
            case .ambiguousDate(let read, let chose, _): out.append(t(.scanNoteDate(read: clean(read), date: format.longDate(chose))))
            case .currencyAssumed: break  // said above
            case .amountRepaired(let read, let m): out.append(t(.scanNoteAmount(read: clean(read), amount: format.money(m))))
            case .dateRejected(let read, _): out.append(t(.scanNoteDateRejected(read: clean(read))))
            case .dateAsked(let read, let day, _): if !given.date { out.append(t(.scanNoteDateAsked(read: clean(read), date: format.longDate(day)))) }
            }
        }
        let unsure = Self.unsure(p, given: given)
        if !unsure.isEmpty { out.append(t(.scanUnsure(fields: unsure.map(fieldName).joined(separator: ", ")))) }
        return out
    }

    /// The fields petlog guessed that the owner did not give (`date`, `merchant`, `total`, `currency`, `payment`).
    public static func unsure(_ p: ReceiptProposal, given: ScanGiven) -> [String] {
        p.unsure.filter { field in
            switch field {
            case "date": !given.date
            case "merchant": !given.merchant
            case "total": !given.total
            case "currency": !given.currency
            case "payment": !given.payment
            default: true
            }
        }
    }

    /// A proposal field's name as the table shows it.
    public func fieldName(_ field: String) -> String {
        switch field {
        case "date": t(.scanDate)
        case "merchant": t(.scanMerchant)
        case "total": t(.scanTotal)
        case "currency": t(.scanCurrency)
        case "payment": t(.scanPayment)
        default: field
        }
    }
}
