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
    @Option(name: [.customLong("ocr-lang"), .customLong("lang-ocr")], help: ArgumentHelp(Help.s(.helpExpenseScanCommandOcrLanguages)))
    var ocrLanguages: String?
    @Flag(help: ArgumentHelp(Help.s(.helpExpenseScanCommandYes))) var yes = false
    @Option(help: ArgumentHelp(Help.s(.helpExpenseScanCommandAmount))) var amount: String?
    @Option(help: ArgumentHelp(Help.s(.helpExpenseAddCommandItems))) var items: String?
    @OptionGroup var fields: ExpenseFieldOptions
    @OptionGroup var money: CurrencyOption
    @OptionGroup var record: RecordOptions

    /// The OCR languages petlog reads receipts in; `--ocr-lang` is a `+`-joined set of them.
    static let ocrLanguageNames = ["kor", "jpn", "eng"]

    /// `--ocr-lang`'s value checked: known names, each once, joined with `+`.
    static func ocrLanguageSet(_ raw: String) -> String? {
        let parts = raw.lowercased().split(separator: "+", omittingEmptySubsequences: false).map { $0.trimmingCharacters(in: .whitespaces) }
        guard !parts.isEmpty, parts.allSatisfy(ocrLanguageNames.contains), Set(parts).count == parts.count else { return nil }
        return parts.joined(separator: "+")
    }

    func run() throws {
        try Session.run(global) { s in
            let home = try s.homeCurrency(money.currency)
            // Everything typed is checked before the image is read: a typo costs no OCR.
            let fixed = try ocrLanguages.map { raw in
                guard let set = Self.ocrLanguageSet(raw) else {
                    throw UsageError(message: s.t(.errOCRLanguageOption(value: Terminal.sanitize(raw))))
                }
                return set
            }
            let typedItems = try items.map { raw in
                let list = Expense.parseItems(raw)
                guard !list.isEmpty else { throw ParseError.emptyText(field: "items") }
                return try list.map { try TextField.label($0, field: "items") }
            }
            let typedAt = try record.at.map { try s.when($0, for: .expense) }
            let merchant = try fields.merchantText(), category = try fields.categoryCode(), note = try record.noteText()
            // The UI language only breaks ties: the receipt's own script decides (docs/ocr.md).
            let fallback = ["en": "eng", "ko": "kor+eng", "ja": "jpn+eng"][s.l10n.language.rawValue] ?? "eng"
            let result = try OCRClient.read(image: receipt, languages: fixed, fallback: fallback)
            let languages = result.language ?? fixed ?? fallback
            let proposal = ReceiptReading.proposal(lines: result.receiptLines, imageHeight: result.height,
                                                   languages: languages.split(separator: "+").map(String.init),
                                                   homeCurrency: home, today: s.time.today)
            let typedAmount = try amount.map { try MoneyText.parse($0, defaultCurrency: proposal.currency.value) }
            var draft = ReceiptExpense(proposal, amount: typedAmount, merchant: merchant, payment: fields.payment, category: category,
                                       timeGiven: typedAt != nil)
            if let typedItems { draft.items = typedItems }
            if let (at, _) = typedAt {
                let clock = s.time.clock(of: at)
                draft.day = clock.day
                draft.time = ReceiptTime(hour: clock.hour, minute: clock.minute)
            }
            var given = ScanGiven()
            given.date = typedAt != nil
            given.total = typedAmount != nil
            given.merchant = merchant != nil
            given.payment = fields.payment != nil
            given.category = category != nil
            given.items = typedItems != nil
            // A currency the owner named (in --amount or --currency) was not assumed.
            given.currency = typedAmount != nil || money.currency != nil
            var shape = ScanJSON.shape(proposal, draft, result: result, languages: languages)
            if !s.json { s.printProposal(proposal, draft, result: result, given: given) }
            guard draft.missing.isEmpty, let total = draft.money else {
                if s.json { s.terminal.json(shape) }
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
                if s.json { s.terminal.json(shape) } else { s.terminal.line(s.t(isatty(STDIN_FILENO) == 1 ? .scanNotSaved : .scanNeedsYes)) }
                return
            }
            let at: Date, offset: Int
            if let typedAt {
                (at, offset) = typedAt
            } else if let instant = draft.instant(s.time) {
                (at, offset) = (instant, s.time.utcOffset(at: instant))
            } else {
                throw UsageError(message: s.t(.errScanMissing(fields: s.scanFieldName("date").lowercased())), code: Failure.dataError)
            }
            let expense = Expense(money: total, category: draft.category, merchant: draft.merchant, payment: draft.payment, items: draft.items)
            let recordDraft = RecordDraft(at: at, utcOffset: offset, note: note, detail: .expense(expense), attachmentPaths: [receipt])
            let saved = try s.repository().addRecord(pets: pet.map(PetModelText.pets) ?? [], recordDraft)
            if s.json {
                // What was saved, one record per pet share, beside what was read.
                shape["saved"] = saved.map(JSONShape.record)
                shape["ids"] = saved.map(\.id)
                s.terminal.json(shape)
                return
            }
            s.printAdded(saved)
        }
    }
}

