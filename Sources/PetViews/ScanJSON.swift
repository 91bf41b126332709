import Foundation
import PetModel

/// `expense scan --json`: each field read with its confidence and the text it came from, the expense it
/// makes, the receipt's own lines and the image's facts; with `--yes`, the saved records and their ids.
public struct ScanJSON: JSONObjectView {
    /// What the OCR helper said about the image.
    public struct Image {
        public var text: [String], width: Int, height: Int, deskewDegrees: Double, rotationDegrees: Int, script: String?
        public init(text: [String], width: Int, height: Int, deskewDegrees: Double, rotationDegrees: Int, script: String?) {
            self.text = text; self.width = width; self.height = height; self.deskewDegrees = deskewDegrees; self.rotationDegrees = rotationDegrees; self.script = script
        }
    }

    public let proposal: ReceiptProposal
    public let draft: ReceiptExpense
    public let image: Image
    public let languages: String
    public var saved: [PetRecord]?
    /// What the owner gave (not guessed, so not unsure).
    public var given: ScanGiven?

    public init(_ proposal: ReceiptProposal, _ draft: ReceiptExpense, image: Image, languages: String) {
        self.proposal = proposal; self.draft = draft; self.image = image; self.languages = languages
    }

    struct Field<Value: Encodable>: Encodable {
        let value: Value, confidence: Double, source: String, unsure: Bool
    }

    /// The currency, what it was taken from (`mark`, `language`, `cents`, `home`) and the mark as printed.
    struct CurrencyField: Encodable {
        let value: String, confidence: Double, source: String, unsure: Bool, from: String, mark: String?
    }

    struct Item: Encodable { let name: String, price: MoneyJSON, confidence: Double }

    static func clock(_ t: ReceiptTime) -> String { String(format: "%02d:%02d", t.hour, t.minute) }

    struct Expense: JSONObjectView {
        let d: ReceiptExpense
        func write(_ c: inout KeyedEncodingContainer<JSONKey>) throws {
            try c.put("money", d.money.map(MoneyJSON.init)); try c.put("category", d.category); try c.put("merchant", d.merchant)
            try c.put("payment", d.payment?.rawValue); try c.put("items", d.items); try c.put("day", d.day?.description)
            try c.put("time", d.time.map(ScanJSON.clock)); try c.put("missing", d.missing)
        }
    }

    func write(_ c: inout KeyedEncodingContainer<JSONKey>) throws {
        func field<T, V: Encodable>(_ f: ReceiptField<T>?, _ value: (T) -> V) -> Field<V>? {
            f.map { Field(value: value($0.value), confidence: $0.confidence, source: $0.source, unsure: $0.unsure) }
        }
        let p = proposal
        try c.put("languages", languages); try c.put("language", p.language.rawValue)
        try c.put("date", field(p.date) { $0.description })
        try c.put("time", field(p.time, ScanJSON.clock))
        try c.put("merchant", field(p.merchant) { $0 })
        try c.put("total", field(p.total, MoneyJSON.init))
        let (from, mark): (String, String?) = switch p.currencyEvidence {
        case .mark(let m): ("mark", m)
        case .language: ("language", nil)
        case .cents: ("cents", nil)
        case .home: ("home", nil)
        }
        try c.put("currency", CurrencyField(value: p.currency.value.code, confidence: p.currency.confidence, source: p.currency.source,
                                            unsure: p.currency.unsure, from: from, mark: mark))
        // What petlog guessed (docs/receipts.md, "Unsure"): the fields the proposal marks with `?`.
        try c.put("unsure", given.map { ScanProposalPresenter.unsure(p, given: $0) } ?? p.unsure)
        try c.put("payment", field(p.payment) { $0.rawValue })
        try c.put("items", p.items.map { Item(name: $0.value.name, price: MoneyJSON($0.value.price), confidence: $0.confidence) })
        try c.put("expense", Expense(d: draft))
        try c.put("text", image.text)
        try c.put("width", image.width); try c.put("height", image.height); try c.put("deskew_degrees", image.deskewDegrees)
        try c.put("rotation_degrees", image.rotationDegrees); try c.put("script", image.script)
        if let saved {
            try c.put("saved", saved.map { RecordJSON($0) })
            try c.put("ids", saved.map(\.id))
        }
    }
}
