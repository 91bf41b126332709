import ArgumentParser
import Foundation
import Localization
import PetModel
import PetStore

/// `petlog expense scan RECEIPT [PET]`: read a receipt photo, show what was read, save it as an expense.
struct ExpenseScanCommand: ParsableCommand {
    @OptionGroup(title: Help.s(.helpGlobalOptionsTitle)) var global: GlobalOptions
    static var configuration: CommandConfiguration { CommandConfiguration(
        commandName: "scan",
        abstract: Help.s(.helpExpenseScanCommandAbstract),
        discussion: Help.s(.helpExpenseScanCommandDiscussion)) }
    @Argument(help: ArgumentHelp(Help.s(.helpExpenseScanCommandReceipt))) var receipt: String
    @Argument(help: ArgumentHelp(Help.s(.helpExpenseScanCommandPet)), completion: .petNames) var pet: String?
    @Option(name: .customLong("lang-ocr"), help: ArgumentHelp(Help.s(.helpExpenseScanCommandOcrLanguages))) var ocrLanguages: String?
    @Flag(help: ArgumentHelp(Help.s(.helpExpenseScanCommandYes))) var yes = false
    @Option(help: ArgumentHelp(Help.s(.helpExpenseScanCommandAmount))) var amount: String?
    @OptionGroup var fields: ExpenseFieldOptions
    @OptionGroup var money: CurrencyOption
    @OptionGroup var record: RecordOptions

    func run() throws {
        try Session.run(global) { s in
            let home = try s.homeCurrency(money.currency)
            let languages = ocrLanguages ?? ["en": "eng", "ko": "kor+eng", "ja": "jpn+eng"][s.l10n.language.rawValue] ?? "eng"
            let result = try OCRClient.read(image: receipt, languages: languages)
            let lines = result.receiptLines
            let proposal = ReceiptReading.proposal(lines: lines, imageHeight: result.height, languages: languages.split(separator: "+").map(String.init),
                                                   homeCurrency: home, today: s.time.today)
            let typedAmount = try amount.map { try MoneyText.parse($0, defaultCurrency: proposal.currency.value) }
            let draft = ReceiptExpense(proposal, amount: typedAmount, merchant: try fields.merchantText(),
                                       payment: fields.payment, category: try fields.categoryCode(), timeGiven: record.at != nil)
            if s.json {
                s.terminal.json(ScanJSON.shape(proposal, draft, result: result, languages: languages))
            } else {
                s.printProposal(proposal, draft, result: result)
            }
            guard draft.missing.isEmpty, let total = draft.money else {
                throw UsageError(message: s.t(.errScanMissing(fields: draft.missing.map { s.scanFieldName($0).lowercased() }.joined(separator: ", "))),
                                 code: Failure.dataError)
            }
            var save = yes
            if !save && !s.json && isatty(STDIN_FILENO) == 1 && isatty(STDOUT_FILENO) == 1 {
                FileHandle.standardOutput.write(Data(s.t(.scanAskSave).utf8))
                let answer = (readLine() ?? "").trimmingCharacters(in: .whitespaces).lowercased()
                save = ["y", "yes", "예", "네", "ㅇ", "はい", "h"].contains(answer)
            }
            guard save else {
                if !s.json { s.terminal.line(s.t(isatty(STDIN_FILENO) == 1 ? .scanNotSaved : .scanNeedsYes)) }
                return
            }
            let at: Date, offset: Int
            if let typed = record.at {
                (at, offset) = try s.when(typed, for: .expense)
            } else if let instant = draft.instant(s.time) {
                (at, offset) = (instant, s.time.utcOffset(at: instant))
            } else {
                throw UsageError(message: s.t(.errScanMissing(fields: s.scanFieldName("date").lowercased())), code: Failure.dataError)
            }
            let expense = Expense(money: total, category: draft.category, merchant: draft.merchant, payment: draft.payment, items: draft.items)
            let recordDraft = RecordDraft(at: at, utcOffset: offset, note: try record.noteText(), detail: .expense(expense), attachmentPaths: [receipt])
            let saved = try s.repository().addRecord(pets: pet.map(PetModelText.pets) ?? [], recordDraft)
            if s.json { return }
            s.printAdded(saved)
        }
    }
}

extension Session {
    func scanFieldName(_ field: String) -> String {
        switch field {
        case "total": t(.scanTotal)
        case "date": t(.scanDate)
        default: field
        }
    }

