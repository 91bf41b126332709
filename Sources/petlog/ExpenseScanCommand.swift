import ArgumentParser
import Foundation
import Localization
import PetModel
import PetStoreCore
import PetViews
import ReceiptScan

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
            let scan = try ReceiptScan.read(image: receipt, fixed: fixed, uiLanguage: s.l10n.language.rawValue, homeCurrency: home, today: s.time.today)
            let (result, languages, proposal) = (scan.reading, scan.languages, scan.proposal)
            let typedAmount = try amount.map { try s.amount($0, defaultCurrency: proposal.currency.value) }
            var draft = ReceiptExpense(proposal, amount: typedAmount, merchant: merchant, payment: try fields.paymentValue(), category: category,
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
            given.payment = try fields.paymentValue() != nil
            given.category = category != nil
            given.items = typedItems != nil
            // A currency the owner named (in --amount or --currency) was not assumed.
            given.currency = typedAmount != nil || money.currency != nil
            let interactive = !yes && !s.json && isatty(STDIN_FILENO) == 1 && isatty(STDOUT_FILENO) == 1
            var petText = pet
            var at = typedAt
            if !s.json { s.printProposal(proposal, draft, result: result, given: given, pet: petText) }
            func missingError() -> UsageError {
                UsageError(message: s.t(.errScanMissing(fields: draft.missing.map { s.scanFieldName($0).lowercased() }.joined(separator: ", "))),
                           code: Failure.dataError)
            }
            var save = yes
            if interactive {
                // At a terminal the proposal can be corrected field by field, without reading the image again.
                s.terminal.line(s.terminal.styled(s.t(.scanCorrectHint), .dim))
                while true {
                    FileHandle.standardOutput.write(Data(s.t(.scanAskSaveOrChange).utf8))
                    guard let raw = readLine() else { break }
                    let answer = raw.trimmingCharacters(in: .whitespaces)
                    if answer.isEmpty || ["n", "no", "아니요", "아니오", "ㄴ", "いいえ"].contains(answer.lowercased()) { break }
                    if ["y", "yes", "예", "네", "ㅇ", "はい", "h"].contains(answer.lowercased()) {
                        if draft.missing.isEmpty { save = true; break }
                        s.terminal.error(missingError().message)
                        continue
                    }
                    do {
                        try ScanCorrection.apply(answer, to: &draft, given: &given, at: &at, pet: &petText, &s)
                        s.printProposal(proposal, draft, result: result, given: given, pet: petText)
                    } catch {
                        s.terminal.error(Failure(error, databasePath: s.settings.databaseForDisplay).message(s.l10n))
                    }
                }
            }
            var shape = ScanJSON(proposal, draft, image: ScanJSON.Image(text: result.text, width: result.width, height: result.height, deskewDegrees: result.deskewAngle,
                                                                        rotationDegrees: result.layout?.rotation ?? 0, script: result.layout?.script), languages: languages)
            shape.given = given
            guard draft.missing.isEmpty, let total = draft.money else {
                if s.json { try s.terminal.json(shape) }
                throw missingError()
            }
            guard save else {
                if s.json { try s.terminal.json(shape) } else { s.terminal.line(s.t(isatty(STDIN_FILENO) == 1 ? .scanNotSaved : .scanNeedsYes)) }
                return
            }
            let offset: Int
            let when: Date
            if let at {
                (when, offset) = at
            } else if let instant = draft.instant(s.time) {
                (when, offset) = (instant, s.time.utcOffset(at: instant))
            } else {
                throw UsageError(message: s.t(.errScanMissing(fields: s.scanFieldName("date").lowercased())), code: Failure.dataError)
            }
            let expense = Expense(money: total, category: draft.category, merchant: draft.merchant, payment: draft.payment, items: draft.items)
            let recordDraft = RecordDraft(at: when, utcOffset: offset, note: note, detail: .expense(expense), attachmentPaths: [receipt])
            let saved = try s.repository().addRecord(pets: petText.map(PetModelText.pets) ?? [], recordDraft)
            if s.json {
                // What was saved, one record per pet share, beside what was read.
                shape.saved = saved
                try s.terminal.json(shape)
                return
            }
            try s.printAdded(saved)
        }
    }
}