/// Which proposal fields the owner gave on the command line (shown as given, not with a confidence).
struct ScanGiven {
    var date = false, total = false, merchant = false, payment = false, category = false, items = false, currency = false
}

extension Session {
    func scanFieldName(_ field: String) -> String {
        switch field {
        case "total": t(.scanTotal)
        case "date": t(.scanDate)
        default: field
        }
    }

    func printProposal(_ p: ReceiptProposal, _ d: ReceiptExpense, result: OCRClient.Reading, given: ScanGiven = ScanGiven()) {
        func confidence(_ c: Double?, given: Bool) -> String { given ? t(.scanGiven) : c.map { "(\(Int($0.rounded())) %)" } ?? "" }
        var rows: [[String]] = []
        rows.append([t(.scanDate), d.day.map { format.longDate($0) } ?? "—", confidence(p.date?.confidence, given: given.date)])
        rows.append([t(.scanTime), d.time.map { String(format: "%02d:%02d", $0.hour, $0.minute) } ?? "—", confidence(p.time?.confidence, given: given.date)])
        rows.append([t(.scanMerchant), d.merchant.map(Terminal.sanitize) ?? "—", confidence(p.merchant?.confidence, given: given.merchant)])
        rows.append([t(.scanTotal), d.money.map(format.money) ?? "—", confidence(p.total?.confidence, given: given.total)])
        rows.append([t(.scanPayment), d.payment.map(paymentName) ?? "—", confidence(p.payment?.confidence, given: given.payment)])
        rows.append([t(.scanCategory), categoryName(d.category), given.category ? t(.scanGiven) : ""])
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
        // The whole item list, one a line and never cut: what will be saved is what is shown.
        if !d.items.isEmpty {
            terminal.line(t(.scanItems) + (given.items ? " " + t(.scanGiven) : ""))
            for (i, name) in d.items.enumerated() {
                let price = !given.items && i < p.items.count ? "  " + format.money(p.items[i].value.price) : ""
                terminal.line("  · " + Terminal.sanitize(name) + price)
            }
        }
        if let turn = result.layout?.rotation, turn != 0 { terminal.line(t(.scanNoteTurned(degrees: String(turn)))) }
        for note in p.notes {
            switch note {
            case .ambiguousDate(let read, let chose, _): terminal.line(t(.scanNoteDate(read: Terminal.sanitize(read), date: format.longDate(chose))))
            case .currencyAssumed(let c, _): if !given.currency { terminal.line(t(.scanNoteCurrency(currency: c.code))) }
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
            "rotation_degrees": result.layout?.rotation ?? 0, "script": JSONShape.value(result.layout?.script),
        ]
    }
}