    func printProposal(_ p: ReceiptProposal, _ d: ReceiptExpense, result: OCRClient.Reading) {
        func confidence(_ c: Double?) -> String { c.map { "(\(Int($0.rounded())) %)" } ?? "" }
        var rows: [[String]] = []
        rows.append([t(.scanDate), d.day.map { format.longDate($0) } ?? "—", confidence(p.date?.confidence)])
        rows.append([t(.scanTime), d.time.map { String(format: "%02d:%02d", $0.hour, $0.minute) } ?? "—", confidence(p.time?.confidence)])
        rows.append([t(.scanMerchant), d.merchant.map(Terminal.sanitize) ?? "—", confidence(p.merchant?.confidence)])
        rows.append([t(.scanTotal), d.money.map(format.money) ?? "—", confidence(p.total?.confidence)])
        rows.append([t(.scanPayment), d.payment.map(paymentName) ?? "—", confidence(p.payment?.confidence)])
        rows.append([t(.scanCategory), categoryName(d.category), ""])
        if !d.items.isEmpty { rows.append([t(.scanItems), Terminal.sanitize(d.items.joined(separator: ", ")), ""]) }
        func fit(_ text: String, _ width: Int) -> String {
            guard Terminal.width(text) > width else { return text }
            var out = ""
            for c in text { if Terminal.width(out + String(c)) > width - 1 { break }; out.append(c) }
            return out + "…"
        }
        let left = rows.map { row -> String in
            Terminal.pad(row[0], to: 10) + "  " + Terminal.pad(fit(row[1], 24), to: 24) + " " + row[2]
        }
        // The receipt's own lines, with the long runs of spaces Tesseract keeps for columns shortened.
        let receiptText = result.lines.map { line -> String in
            Terminal.sanitize(line.text).replacingOccurrences(of: " {4,}", with: "    ", options: .regularExpression)
        }
        terminal.line(terminal.styled(t(.scanTitle), .bold) + String(repeating: " ", count: max(2, 50 - Terminal.width(t(.scanTitle)))) + terminal.styled(t(.scanReceiptText), .dim))
        for i in 0..<max(left.count, receiptText.count) {
            let l = i < left.count ? left[i] : ""
            let r = i < receiptText.count ? terminal.styled("│ " + receiptText[i], .dim) : ""
            terminal.line(Terminal.pad(l, to: 50) + r)
        }
        for note in p.notes {
            switch note {
            case .ambiguousDate(let read, let chose, _): terminal.line(t(.scanNoteDate(read: Terminal.sanitize(read), date: format.longDate(chose))))
            case .currencyAssumed(let c, _): terminal.line(t(.scanNoteCurrency(currency: c.code)))
            case .amountRepaired(let read, let m): terminal.line(t(.scanNoteAmount(read: Terminal.sanitize(read), amount: format.money(m))))
            case .dateRejected(let read, _): terminal.line(t(.scanNoteDateRejected(read: Terminal.sanitize(read))))
            }
        }
    }
}

/// `expense scan --json` (docs/json.md).
enum ScanJSON {
    static func shape(_ p: ReceiptProposal, _ d: ReceiptExpense, result: OCRClient.Reading, languages: String) -> [String: Any] {
        func field<T>(_ f: ReceiptField<T>?, _ value: (T) -> Any) -> Any {
            guard let f else { return NSNull() }
            return ["value": value(f.value), "confidence": f.confidence, "source": f.source]
        }
        return [
            "languages": languages, "language": p.language.rawValue,
            "date": field(p.date) { $0.description },
            "time": field(p.time) { String(format: "%02d:%02d", $0.hour, $0.minute) },
            "merchant": field(p.merchant) { $0 },
            "total": field(p.total) { JSONShape.money($0) },
            "currency": field(p.currency) { $0.code },
            "payment": field(p.payment) { $0.rawValue },
            "items": p.items.map { ["name": $0.value.name, "price": JSONShape.money($0.value.price), "confidence": $0.confidence] },
            "expense": [
                "money": JSONShape.value(d.money.map(JSONShape.money)), "category": d.category, "merchant": JSONShape.value(d.merchant),
                "payment": JSONShape.value(d.payment?.rawValue), "items": d.items, "day": JSONShape.value(d.day?.description),
                "time": JSONShape.value(d.time.map { String(format: "%02d:%02d", $0.hour, $0.minute) }), "missing": d.missing,
            ] as [String: Any],
            "text": result.text,
            "width": result.width, "height": result.height, "deskew_degrees": result.deskewAngle,
        ]
    }
}