/// One answer at the proposal's prompt: a field's name (English, Korean, Japanese, or as the table
/// labels it) and its new value, `total 12.50`, `날짜 2026-11-20 14:30`, `店名: ペットワールド`.
enum ScanCorrection {
    enum Field: CaseIterable { case total, date, store, payment, category, pet, items }

    static func field(_ name: String, _ s: Session) -> Field? {
        let n = name.lowercased()
        let names: [Field: [String]] = [
            .total: ["total", "amount", "합계", "금액", "合計", "金額", s.t(.scanTotal)],
            .date: ["date", "at", "time", "날짜", "일시", "시각", "日付", "日時", "時刻", s.t(.scanDate), s.t(.scanTime)],
            .store: ["store", "merchant", "shop", "상호", "가게", "가맹점", "店名", "店", "お店", s.t(.scanMerchant)],
            .payment: ["payment", "pay", "결제", "支払い", "支払", "お支払い", s.t(.scanPayment)],
            .category: ["category", "분류", "カテゴリー", "カテゴリ", "分類", s.t(.scanCategory)],
            .pet: ["pet", "pets", "반려동물", "펫", "ペット", s.t(.scanPet)],
            .items: ["items", "item", "품목", "品目", s.t(.scanItems)],
        ]
        return Field.allCases.first { f in names[f, default: []].contains { $0.lowercased() == n } }
    }

    static func payment(_ raw: String, _ s: Session) -> Payment? {
        let v = raw.lowercased()
        for p in Payment.allCases {
            let words: [String] = switch p {
            case .card: ["card", "카드", "신용카드", "カード", "クレジット"]
            case .cash: ["cash", "현금", "現金"]
            case .transfer: ["transfer", "bank transfer", "이체", "계좌이체", "振込", "振り込み", "銀行振込"]
            case .other: ["other", "기타", "기타 결제", "その他", "その他の支払い"]
            }
            if words.contains(v) || s.paymentName(p).lowercased() == v { return p }
        }
        return nil
    }

    static func apply(_ answer: String, to draft: inout ReceiptExpense, given: inout ScanGiven, at: inout (Date, Int)?,
                      pet: inout String?, _ s: inout Session) throws {
        let cut = answer.firstIndex { " :=：\t".contains($0) } ?? answer.endIndex
        let name = String(answer[..<cut])
        let value = String(answer[cut...]).trimmingCharacters(in: CharacterSet(charactersIn: " :=：\t"))
        guard let field = field(name, s) else { throw UsageError(message: s.t(.errScanUnknownField(field: Terminal.sanitize(name)))) }
        switch field {
        case .total:
            draft.money = try s.amount(value, defaultCurrency: draft.money?.currency ?? s.homeCurrency(nil))
            given.total = true
            given.currency = true
            draft.missing.removeAll { $0 == "total" }
        case .date:
            let when = try s.when(value, for: .expense)
            let clock = s.time.clock(of: when.0)
            at = when
            draft.day = clock.day
            draft.time = ReceiptTime(hour: clock.hour, minute: clock.minute)
            given.date = true
            draft.missing.removeAll { $0 == "date" }
        case .store:
            draft.merchant = value.isEmpty ? nil : try TextField.label(value, field: "merchant")
            given.merchant = true
        case .payment:
            guard let p = payment(value, s) else { throw UsageError(message: s.t(.errScanBadPayment(value: Terminal.sanitize(value)))) }
            draft.payment = p
            given.payment = true
        case .category:
            draft.category = try CareNames.shipped.categoryEntry(value)
            given.category = true
        case .pet:
            if value.isEmpty {
                pet = nil
            } else {
                for ref in PetModelText.pets(value) { _ = try s.repository().pet(ref) }  // an unknown pet is said now, not at saving
                pet = value
            }
        case .items:
            let list = Expense.parseItems(value)
            draft.items = try list.map { try TextField.label($0, field: "items") }
            given.items = true
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

    func printProposal(_ p: ReceiptProposal, _ d: ReceiptExpense, result: OCRClient.Reading, given: ScanGiven = ScanGiven(), pet: String? = nil) {
        terminal.lines(ScanProposalPresenter(presentation).lines(p, d, receiptLines: result.lines.map(\.text), rotation: result.layout?.rotation,
                                                                 given: given, pet: pet))
    }
}
