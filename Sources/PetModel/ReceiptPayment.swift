import Foundation

/// Cash or card: a masked card number or an approval number proves a card; otherwise the words
/// for card and cash, ignoring lines that show 0 (`현금 0`) and points or membership cards.
extension ReceiptReading {
    static let cardWords = ["카드", "신용", "체크", "クレジット", "カード"]
    static let cardLatin = ["visa", "master", "mastercard", "amex", "card", "debit", "credit", "jcb"]
    static let cashWords = ["현금", "現金"]
    static let cashLatin = ["cash"]
    /// Money handed over or given back: only cash has those.
    static let tenderWords = ["받은금액", "받은돈", "거스름", "잔돈", "お預り", "お預かり", "お釣", "おつり", "tendered", "change"]
    static let approvalWords = ["승인번호", "승인", "承認番号", "承認", "approval", "authcode", "auth#", "appr"]
    /// Electronic money and QR payments: neither cash nor card (`Payment.other`).
    static let otherWords = ["電子マネー", "交通系", "paypay", "suica", "pasmo", "카카오페이", "네이버페이", "제로페이", "qr"]
    static let notPayment = ["포인트", "ポイント", "point", "reward", "멤버십", "membership", "적립"]

    static let cardMask = ReceiptPatterns.make(#"\*{3,}\s*-?\s*[0-9]{3,4}|[0-9]{4}\s*-?\s*\*{2,}|x{4,}\s*-?\s*[0-9]{4}"#)

    /// Whole words only: `cashier` is no payment.
    static func hasWord(_ words: [String], in lower: String) -> Bool {
        let tokens = Set(lower.split { !$0.isLetter }.map(String.init))
        return words.contains { tokens.contains($0) }
    }

    static func readPayment(_ lines: [ScannedLine], currency: Currency) -> ReceiptField<Payment>? {
        var card: [(ScannedLine, Int64)] = []
        var cash: [(ScannedLine, Int64)] = []
        var tendered: ScannedLine?
        var other: ScannedLine?
        for line in lines {
            let lower = line.normalized.lowercased()
            let compact = line.compact
            if notPayment.contains(where: { compact.contains($0) }) { continue }
            if !ReceiptPatterns.matches(cardMask, in: line.normalized).isEmpty
                || approvalWords.contains(where: { compact.contains($0) }) {
                return line.field(.card, certainty: 1.0)
            }
            let amount = line.runs.last?.money(in: currency)?.0.minorUnits ?? -1
            if amount == 0 { continue }
            if cardWords.contains(where: { compact.contains($0) }) || hasWord(cardLatin, in: lower) { card.append((line, amount)) }
            if cashWords.contains(where: { compact.contains($0) }) || hasWord(cashLatin, in: lower) { cash.append((line, amount)) }
            if other == nil, otherWords.contains(where: { compact.contains($0) }) { other = line }
            if tendered == nil, tenderWords.contains(where: { compact.contains($0) }) || hasWord(["change"], in: lower) { tendered = line }
        }
        // Money handed over and change given back beat a card word on a line without an amount (a slip's title,
        // `신용카드 매출전표`, printed on cash receipts too).
        if let tendered, cash.isEmpty, !card.isEmpty, card.allSatisfy({ $0.1 <= 0 }) { return tendered.field(.cash, certainty: 0.7, unsure: true) }
        switch (card.first, cash.first) {
        case let (c?, nil): return c.0.field(.card, certainty: 0.9)
        case let (nil, c?): return c.0.field(.cash, certainty: 0.9)
        case let (a?, b?):
            // Both named and neither shows 0: the larger amount paid decides, a card when that does not.
            let cardMax = card.map(\.1).max() ?? -1, cashMax = cash.map(\.1).max() ?? -1
            if cashMax > cardMax { return b.0.field(.cash, certainty: 0.5, unsure: true) }
            return a.0.field(.card, certainty: 0.5, unsure: true)
        case (nil, nil):
            if let other { return other.field(.other, certainty: 0.8) }
            return tendered.map { $0.field(.cash, certainty: 0.7, unsure: true) }
        }
    }
}
